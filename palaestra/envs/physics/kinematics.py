"""One-dimensional motion with constant acceleration: find a time, a distance, a velocity or an acceleration.

The generator draws the initial velocity, acceleration and duration as small
rationals, derives the final velocity and displacement exactly, then gives
three of the five quantities and asks for another one that they determine
uniquely. Level 0 uses one-step formulas with integers; higher levels add
deceleration, half-integers, speeds in km/h, the first time a displacement
is reached (a quadratic) and, at level 4, two-phase scenarios (reaction time
then braking, speeding up then braking, a catch-up, a vertical throw).

The answer is a number in the requested SI unit: an integer, a decimal or a
fraction (``25/3``), optionally followed by that unit (``7 m/s``, ``7 metres per
second``; never another unit: ``7 seconds`` is not a speed). The prompt allows
approximate answers and states the tolerance, a relative 1e-6 (0.0001%), so ``≈ 8.333333``
scores for 25/3 and ``8.33`` does not.

Version 4: the asked quantity is never 0 (a start from rest or a stop is only ever given), so the constant
answer 0 no longer scores (it earned 6% at level 1, 3.5% at level 3 in version 3; round-3 red team).

Version 5: levels 0 and 1 draw accelerations up to 10 m/s^2 (5 and 6 before) and durations up to 12 and 14 s
(10 and 12), so an asked acceleration or time is not one of a handful of values: the constant "5" answered 0.094
of level 0 and "2" 0.068 of level 1 over 500 seeds (now 0.058 and 0.052 at most).

Version 6: in 85% of the first-time questions the displacement is reached twice (braking, before the body turns
back past it), so the larger root of the quadratic is wrong: ignoring "first" (the largest positive root) answered
0.72 and 0.81 of these questions at levels 3 and 4, where most had only one positive root (now 0.14 and 0.15).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.numeric import Tolerance, format_decimal, grade_number, unit_spellings

TOLERANCE = Tolerance(relative="0.000001")
TWICE_SHARE = 0.85  # first-time questions drawn with the displacement reached twice (two positive roots)
_UNIT_WORDS = {"m": "metres", "s": "seconds", "m/s": "metres per second", "m/s^2": "metres per second squared"}
_OBJECTS = ("A car", "A cyclist", "A train", "A cart", "A sled", "A runner", "A boat", "A skateboarder")
_QUANTITIES = {  # symbol: (description, SI unit)
    "u": ("initial velocity", "m/s"),
    "v": ("final velocity", "m/s"),
    "a": ("acceleration", "m/s^2"),
    "t": ("time", "s"),
    "s": ("displacement", "m"),
}
# (given, asked) pairs whose answer is unique; velocities never change sign in these problems
_DIRECT = (
    ("uat", "v"), ("uat", "s"), ("uvt", "s"), ("uvt", "a"), ("uva", "t"), ("uva", "s"), ("uvs", "t"),
    ("uvs", "a"), ("vat", "u"), ("vat", "s"), ("uts", "a"), ("uts", "v"), ("vts", "u"), ("vts", "a"),
    ("ats", "u"), ("ats", "v"),
)
_ONE_STEP = (("uat", "v"), ("uvt", "s"), ("uva", "t"), ("uvt", "a"))


@register
class Kinematics(Task):
    id = "physics/kinematics"
    family = "physics"
    description = "Constant-acceleration motion in one dimension: find a time, distance, velocity or acceleration."
    tags = ("physics", "kinematics", "math")
    max_answer_chars = 300
    version = 6  # v5: wider accelerations and times at levels 0-1 (no favourite answer); v6: "first" matters

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # direct | first_time | two_phase, drawn uniformly (repeats weigh more)
        one_step_only: bool  # only the four one-formula questions
        max_speed: int  # bound on the initial speed, m/s
        max_acceleration: int
        max_time: int
        step: int  # accelerations and times are multiples of 1/step
        deceleration: bool
        km_per_hour: bool  # some velocities are given in km/h

    def config(self, level: int) -> Config:
        direct, harder = ("direct",), ("direct", "first_time")
        every = ("direct", "first_time", "two_phase", "two_phase")
        common = dict(one_step_only=False, deceleration=True)
        return [
            self.Config(direct, one_step_only=True, max_speed=20, max_acceleration=10, max_time=12, step=1,
                        deceleration=False, km_per_hour=False),
            self.Config(direct, **common, max_speed=25, max_acceleration=10, max_time=14, step=1, km_per_hour=False),
            self.Config(direct, **common, max_speed=30, max_acceleration=8, max_time=12, step=2, km_per_hour=False),
            self.Config(harder, **common, max_speed=30, max_acceleration=8, max_time=15, step=2, km_per_hour=True),
            self.Config(every, **common, max_speed=40, max_acceleration=9, max_time=20, step=4, km_per_hour=True),
        ][level]
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 5 to 6)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        if kind == "two_phase":
            statement, value, unit = rng.choice(_SCENARIOS)(rng, config)
            steps = 4.0  # two phases, a formula for each, and joining them
        else:
            statement, value, unit, steps = _single_phase(rng, config, first_time=kind == "first_time")
        example = "25/3"  # a fixed placeholder: independent of the answer
        prompt = (
            f"{statement}\n\nGive the answer in {unit} as a number, either exact (an integer, a terminating "
            f"decimal or a fraction such as {example}) or a decimal {TOLERANCE.describe()} "
            "(7 significant digits are enough)."
        )
        answer = format_decimal(value)
        return Problem(prompt=prompt, answer=answer, data={"kind": kind, "value": answer, "unit": unit, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed("the answer is too long for a number")
        unit = problem.data["unit"]
        ok = grade_number(answer, Fraction(problem.data["value"]), tolerance=TOLERANCE, units=unit_spellings(unit),
                          sentence=True)
        if ok is None:
            return Verdict.unparsed(f"expected a number in {unit}, optionally followed by {unit}")
        return Verdict.judge(ok, f"wrong value (it must be exact or {TOLERANCE.describe()})")

    def difficulty(self, problem: Problem) -> float:
        """Solution steps: formulas applied, a quadratic solved, speeds converted from km/h,
        and half a step for fractional values in the working."""
        return float(problem.data["steps"])

    def spellings(self, problem: Problem) -> list[str]:
        value, unit = Fraction(problem.data["value"]), problem.data["unit"]
        gold = problem.answer or ""
        spellings = [*super().spellings(problem), f"{gold} {unit}", f"{gold} {_UNIT_WORDS[unit]}", f"({gold})",
                     f"\\boxed{{{gold}}}", f"{float(value):.9g}", f"≈ {float(value):.8g} {unit}",
                     f"{gold}."]
        if value.denominator != 1:
            spellings.append(f"\\frac{{{value.numerator}}}{{{value.denominator}}}\\ \\mathrm{{{unit}}}")
        return spellings

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value, unit = Fraction(problem.data["value"]), problem.data["unit"]
        gold = problem.answer or ""
        other_unit = "s" if unit != "s" else "m/s"
        step = max(abs(value), Fraction(1)) * Fraction(1, 10**5)  # ten times the stated tolerance
        wrong = [*super().corruptions(problem, rng), f"{gold} {other_unit}", f"{gold} {_UNIT_WORDS[other_unit]}",
                 f"{float(value + step):.9g}",
                 f"≈ {float(value):.2f}" if value != round(value, 2) else f"≈ {value + 1}",
                 f"{gold} or {format_decimal(value + 1)}", f"-{gold}" if value > 0 else f"{format_decimal(value - 1)}"]
        return wrong


def _rational(rng: random.Random, low: int, high: int, step: int) -> Fraction:
    """A random multiple of 1/step in [low, high]."""
    return Fraction(rng.randint(low * step, high * step), step)


def _single_phase(
    rng: random.Random, config: Kinematics.Config, first_time: bool
) -> tuple[str, Fraction, str, float]:
    """(statement, answer, unit, solution steps) for a one-interval question."""
    def draw() -> tuple[Fraction, Fraction, Fraction]:
        return (Fraction(rng.randint(1 if first_time else 0, config.max_speed)),
                _rational(rng, 1, config.max_time, config.step), _rational(rng, 1, config.max_acceleration, config.step))

    u, t, a = draw()
    if first_time:
        if rng.random() < TWICE_SHARE:
            # v6: braking, it passes the displacement at t and again on the way back (|a| t < 2u, and t is not the
            # turning point u/|a|, where the two roots meet), so only the earlier root is right
            while a * t >= 2 * u or a * t == u:
                u, t, a = draw()
            a = -a
        elif rng.random() < 0.6:
            a = -a  # it may pass the asked displacement twice, or turn back first
        if u * t + a * t * t / 2 == 0:
            t += 1  # displacement 0 is first reached at the start
    elif config.deceleration and u > 0 and rng.random() < 0.4:
        a = -min(a, u / t)  # slow down without turning back within the interval
    values = {"u": u, "t": t, "a": a, "v": u + a * t, "s": u * t + a * t * t / 2}
    subject = rng.choice(_OBJECTS)
    if first_time:
        statement, answer, unit = _first_time(subject, values)
        fractional = any(values[k].denominator != 1 for k in "uas")
        return statement, answer, unit, 3.0 + 0.5 * fractional  # set up the quadratic, solve it, pick a root
    # u + v > 0 here (the motion never turns back), so every (given, asked) pair is well defined
    # never ask for a zero (a body starting from rest or braking to a stop): the constant answer 0 scored up to 6%
    given, asked = rng.choice([pair for pair in (_ONE_STEP if config.one_step_only else _DIRECT) if values[pair[1]] != 0])
    knowns = [_known(symbol, values[symbol], config, rng) for symbol in given]
    known = ", ".join(knowns)
    conversions = sum("km/h" in k for k in knowns)
    fractional = any(values[k].denominator != 1 for k in given)
    steps = (1 if (given, asked) in _ONE_STEP else 2) + conversions + 0.5 * fractional
    description, unit = _QUANTITIES[asked]
    statement = (
        f"{subject} moves along a straight line with constant acceleration; its direction of motion is positive. "
        "Over one time interval: u is the initial velocity, v the final velocity, a the acceleration, t the "
        f"duration and s the displacement.\nKnown: {known}.\nFind the {description} {asked} in {unit}."
    )
    return statement, values[asked], unit, steps


def _first_time(subject: str, values: dict[str, Fraction]) -> tuple[str, Fraction, str]:
    """Given u, a and a displacement s: the earliest positive root of s = u*t + a*t^2/2."""
    u, a, t, s = values["u"], values["a"], values["t"], values["s"]
    other = -2 * u / a - t  # the second root of the quadratic in t
    earliest = min(r for r in (t, other) if r > 0)
    statement = (
        f"{subject} starts with velocity {format_decimal(u)} m/s and has a constant acceleration of "
        f"{format_decimal(a)} m/s^2 "
        "(positive = the direction of the initial velocity). "
        "How many seconds after the start is its displacement from the starting point first equal to "
        f"{format_decimal(s)} m?"
    )
    return statement, earliest, "s"


def _known(symbol: str, value: Fraction, config: Kinematics.Config, rng: random.Random) -> str:
    description, unit = _QUANTITIES[symbol]
    if symbol in "uv" and config.km_per_hour and rng.random() < 0.5:
        return f"{description} {symbol} = {format_decimal(value * Fraction(18, 5))} km/h"
    return f"{description} {symbol} = {format_decimal(value)} {unit}"


def _reaction_then_braking(rng: random.Random, config: Kinematics.Config) -> tuple[str, Fraction, str]:
    speed_kmh = 9 * rng.randint(4, 16)  # a multiple of 9 km/h is a multiple of 2.5 m/s
    reaction = Fraction(rng.randint(4, 15), 10)
    deceleration = _rational(rng, 3, config.max_acceleration, 2)
    speed = Fraction(speed_kmh * 5, 18)
    distance = speed * reaction + speed * speed / (2 * deceleration)
    statement = (
        f"A driver travelling at {speed_kmh} km/h sees an obstacle. After a reaction time of "
        f"{format_decimal(reaction)} s "
        f"(at constant speed) the driver brakes with a constant deceleration of {format_decimal(deceleration)} m/s^2 "
        "until the car stops. How far does the car travel from the moment the driver sees the obstacle?"
    )
    return statement, distance, "m"


def _speed_up_then_brake(rng: random.Random, config: Kinematics.Config) -> tuple[str, Fraction, str]:
    speed_up = _rational(rng, 1, config.max_acceleration, 2)
    duration = Fraction(rng.randint(2, config.max_time))
    braking = _rational(rng, 1, config.max_acceleration, 2)
    top = speed_up * duration
    subject = rng.choice(_OBJECTS)
    setup = (
        f"{subject} starts from rest and accelerates at {format_decimal(speed_up)} m/s^2 for "
        f"{format_decimal(duration)} s, then "
        f"decelerates at {format_decimal(braking)} m/s^2 until it stops."
    )
    if rng.random() < 0.5:
        return f"{setup} What total distance does it cover?", top * duration / 2 + top * top / (2 * braking), "m"
    return f"{setup} How long does the whole trip take?", duration + top / braking, "s"


def _catch_up(rng: random.Random, config: Kinematics.Config) -> tuple[str, Fraction, str]:
    cruise = Fraction(rng.randint(5, config.max_speed))
    pursuit = _rational(rng, 1, config.max_acceleration, 2)
    time = 2 * cruise / pursuit  # pursuit * T^2 / 2 = cruise * T
    setup = (
        f"A truck drives along a straight road at a constant {format_decimal(cruise)} m/s. At the moment it passes a "
        f"motorcycle waiting at the roadside, the motorcycle starts from rest with a constant acceleration of "
        f"{format_decimal(pursuit)} m/s^2 in the same direction."
    )
    if rng.random() < 0.5:
        return f"{setup} How many seconds later does the motorcycle catch up with the truck?", time, "s"
    return f"{setup} How far does the motorcycle travel before it catches up with the truck?", cruise * time, "m"


def _vertical_throw(rng: random.Random, config: Kinematics.Config) -> tuple[str, Fraction, str]:
    gravity = rng.choice((Fraction(98, 10), Fraction(981, 100), Fraction(10)))
    speed = _rational(rng, 4, config.max_speed, 2)
    thing = rng.choice(("A ball", "A stone", "A coin", "An apple"))
    setup = (
        f"{thing} is thrown straight up at {format_decimal(speed)} m/s. Take g = {format_decimal(gravity)} m/s^2 "
        "and ignore air resistance."
    )
    question = rng.randrange(3)
    if question == 0:
        return f"{setup} What maximum height above the launch point does it reach?", speed * speed / (2 * gravity), "m"
    if question == 1:
        return f"{setup} How many seconds after the throw does it reach its highest point?", speed / gravity, "s"
    return f"{setup} How long after the throw does it return to the launch point?", 2 * speed / gravity, "s"


_SCENARIOS = (_reaction_then_braking, _speed_up_then_brake, _catch_up, _vertical_throw)
