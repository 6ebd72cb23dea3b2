"""Shared pieces of the economics family: bimatrix games, their labels, tables and equilibrium checks.

A bimatrix game has rows (the row player's strategies, named by capital letters ``A``, ``B``, ...) and columns
(the column player's, named by numbers ``1``, ``2``, ...); a cell is named by its row letter and column number,
like ``B3``, and holds the pair (row player's payoff, column player's payoff).
"""

from __future__ import annotations

import random
import string

Matrix = list[list[int]]


def row_names(count: int) -> list[str]:
    return list(string.ascii_uppercase[:count])


def column_names(count: int) -> list[str]:
    return [str(j + 1) for j in range(count)]


def cell_name(row: int, column: int) -> str:
    return f"{string.ascii_uppercase[row]}{column + 1}"


def random_matrix(rng: random.Random, rows: int, columns: int, high: int) -> Matrix:
    return [[rng.randint(0, high) for _ in range(columns)] for _ in range(rows)]


def game_table(row_payoffs: Matrix, column_payoffs: Matrix) -> str:
    """The payoff table, one line per row, each cell as (row player's payoff, column player's payoff)."""
    columns = len(row_payoffs[0])
    cells = [[f"({a}, {b})" for a, b in zip(row_a, row_b, strict=True)]
             for row_a, row_b in zip(row_payoffs, column_payoffs, strict=True)]
    width = max(len(c) for line in cells for c in line)
    header = "   " + " ".join(name.center(width) for name in column_names(columns))
    lines = [f"{name}  " + " ".join(c.center(width) for c in line)
             for name, line in zip(row_names(len(cells)), cells, strict=True)]
    return "\n".join([header, *lines])


def deviation(row_payoffs: Matrix, column_payoffs: Matrix, row: int, column: int) -> str | None:
    """A profitable unilateral deviation from the cell (in words), or ``None`` when the cell is an equilibrium."""
    for other in range(len(row_payoffs)):
        if row_payoffs[other][column] > row_payoffs[row][column]:
            return (f"{cell_name(row, column)} is not an equilibrium: the row player gains by switching to row "
                    f"{string.ascii_uppercase[other]} ({row_payoffs[other][column]} > {row_payoffs[row][column]})")
    for other in range(len(row_payoffs[0])):
        if column_payoffs[row][other] > column_payoffs[row][column]:
            return (f"{cell_name(row, column)} is not an equilibrium: the column player gains by switching to "
                    f"column {other + 1} ({column_payoffs[row][other]} > {column_payoffs[row][column]})")
    return None


def pure_equilibria(row_payoffs: Matrix, column_payoffs: Matrix) -> list[tuple[int, int]]:
    """Every cell where neither player gains by a unilateral change (weak best responses both ways)."""
    return [(i, j) for i in range(len(row_payoffs)) for j in range(len(row_payoffs[0]))
            if deviation(row_payoffs, column_payoffs, i, j) is None]
