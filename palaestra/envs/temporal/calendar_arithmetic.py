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


def month_ends_crossed(start: int, end: int) -> int:
    """Month boundaries between two dates (either order)."""
    (y1, m1, _), (y2, m2, _) = civil_date(min(start, end)), civil_date(max(start, end))
    return (y2 - y1) * 12 + m2 - m1


@register
class CalendarArithmetic(Task):
    id = "temporal/calendar_arithmetic"
    family = "temporal"
    description = "A date plus and minus numbers of days across months and leap years, and its weekday."
    tags = ("temporal", "calendar", "arithmetic")

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

        start, steps = retry(draw, what="steps that stay within years 1-9999")
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
