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
    grid: list[list[bool | None]] = [[None] * cols for _ in range(rows)]
    options = [list(placement_masks(cols, tuple(clue))) for clue in row_clues]
    options += [list(placement_masks(rows, tuple(clue))) for clue in col_clues]
    pending = set(range(rows + cols))
    # A line is queued again only when one of its cells becomes known: at most one queueing per cell.
    for _ in range(rows + cols + rows * cols):
        if not pending:
            break
        line = pending.pop()
        if line < rows:
            cells = [(line, c) for c in range(cols)]
        else:
            cells = [(r, line - rows) for r in range(rows)]
        known = shaded = 0
        for i, (r, c) in enumerate(cells):
            if grid[r][c] is not None:
                known |= 1 << i
                shaded |= (1 << i) if grid[r][c] else 0
        fitting = [mask for mask in options[line] if mask & known == shaded]
        options[line] = fitting
        if not fitting:
            break
        always, ever = -1, 0
        for mask in fitting:
            always &= mask
            ever |= mask
        for i, (r, c) in enumerate(cells):
            if grid[r][c] is None and (always >> i & 1 or not ever >> i & 1):
                grid[r][c] = bool(always >> i & 1)
                pending.add(c + rows if line < rows else r)
    return grid


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
