"""Fox and geese: play the geese on the cross board and trap the fox, which a search moves for its life.

The board is the cross of 33 points (a 7x7 grid without its four 2x2 corners; columns a to g,
rows 1 to 7 from the top), joined along rows and columns only. The model moves the geese (G), one
goose one step per turn: down or sideways to an empty point, never up. The fox (F) then moves one
step in any of the four directions, or jumps over a goose next to it onto the empty point straight
beyond, capturing it (one jump a turn). The geese win when the fox cannot move: reward 1 on the
goose move that leaves it without a step or a jump; 0 if the turns run out. An unreadable move, a
point with no goose, or a step up, off the board or onto an occupied point costs the turn.
A move is written as the goose's point and its target (``d3 d4``, ``d3-d4``, ``d3 to d4``).

Positions come from a catalogue searched offline by :func:`write_catalogue` (``fox_and_geese_positions.txt``,
500 a level, no two mirror images of each other; ``write_catalogue()`` with no path rebuilds the shipped file in
about half an hour). A problem deals one of them as found or mirrored left-right, while play, the proofs and the
fox's tie-breaks run in the catalogue's orientation, so both views are one game. The fox sits somewhere on the
cross and boxed in, geese around it and a few further away, kept when the geese have a *forced* trap in exactly the
level's number of moves and not fewer, and the cheap rule of :meth:`FoxAndGeese.heuristics` that hems the fox in
(the goose move leaving it no capture and the fewest moves) misses it: none of that rule's first moves starts a
forced trap within the turn budget, and the rule, a uniform pick among its ties, wins at most
:data:`HEM_BOUND` of the games against this fox (:func:`hem_share`, exact over the ties and the fox's random
steps). The proof (:func:`forced_trap`, memoised) considers only moves of geese near the fox after which it has no
capture, and every fox step in reply, so the trap is real whatever the fox does (a shorter trap that needs a far
goose may exist; "fewer" is as far as the search sees); the oracle plays the shortest forced trap from the current
position and wins every game. The fox, by level: it captures when it can; otherwise, with the level's noise share
(40% at level 0, 20%, then none) a random step, else the step after which the geese have no forced trap within the
most moves it searches (1 to 3 by level; ties to the step with the most room), so it runs for as long as it can
see. Its randomness comes from ``event_rng`` keyed by the position, so a replay plays the same game.

Version 2: traps of two or three moves are gone. Among thousands of drawn positions with such a trap, every one
had the trap's first move among the hemming rule's picks, and that rule won 0.70, 0.68, 0.36, 0.33 and 0.20 of
the games at levels 0-4 in version 1 (random play 0-0.07); the catalogue's four- and five-move traps that the rule
misses bring it to 0.03, 0.04, 0.04, 0.03 and 0.04 (80 games a level), and the turn budget is the trap plus one
spare move.

Levels cut the fox's noise and lengthen its search, add geese, and grow the trap from four moves to five at the
top. The difficulty measure is twice the trap's length, plus the goose moves available at the start divided by
five, plus twice the share of the fox's moves that are not random (a fox that always runs punishes a slip), plus
half the fox's search depth.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import astuple, dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register
from palaestra.core.multiturn import MAX_MOVE_CHARS, History
from palaestra.envs.games.common import cell_name, write_catalogue_file
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

SIZE = 7
POINTS = tuple(p for p in range(SIZE * SIZE) if 2 <= p % SIZE <= 4 or 2 <= p // SIZE <= 4)
ON_BOARD = frozenset(POINTS)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (row, column): up, down, left, right
REACH = 2  # the trap search moves only geese this close to the fox (Manhattan distance)
CATALOGUE = "fox_and_geese_positions.txt"
PER_LEVEL = 500  # catalogued positions per level, each dealt as seen or mirrored left-right
HEM_BOUND = 0.15  # the most a catalogued position lets the "fewest fox moves" rule win (exact expectation)


@register
class FoxAndGeese(MultiTurnTask):
    id = "games/fox_and_geese"
    family = "games"
    description = "Play the geese on the cross board and trap the fox, which runs and captures by jumping."
    tags = ("games", "multi-turn", "two-player", "adversarial", "hunt")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2  # v2: positions from a catalogue where hemming the fox in fails; traps of 4-5 moves

    @dataclass(frozen=True)
    class Config:
        geese: tuple[int, int]  # (fewest, most) geese within three steps of the fox
        others: tuple[int, int]  # (fewest, most) geese further away
        depth: int  # goose moves in the shortest forced trap
        spare: int  # turns beyond it
        search: int  # goose moves the fox looks ahead
        noise: float  # share of the fox's free moves played at random

    presets = (
        Config(geese=(7, 10), others=(2, 5), depth=4, spare=1, search=1, noise=0.4),
        Config(geese=(7, 10), others=(2, 5), depth=4, spare=1, search=2, noise=0.2),
        Config(geese=(8, 11), others=(2, 5), depth=4, spare=1, search=2, noise=0.0),
        Config(geese=(8, 11), others=(2, 5), depth=4, spare=1, search=3, noise=0.0),
        Config(geese=(8, 11), others=(2, 5), depth=5, spare=1, search=3, noise=0.0),
    )
    bounded = "the offline search costs seconds a position for five-move traps; longer ones cost too much to prove"

    def space_size(self, level: int) -> int | None:
        """Each catalogue position of the level, as seen or mirrored left-right, is one problem."""
        return 2 * len(catalogue()[astuple(self.level_config(level))])

    def generate(self, rng: random.Random, config: Config) -> Problem:
        geese, fox = rng.choice(catalogue()[astuple(config)])
        data = {"geese": geese, "fox": fox, "mirrored": rng.random() < 0.5, "depth": config.depth, "turns": config.depth + config.spare,
                "search": config.search, "noise": config.noise,
                "difficulty": round(2 * config.depth + len(goose_moves(geese, fox)) / 5 + 2 * (1 - config.noise)
                                    + config.search / 2, 3)}
        prompt = (
            "Let's play Fox and Geese on the cross board (33 points joined along rows and columns; no diagonals). "
            "You move the geese (G); I move the fox (F). Each turn you move one goose one step down or sideways "
            "to an empty point (never up). Then the fox moves one step in any direction, or jumps over a goose "
            "next to it onto the empty point straight beyond, capturing that goose. You win when the fox cannot "
            "move.\n\n"
            f"{_picture(data, geese, fox)}\n\n"
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
        data = problem.data
        geese, fox = state["geese"], state["fox"]
        step = read_step(move)
        if step is None:
            return Outcome.invalid(state, "write a goose's point and where it goes, e.g. d3 d4")
        start, end = (_seen(data, point) for point in step)  # the catalogue's orientation: play runs there
        said = f"{_label(data, start)} to {_label(data, end)}"
        if not geese >> start & 1:
            return Outcome.invalid(state, f"there is no goose on {_label(data, start)}")
        if (start, end) not in goose_moves(geese, fox):
            return Outcome.invalid(state, f"a goose moves one step down or sideways to an empty point; {said} is not one")
        geese = geese & ~(1 << start) | 1 << end
        if not fox_moves(geese, fox):
            return Outcome({"geese": geese, "fox": fox}, Verdict.right(),
                           f"You move {said}. The fox cannot move: you win!\n\n{_picture(data, geese, fox)}", True)
        reply = fox_reply(problem, geese, fox)
        target, jumped = reply
        if jumped is not None:
            geese &= ~(1 << jumped)
            note = (f"The fox jumps from {_label(data, fox)} to {_label(data, target)}, capturing the goose on "
                    f"{_label(data, jumped)}.")
        else:
            note = f"The fox moves from {_label(data, fox)} to {_label(data, target)}."
        after = {"geese": geese, "fox": target}
        return Outcome.goes_on(after, f"You move {said}. {note}\n\n{_picture(data, geese, target)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        geese, fox = state["geese"], state["fox"]
        # The shortest forced trap: a longer one found afresh every turn could be put off forever.
        move = next((m for depth in range(1, problem.data["depth"] + 1)
                     if (m := forced_trap(geese, fox, depth)) is not None), None)
        if move is None:  # not reached from the start (the trap is forced); any legal move keeps it total
            move = goose_moves(geese, fox)[0]
        return f"{_label(problem.data, move[0])} {_label(problem.data, move[1])}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [f"{_label(problem.data, a)} {_label(problem.data, b)}" for a, b in goose_moves(state["geese"], state["fox"])]

    def heuristics(self) -> dict[str, Any]:
        def random_legal(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            return rng.choice(self.legal_moves(problem, state))

        def hem_in(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            a, b = rng.choice(hemming_moves(state["geese"], state["fox"]))
            return f"{_label(problem.data, a)} {_label(problem.data, b)}"

        return {"random legal": random_legal, "leave the fox the fewest moves": hem_in}


def _name(point: int) -> str:
    return cell_name(*divmod(point, SIZE))


def _mirror(point: int) -> int:
    """The point mirrored left-right (a symmetry of the cross and of every move)."""
    return point - point % SIZE + SIZE - 1 - point % SIZE


def _seen(data: dict[str, Any], point: int) -> int:
    """A point of the catalogue's orientation as the model sees it, and back (the view is its own inverse)."""
    return _mirror(point) if data.get("mirrored") else point  # a hand-built problem without the flag is as seen


def _label(data: dict[str, Any], point: int) -> str:
    return _name(_seen(data, point))


def _picture(data: dict[str, Any], geese: int, fox: int) -> str:
    return picture(sum(1 << _seen(data, p) for p in POINTS if geese >> p & 1), _seen(data, fox))


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
    return running_step(geese, fox, data["search"]), None


def running_step(geese: int, fox: int, search: int) -> int:
    """The fox's step when it runs: the one after which the geese need the most moves to trap it within its
    ``search``, then the one with the most room, then the lowest point."""
    def resistance(step: int) -> tuple[int, int, int]:
        trapped_in = next((m for m in range(1, search + 1) if forced_trap(geese, step, m) is not None), search + 1)
        return trapped_in, len(fox_moves(geese, step)), -step

    return max(fox_steps(geese, fox), key=resistance)


def hemming_moves(geese: int, fox: int) -> list[tuple[int, int]]:
    """The cheap rule "hem the fox in": the goose moves leaving it no capture and the fewest moves (all the ties)."""
    scored = []
    for a, b in goose_moves(geese, fox):
        after = geese & ~(1 << a) | 1 << b
        scored.append(((bool(fox_captures(after, fox)), len(fox_moves(after, fox))), (a, b)))
    best = min(score for score, _ in scored)
    return [move for score, move in scored if score == best]


@functools.lru_cache(maxsize=200_000)
def hem_share(geese: int, fox: int, turns: int, noise: float, search: int) -> float:
    """The exact chance that the hemming rule (a uniform pick among its ties) traps the fox within ``turns``: the
    fox captures when it can, else steps at random with chance ``noise`` and otherwise runs (:func:`running_step`)."""
    if turns < 1 or not goose_moves(geese, fox):
        return 0.0
    total = 0.0
    ties = hemming_moves(geese, fox)
    for a, b in ties:
        after = geese & ~(1 << a) | 1 << b
        if not fox_moves(after, fox):
            total += 1.0
            continue
        captures = fox_captures(after, fox)
        if captures:
            landing, jumped = min(captures)
            total += hem_share(after & ~(1 << jumped), landing, turns - 1, noise, search)
            continue
        steps = fox_steps(after, fox)
        total += (1 - noise) * hem_share(after, running_step(after, fox, search), turns - 1, noise, search)
        if noise:
            total += noise * sum(hem_share(after, step, turns - 1, noise, search) for step in steps) / len(steps)
    return total / len(ties)


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

    return read_move_answer(move, read)


# --- the catalogue (offline) -------------------------------------------------------------------------------------

def _starts_trap(geese: int, fox: int, move: tuple[int, int], moves: int) -> bool:
    """Whether ``move`` leaves the fox no capture and a forced trap within ``moves`` goose moves in all (it included)."""
    a, b = move
    after = geese & ~(1 << a) | 1 << b
    if fox_captures(after, fox):
        return False
    steps = fox_steps(after, fox)
    return not steps or (moves > 1 and all(forced_trap(after, step, moves - 1) is not None for step in steps))


def fits(geese: int, fox: int, config: FoxAndGeese.Config) -> bool:
    """Whether a drawn position is fit to deal (see the module docstring)."""
    if not fox_moves(geese, fox) or fox_captures(geese, fox) or len(fox_steps(geese, fox)) > 2:
        return False  # the fox moves, cannot capture, and is boxed in (a roomy fox is seldom trapped: skip the proof)
    if forced_trap(geese, fox, config.depth) is None or forced_trap(geese, fox, config.depth - 1) is not None:
        return False
    turns = config.depth + config.spare
    if any(_starts_trap(geese, fox, move, turns) for move in hemming_moves(geese, fox)):
        return False
    return hem_share(geese, fox, turns, config.noise, config.search) <= HEM_BOUND


def search(config: FoxAndGeese.Config, count: int, seed: int) -> list[tuple[int, int]]:
    """``count`` distinct positions fit to deal under ``config`` (offline: seconds a position)."""
    rng = random.Random(seed)
    found: dict[tuple[int, int], None] = {}
    while len(found) < count:
        fox = rng.choice(POINTS)
        near = _within(fox, 3)
        placed = rng.randint(*config.geese)
        if len(near) < placed:
            continue
        geese = sum(1 << p for p in rng.sample(near, placed) + rng.sample(_beyond(fox, 3), rng.randint(*config.others)))
        seen = (geese, fox) in found or (sum(1 << _mirror(p) for p in POINTS if geese >> p & 1), _mirror(fox)) in found
        if not seen and fits(geese, fox, config):
            found[(geese, fox)] = None
    return list(found)


def catalogue_line(level: int, per_level: int = PER_LEVEL) -> str:
    """The catalogue's line for preset ``level``: the config's fields, then the positions (geese in hex:fox)."""
    config = FoxAndGeese.presets[level]
    return " ".join([*(str(field) for field in _flat(config)),
                     *(f"{geese:x}:{fox}" for geese, fox in search(config, per_level, seed=level))])


def _flat(config: FoxAndGeese.Config) -> tuple[Any, ...]:
    return (*config.geese, *config.others, config.depth, config.spare, config.search, config.noise)


@functools.cache
def catalogue() -> dict[tuple[Any, ...], list[tuple[int, int]]]:
    """The shipped positions, ``astuple(config) -> [(geese, fox), ...]``."""
    table: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            g0, g1, o0, o1, depth, spare, search_, noise, *entries = line.split()
            key = ((int(g0), int(g1)), (int(o0), int(o1)), int(depth), int(spare), int(search_), float(noise))
            table[key] = [(int(geese, 16), int(fox)) for geese, fox in (entry.split(":") for entry in entries)]
    return table


def write_catalogue(path: str | None = None, levels: range = range(len(FoxAndGeese.presets))) -> None:
    """Rebuild the shipped catalogue for the presets."""
    write_catalogue_file(__file__, CATALOGUE, path,
        "Fox and geese positions with a forced trap the hemming rule misses; built by "
        "palaestra.envs.games.fox_and_geese.write_catalogue",
        (catalogue_line(level) for level in levels))
