"""Random Latin squares and Sudoku grids, for the number puzzles (``puzzles/futoshiki``, ``kenken``,
``skyscrapers``, ``hitori``, ``killer_sudoku``) and ``grid/sudoku``.

A Latin square of order n holds each of 1..n once in every row and column; a Sudoku grid is a
Latin square whose ``box_rows x box_cols`` boxes also hold each digit once.

Example::

    >>> import random
    >>> square = random_latin_square(random.Random(3), 4)
    >>> all(sorted(row) == [1, 2, 3, 4] for row in square), all(sorted(col) == [1, 2, 3, 4] for col in zip(*square))
    (True, True)
    >>> grid = sudoku_grid(random.Random(3), 2, 3)
    >>> sorted(grid[0][:3] + grid[1][:3]) == [1, 2, 3, 4, 5, 6]  # the top-left box
    True
"""

from __future__ import annotations

import random


def random_latin_square(rng: random.Random, n: int) -> list[list[int]]:
    """A random ``n x n`` Latin square over 1..n, built row by row.

    Each row is a random perfect matching of columns to the symbols their column has not used
    yet (augmenting paths over shuffled candidates). A Latin rectangle always extends to a
    Latin square (Hall's theorem), so the construction never backtracks.
    """
    col_used: list[set[int]] = [set() for _ in range(n)]
    square = []
    for _ in range(n):
        options = [[v for v in range(1, n + 1) if v not in col_used[c]] for c in range(n)]
        for choices in options:
            rng.shuffle(choices)
        owner: dict[int, int] = {}  # symbol -> column holding it in this row
        columns = list(range(n))
        rng.shuffle(columns)
        for c in columns:
            _augment(c, options, owner, set())
        row = [0] * n
        for v, c in owner.items():
            row[c] = v
            col_used[c].add(v)
        square.append(row)
    return square


def _augment(c: int, options: list[list[int]], owner: dict[int, int], seen: set[int]) -> bool:
    """Kuhn's augmenting path: give column ``c`` a symbol, moving other columns' symbols if need be."""
    for v in options[c]:
        if v in seen:
            continue
        seen.add(v)
        if v not in owner or _augment(owner[v], options, owner, seen):
            owner[v] = c
            return True
    return False


def sudoku_grid(rng: random.Random, box_rows: int, box_cols: int) -> list[list[int]]:
    """A random valid Sudoku grid with ``box_rows x box_cols`` boxes: a pattern grid with its digits relabelled and
    its bands, stacks, rows within a band and columns within a stack shuffled (each keeps the grid valid)."""
    n = box_rows * box_cols
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    bands, stacks = list(range(n // box_rows)), list(range(n // box_cols))
    rng.shuffle(bands)
    rng.shuffle(stacks)
    rows = [band * box_rows + i for band in bands for i in rng.sample(range(box_rows), box_rows)]
    cols = [stack * box_cols + j for stack in stacks for j in rng.sample(range(box_cols), box_cols)]
    return [[digits[(box_cols * (r % box_rows) + r // box_rows + c) % n] for c in cols] for r in rows]
