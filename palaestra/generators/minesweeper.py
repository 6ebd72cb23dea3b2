"""Minesweeper's rules, for the game (``games/minesweeper``) and the deduction (``deduction/minesweeper``).

Cells are numbered row by row (``index = row * cols + col``). A cell's neighbours are the up to
eight cells around it, diagonals included; an opened cell shows how many of them hold a mine.
Opening a cell with no mine around it opens its neighbours too, flooding on through further such
cells, as a click does.

Example (a 3 x 3 board with one mine in the corner)::

    >>> counts({8}, 3, 3)
    [0, 0, 0, 0, 1, 1, 0, 1, 0]
    >>> sorted(flood(0, counts({8}, 3, 3), 3, 3))
    [0, 1, 2, 3, 4, 5, 6, 7]
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


def counts(mines: Collection[int], rows: int, cols: int) -> list[int]:
    """Per cell, the number of mines among its neighbours."""
    return [sum(j in mines for j in around) for around in neighbours(rows, cols)]


def flood(start: int, counts: Sequence[int], rows: int, cols: int,
          may_open: Callable[[int], bool] = lambda cell: True) -> set[int]:
    """The cells a click on ``start`` opens: ``start``, and through every opened cell with no mine around, its
    neighbours for which ``may_open`` holds (the game keeps flagged cells shut)."""
    around = neighbours(rows, cols)
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
