"""Tic-tac-toe against a seeded, slightly fallible minimax opponent: only a win scores.

The model plays X (moving first) or O (moving second) on a 3x3 board whose cells are named
by column letter and row number (``a1`` top left, ``c3`` bottom right). Each turn it writes
one empty cell (``b2``, ``B2``, ``play b2``; a trailing remark is fine, ``b2 or c3`` is not);
the opponent answers at once. The opponent is a perfect minimax player that slips: before
each of its moves, with the probability stated in the prompt, it plays a uniformly random
empty cell instead (it picks among equally good moves at random too). Its randomness is
keyed by the board and by a tape drawn with the problem, so the same moves always meet the
same replies.

Perfect play draws tic-tac-toe, so a win needs the opponent to slip. Every problem is
checked at generation: a player who knows the tape (the oracle) can force a win, so a win
is always possible; a player who does not must play for the slips. Reward 1 for a win, 0
for a draw or a loss; an occupied, off-board or unreadable cell costs a turn (the board
stays as it was).

Perfect play alone wins whenever a slip hands over a forced win: Newell and Simon's textbook rules (declared as a
heuristic) win 0.81, 0.57, 0.39, 0.41 and 0.23 of levels 0-4 (100 seeds), the simpler declared rule 0.22 at level 4,
random play 0.03 and the first empty cell 0.10 there, while the best honest player (maximising the chance of a win
against the stated opponent, so choosing among drawn moves the ones that invite a losing slip) wins 0.33. That margin
is the skill the game rewards; the textbook rules earn their share by playing the game perfectly.

Levels lower the slip probability and then make the model move second. The difficulty
measure is the opponent's accuracy (one minus the slip probability), plus one when the
model moves second.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.envs.games.common import cell_name, read_cell, render_board, tape_rng

SIZE = 3
EMPTY = "."
LINES = tuple(
    [tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)]
    + [tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)]
    + [tuple(i * SIZE + i for i in range(SIZE)), tuple(i * SIZE + SIZE - 1 - i for i in range(SIZE))]
)
VERBS = ("play", "place", "mark", "put x at", "put o at", "x", "o")


@register
class TicTacToe(MultiTurnTask):
    id = "games/tic_tac_toe"
    family = "games"
    description = "Beat a minimax tic-tac-toe opponent that occasionally slips; only a win scores."
    tags = ("games", "multi-turn", "two-player", "adversarial")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        model_first: bool  # the model plays X and moves first (else O, second)
        slip: float  # probability that the opponent plays a random cell instead of a best one

    presets = (Config(True, 0.6), Config(True, 0.35), Config(True, 0.2), Config(False, 0.35), Config(False, 0.2))
    bounded = "its levels are kinds of problem (the `model_first` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        model, opponent = ("X", "O") if config.model_first else ("O", "X")

        def draw() -> dict[str, Any] | None:
            tape = rng.getrandbits(48)
            board = EMPTY * SIZE * SIZE
            if not config.model_first:
                board = _place(board, _opponent_move(self.id, tape, config.slip, board, opponent), opponent)
            winnable = _winning_move(self.id, tape, config.slip, board, model) is not None
            return {"tape": tape, "board": board} if winnable else None

        start = retry(draw, what="an opponent tape the model can beat")
        opening = "" if config.model_first else f"The opponent (X) opened with {_opening_cell(start['board'])}.\n"
        example = "b2" if start["board"][4] == EMPTY else "a1"
        prompt = (
            f"Let's play tic-tac-toe on a 3x3 board. You are {model}, the opponent is {opponent}; X moves first. "
            "Three of your marks in a row, column or diagonal win. Cells are named by column letter and row "
            "number: a1 is the top left corner, c3 the bottom right.\n"
            f"The opponent plays perfectly, except that before each of its moves, with probability "
            f"{config.slip:g}, it slips and plays a random empty cell instead. Only a win scores; a draw or a "
            "loss scores 0. An occupied or unreadable cell costs a turn.\n\n"
            f"{opening}{render_board(_rows(start['board']))}\n\n"
            f"Each turn, write the one empty cell you mark, for example: {example}"
        )
        data = {"model": model, "slip": config.slip, "tape": start["tape"], "board": start["board"]}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["board"].count(EMPTY) // 2 + 1 + 3  # the model's moves, plus three spare turns

    constant_difficulty = "the board is always empty at the start and the opponent's slip rate is the level's setting"

    def difficulty(self, problem: Problem) -> float:
        return (1.0 - problem.data["slip"]) + (0.0 if problem.data["model"] == "X" else 1.0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"board": problem.data["board"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data, board = problem.data, state["board"]
        model = data["model"]
        opponent = "O" if model == "X" else "X"
        cell = read_cell(move, SIZE, SIZE, VERBS)
        if cell is None:
            return Outcome.invalid(state, "write one cell as column letter and row number, e.g. b2")
        index = cell[0] * SIZE + cell[1]
        if board[index] != EMPTY:
            return Outcome(state, Verdict.wrong("occupied"), f"{cell_name(*cell)} is already taken; choose an empty "
                                                               f"cell.\n{render_board(_rows(board))}")
        board = _place(board, index, model)
        said = f"You played {cell_name(*cell)}."
        if _won(board, model):
            return Outcome({"board": board}, Verdict.right(), f"{said} Three in a row: you win!\n"
                                                              f"{render_board(_rows(board))}", True)
        if EMPTY not in board:
            return Outcome({"board": board}, Verdict.wrong("draw"), f"{said} The board is full: a draw.\n"
                                                                   f"{render_board(_rows(board))}", True)
        reply = _opponent_move(self.id, data["tape"], data["slip"], board, opponent)
        board = _place(board, reply, opponent)
        said += f" The opponent played {cell_name(reply // SIZE, reply % SIZE)}."
        picture = render_board(_rows(board))
        if _won(board, opponent):
            return Outcome({"board": board}, Verdict.wrong("lost"), f"{said} Three in a row: you lose.\n{picture}", True)
        if EMPTY not in board:
            return Outcome({"board": board}, Verdict.wrong("draw"), f"{said} The board is full: a draw.\n{picture}", True)
        return Outcome.goes_on({"board": board}, f"{said}\n{picture}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data, board = problem.data, state["board"]
        index = _winning_move(self.id, data["tape"], data["slip"], board, data["model"])
        if index is None:  # only off the oracle's own path: fall back to a minimax-best move
            index = max(_empties(board), key=lambda i: _score_after(board, i, data["model"]))
        return cell_name(index // SIZE, index % SIZE)

    def heuristics(self) -> dict[str, Any]:
        return {"win, else block, else the centre, a corner, an edge": _textbook_move,
                "Newell and Simon's rules (win, block, fork, block a fork, centre, opposite corner, corner, side)":
                    _newell_simon_move}


def _textbook_move(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
    """The textbook rule: complete a line of ours, else block one of the opponent's, else centre, corner, edge."""
    board, model = state["board"], problem.data["model"]
    opponent = "O" if model == "X" else "X"
    empties = _empties(board)
    completing = [i for mark in (model, opponent) for i in empties if _won(_place(board, i, mark), mark)]
    preference = [4, 0, 2, 6, 8, 1, 3, 5, 7]
    index = completing[0] if completing else next(i for i in preference if i in empties)
    return cell_name(index // SIZE, index % SIZE)


def _newell_simon_move(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
    """Newell and Simon's perfect-play rules, in order: win; block; fork (make two open threats); block the
    opponent's fork (by a threat whose answer is not a fork cell, else by taking the fork cell); centre; the corner
    opposite an opponent's corner; a corner; a side."""
    board, model = state["board"], problem.data["model"]
    opponent = "O" if model == "X" else "X"
    empties = _empties(board)

    def threats(after: str, mark: str) -> list[int]:  # the empty cells completing a line of two ``mark``s
        return [i for line in LINES if sum(after[j] == mark for j in line) == 2
                for i in line if after[i] == EMPTY]

    wins = [i for i in empties if _won(_place(board, i, model), model)]
    blocks = [i for i in empties if _won(_place(board, i, opponent), opponent)]
    forks = [i for i in empties if len(set(threats(_place(board, i, model), model))) >= 2]
    their_forks = [i for i in empties if len(set(threats(_place(board, i, opponent), opponent))) >= 2]
    forcing = [i for i in empties if any(t not in their_forks for t in threats(_place(board, i, model), model))]
    opposite = [c for c in (0, 2, 6, 8) if board[c] == EMPTY and board[8 - c] == opponent]
    corners = [c for c in (0, 2, 6, 8) if board[c] == EMPTY]
    rules = (wins, blocks, forks, forcing if their_forks else [], their_forks, [4] if board[4] == EMPTY else [],
             opposite, corners, empties)  # the last is never empty: the game ends when the board fills
    index = next(rule for rule in rules if rule)[0]
    return cell_name(index // SIZE, index % SIZE)


def _rows(board: str) -> list[str]:
    return [board[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]


def _opening_cell(board: str) -> str:
    index = next(i for i, mark in enumerate(board) if mark != EMPTY)
    return cell_name(index // SIZE, index % SIZE)


def _place(board: str, index: int, mark: str) -> str:
    return board[:index] + mark + board[index + 1:]


def _empties(board: str) -> list[int]:
    return [i for i, mark in enumerate(board) if mark == EMPTY]


def _won(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


@functools.lru_cache(maxsize=None)
def _value(board: str, mover: str) -> int:
    """Minimax value for ``mover`` (to move on a board nobody has won yet): 10 - plies to a win, 0 draw, negative loss."""
    empties = _empties(board)
    if not empties:
        return 0
    return max(_score_after(board, i, mover) for i in empties)


def _score_after(board: str, index: int, mover: str) -> int:
    after = _place(board, index, mover)
    if _won(after, mover):
        return 10
    if EMPTY not in after:
        return 0
    value = -_value(after, "O" if mover == "X" else "X")
    return value - 1 if value > 0 else value + 1 if value < 0 else 0


@functools.lru_cache(maxsize=200_000)
def _opponent_move(env_id: str, tape: int, slip: float, board: str, mover: str) -> int:
    """The opponent's reply on ``board``: a random cell with probability ``slip``, else a random best cell."""
    rng = tape_rng(env_id, tape, board)
    empties = _empties(board)
    if rng.random() < slip:
        return rng.choice(empties)
    scores = {i: _score_after(board, i, mover) for i in empties}
    best = max(scores.values())
    return rng.choice([i for i in empties if scores[i] == best])


@functools.lru_cache(maxsize=200_000)
def _winning_move(env_id: str, tape: int, slip: float, board: str, model: str) -> int | None:
    """A move from which the model forces a win against this tape's opponent (who replies deterministically), or None.

    Moves are tried best first by minimax score, so the oracle's game looks like good play.
    """
    opponent = "O" if model == "X" else "X"
    for index in sorted(_empties(board), key=lambda i: -_score_after(board, i, model)):
        after = _place(board, index, model)
        if _won(after, model):
            return index
        if EMPTY not in after:
            continue
        reply = _place(after, _opponent_move(env_id, tape, slip, after, opponent), opponent)
        if _won(reply, opponent) or EMPTY not in reply:
            continue
        if _winning_move(env_id, tape, slip, reply, model) is not None:
            return index
    return None
