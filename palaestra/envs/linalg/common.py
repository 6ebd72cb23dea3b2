"""Exact matrix helpers shared by the linear-algebra envs (fractions throughout, no floating point).

Example::

    >>> from fractions import Fraction
    >>> determinant([[2, 1], [4, 3]]), rank([[1, 2], [2, 4]])
    (Fraction(2, 1), 1)
    >>> inverse([[2, 1], [4, 3]])
    [[Fraction(3, 2), Fraction(-1, 2)], [Fraction(-2, 1), Fraction(1, 1)]]
    >>> render([[1, -2], [30, 4]])
    '[  1 -2 ]\\n[ 30  4 ]'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

Matrix = list[list[Fraction]]


def as_fractions(rows: Sequence[Sequence[Fraction | int | str]]) -> Matrix:
    return [[Fraction(v) for v in row] for row in rows]


def determinant(rows: Sequence[Sequence[Fraction | int]]) -> Fraction:
    """Exact determinant by Gaussian elimination over the rationals."""
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


def reduced_row_echelon(rows: Sequence[Sequence[Fraction | int]]) -> tuple[Matrix, list[int]]:
    """The reduced row echelon form and its pivot columns."""
    m = as_fractions(rows)
    pivots: list[int] = []
    r = 0
    for col in range(len(m[0]) if m else 0):
        pivot = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        lead = m[r][col]
        m[r] = [v / lead for v in m[r]]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                factor = m[i][col]
                m[i] = [a - factor * b for a, b in zip(m[i], m[r])]
        pivots.append(col)
        r += 1
        if r == len(m):
            break
    return m, pivots


def rank(rows: Sequence[Sequence[Fraction | int]]) -> int:
    return len(reduced_row_echelon(rows)[1])


def inverse(rows: Sequence[Sequence[Fraction | int]]) -> Matrix | None:
    """The exact inverse, or None when singular."""
    n = len(rows)
    augmented = [[*row, *(Fraction(int(i == j)) for j in range(n))] for i, row in enumerate(as_fractions(rows))]
    reduced, pivots = reduced_row_echelon(augmented)
    if pivots[:n] != list(range(n)):
        return None
    return [row[n:] for row in reduced]


def multiply(a: Sequence[Sequence[Fraction | int]], b: Sequence[Sequence[Fraction | int]]) -> Matrix:
    return [[sum((Fraction(x) * Fraction(y) for x, y in zip(row, col)), Fraction(0)) for col in zip(*b)] for row in a]


def identity(n: int) -> Matrix:
    return [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]


def unimodular(rng: random.Random, n: int, steps: int, top: int = 2) -> Matrix:
    """An integer matrix with determinant ±1 (so its inverse is an integer matrix): row operations on I."""
    m = identity(n)
    for _ in range(steps):
        i, j = rng.sample(range(n), 2)
        factor = rng.choice([v for v in range(-top, top + 1) if v])
        m[i] = [a + factor * b for a, b in zip(m[i], m[j])]
    rng.shuffle(m)
    return m


def cell(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def render(rows: Sequence[Sequence[Fraction | int]]) -> str:
    """Rows in brackets with aligned columns, one row per line."""
    texts = [[cell(v) for v in row] for row in rows]
    width = max(len(t) for row in texts for t in row)
    return "\n".join("[ " + " ".join(t.rjust(width) for t in row) + " ]" for row in texts)


def nested(rows: Sequence[Sequence[Fraction | int]]) -> str:
    """``[[1, 2], [3, 4]]``."""
    return "[" + ", ".join("[" + ", ".join(cell(v) for v in row) + "]" for row in rows) + "]"
