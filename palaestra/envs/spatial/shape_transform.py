"""Rotate and mirror an ASCII shape: the grid after a sequence of quarter turns, half turns and reflections.

A rectangle of ``#`` (filled) and ``.`` (empty) cells goes through a short list of operations, each applied to
the whole rectangle in turn: a quarter turn clockwise or counterclockwise, a half turn, a mirror left-right, a
mirror top-bottom, or a transpose (mirror across the diagonal from the top-left corner to the bottom-right), or
a wrapping shift (right, left, up or down by a few cells, the cells pushed past one edge re-entering at the
opposite one). The answer is the resulting grid, which is a function of the input, so it
is unique. The shape is redrawn until its eight images under the rectangle's symmetries are all different and
the operations do not compose to the identity, so neither the input grid nor any image the list does not
produce is right; from level 1 on the list is also redrawn until undoing it (each operation's opposite, in
reverse order) gives a different grid and, for two operations or more, until applying them in reverse order
does, so reading the list backwards is never right. The verifier compares cell by cell and says how many
cells differ (or that the dimensions are wrong).

Version 2: six of the eight symmetries are their own inverse, so the inverse transform was right on 0.71 of
level 2 and 0.77 of level 4 (and the list in reverse order on 0.58 and 0.54); the shifts (whose inverse is
the opposite shift, and which make a glide or a turn with a shift the usual result) and the redraws bring both
to 0 from level 1 on (except the reverse order of a single operation, half of level 1). Level 0 (one rotation or
mirror) was unchanged.

Version 3: level 0 drew its one operation among the six symmetries alike, and four of them (the half turn and the
three mirrors) undo themselves, so answering with the inverse (a quarter turn the wrong way round) was right on
0.65 of it (200 seeds). Level 0 now draws a symmetry that undoes itself a quarter of the time, else a quarter turn
or a wrapping shift (redrawn where undoing it gives the same grid, as a shift by half the width does): the inverse
is right on 0.26 of level 0 (400 seeds; the self-inverse quarter, where the inverse is the operation itself) and
no fixed operation on more than 0.22. Reading a single operation "in reverse order" is the operation, so that
rule still solved level 0 (1.00), and the half of level 1 with one operation (0.65 of level 1, 300 seeds).

Version 4: level 1 has exactly two operations (it drew one or two, and a single one read in reverse order is
itself): the inverse transform, the reverse order, the first or the last operation alone and the input score 0.00
to 0.003 there (300 seeds); one fixed quarter turn is right on at most 0.11 (two operations can compose to one). At
level 0 the reverse order of its one operation is the operation, so that rule is the task itself there, not a
shortcut.

Version 5: reading every shift the opposite way (cells moving right for "shift left") was right on 0.35, 0.26,
0.14 and 0.05 of the lists with a shift at levels 1-4 (a shift by half the side undoes itself, and two shifts
can cancel either way); from level 1 on the list is also redrawn until that misreading gives a different grid,
which brings it to 0 (level 0 already redrew a single shift whose opposite gives the same grid).

Difficulty: the filled cells moved times the operations that do not cancel with their neighbour (a mirror
applied twice running, or a turn or a shift undone by the opposite one), on the drawn problem.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.spatial.common import (
    FILLED,
    Grid,
    grid_spellings,
    mirror_left_right,
    mirror_top_bottom,
    random_grid,
    read_cells,
    rotate_clockwise,
    transpose,
)

EXAMPLE = "#.#\n.##"  # a fixed placeholder of the right shape (2 x 3; drawn grids are at least 3 x 4)


def _apply(name: str, grid: Grid) -> Grid:
    if ":" in name:  # a wrapping shift, such as "right:2"
        way, amount = name.split(":")
        k = int(amount)
        if way in ("right", "left"):
            k = k if way == "right" else -k
            return tuple(row[-k:] + row[:-k] for row in grid)
        k = k if way == "down" else -k
        return grid[-k:] + grid[:-k]
    if name == "cw":
        return rotate_clockwise(grid)
    if name == "ccw":
        return rotate_clockwise(rotate_clockwise(rotate_clockwise(grid)))
    if name == "half":
        return rotate_clockwise(rotate_clockwise(grid))
    if name == "lr":
        return mirror_left_right(grid)
    if name == "tb":
        return mirror_top_bottom(grid)
    return transpose(grid)


OPERATIONS = {
    "cw": "rotate 90 degrees clockwise",
    "ccw": "rotate 90 degrees counterclockwise",
    "half": "rotate 180 degrees",
    "lr": "mirror left-right (each row reversed)",
    "tb": "mirror top-bottom (the order of the rows reversed)",
    "tr": "transpose (mirror across the diagonal from the top-left corner to the bottom-right corner)",
}
OWN_INVERSE = ("half", "lr", "tb", "tr")  # the symmetries that undo themselves
SHIFT_SHARE = 0.35  # the chance that an operation is a wrapping shift (where shifts are drawn)
_CANCELS = {("cw", "ccw"), ("ccw", "cw"), ("half", "half"), ("lr", "lr"), ("tb", "tb"), ("tr", "tr")}
_OPPOSITE = {"cw": "ccw", "ccw": "cw", "right": "left", "left": "right", "up": "down", "down": "up"}


def describe(name: str) -> str:
    """The prompt's wording of an operation."""
    if ":" not in name:
        return OPERATIONS[name]
    way, amount = name.split(":")
    cells = "1 cell" if amount == "1" else f"{amount} cells"
    if way in ("right", "left"):
        edge = {"right": ("right", "left"), "left": ("left", "right")}[way]
        return (
            f"shift {way} by {cells}, wrapping around (every row's cells move {cells} to the {way}; those "
            f"pushed past the {edge[0]} edge re-enter at the {edge[1]} edge)"
        )
    edge = {"down": ("bottom", "top"), "up": ("top", "bottom")}[way]
    return (
        f"shift {way} by {cells}, wrapping around (every column's cells move {cells} {way}; those pushed "
        f"past the {edge[0]} edge re-enter at the {edge[1]} edge)"
    )


def inverse(operations: list[str]) -> list[str]:
    """The operations that undo ``operations``: each one's opposite, in reverse order."""
    undo = []
    for name in reversed(operations):
        way, _, amount = name.partition(":")
        opposite = _OPPOSITE.get(way, way)
        undo.append(f"{opposite}:{amount}" if amount else opposite)
    return undo


def shifts_reversed(operations: list[str]) -> list[str]:
    """The list with every shift the opposite way (the misreading of which way a shift moves the cells)."""
    return [f"{_OPPOSITE[name.split(':')[0]]}:{name.split(':')[1]}" if ":" in name else name for name in operations]


def transformed(grid: Grid, operations: list[str]) -> Grid:
    for name in operations:
        grid = _apply(name, grid)
    return grid


def symmetry_images(grid: Grid) -> list[Grid]:
    """The grid's images under the eight symmetries of the square (rotations, and rotations of the mirror)."""
    images, turned = [], grid
    for _ in range(4):
        images += [turned, mirror_left_right(turned)]
        turned = rotate_clockwise(turned)
    return images


def effective_steps(operations: list[str]) -> int:
    """Operations that survive cancelling adjacent inverse pairs (a stack walk, like reducing a word)."""
    stack: list[str] = []
    for name in operations:
        if stack and ((stack[-1], name) in _CANCELS or (":" in name and inverse([name]) == [stack[-1]])):
            stack.pop()
        else:
            stack.append(name)
    return len(stack)


@register
class ShapeTransform(Task):
    id = "spatial/shape_transform"
    family = "spatial"
    description = "The ASCII grid after a sequence of rotations, reflections and wrapping shifts."
    tags = ("spatial", "rotation", "grids")
    multiline = True
    version = 5  # v5: lists redrawn until shifting every way backwards gives a different grid

    @dataclass(frozen=True)
    class Config:
        rows: int  # rows of the input rectangle
        cols: int  # columns of the input rectangle
        operations: int  # the most operations in the list (at least half of it is drawn, or ``at_least``)
        shifts: bool = True  # wrapping shifts among the operations, and the list redrawn until undoing it differs
        # one operation whose inverse is itself (a half turn or a mirror) with this chance, else a quarter turn or a
        # shift that undoing changes (level 0); None: the operations drawn as above
        own_inverse: float | None = None
        at_least: int = 0  # the fewest operations in the list (0: half of ``operations``, rounded up)

    presets = (Config(3, 4, 1, own_inverse=0.25), Config(4, 4, 2, at_least=2), Config(4, 5, 3), Config(5, 6, 4),
               Config(6, 7, 5))
    growth = Growth(steps={"rows": 1, "cols": 1, "operations": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        reach = min(config.rows, config.cols) - 1  # a shift fits every orientation of the rectangle

        def shift() -> str:
            return f"{rng.choice(('right', 'left', 'down', 'up'))}:{rng.randint(1, reach)}"

        def operation() -> str:
            if config.shifts and rng.random() < SHIFT_SHARE:
                return shift()
            return rng.choice(list(OPERATIONS))

        def draw() -> tuple[Grid, list[str]]:
            count = rng.randint(config.at_least or max(1, (config.operations + 1) // 2), config.operations)
            return random_grid(rng, config.rows, config.cols), [operation() for _ in range(count)]

        def asymmetric(drawn: tuple[Grid, list[str]]) -> bool:
            grid, operations = drawn
            if len(set(symmetry_images(grid))) != 8:
                return False
            result = transformed(grid, operations)
            if result == grid:
                return False
            return not config.shifts or result not in (
                transformed(grid, inverse(operations)),
                transformed(grid, operations[::-1]) if len(operations) > 1 else None,
                transformed(grid, shifts_reversed(operations)) if shifts_reversed(operations) != operations else None,
            )

        def single() -> tuple[Grid, list[str]]:
            grid = random_grid(rng, config.rows, config.cols)
            if rng.random() < (config.own_inverse or 0.0):
                return grid, [rng.choice(OWN_INVERSE)]
            return grid, [shift() if rng.random() < 0.5 else rng.choice(("cw", "ccw"))]

        def directed(drawn: tuple[Grid, list[str]]) -> bool:
            grid, operations = drawn
            if len(set(symmetry_images(grid))) != 8:
                return False
            result = transformed(grid, operations)
            return result != grid and (operations[0] in OWN_INVERSE or result != transformed(grid, inverse(operations)))

        if config.own_inverse is None:
            grid, operations = retry(draw, asymmetric, what="an asymmetric shape and a non-identity transform")
        else:
            grid, operations = retry(single, directed, what="an asymmetric shape and one operation")
        result = transformed(grid, operations)
        steps = "\n".join(f"{i}. {describe(name)}" for i, name in enumerate(operations, 1))
        prompt = (
            f"Here is a grid of {config.rows} rows and {config.cols} columns, # for a filled cell and . for an "
            f"empty one:\n\n" + "\n".join(grid) + "\n\nApply these operations to the whole grid, in order, each "
            f"to the result of the one before:\n{steps}\n\nAnswer with the resulting grid, one row per line, "
            f"using # and . with no spaces. For example (a grid of 2 rows and 3 columns):\n{EXAMPLE}"
        )
        return Problem(
            prompt=prompt,
            answer="\n".join(result),
            data={"grid": list(grid), "operations": operations, "result": list(result)},
        )

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(reading: Callable[[list[str]], list[str]]) -> Callable[[Problem], str]:
            return lambda p: "\n".join(transformed(tuple(p.data["grid"]), reading(p.data["operations"])))

        return {"the inverse transform": rule(inverse), "the operations in reverse order": rule(lambda ops: ops[::-1]),
                "every shift the opposite way": rule(shifts_reversed)}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_cells(answer)
        if given is None:
            return Verdict.unparsed("expected a grid of # and . cells, one row per line")
        result = problem.data["result"]
        if len(given) != len(result) or len(given[0]) != len(result[0]):
            return Verdict.wrong(
                f"the grid is {len(given)} x {len(given[0])}; the result has "
                f"{len(result)} rows and {len(result[0])} columns"
            )
        differing = sum(a != b for row, want in zip(given, result, strict=True) for a, b in zip(row, want, strict=True))
        if differing:
            return Verdict.wrong(f"{differing} cell(s) differ from the transformed grid")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Filled cells times the operations that do not cancel with a neighbour."""
        filled = sum(row.count(FILLED) for row in problem.data["grid"])
        return float(filled * max(1, effective_steps(problem.data["operations"])))

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *grid_spellings(problem.answer or "")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        grid, operations, result = tuple(problem.data["grid"]), problem.data["operations"], problem.data["result"]
        near = [
            grid,
            transformed(grid, operations[:-1]),
            transformed(grid, operations[::-1]),
            mirror_left_right(tuple(result)),
            transpose(tuple(result)),
        ]
        row, col = rng.randrange(len(result)), rng.randrange(len(result[0]))
        flipped = [list(line) for line in result]
        flipped[row][col] = "." if flipped[row][col] == FILLED else FILLED
        near.append(tuple(map("".join, flipped)))
        return ["\n".join(candidate) for candidate in near if list(candidate) != result]
