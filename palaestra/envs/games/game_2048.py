"""2048: slide and merge tiles on a small board until a target tile appears.

The board is ``size x size``; each move (``U D L R`` or up, down, left, right) slides every
tile as far as it goes that way, and two equal tiles that meet merge into their sum (each tile
merges at most once per move, the ones nearest the wall first). After every move that changes
the board, a new tile appears on an empty cell: a 2, or a 4 one time in ten. Where it appears
is drawn from a tape stored with the problem
(:func:`palaestra.envs.games.common.tape_uniform`), keyed by the move count and the board, so
the same moves always bring the same tiles. Each turn the model writes ONE move (``L``, ``left``);
a reply holding several moves (a plan) is refused like an unreadable move and costs the turn, so
the game is played against the tiles as they come. A move that changes nothing is reported and
costs the turn. Reaching the target tile wins (reward 1); a full board with no merge left loses;
running out of turns scores 0.

The generator plays a greedy player that sees the next tile (it keeps the largest tile in a
corner and the board open) and keeps only tapes on which it reaches the target; the oracle is
that player, one move per turn. The turn budget is its number of moves plus a margin.
Levels: 3x3 boards to 32 and 64, then 4x4 to 128, 256 and 512. The difficulty measure is the
number of moves the greedy player needs.

Generation speed: about 60 to 70 problems/s at level 4 on this 2-core machine (it varies with the seeds). Each drawn
tape is played to the target by the greedy player (four trial slides a move, several hundred moves), whose move count
sets the turn budget, and about half the tapes are redrawn because greedy play does not reach the target. The game is
kept because the budget must be one that is known to be reachable on this tape.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, retry
from palaestra.envs.games.common import tape_uniform
from palaestra.verifiers.moves import read_move_answer, read_tokens

SPELLINGS = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R"}
PREFERENCE = "DLRU"  # the greedy player's order among equally good moves: keeps the big tile bottom left


@register
class Game2048(MultiTurnTask):
    id = "games/game_2048"
    family = "games"
    description = "Slide and merge tiles of 2048 until a target tile appears; new tiles come from a seeded tape."
    tags = ("games", "multi-turn", "planning", "stochastic", "grid")
    version = 2  # v2: one move per turn (v1 read up to ten moves per reply)
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        size: int
        target: int

    presets = (Config(3, 32), Config(3, 64), Config(4, 128), Config(4, 256), Config(4, 512))
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 7 to 8)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            tape = rng.getrandbits(48)
            board = _spawn(tape, 0, _spawn(tape, -1, [0] * (config.size * config.size)))
            moves = _greedy_game(tape, board, config.target)
            return None if moves is None else {"tape": tape, "board": board, "moves": moves}

        made = retry(draw, attempts=50, what="a tape on which the greedy player reaches the target")
        data = {"size": config.size, "target": config.target, "tape": made["tape"], "board": made["board"],
                "greedy": len(made["moves"]), "turns": len(made["moves"]) + 10 + len(made["moves"]) // 5}
        prompt = (
            f"Let's play 2048 on a {config.size}x{config.size} board (0 is an empty cell):\n\n"
            f"{_picture(config.size, made['board'])}\n\n"
            "A move (U, D, L or R: up, down, left, right) slides every tile as far as it goes that way; two equal "
            "tiles that meet merge into their sum (each tile merges once per move, those nearest the wall first). "
            "After every move that changes the board a new tile appears on an empty cell: a 2, or sometimes a 4. "
            f"Reach a {config.target} tile to win; a full board with no possible merge loses.\n"
            f"You have {data['turns']} turns. Each turn, write one move (one letter), for example: L"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["greedy"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"board": problem.data["board"], "count": 1}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        size, target = data["size"], data["target"]
        steps: list[str] | None = read_move_answer(move, lambda text: read_tokens(text, SPELLINGS, max_count=1))
        if not steps:
            why = "write one move as a letter U, D, L or R (or up, down, left, right)"
            return Outcome.invalid(state, why)
        board, count, step = state["board"], state["count"], steps[0]
        slid = _slide(board, size, step)
        if slid == board:
            return Outcome(state, Verdict.wrong("no change"), f"That move changed nothing:\n{_picture(size, board)}")
        board = _spawn(data["tape"], count, slid)
        state = {"board": board, "count": count + 1}
        if max(board) >= target:
            return Outcome(state, Verdict.right(), f"You made {target}: you win!\n{_picture(size, board)}", True)
        if _stuck(board, size):
            return Outcome(state, Verdict.wrong("stuck"), f"No move is left: you lose.\n{_picture(size, board)}", True)
        return Outcome.goes_on(state, f"Board:\n{_picture(size, board)}", "playing")

    def heuristics(self) -> dict[str, Policy]:
        return {"corner rule: the first of D, L, R, U that changes the board": _corner_move}

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        return _greedy_move(data["tape"], state["count"], tuple(state["board"]), data["size"])


def _corner_move(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
    """The textbook corner rule (keep the big tiles bottom left): the first of D, L, R, U that changes the board.
    Measured: it wins 0.93, 0.37, 0.59, 0.29, 0.04 of the games at levels 0-4 (seeds 0-99)."""
    size, board = problem.data["size"], state["board"]
    return next((step for step in PREFERENCE if _slide(board, size, step) != board), PREFERENCE[0])


def _picture(size: int, board: list[int]) -> str:
    width = max(len(str(v)) for v in board)
    return "\n".join(" ".join(str(v).rjust(width) for v in board[r * size:(r + 1) * size]) for r in range(size))


def _line_merge(line: list[int]) -> list[int]:
    """One row slid towards its start: tiles packed, equal neighbours merged once, the first pair first."""
    tiles = [v for v in line if v]
    out: list[int] = []
    skip = False
    for i, v in enumerate(tiles):
        if skip:
            skip = False
            continue
        if i + 1 < len(tiles) and tiles[i + 1] == v:
            out.append(2 * v)
            skip = True
        else:
            out.append(v)
    return out + [0] * (len(line) - len(out))


@functools.cache
def _lines(size: int, step: str) -> tuple[tuple[int, ...], ...]:
    """The cell indices of every row or column, listed from the wall the tiles slide towards."""
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    return {"L": tuple(rows), "R": tuple(r[::-1] for r in rows), "U": tuple(cols),
            "D": tuple(c[::-1] for c in cols)}[step]


@functools.lru_cache(maxsize=100_000)
def _merged(line: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`_line_merge` cached: a game meets the same few rows again and again."""
    return tuple(_line_merge(list(line)))


@functools.cache
def _slide_plan(size: int, step: str) -> tuple[tuple[Callable[[list[int]], tuple[int, ...]], ...],
                                               Callable[[tuple[int, ...]], tuple[int, ...]]]:
    """Per line, a getter of its values (from the wall); and the getter putting the merged lines, one after the
    other, back in cell order. Made once per size and direction: sliding is the greedy player's inner loop."""
    lines = _lines(size, step)
    position = {cell: k for k, cell in enumerate(cell for line in lines for cell in line)}
    return (tuple(operator.itemgetter(*line) for line in lines),
            operator.itemgetter(*(position[cell] for cell in range(size * size))))


def _slide(board: list[int], size: int, step: str) -> list[int]:
    getters, in_cell_order = _slide_plan(size, step)
    merged: tuple[int, ...] = ()
    for values in getters:
        merged += _merged(values(board))
    return list(in_cell_order(merged))


def _spawn(tape: int, count: int, board: list[int]) -> list[int]:
    """``board`` with the new tile of move ``count``: a 2 (or a 4, one time in ten) on an empty cell from the tape."""
    empty = [i for i, v in enumerate(board) if v == 0]
    if not empty:
        return board
    key = ",".join(map(str, board))
    where = empty[int(tape_uniform(Game2048.id, tape, count, key, "cell") * len(empty))]
    value = 4 if tape_uniform(Game2048.id, tape, count, key, "value") < 0.1 else 2
    out = list(board)
    out[where] = value
    return out


def _stuck(board: list[int], size: int) -> bool:
    return all(_slide(board, size, step) == board for step in "UDLR")


def _score(board: list[int], size: int) -> float:
    """The greedy player's liking for a board: open cells, the largest tile in the bottom-left corner, and rows
    that decrease away from it."""
    corner = board[(size - 1) * size]
    lefts, rights = _neighbours(size)
    order = sum(map(operator.ge, lefts(board), rights(board)))
    return 4.0 * board.count(0) + (3.0 if corner == max(board) else 0.0) + 0.5 * order + max(board) / 64


@functools.cache
def _neighbours(size: int) -> tuple[Callable[[list[int]], tuple[int, ...]], Callable[[list[int]], tuple[int, ...]]]:
    """Getters of every cell with a right-hand neighbour in its row, and of those neighbours (made once per size)."""
    lefts = [i for r in range(size) for i in range(r * size, r * size + size - 1)]
    return operator.itemgetter(*lefts), operator.itemgetter(*(i + 1 for i in lefts))


@functools.lru_cache(maxsize=100_000)
def _greedy_move(tape: int, count: int, board: tuple[int, ...], size: int) -> str:
    """The move whose outcome (with the very tile the tape will add) scores best; ties by ``PREFERENCE``."""
    return _greedy_choice(tape, count, list(board), size)[0]


def _greedy_choice(tape: int, count: int, board: list[int], size: int) -> tuple[str, list[int] | None]:
    """:func:`_greedy_move` and the board it leads to, new tile included (None if no move changes the board): the
    game goes on from it without sliding and drawing the tile again."""
    best, best_score, best_board = PREFERENCE[0], float("-inf"), None
    for step in PREFERENCE:
        slid = _slide(board, size, step)
        if slid == board:
            continue
        spawned = _spawn(tape, count, slid)
        score = _score(spawned, size)
        if score > best_score:
            best, best_score, best_board = step, score, spawned
    return best, best_board


def _greedy_game(tape: int, board: list[int], target: int) -> list[str] | None:
    """The greedy player's moves until the target tile, or None if it gets stuck first."""
    size = int(len(board) ** 0.5)
    moves: list[str] = []
    count = 1
    for _ in range(4 * target):  # far more moves than reaching any target takes
        step, after = _greedy_choice(tape, count, board, size)
        if after is None:
            return None  # stuck
        board = after
        count += 1
        moves.append(step)
        if max(board) >= target:
            return moves
    return None
