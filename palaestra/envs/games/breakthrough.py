"""Breakthrough on a small board: win a won position against an exact solver.

Each side's pieces move one square forward -- straight ahead onto an empty square, or diagonally
forward onto an empty square or an enemy piece, which is captured (captures are only diagonal).
A player wins by moving a piece onto the far rank or by capturing every enemy piece; a player
with no legal move on their turn loses; there are no draws (rules and solver:
:mod:`palaestra.generators.breakthrough`).

Every position dealt is a win for the model, who moves first, under perfect play, proved by the
exact memoised solver; the win needs at least three of the model's moves against the best
defence, and at most half of the model's first moves keep the win. A uniformly random player
wins at most 5% of games from it against the opponent; each cheap rule of
:meth:`Breakthrough.heuristics`, "win, else capture, else any move" and "any move of the most
advanced piece" (each a uniform pick among its ties) at most 15%; and the first move in any reading
order of the board, or the first or last move :meth:`Breakthrough.legal_moves` lists, played every
turn, loses -- exact expectations over the picks, computed when the catalogue was searched. (In
version 1 only the declared rules were bounded, at 25%: the last listed move won 0.165 of the games
at level 0, "win, else capture, else advance" 0.155, "win, else capture" 0.135 at level 2, in 200
games a level; now no fixed order wins a game and no rule more than 0.05 at any level.) Such
positions are rare among random ones and cost up to a second each to check, so they come from a
catalogue searched offline by :mod:`palaestra.envs.games._breakthrough_catalogue` (run this module
to rebuild ``breakthrough_positions.txt``; 260 a level, but only 79 at level 0, all that 400,000
draws on the 4 x 5 board yield; no two mirror images of each other, none its own). A problem
deals one of them in one of four views -- mirrored left-right or not, the model playing White
(moving up) or Black (the board turned top to bottom, moving down) -- while play, the solver and
the opponent's tie-breaks run in the catalogue's orientation, so the four views are one game.

The opponent replies with the solver's *longest resistance*: when it can win, its fastest win;
when lost, the move delaying the loss longest, then the one leaving the model the fewest moves
that keep its fastest win; among full equals the first in move order, so a replay plays the same
game. It is this exact player at every level: a noisy one (a random reply one time in ten at
level 0 was tried) lets random play win too many short races, so the levels grow the board, the
pieces and the length of the win instead. The oracle plays a fastest win each turn and wins every
game, whatever the opponent does.

Each turn the model writes one move as two squares (``b2-c3``, ``b2xc3``, ``b2 c3``, ``b2 to c3``;
any case; a ``Move:`` lead-in and a closing period are fine). An unreadable move, two moves, or a
move the rules forbid costs a turn and leaves the board, with the reason. Reward 1 for a win, 0
for a loss or for running out of turns (the model's moves in the fastest win, plus two).

Levels grow the board (4 x 5 to 6 x 6, files x ranks, in the presets), the pieces (two or three a
side to three) and the fastest win (5 plies to 9 or more). Bounded: the offline search for fair positions
costs seconds a position on larger boards or longer wins. The difficulty measure is the plies of
the fastest win against the best defence plus a tenth of the model's first moves.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.multiturn import MAX_MOVE_CHARS, History, Policy
from palaestra.generators.breakthrough import (
    Move,
    capture_or_advance,
    flip,
    mirror,
    moves,
    picture,
    run_most_advanced,
    solver_for,
    square_name,
)
from palaestra.verifiers.moves import read_move_answer

SPARE_TURNS = 2
CATALOGUE = "breakthrough_positions.txt"
_SQUARE = r"([a-z])\s?(\d{1,2})"
_MOVE = re.compile(rf"^(?:(?:move|play)\s+)?{_SQUARE}\s?(?:-|x|:|to|->|→|takes|captures|\s)\s?{_SQUARE}$",
                   re.IGNORECASE)


@register
class Breakthrough(MultiTurnTask):
    id = "games/breakthrough"
    family = "games"
    description = "Win Breakthrough (race a piece to the far rank; capture diagonally) from a won position vs a solver."
    tags = ("games", "multi-turn", "two-player", "adversarial", "race")
    version = 2  # v2: the catalogue also bounds capture-first, most-advanced and fixed-order play
    one_move_per_turn = True
    bounded = "the offline search for fair positions costs seconds a position past 6 x 6 boards with three pieces a side"

    @dataclass(frozen=True)
    class Config:
        cols: int  # files
        rows: int  # ranks
        pieces: tuple[int, int]  # (fewest, most) pieces a side
        plies: tuple[int, int]  # (fewest, most) plies of the fastest win against the best defence

    presets = (
        Config(4, 5, (2, 3), (5, 5)),
        Config(5, 5, (3, 3), (5, 7)),
        Config(5, 6, (3, 3), (7, 7)),
        Config(6, 6, (2, 3), (9, 9)),
        Config(6, 6, (3, 3), (9, 99)),
    )

    def space_size(self, level: int) -> int | None:
        """Each catalogue position of the level in its four views (mirrored or not, White or Black) is one problem."""
        return 4 * len(_entries(self.level_config(level)))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        white, black, plies = rng.choice(_entries(config))
        data = {"cols": config.cols, "rows": config.rows, "mine": white, "theirs": black, "plies": plies,
                "mirrored": rng.random() < 0.5, "as_black": rng.random() < 0.5,
                "turns": (plies + 1) // 2 + SPARE_TURNS}
        colour, other, goal, direction = (("Black (B)", "White (W)", "rank 1", "down") if data["as_black"] else
                                          ("White (W)", "Black (B)", f"rank {config.rows}", "up"))
        last_file = chr(ord("a") + config.cols - 1)
        prompt = (
            f"Let's play Breakthrough on a board of {config.cols} files (a to {last_file}, left to right) and "
            f"{config.rows} ranks (1 to {config.rows}, bottom to top). You play {colour}, moving {direction} the "
            f"board toward {goal}; the opponent plays {other}, moving the other way. A piece moves one square "
            "forward: straight ahead onto an empty square, or diagonally forward onto an empty square or onto an "
            "enemy piece, which is captured. Captures are only diagonal; pieces never move sideways or back. A "
            "player wins by moving a piece onto the far rank (yours is "
            f"{goal}) or by capturing every enemy piece; a player with no legal move on their turn loses. There "
            f"are no draws.\n\nYou move first in this position:\n\n{_board(data, white, black)}\n\n"
            f"You have {data['turns']} turns; only a win scores. Each turn, write one move as the square of your "
            f"piece and the square it moves to, for example: {_example(data)}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Plies of the fastest win against the best defence, plus a tenth of the model's first moves (choices to sift)."""
        data = problem.data
        return float(data["plies"]) + len(moves(data["cols"], data["rows"], data["mine"], data["theirs"], True)) / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"mine": problem.data["mine"], "theirs": problem.data["theirs"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        cols, rows = data["cols"], data["rows"]
        squares = _read_move(move, cols, rows)
        if squares is None:
            return Outcome.invalid(state, f"write one move as two squares on the board, such as {_example(data)}")
        origin, target = (_view(data, square) for square in squares)
        mine, theirs = state["mine"], state["theirs"]
        chosen = next((m for m in moves(cols, rows, mine, theirs, True) if (m.origin, m.target) == (origin, target)),
                      None)
        if chosen is None:
            return Outcome.invalid(state, _why_not(data, mine, theirs, origin, target))
        said = f"You play {_name(data, chosen)}."
        if chosen.wins:
            how = "you capture the last enemy piece" if not chosen.other else "you reach the far rank"
            return Outcome({"mine": chosen.mover, "theirs": chosen.other}, Verdict.right(),
                           f"{said} {how.capitalize()} and win!", True)
        replies = moves(cols, rows, chosen.other, chosen.mover, False)
        if not replies:
            return Outcome({"mine": chosen.mover, "theirs": chosen.other}, Verdict.right(),
                           f"{said} The opponent has no legal move: you win!", True)
        reply = _opponent(problem, chosen.other, chosen.mover)
        after = {"mine": reply.other, "theirs": reply.mover}
        said += f" The opponent plays {_name(data, reply)}."
        board = _board(data, after["mine"], after["theirs"])
        if reply.wins:
            how = "captures your last piece" if not reply.other else "reaches the far rank"
            return Outcome(after, Verdict.wrong("lost"), f"{said} It {how} and wins: you lose.\n{board}", True)
        if not moves(cols, rows, after["mine"], after["theirs"], True):
            return Outcome(after, Verdict.wrong("lost"), f"{said} You have no legal move: you lose.\n{board}", True)
        return Outcome.goes_on(after, f"{said}\n{board}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        solver = solver_for(data["cols"], data["rows"])
        best = solver.fastest_win(state["mine"], state["theirs"], True)
        return _name(data, best or solver.longest_resistance(state["mine"], state["theirs"], True))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        data = problem.data
        return [_name(data, move) for move in moves(data["cols"], data["rows"], state["mine"], state["theirs"], True)]

    def heuristics(self) -> dict[str, Policy]:
        def rule(picks: Callable[[int, int, int, int, bool], list[Move]]) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                data = problem.data
                return _name(data, rng.choice(picks(data["cols"], data["rows"], state["mine"], state["theirs"], True)))

            return policy

        return {"win, else capture, else advance the most advanced piece": rule(capture_or_advance),
                "win, else run the most advanced piece": rule(run_most_advanced)}


def _opponent(problem: Problem, theirs: int, mine: int) -> Move:
    """The opponent's reply: it plays Black in the catalogue's orientation, the solver's longest resistance."""
    return solver_for(problem.data["cols"], problem.data["rows"]).longest_resistance(theirs, mine, False)


def _view(data: dict[str, Any], square: int) -> int:
    """A square of the catalogue's orientation as the model sees it, and back (each view is its own inverse)."""
    cols, rows = data["cols"], data["rows"]
    rank, file = divmod(square, cols)
    if data["mirrored"]:
        file = cols - 1 - file
    if data["as_black"]:
        rank = rows - 1 - rank
    return rank * cols + file


def _name(data: dict[str, Any], move: Move) -> str:
    cols = data["cols"]
    return f"{square_name(_view(data, move.origin), cols)}{'x' if move.capture else '-'}" \
           f"{square_name(_view(data, move.target), cols)}"


def _board(data: dict[str, Any], mine: int, theirs: int) -> str:
    cols, rows = data["cols"], data["rows"]
    if data["mirrored"]:
        mine, theirs = mirror(mine, cols, rows), mirror(theirs, cols, rows)
    if data["as_black"]:
        return picture(flip(theirs, cols, rows), flip(mine, cols, rows), cols, rows)
    return picture(mine, theirs, cols, rows)


def _example(data: dict[str, Any]) -> str:
    """A fixed move of the right shape for the model's colour (b2-c3 up the board, its mirror down)."""
    rows = data["rows"]
    return f"b{rows - 1}-c{rows - 2}" if data["as_black"] else "b2-c3"


def _why_not(data: dict[str, Any], mine: int, theirs: int, origin: int, target: int) -> str:
    """Why the move ``origin`` -> ``target`` (catalogue orientation, the model moving up) is not allowed."""
    cols = data["cols"]
    written = f"{square_name(_view(data, origin), cols)}-{square_name(_view(data, target), cols)}"
    if not mine >> origin & 1:
        what = "an enemy piece" if theirs >> origin & 1 else "no piece"
        return f"{written} is not a move: {square_name(_view(data, origin), cols)} holds {what}, not one of yours"
    (rank, file), (to_rank, to_file) = divmod(origin, cols), divmod(target, cols)
    if to_rank != rank + 1 or abs(to_file - file) > 1:
        return f"{written} is not a move: a piece moves one square forward, straight or diagonally"
    if mine >> target & 1:
        return f"{written} is not a move: your own piece stands on {square_name(_view(data, target), cols)}"
    return f"{written} is not a move: a piece captures only diagonally, never straight ahead"


def _read_move(move: str, cols: int, rows: int) -> tuple[int, int] | None:
    """The two squares of a move as the model wrote them (``b2-c3``, ``b2xc3``, ``b2 c3``, ``move b2 to c3``)."""
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, int] | None:
        match = _MOVE.match(" ".join(text.split()))
        if not match:
            return None
        squares = []
        for letter, number in (match.group(1, 2), match.group(3, 4)):
            file, rank = ord(letter.lower()) - ord("a"), int(number) - 1
            if not (0 <= file < cols and 0 <= rank < rows):
                return None
            squares.append(rank * cols + file)
        return squares[0], squares[1]

    return read_move_answer(move, read)


def _entries(config: Breakthrough.Config) -> list[tuple[int, int, int]]:
    return catalogue()[(config.cols, config.rows, *config.pieces, *config.plies)]


@functools.cache
def catalogue() -> dict[tuple[int, ...], list[tuple[int, int, int]]]:
    """The shipped positions, White to move: ``(files, ranks, fewest, most pieces, fewest, most plies) -> entries``.

    An entry is ``(White's pieces, Black's pieces, plies of White's fastest win)``.
    """
    table: dict[tuple[int, ...], list[tuple[int, int, int]]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            *head, entries = line.split(maxsplit=6)
            table[tuple(map(int, head))] = [
                (int(white, 16), int(black, 16), int(plies)) for white, black, plies in
                (entry.split(":") for entry in entries.split())]
    return table

