"""Volumes, surface areas and lengths of solids, exactly (with π and square roots).

Level 0: boxes and cylinders (volume, total surface, the space diagonal); level 1: cones,
spheres and hemispheres (slant height, volume, total surface); level 2: composite and
truncated solids (a cylinder capped by hemispheres, a frustum of a cone); level 3: right
pyramids (volume, slant height of a face, lateral area) and regular tetrahedra (volume,
surface); level 4:
spherical caps, a sphere inscribed in or circumscribed about a cube, and the largest
cylinder with a given height inside a sphere. Every value is written exactly from its
formula.

The answer is any exact expression of the value (``96π``, ``96*pi``, ``\\frac{500\\pi}{3}``,
``4√10``, ``72 + 36√2``): it is evaluated to 40 digits and must match to 25; decimals with
more than 12 places are refused, so rounded values fail. A unit may follow if it is the
prompt's centimetres to the right power (``cm``, ``cm^2``, ``\\text{ cm}^3``, ``cubic cm``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.formulas import agree, evaluate, read_formula
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.radicals import format_radical

Question = tuple[str, str, int]
_TEXT_COMMAND = re.compile(r"\\(?:text|mathrm|operatorname) ?\{ ?([^{}]{0,20}?) ?\}")  # \text{ cm}^3  # text, exact answer, steps
# the prompt's unit after the value: "cm", "cm^3", "cm³", "cubic cm", "square centimetres"; its power must fit
_UNIT = re.compile(r"\s*(?:(?:cm|centimet(?:er|re)s?)\s*(?:\^\s*\{?\s*([123])\s*\}?|([²³]))?"
                   r"|(cubic|square)\s+(?:cm|centimet(?:er|re)s?))\s*$")


def _q(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _pi(coefficient: Fraction) -> str:
    coefficient = Fraction(coefficient)
    if coefficient == 1:
        return "pi"
    return f"{_q(coefficient)}*pi" if coefficient.denominator == 1 else f"({_q(coefficient)})*pi"


def _surd_pi(value: Surd) -> str:
    """π times a surd, written ``(a + b*sqrt(d))*pi``."""
    return f"({format_radical(value)})*pi" if len(value.terms) > 1 else f"{format_radical(value)}*pi"


def _box(rng: random.Random) -> Question:
    a, b, c = rng.randint(2, 30), rng.randint(2, 30), rng.randint(2, 30)
    kind = rng.randrange(3)
    if kind == 0:
        return f"A rectangular box measures {a} by {b} by {c} cm. What is the length of its space diagonal?", \
            format_radical(Surd.sqrt(Fraction(a * a + b * b + c * c))), 1
    r, h = rng.randint(1, 60), rng.randint(1, 80)
    if kind == 1:
        return f"A cylinder has radius {r} cm and height {h} cm. What is its volume?", _pi(Fraction(r * r * h)), 1
    return (f"A closed cylinder has radius {r} cm and height {h} cm. What is its total surface area (both ends and "
            "the curved side)?"), _pi(Fraction(2 * r * r + 2 * r * h)), 2


def _cone_sphere(rng: random.Random) -> Question:
    kind = rng.randrange(4)
    r, h = rng.randint(1, 80), rng.randint(1, 90)
    if kind == 0:
        return f"A right circular cone has base radius {r} cm and height {h} cm. What is its slant height?", \
            format_radical(Surd.sqrt(Fraction(r * r + h * h))), 2
    if kind == 1:
        return f"A right circular cone has base radius {r} cm and height {h} cm. What is its volume?", \
            _pi(Fraction(r * r * h, 3)), 2
    if kind == 2:
        slant = Surd.sqrt(Fraction(r * r + h * h))
        total = Surd.rational(r * r) + slant * r  # π r^2 + π r l
        return (f"A solid right circular cone has base radius {r} cm and height {h} cm. What is its total surface "
                "area (base plus curved surface)?"), _surd_pi(total), 3
    d = rng.randint(1, 200)
    size = f"diameter {d}" if rng.random() < 0.5 else f"radius {d / 2:g}"
    shape = rng.choice(["sphere", "solid hemisphere"])
    if shape == "sphere":
        if rng.random() < 0.5:
            return f"A sphere has {size} cm. What is its volume?", _pi(Fraction(d**3, 6)), 2
        return f"A sphere has {size} cm. What is its surface area?", _pi(Fraction(d * d)), 2
    if rng.random() < 0.5:  # half of the sphere's volume
        return f"A solid hemisphere has {size} cm. What is its volume?", _pi(Fraction(d**3, 12)), 2
    return (f"A solid hemisphere has {size} cm. What is its total surface area (curved part and flat disc)?",
            _pi(Fraction(3 * d * d, 4)), 3)


def _composite(rng: random.Random) -> Question:
    if rng.random() < 0.5:
        r, h = rng.randint(1, 40), rng.randint(1, 80)
        if rng.random() < 0.5:
            return (f"A capsule is a cylinder of radius {r} cm and length {h} cm with a hemisphere of the same radius "
                    "on each end. What is its volume?"), _pi(Fraction(r * r * h) + Fraction(4 * r**3, 3)), 3
        return (f"A capsule is a cylinder of radius {r} cm and length {h} cm with a hemisphere of the same radius "
                "on each end. What is its surface area?"), _pi(Fraction(2 * r * h + 4 * r * r)), 3
    big, small = sorted(rng.sample(range(1, 40), 2), reverse=True)
    h = rng.randint(1, 50)
    if rng.random() < 0.5:
        return (f"A frustum of a right circular cone has end radii {big} cm and {small} cm and height {h} cm. What "
                "is its volume?"), _pi(Fraction(h * (big * big + big * small + small * small), 3)), 4
    slant = Surd.sqrt(Fraction(h * h + (big - small) ** 2))
    return (f"A frustum of a right circular cone has end radii {big} cm and {small} cm and height {h} cm. What is the "
            "area of its curved surface (not the ends)?"), _surd_pi(slant * (big + small)), 4


def _pyramid(rng: random.Random) -> Question:
    kind = rng.randrange(4)
    s, h = rng.randint(2, 90), rng.randint(1, 90)
    face_slant = Surd.sqrt(Fraction(h * h) + Fraction(s * s, 4))
    if kind == 0:
        t = rng.randint(2, 50)
        return (f"A pyramid has a rectangular base of {s} cm by {t} cm and its apex {h} cm directly above the centre "
                "of the base. What is its volume?"), _q(Fraction(s * t * h, 3)), 3
    if kind == 1:
        return (f"A pyramid has a square base of side {s} cm and its apex {h} cm directly above the centre of the "
                "base. What is the slant height of a triangular face (from the apex to the midpoint of a base edge)?"), \
            format_radical(face_slant), 4
    if kind == 2:
        return (f"A pyramid has a square base of side {s} cm and its apex {h} cm directly above the centre of the "
                "base. What is the total area of its four triangular faces?"), format_radical(face_slant * (2 * s)), 5
    a = Fraction(rng.randint(1, 400), rng.choice([1, 2]))
    if rng.random() < 0.5:
        return f"A regular tetrahedron has edges of length {a.numerator / a.denominator:g} cm. What is its volume?", \
            format_radical(Surd.sqrt(Fraction(2)) * (a**3 / 12)), 5
    return (f"A regular tetrahedron has edges of length {a.numerator / a.denominator:g} cm. What is its total "
            "surface area?"), format_radical(Surd.sqrt(Fraction(3)) * a * a), 4


def _advanced(rng: random.Random) -> Question:
    kind = rng.randrange(4)
    if kind == 0:  # spherical cap: pi h^2 (3R - h)/3
        radius = rng.randint(2, 150)
        h = rng.randint(1, 2 * radius - 1)
        return (f"A sphere of radius {radius} cm is cut by a plane, leaving a cap of height {h} cm. What is the "
                "volume of the cap?"), _pi(Fraction(h * h * (3 * radius - h), 3)), 5
    if kind == 1:  # sphere inscribed in a cube of side a: r = a/2
        a = Fraction(rng.randint(2, 1000), 2)
        lead = f"A sphere is inscribed in a cube of side {float(a):g} cm (touching all six faces)."
        if rng.random() < 0.5:
            return f"{lead} What is the volume of the space inside the cube but outside the sphere?", \
                f"{_q(a**3)} - {_pi(a**3 / 6)}", 5
        return f"{lead} By how much does the cube's surface area exceed the sphere's surface area?", \
            f"{_q(6 * a * a)} - {_pi(a * a)}", 5
    if kind == 2:  # sphere circumscribed about a cube of side a: r = a sqrt(3)/2, surface 3 pi a^2
        a = Fraction(rng.randint(1, 1000), 2)
        if rng.random() < 0.5:
            return (f"A cube of side {float(a):g} cm has all eight vertices on a sphere. What is the surface area of "
                    "the sphere?"), _pi(3 * a * a), 5
        return (f"A cube of side {float(a):g} cm has all eight vertices on a sphere. What is the volume of the "
                "sphere?"), _surd_pi(Surd.sqrt(Fraction(3)) * (a**3 / 2)), 6
    radius = rng.randint(2, 150)  # a cylinder of height h inside a sphere: r^2 = R^2 - (h/2)^2
    h = 2 * rng.randint(1, radius - 1)
    return (f"A cylinder of height {h} cm fits exactly inside a sphere of radius {radius} cm (both circular edges on "
            "the sphere). What is the volume of the cylinder?"), _pi(Fraction((radius * radius - (h // 2) ** 2) * h)), 6


_LEVELS: list[Callable[[random.Random], Question]] = [_box, _cone_sphere, _composite, _pyramid, _advanced]


def _real(text: str, dimension: int | None = None):  # type: ignore[no-untyped-def]
    """The value written in ``text`` (with a unit of length to the power ``dimension`` allowed after it)."""
    def read(s: str):  # type: ignore[no-untyped-def]
        s = _TEXT_COMMAND.sub(r" \1", s).replace("\\,", " ").replace("\\ ", " ")
        unit = _UNIT.search(s[-40:])
        if unit is not None:
            power, superscript, word = unit.groups()
            written = int(power) if power else {"²": 2, "³": 3, "square": 2, "cubic": 3}.get(superscript or word, 1)
            if written != dimension:
                return None  # cm^2 for a volume, or a unit where none was expected
            s = s[: len(s) - len(unit.group())]
        return evaluate(read_formula(s, []), {})

    if not isinstance(text, str) or len(text) > 2_000:
        return None
    return read_answer(text, read)


def _dimension(question: str) -> int:
    """1, 2 or 3: what the question's last sentence asks for is a length, an area or a volume."""
    asked = question.rsplit(". ", 1)[-1]
    return 3 if "volume" in asked else 2 if "area" in asked else 1


@register
class Solids(Task):
    id = "geometry/solids"
    version = 2
    family = "geometry"
    description = "Exact volumes, surface areas and lengths of boxes, cylinders, cones, spheres, frusta and pyramids."
    tags = ("math", "geometry", "3d")

    @dataclass(frozen=True)
    class Config:
        stage: int

    presets = (Config(stage=0), Config(stage=1), Config(stage=2), Config(stage=3), Config(stage=4))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, answer, steps = _LEVELS[config.stage](rng)
        example = "96*pi or 4*sqrt(10)"  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the exact value (π and square roots allowed, no rounding), e.g. {example}."
        return Problem(prompt=prompt, answer=answer, data={"answer": answer, "steps": steps,
                                                           "dimension": _dimension(question)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        got = _real(answer, problem.data["dimension"])
        if got is None:
            return Verdict.unparsed("not an exact number (π and square roots allowed), or a unit of the wrong kind")
        return Verdict.judge(agree(got, _real(problem.data["answer"])), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Formula steps (1 for a cylinder's volume ... 6 for solids inside spheres) plus the answer's length/20."""
        return problem.data["steps"] + len(problem.answer) / 20

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        return [*super().spellings(problem), answer.replace("*pi", "π").replace("pi", "π"),
                answer.replace("pi", "\\pi").replace("sqrt(", "\\sqrt(").replace("*", " \\cdot "),
                f"{answer} {['cm', 'cm^2', 'cm³'][problem.data['dimension'] - 1]}", f"V = {answer}",
                f"{answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer
        value = _real(answer)
        wrong = [f"2*({answer})", f"({answer}) + 1", f"{float(value.real):.6f}", f"({answer})/pi",
                 f"{answer} or 2*({answer})", f"{answer} {['cm^2', 'cm^3', 'cm'][problem.data['dimension'] - 1]}",
                 f"{answer} m"]
        return [w for w in wrong if not self.verify(problem, w).correct]
