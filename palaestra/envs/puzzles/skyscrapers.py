"""Skyscrapers: fill a Latin square of building heights so that the clues around the border count
the buildings visible from that side (a taller building hides every lower one behind it).

The solution is a random Latin square. Clues start as every border count, plus every cell's
height as a possible given; a SAT solver (one-hot heights; per line and direction, "visible"
literals defined through prefix maxima; a guarded cardinality constraint per clue) proves the
clues force the solution. Givens are removed first and border clues after them, in random
order, while the proof still goes through (:func:`prune_clues`), so every puzzle has exactly one
solution; the top levels keep no more clues than the proof needs.

The answer is the completed grid, one row per line; the verifier checks the Latin rules, any
given heights and every border count.

Generation speed: about 90 problems/s of CPU time at level 4 (7x7) on this 2-core machine (fewer when it is
busy). Each puzzle's SAT encoding of its border counts (one-hot heights, prefix-maximum gates and a cardinality
counter per clue) is put together from clauses cached per size, line and count, then loaded into the solver,
which runs one bounded SAT proof per candidate clue removal (givens, then border clues) to keep only clues the
uniqueness proof needs; loading and the proofs are most of the time, and the proofs are what makes the puzzle
have exactly one solution, which the prompt promises.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    ClauseBlock,
    ProofSolver,
    changed_given,
    copy_cnf,
    digit_order_literals,
    grid_corruptions,
    grid_spellings,
    guarded_exactly,
    latin_cnf,
    latin_problem,
    lines,
    prune_clues,
    read_digits,
    with_spaces,
)
from palaestra.generators.latin import random_latin_square

_SIDES = ("top", "bottom", "left", "right")


@register
class Skyscrapers(Task):
    id = "puzzles/skyscrapers"
    family = "puzzles"
    description = "Fill a Latin square of heights so that border clues count the buildings visible (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "latin-square")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        prune_border: bool  # also remove border clues the proof does not need...
        min_border: int = 0  # ...keeping at least this many

    presets = (
        Config(size=4, prune_border=True, min_border=12),
        Config(size=5, prune_border=False),
        Config(size=5, prune_border=True),
        Config(size=6, prune_border=True),
        Config(size=7, prune_border=True, min_border=20),  # a floor keeps the proofs cheap
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        square = random_latin_square(rng, n)
        cnf, cell = _latin_with_order(n)
        clues, border = [], []
        for side in _SIDES:
            for i in range(n):
                seen = _visible([square[r][c] for r, c in _line(side, i, n)])
                rules, selector_offset = _clue_rules(n, side, i, seen)
                selector = cnf.top + selector_offset  # numbered as encoding the clue here would number it
                rules.replay(cnf)
                cnf.ids[("clue", side, i)] = selector
                clues.append([selector])
                border.append([side, i, seen])
        cnf.add([-cell(r, c, square[r][c]) for r in range(n) for c in range(n)])  # another solution?
        givens = [[cell(r, c, square[r][c])] for r in range(n) for c in range(n)]
        all_clues = clues + givens
        given_order = [len(clues) + k for k in range(n * n)]
        rng.shuffle(given_order)
        border_order = list(range(len(clues)))
        rng.shuffle(border_order)
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            kept = prune_clues(solver, all_clues, given_order)
            if config.prune_border:
                floor = config.min_border + sum(kept[len(clues):])  # the givens left count towards the floor
                kept = prune_clues(solver, all_clues, border_order, kept=kept, keep_at_least=floor)
        shown = [b for b, keep in zip(border, kept) if keep]
        puzzle = ["".join(str(square[r][c]) if kept[len(clues) + r * n + c] else "." for c in range(n))
                  for r in range(n)]
        note = " Some heights are already given; keep them." if any(ch != "." for row in puzzle for ch in row) else ""
        prompt = (
            f"Solve this {n}x{n} Skyscrapers puzzle. Place a building of height 1 to {n} in every cell so that "
            f"each row and each column contains every height 1-{n} exactly once." + note + " A number outside the "
            "grid says how many buildings are visible when looking along that row or column from that side: a "
            "building is visible when it is taller than every building in front of it. The puzzle has exactly "
            "one solution.\n\n"
            f"{_render(puzzle, shown)}\n\n"
            f"Give the completed grid as {n} lines, one per row from top to bottom, each holding that row's "
            f"{n} heights from left to right. For example, a solved 3x3 grid would be written:\n123\n312\n231"
        )
        return Problem(prompt=prompt, answer=lines(square), data={"size": n, "givens": puzzle, "clues": shown})

    def difficulty(self, problem: Problem) -> float:
        """Heights to place plus border clues withheld."""
        n = problem.data["size"]
        empty = sum(row.count(".") for row in problem.data["givens"])
        return float(empty + 4 * n - len(problem.data["clues"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["size"]
        grid = read_digits(answer, n, n)
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        changed = changed_given(grid, problem.data["givens"], "height")
        if changed:
            return Verdict.wrong(changed)
        broken = latin_problem(grid, n)
        if broken:
            return Verdict.wrong(broken)
        for side, i, seen in problem.data["clues"]:
            heights = [grid[r][c] for r, c in _line(side, i, n)]
            if _visible(heights) != seen:
                what = "column" if side in ("top", "bottom") else "row"
                return Verdict.wrong(f"from the {side}, {what} {i + 1} shows {_visible(heights)} buildings, not {seen}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *grid_spellings(gold), with_spaces(gold), "\n".join(",".join(r) for r in gold.splitlines()),
                f"```\n{gold}\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        n = len(rows)
        i, j = rng.sample(range(n), 2)
        swapped = rows[:]
        swapped[i], swapped[j] = rows[j], rows[i]
        transposed = [[rows[c][r] for c in range(n)] for r in range(n)]
        wrong = [swapped, rows[:-1]] + ([transposed] if transposed != rows else [])
        wrong_grids = ["\n".join(map("".join, g)) for g in wrong]
        return [*wrong_grids, *grid_corruptions(problem.answer or "", wrong_grids[0])]


def _line(side: str, i: int, n: int) -> list[tuple[int, int]]:
    """The cells of row or column ``i`` in the order a viewer on ``side`` sees them."""
    if side == "top":
        return [(r, i) for r in range(n)]
    if side == "bottom":
        return [(r, i) for r in reversed(range(n))]
    if side == "left":
        return [(i, c) for c in range(n)]
    return [(i, c) for c in reversed(range(n))]


def _visible(heights: list[int]) -> int:
    tallest, seen = 0, 0
    for h in heights:
        if h > tallest:
            tallest, seen = h, seen + 1
    return seen


@cache
def _order_encoding(n: int) -> tuple[CNF, Callable[[int, int, int], int], list[list[list[int]]]]:
    """The Latin rules and every cell's order literals (``ge[r][c][v]``: the cell holds at least v), the start of
    every puzzle's formula of size ``n``: cached, copied by :func:`_latin_with_order` (never changed in place)."""
    cnf, cell = latin_cnf(n)
    ge = [[digit_order_literals(cnf, cell, n, r, c) for c in range(n)] for r in range(n)]
    return cnf, cell, ge


def _latin_with_order(n: int) -> tuple[CNF, Callable[[int, int, int], int]]:
    """A fresh copy of :func:`_order_encoding`'s formula, and its cell variables."""
    cnf, cell, _ = _order_encoding(n)
    return copy_cnf(cnf), cell  # the always-true literal is already in it (ge[r][c][1]): no later clause asks for it


@lru_cache(maxsize=1024)
def _clue_rules(n: int, side: str, i: int, seen: int) -> tuple[ClauseBlock, int]:
    """The clauses of one border clue (the line's visibility gates, "exactly ``seen`` visible" under the clue's
    selector, the height bounds it implies) after the order encoding, and the selector's place among the block's
    new variables. Cached per size, line and count: the encoding is the same in every puzzle, only renumbered."""
    start, cell, ge = _order_encoding(n)
    cnf = copy_cnf(start)
    line = _line(side, i, n)
    visible = _visible_literals(cnf, cell, ge, n, line)
    selector = cnf.var(("clue", side, i))
    guarded_exactly(cnf, visible, seen, selector)
    for d, (r, c) in enumerate(line):  # implied, but it spares the solver a search: the d-th
        bound = n - seen + 2 + d       # building can be at most n - seen + 1 + d tall
        if bound <= n:
            cnf.add([-selector, -ge[r][c][bound]])
    return ClauseBlock(cnf.clauses[len(start.clauses):], fixed=start.top, top=cnf.top), selector - start.top


def _visible_literals(cnf: CNF, cell: Callable[[int, int, int], int], ge: list[list[list[int]]], n: int,
                      line: list[tuple[int, int]]) -> list[int]:
    """Per cell of the line, a literal equivalent to "this building is visible from the line's start".

    ``before[v]`` says some earlier building is at least v tall; a building of height v is
    visible exactly when ``before[v]`` is false, which takes two clauses per height (heights are
    one-hot) and no gate.
    """
    true = ge[0][0][1]  # the formula's always-true literal (the order literal "at least 1")
    visible = [true]  # the first building is always visible
    before = ge[line[0][0]][line[0][1]]
    for r, c in line[1:]:
        seen = cnf.auxiliary()
        for v in range(1, n + 1):
            cnf.add([-seen, -cell(r, c, v), -before[v]])
            cnf.add([seen, -cell(r, c, v), before[v]])
        visible.append(seen)
        before = [0] + [cnf.or_of([before[v], ge[r][c][v]]) for v in range(1, n + 1)] + [-true]
    return visible


def _render(puzzle: list[str], clues: list[list]) -> str:
    """The grid with the border counts around it (blank where a count is not given)."""
    n = len(puzzle)
    at = {(side, i): str(seen) for side, i, seen in clues}

    def mark(side: str, i: int) -> str:
        return at.get((side, i), " ")

    rows = ["    " + "  ".join(mark("top", c) for c in range(n)), "   " + "-" * (3 * n)]
    for r in range(n):
        rows.append(f"{mark('left', r)} | " + "  ".join(puzzle[r]) + f" | {mark('right', r)}")
    rows += ["   " + "-" * (3 * n), "    " + "  ".join(mark("bottom", c) for c in range(n))]
    return "\n".join(row.rstrip() for row in rows)
