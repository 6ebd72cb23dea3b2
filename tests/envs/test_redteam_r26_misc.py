"""Red-team regressions, session 26 (misc): three measured leftovers of session 25.

- algorithms/interval_scheduling v2: "keep the activity with the fewest conflicts first" chose a maximum set
  in 1.00 of levels 2 and 4 (it fails on about 1% of random draws), "drop the activity with the most
  conflicts first" in 0.91 of level 2 and 0.65 of level 4; v3 plants a trap both rules fall into.

Each policy is written here from scratch (not imported from the fixed code), so the tests fail on the old
generators.
"""

from __future__ import annotations

import pytest

import palaestra
from palaestra.kit.base import sample

SEEDS = range(12)


def _paid(env_id: str, level: int, policy) -> int:
    return sum(
        palaestra.score(p, f"<answer>{policy(p)}</answer>").correct
        for p in (sample(env_id, level, seed) for seed in SEEDS)
    )


def _conflicts(spans: list[list[int]]) -> list[set[int]]:
    return [
        {j for j, (s, e) in enumerate(spans) if j != i and s < end and start < e}
        for i, (start, end) in enumerate(spans)
    ]


def _fewest_conflicts_first(problem) -> str:
    spans, names = problem.data["spans"], problem.data["names"]
    near, left, kept = _conflicts(spans), set(range(len(spans))), []
    while left:
        pick = min(left, key=lambda i: (len(near[i] & left), spans[i][1], i))
        kept.append(pick)
        left -= near[pick] | {pick}
    return ", ".join(names[i] for i in kept)


def _drop_most_conflicting(problem) -> str:
    spans, names = problem.data["spans"], problem.data["names"]
    near, left = _conflicts(spans), set(range(len(spans)))
    while any(near[i] & left for i in left):
        left.discard(max(left, key=lambda i: (len(near[i] & left), i)))
    return ", ".join(names[i] for i in sorted(left))


@pytest.mark.parametrize("level", [2, 4])
def test_interval_scheduling_conflict_counting_rules_earn_nothing(level):
    assert _paid("algorithms/interval_scheduling", level, _fewest_conflicts_first) == 0
    assert _paid("algorithms/interval_scheduling", level, _drop_most_conflicting) == 0


def test_interval_scheduling_rules_are_real_rules():
    """Both rules solve the easiest level (they are right on most random draws)."""
    assert _paid("algorithms/interval_scheduling", 0, _fewest_conflicts_first) >= 10
    assert _paid("algorithms/interval_scheduling", 0, _drop_most_conflicting) >= 10
