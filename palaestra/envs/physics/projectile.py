"""Projectile motion in two dimensions: ranges, heights, flight times, landings from cliffs, aiming at a target.

No air resistance; g = 10 m/s^2 exactly (the prompt says so); the horizontal velocity stays
constant and the vertical one changes by g each second. Level 0 asks how far a ball thrown
horizontally from a height lands (the fall time is drawn first, so it is exact); level 1 for the
range and greatest height of a launch from level ground given its velocity components; level 2 the
same from a launch speed and an angle whose sine and cosine are rational (3-4-5 and other
Pythagorean triangles); level 3 for where a ball thrown upwards at an angle from a cliff lands and
its vertical velocity there (the landing time is drawn first, so the quadratic has an exact root);
level 4 for the vertical launch velocity that makes a ball with a given horizontal speed hit a target
at a given distance and height. Every answer is an exact rational, computed with fractions.

The answer is the value in the asked unit (m, cm, km; m/s, km/h), in any exact spelling; levels
1 to 3 name their two values. A rounded value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.physics.common import Units, decimal_text, fraction_text, read_quantities, read_quantity

G = 10
METRES: Units = {"m": 1, "metres": 1, "meters": 1, "cm": Fraction(1, 100), "km": 1000}
SPEED: Units = {"m/s": 1, "m s^-1": 1, "metres per second": 1, "meters per second": 1, "km/h": Fraction(5, 18)}
NAMES: dict[str, dict[str, Units]] = {
    "ground": {"R": METRES, "H": METRES},
    "angle": {"R": METRES, "H": METRES},
    "cliff": {"x": METRES, "v_y": SPEED},
}
SINGLE: dict[str, tuple[str, Units]] = {"horizontal": ("m", METRES), "target": ("m/s", SPEED)}
UNIT_TEXT = {"R": "m", "H": "m", "x": "m", "v_y": "m/s"}
EXAMPLES = {"ground": "R = 245/2 m, H = 45/8 m", "angle": "R = 245/2 m, H = 45/8 m", "cliff": "x = 96/5 m, v_y = -17 m/s"}
TRIANGLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29), (9, 40, 41), (12, 35, 37),
             (11, 60, 61), (28, 45, 53), (33, 56, 65))
Question = tuple[str, dict[str, Fraction], int]  # text, exact answer values, reasoning steps


@register
class Projectile(Task):
    id = "physics/projectile"
    family = "physics"
    description = "2-D projectile motion: range, height, cliff landings and the launch speed that hits a target, exactly."
    tags = ("physics", "mechanics", "kinematics", "math")
    version = 1
    distinct_from = {"physics/kinematics": "two-dimensional motion (independent horizontal and vertical components); "
                                           "kinematics is motion along one line"}

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("horizontal"), Config("ground"), Config("angle"), Config("cliff"), Config("target"))
    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, values, steps = _KINDS[config.kind](rng)
        intro = f"Ignore air resistance and take g = {G} m/s^2 exactly. "
        if config.kind in NAMES:
            form = f"Give exact values (fractions where needed), e.g. {EXAMPLES[config.kind]}."
            answer = ", ".join(f"{name} = {fraction_text(v)} {UNIT_TEXT[name]}" for name, v in values.items())
        else:
            unit = SINGLE[config.kind][0]
            form = f"Give the exact value in {unit} (a fraction if needed), e.g. 135/4 {unit}."
            answer = f"{fraction_text(values['x'])} {unit}"
        return Problem(prompt=f"{intro}{question}\n\n{form}", answer=answer, data={
            "kind": config.kind, "values": {k: fraction_text(v) for k, v in values.items()}, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        kind = problem.data["kind"]
        expected = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if kind in NAMES:
            got = read_quantities(answer, NAMES[kind])
            if got is None:
                return Verdict.unparsed("expected " + ", ".join(f"{n} = <{UNIT_TEXT[n]}>" for n in NAMES[kind]))
            for name in NAMES[kind]:
                if got[name] != expected[name]:
                    return Verdict.wrong(f"wrong {name}")
            return Verdict.right()
        unit, units = SINGLE[kind]
        value = read_quantity(answer, units)
        if value is None:
            return Verdict.unparsed(f"expected one exact value in {unit}")
        return Verdict.judge(value == expected["x"], "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Reasoning steps of the kind, plus a tenth of the answer's digits."""
        digits = sum(c.isdigit() for v in problem.data["values"].values() for c in v)
        return problem.data["steps"] + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        kind = problem.data["kind"]
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if kind in NAMES:
            pairs = [f"{name} = {fraction_text(v)} {UNIT_TEXT[name]}" for name, v in values.items()]
            first = next(iter(values))
            converted = [f"{first} = {fraction_text(values[first] * 100)} cm", *pairs[1:]]
            return [*super().spellings(problem), ", ".join(reversed(pairs)), "\n".join(converted) + "."]
        unit, units = SINGLE[kind]
        x = values["x"]
        other, factor = next((u, f) for u, f in units.items() if Fraction(f) != 1)
        out = [*super().spellings(problem), fraction_text(x), f"\\boxed{{{fraction_text(x)}\\text{{ {unit}}}}}",
               f"{fraction_text(x / Fraction(factor))} {other}"]
        decimal = decimal_text(x)
        if decimal is not None:
            out.append(f"{decimal} {unit}.")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        kind = problem.data["kind"]
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if kind in NAMES:
            names = list(values)
            def spelled(a: Fraction, b: Fraction) -> str:
                return f"{names[0]} = {fraction_text(a)} {UNIT_TEXT[names[0]]}, {names[1]} = {fraction_text(b)} " \
                       f"{UNIT_TEXT[names[1]]}"
            a, b = values[names[0]], values[names[1]]
            return [spelled(a * 2, b), spelled(a, b + 1), spelled(a, -b) if b else spelled(a, b + 2),
                    spelled(a, b) + f" or {names[0]} = {fraction_text(a + 1)}", f"{names[0]} = {fraction_text(a)}"]
        unit = SINGLE[kind][0]
        x = values["x"]
        wrong = [f"{fraction_text(x + 1)} {unit}", f"{fraction_text(x * 2)} {unit}",
                 f"{fraction_text(x)} or {fraction_text(x + 1)} {unit}"]
        if decimal_text(x) is None:
            wrong.append(f"{float(x):.2f} {unit}")
        return wrong


def _horizontal(rng: random.Random) -> Question:
    fall = Fraction(rng.randint(10, 120), 20)  # seconds; the height g t^2 / 2 follows
    height = G * fall**2 / 2
    speed = rng.randint(2, 199)
    text = (f"A ball is thrown horizontally at {speed} m/s from the top of a tower {decimal_text(height)} m high, over "
            "level ground. How far from the foot of the tower does it land?")
    return text, {"x": speed * fall}, 2


def _ground(rng: random.Random) -> Question:
    vx, vy = rng.randint(2, 150), rng.randint(2, 150)
    text = (f"A ball is launched from level ground with a horizontal velocity component of {vx} m/s and a vertical "
            f"(upward) component of {vy} m/s. Find its range R (where it lands, on the same level) and the greatest "
            "height H it reaches.")
    return text, {"R": Fraction(2 * vx * vy, G), "H": Fraction(vy * vy, 2 * G)}, 3


def _angle(rng: random.Random) -> Question:
    a, b, c = rng.choice(TRIANGLES)
    sine, cosine = (Fraction(a, c), Fraction(b, c)) if rng.random() < 0.5 else (Fraction(b, c), Fraction(a, c))
    speed = rng.randint(1, 400) * c if rng.random() < 0.5 else rng.randint(5, 2000)
    vx, vy = speed * cosine, speed * sine
    text = (f"A ball is launched from level ground at {speed} m/s, at an angle theta above the horizontal with "
            f"sin(theta) = {fraction_text(sine)} (so cos(theta) = {fraction_text(cosine)}). Find its range R and the "
            "greatest height H it reaches.")
    return text, {"R": 2 * vx * vy / G, "H": vy * vy / (2 * G)}, 5


def _cliff(rng: random.Random) -> Question:
    vx, vy = rng.randint(2, 30), rng.randint(1, 25)
    rise = Fraction(2 * vy, G)  # back at the launch height after this time; the landing comes later
    flight = rise + Fraction(rng.randint(1, 16), 4)
    height = G * flight**2 / 2 - vy * flight
    text = (f"From the edge of a cliff {decimal_text(height) or fraction_text(height)} m above level ground, a ball is "
            f"thrown with a horizontal velocity component of {vx} m/s and an upward component of {vy} m/s. Find the "
            "horizontal distance x from the foot of the cliff to where it lands and its vertical velocity v_y just "
            "before landing (positive upwards).")
    return text, {"x": vx * flight, "v_y": vy - G * flight}, 7


def _target(rng: random.Random) -> Question:
    vx = rng.randint(4, 30)
    distance = rng.randint(5, 80)
    time = Fraction(distance, vx)
    height = rng.randint(-20, 30)
    vy = (height + Fraction(G, 2) * time**2) / time
    where = "at the launch height" if height == 0 else (f"{abs(height)} m {'above' if height > 0 else 'below'} the "
                                                       "launch point")
    text = (f"A ball is launched with a horizontal velocity component of {vx} m/s towards a target {distance} m away "
            f"horizontally and {where}. What vertical velocity component (positive upwards) must it be launched "
            "with to pass through the target?")
    return text, {"x": vy}, 8


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "horizontal": _horizontal, "ground": _ground, "angle": _angle, "cliff": _cliff, "target": _target,
}
