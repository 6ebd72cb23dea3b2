"""Hex on an n x (n+1) board: connect your two long sides against a resistance-searching opponent.

The board is a rhombus of hexagonal cells with ``n`` rows and ``n + 1`` columns (columns ``a``,
``b``, ..., rows ``1`` to ``n`` from the top; every row drawn half a cell further right, so a
cell touches two cells of the row above and two of the row below). The model plays X and wins by
a chain of X stones joining the top row to the bottom row; the opponent plays O and wins by a
chain joining the left column to the right column. Hex has no draws: a full board holds exactly
one winning chain.

The game starts in a mid-game position with the opponent's stone just played. Because the
model's sides are the long ones (its rows are closer together than the opponent's columns),
the model can always win: a mirror pairing of the cells (see :func:`partner`) answers every
opponent stone in its partner cell, and a chain of O stones across the board would need a
partner pair it does not have. Generated positions keep that pairing intact (stones placed in
pairs, one X and one O per pair, plus the opponent's last stone), so the oracle, which plays the
pairing, wins every game; nothing in the prompt mentions the pairing.

Each turn the model writes one empty cell (``c2``, ``play c2``); an occupied cell or an
unreadable move costs a turn. The opponent answers at once: it scores every empty cell by the
*resistance* of the position after it (the fewest empty cells each side still needs to fill to
connect, by a shortest-path search, O's count subtracted from X's), plays the best, and at the
lower levels plays a random cell instead with the level's noise share (drawn from ``event_rng``
keyed by the position, so a replay plays the same game). Reward 1 for a win; 0 for a loss or for
running out of turns (the turns the pairing needs to fill the board, plus two).

Levels grow the board (4 x 5 to 8 x 9 in the presets, a row and a column more per level after, up to 14 x 15 at
level 10) and cut the opponent's noise (50% to none). The difficulty
measure is the number of empty cells at the start plus the opponent's accuracy.
"""

from __future__ import annotations

import functools
import math
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import cell_name, column_letters, read_cell

SPARE_TURNS = 2
EMPTY, MODEL, OPPONENT = ".", "X", "O"
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1))


@register
class Hex(MultiTurnTask):
    id = "games/hex"
    # version 2: level 0 places 2-4 pairs (one pair gave too few distinct positions: 888 in 1,000 seeds).
    # version 3: the board stops growing at level 10 (see growth)
    version = 3
    family = "games"
    description = "Win Hex on an n x (n+1) board, long sides yours, against a resistance-searching opponent."
    tags = ("games", "multi-turn", "two-player", "adversarial", "connection")
    one_move_per_turn = True

    @dataclass(frozen=True)
    class Config:
        rows: int  # the board has rows x (rows + 1) cells
        pairs: tuple[int, int]  # (fewest, most) stone pairs already on the board
        noise: float  # share of the opponent's moves played at random

    presets = (
        Config(4, (2, 4), 0.5),
        Config(5, (2, 4), 0.35),
        Config(6, (2, 5), 0.2),
        Config(7, (3, 6), 0.1),
        Config(8, (3, 7), 0.0),
    )
    # The board and its stones stop growing at level 10's 14 x 15 (version 3): the opponent's search and the
    # oracle's grow steeply with the board (the oracle's game took 0.3 s of CPU at level 9, 2.4 s at 15, 16 s at
    # 20), columns are named by one letter, and past 26 rows moves could not be written (level 40 raised).
    growth = Growth(limits={"rows": 14, "pairs": (9, 13)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.rows + 1

        def draw() -> str | None:
            cells = [EMPTY] * (rows * cols)
            representatives = [i for i in range(rows * cols) if i < partner(i, rows)]
            for cell in rng.sample(representatives, rng.randint(*config.pairs)):
                mine = rng.choice((cell, partner(cell, rows)))
                cells[mine], cells[partner(mine, rows)] = MODEL, OPPONENT
            empty = [i for i, c in enumerate(cells) if c == EMPTY]
            cells[rng.choice(empty)] = OPPONENT  # the opponent's stone just played: its partner is empty
            board = "".join(cells)
            return None if _connected(board, rows, MODEL) or _connected(board, rows, OPPONENT) else board

        board = retry(draw, what="a pairing-consistent Hex position with no chain yet")
        turns = math.ceil(board.count(EMPTY) / 2) + SPARE_TURNS
        letters = column_letters(cols)
        prompt = (
            f"Let's play Hex on a board of {rows} rows and {cols} columns of hexagonal cells. Columns are "
            f"{letters[0]} to {letters[-1]} from left to right, rows 1 to {rows} from top to bottom, and each row is "
            "drawn half a cell further right than the one above, so a cell touches the cells left and right of it, "
            "the two cells above it (same column and one to the right) and the two cells below it (same column and "
            "one to the left).\n\n"
            f"You are X: you win by a chain of touching X stones from row 1 to row {rows}. The opponent is O: it "
            f"wins by a chain of touching O stones from column {letters[0]} to column {letters[-1]}. Players take "
            "turns placing one stone on an empty cell; stones never move. The opponent has just played, and it is "
            f"your move in this position:\n\n{_picture(board, rows)}\n\n"
            f"You have {turns} turns; only a win scores. Each turn, write the one empty cell you play, for example: c2"
        )
        data = {"rows": rows, "board": board, "noise": config.noise, "turns": turns}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Empty cells at the start, plus the opponent's accuracy (one minus its noise share)."""
        return float(problem.data["board"].count(EMPTY)) + 1.0 - problem.data["noise"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        board = problem.data["board"]
        rows = problem.data["rows"]
        last = next(i for i in range(len(board)) if board[i] == OPPONENT and board[partner(i, rows)] == EMPTY)
        return {"board": board, "last": last}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        rows, board = problem.data["rows"], state["board"]
        cell = read_cell(move, rows, rows + 1, verbs=("play", "place", "put", "place at", "play at"))
        if cell is None:
            return Outcome.invalid(state, f"write one cell, a column letter then a row number from 1 to {rows}, such as c2")
        index = cell[0] * (rows + 1) + cell[1]
        name = cell_name(*cell)
        if board[index] != EMPTY:
            return Outcome(state, Verdict.wrong("occupied"), f"{name} is taken; play an empty cell.")
        board = board[:index] + MODEL + board[index + 1:]
        said = f"You play {name}."
        if _connected(board, rows, MODEL):
            return Outcome({"board": board, "last": state["last"]}, Verdict.right(),
                           f"{said} Your chain joins row 1 to row {rows}: you win!\n{_picture(board, rows)}", True)
        reply = _reply(problem, board)
        board = board[:reply] + OPPONENT + board[reply + 1:]
        said += f" The opponent plays {cell_name(reply // (rows + 1), reply % (rows + 1))}."
        after = {"board": board, "last": reply}
        if _connected(board, rows, OPPONENT):
            return Outcome(after, Verdict.wrong("lost"),
                           f"{said} Its chain joins the left column to the right: you lose.\n{_picture(board, rows)}",
                           True)
        return Outcome.goes_on(after, f"{said}\n{_picture(board, rows)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        rows, board = problem.data["rows"], state["board"]
        answer = partner(state["last"], rows)
        if board[answer] != EMPTY:  # off the pairing (the model's own earlier moves) only
            answer = board.index(EMPTY)
        return cell_name(answer // (rows + 1), answer % (rows + 1))


def partner(index: int, rows: int) -> int:
    """The cell paired with ``index`` on the ``rows`` x ``rows + 1`` board (an involution, no fixed point).

    Cells on the main diagonal pair with their right neighbour; every other cell is mirrored
    across that diagonal band: ``(r, c)`` with ``c >= r + 2`` pairs with ``(c - 1, r)``. Answering
    each O stone in its partner keeps O from ever joining the left and right columns.

    >>> [partner(i, 2) for i in range(6)]
    [1, 0, 3, 2, 5, 4]
    """
    cols = rows + 1
    r, c = divmod(index, cols)
    if c == r:
        return r * cols + r + 1
    if c == r + 1:
        return r * cols + r
    if c >= r + 2:
        return (c - 1) * cols + r
    return c * cols + r + 1


@functools.cache
def _neighbours(rows: int) -> tuple[tuple[int, ...], ...]:
    cols = rows + 1
    return tuple(tuple((r + dr) * cols + c + dc for dr, dc in STEPS if 0 <= r + dr < rows and 0 <= c + dc < cols)
                 for r in range(rows) for c in range(cols))


def _connected(board: str, rows: int, side: str) -> bool:
    """Whether ``side`` has a chain between its two sides (X: top and bottom rows; O: left and right columns)."""
    cols = rows + 1
    if side == MODEL:
        start, goal = range(cols), lambda i: i >= (rows - 1) * cols
    else:
        start, goal = range(0, rows * cols, cols), lambda i: i % cols == cols - 1
    stack = [i for i in start if board[i] == side]
    seen = set(stack)
    neighbours = _neighbours(rows)
    while stack:
        cell = stack.pop()
        if goal(cell):
            return True
        for other in neighbours[cell]:
            if other not in seen and board[other] == side:
                seen.add(other)
                stack.append(other)
    return False


def _distance(board: str, rows: int, side: str) -> int:
    """The fewest empty cells ``side`` must still fill to connect its sides (a 0-1 breadth-first search)."""
    cols = rows + 1
    starts = range(cols) if side == MODEL else range(0, rows * cols, cols)
    best = [10**6] * len(board)
    queue: deque[int] = deque()
    for cell in starts:
        if board[cell] == side:
            best[cell] = 0
            queue.appendleft(cell)
        elif board[cell] == EMPTY:
            best[cell] = 1
            queue.append(cell)
    neighbours = _neighbours(rows)
    while queue:
        cell = queue.popleft()
        here = best[cell]
        if (cell >= (rows - 1) * cols) if side == MODEL else (cell % cols == cols - 1):
            return here
        for other in neighbours[cell]:
            stone = board[other]
            if stone == side and here < best[other]:
                best[other] = here
                queue.appendleft(other)
            elif stone == EMPTY and here + 1 < best[other]:
                best[other] = here + 1
                queue.append(other)
    return 10**6


def _reply(problem: Problem, board: str) -> int:
    """The opponent's cell: at random with the level's noise share, else the best resistance after it (ties at random)."""
    rows = problem.data["rows"]
    rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", board)
    empty = [i for i, c in enumerate(board) if c == EMPTY]
    if rng.random() < problem.data["noise"]:
        return rng.choice(empty)
    scored = []
    for cell in empty:
        after = board[:cell] + OPPONENT + board[cell + 1:]
        scored.append((_distance(after, rows, MODEL) - _distance(after, rows, OPPONENT), cell))
    best = max(score for score, _ in scored)
    return rng.choice([cell for score, cell in scored if score == best])


def _picture(board: str, rows: int) -> str:
    cols = rows + 1
    width = len(str(rows))
    lines = [" " * (width + 1) + " ".join(column_letters(cols))]
    for r in range(rows):
        lines.append(f"{r + 1:>{width}} " + " " * r + " ".join(board[r * cols:(r + 1) * cols]))
    return "\n".join(lines)
