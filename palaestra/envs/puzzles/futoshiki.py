"""Futoshiki: fill a Latin square whose adjacent cells are tied by inequality signs.

The solution is a random Latin square (:func:`random_latin_square`). Every cell's digit and a
random share of the inequalities between adjacent cells start as clues; the generator then
drops givens, and at the upper levels inequalities too, in random order, keeping a drop only
when a SAT solver proves the remaining clues still force the solution (the puzzle's rules, the
solution blocked, the clues as assumptions: :func:`prune_clues`). Every puzzle therefore has
exactly one solution, and at levels that prune both kinds of clue it is minimal: no clue can go.

The answer is the completed grid, one row per line. The verifier checks the rules (a Latin
square that keeps the givens and satisfies every sign), so any spelling of the one solution
scores: digits side by side or separated by spaces, commas or ``|``, or ``[[1, 2], [2, 1]]``.

Generation speed: about 80 problems/s of CPU time at level 4 on this 2-core machine. About half the time is the bounded
SAT proofs that decide, clue by clue, whether the givens and inequality signs left still force the solution
(about 70 per puzzle, so the top level is minimal), and most of the rest is encoding the inequalities (order
literals per cell) and loading them into the solver; the proofs make the puzzle have exactly one solution.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.puzzles.common import (
    PROOF_BUDGET,
    ProofSolver,
    block,
    changed_given,
    latin_cnf,
    latin_corruptions,
    latin_problem,
    less_than,
    lines,
    prune_clues,
    read_digits,
    with_spaces,
)
from palaestra.generators.latin import random_latin_square


@register
class Futoshiki(Task):
    id = "puzzles/futoshiki"
    family = "puzzles"
    description = "Fill a Latin square that obeys inequality signs between neighbouring cells (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "latin-square")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int  # the grid side n: digits 1..n
        sign_share: float  # share of adjacent pairs offered as inequality clues before pruning
        prune_signs: bool  # also drop inequalities the solution does not need (a minimal puzzle)

    presets = (
        Config(size=4, sign_share=0.5, prune_signs=False),
        Config(size=5, sign_share=0.4, prune_signs=False),
        Config(size=6, sign_share=0.4, prune_signs=True),
        Config(size=7, sign_share=0.4, prune_signs=True),
        Config(size=8, sign_share=0.35, prune_signs=True),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        square = random_latin_square(rng, n)
        pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
        pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
        offered = [pair for pair in pairs if rng.random() < config.sign_share]
        signs = [(a, b) if square[a[0]][a[1]] < square[b[0]][b[1]] else (b, a) for a, b in offered]  # smaller first

        cnf, cell = latin_cnf(n)
        selectors = [cnf.var(("sign", i)) for i in range(len(signs))]
        for selector, (small, large) in zip(selectors, signs):
            less_than(cnf, cell, n, small, large, guard=selector)
        block(cnf, [cell(r, c, square[r][c]) for r in range(n) for c in range(n)])
        givens = [[cell(r, c, square[r][c])] for r in range(n) for c in range(n)]
        clues = givens + [[s] for s in selectors]
        given_order = list(range(n * n))
        rng.shuffle(given_order)
        sign_order = [n * n + i for i in range(len(signs))]
        rng.shuffle(sign_order)
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            kept = prune_clues(solver, clues, given_order)
            if config.prune_signs:
                kept = prune_clues(solver, clues, sign_order, kept=kept)

        puzzle = [["." if not kept[r * n + c] else str(square[r][c]) for c in range(n)] for r in range(n)]
        kept_signs = [[*small, *large] for i, (small, large) in enumerate(signs) if kept[n * n + i]]
        prompt = (
            f"Solve this {n}x{n} Futoshiki puzzle. Fill every empty cell (shown as .) with a digit from 1 to {n} "
            f"so that every row and every column contains each digit 1-{n} exactly once and every inequality "
            "sign holds. Between two cells of a row, < or > compares the left cell with the right cell. Between "
            "two rows, a ^ under a cell means that cell is smaller than the cell below it, and a v means it is "
            "larger. The given digits stay where they are. The puzzle has exactly one solution.\n\n"
            f"{_render([''.join(row) for row in puzzle], kept_signs)}\n\n"
            f"Give the completed grid as {n} lines, one per row from top to bottom, each holding that row's "
            f"{n} digits from left to right. For example, a solved 3x3 grid would be written:\n123\n312\n231"
        )
        return Problem(
            prompt=prompt,
            answer=lines(square),
            data={"size": n, "givens": ["".join(row) for row in puzzle], "signs": kept_signs},
        )

    def difficulty(self, problem: Problem) -> float:
        """Empty cells to fill."""
        return float(sum(row.count(".") for row in problem.data["givens"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n, givens = problem.data["size"], problem.data["givens"]
        grid = read_digits(answer, n, n)
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        changed = changed_given(grid, givens)
        if changed:
            return Verdict.wrong(changed)
        broken = latin_problem(grid, n)
        if broken:
            return Verdict.wrong(broken)
        for r1, c1, r2, c2 in problem.data["signs"]:
            if not grid[r1][c1] < grid[r2][c2]:
                return Verdict.wrong(f"the sign between row {r1 + 1}, column {c1 + 1} and row {r2 + 1}, "
                                     f"column {c2 + 1} does not hold")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        rows = gold.splitlines()
        return [
            *super().spellings(problem),
            with_spaces(gold),
            "\n".join(", ".join(row) for row in rows),
            "[" + ", ".join("[" + ", ".join(row) + "]" for row in rows) + "]",
            f"```\n{gold}\n```",
            f"{gold}",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        # The solution is unique, so any other grid is wrong.
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        swapped, relabelled = latin_corruptions(rows, rng)
        shifted = rows[1:] + rows[:1]  # still a Latin square
        return ["\n".join(map("".join, grid)) for grid in (swapped, relabelled, shifted, rows[:-1])]


def _render(givens: list[str], signs: list[list[int]]) -> str:
    """Rows of cells with signs between them; sign rows between the rows of cells."""
    n = len(givens)
    across, down = {}, {}  # keyed by the left / upper cell of the pair
    for r1, c1, r2, c2 in signs:  # (r1, c1) holds the smaller digit
        if r1 == r2:
            across[(r1, min(c1, c2))] = "<" if c1 < c2 else ">"
        else:
            down[(min(r1, r2), c1)] = "^" if r1 < r2 else "v"
    out = []
    for r in range(n):
        row = givens[r][0]
        for c in range(1, n):
            row += f" {across.get((r, c - 1), ' ')} {givens[r][c]}"
        out.append(row)
        if r < n - 1:
            out.append("   ".join(down.get((r, c), " ") for c in range(n)).rstrip())
    return "\n".join(out)
