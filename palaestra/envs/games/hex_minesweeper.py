"""Hex minesweeper: open every safe cell of a board of hexagons, from counts over six neighbours.

The board has ``rows x cols`` hexagonal cells laid out in rows, every second row shifted half a
cell to the right (rows 2, 4, ... counted from 1), so a cell touches six others: the two beside it
in its row and two in each of the rows above and below. In rows 1, 3, ... cell ``c`` touches
columns ``c-1`` and ``c`` of the neighbouring rows; in rows 2, 4, ... columns ``c`` and ``c+1``.
The drawing shifts those rows by one space. A first click has been made: it opened a cell with no
mine around it, flooding on through further empty cells as the real game does. ``#`` is hidden,
``F`` a flag, ``.`` an open cell with no neighbouring mine, a digit the mines among its six
neighbours.

Each turn the model writes one command: ``reveal b3`` (or ``b3``) or ``flag b3`` (a note that
toggles; a flagged cell cannot be revealed). Revealing a mine loses; opening every safe cell wins
(reward 1). An unreadable command or an off-board cell costs a turn; so does a cell already open.

The neighbourhoods differ from the square game's eight, so its inference patterns do not carry
over (a 1 next to a 1 along a row shares four cells, not six). Every board is solvable without
guessing: local deductions on the six-cell neighbourhoods (a number whose hidden neighbours are all
mines or all safe; one number's unknown cells containing another's) open the whole board from the
first click, checked at generation. Solvable boards are still often cleared by guessing: a player revealing
the cell of lowest risk (the largest share of mines an open neighbour's number puts on its hidden neighbours,
0 away from the numbers; ties at random), proving nothing, won 0.76 / 0.40 / 0.11 of levels 0-2 (100 games;
random reveals 0.04 / 0.02 / 0). A board that guesser clears in one of eight games played at generation is
redrawn: 0.07 / 0.05 / 0.02, and 0.02 / 0 at levels 3-4 (a mean-risk variant 0.01-0.08). Level 0 is a 6 x 5
board with 4 mines (5 x 5 with 3 in version 1: too few such boards survive the guesser, 67% distinct in 1,000 draws). The honest player
reads only the drawn boards and reveals a cell those deductions prove safe; the oracle does the same but peeks
to prefer an empty cell. The turn budget is the number of safe cells still hidden after the first click (each proven reveal
opens at least one, so the honest player always finishes); the difficulty measure is the clicks
still needed (the board's 3BV less one).

Generation speed: about 170 problems/s at level 4 on this 2-core machine. Each drawn board is played through by the
deduction solver to prove it can be cleared without guessing, and about 4 in 5 boards are redrawn because it cannot
or the first click nearly finishes; then by the guesser, which redraws a few more. The proof is kept because the
prompt promises a board solvable by logic alone.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, View, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games._minesweeper import MinesweeperGame
from palaestra.envs.games.common import cell_name, column_letters
from palaestra.generators.minesweeper import (
    HIDDEN,
    OPEN,
    Around,
    counts,
    open_cell,
    proven_safe,
    solvable,
    three_bv,
)

GUESS_GAMES = 8  # games of the lowest-risk guesser played on a drawn board: one it wins has the board redrawn
_BOARD_ROW = re.compile(r"^\s*(\d+) +([#F.\d](?: [#F.\d])*)\s*$")


@register
class HexMinesweeper(MinesweeperGame):
    id = "games/hex_minesweeper"
    family = "games"
    description = "Open every safe cell of a no-guess minesweeper board of hexagons (six neighbours per cell)."
    tags = ("games", "multi-turn", "deduction", "grid", "hexagonal")
    version = 2  # v2: a board the lowest-risk guesser clears in one of eight games is redrawn; level 0 6 x 5, 4 mines
    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "games/minesweeper": "six-cell hexagonal neighbourhoods on shifted rows: other counts, other subset patterns "
                             "and another geometry to read off the drawing than the square board's eight neighbours",
    }

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        mines: int

    presets = (Config(6, 5, 4), Config(6, 6, 6), Config(7, 8, 10), Config(8, 9, 14), Config(9, 10, 19))
    growth = Growth(limits={"rows": 20, "cols": 20, "mines": 80})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.cols
        around = hex_neighbours(rows, cols)

        def draw() -> dict[str, Any] | None:
            first = rng.randrange(rows * cols)
            spared = set(around[first]) | {first}
            mines = sorted(rng.sample([i for i in range(rows * cols) if i not in spared], config.mines))
            data: dict[str, Any] = {"rows": rows, "cols": cols, "mines": mines, "first": first}
            numbers = counts(mines, rows, cols, around)
            data["clicks"] = three_bv(mines, numbers, around) - 1  # the first click opened one empty region
            if data["clicks"] < 2 or not solvable(mines, first, numbers, around):
                return None
            if _guesser_wins(rng, data, numbers, around):
                return None
            data["turns"] = self.opened(data, HIDDEN * (rows * cols), first).count(HIDDEN) - len(mines)
            return data

        data = retry(draw, what="a hex board solvable without guessing that the first click does not finish")
        first = data["first"]
        mask = self.opened(data, HIDDEN * (rows * cols), first)
        prompt = (
            f"Let's play minesweeper on a board of hexagons, {rows} rows of {cols} cells, with {config.mines} hidden "
            f"mines. Columns are letters a to {chr(96 + cols)}, rows are numbers 1 to {rows} from the top. Rows 2, 4, "
            "6, ... are shifted half a cell to the right (drawn one space further right), so every cell touches six "
            "cells: the two beside it in its row and two in each of the rows above and below. In rows 1, 3, 5, ... "
            "cell c touches columns c-1 and c of the rows above and below; in rows 2, 4, 6, ... it touches columns c "
            "and c+1. '#' is a hidden cell, 'F' a flag, '.' an open cell with no mine next to it, and a digit the "
            "number of mines among the six cells around an open cell. Opening a cell with no mine around it opens its "
            f"neighbours too.\nThe first click has been made for you, at {cell_name(first // cols, first % cols)}:\n\n"
            f"{self.picture(data, mask)}\n\n"
            f"You have {data['turns']} turns. Each turn, write one command: reveal CELL to open a cell, or flag CELL "
            "to put or take away a flag (flags are notes for you; a flagged cell cannot be revealed). For example: "
            "reveal a1\nRevealing a mine loses; opening every cell without a mine wins. The board can be solved "
            "without guessing."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def around(self, rows: int, cols: int) -> Around:
        return hex_neighbours(rows, cols)

    def layout(self, rows: int, cols: int, symbols: list[list[str]]) -> str:
        width = len(str(rows))
        lines = [" " * (width + 1) + " ".join(column_letters(cols))]
        for r, row in enumerate(symbols):
            shift = " " if r % 2 else ""  # odd-index rows sit half a cell to the right
            lines.append(f"{r + 1:>{width}} {shift}" + " ".join(row))
        return "\n".join(lines)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def honest_move(self, view: View) -> str:
        """Reveal a cell that the numbers on the latest drawn board prove safe (deduced as the generator does)."""
        rows, cols = view.public["rows"], view.public["cols"]
        board = _read_board([view.prompt, *view.observations], rows, cols)
        mask = "".join(HIDDEN if ch in "#F" else OPEN for ch in board)
        counts = [int(ch) if ch.isdigit() else 0 for ch in board]
        safe = proven_safe(mask, counts, hex_neighbours(rows, cols))
        if not safe:  # no proof on this board: a guess
            safe = {i for i, m in enumerate(mask) if m == HIDDEN}
        index = min(safe)
        return f"reveal {cell_name(index // cols, index % cols)}"


def _guesser_wins(rng: random.Random, data: dict[str, Any], numbers: list[int], around: Around) -> bool:
    """Whether the lowest-risk guesser clears the board in one of ``GUESS_GAMES`` games: it reveals a hidden cell
    with the lowest risk, the largest share of mines an open neighbour's number puts on its hidden neighbours (0
    away from the open cells; ties at random), never proving a cell safe."""
    mines = set(data["mines"])
    start = open_cell(HIDDEN * (data["rows"] * data["cols"]), data["first"], numbers, around)
    for _ in range(GUESS_GAMES):
        mask = start
        for _ in range(len(mask)):  # each turn opens a cell or ends the game
            hidden = [i for i, m in enumerate(mask) if m == HIDDEN]
            if len(hidden) == len(mines):
                return True
            share = {j: numbers[j] / sum(mask[k] == HIDDEN for k in around[j])
                     for j, m in enumerate(mask) if m == OPEN and numbers[j]}
            risk = {i: max((share[j] for j in around[i] if j in share), default=0.0) for i in hidden}
            lowest = min(risk.values())
            cell = rng.choice([i for i in hidden if risk[i] == lowest])
            if cell in mines:
                break
            mask = open_cell(mask, cell, numbers, around)
    return False


@functools.cache
def hex_neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, its up to six neighbours; rows with an odd index (rows 2, 4, ... counted from 1) sit shifted right."""
    out = []
    for index in range(rows * cols):
        r, c = divmod(index, cols)
        shift = r % 2  # a shifted row touches columns c and c+1 above and below; an unshifted one c-1 and c
        steps = [(0, -1), (0, 1), (-1, shift - 1), (-1, shift), (1, shift - 1), (1, shift)]
        out.append(tuple((r + dr) * cols + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols))
    return tuple(out)


def _read_board(texts: list[str], rows: int, cols: int) -> str:
    """The cells of the last board drawn in ``texts`` (row by row: ``#``, ``F``, ``.`` or a digit)."""
    for text in reversed(texts):
        found = [match.group(2).split() for match in map(_BOARD_ROW.match, text.splitlines()) if match]
        found = [cells for cells in found if len(cells) == cols]
        if len(found) >= rows:
            return "".join("".join(cells) for cells in found[-rows:])
    raise ValueError("no board in the view")
