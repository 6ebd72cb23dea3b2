"""Red-team regressions, round 40: strperiod.

strings/period v4: "the first position where the string's first k letters recur" answered, at levels 0-4 (40
seeds a level), 0.53/0.45/0.40/0.25/0.35 for k = 8 and 0.70/0.55/0.53/0.40/0.45 for k = 10 (a decoy inside the
word cannot be longer than the word). The decoy now runs across the word's end (all but two to five letters of
the period) and the period exceeds half the length plus two, so every k answers 0 at levels 0-7.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.strings.period import prefix_recurrence

PERIOD = "strings/period"
SEEDS = range(25)


@pytest.mark.parametrize("level", range(5))
def test_period_prefix_recurrence_earns_nothing_for_any_prefix_length(level: int) -> None:
    source = make_source(PERIOD)
    problems = [source.sample(level, seed) for seed in SEEDS]
    length = len(problems[0].data["text"])
    for letters in (*range(3, 13), length // 4, length // 3, length // 2, length // 2 + 3):
        share = sum(
            source.verify(p, str(prefix_recurrence(p.data["text"], letters))).reward for p in problems
        ) / len(problems)
        assert share <= 0.15, (level, letters, share)


@pytest.mark.parametrize("level", range(5))
def test_period_reference_still_solves_and_answers_spread(level: int) -> None:
    source = make_source(PERIOD)
    problems = [source.sample(level, seed) for seed in SEEDS]
    assert all(source.verify(p, p.answer).reward == 1.0 for p in problems)
    assert len({p.answer for p in problems}) >= 10
