"""English draughts (checkers) endgames on small boards: win a won position against an exact solver.

The model plays the x pieces (X: kings) against the opponent's o pieces (O: kings) from an
endgame position on a 6 x 6 or 8 x 8 board, and moves first. The rules are English draughts
(:mod:`palaestra.generators.draughts`): men move one square diagonally forward, kings either way;
captures jump a neighbouring enemy piece onto the empty square beyond and are mandatory; a
capture sequence must be completed; a man reaching the far row is crowned and its move ends. A
player with no legal move on their turn (no pieces left, or all blocked) loses.

Every position dealt is a win for the model with perfect play, proved by an exact retrograde
solver (:class:`palaestra.generators.draughts.Solver`: everything reachable from the position,
solved once per process), in a number of model moves within the level's range (at least
three). The turn budget is that fastest win plus two spare turns, so a player must win nearly
as fast as the solver does. The opponent is the same solver at every level: it plays the
*longest resistance* (the reply after which the model's fastest win is slowest; a draw or a win
of its own first, if the model's move allowed one), ties broken by move order. It never errs:
the levels grow the board and the length of the win instead. (An opponent that played a random
reply a share of the time let random play win too often: among the won 6 x 6 positions of
three to five moves, a 25% share of random replies left 3 of 2,944 positions where random play
wins at most 5%, a 10% share 77, a 5% share 349; without errors 755.)

The positions come from a catalogue searched offline by
:mod:`palaestra.envs.games._checkers_catalogue` (``checkers_positions.txt``; ``python -m
palaestra.envs.games._checkers_catalogue`` rebuilds it in about a minute), which keeps a
position only where at most half of the model's first moves keep the fastest win, a uniformly
random legal player wins at most 5% and each cheap rule of :meth:`Checkers.heuristics` at most
25% of its games against the opponent within the budget (exact, averaging over the players'
random picks; the level means are about 2% and 6% at level 0 and under 1% above). A position
with only kings is dealt in one of its four looks (the board turned half round, or reflected in
either long diagonal); one with men in one of two (seen from either side, so the model's men
may move up or down the picture). The board is redrawn each turn. The oracle plays a move that
keeps its fastest win and wins every game.

Each turn the model writes one move as the squares its piece visits: ``c3-d4`` for a step,
``c3xe5xc7`` for a capture sequence (``c3 d4``, ``c3 to d4``, ``c3-e5-c7``, ``C3XE5``, a
``Move:`` lead-in and a closing full stop are read too; a capture from its first to its last
square, ``c3xc7``, when only one route joins them). Two moves in one reply, an unreadable move
or an illegal one (a skipped mandatory capture, an unfinished capture sequence, a man moving
backwards) is refused with the reason and costs a turn. Reward 1 for a win within the budget,
0 otherwise.

Levels: 6 x 6 boards with two pieces (men or kings) against one and wins of 3-5 model moves
(level 0), 6-9 (level 1), 10-12 (level 2); 8 x 8 boards with two kings against one king and
wins of 8-12 model moves (level 3), 13 or more (level 4). Bounded: the catalogue is searched
offline, and the solver's cost grows steeply with the pieces (the catalogue holds every fit
position of these materials, so it cannot grow without more pieces). The difficulty measure is
the fastest win in model moves, plus the board's rows beyond six, plus a tenth of the model's
first moves.
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
from palaestra.envs.games._checkers_catalogue import CATALOGUE
from palaestra.generators.draughts import (
    LOOKS_KINGS_ONLY,
    LOOKS_WITH_MEN,
    RULES,
    Board,
    Move,
    Position,
    board_of,
    seen_from,
    solver_of,
)
from palaestra.verifiers.moves import read_move_answer

MODEL, OPPONENT = 0, 1
MARKS = ("x", "X", "o", "O")
EXAMPLE_STEP, EXAMPLE_CAPTURE = "b2-c3", "b2xd4xf6"
_SQUARE = re.compile(r"[a-h]\d{1,2}")
_MOVE = re.compile(r"[a-h]\d{1,2}(?:(?: ?[-x:] ?| to | )[a-h]\d{1,2}){1,12}")


@register
class Checkers(MultiTurnTask):
    id = "games/checkers"
    family = "games"
    description = "Win an English draughts endgame (mandatory captures, multi-jumps, crowning) against its exact solver."
    tags = ("games", "multi-turn", "two-player", "adversarial", "board-game")
    version = 1
    one_move_per_turn = True
    spare_turns = 2  # turns beyond the fastest win
    bounded = "positions come from a catalogue searched offline; the exact solver's cost grows steeply with the pieces"

    @dataclass(frozen=True)
    class Config:
        size: int  # the board has size x size squares
        materials: tuple[tuple[int, int, int, int], ...]  # (model men, model kings, opponent men, opponent kings)
        moves: tuple[int, int]  # (fewest, most) model moves of the fastest win

    _TWO_AGAINST_ONE = ((0, 2, 0, 1), (1, 1, 0, 1), (2, 0, 0, 1), (0, 2, 1, 0), (1, 1, 1, 0), (2, 0, 1, 0))
    presets = (
        Config(6, _TWO_AGAINST_ONE, (3, 5)),
        Config(6, _TWO_AGAINST_ONE, (6, 9)),
        Config(6, _TWO_AGAINST_ONE, (10, 12)),
        Config(8, ((0, 2, 0, 1),), (8, 12)),
        Config(8, ((0, 2, 0, 1),), (13, 40)),
    )

    def space_size(self, level: int) -> int | None:
        """Every catalogued position of the level, in each of its looks, is one problem."""
        return sum(LOOKS_WITH_MEN if position[0] | position[2] else LOOKS_KINGS_ONLY
                   for position, _ in catalogue()[level])

    def generate(self, rng: random.Random, config: Config) -> Problem:
        level = self.presets.index(config)
        position, fastest = rng.choice(catalogue()[level])
        look = rng.randrange(LOOKS_WITH_MEN if position[0] | position[2] else LOOKS_KINGS_ONLY)
        turns = fastest + self.spare_turns
        data = {"size": config.size, "position": list(position), "look": look, "turns": turns, "fastest": fastest,
                "first_moves": len(board_of(config.size).moves(position, MODEL))}
        size = config.size
        if position[0] | position[2]:
            up = look == 0
            direction = (f" (your men move toward row {size if up else 1}, the opponent's toward row "
                         f"{1 if up else size})")
            kings_only = ""
        else:
            direction, kings_only = "", " Only kings are on the board."
        prompt = (
            f"Let's play English draughts (checkers) on a {size} x {size} board, from an endgame. Play is on the "
            "dark squares only: . is an empty dark square, and blank squares are never used. You play the x pieces, "
            f"the opponent the o pieces; capital letters (X, O) are kings.{kings_only}\n\n"
            f"Rules: a man moves one square diagonally forward{direction}; a king moves one square diagonally in "
            "any direction. A capture jumps over an enemy piece on a diagonally neighbouring square onto the empty "
            "square just beyond it (a man captures forward only), and the enemy piece is removed. Capturing is "
            "mandatory: if you can capture you must (any capture you like), and a capture sequence must be "
            "completed: after each jump the same piece keeps jumping while it can. A man that reaches the far row "
            "becomes a king, and its move ends there. A player who cannot move on their turn (no pieces left, or "
            "all blocked) loses.\n\n"
            f"You move first in this position:\n\n{_picture(data, position)}\n\n"
            f"You can force a win. You have {turns} turns; only a win within them scores. Each turn, write one move "
            f"as the squares your piece visits, for example {EXAMPLE_STEP} for a step or {EXAMPLE_CAPTURE} for a "
            "capture sequence."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The fastest win in model moves, plus the board's rows beyond six, plus a tenth of the first moves."""
        data = problem.data
        return float(data["fastest"] + data["size"] - 6) + data["first_moves"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"position": list(problem.data["position"])}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        solver = solver_of(data["size"])
        position: Position = tuple(state["position"])  # type: ignore[assignment]
        squares = _read_squares(move, data)
        if squares is None:
            return Outcome.invalid(state, f"write one move as the squares your piece visits, such as {EXAMPLE_STEP} "
                                          f"or {EXAMPLE_CAPTURE}")
        options = solver.moves(position, MODEL)
        chosen = _match(position, options, squares, solver.board, lambda square: _name_path(data, (square,)))
        if not isinstance(chosen, tuple):
            return Outcome.invalid(state, chosen)
        path, child = chosen
        said = f"You play {_name_path(data, path)}" + _crowned(position, child, MODEL) + "."
        replies = solver.moves(child, OPPONENT)
        if not replies:
            return Outcome({"position": list(child)}, Verdict.right(),
                           f"{said} The opponent has no move left: you win!\n{_picture(data, child)}", True)
        reply_path, after = solver.best_move(child, OPPONENT)
        said += f" The opponent plays {_name_path(data, reply_path)}" + _crowned(child, after, OPPONENT) + "."
        new_state = {"position": list(after)}
        if not solver.moves(after, MODEL):
            return Outcome(new_state, Verdict.wrong("lost"),
                           f"{said} You have no move left: you lose.\n{_picture(data, after)}", True)
        return Outcome.goes_on(new_state, f"{said}\n{_picture(data, after)}")

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        return _read_squares(piece, problem.data) is not None

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        solver = solver_of(problem.data["size"])
        position: Position = tuple(state["position"])  # type: ignore[assignment]
        winning = solver.winning_moves(position, MODEL)
        path = winning[0][0] if winning else solver.best_move(position, MODEL)[0]
        return _name_path(problem.data, path)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        solver = solver_of(problem.data["size"])
        return [_name_path(problem.data, path) for path, _ in solver.moves(tuple(state["position"]), MODEL)]

    def heuristics(self) -> dict[str, Policy]:
        def rule(name: str) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                board = board_of(problem.data["size"])
                path, _ = rng.choice(RULES[name](board, tuple(state["position"]), MODEL))
                return _name_path(problem.data, path)

            return policy

        return {name: rule(name) for name in RULES}


def _name_path(data: dict[str, Any], path: tuple[int, ...]) -> str:
    """A move as the model sees it (``c3-d4``, ``c3xe5xc7``)."""
    board = board_of(data["size"])
    names = [_cell_name(seen_from(data["look"], data["size"], board.cells[square])) for square in path]
    return ("x" if len(path) > 1 and board.is_capture(path) else "-").join(names)


def _cell_name(cell: tuple[int, int]) -> str:
    return f"{chr(97 + cell[1])}{cell[0] + 1}"


def _picture(data: dict[str, Any], position: Position) -> str:
    board = board_of(data["size"])
    return board.picture(position, MARKS, lambda cell: seen_from(data["look"], data["size"], cell))


def _crowned(before: Position, after: Position, player: int) -> str:
    kings = 1 if player == MODEL else 3
    return ", crowning a king" if bin(after[kings]).count("1") > bin(before[kings]).count("1") else ""


def _read_squares(move: str, data: dict[str, Any]) -> list[tuple[int, int]] | None:
    """The board cells ``(row, col)`` a move names (``c3-d4``, ``c3xe5xc7``, ``c3 d4``), or None if unreadable.

    One separator throughout (``-``, ``x``, ``:``, ``to`` or a space), so ``c3-d4 e5-f6`` (two moves) is
    unreadable. Cells are mapped back through the problem's look; a cell off the board is None.
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    size = data["size"]

    def read(text: str) -> list[tuple[int, int]] | None:
        text = " ".join(text.lower().split())
        for verb in ("move ", "play "):
            if text.startswith(verb):
                text = text[len(verb):]
        if not _MOVE.fullmatch(text):
            return None
        separators = {part.strip() for part in _SQUARE.split(text)[1:-1]}
        if len(separators) != 1:
            return None
        cells = []
        for name in _SQUARE.findall(text):
            row, col = int(name[1:]) - 1, ord(name[0]) - 97
            if not (0 <= row < size and 0 <= col < size):
                return None
            cells.append(seen_from(data["look"], size, (row, col)))
        return cells

    return read_move_answer(move, read)


def _match(position: Position, options: list[Move], cells: list[tuple[int, int]], board: Board,
           name: Callable[[int], str]) -> Move | str:
    """The legal move the cells name, or why none does (``name``: a square's name as the model sees it)."""
    squares = [board.index.get(cell) for cell in cells]
    if None in squares:
        return "moves are played on the dark squares only"
    path = tuple(square for square in squares if square is not None)
    if not options:
        return "you have no legal move"
    exact = [option for option in options if option[0] == path]
    if exact:
        return exact[0]
    capturing = board.is_capture(options[0][0])
    if capturing and len(path) == 2:
        ends = [option for option in options if (option[0][0], option[0][-1]) == path]
        if len(ends) == 1:
            return ends[0]
        if ends:
            return "several capture routes join those squares: write every square the piece lands on"
    if not (position[0] | position[1]) >> path[0] & 1:  # neither a man nor a king of the model's
        return f"you have no piece on {name(path[0])}"
    if capturing:
        if any(option[0][:len(path)] == path for option in options):
            return "a capture sequence must be completed: the piece must keep jumping while it can"
        starts = sorted({name(option[0][0]) for option in options})
        return f"capturing is mandatory, and you have a capture (with the piece on {' or '.join(starts)})"
    if not any(option[0][0] == path[0] for option in options):
        return f"your piece on {name(path[0])} cannot move"
    return "that is not a legal move: a man steps one square diagonally forward, a king one square diagonally"


@functools.cache
def catalogue() -> dict[int, list[tuple[Position, int]]]:
    """The shipped positions per level with their fastest wins in model moves (proved at generation by
    :mod:`palaestra.envs.games._checkers_catalogue`; the tests re-prove a sample)."""
    table: dict[int, list[tuple[Position, int]]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            level, _, *entries = line.split()
            table[int(level)] = []
            for entry in entries:
                *masks, fastest = (int(field, 16) for field in entry.split("."))
                table[int(level)].append((tuple(masks), fastest))  # type: ignore[arg-type]
    return table
