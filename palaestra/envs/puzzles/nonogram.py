"""Nonogram (paint by numbers): shade the cells that the row and column run lengths describe.

A random picture is drawn (each cell shaded with the level's density); its clues are the lengths
of the runs of shaded cells in every row (left to right) and column (top to bottom). Line logic,
and where it leaves cells open a SAT solver (each line takes exactly one of the placements its
clue allows; the picture blocked), proves that no other picture has these clues; pictures with a
twin are drawn again, so every puzzle has exactly one solution.

From level 2 on (version 2) line logic alone must stall: the textbook method (per row and column,
the cells every placement consistent with the known cells agrees on, repeated until nothing changes;
heuristic ``line solving``) solved 98-100% of version 1's puzzles at every level, so they never
needed more. Now a picture whose clues line logic finishes is drawn again; where the clues leave
other pictures, cells are revealed (given in the prompt) one at a time: a cell on which the SAT
solver's other picture differs, the one after which line logic leaves most cells open, until the
solver proves the picture the only one that keeps the revealed cells; a picture where every
such reveal lets line logic finish is drawn again. Line solving now solves none of levels 2-4.
Levels 0-1 are unchanged (the same problems for every seed).

Version 3: past the presets (13x13 and up, levels 5-10, then 18x18) version 2 went back to version 1's rule and
density 0.6, and line solving solved 99-100% of them (levels 5, 8, 20; 100 seeds each). Now they keep the presets'
rule and density 0.5: line logic must stall, with revealed cells where the clues leave twins. To bound the proofs
there, the SAT encoding also links each open cell to the placements that give it its value, and a picture whose
open lines keep more than 4,000 placements after line logic is drawn again. Line solving solves none of levels
4-10, 20 or 40 (60 seeds each). Levels 0-4 are unchanged (the same problems for every seed).

The answer is the picture, one row per line, ``#`` for a shaded cell and ``.`` for an empty
one (``X``, ``1`` or ``■`` for shaded and ``0`` for empty are read too); the verifier recomputes
every clue from it and checks the revealed cells.

Generation speed (CPU time, this 2-core machine): below 1 ms per problem at levels 0-1, about 7 ms
at level 2, 9 ms at level 3 and 15-20 ms at level 4 (a few pictures are drawn per problem there;
each reveal tries up to 8 cells), and in version 3 about 30 ms at levels 9-40 (under 170 ms for the
slowest of 60 seeds per level). Line logic settles most pictures without a solver; the SAT encoding is built
only for the cells it leaves open, over the placements that agree with the known ones. The proof is
what makes the puzzle have exactly one solution, which the answer check (the recomputed clues and
revealed cells) relies on being the intended one."""

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
from palaestra.generators.nonogram import clue_text, line_solve, line_state, placements, propagate, runs

_SHADED, _EMPTY = "#X1■", ".0"


@register
class Nonogram(Task):
    id = "puzzles/nonogram"
    family = "puzzles"
    description = "Shade a grid so that every row and column shows its clue's runs of shaded cells (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction")
    multiline = True
    version = 3

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        density: float  # chance a cell of the picture is shaded
        stall: bool = False  # line logic alone must not finish (cells revealed where the clues leave twins)

    presets = (
        Config(rows=5, cols=5, density=0.55),
        Config(rows=6, cols=7, density=0.55),
        Config(rows=8, cols=8, density=0.5, stall=True),
        Config(rows=10, cols=10, density=0.5, stall=True),
        Config(rows=12, cols=12, density=0.5, stall=True),
    )
    # Capped at level 10's values (18x18): past them generation passes its CPU bound (difficulty saturates). Past the
    # presets the density stays at 0.5 and line logic must still stall (version 3; version 2 went back to 0.6 there).
    growth = Growth(steps={"rows": 1, "cols": 1}, limits={"rows": 18, "cols": 18})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.cols

        givens: list[tuple[int, int, bool]] = []
        if config.stall:
            picture, givens = retry(lambda: _stalling(rng, rows, cols, config.density),
                                    what="a unique picture that line logic cannot finish")
        else:
            def draw() -> list[list[bool]]:
                return [[rng.random() < config.density for _ in range(cols)] for _ in range(rows)]

            picture = retry(draw, accept=_unique, what="a picture no other picture shares clues with")
        row_clues = [runs(row) for row in picture]
        col_clues = [runs([picture[r][c] for r in range(rows)]) for c in range(cols)]

        revealed = ""
        if givens:
            revealed = ("\n\nRevealed cells (part of the puzzle; the solution must keep them):\n"
                        + "\n".join(f"row {r + 1}, column {c + 1}: {'shaded' if v else 'empty'}" for r, c, v in givens))
        prompt = (
            f"Solve this {rows}x{cols} nonogram. Shade cells so that each row and each column shows exactly the "
            "runs of consecutive shaded cells its clue lists, in order (rows left to right, columns top to "
            "bottom), with at least one empty cell between runs; a clue of 0 means no shaded cell. The puzzle "
            "has exactly one solution.\n\n"
            "Row clues (top to bottom):\n" + "\n".join(f"row {r + 1}: {clue_text(c)}" for r, c in enumerate(row_clues))
            + "\n\nColumn clues (left to right):\n"
            + "\n".join(f"column {c + 1}: {clue_text(k)}" for c, k in enumerate(col_clues))
            + revealed
            + f"\n\nGive the shaded grid as {rows} lines of {cols} characters, # for a shaded cell and . for an "
            "empty one. For example, a 2x3 grid with a shaded top row would be written:\n###\n..."
        )
        answer = "\n".join("".join("#" if v else "." for v in row) for row in picture)
        data: dict = {"rows": row_clues, "cols": col_clues}
        if givens:
            data["givens"] = [[r, c, v] for r, c, v in givens]
        return Problem(prompt=prompt, answer=answer, data=data)

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
        for r, c, shaded in problem.data.get("givens", ()):
            if grid[r][c] != shaded:
                return Verdict.wrong(f"the revealed cell at row {r + 1}, column {c + 1} was changed")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Line solving: per row and column, the cells every placement that fits the known cells agrees on,
        repeated until nothing changes (cells left open are written empty)."""
        return {"line solving": _line_answer}

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


def _unique(picture: list[list[bool]]) -> bool:
    """Whether no other picture has the same row and column clues (a budget-exhausted proof is a no).

    Line logic first: when it forces every cell, the picture is the only one. Otherwise a SAT
    solver decides over the placements that agree with the forced cells (fewer than all: encoding
    every placement was most of the generation time)."""
    rows, cols = len(picture), len(picture[0])
    columns = [[picture[r][c] for r in range(rows)] for c in range(cols)]
    forced = line_solve([tuple(runs(row)) for row in picture], [tuple(runs(column)) for column in columns])
    if all(value is not None for row in forced for value in row):
        return True
    cnf = CNF()
    cell = [[cnf.var((r, c)) for c in range(cols)] for r in range(rows)]
    lines = [(cell[r], picture[r], forced[r]) for r in range(rows)]
    lines += [([cell[r][c] for r in range(rows)], columns[c], [forced[r][c] for r in range(rows)]) for c in range(cols)]
    for variables, values, known in lines:
        options = [option for option in placements(len(values), tuple(runs(values)))
                   if all(k is None or k == shaded for k, shaded in zip(known, option))]
        chosen = [cnf.auxiliary() for _ in options] if len(options) > 1 else [cnf.true]
        cnf.add(chosen)
        for choice, option in zip(chosen, options):
            cnf.clauses.extend([-choice, v if shaded else -v] for v, shaded in zip(variables, option))
    cnf.add([-cell[r][c] if picture[r][c] else cell[r][c] for r in range(rows) for c in range(cols) if forced[r][c] is None])
    try:
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            return not solver.satisfiable()
    except BudgetExhausted:
        return False


# Level 4's grid. Past it (version 3) the SAT encoding also says which placements a cell's value allows (a cell
# shaded: some chosen placement shades it; empty: some leaves it empty), and a picture whose open lines keep more
# than _PLACEMENTS placements after line logic is drawn again: at 18x18 those were the draws whose proofs took
# 0.5-4 s. Up to level 4 both stay off, so the presets' problems are version 2's.
_STALL_CELLS = 144
_PLACEMENTS = 4000
_CANDIDATES = 8  # cells tried per reveal (a random sample of those the other picture differs on)


def _open(rows: int, cols: int, known: list[int]) -> int:
    full = (1 << cols) - 1
    return sum((full & ~known[r]).bit_count() for r in range(rows))


def _line_answer(problem: Problem) -> str:
    """The grid line logic reaches from the clues and revealed cells (open cells written as empty)."""
    row_clues, col_clues = problem.data["rows"], problem.data["cols"]
    _, _, shaded, _ = line_state(row_clues, col_clues, problem.data.get("givens", []))
    return "\n".join("".join("#" if shaded[r] >> c & 1 else "." for c in range(len(col_clues)))
                     for r in range(len(row_clues)))


def _stalling(rng: random.Random, rows: int, cols: int, density: float
              ) -> tuple[list[list[bool]], list[tuple[int, int, bool]]] | None:
    """A picture and revealed cells that make it the only fit while line logic stalls, or None.

    Cells are revealed one at a time while the SAT solver finds another picture with the clues and
    the cells revealed so far: of (a sample of) the cells where that picture differs, the one after
    which line logic leaves most cells open. None when line logic finishes the bare clues, when every
    such reveal lets it finish, or when a proof runs out of budget (past the presets also when the open
    lines keep too many placements, see :data:`_STALL_CELLS`)."""
    far = rows * cols > _STALL_CELLS  # past the presets: see _STALL_CELLS
    full = [(1 << cols) - 1] * rows + [(1 << rows) - 1] * cols
    picture = [[rng.random() < density for _ in range(cols)] for _ in range(rows)]
    clues = [runs(row) for row in picture] + [runs([picture[r][c] for r in range(rows)]) for c in range(cols)]
    options, known, shaded, _ = line_state(clues[:rows], clues[rows:], [])
    open_cells = [(r, c) for r in range(rows) for c in range(cols) if not known[r] >> c & 1]
    if not open_cells:
        return None
    if far and sum(len(fitting) for line, fitting in enumerate(options) if known[line] != full[line]) > _PLACEMENTS:
        return None
    cnf = CNF()
    cell = [[cnf.var((r, c)) for c in range(cols)] for r in range(rows)]
    for line, fitting in enumerate(options):  # only the open cells: the placements left agree on the others
        variables = cell[line] if line < rows else [cell[r][line - rows] for r in range(rows)]
        free = [(i, v) for i, v in enumerate(variables) if not known[line] >> i & 1]
        if not free:
            continue
        chosen = [cnf.auxiliary() for _ in fitting]
        cnf.add(chosen)
        for choice, mask in zip(chosen, fitting):
            cnf.clauses.extend([-choice, v if mask >> i & 1 else -v] for i, v in free)
        if far:  # each open cell's value needs a chosen placement that gives it (stronger propagation)
            for i, v in free:
                cnf.add([-v, *(choice for choice, mask in zip(chosen, fitting) if mask >> i & 1)])
                cnf.add([v, *(choice for choice, mask in zip(chosen, fitting) if not mask >> i & 1)])
    cnf.add([-cell[r][c] if picture[r][c] else cell[r][c] for r, c in open_cells])  # another picture
    givens: list[tuple[int, int, bool]] = []
    try:
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            for _ in open_cells:  # each round reveals another open cell
                model = solver.model([cell[r][c] if v else -cell[r][c] for r, c, v in givens])
                if model is None:
                    return picture, sorted(givens)
                differ = [(r, c) for r, c in open_cells if model[(r, c)] != picture[r][c]]
                if len(differ) > _CANDIDATES:
                    differ = rng.sample(differ, _CANDIDATES)
                best, state, reveal = 0, None, None
                for r, c in differ:
                    trial = (options[:], known[:], shaded[:])
                    trial[1][r] |= 1 << c
                    trial[1][rows + c] |= 1 << r
                    if picture[r][c]:
                        trial[2][r] |= 1 << c
                        trial[2][rows + c] |= 1 << r
                    propagate(rows, *trial, {r, rows + c})
                    left = _open(rows, cols, trial[1])
                    if left > best:
                        best, state, reveal = left, trial, (r, c, picture[r][c])
                if reveal is None or state is None:
                    return None
                givens.append(reveal)
                options, known, shaded = state
    except BudgetExhausted:
        return None
    return None  # not reached: a reveal never leaves line logic done, so some cell stays open
