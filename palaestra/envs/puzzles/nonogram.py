"""Nonogram (paint by numbers): shade the cells that the row and column run lengths describe.

A random picture is drawn (each cell shaded with the level's density); its clues are the lengths
of the runs of shaded cells in every row (left to right) and column (top to bottom). Line logic,
and where it leaves cells open a SAT solver (each line takes exactly one of the placements its
clue allows; the picture blocked), proves that no other picture has these clues; pictures with a
twin are drawn again, so every puzzle has exactly one solution.

The answer is the picture, one row per line, ``#`` for a shaded cell and ``.`` for an empty
one (``X``, ``1`` or ``■`` for shaded and ``0`` for empty are read too); the verifier recomputes
every clue from it.

Version 2: the top level keeps only pictures that line logic alone does not finish, declared as the heuristic
``line logic`` (a cell is known once every placement of its row or column that fits the known cells agrees on it,
repeated until nothing changes), and its density is 0.5 instead of 0.6 (such pictures are about 1 draw in 150 at
0.6, 1 in 22 at 0.5). In version 1 line logic solved every puzzle at every level (40 seeds each at levels 0, 2
and 4), so no level needed more than that textbook rule; now it finishes none at the top level. Levels 0-3 are
unchanged (the same problems for every seed); levels past the presets are version 1's (density 0.6, not filtered: the
filter's redraws cost 2.8 s a problem at 17x17), so line logic still finishes most of them.

Generation speed: about 16 problems/s at level 4 on this busy 2-core machine (CPU time; 1,600 in version 1): about 22 pictures are drawn per kept one at level 4, since line logic finishes most, and those
it leaves open each need a SAT proof of uniqueness; the redraws are what make the top level need more than line
logic.
Line logic (a cell every placement of its row or column agrees on is known) settles most pictures
without a solver; the SAT encoding is built only for the cells it leaves open, over the placements
that agree with the known ones. About 1 picture in 6 is redrawn because another picture has the
same clues. The proof is what makes the puzzle have exactly one solution, which the answer check
(the recomputed clues) relies on being the intended one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    BudgetExhausted,
    ProofSolver,
    grid_corruptions,
    grid_spellings,
    read_marks,
    with_spaces,
)
from palaestra.generators.nonogram import clue_text, line_solve, placement_masks, runs

_SHADED, _EMPTY = "#X1■", ".0"
# The line-logic filter applies up to the top preset's 12x12: at 17x17 (level 9) it took 2.8 s of CPU a problem, past
# the kit's 2 s bound, so the levels past the presets draw as in version 1 (line logic finishes them).
_LINE_FILTER_CELLS = 144


@register
class Nonogram(Task):
    id = "puzzles/nonogram"
    version = 2
    family = "puzzles"
    description = "Shade a grid so that every row and column shows its clue's runs of shaded cells (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        density: float  # chance a cell of the picture is shaded
        beyond_lines: bool = False  # keep only pictures that line logic alone does not finish

    presets = (
        Config(rows=5, cols=5, density=0.55),
        Config(rows=6, cols=7, density=0.55),
        Config(rows=8, cols=8, density=0.6),
        Config(rows=10, cols=10, density=0.6),
        Config(rows=12, cols=12, density=0.5, beyond_lines=True),
    )
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    # density climbs back to version 1's 0.6 past the top preset (and those levels are not filtered: see above)
    growth = Growth(steps={"rows": 1, "cols": 1, "density": 0.1}, limits={"rows": 18, "cols": 18, "density": 0.6})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.cols

        def draw() -> list[list[bool]]:
            return [[rng.random() < config.density for _ in range(cols)] for _ in range(rows)]

        def accept(picture: list[list[bool]]) -> bool:
            if not config.beyond_lines or rows * cols > _LINE_FILTER_CELLS:
                return _unique(picture)
            forced = _line_logic(picture)
            if all(value is not None for row in forced for value in row):
                return False
            return _unique(picture, forced)

        # about 1 draw in 22 is kept at level 4: 2,000 draws all rejected happen with chance about 1e-40
        picture = retry(draw, accept=accept, attempts=2_000, what="a picture no other picture shares clues with")
        row_clues = [runs(row) for row in picture]
        col_clues = [runs([picture[r][c] for r in range(rows)]) for c in range(cols)]

        prompt = (
            f"Solve this {rows}x{cols} nonogram. Shade cells so that each row and each column shows exactly the "
            "runs of consecutive shaded cells its clue lists, in order (rows left to right, columns top to "
            "bottom), with at least one empty cell between runs; a clue of 0 means no shaded cell. The puzzle "
            "has exactly one solution.\n\n"
            "Row clues (top to bottom):\n" + "\n".join(f"row {r + 1}: {clue_text(c)}" for r, c in enumerate(row_clues))
            + "\n\nColumn clues (left to right):\n"
            + "\n".join(f"column {c + 1}: {clue_text(k)}" for c, k in enumerate(col_clues))
            + f"\n\nGive the shaded grid as {rows} lines of {cols} characters, # for a shaded cell and . for an "
            "empty one. For example, a 2x3 grid with a shaded top row would be written:\n###\n..."
        )
        answer = "\n".join("".join("#" if v else "." for v in row) for row in picture)
        return Problem(prompt=prompt, answer=answer, data={"rows": row_clues, "cols": col_clues})

    def difficulty(self, problem: Problem) -> float:
        """Cells in the grid plus half the blocks of the clues (the runs to place)."""
        data = problem.data
        return float(len(data["rows"]) * len(data["cols"])) + sum(len(clue) for clue in data["rows"] + data["cols"]) / 2

    def verify(self, problem: Problem, answer: str) -> Verdict:
        row_clues, col_clues = problem.data["rows"], problem.data["cols"]
        rows, cols = len(row_clues), len(col_clues)
        grid = read_marks(answer, rows, cols, _SHADED, _EMPTY)
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        for r in range(rows):
            if runs(grid[r]) != row_clues[r]:
                return Verdict.wrong(f"row {r + 1} does not match its clue")
        for c in range(cols):
            if runs([grid[r][c] for r in range(rows)]) != col_clues[c]:
                return Verdict.wrong(f"column {c + 1} does not match its clue")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Line logic alone, repeated until it stops; cells it leaves open are written ``?``."""
        return {"line logic": _line_logic_answer}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *grid_spellings(gold), with_spaces(gold), gold.replace("#", "X"),
                gold.replace("#", "1").replace(".", "0"), f"```\n{gold}\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        r, c = rng.randrange(len(rows)), rng.randrange(len(rows[0]))
        flipped = [row[:] for row in rows]
        flipped[r][c] = "." if flipped[r][c] == "#" else "#"
        mirrored = [row[::-1] for row in rows]
        wrong = [flipped, rows[:-1]] + ([mirrored] if mirrored != rows else [])
        wrong_grids = ["\n".join(map("".join, g)) for g in wrong]
        return [*wrong_grids, *grid_corruptions(problem.answer or "", wrong_grids[0])]


def _unique(picture: list[list[bool]], forced: list[list[bool | None]] | None = None) -> bool:
    """Whether no other picture has the same row and column clues (a budget-exhausted proof is a no).

    Line logic first: when it forces every cell, the picture is the only one. Otherwise a SAT
    solver decides over the placements that agree with the forced cells (fewer than all: encoding
    every placement was most of the generation time)."""
    rows, cols = len(picture), len(picture[0])
    columns = [[picture[r][c] for r in range(rows)] for c in range(cols)]
    if forced is None:
        forced = line_solve([tuple(runs(row)) for row in picture], [tuple(runs(column)) for column in columns])
    if all(value is not None for row in forced for value in row):
        return True
    cnf = CNF()
    cell = [[cnf.var((r, c)) for c in range(cols)] for r in range(rows)]
    lines = [(cell[r], picture[r], forced[r]) for r in range(rows)]
    lines += [([cell[r][c] for r in range(rows)], columns[c], [forced[r][c] for r in range(rows)]) for c in range(cols)]
    for variables, values, known in lines:
        fixed = sum(1 << i for i, k in enumerate(known) if k is not None)
        shaded_known = sum(1 << i for i, k in enumerate(known) if k)
        options = [mask for mask in placement_masks(len(values), tuple(runs(values))) if mask & fixed == shaded_known]
        open_cells = [(i, v) for i, (v, k) in enumerate(zip(variables, known)) if k is None]
        if not open_cells:
            continue  # a forced cell is the same in every solution: only the open ones are encoded
        chosen = [cnf.auxiliary() for _ in options] if len(options) > 1 else [cnf.true]
        cnf.add(chosen)
        for choice, mask in zip(chosen, options):
            cnf.clauses.extend([-choice, v if mask >> i & 1 else -v] for i, v in open_cells)
    cnf.add([-cell[r][c] if picture[r][c] else cell[r][c] for r in range(rows) for c in range(cols) if forced[r][c] is None])
    try:
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            return not solver.satisfiable()
    except BudgetExhausted:
        return False


def _line_logic(picture: list[list[bool]]) -> list[list[bool | None]]:
    columns = [[row[c] for row in picture] for c in range(len(picture[0]))]
    return line_solve([tuple(runs(row)) for row in picture], [tuple(runs(column)) for column in columns])


def _line_logic_answer(problem: Problem) -> str:
    forced = line_solve([tuple(c) for c in problem.data["rows"]], [tuple(c) for c in problem.data["cols"]])
    return "\n".join("".join("?" if v is None else "#" if v else "." for v in row) for row in forced)
