"""Lights out: switch every light off; pressing a light toggles it and its four neighbours.

The board is an ``n x n`` grid of lights, ``1`` on and ``0`` off, columns a, b, ... and rows
1, 2, .... Each turn the model presses one light (``b3``, ``press b3``); it and the lights
directly above, below, left and right of it change state. The board is shown after every
press. Reward 1 when every light is off; an unreadable or off-board cell costs a turn.

Boards come from pressing random cells of a dark board, so they are solvable. The fewest
presses that solve a board are found by linear algebra over GF(2) (Gaussian elimination, then
the lightest solution among those the null space allows: the 4x4 and 5x5 boards have several),
and the turn budget is that number plus the level's spare presses. Boards are drawn uniformly
among the solvable ones (each cell pressed with probability one half) and redrawn when the textbook
chase (press the light below each lit light, row by row, from the top down; or the same chase turned to
start from any other side) switches the board off within the budget: on the 4x4 board every chase
clears every solvable board, and before this redraw the downward chase won every level-0 game. The
oracle presses the cells of a lightest solution of the current board. Levels grow the board and cut
the spare presses. The difficulty measure is the fewest presses.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, retry
from palaestra.envs.games._lights import PressSystem, eliminate, lightest_presses
from palaestra.envs.games.common import cell_name, read_cell, render_board

VERBS = ("press", "toggle", "click", "push", "flip")


@register
class LightsOut(MultiTurnTask):
    id = "games/lights_out"
    family = "games"
    description = "Switch every light off; each press toggles a light and its four neighbours."
    tags = ("games", "multi-turn", "puzzle", "linear-algebra", "grid")
    version = 2  # v2: boards any chase clears within the budget are redrawn; level 0 keeps one spare press
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        size: int
        spare: int  # presses allowed beyond the fewest

    presets = (Config(4, 1), Config(5, 3), Config(6, 3), Config(7, 2), Config(8, 2))
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 4 to 5)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size

        def draw() -> int | None:
            # Each cell pressed with probability 1/2: every solvable board equally likely.
            lights = 0
            for cell in range(n * n):
                if rng.random() < 0.5:
                    lights ^= _press_mask(n, cell)
            if len(_fewest(n, lights)) < 2:
                return None
            return lights if _chase_presses(n, lights) > len(_fewest(n, lights)) + config.spare else None

        # About 1 draw in 8 is kept on the 4x4 board (level 0), most on the larger ones.
        lights = retry(draw, what="a lit board that needs at least two presses and beats the chase", attempts=400)
        fewest = len(_fewest(n, lights))
        data = {"size": n, "lights": lights, "fewest": fewest, "turns": fewest + config.spare}
        prompt = (
            f"Lights out on a {n}x{n} board (1 = on, 0 = off):\n\n{_picture(n, lights)}\n\n"
            "Pressing a light toggles it and the lights directly above, below, left and right of it. Switch every "
            f"light off. You have {data['turns']} presses. Each turn, press one light, written as column letter "
            "and row number, for example: b2"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def space_size(self, level: int) -> int | None:
        """The 4x4 board (level 0) has 2^12 solvable boards; those needing fewer than two presses, or that a chase
        switches off within the budget, are left out."""
        config = self.level_config(level)
        n = config.size
        if n != 4:
            return None
        return sum(len(fewest := _fewest(n, lights)) >= 2 and _chase_presses(n, lights) > len(fewest) + config.spare
                   for lights in _solvable_boards(n))

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["fewest"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"lights": problem.data["lights"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        n = problem.data["size"]
        cell = read_cell(move, n, n, VERBS)
        if cell is None:
            return Outcome.invalid(state, "write one light as column letter and row number, e.g. b2")
        lights = state["lights"] ^ _press_mask(n, cell[0] * n + cell[1])
        if lights == 0:
            return Outcome({"lights": 0}, Verdict.right(), f"You press {cell_name(*cell)}: every light is off!", True)
        return Outcome({"lights": lights}, Verdict.wrong("lights on"),
                       f"You press {cell_name(*cell)}:\n{_picture(n, lights)}")

    def heuristics(self) -> dict[str, Policy]:
        return {"chase the lights down": _chase}

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        n = problem.data["size"]
        cell = min(_fewest(n, state["lights"]))
        return cell_name(cell // n, cell % n)


def _chase(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
    """The textbook chase: press the light below the first lit light above the bottom row (a1 once only the bottom
    row is lit). Before boards were redrawn against it (version 1) it solved every level-0 game and 0.17, 0, 0.03, 0.02
    of the games at levels 1-4 (60 seeds a level); generation now drops every board it clears within the budget."""
    n, lights = problem.data["size"], state["lights"]
    lit = next((cell for cell in range(n * (n - 1)) if lights >> cell & 1), None)
    return cell_name(0, 0) if lit is None else cell_name(lit // n + 1, lit % n)


def _chase_presses(n: int, lights: int) -> int:
    """The fewest presses any of the four chases (from the top down, or turned to start from another side) needs to
    switch ``lights`` off: each presses the light just past every lit light, line by line, and only clears the board
    when the last line ends dark (a larger number than any budget when no chase clears it)."""
    best = n * n + 1
    for _ in range(4):
        board, presses = lights, 0
        for cell in range(n * (n - 1)):
            if board >> cell & 1:
                board ^= _press_mask(n, cell + n)
                presses += 1
        if board == 0:
            best = min(best, presses)
        lights = _rotate(n, lights)
    return best


def _rotate(n: int, lights: int) -> int:
    """The board turned a quarter turn clockwise."""
    turned = 0
    for r in range(n):
        for c in range(n):
            if lights >> (r * n + c) & 1:
                turned |= 1 << (c * n + n - 1 - r)
    return turned


def _picture(n: int, lights: int) -> str:
    return render_board([["1" if lights >> (r * n + c) & 1 else "0" for c in range(n)] for r in range(n)])


@functools.cache
def _press_mask(n: int, cell: int) -> int:
    r, c = divmod(cell, n)
    mask = 1 << cell
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            mask |= 1 << ((r + dr) * n + c + dc)
    return mask


@functools.cache
def _system(n: int) -> PressSystem:
    """The n x n board's press system, row-reduced (it depends on the size only)."""
    return eliminate([_press_mask(n, cell) for cell in range(n * n)])


def _solvable_boards(n: int) -> set[int]:
    """Every board some presses switch off (the span of the press masks)."""
    span = {0}
    for cell in range(n * n):
        span |= {board ^ _press_mask(n, cell) for board in span}
    return span


def _fewest(n: int, lights: int) -> list[int]:
    """The cells of a lightest set of presses that switches ``lights`` off (the board must be solvable)."""
    return lightest_presses(_system(n), lights)
