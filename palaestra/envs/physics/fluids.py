"""Fluids: continuity and Bernoulli's equation in pipes, and buoyancy of floating and hanging bodies.

Level 0 asks for the speed of water after a pipe narrows (continuity, A v constant, circular sections)
or the fraction of a floating block under the surface; level 1 for the pressure after a horizontal
narrowing (Bernoulli); level 2 for the pressure where the pipe has also risen or fallen (g = 9.8
m/s²); level 3 for the extra load a floating block can carry before it sinks, or the reading of a
spring scale holding a metal block under water; level 4 for the pressure at a section given the
volume flow rate rather than a speed, or the density of a liquid from a block's apparent weight.
Densities, diameters, speeds and heights are small whole or decimal numbers, so every answer is an
exact rational, computed with fractions.

The answer is the number in the asked unit (``m/s``, ``Pa`` — ``kPa`` accepted —, ``kg``, ``N``,
``kg/m³``, or a bare fraction), in any exact spelling; a rounded value of a non-terminating answer
is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.physics.common import Units, decimal_text, fraction_text, read_quantity

G = Fraction(49, 5)
WATER = 1000
UNITS: dict[str, Units] = {
    "m/s": {"m/s": 1, "m s^-1": 1, "metres per second": 1, "meters per second": 1, "cm/s": Fraction(1, 100)},
    "Pa": {"Pa": 1, "pascal": 1, "pascals": 1, "N/m^2": 1, "N/m²": 1, "kPa": 1000, "MPa": 10**6},
    "kg": {"kg": 1, "kilograms": 1, "g": Fraction(1, 1000)},
    "N": {"N": 1, "newtons": 1, "newton": 1},
    "kg/m³": {"kg/m³": 1, "kg/m^3": 1, "kg/m3": 1, "kg m^-3": 1, "kg·m⁻³": 1, "g/cm³": 1000, "g/cm^3": 1000, "g/cm3": 1000},
    "": {},
}
Question = tuple[str, Fraction, str, int]  # text, exact answer, unit, steps


@register
class Fluids(Task):
    id = "physics/fluids"
    family = "physics"
    description = "Continuity, Bernoulli's equation and buoyancy: speeds, pressures, loads and densities, exactly."
    tags = ("physics", "fluids", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("continuity", "floating_fraction")),
        Config(("bernoulli_level",)),
        Config(("bernoulli_height",)),
        Config(("extra_load", "apparent_weight")),
        Config(("flow_rate", "liquid_density")),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value, unit, steps = _KINDS[kind](rng)
        example = {"m/s": "45/8 m/s", "Pa": "102375/2 Pa", "kg": "27/4 kg", "N": "147/5 N", "kg/m³": "2450/3 kg/m³",
                   "": "7/12"}[unit]  # fixed per unit: independent of the answer
        prompt = f"{question}\n\nGive the exact value (a fraction if needed), e.g. {example}."
        return Problem(prompt=prompt, answer=f"{fraction_text(value)} {unit}".strip(),
                       data={"kind": kind, "value": fraction_text(value), "unit": unit, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        value = read_quantity(answer, UNITS[unit])
        if value is None:
            return Verdict.unparsed(f"expected an exact number{' in ' + unit if unit else ''}")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Relations to combine (continuity, Bernoulli, hydrostatics, Archimedes), plus a tenth of the answer's
        digits."""
        return problem.data["steps"] + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value, unit = problem.data["value"], problem.data["unit"]
        out = [*super().spellings(problem), value]
        decimal = decimal_text(Fraction(value))
        if decimal is not None:
            out.append(f"{decimal} {unit}".strip())
        if unit == "Pa":
            out.append(f"{fraction_text(Fraction(value) / 1000)} kPa")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value, unit = Fraction(problem.data["value"]), problem.data["unit"]
        wrong = [f"{fraction_text(value + 1)} {unit}".strip(), f"{fraction_text(value * 2)} {unit}".strip(),
                 f"{fraction_text(value)} or {fraction_text(value + 1)}"]
        if decimal_text(value) is None:
            wrong.append(f"{float(value):.3f} {unit}".strip())
        if unit == "Pa":
            wrong.append(f"{fraction_text(value)} kPa")
        return wrong


def _n(value: Fraction) -> str:
    return decimal_text(value) or fraction_text(value)


def _pipe(rng: random.Random) -> tuple[int, int, Fraction]:
    """Two different diameters (cm) and the speed (m/s) in the first section."""
    d1, d2 = rng.sample(range(2, 31), 2)
    return d1, d2, Fraction(rng.randint(1, 40), 10)


def _continuity(rng: random.Random) -> Question:
    d1, d2, v1 = _pipe(rng)
    return (f"Water flows at {_n(v1)} m/s through a pipe of diameter {d1} cm, which then changes to a diameter of "
            f"{d2} cm. How fast does the water flow in the second section, in m/s?"), v1 * d1 * d1 / (d2 * d2), "m/s", 1


def _floating_fraction(rng: random.Random) -> Question:
    liquid = rng.choice([(WATER, "water"), (1025, "sea water"), (800, "oil"), (1260, "glycerine"), (13600, "mercury")])
    block = Fraction(rng.randint(1000, liquid[0] * 10 - 1), 10)
    return (f"A solid block of density {_n(block)} kg/m³ floats in {liquid[1]} of density {liquid[0]} kg/m³. What "
            "fraction of the block's volume is below the surface?"), block / liquid[0], "", 1


def _level_pressure(rng: random.Random) -> tuple[str, Fraction, Fraction, Fraction]:
    d1, d2, v1 = _pipe(rng)
    p1 = Fraction(rng.randint(100, 400) * 1000)
    v2 = v1 * d1 * d1 / (d2 * d2)
    text = (f"Water (density {WATER} kg/m³, ideal and incompressible) flows at {_n(v1)} m/s through a pipe of "
            f"diameter {d1} cm where the pressure is {_n(p1)} Pa. Further along, the pipe's diameter is {d2} cm")
    return text, p1, v1, v2


def _bernoulli_level(rng: random.Random) -> Question:
    text, p1, v1, v2 = _level_pressure(rng)
    value = p1 + Fraction(WATER, 2) * (v1 * v1 - v2 * v2)
    return f"{text}, at the same height. What is the pressure there, in Pa?", value, "Pa", 2


def _bernoulli_height(rng: random.Random) -> Question:
    text, p1, v1, v2 = _level_pressure(rng)
    rise = Fraction(rng.randint(-50, 50), 10) or Fraction(1)
    value = p1 + Fraction(WATER, 2) * (v1 * v1 - v2 * v2) - WATER * G * rise
    where = f"{_n(rise)} m higher" if rise > 0 else f"{_n(-rise)} m lower"
    return (f"{text}, and the pipe there is {where} than at the first point. Taking g = 9.8 m/s², what is the "
            "pressure there, in Pa?"), value, "Pa", 3


def _extra_load(rng: random.Random) -> Question:
    density = rng.randint(100, 990)
    side = Fraction(rng.randint(1, 30), 10)
    volume = side**3
    return (f"A solid cube of side {_n(side)} m and density {density} kg/m³ floats in fresh water (density {WATER} "
            "kg/m³). What is the largest mass that can be placed on top of it before it sinks below the surface, in "
            "kg?"), volume * (WATER - density), "kg", 4


def _apparent_weight(rng: random.Random) -> Question:
    metal = rng.choice([(2700, "aluminium"), (7800, "iron"), (8900, "copper"), (11300, "lead"), (8500, "brass")])
    liquid = rng.choice([(WATER, "fresh water"), (1025, "sea water"), (800, "oil")])
    mass = Fraction(rng.randint(1, 400), 4)
    value = mass * G * (1 - Fraction(liquid[0], metal[0]))
    return (f"A {_n(mass)} kg {metal[1]} block (density {metal[0]} kg/m³) hangs from a spring scale, completely under "
            f"{liquid[1]} (density {liquid[0]} kg/m³). Taking g = 9.8 m/s², what force does the scale read, in "
            "newtons?"), value, "N", 4


def _flow_rate(rng: random.Random) -> Question:
    d1, d2, _ = _pipe(rng)
    litres = rng.randint(1, 30)
    p1 = Fraction(rng.randint(100, 400) * 1000)
    # v = Q / (pi d^2 / 4) is irrational; squared speeds carry 1/pi^2, so use square cross-sections instead
    q = Fraction(litres, 1000)
    v1, v2 = q / Fraction(d1 * d1, 10_000), q / Fraction(d2 * d2, 10_000)
    value = p1 + Fraction(WATER, 2) * (v1 * v1 - v2 * v2)
    return (f"Water (density {WATER} kg/m³, ideal and incompressible) flows at {litres} litres per second through a "
            f"horizontal duct with a square cross-section {d1} cm by {d1} cm, where the pressure is {_n(p1)} Pa. "
            f"The duct then narrows or widens to a square cross-section {d2} cm by {d2} cm at the same height. What is "
            "the pressure there, in Pa?"), value, "Pa", 5


def _liquid_density(rng: random.Random) -> Question:
    mass = rng.randint(1, 20)
    volume_litres = rng.randint(1, mass * 1000 // 2000 + 1)  # the block is denser than the liquids drawn
    density = Fraction(rng.randint(600, 1500))
    while density * volume_litres / 1000 >= mass:  # bounded: density drops by 100 each pass
        density -= 100
    volume = Fraction(volume_litres, 1000)
    reading = (mass - density * volume) * G
    return (f"A {mass} kg block of volume {volume_litres} litres weighs {_n(reading)} N on a spring scale when "
            "completely under an unknown liquid. Taking g = 9.8 m/s², what is the liquid's density, in kg/m³?"), \
        density, "kg/m³", 5


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "continuity": _continuity, "floating_fraction": _floating_fraction, "bernoulli_level": _bernoulli_level,
    "bernoulli_height": _bernoulli_height, "extra_load": _extra_load, "apparent_weight": _apparent_weight,
    "flow_rate": _flow_rate, "liquid_density": _liquid_density,
}
