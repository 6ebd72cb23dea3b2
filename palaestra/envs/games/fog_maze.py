"""Fog maze: reach a known exit through a maze whose walls are only seen from inside each cell.

The maze is a grid of ``rows x cols`` cells (row 1 at the top, column 1 at the left) joined by
passages; the model knows its own cell, the exit's cell and the size, but not the walls: after
each move it is told which ways are open from the cell it stands in (north, south, east, west).
Each turn it writes one move (``north`` or ``N``, ``south``, ``east``, ``west``; also up, down,
right, left); walking into a wall costs the turn and leaves it in place, and so does an
unreadable move. Reward 1 for reaching the exit within the turn budget.

Mazes come from the shared maze generator (a random spanning tree; loops are knocked in from
level 3), the start and exit far apart. The budget is fixed by the level: a route allowance and spare turns for
exploring, each a share of the cells (24, 34, 46, 51, 46 turns at levels 0-4); mazes whose shortest route is longer
than the route allowance are redrawn (about 3% of them at levels 0-3, none seen at level 4). Version 3's budget was
the maze's shortest route plus the spare turns, so every "(N turns left)" told the hidden shortest route exactly. The
oracle, which knows the maze, walks the shortest route; the honest player (:meth:`FogMaze.honest_move`), which knows only
the walls it has seen, walks the shortest route through them assuming unseen walls open, and wins
nearly always (version 2 gives level 3 more spare turns for it). From the top preset on, only mazes that no wall
follower solves within the budget are kept (version 3: the left-hand rule, blind to where the exit is, won 57% of the
level-4 games; a wall follower of either hand and any first heading is played at generation, and about a quarter of
the mazes pass; about a seventh with version 4's budget). The difficulty measure is the cells per spare turn of the level (how much
maze each exploring step must cover) times the base-2 logarithm of the cells.
"""

from __future__ import annotations

import math
import random
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.core.task import Growth
from palaestra.generators.grids import cell_distances, random_maze
from palaestra.verifiers.moves import read_move_answer, read_tokens

SPELLINGS = {"N": "north", "S": "south", "E": "east", "W": "west", "north": "north", "south": "south",
             "east": "east", "west": "west", "up": "north", "down": "south", "right": "east", "left": "west",
             "U": "north", "D": "south", "R": "east", "L": "west"}
ORDER = ("north", "south", "east", "west")


@register
class FogMaze(MultiTurnTask):
    id = "games/fog_maze"
    family = "games"
    description = "Reach a known exit through a maze whose walls are revealed only from the cell you stand in."
    tags = ("games", "multi-turn", "exploration", "partial-observation", "grid")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    public_keys = ("rows", "cols", "start", "goal")  # the prompt states the size, the start and the exit
    version = 4  # v4: the turn budget is fixed by the level (v3's was the hidden shortest route plus the spare turns)
    honest_win_share = 0.9  # optimistic route planning (the honest player) runs out of turns in ~1 maze of 60

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        explore: float  # spare turns, as a share of the cells
        route: float  # the turns allowed for the route itself, as a share of the cells (longer shortest routes redrawn)
        loops: float = 0.0
        followers_lose: bool = False  # keep only mazes no wall follower (either hand, any first heading) solves in time

    presets = (
        Config(3, 4, 1.25, 0.75),
        Config(4, 5, 0.95, 0.75),
        Config(5, 6, 0.75, 0.75),
        Config(6, 6, 0.65, 0.75, 0.1),
        Config(7, 7, 0.45, 0.45, 0.15, True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            maze = random_maze(rng, config.rows, config.cols, config.loops)
            links = maze.links()
            start = rng.randrange(config.rows * config.cols)
            distance, _ = cell_distances(links, start)
            far = max(distance)
            goal = rng.choice([cell for cell, d in enumerate(distance) if d >= max(2, far * 3 // 4)])
            route = math.ceil(config.route * config.rows * config.cols)
            if distance[goal] > route:
                return None
            data = {"rows": config.rows, "cols": config.cols, "links": [sorted(x) for x in links], "start": start,
                    "goal": goal, "shortest": distance[goal], "turns": _budget(config),
                    "spare": math.ceil(config.explore * config.rows * config.cols)}
            if config.followers_lose and any(_wall_follower_arrives(data, hand, heading)
                                             for hand in (1, -1) for heading in range(4)):
                return None
            return data

        data = retry(draw, what="a maze whose shortest route fits the route allowance (and that wall following does "
                                "not solve in time, from the top preset on)")
        start, goal = data["start"], data["goal"]
        prompt = (
            f"You are in a maze of {config.rows} rows and {config.cols} columns of cells (row 1 is the top, column 1 "
            "the left). You cannot see the walls: you only learn which ways are open from the cell you are in. "
            f"You are at {_name(data, start)}; the exit is at {_name(data, goal)}. {_exits(data, start)}\n\n"
            f"Each turn, move one cell: north, south, east or west (N, S, E, W). Walking into a wall wastes the turn. "
            f"You have {data['turns']} turns to reach the exit. For example: N"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Cells over the level's spare turns times log2 of the cells, plus a tenth of the shortest path's length."""
        data = problem.data
        cells = data["rows"] * data["cols"]
        return cells / data["spare"] * math.log2(cells) + data["shortest"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"at": problem.data["start"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        steps: list[str] | None = read_move_answer(move, lambda text: read_tokens(text, SPELLINGS, max_count=1))
        if not steps:
            return Outcome.invalid(state, "write one move: north, south, east or west")
        here = state["at"]
        target = _neighbour(data, here, steps[0])
        if target is None or target not in data["links"][here]:
            return Outcome(state, Verdict.wrong("wall"), f"A wall blocks the way {steps[0]}. {_exits(data, here)}")
        if target == data["goal"]:
            return Outcome({"at": target}, Verdict.right(), f"You reach the exit at {_name(data, target)}!", True)
        return Outcome({"at": target}, Verdict.wrong("moving"), f"You are at {_name(data, target)}. "
                                                                f"{_exits(data, target)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        distance, _ = cell_distances(data["links"], data["goal"])
        here = state["at"]
        nxt = min(data["links"][here], key=lambda cell: (distance[cell], cell))
        return next(direction for direction in ORDER if _neighbour(data, here, direction) == nxt)


    def heuristics(self) -> dict[str, Policy]:
        return {"right hand on the wall": _follower_policy(1), "left hand on the wall": _follower_policy(-1)}

    def honest_move(self, view: View) -> str:
        """Walk the shortest route to the exit through the walls seen so far, cells not yet visited assumed open."""
        data = view.public
        rows, cols = data["rows"], data["cols"]
        known: dict[int, set[str]] = {}
        here = data["start"]
        for text in [view.prompt, *view.observations]:
            found = _POSITION.findall(text)
            if found:
                row, col = found[-1]
                here = (int(row) - 1) * cols + int(col) - 1
            ways = _WAYS.search(text)
            if ways:
                known[here] = set(ways.group(1).split(", "))
        # Breadth-first search back from the exit: a visited cell's open ways only, unvisited cells every way.
        distance = {data["goal"]: 0}
        queue = deque([data["goal"]])
        while queue:
            cell = queue.popleft()
            for direction in ORDER:
                other = _neighbour(data, cell, direction)
                if other is None or other in distance:
                    continue
                back = {"north": "south", "south": "north", "east": "west", "west": "east"}[direction]
                if (cell in known and direction not in known[cell]) or (other in known and back not in known[other]):
                    continue
                distance[other] = distance[cell] + 1
                queue.append(other)
        options = [d for d in ORDER if _neighbour(data, here, d) is not None
                   and (here not in known or d in known[here])]
        return min(options, key=lambda d: distance.get(_neighbour(data, here, d), rows * cols + 1))


def _budget(config: FogMaze.Config) -> int:
    """The turn budget, fixed by the level: the route allowance plus the spare turns, each a share of the cells (version 3's
    was the maze's shortest route plus the spare turns, which every "(N turns left)" then told exactly)."""
    cells = config.rows * config.cols
    return math.ceil(config.route * cells) + math.ceil(config.explore * cells)


_POSITION = re.compile(r"(?:You are at|You reach the exit at) row (\d+), column (\d+)")
_WAYS = re.compile(r"Open ways from here: ([a-z, ]+)\.")


def _name(data: dict[str, Any], cell: int) -> str:
    row, col = divmod(cell, data["cols"])
    return f"row {row + 1}, column {col + 1}"


def _neighbour(data: dict[str, Any], cell: int, direction: str) -> int | None:
    rows, cols = data["rows"], data["cols"]
    row, col = divmod(cell, cols)
    dr, dc = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}[direction]
    if not (0 <= row + dr < rows and 0 <= col + dc < cols):
        return None
    return (row + dr) * cols + col + dc


_HEADINGS = ("north", "east", "south", "west")  # clockwise


def _wall_follower_arrives(data: dict[str, Any], hand: int, heading: int) -> bool:
    """Whether the wall follower (``hand`` 1: right hand on the wall, -1: left hand), first facing ``_HEADINGS[heading]``,
    reaches the exit within the turn budget (it sees the open ways, so it never walks into a wall)."""
    here = data["start"]
    for _ in range(data["turns"]):
        for turn in (hand, 0, -hand, 2):
            direction = _HEADINGS[(heading + turn) % 4]
            target = _neighbour(data, here, direction)
            if target is not None and target in data["links"][here]:
                heading, here = (heading + turn) % 4, target
                break
        if here == data["goal"]:
            return True
    return False


def _follower_policy(hand: int) -> Policy:
    """The wall follower as a player: it reads the open ways it was last told and faces the way it last moved."""

    def policy(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
        text = history[-1][1] if history else problem.prompt
        ways = _WAYS.search(text)
        open_ways = ways.group(1).split(", ") if ways else list(_HEADINGS)
        heading = _HEADINGS.index(history[-1][0]) if history and history[-1][0] in _HEADINGS else 0
        return next((_HEADINGS[(heading + t) % 4] for t in (hand, 0, -hand, 2)
                     if _HEADINGS[(heading + t) % 4] in open_ways), "north")

    return policy


def _exits(data: dict[str, Any], cell: int) -> str:
    open_ways = [d for d in ORDER if _neighbour(data, cell, d) in data["links"][cell]]
    return f"Open ways from here: {', '.join(open_ways)}."
