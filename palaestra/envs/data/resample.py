"""Resample irregular sensor readings onto a regular time grid by linear interpolation or forward fill.

Readings (time, value) come at irregular minutes; some are marked NA (ignored) from level 2, and from
level 3 they are out of time order. The question asks for the value at every grid time from a start to
an end in steps of 10, 15 or 30 minutes, by one stated method: linear interpolation between the nearest
valid readings before and after (a reading exactly at the grid time gives its value), or the previous
valid reading at or before the grid time (forward fill). The grid lies within the valid readings' span.
Values are exact rationals (interpolation gives fractions); the answer is the list of values in grid
order, read with the shared list reader and compared exactly; the first wrong grid time is named.

Version 3: with NA readings, reading an NA as 0 changes some value (v2: that answered 0.25-0.30 of levels 2-4).

Difficulty: the readings plus the grid times plus the NA readings, plus the grid times between readings
for interpolation (each needs a division), plus 5 when out of order.

Version 2: a valid reading now lies exactly on some grid time where it decides the answer. Without one,
skipping such a reading (taking the last reading strictly before the grid time, or interpolating across it)
answered 0.79 of level 0, 0.62 of level 2 and 0.35 of level 4.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import EXACT_NUMBER_RULE, exact_text, number_spellings
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.sets import read_list

EXAMPLE = "12, 13.5, 41/3"  # a fixed placeholder: never derived from the answer


def hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def resample(readings: list[list], grid: list[int], method: str) -> list[Fraction]:
    """Values at ``grid`` minutes from ``[minute, value or None]`` readings (None: NA, ignored)."""
    valid = sorted((minute, Fraction(value)) for minute, value in readings if value is not None)
    minutes = [m for m, _ in valid]
    out = []
    for t in grid:
        at = bisect.bisect_right(minutes, t) - 1  # the last reading at or before t
        before_minute, before_value = valid[at]
        if method == "previous" or before_minute == t:
            out.append(before_value)
            continue
        after_minute, after_value = valid[at + 1]
        out.append(before_value + (after_value - before_value) * Fraction(t - before_minute,
                                                                           after_minute - before_minute))
    return out


def resample_strictly(readings: list[list], grid: list[int], method: str) -> list[Fraction]:
    """The misreading that skips a reading exactly at a grid time: the last valid reading strictly before it (forward
    fill), or interpolation between the nearest valid readings strictly before and after it; a grid time with no
    such reading keeps the reading on it."""
    valid = sorted((minute, Fraction(value)) for minute, value in readings if value is not None)
    out = []
    for t in grid:
        before = [(m, v) for m, v in valid if m < t] or [(m, v) for m, v in valid if m == t]
        after = [(m, v) for m, v in valid if m > t] or [(m, v) for m, v in valid if m == t]
        (before_minute, before_value), (after_minute, after_value) = before[-1], after[0]
        if method == "previous" or before_minute == after_minute:
            out.append(before_value)
            continue
        out.append(before_value + (after_value - before_value) * Fraction(t - before_minute,
                                                                           after_minute - before_minute))
    return out


@register
class Resample(Task):
    id = "data/resample"
    family = "data"
    description = "Resample irregular sensor readings to a regular grid by linear interpolation or forward fill."
    tags = ("data", "time-series", "interpolation")
    version = 3  # v3: an NA reading read as 0 changes a value

    @dataclass(frozen=True)
    class Config:
        readings: int
        grid: int  # grid times
        missing: bool  # NA readings
        shuffled: bool

    presets = (Config(5, 3, False, False), Config(7, 4, False, False), Config(9, 5, True, False),
               Config(12, 6, True, True), Config(16, 8, True, True))
    growth = Growth(steps={"readings": 4, "grid": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        method = rng.choice(("linear", "previous"))
        step = rng.choice((10, 15, 30))
        start = rng.randrange(6 * 60, 12 * 60, step)
        grid = [start + i * step for i in range(config.grid)]

        def draw() -> list[list]:
            span_low, span_high = grid[0] - rng.randint(0, step), grid[-1] + rng.randint(1, step)
            inner = rng.sample(range(span_low + 1, span_high), min(span_high - span_low - 1, config.readings - 2))
            minutes = sorted({span_low, span_high, *inner})
            readings: list[list] = [[m, rng.randint(-5, 60)] for m in minutes]
            if config.missing:
                for index in rng.sample(range(1, len(readings) - 1), min(len(readings) - 2, rng.randint(1, 2))):
                    readings[index][1] = None
            return readings

        def well_posed(readings: list[list]) -> bool:
            valid = [m for m, v in readings if v is not None]
            if not valid or valid[0] > grid[0] or grid[-1] > valid[-1]:
                return False
            # a reading exactly on a grid time must decide: skipping it ("at or before" read as "before") answered
            # 0.79 of level 0 and 0.62 of level 2
            values = resample(readings, grid, method)
            if config.missing and resample([[m, v or 0] for m, v in readings], grid, method) == values:
                return False  # an NA reading must matter: read as 0 it answered 0.25-0.30 of v2's levels 2-4
            return resample_strictly(readings, grid, method) != values

        readings = retry(draw, well_posed, attempts=400, what="readings around the grid, one on a grid time")
        values = resample(readings, grid, method)
        shown = list(readings)
        if config.shuffled:
            rng.shuffle(shown)
        table = "\n".join(f"{hhmm(m)},{'NA' if v is None else v}" for m, v in shown)
        rule = ("by linear interpolation between the nearest valid readings before and after it (a reading exactly "
                "at that time gives its own value)" if method == "linear" else
                "as the value of the last valid reading at or before that time (forward fill)")
        notes = " Readings marked NA are missing and ignored." if config.missing else ""
        notes += " The readings are not in time order." if config.shuffled else ""
        prompt = (
            f"A sensor logged these readings (time,value):\n\n{table}\n\n{notes.strip()}{' ' if notes else ''}"
            f"Give the sensor's value at every {step} minutes from {hhmm(grid[0])} to {hhmm(grid[-1])}, each {rule}. "
            f"Give {EXACT_NUMBER_RULE}.\n\nAnswer with the values in time order, separated by commas, for "
            f"example: {EXAMPLE}"
        )
        between = sum(1 for t in grid if method == "linear" and all(m != t for m, v in readings if v is not None))
        texts = [exact_text(v) for v in values]
        data = {"values": texts, "readings": len(readings), "grid": grid,
                "missing": sum(1 for _, v in readings if v is None), "between": between, "shuffled": config.shuffled}
        return Problem(prompt=prompt, answer=", ".join(texts), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_list(answer, read_exact, max_items=500)
        if given is None:
            return Verdict.unparsed(f"expected numbers separated by commas, such as {EXAMPLE}")
        truth = [Fraction(v) for v in problem.data["values"]]
        if len(given) != len(truth):
            return Verdict.wrong(f"the grid has {len(truth)} times, the answer {len(given)} values")
        for t, mine, theirs in zip(problem.data["grid"], given, truth, strict=True):
            if mine != theirs:
                return Verdict.wrong(f"the value at {hhmm(t)} is wrong")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Readings + grid times + NA readings + interpolated grid times + 5 when out of order."""
        data = problem.data
        return float(data["readings"] + len(data["grid"]) + data["missing"] + data["between"] + 5 * data["shuffled"])

    def spellings(self, problem: Problem) -> list[str]:
        values = problem.data["values"]
        return [*markup_spellings(problem.answer or ""), "[" + ", ".join(values) + "]", "\n".join(values),
                ", ".join(number_spellings(Fraction(v))[-1] for v in values)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = [Fraction(v) for v in problem.data["values"]]
        index = rng.randrange(len(values))
        nudged = [v + (1 if i == index else 0) for i, v in enumerate(values)]
        return [", ".join(exact_text(v) for v in nudged), ", ".join(problem.data["values"][:-1]),
                ", ".join(exact_text(v.__floor__()) for v in values) if any(v.denominator > 1 for v in values)
                else ", ".join(exact_text(v + 1) for v in values)]
