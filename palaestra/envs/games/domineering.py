"""Domineering on a small board with blocked cells: win a partisan placement game against its exact solver.

Two players take turns placing dominoes on empty cells of a board with some cells blocked: the
model's dominoes stand vertically (a cell and the one below it), the opponent's lie
horizontally (a cell and the one to its right). Dominoes never move or overlap. A player who
cannot place a domino on their turn loses (the normal play rule: there are no draws).

Every position dealt is a win for the model, who moves first, under perfect play -- proved by
an exact memoised solver (:class:`palaestra.envs.games._boards.NormalPlaySolver`) -- with at most
a third of the model's first moves keeping the win, and none of the first moves the two mobility
rules of :meth:`Domineering.heuristics` could pick (most moves over the opponent's, fewest places
for the opponent); so the winning move has to be found. Finding such positions takes about a
second each for the larger boards, so they come from a catalogue searched offline by
:func:`write_catalogue` (``domineering_positions.txt``, 600 a level), mirrored left-right and
top-bottom at random. The opponent plays the same solver: it wins at once if the model's move
let it (a winning reply exists), and otherwise plays the *stubborn* reply, the one leaving the
model the fewest winning answers. So one slip loses; a catalogue position is kept only where a
uniformly random player wins at most 5% of games against that opponent (computed exactly by
:func:`~palaestra.envs.games._boards.random_win_chance`, in each of the four mirror images, as the
opponent breaks ties in board order). The oracle plays a winning move each
turn and wins every game.

Each turn the model writes the upper cell of its domino (``c2`` covers c2 and c3), or both
cells (``c2-c3``). An unreadable move, a cell off the board or a domino over a blocked or
covered cell costs a turn and leaves the board. Reward 1 for a win, 0 for a loss or for running
out of turns (the turns the longest game could take, plus two).

Levels grow the board (4 x 6 to 6 x 6 in the presets) and the empty area (12-14 cells to
19-20). Bounded: the catalogue search costs seconds a position beyond about 22 empty cells. The difficulty measure is the number of
empty cells plus a tenth of the number of the model's first moves.
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

MODEL, OPPONENT = 0, 1  # the solver's player numbers: the model places vertical dominoes
SPARE_TURNS = 2
CATALOGUE = "domineering_positions.txt"
PER_LEVEL = 600  # catalogue positions per level (four mirror images each)
MAX_RANDOM_WIN = 0.05  # the most a uniformly random player may win from a catalogue position (exact)
BLOCKED, EMPTY, MODEL_MARK, OPPONENT_MARK = "#", ".", "V", "H"
EXAMPLE_MOVE = "c2"
_TWO_CELLS = re.compile(r"^\s*([a-z]\s*\d{1,2})\s*(?:-|–|to|and|/)\s*([a-z]\s*\d{1,2})\s*$", re.IGNORECASE)


@register
class Domineering(MultiTurnTask):
    id = "games/domineering"
    family = "games"
    description = "Win Domineering (vertical dominoes vs horizontal) from a won position against the exact solver."
    tags = ("games", "multi-turn", "two-player", "adversarial", "combinatorial-game")
    version = 1
    one_move_per_turn = True
    bounded = "finding fair positions by exact solving costs seconds each beyond about 22 empty cells"

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        empty: tuple[int, int]  # (fewest, most) empty cells at the start

    presets = (
        Config(4, 6, (12, 14)),
        Config(5, 5, (15, 16)),
        Config(5, 6, (16, 17)),
        Config(6, 6, (17, 18)),
        Config(6, 6, (19, 20)),
    )

    def space_size(self, level: int) -> int | None:
        """Every catalogued position in each of its four reflections (those that differ) is one problem."""
        config = self.level_config(level)
        rows, cols = config.rows, config.cols
        return len({_flip(empty, rows, cols, how) for empty in catalogue()[(rows, cols, *config.empty)] for how in range(4)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.cols
        empty = _flip(rng.choice(catalogue()[(rows, cols, *config.empty)]), rows, cols, rng.randrange(4))
        turns = bin(empty).count("1") // 4 + 1 + SPARE_TURNS
        prompt = (
            f"Let's play Domineering on a board of {rows} rows and {cols} columns (columns a to "
            f"{chr(96 + cols)} from left to right, rows 1 to {rows} from top to bottom). Cells marked {BLOCKED} are "
            "blocked. Players take turns placing a domino on two empty neighbouring cells: your dominoes (V) stand "
            "vertically, covering a cell and the cell below it; the opponent's dominoes (H) lie horizontally, "
            "covering a cell and the cell to its right. Dominoes never move. A player who cannot place a domino on "
            "their turn loses; there are no draws.\n\n"
            f"You move first in this position:\n\n{_picture(empty, rows, cols)}\n\n"
            f"You have {turns} turns; only a win scores. Each turn, write the upper cell of your domino, for "
            f"example: {EXAMPLE_MOVE} (that domino covers c2 and c3)."
        )
        data = {"rows": rows, "cols": cols, "empty": empty, "first_moves": len(_solver(rows, cols).moves(empty, MODEL)),
                "turns": turns}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Empty cells at the start, plus a tenth of the model's first moves (the choices to sift)."""
        return float(bin(problem.data["empty"]).count("1")) + problem.data["first_moves"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"empty": problem.data["empty"], "covers": ""}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        rows, cols = problem.data["rows"], problem.data["cols"]
        top = _read_domino(move, rows, cols)
        if top is None:
            return Outcome.invalid(state, f"write the upper cell of one vertical domino, such as {EXAMPLE_MOVE}")
        empty = state["empty"]
        name = f"{cell_name(*top)}-{cell_name(top[0] + 1, top[1])}"
        if top[0] + 1 >= rows:
            return Outcome.invalid(state, f"{cell_name(*top)} is on the bottom row: a vertical domino needs the cell "
                                          "below it")
        mask = _vertical_mask(top[0] * cols + top[1], cols)
        if empty & mask != mask:
            return Outcome.invalid(state, f"the domino {name} covers a blocked or covered cell")
        empty &= ~mask
        covers = state["covers"] + _cover_code(mask, MODEL_MARK)
        said = f"You place {name}."
        solver = _solver(rows, cols)
        replies = solver.moves(empty, OPPONENT)
        if not replies:
            after = {"empty": empty, "covers": covers}
            return Outcome(after, Verdict.right(), f"{said} The opponent has no place for a horizontal domino: you "
                                                   f"win!\n{self.picture(problem, after)}", True)
        reply = solver.stubborn_move(empty, OPPONENT)
        empty &= ~reply
        covers += _cover_code(reply, OPPONENT_MARK)
        cells = [i for i in range(rows * cols) if reply >> i & 1]
        said += f" The opponent places {cell_name(*divmod(cells[0], cols))}-{cell_name(*divmod(cells[1], cols))}."
        after = {"empty": empty, "covers": covers}
        if not solver.moves(empty, MODEL):
            return Outcome(after, Verdict.wrong("lost"), f"{said} You have no place for a vertical domino: you "
                                                         f"lose.\n{self.picture(problem, after)}", True)
        return Outcome.goes_on(after, f"{said}\n{self.picture(problem, after)}")

    def picture(self, problem: Problem, state: dict[str, Any]) -> str:
        rows, cols = problem.data["rows"], problem.data["cols"]
        return _picture(problem.data["empty"], rows, cols, state)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        rows, cols = problem.data["rows"], problem.data["cols"]
        solver = _solver(rows, cols)
        winning = solver.winning_moves(state["empty"], MODEL)
        mask = winning[0] if winning else solver.moves(state["empty"], MODEL)[0][0]
        return _top_name(mask, cols)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        cols = problem.data["cols"]
        return [_top_name(mask, cols) for mask, _ in _solver(problem.data["rows"], cols).moves(state["empty"], MODEL)]

    def heuristics(self) -> dict[str, Policy]:
        def rule(pick: Callable[..., int]) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                solver = _solver(problem.data["rows"], problem.data["cols"])
                return _top_name(pick(solver, state["empty"], MODEL, rng.random), problem.data["cols"])

            return policy

        return {"most moves over the opponent's": rule(margin_rule), "fewest places for the opponent": rule(blocking_rule)}


def _flip(empty: int, rows: int, cols: int, how: int) -> int:
    """``empty`` mirrored left-right (``how`` bit 0) and top-bottom (bit 1): both keep who plays which way."""
    flipped = 0
    for cell in range(rows * cols):
        if empty >> cell & 1:
            r, c = divmod(cell, cols)
            r, c = (rows - 1 - r if how & 2 else r), (cols - 1 - c if how & 1 else c)
            flipped |= 1 << (r * cols + c)
    return flipped


@functools.cache
def catalogue() -> dict[tuple[int, int, int, int], list[int]]:
    """The shipped positions, ``(rows, cols, fewest, most empty) -> [mask of empty cells, ...]`` (see :func:`search`)."""
    table: dict[tuple[int, int, int, int], list[int]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            rows, cols, low, high, *masks = line.split()
            table[(int(rows), int(cols), int(low), int(high))] = [int(mask, 16) for mask in masks]
    return table


def search(rows: int, cols: int, empty_range: tuple[int, int], count: int, seed: int) -> list[int]:
    """``count`` positions :func:`~palaestra.envs.games._boards.worth_dealing` accepts and random play rarely wins.

    No two are mirror images of each other (each is kept in its least mirrored form), so the four
    mirror images generation draws are all distinct problems. Offline: seconds to minutes.
    """
    rng = random.Random(seed)
    solver = _solver(rows, cols)
    found: dict[int, None] = {}
    while len(found) < count:
        empty = 0
        for cell in rng.sample(range(rows * cols), rng.randint(*empty_range)):
            empty |= 1 << cell
        images = [_flip(empty, rows, cols, how) for how in range(4)]
        empty = min(images)
        if empty not in found and worth_dealing(solver, empty, MODEL) \
                and max(random_win_chance(solver, image, MODEL) for image in images) <= MAX_RANDOM_WIN:
            found[empty] = None
    return list(found)


def catalogue_line(level: int, per_level: int = PER_LEVEL) -> str:
    """The catalogue's line for preset ``level``: the board, the empty range, then the positions in hex."""
    config = Domineering.presets[level]
    masks = search(config.rows, config.cols, config.empty, per_level, seed=level)
    return f"{config.rows} {config.cols} {config.empty[0]} {config.empty[1]} " + " ".join(f"{mask:x}" for mask in masks)


def write_catalogue(path: str | None = None) -> None:
    """Rebuild the shipped catalogue for the presets (a few minutes of CPU)."""
    write_catalogue_file(__file__, CATALOGUE, path,
        "Domineering positions the first (vertical) player wins; built by "
        "palaestra.envs.games.domineering.write_catalogue",
        (catalogue_line(level) for level in range(len(Domineering.presets))))


def _vertical_mask(cell: int, cols: int) -> int:
    return (1 << cell) | (1 << (cell + cols))


@functools.cache
def _solver(rows: int, cols: int) -> NormalPlaySolver:
    """The memoised solver for one board size: positions are masks of empty cells, moves masks of two cells."""
    vertical = tuple(_vertical_mask(r * cols + c, cols) for r in range(rows - 1) for c in range(cols))
    horizontal = tuple((3 << (r * cols + c)) for r in range(rows) for c in range(cols - 1))
    masks = (vertical, horizontal)

    def moves(empty: int, player: int) -> list[tuple[int, int]]:
        return [(mask, empty & ~mask) for mask in masks[player] if empty & mask == mask]

    return NormalPlaySolver(moves)


def _top_name(mask: int, cols: int) -> str:
    return cell_name(*divmod((mask & -mask).bit_length() - 1, cols))


def _cover_code(mask: int, mark: str) -> str:
    """``mark`` and the lowest cell of the domino, as the state records who covered what (``V12``, ``H3``)."""
    return f"{mark}{(mask & -mask).bit_length() - 1};"


def _read_domino(move: str, rows: int, cols: int) -> tuple[int, int] | None:
    """The upper cell of the vertical domino written in ``move`` (``c2``, ``place c2``, ``c2-c3``, ``c3 to c2``)."""
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    single = read_cell(move, rows, cols, verbs=("place", "play", "place at", "play at", "put"))
    if single is not None:
        return single

    def two(text: str) -> tuple[int, int] | None:
        match = _TWO_CELLS.match(text.strip().rstrip("."))
        if not match:
            return None
        first, second = (read_cell(part.replace(" ", ""), rows, cols) for part in match.groups())
        if first is None or second is None or first[1] != second[1] or abs(first[0] - second[0]) != 1:
            return None
        return min(first, second)

    return read_move_answer(move, two)


def _picture(empty: int, rows: int, cols: int, state: dict[str, Any] | None = None) -> str:
    """The board: ``#`` blocked, ``.`` empty, ``V``/``H`` the dominoes placed so far."""
    grid = [[EMPTY if empty >> (r * cols + c) & 1 else BLOCKED for c in range(cols)] for r in range(rows)]
    for code in (state or {}).get("covers", "").split(";"):
        if code:
            cell = int(code[1:])
            other = cell + (cols if code[0] == MODEL_MARK else 1)
            for covered in (cell, other):
                grid[covered // cols][covered % cols] = code[0]
    return render_board(grid)
