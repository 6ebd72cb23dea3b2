"""Multi-armed bandit: pull slot machines with unknown payout rates; scored against simple rules of thumb.

There are ``arms`` machines labelled A, B, ... and a budget of ``horizon`` pulls. A pull pays 1 with the
machine's hidden rate, else 0. Every payout is one hashed draw of a tape stored with the problem
(:func:`palaestra.envs.games.common.tape_uniform`, keyed by the turn and the machine), so a replay of the
same pulls sees the same payouts, and so does every rule the generator plays on the problem.

Each turn the model names one machine (``C``, ``machine C``, ``pull C``; a trailing remark is
fine, ``C or D`` is not). The reward is based on expected payouts, not on luck, and normalised to
regret (:func:`palaestra.core.multiturn.regret_reward`): the episode pays, on its last pull,
``clip((sum of the pulled machines' rates - zero) / (horizon * best rate - zero))`` with
``zero = second + RULE_SHARE * max(0, rules - second)``: ``second`` is ``horizon`` times the higher
of the second-best rate and the mean of all rates (always pulling the second-best machine, or
random play), ``rules`` the most any simple rule of :data:`RULES` earns on this very problem
(its pulled machines' rates summed, the rule played at generation on the problem's own payout
tape: explore-then-commit with 1, 2, 3 and 5 pulls per machine, greedy, epsilon-greedy 0.05 /
0.1 / 0.2, win-stay lose-shift, and "the first machine standing 0.5 / 0.75 / 1 above the mean
of the other payouts, else greedy") and :data:`RULE_SHARE` 0.8. A deterministic rule replays its
own pulls and payouts exactly, so it earns at most the top fifth of the way from its own total
to always pulling the best machine; always pulling the best machine scores exactly 1, any other
fixed machine and random play 0. A malformed move counts as a pull of the worst machine. A turn's
verdict is correct when it pulled the best machine; the oracle (which knows the rates) always does.

The honest player (:meth:`MultiArmedBandit.honest_move`) reads only the payouts. It pulls the
machine most likely to be the best one under the model "one machine pays :data:`HONEST_LIFT` more
than a common rate of all the others" (the common rate fitted on a grid; an untried machine wins
ties). Levels add machines and pulls (past the presets one machine and four pulls a level, at most
26 machines; every level has at least 10 machines, so a machine repeated blindly is the best one in
1/arms of the games); the other machines lie within 0.2 below the
second-best, the best is 0.6-0.8 above it (0.55-0.75 at the top level). The difficulty measure is
the arms plus log2 of the classical hardness of best-arm identification,
``sum over the other arms of (1/2 / gap)^2``.

Version 4: the zero is the best simple rule's total on the same machines and payouts, not the
second-best machine. Version 3's zero let any sensible rule of thumb score: over 60 seeds per
level (levels 0 / 2 / 4) greedy 0.53 / 0.58 / 0.43, epsilon-greedy 0.05 0.50 / 0.52 / 0.43,
explore-then-commit with 2 pulls each 0.34 / 0.34 / 0.18, its own honest player (UCB1) 0.55 /
0.57 / 0.48. Now (60 seeds per level 0-4) explore-then-commit scores at most 0.06, greedy 0.10 -
0.13, epsilon-greedy at most 0.08, win-stay lose-shift at most 0.11, UCB1 0.10 - 0.13, Thompson
sampling (Beta posteriors) at most 0.02, random play 0, and the honest player 0.54 / 0.51 / 0.46 /
0.43 / 0.42. The standout rules are the exception: "the first machine whose mean payout stands 0.5
above the mean of the other payouts, else greedy" scores about as much as the honest player (0.52 /
0.49 / 0.45 / 0.40 / 0.44; with 0.75 0.47 - 0.32, with 1 0.11 - 0.19). That rule is this game's good strategy (a search that stops
at a machine which stands out), and no zero separates it from the honest player: with it in the
family at a share of 1 the honest player (and every learner tried: UCB1, Thompson sampling, a
Bayesian posterior) scores 0.1 - 0.2, below the kit's 0.3. The share 0.8 keeps the honest player
above 0.4 and every rule but the standout ones at or below 0.15. Version 4 also drops Gaussian payouts (the honest
player fell to 0.2 - 0.3 on them under this zero); ``gaussian`` (False) and ``noise`` (1/2, the
Bernoulli noise bound) stay public facts.

Generation speed: about 6 ms per problem at the top level (12 rules played on the problem's tape).
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward
from palaestra.core.task import Growth
from palaestra.envs.games.common import read_label, tape_uniform

NOUNS = ("machine", "arm", "slot machine", "bandit", "lever")
VERBS = ("pull", "play", "choose", "try")
RULE_SHARE = 0.8  # the zero's place from the second-best machine (0) to the best simple rule's total (1)
HONEST_LIFT = 0.8  # the honest player's working assumption: the best machine pays this much more than the rest
_RATES = [i / 40 for i in range(1, 40)]  # the honest player's grid of the other machines' common rate


@register
class MultiArmedBandit(MultiTurnTask):
    id = "games/multi_armed_bandit"
    family = "games"
    description = "Pull slot machines with hidden payout rates; scored by regret against always pulling the best."
    tags = ("games", "multi-turn", "decision-making", "exploration")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 4
    hidden_information = True
    score_based = True
    public_keys = ("labels", "horizon", "gaussian", "noise")  # the prompt states the payout kind

    @dataclass(frozen=True)
    class Config:
        arms: int
        horizon: int  # pulls in the episode
        gap: tuple[float, float]  # best minus second-best payout rate, in units of the Bernoulli noise bound 1/2
        spread: float = 0.4  # the other machines' rates lie this far below the second-best at most (noise units)

    # At least 10 machines at every level: a machine repeated blindly is the best one in 1/arms of the games.
    presets = (
        Config(arms=10, horizon=40, gap=(1.2, 1.6)),
        Config(arms=12, horizon=48, gap=(1.2, 1.6)),
        Config(arms=14, horizon=56, gap=(1.2, 1.6)),
        Config(arms=16, horizon=64, gap=(1.2, 1.6)),
        Config(arms=18, horizon=72, gap=(1.1, 1.5)),
    )
    growth = Growth(steps={"arms": 1, "horizon": 4}, limits={"arms": 26})  # one letter per machine

    def generate(self, rng: random.Random, config: Config) -> Problem:
        labels = string.ascii_uppercase[: config.arms]
        means = _bernoulli_means(rng, config)
        rng.shuffle(means)
        tape = rng.getrandbits(48)
        horizon = config.horizon
        rules = _rule_totals(means, horizon, tape, random.Random(rng.getrandbits(48)))
        second = horizon * _zero(means)
        zero = second + RULE_SHARE * max(0.0, max(rules.values()) - second)
        example = labels[-1]
        prompt = (
            f"There are {config.arms} slot machines labelled {', '.join(labels)}. Each pull of a machine pays 1 "
            "with its own hidden probability and 0 otherwise. The machines differ and do not change over time. "
            f"You have {horizon} pulls.\n\n"
            "Your score is based on the expected payout of the machines you pull, not on luck, and compares it with "
            "what simple rules of thumb (pull each machine once and then stick with the best so far, and the like) "
            "would have earned with the same machines and payouts: it is 0 up to four fifths of the way from always "
            "pulling the second-best machine to the best of those rules, and always pulling the best machine scores "
            "1. The score is paid after your last pull. A malformed move counts as a pull of the worst machine."
            f"\n\nEach turn, name the one machine you pull by its letter, for example: {example}"
        )
        data = {"labels": labels, "means": means, "gaussian": False, "noise": 0.5, "horizon": horizon,
                "tape": tape, "zero": round(zero, 6), "rule": max(rules, key=rules.__getitem__)}
        return Problem(prompt=prompt, answer=labels[means.index(max(means))], data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["horizon"]

    def difficulty(self, problem: Problem) -> float:
        """Arms plus log2 of (1 + the pulls it takes to tell the best arm apart, sum of (noise / gap)^2).

        The sum alone is heavy-tailed (a near-tie makes it huge), so its level means are noisy; the log keeps
        the separation in it and the arm count keeps each level above the last.
        """
        means = problem.data["means"]
        best = max(means)
        return len(means) + math.log2(1 + sum((0.5 / (best - m)) ** 2 for m in means if m != best))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"turn": 0, "achieved": 0.0}

    def _reward(self, problem: Problem, achieved: float, done: bool) -> float:
        data = problem.data
        return regret_reward(achieved, data["zero"], data["horizon"] * max(data["means"])) if done else 0.0

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        labels, means = data["labels"], data["means"]
        turn = state["turn"] + 1
        done = turn >= data["horizon"]
        label = read_label(move, labels, NOUNS, VERBS)
        if label is None:
            achieved = state["achieved"] + min(means)
            bad = Outcome.invalid({"turn": turn, "achieved": achieved}, f"name one machine by its letter ({', '.join(labels)})")
            reward = self._reward(problem, achieved, done)
            return bad._replace(done=done, verdict=dataclasses.replace(bad.verdict, reward=reward) if reward else bad.verdict)
        arm = labels.index(label)
        achieved = state["achieved"] + means[arm]
        reward = self._reward(problem, achieved, done)
        paid = "1" if _pays(data["tape"], turn, arm, means[arm]) else "0"
        verdict = Verdict(reward, means[arm] == max(means), True, f"pulled {label}")
        ending = f" That was your last pull; your score is {reward:.2f}." if done else ""
        return Outcome({"turn": turn, "achieved": achieved}, verdict, f"Machine {label} paid {paid}.{ending}", done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return list(problem.data["labels"])

    def honest_move(self, view: View) -> str:
        labels = view.public["labels"]
        return labels[_likeliest_best(_Record.of(labels, view.history))]

    def heuristics(self) -> dict[str, Policy]:
        def policy(rule: Callable[[_Record, random.Random], int]) -> Policy:
            def move(problem: Problem, state: Any, history: Sequence[tuple[str, str]], rng: random.Random) -> str:
                labels = problem.data["labels"]
                return labels[rule(_Record.of(labels, history), rng)]
            return move

        return {"always A": lambda problem, state, history, rng: problem.data["labels"][0],
                "always the prompt's example (the last machine)":
                    lambda problem, state, history, rng: problem.data["labels"][-1],
                "round robin": policy(lambda record, rng: record.turns % record.arms),
                "random": policy(lambda record, rng: rng.randrange(record.arms)),
                **{name: policy(rule) for name, rule in RULES.items()}}


_PAID = re.compile(r"Machine ([A-Z]) paid (-?\d+(?:\.\d+)?)\.")


def _payouts(history: Sequence[tuple[str, str]]) -> dict[str, list[float]]:
    """What each machine paid so far, read from the observations (by machine; :class:`_Record` keeps the order)."""
    paid: dict[str, list[float]] = {}
    for _, observation in history:
        match = _PAID.match(observation)
        if match:
            paid.setdefault(match.group(1), []).append(float(match.group(2)))
    return paid


def _zero(means: Sequence[float]) -> float:
    """The mean payout per pull that scores 0: the better of the second-best machine and random play.

    Random play usually pays less than the second-best machine, but not always (one far better machine
    among close ones lifts the mean of all above the runner-up).
    """
    return max(sorted(means)[-2], sum(means) / len(means))


def _bernoulli_means(rng: random.Random, config: MultiArmedBandit.Config) -> list[float]:
    gap = round(rng.uniform(*config.gap) * 0.5, 2)  # in units of the Bernoulli noise bound 1/2
    spread = config.spread * 0.5
    second = round(rng.uniform(min(0.05 + spread, 0.95 - gap), 0.95 - gap), 3)
    others = [round(max(0.02, rng.uniform(second - spread, second)), 3) for _ in range(config.arms - 2)]
    return [round(second + gap, 3), second, *others]


def _pays(tape: int, turn: int, arm: int, rate: float) -> bool:
    """Whether pull ``turn`` of machine ``arm`` pays: one hashed draw of the problem's tape."""
    return tape_uniform(MultiArmedBandit.id, tape, "pull", turn, arm) < rate


class _Record:
    """What a player knows after some pulls: pulls and payout sums per machine, the last pull, early sums."""

    __slots__ = ("arms", "turns", "pulls", "sums", "last", "paid", "early")

    def __init__(self, arms: int) -> None:
        self.arms, self.turns = arms, 0
        self.pulls, self.sums = [0] * arms, [0.0] * arms
        self.last, self.paid = -1, 0.0
        self.early: dict[int, list[float]] = {}  # sums per machine after m rounds of pulls, m in EXPLORE_ROUNDS

    def add(self, arm: int, paid: float) -> None:
        self.turns += 1
        self.pulls[arm] += 1
        self.sums[arm] += paid
        self.last, self.paid = arm, paid
        if self.turns % self.arms == 0 and self.turns // self.arms in EXPLORE_ROUNDS:
            self.early[self.turns // self.arms] = list(self.sums)

    @classmethod
    def of(cls, labels: str, history: Sequence[tuple[str, str]]) -> _Record:
        """The record of the pulls the observations report (an unreadable move is a turn without a pull)."""
        record = cls(len(labels))
        for _, observation in history:
            match = _PAID.match(observation)
            if match and match.group(1) in labels:
                record.add(labels.index(match.group(1)), float(match.group(2)))
            else:
                record.turns += 1
        return record


def _untried(record: _Record) -> int | None:
    return next((arm for arm, n in enumerate(record.pulls) if n == 0), None)


def _best_seen(record: _Record) -> int:
    """The machine with the highest mean payout so far (the first such in label order)."""
    means = [s / n if n else -1.0 for s, n in zip(record.sums, record.pulls)]
    return means.index(max(means))


def _greedy(record: _Record, rng: random.Random) -> int:
    untried = _untried(record)
    return _best_seen(record) if untried is None else untried


def _explore_then_commit(rounds: int) -> Callable[[_Record, random.Random], int]:
    def rule(record: _Record, rng: random.Random) -> int:
        if record.turns < rounds * record.arms:
            return record.turns % record.arms
        sums = record.early.get(rounds, record.sums)
        return sums.index(max(sums))
    return rule


def _epsilon_greedy(epsilon: float) -> Callable[[_Record, random.Random], int]:
    def rule(record: _Record, rng: random.Random) -> int:
        if _untried(record) is None and rng.random() < epsilon:
            return rng.randrange(record.arms)
        return _greedy(record, rng)
    return rule


def _win_stay(record: _Record, rng: random.Random) -> int:
    """Win-stay, lose-shift: pull the last machine again after a payout, else the next in label order."""
    if record.last < 0:
        return 0
    return record.last if record.paid >= 1 else (record.last + 1) % record.arms


def _standout(margin: float) -> Callable[[_Record, random.Random], int]:
    """The first machine whose mean payout is ``margin`` above the mean of all other payouts so far, else greedy."""
    def rule(record: _Record, rng: random.Random) -> int:
        total, count = sum(record.sums), sum(record.pulls)
        for arm, (n, s) in enumerate(zip(record.pulls, record.sums)):
            if n and count > n and s / n >= (total - s) / (count - n) + margin:
                return arm
        return _greedy(record, rng)
    return rule


EXPLORE_ROUNDS = (1, 2, 3, 5)
RULES: dict[str, Callable[[_Record, random.Random], int]] = {
    **{f"explore then commit, {m} pull{'s' if m > 1 else ''} each": _explore_then_commit(m) for m in EXPLORE_ROUNDS},
    "greedy (each once, then the best mean so far)": _greedy,
    **{f"epsilon-greedy {e:g}": _epsilon_greedy(e) for e in (0.05, 0.1, 0.2)},
    "win-stay, lose-shift": _win_stay,
    **{f"stick with a machine {m:g} above the rest, else greedy": _standout(m) for m in (0.5, 0.75, 1.0)},
}


def _rule_totals(means: Sequence[float], horizon: int, tape: int, rng: random.Random) -> dict[str, float]:
    """Each simple rule's total expected payout (the sum of its pulled machines' rates) on this problem's tape."""
    cache: dict[tuple[int, int], float] = {}
    totals = {}
    for name, rule in RULES.items():
        record, total = _Record(len(means)), 0.0
        for turn in range(1, horizon + 1):
            arm = rule(record, rng)
            paid = cache.get((turn, arm))
            if paid is None:
                paid = cache[turn, arm] = 1.0 if _pays(tape, turn, arm, means[arm]) else 0.0
            record.add(arm, paid)
            total += means[arm]
        totals[name] = total
    return totals


def _likeliest_best(record: _Record) -> int:
    """The honest player's pull: the machine most likely to be the best one, given the payouts so far.

    The model: one machine pays at a rate :data:`HONEST_LIFT` above a common rate of all others (fitted on a
    grid, :data:`_RATES`). Each machine's log-likelihood of being the best one is maximised over the common
    rate; the likeliest is pulled, an untried machine winning ties (before it, the first machine in order).
    """
    total, count = sum(record.sums), sum(record.pulls)
    grid = [(math.log(a), math.log(1 - a), math.log(a + HONEST_LIFT), math.log(1 - a - HONEST_LIFT))
            for a in _RATES if a + HONEST_LIFT < 1]

    def fit(arm: int) -> tuple[float, bool, int]:
        won, n = record.sums[arm], record.pulls[arm]
        rest, m = total - won, count - n
        best = max(won * lb + (n - won) * lb0 + rest * la + (m - rest) * la0 for la, la0, lb, lb0 in grid)
        return round(best, 9), n == 0, -arm

    return max(range(record.arms), key=fit)
