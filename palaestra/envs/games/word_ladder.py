"""Word ladder: turn a start word into a target word by changing one letter at a time, every step a real word.

Both words come from the shipped list of five-letter words (``words.txt``). Each turn the model
writes the next word of its ladder: it must be on the list and differ from the current word in
exactly one position (``crane`` -> ``crate``). A word that breaks the rule (or is unknown, or
unreadable) is rejected with the reason and costs a turn; the ladder stays where it was. Reward
1 on reaching the target within the turn budget: the shortest ladder plus the level's spare
steps.

Start and target are drawn so that the shortest ladder between them (breadth-first over the
one-letter-change graph of the list) has exactly the level's length; the oracle walks a shortest
ladder. The difficulty measure is that length.

``make("games/word_ladder", progress_rewards=True)`` pays ``1 / length`` each time the ladder
comes closer to the target (by the shortest remaining ladder) than it ever was, instead of 1 at
the end; a won game still totals 1.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.envs.games.words import LENGTH, read_word, word_index, words


@register
class WordLadder(MultiTurnTask):
    id = "games/word_ladder"
    version = 2
    family = "games"
    description = "Change a start word into a target word one letter at a time, through real words only."
    tags = ("games", "multi-turn", "words", "search")

    @dataclass(frozen=True)
    class Config:
        length: int  # steps in the shortest ladder
        spare: int

    def __init__(self, answer_format: str | None = None, progress_rewards: bool = False) -> None:
        """``progress_rewards``: pay ``1 / length`` each time the ladder gets closer to the target than ever before
        (by the shortest remaining ladder), instead of 1 at the end (same total)."""
        super().__init__(answer_format)
        self.progress_rewards = progress_rewards

    def config(self, level: int) -> Config:
        c = self.Config
        return [c(3, 4), c(4, 4), c(5, 3), c(6, 3), c(7, 2)][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        vocabulary = words()

        def draw() -> tuple[str, str] | None:
            start = rng.choice(vocabulary)
            distance = _distances_from(start)
            targets = sorted(w for w, d in distance.items() if d == config.length)
            return (start, rng.choice(targets)) if targets else None

        start, target = retry(draw, what=f"two words {config.length} steps apart")
        turns = config.length + config.spare
        prompt = (
            f"Make a word ladder from {start.upper()} to {target.upper()}: change one letter at a time (keeping the "
            "others in place), and every step must be a common five-letter English word from my list. Each turn, "
            f"write the next word of your ladder, for example: {_example(start)}. A word that is not on the "
            "list or changes more or less than one letter is rejected and costs a turn. You have "
            f"{turns} turns; the shortest ladder takes {config.length} steps."
        )
        data = {"start": start, "target": target, "length": config.length, "turns": turns}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["length"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        if self.progress_rewards:  # also the closest the ladder has come (shortest remaining ladder)
            return {"word": problem.data["start"], "closest": problem.data["length"]}
        return {"word": problem.data["start"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        word = read_word(move)
        current = state["word"]
        if word is None:
            return Outcome(state, Verdict.unparsed("not a five-letter word"), "Invalid step: write one five-letter word.")
        if word not in word_index():
            return Outcome(state, Verdict.wrong("unknown word"), f"{word} is not on the list. You are still at {current}.")
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


def _example(start: str) -> str:
    """The first listed word one letter from the start (format only): chosen without looking at the target,
    so it tells nothing about the way there (it used to be a word that does not shorten the way)."""
    return _neighbours()[start][0]
