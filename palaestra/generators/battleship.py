"""Where ships may lie, for the Battleship game (``games/battleship``) and the Battleships puzzle
(``puzzles/battleships``).

A ship of ``length`` cells lies in a straight line along a row (horizontal) or a column (vertical)
of an ``n`` x ``n`` board; a one-cell ship has one position per cell. Cells are ``(row, column)``.

Example::

    >>> placements(2, 2)
    [[(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 1), (1, 1)], [(1, 0), (1, 1)]]
    >>> len(placements(3, 1)), len(placements(10, 5))
    (9, 120)
"""

from __future__ import annotations

Cell = tuple[int, int]


def placements(n: int, length: int) -> list[list[Cell]]:
    """Every position of a ship of ``length`` cells: by start cell row by row, the horizontal one before the
    vertical one at each start."""
    directions = ((0, 1), (1, 0)) if length > 1 else ((0, 1),)
    return [[(r + k * dr, c + k * dc) for k in range(length)]
            for r in range(n) for c in range(n) for dr, dc in directions
            if r + (length - 1) * dr < n and c + (length - 1) * dc < n]
