"""Shared helpers of the spatial family: grids of ``#``/``.`` cells and the symmetries of a rectangle."""

from __future__ import annotations

import random

from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import read_answer

FILLED, EMPTY = "#", "."
# cell spellings a careful grader reads as filled / empty
CELL_READINGS = {"#": FILLED, ".": EMPTY, "1": FILLED, "0": EMPTY, "X": FILLED, "x": FILLED, "■": FILLED,
                 "□": EMPTY, "█": FILLED}

Grid = tuple[str, ...]


def rotate_clockwise(grid: Grid) -> Grid:
    """The grid turned a quarter turn clockwise (its first column, read bottom to top, becomes the first row)."""
    return tuple("".join(row[col] for row in reversed(grid)) for col in range(len(grid[0])))


def mirror_left_right(grid: Grid) -> Grid:
    return tuple(row[::-1] for row in grid)


def mirror_top_bottom(grid: Grid) -> Grid:
    return tuple(reversed(grid))


def transpose(grid: Grid) -> Grid:
    return tuple("".join(row[col] for row in grid) for col in range(len(grid[0])))


def random_grid(rng: random.Random, rows: int, cols: int, density: float = 0.45) -> Grid:
    return tuple("".join(FILLED if rng.random() < density else EMPTY for _ in range(cols)) for _ in range(rows))


def read_cells(text: str) -> Grid | None:
    """A ``#``/``.`` grid written in any cell spelling of :data:`CELL_READINGS` (spaced, fenced, ``[[...]]``)."""

    def read(s: str) -> Grid | None:
        grid = read_grid(s, frozenset(CELL_READINGS), max_cells=2_500)
        return None if grid is None else tuple("".join(CELL_READINGS[cell] for cell in row) for row in grid)

    return read_answer(text, read)


def grid_spellings(answer: str) -> list[str]:
    """Other ways a careful grader accepts of writing the grid ``answer`` (rows joined by newlines)."""
    rows = answer.split("\n")
    return ["\n".join(" ".join(row) for row in rows), f"```\n{answer}\n```", f"Answer:\n{answer}",
            "\n".join(row.replace(FILLED, "1").replace(EMPTY, "0") for row in rows)]


Cell = tuple[int, int]


def normalized(cells: frozenset[Cell] | set[Cell]) -> frozenset[Cell]:
    """The cells moved so their smallest row and column are 0 (a shape up to translation)."""
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def orientations(cells: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The distinct shapes of a polyomino under rotations and reflections, each normalized, in a fixed order."""
    seen: list[frozenset[Cell]] = []
    shape = normalized(cells)
    for mirrored in (shape, frozenset((r, -c) for r, c in shape)):
        turned = mirrored
        for _ in range(4):
            turned = frozenset((c, -r) for r, c in turned)
            image = normalized(turned)
            if image not in seen:
                seen.append(image)
    return seen


def drawing(cells: frozenset[Cell], mark: str = FILLED) -> str:
    """A shape drawn in its bounding box with ``mark`` for its cells and ``.`` elsewhere."""
    height, width = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    return "\n".join("".join(mark if (r, c) in cells else EMPTY for c in range(width)) for r in range(height))


def connected(cells: set[Cell] | frozenset[Cell]) -> bool:
    """Whether the cells form one piece through shared edges."""
    if not cells:
        return False
    start = next(iter(cells))
    reached, frontier = {start}, [start]
    while frontier:
        r, c = frontier.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in cells and step not in reached:
                reached.add(step)
                frontier.append(step)
    return len(reached) == len(cells)
