"""Maze with guards: reach the exit of a maze without being seen by guards walking fixed patrol routes.

The prompt draws a maze (``#`` wall, ``.`` floor, ``S`` the start, ``E`` the exit, ``A``, ``B``, ...
the guards where they stand now) with lettered columns and numbered rows, and lists each guard's
patrol: a short corridor route walked back and forth, one square per turn, from a stated
starting point and direction. Each turn the model writes one move: ``up``, ``down``, ``left``,
``right`` (or north/south/west/east) or ``wait``; then every guard takes its next step. A guard
sees its own square and the floor squares directly next to it (up, down, left, right); the model is
caught if after a turn it stands on a seen square, or if it and a guard swapped squares. Reward 1
for reaching the exit unseen; caught ends the game with 0. A move into a wall or an unreadable
move costs a turn (the guards do not move).

Guards are periodic, so the game's state is the square and the time modulo the patrols' common
period: a backward breadth-first search over that time-expanded graph (computed once per
problem) gives the fewest turns to the exit from every state. The turn budget is that fewest
number from the start plus the level's spare turns; the oracle takes a move that lowers it.
Problems are redrawn unless walking a shortest route of the bare maze without waiting gets
caught (the guards must matter) and the textbook rule -- take the unseen move nearest the exit,
else wait -- fails within the budget (the way out needs looking ahead: a detour, or waiting
early, before a corridor the guard will sweep), and unless an exact planner that reads the guards' clock one turn
off -- avoiding what they see where they stand now, forgetting they step after the move, or looking one step too
far ahead -- fails too (the timing rule must decide the game). Levels grow the maze and add guards; the difficulty
measure is the fewest turns plus a fifth of the floor squares (the fewest turns alone varies so much between mazes
that its mean over 16 seeds fell from level 5 to 6 once the misreaders' mazes were redrawn).

Version 2 (red team, round 3): the planner that ignores the guards' step after the move escaped 0.61, 0.46, 0.38,
0.42 and 0.39 of levels 0-4 (100 games each), the one a step ahead 0.42, 0.35, 0.26, 0.30 and 0.33: the stated
order of moves rarely mattered. Mazes either escapes are redrawn (both 0 by construction; both are declared in
``heuristics()``). The backward search now walks the symmetric moves directly instead of building a table of
incoming edges (the same distances, about five times faster), which pays for the misreaders' games at generation.

Generation speed: about 12 ms of CPU a problem at level 4 on this 2-core machine (about 25 ms at level 9). Each
drawn maze is solved by a breadth-first search over (square, time) for the fewest turns out unseen, the
wait-when-watched rule is played through to drop mazes it escapes, and so are the two clock misreaders (each move
looked up in the backward search's table); about 8 mazes are drawn per problem. All are kept: the fewest turns set
the budget and no simple rule or single misread rule may earn reward.
"""

from __future__ import annotations

import functools
import json
import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import cell_name, read_label, render_board
from palaestra.generators.grids import distances, random_maze, shortest_route

STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1), "wait": (0, 0)}
SPELLINGS = {"up": "up", "north": "up", "u": "up", "n": "up", "down": "down", "south": "down", "d": "down",
             "s": "down", "left": "left", "west": "left", "l": "left", "w": "left", "right": "right",
             "east": "right", "r": "right", "e": "right", "wait": "wait", "stay": "wait"}
GUARD_NAMES = "ABCDEFGHIJ"
NEVER = 10**9


@register
class MazeGuards(MultiTurnTask):
    id = "games/maze_guards"
    family = "games"
    description = "Reach a maze's exit unseen by guards that walk seeded patrol routes back and forth."
    tags = ("games", "multi-turn", "planning", "grid", "timing")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2  # v2: mazes a planner reading the guards' clock one turn off escapes are redrawn (it won 0.61-0.38)

    @dataclass(frozen=True)
    class Config:
        cells: int  # the maze is cells x cells rooms (drawn 2 * cells + 1 squares wide)
        guards: int
        spare: int  # turns allowed beyond the fewest

    presets = (Config(3, 1, 6), Config(4, 2, 5), Config(5, 3, 4), Config(6, 4, 4), Config(7, 5, 3))
    # Capped at 12 x 12 rooms and 10 guards (level 9): larger drawings outgrow a prompt (difficulty saturates).
    growth = Growth(limits={"cells": 12, "guards": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            maze = random_maze(rng, config.cells, config.cells, loops=0.25)
            grid = maze.draw()
            cells = config.cells * config.cells
            start_cell = rng.randrange(cells)
            depth = _room_distances(maze.links(), start_cell)
            exit_cell = max(range(cells), key=lambda cell: (depth[cell], cell))
            start, goal = maze.square(start_cell), maze.square(exit_cell)
            floor = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"]
            routes = []
            for _ in range(config.guards):
                route = _patrol(rng, grid, floor, rng.choice((3, 4)))
                if route is None:
                    return None
                phase = rng.randrange(2 * (len(route) - 1))
                routes.append({"route": [list(square) for square in route], "phase": phase})
            data = {"grid": grid, "start": list(start), "goal": list(goal), "guards": routes}
            if not _caught_walking(data, shortest_route(grid, start, goal) or ""):
                return None
            fewest = _fewest(data)
            if fewest is None or _greedy_escapes(data, fewest + config.spare):
                return None
            if any(_misreader_escapes(data, fewest + config.spare, lag) for lag in (-1, 1)):
                return None
            data["fewest"] = fewest
            data["turns"] = fewest + config.spare
            return data

        data = retry(draw, what="a guarded maze with a safe way out that neither a plain shortest walk, the "
                                "wait-when-watched rule nor a planner misreading the guards' clock finds")
        patrols = "\n".join(_patrol_text(GUARD_NAMES[i], guard) for i, guard in enumerate(data["guards"]))
        prompt = (
            f"Sneak out of this maze ('#' wall, '.' floor, 'S' you at the start, 'E' the exit, letters the guards "
            f"where they stand now):\n\n{_picture(data, tuple(data['start']), 0)}\n\n"
            f"The guards walk fixed patrols, one square per turn, back and forth along their routes:\n{patrols}\n\n"
            "A guard sees its own square and the floor squares directly above, below, left and right of it. Each "
            "turn you make one move: up, down, left, right, or wait; then every guard takes its next step. You are "
            "caught if, after a turn, you stand on a square a guard sees, or if you and a guard swapped squares. "
            f"Reach E without being caught. You have {data['turns']} turns. Write one move per turn, for example: up"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The fewest turns out, plus a fifth of the floor squares (the maze to read and plan over)."""
        floor = sum(square != "#" for row in problem.data["grid"] for square in row)
        return problem.data["fewest"] + floor / 5

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"at": list(problem.data["start"]), "time": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        word = read_label(move, SPELLINGS, verbs=("move", "go", "step", "walk"))
        if word is None:
            return Outcome.invalid(state, "write one move: up, down, left, right or wait")
        step = SPELLINGS[word]
        here = (state["at"][0], state["at"][1])
        there = _step(data["grid"], here, step)
        if there is None:
            return Outcome.invalid(state, f"a wall blocks the way {step}")
        time = state["time"] + 1
        new_state = {"at": list(there), "time": time}
        if _caught(data, here, there, time):
            return Outcome(new_state, Verdict.wrong("caught"), f"You move {step} to {cell_name(*there)}: a guard "
                                                               f"sees you. You are caught.\n"
                                                               f"{_picture(data, there, time)}", True)
        if there == tuple(data["goal"]):
            return Outcome(new_state, Verdict.right(), f"You move {step} and reach the exit unseen!", True)
        return Outcome.goes_on(new_state, f"You move {step} to {cell_name(*there)} (turn {time}; @ is you).\n"
                                          f"{_picture(data, there, time)}")

    def heuristics(self) -> dict[str, Any]:
        rules: dict[str, Any] = {"step towards the exit when unseen, else wait":
                                 lambda problem, state, history, rng: _greedy_move(problem.data, state)}
        for lag, name in ((-1, "plan exactly, forgetting that the guards step after the move"),
                          (1, "plan exactly, reading the guards one step ahead")):
            rules[name] = lambda problem, state, history, rng, lag=lag: _planned_move(
                problem.data, _table(_spec(problem.data)), (state["at"][0], state["at"][1]), state["time"] + lag)
        return rules

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        return _planned_move(data, _table(_spec(data)), (state["at"][0], state["at"][1]), state["time"])


def _spec(data: dict[str, Any]) -> str:
    """The maze and its patrols as a key for :func:`_table`'s cache."""
    return json.dumps({k: data[k] for k in ("grid", "start", "goal", "guards")}, sort_keys=True)


def _planned_move(data: dict[str, Any], table: dict[tuple[int, int, int], int], here: tuple[int, int],
                  time: int) -> str:
    """A move from ``here`` at ``time`` that is not seen and lowers the fewest turns left to the exit (``table``)."""
    best, best_left = "wait", NEVER
    for step in STEPS:
        there = _step(data["grid"], here, step)
        if there is None or _caught(data, here, there, time + 1):
            continue
        left = 0 if there == tuple(data["goal"]) else table.get(_key(data, there, time + 1), NEVER)
        if left < best_left:
            best, best_left = step, left
    return best


def _misreader_escapes(data: dict[str, Any], turns: int, lag: int) -> bool:
    """Whether an exact planner that reads the guards' clock ``lag`` turns off still gets out unseen within
    ``turns``: at -1 it avoids the squares the guards see where they stand now, forgetting that they step after
    its move; at +1 it looks one step too far ahead."""
    here, goal, table = (data["start"][0], data["start"][1]), tuple(data["goal"]), _table(_spec(data))
    for time in range(turns):
        there = _step(data["grid"], here, _planned_move(data, table, here, time + lag)) or here
        if _caught(data, here, there, time + 1):
            return False
        if there == goal:
            return True
        here = there
    return False


def _room_distances(links: list[list[int]], start: int) -> list[int]:
    distance = [-1] * len(links)
    distance[start] = 0
    queue = [start]
    for cell in queue:
        for nxt in links[cell]:
            if distance[nxt] < 0:
                distance[nxt] = distance[cell] + 1
                queue.append(nxt)
    return distance


def _patrol(rng: random.Random, grid: list[str], floor: list[tuple[int, int]], length: int) -> list[tuple[int, int]] | None:
    """A route of ``length`` floor squares, each next to the last, none repeated (None when the walk is stuck)."""
    route = [rng.choice(floor)]
    for _ in range(length - 1):
        options = [square for square in (_step(grid, route[-1], step) for step in ("up", "down", "left", "right"))
                   if square is not None and square not in route]
        if not options:
            return None
        route.append(rng.choice(options))
    return route


def _period(data: dict[str, Any]) -> int:
    return math.lcm(*(2 * (len(guard["route"]) - 1) for guard in data["guards"]))


def _guard_at(guard: dict[str, Any], time: int) -> tuple[int, int]:
    route = guard["route"]
    span = len(route) - 1
    index = (time + guard["phase"]) % (2 * span)
    square = route[index if index <= span else 2 * span - index]
    return square[0], square[1]


def _step(grid: list[str], here: tuple[int, int], step: str) -> tuple[int, int] | None:
    dr, dc = STEPS[step]
    r, c = here[0] + dr, here[1] + dc
    if 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] != "#":
        return r, c
    return None


def _caught(data: dict[str, Any], here: tuple[int, int], there: tuple[int, int], time: int) -> bool:
    """Whether moving from ``here`` to ``there`` on the turn that ends at ``time`` is seen by a guard."""
    for guard in data["guards"]:
        now, before = _guard_at(guard, time), _guard_at(guard, time - 1)
        if abs(now[0] - there[0]) + abs(now[1] - there[1]) <= 1:  # next to a guard means on floor beside it
            return True
        if now == here and before == there:  # swapped squares
            return True
    return False


def _key(data: dict[str, Any], square: tuple[int, int], time: int) -> tuple[int, int, int]:
    return square[0], square[1], time % _period(data)


@functools.lru_cache(maxsize=64)
def _table(spec: str) -> dict[tuple[int, int, int], int]:
    """Fewest turns to the exit from each (row, col, time mod period) state, by backward breadth-first search."""
    data = json.loads(spec)
    grid, goal = data["grid"], tuple(data["goal"])
    period, _, seen = _watch(data)
    moves = _moves(grid)
    # Moves are symmetric (a step back, or waiting), so the states one move before (there, phase) are (here, phase - 1)
    # for the squares ``here`` next to ``there`` or on it, when ``there`` is not seen at ``phase`` (a swap with a guard
    # ends next to it, so the seen squares alone decide). Nothing moves on from the exit: the game ends there.
    left = {(goal[0], goal[1], phase): 0 for phase in range(period)}
    queue = list(left)
    for state in queue:
        there, phase = (state[0], state[1]), state[2]
        if there in seen[phase]:
            continue
        before = (phase - 1) % period
        for here in moves[there]:
            earlier = (here[0], here[1], before)
            if here != goal and earlier not in left:
                left[earlier] = left[state] + 1
                queue.append(earlier)
    return left


def _watch(data: dict[str, Any]) -> tuple[int, list[list[tuple[int, int]]], list[set[tuple[int, int]]]]:
    """The patrols' common period, the guards' squares at each phase, and the squares seen at each phase."""
    period = _period(data)
    positions = [[_guard_at(guard, phase) for guard in data["guards"]] for phase in range(period)]
    seen = [{(r + dr, c + dc) for r, c in squares for dr, dc in STEPS.values()} for squares in positions]
    return period, positions, seen


def _fewest(data: dict[str, Any]) -> int | None:
    """Fewest turns from the start (time 0) to the exit unseen, by breadth-first search layer by layer; None if none.

    Layer ``t`` holds the squares reachable unseen at time ``t``; a square already reached at a time with the same
    phase of the patrols is not searched again, so at most floor x period squares enter a layer. (A swap with a
    guard always ends next to it, so the seen squares alone decide which moves are safe.)
    """
    goal = (data["goal"][0], data["goal"][1])
    period, _, seen = _watch(data)
    moves = _moves(data["grid"])
    start = (data["start"][0], data["start"][1])
    visited: list[set[tuple[int, int]]] = [set() for _ in range(period)]
    visited[0].add(start)
    frontier, time = {start}, 0
    while frontier:  # every layer adds unvisited (square, phase) pairs: at most floor x period layers
        time += 1
        watched = seen[time % period]
        reached = {there for here in frontier for there in moves[here] if there not in watched}
        if goal in reached:
            return time
        frontier = reached - visited[time % period]
        visited[time % period] |= frontier
    return None


def _moves(grid: list[str]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Per floor square, the squares one move (waiting included) reaches."""
    floor = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"]
    return {here: [there for there in (_step(grid, here, step) for step in STEPS) if there is not None]
            for here in floor}


def _greedy_move(data: dict[str, Any], state: dict[str, Any]) -> str:
    """The textbook rule: the unseen move that gets nearest the exit in the bare maze (waiting if none is unseen)."""
    grid = data["grid"]
    distance = _exit_distances(json.dumps(grid), data["goal"][0], data["goal"][1])
    here = (state["at"][0], state["at"][1])
    options = []
    for step in STEPS:
        there = _step(grid, here, step)
        if there is not None and not _caught(data, here, there, state["time"] + 1):
            options.append((distance.get(there, NEVER), step != "wait", step))
    return min(options)[2] if options else "wait"


@functools.lru_cache(maxsize=64)
def _exit_distances(grid: str, row: int, col: int) -> dict[tuple[int, int], int]:
    return distances(json.loads(grid), (row, col))


def _greedy_escapes(data: dict[str, Any], turns: int) -> bool:
    """Whether the textbook rule (:func:`_greedy_move`) reaches the exit unseen within ``turns``."""
    state: dict[str, Any] = {"at": list(data["start"]), "time": 0}
    for _ in range(turns):
        here = (state["at"][0], state["at"][1])
        there = _step(data["grid"], here, _greedy_move(data, state)) or here
        if _caught(data, here, there, state["time"] + 1):
            return False
        if there == tuple(data["goal"]):
            return True
        state = {"at": list(there), "time": state["time"] + 1}
    return False


def _caught_walking(data: dict[str, Any], route: str) -> bool:
    """Whether walking ``route`` (letters U D L R) from the start without waiting gets caught."""
    names = {"U": "up", "D": "down", "L": "left", "R": "right"}
    here = (data["start"][0], data["start"][1])
    for time, letter in enumerate(route, start=1):
        there = _step(data["grid"], here, names[letter])
        if there is None or _caught(data, here, there, time):
            return True
        here = there
    return False


def _patrol_text(name: str, guard: dict[str, Any]) -> str:
    route = [tuple(square) for square in guard["route"]]
    span = len(route) - 1
    index = guard["phase"] % (2 * span)
    heading = route[index + 1] if index < span else route[2 * span - index - 1]
    path = " - ".join(cell_name(*square) for square in route)
    return f"Guard {name}: {path}, now at {cell_name(*_guard_at(guard, 0))} stepping next to {cell_name(*heading)}"


def _picture(data: dict[str, Any], at: tuple[int, int], time: int) -> str:
    rows = [list(row) for row in data["grid"]]
    rows[data["goal"][0]][data["goal"][1]] = "E"
    if time == 0:
        rows[data["start"][0]][data["start"][1]] = "S"
    else:
        rows[at[0]][at[1]] = "@"
    for i, guard in enumerate(data["guards"]):
        r, c = _guard_at(guard, time)
        rows[r][c] = GUARD_NAMES[i]
    return render_board(rows)
