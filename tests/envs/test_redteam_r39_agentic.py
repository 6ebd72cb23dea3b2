"""Red-team regressions from the second look at the agentic envs last tested in round 3 session 27 or earlier
(round 3, session 39, agentic).

- tools/date_arithmetic v2: counting the weekdays and subtracting how many holidays the prompt lists, no holiday
  checked, was right in 100% of the holiday counts (half of levels 3-4) -> 0%; "how many months have a Friday
  the 13th", answered round(months / 7) with no calendar read, was right in 40-50% of them (0.24 of level 2,
  0.21 of level 3) -> "the date of the k-th Friday the 13th after a date", estimated right in 4-9%.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from palaestra.core.registry import make_source

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def _weekdays(start: date, end: date, holidays: set[str]) -> int:
    days = (start + timedelta(days=i) for i in range((end - start).days + 1))
    return sum(1 for day in days if day.weekday() < 5 and day.isoformat() not in holidays)


def test_date_arithmetic_holiday_count_is_not_the_listed_count() -> None:
    source = make_source("tools/date_arithmetic")
    asked = subtracted = 0
    for level in (3, 4):
        for seed in range(40):
            problem = source.sample(level, 39_000 + seed)
            if problem.data["kind"] != "weekdays_holidays":
                continue
            dates = re.findall(r"\d{4}-\d\d-\d\d", problem.prompt.split("\n")[0])
            start, end, holidays = date.fromisoformat(dates[0]), date.fromisoformat(dates[1]), set(dates[2:])
            asked += 1
            assert source.judge(problem, str(_weekdays(start, end, holidays))).correct, (level, seed)
            subtracted += source.judge(problem, str(_weekdays(start, end, set()) - len(holidays))).correct
    assert asked >= 20 and subtracted == 0, (asked, subtracted)


def _friday13_estimate(prompt: str) -> str | None:
    """A calendar-free guess: about one month in seven has a Friday the 13th."""
    counted = re.search(r"How many months from (\w+) (\d+) to (\w+) (\d+)", prompt)
    if counted:
        first = int(counted[2]) * 12 + MONTHS.index(counted[1])
        return str(round((int(counted[4]) * 12 + MONTHS.index(counted[3]) - first + 1) / 7))
    dated = re.search(r"the (\d+)\w\w Friday the 13th after \w+ (\d{4}-\d\d-\d\d)", prompt)
    if dated:
        start = date.fromisoformat(dated[2])
        month = start.year * 12 + start.month - 1 + round(int(dated[1]) * 4800 / 688)
        return date(month // 12, month % 12 + 1, 13).isoformat()
    return None


def test_date_arithmetic_friday13_not_estimated_from_the_span() -> None:
    source = make_source("tools/date_arithmetic")
    asked = estimated = 0
    for level in (2, 3):
        for seed in range(40):
            problem = source.sample(level, 39_000 + seed)
            guess = _friday13_estimate(problem.prompt)
            if guess is None:
                continue
            asked += 1
            estimated += source.judge(problem, guess).correct
    assert asked >= 25 and estimated <= 0.15 * asked, (asked, estimated)


def test_date_arithmetic_friday13_reference_is_the_kth_after_the_date() -> None:
    source = make_source("tools/date_arithmetic")
    for seed in range(30):
        problem = source.sample(3, 39_000 + seed)
        dated = re.search(r"the (\d+)\w\w Friday the 13th after \w+ (\d{4}-\d\d-\d\d)", problem.prompt)
        if not dated:
            continue
        day, left = date.fromisoformat(dated[2]), int(dated[1])
        while left:
            day += timedelta(days=1)
            left -= day.day == 13 and day.weekday() == 4
        assert problem.answer == day.isoformat(), seed
        assert source.judge(problem, f"Friday, {day:%B} {day.day}, {day.year}").correct, seed
        assert not source.judge(problem, (day + timedelta(days=7)).isoformat()).correct, seed
