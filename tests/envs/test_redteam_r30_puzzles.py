"""Red-team regressions, round 3 session 30 (puzzles helper)."""

from __future__ import annotations

import palaestra


def _kakuro():
    return palaestra.make("puzzles/kakuro", level=0).unwrapped.task


def test_kakuro_run_combinations_is_declared_and_sound():
    # The textbook rule (each cell keeps the digits some sum-reaching combination of the run puts there) is declared,
    # finishes easy puzzles, and never places a digit the solution does not have.
    task = _kakuro()
    rule = task.heuristics()["run combinations"]
    solved = 0
    for seed in range(6):
        problem = task.sample(0, seed)
        said = rule(problem)
        for line, gold in zip(said.splitlines(), problem.answer.splitlines(), strict=True):
            assert all(ch in (".", want) for ch, want in zip(line, gold, strict=True))
        solved += task.verify(problem, said).reward >= 1
    assert solved >= 4


def test_kakuro_top_level_is_beyond_run_combinations():
    # v1: the rule finished 53% of level 4 (e.g. two of seeds 0-5); v2 redraws them.
    task = _kakuro()
    rule = task.heuristics()["run combinations"]
    for seed in range(6):
        problem = task.sample(4, seed)
        assert task.verify(problem, rule(problem)).reward < 1
        assert task.verify(problem, problem.answer).reward == 1
