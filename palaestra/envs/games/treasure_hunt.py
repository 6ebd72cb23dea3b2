"""Treasure hunt: find a buried treasure on a grid from distance feedback after each dig.

The field is ``size x size`` cells. Each turn the model digs one cell. Finding the treasure
wins (reward 1). Otherwise the feedback depends on the level:

- *distance*: the Manhattan distance from the dig to the treasure (``|dx| + |dy|``);
- *warmer/colder*: only whether this dig is closer to the treasure than the previous one (by
  straight-line distance), farther, or equally far.

Cells are written as two numbers ``x,y`` (column, row, both from 1), for example ``3,5`` or
``(3, 5)``. A dig off the field or an unreadable one costs a turn. The turn budget allows a
careful player to pin the treasure down (two digs locate it from exact distances; comparisons
give about one bit per dig), plus a little slack. The oracle knows the spot and digs it.

Levels grow the field and switch to warmer/colder feedback. The difficulty measure is the bits
needed to find the cell (``log2`` of the cells), plus 4 when the feedback is a single comparison.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

# Any number of digits (the move's length is bounded by MAX_MOVE_CHARS, the field by its size): three refused every
# cell past 999, and fields grow past it from level 15 on.
_CELL = re.compile(r"^(?:dig\s+(?:at\s+)?)?\(?\s*(\d+)\s*[,;\s]\s*(\d+)\s*\)?$", re.IGNORECASE)


@register
class TreasureHunt(MultiTurnTask):
    id = "games/treasure_hunt"
    family = "games"
    description = "Find a buried treasure on a grid from distance or warmer/colder feedback after each dig."
    tags = ("games", "multi-turn", "search", "deduction")
    hidden_information = True
    public_keys = ("size", "feedback")  # the prompt states the field and the kind of feedback

    @dataclass(frozen=True)
    class Config:
        size: int
        feedback: str  # distance or compare
        turns: int

    presets = (
        Config(32, "distance", 5),
        Config(64, "distance", 4),
        Config(32, "compare", 13),
        Config(64, "compare", 15),
        Config(128, "compare", 17),
    )
    growth = Growth()

    def space_size(self, level: int) -> int | None:
        """A problem is its treasure's cell."""
        return self.level_config(level).size ** 2

    def generate(self, rng: random.Random, config: Config) -> Problem:
        treasure = [rng.randint(1, config.size), rng.randint(1, config.size)]
        if config.feedback == "distance":
            rule = ("After a dig that misses, I tell you its Manhattan distance to the treasure (the difference in "
                    "columns plus the difference in rows).")
        else:
            rule = ("After a dig that misses, I only tell you whether it is warmer (closer to the treasure, in a "
                    "straight line, than your previous dig), colder (farther) or the same; the first dig has "
                    "nothing to compare with.")
        prompt = (
            f"A treasure is buried in one cell of a {config.size} by {config.size} field. Cells are written as "
            f"column,row, both from 1 to {config.size}, with 1,1 the top left corner. {rule} You have "
            f"{config.turns} digs. Each turn, dig one cell, for example: 1,1"
        )
        data = {"size": config.size, "feedback": config.feedback, "treasure": treasure, "turns": config.turns}
        return Problem(prompt=prompt, answer=f"{treasure[0]},{treasure[1]}", data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    constant_difficulty = "bisection over a board of the level's size takes the same probes wherever the treasure lies"

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 2 * math.log2(data["size"]) + (4.0 if data["feedback"] == "compare" else 0.0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"last": None}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        cell = read_dig(move, data["size"])
        if cell is None:
            return Outcome.invalid(state, f"write one cell as column,row with numbers from 1 to {data['size']}, e.g. 1,1")
        tx, ty = data["treasure"]
        x, y = cell
        if [x, y] == data["treasure"]:
            return Outcome({"last": [x, y]}, Verdict.right(), f"You dig at {x},{y} and find the treasure!", True)
        if data["feedback"] == "distance":
            said = f"Nothing at {x},{y}. Distance to the treasure: {abs(x - tx) + abs(y - ty)}."
        elif state["last"] is None:
            said = f"Nothing at {x},{y}. (Nothing to compare with yet.)"
        else:
            before = (state["last"][0] - tx) ** 2 + (state["last"][1] - ty) ** 2
            now = (x - tx) ** 2 + (y - ty) ** 2
            said = f"Nothing at {x},{y}. " + ("Warmer." if now < before else "Colder." if now > before else "Same.")
        return Outcome({"last": [x, y]}, Verdict.wrong("missed"), said)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""

    def honest_move(self, view: View) -> str:
        """Keep the cells every answer so far allows; dig the one cell left, else the dig whose worst answer
        leaves the fewest cells (among a grid of digs, the candidates themselves and their mirror images)."""
        size = view.public["size"]
        xs, ys = np.meshgrid(np.arange(1, size + 1), np.arange(1, size + 1))
        cells = np.stack([xs.ravel(), ys.ravel()], axis=1)
        digs: list[tuple[int, int]] = []
        for move, observation in view.history:
            match = _NOTHING.match(observation)
            if not match:
                continue
            dig = np.array([int(match.group(1)), int(match.group(2))])
            cells = cells[(cells != dig).any(axis=1)]
            answer = observation[match.end():].strip()
            if answer.startswith("Distance"):
                cells = cells[np.abs(cells - dig).sum(axis=1) == int(answer.split(":")[1].strip(" ."))]
            elif digs and answer in ("Warmer.", "Colder.", "Same."):
                sign = np.sign(((cells - dig) ** 2).sum(axis=1) - ((cells - np.array(digs[-1])) ** 2).sum(axis=1))
                cells = cells[sign == {"Warmer.": -1, "Colder.": 1, "Same.": 0}[answer]]
            digs.append((int(dig[0]), int(dig[1])))
        if len(cells) == 1:
            return f"{cells[0][0]},{cells[0][1]}"
        step = max(1, size // 16)
        grid = [(x, y) for x in range(1, size + 1, step) for y in range(1, size + 1, step)]
        options = np.array(grid + [tuple(c) for c in cells[:64]]
                           + _mirrors(digs[-1] if digs else None, cells, size))
        sample = cells[:: max(1, len(cells) // 4096)]  # early on, a spread sample is enough to compare splits
        if not digs or view.public["feedback"] == "distance":
            def worst(q: np.ndarray) -> int:
                _, counts = np.unique(np.abs(sample - q).sum(axis=1), return_counts=True)
                return int(counts.max())
        else:
            last = np.array(digs[-1])

            def worst(q: np.ndarray) -> int:
                signs = np.sign(((sample - q) ** 2).sum(axis=1) - ((sample - last) ** 2).sum(axis=1))
                return int(max((signs == k).sum() for k in (-1, 0, 1)))
        candidates = {tuple(c) for c in cells[:64]}
        best = min(options.tolist(), key=lambda q: (worst(np.array(q)), tuple(q) not in candidates))
        return f"{best[0]},{best[1]}"


_NOTHING = re.compile(r"Nothing at (\d+),(\d+)\.")


def _mirrors(last: tuple[int, int] | None, cells: np.ndarray, size: int) -> list[tuple[int, int]]:
    """Digs whose bisector with ``last`` splits the candidates at their median column or row."""
    if last is None:
        return []
    out = []
    for axis in (0, 1):
        middle = int(np.median(cells[:, axis]))
        for m in (middle - 1, middle, middle + 1):
            mirrored = 2 * m + 1 - last[axis]
            if 1 <= mirrored <= size:
                out.append((mirrored, last[1]) if axis == 0 else (last[0], mirrored))
    return out


def read_dig(move: str, size: int) -> tuple[int, int] | None:
    """``(column, row)`` from ``3,5``, ``(3, 5)``, ``dig 3 5``, within the field, or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, int] | None:
        match = _CELL.match(strip_wrappers(text))
        if not match:
            return None
        x, y = int(match.group(1)), int(match.group(2))
        return (x, y) if 1 <= x <= size and 1 <= y <= size else None

    return read_move_answer(move, read)
