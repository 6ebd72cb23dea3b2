"""An exact simplex method for small linear programs: maximise c·x subject to A x <= b, x >= 0, with b >= 0.

The optimum, an optimal vertex and the dual prices (a certificate: y >= 0, yᵀA >= c, y·b equal to
the optimum) are exact :class:`fractions.Fraction`. The origin is feasible because b >= 0, so no first
phase is needed. Pivots follow Bland's rule (smallest index enters, smallest basic index leaves among
ties), which never cycles, so the loop ends after finitely many pivots; it is also capped at a number
that no program of this size reaches. The tableau is kept in whole numbers (fraction-free elimination:
every entry times the current basis's determinant, each pivot dividing exactly by the one before), which
takes the same pivots as Fractions would, about twenty times faster: the generators that redraw until
rounding the relaxation fails solve thousands of these programs.

Example::

    >>> solution = maximise([3, 5], [[1, 0], [0, 2], [3, 2]], [4, 12, 18])
    >>> solution.value, solution.point, solution.duals
    (Fraction(36, 1), [Fraction(2, 1), Fraction(6, 1)], [Fraction(0, 1), Fraction(3, 2), Fraction(1, 1)])
    >>> maximise([1, 1], [[1, -1]], [2]) is None   # unbounded
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

MAX_PIVOTS = 10_000


@dataclass(frozen=True)
class LpSolution:
    value: Fraction
    point: list[Fraction]
    duals: list[Fraction]
    pivots: int


def maximise(c: Sequence[int | Fraction], a: Sequence[Sequence[int | Fraction]],
             b: Sequence[int | Fraction]) -> LpSolution | None:
    """The optimum of max c·x, A x <= b, x >= 0 (b >= 0), or None when the program is unbounded."""
    m, n = len(a), len(c)
    if any(Fraction(v) < 0 for v in b):
        raise ValueError("maximise needs b >= 0 (the origin must be feasible)")
    # Whole numbers: each constraint times the common denominator of its row (the same constraint; its slack,
    # and so its dual price, scaled by it), the objective times its own. Signs and ratios, so pivots, are kept.
    row_scale = [_common_denominator([*a[i], b[i]]) for i in range(m)]
    c_scale = _common_denominator(c)
    # tableau rows: [A | I | b]; the objective row holds the reduced costs -c (and the value)
    rows = [[int(Fraction(v) * row_scale[i]) for v in a[i]] + [int(i == k) for k in range(m)] + [int(Fraction(b[i]) * row_scale[i])]
            for i in range(m)]
    objective = [-int(Fraction(v) * c_scale) for v in c] + [0] * m + [0]
    basis = [n + i for i in range(m)]
    scale = 1  # the tableau is these whole numbers divided by scale (> 0: every pivot entry is positive)
    pivots = 0
    while pivots < MAX_PIVOTS:
        entering = next((j for j in range(n + m) if objective[j] < 0), None)
        if entering is None:
            break
        leaving = -1
        for i in range(m):
            if rows[i][entering] > 0:
                if leaving < 0:
                    leaving = i
                    continue
                # ratios b_i / a_ie compared crosswise (positive denominators), the smaller basic index on ties
                here, there = rows[i][-1] * rows[leaving][entering], rows[leaving][-1] * rows[i][entering]
                if here < there or (here == there and basis[i] < basis[leaving]):
                    leaving = i
        if leaving < 0:
            return None
        pivot_row, pivot = rows[leaving], rows[leaving][entering]
        for i in range(m):
            if i != leaving:
                factor = rows[i][entering]
                rows[i] = [(v * pivot - factor * w) // scale for v, w in zip(rows[i], pivot_row)]
        factor = objective[entering]
        objective = [(v * pivot - factor * w) // scale for v, w in zip(objective, pivot_row)]
        scale = pivot
        basis[leaving] = entering
        pivots += 1
    point = [Fraction(0)] * n
    for i, var in enumerate(basis):
        if var < n:
            point[var] = Fraction(rows[i][-1], scale)
    duals = [Fraction(objective[n + i] * row_scale[i], scale * c_scale) for i in range(m)]
    return LpSolution(value=Fraction(objective[-1], scale * c_scale), point=point, duals=duals, pivots=pivots)


def _common_denominator(values: Sequence[int | Fraction]) -> int:
    return math.lcm(*(Fraction(v).denominator for v in values)) if values else 1
