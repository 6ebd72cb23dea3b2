"""Red-team regressions, session 30 (helper gamesC): cheap rules that earned reward without doing the task."""

from __future__ import annotations

import random

import palaestra


def _letters_off(word: str, target: str) -> int:
    return sum(a != b for a, b in zip(word, target))


def _closer_letters_wins(data: dict) -> bool:
    """The closer-letters rule, written here independently: from the current word step to an allowed, unvisited
    word one letter away that shares the most letters with the target; True when some tie-break reaches the
    target within the turns."""
    allowed, target = data["allowed"], data["target"]

    def walk(word: str, seen: frozenset[str], left: int) -> bool:
        if word == target:
            return True
        steps = [w for w in allowed if _letters_off(w, word) == 1 and w not in seen]
        if left <= 0 or not steps:
            return False
        best = min(_letters_off(w, target) for w in steps)
        return any(walk(w, seen | {w}, left - 1) for w in steps if _letters_off(w, target) == best)

    return walk(data["start"], frozenset({data["start"]}), data["turns"])


def test_word_ladder_closer_letters_rule_loses_at_the_top_level() -> None:
    # Version 2: the rule (ties at random) solved 0.35 of level 4; any tie-break even more.
    task = palaestra.make("games/word_ladder", level=0).unwrapped.task
    for seed in range(10):
        assert not _closer_letters_wins(task.sample(4, seed).data), seed


def test_word_ladder_declares_the_closer_letters_rule() -> None:
    task = palaestra.make("games/word_ladder", level=0).unwrapped.task
    policy = task.heuristics()["closer letters first"]
    problem = task.sample(4, 0)
    state = task.initial_state(problem)
    move = policy(problem, state, (), random.Random(0))
    assert move in problem.data["allowed"] and _letters_off(move, problem.data["start"]) == 1
