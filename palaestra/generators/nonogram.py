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
    >>> line_solve([(2,), (1,)], [(2,), (1,)])  # the picture ##/#. is the only fit
    [[True, True], [True, False]]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any


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


@functools.cache
def placement_masks(n: int, clue: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`placements` as bit masks (bit ``i`` set when cell ``i`` is shaded)."""
    return tuple(sum(1 << i for i, shaded in enumerate(line) if shaded) for line in placements(n, clue))


def line_solve(row_clues: list[tuple[int, ...]], col_clues: list[tuple[int, ...]]) -> list[list[bool | None]]:
    """The cells that line logic alone forces: a cell is known once every placement of its row (or
    column) that agrees with the known cells gives it the same value; repeated until nothing changes.
    Unknown cells are ``None``. Sound (a forced cell has that value in every solution), not complete:
    a puzzle it leaves open may still have one solution. Clues that no grid fits leave every cell as
    known as the contradiction left it (callers pass clues of a real picture)."""
    rows, cols = len(row_clues), len(col_clues)
    _, known, shaded, _ = line_state(row_clues, col_clues)
    return [[bool(shaded[r] >> c & 1) if known[r] >> c & 1 else None for c in range(cols)] for r in range(rows)]


def line_state(row_clues: Sequence[Sequence[int]], col_clues: Sequence[Sequence[int]],
               givens: Iterable[Sequence[Any]] = ()) -> tuple[list[list[int]], list[int], list[int], bool]:
    """Line logic from the clues and ``givens`` (``(row, column, shaded)`` cells known from the start), as bit
    masks for :func:`propagate` to go on from: ``(options, known, shaded, consistent)``, see there."""
    rows, cols = len(row_clues), len(col_clues)
    options = [list(placement_masks(cols, tuple(clue))) for clue in row_clues]
    options += [list(placement_masks(rows, tuple(clue))) for clue in col_clues]
    known, shaded = [0] * (rows + cols), [0] * (rows + cols)
    for r, c, value in givens:
        known[r] |= 1 << c
        known[rows + c] |= 1 << r
        if value:
            shaded[r] |= 1 << c
            shaded[rows + c] |= 1 << r
    consistent = propagate(rows, options, known, shaded, set(range(rows + cols)))
    return options, known, shaded, consistent


def propagate(rows: int, options: list[list[int]], known: list[int], shaded: list[int], pending: set[int]) -> bool:
    """Line logic in place, from the lines in ``pending``: lines ``0..rows-1`` are the rows, then the columns;
    ``known`` and ``shaded`` are per-line bit masks (bit i: cell i of the line) and ``options`` the placements
    (masks) each line still allows. Repeats until nothing changes; False when a line has no placement left
    (the known cells contradict the clues)."""
    cols = len(options) - rows
    # A line is queued again only when one of its cells becomes known: at most one queueing per cell.
    for _ in range(len(pending) + rows * cols):
        if not pending:
            break
        line = pending.pop()
        was_known, was_shaded = known[line], shaded[line]
        fitting = [mask for mask in options[line] if mask & was_known == was_shaded]
        if not fitting:
            return False
        options[line] = fitting
        always, ever = -1, 0
        for mask in fitting:
            always &= mask
            ever |= mask
        full = (1 << (cols if line < rows else rows)) - 1
        new = (always | (full & ~ever)) & ~was_known
        known[line] = was_known | new
        shaded[line] = was_shaded | (always & new)
        across, bit = (rows, 1 << line) if line < rows else (0, 1 << (line - rows))
        for i in range(new.bit_length()):
            if new >> i & 1:
                known[across + i] |= bit
                if always >> i & 1:
                    shaded[across + i] |= bit
                pending.add(across + i)
    return True


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
