"""Dynamic programming on grids: count paths, or find the cheapest or richest path, with generated moves.

A grid is a list of equal-length strings; ``#`` cells are walls. A path starts at the top-left
cell and ends at the bottom-right one, using only a generated set of moves that never go up
or left (right, down, diagonal, jumps of two, knight-like steps; a move only needs its landing
cell to be free). Variants: the number of paths modulo a prime; the minimum sum of the digit
costs of the cells on a path; the maximum number of coins (``o``) collected. Levels add moves
and grow the grids.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.envs.code.common import FunctionTask, dedupe_inputs, function_problem, function_tests, varied

MOVES = {
    (0, 1): "one cell right",
    (1, 0): "one cell down",
    (1, 1): "one cell diagonally down-right",
    (0, 2): "two cells right (jumping over the cell between)",
    (2, 0): "two cells down (jumping over the cell between)",
    (1, 2): "one down and two right (a knight's step)",
    (2, 1): "two down and one right (a knight's step)",
}


@register
class GridPaths(FunctionTask):
    id = "code/grid_paths"
    description = "Dynamic programming: count, cheapest or richest monotone paths through a grid with walls."
    tags = ("code", "programming", "dynamic-programming")

    @dataclass(frozen=True)
    class Config:
        variants: tuple[str, ...]
        moves: int  # size of the move set, drawn from MOVES
        max_side: int
        wall_density: float
        tests: int

    def config(self, level: int) -> Config:
        c = self.Config
        every = ("count", "min_cost", "max_coins")
        return [
            c(variants=every, moves=2, max_side=4, wall_density=0.15, tests=10),
            c(variants=every, moves=3, max_side=5, wall_density=0.2, tests=10),
            c(variants=every, moves=3, max_side=7, wall_density=0.2, tests=12),
            c(variants=every, moves=4, max_side=10, wall_density=0.25, tests=12),
            c(variants=every, moves=5, max_side=14, wall_density=0.25, tests=14),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        while True:
            variant = rng.choice(config.variants)
            moves = sorted(rng.sample(sorted(MOVES), config.moves))
            modulus = rng.choice([1_000_003, 998_244_353, 10_007, 65_537])
            inputs = dedupe_inputs([[g] for g in _grids(rng, config, variant)])
            tests = function_tests(lambda grid, v=variant, m=moves, k=modulus: solve(grid, v, m, k), inputs)
            if varied(tests, at_least=4):
                break
        text = _text(variant, moves, modulus)
        return function_problem(function="solve", params="grid", task_text=text, tests=tests,
                                reference_source=_source(variant, moves, modulus), examples=2,
                                extra={"spec": {"variant": variant, "moves": [list(m) for m in moves],
                                                "modulus": modulus}})


def solve(grid: list[str], variant: str, moves: list[tuple[int, int]], modulus: int) -> int:
    """The trusted reference."""
    rows, cols = len(grid), len(grid[0])
    table: list[list[Any]] = [[0 if variant == "count" else None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            cell = grid[r][c]
            if cell == "#":
                continue
            here = int(cell) if variant == "min_cost" else (1 if cell == "o" else 0)
            if r == 0 and c == 0:
                table[r][c] = 1 if variant == "count" else here
                continue
            previous = [table[r - dr][c - dc] for dr, dc in moves if r - dr >= 0 and c - dc >= 0]
            if variant == "count":
                table[r][c] = sum(previous) % modulus
            else:
                reached = [p for p in previous if p is not None]
                if reached:
                    table[r][c] = (min(reached) if variant == "min_cost" else max(reached)) + here
    end = table[rows - 1][cols - 1]
    return end if variant == "count" else (-1 if end is None else end)


def _text(variant: str, moves: list[tuple[int, int]], modulus: int) -> str:
    allowed = "; ".join(MOVES[m] for m in moves)
    cells = {
        "count": "'.' (free) or '#' (wall)",
        "min_cost": "a digit '0'-'9' (a free cell with that cost) or '#' (a wall)",
        "max_coins": "'.' (free), 'o' (free, holds a coin) or '#' (a wall)",
    }[variant]
    goal = {
        "count": f"returns the number of different paths, modulo {modulus} (0 if there is none)",
        "min_cost": "returns the minimum total cost of a path: the sum of the costs of every cell the path "
                    "lands on, the first and last cells included (-1 if there is no path)",
        "max_coins": "returns the maximum number of coins a path can collect from the cells it lands on, the "
                     "first and last cells included (-1 if there is no path)",
    }[variant]
    return (
        "Write a Python function `solve(grid)` for a grid given as a non-empty list of equal-length non-empty "
        f"strings, where each character is {cells}. A path starts on the top-left cell and ends on the "
        f"bottom-right cell, landing only on free cells (the start and the end included), and each move is "
        f"one of: {allowed}. A move only needs its landing cell to be free. The function {goal}."
    )


def _source(variant: str, moves: list[tuple[int, int]], modulus: int) -> str:
    head = (
        "def solve(grid):\n"
        "    rows, cols = len(grid), len(grid[0])\n"
        f"    moves = {moves}\n"
    )
    if variant == "count":
        return head + (
            "    ways = [[0] * cols for _ in range(rows)]\n"
            "    for r in range(rows):\n"
            "        for c in range(cols):\n"
            "            if grid[r][c] == '#':\n"
            "                continue\n"
            "            if r == 0 and c == 0:\n"
            "                ways[r][c] = 1\n"
            "                continue\n"
            "            total = 0\n"
            "            for dr, dc in moves:\n"
            "                if r - dr >= 0 and c - dc >= 0:\n"
            "                    total += ways[r - dr][c - dc]\n"
            f"            ways[r][c] = total % {modulus}\n"
            "    return ways[rows - 1][cols - 1]\n"
        )
    pick, here = ("min", "int(grid[r][c])") if variant == "min_cost" else ("max", "1 if grid[r][c] == 'o' else 0")
    return head + (
        "    best = [[None] * cols for _ in range(rows)]\n"
        "    for r in range(rows):\n"
        "        for c in range(cols):\n"
        "            if grid[r][c] == '#':\n"
        "                continue\n"
        f"            here = {here}\n"
        "            if r == 0 and c == 0:\n"
        "                best[r][c] = here\n"
        "                continue\n"
        "            reached = [best[r - dr][c - dc] for dr, dc in moves\n"
        "                       if r - dr >= 0 and c - dc >= 0 and best[r - dr][c - dc] is not None]\n"
        "            if reached:\n"
        f"                best[r][c] = {pick}(reached) + here\n"
        "    end = best[rows - 1][cols - 1]\n"
        "    return -1 if end is None else end\n"
    )


def _grid(rng: random.Random, rows: int, cols: int, density: float, variant: str) -> list[str]:
    out = []
    for _ in range(rows):
        row = []
        for _ in range(cols):
            if rng.random() < density:
                row.append("#")
            elif variant == "min_cost":
                row.append(str(rng.randint(0, 9)))
            elif variant == "max_coins":
                row.append("o" if rng.random() < 0.4 else ".")
            else:
                row.append(".")
        out.append("".join(row))
    return out


def _grids(rng: random.Random, config: GridPaths.Config, variant: str) -> list[list[str]]:
    n = config.max_side
    free = _grid(rng, n, n, 0.0, variant)
    grids = [
        _grid(rng, 1, 1, 0.0, variant),
        _grid(rng, 1, rng.randint(2, n), 0.0, variant),
        _grid(rng, rng.randint(2, n), 1, 0.0, variant),
        free,
        ["#" + free[0][1:]] + free[1:],  # blocked start
    ]
    while len(grids) < config.tests:
        grids.append(_grid(rng, rng.randint(2, n), rng.randint(2, n), config.wall_density, variant))
    return grids
