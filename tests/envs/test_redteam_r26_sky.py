"""Red-team regressions (round 3, session 26, puzzles/skyscrapers): line solving finished the top level.

- puzzles/skyscrapers v1: line solving (per row and column, keep in each cell the heights some ordering of the
  line that fits its border clues and its cells' remaining heights puts there; repeat over all lines until
  nothing changes) finished 0.58 of the level 4 puzzles (100 seeds; 0.65 at level 2, 0.39 at level 3, 1.00 at
  level 0): its floor of 20 border clues left more than line solving needs. v2 prunes past the floor until line
  solving stalls (a SAT proof keeps the solution unique); it finishes about 0.02 of level 4 (200 seeds).

The line solver is written here from scratch (not imported from the fixed code), so the tests fail on the old
generator; the env declares its own as the heuristic "line solving", which the kit measures at the top level.
"""

from __future__ import annotations

import itertools

import palaestra
from palaestra.kit.base import sample

ENV = "puzzles/skyscrapers"
V1_LINE_SOLVED = (0, 2, 3)  # level 4 seeds whose v1 puzzles line solving finished (so did 4 and 5)


def _seen(heights: tuple[int, ...]) -> int:
    tallest = seen = 0
    for h in heights:
        if h > tallest:
            tallest, seen = h, seen + 1
    return seen


def _line_solve(problem) -> list[list[int]]:
    n = problem.data["size"]
    cand = [[set(range(1, n + 1)) if ch == "." else {int(ch)} for ch in row] for row in problem.data["givens"]]
    at = {(side, i): seen for side, i, seen in problem.data["clues"]}
    orderings = [(p, _seen(p), _seen(p[::-1])) for p in itertools.permutations(range(1, n + 1))]

    def fitting(front, back) -> list[tuple[int, ...]]:
        return [p for p, f, b in orderings if front in (None, f) and back in (None, b)]

    lines = [([(i, c) for c in range(n)], fitting(at.get(("left", i)), at.get(("right", i)))) for i in range(n)]
    lines += [([(r, i) for r in range(n)], fitting(at.get(("top", i)), at.get(("bottom", i)))) for i in range(n)]
    changed = True
    while changed:
        changed = False
        for cells, table in lines:
            here = [cand[r][c] for r, c in cells]
            fits = [p for p in table if all(h in s for h, s in zip(p, here))]
            for j, (r, c) in enumerate(cells):
                allowed = {p[j] for p in fits}
                if allowed != cand[r][c]:
                    cand[r][c] = allowed
                    changed = True
    return [[min(s) if len(s) == 1 else 0 for s in row] for row in cand]


def _solved(problem, grid: list[list[int]]) -> bool:
    reply = "\n".join("".join(map(str, row)) for row in grid)
    return palaestra.score(problem, f"<answer>{reply}</answer>").correct


def test_line_solving_no_longer_finishes_the_top_level():
    for seed in V1_LINE_SOLVED:
        problem = sample(ENV, 4, seed)
        grid = _line_solve(problem)
        assert not _solved(problem, grid), seed
        answer = [[int(ch) for ch in row] for row in problem.answer.splitlines()]
        assert all(v in (0, answer[r][c]) for r, row in enumerate(grid) for c, v in enumerate(row))  # sound


def test_line_solving_still_finishes_level_0_and_the_declared_heuristic_agrees():
    task = palaestra.make(ENV, level=0).unwrapped.task
    declared = task.heuristics()["line solving"]
    for level, seed in ((0, 0), (0, 1), (4, 0), (4, 3)):
        problem = sample(ENV, level, seed)
        grid = _line_solve(problem)
        assert _solved(problem, grid) == (level == 0)
        assert declared(problem) == "\n".join("".join(map(str, row)) for row in grid)
