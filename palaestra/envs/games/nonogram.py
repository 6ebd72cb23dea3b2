"""Nonogram with conflict feedback: fill a grid row by row to match run-length clues for rows and columns.

Each row and column has a clue: the lengths of its runs of filled cells, in order (``3 1``: three
filled, at least one empty, one filled; ``0``: empty). Each turn the model writes one row of its
grid, ``row 3: ##..#`` (``#`` or ``1`` filled, ``.`` or ``0`` empty, spaces ignored), replacing
whatever that row held. The feedback says whether the row fits its clue and which columns are in
conflict: those whose cells in the rows written so far can no longer be completed (by any filling
of the rows not yet written) to fit the column's clue, checked exactly by a line solver. Reward 1
as soon as every row and column fits its clue (any such grid, not only the generator's picture);
an unreadable row costs a turn.

Pictures are random (about half the cells filled). The turn budget is one turn per row plus the
level's spare turns; the oracle writes the picture's rows in order. Levels grow the grid and cut
the spare turns. The difficulty measure is the number of cells.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.generators.nonogram import clue_text, feasible, runs
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

FILLED, EMPTY = "#", "."
_ROW = re.compile(r"^\s*(?:row\s*)?(\d{1,2})\s*[:=)]?\s*([#.01■□_\- ]+?)\s*$", re.IGNORECASE)
# No X: nonogram solvers mark known-empty cells with a cross, so "X" would be read either way.
SYMBOLS = {"#": FILLED, "1": FILLED, "■": FILLED, ".": EMPTY, "0": EMPTY, "_": EMPTY, "-": EMPTY, "□": EMPTY}


@register
class Nonogram(MultiTurnTask):
    id = "games/nonogram"
    family = "games"
    description = "Fill a nonogram row by row from run-length clues, with column-conflict feedback after each row."
    tags = ("games", "multi-turn", "puzzle", "constraint-satisfaction", "grid")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        size: int
        spare: int

    presets = (Config(5, 5), Config(6, 4), Config(8, 4), Config(10, 3), Config(12, 3))
    # Capped at level 11's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"size": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        picture = ["".join(FILLED if rng.random() < 0.55 else EMPTY for _ in range(n)) for _ in range(n)]
        rows = [list(_runs(row)) for row in picture]
        cols = [list(_runs("".join(row[c] for row in picture))) for c in range(n)]
        turns = n + config.spare
        row_text = "\n".join(f"row {r + 1}: {clue_text(clue)}" for r, clue in enumerate(rows))
        col_text = "\n".join(f"column {string.ascii_lowercase[c]}: {clue_text(clue)}" for c, clue in enumerate(cols))
        prompt = (
            f"Solve this {n}x{n} nonogram. Each clue lists, in order, the lengths of the runs of filled cells in "
            "that row (left to right) or column (top to bottom), separated by at least one empty cell; 0 means none."
            f"\n\nRows:\n{row_text}\n\nColumns:\n{col_text}\n\n"
            "Each turn, write one row of your grid as its number and its cells, # for filled and . for empty, for "
            f"example: row 1: {'#.' * (n // 2)}{'#' * (n % 2)}\nThe row replaces what that row held. After each row "
            "I tell you whether it fits its clue and which columns can no longer fit theirs. You win as soon as every "
            f"row and column fits. You have {turns} turns."
        )
        data = {"rows": rows, "cols": cols, "picture": picture, "turns": turns}
        return Problem(prompt=prompt, answer="\n".join(picture), data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Cells in the grid plus half the blocks of the clues (the runs to place)."""
        data = problem.data
        return float(len(data["rows"]) ** 2) + sum(len(clue) for clue in data["rows"] + data["cols"]) / 2

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"grid": [None] * len(problem.data["rows"])}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        n = len(data["rows"])
        written = read_row(move, n)
        if written is None:
            return Outcome.invalid(state, f"write one row as 'row NUMBER: CELLS' with {n} cells of # and .")
        index, cells = written
        grid = list(state["grid"])
        grid[index] = cells
        fits = tuple(_runs(cells)) == tuple(data["rows"][index])
        conflicts = [string.ascii_lowercase[c] for c in range(n)
                     if not feasible(tuple(data["cols"][c]), tuple(row[c] == FILLED if row else None for row in grid))]
        if all(row is not None for row in grid) and not conflicts and all(
                tuple(_runs(row)) == tuple(clue) for row, clue in zip(grid, data["rows"])):
            return Outcome({"grid": grid}, Verdict.right(), "Every row and column fits its clue: solved!", True)
        said = f"Row {index + 1} {'fits' if fits else 'does not fit'} its clue. "
        said += f"Columns in conflict: {', '.join(conflicts)}." if conflicts else "No column is in conflict."
        return Outcome({"grid": grid}, Verdict.wrong("unsolved"), said)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        picture = problem.data["picture"]
        index = next((r for r, row in enumerate(state["grid"]) if row != picture[r]), 0)
        return f"row {index + 1}: {picture[index]}"


def read_row(move: str, n: int) -> tuple[int, str] | None:
    """(row index, cells as # and .) from ``row 3: ##..#`` and the like, or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, str] | None:
        match = _ROW.match(strip_wrappers(text))
        if not match:
            return None
        cells = "".join(SYMBOLS[ch] for ch in match.group(2) if ch != " ")
        index = int(match.group(1)) - 1
        return (index, cells) if 0 <= index < n and len(cells) == n else None

    # The whole text is read first, so a final "." counts as an empty cell whenever the row needs it; only a
    # row that does not read whole loses a trailing remark ("row 1: ##..#. Done.").
    return read_move_answer(move, read)


def _runs(cells: str) -> tuple[int, ...]:
    """A row or column's clue, ``(0,)`` when no cell is filled (as the problem data stores clues)."""
    return tuple(runs(cell == FILLED for cell in cells)) or (0,)
