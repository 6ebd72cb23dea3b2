"""Matrix drawing and printing shared by the linear-algebra envs (fractions throughout, no floating point).

Elimination (determinant, rank, inverse, null space) lives in :mod:`palaestra.solvers.linalg`.

Example::

    >>> from fractions import Fraction
    >>> multiply([[1, 2]], [[3], [4]])
    [[Fraction(11, 1)]]
    >>> render([[1, -2], [30, 4]])
    '[  1 -2 ]\\n[ 30  4 ]'
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from fractions import Fraction

Matrix = list[list[Fraction]]


def multiply(a: Sequence[Sequence[Fraction | int]], b: Sequence[Sequence[Fraction | int]]) -> Matrix:
    """The product, as fractions. Whole-number factors (the usual case: matrices drawn from integers) are
    multiplied as Python integers, which gives the same values several times faster than fraction arithmetic."""
    whole_a, whole_b = _whole(a), _whole(b)
    if whole_a is not None and whole_b is not None:
        columns = list(zip(*whole_b))
        return [[Fraction(sum(map(operator.mul, row, col))) for col in columns] for row in whole_a]
    return [[sum((Fraction(x) * Fraction(y) for x, y in zip(row, col)), Fraction(0)) for col in zip(*b)] for row in a]


def _whole(m: Sequence[Sequence[Fraction | int]]) -> list[list[int]] | None:
    """``m`` as Python integers when every entry is a whole number, else None."""
    rows = []
    for row in m:
        values = []
        for v in row:
            if isinstance(v, Fraction):
                if v.denominator != 1:
                    return None
                v = v.numerator
            elif not isinstance(v, int):
                return None
            values.append(int(v))
        rows.append(values)
    return rows


def identity(n: int) -> Matrix:
    return [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]


def unimodular(rng: random.Random, n: int, steps: int, top: int = 2) -> Matrix:
    """An integer matrix with determinant ±1 (so its inverse is an integer matrix): row operations on I."""
    m = [[int(i == j) for j in range(n)] for i in range(n)]  # whole numbers throughout: integer arithmetic
    for _ in range(steps):
        i, j = rng.sample(range(n), 2)
        factor = rng.choice([v for v in range(-top, top + 1) if v])
        m[i] = [a + factor * b for a, b in zip(m[i], m[j])]
    rng.shuffle(m)
    return [[Fraction(v) for v in row] for row in m]


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
