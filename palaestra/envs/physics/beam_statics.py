"""Support reactions of a beam on two supports under point loads, a distributed load and a couple.

A horizontal beam rests on supports A and B (at its ends at the low levels,
possibly inside the span with overhangs above). It carries downward point
loads, from level 3 a uniformly distributed load over a segment, and at level 4
a point moment. The task is the two vertical reactions from the equilibrium of
forces and of moments about A; the generator computes them with exact
fractions.

The answer is ``R_A = 12.5, R_B = 7.5`` in kN, upward positive, in either order
(``RA``, ``A``, ``:`` and a trailing ``kN`` are accepted). Each value may be a
decimal or a fraction and must be within 0.01 kN or 0.1 % of the exact one.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.numeric import format_decimal, parse_number

MAX_ANSWER_CHARS = 500
ABSOLUTE_TOLERANCE = 0.01
RELATIVE_TOLERANCE = 0.001
_SEPARATOR = re.compile(r"[,;\n]|\band\b|\s+(?=R\s*_?\s*\{?\s*[AB])", re.IGNORECASE)
_PAIR = re.compile(r"^\s*\$?\s*R?\s*_?\s*\{?\s*([AB])\s*\}?\s*\$?\s*(?:=|:)\s*(.+?)\s*(?:kN)?\s*$", re.IGNORECASE)


@register
class BeamStatics(Task):
    id = "physics/beam_statics"
    family = "physics"
    description = "Find the two vertical support reactions of a loaded beam from static equilibrium."
    tags = ("physics", "statics", "math")

    @dataclass(frozen=True)
    class Config:
        min_loads: int
        max_loads: int
        grid: int  # positions are multiples of 1/grid metres
        overhangs: bool  # supports may sit inside the span
        distributed_load: bool
        point_moment: bool

    def config(self, level: int) -> Config:
        return [
            self.Config(min_loads=1, max_loads=1, grid=1, overhangs=False, distributed_load=False, point_moment=False),
            self.Config(min_loads=2, max_loads=3, grid=2, overhangs=False, distributed_load=False, point_moment=False),
            self.Config(min_loads=2, max_loads=3, grid=2, overhangs=True, distributed_load=False, point_moment=False),
            self.Config(min_loads=2, max_loads=3, grid=2, overhangs=True, distributed_load=True, point_moment=False),
            self.Config(min_loads=3, max_loads=4, grid=4, overhangs=True, distributed_load=True, point_moment=True),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        length = rng.randint(4, 12)
        a, b = _supports(rng, config, length)
        lines: list[str] = []
        total = Fraction(0)  # total downward load, kN
        moment_about_a = Fraction(0)  # clockwise moment of the loads about A, kN*m
        inner = (Fraction(1, config.grid), length - Fraction(1, config.grid))  # a load on a support is trivial
        loads = sorted((_position(rng, config, *inner), Fraction(rng.randint(2, 40)))
                       for _ in range(rng.randint(config.min_loads, config.max_loads)))
        for x, force in loads:
            lines.append(f"a downward point load of {format_decimal(force)} kN at x = {format_decimal(x)} m")
            total, moment_about_a = total + force, moment_about_a + force * (x - a)
        if config.distributed_load:
            start = _position(rng, config, 0, length - 1)
            end = _position(rng, config, start + 1, length)
            intensity = Fraction(rng.randint(1, 12))
            force = intensity * (end - start)
            lines.append(f"a uniformly distributed downward load of {format_decimal(intensity)} kN/m from x = {format_decimal(start)} m "
                         f"to x = {format_decimal(end)} m")
            total, moment_about_a = total + force, moment_about_a + force * ((start + end) / 2 - a)
        if config.point_moment:
            couple, x = Fraction(rng.randint(5, 60)), _position(rng, config, 0, length)
            clockwise = rng.random() < 0.5
            lines.append(f"a {'clockwise' if clockwise else 'counterclockwise'} point moment (couple) of "
                         f"{format_decimal(couple)} kN*m at x = {format_decimal(x)} m")
            moment_about_a += couple if clockwise else -couple
        r_b = moment_about_a / (b - a)
        reactions = {"R_A": total - r_b, "R_B": r_b}
        prompt = (
            f"A horizontal beam of length {length} m lies along the x-axis from x = 0 to x = {length} m. "
            f"It rests on a pin support A at x = {format_decimal(a)} m and a roller support B at x = {format_decimal(b)} m; both "
            "supports can push or pull vertically. The beam carries:\n"
            + "\n".join(f"- {line}" for line in lines)
            + ("\nThe x-axis points right and up is positive; clockwise is as seen in that view."
               if config.point_moment else "")
            + "\n\nIgnore the weight of the beam. Find the vertical support reactions R_A and R_B in kN "
            "(positive = upward). Give each as a decimal with at least two decimal places or as an exact "
            "fraction, written as R_A = ..., R_B = ..."
        )
        texts = {name: format_decimal(value) for name, value in reactions.items()}
        return Problem(
            prompt=prompt,
            answer=f"R_A = {texts['R_A']}, R_B = {texts['R_B']}",
            data={"reactions": texts},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = _read_reactions(answer)
        if values is None:
            return Verdict.unparsed("expected R_A = <number>, R_B = <number>")
        for name in ("R_A", "R_B"):
            if name not in values:
                return Verdict.wrong(f"no value given for {name}")
            if values[name] is None:
                return Verdict.wrong(f"{name} is given more than once")
        wrong = [n for n in ("R_A", "R_B") if not _close(values[n], Fraction(problem.data["reactions"][n]))]
        return Verdict.judge(not wrong, f"wrong value for {' and '.join(wrong)}")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        r_a, r_b = (Fraction(problem.data["reactions"][n]) for n in ("R_A", "R_B"))
        nudge = max(Fraction(1), abs(r_a) / 10) * rng.choice([-1, 1])
        wrong = [f"R_A = {format_decimal(r_a + nudge)}, R_B = {format_decimal(r_b)}", f"R_A = {format_decimal(r_a)}"]
        if not _close(r_a, r_b):
            wrong.append(f"R_A = {format_decimal(r_b)}, R_B = {format_decimal(r_a)}")
        return wrong


def _supports(rng: random.Random, config: BeamStatics.Config, length: int) -> tuple[Fraction, Fraction]:
    """Support positions: the beam's ends, or with overhangs anywhere in the outer thirds."""
    if not config.overhangs:
        return Fraction(0), Fraction(length)
    third = Fraction(length, 3)
    a = Fraction(0) if rng.random() < 0.3 else _position(rng, config, 0, third)
    b = Fraction(length) if rng.random() < 0.3 else _position(rng, config, length - third, length)
    return a, b


def _position(rng: random.Random, config: BeamStatics.Config, low: Fraction | int, high: Fraction | int) -> Fraction:
    """A random multiple of 1/grid in [low, high] (both are assumed to contain at least one)."""
    first, last = -int(-low * config.grid // 1), int(high * config.grid // 1)
    return Fraction(rng.randint(first, last), config.grid)


def _close(value: Fraction, expected: Fraction) -> bool:
    return abs(value - expected) <= max(ABSOLUTE_TOLERANCE, RELATIVE_TOLERANCE * abs(expected))


def _read_reactions(answer: str) -> dict[str, Fraction | None] | None:
    """``{"R_A": value, "R_B": value}`` (``None`` value: given twice), or ``None`` if any part is unreadable."""
    text = answer.strip().rstrip(".").strip()
    if len(text) > MAX_ANSWER_CHARS:
        return None
    values: dict[str, Fraction | None] = {}
    for part in _SEPARATOR.split(text):
        if not part.strip():
            continue
        match = _PAIR.match(part)
        value = parse_number(match.group(2)) if match else None
        if value is None:
            return None
        name = f"R_{match.group(1).upper()}"
        values[name] = None if name in values else value
    return values or None
