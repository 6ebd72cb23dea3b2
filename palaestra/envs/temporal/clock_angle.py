"""The angle between two hands of an analogue clock, in exact rational degrees.

All three hands move smoothly: the hour hand turns 30 degrees an hour (half a degree a minute, 1/120 of a
degree a second), the minute hand 6 degrees a minute (a tenth of a degree a second) and the second hand 6
degrees a second (times are whole seconds). The answer is the smaller angle between the two named hands, from
0 to 180 degrees inclusive, a rational number, so it is unique and checked exactly: the verifier reads one
exact number (a fraction, a mixed number or a finite decimal; "degrees" or ° allowed) and says when it is the
reflex angle (360 minus the answer) or another pair of hands' angle. Upper levels name a starting time and a
number of seconds that pass (the dial wraps every 12 hours), so the time itself must be worked out first.

Difficulty: the arithmetic the drawn problem needs: the nonzero time fields (minutes, seconds), the digits of
the elapsed seconds, and the binary digits of the answer's denominator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.temporal.common import DEGREES, clock_time, rational_spellings
from palaestra.verifiers.numeric import read_exact

EXAMPLE = "101/4"  # a fixed placeholder of the right shape: never derived from the answer
DIAL = 12 * 3600  # seconds before the dial repeats
HANDS = ("hour", "minute", "second")


def hand_position(hand: str, seconds: int) -> Fraction:
    """Degrees clockwise from 12 of ``hand`` at ``seconds`` after 12:00."""
    seconds %= DIAL
    if hand == "hour":
        return Fraction(seconds, 120)
    if hand == "minute":
        return Fraction(seconds % 3600, 10)
    return Fraction(6 * (seconds % 60))


def hands_angle(first: str, second: str, seconds: int) -> Fraction:
    """The smaller angle (0 to 180 degrees) between two hands at ``seconds`` after 12:00."""
    gap = abs(hand_position(first, seconds) - hand_position(second, seconds)) % 360
    return min(gap, 360 - gap)


@register
class ClockAngle(Task):
    id = "temporal/clock_angle"
    family = "temporal"
    description = "The exact smaller angle between two hands of an analogue clock at a time (or after a delay)."
    tags = ("temporal", "clocks", "arithmetic")

    @dataclass(frozen=True)
    class Config:
        with_seconds: bool  # times carry seconds
        pairs: int  # 1: hour and minute hands only; 3: any two of the three hands
        elapsed: int  # the most seconds that pass after the stated time (0: the time itself is asked)

    presets = (Config(False, 1, 0), Config(True, 3, 0), Config(True, 3, 1_000), Config(True, 3, 100_000),
               Config(True, 3, 10_000_000))
    growth = Growth(factors={"elapsed": 100})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        start = rng.randrange(0, DIAL, 1 if config.with_seconds else 60)
        pair = ("hour", "minute") if config.pairs == 1 else tuple(rng.sample(HANDS, 2))
        elapsed = rng.randint(config.elapsed // 10, config.elapsed) if config.elapsed else 0
        angle = hands_angle(pair[0], pair[1], start + elapsed)
        moment = f"when the clock shows {clock_time(start, config.with_seconds)}"
        if elapsed:
            moment = f"{elapsed} seconds after the clock shows {clock_time(start, True)}"
        prompt = (
            f"An analogue clock has hour, minute and second hands that all move smoothly: the hour hand turns 30 "
            f"degrees an hour, the minute hand 6 degrees a minute, and the second hand 6 degrees a second. What "
            f"is the smaller angle between the {pair[0]} hand and the {pair[1]} hand {moment}, in degrees (from 0 to 180)? Give the exact value as a fraction, a mixed number or a decimal that "
            f"terminates, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=str(angle), data={
            "start": start, "elapsed": elapsed, "hands": list(pair), "angle": str(angle)})

    def space_size(self, level: int) -> int | None:
        return DIAL // 60 if level == 0 else None  # every minute of the dial, hour and minute hands

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(answer, units=DEGREES, mixed=True)
        if value is None:
            return Verdict.unparsed("expected one exact number of degrees, such as 101/4")
        angle = Fraction(problem.data["angle"])
        if value == angle:
            return Verdict.right()
        if value == 360 - angle:
            return Verdict.wrong("that is the reflex angle; the smaller angle is asked")
        moment = problem.data["start"] + problem.data["elapsed"]
        first, second = problem.data["hands"]
        others = [pair for pair in (("hour", "minute"), ("minute", "second"), ("hour", "second"))
                  if set(pair) != {first, second} and hands_angle(*pair, moment) == value]
        if others:
            return Verdict.wrong(f"that is the angle between the {others[0][0]} and {others[0][1]} hands")
        return Verdict.wrong(f"{value} degrees is not the angle between the {first} and {second} hands")

    def difficulty(self, problem: Problem) -> float:
        """Nonzero time fields, digits of the elapsed seconds, and binary digits of the answer's denominator."""
        start, elapsed = problem.data["start"], problem.data["elapsed"]
        fields = bool(start % 3600 // 60) + bool(start % 60)
        digits = len(str(elapsed)) if elapsed else 0
        return float(fields + digits + Fraction(problem.data["angle"]).denominator.bit_length())

    def spellings(self, problem: Problem) -> list[str]:
        angle = Fraction(problem.data["angle"])
        written = rational_spellings(angle)
        return [*super().spellings(problem), *written, f"{written[0]} degrees", f"{written[-1]}°",
                f"\\boxed{{{written[-1]}}}", f"Answer: {written[0]} degrees."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        angle = Fraction(problem.data["angle"])
        wrong = {360 - angle, angle + Fraction(1, 2), angle + 30, abs(angle - 6)} - {angle}
        return [*(str(value) for value in sorted(wrong)), f"{angle} or {angle + 1}"]
