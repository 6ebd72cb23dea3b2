"""Irregular battleships: sink a hidden fleet of polyomino-shaped ships within a shot budget.

The fleet lies on a square grid (columns a, b, ..., rows 1, 2, ...); every ship is a named
polyomino whose shape the prompt draws (an L, a T, an S, a plus, ...), placed in any of its
rotations and mirror images, ships never overlapping (they may touch). Each turn the model fires
one shot (``c4``, ``fire at c4``) and hears ``miss``, ``hit`` or ``hit, and the <ship> is sunk``;
the grid of its shots is drawn after every shot. Reward 1 for sinking the whole fleet within the
budget, else 0. A repeated, off-board or unreadable shot costs a turn.

Straight-line hunting does not work here: after a hit the rest of a ship can bend, so a good
player weighs, for every unshot cell, the placements of the ships still afloat that agree with
what it has seen (no placement over a miss, none over a sunk ship's cells, placements covering
unexplained hits weighted far above the rest) and fires at the densest cell. The honest player
does exactly that from the observations alone; the oracle, which sees the fleet, fires at ship
cells only. The budget is a fixed share of the board's cells, falling with the level, so that
random shooting (which needs nearly the whole board) almost never wins while the density
search wins at least the declared share of games at every level (checked by the kit). The
difficulty measure is the fleet's cells plus the board cells the budget leaves unshot.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import cell_name, read_cell, render_board

VERBS = ("fire at", "fire on", "fire", "shoot at", "shoot", "attack", "target")
# Ship shapes as (row, col) cells; every rotation and mirror image is allowed on the board.
SHAPES = {
    "corner": ((0, 0), (1, 0), (1, 1)),
    "tee": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "zigzag": ((0, 1), (0, 2), (1, 0), (1, 1)),
    "hook": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "block": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "flag": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "cross": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "cup": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "stair": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
}
FLEET_ORDER = ("tee", "corner", "zigzag", "cross", "hook", "cup", "flag", "stair", "block")
_RESULT = re.compile(r"^Shot ([a-z])(\d{1,2}): (miss|hit, and the (\w+) is sunk|hit)\b")
WEIGHT_PER_HIT = 1000  # a placement explaining one more unexplained hit outweighs any count of fresh ones


@register
class IrregularBattleships(MultiTurnTask):
    id = "games/irregular_battleships"
    family = "games"
    description = "Sink a hidden fleet of polyomino-shaped ships (any rotation or mirror image) within a shot budget."
    tags = ("games", "multi-turn", "deduction", "grid", "search")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    honest_win_share = 0.8  # the density search can be unlucky against a fleet in the last corner it tries
    public_keys = ("size", "ships", "turns")  # the prompt states the board, the fleet and the budget

    @dataclass(frozen=True)
    class Config:
        size: int
        ships: int
        share: float  # the shot budget as a share of the board's cells

    presets = (Config(6, 2, 0.62), Config(7, 3, 0.62), Config(8, 4, 0.6), Config(9, 5, 0.6), Config(10, 6, 0.6))
    # Capped at the nine shapes (level 7) and a 16x16 board (level 10): difficulty saturates past them.
    growth = Growth(limits={"size": 16, "ships": 9})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        names = sorted(rng.sample(FLEET_ORDER[:max(config.ships + 2, 5)], config.ships), key=FLEET_ORDER.index)

        def draw() -> list[int] | None:
            taken, fleet = 0, []
            for name in names:
                free = [mask for mask in _placements(n, name) if not mask & taken]
                if not free:
                    return None
                mask = rng.choice(free)
                taken |= mask
                fleet.append(mask)
            return fleet

        fleet = retry(draw, what="a fleet that fits on the board")
        cells = sum(len(SHAPES[name]) for name in names)
        turns = round(config.share * n * n)
        data = {"size": n, "ships": names, "fleet": fleet, "turns": turns, "spare": turns - cells}
        shapes = "\n\n".join(f"{name} ({len(SHAPES[name])} cells):\n{_shape_picture(name)}" for name in names)
        prompt = (
            f"Let's play battleships on a {n}x{n} grid: columns a to {chr(96 + n)}, rows 1 to {n} from the top. A "
            f"hidden fleet of {len(names)} ships lies on it; each ship has one of these shapes ('X' its cells), turned "
            f"any way and possibly mirrored. Ships do not overlap but may touch.\n\n{shapes}\n\n"
            "Each turn, fire one shot at a cell, for example: fire at c4. You hear miss, hit, or that a hit sank a "
            f"ship (named); the grid of your shots is drawn after each ('X' hit, 'o' miss). Sink the whole fleet within {turns} shots."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return float(data["turns"] - data["spare"] + data["size"] ** 2 - data["turns"])  # fleet + cells left unshot

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"shots": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        n = data["size"]
        cell = read_cell(move, n, n, VERBS)
        if cell is None:
            return Outcome.invalid(state, "write one cell on the grid, e.g. fire at c4")
        index = cell[0] * n + cell[1]
        if index in state["shots"]:
            return Outcome(state, Verdict.wrong("repeat"), f"You already fired at {cell_name(*cell)}.")
        shots = [*state["shots"], index]
        fired = sum(1 << shot for shot in shots)
        ship = next((k for k, mask in enumerate(data["fleet"]) if mask >> index & 1), None)
        if ship is None:
            said = "miss"
        elif data["fleet"][ship] & ~fired:
            said = "hit"
        else:
            said = f"hit, and the {data['ships'][ship]} is sunk"
        text = f"Shot {cell_name(*cell)}: {said}."
        if all(not mask & ~fired for mask in data["fleet"]):
            return Outcome({"shots": shots}, Verdict.right(), f"{text} Every ship is sunk: you win!", True)
        return Outcome.goes_on({"shots": shots}, f"{text}\n{_shots_picture(data, shots)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        n, fired = data["size"], set(state["shots"])
        index = min(i for mask in data["fleet"] for i in range(n * n) if mask >> i & 1 and i not in fired)
        return f"fire at {cell_name(index // n, index % n)}"

    def heuristics(self) -> dict[str, Any]:
        return {"checkerboard hunt, then the cells beside unsunk hits":
                lambda problem, state, history, rng: _hunt_and_target(problem.data["size"], history)}

    def honest_move(self, view: View) -> str:
        """Fire at the unshot cell most placements agreeing with the observations cover (unexplained hits first)."""
        n, names = view.public["size"], view.public["ships"]
        misses, hits, shot, sunk = 0, 0, 0, []
        for text in view.observations:
            match = _RESULT.match(text)
            if not match:
                continue
            index = (int(match.group(2)) - 1) * n + ord(match.group(1)) - 97
            shot |= 1 << index
            if match.group(3) == "miss":
                misses |= 1 << index
            else:
                hits |= 1 << index
                if match.group(4):
                    sunk.append((match.group(4), index))
        explained = 0  # hits known to belong to sunk ships (where the sunk ship's placement is certain)
        for name, index in sunk:
            fits = [mask for mask in _placements(n, name) if mask >> index & 1 and not mask & ~hits]
            if len(fits) == 1:
                explained |= fits[0]
        afloat = list(names)
        for name, _ in sunk:
            afloat.remove(name)
        open_hits = hits & ~explained
        density = [0] * (n * n)
        for name in afloat:
            for mask in _placements(n, name):
                if mask & (misses | explained):
                    continue
                weight = WEIGHT_PER_HIT ** (mask & open_hits).bit_count()
                fresh = mask & ~shot
                while fresh:
                    low = fresh & -fresh
                    density[low.bit_length() - 1] += weight
                    fresh ^= low
        index = max((i for i in range(n * n) if not shot >> i & 1), key=lambda i: (density[i], (i + i // n) % 2, -i))
        return f"fire at {cell_name(index // n, index % n)}"


def _hunt_and_target(n: int, history: Any) -> str:
    """The textbook battleship rule from the observations: fire beside a hit since the last sinking, else hunt
    the unshot cells of a checkerboard (no shape reasoning)."""
    shot: set[int] = set()
    open_hits: list[int] = []
    for _, text in history:
        match = _RESULT.match(text)
        if not match:
            continue
        index = (int(match.group(2)) - 1) * n + ord(match.group(1)) - 97
        shot.add(index)
        if match.group(4):
            open_hits = []  # a sinking: the rule forgets the hits it was chasing
        elif match.group(3) == "hit":
            open_hits.append(index)
    for hit in open_hits:
        r, c = divmod(hit, n)
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in shot:
                return f"fire at {cell_name(r + dr, c + dc)}"
    unshot = [i for i in range(n * n) if i not in shot]
    index = min(unshot, key=lambda i: ((i + i // n) % 2, i))
    return f"fire at {cell_name(index // n, index % n)}"


@functools.cache
def _placements(n: int, name: str) -> tuple[int, ...]:
    """Every placement of the ship ``name`` on an ``n x n`` board as a bit mask of cells (row-major)."""
    masks = set()
    for shape in _orientations(name):
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        for top in range(n - height + 1):
            for left in range(n - width + 1):
                masks.add(sum(1 << ((top + r) * n + left + c) for r, c in shape))
    return tuple(sorted(masks))


@functools.cache
def _orientations(name: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The distinct rotations and mirror images of a shape, each shifted to touch row 0 and column 0."""
    found = set()
    cells = SHAPES[name]
    for _ in range(2):
        for _ in range(4):
            cells = tuple((c, -r) for r, c in cells)  # a quarter turn
            top, left = min(r for r, _ in cells), min(c for _, c in cells)
            found.add(tuple(sorted((r - top, c - left) for r, c in cells)))
        cells = tuple((r, -c) for r, c in cells)  # the mirror image
    return tuple(sorted(found))


def _shape_picture(name: str) -> str:
    cells = set(SHAPES[name])
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    return "\n".join("".join("X" if (r, c) in cells else "." for c in range(width)) for r in range(height))


def _shots_picture(data: dict[str, Any], shots: list[int]) -> str:
    n = data["size"]
    ships = 0
    for mask in data["fleet"]:
        ships |= mask
    marks = {shot: ("X" if ships >> shot & 1 else "o") for shot in shots}
    return render_board([[marks.get(r * n + c, ".") for c in range(n)] for r in range(n)])
