"""Red-team regressions (round 3, session 37): second look at deduction, causal, temporal, strings, languages.

temporal/recurring_events (v3): clauses the prompt states but no problem put to the test. Ignoring the leap rule's
century exception answered 1.00 of every level and counting no leap days 0.95 of level 0 (40 seeds a level); the
dates now cross a 29 February that one of these misreadings gets wrong (each answers 0.38-0.63 now, right only on
the other half). Reading "first X on or after day d" as "after day d" answered 0.93-1.00 of those problems, now
0.45; and "the start date itself" answered 0.17 of level 0 (the first meeting counted from a meeting day), now 0.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.temporal.common import day_number, iso
from palaestra.envs.temporal.recurring_events import Calendar, misread_answer, occurrences

SEEDS = 30


@pytest.mark.parametrize("level", [0, 2, 4])
def test_recurring_events_leap_rule_misreadings_go_wrong(level):
    task = make_source("temporal/recurring_events")
    right = {"julian": 0, "none": 0}
    for seed in range(SEEDS):
        problem = task.sample(level, seed)
        data = problem.data
        assert occurrences(data["rule"], data["start"], data["count"])[-1] == data["answer"]
        assert task.verify(problem, problem.answer).reward == 1.0
        for misreading in right:
            right[misreading] += misread_answer(data["rule"], data["start"], data["count"], misreading) == data["answer"]
        # each problem is lost by at least one misreading of the leap rule
        assert not all(misread_answer(data["rule"], data["start"], data["count"], m) == data["answer"] for m in right)
    assert all(count / SEEDS <= 0.7 for count in right.values()), right


def test_recurring_events_on_or_after_decides():
    task = make_source("temporal/recurring_events")
    after = total = 0
    for level in (1, 3):
        for seed in range(120):
            data = task.sample(level, seed).data
            if data["rule"]["kind"] == "weekday_after":
                total += 1
                after += misread_answer(data["rule"], data["start"], data["count"], "after") == data["answer"]
    assert total >= 15 and after / total <= 0.6, (after, total)


def test_recurring_events_never_asks_the_start_date():
    task = make_source("temporal/recurring_events")
    for seed in range(SEEDS):
        problem = task.sample(0, seed)
        assert task.verify(problem, iso(problem.data["start"])).reward == 0.0


def test_misread_calendars_on_hand_checked_dates():
    start = day_number(1900, 2, 10)
    julian, none = Calendar("julian", anchor=start), Calendar("none", anchor=start)
    assert julian.day_number(1900, 2, 10) == start == none.day_number(1900, 2, 10)
    assert julian.day_number(1900, 3, 1) == day_number(1900, 3, 1) + 1  # a 29 February 1900 in between
    assert none.day_number(1904, 3, 1) == day_number(1904, 3, 1) - 1  # no 29 February 1904
    assert julian.civil_date(julian.day_number(2100, 2, 29)) == (2100, 2, 29)
    # the second Tuesday of April 1900 is the 10th; counting weekdays through a 29 February 1900 gives the 9th
    rule = {"kind": "nth_weekday", "n": 2, "weekday": 1, "skip": []}
    assert iso(occurrences(rule, start, 3)[-1]) == "1900-04-10"
    assert iso(misread_answer(rule, start, 3, "julian")) == "1900-04-09"
