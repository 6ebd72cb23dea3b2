"""Which marked cells a viewer can see across a grid with walls (exact geometry, any order).

The viewer ``V`` and the lettered targets stand at the centres of their cells; wall cells ``#`` are solid
unit squares. A target is seen when the straight segment between the two centres meets the inside of no wall
cell: a segment that only touches a wall's corner passes (the rule is stated in the prompt). Each segment is
tested against every wall with exact rational arithmetic (the parameter range inside the open square is
empty or not), so the set of seen targets is unique. Problems are redrawn until at least one target is seen
and at least one is hidden, so neither "all" nor "none" is right, and (version 2) until some seen target's line touches a wall's
corner, so reading a touched corner as blocking is wrong (it answered 0.57 of level 0), and (version 3) until the
textbook grid approximation, Bresenham's line (the cells one step per column or row along the segment), misjudges
some target: it answered 0.76 of level 0, 0.63 of level 2 and 0.48 of level 4 (declared in ``heuristics``).

Nor may a few points stand in for the segment: judging a target by the cells under N points spaced evenly along
it answered up to 0.93 of level 0 (N = 10), 0.95 of level 2 and 0.95-0.99 of level 4 (N = 20-50). Up to three
targets are planted, each with one wall its line clips (across a corner, mostly: a short stretch of the line
inside it), chosen greedily so that for every sample grid ``t = i / m`` up to a bound (``m`` = 12, 17, 27, 37 on
grids of 5-8 cells a side, 51 from 9 on: N up to 50 points between the centres or 52 with them) some planted
target's clipped stretch holds no sample point; no other wall lies on a planted line. Sampling (a point on a cell
edge rounded down into a cell) then calls a hidden target seen in every problem up to the bound (0 at every
level; declared for N = 5, 10, 20, 50). Past the bound no corner clip on so small a grid escapes every sample
point, so on the 5 x 5 grid of level 0 sampling 20 points or more is right. The verifier reads a set of letters (any
order, ``none`` for the empty set) and names a misjudged target with its reason: the first wall its segment
crosses, or that no wall blocks it.

Difficulty: the wall cells inside the bounding boxes of the viewer-target segments (the walls a careful
checker must test), summed over the targets, on the drawn grid.

Generation speed: about 750 problems/s at level 0, 125 at level 4 and 175 at level 7 on this 2-core machine
(950, 335 and 150 before Bresenham's line was ruled out). The time goes to planting the clipped corners (a greedy
pass over a cached table of every line and cell within 8 rows and columns, with the sample grids each misses)
and to the exact segment-square tests of every target against every wall, repeated for the draws a problem takes
until the corner rule, Bresenham's line and every sample grid up to the bound all misjudge some target.
"""

from __future__ import annotations

import functools
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


def span(viewer: Cell, target: Cell, wall: Cell) -> tuple[int, int, int]:
    """The parameters ``t`` (as ``low / scale`` to ``high / scale``) where the segment between two cell centres
    lies in the closed unit square of ``wall`` (row, column); empty when ``low > high``."""
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
                return 1, 0, scale
            continue
        step = scale // (2 * delta)  # exact: 2 * delta divides the scale
        t1, t2 = (near - start) * step, (far - start) * step
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return low, high, scale


def crosses(viewer: Cell, target: Cell, wall: Cell, *, closed: bool = False) -> bool:
    """Whether the segment between two cell centres meets the open unit square of ``wall`` (row, column), or,
    with ``closed``, the square with its edges and corners (the misreading where a touched corner blocks)."""
    low, high, _ = span(viewer, target, wall)
    return low <= high if closed else low < high


def cell_span(viewer: Cell, target: Cell, cell: Cell) -> tuple[int, int, int, bool, bool]:
    """The parameters ``t`` where the segment lies in ``cell`` taken as the half-open square ``[row, row + 1) x
    [column, column + 1)`` (the cell a point's rounded-down coordinates name): ``low / scale`` to
    ``high / scale``, and whether each end belongs to it. Empty when ``low > high``, or equal and not both in."""
    deltas = (target[0] - viewer[0], target[1] - viewer[1])
    scale = 2 * abs(math.prod(d for d in deltas if d))
    low, high, low_in, high_in = 0, scale, True, True
    for axis in (0, 1):
        start, delta = 2 * viewer[axis] + 1, deltas[axis]
        near, far = 2 * cell[axis], 2 * cell[axis] + 2
        if delta == 0:
            if not near < start < far:
                return 1, 0, scale, False, False
            continue
        step = scale // (2 * delta)
        t_near, t_far = (near - start) * step, (far - start) * step
        # the near edge belongs to the cell, the far one not: [t_near, t_far) going forward, (t_far, t_near] back
        ends = ((t_near, True), (t_far, False)) if delta > 0 else ((t_far, False), (t_near, True))
        (first, first_in), (last, last_in) = ends
        if first > low or (first == low and not first_in):
            low, low_in = first, first_in
        if last < high or (last == high and not last_in):
            high, high_in = last, last_in
    return low, high, scale, low_in, high_in


def missed(spans: list[tuple[int, int, int, bool, bool]], grid: int) -> bool:
    """Whether no point ``t = i / grid`` of the segment (``i`` = 0..grid) falls in any of ``spans`` (as
    :func:`cell_span` gives them): sampling the segment at ``grid + 1`` evenly spaced points, or ``grid - 1``
    between the ends, and rounding each point down to a cell, finds no wall."""
    for low, high, scale, low_in, high_in in spans:
        first = -(-low * grid // scale) if low_in else low * grid // scale + 1  # the first i / grid past low
        if first * scale < high * grid or (high_in and first * scale == high * grid):
            return False
    return True


def sample_grids(size: int) -> range:
    """The sample grids ``t = i / m`` every problem on a ``size`` grid defeats: up to 50 points between the ends
    (``m`` = 51) from a 9 x 9 grid on, fewer below, where segments are too short for slivers that thin (from
    ``m`` = 13, 19, 33, 41 on grids of 5, 6, 7, 8 no wall corner avoids every point)."""
    return range(2, {5: 12, 6: 17, 7: 27, 8: 37}.get(size, 51) + 1)


GRIDS = range(2, 52)  # the sample grids t = i / m tracked: up to 50 points between the ends


REACH = 8  # planted targets lie at most this many rows and columns from the viewer (lines long enough for 51)


@functools.lru_cache(maxsize=4096)
def line_cells(offset: Cell) -> tuple[tuple[Cell, bool], ...]:
    """For a target ``offset`` (rows, columns) away from the viewer: each cell (as an offset from the viewer)
    whose closed square the segment meets, and whether the segment enters its inside (a wall there blocks)."""
    origin, rows, cols = (0, 0), sorted((0, offset[0])), sorted((0, offset[1]))
    reach = abs(offset[0]) + abs(offset[1])  # doubled: a square meets the line when its centre is this close
    found = []
    for r in range(rows[0], rows[1] + 1):
        for c in range(cols[0], cols[1] + 1):
            if abs(2 * (r * offset[1] - c * offset[0])) > reach or (r, c) in (origin, offset):
                continue  # the square's centre is too far from the line for the square to meet it
            low, high, _ = span(origin, offset, (r, c))
            if low <= high:
                found.append(((r, c), low < high))
    return tuple(found)


@functools.lru_cache(maxsize=65536)
def cell_mask(offset: Cell, cell: Cell) -> int:
    """The grids of :data:`GRIDS` (bit ``m``) whose points ``t = i / m`` on the line to ``offset`` all round down
    to cells other than ``cell`` (offsets from the viewer)."""
    spans = [cell_span((0, 0), offset, cell)]
    return sum(1 << m for m in GRIDS if missed(spans, m))


def fooled_mask(viewer: Cell, target: Cell, solid: set[Cell]) -> int:
    """The grids (bit ``m``) whose sample points all miss the walls when ``target`` is hidden, else 0."""
    offset = (target[0] - viewer[0], target[1] - viewer[1])
    mask, hidden = (1 << (GRIDS[-1] + 1)) - 1, False
    for (r, c), blocking in line_cells(offset):
        if (viewer[0] + r, viewer[1] + c) in solid:
            mask &= cell_mask(offset, (r, c))
            hidden = hidden or blocking
    return mask if hidden else 0


def fooled_grids(viewer: Cell, targets: list[Cell], walls: list[Cell]) -> set[int]:
    """The grids ``m`` of :data:`GRIDS` whose sampling calls some hidden target seen."""
    solid = set(walls)
    mask = 0
    for target in targets:
        mask |= fooled_mask(viewer, target, solid)
    return {m for m in GRIDS if mask >> m & 1}


@functools.cache
def _clippings() -> tuple[tuple[Cell, Cell, int], ...]:
    """Every ``(target, wall, mask)`` as offsets from the viewer within :data:`REACH`: a cell the line passes
    through the inside of, with the grids (bit ``m``) whose sample points all miss it."""
    found = []
    for target in ((r, c) for r in range(-REACH, REACH + 1) for c in range(-REACH, REACH + 1) if r or c):
        for wall, blocking in line_cells(target):
            mask = cell_mask(target, wall) if blocking else 0
            if mask:
                found.append((target, wall, mask))
    return tuple(found)


@functools.lru_cache(maxsize=1024)
def clippings(size: int, viewer: Cell) -> tuple[tuple[Cell, Cell, int], ...]:
    """The ``(target, wall, mask)`` of :func:`_clippings` that fall on a ``size`` grid from ``viewer``."""
    return tuple(((viewer[0] + t[0], viewer[1] + t[1]), (viewer[0] + w[0], viewer[1] + w[1]), mask)
                 for t, w, mask in _clippings()
                 if 0 <= viewer[0] + t[0] < size and 0 <= viewer[1] + t[1] < size)


def sampled_seen(viewer: Cell, targets: list[Cell], walls: list[Cell], points: int) -> list[bool]:
    """Per target, whether none of ``points`` points spaced evenly strictly between the two centres lies in a
    wall cell (a point on a cell's edge counts in the cell below or right of it): the sampled-line shortcut."""
    solid = set(walls)
    seen = []
    for target in targets:
        # the point i / (points + 1) of the way, in doubled coordinates over the common denominator
        over = 2 * (points + 1)
        cells = {tuple(((2 * v + 1) * (points + 1) + 2 * i * (t - v)) // over for v, t in zip(viewer, target, strict=True))
                 for i in range(1, points + 1)}
        seen.append(not cells & solid)
    return seen


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


PLANTED = 3  # targets planted behind a clipped wall corner, at most
FILLS = 10  # random rests of the grid tried around one set of planted lines


def plant(rng: random.Random, size: int, grids: set[int], count: int) -> tuple[Cell, list[Cell], list[Cell]]:
    """A viewer and up to ``count`` targets, each with one wall its line clips (mostly across a corner), chosen
    one by one to cover the most ``grids`` not yet covered (the finer grids counting thrice): grids ``m`` whose
    points ``t = i / m`` all miss the clipped part, so that sampling there calls the target seen."""
    viewer = (rng.randrange(size), rng.randrange(size))
    targets: list[Cell] = []
    walls: list[Cell] = []
    left = sum(1 << m for m in grids)
    fine = sum(1 << m for m in grids if 2 * m > max(grids))
    for _ in range(count):
        taken = {viewer, *targets, *walls}
        best, choices = 0, []
        for target, wall, missing in clippings(size, viewer):
            useful = missing & left
            if not useful or target in taken or wall in taken:
                continue
            gain = useful.bit_count() + 2 * (useful & fine).bit_count()
            if gain > best:
                best, choices = gain, [(target, wall)]
            elif gain == best:
                choices.append((target, wall))
        if not choices:
            break
        target, wall = rng.choice(choices)
        targets.append(target)
        walls.append(wall)
        left &= ~fooled_mask(viewer, target, {wall})
    return viewer, targets, walls


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
    growth = Growth(steps={"size": 1, "walls": 8, "targets": 1}, limits={"targets": 20})  # 5 walls: too flat once lines were planted

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cells = [(r, c) for r in range(config.size) for c in range(config.size)]

        grids = set(sample_grids(config.size))
        planted = min(PLANTED, config.targets - 2, config.walls - 1)
        Drawn = tuple[Cell, list[Cell], list[Cell], list[Cell | None]]

        def mixed(drawn: Drawn) -> bool:
            viewer, targets, walls, blockers = drawn
            corner_seen = any(b is None and any(crosses(viewer, t, w, closed=True) for w in walls)
                              for t, b in zip(targets, blockers, strict=True))
            # the corner rule must decide: a seen target whose line touches a wall's corner (reading a touched
            # corner as blocking answered 0.57 of level 0 and 0.49 of level 4)
            # nor may Bresenham's cells stand in for the segment (they answered 0.76 of level 0, 0.63 of level 2)
            approximated = bresenham_seen(viewer, targets, walls) != [b is None for b in blockers]
            # nor points sampled along the segment, however many up to the grid's bound (version 3 too)
            sampled = grids <= fooled_grids(viewer, targets, walls)
            return any(b is None for b in blockers) and any(b is not None for b in blockers) and corner_seen \
                and approximated and sampled

        def draw() -> Drawn | None:
            viewer, planted_targets, planted_walls = plant(rng, config.size, grids, planted)
            if not grids <= fooled_grids(viewer, planted_targets, planted_walls):
                return None
            taken = {viewer, *planted_targets, *planted_walls}
            free = [cell for cell in cells if cell not in taken]
            # no other wall on a planted line: its clipped corner stays the only thing between sampling and it
            lines = {(viewer[0] + r, viewer[1] + c) for t in planted_targets
                     for (r, c), _ in line_cells((t[0] - viewer[0], t[1] - viewer[1]))}
            clear = [cell for cell in free if cell not in lines]
            cut = config.targets - len(planted_targets)
            more = config.walls - len(planted_walls)
            if len(clear) < more:
                return None
            for _ in range(FILLS):  # the planted lines are the costly part: several random rests for each
                walls = [*planted_walls, *rng.sample(clear, more)]
                targets = [*planted_targets, *rng.sample([cell for cell in free if cell not in walls], cut)]
                targets = rng.sample(targets, len(targets))  # the planted targets anywhere among the letters
                drawn = viewer, targets, walls, [first_blocker(viewer, t, walls) for t in targets]
                if mixed(drawn):
                    return drawn
            return None

        viewer, targets, walls, blockers = retry(draw, what="targets both seen and hidden, every shortcut misjudging one")
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

        def sampled(points: int) -> Callable[[Problem], str]:
            def rule(problem: Problem) -> str:
                data = problem.data
                names = sorted(data["targets"])
                seen = sampled_seen(tuple(data["viewer"]), [tuple(data["targets"][n]) for n in names],
                                    [tuple(w) for w in data["walls"]], points)
                return ", ".join(n for n, ok in zip(names, seen, strict=True) if ok) or "none"

            return rule

        return {"Bresenham's line": bresenham,
                **{f"{points} points sampled along the line": sampled(points) for points in (5, 10, 20, 50)}}

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
