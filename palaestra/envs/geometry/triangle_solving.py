"""Solve a triangle exactly: sides, areas and radii as surds.

Angles are multiples of 15 degrees, whose sines and cosines are exact surds
(``sin 75° = (√6 + √2)/4``), and given sides are whole numbers, so every answer is a
sum of rational multiples of square roots, computed exactly
(:class:`palaestra.verifiers.expressions.Surd`). Level 0: right triangles (hypotenuse,
a leg, the area); level 1: the third side from two sides and the included angle
(60°, 90° or 120°) and the cosine of an angle from three sides; level 2: a side by the
law of sines and an area from two sides and any angle; level 3: Heron's area, the
circumradius and an altitude; level 4: the inradius, a side opposite a 15°, 75°, 105° or
165° angle (whose sine is a sum of two roots), and the perimeter. A triangle whose answer is a
number the question states (an isosceles one, where the side asked equals the side given: 9% of
level-4 answers) is drawn again.

The answer is the exact value in any spelling the radical reader takes (``5√3``,
``5*sqrt(3)``, ``\\frac{5\\sqrt{6}}{2}``, ``(√6 + √2)/4``, ``sqrt(75)``); rounded decimals
are wrong, and so is the question's formula typed back: a power, arithmetic under a root, or
numbers without roots left to combine (``sqrt(91^2 - 77^2)``, ``sqrt(8281 - 5929)``, ``31*27/4``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.radicals import format_radical, radical_spellings, read_radical, work_left

_R = Surd.rational


def _sin(degrees: int) -> Surd:
    """Exact sine of a multiple of 15 degrees in [0, 180]."""
    d = degrees if degrees <= 90 else 180 - degrees
    six, two, three = Surd.sqrt(Fraction(6)), Surd.sqrt(Fraction(2)), Surd.sqrt(Fraction(3))
    return {
        0: _R(0), 15: (six - two) * Fraction(1, 4), 30: _R(Fraction(1, 2)), 45: two * Fraction(1, 2),
        60: three * Fraction(1, 2), 75: (six + two) * Fraction(1, 4), 90: _R(1),
    }[d]


def _cos(degrees: int) -> Surd:
    return _sin(90 - degrees) if degrees <= 90 else -_sin(degrees - 90)


Question = tuple[str, Surd, int]  # text, exact answer, steps


@register
class TriangleSolving(Task):
    id = "geometry/triangle_solving"
    version = 3
    family = "geometry"
    description = "Sides, angles' cosines, areas and radii of triangles as exact surds."
    tags = ("math", "geometry", "trigonometry")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("hypotenuse", "leg", "right_area")),
        Config(("cosine_rule_side", "cosine_of_angle")),
        Config(("sine_rule_side", "sas_area")),
        Config(("heron", "circumradius", "altitude")),
        Config(("inradius", "sine_rule_far_side", "perimeter")),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value, steps = retry(lambda: _KINDS[kind](rng),
                                       lambda q: q is not None and _readable(q[1]) and not _stated(q[0], q[1]),
                                       what="a triangle with a readable exact answer")
        answer = format_radical(value)
        example = "3*sqrt(2)/2"  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the exact value (square roots allowed, no decimals), e.g. {example}."
        return Problem(prompt=prompt, answer=answer, data={"kind": kind, "value": answer, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_radical(answer, max_numbers=8)
        if value is None:
            return Verdict.unparsed("not an exact number (write e.g. 3*sqrt(2)/2)")
        if work_left(answer):  # sqrt(91^2 - 77^2): the question's own formula typed back, nothing worked out
            return Verdict.wrong("a value, not a formula: no powers, and one number under each square root")
        return Verdict.judge(value == read_radical(problem.data["value"], max_numbers=8), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Steps of the solution (rules applied) plus the square roots in the answer."""
        value = read_radical(problem.data["value"], max_numbers=8)
        roots = sum(1 for d in value.terms if d != 1) if value is not None else 0
        return float(problem.data["steps"] + roots)

    def spellings(self, problem: Problem) -> list[str]:
        value = read_radical(problem.data["value"], max_numbers=8)
        assert value is not None
        return [*super().spellings(problem), *radical_spellings(value), f"x = {problem.answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = read_radical(problem.data["value"], max_numbers=8)
        assert value is not None
        wrong = [format_radical(value * 2), format_radical(value + _R(1)), f"{float(value):.4f}",
                 format_radical(value * value), f"{problem.answer} or {format_radical(value * 2)}"]
        return [w for w in wrong if read_radical(w, max_numbers=8) != value]


def _readable(value: Surd) -> bool:
    """Positive, and written with few, small square roots."""
    return float(value) > 0 and len(value.terms) <= 3 and all(d <= 10_000 for d in value.terms) and all(
        q.denominator <= 10_000 for q in value.terms.values())


def _side(rng: random.Random, top: int = 40) -> int:
    return rng.randint(2, top)


def _hypotenuse(rng: random.Random) -> Question | None:
    a, b = _side(rng, 99), _side(rng, 99)
    value = Surd.sqrt(Fraction(a * a + b * b))
    if value.is_rational():
        return None  # a Pythagorean triple: no root to find
    return f"A right triangle has legs of length {a} and {b}. How long is its hypotenuse?", value, 1


def _leg(rng: random.Random) -> Question | None:
    c, a = rng.randint(5, 120), _side(rng, 99)
    if a >= c:
        return None
    value = Surd.sqrt(Fraction(c * c - a * a))
    return f"A right triangle has hypotenuse {c} and one leg {a}. How long is the other leg?", value, 1


def _right_area(rng: random.Random) -> Question | None:
    c, a = rng.randint(5, 120), _side(rng, 99)
    if a >= c:
        return None
    value = Surd.sqrt(Fraction(c * c - a * a)) * Fraction(a, 2)
    return f"A right triangle has hypotenuse {c} and one leg {a}. What is its area?", value, 2


def _cosine_rule_side(rng: random.Random) -> Question | None:
    b, c, angle = _side(rng, 60), _side(rng, 60), rng.choice([60, 90, 120])
    value = (_R(b * b + c * c) - _cos(angle) * (2 * b * c)).root()
    return (f"In triangle ABC, AC = {b}, AB = {c} and angle A = {angle}°. How long is BC?"), value, 3


def _cosine_of_angle(rng: random.Random) -> Question | None:
    a, b, c = sorted(_side(rng, 40) for _ in range(3))
    if a + b <= c:
        return None
    angle = rng.choice("ABC")
    opposite = {"A": a, "B": b, "C": c}
    x = opposite[angle]
    y, z = [v for k, v in opposite.items() if k != angle]
    value = _R(Fraction(y * y + z * z - x * x, 2 * y * z))
    if value.rational_part() == 0:
        return None
    return (f"Triangle ABC has sides BC = {a}, CA = {b} and AB = {c}. What is the cosine of angle {angle}? "
            "(It may be negative.)"), value, 2


def _sine_rule_side(rng: random.Random) -> Question | None:
    angle_a, angle_b = rng.sample([30, 45, 60, 75, 90, 105, 120, 135], 2)
    if angle_a + angle_b >= 180:
        return None
    a = _side(rng, 200)
    value = _R(a) * _sin(angle_b) / _sin(angle_a)
    return (f"In triangle ABC, angle A = {angle_a}°, angle B = {angle_b}° and BC = {a}. How long is CA?"), value, 3


def _sas_area(rng: random.Random) -> Question | None:
    b, c, angle = _side(rng, 60), _side(rng, 60), rng.choice([30, 45, 60, 120, 135, 150])
    value = _sin(angle) * Fraction(b * c, 2)
    return f"In triangle ABC, AB = {c}, AC = {b} and angle A = {angle}°. What is the area of the triangle?", value, 2


def _heron_parts(rng: random.Random) -> tuple[int, int, int, Surd] | None:
    a, b, c = sorted(_side(rng, 50) for _ in range(3))
    if a + b <= c:
        return None
    s = Fraction(a + b + c, 2)
    return a, b, c, Surd.sqrt(s * (s - a) * (s - b) * (s - c))


def _heron(rng: random.Random) -> Question | None:
    parts = _heron_parts(rng)
    if parts is None:
        return None
    a, b, c, area = parts
    return f"A triangle has sides {a}, {b} and {c}. What is its area?", area, 3


def _circumradius(rng: random.Random) -> Question | None:
    angle = rng.choice([15, 30, 45, 60, 75, 105, 120, 135, 150, 165])
    a = _side(rng, 300)
    value = _R(a) / (_sin(angle) * 2)
    return (f"In triangle ABC, BC = {a} and angle A = {angle}°. What is the radius of the circle through A, B "
            "and C?"), value, 3


def _altitude(rng: random.Random) -> Question | None:
    parts = _heron_parts(rng)
    if parts is None:
        return None
    a, b, c, area = parts
    return (f"A triangle has sides {a}, {b} and {c}. How long is the altitude to the side of length {c}?"), \
        area * Fraction(2, c), 4


def _inradius(rng: random.Random) -> Question | None:
    parts = _heron_parts(rng)
    if parts is None:
        return None
    a, b, c, area = parts
    return (f"A triangle has sides {a}, {b} and {c}. What is the radius of its inscribed circle?"), \
        area * Fraction(2, a + b + c), 5


def _stated(question: str, value: Surd) -> bool:
    """Whether the answer is a number the question states (an isosceles triangle's given side): read off, not
    solved."""
    return format_radical(value) in re.findall(r"\d+(?:/\d+)?", question)


def _sine_rule_far_side(rng: random.Random) -> Question | None:
    angle_a, angle_b = rng.choice(range(15, 151, 15)), rng.choice(range(15, 151, 15))
    angle_c = 180 - angle_a - angle_b
    if angle_c not in (15, 75, 105, 165):  # the side asked for is opposite an angle with a two-root sine
        return None
    a = _side(rng, 300)
    value = _R(a) * _sin(angle_c) / _sin(angle_a)
    return (f"In triangle ABC, angle A = {angle_a}°, angle B = {angle_b}° and BC = {a}. How long is AB?"), value, 5


def _perimeter(rng: random.Random) -> Question | None:
    b, c, angle = _side(rng, 60), _side(rng, 60), rng.choice([60, 120, 90])
    third = (_R(b * b + c * c) - _cos(angle) * (2 * b * c)).root()
    if third.is_rational():
        return None
    return (f"In triangle ABC, AC = {b}, AB = {c} and angle A = {angle}°. What is the perimeter of the "
            "triangle?"), third + _R(b + c), 4


_KINDS: dict[str, Callable[[random.Random], Question | None]] = {
    "hypotenuse": _hypotenuse, "leg": _leg, "right_area": _right_area, "cosine_rule_side": _cosine_rule_side,
    "cosine_of_angle": _cosine_of_angle, "sine_rule_side": _sine_rule_side, "sas_area": _sas_area,
    "heron": _heron, "circumradius": _circumradius, "altitude": _altitude, "inradius": _inradius,
    "sine_rule_far_side": _sine_rule_far_side, "perimeter": _perimeter,
}
