"""Orbits: circular and escape speeds, Kepler's third law, elliptical orbits, orbit-raising energy, Hohmann transfers.

Point masses in Newtonian gravity; the central body's gravitational parameter GM is given, so no
value of G is needed. Level 0 asks for the speed of a circular orbit, v = sqrt(GM/r), or the escape
speed, sqrt(2GM/r); level 1 for a planet's period from another's by Kepler's third law,
T2 = T1 (a2/a1)^(3/2); level 2 for an ellipse's semi-major axis, eccentricity and apoapsis speed from
its periapsis and apoapsis distances and periapsis speed (angular momentum r_p v_p = r_a v_a);
level 3 for the work needed to raise a satellite between circular orbits, GMm/2 (1/r1 - 1/r2);
level 4 for the duration of a Hohmann transfer (half the transfer ellipse's period) from the
period of the starting orbit. The numbers are drawn so every square root and 3/2 power is exact
(the answer is chosen first and the givens built from it), so every answer is an exact rational.

The answer is the value in the asked unit (the other common units are converted), in any exact
spelling; level 2 names its three values (``a = ..., e = ..., v_a = ...``). A rounded value of a
non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from palaestra.core import register
from palaestra.envs.physics.common import KindsTask, Named, Question, Units, decimal_text, kind_presets

SPEED: Units = {"m/s": 1, "m s^-1": 1, "metres per second": 1, "meters per second": 1, "km/s": 1000}
DAYS: Units = {"days": 1, "day": 1, "d": 1, "hours": Fraction(1, 24), "hour": Fraction(1, 24), "h": Fraction(1, 24),
              "hr": Fraction(1, 24), "hrs": Fraction(1, 24), "s": Fraction(1, 86400), "seconds": Fraction(1, 86400)}
ENERGY: Units = {"J": 1, "joules": 1, "kJ": 1000, "MJ": 10**6, "GJ": 10**9}
HOURS: Units = {"h": 1, "hours": 1, "hour": 1, "hr": 1, "hrs": 1, "min": Fraction(1, 60), "minutes": Fraction(1, 60),
               "s": Fraction(1, 3600), "seconds": Fraction(1, 3600), "days": 24, "d": 24}
KM: Units = {"km": 1, "kilometres": 1, "kilometers": 1, "m": Fraction(1, 1000)}


@register
class Orbits(KindsTask):
    id = "physics/orbits"
    family = "physics"
    description = "Orbital speeds, Kepler's third law, elliptical orbits, orbit-raising work and Hohmann transfers, exactly."
    tags = ("physics", "gravitation", "math")
    version = 1
    presets = kind_presets("speed", "kepler", "ellipse", "energy", "hohmann")
    single = {"speed": ("m/s", SPEED), "kepler": ("days", DAYS), "energy": ("J", ENERGY), "hohmann": ("h", HOURS)}
    named = {"ellipse": {"a": Named("km", KM, "semi-major axis"), "e": Named("", {}, "eccentricity"),
                         "v_a": Named("m/s", SPEED, "apoapsis speed")}}
    examples = {"ellipse": "a = 12500 km, e = 3/7, v_a = 4100/3 m/s"}

    def draw(self, kind: str, rng: random.Random) -> Question:
        return _KINDS[kind](rng)


def _speed(rng: random.Random) -> Question:
    """Circular speed sqrt(GM/r) or escape speed sqrt(2GM/r): the speed is drawn, GM built from it."""
    speed = rng.randint(1500, 12000)
    radius_km = rng.randint(2000, 60000)
    escape = rng.random() < 0.5
    if escape:
        radius_km += radius_km % 2  # even, so GM = v^2 r / 2 is a whole number
        gm = speed**2 * radius_km * 1000 // 2
        text = (f"A planet has gravitational parameter GM = {gm} m^3/s^2. What is the escape speed from a point "
                f"{radius_km} km from its centre (no atmosphere)?")
    else:
        gm = speed**2 * radius_km * 1000
        text = (f"A planet has gravitational parameter GM = {gm} m^3/s^2. A satellite moves on a circular orbit of "
                f"radius {radius_km} km about its centre. What is the satellite's orbital speed?")
    return text, {"x": Fraction(speed)}, 2 + escape


def _kepler(rng: random.Random) -> Question:
    """T2 = T1 (a2/a1)^(3/2) with a2/a1 = (p/q)^2, so T2 = T1 (p/q)^3."""
    p, q = rng.sample(range(1, 8), 2)
    scale = rng.randint(1, 9)
    a1, a2 = Fraction(scale * q * q, 10), Fraction(scale * p * p, 10)
    period = rng.randint(20, 900)
    text = (f"Two planets orbit the same star on circular orbits. The first orbits at {decimal_text(a1)} AU with a "
            f"period of {period} days. The second orbits at {decimal_text(a2)} AU. What is the second planet's "
            "orbital period?")
    return text, {"x": period * Fraction(p, q) ** 3}, 3


def _ellipse(rng: random.Random) -> Question:
    periapsis = rng.randint(65, 400) * 100
    apoapsis = periapsis + rng.randint(1, 600) * 100
    speed = rng.randint(3000, 11000)
    text = (f"A probe moves on an elliptical orbit about a planet. Its closest approach (periapsis) is {periapsis} km "
            f"from the planet's centre, where it moves at {speed} m/s; its farthest point (apoapsis) is {apoapsis} km "
            "from the centre. Find the semi-major axis a (in km), the eccentricity e and the speed v_a at apoapsis "
            "(in m/s).")
    values = {"a": Fraction(periapsis + apoapsis, 2), "e": Fraction(apoapsis - periapsis, apoapsis + periapsis),
              "v_a": Fraction(speed * periapsis, apoapsis)}
    return text, values, 4


def _energy(rng: random.Random) -> Question:
    gm = rng.randint(1, 9) * 10 ** rng.randint(13, 14) + rng.randint(1, 999) * 10**10
    r1 = rng.randint(60, 300) * 100
    r2 = r1 + rng.randint(1, 400) * 100
    mass = rng.randint(2, 60) * 50
    work = Fraction(gm * mass, 2) * (Fraction(1, r1 * 1000) - Fraction(1, r2 * 1000))
    text = (f"A planet has gravitational parameter GM = {gm} m^3/s^2. A {mass} kg satellite is moved from a circular "
            f"orbit of radius {r1} km to a circular orbit of radius {r2} km (radii from the planet's centre). By how "
            "much does its total mechanical energy (kinetic plus gravitational potential) increase?")
    return text, {"x": work}, 5


def _hohmann(rng: random.Random) -> Question:
    """Transfer time = T1/2 ((r1 + r2)/(2 r1))^(3/2), with (r1 + r2)/(2 r1) = (p/q)^2 (p > q)."""
    q = rng.randint(2, 6)
    p = rng.randint(q + 1, 2 * q - 1) if q > 2 else 3
    r1 = rng.randint(1, 60) * 100 * q * q
    r2 = 2 * r1 * p * p // (q * q) - r1
    period = rng.randint(2, 200)
    text = (f"A spacecraft moves on a circular orbit of radius {r1} km about a planet, with a period of {period} hours. "
            f"It transfers to a circular orbit of radius {r2} km (same centre) by a Hohmann transfer: half of an "
            "ellipse whose periapsis is on the inner orbit and apoapsis on the outer one. How long does the transfer "
            "(from periapsis to apoapsis) take?")
    return text, {"x": Fraction(period, 2) * Fraction(p, q) ** 3}, 7


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "speed": _speed, "kepler": _kepler, "ellipse": _ellipse, "energy": _energy, "hohmann": _hohmann,
}
