"""The area of a simple polygon given by its vertices in order (the shoelace formula).

The vertices are joined in angular order around their centroid, so the polygon is
simple (star-shaped) but, from level 2, usually not convex. Level 0 is
a triangle with small integer coordinates; the levels add vertices (up to 12), larger
and negative coordinates, and at level 4 coordinates that are halves or thirds. The
vertices are listed clockwise or counter-clockwise. The area is computed exactly.

The vertices are at distinct angles around their centroid, so no angular gap
exceeds a half turn and the fan of triangles from the centroid covers the polygon
without overlap: the polygon is simple.

From level 2 the polygon is seen whole (every other vertex visible inside it) from at most one of its
vertices, and the listing never starts there: splitting it into triangles from the first vertex listed and
adding their areas as positive numbers (right only from a vertex that sees the whole polygon) is wrong.
Version 3: on 40 seeds a level that fan solved 0.60/0.30/0.15 of levels 2-4 and a fan from the second, third
or last vertex 0.50-0.63/0.28-0.30/0.15-0.33 (0.65-0.88 of level 1, mostly convex quadrilaterals, where a fan is
a valid method); now the first-vertex fan solves none of levels 2-4 and a fan from another fixed position
0.10-0.20 (the one seeing vertex is among the other n - 1 places).

The answer is the exact area, in any exact spelling (``27/2``, ``13.5``, ``13 1/2``,
``\\frac{27}{2}``); a rounded value of a non-terminating area is wrong, and so is a
signed (negative) area.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction, other_spellings

_EXAMPLE = Fraction(45, 2)
_AREA_UNITS = ("square units", "sq units", "sq. units", "units^2", "unit^2", "u^2")


@register
class PolygonArea(Task):
    id = "geometry/polygon_area"
    version = 3  # v3: from level 2, at most one vertex sees the whole polygon, and it is never listed first
    family = "geometry"
    description = "Area of a simple polygon from its vertex coordinates (shoelace formula), exactly."
    tags = ("math", "geometry", "coordinates")

    @dataclass(frozen=True)
    class Config:
        vertices: tuple[int, int]
        extent: int  # coordinates in [-extent, extent] (level 0: [0, extent])
        denominators: tuple[int, ...]  # coordinates are multiples of 1/d for d drawn from these
        hidden: bool  # at most one vertex sees the whole polygon, and the listing does not start there

    presets = (
        Config(vertices=(3, 3), extent=12, denominators=(1,), hidden=False),
        Config(vertices=(4, 5), extent=10, denominators=(1,), hidden=False),
        Config(vertices=(5, 7), extent=15, denominators=(1,), hidden=True),
        Config(vertices=(7, 9), extent=25, denominators=(1,), hidden=True),
        Config(vertices=(9, 12), extent=20, denominators=(2, 3), hidden=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def acceptable(p: list[tuple[Fraction, Fraction]]) -> bool:
            return _area(p) > 0 and _no_flat_corner(p) and (not config.hidden or len(_seeing(p)) <= 1)

        points = retry(lambda: _polygon(rng, config), acceptable, what="a simple polygon with no flat corners")
        if rng.random() < 0.5:
            points.reverse()
        seeing = _seeing(points) if config.hidden else []
        start = rng.choice([i for i in range(len(points)) if i not in seeing])
        points = points[start:] + points[:start]
        area = _area(points)
        listing = ", ".join(f"({_coordinate(x)}, {_coordinate(y)})" for x, y in points)
        example = format_fraction(_EXAMPLE)  # a fixed placeholder: independent of the answer
        prompt = (
            f"A simple polygon has these {len(points)} vertices, listed in order around its boundary:\n"
            f"{listing}\n\nWhat is its area? Give the exact value, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=format_fraction(area), data={
            "points": [[str(x), str(y)] for x, y in points], "area": format_fraction(area),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(answer, max_digits=60, mixed=True, units=_AREA_UNITS)
        if value is None:
            return Verdict.unparsed("the answer is not an exact number")
        return Verdict.judge(value == Fraction(problem.data["area"]), "wrong area")

    def difficulty(self, problem: Problem) -> float:
        """Vertices plus the digits of the largest coordinate numerator and denominator (the cross products)."""
        values = [Fraction(v) for p in problem.data["points"] for v in p]
        digits = max(len(str(abs(v.numerator))) + len(str(v.denominator)) - 1 for v in values)
        return float(len(problem.data["points"]) + digits)

    def spellings(self, problem: Problem) -> list[str]:
        area = Fraction(problem.data["area"])
        return [*super().spellings(problem), *other_spellings(area), f"A = {problem.answer}",
                f"{problem.answer} square units", f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        area = Fraction(problem.data["area"])
        wrong = [*super().corruptions(problem, rng), format_fraction(area * 2), format_fraction(-area),
                 format_fraction(area + Fraction(1, 2)), f"{format_fraction(area)} or {format_fraction(area + 1)}"]
        if (area * 10**3).denominator != 1:
            wrong.append(f"{float(area):.3f}")
        return wrong


def _polygon(rng: random.Random, config: PolygonArea.Config) -> list[tuple[Fraction, Fraction]]:
    n = rng.randint(*config.vertices)
    d = rng.choice(config.denominators)
    low = 0 if config.denominators == (1,) and config.extent <= 12 else -config.extent
    raw = {(Fraction(rng.randint(low * d, config.extent * d), d), Fraction(rng.randint(low * d, config.extent * d), d))
           for _ in range(n)}
    if len(raw) < n:
        return []
    cx = sum(x for x, _ in raw) / n
    cy = sum(y for _, y in raw) / n
    angles = {p: math.atan2(float(p[1] - cy), float(p[0] - cx)) for p in raw}
    if len({round(a, 9) for a in angles.values()}) < n or any(p == (cx, cy) for p in raw):
        return []
    return sorted(raw, key=lambda p: angles[p])


def _area(points: list[tuple[Fraction, Fraction]]) -> Fraction:
    if len(points) < 3:
        return Fraction(0)
    twice = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))
    return abs(twice) / 2


def _no_flat_corner(points: list[tuple[Fraction, Fraction]]) -> bool:
    """No vertex lies on the line through its neighbours (it would not be a corner)."""
    n = len(points)
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = points[i - 1], points[i], points[(i + 1) % n]
        if (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) == 0:
            return False
    return True


def _seeing(points: list[tuple[Fraction, Fraction]]) -> list[int]:
    """The vertices that see the whole polygon: those whose fan of triangles (to the next two vertices, then on)
    all turn one way, so that the fan's unsigned areas add up to the polygon's area."""
    n = len(points)
    seeing = []
    for k in range(n):
        (x0, y0), rest = points[k], points[k + 1:] + points[:k]
        signs = set()
        for (x1, y1), (x2, y2) in zip(rest, rest[1:]):
            turn = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
            if turn:  # a flat triangle adds nothing either way
                signs.add(turn > 0)
            if len(signs) == 2:
                break
        else:
            seeing.append(k)
    return seeing


def _coordinate(value: Fraction) -> str:
    return format_fraction(value)
