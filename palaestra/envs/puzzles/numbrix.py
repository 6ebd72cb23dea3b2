"""Numbrix: fill a grid with 1..n² so that consecutive numbers sit in orthogonally adjacent cells.

The solution is a random Hamiltonian path through the grid: a snake (boustrophedon) path
reshaped by many random backbite moves (join an end to one of its grid neighbours on the path and
reverse the loop that closes). Every cell's number starts as a given; givens are then removed in
random order while a SAT solver proves the remaining ones still force the path (each cell holds
one number, each number sits in one cell, number k+1 is next to number k; the path blocked;
:func:`prune_clues`), down to the level's floor or a minimal set. Every puzzle has exactly one
solution.

The answer is the completed grid, one row per line, numbers separated by spaces; the verifier
checks that it holds each of 1..n² once, keeps the givens, and that consecutive numbers touch.

Generation speed: about 70 problems/s at level 4 on this 2-core machine. Half the time is the bounded SAT
proofs that decide, given by given, whether a removal keeps the path unique (about 30 per puzzle), and a third
is building and loading the position encoding (every number in every cell, adjacency of consecutive numbers);
the proofs are what make the puzzle have exactly one solution.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.puzzles.common import NEIGHBOURS, PROOF_BUDGET, ProofSolver, copy_cnf, prune_clues, read_cells
from palaestra.solvers.sat import CNF

_BACKBITES = 12  # random backbite moves per cell
_NUMBER = re.compile(r"\d+")

Cell = tuple[int, int]


@register
class Numbrix(Task):
    id = "puzzles/numbrix"
    family = "puzzles"
    description = "Fill a grid with 1..n² so that consecutive numbers are orthogonal neighbours (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "path")
    max_answer_chars = 2_000
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        min_givens: float  # keep at least this share of the cells as givens

    presets = (
        Config(size=5, min_givens=0.45),  # not 4x4: its few paths repeat within 1,000 seeds
        Config(size=5, min_givens=0.3),
        Config(size=5, min_givens=0.0),
        Config(size=6, min_givens=0.0),
        Config(size=7, min_givens=0.0),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        path = _random_path(rng, n)
        number = {cell: k for k, cell in enumerate(path, 1)}
        # Every given pins the colour of 1 (numbers alternate colours along the path), so with
        # at least one given no other path has 1 elsewhere; and no puzzle without givens is unique
        # (the path turned half round keeps its colours), so the colour of our 1 loses nothing.
        cnf, at = _rules(n, sum(path[0]) % 2 == 0)
        cnf.add([-at[cell][number[cell]] for cell in path])  # another path?
        clues = [[at[cell][number[cell]]] for cell in path]
        order = list(range(n * n))
        rng.shuffle(order)
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            kept = prune_clues(solver, clues, order, keep_at_least=round(config.min_givens * n * n))
        width = len(str(n * n))
        grid = [[number[(r, c)] if kept[number[(r, c)] - 1] else 0 for c in range(n)] for r in range(n)]
        shown = "\n".join(" ".join(str(v).rjust(width) if v else ".".rjust(width) for v in row) for row in grid)
        prompt = (
            f"Solve this {n}x{n} Numbrix puzzle. Fill every empty cell (.) so that the grid holds each number "
            f"from 1 to {n * n} exactly once and each number from 1 to {n * n - 1} is directly above, below, left "
            "or right of the next one (no diagonals): the numbers trace one path through every cell. The given "
            "numbers stay where they are. The puzzle has exactly one solution.\n\n" + shown
            + f"\n\nGive the completed grid as {n} lines of {n} numbers separated by spaces. For example, a "
            "solved 2x2 grid could be written:\n1 2\n4 3"
        )
        answer = "\n".join(" ".join(str(number[(r, c)]) for c in range(n)) for r in range(n))
        return Problem(prompt=prompt, answer=answer, data={"givens": grid})

    def difficulty(self, problem: Problem) -> float:
        """Empty cells to fill, plus the longest run of consecutive numbers none of which is given (the
        stretch the path must be found for unaided)."""
        givens = sorted(v for row in problem.data["givens"] for v in row if v)
        cells = len(problem.data["givens"]) * len(problem.data["givens"][0])
        gaps = [b - a - 1 for a, b in zip([0, *givens], [*givens, cells + 1])]
        return float(sum(v == 0 for row in problem.data["givens"] for v in row) + max(gaps) / 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        givens = problem.data["givens"]
        n = len(givens)
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        if any(int(run) > n * n for run in _NUMBER.findall(answer)):
            return Verdict.unparsed(f"expected the numbers 1 to {n * n}, separated")  # also "1234" for 1 2 3 4
        cells = read_cells(answer, n, n, [str(k) for k in range(1, n * n + 1)])
        if isinstance(cells, str):
            return Verdict.unparsed(f"expected {n} lines of {n} numbers")
        grid = [[int(v) for v in row] for row in cells]
        where = {}
        for r in range(n):
            for c in range(n):
                if givens[r][c] and grid[r][c] != givens[r][c]:
                    return Verdict.wrong(f"the given number in row {r + 1}, column {c + 1} was changed")
                where[grid[r][c]] = (r, c)
        if sorted(where) != list(range(1, n * n + 1)) or len(where) != n * n:
            return Verdict.wrong(f"the grid must hold each number from 1 to {n * n} once")
        for k in range(1, n * n):
            (r1, c1), (r2, c2) = where[k], where[k + 1]
            if abs(r1 - r2) + abs(c1 - c2) != 1:
                return Verdict.wrong(f"{k} and {k + 1} are not neighbours")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        lines = gold.splitlines()
        width = max(len(v) for line in lines for v in line.split())
        aligned = "\n".join(" ".join(v.rjust(width) for v in line.split()) for line in lines)
        return [*super().spellings(problem), aligned, "\n".join(", ".join(line.split()) for line in lines),
                "\n".join("[" + ", ".join(line.split()) + "]," for line in lines).rstrip(","), f"```\n{gold}\n```",
                "; ".join(lines), "\n".join(f"Row {r}: {line}" for r, line in enumerate(lines, 1)),
                "\\boxed{" + gold + "}", gold + ""]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [line.split() for line in (problem.answer or "").splitlines()]
        n = len(rows)
        flat = [v for row in rows for v in row]
        i, j = rng.sample(range(n * n), 2)
        flat[i], flat[j] = flat[j], flat[i]
        swapped = [flat[r * n:(r + 1) * n] for r in range(n)]
        reversed_path = [[str(n * n + 1 - int(v)) for v in row] for row in rows]  # a path too, but givens move
        wrong = ["\n".join(" ".join(row) for row in g) for g in (swapped, reversed_path, rows[:-1])]
        gold = problem.answer or ""
        return [*wrong, f"{gold}\n\nNo, wait:\n{wrong[0]}", f"{wrong[0]}\n\nor\n\n{gold}",
                gold.replace(" ", "", 1)]  # two numbers run together


def _random_path(rng: random.Random, n: int) -> list[Cell]:
    """A random Hamiltonian path through the n x n grid, by backbite moves from a snake path."""
    path = [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    around = {(r, c): [(r + dr, c + dc) for dr, dc in NEIGHBOURS if 0 <= r + dr < n and 0 <= c + dc < n]
              for r in range(n) for c in range(n)}
    for _ in range(_BACKBITES * n * n):
        if rng.random() < 0.5:
            path.reverse()  # work on either end
        options = around[path[-1]]
        nxt = options[rng.randrange(len(options))]
        i = path.index(nxt)
        if i == len(path) - 2:
            continue  # the end's own predecessor: no move
        path[i + 1:] = reversed(path[i + 1:])  # end joins nxt; the tail after nxt is traversed backwards
    if rng.random() < 0.5:
        path.reverse()
    return path


@cache
def _rule_set(n: int, one_on_even: bool) -> tuple[CNF, dict[Cell, list[int]]]:
    """Numbrix's rules as CNF over ``at[cell][k]`` ("cell holds k"; 0 where that cannot be), for
    every path of side n whose 1 is on an even cell (r + c even) or not: one number per cell,
    one cell per number, k+1 next to k.

    Numbers alternate between the two colours of the checkerboard, so every odd number shares
    the colour of 1 and the variables for the other colour are left out (half the formula).
    """
    cnf = CNF()
    cells = [(r, c) for r in range(n) for c in range(n)]
    at = {(r, c): [0] + [cnf.var(((r, c), k)) if (((r + c) % 2 == 0) == (k % 2 == 1)) == one_on_even else 0
                         for k in range(1, n * n + 1)] for (r, c) in cells}
    for cell in cells:
        cnf.exactly_one([v for v in at[cell][1:] if v])
    for k in range(1, n * n + 1):
        cnf.exactly_one([at[cell][k] for cell in cells if at[cell][k]])
    for (r, c) in cells:
        near = [(r + dr, c + dc) for dr, dc in NEIGHBOURS if (r + dr, c + dc) in at]
        for k in range(1, n * n):
            if at[(r, c)][k]:
                cnf.add([-at[(r, c)][k], *(at[m][k + 1] for m in near)])
            else:
                cnf.add([-at[(r, c)][k + 1], *(at[m][k] for m in near)])
    return cnf, at


def _rules(n: int, one_on_even: bool) -> tuple[CNF, dict[Cell, list[int]]]:
    """A fresh copy of the rules (the caller adds clauses to it)."""
    cnf, at = _rule_set(n, one_on_even)
    return copy_cnf(cnf), at
