"""Guard maze: reach the exit of a grid while guards patrol back and forth, timing each step.

The grid has walls (``#``), open squares (``.``), the model's square (``S``) and the exit (``E``).
Guards (``1``, ``2``, ...) each walk back and forth along a straight corridor, one square per turn;
the prompt gives every guard's route, its square now and the way it is heading, so the whole future
is known. Each turn the model writes one move (``north``/``n``/``up``, ``south``, ``east``, ``west``, or
``wait``); then every guard steps. The model is caught (the game is lost) when it ends a turn on a
guard's square or swaps squares with a guard; walking into a wall or off the grid costs the turn in
place (guards still step), and so does an unreadable move. Reward 1 for reaching the exit within the
budget.

The reference is a breadth-first search over (square, time modulo the guards' common period), so its
length is the fewest turns to the exit; the budget is that plus the level's spare turns. Instances
are kept only when the guards matter: walking a shortest route while ignoring the guards is caught,
and from level 2 on the greedy rules fail too: the rule that waits whenever its next square would be
deadly does not get out within three times the grid's half-perimeter (far more than the budget), and the
rule that takes the move not caught this turn that lies nearest the exit, with north or with east preferred
among equally near squares, does not get out within the budget (version 1 dropped instances only for the
waiting rule: the east-preferring nearest-safe rule won 0.68 and 0.65 of the games at levels 2 and 4). Version 3
filters levels 0 and 1 too, with one more guard each (two on 5x5, three on 6x6; version 2 had one and two and did
not filter, as almost every such maze falls to a rule): there the waiting rule won 0.82/0.85, the nearest-safe
rules 0.86/0.86 (north first) and 1.00/0.89 (east first) of 100 games, now 0 each. The oracle replans from the current state with the same search. Levels grow the grid, add
guards and cut the spare turns. The difficulty measure is the reference length plus the guards.

Generation speed: about 60 problems/s at levels 0-4 on this 2-core machine (16 ms a problem). Dozens of mazes are
drawn per problem, most dropped because the guard-ignoring or waiting rule escapes; the rest are solved by a
breadth-first search over (square, time modulo the guards' period) for the fewest moves, and the nearest-safe rules
are played within that budget. The search is kept because that count sets the budget and the rules' test needs it.
"""

from __future__ import annotations

import functools
import math
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.multiturn import History, Policy
from palaestra.envs.games.common import cell_name
from palaestra.generators.grids import distances, random_obstacles
from palaestra.verifiers.moves import read_command

STEPS = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1), "wait": (0, 0)}
WORDS = {"north": "north", "n": "north", "up": "north", "south": "south", "s": "south", "down": "south",
         "east": "east", "e": "east", "right": "east", "west": "west", "w": "west", "left": "west", "wait": "wait",
         "stay": "wait"}


@register
class GuardMaze(MultiTurnTask):
    id = "games/guard_maze"
    family = "games"
    description = "Reach a grid's exit past guards patrolling back and forth, timing each move."
    tags = ("games", "multi-turn", "planning", "grid", "timing")
    version = 3  # v3: the greedy rules are beaten at levels 0-1 too (v2: from level 2 on)
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        guards: int
        spare: int  # turns beyond the reference
        greedy_loses: bool  # also drop instances the greedy rules (waiting or nearest safe move) win

    presets = (Config(5, 5, 2, 2, True), Config(6, 6, 3, 2, True), Config(7, 7, 3, 1, True),
               Config(8, 8, 4, 1, True), Config(9, 9, 5, 1, True))
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        data = retry(lambda: _draw(rng, config), what="a maze where the guards matter", attempts=DRAW_ATTEMPTS)
        data["budget"] = data["plan"] + config.spare
        routes = "\n".join(
            f"- Guard {i + 1} walks back and forth between {cell_name(*g['route'][0])} and {cell_name(*g['route'][-1])}; "
            f"it is now on {cell_name(*_guard_at(g, 0))}, heading toward {cell_name(*_heading(g, 0))}."
            for i, g in enumerate(data["guards"]))
        prompt = (
            "You are S in a grid and must reach the exit E. Walls are #. Guards (numbered) each walk back and forth "
            "along a straight corridor, one square per turn, turning at its ends. Each turn you make one move "
            "(north, south, east, west or wait), then every guard steps. You are caught, and lose, if you end a "
            "turn on a guard's square or swap squares with a guard. Walking into a wall or off the grid keeps you "
            "in place.\n\n"
            f"{_picture(data, tuple(data['start']), 0)}\n\nRow 1 is the top row; columns are lettered from the left.\n"
            f"{routes}\n\nYou have {data['budget']} turns; only reaching the exit scores.\n"
            "Each turn, write one move, for example: north"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["plan"] + len(problem.data["guards"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"at": list(problem.data["start"]), "time": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        step = read_command(move, _parse)
        if step is None:
            return Outcome.invalid(state, "write one move: north, south, east, west or wait")
        here, time = tuple(state["at"]), state["time"]
        there = _step(data, here, step)
        said = "You bump into a wall and stay." if there == here and step != "wait" else f"You move {step}." \
            if step != "wait" else "You wait."
        after = {"at": list(there), "time": time + 1}
        if _caught(data, here, there, time):
            return Outcome(after, Verdict.wrong("caught"), f"{said} A guard catches you: you lose.\n"
                                                           f"{_picture(data, there, time + 1)}", True)
        if there == tuple(data["exit"]):
            return Outcome(after, Verdict.right(), f"{said} You reach the exit: you win!", True)
        return Outcome.goes_on(after, f"{said} Turn {time + 1} done.\n{_picture(data, there, time + 1)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        route = _search(problem.data, tuple(state["at"]), state["time"])
        return route[0] if route else "wait"

    def heuristics(self) -> dict[str, Policy]:
        return {"shortest route, guards ignored": _ignoring_policy, "wait when the next square is deadly": _greedy_policy,
                "nearest safe move, north first": _nearest_safe_north, "nearest safe move, east first": _nearest_safe_east}


DRAW_ATTEMPTS = 4_000  # about 1 maze in 40-100 survives the rules at levels 0-1 (a draw takes about 0.3 ms)


def _parse(words: list[str]) -> str | None:
    if len(words) == 2 and words[0] in ("go", "move", "walk", "step"):
        words = words[1:]
    return WORDS.get(words[0]) if len(words) == 1 else None


def _guard_at(guard: dict[str, Any], time: int) -> tuple[int, int]:
    route = guard["route"]
    period = 2 * (len(route) - 1)
    k = (guard["phase"] + time) % period
    return tuple(route[k if k < len(route) else period - k])  # type: ignore[return-value]


def _heading(guard: dict[str, Any], time: int) -> tuple[int, int]:
    period = 2 * (len(guard["route"]) - 1)
    k = (guard["phase"] + time) % period
    return tuple(guard["route"][-1] if k < len(guard["route"]) - 1 else guard["route"][0])  # type: ignore[return-value]


def _step(data: dict[str, Any], here: tuple[int, int], step: str) -> tuple[int, int]:
    dr, dc = STEPS[step]
    r, c = here[0] + dr, here[1] + dc
    grid = data["grid"]
    return (r, c) if 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] != "#" else here


def _caught(data: dict[str, Any], here: tuple[int, int], there: tuple[int, int], time: int) -> bool:
    for guard in data["guards"]:
        now, then = _guard_at(guard, time), _guard_at(guard, time + 1)
        if then == there or (now == there and then == here):
            return True
    return False


def _period(data: dict[str, Any]) -> int:
    period = 1
    for guard in data["guards"]:
        period = math.lcm(period, 2 * (len(guard["route"]) - 1))
    return period


def _search(data: dict[str, Any], start: tuple[int, int], time: int, limit: int = 200) -> list[str] | None:
    """The fewest moves from ``start`` at ``time`` to the exit without being caught (breadth first over
    square and time modulo the guards' period), or None within ``limit`` turns."""
    period = _period(data)
    goal = tuple(data["exit"])
    if start == goal:
        return []
    seen_at = [[_guard_at(g, t) for g in data["guards"]] for t in range(period)]  # guard squares by time mod period

    def caught(here: tuple[int, int], there: tuple[int, int], now: int) -> bool:
        before, after = seen_at[now % period], seen_at[(now + 1) % period]
        return there in after or any(a == there and b == here for a, b in zip(before, after))

    parent: dict[tuple[tuple[int, int], int], tuple[tuple[tuple[int, int], int], str] | None] = {
        (start, time % period): None}
    neighbours: dict[tuple[int, int], list[tuple[str, tuple[int, int]]]] = {}
    queue = deque([(start, time, 0)])
    while queue:
        here, now, depth = queue.popleft()
        if depth >= limit:
            continue
        if here not in neighbours:
            neighbours[here] = [(step, _step(data, here, step)) for step in STEPS]
        for step, there in neighbours[here]:
            key = (there, (now + 1) % period)
            if key in parent or caught(here, there, now):
                continue
            parent[key] = ((here, now % period), step)
            if there == goal:
                moves, node = [], parent[key]
                while node is not None:
                    moves.append(node[1])
                    node = parent[node[0]]
                return moves[::-1]
            queue.append((there, now + 1, depth + 1))
    return None


def _toward_exit(data: dict[str, Any], here: tuple[int, int]) -> list[str]:
    """The moves from ``here`` that bring it one square nearer the exit (walls only)."""
    to_exit = _exit_distances(tuple(data["grid"]), tuple(data["exit"]))
    return [s for s in ("north", "south", "east", "west") if to_exit.get(_step(data, here, s), 10**6) ==
            to_exit.get(here, 0) - 1]


@functools.lru_cache(maxsize=256)
def _exit_distances(grid: tuple[str, ...], goal: tuple[int, int]) -> dict[tuple[int, int], int]:
    return distances(grid, goal)


def _ignoring_policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
    options = _toward_exit(problem.data, tuple(state["at"]))
    return options[0] if options else "wait"


def _greedy_policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
    data, here, time = problem.data, tuple(state["at"]), state["time"]
    for step in _toward_exit(data, here):
        if not _caught(data, here, _step(data, here, step), time):
            return step
    return "wait" if not _caught(data, here, here, time) else next(
        (s for s in STEPS if not _caught(data, here, _step(data, here, s), time)), "wait")


def _nearest_safe(problem: Problem, state: dict[str, Any], order: tuple[str, ...]) -> str:
    """The move not caught this turn whose square lies nearest the exit (walls only), ties broken by ``order``."""
    data, here, time = problem.data, tuple(state["at"]), state["time"]
    to_exit = _exit_distances(tuple(data["grid"]), tuple(data["exit"]))
    options = [(to_exit.get(_step(data, here, step), 10**6), rank, step) for rank, step in enumerate(order)
               if not _caught(data, here, _step(data, here, step), time)]
    return min(options)[2] if options else "wait"


def _nearest_safe_north(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
    return _nearest_safe(problem, state, ("north", "east", "south", "west", "wait"))


def _nearest_safe_east(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
    return _nearest_safe(problem, state, ("east", "north", "west", "south", "wait"))


def _rule_wins(data: dict[str, Any], policy: Policy, budget: int) -> bool:
    problem = Problem(env_id="games/guard_maze", level=0, seed=0, prompt="", data=data)
    state: dict[str, Any] = {"at": list(data["start"]), "time": 0}
    for _ in range(budget):
        here, time = tuple(state["at"]), state["time"]
        there = _step(data, here, policy(problem, state, (), random.Random(0)))
        if _caught(data, here, there, time):
            return False
        if there == tuple(data["exit"]):
            return True
        state = {"at": list(there), "time": time + 1}
    return False


def _draw(rng: random.Random, config: GuardMaze.Config) -> dict[str, Any] | None:
    rows, cols = config.rows, config.cols
    start, goal = (rows - 1, rng.randrange(cols // 2)), (0, cols - 1 - rng.randrange(cols // 2))
    grid = random_obstacles(rng, rows, cols, 0.3, start, goal)
    runs = _corridors(grid, {start, goal})
    if len(runs) < config.guards:
        return None
    guards = []
    for run in rng.sample(runs, config.guards):
        length = rng.randint(2, min(5, len(run)))
        offset = rng.randrange(len(run) - length + 1)
        route = [list(cell) for cell in run[offset:offset + length]]
        guards.append({"route": route, "phase": rng.randrange(2 * (length - 1))})
    data: dict[str, Any] = {"grid": grid, "start": list(start), "exit": list(goal), "guards": guards}
    if any(_guard_at(g, 0) == start for g in guards):
        return None
    # The rules are cheap and the search is not: an instance a rule wins in three times the grid's half-perimeter
    # (far more than any budget) is dropped first.
    rule_turns = 3 * (rows + cols)
    if _rule_wins(data, _ignoring_policy, rule_turns) or config.greedy_loses and _rule_wins(data, _greedy_policy,
                                                                                               rule_turns):
        return None
    plan = _search(data, start, 0, limit=4 * rows * cols)
    if plan is None:
        return None
    data["plan"] = len(plan)
    # The nearest-safe rules, both tie orders, within the budget (they escape most mazes given unlimited turns).
    if config.greedy_loses and any(_rule_wins(data, rule, len(plan) + config.spare)
                                   for rule in (_nearest_safe_north, _nearest_safe_east)):
        return None
    return data


def _corridors(grid: list[str], avoid: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Maximal straight runs of at least two open squares (rows and columns), without ``avoid``'s squares."""
    runs = []
    rows, cols = len(grid), len(grid[0])
    for lines in ([[(r, c) for c in range(cols)] for r in range(rows)], [[(r, c) for r in range(rows)] for c in range(cols)]):
        for line in lines:
            run: list[tuple[int, int]] = []
            for cell in [*line, None]:
                if cell is not None and grid[cell[0]][cell[1]] != "#" and cell not in avoid:
                    run.append(cell)
                    continue
                if len(run) >= 2:
                    runs.append(run)
                run = []
    return runs


def _picture(data: dict[str, Any], at: tuple[int, int], time: int) -> str:
    rows = [list(line) for line in data["grid"]]
    er, ec = data["exit"]
    rows[er][ec] = "E"
    for number, guard in enumerate(data["guards"], start=1):
        r, c = _guard_at(guard, time)
        rows[r][c] = str(number)
    rows[at[0]][at[1]] = "S"
    header = "   " + " ".join(chr(97 + c) for c in range(len(rows[0])))
    return "\n".join([header] + [f"{r + 1:>2} " + " ".join(line) for r, line in enumerate(rows)])
