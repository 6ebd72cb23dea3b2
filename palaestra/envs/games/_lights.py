"""Lights out over GF(2), shared by the grid game and the graph game (no environment here).

Pressing a light toggles a fixed set of lights, its press mask (bit ``j`` set when light ``j`` changes).
Switching a board off is a linear system over GF(2): unknown ``x_j`` says whether light ``j`` is pressed,
equation ``i`` says the presses touching light ``i`` flip it an odd number of times exactly when it is
lit. :func:`eliminate` row-reduces the system once per board shape; :func:`lightest_presses` then finds
a lightest press set for any solvable board, enumerating the solutions the null space allows.

Example (three lamps in a row, each press toggling itself and its neighbours)::

    >>> system = eliminate([0b011, 0b111, 0b110])
    >>> lightest_presses(system, 0b111), lightest_presses(system, 0b101)
    ([1], [0, 2])
"""

from __future__ import annotations

import itertools

PressSystem = tuple[list[tuple[int, int]], list[int]]
"""(pivot columns with the combination of equations each reads, a basis of the null space)."""


def eliminate(masks: list[int]) -> PressSystem:
    """The press system row-reduced over GF(2).

    ``masks[i]`` is what pressing light ``i`` toggles. Both games' presses are symmetric (``i`` toggles
    ``j`` exactly when ``j`` toggles ``i``), so row ``i`` of the system is ``masks[i]``.
    """
    size = len(masks)
    rows = [(masks[i], 1 << i) for i in range(size)]
    pivots: list[tuple[int, int, int]] = []  # (pivot column, reduced row, combination of equations)
    for column in range(size):
        index = next((k for k, (mask, _) in enumerate(rows) if mask >> column & 1), None)
        if index is None:
            continue
        mask, combo = rows.pop(index)
        rows = [(m ^ mask, c ^ combo) if m >> column & 1 else (m, c) for m, c in rows]
        pivots = [(col, m ^ mask, c ^ combo) if m >> column & 1 else (col, m, c) for col, m, c in pivots]
        pivots.append((column, mask, combo))
    pivot_columns = {p for p, _, _ in pivots}
    null = []
    for free in (column for column in range(size) if column not in pivot_columns):
        vector = 1 << free
        for column, mask, _ in pivots:
            if mask >> free & 1:
                vector |= 1 << column
        null.append(vector)
    return [(column, combo) for column, _, combo in pivots], null


def lightest_presses(system: PressSystem, lit: int) -> list[int]:
    """The lights of a lightest press set that switches ``lit`` off, in increasing order (the board must be
    solvable); among equally light sets, the first the null space's enumeration meets."""
    pivots, null = system
    base = 0
    for column, combo in pivots:
        if (combo & lit).bit_count() % 2:
            base |= 1 << column
    best = base
    for choice in itertools.product((0, 1), repeat=len(null)):
        candidate = base
        for use, vector in zip(choice, null):
            if use:
                candidate ^= vector
        if candidate.bit_count() < best.bit_count():
            best = candidate
    return [light for light in range(best.bit_length()) if best >> light & 1]
