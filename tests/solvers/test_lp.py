"""solvers.lp: the optimum it returns is proved by its own certificate on random programs, fractions included
(the tableau is kept in whole numbers, so the scaling of fractional rows and objectives must be undone exactly)."""

from __future__ import annotations

import random
from fractions import Fraction

from palaestra.solvers.lp import maximise


def _entry(rng: random.Random, fractional: bool) -> int | Fraction:
    value = rng.randint(-6, 9)
    return Fraction(value, rng.randint(1, 5)) if fractional and rng.random() < 0.4 else value


def test_every_optimum_is_certified_by_its_duals_and_an_unbounded_program_has_a_ray() -> None:
    rng = random.Random(7)
    bounded = unbounded = 0
    for trial in range(400):
        m, n, fractional = rng.randint(1, 6), rng.randint(1, 6), trial % 2 == 0
        c = [_entry(rng, fractional) for _ in range(n)]
        a = [[_entry(rng, fractional) for _ in range(n)] for _ in range(m)]
        b = [abs(_entry(rng, fractional)) for _ in range(m)]
        solution = maximise(c, a, b)
        if solution is None:
            # unbounded: some column with a positive price has no positive entry, or the simplex found a ray;
            # at least the origin is feasible and a positive price exists
            assert any(v > 0 for v in c)
            unbounded += 1
            continue
        bounded += 1
        x, y = solution.point, solution.duals
        assert all(v >= 0 for v in x) and all(v >= 0 for v in y)
        assert all(sum(a[i][j] * x[j] for j in range(n)) <= b[i] for i in range(m)), "infeasible point"
        assert all(sum(a[i][j] * y[i] for i in range(m)) >= c[j] for j in range(n)), "infeasible duals"
        value = sum(c[j] * x[j] for j in range(n))
        assert value == solution.value == sum(b[i] * y[i] for i in range(m)), "no strong duality: not optimal"
    assert bounded > 100 and unbounded > 20, (bounded, unbounded)
