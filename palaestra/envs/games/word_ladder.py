"""Word ladder: turn a start word into a target word by changing one letter at a time, every step a real word.

Both words come from the shipped list of five-letter words (``words.txt``). The prompt lists
the puzzle's allowed words: every word on a ladder at most two steps longer than the shortest,
plus words one letter from those (dead ends; two letters where the region is sparse), drawn at
random up to 80 words in all, so the model never needs a list it cannot see. Each turn the model
writes the next word of its ladder: it must be on the puzzle's list and differ from the current
word in exactly one position (``crane`` -> ``crate``). A word that breaks the rule (or is not
allowed, or unreadable) is rejected with the reason and costs a turn; the ladder stays where it was. Reward
1 on reaching the target within the turn budget: the shortest ladder plus the level's spare
steps.

Start and target are drawn so that the shortest ladder between them (breadth-first over the
one-letter-change graph of the list) has exactly the level's length: 5 steps at levels 0-2, then one more a level
(a start is drawn in proportion to its targets at that length, so that the pairs come up about evenly); the oracle
walks a shortest ladder. A puzzle is redrawn when one of the three closer-letters rules of :data:`RULES` (declared as
heuristics; each steps to an allowed, unvisited word one letter away: the one sharing the most letters with the
target, the one from which the closest word is one step nearer, or a closer one else a one-letter detour towards a
closer word) reaches the target within the turns with a chance above the level's bound when it breaks its ties at
random: 0.5, 0.4, 0.2 and 0.2 at levels 0-3, and from level 4 for any tie-break. The difficulty measure is the
ladder's length less a tenth of the spare turns, plus a hundredth of its steps that bring no letter closer.

``make("games/word_ladder", progress_rewards=True)`` pays ``1 / length`` each time the ladder
comes closer to the target (by the shortest remaining ladder) than it ever was, instead of 1 at
the end; a won game still totals 1.

Versions 3-4 redrew the puzzles the closer-letters rule joined for any tie-break at ladder length 7 (level 4) and for
two tie-break orders at lengths 5-6 (levels 2-3), and left the 3- and 4-step ladders of levels 0-1 alone.

Version 5: in version 4 the rule with ties at random won 0.97, 0.89, 0.27, 0.28, 0.03 of levels 0-4, its one-step
look-ahead 1.00, 0.97, 0.51, 0.54, 0.13 (100 seeds); now 0.18, 0.09, 0.03, 0.02, 0.00 and 0.23, 0.11, 0.02, 0.01,
0.00 (the one-letter detours alike, any fixed alphabetical tie-break at most 0.30 at level 0 and 0.06 from level 2).
A 3-step ladder is always one the look-ahead joins, and under 2% of 4-step puzzles beat every rule for every
tie-break, too few distinct puzzles: hence 5 steps from level 0.

Version 6: a fixed tie-break is a policy of its own, and a chance of a half with ties at random left the six rule and
tie-break pairs (alphabetically first or last) joining 0.15-0.30 of level 0's puzzles ("one step ahead, alphabetical
ties" 0.30), 0.05-0.10 of level 1's; a puzzle any of them joins is now redrawn: 0.00 at levels 0-2 (40 seeds).

Generation speed: about 25-50 ms of CPU a problem at levels 0-1 (version 5: 10-30 ms), 5-20 ms
from level 2. Per pair, two breadth-first searches over the word graph (from the start and from the target, cached
by word) pin the ladder's exact length and the puzzle's word list, and the rules' tie-breaks are searched depth
first, cut wherever the target is more steps away (through allowed words) than the turns left.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games._words import LENGTH, read_word, words


@register
class WordLadder(MultiTurnTask):
    id = "games/word_ladder"
    family = "games"
    description = "Change a start word into a target word one letter at a time, through real words only."
    tags = ("games", "multi-turn", "words", "search")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    option_variants = ({"progress_rewards": True},)
    version = 6  # v6: also redrawn when a rule with alphabetical ties (first or last) joins the words

    @dataclass(frozen=True)
    class Config:
        length: int  # steps in the shortest ladder
        spare: int  # turns beyond the shortest ladder
        rule_chance: float  # the most chance a closer-letters rule may have of joining the words (ties at random)

    def __init__(self, answer_format: str | None = None, progress_rewards: bool = False) -> None:
        """``progress_rewards``: pay ``1 / length`` each time the ladder gets closer to the target than ever before
        (by the shortest remaining ladder), instead of 1 at the end (same total)."""
        super().__init__(answer_format)
        self.progress_rewards = progress_rewards

    # Ladders of 5 steps from level 0: a 3-step ladder is always joined by the one-step look-ahead (it sees the
    # target's neighbours from the start), and too few 4-step ones are not (version 5 in the module docstring).
    # Levels 0-2 differ in spare turns and in the rules' allowed chance; from level 4 no tie-break may join the words.
    presets = (Config(5, 4, 0.5), Config(5, 3, 0.4), Config(5, 2, 0.2), Config(6, 2, 0.2), Config(7, 2, 0.0))
    # Capped at level 28's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"length": 31})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        vocabulary = words()

        def draw() -> tuple[str, str] | None:
            start = rng.choice(vocabulary)
            distance = _distances_from(start)
            if len(distance) < 100:  # a small island of words: its allowed list would be little more than the ladder
                return None
            targets = sorted(w for w, d in distance.items() if d == config.length)
            # Up to 7 steps a start with few targets is kept as often as its share of the pairs: drawn as often as any
            # other, its pairs would come up again and again (level 0: 946 distinct puzzles in 1,000 seeds, not 979).
            # Longer ladders have distinct pairs to spare, and few starts have many targets.
            if config.length <= 7 and rng.random() * EVEN_TARGETS > len(targets):
                return None
            return (start, rng.choice(targets)) if targets else None

        turns = config.length + config.spare

        def draw_hard() -> tuple[str, str, list[str]] | None:
            pair = draw()
            if pair is None:
                return None
            allowed = _puzzle_words(rng, *pair, config.length)
            return None if _rules_win(allowed, *pair, turns, config.rule_chance) else (*pair, allowed)

        start, target, allowed = retry(draw_hard, what=f"two words {config.length} steps apart that the "
                                                        "closer-letters rules seldom join")
        prompt = (
            f"Make a word ladder from {start.upper()} to {target.upper()}: change one letter at a time (keeping the "
            "others in place), and every step must be one of these allowed words:\n\n"
            f"{' '.join(allowed)}\n\n"
            "Each turn, write the next word of your ladder, for example: crate. A word that is not allowed or "
            f"changes more or less than one letter is rejected and costs a turn. You have {turns} turns; the "
            f"shortest ladder takes {config.length} steps."
        )
        data = {"start": start, "target": target, "length": config.length, "turns": turns, "allowed": allowed}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Steps in the shortest ladder, less a tenth of the spare turns (a looser budget forgives more mistakes), plus
        a hundredth of the steps that bring no letter closer to the target (the length less the letters that differ)."""
        data = problem.data
        detours = data["length"] - _letters_off(data["start"], data["target"])
        return data["length"] - (data["turns"] - data["length"]) / 10 + detours / 100

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        if self.progress_rewards:  # also the closest the ladder has come (shortest remaining ladder)
            return {"word": problem.data["start"], "closest": problem.data["length"]}
        return {"word": problem.data["start"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        word = read_word(move)
        current = state["word"]
        if word is None:
            return Outcome(state, Verdict.unparsed("not a five-letter word"), "Invalid step: write one five-letter word.")
        if word not in problem.data["allowed"]:
            return Outcome(state, Verdict.wrong("unknown word"),
                           f"{word} is not an allowed word. You are still at {current}.")
        changed = sum(a != b for a, b in zip(word, current))
        if changed != 1:
            return Outcome(state, Verdict.wrong("not one letter"),
                           f"{word} changes {changed} letters of {current}, not one. You are still at {current}.")
        said = f"{word}: accepted. Target: {problem.data['target']}."
        if not self.progress_rewards:
            if word == problem.data["target"]:
                return Outcome({"word": word}, Verdict.right(), f"{word}: you reached the target!", True)
            return Outcome({"word": word}, Verdict.wrong("climbing"), said)
        # Only a new closest point pays, so walking back and forth earns nothing.
        remaining = _distances_from(problem.data["target"]).get(word, state["closest"])
        closest = min(state["closest"], remaining)
        share = (state["closest"] - closest) / problem.data["length"]
        if word == problem.data["target"]:
            return Outcome({"word": word, "closest": 0}, Verdict(share, True, True, "won"),
                           f"{word}: you reached the target!", True)
        return Outcome({"word": word, "closest": closest}, Verdict(share, False, True, "climbing"), said)

    def heuristics(self) -> dict[str, Policy]:
        return {name: _playing(rule) for name, rule in RULES.items()}

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        distance = _distances_from(problem.data["target"])
        here = distance[state["word"]]
        return min(w for w in _neighbours()[state["word"]] if distance.get(w) == here - 1)


@functools.cache
def _neighbours() -> dict[str, tuple[str, ...]]:
    """Per word, the words of the list one letter away (through wildcard buckets such as ``cr_ne``)."""
    buckets: dict[str, list[str]] = {}
    for word in words():
        for i in range(LENGTH):
            buckets.setdefault(word[:i] + "_" + word[i + 1:], []).append(word)
    out: dict[str, set[str]] = {word: set() for word in words()}
    for group in buckets.values():
        for word in group:
            out[word].update(w for w in group if w != word)
    return {word: tuple(sorted(near)) for word, near in out.items()}


@functools.lru_cache(maxsize=4096)
def _distances_from(source: str) -> dict[str, int]:
    """Ladder lengths from ``source`` to every word it can reach."""
    return _steps(_neighbours(), source)


def _steps(near: Mapping[str, Sequence[str]], source: str) -> dict[str, int]:
    """Steps from ``source`` to every word it reaches through ``near`` (breadth-first)."""
    distance = {source: 0}
    queue = deque([source])
    while queue:
        word = queue.popleft()
        for w in near[word]:
            if w not in distance:
                distance[w] = distance[word] + 1
                queue.append(w)
    return distance


MAX_ALLOWED = 80
EVEN_TARGETS = 80  # up to 7 steps, starts with fewer targets at the ladder's length are kept less often
RULE_NODES = 20_000  # tie-breaks of a rule explored at most (a puzzle that needs more counts as joined by it)


def _letters_off(word: str, target: str) -> int:
    return sum(a != b for a, b in zip(word, target))


# A closer-letters rule ranks the allowed, unvisited words one letter from the current word (lowest first); it steps
# to a lowest one. Arguments: the step, the current word, the words visited, each allowed word's allowed neighbours,
# each allowed word's letters off the target.
Rule = Callable[[str, str, frozenset[str], dict[str, list[str]], dict[str, int]], tuple[int, ...]]


def _closer_letters(step: str, word: str, seen: frozenset[str], near: dict[str, list[str]],
                    off: dict[str, int]) -> tuple[int, ...]:
    """The textbook rule: the step sharing the most letters with the target."""
    return (off[step],)


def _one_step_ahead(step: str, word: str, seen: frozenset[str], near: dict[str, list[str]],
                    off: dict[str, int]) -> tuple[int, ...]:
    """The fewest letters off the target among the step and its unvisited neighbours (then the step's own)."""
    return min([off[step], *(off[w] for w in near[step] if w not in seen)]), off[step]


def _one_letter_detours(step: str, word: str, seen: frozenset[str], near: dict[str, list[str]],
                        off: dict[str, int]) -> tuple[int, ...]:
    """A closer step if there is one; else a detour after which a word closer than the current one is a step away."""
    here = off[word]
    if off[step] < here:
        return off[step], off[step]
    comes_closer = any(off[w] < here for w in near[step] if w not in seen)
    return (here if comes_closer else here + 1), off[step]


RULES: dict[str, Rule] = {"closer letters first": _closer_letters, "closer letters, one step ahead": _one_step_ahead,
                          "closer letters, one-letter detours": _one_letter_detours}


def _graph(allowed: list[str], start: str, target: str) -> tuple[dict[str, list[str]], dict[str, int]]:
    """The puzzle's graph for the rules: each allowed word's allowed neighbours and its letters off the target."""
    allowed_set = set(allowed) | {start}
    near = {w: [n for n in _neighbours()[w] if n in allowed_set] for w in allowed_set}
    return near, {w: _letters_off(w, target) for w in allowed_set}


def _playing(rule: Rule) -> Policy:
    """A rule as a player: an allowed word one letter away, unvisited if it can, lowest by the rule (ties at random)."""

    def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
        word, data = state["word"], problem.data
        near, off = _graph(data["allowed"], data["start"], data["target"])
        seen = frozenset({data["start"], *(move.strip().lower() for move, _ in history)})
        steps = [w for w in near[word] if w not in seen] or near[word] or [word]
        return min(steps, key=lambda w: (rule(w, word, seen, near, off), rng.random()))

    return policy


def _rules_win(allowed: list[str], start: str, target: str, turns: int, most: float) -> bool:
    """Whether a rule of :data:`RULES` (stepping to an unvisited word if it can) reaches the target within ``turns``
    steps with a chance above ``most`` when its ties are broken at random -- for ``most`` 0: for some tie-break."""
    near, off = _graph(allowed, start, target)
    to_target = _steps(near, target)  # steps to the target through allowed words: a walk with fewer turns left is cut
    for rule in RULES.values():
        # A fixed tie-break (the alphabetically first or last word) is a policy of its own: a chance of a half with
        # ties at random left these two joining 0.15-0.30 of level 0's puzzles.
        for pick in (min, max):
            word, seen = start, frozenset({start})
            for _ in range(turns):
                steps = [w for w in near[word] if w not in seen] or near[word]
                ranks = {w: rule(w, word, seen, near, off) for w in steps}
                word = pick(w for w in steps if ranks[w] == min(ranks.values()))
                seen |= {word}
                if word == target:
                    return True
        budget, reached = RULE_NODES, 0.0
        # Depth first over the rule's tie-breaks, each walk weighted by its chance; stop once the chance passes `most`.
        stack = [(start, frozenset({start}), turns, 1.0)]
        while stack:
            word, seen, left, weight = stack.pop()
            if word == target:
                reached += weight
                if reached > most:
                    return True
                continue
            budget -= 1
            if budget < 0:
                return True
            if to_target.get(word, turns + 1) > left:
                continue
            steps = [w for w in near[word] if w not in seen] or near[word]
            ranks = {w: rule(w, word, seen, near, off) for w in steps}
            lowest = min(ranks.values())  # never empty: a word reached has the word it came from
            best = [w for w in steps if ranks[w] == lowest]
            stack.extend((w, seen | {w}, left - 1, weight / len(best)) for w in best)
    return False


def _puzzle_words(rng: random.Random, start: str, target: str, length: int) -> list[str]:
    """The words the puzzle allows: those on ladders at most two steps longer than the shortest, then
    random one-letter neighbours of them (dead ends and detours), up to ``MAX_ALLOWED``; sorted."""
    from_start, to_target = _distances_from(start), _distances_from(target)
    near_path = {w for w, d in from_start.items() if d + to_target.get(w, 99) <= length + 2}
    ring = {n for w in near_path for n in _neighbours()[w]} - near_path
    second = {n for w in ring for n in _neighbours()[w]} - near_path - ring
    extra = sorted(ring) if len(ring) >= 20 else sorted(ring | second)
    room = max(0, MAX_ALLOWED - len(near_path))
    return sorted(near_path | set(rng.sample(extra, min(room, len(extra)))))
