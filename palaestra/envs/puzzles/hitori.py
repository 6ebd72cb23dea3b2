"""Hitori: shade cells so that no number repeats in a row or column among the unshaded cells,
no two shaded cells touch, and the unshaded cells stay connected.

Generation starts from a random shading (non-touching cells, the rest connected) and a random
Latin square: unshaded cells keep their Latin digit, so they never repeat; each shaded cell
takes the digit of an unshaded cell in its row or column, so it must go. A SAT solver then
looks for another solution (shading variables; touching and repeat rules as clauses; the
connectivity rule added lazily: a solution whose unshaded cells fall apart gets a cut clause
saying that some cell of a piece is shaded or some shaded cell around it is not, which every
connected solution satisfies). While another solution exists, digits are changed to rule it
out: a cell the intended solution shades but the other keeps gets the digit of a cell both keep
in its line; if the other solution only shades more, it becomes the intended one and the extra
cells get repeated digits. Every puzzle shown has exactly one solution.

Version 2: the connectivity rule must matter. A puzzle is kept only when some other shading obeys the
touching and repeat rules while shading no more cells than the solution (only connectivity rules it
out). Shading as few cells as the repeats allow and ignoring connectivity solved 70%, 95%, 80% and 70%
of levels 0, 2, 4 and 6 in version 1 (20 seeds a level); in version 2 40%, 60%, 25% and 40% (equal-size
rivals leave it a coin flip; asking for a strictly smaller rival has no 4x4 puzzles).

The answer is the grid with ``#`` for shaded cells and ``.`` (or the cell's number) for the
others, one row per line; the verifier checks the three rules.

Generation speed: about 60 problems/s at level 4 on this busy 2-core machine (about 16 ms of CPU; 5-40 ms at
levels 0-7), 330 before version 2's redraws. Each puzzle searches for a rival
solution about 5 times (a fresh SAT solver each round, with connectivity cut clauses added lazily until the
rival's unshaded cells are connected), changing digits to rule each rival out; that loop is about 75% of the
time and is what makes the puzzle have exactly one solution.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.puzzles.common import (
    CNF,
    NEIGHBOURS,
    PROOF_BUDGET,
    BudgetExhausted,
    ProofSolver,
    connected,
    grid_corruptions,
    grid_spellings,
    read_cells,
    with_spaces,
)
from palaestra.generators.latin import random_latin_square

_REPAIRS = 30  # digit changes tried before a new shading is drawn
_CUTS = 200  # connectivity cuts one search may add

Cell = tuple[int, int]


@register
class Hitori(Task):
    id = "puzzles/hitori"
    version = 2  # v2: connectivity must decide: a no-larger shading obeying the other two rules exists
    family = "puzzles"
    description = "Shade cells: no repeated numbers, no touching shaded cells, kept cells connected (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        shade_share: float  # chance a cell that may be shaded is shaded when the shading is drawn

    presets = (
        Config(size=4, shade_share=0.35),
        Config(size=5, shade_share=0.4),
        Config(size=6, shade_share=0.45),
        Config(size=7, shade_share=0.5),
        Config(size=8, shade_share=0.5),
    )
    # Capped at level 14's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"size": 18})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        # v2: 400 attempts (were 50): most unique draws are redrawn because connectivity did not decide them
        numbers, shaded = retry(lambda: _unique_puzzle(rng, n, config.shade_share), attempts=400,
                                what="a uniquely solvable hitori")
        prompt = (
            f"Solve this {n}x{n} Hitori puzzle. Shade some cells so that:\n"
            "- no number appears more than once in any row or column among the unshaded cells;\n"
            "- no two shaded cells are next to each other horizontally or vertically;\n"
            "- all unshaded cells form one group connected horizontally and vertically.\n"
            "The puzzle has exactly one solution.\n\n"
            + "\n".join(" ".join(map(str, row)) for row in numbers)
            + f"\n\nGive the grid as {n} lines of {n} characters, # for a shaded cell and . for an unshaded one. "
            "For example, a 3x3 grid with its middle cell shaded would be written:\n...\n.#.\n..."
        )
        answer = "\n".join("".join("#" if (r, c) in shaded else "." for c in range(n)) for r in range(n))
        return Problem(prompt=prompt, answer=answer, data={"numbers": numbers})

    def difficulty(self, problem: Problem) -> float:
        """Cells in the grid plus the numbers that appear more than once in their row or column."""
        numbers = problem.data["numbers"]
        n = len(numbers)
        repeated = sum(1 for r in range(n) for c in range(n)
                       if numbers[r].count(numbers[r][c]) > 1 or [row[c] for row in numbers].count(numbers[r][c]) > 1)
        return float(n * n + repeated)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        numbers = problem.data["numbers"]
        n = len(numbers)
        grid = read_cells(answer, n, n, "#X.123456789")
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        shaded = set()
        for r in range(n):
            for c in range(n):
                mark = grid[r][c]
                if mark in "#X":
                    shaded.add((r, c))
                elif mark != "." and int(mark) != numbers[r][c]:
                    return Verdict.wrong(f"row {r + 1}, column {c + 1} holds {numbers[r][c]}, not {mark}")
        return _check(numbers, shaded)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        numbers = problem.data["numbers"]
        with_numbers = "\n".join(" ".join("#" if mark == "#" else str(numbers[r][c]) for c, mark in enumerate(row))
                                 for r, row in enumerate(gold.splitlines()))
        return [*super().spellings(problem), *grid_spellings(gold), with_spaces(gold), gold.replace("#", "X"), with_numbers]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        n = len(rows)
        shaded = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == "#"]
        unshaded = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == "."]
        cleared = [row[:] for row in rows]
        r, c = rng.choice(shaded)
        cleared[r][c] = "."
        extra = [row[:] for row in rows]
        r, c = rng.choice(unshaded)
        extra[r][c] = "#"
        wrong_grids = ["\n".join(map("".join, g)) for g in (cleared, extra, rows[:-1])]
        return [*wrong_grids, *grid_corruptions(problem.answer or "", wrong_grids[0])]


def _check(numbers: list[list[int]], shaded: set[Cell]) -> Verdict:
    n = len(numbers)
    for r, c in shaded:
        for dr, dc in NEIGHBOURS:
            if (r + dr, c + dc) in shaded:
                return Verdict.wrong(f"shaded cells touch at row {r + 1}, column {c + 1}")
    for i in range(n):
        row = [numbers[i][c] for c in range(n) if (i, c) not in shaded]
        col = [numbers[r][i] for r in range(n) if (r, i) not in shaded]
        if len(set(row)) < len(row):
            return Verdict.wrong(f"row {i + 1} repeats a number among its unshaded cells")
        if len(set(col)) < len(col):
            return Verdict.wrong(f"column {i + 1} repeats a number among its unshaded cells")
    if not connected({(r, c) for r in range(n) for c in range(n)} - shaded):
        return Verdict.wrong("the unshaded cells are not all connected")
    return Verdict.right()


def _random_shading(rng: random.Random, n: int, share: float) -> set[Cell]:
    """Non-touching shaded cells whose complement stays connected."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    shaded: set[Cell] = set()
    kept = set(cells)
    for r, c in cells:
        if rng.random() >= share or any((r + dr, c + dc) in shaded for dr, dc in NEIGHBOURS):
            continue
        kept.discard((r, c))
        if connected(kept):
            shaded.add((r, c))
        else:
            kept.add((r, c))
    return shaded


def _line_mates(n: int, cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r, j) for j in range(n) if j != c] + [(i, c) for i in range(n) if i != r]


def _unique_puzzle(rng: random.Random, n: int, share: float) -> tuple[list[list[int]], set[Cell]] | None:
    shaded = _random_shading(rng, n, share)
    numbers = random_latin_square(rng, n)
    for cell in sorted(shaded):
        r, c = cell
        mates = [m for m in _line_mates(n, cell) if m not in shaded]
        mr, mc = rng.choice(mates)
        numbers[r][c] = numbers[mr][mc]
    for _ in range(_REPAIRS):
        other = _other_solution(numbers, shaded)
        if other is None:
            return (numbers, shaded) if _connectivity_decides(numbers, shaded) else None
        if other == "unknown":
            return None
        only_ours = sorted(shaded - other)
        if only_ours:  # a cell we shade and the other keeps: repeat, in its line, a digit both keep
            cell = rng.choice(only_ours)
            mates = [m for m in _line_mates(n, cell) if m not in shaded and m not in other]
            if not mates:
                return None
            mr, mc = rng.choice(mates)
            numbers[cell[0]][cell[1]] = numbers[mr][mc]
        else:  # the other shades more: it becomes ours, and its extra cells get repeated digits
            for cell in sorted(other - shaded):
                mates = [m for m in _line_mates(n, cell) if m not in other]
                mr, mc = rng.choice(mates)
                numbers[cell[0]][cell[1]] = numbers[mr][mc]
            shaded = other
    return None


def _local_rules(numbers: list[list[int]]) -> tuple[CNF, dict[Cell, int]]:
    """Shading variables with the touching and repeat rules as clauses (connectivity left out)."""
    n = len(numbers)
    cnf = CNF()
    var = {(r, c): cnf.var((r, c)) for r in range(n) for c in range(n)}
    for (r, c), v in var.items():
        for nxt in ((r + 1, c), (r, c + 1)):
            if nxt in var:
                cnf.add([-v, -var[nxt]])
        for mate in _line_mates(n, (r, c)):
            if mate > (r, c) and numbers[mate[0]][mate[1]] == numbers[r][c]:
                cnf.add([v, var[mate]])
    return cnf, var


def _connectivity_decides(numbers: list[list[int]], shaded: set[Cell]) -> bool:
    """Whether another shading obeying the touching and repeat rules shades no more cells than ours.

    Without one, shading as few cells as the repeats allow and ignoring connectivity finds our
    solution: in version 1 that rule-blind solver solved 70-95% of levels 0-6 (20 seeds a level).
    """
    cnf, var = _local_rules(numbers)
    cnf.add([-v if cell in shaded else v for cell, v in var.items()])
    cnf.at_most(list(var.values()), len(shaded))
    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        try:
            return solver.model() is not None
        except BudgetExhausted:
            return False


def _other_solution(numbers: list[list[int]], shaded: set[Cell]) -> set[Cell] | str | None:
    """Another solution's shaded cells, None when there is none, "unknown" when the search gave up."""
    cnf, var = _local_rules(numbers)
    cnf.add([-v if cell in shaded else v for cell, v in var.items()])  # another solution
    everything = set(var)
    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        for _ in range(_CUTS):
            try:
                model = solver.model()
            except BudgetExhausted:
                return "unknown"
            if model is None:
                return None
            other = {cell for cell in everything if model[cell]}
            pieces = _pieces(everything - other)
            if len(pieces) == 1:
                return other
            cut = False
            for piece in pieces:  # a cut for every piece: fewer rounds than one cut per model
                rest = everything - piece
                if any((r + dr, c + dc) in rest for r, c in rest for dr, dc in NEIGHBOURS):
                    # a connected solution keeping all of ``piece`` and shading its border would be
                    # ``piece`` alone, leaving ``rest`` all shaded: impossible when ``rest`` has
                    # touching cells, so the cut excludes no solution
                    border = {(r + dr, c + dc) for r, c in piece for dr, dc in NEIGHBOURS} & rest
                    solver.add([var[cell] for cell in piece] + [-var[cell] for cell in border])
                    cut = True
            if not cut:
                return "unknown"
    return "unknown"


def _pieces(cells: set[Cell]) -> list[set[Cell]]:
    left, pieces = set(cells), []
    for _ in range(len(cells)):
        if not left:
            break
        start = min(left)
        piece, queue = {start}, [start]
        for r, c in queue:
            for dr, dc in NEIGHBOURS:
                nxt = (r + dr, c + dc)
                if nxt in left and nxt not in piece:
                    piece.add(nxt)
                    queue.append(nxt)
        pieces.append(piece)
        left -= piece
    return pieces
