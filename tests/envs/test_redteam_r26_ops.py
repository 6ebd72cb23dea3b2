"""Red-team regressions (round 3, session 26, operations/games): measured leftovers of session 25.

- operations/shift_scheduling v2 filtered out the problems where rounding the LP relaxation is optimal at
  levels 2-4 only (the exact LP in Fractions cost ~10 ms a draw and most draws past 8 days have an integral
  LP). From level 5 on, rounding the relaxation's vertex up was optimal in 0.72 (level 5), 0.84 (6), 0.89
  (8) and 0.99 (10) of the problems; rounding it down and repairing greedily in 0.79, 0.91, 0.91, 1.00.
  v3 solves the same LP on integers (the same Bland pivots, so the same vertex, twenty times faster),
  applies the filter at every level and draws the demands of longer cycles near the top, where the LP is
  fractional: both roundings 0.00 at levels 5-12, generation ~10 ms.

The policies are written here from scratch over the shared exact simplex (not imported from the env), so
the tests fail on the old generator.
"""

from __future__ import annotations

import math

import pytest

import palaestra
from palaestra.kit.base import sample
from palaestra.solvers.lp import maximise

SHIFTS = "operations/shift_scheduling"


def _vertex(demand: list[int]) -> list:
    n, k = len(demand), len(demand) - 2
    blocks = [[1 if (j - s) % n < k else 0 for j in range(n)] for s in range(n)]
    return maximise(demand, blocks, [1] * n).duals


def _covers(demand: list[int], starts: list[int]) -> bool:
    n = len(demand)
    return all(sum(starts[(j - i) % n] for i in range(n - 2)) >= need for j, need in enumerate(demand))


def _rounded_down_repaired(demand: list[int]) -> list[int]:
    """Round the vertex down, add a worker where the most unmet days are covered until all are, drop spares."""
    n, k = len(demand), len(demand) - 2
    starts = [math.floor(v) for v in _vertex(demand)]
    while not _covers(demand, starts):
        have = [sum(starts[(j - i) % n] for i in range(k)) for j in range(n)]
        gain = [sum(have[(s + i) % n] < demand[(s + i) % n] for i in range(k)) for s in range(n)]
        starts[max(range(n), key=lambda s: (gain[s], -s))] += 1
    for s in range(n):
        while starts[s] > 0:
            starts[s] -= 1
            if not _covers(demand, starts):
                starts[s] += 1
                break
    return starts


def _paid(level: int, rule, seeds) -> int:
    paid = 0
    for seed in seeds:
        problem = sample(SHIFTS, level, seed)
        starts = rule(problem.data["demand"])
        reply = ", ".join(f"D{j + 1} = {v}" for j, v in enumerate(starts))
        paid += palaestra.score(problem, f"<answer>{reply}</answer>").correct
    return paid


@pytest.mark.parametrize("level", [5, 6, 10])
def test_shift_scheduling_lp_rounding_is_not_optimal_past_the_presets(level):
    # v2 at these levels: rounding up optimal in 0.72 / 0.84 / 0.99 of the problems, down+repair 0.79 / 0.91 / 1.00
    seeds = range(6)
    assert _paid(level, lambda d: [math.ceil(v) for v in _vertex(d)], seeds) == 0
    assert _paid(level, _rounded_down_repaired, seeds) == 0
