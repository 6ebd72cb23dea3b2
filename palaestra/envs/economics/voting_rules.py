"""The winner of an election from ranked ballots under a stated rule: plurality, Borda count, instant runoff,
or the Schulze (beatpath) method.

Each problem states one rule (the levels mix them, adding instant runoff and then Schulze), the ballots
as groups of voters with the same full ranking, and a tie-breaking rule. Elections are redrawn until the rule
picks its winner without any tie (no tied top score, no tied last place at any runoff round, one Schulze
winner), so the answer is unique whatever tie-break a solver assumes; the stated tie-break is there so the
question is well posed. Random ballots mostly elect the same candidate under every rule (Borda's winner won
68% of Schulze elections, Schulze's 59% of instant-runoff ones), so three elections in four are drawn so that
the stated rule's winner loses under each of the other three rules and is not the candidate with the most
head-to-head wins (so those Schulze elections have no Condorcet winner and the strongest paths decide):
applying one rule whatever the question states earns little. Candidate names are drawn afresh from a list of ten for every election, so no
constant name wins often.

The verifier reads one candidate's name (in a sentence, ``\\boxed{}``, after ``Answer:``) and compares it
with the winner; the feedback names the rule's winner only as "not this one" and says when the answer is the
plurality winner under a different rule.

The top level asks two judgements (``withdrawal``): the winner, and the winner once that winner withdraws (struck
from every ballot, the same rule applied to the others), answered as two names in that order (``Zed, Yan``).
Version 2 asked one name among six there, a guess that paid 1/6 (and "most head-to-head wins" 0.28); a pair
pays 1/30 by chance and that read 0.19.

Difficulty: the ballot groups times the candidates, times 1 (plurality), 2 (Borda), 3 (instant runoff,
its rounds) or 4 (Schulze) for the drawn rule, doubled when the withdrawal election is asked too.

Generation speed: about 1,200 problems/s at level 4. About 12 in 13 drawn elections are redrawn, each decided under
every rule, because the stated rule's winner is not unique or, in three elections in four, also wins under another
rule; the redraws keep one rule applied to every question from earning reward.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, squeeze_spaces
from palaestra.verifiers.sets import one_of, read_list

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena", "Milo", "Nia")
RULE_TEXT = {
    "plurality": "Plurality: the candidate ranked first on the most ballots wins.",
    "borda": "Borda count: on each ballot a candidate gets one point for every candidate ranked below them; the "
             "candidate with the most points wins.",
    "runoff": "Instant runoff: count the first choices among the remaining candidates; if one candidate has more "
              "than half of them, that candidate wins; otherwise eliminate the candidate with the fewest first "
              "choices (each ballot then counts for its highest-ranked remaining candidate) and repeat.",
    "schulze": "Schulze method: for each pair X, Y let d(X, Y) be the number of voters ranking X above Y. A path "
               "from X to Y is a chain of candidates X = C1, C2, ..., Cn = Y where each d(Ci, Ci+1) > d(Ci+1, "
               "Ci); its strength is the smallest d(Ci, Ci+1) along it, and p(X, Y) is the strength of the "
               "strongest path (0 if none). The winner is the candidate X with p(X, Y) >= p(Y, X) for every "
               "other candidate Y.",
}
DIFFER_SHARE = 0.75  # elections drawn so that the stated rule's winner loses under every other rule
DIFFER_ATTEMPTS = 8_000
RULE_WEIGHT = {"plurality": 1, "borda": 2, "runoff": 3, "schulze": 4}
WITHDRAWAL_EXAMPLE = "Zed, Yan"  # a fixed placeholder of the right shape: never derived from the answer
MAX_ANSWER_CHARS = 1_000
# The winner as a sentence, "Ada wins" ("wins the election"); at the top level the two winners in order, "Ada wins,
# then Ben (wins)", or "Ada, then Ben" ("First Ada, then Ben"). The names are then read whole by the candidate reader.
_WINS = r" wins(?: the election)?"
_SINGLE = re.compile(rf"(?P<first>[A-Za-z]{{1,20}}){_WINS}", re.IGNORECASE)
_PAIR = re.compile(rf"(?:first,? )?(?P<first>[A-Za-z]{{1,20}})(?:{_WINS})?(?:,|;| and)? then,? "
                   rf"(?P<second>[A-Za-z]{{1,20}})(?:{_WINS})?", re.IGNORECASE)

Ballots = list[tuple[int, list[int]]]  # (voters, ranking of candidate indices, best first)


def unique_best(scores: list[int]) -> int | None:
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


def plurality(ballots: Ballots, candidates: int) -> int | None:
    scores = [0] * candidates
    for voters, ranking in ballots:
        scores[ranking[0]] += voters
    return unique_best(scores)


def borda(ballots: Ballots, candidates: int) -> int | None:
    scores = [0] * candidates
    for voters, ranking in ballots:
        for place, candidate in enumerate(ranking):
            scores[candidate] += voters * (candidates - 1 - place)
    return unique_best(scores)


def runoff(ballots: Ballots, candidates: int) -> tuple[int | None, int]:
    """The instant-runoff winner (``None`` on a tie for last place or first) and the rounds counted."""
    remaining = set(range(candidates))
    total = sum(voters for voters, _ in ballots)
    for rounds in range(1, candidates + 1):
        counts = dict.fromkeys(remaining, 0)
        for voters, ranking in ballots:
            counts[next(c for c in ranking if c in remaining)] += voters
        leader = max(counts, key=counts.__getitem__)
        if 2 * counts[leader] > total:
            return leader, rounds
        fewest = min(counts.values())
        last = [c for c in remaining if counts[c] == fewest]
        if len(last) > 1:
            return None, rounds
        remaining.discard(last[0])
    return None, candidates


def schulze(ballots: Ballots, candidates: int) -> int | None:
    d = [[0] * candidates for _ in range(candidates)]
    for voters, ranking in ballots:
        for i, better in enumerate(ranking):
            for worse in ranking[i + 1:]:
                d[better][worse] += voters
    p = [[d[x][y] if d[x][y] > d[y][x] else 0 for y in range(candidates)] for x in range(candidates)]
    for via in range(candidates):  # strongest paths (Floyd-Warshall on the widest path)
        through = p[via]
        for x in range(candidates):
            to_via = p[x][via]
            if x == via or not to_via:  # a path through a zero link is no stronger than what x already has
                continue
            row = p[x]
            for y in range(candidates):
                if y != via and y != x and min(to_via, through[y]) > row[y]:
                    row[y] = min(to_via, through[y])
    winners = [x for x in range(candidates) if all(p[x][y] >= p[y][x] for y in range(candidates) if y != x)]
    return winners[0] if len(winners) == 1 else None


def copeland(ballots: Ballots, candidates: int) -> int | None:
    """The candidate beating the most others head to head (None on a tie): a cheap stand-in for a Condorcet
    method, declared as a heuristic."""
    d = [[0] * candidates for _ in range(candidates)]
    for voters, ranking in ballots:
        for i, better in enumerate(ranking):
            for worse in ranking[i + 1:]:
                d[better][worse] += voters
    return unique_best([sum(d[x][y] > d[y][x] for y in range(candidates)) for x in range(candidates)])


def ballots_in(problem: Problem) -> Ballots:
    """The ballots as the prompt lists them ("3 voters: Ada > Ben > Cleo")."""
    names, ballots = problem.data["names"], []
    for line in problem.prompt.splitlines():
        count, colon, ranking = line.partition(" voter")
        if colon and count.isdigit():
            ballots.append((int(count), [names.index(n) for n in ranking.split(": ", 1)[1].split(" > ")]))
    return ballots


def winner_without(rule: str, ballots: Ballots, candidates: int, withdrawn: int) -> int | None:
    """The winner (an index among all ``candidates``) once ``withdrawn`` is struck from every ballot, or None on a tie."""
    rest = [c for c in range(candidates) if c != withdrawn]
    chosen = winner(rule, [(voters, [rest.index(c) for c in ranking if c != withdrawn]) for voters, ranking in ballots],
                    len(rest))
    return None if chosen is None else rest[chosen]


def winner(rule: str, ballots: Ballots, candidates: int) -> int | None:
    if rule == "plurality":
        return plurality(ballots, candidates)
    if rule == "borda":
        return borda(ballots, candidates)
    if rule == "runoff":
        return runoff(ballots, candidates)[0]
    return schulze(ballots, candidates)


def _sentence(answer: str, pattern: re.Pattern[str], names: list[str]) -> list[str] | None:
    """The candidates a winning sentence names, in order (see ``_SINGLE`` and ``_PAIR``), else None."""
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        return None
    reader = one_of(names)

    def read(text: str) -> list[str] | None:
        match = pattern.fullmatch(squeeze_spaces(text.strip()))
        if match is None:
            return None
        found = [reader(group) for group in match.groups()]
        return None if any(name is None for name in found) else found  # type: ignore[return-value]

    return read_answer(answer, read)


@register
class VotingRules(Task):
    id = "economics/voting_rules"
    family = "economics"
    description = "The winner of a ranked-ballot election under plurality, Borda, instant runoff or Schulze."
    tags = ("economics", "social-choice", "voting")
    version = 3

    @dataclass(frozen=True)
    class Config:
        candidates: int
        groups: int  # groups of voters sharing a ranking
        rules: tuple[str, ...]  # the rules a problem of this level may state
        withdrawal: bool = False  # also ask who wins once the winner withdraws (two judgements, no guessable one)

    presets = (
        Config(3, 4, ("plurality", "borda")),
        Config(4, 5, ("plurality", "borda", "runoff")),
        Config(4, 6, ("borda", "runoff", "schulze")),
        Config(5, 7, ("borda", "runoff", "schulze")),
        Config(6, 8, ("runoff", "schulze"), withdrawal=True),
    )
    growth = Growth(steps={"candidates": 1, "groups": 2}, limits={"candidates": len(NAMES)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rule = rng.choice(config.rules)
        names = sorted(rng.sample(NAMES, config.candidates))
        k = config.candidates
        # most elections are drawn so that no other rule elects the stated rule's winner
        differ = rng.random() < DIFFER_SHARE

        def draw() -> tuple[Ballots, int, int | None] | None:
            ballots = [(rng.randint(1, 12), rng.sample(range(k), k)) for _ in range(config.groups)]
            chosen = winner(rule, ballots, k)
            if chosen is None or (differ and (copeland(ballots, k) == chosen
                                              or any(winner(other, ballots, k) == chosen
                                                     for other in RULE_WEIGHT if other != rule))):
                return None
            if not config.withdrawal:
                return ballots, chosen, None
            second = winner_without(rule, ballots, k, chosen)
            return None if second is None else (ballots, chosen, second)

        # about 1 draw in 90 passes for Schulze with four candidates (level 2), hence the attempts
        ballots, chosen, second = retry(draw, attempts=DIFFER_ATTEMPTS,
                                        what="an election the rule decides without a tie")
        lines = "\n".join(f"{voters} voter{'s' if voters > 1 else ''}: {' > '.join(names[c] for c in ranking)}"
                          for voters, ranking in ballots)
        prompt = (
            f"Candidates: {', '.join(names)}. Each line gives a number of voters and their ranking, best first:\n\n"
            f"{lines}\n\nThe election uses this rule. {RULE_TEXT[rule]} Any tie is broken in favour of the "
            "candidate whose name comes first alphabetically (for an elimination: the one whose name comes last "
            "is eliminated).\n\n" + (
                "Who wins? Then suppose that winner withdraws: strike them from every ballot and apply the same rule "
                "to the other candidates. Who wins then? Answer with the two names in that order, for example: "
                f"{WITHDRAWAL_EXAMPLE}" if second is not None else
                "Who wins? Answer with the winner's name, for example: Zed")
        )
        rounds = runoff(ballots, k)[1] if rule == "runoff" else 1
        first = plurality(ballots, k)
        data = {"names": names, "rule": rule, "groups": len(ballots), "rounds": rounds,
                "plurality": None if first is None else names[first]}
        if second is not None:
            data["second"] = names[second]
        answer = names[chosen] if second is None else f"{names[chosen]}, {names[second]}"
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        second = problem.data.get("second")
        if second is not None:
            pair = read_list(answer, one_of(names))
            if pair is None:
                pair = _sentence(answer, _PAIR, names)
            if pair is None or len(pair) != 2:
                return Verdict.unparsed(f"expected two candidates' names, the winner first, such as {WITHDRAWAL_EXAMPLE}")
            written, then = pair
            winner_name = (problem.answer or "").split(", ")[0]
            if written == winner_name:
                return Verdict.judge(then == second, f"{then} does not win once {written} withdraws")
        else:
            single = read_answer(answer, one_of(names))
            if single is None:
                found = _sentence(answer, _SINGLE, names)
                single = found[0] if found else None
            if single is None:
                return Verdict.unparsed(f"expected one candidate's name: one of {', '.join(names)}")
            written = single
            if written == problem.answer:
                return Verdict.right()
        if written == problem.data["plurality"] and problem.data["rule"] != "plurality":
            return Verdict.wrong(f"{written} has the most first choices, but the rule here is not plurality")
        return Verdict.wrong(f"{written} does not win under this rule")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def applying(rule: Callable[[Ballots, int], int | None]) -> Callable[[Problem], str]:
            def policy(problem: Problem) -> str:
                names, ballots = problem.data["names"], ballots_in(problem)
                chosen = rule(ballots, len(names))
                chosen = 0 if chosen is None else chosen
                if "second" not in problem.data:
                    return names[chosen]
                rest = [c for c in range(len(names)) if c != chosen]
                then = rule([(v, [rest.index(c) for c in r if c != chosen]) for v, r in ballots], len(rest))
                return f"{names[chosen]}, {names[rest[0 if then is None else then]]}"

            return policy

        return {"plurality whatever the rule": applying(plurality), "Borda whatever the rule": applying(borda),
                "most head-to-head wins": applying(copeland)}

    def difficulty(self, problem: Problem) -> float:
        """Ballot groups times candidates times the rule's weight (instant runoff: plus its rounds)."""
        weight = RULE_WEIGHT[problem.data["rule"]] + (problem.data["rounds"] - 1) / 2
        elections = 2 if "second" in problem.data else 1
        return float(problem.data["groups"] * len(problem.data["names"]) * weight * elections)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        spelled = [*super().spellings(problem), f"\\boxed{{{gold}}}", f"Answer: {gold}", f"{gold}.", gold.upper(),
                   f"**{gold}**"]
        if "second" in problem.data:
            spelled += [gold.replace(", ", " and "), gold.replace(", ", "\n")]
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold, names = problem.answer or "", problem.data["names"]
        if "second" in problem.data:
            first, second = gold.split(", ")
            others = [n for n in names if n not in (first, second)]
            return [first, f"{second}, {first}", f"{first}, {others[0]}", f"{first}, {second} or {others[0]}",
                    f"{first}, {second}, {others[0]}", f"{others[-1]}, {second}"]
        others = [n for n in names if n != gold]
        return [rng.choice(others), f"{gold} or {others[0]}", f"{others[-1]}"]
