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

Difficulty: log2 of the months (or periods) spanned by the k occurrences, plus the rule's tier, plus one
when months are skipped.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
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

EXAMPLE_DATE = "1111-11-11"  # a fixed placeholder, never derived from the answer
ORDINALS = ("first", "second", "third", "fourth", "fifth")
RULES = {"nth_weekday": 1, "last_weekday": 1, "every_weeks": 1, "last_working": 2, "weekday_after": 2,
         "nth_working": 3}  # rule -> tier


def _weekday_index(number: int) -> int:
    return (number + 3) % 7  # 0 = Monday; 1970-01-01 (day 0) was a Thursday


def month_occurrence(rule: dict[str, Any], year: int, month: int) -> int:
    """The day number of the rule's date in the month."""
    first, days = day_number(year, month, 1), month_length(year, month)
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


def occurrences(rule: dict[str, Any], start: int, count: int) -> list[int]:
    """The first ``count`` occurrences on or after ``start``."""
    found: list[int] = []
    if rule["kind"] == "every_weeks":
        here = rule["first"]
        step = 7 * rule["weeks"]
        if here < start:
            here += -(-(start - here) // step) * step
        while len(found) < count:
            if civil_date(here)[1] not in rule["skip"]:
                found.append(here)
            here += step
        return found
    year, month, _ = civil_date(start)
    while len(found) < count:
        if month not in rule["skip"]:
            day = month_occurrence(rule, year, month)
            if day >= start:
                found.append(day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return found


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
    version = 2

    @dataclass(frozen=True)
    class Config:
        tier: int  # rules up to this tier
        count: int  # the k asked is drawn from 1..count
        skips: int  # at most this many skipped months

    presets = (Config(1, 3, 0), Config(2, 6, 0), Config(2, 12, 1), Config(3, 24, 2), Config(3, 48, 3))
    growth = Growth(factors={"count": 2}, limits={"count": 6_000, "skips": 3})  # 500 years at most: dates stay below 9999

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice([k for k, tier in RULES.items() if tier <= config.tier])
        rule: dict[str, Any] = {"kind": kind, "skip": sorted(rng.sample(range(1, 13), rng.randint(0, config.skips)))}
        if kind in ("nth_weekday", "last_weekday", "weekday_after"):
            rule["weekday"] = rng.randrange(7)
        if kind == "nth_weekday":
            rule["n"] = rng.randint(1, 4)
        if kind == "nth_working":
            rule["n"] = rng.randint(1, 5)
        if kind == "weekday_after":
            rule["day"] = rng.randint(2, 22)  # the weekday after it stays within a February
        start = day_number(rng.randint(1900, 2200), rng.randint(1, 12), 1) + rng.randint(0, 27)
        if kind == "every_weeks":
            rule["weeks"] = rng.randint(1, 4)
            rule["first"] = start - rng.randint(0, 400)
        if rng.random() < 0.5:  # half the time the count starts on a meeting day, so "inclusive" decides
            start = occurrences(rule, start, 1)[0]
        count = rng.randint(max(1, config.count // 2), config.count)
        dates = occurrences(rule, start, count)
        answer = dates[-1]
        prompt = (
            "Use the Gregorian calendar (a year divisible by 4 is a leap year, except a year divisible by 100 that "
            "is not divisible by 400). Working days are Monday to Friday.\n\n"
            f"A club meets {describe(rule)}. Counting from {long_date(start)}, which is a {weekday(start)} "
            f"(a meeting on that very day counts as the first), what is the date of the {_ordinal(count)} "
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


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
