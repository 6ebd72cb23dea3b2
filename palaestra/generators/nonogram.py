"""Nonogram rules, for the puzzle solved at once (``puzzles/nonogram``) and the game played row by row
(``games/nonogram``).

A line (row or column) of cells fits its clue when its runs of consecutive shaded cells have,
in order, the clue's lengths; an empty clue (written ``0``) means no shaded cell. Lines are
sequences of booleans (``True`` shaded); a partly known line marks unknown cells ``None``.

Example::

    >>> runs([True, True, False, True]), runs([False, False]), clue_text([]), clue_text([2, 1])
    ([2, 1], [], '0', '2 1')
    >>> placements(4, (2, 1))
    ((True, True, False, True),)
    >>> feasible((3,), (None, True, None, None)), feasible((3,), (None, False, None, None))
    (True, False)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable


def runs(line: Iterable[bool]) -> list[int]:
    """The lengths of the runs of shaded cells, in order (``[]`` when none is shaded)."""
    found, length = [], 0
    for shaded in line:
        if shaded:
            length += 1
        elif length:
            found.append(length)
            length = 0
    if length:
        found.append(length)
    return found


def clue_text(clue: Iterable[int]) -> str:
    """A clue as prompts write it: its lengths, or ``0`` for a line with no shaded cell."""
    return " ".join(str(length) for length in clue if length) or "0"


@functools.cache
def placements(n: int, clue: tuple[int, ...]) -> tuple[tuple[bool, ...], ...]:
    """Every line of ``n`` cells whose runs are ``clue``."""
    found: list[tuple[bool, ...]] = []

    def place(prefix: tuple[bool, ...], i: int) -> None:
        if i == len(clue):
            found.append(prefix + (False,) * (n - len(prefix)))
            return
        room = sum(clue[i + 1:]) + len(clue) - i - 1  # cells the later runs need
        for start in range(len(prefix), n - room - clue[i] + 1):
            line = prefix + (False,) * (start - len(prefix)) + (True,) * clue[i]
            place(line + (False,) if i + 1 < len(clue) else line, i + 1)

    place((), 0)
    return tuple(found)


@functools.lru_cache(maxsize=200_000)
def feasible(clue: tuple[int, ...], cells: tuple[bool | None, ...]) -> bool:
    """Whether a line with known cells (``True`` shaded, ``False`` empty) and unknown ones (``None``) can be
    completed to fit ``clue`` (``()`` or ``(0,)`` for no shaded cell)."""
    lengths = tuple(length for length in clue if length)
    n = len(cells)

    @functools.lru_cache(maxsize=None)
    def fit(i: int, k: int) -> bool:  # cells[i:] can hold lengths[k:]
        if k == len(lengths):
            return all(c is not True for c in cells[i:])
        if i >= n:
            return False
        if cells[i] is not True and fit(i + 1, k):  # leave cell i empty
            return True
        end = i + lengths[k]
        if end > n or any(c is False for c in cells[i:end]):
            return False
        if end < n and cells[end] is True:
            return False
        return fit(end + 1, k + 1) if end < n else k + 1 == len(lengths)

    return fit(0, 0)
