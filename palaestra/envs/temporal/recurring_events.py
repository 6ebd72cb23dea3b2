"""The k-th occurrence of a recurring event: "the second Tuesday of each month", "the last working day", ...

A rule in words fixes one date per month (the n-th given weekday, the last given weekday, the last working
day Monday-Friday, the n-th working day, the first given weekday on or after a day of the month) or one
date every few weeks from a stated first occurrence; from level 2 some months are skipped ("except in July
and August"). Counting from a start date (inclusive: an occurrence on that day is the first), the question
asks the date of the k-th occurrence. The date is a function of the rule, the start and k, so the answer is
unique; every date is computed from day numbers (:mod:`palaestra.envs.temporal.common`, the proleptic
Gregorian calendar) and the weekday of the start date is stated, so no weekday table is needed. The verifier
reads one date (``2031-03-14``, ``14 March 2031``, ``March 14, 2031``, optionally with its weekday, which
must then be right) and says when the answer is an occurrence too early or too late, or no occurrence at all.

Version 2: half the problems start on a meeting day (3% did), so counting from the day after the start
(the exclusive reading the prompt rules out) is wrong half the time, not 3%.

Version 3: every stated clause decides. The dates of each problem cross a 29 February that one misreading of the
leap rule gets wrong (a century year's missing one, or an ordinary leap year's), where before a solver ignoring
the century exception was right on 1.00 of every level and one counting no leap days on 0.95-0.45 (levels 0-4);
now 0.38-0.58 and 0.45-0.63 (each is right only on the other half). Half the "first X on or after day d" problems
start in the week after a meeting on day d itself, so reading "on or after" as "after" counts one meeting more:
that reading answered 0.93-1.00 of those problems, now 0.45. From a meeting day at least the second meeting is
asked: "the start date itself" answered 0.17 of level 0 (the first meeting counted from a meeting day), now 0.

Version 4: the skipped months decide whenever they are stated: one of them holds one of the first k meetings of the
rule without them. Ignoring the clause answered 0.35 of the level-2 problems stating one (0.05 at level 3), now 0.
:func:`misread_answer` is each misreading's answer (a :class:`Calendar` with another leap rule, counted from
the stated weekday of the start).

Difficulty: log2 of the months (or periods) spanned by the k occurrences, plus the rule's tier, plus one
when months are skipped.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.temporal.common import (
    MONTHS,
    WEEKDAYS,
    civil_date,
    day_number,
    iso,
    long_date,
    month_length,
    read_dated,
    weekday,
)
from palaestra.generators.wording import ordinal

EXAMPLE_DATE = "1111-11-11"  # a fixed placeholder, never derived from the answer
ORDINALS = ("first", "second", "third", "fourth", "fifth")
CENTURY_YEARS = (1900, 2100, 2200)  # century years that are not leap years
LEAP_YEARS = tuple(year for year in range(1904, 2200, 4) if year != 2100)
RULES = {"nth_weekday": 1, "last_weekday": 1, "every_weeks": 1, "last_working": 2, "weekday_after": 2,
         "nth_working": 3}  # rule -> tier


def _weekday_index(number: int) -> int:
    return (number + 3) % 7  # 0 = Monday; 1970-01-01 (day 0) was a Thursday


class Calendar:
    """Day numbers, month lengths and dates under a leap rule: the Gregorian one the prompt states, or a misreading
    of it ("julian": every fourth year a leap year; "none": no leap years). A misread calendar's day numbers agree
    with the true ones on ``anchor``, the start date, whose weekday the prompt states: a solver counts weekdays
    from there, so its weekdays drift from the true ones once it passes a 29 February it gets wrong."""

    def __init__(self, leap_rule: str = "gregorian", anchor: int = 0) -> None:
        self.leap_rule = leap_rule
        self.offset = 0
        self.offset = anchor - self.day_number(*civil_date(anchor)) if leap_rule != "gregorian" else 0

    def is_leap(self, year: int) -> bool:
        return self.leap_rule != "none" and year % 4 == 0 and (
            self.leap_rule == "julian" or year % 100 != 0 or year % 400 == 0)

    def month_length(self, year: int, month: int) -> int:
        if self.leap_rule == "gregorian":
            return month_length(year, month)
        return (31, 29 if self.is_leap(year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]

    def day_number(self, year: int, month: int, day: int) -> int:
        if self.leap_rule == "gregorian":
            return day_number(year, month, day)
        leaps = (year - 1) // 4 if self.leap_rule == "julian" else 0  # leap days before the year (years 1 on)
        return (365 * (year - 1) + leaps + sum(self.month_length(year, m) for m in range(1, month)) + day
                + self.offset)

    def civil_date(self, number: int) -> tuple[int, int, int]:
        if self.leap_rule == "gregorian":
            return civil_date(number)
        year = (number - self.offset) // 366 + 1  # at or below the year; a few steps up find it
        while self.day_number(year + 1, 1, 1) <= number:
            year += 1
        month, day = 1, number - self.day_number(year, 1, 1) + 1
        while day > self.month_length(year, month):
            day -= self.month_length(year, month)
            month += 1
        return year, month, day


GREGORIAN = Calendar()


def month_occurrence(rule: dict[str, Any], year: int, month: int, calendar: Calendar = GREGORIAN) -> int:
    """The day number of the rule's date in the month."""
    first, days = calendar.day_number(year, month, 1), calendar.month_length(year, month)
    last = first + days - 1
    kind = rule["kind"]
    if kind == "nth_weekday":
        offset = (rule["weekday"] - _weekday_index(first)) % 7
        return first + offset + 7 * (rule["n"] - 1)
    if kind == "last_weekday":
        return last - (_weekday_index(last) - rule["weekday"]) % 7
    if kind == "last_working":
        return last - max(0, _weekday_index(last) - 4)
    if kind == "weekday_after":
        start = first + rule["day"] - 1
        return start + (rule["weekday"] - _weekday_index(start)) % 7
    # nth_working: the n-th Monday-Friday day of the month
    count, here = 0, first
    while True:
        if _weekday_index(here) < 5:
            count += 1
            if count == rule["n"]:
                return here
        here += 1


def occurrences(rule: dict[str, Any], start: int, count: int, calendar: Calendar = GREGORIAN) -> list[int]:
    """The first ``count`` occurrences on or after ``start`` (day numbers of ``calendar``)."""
    found: list[int] = []
    if rule["kind"] == "every_weeks":
        here = rule["first"]
        step = 7 * rule["weeks"]
        if here < start:
            here += -(-(start - here) // step) * step
        while len(found) < count:
            if calendar.civil_date(here)[1] not in rule["skip"]:
                found.append(here)
            here += step
        return found
    year, month, _ = calendar.civil_date(start)
    while len(found) < count:
        if month not in rule["skip"]:
            day = month_occurrence(rule, year, month, calendar)
            if day >= start:
                found.append(day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return found


def misread_answer(rule: dict[str, Any], start: int, count: int, misreading: str) -> int:
    """The k-th occurrence as a solver finds it who ignores one clause of the prompt: the leap rule's century
    exception ("julian"), leap years altogether ("none"), the "on" of "on or after" ("after"), or the skipped
    months ("skip")."""
    if misreading == "skip":
        return occurrences({**rule, "skip": []}, start, count)[-1]
    if misreading == "after":
        return occurrences({**rule, "day": rule["day"] + 1}, start, count)[-1]
    calendar = Calendar(misreading, anchor=start)
    if rule["kind"] == "every_weeks":  # the solver reaches the stated first date through its own calendar
        rule = {**rule, "first": calendar.day_number(*civil_date(rule["first"]))}
    day = occurrences(rule, start, count, calendar)[-1]
    return day_number(*calendar.civil_date(day))


def describe(rule: dict[str, Any]) -> str:
    kind = rule["kind"]
    if kind == "nth_weekday":
        text = f"on the {ORDINALS[rule['n'] - 1]} {WEEKDAYS[rule['weekday']]} of every month"
    elif kind == "last_weekday":
        text = f"on the last {WEEKDAYS[rule['weekday']]} of every month"
    elif kind == "last_working":
        text = "on the last working day (Monday to Friday) of every month"
    elif kind == "weekday_after":
        text = (f"on the first {WEEKDAYS[rule['weekday']]} on or after the {rule['day']}th of every month"
                if rule["day"] > 3 else f"on the first {WEEKDAYS[rule['weekday']]} on or after day {rule['day']} "
                                        "of every month")
    elif kind == "nth_working":
        text = f"on the {ORDINALS[rule['n'] - 1]} working day (counting Monday to Friday only) of every month"
    else:
        text = (f"every {rule['weeks']} weeks" if rule["weeks"] > 1 else "every week") + \
            f", the first time on {long_date(rule['first'])} (a {weekday(rule['first'])})"
    if rule["skip"]:
        names = [MONTHS[m - 1] for m in rule["skip"]]
        skipped = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        text += f", except that there is no meeting in {skipped}" + (
            " (a date falling in such a month is simply dropped)" if rule["kind"] == "every_weeks" else "")
    return text


@register
class RecurringEvents(Task):
    id = "temporal/recurring_events"
    family = "temporal"
    description = "The date of the k-th occurrence of a rule such as 'the last working day of each month'."
    tags = ("temporal", "calendar", "recurrence")
    # v3: the leap rule, "on or after" and the inclusive start each decide; never the start date
    version = 4  # v4: a skipped month always holds one of the first k meetings

    @dataclass(frozen=True)
    class Config:
        tier: int  # rules up to this tier
        count: int  # the k asked is drawn from 1..count
        skips: int  # at most this many skipped months

    presets = (Config(1, 3, 0), Config(2, 6, 0), Config(2, 12, 1), Config(3, 24, 2), Config(3, 48, 3))
    growth = Growth(factors={"count": 2}, limits={"count": 6_000, "skips": 3})  # 500 years at most: dates stay below 9999

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice([k for k, tier in RULES.items() if tier <= config.tier])
        rule: dict[str, Any] = {"kind": kind, "skip": []}
        skips = rng.randint(0, config.skips)
        if kind in ("nth_weekday", "last_weekday", "weekday_after"):
            rule["weekday"] = rng.randrange(7)
        if kind == "nth_weekday":
            rule["n"] = rng.randint(1, 4)
        if kind == "nth_working":
            rule["n"] = rng.randint(1, 5)
        if kind == "weekday_after":
            rule["day"] = rng.randint(2, 22)  # the weekday after it stays within a February
        if kind == "every_weeks":
            rule["weeks"] = rng.randint(1, 4)
        on_meeting_day = rng.random() < 0.5  # half the time the count starts on a meeting day, so "inclusive" decides
        # from a meeting day at least the second meeting is asked: the first is the start date, printed in the prompt
        count = rng.randint(max(1 + on_meeting_day, config.count // 2), config.count)
        # every problem's dates cross a 29 February that one misreading of the leap rule gets wrong: a century
        # year's missing one (every fourth year a leap year) or an ordinary leap year's (no leap years at all)
        misreading = rng.choice(("julian", "none"))
        years = CENTURY_YEARS if misreading == "julian" else LEAP_YEARS
        reach = count * (7 * rule["weeks"] if kind == "every_weeks" else 31) + 31 * skips * count // 12

        def draw() -> tuple[int, list[int]] | None:
            rule["skip"] = []  # drawn once the start is known
            start = day_number(rng.choice(years), 3, 1) - rng.randint(1, reach)
            if kind == "every_weeks":
                rule["first"] = start - rng.randint(0, 400)
            misreadings = [misreading]
            if kind == "weekday_after" and not on_meeting_day:
                # the start falls in the week after a meeting on the stated day itself: reading "on or after"
                # as "after" moves that meeting past the start and counts it
                year, month, _ = civil_date(start)
                meeting = day_number(year, month, rule["day"])
                rule["weekday"] = _weekday_index(meeting)
                start = meeting + rng.randint(1, 7)
                misreadings.append("after")
            elif on_meeting_day:
                start = occurrences(rule, start, 1)[0]
            if skips:
                # one skipped month holds one of the first k meetings, so ignoring the clause counts too few months;
                # never the start's month, which would undo the meeting on the start or the one just before it
                start_month = civil_date(start)[1]
                held = sorted({civil_date(day)[1] for day in occurrences(rule, start, count)} - {start_month})
                if not held:
                    return None
                first = rng.choice(held)
                others = [m for m in range(1, 13) if m not in (first, start_month)]
                rule["skip"] = sorted([first, *rng.sample(others, skips - 1)])
            dates = occurrences(rule, start, count)
            if any(misread_answer(rule, start, count, m) == dates[-1] for m in misreadings):
                return None
            return start, dates

        start, dates = retry(draw, what="dates that the misread clauses get wrong")
        answer = dates[-1]
        prompt = (
            "Use the Gregorian calendar (a year divisible by 4 is a leap year, except a year divisible by 100 that "
            "is not divisible by 400). Working days are Monday to Friday.\n\n"
            f"A club meets {describe(rule)}. Counting from {long_date(start)}, which is a {weekday(start)} "
            f"(a meeting on that very day counts as the first), what is the date of the {ordinal(count)} "
            f"meeting? Answer with the date as YYYY-MM-DD, for example: {EXAMPLE_DATE}"
        )
        data = {"rule": rule, "start": start, "count": count, "answer": answer,
                "previous": dates[-2] if count > 1 else None, "span": answer - start}
        return Problem(prompt=prompt, answer=iso(answer), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        read = read_dated(answer)
        if read is None:
            return Verdict.unparsed("expected one date such as 1111-11-11")
        date, named = read
        target = problem.data["answer"]
        if named is not None and named != weekday(date):
            return Verdict.wrong(f"{iso(date)} is not a {named}")
        if date == target:
            return Verdict.right()
        data = problem.data
        if date < target and date >= data["start"]:
            near = occurrences(data["rule"], data["start"], data["count"])
            if date in near:
                return Verdict.wrong(f"that is the meeting number {near.index(date) + 1}, an earlier one")
        if date > target and date - target < 800:
            later = occurrences(data["rule"], data["start"], data["count"] + 24)
            if date in later:
                return Verdict.wrong(f"that is the meeting number {later.index(date) + 1}, a later one")
        return Verdict.wrong("no meeting of the rule falls on that date, or it is far off")

    def difficulty(self, problem: Problem) -> float:
        """log2 of the days spanned, plus the rule's tier, plus one when months are skipped."""
        data = problem.data
        return math.log2(2 + data["span"]) + RULES[data["rule"]["kind"]] + bool(data["rule"]["skip"])

    def spellings(self, problem: Problem) -> list[str]:
        target = problem.data["answer"]
        year, month, day = civil_date(target)
        return [*super().spellings(problem), long_date(target), f"{MONTHS[month - 1]} {day}, {year}",
                f"{weekday(target)}, {long_date(target)}", f"\\boxed{{{iso(target)}}}",
                f"It falls on {iso(target)}.", f"Answer: {iso(target)} ({weekday(target)})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        target = data["answer"]
        later = occurrences(data["rule"], data["start"], data["count"] + 1)[-1]
        wrong = [later, target + 7, target - 7, target + 1]
        if data["previous"] is not None:
            wrong.append(data["previous"])
        return [*(iso(w) for w in wrong if w != target), f"{iso(target)} or {iso(later)}",
                f"{iso(target)}, {weekday(target + 1)}"]

