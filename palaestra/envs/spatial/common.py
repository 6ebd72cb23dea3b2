"""Shared helpers of the spatial family: grids of ``#``/``.`` cells and the symmetries of a rectangle."""

from __future__ import annotations

import random

from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import read_with_tail

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

    return read_with_tail(text, read)


def grid_spellings(answer: str) -> list[str]:
    """Other ways a careful grader accepts of writing the grid ``answer`` (rows joined by newlines)."""
    rows = answer.split("\n")
    return ["\n".join(" ".join(row) for row in rows), f"```\n{answer}\n```", f"Answer:\n{answer}",
            "\n".join(row.replace(FILLED, "1").replace(EMPTY, "0") for row in rows)]
