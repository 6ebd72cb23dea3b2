"""Date arithmetic in the proleptic Gregorian calendar: add and subtract days, and name the weekday reached.

A start date (years 1700-2300) goes through one or more steps of adding or subtracting a number of days,
crossing month ends and leap years (the Gregorian rule, stated in the prompt, applied to every year). From
level 2 the start date's weekday is stated and the weekday of the date reached is asked too. The date reached
is a function of the steps, so the answer is unique; dates are computed from day numbers (whole 400-year eras
of 146097 days), not from tables. Every intermediate date stays within years 1 to 9999. The verifier reads a
date (``2031-03-14``, ``14 March 2031`` or ``March 14, 2031``) and, where asked, one weekday; it says whether
the date is off by a few days, in the wrong year, or the weekday wrong.

Difficulty: the month ends crossed over all the steps, plus one when the weekday is asked, on the drawn
problem.

Version 2: the leap rule decides every date. Few short steps crossed a 29 February, so counting no leap days at
all answered 0.96 of level 0 and 0.35 of level 2, and hardly any crossed the end of February in a century year,
so ignoring the century exception (every fourth year a leap year) answered 1.00 of level 0 and 0.98 of level 2.
Steps are redrawn until counting without leap days gives another date and, from steps of 1,500 days
(level 2), so does ignoring the century exception.

Generation speed: about 200 problems/s at level 2 on this 2-core machine (thousands at the other levels): about
160 cheap draws per problem there, most of them far from a century year; kept, as the century exception
otherwise hardly ever decides a date below level 4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.temporal.common import (
    MONTHS,
    civil_date,
    day_number,
    iso,
    long_date,
    read_dated,
    weekday,
)

EXAMPLE_DATE, EXAMPLE_WEEKDAY = "1111-11-11", "Saturday"  # fixed placeholders, never derived from the answer
FIRST, LAST = day_number(1, 1, 1), day_number(9999, 12, 31)
CENTURY_SPAN = 1_500  # from steps of this many days, the century exception of the leap rule must decide the date


def month_ends_crossed(start: int, end: int) -> int:
    """Month boundaries between two dates (either order)."""
    (y1, m1, _), (y2, m2, _) = civil_date(min(start, end)), civil_date(max(start, end))
    return (y2 - y1) * 12 + m2 - m1


def _leap(rule: str, year: int) -> bool:
    if rule == "none":
        return False
    return year % 4 == 0 and (rule == "julian" or year % 100 != 0 or year % 400 == 0)


def _ordinal(rule: str, year: int, month: int, day: int) -> int:
    leaps = 0 if rule == "none" else (year - 1) // 4 - (0 if rule == "julian" else (year - 1) // 100 - (year - 1) // 400)
    lengths = [31, 29 if _leap(rule, year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 365 * (year - 1) + leaps + sum(lengths[: month - 1]) + day


def misread_end(start: int, steps: list[int], rule: str) -> tuple[int, int, int]:
    """The (year, month, day) reached when the days are counted with another leap rule: ``julian`` (every fourth
    year, the century exception the prompt states ignored) or ``none`` (no leap years at all)."""
    year, month, day = civil_date(start)
    target = _ordinal(rule, year, month, day) + sum(steps)
    year = max(1, target // 366)
    while _ordinal(rule, year + 1, 1, 1) <= target:
        year += 1
    month = 1
    while month < 12 and _ordinal(rule, year, month + 1, 1) <= target:
        month += 1
    return year, month, target - _ordinal(rule, year, month, 1) + 1


@register
class CalendarArithmetic(Task):
    id = "temporal/calendar_arithmetic"
    family = "temporal"
    description = "A date plus and minus numbers of days across months and leap years, and its weekday."
    tags = ("temporal", "calendar", "arithmetic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        span: int  # the most days in one step
        steps: int  # additions and subtractions in turn
        weekday: bool  # the start's weekday is given and the end's asked

    presets = (Config(60, 1, False), Config(400, 1, False), Config(1_500, 2, True), Config(15_000, 2, True),
               Config(150_000, 3, True))
    # steps capped at level 28's: past them no chain of steps stays within years 1-9999 (difficulty saturates).
    growth = Growth(steps={"steps": 1}, factors={"span": 10}, limits={"span": 1_500_000, "steps": 27})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[int, list[int]] | None:
            start = day_number(rng.randint(1700, 2300), rng.randint(1, 12), 1) + rng.randint(0, 27)
            steps, here = [], start
            for _ in range(config.steps):
                step = rng.randint(1, config.span) * rng.choice((1, -1) if config.span > 60 else (1,))
                here += step
                if not FIRST <= here <= LAST:
                    return None
                steps.append(step)
            return start, steps

        def leap_rule_decides(drawn: tuple[int, list[int]]) -> bool:
            # the stated leap rule must matter: counting no leap days answered 0.96 of level 0 and 0.35 of level 2,
            # and (where steps span years) ignoring the century exception 0.98 of level 2
            start, steps = drawn
            truth = civil_date(start + sum(steps))
            rules = ("none", "julian") if config.span >= CENTURY_SPAN else ("none",)
            return all(misread_end(start, steps, rule) != truth for rule in rules)

        start, steps = retry(draw, leap_rule_decides, attempts=5_000,
                             what="steps within years 1-9999 that the leap rule decides")
        end = start + sum(steps)
        crossed, here = 0, start
        for step in steps:
            crossed, here = crossed + month_ends_crossed(here, here + step), here + step
        said = ", then ".join(f"{'add' if step > 0 else 'subtract'} {abs(step)} days" for step in steps)
        known = f" ({weekday(start)})" if config.weekday else ""
        asked = " and which day of the week is it" if config.weekday else ""
        shape = f"{EXAMPLE_DATE}, {EXAMPLE_WEEKDAY}" if config.weekday else EXAMPLE_DATE
        prompt = (
            "Use the proleptic Gregorian calendar: the Gregorian leap-year rule (a year divisible by 4 is a leap "
            "year, except a year divisible by 100 that is not divisible by 400) applied to every year. February "
            "has 29 days in a leap year and 28 otherwise.\n\n"
            f"Start from {long_date(start)}{known}. {said[0].upper() + said[1:]}. What date do you reach{asked}? "
            f"Answer with the date as YYYY-MM-DD{' and the weekday' if config.weekday else ''}, for example: "
            f"{shape}"
        )
        answer = f"{iso(end)}, {weekday(end)}" if config.weekday else iso(end)
        return Problem(prompt=prompt, answer=answer, data={
            "start": start, "steps": steps, "end": end, "weekday": config.weekday, "crossed": crossed})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        read = read_dated(answer)
        asked = problem.data["weekday"]
        if read is None or (asked and read[1] is None):
            return Verdict.unparsed("expected a date such as 1111-11-11" + (" and its weekday" if asked else ""))
        date, named = read
        end = problem.data["end"]
        if date != end:
            off = date - end
            if abs(off) <= 31:
                return Verdict.wrong(f"the date is {abs(off)} day(s) {'late' if off > 0 else 'early'}")
            if civil_date(date)[0] != civil_date(end)[0]:
                return Verdict.wrong("the year is wrong")
            return Verdict.wrong("the date is wrong")
        if named is not None and named != weekday(end):
            return Verdict.wrong(f"the date is right but it is not a {named}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Month ends crossed over all the steps, plus one when the weekday is asked."""
        return float(problem.data["crossed"] + problem.data["weekday"])

    def spellings(self, problem: Problem) -> list[str]:
        end = problem.data["end"]
        year, month, day = civil_date(end)
        dates = [iso(end), long_date(end), f"{MONTHS[month - 1]} {day}, {year}"]
        if not problem.data["weekday"]:
            return [*super().spellings(problem), *dates[1:], f"\\boxed{{{iso(end)}}}", f"Answer: {dates[2]}."]
        name = weekday(end)
        return [*super().spellings(problem), f"{name}, {dates[1]}", f"{dates[2]} ({name[:3]})",
                f"{iso(end)}, which is a {name}.", f"\\boxed{{{iso(end)}, {name}}}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        end, asked = problem.data["end"], problem.data["weekday"]
        tail = (lambda number: f", {weekday(number)}") if asked else (lambda number: "")
        near = [end + 1, end - 1, end + 366, problem.data["start"], end - 2 * sum(problem.data["steps"][-1:])]
        wrong = [f"{iso(n)}{tail(n)}" for n in near if n != end and FIRST <= n <= LAST]
        if asked:
            wrong.append(f"{iso(end)}, {weekday(end + 1)}")
        return [*wrong, f"{iso(end)} or {iso(end + 1)}"]
