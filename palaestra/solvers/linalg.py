"""Exact linear algebra over the rationals: Gauss-Jordan elimination on ``Fraction`` matrices.

One elimination serves every question an env asks of a matrix: the reduced row echelon form and
its pivot columns, the rank, the null space, the unique solution of a linear system, the inverse
and the determinant. Everything is exact (no floating point), so a generator's answer never depends
on rounding, and the results are canonical (the reduced row echelon form of a matrix is unique).

Elimination skips the columns where the pivot row is zero, so sparse systems (joint equations of a
truss, first-step equations of a Markov chain) cost little more than their non-zero entries.

Example::

    >>> from fractions import Fraction
    >>> rref([[1, 2, 3], [2, 4, 7]])
    ([[Fraction(1, 1), Fraction(2, 1), Fraction(0, 1)], [Fraction(0, 1), Fraction(0, 1), Fraction(1, 1)]], [0, 2])
    >>> rank([[1, 2], [2, 4]]), determinant([[2, 1], [4, 3]])
    (1, Fraction(2, 1))
    >>> solve([[2, 1], [1, 3]], [3, 5])
    [Fraction(4, 5), Fraction(7, 5)]
    >>> nullspace([[1, 1, -2]])
    [[Fraction(-1, 1), Fraction(1, 1), Fraction(0, 1)], [Fraction(2, 1), Fraction(0, 1), Fraction(1, 1)]]
    >>> inverse([[2, 1], [4, 3]])
    [[Fraction(3, 2), Fraction(-1, 2)], [Fraction(-2, 1), Fraction(1, 1)]]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

Matrix = list[list[Fraction]]
Entry = Fraction | int | str


def as_fractions(rows: Sequence[Sequence[Entry]]) -> Matrix:
    """A fresh matrix of ``Fraction`` entries (the input is never modified)."""
    return [[Fraction(v) for v in row] for row in rows]


def rref(rows: Sequence[Sequence[Entry]], columns: int | None = None) -> tuple[Matrix, list[int]]:
    """The reduced row echelon form of ``rows`` and its pivot columns.

    ``columns`` limits the pivot search to the first ``columns`` columns (the coefficient part of an
    augmented matrix); the remaining columns are reduced along. Zero rows end up at the bottom.

    >>> rref([[0, 2, 4], [1, 1, 1]])[1]
    [0, 1]
    """
    m = as_fractions(rows)
    width = len(m[0]) if m else 0
    pivots: list[int] = []
    r = 0
    for col in range(width if columns is None else min(columns, width)):
        if r == len(m):
            break
        pivot = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        lead = m[r][col]
        m[r] = [v / lead for v in m[r]]
        used = [j for j, v in enumerate(m[r]) if v]  # only these columns change in the other rows
        for i, row in enumerate(m):
            factor = row[col]
            if i != r and factor != 0:
                for j in used:
                    row[j] -= factor * m[r][j]
        pivots.append(col)
        r += 1
    return m, pivots


def rank(rows: Sequence[Sequence[Entry]]) -> int:
    """The rank (number of pivots).

    >>> rank([[1, 2, 3], [2, 4, 6], [0, 0, 1]])
    2
    """
    return len(rref(rows)[1])


def nullspace(rows: Sequence[Sequence[Entry]], columns: int | None = None) -> Matrix:
    """A basis of the null space of ``rows``: one vector per free column, that column set to 1 and the
    other free columns to 0 (the canonical basis read off the reduced row echelon form).

    ``columns`` is the number of unknowns, needed when ``rows`` is empty.

    >>> nullspace([[1, 2]])
    [[Fraction(-2, 1), Fraction(1, 1)]]
    """
    reduced, pivots = rref(rows)
    n = columns if columns is not None else (len(rows[0]) if rows else 0)
    basis = []
    for free in (c for c in range(n) if c not in pivots):
        v = [Fraction(0)] * n
        v[free] = Fraction(1)
        for row, pivot in enumerate(pivots):
            v[pivot] = -reduced[row][free]
        basis.append(v)
    return basis


def solve(matrix: Sequence[Sequence[Entry]], right: Sequence[Entry]) -> list[Fraction] | None:
    """The unique solution x of ``matrix @ x = right``, or ``None`` when there is none or more than one.

    The system may have more equations than unknowns (they must then be consistent).

    >>> solve([[1, 1], [1, -1], [2, 0]], [3, 1, 4])
    [Fraction(2, 1), Fraction(1, 1)]
    >>> solve([[1, 1], [2, 2]], [1, 3]) is None
    True
    """
    unknowns = len(matrix[0]) if matrix else 0
    augmented = [[*row, value] for row, value in zip(matrix, right, strict=True)]
    reduced, pivots = rref(augmented, columns=unknowns)
    if pivots != list(range(unknowns)):
        return None  # a free unknown: no unique solution
    if any(row[unknowns] != 0 for row in reduced[unknowns:]):
        return None  # a leftover equation 0 = c with c != 0: inconsistent
    return [reduced[i][unknowns] for i in range(unknowns)]


def inverse(rows: Sequence[Sequence[Entry]]) -> Matrix | None:
    """The exact inverse of a square matrix, or ``None`` when it is singular.

    >>> inverse([[1, 2], [2, 4]]) is None
    True
    """
    n = len(rows)
    augmented = [[*row, *(Fraction(int(i == j)) for j in range(n))] for i, row in enumerate(as_fractions(rows))]
    reduced, pivots = rref(augmented, columns=n)
    if pivots != list(range(n)):
        return None
    return [row[n:] for row in reduced]


def determinant(rows: Sequence[Sequence[Entry]]) -> Fraction:
    """The exact determinant of a square matrix (forward elimination; a row swap flips the sign).

    >>> determinant([[0, 1], [1, 0]])
    Fraction(-1, 1)
    """
    m = as_fractions(rows)
    n = len(m)
    result = Fraction(1)
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != col:
            m[col], m[pivot] = m[pivot], m[col]
            result = -result
        result *= m[col][col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                m[r] = [a - factor * b for a, b in zip(m[r], m[col])]
    return result
