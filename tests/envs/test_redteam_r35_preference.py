"""Red team r35: interactive/preference_elicitation v6 let a player that knows the weights assume the features.

Every feature was a must-have or did not matter, and rentals had each feature seven times in ten, so the favourite
mostly had them all: knowing the weights and assuming every feature a must-have won 0.77, 0.81, 0.85, 0.72, 0.47 of
levels 0-4 (100 seeds). v7: a feature can also be a deal-breaker, and a table is kept only when assuming every
feature a must-have (or a deal-breaker) wins at most ``ASSUMED_SHARE`` of its draws.
"""

from __future__ import annotations

from typing import Any

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.interactive.preference_elicitation import _score

RENTALS = make_source("interactive/preference_elicitation")
SEEDS = 60


def _best_with(data: dict[str, Any], keep: Any) -> int:
    """The rental the user's weights score best among those ``keep(row)`` allows (all when none; ties: earlier)."""
    pool = [i for i, row in enumerate(data["rentals"]) if keep(row)] or list(range(len(data["rentals"])))
    return max(pool, key=lambda i: (_score(data, i), -i))


def _share(level: int, keep: Any) -> float:
    problems = [RENTALS.sample(level, seed).data for seed in range(SEEDS)]
    return sum(_best_with(data, lambda row: keep(data, row)) == data["favourite"] for data in problems) / SEEDS


@pytest.mark.parametrize("level", range(5))
def test_assuming_every_feature_a_must_have_fails(level: int) -> None:
    assert _share(level, lambda data, row: all(row[f] for f in data["features"])) <= 0.4, level


@pytest.mark.parametrize("level", range(5))
def test_assuming_no_feature_matters_fails(level: int) -> None:
    assert _share(level, lambda data, row: True) <= 0.4, level


def test_the_true_stances_find_the_favourite() -> None:
    def suits(data: dict[str, Any], row: dict[str, Any]) -> bool:
        features = data["features"]
        return all(row[f] for f in features if data["needs"][f]) and not any(
            row[f] for f in features if data["refuses"][f])

    assert all(_share(level, suits) == 1 for level in range(5))
