"""Red-team regressions, round 3 session 26 (nonogram): line solving no longer finishes the upper levels.

In version 1 of ``puzzles/nonogram`` line logic alone (per row and column, the cells every placement
consistent with the known cells agrees on, to a fixpoint) solved 98-100% of the puzzles at every level.
From level 2 on the generator now keeps only pictures that line logic cannot finish, with revealed cells
where the clues alone leave twins; the verifier checks the revealed cells.
"""

from __future__ import annotations

import palaestra
from palaestra.generators.nonogram import line_solve, placements
from palaestra.solvers.sat import CNF, count_solutions

ENV = "puzzles/nonogram"


def _task():
    return palaestra.make(ENV, level=0).unwrapped.task


def _line_grid(problem) -> str:
    """Line logic from the clues and revealed cells, written independently of the env's own helper."""
    rows, cols = problem.data["rows"], problem.data["cols"]
    grid = [[None] * len(cols) for _ in rows]
    for r, c, v in problem.data.get("givens", []):
        grid[r][c] = v
    changed = True
    while changed:
        changed = False
        for index, clue in enumerate(list(rows) + list(cols)):
            cells = (
                [(index, c) for c in range(len(cols))]
                if index < len(rows)
                else [(r, index - len(rows)) for r in range(len(rows))]
            )
            fits = [
                o
                for o in placements(len(cells), tuple(clue))
                if all(grid[r][c] is None or grid[r][c] == o[i] for i, (r, c) in enumerate(cells))
            ]
            for i, (r, c) in enumerate(cells):
                if grid[r][c] is None and fits and len({o[i] for o in fits}) == 1:
                    grid[r][c] = fits[0][i]
                    changed = True
    return "\n".join("".join("#" if v else "." for v in row) for row in grid)


def test_line_solving_no_longer_solves_the_upper_levels():
    task = _task()
    for level in (2, 4):
        problems = [task.sample(level, seed) for seed in range(8)]
        solved = sum(task.check(p, task.format_answer(_line_grid(p))).correct for p in problems)
        assert solved == 0, (level, solved)


def test_the_declared_heuristic_is_line_solving_and_fails_at_the_top_preset():
    task = _task()
    assert "line solving" in task.heuristics()
    policy = task.heuristics()["line solving"]
    problems = [task.sample(4, seed) for seed in range(8)]
    assert sum(task.check(p, task.format_answer(policy(p))).correct for p in problems) == 0
    low = [task.sample(0, seed) for seed in range(8)]  # the easy levels stay line-solvable
    assert sum(task.check(p, task.format_answer(policy(p))).correct for p in low) >= 6


def pictures_with_givens(p, limit: int = 2) -> int:
    """How many pictures (up to ``limit``) fit the clues and the revealed cells: a full placement SAT count."""
    rows, cols = p.data["rows"], p.data["cols"]
    cnf = CNF()
    cell = [[cnf.var((r, c)) for c in range(len(cols))] for r in range(len(rows))]
    lines = [(cell[r], rows[r]) for r in range(len(rows))]
    lines += [([cell[r][c] for r in range(len(rows))], cols[c]) for c in range(len(cols))]
    for variables, clue in lines:
        options = placements(len(variables), tuple(clue))
        chosen = [cnf.auxiliary() for _ in options]
        cnf.add(chosen)
        for choice, option in zip(chosen, options):
            cnf.clauses.extend([-choice, v if s else -v] for v, s in zip(variables, option))
    for r, c, v in p.data.get("givens", []):
        cnf.add([cell[r][c] if v else -cell[r][c]])
    project = [(r, c) for r in range(len(rows)) for c in range(len(cols))]
    return count_solutions(cnf, limit=limit, project=project)


def test_upper_level_puzzles_are_unique_with_their_revealed_cells():
    task = _task()
    for level, seed in ((2, 0), (2, 3), (3, 1), (4, 2)):
        p = task.sample(level, seed)
        rows, cols = p.data["rows"], p.data["cols"]
        assert pictures_with_givens(p) == 1, (level, seed)
        # and line logic from the clues alone leaves cells open
        forced = line_solve([tuple(x) for x in rows], [tuple(x) for x in cols])
        assert any(v is None for row in forced for v in row), (level, seed)


def test_a_grid_that_changes_a_revealed_cell_is_rejected():
    task = _task()
    for seed in range(6):
        p = task.sample(3, seed)
        if not p.data.get("givens"):
            continue
        r, c, v = p.data["givens"][0]
        assert f"row {r + 1}, column {c + 1}: {'shaded' if v else 'empty'}" in p.prompt
        assert task.check(p, task.format_answer(p.answer)).correct
        # a problem with the same clues but the given flipped: the reference grid must now fail
        flipped = type(p)(**{**p.__dict__, "data": {**p.data, "givens": [[r, c, not v]]}})
        assert not task.check(flipped, task.format_answer(p.answer)).correct
        return
    raise AssertionError("no level 3 problem with revealed cells in 6 seeds")
