"""Shared blocks of the grid and number puzzles: Latin-square rules, clue pruning under a uniqueness
proof, grid answers and drawings. No environment is registered here (random Latin squares are drawn by
:mod:`palaestra.generators.latin`).

The uniqueness machinery works on any puzzle encoded as CNF over *decision variables* (a cell's
digit, a shaded square): the known solution is excluded by one blocking clause, so "the clues
still force the solution" is "the formula plus the clues (as solver assumptions) is
unsatisfiable". :func:`prune_clues` removes clues one at a time in a random order and keeps a
removal only when that proof still goes through; every puzzle it returns is proven unique.

Example::

    >>> cnf, cell = latin_cnf(3)
    >>> count_solutions(cnf, limit=20)
    12
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache
from itertools import accumulate, chain

import numpy as np

from palaestra.solvers.clues import (  # noqa: F401  (the puzzles read them from here)
    PROOF_BUDGET,
    ProofSolver,
    block,
    copy_cnf,
    guarded_exactly,
    is_unique,
    prune_clues,
    random_model,
    solve_effort,
)
from palaestra.solvers.sat import CNF, Budget, BudgetExhausted, SatSolver, count_solutions  # noqa: F401
from palaestra.verifiers.assignments import read_assignment, read_values  # noqa: F401  (the puzzles read it from here)
from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import strip_wrappers

DIGITS = "0123456789"
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


# --- clause blocks -----------------------------------------------------------------------


class ClauseBlock:
    """Clauses recorded once and replayed into other formulas with their auxiliary variables renumbered.

    A block encoded over the first ``fixed`` variables (the decision variables, numbered the same in every
    formula) and fresh auxiliaries ``fixed + 1 ... top`` is appended to a formula whose auxiliaries already
    run to ``cnf.top`` by shifting every auxiliary by ``cnf.top - fixed``: the clauses, their order and the
    numbering are exactly those that encoding the block again would give, at a fraction of the cost (the
    block's gates and counters are built in Python once, then shifted as one array).

    >>> recorded = CNF()
    >>> x, y = recorded.var("x"), recorded.var("y")
    >>> gate = recorded.and_of([x, -y])
    >>> block = ClauseBlock(recorded.clauses, fixed=2, top=recorded.top)
    >>> cnf = CNF()
    >>> x, y, z = cnf.var("x"), cnf.var("y"), cnf.auxiliary()
    >>> block.replay(cnf)
    >>> cnf.clauses, cnf.top
    ([[-4, 1], [-4, -2], [4, -1, 2]], 4)
    """

    def __init__(self, clauses: Sequence[Sequence[int]], fixed: int, top: int) -> None:
        self._flat = np.fromiter(chain.from_iterable(clauses), dtype=np.int64)
        ends = list(accumulate(len(clause) for clause in clauses))
        self._bounds = list(zip([0, *ends[:-1]], ends))
        self._fixed = fixed
        self._auxiliaries = top - fixed

    def replay(self, cnf: CNF) -> None:
        """Append the block to ``cnf``, its auxiliaries numbered after ``cnf.top`` (which it advances)."""
        flat, fixed, delta = self._flat, self._fixed, cnf.top - self._fixed
        shifted = np.where(flat > fixed, flat + delta, np.where(flat < -fixed, flat - delta, flat)).tolist()
        cnf.clauses.extend([shifted[start:end] for start, end in self._bounds])
        cnf.top += self._auxiliaries


# --- Latin squares -----------------------------------------------------------------------


@cache
def _latin_clauses(n: int) -> tuple[list[list[int]], dict[Hashable, int], int, tuple[tuple[tuple[int, ...], ...], ...]]:
    cnf = CNF()
    cell = [[[cnf.var(("cell", r, c, v)) for v in range(1, n + 1)] for c in range(n)] for r in range(n)]
    for r in range(n):
        for c in range(n):
            cnf.exactly_one(cell[r][c])
    for i in range(n):
        for v in range(n):
            cnf.exactly_one([cell[i][c][v] for c in range(n)])
            cnf.exactly_one([cell[r][i][v] for r in range(n)])
    return cnf.clauses, cnf.ids, cnf.top, tuple(tuple(tuple(vs) for vs in row) for row in cell)


def latin_cnf(n: int) -> tuple[CNF, Callable[[int, int, int], int]]:
    """A fresh CNF stating that an ``n x n`` grid is a Latin square over 1..n, and the variable
    ``cell(r, c, v)`` ("row r, column c holds v"; 0-based r and c, v in 1..n)."""
    clauses, ids, top, table = _latin_clauses(n)
    cnf = CNF()
    cnf.ids = dict(ids)  # the cell variables, named and numbered as the cached formula has them
    cnf.top = top
    cnf.clauses = list(clauses)  # the clause lists are shared with the cache: never mutate one in place
    return cnf, lambda r, c, v: table[r][c][v - 1]


def digit_order_literals(cnf: CNF, cell: Callable[[int, int, int], int], n: int, r: int, c: int) -> list[int]:
    """``at_least[v]`` (v = 1..n+1): literals equivalent to "cell (r, c) holds a digit >= v", in the CNF."""
    key = ("at_least", r, c)
    if (key, 2) in cnf.ids:
        return [0, cnf.true] + [cnf.ids[(key, v)] for v in range(2, n + 1)] + [-cnf.true]
    result = [0, cnf.true]
    for v in range(2, n + 1):
        lit = cnf.var((key, v))
        cnf.equivalent(lit, cnf.or_of([cell(r, c, w) for w in range(v, n + 1)]))
        result.append(lit)
    result.append(-cnf.true)
    return result


def less_than(cnf: CNF, cell: Callable[[int, int, int], int], n: int, a: tuple[int, int], b: tuple[int, int],
              guard: int | None = None) -> None:
    """Cell ``a`` holds a smaller digit than cell ``b`` (only when ``guard`` holds, if given)."""
    ge_a = digit_order_literals(cnf, cell, n, *a)
    ge_b = digit_order_literals(cnf, cell, n, *b)
    condition = [] if guard is None else [guard]
    for v in range(1, n + 1):  # a >= v implies b >= v + 1
        cnf.implies([*condition, ge_a[v]], ge_b[v + 1])


# --- grids --------------------------------------------------------------------------------


def read_cells(answer: str, rows: int, cols: int, alphabet: Iterable[str]) -> list[list[str]] | str:
    """A ``rows x cols`` grid of one-character cells from ``alphabet`` (as :func:`read_grid` reads
    them: cells side by side or separated by spaces, commas or ``|``), or a message saying why not.

    Also read: the rows on one line, separated by ``;`` or ``/`` (``01;10``), or by spaces or commas
    when each row is written solid (``01 10``); rows labelled in order (``Row 1:``, ``R1``, ``1:``,
    ``A)``) under an optional header of column labels (``1 2 3`` or ``A B C``); the grid inside a
    whole-answer wrapper (``\\boxed{...}``, ``Answer:``) and with a closing full stop.

    >>> read_cells("01;10", 2, 2, "01"), read_cells("  A B\\n1: 0 1\\n2: 1 0", 2, 2, "01")
    ([['0', '1'], ['1', '0']], [['0', '1'], ['1', '0']])
    """
    symbols = frozenset(alphabet)
    grid = _read_shaped(answer, rows, cols, symbols)
    if grid is None and isinstance(answer, str) and len(answer) <= 64 * rows * cols + 1_000:
        unwrapped = strip_wrappers(answer)
        # A closing full stop is cut only when the grid does not read with it: the shape decides, so a last
        # row of dots keeps its own "." ("..*." is four cells in a 4-wide grid, three and a stop in a 3-wide one),
        # in every layout (rows on one line, labelled rows), each tried with its stop first.
        bodies = (unwrapped, unwrapped[:-1]) if unwrapped.endswith(".") else (unwrapped,)
        variants = (variant for body in bodies for variant in (body, _one_line_rows(body, rows, cols),
                                                              *_without_labels(body, rows, cols, symbols)))
        for variant in variants:  # lazily: the stopped readings are built only when the others fail
            grid = None if variant is None else _read_shaped(variant, rows, cols, symbols)
            if grid is not None:
                break
    if grid is None:
        return f"expected {rows} lines of {cols} cells"
    return grid


def _read_shaped(answer: str, rows: int, cols: int, symbols: frozenset[str]) -> list[list[str]] | None:
    grid = read_grid(answer, symbols, max_cells=4 * rows * cols + 16)
    return grid if grid is not None and len(grid) == rows and all(len(row) == cols for row in grid) else None


_ROW_BREAK = re.compile(r"[;/]")
_SOLID_ROWS = re.compile(r"[\s,]+")
_ROW_LABEL = re.compile(r"\s*\|?\s*(?:(?:row|r)\s*(\d{1,3})\s*[:.)|\]-]?|(\d{1,3})\s*[:.)|\]-]|([A-Za-z])\s*[:)|\]]?)\s*", re.I)


def _one_line_rows(answer: str, rows: int, cols: int) -> str | None:
    """A one-line answer with its rows on separate lines (None when it is not one line of ``rows`` rows)."""
    text = answer.strip().strip("[]")
    if "\n" in text:
        return None
    parts = _ROW_BREAK.split(text)
    if len(parts) == rows:
        return "\n".join(part.strip() for part in parts)
    solid = _SOLID_ROWS.split(text)
    return "\n".join(solid) if len(solid) == rows and all(len(part) == cols for part in solid) else None


def _without_labels(answer: str, rows: int, cols: int, symbols: frozenset[str]) -> list[str]:
    """Readings of the answer without row labels (the row's number or letter, in order, on every
    row) and without a header line of column labels; none when neither is there."""
    content = [line for line in answer.strip().splitlines() if line.strip() and not _SEPARATOR.match(line)]
    header = len(content) == rows + 1 and _is_column_header(content[0], cols)
    if header:
        content = content[1:]
    if len(content) != rows:
        return []
    ends = [_label_end(line, number, symbols) for number, line in enumerate(content, 1)]
    readings = ["\n".join(line[end:] for line, end in zip(content, ends))] if None not in ends else []
    # column labels only (a row may start with its own number by chance: | 1 | 3 | 2 | is no label)
    return readings + ["\n".join(content)] if header else readings


def _label_end(line: str, number: int, symbols: frozenset[str]) -> int | None:
    """Where the label of row ``number`` (1-based) ends in ``line``; None when it has none."""
    label = _ROW_LABEL.match(line)
    if label is None:
        return None
    digits, letter = label.group(1) or label.group(2), label.group(3)
    if digits is not None and int(digits) != number:
        return None
    if letter is not None and (letter.upper() != chr(ord("A") + number - 1) or letter.upper() in symbols
                               or letter.lower() in symbols):
        return None
    return label.end()


_SEPARATOR = re.compile(r"^[\s|+:=_-]*$")


def _is_column_header(line: str, cols: int) -> bool:
    labels = [label for label in re.split(r"[\s|,]+", line) if label]
    return labels in ([str(c) for c in range(1, cols + 1)], [chr(ord("A") + c) for c in range(cols)],
                      [chr(ord("a") + c) for c in range(cols)])


def read_digits(answer: str, rows: int, cols: int) -> list[list[int]] | str:
    """A ``rows x cols`` grid of single digits, or a message saying why not."""
    grid = read_cells(answer, rows, cols, DIGITS)
    return grid if isinstance(grid, str) else [[int(v) for v in row] for row in grid]


def read_marks(answer: str, rows: int, cols: int, marked: str, unmarked: str) -> list[list[bool]] | str:
    """A ``rows x cols`` grid of marks (``marked`` characters, e.g. ``"#"``) and blanks (``unmarked``,
    e.g. ``"."``), as booleans, or a message saying why not."""
    grid = read_cells(answer, rows, cols, marked + unmarked)
    return grid if isinstance(grid, str) else [[v in marked for v in row] for row in grid]


def latin_problem(grid: Sequence[Sequence[int]], n: int) -> str | None:
    """Why ``grid`` is not a Latin square over 1..n (None when it is)."""
    digits = set(range(1, n + 1))
    for r, row in enumerate(grid):
        if set(row) != digits:
            return f"row {r + 1} does not hold each digit 1-{n} once"
    for c in range(n):
        if {grid[r][c] for r in range(n)} != digits:
            return f"column {c + 1} does not hold each digit 1-{n} once"
    return None


def connected(cells: set[tuple[int, int]]) -> bool:
    """Whether the squares form one orthogonally connected group (an empty set counts as connected)."""
    if not cells:
        return True
    first = next(iter(cells))
    seen = {first}
    queue = [first]
    for r, c in queue:
        for dr, dc in NEIGHBOURS:
            nxt = (r + dr, c + dc)
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen) == len(cells)


def cage_tuples(candidates: dict[tuple[int, int], set[int]], cells: Sequence[tuple[int, int]],
                tuples: Iterable[Sequence[int]]) -> bool:
    """The cage rule of the textbook, in place: each cell of a cage keeps only the digits that some allowed tuple
    (digits in the order of ``cells``) still fitting every cell's candidates puts there. Returns whether anything
    changed."""
    allowed: list[set[int]] = [set() for _ in cells]
    for digits in tuples:
        if all(v in candidates[x] for v, x in zip(digits, cells)):
            for i, v in enumerate(digits):
                allowed[i].add(v)
    changed = False
    for i, x in enumerate(cells):
        if candidates[x] - allowed[i]:
            candidates[x] &= allowed[i]
            changed = True
    return changed


def unit_singles(candidates: dict[tuple[int, int], set[int]], unit: Sequence[tuple[int, int]], n: int) -> bool:
    """One pass of the two textbook rules over ``unit`` (a row, column or box of digits 1..``n``), in place on the
    cells' candidate digits: a digit already placed is struck from the other cells (naked singles), and a digit with
    one possible cell left goes there (hidden singles). Returns whether anything changed. The envs' declared
    heuristics apply it until nothing does."""
    changed = False
    solved = {min(candidates[x]) for x in unit if len(candidates[x]) == 1}
    for x in unit:
        if len(candidates[x]) > 1 and candidates[x] & solved:
            candidates[x] -= solved
            changed = True
    for digit in set(range(1, n + 1)) - solved:
        spots = [x for x in unit if digit in candidates[x]]
        if len(spots) == 1 and len(candidates[spots[0]]) > 1:
            candidates[spots[0]] = {digit}
            changed = True
    return changed


def lines(grid: Sequence[Sequence[object]], separator: str = "") -> str:
    """The grid as text, one row per line."""
    return "\n".join(separator.join(str(v) for v in row) for row in grid)


def grid_spellings(gold: str) -> list[str]:
    """Other spellings of a grid answer (one row per line, one character per cell) that
    :func:`read_cells` reads: rows on one line, labelled rows under column labels, ``\\boxed{}``.

    >>> grid_spellings("01\\n10")[:2]
    ['01; 10', 'Row 1: 01\\nRow 2: 10']
    """
    rows = gold.splitlines()
    header = "   " + " ".join(chr(ord("A") + c) for c in range(len(rows[0]) if rows else 0))
    return ["; ".join(rows), "\n".join(f"Row {r}: {row}" for r, row in enumerate(rows, 1)),
            "\n".join([header, *(f"{r}: {' '.join(row)}" for r, row in enumerate(rows, 1))]), "\\boxed{" + gold + "}"]


def grid_corruptions(gold: str, wrong: str) -> list[str]:
    """Near misses around a grid answer: the right grid taken back for a ``wrong`` one, two grids
    (a hedge), the right grid with a row changed afterwards."""
    first = gold.splitlines()[0] if gold else ""
    return [f"{gold}\n\nNo, wait:\n{wrong}", f"{wrong}\n\nor\n\n{gold}",
            f"{gold}\nActually row 1 is {wrong.splitlines()[0] if wrong else first[::-1]}."]


def with_spaces(text: str) -> str:
    """Each line's characters separated by spaces (``"12\\n34"`` -> ``"1 2\\n3 4"``): another spelling."""
    return "\n".join(" ".join(line) for line in text.splitlines())


def changed_given(grid: Sequence[Sequence[object]], givens: Sequence[str], noun: str = "digit") -> str | None:
    """Why ``grid`` breaks one of the ``givens`` (rows of one-character cells, ``.`` where nothing is given), or None."""
    for r, row in enumerate(givens):
        for c, given in enumerate(row):
            if given != "." and str(grid[r][c]) != given:
                return f"the given {noun} in row {r + 1}, column {c + 1} was changed"
    return None


def latin_corruptions(rows: list[list[str]], rng: random.Random) -> list[list[list[str]]]:
    """Two near misses of a solved Latin-square grid: two cells of a row swapped, and two digits relabelled
    everywhere (still a Latin square, so only the puzzle's other clues rule it out)."""
    n = len(rows)
    r = rng.randrange(n)
    c1, c2 = rng.sample(range(n), 2)
    swapped = [row[:] for row in rows]
    swapped[r][c1], swapped[r][c2] = swapped[r][c2], swapped[r][c1]
    a, b = rng.sample("123456789"[:n], 2)
    relabelled = [[b if d == a else a if d == b else d for d in row] for row in rows]
    return [swapped, relabelled]
