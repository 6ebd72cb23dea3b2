"""Circles in the coordinate plane: centres, radii, tangents, chords, sectors and segments, exactly.

Level 0 reads a circle's centre, radius or area from its general equation
``x^2 + y^2 + Dx + Ey + F = 0`` (completing the square), or asks for an arc length or sector
area; level 1 for the length of a tangent from an outside point or of a chord cut by a line;
level 2 for the circle through three lattice points; level 3 for where a line meets a
circle (both points); level 4 for the common chord of two circles or the area of a
circular segment. Every value is built exactly (rationals, square roots and π).

Numbers may be written in any exact form (``5√2``, ``2*sqrt(13)``, ``25π/4``,
``\\frac{25\\pi}{4}``, ``12π - 9√3``): they are evaluated to 40 digits and must match to 25,
and decimals with more than 12 places are refused, so rounded values fail. Points are
written as ``(h, k)`` (also ``\\left(h, k\\right)``, ``x = h, y = k``, ``The centre is (h, k).``); two points
as ``(1, 2), (3 - √2, 4)`` in either order.
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
from palaestra.verifiers.formulas import agree, evaluate, read_formula
from palaestra.verifiers.normalize import enclosed, read_answer, split_top_level, strip_wrappers
from palaestra.verifiers.radicals import format_radical

Question = tuple[str, str, str, int]  # text, answer, form ("value" | "point" | "points"), steps

_COMMA = re.compile(r"\s*,\s*")
_POINT_SEPARATOR = re.compile(r"\s*(?:,|;|\band\b)\s*(?=\()")


def _q(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _signed(coefficient: int, name: str) -> str:
    if coefficient == 0:
        return ""
    sign = "+" if coefficient > 0 else "-"
    size = abs(coefficient)
    return f" {sign} {'' if size == 1 and name else size}{name}"


def _general(h: int, k: int, r_squared: int) -> str:
    """x^2 + y^2 + Dx + Ey + F = 0 for centre (h, k) and radius^2."""
    d, e, f = -2 * h, -2 * k, h * h + k * k - r_squared
    return f"x^2 + y^2{_signed(d, 'x')}{_signed(e, 'y')}{_signed(f, '')} = 0"


def _standard(h: int | Fraction, k: int | Fraction, r_squared: int | Fraction) -> str:
    def part(name: str, c: int | Fraction) -> str:
        return f"{name}^2" if c == 0 else f"({name} {'-' if c > 0 else '+'} {_q(abs(c))})^2"

    return f"{part('x', h)} + {part('y', k)} = {_q(r_squared)}"


def _pi(coefficient: Fraction) -> str:
    if coefficient == 1:
        return "pi"
    return f"{_q(coefficient)}*pi" if coefficient.denominator == 1 else f"({_q(coefficient)})*pi"


def _radius(rng: random.Random) -> Question:
    h, k, r2 = rng.randint(-9, 9), rng.randint(-9, 9), rng.randint(2, 60)
    return f"What is the radius of the circle {_general(h, k, r2)}?", format_radical(Surd.sqrt(Fraction(r2))), \
        "value", 2


def _center(rng: random.Random) -> Question:
    h, k, r2 = rng.randint(-12, 12), rng.randint(-12, 12), rng.randint(2, 60)
    return f"What is the centre of the circle {_general(h, k, r2)}?", f"({h}, {k})", "point", 1


def _area(rng: random.Random) -> Question:
    h, k, r2 = rng.randint(-9, 9), rng.randint(-9, 9), rng.randint(2, 60)
    return f"What is the area enclosed by the circle {_general(h, k, r2)}?", _pi(Fraction(r2)), "value", 2


def _tangent(rng: random.Random) -> Question | None:
    h, k, r2 = rng.randint(-6, 6), rng.randint(-6, 6), rng.randint(1, 30)
    px, py = rng.randint(-12, 12), rng.randint(-12, 12)
    distance2 = (px - h) ** 2 + (py - k) ** 2
    if distance2 <= r2:
        return None
    return (f"From the point ({px}, {py}), a tangent is drawn to the circle {_standard(h, k, r2)}. How long is the "
            "tangent segment from the point to where it touches the circle?"), \
        format_radical(Surd.sqrt(Fraction(distance2 - r2))), "value", 3


def _chord(rng: random.Random) -> Question | None:
    h, k, r2 = rng.randint(-5, 5), rng.randint(-5, 5), rng.randint(5, 60)
    m, c = rng.randint(-3, 3), rng.randint(-8, 8)
    d2 = Fraction((m * h - k + c) ** 2, m * m + 1)  # squared distance from the centre to y = m x + c
    if d2 >= r2:
        return None
    line = "y = " + (f"{m}x" if abs(m) != 1 else "x" if m == 1 else "-x") + _signed(c, "") if m else f"y = {c}"
    return (f"The line {line} cuts the circle {_standard(h, k, r2)} in a chord. How long is the chord?"), \
        format_radical(Surd.sqrt(4 * (r2 - d2))), "value", 3


def _circumcircle(rng: random.Random) -> Question | None:
    points = [(rng.randint(-8, 8), rng.randint(-8, 8)) for _ in range(3)]
    (x1, y1), (x2, y2), (x3, y3) = points
    det = 2 * (x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2))
    if det == 0:
        return None
    s1, s2, s3 = x1 * x1 + y1 * y1, x2 * x2 + y2 * y2, x3 * x3 + y3 * y3
    ux = Fraction(s1 * (y2 - y3) + s2 * (y3 - y1) + s3 * (y1 - y2), det)
    uy = Fraction(s1 * (x3 - x2) + s2 * (x1 - x3) + s3 * (x2 - x1), det)
    r2 = (x1 - ux) ** 2 + (y1 - uy) ** 2
    listing = ", ".join(f"({x}, {y})" for x, y in points)
    if rng.random() < 0.5:
        return f"What is the centre of the circle through the points {listing}?", f"({_q(ux)}, {_q(uy)})", "point", 4
    return f"What is the radius of the circle through the points {listing}?", format_radical(Surd.sqrt(r2)), \
        "value", 4


def _sector(rng: random.Random) -> Question:
    r, angle = rng.randint(2, 40), rng.randrange(5, 360, 5)
    if rng.random() < 0.5:
        return (f"A circle has radius {r}. What is the length of an arc that subtends a central angle of {angle}°?"), \
            _pi(Fraction(2 * r * angle, 360)), "value", 2
    return (f"A circle has radius {r}. What is the area of a sector with a central angle of {angle}°?"), \
        _pi(Fraction(r * r * angle, 360)), "value", 3


def _intersections(rng: random.Random) -> Question | None:
    h, k, r2 = rng.randint(-4, 4), rng.randint(-4, 4), rng.randint(2, 40)
    m, c = rng.randint(-2, 2), rng.randint(-6, 6)
    # (x - h)^2 + (m x + c - k)^2 = r2  ->  (1 + m^2) x^2 + 2(m(c - k) - h) x + h^2 + (c - k)^2 - r2 = 0
    a, b, cc = 1 + m * m, 2 * (m * (c - k) - h), h * h + (c - k) ** 2 - r2
    disc = b * b - 4 * a * cc
    if disc <= 0:
        return None
    root = Surd.sqrt(Fraction(disc)) * Fraction(1, 2 * a)
    xs = [Surd.rational(Fraction(-b, 2 * a)) - root, Surd.rational(Fraction(-b, 2 * a)) + root]
    points = [(x, x * m + Surd.rational(c)) for x in xs]
    line = "y = " + (f"{m}x" if abs(m) != 1 else "x" if m == 1 else "-x") + _signed(c, "") if m else f"y = {c}"
    answer = ", ".join(f"({format_radical(x)}, {format_radical(y)})" for x, y in points)
    return f"Where does the line {line} meet the circle {_standard(h, k, r2)}? Give both points.", answer, \
        "points", 5


def _common_chord(rng: random.Random) -> Question | None:
    r1 = rng.randint(2, 20)  # the first circle is centred at the origin
    h2, k2, r2 = rng.randint(1, 20), rng.randint(-10, 10), rng.randint(2, 20)
    d2 = h2 * h2 + k2 * k2
    if not (r1 - r2) ** 2 < d2 < (r1 + r2) ** 2:
        return None  # the circles must cross in two points
    # distance from the first centre to the chord: (d^2 + r1^2 - r2^2) / (2 d); half chord^2 = r1^2 - that^2
    half2 = r1 * r1 - Fraction((d2 + r1 * r1 - r2 * r2) ** 2, 4 * d2)
    return (f"The circles x^2 + y^2 = {r1 * r1} and {_standard(h2, k2, r2 * r2)} meet in two points. How long is the "
            "segment joining them (their common chord)?"), format_radical(Surd.sqrt(4 * half2)), "value", 6


def _sine(degrees: int) -> Surd:
    """Exact sine of a multiple of 15 degrees in [0, 180]."""
    d = degrees if degrees <= 90 else 180 - degrees
    six, two = Surd.sqrt(Fraction(6)), Surd.sqrt(Fraction(2))
    return {15: (six - two) * Fraction(1, 4), 30: Surd.rational(Fraction(1, 2)), 45: two * Fraction(1, 2),
            60: Surd.sqrt(Fraction(3)) * Fraction(1, 2), 75: (six + two) * Fraction(1, 4), 90: Surd.rational(1)}[d]


def _segment(rng: random.Random) -> Question:
    r, angle = Fraction(rng.randint(3, 200), 2), rng.randrange(15, 180, 15)
    triangle = _sine(angle) * (r * r / 2)
    sector = _pi(r * r * angle / 360)
    which = rng.choice(("smaller", "larger", "perimeter"))
    if which == "smaller":
        text, ask = f"{sector} - ({format_radical(triangle)})", "the area of the smaller region between the chord " \
            "and the arc (the circular segment)"
        steps = 6
    elif which == "larger":
        text, ask = f"{_pi(r * r)} - {sector} + ({format_radical(triangle)})", "the area of the larger of the " \
            "two regions the chord cuts the disc into"
        steps = 7
    else:  # arc plus chord = 2 r sin(angle/2): the angle is a multiple of 30, so its half has an exact sine
        angle = rng.randrange(30, 180, 30)
        chord = _sine(angle // 2) * (2 * r)
        text, ask = f"{_pi(2 * r * angle / 360)} + ({format_radical(chord)})", "the perimeter of the smaller " \
            "circular segment (its arc plus the chord)"
        steps = 6
    return (f"A chord of a circle of radius {_q(r)} subtends a central angle of {angle}°. What is {ask}?"), text, \
        "value", steps


_KINDS: dict[str, Callable[[random.Random], Question | None]] = {
    "radius": _radius, "center": _center, "area": _area, "tangent": _tangent, "chord": _chord,
    "circumcircle": _circumcircle, "sector": _sector, "intersections": _intersections,
    "common_chord": _common_chord, "segment": _segment,
}


def _attempt(kind: str, rng: random.Random) -> Question | None:
    """One draw of a question, or None when it is degenerate or a root is beyond exact surd arithmetic."""
    try:
        return _KINDS[kind](rng)
    except ValueError:
        return None


def _real(text: str):  # type: ignore[no-untyped-def]
    """The value of an exact constant expression (π, e, roots, fractions), or None."""
    return evaluate(read_formula(text, []), {})


_POINT_NAME = re.compile(r"^(?:\(\s*x\s*,\s*y\s*\)|[A-Z][A-Za-z0-9_]{0,2}|points?)\s*[=:]\s*", re.IGNORECASE)
# "The centre is", "Center:", "The intersection points are", "The two points are" before the point(s)
_POINT_SENTENCE = re.compile(
    r"^(?:the\s+)?(?:centre|center|circumcentre|circumcenter|(?:two\s+)?(?:intersection\s+)?points?"
    r"(?:\s+of\s+intersection)?)(?:\s+of\s+the\s+circle)?(?:\s+(?:is|are))?\s*[:=]?\s*",
    re.IGNORECASE,
)
_BRACKETS = (("\\left(", "("), ("\\right)", ")"), ("\\left\\{", "{"), ("\\right\\}", "}"), ("\\{", "{"), ("\\}", "}"))
_COORDINATE_NAMES = (("x", "y"), ("h", "k"))


def _named_coordinates(s: str) -> str:
    """``x = 3, y = -1`` (or ``y = -1, x = 3``, or ``h = 3, k = -1``, the centre's usual names) as ``(3, -1)``;
    other text unchanged."""
    parts = [p for _, p in split_top_level(s, _COMMA, limit=3)]
    if len(parts) != 2 or not all("=" in p for p in parts):
        return s
    (first, a), (second, b) = (tuple(q.strip() for q in p.split("=", 1)) for p in parts)
    names = (first.lower(), second.lower())
    if names in _COORDINATE_NAMES:
        return f"({a}, {b})"
    return f"({b}, {a})" if names[::-1] in _COORDINATE_NAMES else s


def _points(text: str) -> list[tuple[object, object]] | None:
    def read(s: str) -> list[tuple[object, object]] | None:
        s = strip_wrappers(s)
        for latex, plain in _BRACKETS:
            s = s.replace(latex, plain)
        s = _named_coordinates(_POINT_SENTENCE.sub("", s, count=1))
        s = _POINT_NAME.sub("", s, count=1)
        if s.startswith("{") and s.endswith("}"):
            s = s[1:-1].strip()
        out = []
        for _, piece in split_top_level(s, _POINT_SEPARATOR, limit=8):
            piece = piece.strip()
            if not enclosed(piece, "("):
                return None
            parts = [p for _, p in split_top_level(piece[1:-1], _COMMA, limit=3)]
            if len(parts) != 2:
                return None
            x, y = _real(parts[0]), _real(parts[1])
            if x is None or y is None:
                return None
            out.append((x, y))
        return out or None

    return read_answer(text, read)


@register
class Circles(Task):
    id = "geometry/circles"
    family = "geometry"
    description = "Centres, radii, tangents, chords, arcs, sectors and segments of circles, exactly."
    tags = ("math", "geometry", "coordinates")
    version = 2  # v2: arcs and sectors at level 0 (at level 2 they made its mean difficulty fall below level 1's)

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("radius", "center", "area", "sector")),
        Config(("tangent", "chord")),
        Config(("circumcircle",)),
        Config(("intersections",)),
        Config(("common_chord", "segment")),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, answer, form, steps = retry(lambda: _attempt(kind, rng), what="a circle question")
        example = {"value": "5*sqrt(2) or 25pi/4", "point": "(3, -1/2)", "points": "(1, 2), (3 - sqrt(2), 4)"}[form]
        prompt = f"{question}\n\nGive the exact answer (square roots and π allowed, no rounding), e.g. {example}."
        return Problem(prompt=prompt, answer=answer, data={"kind": kind, "form": form, "answer": answer,
                                                           "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        form = problem.data["form"]
        if form == "value":
            got = _real(answer)
            if got is None:
                return Verdict.unparsed("not an exact number (roots and π allowed)")
            return Verdict.judge(agree(got, _real(problem.data["answer"])), "wrong value")
        got_points = _points(answer)
        want = _points(problem.data["answer"])
        assert want is not None
        if got_points is None or len(got_points) != len(want):
            return Verdict.unparsed(f"write {'one point' if len(want) == 1 else 'two points'} as (x, y)")
        remaining = list(want)
        for x, y in got_points:
            match = next((w for w in remaining if agree(x, w[0]) and agree(y, w[1])), None)
            if match is None:
                return Verdict.wrong("wrong point")
            remaining.remove(match)
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Steps from the data to the answer (1 reading a centre ... 6 for two circles or a segment), plus a
        tenth of the exact answer's digits and 1 for a root in it."""
        answer = problem.data["answer"]
        return float(problem.data["steps"]) + sum(c.isdigit() for c in answer) / 10 + ("sqrt" in answer)

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        latex = answer.replace("pi", "\\pi").replace("sqrt(", "\\sqrt(").replace("*", " \\cdot ")
        out = [*super().spellings(problem), latex, answer.replace("pi", "π").replace("*", ""),
               f"{answer}."]
        if problem.data["form"] == "points":
            first, second = answer.split("), (")
            out.append(f"({second}, ({first[1:]})")
            out.append("{" + answer + "}")
        if problem.data["form"] == "point":
            out.append(answer.replace(", ", "; ", 1).replace(";", ","))
            out.append(f"(x, y) = {answer}")
            out.append(f"The centre is {answer}." if problem.data["kind"] in ("center", "circumcircle") else answer)
            out.append(answer.replace("(", "\\left(", 1).replace(")", "\\right)", 1))
            out.append("x = " + answer[1:-1].replace(", ", ", y = ", 1))
        if problem.data["form"] == "points":
            out.append(f"The points are {answer}.")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        if problem.data["form"] == "value":
            value = _real(answer)
            wrong = [f"2*({answer})", f"({answer}) + 1", f"{float(value.real):.8f}", f"{answer} or 2*({answer})"]
            return [w for w in wrong if not self.verify(problem, w).correct]
        if problem.data["form"] == "point":
            x, y = answer[1:-1].split(", ")
            return [f"({y}, {x})" if x != y else f"({x}, {y} + 1)", f"(-({x}), -({y}))" if answer != "(0, 0)"
                    else "(1, 0)", f"({x} + 1, {y})"]
        first = answer.split("), (")[0] + ")"
        wrong = [first, f"{answer}, (0, 0)", answer.replace("sqrt", "2*sqrt", 1), answer.replace("(", "(1 + ", 1)]
        return [w for w in wrong if not self.verify(problem, w).correct]
