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
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.puzzles.common import NEIGHBOURS, PROOF_BUDGET, ProofSolver, prune_clues
from palaestra.solvers.sat import CNF

_BACKBITES = 40  # random backbite moves per cell
_NUMBER = re.compile(r"\d{1,3}")
MAX_ANSWER_CHARS = 2_000

Cell = tuple[int, int]


@register
class Numbrix(Task):
    id = "puzzles/numbrix"
    family = "puzzles"
    description = "Fill a grid with 1..n² so that consecutive numbers are orthogonal neighbours (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "path")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        min_givens: float  # keep at least this share of the cells as givens

    def config(self, level: int) -> Config:
        return [
            self.Config(size=4, min_givens=0.35),
            self.Config(size=5, min_givens=0.3),
            self.Config(size=5, min_givens=0.0),
            self.Config(size=6, min_givens=0.0),
            self.Config(size=7, min_givens=0.0),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        path = _random_path(rng, n)
        number = {cell: k for k, cell in enumerate(path, 1)}
        cnf, at = _rules(n)
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
        """Empty cells to fill."""
        return float(sum(v == 0 for row in problem.data["givens"] for v in row))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        givens = problem.data["givens"]
        n = len(givens)
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
            return Verdict.unparsed("answer too long")
        rows = [line for line in answer.strip().strip("`").splitlines() if line.strip()]
        grid = [[int(v) for v in _NUMBER.findall(line)] for line in rows]
        if len(grid) != n or any(len(row) != n for row in grid) or any(
                _NUMBER.sub("", line).strip(" ,|[]") for line in rows):
            return Verdict.unparsed(f"expected {n} lines of {n} numbers")
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
                "\n".join("[" + ", ".join(line.split()) + "]," for line in lines).rstrip(","), f"```\n{gold}\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [line.split() for line in (problem.answer or "").splitlines()]
        n = len(rows)
        flat = [v for row in rows for v in row]
        i, j = rng.sample(range(n * n), 2)
        flat[i], flat[j] = flat[j], flat[i]
        swapped = [flat[r * n:(r + 1) * n] for r in range(n)]
        reversed_path = [[str(n * n + 1 - int(v)) for v in row] for row in rows]  # a path too, but givens move
        return ["\n".join(" ".join(row) for row in g) for g in (swapped, reversed_path, rows[:-1])]


def _random_path(rng: random.Random, n: int) -> list[Cell]:
    """A random Hamiltonian path through the n x n grid, by backbite moves from a snake path."""
    path = [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    for _ in range(_BACKBITES * n * n):
        if rng.random() < 0.5:
            path.reverse()  # work on either end
        end = path[-1]
        options = [(end[0] + dr, end[1] + dc) for dr, dc in NEIGHBOURS
                   if 0 <= end[0] + dr < n and 0 <= end[1] + dc < n]
        nxt = rng.choice(options)
        i = path.index(nxt)
        if i == len(path) - 2:
            continue  # the end's own predecessor: no move
        path[i + 1:] = reversed(path[i + 1:])  # end joins nxt; the tail after nxt is traversed backwards
    if rng.random() < 0.5:
        path.reverse()
    return path


def _rules(n: int) -> tuple[CNF, dict[Cell, list[int]]]:
    cnf = CNF()
    cells = [(r, c) for r in range(n) for c in range(n)]
    at = {cell: [0] + [cnf.var((cell, k)) for k in range(1, n * n + 1)] for cell in cells}
    for cell in cells:
        cnf.exactly_one(at[cell][1:])
    for k in range(1, n * n + 1):
        cnf.exactly_one([at[cell][k] for cell in cells])
    for (r, c) in cells:
        near = [(r + dr, c + dc) for dr, dc in NEIGHBOURS if (r + dr, c + dc) in at]
        for k in range(1, n * n):
            cnf.add([-at[(r, c)][k], *(at[m][k + 1] for m in near)])
            cnf.add([-at[(r, c)][k + 1], *(at[m][k] for m in near)])
    return cnf, at
