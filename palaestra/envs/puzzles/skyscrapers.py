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

Version 2: the top level keeps few puzzles that line solving finishes, declared as the heuristic ``line
solving``: per row and column, list the orderings of heights that fit its border clues and the heights its cells
still allow, keep in each cell the heights some ordering puts there, and repeat over all lines until nothing
changes. In version 1 it finished 58% of the level 4 puzzles (100 seeds; 65% at level 2, 39% at level 3, all at
level 0), whose floor of 20 border clues left more than line solving needs. Now, when it finishes a level 4 draw,
border clues are removed past the floor one at a time while the SAT proof still goes through, until it no longer
does; a draw where no removal gets there is drawn again once (then kept): it finishes about 2% of the level 4
puzzles (200 seeds). Levels 0-3 are unchanged (the same problems for every seed).

Version 3: levels 2 and 3 keep no more clues than the proof needs (no floor), yet line solving finished 0.65 of
level 2 and 0.35 of level 3 (200 seeds): a minimal clue set can still be one line solving finishes, so pruning
further was not possible. Now, when line solving finishes the pruned clues, they are pruned again from all clues in
a fresh random order (another minimal set of the same solution: up to 6 more orders at level 2, 2 at level 3);
when every order leaves a set line solving finishes, a new solution is drawn once (then kept). Line solving now
finishes 0.135 of level 2 and 0.035 of level 3 (200 seeds; some solutions have no minimal set it cannot finish).
Levels 0, 1 and 4 are unchanged.

Version 4: level 2 draws a third solution when the first two leave only line-solvable minimal sets (the third is kept):
line solving finishes 0.057 of level 2 (0.147 before; 300 seeds), at the same mean generation time (about 11 ms, the
slowest of 300 seeds 41 ms). Levels 0, 1, 3 and 4 are unchanged.

Generation speed: about 90 problems/s of CPU time at level 4 (7x7) in version 1 on this 2-core machine (fewer when
it is busy); version 2 costs about 1.4 to 1.6 times that at level 4 (the extra proofs and line solving, and a
second draw for about 1 in 8). Each puzzle's SAT encoding of its border counts (one-hot heights, prefix-maximum
gates and a cardinality counter per clue) is put together from clauses cached per size, line and count, then loaded into the
solver, which runs one bounded SAT proof per candidate clue removal (givens, then border clues) to keep only clues
the uniqueness proof needs; loading and the proofs are most of the time, and the proofs are what makes the puzzle
have exactly one solution, which the prompt promises. Version 3's extra pruning orders at levels 2-3 cost about
13 ms per problem at level 2 and 19 ms at level 3 (version 2: 3 and 9 ms; 200 seeds, slowest 48 and 59 ms).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    BudgetExhausted,
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
_OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}


@register
class Skyscrapers(Task):
    id = "puzzles/skyscrapers"
    version = 4
    family = "puzzles"
    description = "Fill a Latin square of heights so that border clues count the buildings visible (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "latin-square")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        prune_border: bool  # also remove border clues the proof does not need...
        min_border: int = 0  # ...keeping at least this many
        beyond_lines: bool = False  # prune past the floor until line solving does not finish the puzzle
        reorders: int = 0  # when line solving finishes the pruned clues, prune again in up to this many new orders
        draws: int = 2  # solutions drawn at most when line solving finishes every pruned set (the last is kept)

    presets = (
        Config(size=4, prune_border=True, min_border=12),
        Config(size=5, prune_border=False),
        Config(size=5, prune_border=True, reorders=6, draws=3),
        Config(size=6, prune_border=True, reorders=2),
        Config(size=7, prune_border=True, min_border=20, beyond_lines=True),  # a floor keeps the proofs cheap
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        # Line solving finishes about half the level 4 draws at the floor, and about 1 in 8 even after pruning past
        # it: such a draw is drawn again once (a second one is kept, so about 1 puzzle in 50 stays line-solvable).
        # Levels 2-3 likewise draw again (up to ``draws`` solutions) when every pruning order they try leaves a
        # line-solvable set.
        drawn = None
        for attempt in range(config.draws):  # the last draw is always kept
            drawn = _draw(rng, config, last=attempt == config.draws - 1 or not (config.beyond_lines or config.reorders))
            if drawn is not None:
                break
        assert drawn is not None
        square, border, kept = drawn
        shown = [b for b, keep in zip(border, kept) if keep]
        puzzle = _givens(square, kept[4 * n:])
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

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Line solving: per row and column, the heights every ordering that fits the clues and givens allows,
        repeated until it stops (open cells written 0)."""
        return {"line solving": _lines_answer}

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


def _draw(rng: random.Random, config: Skyscrapers.Config, last: bool = True
          ) -> tuple[list[list[int]], list[list], list[bool]] | None:
    """A random solution, every border count of it, and which clues (border counts, then the n * n cells as
    givens) to show: a set the SAT proof shows forces the solution. With ``reorders``, when line solving
    (:func:`_by_lines`) finishes that set, the clues are pruned again from the start in up to that many fresh
    orders until it does not; None (draw again) when none gets there, unless ``last``. With ``beyond_lines``, when
    line solving finishes the set, border clues are removed past the floor, one at a time while the proof still
    goes through, until it does not; None when no removal gets there, unless ``last``."""
    n = config.size
    square = random_latin_square(rng, n)
    cnf, cell = _latin_with_order(n)
    clues, border = [], []
    places: list[tuple[str, int]] = []  # each border clue's side and line, in border's order
    for side in _SIDES:
        for i in range(n):
            seen = _visible([square[r][c] for r, c in _line(side, i, n)])
            rules, selector_offset = _clue_rules(n, side, i, seen)
            selector = cnf.top + selector_offset  # numbered as encoding the clue here would number it
            rules.replay(cnf)
            cnf.ids[("clue", side, i)] = selector
            clues.append([selector])
            border.append([side, i, seen])
            places.append((side, i))
    cnf.add([-cell(r, c, square[r][c]) for r in range(n) for c in range(n)])  # another solution?
    givens = [[cell(r, c, square[r][c])] for r in range(n) for c in range(n)]
    all_clues = clues + givens
    given_order = [len(clues) + k for k in range(n * n)]
    rng.shuffle(given_order)
    border_order = list(range(len(clues)))
    rng.shuffle(border_order)

    def by_lines(kept: list[bool]) -> bool:
        shown = [b for b, keep in zip(border, kept) if keep]
        return _by_lines(n, _givens(square, kept[len(clues):]), shown) == square

    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        for attempt in range(1 + config.reorders):
            if attempt:
                rng.shuffle(given_order)
                rng.shuffle(border_order)
            kept = prune_clues(solver, all_clues, given_order)
            if config.prune_border:
                floor = config.min_border + sum(kept[len(clues):])  # the givens left count towards the floor
                kept = prune_clues(solver, all_clues, border_order, kept=kept, keep_at_least=floor)
            if not config.reorders or not by_lines(kept):
                break
        else:
            return (square, border, kept) if last else None
        if not config.beyond_lines or not by_lines(kept):
            return square, border, kept
        # past the floor, one border clue at a time while the proof goes through; first the clues whose line is
        # clued at its other end too (taking those away keeps the solution forced more often: fewer proofs)
        index = {place: k for k, place in enumerate(places)}
        paired = sorted(border_order, key=lambda k: not kept[index[(_OPPOSITE[places[k][0]], places[k][1])]])
        for i in paired:
            if not kept[i]:
                continue
            kept[i] = False
            try:
                unique = not solver.satisfiable([lit for j, clue in enumerate(all_clues) if kept[j] for lit in clue])
            except BudgetExhausted:
                unique = False
            if not unique:
                kept[i] = True
            elif not by_lines(kept):
                return square, border, kept
    return (square, border, kept) if last else None


def _givens(square: list[list[int]], shown: list[bool]) -> list[str]:
    """The grid's rows with the shown cells' heights and "." elsewhere (``shown`` row by row)."""
    n = len(square)
    return ["".join(str(square[r][c]) if shown[r * n + c] else "." for c in range(n)) for r in range(n)]


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


@cache
def _line_tables(n: int) -> dict[tuple[int, int], np.ndarray]:
    """Per pair of border counts (``front`` seen from a line's start, ``back`` from its end; 0: no clue on that
    side), every ordering of heights 1..n along the line that shows them, each as one number: bit ``j * n + h - 1``
    set when place j holds height h."""
    orderings = np.array(list(itertools.permutations(range(1, n + 1))), dtype=np.int64).reshape(-1, n)

    def seen(rows: np.ndarray) -> np.ndarray:  # a building is visible when it is the tallest so far
        return (rows == np.maximum.accumulate(rows, axis=1)).sum(axis=1)

    front, back = seen(orderings), seen(orderings[:, ::-1])
    bits = (np.uint64(1) << (np.arange(n, dtype=np.uint64) * np.uint64(n) + (orderings - 1).astype(np.uint64)))
    packed = np.bitwise_or.reduce(bits, axis=1)
    tables = {(0, 0): packed}
    for k in range(1, n + 1):
        tables[(k, 0)], tables[(0, k)] = packed[front == k], packed[back == k]
        for j in range(1, n + 1):
            tables[(k, j)] = packed[(front == k) & (back == j)]
    return tables


def _line_table(n: int, front: int, back: int) -> np.ndarray:
    return _line_tables(n)[(front, back)]


def _by_lines(n: int, givens: list[str], clues: list[list]) -> list[list[int]]:
    """The grid line solving fills (0 where it stalls): per row and column, keep in each cell only the heights some
    ordering of the line takes there that fits both of its border clues and every cell's remaining heights;
    repeated over the lines until nothing changes (all rows at once, then all columns, and so on)."""
    every = (1 << n) - 1
    # bit h - 1 of a cell: height h still possible there
    cand = np.array([[every if ch == "." else 1 << (int(ch) - 1) for ch in row] for row in givens], dtype=np.uint64)
    at = {(side, i): seen for side, i, seen in clues}
    shifts = np.arange(n, dtype=np.uint64) * np.uint64(n)
    full = np.uint64((1 << n * n) - 1)
    sweeps = []
    for sides in (("left", "right"), ("top", "bottom")):
        tables = [_line_table(n, at.get((sides[0], i), 0), at.get((sides[1], i), 0)) for i in range(n)]
        sizes = [len(table) for table in tables]
        if not all(sizes):
            return [[0] * n for _ in range(n)]  # a pair of counts no ordering shows
        sweeps.append((np.concatenate(tables), np.repeat(np.arange(n), sizes), np.cumsum([0, *sizes[:-1]])))
    stable = 0
    while stable < 2:  # until a sweep of the rows and one of the columns change nothing
        for table, line, starts in sweeps:
            allowed = (cand << shifts).sum(axis=1, dtype=np.uint64)  # each line's cells, packed as the table is
            fits = np.where((table & (~allowed & full)[line]) == 0, table, np.uint64(0))
            union = np.bitwise_or.reduceat(fits, starts)
            narrowed = (union[:, None] >> shifts) & np.uint64(every)
            stable = stable + 1 if (narrowed == cand).all() else 0
            cand = narrowed.T  # the other sweep reads the crossing lines as rows
    return [[int(m).bit_length() if m & (m - np.uint64(1)) == 0 else 0 for m in row] for row in cand]


def _lines_answer(problem: Problem) -> str:
    return lines(_by_lines(problem.data["size"], problem.data["givens"], problem.data["clues"]))
