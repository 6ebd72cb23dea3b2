"""Which marked cells a viewer can see across a grid with walls (exact geometry, any order).

The viewer ``V`` and the lettered targets stand at the centres of their cells; wall cells ``#`` are solid
unit squares. A target is seen when the straight segment between the two centres meets the inside of no wall
cell: a segment that only touches a wall's corner passes (the rule is stated in the prompt). Each segment is
tested against every wall with exact rational arithmetic (the parameter range inside the open square is
empty or not), so the set of seen targets is unique. Problems are redrawn until at least one target is seen
and at least one is hidden, so neither "all" nor "none" is right, and (version 2) until some seen target's line touches a wall's
corner, so reading a touched corner as blocking is wrong (it answered 0.57 of level 0), and (version 3) until the
textbook grid approximation, Bresenham's line (the cells one step per column or row along the segment), misjudges
some target: it answered 0.76 of level 0, 0.63 of level 2 and 0.48 of level 4 (declared in ``heuristics``). The verifier reads a set of letters (any
order, ``none`` for the empty set) and names a misjudged target with its reason: the first wall its segment
crosses, or that no wall blocks it.

Difficulty: the wall cells inside the bounding boxes of the viewer-target segments (the walls a careful
checker must test), summed over the targets, on the drawn grid.

Generation speed: about 170 problems/s at level 0, 90 at level 4 and 50 at level 7 on this 2-core machine
(950, 335 and 150 before version 3). The time goes to the exact rational segment-square tests of every target
against every wall, repeated for the 2.5-15 draws a problem takes until the corner rule and Bresenham's line
both decide a target; those redraws are what keep the two misreadings from paying.
"""

from __future__ import annotations

import math
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.sets import one_of, read_set

EXAMPLE = "K, P, R"  # a fixed placeholder of the right shape: never derived from the answer
LETTERS = [letter for letter in string.ascii_uppercase if letter != "V"]

Cell = tuple[int, int]


def crosses(viewer: Cell, target: Cell, wall: Cell, *, closed: bool = False) -> bool:
    """Whether the segment between two cell centres meets the open unit square of ``wall`` (row, column), or,
    with ``closed``, the square with its edges and corners (the misreading where a touched corner blocks)."""
    # Points of the segment are start + t * delta for t in [0, 1]. Every parameter compared below is a
    # numerator over one positive denominator (twice the product of the non-zero deltas), so the test is
    # exact in integers: doubled coordinates put the centres on integers too.
    deltas = (target[0] - viewer[0], target[1] - viewer[1])
    scale = 2 * abs(math.prod(d for d in deltas if d))
    low, high = 0, scale
    for axis in (0, 1):
        start, delta = 2 * viewer[axis] + 1, deltas[axis]
        near, far = 2 * wall[axis], 2 * wall[axis] + 2
        if delta == 0:
            if not near < start < far:  # a centre is never on a cell's edge: the same open or closed
                return False
            continue
        step = scale // (2 * delta)  # exact: 2 * delta divides the scale
        t1, t2 = (near - start) * step, (far - start) * step
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return low <= high if closed else low < high


def first_blocker(viewer: Cell, target: Cell, walls: list[Cell]) -> Cell | None:
    """The wall nearest the viewer that the segment crosses, or None when the target is seen."""
    blocking = [w for w in walls if crosses(viewer, target, w)]
    return min(blocking, key=lambda w: abs(w[0] - viewer[0]) + abs(w[1] - viewer[1])) if blocking else None


def bresenham_cells(viewer: Cell, target: Cell) -> list[Cell]:
    """The cells Bresenham's line algorithm steps through from the viewer to the target, both left out: the
    textbook grid approximation of the segment (one cell per step along the longer axis)."""
    (r, c), (r1, c1) = viewer, target
    dr, dc = abs(r1 - r), abs(c1 - c)
    sr, sc = (1 if r1 > r else -1), (1 if c1 > c else -1)
    error, cells = dc - dr, []
    while (r, c) != (r1, c1):
        twice = 2 * error
        if twice > -dr:
            error -= dr
            c += sc
        if twice < dc:
            error += dc
            r += sr
        if (r, c) != (r1, c1):
            cells.append((r, c))
    return cells


def bresenham_seen(viewer: Cell, targets: list[Cell], walls: list[Cell]) -> list[bool]:
    """Per target, whether no wall lies on its Bresenham cells (the textbook approximation, not the stated rule)."""
    solid = set(walls)
    return [not any(cell in solid for cell in bresenham_cells(viewer, t)) for t in targets]


def walls_in_box(viewer: Cell, target: Cell, walls: list[Cell]) -> int:
    rows = range(min(viewer[0], target[0]), max(viewer[0], target[0]) + 1)
    cols = range(min(viewer[1], target[1]), max(viewer[1], target[1]) + 1)
    return sum(r in rows and c in cols for r, c in walls)


@register
class LineOfSight(Task):
    id = "spatial/line_of_sight"
    family = "spatial"
    description = "Which lettered cells a viewer sees past wall cells on a grid (exact segment geometry)."
    tags = ("spatial", "geometry", "grids", "visibility")
    version = 3

    @dataclass(frozen=True)
    class Config:
        size: int  # the grid is size x size
        walls: int  # wall cells
        targets: int  # lettered cells

    presets = (Config(5, 4, 4), Config(6, 6, 5), Config(7, 9, 6), Config(8, 12, 7), Config(9, 16, 8))
    growth = Growth(steps={"size": 1, "walls": 5, "targets": 1}, limits={"targets": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cells = [(r, c) for r in range(config.size) for c in range(config.size)]

        def draw() -> tuple[Cell, list[Cell], list[Cell], list[Cell | None]]:
            chosen = rng.sample(cells, 1 + config.targets + config.walls)
            viewer, targets, walls = chosen[0], chosen[1: 1 + config.targets], chosen[1 + config.targets:]
            return viewer, targets, walls, [first_blocker(viewer, t, walls) for t in targets]

        def mixed(drawn: tuple[Cell, list[Cell], list[Cell], list[Cell | None]]) -> bool:
            viewer, targets, walls, blockers = drawn
            corner_seen = any(b is None and any(crosses(viewer, t, w, closed=True) for w in walls)
                              for t, b in zip(targets, blockers, strict=True))
            # the corner rule must decide: a seen target whose line touches a wall's corner (reading a touched
            # corner as blocking answered 0.57 of level 0 and 0.49 of level 4)
            # nor may Bresenham's cells stand in for the segment (they answered 0.76 of level 0, 0.63 of level 2)
            approximated = bresenham_seen(viewer, targets, walls) != [b is None for b in blockers]
            return any(b is None for b in blockers) and any(b is not None for b in blockers) and corner_seen \
                and approximated

        viewer, targets, walls, blockers = retry(draw, mixed, what="targets both seen and hidden")
        names = sorted(rng.sample(LETTERS, config.targets))
        marks = {viewer: "V", **dict(zip(targets, names, strict=True)), **{w: "#" for w in walls}}
        picture = "\n".join("".join(marks.get((r, c), ".") for c in range(config.size)) for r in range(config.size))
        seen = sorted(name for name, blocker in zip(names, blockers, strict=True) if blocker is None)
        prompt = (
            "On this grid, # cells are solid walls (whole unit squares), . cells are open, V is a viewer and "
            f"letters mark targets:\n\n{picture}\n\nThe viewer sees a target when the straight line from the centre "
            "of V's cell to the centre of the target's cell passes through the inside of no wall cell (a line "
            "that only touches the corner of a wall is not blocked; targets do not block each other). Which "
            f"targets does the viewer see? Answer with their letters separated by commas, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=", ".join(seen), data={
            "viewer": list(viewer), "targets": {n: list(t) for n, t in zip(names, targets, strict=True)},
            "walls": [list(w) for w in walls], "seen": seen,
            "checks": sum(walls_in_box(viewer, t, walls) for t in targets)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        given = read_set(answer, one_of(sorted(data["targets"]), case_sensitive=True), allow_empty=True,
                         space_separated=True)
        if given is None:
            return Verdict.unparsed(f"expected target letters separated by commas, such as {EXAMPLE}")
        seen = set(data["seen"])
        if given == seen:
            return Verdict.right()
        viewer, walls = tuple(data["viewer"]), [tuple(w) for w in data["walls"]]
        missed = sorted(seen - given)
        if missed:
            return Verdict.wrong(f"{missed[0]} is seen: no wall blocks the line to it")
        wrong = sorted(given - seen)[0]
        blocker = first_blocker(viewer, tuple(data["targets"][wrong]), walls)
        assert blocker is not None
        return Verdict.wrong(f"{wrong} is hidden: the line to it crosses the wall at row {blocker[0] + 1}, "
                             f"column {blocker[1] + 1}")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def bresenham(problem: Problem) -> str:
            data = problem.data
            names = sorted(data["targets"])
            seen = bresenham_seen(tuple(data["viewer"]), [tuple(data["targets"][n]) for n in names],
                                  [tuple(w) for w in data["walls"]])
            return ", ".join(n for n, ok in zip(names, seen, strict=True) if ok) or "none"

        return {"Bresenham's line": bresenham}

    def difficulty(self, problem: Problem) -> float:
        """Walls inside the viewer-target bounding boxes, summed over the targets."""
        return float(problem.data["checks"] + len(problem.data["targets"]))

    def spellings(self, problem: Problem) -> list[str]:
        seen = problem.data["seen"]
        return [*super().spellings(problem), ", ".join(reversed(seen)), " ".join(seen), f"{{{', '.join(seen)}}}",
                f"Answer: {', '.join(seen)}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        seen, names = problem.data["seen"], sorted(problem.data["targets"])
        hidden = [n for n in names if n not in seen]
        return [", ".join(seen[:-1]) or "none", ", ".join([*seen, hidden[0]]), ", ".join(names),
                ", ".join(hidden), f"{', '.join(seen)} or {', '.join(names)}"]
