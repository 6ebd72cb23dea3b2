"""Sokoban's rules, for the game played move by move (``games/sokoban``) and the plan written at once
(``planning/sokoban``).

Squares are ``(row, column)``. The keeper moves up, down, left or right (``U D L R``); walking into
a box pushes it one square on, allowed only when that square is open floor without a box (boxes
cannot be pulled, nor pushed two at a time). The puzzle is solved when every box is on a goal.
Boards are drawn with ``#`` wall, ``-`` floor, ``.`` goal, ``$`` box, ``*`` box on a goal, ``@`` the
keeper and ``+`` the keeper on a goal.

Example (a corridor: the keeper, a box, a goal)::

    >>> walls = {(0, c) for c in range(5)} | {(2, c) for c in range(5)} | {(1, 0), (1, 4)}
    >>> is_open = lambda square: square not in walls
    >>> push(is_open, (1, 1), [(1, 2)], "R")
    ((1, 2), ((1, 3),))
    >>> push(is_open, (1, 2), [(1, 3)], "R")
    'pushes a box into a wall'
    >>> print(picture(walls, 3, 5, goals=[(1, 3)], boxes=[(1, 2)], keeper=(1, 1)))
    #####
    #@$.#
    #####
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from palaestra.generators.grids import MOVES

Square = tuple[int, int]
LEGEND = "# wall, - floor, @ keeper, $ box, . goal, * box on a goal, + keeper on a goal"


def push(is_open: Callable[[Square], bool], keeper: Square, boxes: Collection[Square],
         move: str) -> tuple[Square, tuple[Square, ...]] | str:
    """The keeper and the boxes (sorted) after ``move``, or why the move is blocked.

    ``is_open(square)`` says whether a square is floor (inside the room and not a wall).
    """
    dr, dc = MOVES[move]
    ahead = (keeper[0] + dr, keeper[1] + dc)
    if not is_open(ahead):
        return "walks into a wall"
    if ahead not in boxes:
        return ahead, tuple(sorted(boxes))
    beyond = (ahead[0] + dr, ahead[1] + dc)
    if not is_open(beyond):
        return "pushes a box into a wall"
    if beyond in boxes:
        return "pushes a box into another box"
    return ahead, tuple(sorted(beyond if box == ahead else box for box in boxes))


def solved(boxes: Collection[Square], goals: Collection[Square]) -> bool:
    """Every box is on a goal."""
    return all(box in goals for box in boxes)


def picture(walls: Collection[Square], rows: int, cols: int, goals: Collection[Square], boxes: Collection[Square],
            keeper: Square) -> str:
    """The board in the legend's symbols, one line per row."""
    def symbol(square: Square) -> str:
        if square in walls:
            return "#"
        if square == keeper:
            return "+" if square in goals else "@"
        if square in boxes:
            return "*" if square in goals else "$"
        return "." if square in goals else "-"

    return "\n".join("".join(symbol((r, c)) for c in range(cols)) for r in range(rows))
