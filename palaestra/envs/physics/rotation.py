"""Rotational dynamics: moments of inertia of composite bodies, angular momentum, torque and rotational energy.

A rigid body turning about a fixed axis is built of parts: point masses, thin rods (about their centre,
about one end, or off the axis by the parallel-axis theorem), and discs, rings and solid spheres
(centred on the axis or off it). The question asks for the body's moment of inertia, its rotational
kinetic energy at a given angular speed, the angular speed a constant torque gives it from rest, or
(angular momentum conserved) its new angular speed after a small lump of clay sticks to it at a given
distance from the axis. Masses are whole or half kilograms and lengths whole decimetres, so every
answer is an exact rational, computed with fractions; levels add parts (the parallel-axis theorem
from level 1).

The answer is the number in the asked unit (``kg·m²``, ``J`` or ``rad/s``), in any exact spelling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.physics.common import decimal_text, fraction_text, read_quantity

UNITS = {
    "kg·m²": {"kg·m²": 1, "kg m^2": 1, "kg m²": 1, "kg*m^2": 1, "kg·m^2": 1, "kgm^2": 1, "kg m2": 1},
    "J": {"J": 1, "joule": 1, "joules": 1},
    "rad/s": {"rad/s": 1, "rad s^-1": 1, "radians per second": 1, "rad/sec": 1},
}
Part = tuple[str, Fraction]  # description, moment of inertia about the axis


@register
class Rotation(Task):
    id = "physics/rotation"
    family = "physics"
    description = "Moments of inertia of composite bodies, rotational energy, torque and angular momentum, exactly."
    tags = ("physics", "mechanics", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        parts: int
        offset: bool  # parts may sit off the axis (parallel-axis theorem)
        kinds: tuple[str, ...]

    presets = (
        Config(parts=1, offset=False, kinds=("inertia", "energy")),
        Config(parts=2, offset=True, kinds=("inertia", "energy")),
        Config(parts=2, offset=True, kinds=("torque", "clay")),
        Config(parts=3, offset=True, kinds=("torque", "clay", "energy")),
        Config(parts=4, offset=True, kinds=("inertia", "torque", "clay", "energy")),
    )
    growth = Growth(steps={"parts": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        parts = [_part(rng, config.offset) for _ in range(config.parts)]
        inertia = sum((p[1] for p in parts), Fraction(0))
        listing = "\n".join(f"  - {text}" for text, _ in parts)
        kind = rng.choice(config.kinds)
        steps = config.parts + sum("parallel" in text or "from the axis" in text for text, _ in parts)
        if kind == "inertia":
            question, value, unit = "What is the body's moment of inertia about the axis, in kg·m²?", inertia, "kg·m²"
        elif kind == "energy":
            omega = rng.randint(1, 20)
            question = f"The body turns at {omega} rad/s. What is its rotational kinetic energy, in joules?"
            value, unit, steps = inertia * omega * omega / 2, "J", steps + 1
        elif kind == "torque":
            torque, seconds = Fraction(rng.randint(1, 40), 2), rng.randint(1, 12)
            question = (f"Starting from rest, the body is driven by a constant torque of {_n(torque)} N·m about the "
                        f"axis for {seconds} s (no friction). What is its angular speed then, in rad/s?")
            value, unit, steps = torque * seconds / inertia, "rad/s", steps + 2
        else:
            omega, clay, distance = rng.randint(1, 30), Fraction(rng.randint(1, 8), 4), Fraction(rng.randint(1, 15), 10)
            question = (f"The body spins freely at {omega} rad/s. A {_n(clay)} kg lump of clay (a point mass), "
                        f"dropped with no spin, sticks to it {_n(distance)} m from the axis. What is the new angular "
                        "speed, in rad/s?")
            value, unit, steps = inertia * omega / (inertia + clay * distance * distance), "rad/s", steps + 3
        example = {"kg·m²": "49/60 kg·m²", "J": "245/6 J", "rad/s": "35/4 rad/s"}[unit]  # fixed per unit
        prompt = (f"A rigid body turns about a fixed axis. It is made of these parts (rods are thin and uniform; "
                  f"discs, rings and spheres are uniform):\n{listing}\n\n{question} Give the exact value (a fraction "
                  f"if needed), e.g. {example}.")
        return Problem(prompt=prompt, answer=f"{fraction_text(value)} {unit}",
                       data={"value": fraction_text(value), "unit": unit, "steps": steps, "kind": kind})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        value = read_quantity(answer, UNITS[unit])
        if value is None:
            return Verdict.unparsed(f"expected an exact number in {unit}")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Parts to add up (twice for an off-axis part), plus the steps the question adds, plus a tenth of the
        answer's digits."""
        return problem.data["steps"] + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value, unit = problem.data["value"], problem.data["unit"]
        out = [*super().spellings(problem), value, f"{value} {list(UNITS[unit])[1]}"]
        decimal = decimal_text(Fraction(value))
        if decimal is not None:
            out.append(f"{decimal} {unit}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value, unit = Fraction(problem.data["value"]), problem.data["unit"]
        wrong = [f"{fraction_text(value + 1)} {unit}", f"{fraction_text(value * 2)} {unit}",
                 f"{fraction_text(value / 2)} {unit}", f"{fraction_text(value)} or {fraction_text(value * 2)}"]
        if decimal_text(value) is None:
            wrong.append(f"{float(value):.3f} {unit}")
        return wrong


def _n(value: Fraction) -> str:
    return decimal_text(value) or fraction_text(value)


def _part(rng: random.Random, offset: bool) -> Part:
    mass = Fraction(rng.randint(1, 40), 2)
    size = Fraction(rng.randint(1, 30), 10)
    away = Fraction(rng.randint(1, 30), 10)
    kinds = ["point", "rod_centre", "rod_end", "disc", "ring", "sphere"]
    if offset:
        kinds += ["rod_off", "disc_off", "sphere_off"]
    kind = rng.choice(kinds)
    m, s, d = _n(mass), _n(size), _n(away)
    a = "an" if m.startswith(("8", "11", "18")) else "a"
    if kind == "point":
        return f"{a} {m} kg point mass {d} m from the axis", mass * away * away
    if kind == "rod_centre":
        return f"{a} {m} kg rod {s} m long, perpendicular to the axis, with its centre on the axis", mass * size**2 / 12
    if kind == "rod_end":
        return f"{a} {m} kg rod {s} m long, perpendicular to the axis, with one end on the axis", mass * size**2 / 3
    if kind == "rod_off":
        return (f"{a} {m} kg rod {s} m long, parallel to the axis (it spins about the axis, not its own centre), "
                f"{d} m from the axis"), mass * away * away
    shapes = {"disc": ("disc", Fraction(1, 2)), "ring": ("thin ring", Fraction(1)), "sphere": ("solid sphere",
              Fraction(2, 5)), "disc_off": ("disc", Fraction(1, 2)), "sphere_off": ("solid sphere", Fraction(2, 5))}
    name, factor = shapes[kind]
    own = factor * mass * size * size
    facing = " lying flat, perpendicular to the axis," if name in ("disc", "thin ring") else ""
    if kind.endswith("_off"):
        return (f"{a} {m} kg {name} of radius {s} m,{facing} whose centre is {d} m from the axis (use the "
                "parallel-axis theorem)"), own + mass * away * away
    return f"{a} {m} kg {name} of radius {s} m,{facing} centred on the axis", own
