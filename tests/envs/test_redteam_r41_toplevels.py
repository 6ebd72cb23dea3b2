"""Red-team round 3, session 41 (top levels that textbook rules finish): regression tests.

- puzzles/sudoku v3: naked and hidden singles with locked candidates (pointing, claiming) and naked pairs, applied
  until they stall, finished 20% of the level 4 puzzles in v2 (40 seeds; the brief measured 29%); the top level now
  redraws those, and the declared heuristic finishes none there.

Each test fails on the version before its fix.
"""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


def _reward(task, problem, reply: str) -> float:
    return task.check(problem, f"<answer>{reply}</answer>").reward


def test_sudoku_top_level_is_not_finished_by_textbook_techniques() -> None:
    task = _task("puzzles/sudoku")
    techniques = task.heuristics()["singles, locked candidates and naked pairs"]
    top = task.levels() - 1
    problems = [task.sample(top, seed) for seed in range(25)]
    assert sum(_reward(task, p, techniques(p)) for p in problems) == 0.0
    assert all(_reward(task, p, p.answer) == 1.0 for p in problems)


def test_sudoku_textbook_techniques_are_a_real_solver() -> None:
    """The heuristic solves what the techniques reach (so its zero at the top level is not a broken solver): all of
    levels 0-2, and it finishes puzzles that singles alone leave stuck."""
    from palaestra.envs.puzzles.sudoku import _deduce, _layout

    task = _task("puzzles/sudoku")
    techniques = task.heuristics()["singles, locked candidates and naked pairs"]
    for level in (0, 1, 2):
        for seed in range(5):
            problem = task.sample(level, seed)
            assert _reward(task, problem, techniques(problem)) == 1.0
    # a 22-clue puzzle (row-major, 0 empty) that singles alone leave stuck and the eliminations finish
    puzzle = [int(ch) for ch in "000007034405000000170000600090020000000006100708000400002790010010200080000000006"]
    assert 0 in _deduce(puzzle, _layout(3, 3), prune=False)
    assert 0 not in _deduce(puzzle, _layout(3, 3), prune=True)
