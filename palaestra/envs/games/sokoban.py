"""Sokoban: push every box onto a goal, one move per turn, with the board shown after each.

The warehouse is drawn with ``#`` walls, ``-`` floor, ``.`` goals, ``$`` boxes, ``*`` a box on a
goal, ``@`` the player and ``+`` the player on a goal. The player moves up, down, left or right
(``U D L R``); walking into a box pushes it one cell if the cell beyond is floor or a goal
(never into a wall or another box, and boxes cannot be pulled). Each turn the model writes ONE
move (``U``, ``up``, ``move left``); a reply holding several moves (a whole plan) is refused with
an observation saying so and costs the turn, so the game is played one move at a time against
the board shown after each (as a plan written at once, it would be ``planning/sokoban``). A
blocked move leaves everything where it was. ``restart`` puts everything back where it started
(and costs a turn). Reward 1 when every box is on a goal.

Levels come from reverse play: boxes start on the goals and a player pulls them around at
random; reversing the pulls (walking the shortest way between them) gives a solution, stored
with the problem, so every level is solvable and the oracle replays that solution, one move
per turn. The turn budget is the solution's moves plus half as many again and ten (room for
detours and a restart). Levels grow the room, the boxes and the pulls. The difficulty measure
is the number of pushes in that solution.

Generation speed: about 230 problems/s at level 4 on this 2-core machine. Each warehouse is made by pulling boxes
back from their goals, and the pulls are turned into a solution by walking the player's shortest way to each box (a
breadth-first search per push) and cutting detours; about half the rooms are redrawn because a box ends on a goal.
The solution is kept because it proves the warehouse solvable.
"""

from __future__ import annotations

import functools
import random
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.generators.grids import MOVES
from palaestra.generators.sokoban import Square, picture, push, solved
from palaestra.verifiers.moves import read_move_answer, read_tokens

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
SPELLINGS = {**{k: k for k in MOVES}, "up": "U", "down": "D", "left": "L", "right": "R"}
MAX_STEPS = 100


@register
class Sokoban(MultiTurnTask):
    id = "games/sokoban"
    family = "games"
    description = "Push every box onto a goal in a generated Sokoban warehouse, with the board shown after each turn."
    tags = ("games", "multi-turn", "planning", "grid")
    version = 2
    one_move_per_turn = True

    @dataclass(frozen=True)
    class Config:
        size: int  # the room is size x size cells inside its outer wall
        boxes: int
        pulls: int  # random pulls made from the solved position
        walls: int  # extra wall cells inside the room

    presets = (Config(5, 1, 8, 2), Config(5, 2, 12, 2), Config(6, 2, 18, 3), Config(6, 3, 24, 4), Config(7, 3, 36, 6))
    # Capped at level 14's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"size": 17, "boxes": 13, "pulls": 156, "walls": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            walls = _room(rng, config)
            if walls is None:
                return None
            floor = [(r, c) for r in range(config.size + 2) for c in range(config.size + 2) if (r, c) not in walls]
            goals = rng.sample(floor, config.boxes)
            player = rng.choice([cell for cell in floor if cell not in goals])
            boxes, player, pulls = _scramble(rng, walls, list(goals), player, config.pulls)
            if any(box in goals for box in boxes):
                return None  # every box must need pushing
            solution = _solution(walls, boxes, player, pulls)
            return {"walls": sorted(walls), "goals": sorted(goals), "boxes": sorted(boxes), "player": player,
                    "solution": solution}

        made = retry(draw, what="a scrambled warehouse with every box off its goal")
        data = {
            "size": config.size + 2,
            "walls": [list(cell) for cell in made["walls"]],
            "goals": [list(cell) for cell in made["goals"]],
            "boxes": [list(cell) for cell in made["boxes"]],
            "player": list(made["player"]),
            "solution": made["solution"],
        }
        prompt = (
            "Let's play Sokoban. Push every box onto a goal. Legend: '#' wall, '-' floor, '.' goal, '$' box, "
            "'*' box on a goal, '@' you, '+' you on a goal.\n\n"
            f"{_picture(data, data['boxes'], data['player'])}\n\n"
            "You move up (U), down (D), left (L) or right (R). Walking into a box pushes it one cell, if the cell "
            "beyond it is free floor or a goal; boxes cannot be pulled. Each turn, write exactly one move, for "
            "example: U (a reply with several moves is refused and costs the turn); the board is shown after every "
            "move. Write restart to put everything back as it was at the start. You have "
            f"{self._budget(_steps(data['solution']))} turns."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    @staticmethod
    def _budget(moves: int) -> int:
        return moves + moves // 2 + 10

    def max_turns(self, problem: Problem) -> int:
        return self._budget(_steps(problem.data["solution"]))

    def difficulty(self, problem: Problem) -> float:
        return float(len(problem.data["solution"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"boxes": problem.data["boxes"], "player": problem.data["player"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        if move.strip().lower().rstrip(".") in ("restart", "reset"):
            state = self.initial_state(problem)
            return Outcome(state, Verdict.wrong("restarted"), f"Restarted.\n{_picture(data, state['boxes'], state['player'])}")
        steps: list[str] | None = read_move_answer(
            move, lambda text: read_tokens(_MOVE_VERB.sub("", text, count=1), SPELLINGS, max_count=MAX_STEPS))
        if not steps:
            why = "write one move as a letter U, D, L or R (or up, down, left, right), or restart"
            return Outcome.invalid(state, why)
        if len(steps) > 1:
            why = f"one move per turn, and the reply holds {len(steps)} moves; nothing was moved"
            return Outcome.invalid(state, why)
        walls = {tuple(cell) for cell in data["walls"]}
        boxes: Sequence[Square] = [tuple(box) for box in state["boxes"]]
        player: Square = tuple(state["player"])
        moved = push(lambda square: square not in walls, player, boxes, steps[0])
        if not isinstance(moved, str):
            player, boxes = moved
        state = {"boxes": sorted([list(b) for b in boxes]), "player": list(player)}
        picture = _picture(data, state["boxes"], state["player"])
        said = f"Blocked: nothing moved {_NAMES[steps[0]]}." if isinstance(moved, str) else f"Moved {_NAMES[steps[0]]}."
        if solved(boxes, {tuple(goal) for goal in data["goals"]}):
            return Outcome(state, Verdict.right(), f"{said} Every box is on a goal: solved!\n{picture}", True)
        return Outcome(state, Verdict.wrong("not solved"), f"{said}\n{picture}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        walls = frozenset(tuple(cell) for cell in data["walls"])
        boxes = tuple(sorted(tuple(box) for box in data["boxes"]))
        steps = _solution_steps(walls, boxes, tuple(data["player"]), "".join(data["solution"]))
        here = (tuple(sorted(tuple(b) for b in state["boxes"])), tuple(state["player"]))
        return steps.get(here, "restart")  # off the solution (only after other moves): start again


@functools.lru_cache(maxsize=64)
def _solution_steps(walls: frozenset[Square], boxes: tuple[Square, ...], player: Square,
                    solution: str) -> dict[tuple[tuple[Square, ...], Square], str]:
    """Each position on the stored solution's path, with the solution's move from its last visit there (the oracle
    plays on from the last point of the solution the state is at). Once per problem, not once per move: replaying
    the solution at every move made an episode quadratic in its length."""
    steps = {}
    for step in solution:
        steps[(boxes, player)] = step
        after = push(lambda square: square not in walls, player, boxes, step)
        if not isinstance(after, str):
            player, boxes = after
    return steps


_MOVE_VERB = re.compile(r"^\s*(?:move|go|push|step)\s+", re.IGNORECASE)
_NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}


def _steps(solution: list[str]) -> int:
    """The number of single moves in the stored solution (its walks and pushes)."""
    return sum(len(segment) for segment in solution)


def _room(rng: random.Random, config: Sokoban.Config) -> set[tuple[int, int]] | None:
    """Wall cells: the outer wall plus ``config.walls`` inner ones, keeping the floor connected."""
    n = config.size + 2
    walls = {(r, c) for r in range(n) for c in range(n) if r in (0, n - 1) or c in (0, n - 1)}
    inner = [(r, c) for r in range(1, n - 1) for c in range(1, n - 1)]
    walls |= set(rng.sample(inner, config.walls))
    floor = [cell for cell in inner if cell not in walls]
    return walls if len(_reach(walls, set(), floor[0])) == len(floor) else None


def _reach(walls: set[tuple[int, int]], boxes: set[tuple[int, int]], start: tuple[int, int]) -> dict[tuple[int, int], str]:
    """Cells the player reaches from ``start`` without pushing, each with a shortest route of moves."""
    routes = {start: ""}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for letter, (dr, dc) in MOVES.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if nxt not in routes and nxt not in walls and nxt not in boxes:
                routes[nxt] = routes[cell] + letter
                queue.append(nxt)
    return routes


def _scramble(rng: random.Random, walls: set[tuple[int, int]], boxes: list[tuple[int, int]], player: tuple[int, int],
              pulls: int) -> tuple[list[tuple[int, int]], tuple[int, int], list[tuple[int, str]]]:
    """Random pulls from the solved position: (boxes, player, the pulls as (box index, the push undoing it))."""
    done: list[tuple[int, str]] = []
    for _ in range(pulls * 4):
        if len(done) == pulls:
            break
        reach = _reach(walls, set(boxes), player)
        options = []
        for index, (r, c) in enumerate(boxes):
            for letter, (dr, dc) in MOVES.items():
                stand, back = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)  # the player pulls by stepping away
                if stand in reach and back not in walls and back not in boxes:
                    options.append((index, stand, back, letter))
        if not options:
            break
        index, stand, back, letter = rng.choice(options)
        boxes[index] = stand
        player = back
        # Undoing this pull is a push from `back` towards the box: the opposite of `letter`.
        done.append((index, OPPOSITE[letter]))
    return boxes, player, done


def _solution(walls: set[tuple[int, int]], boxes: list[tuple[int, int]], player: tuple[int, int],
              pulls: list[tuple[int, str]]) -> list[str]:
    """The pulls undone in reverse order, each as one segment (walk the shortest way to the box, push it),
    with every detour that comes back to an earlier position cut out."""
    pushes = [(index, push) for index, push in reversed(pulls)]
    for _ in range(len(pushes) + 1):  # each pass cuts a detour or stops
        positions: dict[tuple[Any, ...], int] = {}
        replay_boxes, replay_player = list(boxes), player
        cut = None
        for k in range(len(pushes) + 1):
            routes = _reach(walls, set(replay_boxes), replay_player)
            key = (*replay_boxes, min(routes))  # each box where it is, and the region the player can walk in
            if key in positions:
                cut = (positions[key], k)
                break
            positions[key] = k
            if k < len(pushes):
                replay_boxes, replay_player = _push(walls, replay_boxes, replay_player, *pushes[k], routes)[1:]
        if cut is None:
            break
        pushes = pushes[: cut[0]] + pushes[cut[1]:]
    segments = []
    for index, direction in pushes:
        route, boxes, player = _push(walls, boxes, player, index, direction, _reach(walls, set(boxes), player))
        segments.append(route)
    return segments


def _push(walls: set[tuple[int, int]], boxes: list[tuple[int, int]], player: tuple[int, int], index: int, push: str,
          routes: dict[tuple[int, int], str]) -> tuple[str, list[tuple[int, int]], tuple[int, int]]:
    """Walk to box ``index`` and push it once: (the moves, boxes, player)."""
    dr, dc = MOVES[push]
    box = boxes[index]
    stand = (box[0] - dr, box[1] - dc)
    if stand not in routes:
        raise RuntimeError("a pull could not be undone")  # unreachable: the pushes replay legal pulls backwards
    route = routes[stand] + push
    boxes = list(boxes)
    boxes[index] = (box[0] + dr, box[1] + dc)
    return route, boxes, box


def _picture(data: dict[str, Any], boxes: list[list[int]], player: list[int]) -> str:
    walls = {(r, c) for r, c in data["walls"]}
    goals = {(r, c) for r, c in data["goals"]}
    return picture(walls, data["size"], data["size"], goals, {(r, c) for r, c in boxes}, (player[0], player[1]))
