"""KenKen (calcudoku): fill a Latin square whose cages reach their targets with their operations.

The solution is a random Latin square; cages come from :func:`random_regions` (connected,
irregular, of the level's sizes). A cage of one cell is a given; a two-cell cage gets one of
``+ - × ÷`` (÷ only when one digit divides the other), a larger cage ``+`` or ``×``; its target
is what the solution's digits make. A SAT solver then proves the solution unique (Latin
constraints plus, per cage, the disjunction of the digit tuples that reach its target, and the
solution blocked). While a second solution exists, a cell where the two differ is split off
its cage as a given (at most a few times; then the cages are drawn again), so every puzzle
shown has exactly one solution.

The answer is the completed grid, one row per line; the verifier checks the rules (Latin square,
every cage's target), so any spelling of the one solution scores.

Version 2: the top level keeps only puzzles that two textbook rules do not finish, declared as the heuristic
``cage combinations and singles``: each cell keeps the digits some tuple of its cage that reaches the target (no
repeat within a row or column, every cell within its own digits) gives it, and naked and hidden singles in every
row and column; both repeated until they stop. In version 1 they solved 67% of the level 4 puzzles (30 seeds; 93%
at level 2, all at level 0), so most of the top level needed no further reasoning; now they finish none there.
Levels 0-3 are unchanged (the same problems for every seed).

Generation speed: about 13 problems/s of CPU time at level 4 on this busy 2-core machine (160 in version 1 on an
idle one): about 3 puzzles are drawn per kept one, as the declared rules finish the others. Each puzzle gets its own SAT
encoding (the Latin rules plus, per cage, one selector per digit tuple that reaches its target: often hundreds
of clauses for a multiplication cage), and encoding, loading it into the solver and the uniqueness calls take
about three quarters of the time (drawing the cages most of the rest); the proof is what makes the puzzle have
exactly one solution, which the prompt promises.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    BudgetExhausted,
    ProofSolver,
    cage_tuples,
    latin_cnf,
    latin_problem,
    lines,
    read_digits,
    unit_singles,
    with_spaces,
)
from palaestra.generators.grids import random_regions
from palaestra.generators.latin import random_latin_square

_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Products and quotients pin digits down more than sums and differences: favouring them makes
# more random cagings uniquely solvable.
_REPAIRS = 3  # cells split off as givens before new cages are drawn
_WEIGHT = {"=": 1, "+": 2, "-": 2, "*": 3, "/": 3}
_SYMBOL = {"+": "+", "-": "-", "*": "×", "/": "÷", "=": ""}


@register
class KenKen(Task):
    id = "puzzles/kenken"
    version = 2
    family = "puzzles"
    description = "Fill a Latin square whose cages must reach target values with +, -, × or ÷ (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "arithmetic", "latin-square")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        cage_sizes: tuple[int, ...]  # drawn with these weights...
        weights: tuple[int, ...]
        beyond_rules: bool = False  # keep only puzzles that cage combinations and singles do not finish

    presets = (
        Config(size=4, cage_sizes=(1, 2, 3), weights=(1, 4, 2)),
        Config(size=5, cage_sizes=(1, 2, 3), weights=(1, 4, 3)),
        Config(size=6, cage_sizes=(1, 2, 3, 4), weights=(1, 5, 4, 1)),
        Config(size=7, cage_sizes=(1, 2, 3, 4), weights=(1, 6, 4, 1)),
        Config(size=8, cage_sizes=(1, 2, 3, 4), weights=(1, 5, 4, 2), beyond_rules=True),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size

        def draw() -> tuple:
            square = random_latin_square(rng, n)
            return square, retry(lambda: _unique_cages(rng, config, square), attempts=200, what="uniquely solvable cages")

        def hard_enough(drawn: tuple) -> bool:
            return not config.beyond_rules or _by_rules(n, drawn[1]) != drawn[0]

        # the rules finish about 2 puzzles in 3 at level 4: 60 draws all finished happen with chance about 1e-10
        square, cages = retry(draw, hard_enough, attempts=60, what="a KenKen that cage combinations and singles do not finish")
        labels = [["" for _ in range(n)] for _ in range(n)]
        legend = []
        for k, (op, target, cells) in enumerate(sorted(cages, key=lambda cage: min(cage[2]))):
            for r, c in cells:
                labels[r][c] = _LABELS[k]
            rule = f"{target}" if op == "=" else f"{target}{_SYMBOL[op]}"
            legend.append(f"{_LABELS[k]}: {rule} ({len(cells)} cell{'s' if len(cells) > 1 else ''})")
        prompt = (
            f"Solve this {n}x{n} KenKen puzzle. Fill the grid with digits 1 to {n} so that every row and every "
            f"column contains each digit 1-{n} exactly once. The grid is divided into cages, shown by letters: "
            "cells with the same letter form one cage. Each cage has a target and an operation: the digits in "
            "the cage must produce the target with that operation (+ sum, × product; for - and ÷, which only "
            "two-cell cages have, the larger digit minus or divided by the smaller one). A cage with a target "
            "and no operation is a single cell holding that digit. Digits may repeat inside a cage if they are "
            "in different rows and columns. The puzzle has exactly one solution.\n\n"
            f"{lines(labels, ' ')}\n\nCages:\n" + "\n".join(legend) + "\n\n"
            f"Give the completed grid as {n} lines, one per row from top to bottom, each holding that row's "
            f"{n} digits from left to right. For example, a solved 3x3 grid would be written:\n123\n312\n231"
        )
        data_cages = [[op, target, [[r, c] for r, c in cells]] for op, target, cells in cages]
        return Problem(prompt=prompt, answer=lines(square), data={"size": n, "cages": data_cages})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Cage combinations and naked and hidden singles, repeated until they stop (open cells written 0)."""
        return {"cage combinations and singles": _rules_answer}

    def difficulty(self, problem: Problem) -> float:
        """Cells outside single-cell cages (cells to deduce)."""
        return float(sum(len(cells) for op, _, cells in problem.data["cages"] if op != "="))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["size"]
        grid = read_digits(answer, n, n)
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        broken = latin_problem(grid, n)
        if broken:
            return Verdict.wrong(broken)
        for op, target, cells in problem.data["cages"]:
            if _result(op, [grid[r][c] for r, c in cells]) != target:
                r, c = cells[0]
                return Verdict.wrong(f"the cage containing row {r + 1}, column {c + 1} misses its target {target}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), with_spaces(gold), gold.replace("\n", "\n\n"),
                "\n".join(" | ".join(row) for row in gold.splitlines()), f"```text\n{gold}\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        n = len(rows)
        i, j = rng.sample(range(n), 2)
        swapped_rows = rows[:]
        swapped_rows[i], swapped_rows[j] = rows[j], rows[i]  # still Latin; the solution is unique, so wrong
        cell_swap = [row[:] for row in rows]
        r = rng.randrange(n)
        cell_swap[r][i], cell_swap[r][j] = cell_swap[r][j], cell_swap[r][i]
        return ["\n".join(map("".join, g)) for g in (swapped_rows, cell_swap, rows[:-1])]


def _result(op: str, digits: list[int]) -> int | None:
    if op == "=":
        return digits[0] if len(digits) == 1 else None
    if op == "+":
        return sum(digits)
    if op == "*":
        return math.prod(digits)
    if len(digits) != 2:
        return None
    big, small = max(digits), min(digits)
    if op == "-":
        return big - small
    return big // small if big % small == 0 else None


def _operations(digits: list[int]) -> list[str]:
    """The operations a cage holding ``digits`` may show (in a random order, later)."""
    if len(digits) == 1:
        return ["="]
    if len(digits) > 2:
        return ["+", "*"]
    ops = ["+", "-", "*"]
    if max(digits) % min(digits) == 0:
        ops.append("/")
    return ops


def _draw_sizes(rng: random.Random, config: KenKen.Config) -> list[int]:
    total, sizes = config.size ** 2, []
    while total > 0:  # each pass takes at least one cell
        size = min(total, rng.choices(config.cage_sizes, config.weights)[0])
        sizes.append(size)
        total -= size
    return sizes


def _unique_cages(rng: random.Random, config: KenKen.Config, square: list[list[int]]) -> list | None:
    """Random cages (operation, target, cells) whose puzzle has exactly one solution, or None.

    When a second solution exists, a cell on which the two differ is split off its cage as a
    single-cell cage (a given; both cells of a two-cell cage). Splitting a sum or product cage
    leaves the rest of it the constraint the whole cage was once the given is known, so each
    repair is one more solver assumption, not a new formula; a rest in several pieces gets a cage
    per piece, which only adds information.
    """
    n = config.size
    region = random_regions(rng, n, n, _draw_sizes(rng, config), mixing=4)
    groups: dict[int, list[tuple[int, int]]] = {}
    for r in range(n):
        for c in range(n):
            groups.setdefault(region[r][c], []).append((r, c))
    cages = []
    for cells in groups.values():
        digits = [square[r][c] for r, c in cells]
        options = _operations(digits)
        op = rng.choices(options, [_WEIGHT[op] for op in options])[0]
        cages.append((op, _result(op, digits), cells))
    cnf, cell = latin_cnf(n)
    for op, target, cells in cages:
        _cage(cnf, cell, n, op, target, cells)
    cnf.add([-cell(r, c, square[r][c]) for r in range(n) for c in range(n)])  # another solution?
    cage_of = {rc: k for k, (_, _, cells) in enumerate(cages) for rc in cells}
    given: set[tuple[int, int]] = {cells[0] for op, _, cells in cages if op == "="}
    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        for _ in range(_REPAIRS + 1):
            try:
                other = solver.model([cell(r, c, square[r][c]) for r, c in sorted(given)])
            except BudgetExhausted:
                return None
            if other is None:
                return _split(cages, given, square)
            differing = [(r, c) for r in range(n) for c in range(n) if not other[("cell", r, c, square[r][c])]]
            r, c = rng.choice(differing)
            op, _, cells = cages[cage_of[(r, c)]]
            given.update(cells if op in "-/" else [(r, c)])
    return None


def _split(cages: list, given: set[tuple[int, int]], square: list[list[int]]) -> list:
    """The cages once the ``given`` cells are cages of their own (the rest of a cage cut into connected pieces)."""
    out = []
    for op, target, cells in cages:
        rest = [rc for rc in cells if rc not in given]
        if len(rest) == len(cells):
            out.append((op, target, cells))
            continue
        out.extend(("=", square[r][c], [(r, c)]) for r, c in cells if (r, c) in given)
        for piece in _components(rest):
            digits = [square[r][c] for r, c in piece]
            out.append(("=", digits[0], piece) if len(piece) == 1 else (op, _result(op, digits), piece))
    return out


def _components(cells: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    left, parts = set(cells), []
    for _ in range(len(cells)):  # each pass removes one component
        if not left:
            break
        start = min(left)
        part, queue = {start}, [start]
        for r, c in queue:
            for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nxt in left and nxt not in part:
                    part.add(nxt)
                    queue.append(nxt)
        parts.append(sorted(part))
        left -= part
    return parts


def _cage(cnf: CNF, cell, n: int, op: str, target: int, cells: list[tuple[int, int]]) -> None:
    """The cage holds one of the digit tuples that reach ``target`` (no repeat within a row or column)."""
    if op == "=":
        cnf.add([cell(*cells[0], target)])
        return
    clashes = tuple((i, j) for i, j in itertools.combinations(range(len(cells)), 2)
                    if cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1])
    allowed = _allowed_tuples(op, target, n, len(cells), clashes)
    choices = [cnf.auxiliary() for _ in allowed]  # a tuple's choice: each cell of the cage holds its digit
    digit_lits = [[0, *(cell(r, c, v) for v in range(1, n + 1))] for r, c in cells]
    cnf.clauses.extend([-choice, lits[v]] for choice, digits in zip(choices, allowed)
                       for lits, v in zip(digit_lits, digits))
    cnf.add(choices)


@lru_cache(maxsize=4096)
def _allowed_tuples(op: str, target: int, n: int, k: int, clashes: tuple[tuple[int, int], ...]
                    ) -> tuple[tuple[int, ...], ...]:
    """The :func:`_tuples` that repeat no digit between the cage's cells ``i, j`` of each pair in ``clashes``
    (cells in one row or column), in the same order: cached per cage shape, as most cages recur."""
    return tuple(digits for digits in _tuples(op, target, n, k) if all(digits[i] != digits[j] for i, j in clashes))


@cache
def _tuples(op: str, target: int, n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every ``k``-tuple of digits 1..n that ``op`` takes to ``target`` (depth-first, pruned)."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], acc: int) -> None:
        left = k - len(prefix)
        if left == 0:
            if _result(op, list(prefix)) == target:
                found.append(prefix)
            return
        for v in range(1, n + 1):
            if op == "+" and acc + v + (left - 1) > target:
                break
            if op == "*" and target % (acc * v):
                continue
            extend(prefix + (v,), acc + v if op == "+" else acc * v)

    extend((), 0 if op == "+" else 1)
    return tuple(found)


def _by_rules(n: int, cages: list) -> list[list[int]]:
    """The grid two textbook rules fill (0 where they stall): cage combinations (a cell keeps the digits of the
    cage's target-reaching tuples that fit every cell's digits) and naked and hidden singles per row and column."""
    cand = {(r, c): set(range(1, n + 1)) for r in range(n) for c in range(n)}
    units = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    shaped = []
    for op, target, cells in cages:
        cells = [(r, c) for r, c in cells]
        if op == "=":
            cand[cells[0]] = {target}
            continue
        clashes = tuple((i, j) for i, j in itertools.combinations(range(len(cells)), 2)
                        if cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1])
        shaped.append((cells, _allowed_tuples(op, target, n, len(cells), clashes)))
    progress = True
    while progress:
        progress = False
        for cells, tuples in shaped:
            if cage_tuples(cand, cells, tuples):
                progress = True
        for unit in units:
            if unit_singles(cand, unit, n):
                progress = True
    return [[min(cand[(r, c)]) if len(cand[(r, c)]) == 1 else 0 for c in range(n)] for r in range(n)]


def _rules_answer(problem: Problem) -> str:
    return lines(_by_rules(problem.data["size"], problem.data["cages"]))
