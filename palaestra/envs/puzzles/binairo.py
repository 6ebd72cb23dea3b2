"""Binairo (Takuzu): complete a grid of 0s and 1s with balanced, non-repeating rows and columns.

The rules: every row and column holds as many 0s as 1s, no three equal digits are adjacent in
a row or column, and no two rows (and no two columns) are identical. A random full grid is built
row by row from the valid rows in random order (backtracking on the column rules), then givens are removed in random order while a SAT solver proves the
remaining givens still force the grid (:func:`prune_clues`), down to the level's floor of
givens or a minimal puzzle. Every puzzle has exactly one solution.

The answer is the completed grid, one row per line of 0s and 1s; the verifier checks the rules.

Generation speed: about 160 problems/s at level 4 on this 2-core machine. About 40% of the time is the bounded
SAT proofs that decide, given by given, whether a removal keeps the grid forced (about 40 per puzzle), 30%
building and loading the rule encoding (balance, no three in a row, distinct rows and columns), and the rest
drawing the full grid by backtracking; the proofs make the puzzle have exactly one solution.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    ProofSolver,
    changed_given,
    grid_corruptions,
    grid_spellings,
    lines,
    prune_clues,
    read_cells,
    with_spaces,
)

_SHUFFLED_ROWS = 40  # up to this many valid rows (sides up to 8), each step tries them in a fresh random order


@register
class Binairo(Task):
    id = "puzzles/binairo"
    family = "puzzles"
    description = "Complete a 0/1 grid: balanced lines, no three in a line, no repeated lines (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "binary")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int  # even grid side
        min_givens: float  # stop removing givens once this share of the cells remains

    presets = (
        Config(size=6, min_givens=0.4),
        Config(size=8, min_givens=0.35),  # not 6x6 minimal: only 4,140 full 6x6 grids exist
        Config(size=8, min_givens=0.0),
        Config(size=10, min_givens=0.35),
        Config(size=10, min_givens=0.0),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        rules, cell = _rules(n)
        clues = []
        grid = retry(lambda: _random_grid(rng, n), attempts=50, what=f"a valid {n}x{n} binairo grid")
        with ProofSolver(rules, PROOF_BUDGET) as solver:
            clues = [[cell[r][c] if grid[r][c] else -cell[r][c]] for r in range(n) for c in range(n)]
            solver.add([-lit for (lit,) in clues])  # another solution?
            order = list(range(n * n))
            rng.shuffle(order)
            kept = prune_clues(solver, clues, order, keep_at_least=round(config.min_givens * n * n))
        puzzle = ["".join(str(grid[r][c]) if kept[r * n + c] else "." for c in range(n)) for r in range(n)]
        prompt = (
            f"Solve this {n}x{n} Binairo (Takuzu) puzzle. Fill every empty cell (shown as .) with 0 or 1 so that:\n"
            f"- every row and every column contains exactly {n // 2} zeros and {n // 2} ones;\n"
            "- no three equal digits are next to each other in a row or a column;\n"
            "- no two rows are the same, and no two columns are the same.\n"
            "The given digits stay where they are. The puzzle has exactly one solution.\n\n"
            + "\n".join(" ".join(row) for row in puzzle)
            + f"\n\nGive the completed grid as {n} lines of {n} digits. For example, a completed 4x4 grid "
            "would be written:\n0110\n1001\n0101\n1010"
        )
        return Problem(prompt=prompt, answer=lines(grid), data={"givens": puzzle})

    def difficulty(self, problem: Problem) -> float:
        """Empty cells to fill, plus a tenth of the empty cells with no given orthogonal neighbour (where no
        local rule applies at the start)."""
        rows = problem.data["givens"]
        size = len(rows)
        isolated = sum(
            all(rows[r + dr][c + dc] == "." for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= r + dr < size and 0 <= c + dc < size)
            for r in range(size) for c in range(size) if rows[r][c] == ".")
        return float(sum(row.count(".") for row in rows)) + isolated / 10

    def verify(self, problem: Problem, answer: str) -> Verdict:
        givens = problem.data["givens"]
        n = len(givens)
        grid = read_cells(answer, n, n, "01")
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        changed = changed_given(grid, givens)
        if changed:
            return Verdict.wrong(changed)
        row_texts = ["".join(row) for row in grid]
        col_texts = ["".join(grid[r][c] for r in range(n)) for c in range(n)]
        for kind, texts in (("row", row_texts), ("column", col_texts)):
            for i, text in enumerate(texts):
                if text.count("1") != n // 2:
                    return Verdict.wrong(f"{kind} {i + 1} does not hold as many 0s as 1s")
                if "000" in text or "111" in text:
                    return Verdict.wrong(f"{kind} {i + 1} has three equal digits in a line")
            if len(set(texts)) < n:
                return Verdict.wrong(f"two {kind}s are the same")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), with_spaces(gold), "\n".join(",".join(r) for r in gold.splitlines()),
                *grid_spellings(gold),
                "[" + ", ".join("[" + ", ".join(r) + "]" for r in gold.splitlines()) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        n = len(rows)
        r, c = rng.randrange(n), rng.randrange(n)
        flipped = [row[:] for row in rows]
        flipped[r][c] = "1" if flipped[r][c] == "0" else "0"
        inverted = [["1" if v == "0" else "0" for v in row] for row in rows]  # valid, but not the solution
        wrong = ["\n".join(map("".join, g)) for g in (flipped, inverted, rows[:-1])]
        return [*wrong, *grid_corruptions(problem.answer or "", wrong[0])]


@cache
def _rules(n: int) -> tuple[CNF, tuple[tuple[int, ...], ...]]:
    """Binairo's rules as CNF over ``cell[r][c]`` (true: the cell holds 1)."""
    cnf = CNF()
    cell = [[cnf.var((r, c)) for c in range(n)] for r in range(n)]
    line_sets = [cell[r] for r in range(n)] + [[cell[r][c] for r in range(n)] for c in range(n)]
    for line in line_sets:
        cnf.exactly(line, n // 2)
        for i in range(n - 2):
            cnf.add(line[i : i + 3])
            cnf.add([-v for v in line[i : i + 3]])
    for group in (line_sets[:n], line_sets[n:]):
        for a, b in itertools.combinations(group, 2):
            differ = []  # the two lines differ somewhere: some position where they differ is chosen
            for x, y in zip(a, b):
                d = cnf.auxiliary()
                cnf.clauses.extend([[-d, x, y], [-d, -x, -y]])
                differ.append(d)
            cnf.add(differ)
    return cnf, tuple(tuple(row) for row in cell)



@cache
def _strides(count: int) -> tuple[int, ...]:
    """The steps that visit each of ``count`` items once, going round."""
    return tuple(step for step in range(1, count) if math.gcd(step, count) == 1)


@cache
def _valid_rows(n: int) -> tuple[int, ...]:
    """Every row of ``n`` cells with as many 0s as 1s and no three equal digits in a line, as a
    bit mask (bit c: column c holds 1)."""
    full = (1 << n) - 1
    return tuple(mask for mask in range(1 << n) if bin(mask).count("1") == n // 2
                 and not (mask & mask >> 1 & mask >> 2) and not (~mask & ~mask >> 1 & ~mask >> 2 & full >> 2))


def _random_grid(rng: random.Random, n: int) -> list[list[int]] | None:
    """A random valid full grid: rows tried in a random order, each kept when the columns so far can
    still be completed (no three equal in a column, no column with more than n/2 of a digit);
    None when the bounded search fails or two columns come out equal.

    Rows are bit masks, so "no three 1s in a column" is ``a & b & row == 0`` for the last two rows.
    """
    rows, full, half = list(_valid_rows(n)), (1 << n) - 1, n // 2
    rng.shuffle(rows)
    grid: list[int] = []
    budget = [300 * n]

    def extend(ones: tuple[int, ...]) -> bool:
        if len(grid) == n:
            return len({tuple(row >> c & 1 for row in grid) for c in range(n)}) == n
        a, b = (grid[-2], grid[-1]) if len(grid) >= 2 else (0, full)  # no triple is possible yet
        full_ones = sum(1 << c for c in range(n) if ones[c] == half)
        full_zeros = sum(1 << c for c in range(n) if len(grid) - ones[c] == half)
        if len(rows) <= _SHUFFLED_ROWS:
            order = rng.sample(rows, len(rows))
        else:  # a random stride through the shuffled rows: cheaper than a shuffle at every step
            start, step = rng.randrange(len(rows)), rng.choice(_strides(len(rows)))
            order = [rows[(start + i * step) % len(rows)] for i in range(len(rows))]
        for row in order:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if a & b & row or ~a & ~b & ~row & full or row & full_ones or ~row & full_zeros or row in grid:
                continue
            grid.append(row)
            if extend(tuple(ones[c] + (row >> c & 1) for c in range(n))):
                return True
            grid.pop()
        return False

    if not extend((0,) * n):
        return None
    return [[row >> c & 1 for c in range(n)] for row in grid]
