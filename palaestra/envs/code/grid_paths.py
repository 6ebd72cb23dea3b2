"""Dynamic programming on grids: count paths, or find the cheapest or richest path, with generated moves.

A grid is a list of equal-length strings; ``#`` cells are walls. A path starts at the top-left
cell and ends at the bottom-right one, using only a generated set of moves ``(a, b)``: ``a`` rows
down and ``b`` columns right, never up or left (steps, diagonals, jumps, knight-like moves; a
move only needs its landing cell to be free). Variants, each with generated constants:

- **count**: the number of paths modulo a prime, where a move of each kind can be made in a
  generated number of ways (a path counts as the product of its moves' ways; moves of at most two
  rows and columns, so that there are paths to count);
- **min_cost**: the least cost of a path: the digit costs of the cells it lands on plus a
  generated toll per move kind (-1 if there is no path);
- **max_score**: the best score of a path: a generated value per coin cell (``o``) it lands on
  minus the tolls of its moves (None if there is no path).

Every clause matters: the tests tell the reference from the same problem with a move left out, the
modulus ignored, all ways 1, no tolls or coins worth 1 (one larger grid makes counts pass the
modulus). Levels add move kinds and grow the grids; the difficulty measure is the dynamic
programme's work on the largest test (move kinds times cells).

Generation speed: about 220 problems/s at level 4 on this 2-core machine. The reference grid-path
programme and each of its near-miss variants (a move left out, the modulus, ways, tolls or coin value
ignored) are compiled in-process and run on every test grid, to prove the hidden tests reject every near
miss; that proof is nearly all the time, and it is what keeps almost-right solutions from earning reward.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.code.common import FunctionTask, function_problem, pick_examples, pinned_tests, varied
from palaestra.envs.code.templates import ProgramTexts

MOVES = [(a, b) for a in range(4) for b in range(4) if (a, b) != (0, 0)]  # (rows down, columns right)
SHORT_MOVES = [(a, b) for a, b in MOVES if max(a, b) <= 2]  # for counting: long jumps leave few paths to count
# Primes small enough that path counts on the larger test grids pass them.
MODULI = tuple(p for p in range(1_009, 20_000, 2) if all(p % d for d in range(3, int(p ** 0.5) + 1, 2)))
BIG = 10 ** 40  # a modulus no count reaches: "the modulus ignored"
VARIANTS = ("count", "min_cost", "max_score")
EXAMPLES = 2  # tests shown in the prompt

CODE = ProgramTexts("grid_paths")


@register
class GridPaths(FunctionTask):
    id = "code/grid_paths"
    description = "Dynamic programming: count, cheapest or best-scoring monotone paths through a grid with walls."
    tags = ("code", "programming", "dynamic-programming")
    version = 3

    @dataclass(frozen=True)
    class Config:
        moves: int  # move kinds, drawn from MOVES
        max_side: int
        wall_density: float
        tests: int

    presets = (
        Config(moves=2, max_side=5, wall_density=0.15, tests=10),
        Config(moves=3, max_side=6, wall_density=0.2, tests=10),
        Config(moves=3, max_side=8, wall_density=0.2, tests=12),
        Config(moves=4, max_side=10, wall_density=0.25, tests=12),
        Config(moves=5, max_side=14, wall_density=0.25, tests=14),
    )
    growth = Growth(steps={"max_side": 4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
            spec = _spec(rng, config)
            inputs = [[g] for g in _grids(rng, config, spec["variant"])]
            tests = pinned_tests(_source, spec, spec_mutants(spec), inputs, at_least=3)  # every clause matters
            if tests is None:
                return None
            # The tests the prompt does not show must vary too: where they all had one result (no path: the
            # moves never reach the corner of those grids), the examples looked up and that value returned
            # for every other grid passed (version 2: 12% of level-0 problems).
            shown = set(pick_examples(tests, EXAMPLES))
            hidden = [t for i, t in enumerate(tests) if i not in shown]
            return (spec, tests) if varied(hidden, at_least=2) else None

        spec, tests = retry(draw, what="a move set and grids with varied results")
        return function_problem(function="solve", params="grid", task_text=_text(spec), tests=tests,
                                reference_source=_source(spec), examples=EXAMPLES, extra={"spec": spec})

    def difficulty(self, problem: Problem) -> float:
        """The dynamic programme's work on the largest test (move kinds times cells), plus the walls on it and
        the total weight of the moves (what the recurrence has to combine)."""
        grid = max((t["args"][0] for t in problem.data["tests"]), key=lambda g: len(g) * len(g[0]))
        walls = sum(row.count("#") for row in grid)
        spec = problem.data["spec"]
        return len(spec["moves"]) * len(grid) * len(grid[0]) + walls + sum(spec.get("ways", [])) / 2


def _spec(rng: random.Random, config: GridPaths.Config) -> dict[str, Any]:
    variant = rng.choice(VARIANTS)
    moves = sorted(rng.sample(SHORT_MOVES if variant == "count" else MOVES, config.moves))
    spec: dict[str, Any] = {"variant": variant, "moves": [list(m) for m in moves]}
    if variant == "count":
        spec["ways"] = [rng.choice([1, 1, 2, 3]) for _ in moves]
        spec["modulus"] = rng.choice(MODULI)
    else:
        spec["tolls"] = [rng.randint(0, 9) for _ in moves]
    if variant == "max_score":
        spec["coin"] = rng.randint(1, 9)
    return spec


def spec_mutants(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Near misses: each move left out, the modulus ignored, every move's ways 1, no tolls, coins worth 1."""
    per_move = [key for key in ("ways", "tolls") if key in spec]
    out = [{**spec, "moves": spec["moves"][:i] + spec["moves"][i + 1:],
            **{key: spec[key][:i] + spec[key][i + 1:] for key in per_move}} for i in range(len(spec["moves"]))]
    if "modulus" in spec:
        out.append({**spec, "modulus": BIG})
    if any(w != 1 for w in spec.get("ways", [1])):
        out.append({**spec, "ways": [1] * len(spec["ways"])})
    if any(spec.get("tolls", [0])):
        out.append({**spec, "tolls": [0] * len(spec["tolls"])})
    if spec.get("coin", 1) != 1:
        out.append({**spec, "coin": 1})
    return out


def _move_list(spec: dict[str, Any], extra: str | None) -> str:
    parts = []
    for (a, b), value in zip(spec["moves"], spec[extra] if extra else [None] * len(spec["moves"])):
        what = {"ways": f" ({value} way{'s' if value != 1 else ''})", "tolls": f" (toll {value})", None: ""}[extra]
        parts.append(f"({a}, {b}){what}")
    return ", ".join(parts)


def _text(spec: dict[str, Any]) -> str:
    variant = spec["variant"]
    cells = {
        "count": "'.' (free) or '#' (a wall)",
        "min_cost": "a digit '0'-'9' (a free cell with that cost) or '#' (a wall)",
        "max_score": "'.' (free), 'o' (free, holds a coin) or '#' (a wall)",
    }[variant]
    if variant == "count":
        moves = _move_list(spec, "ways" if any(w != 1 for w in spec["ways"]) else None)
        goal = (f"returns the number of different paths modulo {spec['modulus']} (0 if there is none)"
                if all(w == 1 for w in spec["ways"]) else
                "returns the number of different ways to walk a path, where a move kind with k ways can be made in "
                "k different ways (so a path made of moves with k1, k2, ... ways counts k1 * k2 * ... times), "
                f"modulo {spec['modulus']} (0 if there is no path)")
    elif variant == "min_cost":
        moves = _move_list(spec, "tolls")
        goal = ("returns the minimum total cost of a path: the sum of the costs of every cell the path lands on "
                "(the first and last cells included) plus the toll of every move it makes (-1 if there is no path)")
    else:
        moves = _move_list(spec, "tolls")
        goal = (f"returns the maximum score of a path: {spec['coin']} points for every coin cell the path lands on "
                "(the first and last cells included) minus the toll of every move it makes (None if there is no "
                "path; a score may be negative)")
    return (
        "Write a Python function `solve(grid)` for a grid given as a non-empty list of equal-length non-empty "
        f"strings, where each character is {cells}. A path starts on the top-left cell and ends on the "
        "bottom-right cell, landing only on free cells (the start and the end included). A move (a, b) goes a "
        f"rows down and b columns right; the allowed moves are {moves}. A move only needs its landing cell to be "
        f"free (it may jump over walls). The function {goal}."
    )


def _source(spec: dict[str, Any]) -> str:
    variant = spec["variant"]
    if variant == "count":
        return CODE("count", kinds=[[*m, w] for m, w in zip(spec["moves"], spec["ways"])], spec=spec)
    kinds = [[*m, t] for m, t in zip(spec["moves"], spec["tolls"])]
    if variant == "min_cost":
        pick, here, step, missing = "min", "int(grid[r][c])", "best[r - a][c - b] + toll", "-1"
    else:
        pick, here, step, missing = "max", f"{spec['coin']} if grid[r][c] == 'o' else 0", "best[r - a][c - b] - toll", \
            "None"
    return CODE("best", kinds=kinds, here=here, step=step, pick=pick, missing=missing)


def _grid(rng: random.Random, rows: int, cols: int, density: float, variant: str) -> list[str]:
    out = []
    for _ in range(rows):
        row = []
        for _ in range(cols):
            if rng.random() < density:
                row.append("#")
            elif variant == "min_cost":
                row.append(str(rng.randint(0, 9)))
            elif variant == "max_score":
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
        _grid(rng, 2 * n + 4, 2 * n + 4, config.wall_density / 2, variant),  # many paths: counts pass the modulus
    ]
    while len(grids) < config.tests:
        grids.append(_grid(rng, rng.randint(2, n), rng.randint(2, n), config.wall_density, variant))
    return grids
