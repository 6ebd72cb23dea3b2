"""Support reactions of a beam on two supports under point loads, a distributed load and a couple.

A horizontal beam rests on supports A and B (at its ends at the low levels,
possibly inside the span with overhangs above). It carries downward point
loads, from level 3 a uniformly distributed load over a segment, and at level 4
a point moment. The task is the two vertical reactions from the equilibrium of
forces and of moments about A; the generator computes them with exact
fractions.

The answer is ``R_A = 12.5, R_B = 7.5`` in kN, upward positive, in either order and
any notation the shared assignment reader takes (``RA``, ``R_{A}``, ``A``, ``:``,
``(R_A, R_B) = (12.5, 7.5)``, a trailing ``kN``). As the prompt states, each value is
either exact (an integer, a terminating decimal or a fraction such as ``22/3``) or a
decimal correctly rounded to the places it shows, at least two (``7.33`` or ``7.3333``
for 22/3; never ``26.02`` or ``26.004`` for 26).

The prompt's example is the same for every beam (before v3 it was swapped when a reaction was 12.5 or
22/3, which told a policy one reaction on 0.5% of level-0 beams and so both; now 0%).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import format_decimal, format_number, max_fraction_digits, read_number, unit_spellings

MIN_PLACES = 2  # a rounded value shows at least this many decimal places
EXAMPLE = "R_A = 12.5, R_B = 22/3"  # fixed, whatever the answer (this pair is no drawn beam's in 2,000 seeds a level)
_NAMES = ("R_A", "R_B")
_ALIASES = {"A": "R_A", "B": "R_B"}  # "A: 12, B: 7"
_KILONEWTONS = unit_spellings("kN")
# "R_A=12 R_B=7": pairs separated by spaces only (the shared reader wants , ; "and" or new lines)
# "R_A ≈ 42.73": the shared reader wants = or :, and the value reader takes the ≈ (rounding is allowed)
_APPROX_AFTER_NAME = re.compile(r"(?<![^\s,;(])((?:R\s*_?\s*\{?\s*)?[AB]\s*\}?)\s*(?:≈|\\approx)\s*")
_SPACE_BEFORE_NAME = re.compile(r"(?<=[\dN}])\s+(?=(?:R\s*_?\s*\{?\s*)?[AB]\s*\}?\s*(?:=|:))")


@register
class BeamStatics(Task):
    id = "physics/beam_statics"
    family = "physics"
    description = "Find the two vertical support reactions of a loaded beam from static equilibrium."
    tags = ("physics", "statics", "math")
    max_answer_chars = 500
    version = 3  # v3: the prompt's example is fixed (it changed when a reaction was 12.5 or 22/3)

    @dataclass(frozen=True)
    class Config:
        min_loads: int
        max_loads: int
        grid: int  # positions are multiples of 1/grid metres
        overhangs: bool  # supports may sit inside the span
        distributed_load: bool
        point_moment: bool

    presets = (
        Config(min_loads=1, max_loads=1, grid=2, overhangs=False, distributed_load=False, point_moment=False),
        Config(min_loads=2, max_loads=3, grid=2, overhangs=False, distributed_load=False, point_moment=False),
        Config(min_loads=2, max_loads=3, grid=2, overhangs=True, distributed_load=False, point_moment=False),
        Config(min_loads=2, max_loads=3, grid=2, overhangs=True, distributed_load=True, point_moment=False),
        Config(min_loads=3, max_loads=4, grid=4, overhangs=True, distributed_load=True, point_moment=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        length = rng.randint(4, 15)
        a, b = _supports(rng, config, length)
        lines: list[str] = []
        total = Fraction(0)  # total downward load, kN
        moment_about_a = Fraction(0)  # clockwise moment of the loads about A, kN*m
        inner = (Fraction(1, config.grid), length - Fraction(1, config.grid))  # a load on a support is trivial
        loads = sorted((_position(rng, config, *inner), Fraction(rng.randint(2, 90)))
                       for _ in range(rng.randint(config.min_loads, config.max_loads)))
        for x, force in loads:
            lines.append(f"a downward point load of {format_decimal(force)} kN at x = {format_decimal(x)} m")
            total, moment_about_a = total + force, moment_about_a + force * (x - a)
        if config.distributed_load:
            start = _position(rng, config, 0, length - 1)
            end = _position(rng, config, start + 1, length)
            intensity = Fraction(rng.randint(1, 12))
            force = intensity * (end - start)
            lines.append(f"a uniformly distributed downward load of {format_decimal(intensity)} kN/m "
                         f"from x = {format_decimal(start)} m "
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
            f"It rests on a pin support A at x = {format_decimal(a)} m and a roller support B at "
            f"x = {format_decimal(b)} m; both "
            "supports can push or pull vertically. The beam carries:\n"
            + "\n".join(f"- {line}" for line in lines)
            + ("\nThe x-axis points right and up is positive; clockwise is as seen in that view."
               if config.point_moment else "")
            + "\n\nIgnore the weight of the beam. Find the vertical support reactions R_A and R_B in kN "
            "(positive = upward). Give each either exactly (an integer, a terminating decimal or a fraction) "
            "or as a decimal correctly rounded to two or more decimal places (such as 7.33 for 22/3), "
            f"written like {EXAMPLE}"
        )
        texts = {name: format_decimal(value) for name, value in reactions.items()}
        terms = len(loads) + (a != 0) + (b != length) + 2 * config.distributed_load + config.point_moment
        return Problem(
            prompt=prompt,
            answer=f"R_A = {texts['R_A']}, R_B = {texts['R_B']}",
            data={"reactions": texts, "terms": terms},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = _read_reactions(answer)
        if values is None:
            return Verdict.unparsed("expected R_A = <number>, R_B = <number> (each once)")
        missing = [name for name in _NAMES if name not in values]
        if missing:
            return Verdict.wrong(f"no value given for {' and '.join(missing)}")
        wrong = [n for n in _NAMES if not _acceptable(*values[n], Fraction(problem.data["reactions"][n]))]
        return Verdict.judge(not wrong, f"wrong value for {' and '.join(wrong)} (exact, or correctly rounded "
                                        f"to at least {MIN_PLACES} decimal places)")

    def difficulty(self, problem: Problem) -> float:
        """Terms of the equilibrium equations: each load's moment about A, a distributed load's
        resultant and its lever arm, a couple, and the lever arms of supports inside the span."""
        return float(problem.data["terms"])

    def spellings(self, problem: Problem) -> list[str]:
        r_a, r_b = (Fraction(problem.data["reactions"][n]) for n in _NAMES)
        a, b = format_decimal(r_a), format_decimal(r_b)
        spellings = [
            *super().spellings(problem),
            f"R_B = {b}, R_A = {a}",
            f"RA = {a} kN; RB = {b} kN",
            f"R_{{A}} = {_latex(r_a)}, R_{{B}} = {_latex(r_b)}",
            f"(R_A, R_B) = ({a}, {b})",
            f"A: {a}, B: {b}",
            f"R_A = {a} kN\nR_B = {b} kN",
            f"R_A = {format_number(r_a)}, R_B = {format_number(r_b)}."
            if r_a > 0 and r_b > 0 else f"R_A = {format_number(r_a)}, R_B = {format_number(r_b)}.",
            f"R_A = {_rounded(r_a, 2)}, R_B = {_rounded(r_b, 2)}",
            f"R_A = {_rounded(r_a, 4)} kN, R_B = {_rounded(r_b, 3)} kN",
            f"\\boxed{{R_A = {a}\\text{{ kN}}, R_B = {b}\\text{{ kN}}}}",
        ]
        return spellings

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        r_a, r_b = (Fraction(problem.data["reactions"][n]) for n in _NAMES)
        nudge = max(Fraction(1), abs(r_a) / 10) * rng.choice([-1, 1])
        wrong = [
            f"R_A = {format_decimal(r_a + nudge)}, R_B = {format_decimal(r_b)}",
            f"R_A = {format_decimal(r_a)}",
            f"R_A = {_rounded(r_a + Fraction(2, 100), 2)}, R_B = {_rounded(r_b, 2)}",  # off by 0.02 (issue #9)
            f"R_A = {_rounded(r_a + Fraction(4, 1000), 3)}, R_B = {format_decimal(r_b)}",  # off in the third place
            f"R_A = {format_decimal(r_a)}, R_B = {format_decimal(r_b)}, R_A = {format_decimal(r_a + 1)}",
            f"R_A = {format_decimal(r_a)} kN, R_B = {format_decimal(r_b)} kN*m",  # a moment, not a force
        ]
        if Fraction(_rounded(r_a, 1)) != r_a:
            wrong.append(f"R_A = {_rounded(r_a, 1)}, R_B = {format_decimal(r_b)}")  # too few places
        if r_a != r_b:
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


def _read_reaction(text: str) -> tuple[Fraction, int] | None:
    """A reaction's value (kN may follow) and the decimal places it shows."""
    value = read_number(text, units=_KILONEWTONS, approximate=True, max_digits=40)
    return None if value is None else (value, max_fraction_digits(text))


def _read_reactions(answer: str) -> dict[str, tuple[Fraction, int]] | None:
    """``{"R_A": (value, places), "R_B": ...}`` (either may be missing), or None when unreadable
    (another name, or one reaction given two different values)."""
    if len(answer) > BeamStatics.max_answer_chars:
        return None
    names = [*_NAMES, *_ALIASES]
    answer = _APPROX_AFTER_NAME.sub(r"\1 = ≈ ", answer)
    values = read_assignment(answer, names, _read_reaction, partial=True)
    if values is None:
        values = read_assignment(_SPACE_BEFORE_NAME.sub(", ", answer), names, _read_reaction, partial=True)
    if values is None:
        return None
    merged: dict[str, tuple[Fraction, int]] = {}
    for name, value in values.items():
        name = _ALIASES.get(name, name)
        if merged.setdefault(name, value)[0] != value[0]:
            return None
    return merged


def _acceptable(value: Fraction, places: int, exact: Fraction) -> bool:
    """Exact, or a decimal with at least MIN_PLACES places that is the exact value rounded to them."""
    if value == exact:
        return True
    return places >= MIN_PLACES and abs(value - exact) * 2 * 10**places <= 1


def _rounded(value: Fraction, places: int) -> str:
    """``value`` rounded half away from zero to ``places`` decimal places, all places shown."""
    scaled = abs(value) * 10**places
    digits = str(int(scaled + Fraction(1, 2))).rjust(places + 1, "0")
    return ("-" if value < 0 and int(scaled + Fraction(1, 2)) else "") + digits[:-places] + "." + digits[-places:]


def _latex(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{'-' if value < 0 else ''}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"
