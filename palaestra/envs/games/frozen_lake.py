"""Frozen lake: cross a slippery grid to the goal without falling into a hole.

The lake is a square grid drawn with ``S`` start, ``G`` goal, ``H`` holes and ``F`` frozen
ice, columns a, b, ... and rows 1, 2, .... Each turn the model moves one step, ``U``, ``D``,
``L`` or ``R`` (or up, down, left, right). The ice is slippery: with the probability stated in
the prompt the step goes to one of the two sideways directions instead (half each). A step
into the edge leaves the player where it is. Stepping on a hole loses; reaching the goal
wins (reward 1); running out of turns scores 0. An unreadable move costs a turn.

Every slip is drawn from a tape stored with the problem
(:func:`palaestra.envs.games.common.tape_rng`), keyed by the turn, the cell and the move, so
the same moves always slip the same way. The generator checks that the goal can be reached
within the turn budget against this tape; the oracle is that clairvoyant planner (a
breadth-first search over cell and turn for the fewest turns). A player who cannot see the tape must play the odds: the difficulty
measure is the chance that the best such player *fails*, computed by finite-horizon value
iteration on the lake (1 minus the best success probability within the budget).

Levels grow the lake, its holes and the slip probability.

Generation speed: about 360 problems/s at level 4 on this 2-core machine. Each lake is searched breadth first over
(square, turn) for a way to the goal that the slip tape allows, each slip read from the tape by a hash, and the best
chance of reaching the goal is computed exactly. Both are kept: the prompt's turn budget must be reachable, and the
failure chance is part of the problem.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.envs.games.common import cell_name, render_board, tape_uniform
from palaestra.generators.grids import random_obstacles, shortest_distance
from palaestra.verifiers.moves import read_move_answer, read_tokens

STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
SIDEWAYS = {"U": ("L", "R"), "D": ("L", "R"), "L": ("U", "D"), "R": ("U", "D")}
SPELLINGS = {**{k: k for k in STEPS}, "up": "U", "down": "D", "left": "L", "right": "R", "north": "U",
             "south": "D", "west": "L", "east": "R"}
NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}


@register
class FrozenLake(MultiTurnTask):
    id = "games/frozen_lake"
    family = "games"
    description = "Cross a slippery frozen lake to the goal, avoiding holes; slips come from a seeded tape."
    tags = ("games", "multi-turn", "decision-making", "stochastic", "grid")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        size: int
        holes: float  # share of cells that are holes, off a guaranteed path
        slip: float  # probability that a step goes sideways

    presets = (
        Config(4, 0.15, 0.1),
        Config(5, 0.2, 0.2),
        Config(6, 0.25, 0.25),
        Config(7, 0.28, 0.33),
        Config(8, 0.3, 0.4),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 7 to 8)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size

        def draw() -> dict[str, Any] | None:
            corners = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]
            start = rng.choice(corners)
            goal = (n - 1 - start[0], n - 1 - start[1])
            grid = random_obstacles(rng, n, n, config.holes, start, goal)
            distance = shortest_distance(grid, start, goal)
            if distance is None:
                return None
            rows = ["".join("H" if ch == "#" else "F" for ch in row) for row in grid]
            rows[start[0]] = rows[start[0]][: start[1]] + "S" + rows[start[0]][start[1] + 1:]
            rows[goal[0]] = rows[goal[0]][: goal[1]] + "G" + rows[goal[0]][goal[1] + 1:]
            data = {"rows": rows, "start": list(start), "goal": list(goal), "slip": config.slip,
                    "turns": 2 * distance + 4, "tape": rng.getrandbits(48)}
            return data if _plan(_key(data), data["start"][0], data["start"][1], 0) is not None else None

        data = retry(draw, what="a lake whose slips let the goal be reached in time")
        data["failure"] = round(1.0 - _best_chance(_key(data)), 6)
        prompt = (
            "You are crossing a frozen lake. S is where you stand, G the goal, H a hole, F frozen ice:\n\n"
            f"{render_board([list(row) for row in data['rows']])}\n\n"
            f"Each turn, move one step: U (up), D (down), L (left) or R (right). The ice is slippery: with "
            f"probability {config.slip:g} a step goes to one of the two sideways directions instead (each half as "
            "likely). A step off the edge leaves you where you are. Falling into a hole loses; reaching G wins. "
            f"You have {data['turns']} turns. Write one move per turn, for example: R"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return problem.data["failure"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"at": problem.data["start"], "turn": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        steps: list[str] | None = read_move_answer(move, lambda text: read_tokens(text, SPELLINGS, max_count=1))
        turn = state["turn"] + 1
        if not steps:
            return Outcome.invalid({**state, "turn": turn}, "write one move: U, D, L or R")
        intended = steps[0]
        r, c, actual = _slide(_key(data), state["at"][0], state["at"][1], state["turn"], intended)
        state = {"at": [r, c], "turn": turn}
        said = f"You try to go {NAMES[intended]}" + (f" but slip {NAMES[actual]}" if actual != intended else "")
        where = cell_name(r, c)
        tile = data["rows"][r][c]
        if tile == "H":
            return Outcome(state, Verdict.wrong("fell"), f"{said}, into the hole at {where}. You lose.", True)
        if tile == "G":
            return Outcome(state, Verdict.right(), f"{said}, onto the goal at {where}. You made it!", True)
        return Outcome(state, Verdict.wrong("moving"), f"{said}; you are at {where}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        plan = _plan(_key(data), state["at"][0], state["at"][1], state["turn"])
        return plan or "R"  # no plan only off the oracle's own path


Key = tuple[tuple[str, ...], float, int, int]  # rows, slip, turns, tape: everything the dynamics depend on


def _key(data: dict[str, Any]) -> Key:
    return tuple(data["rows"]), data["slip"], data["turns"], data["tape"]


def _slide(key: Key, r: int, c: int, turn: int, intended: str) -> tuple[int, int, str]:
    """Where a step from ``(r, c)`` on ``turn`` ends, and the direction it actually took."""
    rows, slip, _, tape = key
    draw = tape_uniform(FrozenLake.id, tape, turn, r, c, intended)
    actual = intended if draw >= slip else SIDEWAYS[intended][0 if draw < slip / 2 else 1]
    dr, dc = STEPS[actual]
    n = len(rows)
    nr, nc = r + dr, c + dc
    return (nr, nc, actual) if 0 <= nr < n and 0 <= nc < n else (r, c, actual)


def _plan(key: Key, r: int, c: int, turn: int) -> str | None:
    """The first move of a shortest way to the goal that the tape allows from ``(r, c)`` on ``turn``, or None.

    Breadth-first over (cell, turn): the slips are fixed by the tape, so this is a plain search.
    The whole path found is remembered, so following it costs one search.
    """
    cached = _PLANS.get((key, r, c, turn))
    if cached is not None or (key, r, c, turn) in _PLANS:
        return cached
    rows, _, turns, _ = key
    parent: dict[tuple[int, int, int], tuple[int, int, int, str]] = {}
    layer = [(r, c)]
    goal = None
    for t in range(turn, turns):
        following = []
        reached: set[tuple[int, int]] = set()
        for cr, cc in layer:
            for move in "RDLU":
                nr, nc, _ = _slide(key, cr, cc, t, move)
                if rows[nr][nc] == "H" or (nr, nc) in reached:
                    continue
                reached.add((nr, nc))
                parent[(nr, nc, t + 1)] = (cr, cc, t, move)
                if rows[nr][nc] == "G":
                    goal = (nr, nc, t + 1)
                    break
                following.append((nr, nc))
            if goal:
                break
        if goal:
            break
        layer = following
    if goal is None:
        _remember((key, r, c, turn), None)
        return None
    node = goal
    while node in parent:
        pr, pc, pt, move = parent[node]
        _remember((key, pr, pc, pt), move)
        node = (pr, pc, pt)
    return _PLANS[(key, r, c, turn)]


_PLANS: dict[tuple[Any, ...], str | None] = {}


def _remember(state: tuple[Any, ...], move: str | None) -> None:
    if len(_PLANS) > 50_000:  # a bounded memo: forget everything rather than grow without end
        _PLANS.clear()
    _PLANS[state] = move


def _best_chance(key: Key) -> float:
    """The best probability of reaching the goal within the budget for a player who cannot see the tape
    (finite-horizon value iteration: per turn, the best move's expected value from every cell)."""
    rows, slip, turns, _ = key
    n = len(rows)
    moves = np.zeros((len(STEPS), n * n, n * n))
    for m, move in enumerate(STEPS):
        for r in range(n):
            for c in range(n):
                for actual, p in ((move, 1 - slip), (SIDEWAYS[move][0], slip / 2), (SIDEWAYS[move][1], slip / 2)):
                    dr, dc = STEPS[actual]
                    nr, nc = (r + dr, c + dc) if 0 <= r + dr < n and 0 <= c + dc < n else (r, c)
                    moves[m, r * n + c, nr * n + nc] += p
    tiles = np.array([ch for row in rows for ch in row])
    goal, hole = tiles == "G", tiles == "H"
    value = goal.astype(float)
    for _ in range(turns):
        value = np.where(goal, 1.0, np.where(hole, 0.0, (moves @ value).max(axis=0)))
    start = int(np.flatnonzero(tiles == "S")[0])
    return float(value[start])
