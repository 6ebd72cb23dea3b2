"""Complete a partially filled magic square; the givens are chosen so that exactly one completion exists.

Levels 0-1 use 3x3 magic squares of whole numbers (not only 1-9): every 3x3 magic square is
``c-b, c+a+b, c-a / c-a+b, c, c+a-b / c+a, c-a-b, c+b`` for some centre c and offsets a, b, so the givens fix
the square exactly when the linear map from (c, a, b) to the given cells has rank 3; the generator removes
cells while the rank stays 3 (level 0 then gives one cell back). Levels 2-4 use normal 4x4 magic squares (the
numbers 1 to 16 once each, every line summing to 34): the 880 squares up to rotation and reflection ship as
package data (``magic_squares_4x4.json``, enumerated by an exhaustive search), so the 7,040 squares are all
at hand and a set of givens is proved to leave one completion by checking it against every one of them. Cells
are removed in random order while the completion stays unique, and levels 2 and 3 give back three and one of
the removed cells. Normal squares of order 5 number in the hundreds of millions, so the levels are bounded.

The answer is the whole square, one row per line (numbers separated by spaces, commas or bars). It is
checked, not compared: the givens kept, every row, column and both diagonals with one sum, and for 4x4 the
numbers 1 to 16 once each; with the completion unique, that is the answer. Difficulty: the blank cells, plus
four for the 4x4 order (its sums involve more unknowns), plus the digits of the largest number.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_integer

BLANK = "?"
_ROW_LABEL = re.compile(r"\s*(?:(?:row|r)\s*)?(\d{1,2})\s*[:)]\s*", re.IGNORECASE)  # "Row 1:", "1:", "R1)"
EXAMPLE_3 = "1 2 3\n4 5 6\n7 8 9"  # fixed placeholders of the right shapes: never derived from the answer
EXAMPLE_4 = "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16"
# coefficients of (c, a, b) in each cell of a 3x3 magic square, row by row
THREE = ((1, 0, -1), (1, 1, 1), (1, -1, 0), (1, -1, 1), (1, 0, 0), (1, 1, -1), (1, 1, 0), (1, -1, -1), (1, 0, 1))


@lru_cache(maxsize=1)
def normal_4x4() -> np.ndarray:
    """All 7,040 normal 4x4 magic squares, one flat row of 16 numbers each."""
    text = resources.files("palaestra.envs.sequences").joinpath("magic_squares_4x4.json").read_text("utf-8")
    out = set()
    for flat in json.loads(text):
        square = np.array(flat).reshape(4, 4)
        for _ in range(4):
            square = np.rot90(square)
            out.add(tuple(square.flatten()))
            out.add(tuple(square[:, ::-1].flatten()))
    return np.array(sorted(out), dtype=np.int16)


def _rank(rows: list[tuple[int, int, int]]) -> int:
    """The rank of a few 3-vectors (exact elimination)."""
    matrix = [[Fraction(x) for x in row] for row in rows]
    rank = 0
    for column in range(3):
        pivot = next((i for i in range(rank, len(matrix)) if matrix[i][column] != 0), None)
        if pivot is None:
            continue
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        for i in range(len(matrix)):
            if i != rank and matrix[i][column] != 0:
                factor = matrix[i][column] / matrix[rank][column]
                matrix[i] = [a - factor * b for a, b in zip(matrix[i], matrix[rank], strict=True)]
        rank += 1
    return rank


def _square_values(text: str, n: int) -> list[int] | None:
    grid = read_grid(text)
    if not grid or len(grid) != n or any(len(row) != n for row in grid):
        return None
    values = [read_integer(cell) for row in grid for cell in row]
    return None if any(v is None for v in values) else [int(v) for v in values if v is not None]


def _read_square(answer: str, n: int) -> list[int] | None:
    """The n x n numbers of the answer, row by row, or ``None``. Besides the bare grid, rows labelled in order
    (``Row 1: 2 7 6``, ``1: 2 7 6``, ``R1) 2 7 6``) and a lead-in line without numbers above the grid
    (``Here is the completed square:``) are read."""
    text = strip_wrappers(answer)
    values = _square_values(text, n)
    if values is not None:
        return values
    lines = [line for line in text.splitlines() if line.strip()]
    while lines and (not any(ch.isdigit() for ch in lines[0]) or lines[0].rstrip().endswith(":")):
        lines = lines[1:]  # a lead-in sentence above the grid
    labels = [_ROW_LABEL.match(line) for line in lines]
    if len(lines) == n and all(labels) and [int(m.group(1)) for m in labels if m] == list(range(1, n + 1)):
        lines = [line[m.end() :] for line, m in zip(lines, labels, strict=True) if m]
    return _square_values("\n".join(lines), n)


def _lines(n: int) -> list[list[int]]:
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    columns = [[r * n + c for r in range(n)] for c in range(n)]
    return rows + columns + [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]


def _show(cells: list[int], given: list[bool], n: int) -> str:
    width = max(len(str(v)) for v in cells)
    return "\n".join(" ".join((str(cells[r * n + c]) if given[r * n + c] else BLANK).rjust(width)
                              for c in range(n)) for r in range(n))


@register
class MagicSquare(Task):
    id = "sequences/magic_square"
    family = "sequences"
    description = "Complete a partially filled magic square (3x3 of whole numbers, or normal 4x4); one completion."
    tags = ("math", "puzzle", "logic")
    bounded = "4x4 completions are proved unique against all 7,040 normal 4x4 squares; order 5 has ~275 million"

    @dataclass(frozen=True)
    class Config:
        order: int
        extra: int  # removed cells given back after the minimal set
        largest: int  # 3x3: the largest centre drawn

    presets = (Config(3, 1, 30), Config(3, 0, 200), Config(4, 3, 0), Config(4, 1, 0), Config(4, 0, 0))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.order
        order = list(range(n * n))
        rng.shuffle(order)
        if n == 3:
            def draw() -> list[int]:
                c = rng.randint(5, config.largest)
                a, b = rng.randint(-c + 1, c - 1), rng.randint(-c + 1, c - 1)
                return [c * x + a * y + b * z for x, y, z in THREE]

            cells = retry(draw, lambda v: len(set(v)) == 9 and min(v) > 0, attempts=200,
                          what="a 3x3 magic square of distinct positive numbers")

            def unique(kept: list[int]) -> bool:
                return _rank([THREE[i] for i in kept]) == 3
        else:
            squares = normal_4x4()
            cells = [int(v) for v in squares[rng.randrange(len(squares))]]

            def unique(kept: list[int]) -> bool:
                if not kept:
                    return False
                matches = np.all(squares[:, kept] == np.array([cells[i] for i in kept]), axis=1)
                return int(matches.sum()) == 1

        kept = list(order)
        removed = []
        for index in order:
            trial = [i for i in kept if i != index]
            if unique(trial):
                kept = trial
                removed.append(index)
        kept += removed[: config.extra]
        given = [i in kept for i in range(n * n)]
        what = ("whole numbers so that every row, every column and both diagonals have the same sum" if n == 3 else
                "the numbers 1 to 16, each used exactly once, so that every row, every column and both diagonals "
                "add up to 34")
        prompt = (
            f"Fill in the blank cells ({BLANK}) of this {n}x{n} grid with {what}:\n\n{_show(cells, given, n)}\n\n"
            f"Exactly one completion exists. Answer with the whole grid, one row per line, numbers separated by "
            f"spaces, for example (the shape only):\n{EXAMPLE_3 if n == 3 else EXAMPLE_4}"
        )
        answer = "\n".join(" ".join(str(cells[r * n + c]) for c in range(n)) for r in range(n))
        return Problem(prompt=prompt, answer=answer, data={"order": n, "cells": cells, "given": given})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["order"]
        values = _read_square(answer, n) if isinstance(answer, str) and len(answer) <= 2_000 else None
        if values is None:
            return Verdict.unparsed(f"expected {n} rows of {n} whole numbers, one row per line")
        cells = values
        if any(given and cells[i] != problem.data["cells"][i] for i, given in enumerate(problem.data["given"])):
            return Verdict.wrong("a given number was changed")
        if n == 4 and sorted(cells) != list(range(1, 17)):
            return Verdict.wrong("the numbers 1 to 16 must each appear exactly once")
        sums = {sum(cells[i] for i in line) for line in _lines(n)}
        if len(sums) != 1:
            return Verdict.wrong("the rows, columns and diagonals do not all have the same sum")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Blank cells, four more for the 4x4 order, and the digits of the largest number."""
        data = problem.data
        blanks = sum(not g for g in data["given"])
        return float(blanks + (4 if data["order"] == 4 else 0) + len(str(max(data["cells"]))))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        rows = gold.split("\n")
        return [*super().spellings(problem), "\n".join(r.replace(" ", ", ") for r in rows),
                "\n".join("| " + r.replace(" ", " | ") + " |" for r in rows), f"```\n{gold}\n```",
                "[" + ", ".join("[" + r.replace(" ", ", ") + "]" for r in rows) + "]",
                "\n".join(f"Row {k}: {r}" for k, r in enumerate(rows, 1)), f"Here is the completed square:\n{gold}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n = problem.data["order"]
        cells = list(problem.data["cells"])
        blanks = [i for i, g in enumerate(problem.data["given"]) if not g]
        i, j = rng.sample(blanks, 2) if len(blanks) >= 2 else (blanks[0], blanks[0])
        swapped = list(cells)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        bumped = list(cells)
        bumped[blanks[0]] += 1

        def text(values: list[int]) -> str:
            return "\n".join(" ".join(str(values[r * n + c]) for c in range(n)) for r in range(n))

        wrong = [text(bumped), "\n".join((problem.answer or "").split("\n")[:-1])]
        if swapped != cells:
            wrong.append(text(swapped))
        return wrong
