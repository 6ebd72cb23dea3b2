"""Nurikabe with conflict feedback: shade the sea of a unique Nurikabe one cell per turn; feedback names rule breaks.

The grid's numbered cells are clues: each belongs to an island of that many cells; islands hold one
number each and touch only at corners; every other cell is sea, and the sea is one orthogonally
connected region without a 2x2 block. A few cells may come marked already (givens: ``#`` sea, ``o``
island). Each turn the model marks one cell: ``shade b3`` (sea), ``dot b3`` (island, a note) or ``clear
b3``. After each mark the board is drawn and the feedback lists the rule breaks the marks show for certain
(a 2x2 block of shaded cells, an island of dots and numbers holding two numbers or more cells than its
number, an island closed off by shading before it is full or without a number, shaded sea cut off from
the rest): never whether a mark agrees with the solution, so the feedback does not leak it. The puzzle is
won (reward 1) once the shaded cells are exactly the sea. Marking a clue or a given, or an unreadable
move, is refused and costs a turn.

Every puzzle has exactly one solution: the generator grows a random solved grid
(:func:`palaestra.generators.nurikabe.random_solution`), puts each island's number on a random cell of
it, and asks the shared SAT solver (:func:`palaestra.generators.nurikabe.solutions`, with the islands'
and the sea's connectivity added as lazy cuts) for two solutions; while there are two, it reveals, as a
given, a cell where the other solution differs from the grid it grew. The turn budget is the sea cells
still to shade plus an eighth of the cells, so a solver who reasons can make a few notes and fixes,
while marking cells blindly runs out of turns (random legal marks never win). With a quarter of the cells
(version 1), shading the cells farthest from the numbers first and dotting a shaded cell back whenever the
feedback named a conflict won 0.21 / 0.14 / 0.05 of levels 0 / 1 / 3 (100 games; random legal marks 0): the
conflicts steer trial and error. With an eighth: 0.09 / 0.01 / 0.02 / 0.01 / 0 at levels 0-4. The oracle clears a
wrong shade, else shades the next sea cell. The model sees the whole puzzle; nothing is hidden.

Levels grow the grid and the islands. The difficulty measure is the sea cells to shade plus the islands.

Generation speed: about 50 problems/s of CPU time at level 4 on this 2-core machine (it varies with the number of
draws the seeds need). Each drawn grid is proved unique by the exact Nurikabe solver, adding a given after each second
solution found and proving again (about four solver runs per grid), and about half the grids are redrawn when the
proof runs long. Uniqueness is kept because the answer is checked against the one solution.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import render_board
from palaestra.generators.nurikabe import conflicts, random_solution, solutions
from palaestra.verifiers.moves import read_command

VERBS = {"shade": "shade", "sea": "shade", "fill": "shade", "black": "shade", "dot": "dot", "island": "dot",
         "mark": "dot", "white": "dot", "clear": "clear", "erase": "clear", "unmark": "clear"}
_CELL = re.compile(r"^([a-z])(\d{1,2})$")
MAX_GIVENS_ROUNDS = 40  # givens revealed at most before a draw is given up


@register
class NurikabeConflicts(MultiTurnTask):
    id = "games/nurikabe_conflicts"
    family = "games"
    description = "Solve a unique Nurikabe by shading one cell per turn; feedback names rule conflicts, never the solution."
    tags = ("games", "multi-turn", "single-player", "puzzle", "logic", "grid")
    one_move_per_turn = True  # a reply holding several marks is refused (checked by the kit)
    version = 2  # v2: spare turns an eighth of the cells (a quarter paid trial and error steered by the conflicts)

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        largest: int  # cells of the largest island
        seeds: int  # free growth steps before the 2x2 blocks are filled

    presets = (Config(5, 5, 4, 6), Config(6, 6, 5, 8), Config(7, 7, 5, 10), Config(7, 8, 6, 12), Config(8, 8, 6, 14))
    growth = Growth(steps={"cols": 1, "seeds": 1}, limits={"cols": 14, "seeds": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        data = retry(lambda: _draw(rng, config), what="a Nurikabe grid made unique")
        board = _board(data, set(), set())
        prompt = (
            "Solve this Nurikabe. Each number belongs to an island of exactly that many cells; every island holds "
            "exactly one number; islands touch each other only at corners; all other cells are sea, and the sea "
            "is one connected region (through edges) with no 2x2 block of sea. The board shows numbers, # for sea "
            "and o for island cells already marked (givens, fixed), and . for unmarked cells. Each turn mark one "
            "cell: shade CELL (sea), dot CELL (island, a note) or clear CELL; cells are a column letter and a row "
            "number. After each mark you are told the rule conflicts the marks show, not whether they are right. "
            f"You win when the shaded cells are exactly the sea; you have {data['budget']} turns.\n\n{board}\n\n"
            "Each turn, write one mark, for example: shade b3"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return float(len(data["sea"]) - sum(1 for _, _, is_sea in data["givens"] if is_sea) + len(data["clues"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"shaded": [], "dotted": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        rows, cols = data["rows"], data["cols"]
        mark = read_mark(move, rows, cols)
        if mark is None:
            return Outcome.invalid(state, "write one mark: shade CELL, dot CELL or clear CELL, such as shade b3")
        action, cell = mark
        fixed = {(r, c) for r, c, _ in data["clues"]} | {(r, c) for r, c, _ in data["givens"]}
        if cell in fixed:
            return Outcome.invalid(state, f"{_name(cell)} is a number or a given and cannot be marked")
        shaded = {tuple(x) for x in state["shaded"]} - {cell}
        dotted = {tuple(x) for x in state["dotted"]} - {cell}
        if action == "shade":
            shaded.add(cell)
        elif action == "dot":
            dotted.add(cell)
        after = {"shaded": sorted([list(x) for x in shaded]), "dotted": sorted([list(x) for x in dotted])}
        said = f"{_name(cell)} {'shaded' if action == 'shade' else 'dotted' if action == 'dot' else 'cleared'}."
        givens_sea = {(r, c) for r, c, is_sea in data["givens"] if is_sea}
        if shaded | givens_sea == {tuple(x) for x in data["sea"]}:
            return Outcome(after, Verdict.right(), f"{said} The sea is complete and every rule holds. Solved!", True)
        return Outcome.goes_on(after, f"{said} {_conflict_text(data, shaded, dotted)}\n{_board(data, shaded, dotted)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        sea = {tuple(x) for x in data["sea"]}
        givens = {(r, c) for r, c, _ in data["givens"]}
        shaded = {tuple(x) for x in state["shaded"]}
        wrong = sorted(shaded - sea)
        if wrong:
            return f"clear {_name(wrong[0])}"  # type: ignore[arg-type]
        return f"shade {_name(min(sea - shaded - givens))}"  # type: ignore[arg-type]

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        data = problem.data
        fixed = {(r, c) for r, c, _ in data["clues"]} | {(r, c) for r, c, _ in data["givens"]}
        free = [(r, c) for r in range(data["rows"]) for c in range(data["cols"]) if (r, c) not in fixed]
        return [f"{verb} {_name(cell)}" for cell in free for verb in ("shade", "dot", "clear")]


def read_mark(move: str, rows: int, cols: int) -> tuple[str, tuple[int, int]] | None:
    """``(action, (row, col))`` from ``shade b3``, ``dot B3``, ``clear b3``, ``sea b3``, ``island b3``; or None.

    >>> read_mark("Shade b3.", 5, 5), read_mark("shade b3 c4", 5, 5), read_mark("b3", 5, 5)
    (('shade', (2, 1)), None, None)
    """
    def parse(words: list[str]) -> tuple[str, tuple[int, int]] | None:
        if len(words) == 3 and words[1] in ("cell", "at", "square"):
            words = [words[0], words[2]]
        if len(words) != 2 or words[0] not in VERBS:
            return None
        match = _CELL.match(words[1])
        if not match:
            return None
        row, col = int(match.group(2)) - 1, ord(match.group(1)) - 97
        return (VERBS[words[0]], (row, col)) if 0 <= row < rows and 0 <= col < cols else None

    return read_command(move, parse)


def _draw(rng: random.Random, config: NurikabeConflicts.Config) -> dict[str, Any] | None:
    rows, cols = config.rows, config.cols
    islands = random_solution(rng, rows, cols, config.largest, config.seeds)
    if not islands:
        return None
    clues = [(rng.choice(sorted(island)), len(island)) for island in islands]
    sea = {(r, c) for r in range(rows) for c in range(cols)} - set().union(*islands)
    givens: dict[tuple[int, int], bool] = {}
    for _ in range(MAX_GIVENS_ROUNDS):
        found = solutions(rows, cols, clues, 2, givens)
        if found is None or not found:
            return None  # the proof ran long (or, impossibly, the grown grid was lost): draw again
        other = next((s for s in found if s != sea), None)
        if other is None:
            cells = rows * cols
            budget = len(sea) - sum(givens.values()) + cells // 8  # spare turns for a few notes and fixes
            return {"rows": rows, "cols": cols, "clues": sorted([r, c, n] for (r, c), n in clues),
                    "givens": sorted([r, c, is_sea] for (r, c), is_sea in givens.items()),
                    "sea": sorted([list(x) for x in sea]), "budget": budget}
        cell = rng.choice(sorted(other ^ sea))
        givens[cell] = cell in sea
    return None


def _name(cell: tuple[int, int]) -> str:
    return f"{chr(97 + cell[1])}{cell[0] + 1}"


def _board(data: dict[str, Any], shaded: set, dotted: set) -> str:
    marks = [["."] * data["cols"] for _ in range(data["rows"])]
    for r, c in shaded:
        marks[r][c] = "#"
    for r, c in dotted:
        marks[r][c] = "o"
    for r, c, is_sea in data["givens"]:
        marks[r][c] = "#" if is_sea else "o"
    for r, c, n in data["clues"]:
        marks[r][c] = str(n) if n < 10 else chr(55 + n)  # 10 -> A
    return render_board(marks)


def _conflict_text(data: dict[str, Any], shaded: set, dotted: set) -> str:
    givens_sea = {(r, c) for r, c, is_sea in data["givens"] if is_sea}
    givens_land = {(r, c) for r, c, is_sea in data["givens"] if not is_sea}
    clues = [((r, c), n) for r, c, n in data["clues"]]
    found = conflicts(data["rows"], data["cols"], clues, shaded | givens_sea, dotted | givens_land)
    return ("Rule conflicts: " + "; ".join(found) + ".") if found else "No rule conflicts."
