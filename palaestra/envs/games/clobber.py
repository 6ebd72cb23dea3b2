"""Clobber on a small board: win the capturing game from a won position against its exact solver.

The board holds the model's stones (X), the opponent's (O) and empty cells. A move takes one of
your stones onto an orthogonally neighbouring cell holding an opponent's stone, which is removed
(it is "clobbered"); stones never move onto empty cells. A player who cannot move on their turn
loses (the normal play rule: there are no draws).

Every position dealt is a win for the model, who moves first, under perfect play -- proved by
an exact memoised solver (:class:`palaestra.envs.games._boards.NormalPlaySolver`) -- with at most
a third of the model's first moves keeping the win, and at most a quarter of the first moves
each mobility rule of :meth:`Clobber.heuristics` could pick (most moves over the opponent's,
fewest replies for the opponent; all their ties). The opponent plays the same solver: it wins
at once if the model's move let it, and otherwise plays the *stubborn* reply, the one leaving
the model the fewest winning answers. A position is kept only where a uniformly random player
wins at most 5% of games against that opponent (exact:
:func:`~palaestra.envs.games._boards.random_win_chance`, in each of the four mirror images, as
the opponent breaks ties in board order). Such positions are rare among random
ones, so they come from a catalogue searched offline by :func:`write_catalogue`
(``clobber_positions.txt``, 600 a level, no two mirror images of each other), mirrored
left-right and top-bottom at random. The oracle plays a winning move each turn and wins every
game.

Each turn the model writes its stone's cell and the cell it clobbers (``b2-b3``, ``b2xb3``,
``b2 to b3``). An unreadable move or one the rules do not allow costs a turn and leaves the
board. Reward 1 for a win, 0 for a loss or for running out of turns (one per O stone, plus two).

Levels grow the board (3 x 5 to 5 x 6 in the presets) and the stones on it (8-10 to 14-16).
Bounded: the catalogue search costs seconds a position on larger boards. The difficulty
measure is the number of stones plus a tenth of the number of the model's first moves.
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
from palaestra.envs.games._boards import (
    NormalPlaySolver,
    blocking_rule,
    margin_rule,
    random_win_chance,
    worth_dealing,
)
from palaestra.envs.games.common import cell_name, read_cell, render_board, write_catalogue_file
from palaestra.verifiers.moves import read_move_answer

MODEL, OPPONENT = 0, 1
SPARE_TURNS = 2
CATALOGUE = "clobber_positions.txt"
PER_LEVEL = 600  # catalogue positions per level (four mirror images each)
MAX_RANDOM_WIN = 0.05  # the most a uniformly random player may win from a catalogue position (exact)
RULE_SHARE = 0.25  # the most a cheap rule's tied first picks may win
EXAMPLE_MOVE = "b2-b3"
_MOVE = re.compile(r"^([a-z] ?\d{1,2}) ?(?:-|x|:|to|->|→|takes|captures|clobbers| ) ?([a-z] ?\d{1,2})$", re.IGNORECASE)

Position = tuple[int, int]  # (model's stones, opponent's stones) as bit masks, cell = row * cols + col


@register
class Clobber(MultiTurnTask):
    id = "games/clobber"
    family = "games"
    description = "Win Clobber (capture onto a neighbouring enemy stone) from a won position against the exact solver."
    tags = ("games", "multi-turn", "two-player", "adversarial", "combinatorial-game")
    version = 1
    one_move_per_turn = True
    bounded = "finding fair positions by exact solving costs seconds each on boards past 5 x 6"

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        stones: tuple[int, int]  # (fewest, most) stones on the board, the two colours within one of each other

    presets = (
        Config(3, 5, (8, 10)),
        Config(4, 4, (10, 11)),
        Config(4, 5, (11, 12)),
        Config(5, 5, (12, 14)),
        Config(5, 6, (14, 16)),
    )

    def space_size(self, level: int) -> int | None:
        """Every catalogued position in each of its four reflections (those that differ) is one problem."""
        config = self.level_config(level)
        rows, cols = config.rows, config.cols
        return len({(_flip(mine, rows, cols, how), _flip(theirs, rows, cols, how))
                    for mine, theirs in catalogue()[(rows, cols, *config.stones)] for how in range(4)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.cols
        how = rng.randrange(4)
        mine, theirs = rng.choice(catalogue()[(rows, cols, *config.stones)])
        position = (_flip(mine, rows, cols, how), _flip(theirs, rows, cols, how))
        turns = bin(position[1]).count("1") + SPARE_TURNS
        prompt = (
            f"Let's play Clobber on a board of {rows} rows and {cols} columns (columns a to {chr(96 + cols)} from "
            f"left to right, rows 1 to {rows} from top to bottom). You play the X stones, the opponent the O "
            "stones; . is an empty cell. A move takes one of your stones onto a cell directly above, below, left "
            "or right of it that holds an opponent's stone, which is removed from the board; stones never move "
            "onto empty cells. Players take turns, and a player who cannot move on their turn loses; there are "
            f"no draws.\n\nYou move first in this position:\n\n{_picture(position, rows, cols)}\n\n"
            f"You have {turns} turns; only a win scores. Each turn, write your stone's cell and the cell of the "
            f"stone it takes, for example: {EXAMPLE_MOVE}"
        )
        data = {"rows": rows, "cols": cols, "mine": position[0], "theirs": position[1],
                "first_moves": len(_solver(rows, cols).moves(position, MODEL)), "turns": turns}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Stones at the start, plus a tenth of the model's first moves (the choices to sift)."""
        stones = bin(problem.data["mine"]).count("1") + bin(problem.data["theirs"]).count("1")
        return float(stones) + problem.data["first_moves"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"mine": problem.data["mine"], "theirs": problem.data["theirs"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        rows, cols = problem.data["rows"], problem.data["cols"]
        cells = _read_move(move, rows, cols)
        if cells is None:
            return Outcome.invalid(state, f"write your stone's cell and the cell it takes, such as {EXAMPLE_MOVE}")
        origin, target = cells
        solver = _solver(rows, cols)
        position = (state["mine"], state["theirs"])
        child = dict(solver.moves(position, MODEL)).get((origin, target))
        name = f"{_name(origin, cols)}-{_name(target, cols)}"
        if child is None:
            return Outcome.invalid(state, f"{name} is not a move: {_why_not(position, origin, target, cols)}")
        said = f"You play {name}."
        if not solver.moves(child, OPPONENT):
            after = {"mine": child[0], "theirs": child[1]}
            return Outcome(after, Verdict.right(), f"{said} The opponent has no move: you win!\n"
                                                   f"{_picture(child, rows, cols)}", True)
        reply = solver.stubborn_move(child, OPPONENT)
        position = dict(solver.moves(child, OPPONENT))[reply]
        said += f" The opponent plays {_name(reply[0], cols)}-{_name(reply[1], cols)}."
        after = {"mine": position[0], "theirs": position[1]}
        if not solver.moves(position, MODEL):
            return Outcome(after, Verdict.wrong("lost"), f"{said} You have no move: you lose.\n"
                                                         f"{_picture(position, rows, cols)}", True)
        return Outcome.goes_on(after, f"{said}\n{_picture(position, rows, cols)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        cols = problem.data["cols"]
        solver = _solver(problem.data["rows"], cols)
        position = (state["mine"], state["theirs"])
        winning = solver.winning_moves(position, MODEL)
        origin, target = winning[0] if winning else solver.moves(position, MODEL)[0][0]
        return f"{_name(origin, cols)}-{_name(target, cols)}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        cols = problem.data["cols"]
        return [f"{_name(o, cols)}-{_name(t, cols)}"
                for (o, t), _ in _solver(problem.data["rows"], cols).moves((state["mine"], state["theirs"]), MODEL)]

    def heuristics(self) -> dict[str, Policy]:
        def rule(pick: Callable[..., tuple[int, int]]) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                cols = problem.data["cols"]
                solver = _solver(problem.data["rows"], cols)
                origin, target = pick(solver, (state["mine"], state["theirs"]), MODEL, rng.random)
                return f"{_name(origin, cols)}-{_name(target, cols)}"

            return policy

        return {"most moves over the opponent's": rule(margin_rule), "fewest replies for the opponent": rule(blocking_rule)}


@functools.cache
def _neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(r * cols + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                       if 0 <= r < rows and 0 <= c < cols)
                 for row, col in (divmod(cell, cols) for cell in range(rows * cols)))


@functools.cache
def _solver(rows: int, cols: int) -> NormalPlaySolver:
    """The memoised solver for one board size: positions ``(model's stones, opponent's stones)``, moves ``(from, to)``."""
    neighbours = _neighbours(rows, cols)

    def moves(position: Position, player: int) -> list[tuple[tuple[int, int], Position]]:
        own, other = position if player == MODEL else (position[1], position[0])
        options = []
        rest = own
        while rest:
            lowest = rest & -rest
            origin = lowest.bit_length() - 1
            rest ^= lowest
            for target in neighbours[origin]:
                if other >> target & 1:
                    moved, taken = own ^ lowest | (1 << target), other & ~(1 << target)
                    options.append(((origin, target), (moved, taken) if player == MODEL else (taken, moved)))
        return options

    return NormalPlaySolver(moves)


def _name(cell: int, cols: int) -> str:
    return cell_name(*divmod(cell, cols))


def _why_not(position: Position, origin: int, target: int, cols: int) -> str:
    mine, theirs = position
    if not mine >> origin & 1:
        return f"there is no X stone on {_name(origin, cols)}"
    if not theirs >> target & 1:
        return f"there is no O stone on {_name(target, cols)}"
    return "the two cells are not side by side"


def _read_move(move: str, rows: int, cols: int) -> tuple[int, int] | None:
    """``(from, to)`` cells of a move written ``b2-b3``, ``b2xb3``, ``b2 to b3``, ``move b2 to b3``, or None."""
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, int] | None:
        text = " ".join(text.split()).rstrip(".")
        for verb in ("move ", "play "):
            if text.lower().startswith(verb):
                text = text[len(verb):]
        match = _MOVE.match(text)
        if not match:
            return None
        first, second = (read_cell(part.replace(" ", ""), rows, cols) for part in match.groups())
        if first is None or second is None:
            return None
        return first[0] * cols + first[1], second[0] * cols + second[1]

    return read_move_answer(move, read)


def _flip(stones: int, rows: int, cols: int, how: int) -> int:
    """``stones`` mirrored left-right (``how`` bit 0) and top-bottom (bit 1)."""
    flipped = 0
    for cell in range(rows * cols):
        if stones >> cell & 1:
            r, c = divmod(cell, cols)
            r, c = (rows - 1 - r if how & 2 else r), (cols - 1 - c if how & 1 else c)
            flipped |= 1 << (r * cols + c)
    return flipped


def _picture(position: Position, rows: int, cols: int) -> str:
    mine, theirs = position
    return render_board([["X" if mine >> (r * cols + c) & 1 else "O" if theirs >> (r * cols + c) & 1 else "."
                          for c in range(cols)] for r in range(rows)])


@functools.cache
def catalogue() -> dict[tuple[int, int, int, int], list[Position]]:
    """The shipped positions, ``(rows, cols, fewest, most stones) -> [(model's stones, opponent's), ...]``."""
    table: dict[tuple[int, int, int, int], list[Position]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            rows, cols, low, high, *pairs = line.split()
            table[(int(rows), int(cols), int(low), int(high))] = [
                (int(mine, 16), int(theirs, 16)) for mine, theirs in (pair.split(":") for pair in pairs)]
    return table


def search(rows: int, cols: int, stones: tuple[int, int], count: int, seed: int) -> list[Position]:
    """``count`` positions fit to deal (see the module docstring), none a mirror image of another (offline)."""
    rng = random.Random(seed)
    solver = _solver(rows, cols)
    found: dict[Position, None] = {}
    while len(found) < count:
        total = rng.randint(*stones)
        cells = rng.sample(range(rows * cols), total)
        split = (total + rng.randrange(2)) // 2
        drawn = (sum(1 << c for c in cells[:split]), sum(1 << c for c in cells[split:]))
        images = [(_flip(drawn[0], rows, cols, how), _flip(drawn[1], rows, cols, how)) for how in range(4)]
        position = min(images)
        if position not in found and worth_dealing(solver, position, MODEL, RULE_SHARE) \
                and max(random_win_chance(solver, image, MODEL) for image in images) <= MAX_RANDOM_WIN:
            found[position] = None
    return list(found)


def catalogue_line(level: int, per_level: int = PER_LEVEL) -> str:
    """The catalogue's line for preset ``level``: the board, the stone range, then the positions in hex."""
    config = Clobber.presets[level]
    positions = search(config.rows, config.cols, config.stones, per_level, seed=level)
    return (f"{config.rows} {config.cols} {config.stones[0]} {config.stones[1]} "
            + " ".join(f"{mine:x}:{theirs:x}" for mine, theirs in positions))


def write_catalogue(path: str | None = None) -> None:
    """Rebuild the shipped catalogue for the presets."""
    write_catalogue_file(__file__, CATALOGUE, path,
        "Clobber positions the first (X) player wins; built by "
        "palaestra.envs.games.clobber.write_catalogue",
        (catalogue_line(level) for level in range(len(Clobber.presets))))
