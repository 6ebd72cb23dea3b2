from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from palaestra.baselines.passk import mean_pass_at_k, pass_at_k


def brute_force(n: int, c: int, k: int) -> float:
    """The share of k-subsets of n samples (the first c correct) that hold a correct one."""
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(i < c for i in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_matches_enumeration_of_all_subsets(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(brute_force(n, c, k), abs=1e-12)


def test_stable_where_binomials_are_huge() -> None:
    n, c, k = 2000, 700, 300  # C(2000, 300) has ~390 digits; no float could hold it
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert pass_at_k(n, c, k) == pytest.approx(float(exact), rel=1e-9)
    assert pass_at_k(1000, 1, 1) == pytest.approx(0.001)
    assert pass_at_k(1000, 0, 500) == 0.0 and pass_at_k(1000, 501, 500) == 1.0


def test_rejects_impossible_arguments() -> None:
    for n, c, k in [(5, 6, 1), (5, -1, 1), (5, 2, 0), (5, 2, 6)]:
        with pytest.raises(ValueError):
            pass_at_k(n, c, k)


def test_mean_leaves_out_problems_with_too_few_samples() -> None:
    assert mean_pass_at_k([(4, 0), (4, 4), (1, 1)], k=2) == (0.5, 2)
    assert mean_pass_at_k([(4, 2), (1, 1)], k=1) == (0.75, 2)
    value, counted = mean_pass_at_k([(1, 1)], k=2)
    assert math.isnan(value) and counted == 0
