"""A shortest walk between two cells of a hexagonal board with blocked cells, in axial coordinates.

The board is every cell ``(q, r)`` with ``max(|q|, |r|, |q + r|) <= R`` (a hexagon of radius R around the
origin); some cells are blocked. The six neighbours of ``(q, r)`` are named in the prompt: E ``(q+1, r)``,
W ``(q-1, r)``, NE ``(q+1, r-1)``, NW ``(q, r-1)``, SE ``(q, r+1)`` and SW ``(q-1, r+1)``. The answer is a
walk, a list of those directions, from the start to the goal; many walks are shortest and any is right. The
verifier replays it: every step must stay on the board and off blocked cells, the walk must end on the goal,
and its length must equal the shortest distance found by breadth-first search at generation. Blocked cells are
redrawn until they force a detour (the shortest walk is longer than the hex distance ``(|dq| + |dr| +
|dq + dr|) / 2`` with no cells blocked), so the textbook formula alone does not solve it. From level 2 they are
also redrawn until no greedy walk is shortest: a greedy walk steps each time to a free neighbour nearest the goal
(by the free hex distance), ties broken any way; the kit runs it (ties in the prompt's direction order) as the
declared heuristic.

Version 2: v1 forced a detour only, and the greedy walk (ties in the prompt's order) still found a shortest walk
for 0.80 of level 0, 0.68 of level 2 and 0.48 of level 4 (the top): sidestepping a blocked cell is often the
shortest detour. Levels 2 and up now draw boards where every greedy walk (any tie-breaking) is longer.

Difficulty: the cells breadth-first search settles before it reaches the goal, on the drawn board.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.moves import read_tokens
from palaestra.verifiers.sets import read_list

EXAMPLE = "SW, SW, E, NE"  # a fixed placeholder of the right shape: never derived from the answer
DIRECTIONS = {"E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (0, 1), "SW": (-1, 1)}
_ALIASES = {name.lower(): name for name in DIRECTIONS} | {
    "east": "E", "west": "W", "northeast": "NE", "north-east": "NE", "northwest": "NW", "north-west": "NW",
    "southeast": "SE", "south-east": "SE", "southwest": "SW", "south-west": "SW"}

Hex = tuple[int, int]


def on_board(cell: Hex, radius: int) -> bool:
    q, r = cell
    return max(abs(q), abs(r), abs(q + r)) <= radius


def free_distance(a: Hex, b: Hex) -> int:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def greedy_shortest(start: Hex, goal: Hex, radius: int, blocked: set[Hex], steps: int) -> bool:
    """Whether some greedy walk (each step to a free neighbour nearest the goal, ties broken any way) reaches the
    goal in ``steps`` steps. Memoised on (cell, steps left): at most cells x steps states."""
    failed: set[tuple[Hex, int]] = set()

    def walk(cell: Hex, left: int) -> bool:
        if cell == goal:
            return True
        if left == 0 or free_distance(cell, goal) > left or (cell, left) in failed:
            return False
        free = [(cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS.values()]
        free = [step for step in free if step not in blocked and on_board(step, radius)]
        if free:
            nearest = min(free_distance(step, goal) for step in free)
            if any(walk(step, left - 1) for step in free if free_distance(step, goal) == nearest):
                return True
        failed.add((cell, left))
        return False

    return walk(start, steps)


def greedy_walk(start: Hex, goal: Hex, radius: int, blocked: set[Hex]) -> list[str]:
    """The greedy walk with ties broken in the prompt's direction order, stopped after 4 * radius steps."""
    walk: list[str] = []
    cell = start
    while cell != goal and len(walk) < 4 * radius:
        free = [(name, (cell[0] + dq, cell[1] + dr)) for name, (dq, dr) in DIRECTIONS.items()]
        free = [(name, step) for name, step in free if step not in blocked and on_board(step, radius)]
        if not free:
            break
        name, cell = min(free, key=lambda item: free_distance(item[1], goal))
        walk.append(name)
    return walk


def shortest(start: Hex, goal: Hex, radius: int, blocked: set[Hex]) -> tuple[int | None, int]:
    """The fewest steps from ``start`` to ``goal`` (None if unreachable) and the cells settled finding it."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            return seen[cell], len(seen)
        for dq, dr in DIRECTIONS.values():
            step = (cell[0] + dq, cell[1] + dr)
            if step not in seen and step not in blocked and on_board(step, radius):
                seen[step] = seen[cell] + 1
                queue.append(step)
    return None, len(seen)


def read_walk(text: str) -> list[str] | None:
    r"""The steps of a walk: ``NE, W``, ``NE W``, ``north-east, west``, also ``NE -> W`` or a numbered list.

    >>> read_walk("NE -> W -> SW"), read_walk("1. NE\n2. W"), read_walk("NE, X")
    (['NE', 'W', 'SW'], ['NE', 'W'], None)
    """
    walk = read_list(text, lambda item: _ALIASES.get(item.strip().lower()), space_separated=True, max_items=500)
    return walk if walk is not None else read_tokens(text, _ALIASES, max_count=500)


@register
class HexDistance(Task):
    id = "spatial/hex_distance"
    family = "spatial"
    description = "A shortest walk between two cells of a hexagonal board around blocked cells (any shortest)."
    tags = ("spatial", "hex-grid", "shortest-path")

    @dataclass(frozen=True)
    class Config:
        radius: int  # the board is a hexagon of this radius
        blocked: int  # blocked cells
        beat_greedy: bool = False  # redraw until no greedy walk (any tie-breaking) is shortest

    version = 2
    presets = (Config(3, 4), Config(4, 9), Config(5, 15, True), Config(6, 24, True), Config(7, 34, True))
    growth = Growth(steps={"radius": 1, "blocked": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        board = [(q, r) for q in range(-config.radius, config.radius + 1)
                 for r in range(-config.radius, config.radius + 1) if on_board((q, r), config.radius)]

        def draw() -> tuple[Hex, Hex, set[Hex], int, int] | None:
            start, goal = rng.sample(board, 2)
            if free_distance(start, goal) < config.radius:
                return None
            blocked = set(rng.sample([c for c in board if c not in (start, goal)], config.blocked))
            steps, settled = shortest(start, goal, config.radius, blocked)
            if steps is None or steps <= free_distance(start, goal):
                return None
            if config.beat_greedy and greedy_shortest(start, goal, config.radius, blocked, steps):
                return None
            return start, goal, blocked, steps, settled

        start, goal, blocked, steps, settled = retry(draw, what="a board whose blocked cells force a detour")
        cells = ", ".join(f"({q}, {r})" for q, r in sorted(blocked))
        prompt = (
            f"A hexagonal board holds every cell (q, r) with max(|q|, |r|, |q + r|) <= {config.radius}. From "
            "(q, r) one step goes to a neighbour: E (q+1, r), W (q-1, r), NE (q+1, r-1), NW (q, r-1), SE (q, r+1) "
            f"or SW (q-1, r+1). These cells are blocked: {cells}.\n\nFind a shortest walk from {start} to {goal} "
            "that stays on the board and never enters a blocked cell. Answer with the steps in order, separated "
            f"by commas; any shortest walk is accepted. For example: {EXAMPLE}"
        )
        walk = self._a_shortest_walk(start, goal, config.radius, blocked)
        return Problem(prompt=prompt, answer=", ".join(walk), data={
            "radius": config.radius, "start": list(start), "goal": list(goal),
            "blocked": sorted(map(list, blocked)), "steps": steps, "settled": settled})

    @staticmethod
    def _a_shortest_walk(start: Hex, goal: Hex, radius: int, blocked: set[Hex]) -> list[str]:
        parent: dict[Hex, tuple[Hex, str] | None] = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if cell == goal:
                break
            for name, (dq, dr) in DIRECTIONS.items():
                step = (cell[0] + dq, cell[1] + dr)
                if step not in parent and step not in blocked and on_board(step, radius):
                    parent[step] = (cell, name)
                    queue.append(step)
        walk, cell = [], goal
        while parent[cell] is not None:
            cell, name = parent[cell]  # type: ignore[misc]
            walk.append(name)
        return walk[::-1]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def greedy(problem: Problem) -> str:
            data = problem.data
            blocked = {tuple(cell) for cell in data["blocked"]}
            return ", ".join(greedy_walk(tuple(data["start"]), tuple(data["goal"]), data["radius"], blocked))

        return {"greedy toward the goal": greedy}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        walk = read_walk(answer)
        if walk is None:
            return Verdict.unparsed(f"expected directions among {', '.join(DIRECTIONS)} separated by commas")
        data = problem.data
        blocked = {tuple(cell) for cell in data["blocked"]}
        cell = tuple(data["start"])
        for number, name in enumerate(walk, 1):
            cell = (cell[0] + DIRECTIONS[name][0], cell[1] + DIRECTIONS[name][1])
            if not on_board(cell, data["radius"]):
                return Verdict.wrong(f"step {number} leaves the board")
            if cell in blocked:
                return Verdict.wrong(f"step {number} enters the blocked cell {cell}")
        if list(cell) != data["goal"]:
            return Verdict.wrong(f"the walk ends at {cell}, not at the goal")
        if len(walk) != data["steps"]:
            return Verdict.wrong(f"the walk reaches the goal in {len(walk)} steps; a shorter one exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Cells breadth-first search settles before reaching the goal."""
        return float(problem.data["settled"])

    def spellings(self, problem: Problem) -> list[str]:
        walk = (problem.answer or "").split(", ")
        long = {"E": "east", "W": "west", "NE": "north-east", "NW": "north-west", "SE": "south-east",
                "SW": "south-west"}
        return [*super().spellings(problem), " ".join(walk), ", ".join(w.lower() for w in walk),
                ", ".join(long[w] for w in walk), f"[{', '.join(walk)}]", f"Answer: {', '.join(walk)}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        walk = (problem.answer or "").split(", ")
        opposite = {"E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}
        candidates = [", ".join(walk[:-1]), ", ".join([*walk, opposite[walk[-1]], walk[-1]]),
                      ", ".join(walk[::-1]), ", ".join(opposite[w] for w in walk)]
        return [c for c in candidates if c and not self.verify(problem, c).correct]
