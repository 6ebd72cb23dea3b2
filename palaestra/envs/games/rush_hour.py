"""Rush Hour: slide the cars of a 6 x 6 parking lot until car A drives out, one slide per turn.

Cars are two or three cells long and move only along their length (a horizontal car left and
right, a vertical one up and down), never through another car. Car A is horizontal in row 3; it
leaves through the gap in the right wall of row 3 once it reaches the right edge. Each turn the
model slides one car one or more cells (``B down 2``, ``C left``: one cell); a slide into a car
or a wall, an unknown car or a wrong direction costs a turn. Reward 1 when car A reaches the exit
within the turn budget (the shortest solution's length plus a few spare turns), 0 otherwise.

Positions come from a shipped catalogue of 160 parking lots (``rush_hour.txt``, built by
:func:`build_catalogue`: random lots whose set of reachable positions is small enough to search
and holds a shortest solution of 12 slides or more). Each lot's whole set of reachable positions
is searched breadth-first from its solved positions once per process (a slide, of any length,
is one move); a problem is a position drawn uniformly among all those whose shortest solution
has a length in the level's range (thousands per level). A drawn position is redrawn when the greedy rule (every
turn a slide leaving the fewest cars between car A and the exit, ties broken at random) gets car A out within
the budget in more than 4 of 64 games played at generation: in version 1 it won 0.40-0.60 of level 0 (3-5 slides,
four spare turns; random play 0), 0-0.03 of levels 1-4. Most positions a few slides from the exit fall to it, so
level 0 now starts at 4-7 slides with three spare turns (else too few positions are left to draw from). The oracle
follows the distances downhill. Levels lengthen the shortest solution
(4-7 slides up to 14-18) and cut the spare turns. The difficulty measure is the shortest
solution's length plus a tenth of the cars in the way of car A.
"""

from __future__ import annotations

import functools
import random
import re
import string
from collections import deque
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.verifiers.moves import read_command

SIZE = 6
EXIT_ROW = 2
TARGET = "A"
EMPTY = "."
DIRECTIONS = {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0),
              "l": (0, -1), "r": (0, 1), "u": (-1, 0), "d": (1, 0)}
FILLER = frozenset(["the", "move", "slide", "car", "by", "cells", "cell", "squares", "square", "steps", "step", "space",
                    "spaces"])
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}
GREEDY_GAMES = 64  # games of the greedy rule played on a drawn position
GREEDY_WINS = 4  # more wins than this among them and the position is redrawn (none allowed leaves too few at level 0)
_LINE = re.compile(r"^([A-Z.]{36}) (\d+)$")


@register
class RushHour(MultiTurnTask):
    id = "games/rush_hour"
    family = "games"
    description = "Solve a Rush Hour parking lot one car slide per turn, within a budget near the optimum."
    tags = ("games", "multi-turn", "planning", "puzzle")
    one_move_per_turn = True
    version = 2  # v2: a position the greedy rule (fewest cars in car A's way) wins in 64 random-tie games is redrawn;
    # level 0 from 4-7 slides with three spare turns

    @dataclass(frozen=True)
    class Config:
        distance: tuple[int, int]  # (fewest, most) moves of the start's shortest solution
        spare: int  # turns beyond it

    presets = (Config((4, 7), 3), Config((6, 8), 3), Config((9, 11), 3), Config((12, 14), 2), Config((14, 18), 2))
    bounded = "the shipped catalogue holds too few positions more than 18 slides from solved"

    def __init__(self, answer_format: str | None = None) -> None:
        super().__init__(answer_format)
        for config in self.presets:  # the lots' searches (about a second, once per process) run with the env
            _starts(*config.distance)

    def space_size(self, level: int) -> int | None:
        """Every position of the catalogue's lots in the level's range of solution lengths is one problem (an upper
        bound: positions the greedy rule wins are redrawn)."""
        return len(_starts(*self.level_config(level).distance))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        board, distance = retry(lambda: _not_greedy(rng, rng.choice(_starts(*config.distance)), config.spare),
                                what="a position the greedy rule does not solve")
        turns = distance + config.spare
        prompt = (
            "Let's play Rush Hour. The parking lot is a 6 x 6 grid (rows 1-6 from the top, columns 1-6 from the "
            "left); each letter marks a cell of a car, two or three cells long, and '.' is empty:\n\n"
            f"{_picture(board)}\n\n"
            "A car moves only along its length (a horizontal car left or right, a vertical car up or down), one or "
            "more cells at a time, never through another car or the wall. Get car A out through the exit on the "
            f"right of row {EXIT_ROW + 1}: you win when car A reaches the right edge. You have {turns} turns; each "
            "turn, slide one car, written as the car, the direction and the number of cells, for example: B down 2"
        )
        data = {"board": board, "distance": distance, "turns": turns}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Slides in the shortest solution, plus a tenth of the cars between car A and the exit."""
        return float(problem.data["distance"]) + _in_the_way(*_parse(problem.data["board"])) / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"board": problem.data["board"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        board = state["board"]
        slide = read_command(move, _parse_slide, articles=True)  # keep "a": it names car A
        if slide is None:
            return Outcome.invalid(state, "write one slide: a car letter, a direction (left, right, up, down) and a number of "
                                  "cells, such as B down 2")
        car, direction, cells = slide
        result = _slide(board, car, direction, cells)
        if isinstance(result, str) and len(result) != SIZE * SIZE:
            return Outcome(state, Verdict.wrong("illegal slide"), f"Illegal slide: {result}.")
        board = result
        said = f"You slide {car} {direction} {cells}."
        if _solved(board):
            return Outcome({"board": board}, Verdict.right(), f"{said} Car A drives out: solved!", True)
        return Outcome.goes_on({"board": board}, f"{said}\n{_picture(board)}", "unsolved")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        layout, start = _parse(problem.data["board"])
        distances = _solution_distances(layout, start)
        positions = _parse(state["board"])[1]
        for after, (car, direction, cells) in _moves(layout, positions):
            if distances[after] == distances[positions] - 1:
                return f"{car} {direction} {cells}"
        raise AssertionError("a position off its solved component")  # unreachable: slides stay in the component


def _not_greedy(rng: random.Random, start: tuple[str, int], spare: int) -> tuple[str, int] | None:
    """``start`` (a position and its distance), or None when the greedy rule -- every turn a slide leaving the
    fewest cars between car A and the exit, ties broken at random -- gets car A out within the budget in more than
    ``GREEDY_WINS`` of ``GREEDY_GAMES`` games."""
    board, distance = start
    layout, first = _parse(board)
    wins = 0
    for _ in range(GREEDY_GAMES):
        positions = first
        for _ in range(distance + spare):
            positions = rng.choice(_greedy_slides(layout, positions))
            if positions[0] == SIZE - 2:
                wins += 1
                if wins > GREEDY_WINS:
                    return None
                break
    return start


@functools.lru_cache(maxsize=65_536)  # the greedy games of a position cross the same positions again and again
def _greedy_slides(layout: Layout, positions: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The positions after the slides leaving the fewest cars between car A and the exit."""
    options = [after for after, _ in _moves(layout, positions)]
    scores = [_in_the_way(layout, after) for after in options]
    return tuple(after for after, score in zip(options, scores) if score == min(scores))


def _in_the_way(layout: Layout, positions: tuple[int, ...]) -> int:
    """The cars between car A and the exit (-1 once car A is out)."""
    end = positions[0] + layout.lengths[0]  # car A is car 0, horizontal in the exit row
    if end == SIZE:
        return -1
    lane = sum(1 << (EXIT_ROW * SIZE + col) for col in range(end, SIZE))
    masks = _masks(layout)
    return sum(1 for car in range(1, len(positions)) if masks[car][positions[car]] & lane)


def _parse_slide(words: list[str]) -> tuple[str, str, int] | None:
    words = [w for w in words if w not in FILLER]
    if len(words) == 2:
        words.append("1")
    if len(words) != 3 or len(words[0]) != 1 or not words[0].isalpha() or words[1] not in DIRECTIONS:
        return None
    count = NUMBERS.get(words[2], int(words[2]) if words[2].isdigit() and len(words[2]) == 1 else 0)
    if not 1 <= count <= SIZE - 2:
        return None
    full = {"l": "left", "r": "right", "u": "up", "d": "down"}
    return words[0].upper(), full.get(words[1], words[1]), count


def _cars(board: str) -> dict[str, list[int]]:
    cars: dict[str, list[int]] = {}
    for index, cell in enumerate(board):
        if cell != EMPTY:
            cars.setdefault(cell, []).append(index)
    return cars


def _slide(board: str, car: str, direction: str, cells: int) -> str:
    """The board after the slide, or (a shorter string) why it is illegal."""
    where = _cars(board).get(car)
    if where is None:
        return f"there is no car {car}"
    horizontal = where[1] - where[0] == 1
    dr, dc = DIRECTIONS[direction]
    if horizontal != (dr == 0):
        return f"car {car} is {'horizontal' if horizontal else 'vertical'} and cannot move {direction}"
    grid = list(board)
    for index in where:
        grid[index] = EMPTY
    moved = []
    for index in where:
        row, col = divmod(index, SIZE)
        row, col = row + dr * cells, col + dc * cells
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            return f"car {car} would leave the lot"
        moved.append(row * SIZE + col)
    path = {row * SIZE + col for index in where for step in range(1, cells + 1)
            for row, col in [(index // SIZE + dr * step, index % SIZE + dc * step)]}
    if any(board[i] not in (EMPTY, car) for i in path):
        return f"car {car} would run into another car"
    for index in moved:
        grid[index] = car
    return "".join(grid)


def _solved(board: str) -> bool:
    return board[EXIT_ROW * SIZE + SIZE - 1] == TARGET


class Layout(NamedTuple):
    """The fixed part of a lot: per car (in letter order, car A first) its letter, direction, line and length."""

    letters: tuple[str, ...]
    horizontal: tuple[bool, ...]
    lines: tuple[int, ...]  # the row of a horizontal car, the column of a vertical one
    lengths: tuple[int, ...]


def _parse(board: str) -> tuple[Layout, tuple[int, ...]]:
    """The lot's layout and each car's position (the column or row of its first cell)."""
    cars = sorted(_cars(board).items())
    horizontal = tuple(len(w) > 1 and w[1] - w[0] == 1 for _, w in cars)
    lines = tuple(w[0] // SIZE if h else w[0] % SIZE for (_, w), h in zip(cars, horizontal))
    firsts = tuple(w[0] % SIZE if h else w[0] // SIZE for (_, w), h in zip(cars, horizontal))
    return Layout(tuple(c for c, _ in cars), horizontal, lines, tuple(len(w) for _, w in cars)), firsts


@functools.cache
def _masks(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Per car, per position: the cells it covers as a bit mask."""
    return tuple(tuple(sum(1 << ((line * SIZE + first + i) if horizontal else ((first + i) * SIZE + line))
                           for i in range(length)) for first in range(SIZE - length + 1))
                 for horizontal, line, length in zip(layout.horizontal, layout.lines, layout.lengths))


def _moves(layout: Layout, positions: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[str, str, int]]]:
    """Every position one slide away, with the slide (cars in letter order, shorter slides first)."""
    masks = _masks(layout)
    occupied = 0
    for car, first in enumerate(positions):
        occupied |= masks[car][first]
    found = []
    for car, first in enumerate(positions):
        own = masks[car]
        others = occupied & ~own[first]
        names = ("left", "right") if layout.horizontal[car] else ("up", "down")
        for step, name in zip((-1, 1), names):
            where = first + step
            while 0 <= where < len(own) and not others & own[where]:
                found.append((positions[:car] + (where,) + positions[car + 1:],
                              (layout.letters[car], name, abs(where - first))))
                where += step
    return found


def _board(layout: Layout, positions: tuple[int, ...]) -> str:
    grid = [EMPTY] * (SIZE * SIZE)
    for car, first in enumerate(positions):
        for i in range(layout.lengths[car]):
            line = layout.lines[car]
            grid[line * SIZE + first + i if layout.horizontal[car] else (first + i) * SIZE + line] = layout.letters[car]
    return "".join(grid)


@functools.lru_cache(maxsize=512)  # every lot of the catalogue stays cached for the oracle
def _solution_distances(layout: Layout, start: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Shortest solution length of every position reachable from ``start`` (breadth-first from the solved ones)."""
    seen, queue, edges = {start}, deque([start]), {}
    while queue:
        here = queue.popleft()
        edges[here] = [after for after, _ in _moves(layout, here)]
        for after in edges[here]:
            if after not in seen:
                seen.add(after)
                queue.append(after)
    solved = [positions for positions in edges if positions[0] == SIZE - 2]  # car A at the right edge
    distance = dict.fromkeys(solved, 0)
    queue = deque(solved)
    while queue:
        here = queue.popleft()
        for after in edges[here]:
            if after not in distance:
                distance[after] = distance[here] + 1
                queue.append(after)
    return distance


def _reachable_count(board: str, cap: int) -> int:
    """How many positions are reachable from ``board``, counting stopped just past ``cap``."""
    layout, start = _parse(board)
    seen, queue = {start}, deque([start])
    while queue and len(seen) <= cap:
        for after, _ in _moves(layout, queue.popleft()):
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return len(seen)


def _picture(board: str) -> str:
    rows = [" ".join(board[r * SIZE:(r + 1) * SIZE]) + (" <- exit" if r == EXIT_ROW else "") for r in range(SIZE)]
    return "\n".join(rows)


@functools.cache
def _starts(low: int, high: int) -> tuple[tuple[str, int], ...]:
    """Every (position, shortest solution length) of the catalogue's lots with a length from ``low`` to ``high``."""
    found: list[tuple[str, int]] = []
    for lot, _ in catalogue():
        layout, positions = _parse(lot)
        distances = _solution_distances(layout, positions)
        found.extend((_board(layout, p), d) for p, d in sorted(distances.items()) if low <= d <= high)
    return tuple(found)


@functools.cache
def catalogue() -> tuple[tuple[str, int], ...]:
    """The shipped lots: (a position, the longest shortest solution among the positions reachable from it)."""
    text = resources.files(__package__).joinpath("rush_hour.txt").read_text(encoding="ascii")
    lots = []
    for line in text.splitlines():
        match = _LINE.match(line.strip())
        if match:
            lots.append((match.group(1), int(match.group(2))))
    return tuple(lots)


def build_catalogue(rng: random.Random, count: int, min_farthest: int, cars: int = 15,
                    max_positions: int = 800) -> list[tuple[str, int]]:
    """Random lots (car A plus up to ``cars - 1`` others) whose reachable positions number at most
    ``max_positions`` and include one ``min_farthest`` or more slides from solved (how ``rush_hour.txt`` was made).

    Bounded: a lot with too many positions is dropped as soon as the search passes the cap.
    """
    found: list[tuple[str, int]] = []
    while len(found) < count:
        board = _random_lot(rng, cars)
        if _reachable_count(board, max_positions) > max_positions:
            continue
        distances = _solution_distances(*_parse(board))
        if distances and max(distances.values()) >= min_farthest:
            found.append((board, max(distances.values())))
    return found


def _random_lot(rng: random.Random, cars: int) -> str:
    grid = [EMPTY] * (SIZE * SIZE)
    start = rng.randint(0, SIZE - 3)
    for col in (start, start + 1):
        grid[EXIT_ROW * SIZE + col] = TARGET
    letters = iter(string.ascii_uppercase[1:])
    for _ in range(200):
        if cars <= 1:
            break
        length = 2 if rng.random() < 0.75 else 3
        horizontal = rng.random() < 0.5
        fixed, first = rng.randrange(SIZE), rng.randrange(SIZE - length + 1)
        if horizontal and fixed == EXIT_ROW:
            continue  # a horizontal car in car A's row could never let it out
        cells = [fixed * SIZE + first + i if horizontal else (first + i) * SIZE + fixed for i in range(length)]
        if all(grid[c] == EMPTY for c in cells):
            letter = next(letters)
            for c in cells:
                grid[c] = letter
            cars -= 1
    return "".join(grid)
