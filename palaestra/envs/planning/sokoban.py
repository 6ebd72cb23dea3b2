"""Sokoban as a single-turn plan: push every box onto a goal square.

A room is a rectangle with scattered inner walls (every floor square connected). The puzzle is
made backwards, so it is solvable by construction: boxes start on the goals, and the keeper
walks up to a random box and *pulls* it one to three squares, a few times over; playing those
steps in reverse pushes every box home. The answer is the keeper's whole walk as a string of moves ``U D L R`` (case is ignored,
so the LURD habit of capitals for pushes is fine); the verifier replays it
(:class:`palaestra.solvers.simulate.Rules`): the keeper may not walk into walls, may push one
box at a time and never a box into a wall or another box, and must leave every box on a goal.
Any solution scores. The difficulty measure is the length of a shortest solution, found at
generation by A* (heuristic: each box's distance to its nearest goal; squares from which no box
can ever be pushed to a goal are pruned); puzzles the search cannot settle in its budget are
drawn again.

Generation speed: about 95-150 problems/s at level 4 (depending on the machine's load) on this 2-core machine.
Each puzzle is solved by A* over keeper and box positions (about 60% of the time) to get the shortest plan its
difficulty measure needs and to reject puzzles the search cannot settle within its budget; the rest is drawing
rooms and backward pulls, about 5 of 6 of which are redrawn because the room is unusable or the pulls moved
too few boxes off their goals (the rules that make each puzzle need real pushing).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.planning.common import read_moves
from palaestra.generators.grids import MOVES
from palaestra.generators.sokoban import LEGEND, Square, picture, push, solved
from palaestra.solvers.simulate import Rules
from palaestra.verifiers.moves import read_tokens

MAX_MOVES = 2_000
SEARCH_BUDGET = 12_000
STEPS = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R"}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}

State = tuple[Square, tuple[Square, ...]]  # keeper, sorted boxes


@register
class Sokoban(Task):
    id = "planning/sokoban"
    version = 2
    family = "planning"
    description = "Solve a Sokoban puzzle: give the keeper's moves that push every box onto a goal."
    tags = ("planning", "puzzle", "grid", "search")

    @dataclass(frozen=True)
    class Config:
        rows: int  # inner floor area before walls are scattered
        cols: int
        boxes: int
        walls: float  # share of inner squares turned into walls
        pulls: int  # boxes pulled in the backward walk (each one to three squares)
        min_pushes: int  # squares pulled in all, at least

    presets = (
        Config(rows=4, cols=5, boxes=1, walls=0.1, pulls=3, min_pushes=3),
        Config(rows=5, cols=5, boxes=2, walls=0.12, pulls=4, min_pushes=4),
        Config(rows=5, cols=6, boxes=2, walls=0.12, pulls=6, min_pushes=6),
        Config(rows=6, cols=6, boxes=3, walls=0.12, pulls=6, min_pushes=7),
        Config(rows=6, cols=7, boxes=3, walls=0.12, pulls=9, min_pushes=9),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 4 to 5)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        grid, keeper, boxes, goals, plan = retry(lambda: _draw(rng, config), what="a Sokoban puzzle settled by search")
        answer = "".join(plan)
        example = "ULLDR"  # a fixed placeholder: independent of the answer
        prompt = (
            f"Solve this Sokoban puzzle ({LEGEND}):\n\n{_render(grid, keeper, boxes, goals)}\n\n"
            "The keeper moves one square up (U), down (D), left (L) or right (R) at a time and cannot walk into "
            "walls. Walking into a box pushes it one square further in the same direction, which is allowed only if "
            "that square is free floor (not a wall and not another box); boxes cannot be pulled. Push every box "
            "onto a goal square; any solution is accepted.\n"
            f"Give all the keeper's moves, in order, as a string of letters, for example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "grid": grid, "keeper": list(keeper), "boxes": [list(b) for b in boxes], "goals": [list(g) for g in goals],
            "shortest": len(plan),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        moves = read_moves(answer, STEPS, max_count=MAX_MOVES)
        if moves is None:
            return Verdict.unparsed("expected a string of moves U, D, L, R")
        run = _rules(problem).run(moves)
        if run.illegal is not None:
            return Verdict.wrong(f"move {run.illegal.index + 1} ({run.illegal.move}) {run.illegal.reason}")
        return Verdict.judge(run.solved, "not every box ends on a goal")

    def difficulty(self, problem: Problem) -> float:
        """Moves in a shortest solution."""
        return float(problem.data["shortest"])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), " ".join(gold), gold.lower(), ", ".join(gold),
                _lurd(problem), f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        rules = _rules(problem)
        start = rules.initial()
        blocked = [m for m in "UDLR" if rules.check(start, m) is not None]
        wrong = [gold[:-1], f"{gold} or {gold[:-1]}", gold[::-1]]
        if blocked:
            wrong.append(rng.choice(blocked) + gold)
        return [w for w in wrong if not rules.run(read_tokens(w, STEPS, max_count=MAX_MOVES) or []).solved]


class SokobanRules(Rules[State, str]):
    """The puzzle: the keeper walks and pushes; the goal is every box on a goal square."""

    def __init__(self, grid: list[str], keeper: Square, boxes: tuple[Square, ...], goals: tuple[Square, ...]) -> None:
        self.grid, self.keeper, self.boxes, self.goals = grid, keeper, tuple(sorted(boxes)), frozenset(goals)

    def initial(self) -> State:
        return self.keeper, self.boxes

    def moves(self, state: State) -> str:
        return "UDLR"

    def check(self, state: State, move: str) -> str | None:
        after = push(self._open, *state, move)
        return after if isinstance(after, str) else None

    def apply(self, state: State, move: str) -> State:
        after = push(self._open, *state, move)
        return state if isinstance(after, str) else after

    def _open(self, square: Square) -> bool:
        return _is_floor(self.grid, square)

    def goal(self, state: State) -> bool:
        return solved(state[1], self.goals)

    def heuristic(self, state: State) -> int:
        return sum(min(abs(b[0] - g[0]) + abs(b[1] - g[1]) for g in self.goals) for b in state[1])


def _rules(problem: Problem) -> SokobanRules:
    data = problem.data
    return SokobanRules(data["grid"], tuple(data["keeper"]), tuple(tuple(b) for b in data["boxes"]),
                        tuple(tuple(g) for g in data["goals"]))


def _floor(grid: list[str]) -> list[Square]:
    return [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"]


def _pullable_from(grid: list[str], goals: tuple[Square, ...]) -> set[Square]:
    """Squares from which a lone box can be pushed to some goal: pull boxes backwards from the goals."""
    reach = set(goals)
    queue = list(goals)
    for r, c in queue:
        for dr, dc in MOVES.values():
            box, keeper = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if box not in reach and _is_floor(grid, box) and _is_floor(grid, keeper):
                reach.add(box)
                queue.append(box)
    return reach


def _walkable(neighbours: dict[Square, list[Square]], keeper: Square, boxes: set[Square]) -> set[Square]:
    """Squares the keeper can walk to without moving a box (``neighbours``: each floor square's floor neighbours)."""
    seen = {keeper}
    queue = [keeper]
    for square in queue:
        for nxt in neighbours[square]:
            if nxt not in seen and nxt not in boxes:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _is_floor(grid: list[str], square: Square) -> bool:
    r, c = square
    return 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != "#"


def _room(rng: random.Random, config: Sokoban.Config) -> list[str] | None:
    rows, cols = config.rows + 2, config.cols + 2
    grid = [["#"] * cols] + [["#"] + ["-"] * config.cols + ["#"] for _ in range(config.rows)] + [["#"] * cols]
    inner = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
    for r, c in rng.sample(inner, round(config.walls * len(inner))):
        grid[r][c] = "#"
    room = ["".join(row) for row in grid]
    floor = _floor(room)
    seen = {floor[0]}
    queue = [floor[0]]
    for r, c in queue:
        for dr, dc in MOVES.values():
            nxt = (r + dr, c + dc)
            if nxt not in seen and _is_floor(room, nxt):
                seen.add(nxt)
                queue.append(nxt)
    return room if len(seen) == len(floor) else None


def _draw(rng: random.Random, config: Sokoban.Config) -> tuple | None:
    room = _room(rng, config)
    if room is None:
        return None
    floor = _floor(room)
    neighbours = {(r, c): [(r + dr, c + dc) for dr, dc in MOVES.values() if _is_floor(room, (r + dr, c + dc))]
                  for r, c in floor}
    goals = tuple(sorted(rng.sample(floor, config.boxes)))
    boxes = set(goals)
    keeper = rng.choice([sq for sq in floor if sq not in boxes])
    pushes = 0
    for _ in range(config.pulls):  # the backward walk: go next to a box, pull it a few squares
        box = rng.choice(sorted(boxes))
        dr, dc = MOVES[rng.choice("UDLR")]
        stand = (box[0] + dr, box[1] + dc)
        if stand not in _walkable(neighbours, keeper, boxes):
            continue
        keeper = stand
        for _ in range(rng.randint(1, 3)):
            back = (keeper[0] + dr, keeper[1] + dc)
            if not _is_floor(room, back) or back in boxes:
                break
            boxes.remove(box)
            box, keeper = keeper, back
            boxes.add(box)
            pushes += 1
    keeper = rng.choice(sorted(_walkable(neighbours, keeper, boxes)))  # wander off: the start need not touch a box
    if pushes < config.min_pushes or all(b in goals for b in boxes):
        return None
    start = tuple(sorted(boxes))
    plan = _shortest_plan(room, keeper, start, goals, SEARCH_BUDGET)
    return (room, keeper, start, goals, plan) if plan else None


def _shortest_plan(grid: list[str], keeper: Square, boxes: tuple[Square, ...], goals: tuple[Square, ...],
                   max_nodes: int) -> list[str] | None:
    """A shortest move string that puts every box on a goal, or None when there is none or the search
    expands more than ``max_nodes`` states.

    A* over (keeper, sorted boxes), with each box's distance to its nearest goal as the heuristic,
    moves tried in the order U, D, L, R, ties broken by insertion order and pushes of a box onto
    a square from which it can never reach a goal pruned: the plan
    :func:`palaestra.solvers.simulate.shortest_plan` finds on :class:`SokobanRules`, with squares
    numbered ``row * width + column`` to make each state cheap (the room's border is wall, so a
    step from a floor square never leaves the grid).

    >>> _shortest_plan(["#####", "#@$.#", "#####"], (1, 1), ((1, 2),), ((1, 3),), 100)
    ['R']
    """
    width = len(grid[0])
    floor = {r * width + c for r, c in _floor(grid)}
    dead = floor - {r * width + c for r, c in _pullable_from(grid, goals)}
    steps = [(move, dr * width + dc) for move, (dr, dc) in MOVES.items()]
    nearest = {r * width + c: min(abs(r - g[0]) + abs(c - g[1]) for g in goals) for r, c in _floor(grid)}
    target = tuple(sorted(r * width + c for r, c in goals))
    origin = (keeper[0] * width + keeper[1], tuple(sorted(r * width + c for r, c in boxes)))
    best = {origin: 0}
    parent: dict[tuple, tuple] = {}
    frontier = [(sum(nearest[b] for b in origin[1]), 0, 0, origin)]
    pushed = expanded = 0
    while frontier:
        estimate, cost, _, state = heapq.heappop(frontier)
        if cost > best[state]:
            continue  # a stale entry: a cheaper way to this state was found after it was queued
        at, placed = state
        if placed == target:
            plan = []
            while state != origin:
                state, move = parent[state]
                plan.append(move)
            return plan[::-1]
        expanded += 1
        if expanded > max_nodes:
            return None
        cost += 1
        estimate += 1  # a walk keeps the heuristic; a push changes it by the moved box's change only
        for move, step in steps:
            ahead = at + step
            if ahead not in floor:
                continue
            if ahead in placed:
                beyond = ahead + step
                if beyond not in floor or beyond in placed or beyond in dead:
                    continue
                after = (ahead, tuple(sorted(beyond if b == ahead else b for b in placed)))
                after_estimate = estimate - nearest[ahead] + nearest[beyond]
            else:
                after, after_estimate = (ahead, placed), estimate
            if cost < best.get(after, cost + 1):
                best[after] = cost
                parent[after] = (state, move)
                pushed += 1
                heapq.heappush(frontier, (after_estimate, cost, pushed, after))
    return None


def _render(grid: list[str], keeper: Square, boxes: tuple[Square, ...], goals: tuple[Square, ...]) -> str:
    walls = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "#"}
    return picture(walls, len(grid), len(grid[0]), goals, boxes, keeper)


def _lurd(problem: Problem) -> str:
    """The solution in LURD notation: lowercase for a walk, capitals for a push."""
    rules = _rules(problem)
    state, out = rules.initial(), []
    for move in problem.answer or "":
        dr, dc = MOVES[move]
        pushing = (state[0][0] + dr, state[0][1] + dc) in state[1]
        out.append(move if pushing else move.lower())
        state = rules.apply(state, move)
    return "".join(out)
