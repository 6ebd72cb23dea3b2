"""The area of a simple polygon given by its vertices in order (the shoelace formula).

Level 0 is a triangle with small non-negative integer coordinates. From level 1 the polygon has 6 to 12 vertices
(more past level 4), from level 2 larger and negative coordinates, at level 4 halves or thirds, and it is not
star-shaped: no point sees the whole of it (the closed half-planes to the inside of its edges share no point).
The vertices are listed clockwise or counter-clockwise. The area is computed exactly.

The polygon is drawn as distinct grid points joined in a random order, two edges that meet swapped for the two
that join their ends the other way (reversing the path between them) until none meet (a swap of crossing edges
shortens the boundary); a draw not untangled in a few rounds is drawn again, and so is a polygon that some point
sees whole (6 vertices at least: every pentagon is star-shaped).

Adding the unsigned areas of the triangles of a fan from one point (to each edge) is right exactly when that
point sees the whole polygon. Version 3 joined the vertices in angular order around their centroid and only hid
the vertex seeing the whole polygon: on 40 seeds a level, a fan from the vertices' centroid solved every problem,
from the area centroid 0.47-0.68 of levels 2-4 and from the middle of the bounding box 0.33-0.55, from the second,
third, fourth or last vertex 0.03-0.28 of levels 2-4 and 0.75-0.88 of level 1 (mostly convex quadrilaterals). Now
every such fan solves none of levels 1-4; level 0, a triangle, is seen whole from any of its points.

The answer is the exact area, in any exact spelling (``27/2``, ``13.5``, ``13 1/2``,
``\\frac{27}{2}``); a rounded value of a non-terminating area is wrong, and so is a
signed (negative) area.
"""

from __future__ import annotations

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
    version = 4  # v4: from level 1, no point sees the whole polygon (v3: the vertices' centroid saw every one)
    # v3: from level 2, at most one vertex sees the whole polygon, and it is never listed first
    family = "geometry"
    description = "Area of a simple polygon from its vertex coordinates (shoelace formula), exactly."
    tags = ("math", "geometry", "coordinates")

    @dataclass(frozen=True)
    class Config:
        vertices: tuple[int, int]
        extent: int  # coordinates in [-extent, extent] (level 0: [0, extent])
        denominators: tuple[int, ...]  # coordinates are multiples of 1/d for d drawn from these
        hidden: bool  # no point sees the whole polygon (6 vertices or more: every pentagon is star-shaped)

    presets = (
        Config(vertices=(3, 3), extent=12, denominators=(1,), hidden=False),
        Config(vertices=(6, 6), extent=10, denominators=(1,), hidden=True),
        Config(vertices=(6, 8), extent=15, denominators=(1,), hidden=True),
        Config(vertices=(7, 10), extent=25, denominators=(1,), hidden=True),
        Config(vertices=(9, 12), extent=20, denominators=(2, 3), hidden=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def acceptable(p: list[tuple[int, int]]) -> bool:
            return _no_flat_corner(p) and (not config.hidden or _seen_by_none(p))

        d = rng.choice(config.denominators)
        # drawn and checked in units of 1/d (every check is unchanged by scaling): integers until the kernel's cut
        grid = retry(lambda: _polygon(rng, config, d), acceptable, what="a simple polygon with no flat corners")
        points = [(Fraction(x, d), Fraction(y, d)) for x, y in grid]
        if rng.random() < 0.5:
            points.reverse()
        start = rng.randrange(len(points))
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


def _polygon(rng: random.Random, config: PolygonArea.Config, d: int) -> list[tuple[int, int]] | None:
    """Distinct points of the grid of step 1/d (in its units) joined in a random order, untangled; None when the
    points repeat or do not untangle."""
    n = rng.randint(*config.vertices)
    low = 0 if config.denominators == (1,) and config.extent <= 12 else -config.extent
    raw = list({(rng.randint(low * d, config.extent * d), rng.randint(low * d, config.extent * d)) for _ in range(n)})
    if len(raw) < n:
        return None
    rng.shuffle(raw)
    return _untangled(raw) or None


def _untangled(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The closed path through ``points`` in their order with each two edges that meet (but at a shared end)
    replaced by the two that join their ends the other way, the path between them reversed, until none meet;
    empty if a few rounds do not do it (a swap of crossing edges shortens the path, one of touching edges need not)."""
    order = list(points)
    n = len(order)
    for _ in range(n):
        untangled = True
        for i in range(n):
            for j in range(i + 2, n - (i == 0)):
                if _meet(order[i], order[i + 1], order[j], order[(j + 1) % n]):
                    order[i + 1:j + 1] = reversed(order[i + 1:j + 1])
                    untangled = False
        if untangled:
            return order
    return []


def _side(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    """The sign of the turn o -> a -> b: 1 to the left, -1 to the right, 0 on a line."""
    turn = (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    return (turn > 0) - (turn < 0)


def _meet(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int], d: tuple[int, int]) -> bool:
    """Whether the segments ab and cd share a point (crossing, touching, or overlapping on one line)."""
    if _side(a, b, c) == _side(a, b, d) == 0:  # on one line: whether their extents overlap
        return all(min(a[k], b[k]) <= max(c[k], d[k]) and min(c[k], d[k]) <= max(a[k], b[k]) for k in (0, 1))
    return _side(a, b, c) * _side(a, b, d) <= 0 and _side(c, d, a) * _side(c, d, b) <= 0


def _area(points: list[tuple[Fraction, Fraction]]) -> Fraction:
    if len(points) < 3:
        return Fraction(0)
    twice = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))
    return abs(twice) / 2


def _no_flat_corner(points: list[tuple[int, int]]) -> bool:
    """No vertex lies on the line through its neighbours (it would not be a corner)."""
    n = len(points)
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = points[i - 1], points[i], points[(i + 1) % n]
        if (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) == 0:
            return False
    return True


def _seen_by_none(points: list[tuple[int, int]]) -> bool:
    """Whether no point sees the whole polygon: the closed half-planes to the inside of its edges (its kernel, the
    points from which every fan triangle turns one way) have no point in common, so a fan of unsigned triangle
    areas from any point (a vertex, a centroid, the middle of the bounding box) is wrong."""
    if any(_sees(points, vertex) for vertex in points):  # a quick no (then the kernel holds the vertex)
        return False
    inside = 1 if sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1])) > 0 else -1
    xs, ys = [x for x, _ in points], [y for _, y in points]
    kernel: list[tuple[Fraction, Fraction]] = [(Fraction(x), Fraction(y)) for x, y in (
        (min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys)))]
    for a, b in zip(points, points[1:] + points[:1]):
        kernel = _clipped(kernel, a, b, inside)
        if not kernel:
            return True
    return False


def _turn(a: tuple[int, int], b: tuple[int, int], p: tuple[Fraction, Fraction]) -> Fraction:
    """Twice the signed area of the triangle a, b, p (positive when p is to the left of ab)."""
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def _sees(points: list[tuple[int, int]], origin: tuple[int, int]) -> bool:
    """Whether every triangle of the fan from ``origin`` to an edge turns one way (flat ones add nothing)."""
    turns = {_side(origin, a, b) for a, b in zip(points, points[1:] + points[:1])} - {0}
    return len(turns) <= 1


def _clipped(region: list[tuple[Fraction, Fraction]], a: tuple[int, int], b: tuple[int, int],
             inside: int) -> list[tuple[Fraction, Fraction]]:
    """The convex ``region`` (possibly flat, a segment or a point) cut to the closed half-plane on the ``inside``
    side of the line ab (1: left, -1: right)."""
    kept = []
    for p, q in zip(region, region[1:] + region[:1]):
        tp, tq = inside * _turn(a, b, p), inside * _turn(a, b, q)
        if tp >= 0:
            kept.append(p)
        if tp * tq < 0:
            t = tp / (tp - tq)
            kept.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return kept


def _coordinate(value: Fraction) -> str:
    return format_fraction(value)
