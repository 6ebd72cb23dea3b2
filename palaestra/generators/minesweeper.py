"""Minesweeper's rules, for the games (``games/minesweeper``, ``games/hex_minesweeper``) and the deduction
(``deduction/minesweeper``).

Cells are numbered row by row (``index = row * cols + col``). A cell's neighbours are the up to
eight cells around it, diagonals included (:func:`neighbours`; a hexagonal board passes its own six-cell
table as ``around``); an opened cell shows how many of them hold a mine.
Opening a cell with no mine around it opens its neighbours too, flooding on through further such
cells, as a click does.

Example (a 3 x 3 board with one mine in the corner)::

    >>> counts({8}, 3, 3)
    [0, 0, 0, 0, 1, 1, 0, 1, 0]
    >>> sorted(flood(0, counts({8}, 3, 3), neighbours(3, 3)))
    [0, 1, 2, 3, 4, 5, 6, 7]

A game's state is a mask, one character a cell: ``HIDDEN``, ``OPEN`` or ``FLAG``. The no-guess
deductions (:func:`deduce`) are a number alone (its hidden neighbours all mines or all safe) and
pairs of numbers where one's unknown neighbours contain the other's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence


@functools.cache
def neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, the cells among its eight neighbours that lie on the board."""
    out = []
    for index in range(rows * cols):
        r, c = divmod(index, cols)
        out.append(tuple((r + dr) * cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                         if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols))
    return tuple(out)


HIDDEN, OPEN, FLAG = "h", "o", "f"
Around = Sequence[Sequence[int]]  # per cell, its neighbours


def counts(mines: Collection[int], rows: int, cols: int, around: Around | None = None) -> list[int]:
    """Per cell, the number of mines among its neighbours (the eight around it unless ``around`` is given)."""
    chosen = set(mines)
    return [sum(j in chosen for j in cells) for cells in (around or neighbours(rows, cols))]


def flood(start: int, counts: Sequence[int], around: Around,
          may_open: Callable[[int], bool] = lambda cell: True) -> set[int]:
    """The cells a click on ``start`` opens: ``start``, and through every opened cell with no mine around, its
    neighbours for which ``may_open`` holds (the game keeps flagged cells shut)."""
    opened = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        if counts[cell] == 0:
            for j in around[cell]:
                if j not in opened and may_open(j):
                    opened.add(j)
                    stack.append(j)
    return opened


def open_cell(mask: str, index: int, counts: Sequence[int], around: Around) -> str:
    """``mask`` with ``index`` opened, flooding through cells with no mine around (flags stay shut)."""
    if mask[index] == OPEN:
        return mask
    opened = flood(index, counts, around, lambda j: mask[j] == HIDDEN)
    return "".join(OPEN if i in opened else mark for i, mark in enumerate(mask))


def three_bv(mines: Collection[int], counts: Sequence[int], around: Around) -> int:
    """The fewest clicks that open the board: one per empty region, plus each numbered cell next to none."""
    mask = HIDDEN * len(counts)
    clicks = 0
    for i in range(len(counts)):
        if counts[i] == 0 and i not in mines and mask[i] == HIDDEN:
            mask = open_cell(mask, i, counts, around)
            clicks += 1
    return clicks + sum(1 for i in range(len(counts)) if i not in mines and mask[i] == HIDDEN)


def deduce(mask: str, counts: Sequence[int], known_mines: set[int], around: Around) -> tuple[set[int], set[int]]:
    """Cells that the open numbers prove safe, and cells they prove to be mines (beyond ``known_mines``).

    First each number alone (its hidden neighbours are all mines, or all safe); only when that
    finds nothing, pairs of numbers where one's unknown neighbours contain the other's.
    """
    constraints = []
    for i, mark in enumerate(mask):
        if mark != OPEN or counts[i] == 0:
            continue
        unknown = frozenset(j for j in around[i] if mask[j] != OPEN and j not in known_mines)
        if unknown:
            constraints.append((unknown, counts[i] - sum(j in known_mines for j in around[i])))
    safe: set[int] = set()
    found: set[int] = set()
    for unknown, left in constraints:
        if left == 0:
            safe |= unknown
        elif left == len(unknown):
            found |= unknown
    if safe or found:
        return safe, found
    for a, left_a in constraints:
        for b, left_b in constraints:
            if a < b:
                extra, more = b - a, left_b - left_a
                if more == 0:
                    safe |= extra
                elif more == len(extra):
                    found |= extra
    return safe, found


def proven_safe(mask: str, counts: Sequence[int], around: Around, known_mines: set[int] | None = None) -> set[int]:
    """Hidden cells the open numbers prove safe, deducing mines on the way (empty when no proof is found).

    ``known_mines``, when given, holds mines proven before (on this board or an earlier state of it) and
    receives the mines proven now: a solver opening the board step by step does not prove them again.
    """
    known_mines = set() if known_mines is None else known_mines
    for _ in range(len(mask)):  # each pass proves a cell safe, marks a new mine, or stops
        safe, found = deduce(mask, counts, known_mines, around)
        if safe:
            return safe
        if not found:
            return set()
        known_mines |= found
    return set()


def solvable(mines: Collection[int], first: int, counts: Sequence[int], around: Around) -> bool:
    """Whether these deductions open every safe cell from the first click (no guess ever needed)."""
    mask = open_cell(HIDDEN * len(counts), first, counts, around)
    safe_total = len(counts) - len(mines)
    known_mines: set[int] = set()
    for _ in range(len(counts)):  # every pass opens at least one cell, or stops
        if mask.count(OPEN) == safe_total:
            return True
        safe = proven_safe(mask, counts, around, known_mines)
        if not safe:
            return False
        for i in safe:
            mask = open_cell(mask, i, counts, around)
    return mask.count(OPEN) == safe_total
