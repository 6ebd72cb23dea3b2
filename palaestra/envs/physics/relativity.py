"""Special relativity: time dilation, length contraction and relativistic velocity addition, exactly.

Levels 0-1 ask for a dilated time, a proper time, a contracted length or a proper length of a ship
moving at a speed βc whose β comes from a Pythagorean triple (β = a/c with a² + b² = c², so
γ = c/b is rational); level 1 also asks for the speed from two measured times. From level 2 on, a
chain of frames each moving along one line relative to the previous one (some backwards) asks for
the velocity of the last frame in the first, u ⊕ v = (u + v)/(1 + uv/c²) applied in turn; from
level 3 the chain may also give two velocities measured in one frame and ask for one object's
velocity in the other's rest frame ((u - v)/(1 - uv/c²)). Speeds are rational fractions of c (denominators up to 30), so
every answer is an exact rational, computed with fractions.

The answer is the number in the asked unit (``21/29 c`` or ``21/29``; ``125/4 years``; ``48/5 m``),
in any exact spelling; a rounded value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.physics.common import decimal_text, fraction_text, read_quantity

TRIPLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29), (12, 35, 37), (9, 40, 41),
           (28, 45, 53), (11, 60, 61), (33, 56, 65), (16, 63, 65), (48, 55, 73), (13, 84, 85), (36, 77, 85),
           (39, 80, 89), (65, 72, 97))
UNITS = {"c": {"c": 1}, "years": {"years": 1, "year": 1, "yr": 1, "yrs": 1, "y": 1},
         "m": {"m": 1, "metres": 1, "meters": 1, "km": 1000}}


@register
class Relativity(Task):
    id = "physics/relativity"
    family = "physics"
    description = "Time dilation, length contraction and relativistic velocity addition along a chain of frames, exactly."
    tags = ("physics", "relativity", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        frames: int  # 1: one moving ship (dilation, contraction); more: a chain of velocity additions
        relative: bool  # the chain may ask a velocity in another object's rest frame
        solve_speed: bool  # level 1: the speed from two measured times

    presets = (
        Config(frames=1, relative=False, solve_speed=False),
        Config(frames=1, relative=False, solve_speed=True),
        Config(frames=2, relative=False, solve_speed=False),
        Config(frames=3, relative=True, solve_speed=False),
        Config(frames=4, relative=True, solve_speed=False),
    )
    growth = Growth(steps={"frames": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if config.frames == 1:
            question, value, unit, steps = _one_ship(rng, config.solve_speed)
        else:
            question, value, unit, steps = _chain(rng, config.frames, config.relative)
        example = {"c": "7/9 c", "years": "35/3 years", "m": "12/5 m"}[unit]  # fixed per unit, not per answer
        prompt = f"{question}\n\nGive the exact value (a fraction if needed), e.g. {example}."
        return Problem(prompt=prompt, answer=f"{fraction_text(value)} {unit}",
                       data={"value": fraction_text(value), "unit": unit, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        value = read_quantity(answer, UNITS[unit])
        if value is None:
            return Verdict.unparsed(f"expected an exact number in {unit}")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Formula applications (one per frame change, two for a rest-frame change), plus a tenth of the answer's
        digits."""
        return problem.data["steps"] + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value, unit = problem.data["value"], problem.data["unit"]
        out = [*super().spellings(problem), value, f"\\frac{{{value.split('/')[0]}}}{{{value.split('/')[1]}}}"
               if "/" in value else f"{value}.0"]
        decimal = decimal_text(Fraction(value))
        if decimal is not None:
            out.append(f"{decimal} {unit}")
        if unit == "c":
            out.append(f"v = {value}c")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value, unit = Fraction(problem.data["value"]), problem.data["unit"]
        wrong = [fraction_text(value + 1), fraction_text(value * 2), fraction_text(1 / value) if value else "1",
                 f"{fraction_text(value)} or {fraction_text(value + 1)}"]
        if unit == "c":
            wrong.append(fraction_text(-value) if value else "1/2")
        if decimal_text(value) is None:
            wrong.append(f"{float(value):.3f} {unit}")
        return wrong


def _beta(rng: random.Random) -> tuple[Fraction, Fraction]:
    """(β, γ) with γ rational: β = a/c or b/c of a Pythagorean triple."""
    a, b, c = rng.choice(TRIPLES)
    if rng.random() < 0.5:
        a, b = b, a
    return Fraction(a, c), Fraction(c, b)


def _one_ship(rng: random.Random, solve_speed: bool) -> tuple[str, Fraction, str, int]:
    beta, gamma = _beta(rng)
    speed = f"{fraction_text(beta)} c"
    kind = rng.choice(("dilated", "proper_time", "contracted", "proper_length", "speed") if solve_speed
                      else ("dilated", "proper_time", "contracted", "proper_length"))
    if kind == "dilated":
        tau = rng.randint(1, 120)
        return (f"A spaceship travels at a constant {speed} relative to Earth. Its crew's clock records {tau} years "
                "for the trip. How long does the trip take as measured on Earth, in years?"), tau * gamma, "years", 1
    if kind == "proper_time":
        earth = rng.randint(1, 120)
        return (f"A spaceship travels at a constant {speed} relative to Earth, and the trip takes {earth} years as "
                "measured on Earth. How much time passes on the crew's clock, in years?"), earth / gamma, "years", 1
    if kind == "contracted":
        length = rng.randint(10, 500)
        return (f"A rod {length} m long in its own rest frame moves along its length at {speed} relative to a "
                "laboratory. How long is it as measured in the laboratory, in metres?"), length / gamma, "m", 1
    if kind == "proper_length":
        length = rng.randint(10, 500)
        return (f"A rod moving along its length at {speed} relative to a laboratory measures {length} m there. "
                "How long is it in its own rest frame, in metres?"), length * gamma, "m", 1
    tau = rng.randint(1, 60)
    earth_years = tau * gamma
    return (f"A spaceship's crew clock records {tau} years for a trip that takes {fraction_text(earth_years)} years as "
            "measured on Earth. How fast does the ship travel relative to Earth, as a fraction of the speed of light "
            "c?"), beta, "c", 2


SPEEDS = sorted({Fraction(k, d) for d in range(2, 31) for k in range(1, d)})  # drawn uniformly: no value dominates


def _velocity(rng: random.Random) -> Fraction:
    return rng.choice(SPEEDS) * rng.choice((1, 1, -1))


def _compose(u: Fraction, v: Fraction) -> Fraction:
    return (u + v) / (1 + u * v)


def _motion(v: Fraction) -> str:
    return f"{fraction_text(abs(v))} c {'forwards' if v > 0 else 'backwards'}"


def _chain(rng: random.Random, frames: int, relative: bool) -> tuple[str, Fraction, str, int]:
    velocities = [_velocity(rng) for _ in range(frames)]
    velocities[0] = abs(velocities[0])
    lines = [f"Frame F1 moves at {_motion(velocities[0])} relative to the station."]
    for i in range(1, frames):
        lines.append(f"Frame F{i + 1} moves at {_motion(velocities[i])} relative to frame F{i}.")
    lab = Fraction(0)
    for v in velocities:
        lab = _compose(lab, v)
    steps = frames
    if relative and rng.random() < 0.6:
        probe = _velocity(rng)
        # the probe's velocity is measured in the station frame; asked: the probe in the last frame
        value = (probe - lab) / (1 - probe * lab)
        question = (f"A probe moves at {_motion(probe)} relative to the station. What is the probe's velocity "
                    f"relative to frame F{frames}, as a fraction of c (positive forwards, negative backwards)?")
        steps += 2
    else:
        value = lab
        question = (f"What is the velocity of frame F{frames} relative to the station, as a fraction of c "
                    "(positive forwards, negative backwards)?")
    text = ("All motion is along one straight line; forwards is the same direction throughout. "
            + " ".join(lines) + " " + question)
    return text, value, "c", steps
