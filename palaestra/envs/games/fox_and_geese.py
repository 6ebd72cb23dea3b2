"""Fox and geese: play the geese on the cross board and trap the fox, which a search moves for its life.

The board is the cross of 33 points (a 7x7 grid without its four 2x2 corners; columns a to g,
rows 1 to 7 from the top), joined along rows and columns only. The model moves the geese (G), one
goose one step per turn: down or sideways to an empty point, never up. The fox (F) then moves one
step in any of the four directions, or jumps over a goose next to it onto the empty point straight
beyond, capturing it (one jump a turn). The geese win when the fox cannot move: reward 1 on the
goose move that leaves it without a step or a jump; 0 if the turns run out. An unreadable move, a
point with no goose, or a step up, off the board or onto an occupied point costs the turn.
A move is written as the goose's point and its target (``d3 d4``, ``d3-d4``, ``d3 to d4``).

Positions are drawn at generation: the fox somewhere on the cross, geese around it and a few further
away, kept when
the geese have a *forced* trap in exactly the level's number of moves and not fewer. The proof
(:func:`forced_trap`, memoised) considers only moves of geese near the fox after which it has no
capture, and every fox step in reply, so the trap is real whatever the fox does (a shorter trap that
needs a far goose may exist; "fewer" is as far as the search sees); the oracle plays the shortest
forced trap from the current position and wins every game. The fox, by level: it captures when it
can; otherwise, with the level's noise share (60% at level 0, 30%, 20%, then none) a random
step, else the step after which the geese have no forced trap within the most moves it searches
(1 to 3 by level; ties to the step with the most room), so it runs for as long as it can see.
Its randomness comes from ``event_rng`` keyed by the position, so a replay plays the same game.

The turn budget is the trap's length plus the level's spare moves (2 at level 0, then 1). Levels
grow the trap (2 to 4 moves) and the number of geese and cut the fox's noise. The difficulty
measure is twice the trap's length, plus the goose moves available at the start divided by five,
plus twice the share of the fox's moves that are not random (a fox that always runs punishes a slip).

Generation speed: about 135 to 165 problems/s at level 4 on this 2-core machine (it varies with the number of draws
the seeds need). Random positions are drawn and those with a boxed-in fox are searched for a forced trap of exactly
the level's length (and none shorter); about 240 positions are drawn per problem. The search is kept because the
prompt promises a trap of that length.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.core.multiturn import MAX_MOVE_CHARS, History
from palaestra.envs.games.common import cell_name
from palaestra.verifiers.normalize import read_answer, strip_wrappers

SIZE = 7
POINTS = tuple(p for p in range(SIZE * SIZE) if 2 <= p % SIZE <= 4 or 2 <= p // SIZE <= 4)
ON_BOARD = frozenset(POINTS)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (row, column): up, down, left, right
REACH = 2  # the trap search moves only geese this close to the fox (Manhattan distance)


@register
class FoxAndGeese(MultiTurnTask):
    id = "games/fox_and_geese"
    family = "games"
    description = "Play the geese on the cross board and trap the fox, which runs and captures by jumping."
    tags = ("games", "multi-turn", "two-player", "adversarial", "hunt")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 1

    @dataclass(frozen=True)
    class Config:
        geese: tuple[int, int]  # (fewest, most) geese within three steps of the fox
        others: tuple[int, int]  # (fewest, most) geese further away
        depth: int  # goose moves in the shortest forced trap
        spare: int  # turns beyond it
        search: int  # goose moves the fox looks ahead
        noise: float  # share of the fox's free moves played at random

    presets = (
        Config(geese=(5, 7), others=(2, 5), depth=2, spare=2, search=1, noise=0.6),
        Config(geese=(6, 8), others=(2, 5), depth=2, spare=1, search=1, noise=0.3),
        Config(geese=(6, 9), others=(2, 5), depth=3, spare=1, search=2, noise=0.2),
        Config(geese=(7, 10), others=(2, 5), depth=3, spare=1, search=2, noise=0.0),
        Config(geese=(8, 11), others=(2, 5), depth=4, spare=1, search=3, noise=0.0),
    )
    bounded = "longer forced traps are rare among drawn positions and cost too much to prove"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[int, int] | None:
            fox = rng.choice(POINTS)
            near = _within(fox, 3)
            count = rng.randint(*config.geese)
            if len(near) < count:
                return None
            far = _beyond(fox, 3)
            geese = sum(1 << p for p in rng.sample(near, count) + rng.sample(far, rng.randint(*config.others)))
            if not fox_moves(geese, fox) or fox_captures(geese, fox):
                return None  # the fox can move and cannot capture at the start
            if len(fox_steps(geese, fox)) > 2:
                return None  # a fox with room to run is seldom trapped: skip the proof's cost
            if forced_trap(geese, fox, config.depth) is None or forced_trap(geese, fox, config.depth - 1) is not None:
                return None
            return geese, fox

        geese, fox = retry(draw, attempts=20_000, what="a position with a forced trap of the level's length")
        data = {"geese": geese, "fox": fox, "depth": config.depth, "turns": config.depth + config.spare,
                "search": config.search, "noise": config.noise,
                "difficulty": round(2 * config.depth + len(goose_moves(geese, fox)) / 5 + 2 * (1 - config.noise), 3)}
        prompt = (
            "Let's play Fox and Geese on the cross board (33 points joined along rows and columns; no diagonals). "
            "You move the geese (G); I move the fox (F). Each turn you move one goose one step down or sideways "
            "to an empty point (never up). Then the fox moves one step in any direction, or jumps over a goose "
            "next to it onto the empty point straight beyond, capturing that goose. You win when the fox cannot "
            "move.\n\n"
            f"{picture(geese, fox)}\n\n"
            f"Trap the fox within {data['turns']} moves. Each turn, write the goose's point and where it goes, "
            "for example: d3 d4"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["difficulty"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"geese": problem.data["geese"], "fox": problem.data["fox"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        geese, fox = state["geese"], state["fox"]
        step = read_step(move)
        if step is None:
            return Outcome.invalid(state, "write a goose's point and where it goes, e.g. d3 d4")
        start, end = step
        said = f"{_name(start)} to {_name(end)}"
        if not geese >> start & 1:
            return Outcome.invalid(state, f"there is no goose on {_name(start)}")
        if (start, end) not in goose_moves(geese, fox):
            return Outcome.invalid(state, f"a goose moves one step down or sideways to an empty point; {said} is not one")
        geese = geese & ~(1 << start) | 1 << end
        if not fox_moves(geese, fox):
            return Outcome({"geese": geese, "fox": fox}, Verdict.right(),
                           f"You move {said}. The fox cannot move: you win!\n\n{picture(geese, fox)}", True)
        reply = fox_reply(problem, geese, fox)
        target, jumped = reply
        if jumped is not None:
            geese &= ~(1 << jumped)
            note = f"The fox jumps from {_name(fox)} to {_name(target)}, capturing the goose on {_name(jumped)}."
        else:
            note = f"The fox moves from {_name(fox)} to {_name(target)}."
        after = {"geese": geese, "fox": target}
        return Outcome.goes_on(after, f"You move {said}. {note}\n\n{picture(geese, target)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        geese, fox = state["geese"], state["fox"]
        # The shortest forced trap: a longer one found afresh every turn could be put off forever.
        move = next((m for depth in range(1, problem.data["depth"] + 1)
                     if (m := forced_trap(geese, fox, depth)) is not None), None)
        if move is None:  # not reached from the start (the trap is forced); any legal move keeps it total
            move = goose_moves(geese, fox)[0]
        return f"{_name(move[0])} {_name(move[1])}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [f"{_name(a)} {_name(b)}" for a, b in goose_moves(state["geese"], state["fox"])]

    def heuristics(self) -> dict[str, Any]:
        def random_legal(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            return rng.choice(self.legal_moves(problem, state))

        def hem_in(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            """The safe goose move leaving the fox the fewest moves (ties at random)."""
            geese, fox = state["geese"], state["fox"]
            scored = []
            for a, b in goose_moves(geese, fox):
                after = geese & ~(1 << a) | 1 << b
                scored.append((bool(fox_captures(after, fox)), len(fox_moves(after, fox)), rng.random(), a, b))
            _, _, _, a, b = min(scored)
            return f"{_name(a)} {_name(b)}"

        return {"random legal": random_legal, "leave the fox the fewest moves": hem_in}


def _name(point: int) -> str:
    return cell_name(*divmod(point, SIZE))


def _distance(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@functools.cache
def _neighbour(point: int, direction: int) -> int | None:
    dr, dc = STEPS[direction]
    r, c = point // SIZE + dr, point % SIZE + dc
    target = r * SIZE + c
    return target if 0 <= r < SIZE and 0 <= c < SIZE and target in ON_BOARD else None


@functools.cache
def _within(fox: int, reach: int) -> tuple[int, ...]:
    """The points other than ``fox`` at most ``reach`` steps from it (Manhattan distance)."""
    return tuple(p for p in POINTS if p != fox and _distance(p, fox) <= reach)


@functools.cache
def _beyond(fox: int, reach: int) -> tuple[int, ...]:
    """The points more than ``reach`` steps from ``fox``."""
    near = _within(fox, reach)
    return tuple(p for p in POINTS if p != fox and p not in near)


# Per point (indexed by point, empty off the cross), in the order of STEPS: the points one step away, a goose's steps
# (down or sideways), and a jump as (landing point, point jumped over). Tables: the trap search asks at every node.
NEXT = tuple(tuple(t for d in range(4) if (t := _neighbour(p, d)) is not None) if p in ON_BOARD else ()
             for p in range(SIZE * SIZE))
GOOSE_NEXT = tuple(tuple(t for d in (1, 2, 3) if (t := _neighbour(p, d)) is not None) if p in ON_BOARD else ()
                   for p in range(SIZE * SIZE))
JUMPS = tuple(tuple((landing, over) for d in range(4) if (over := _neighbour(p, d)) is not None
                    and (landing := _neighbour(over, d)) is not None) if p in ON_BOARD else ()
              for p in range(SIZE * SIZE))


def goose_moves(geese: int, fox: int, among: tuple[int, ...] = POINTS) -> list[tuple[int, int]]:
    """Every (from, to) step of a goose (of those on ``among``): down or sideways onto an empty point of the cross."""
    moves = []
    for point in among:
        if geese >> point & 1:
            for target in GOOSE_NEXT[point]:
                if target != fox and not geese >> target & 1:
                    moves.append((point, target))
    return moves


def fox_captures(geese: int, fox: int) -> list[tuple[int, int]]:
    """The fox's jumps as (landing point, captured goose)."""
    return [(landing, over) for landing, over in JUMPS[fox] if geese >> over & 1 and not geese >> landing & 1]


def fox_steps(geese: int, fox: int) -> list[int]:
    return [t for t in NEXT[fox] if not geese >> t & 1]


def fox_moves(geese: int, fox: int) -> list[tuple[int, int | None]]:
    """Every fox move as (landing point, captured goose or None)."""
    return [(t, None) for t in fox_steps(geese, fox)] + [(t, g) for t, g in fox_captures(geese, fox)]


@functools.lru_cache(maxsize=300_000)
def forced_trap(geese: int, fox: int, moves: int) -> tuple[int, int] | None:
    """A goose move that traps the fox within ``moves`` goose moves whatever it does, or None.

    Only moves of geese within :data:`REACH` steps of the fox after which it cannot capture are tried
    (the search proves traps, it need not find every one: "shortest" means the shortest it finds, and
    the oracle uses the same search); the fox's every step in reply must leave a forced trap one move
    shorter.
    """
    if moves < 1:
        return None
    for start, end in goose_moves(geese, fox, _within(fox, REACH)):
        after = geese & ~(1 << start) | 1 << end
        if fox_captures(after, fox):
            continue
        steps = fox_steps(after, fox)
        if not steps or (moves > 1 and all(forced_trap(after, step, moves - 1) is not None for step in steps)):
            return start, end
    return None


def fox_reply(problem: Problem, geese: int, fox: int) -> tuple[int, int | None]:
    """The fox's move (see the module docstring); it has one, or the geese would have won."""
    data = problem.data
    captures = fox_captures(geese, fox)
    if captures:
        return min(captures)
    steps = fox_steps(geese, fox)
    rng = event_rng((problem.env_id, problem.level, problem.seed), "fox", geese, fox)
    if rng.random() < data["noise"]:
        return rng.choice(steps), None

    def resistance(step: int) -> tuple[int, int, int]:
        trapped_in = next((m for m in range(1, data["search"] + 1) if forced_trap(geese, step, m) is not None),
                          data["search"] + 1)
        return trapped_in, len(fox_moves(geese, step)), -step

    return max(steps, key=resistance), None


def picture(geese: int, fox: int) -> str:
    rows = ["  " + " ".join("abcdefg")]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            p = r * SIZE + c
            cells.append(" " if p not in ON_BOARD else "F" if p == fox else "G" if geese >> p & 1 else ".")
        rows.append(f"{r + 1} " + " ".join(cells).rstrip())
    return "\n".join(rows)


_POINT = r"([a-g])\s?([1-7])"
_STEP = re.compile(rf"^(?:(?:move|goose)\s+)?(?:from\s+)?{_POINT}\s*(?:-|–|to|->|→)?\s*{_POINT}$", re.IGNORECASE)


def read_step(move: str) -> tuple[int, int] | None:
    """(from, to) points of ``d3 d4``, ``d3-d4``, ``d3d4``, ``move d3 to d4`` (on the cross), or None."""
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, int] | None:
        match = _STEP.match(" ".join(strip_wrappers(text).split()))
        if not match:
            return None
        a = (int(match.group(2)) - 1) * SIZE + ord(match.group(1).lower()) - 97
        b = (int(match.group(4)) - 1) * SIZE + ord(match.group(3).lower()) - 97
        return (a, b) if a in ON_BOARD and b in ON_BOARD else None

    return read_answer(move, read)
