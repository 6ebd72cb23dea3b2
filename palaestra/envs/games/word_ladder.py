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
one-letter-change graph of the list) has exactly the level's length; the oracle walks a shortest
ladder. The difficulty measure is that length.

Version 3: from ladder length 7 (level 4) on, puzzles are redrawn when the closer-letters rule (step to an allowed
unvisited word sharing the most letters with the target, any tie-break: :func:`_greedy_wins`) reaches the target
within the budget; in version 2 that rule (ties at random) solved 0.97, 0.83, 0.72, 0.51 and 0.35 of levels 0-4
(100 seeds), now 0.04 at level 4. It is declared as a heuristic. Shorter ladders are unchanged: filtering them
leaves too few distinct puzzles (level 2: 887 in 1,000 seeds, level 3: 948).

``make("games/word_ladder", progress_rewards=True)`` pays ``1 / length`` each time the ladder
comes closer to the target (by the shortest remaining ladder) than it ever was, instead of 1 at
the end; a won game still totals 1.

Version 4: the rule is also ruled out at ladder lengths 5 and 6 (levels 2-3), for two tie-break orders
(alphabetical, and alphabetical read backwards): it solved 0.67 and 0.50 of them in version 3 (200 seeds, ties at
random), now 0.27 and 0.25. Ruling out every tie-break there leaves too few distinct puzzles (level 2: 865 in 1,000
seeds).

Generation speed: about 800-1,000 problems/s at level 4 (near the line). Two breadth-first searches over the
word graph (from the start and from the target, cached by word but rarely repeated) take about 70% of it: they
pin the ladder's exact length and the puzzle's word list, which the turn budget and the prompt depend on.
"""

from __future__ import annotations

import functools
import random
from collections import deque
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
    version = 4

    @dataclass(frozen=True)
    class Config:
        length: int  # steps in the shortest ladder
        spare: int

    def __init__(self, answer_format: str | None = None, progress_rewards: bool = False) -> None:
        """``progress_rewards``: pay ``1 / length`` each time the ladder gets closer to the target than ever before
        (by the shortest remaining ladder), instead of 1 at the end (same total)."""
        super().__init__(answer_format)
        self.progress_rewards = progress_rewards

    presets = (Config(3, 4), Config(4, 4), Config(5, 3), Config(6, 3), Config(7, 2))
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
            return (start, rng.choice(targets)) if targets else None

        turns = config.length + config.spare
        if config.length < GREEDY_FREE_FROM:
            start, target = retry(draw, what=f"two words {config.length} steps apart")
            allowed = _puzzle_words(rng, start, target, config.length)
        else:
            # Short ladders: ruling out every tie-break leaves too few distinct puzzles (level 2: 865 in 1,000
            # seeds), so there the rule is ruled out for two tie-break orders only.
            greedy_wins = _greedy_wins if config.length >= GREEDY_ANY_TIE_FROM else _greedy_two_orders_win

            def draw_hard() -> tuple[str, str, list[str]] | None:
                pair = draw()
                if pair is None:
                    return None
                words_allowed = _puzzle_words(rng, *pair, config.length)
                return None if greedy_wins(words_allowed, *pair, turns) else (*pair, words_allowed)

            start, target, allowed = retry(draw_hard, what=f"two words {config.length} steps apart that the "
                                                            "closer-letters rule does not join")
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
        """Words in the ladder, plus a tenth of the letters the start and the target differ in."""
        data = problem.data
        return float(data["length"]) + sum(a != b for a, b in zip(data["start"], data["target"])) / 10

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
        return {"closer letters first": _closer_letters}

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
    """Ladder lengths from ``source`` to every word it can reach (breadth-first)."""
    distance = {source: 0}
    queue = deque([source])
    neighbours = _neighbours()
    while queue:
        word = queue.popleft()
        for near in neighbours[word]:
            if near not in distance:
                distance[near] = distance[word] + 1
                queue.append(near)
    return distance


MAX_ALLOWED = 80
GREEDY_FREE_FROM = 5  # from this ladder length on (level 2), puzzles the closer-letters rule solves are redrawn
GREEDY_ANY_TIE_FROM = 7  # from this length on (level 4), for every tie-break; below, for two tie-break orders
GREEDY_NODES = 3_000  # the rule's tie-breaks explored at most (a puzzle that needs more counts as won by it)


def _letters_off(word: str, target: str) -> int:
    return sum(a != b for a, b in zip(word, target))


def _closer_letters(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
    """The closer-letters rule as a player: an allowed word one letter away, unvisited if it can, sharing the most
    letters with the target (ties at random)."""
    word, target = state["word"], problem.data["target"]
    seen = {problem.data["start"], *(move.strip().lower() for move, _ in history)}
    steps = [w for w in problem.data["allowed"] if _letters_off(w, word) == 1]
    steps = [w for w in steps if w not in seen] or steps or [word]
    return min(steps, key=lambda w: (_letters_off(w, target), rng.random()))


def _greedy_wins(allowed: list[str], start: str, target: str, turns: int) -> bool:
    """Whether the closer-letters rule -- step to an allowed, unvisited word one letter away that shares the most
    letters with the target -- reaches the target within ``turns`` steps for some way of breaking its ties."""
    allowed_set = set(allowed)
    neighbours = _neighbours()
    budget = [GREEDY_NODES]

    def walk(word: str, seen: frozenset[str], left: int) -> bool:
        if word == target:
            return True
        budget[0] -= 1
        if left <= 0 or budget[0] <= 0:
            return budget[0] <= 0
        steps = [w for w in neighbours[word] if w in allowed_set and w not in seen]
        if not steps:
            return False
        best = min(_letters_off(w, target) for w in steps)
        return any(walk(w, seen | {w}, left - 1) for w in steps if _letters_off(w, target) == best)

    return walk(start, frozenset({start}), turns)


def _greedy_two_orders_win(allowed: list[str], start: str, target: str, turns: int) -> bool:
    """Whether the closer-letters rule reaches the target within ``turns`` steps when it breaks ties by the
    alphabetical order of the words or of the words read backwards."""
    return any(_greedy_walk_wins(allowed, start, target, turns, order) for order in (_as_written, _backwards))


def _as_written(word: str) -> str:
    return word


def _backwards(word: str) -> str:
    return word[::-1]


def _greedy_walk_wins(allowed: list[str], start: str, target: str, turns: int, order: Any) -> bool:
    """Whether the closer-letters rule -- step to an allowed word one letter away, unvisited if it can, sharing
    the most letters with the target, ties broken by ``order`` -- reaches the target within ``turns`` steps."""
    allowed_set = set(allowed)
    word, seen = start, {start}
    for _ in range(turns):
        steps = [w for w in _neighbours()[word] if w in allowed_set]
        steps = [w for w in steps if w not in seen] or steps
        if not steps:
            return False
        word = min(steps, key=lambda w: (_letters_off(w, target), order(w)))
        if word == target:
            return True
        seen.add(word)
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
