"""An exact simplex method for small linear programs: maximise c·x subject to A x <= b, x >= 0, with b >= 0.

Every number is a :class:`fractions.Fraction`, so the optimum, an optimal vertex and the dual
prices (a certificate: y >= 0, yᵀA >= c, y·b equal to the optimum) are exact. The origin is
feasible because b >= 0, so no first phase is needed. Pivots follow Bland's rule (smallest
index enters, smallest basic index leaves among ties), which never cycles, so the loop ends
after finitely many pivots; it is also capped at a number that no program of this size reaches.

Example::

    >>> solution = maximise([3, 5], [[1, 0], [0, 2], [3, 2]], [4, 12, 18])
    >>> solution.value, solution.point, solution.duals
    (Fraction(36, 1), [Fraction(2, 1), Fraction(6, 1)], [Fraction(0, 1), Fraction(3, 2), Fraction(1, 1)])
    >>> maximise([1, 1], [[1, -1]], [2]) is None   # unbounded
    True
"""

from __future__ import annotations

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
    # tableau rows: [A | I | b]; the objective row holds the reduced costs -c (and the value)
    rows = [[Fraction(v) for v in a[i]] + [Fraction(int(i == k)) for k in range(m)] + [Fraction(b[i])]
            for i in range(m)]
    objective = [-Fraction(v) for v in c] + [Fraction(0)] * m + [Fraction(0)]
    basis = [n + i for i in range(m)]
    pivots = 0
    while pivots < MAX_PIVOTS:
        entering = next((j for j in range(n + m) if objective[j] < 0), None)
        if entering is None:
            break
        best: tuple[Fraction, int] | None = None
        for i in range(m):
            if rows[i][entering] > 0:
                ratio = rows[i][-1] / rows[i][entering]
                if best is None or (ratio, basis[i]) < (best[0], basis[best[1]]):
                    best = (ratio, i)
        if best is None:
            return None
        leaving = best[1]
        pivot = rows[leaving][entering]
        rows[leaving] = [v / pivot for v in rows[leaving]]
        for i in range(m):
            if i != leaving and rows[i][entering] != 0:
                factor = rows[i][entering]
                rows[i] = [v - factor * w for v, w in zip(rows[i], rows[leaving])]
        factor = objective[entering]
        objective = [v - factor * w for v, w in zip(objective, rows[leaving])]
        basis[leaving] = entering
        pivots += 1
    point = [Fraction(0)] * n
    for i, var in enumerate(basis):
        if var < n:
            point[var] = rows[i][-1]
    return LpSolution(value=objective[-1], point=point, duals=objective[n:n + m], pivots=pivots)
