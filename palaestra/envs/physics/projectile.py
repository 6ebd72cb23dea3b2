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
from fractions import Fraction

from palaestra.core import register
from palaestra.envs.physics.common import KindsTask, Named, Question, Units, decimal_text, fraction_text, kind_presets

G = 10
METRES: Units = {"m": 1, "metres": 1, "meters": 1, "cm": Fraction(1, 100), "km": 1000}
SPEED: Units = {"m/s": 1, "m s^-1": 1, "metres per second": 1, "meters per second": 1, "km/h": Fraction(5, 18)}
TRIANGLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29), (9, 40, 41), (12, 35, 37),
             (11, 60, 61), (28, 45, 53), (33, 56, 65))


@register
class Projectile(KindsTask):
    id = "physics/projectile"
    family = "physics"
    description = "2-D projectile motion: range, height, cliff landings and the launch speed that hits a target, exactly."
    tags = ("physics", "mechanics", "kinematics", "math")
    version = 1
    distinct_from = {"physics/kinematics": "two-dimensional motion (independent horizontal and vertical components); "
                                           "kinematics is motion along one line"}
    presets = kind_presets("horizontal", "ground", "angle", "cliff", "target")
    intro = f"Ignore air resistance and take g = {G} m/s^2 exactly. "
    single = {"horizontal": ("m", METRES), "target": ("m/s", SPEED)}
    named = {"ground": {"R": Named("m", METRES, "R"), "H": Named("m", METRES, "H")},
             "angle": {"R": Named("m", METRES, "R"), "H": Named("m", METRES, "H")},
             "cliff": {"x": Named("m", METRES, "x"), "v_y": Named("m/s", SPEED, "v_y")}}
    examples = {"ground": "R = 245/2 m, H = 45/8 m", "angle": "R = 245/2 m, H = 45/8 m",
                "cliff": "x = 96/5 m, v_y = -17 m/s"}
    single_example = "135/4"

    def draw(self, kind: str, rng: random.Random) -> Question:
        return _KINDS[kind](rng)


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
