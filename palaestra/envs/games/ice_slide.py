"""Ice slide: stop your token on the target square when every move slides until something blocks it.

A grid of ice with walls (``#``); your token ``S``, the target ``T`` and, from level 2 on, helper tokens
(``A``, ``B``) that can be moved too. Every move slides one token in a direction (north, south, east,
west) until the next square is a wall, another token or the grid's edge (Ricochet Robots rules);
sliding over the target does not count, the token must stop on it. Each turn the model writes one
move: a direction for its own token (``north``, ``n``, ``up``) or a helper and a direction (``A east``);
a move that does not shift anything, or an unreadable one, costs the turn. Reward 1 when ``S`` stops on
``T`` within the budget.

The reference is a breadth-first search over the tokens' squares, so its length is the fewest moves;
the budget is that plus the level's spare turns. Problems are kept when the fewest moves lie in the
level's range, and, with helpers, when no solution moving only ``S`` fits the level's longest budget
(the helpers are needed); without helpers (levels 0 and 1), when S cannot reach the target within the budget
by slides that never take it farther away, nor by a nearest-first rule (every time the slide leaving S nearest
the target, among all slides, those not undoing the last one, or those reaching a new square; ties either way).
Those rules won 0.25-0.37 (nearest slide) and 0.23-0.60 (nearest slide not undoing the last) of levels 0 and 1
before (random play 0.05 / 0), 0 after (30-40 games; every rule 0 at levels 2-4). The oracle replans from the
current position with the same search. Levels grow the grid and the fewest moves and add helpers. The difficulty measure is
the fewest moves plus the helpers plus a tenth of the grid's side.

Generation speed: about 340 problems/s at level 4 on this 2-core machine. Each drawn grid is solved by a breadth-
first search over the positions of all tokens (sliding until blocked) for the fewest moves, and about 3 in 4 grids
are redrawn because that count is outside the level's range or the target token solves it alone. The search is kept
because the level promises that many moves and the count sets the budget.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.verifiers.moves import read_command

STEPS = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
WORDS = {"north": "north", "n": "north", "up": "north", "south": "south", "s": "south", "down": "south",
         "east": "east", "e": "east", "right": "east", "west": "west", "w": "west", "left": "west"}
HELPERS = "AB"

Tokens = tuple[tuple[int, int], ...]  # your token first, then the helpers


@register
class IceSlide(MultiTurnTask):
    id = "games/ice_slide"
    family = "games"
    description = "Stop a sliding token on a target, moving it and helper tokens that slide until blocked."
    tags = ("games", "multi-turn", "planning", "grid", "puzzle")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2  # v2: without helpers, a grid a nearest-first rule or a route never moving away solves is redrawn

    @dataclass(frozen=True)
    class Config:
        size: int
        helpers: int
        fewest: tuple[int, int]  # range of the fewest moves
        spare: int

    presets = (Config(6, 0, (3, 5), 1), Config(7, 0, (4, 6), 1), Config(7, 1, (4, 6), 1), Config(8, 1, (5, 7), 1),
               Config(8, 1, (6, 8), 1))
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        data = retry(lambda: _draw(rng, config), what=f"an ice grid solved in {config.fewest} moves", attempts=1000)
        data["budget"] = data["plan"] + config.spare
        helpers = "" if not config.helpers else (
            f" The helper token{'s' if config.helpers > 1 else ''} {', '.join(HELPERS[:config.helpers])} can be moved "
            "the same way (write the letter and a direction, for example: A east).")
        prompt = (
            "You slide your token S on an icy grid. A move slides a token in one direction (north, south, east or "
            "west) until the next square is a wall (#), another token or the edge of the grid. Stop S on the target "
            f"T (sliding over it does not count).{helpers}\n\n{_picture(data, _tokens(data['tokens']))}\n\n"
            f"Row 1 is the top row. You have {data['budget']} turns; a move that shifts nothing also takes a turn, "
            "and only stopping S on T scores.\nEach turn, write one move, for example: north"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return problem.data["plan"] + len(problem.data["tokens"]) - 1 + len(problem.data["grid"]) / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"tokens": problem.data["tokens"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        helpers = len(data["tokens"]) - 1
        command = read_command(move, lambda words: _parse(words, helpers), articles=True)
        if command is None:
            example = " or a helper and a direction (A east)" if helpers else ""
            return Outcome.invalid(state, f"write one move: north, south, east or west{example}")
        index, direction = command
        tokens = _tokens(state["tokens"])
        after = _slide(data["grid"], tokens, index, direction)
        name = "S" if index == 0 else HELPERS[index - 1]
        if after == tokens:
            return Outcome(state, Verdict.wrong("no progress"), f"{name} cannot slide {direction}: nothing moves.")
        new_state = {"tokens": [list(t) for t in after]}
        said = f"{name} slides {direction}."
        if after[0] == tuple(data["target"]):
            return Outcome(new_state, Verdict.right(), f"{said} S stops on the target: you win!", True)
        return Outcome.goes_on(new_state, f"{said}\n{_picture(data, after)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        route = _search(problem.data["grid"], _tokens(state["tokens"]), tuple(problem.data["target"]),
                        limit=problem.data["budget"])
        if not route:
            return "north"  # off the oracle's line only
        index, direction = route[0]
        return direction if index == 0 else f"{HELPERS[index - 1]} {direction}"


def _tokens(raw: list[list[int]]) -> Tokens:
    return tuple((r, c) for r, c in raw)


def _parse(words: list[str], helpers: int) -> tuple[int, str] | None:
    if len(words) == 2 and words[0] in ("go", "move", "slide"):
        words = words[1:]
    if len(words) == 1 and words[0] in WORDS:
        return 0, WORDS[words[0]]
    if len(words) >= 2 and words[0] in ("move", "slide") and len(words[1]) == 1:
        words = words[1:]
    if len(words) == 2 and len(words[0]) == 1 and words[0].upper() in HELPERS[:helpers] and words[1] in WORDS:
        return HELPERS.index(words[0].upper()) + 1, WORDS[words[1]]
    if len(words) == 2 and words[0] == "s" and words[1] in WORDS:
        return 0, WORDS[words[1]]
    return None


def _slide(grid: list[str], tokens: Tokens, index: int, direction: str) -> Tokens:
    dr, dc = STEPS[direction]
    r, c = tokens[index]
    size = len(grid)
    others = set(tokens[:index] + tokens[index + 1:])
    while 0 <= r + dr < size and 0 <= c + dc < size and grid[r + dr][c + dc] != "#" and (r + dr, c + dc) not in others:
        r, c = r + dr, c + dc
    return tokens[:index] + ((r, c),) + tokens[index + 1:]


def _rays(grid: list[str], square: tuple[int, int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per direction (in the order of STEPS), the squares a token on ``square`` slides over when no other token
    is in the way, in order."""
    size = len(grid)
    lines = []
    for dr, dc in STEPS.values():
        line = []
        r, c = square[0] + dr, square[1] + dc
        while 0 <= r < size and 0 <= c < size and grid[r][c] != "#":
            line.append((r, c))
            r, c = r + dr, c + dc
        lines.append(tuple(line))
    return tuple(lines)


def _search(grid: list[str], start: Tokens, target: tuple[int, int], movers: int | None = None,
            limit: int = 14) -> list[tuple[int, str]] | None:
    """The fewest moves (token index, direction) that stop token 0 on ``target`` (breadth first), or None within
    ``limit``; ``movers`` restricts the tokens that may move to the first ``movers``. Each move is ``_slide``
    read off the rays of the token's square, worked out once per square: a token stops on the last square of
    its ray before another token."""
    count = len(start) if movers is None else movers
    rays: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {}  # per square reached: its _rays
    directions = list(enumerate(STEPS))
    parent: dict[Tokens, tuple[Tokens, tuple[int, str]] | None] = {start: None}
    frontier = [start]
    for _ in range(limit):
        following = []
        for tokens in frontier:
            for index in range(count):
                here = tokens[index]
                others = tokens[:index] + tokens[index + 1:]
                lines = rays.get(here)
                if lines is None:
                    lines = rays[here] = _rays(grid, here)
                for way, direction in directions:
                    line = lines[way]
                    if not others:  # a lone token slides to the end of its ray
                        stop = line[-1] if line else here
                    else:
                        stop = here
                        for square in line:
                            if square in others:
                                break
                            stop = square
                    after = tokens[:index] + (stop,) + tokens[index + 1:]
                    if after in parent:
                        continue
                    parent[after] = (tokens, (index, direction))
                    if after[0] == target:
                        route, node = [], parent[after]
                        while node is not None:
                            route.append(node[1])
                            node = parent[node[0]]
                        return route[::-1]
                    following.append(after)
        frontier = following
    return None


def _draw(rng: random.Random, config: IceSlide.Config) -> dict[str, Any] | None:
    size = config.size
    grid = ["".join("#" if rng.random() < 0.15 else "." for _ in range(size)) for _ in range(size)]
    free = [(r, c) for r in range(size) for c in range(size) if grid[r][c] == "."]
    if len(free) < config.helpers + 2:
        return None
    picks = rng.sample(free, config.helpers + 2)
    target, tokens = picks[0], tuple(picks[1:])
    # Moving S alone is the cheap search: with helpers, a grid S solves alone within the longest budget is dropped.
    if config.helpers and _search(grid, tokens, target, movers=1, limit=config.fewest[1] + config.spare) is not None:
        return None
    route = _search(grid, tokens, target, limit=config.fewest[1])
    if route is None or len(route) < config.fewest[0]:
        return None
    # Without helpers, drop a grid where S reaches the target by slides that never take it farther away (what
    # greedy players do), or by following the nearest slide every time (ties either way).
    if not config.helpers and _greedy_wins(grid, tokens, target, len(route) + config.spare):
        return None
    return {"grid": grid, "target": list(target), "tokens": [list(t) for t in tokens], "plan": len(route)}


GreedyState = tuple[tuple[int, int], str, frozenset[tuple[int, int]]]  # S's square, the last slide, squares visited
REVERSE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _greedy_wins(grid: list[str], tokens: Tokens, target: tuple[int, int], turns: int) -> bool:
    """Whether S alone stops on the target within ``turns`` slides by a route that never takes it farther from
    the target (Manhattan distance), or by a nearest-first rule: every time the slide leaving S nearest the target
    among those that move it (ties either way), among those that do not undo the last slide, or among those that
    reach a square not visited yet."""
    def away(square: tuple[int, int]) -> int:
        return abs(square[0] - target[0]) + abs(square[1] - target[1])

    start: GreedyState = (tokens[0], "", frozenset([tokens[0]]))
    states: dict[str, set[GreedyState]] = {rule: {start} for rule in ("closer", "nearest", "no undo", "unvisited")}
    for _ in range(turns):
        for rule, here_states in states.items():
            following = set()
            for square, last, visited in here_states:
                options = []
                for direction in STEPS:
                    after = _slide(grid, (square,) + tokens[1:], 0, direction)[0]
                    if after == target:
                        return True
                    if after != square:
                        options.append((after, direction))
                if rule == "closer":
                    options = [(after, way) for after, way in options if away(after) <= away(square)]
                elif rule == "no undo":
                    options = [(after, way) for after, way in options if way != REVERSE.get(last)]
                elif rule == "unvisited":
                    options = [(after, way) for after, way in options if after not in visited]
                if options and rule != "closer":
                    best = min(away(after) for after, _ in options)
                    options = [(after, way) for after, way in options if away(after) == best]
                following |= {(after, way, visited | {after}) for after, way in options}
            states[rule] = following
    return False


def _picture(data: dict[str, Any], tokens: Tokens) -> str:
    rows = [list(line) for line in data["grid"]]
    tr, tc = data["target"]
    rows[tr][tc] = "T"
    for index, (r, c) in enumerate(tokens):
        rows[r][c] = "S" if index == 0 else HELPERS[index - 1]
    header = "   " + " ".join(chr(97 + c) for c in range(len(rows[0])))
    return "\n".join([header] + [f"{r + 1:>2} " + " ".join(line) for r, line in enumerate(rows)])
