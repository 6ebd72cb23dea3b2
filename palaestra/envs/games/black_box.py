"""Black Box: find the atoms hidden on a small grid by firing rays into it from its edge.

The grid has ``size`` rows (1 at the top) and columns (A at the left); ``atoms`` of its cells hold an
atom. The edge has ``4 * size`` numbered ports, clockwise: 1..n along the top (left to right, firing
down), n+1..2n down the right side (firing left), 2n+1..3n along the bottom (right to left, firing
up) and 3n+1..4n up the left side (firing right). A ray follows the standard rules, all stated in the
prompt: it is absorbed when the cell straight ahead holds an atom; with atoms on both cells diagonally
ahead it turns back; with one such atom it turns 90 degrees away from it; otherwise it moves on. A ray
that would enter the grid beside an atom (one diagonally ahead of its port) is reflected at once. A
ray that leaves at the port it came in by is reflected; otherwise it exits at a port.

Each turn the model either fires a ray from a port (``fire 5``) and hears what happened, or, as its
final move, names the atoms' cells (``atoms at B2, D4``): reward 1 when the set is right, else 0.
Only atom sets that the answers of all ``4n`` rays determine uniquely are drawn: the placements of
``atoms`` atoms on the grid are enumerated with their answers to every port (memoised per grid and
count), and the generator keeps a draw whose answers no other placement shares. The honest player
(:meth:`BlackBox.honest_move`) keeps the placements consistent with every answer it read, fires the
lowest port not yet fired, and names the atoms once one placement is left; it always finishes,
because all the rays single the drawn set out. The turn budget is one number per level: the level's
``rays`` (about the 95th percentile of the honest player's rays over the placements) plus one for the
answer plus ``SLIPS`` turns of slack (refused or wasted moves): 15, 18, 18, 20, 21 turns at levels 0-4.
The generator redraws the placements the honest player needs more rays for (3.4-4.2% of them per level;
``space_size`` counts only the placements that fit). Version 1's budget was the problem's own honest
rays plus three, which told the player after which ray one placement was left and ruled out the
placements needing another count (correlation 1.00 with the hidden ray count; 0 now, as the budget is
constant per level). A wrong or unreadable move is refused (the turn is spent); a guess naming the
wrong number of cells is refused too; a wrong guess of the right size ends the game. Random play fires rays until the budget runs out (reward 0);
a guess without rays is right once in ``C(cells, atoms)``.

Levels grow the atoms and the placements to tell apart (7x7 with 2 atoms, 4x4 with 4, 5x5 with 3, 6x6
with 3, 5x5 with 4). The difficulty measure is the number of rays the honest player needs plus a
hundredth of the count of placements (the candidates the rays must tell apart).
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer

SLIPS = 2  # turns of slack beyond the most rays the honest player may need
ABSORBED, REFLECTED = "absorbed", "reflected"
_FIRE = re.compile(r"^(?:(?:fire|shoot|send)\s+)?(?:(?:a|the)\s+)?(?:ray\s+)?(?:(?:from|at|into)\s+)?"
                   r"(?:(?:the\s+)?port\s*)?#?(\d{1,2})$")
_GUESS_LEAD = re.compile(r"^(?:(?:my\s+)?(?:final\s+)?(?:guess|answer)\s*(?::|is|-)?\s*)?"
                         r"(?:(?:the\s+)?atoms?\s*(?:are\s+)?(?:at|in|on|:)?\s*)?")
_CELL = re.compile(r"^([a-z])\s*(\d{1,2})$")
_SEPARATOR = re.compile(r"\s*(?:,|;|\band\b|\s)\s*")
_RESULT = re.compile(r"^Ray from port (\d+): (absorbed|reflected|exits at port (\d+))\.", re.MULTILINE)
Cell = tuple[int, int]  # (row, column), 0-based
Placement = tuple[int, ...]  # sorted cell indices row * size + column


@register
class BlackBox(MultiTurnTask):
    id = "games/black_box"
    version = 2
    family = "games"
    description = "Black Box: fire rays into a grid from its edge to deduce where the hidden atoms are."
    tags = ("games", "multi-turn", "deduction", "imperfect-information", "grid")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True  # the atoms
    public_keys = ("size", "atoms")  # both stated in the prompt

    @dataclass(frozen=True)
    class Config:
        size: int  # rows and columns
        atoms: int
        rays: int  # the most rays the honest player may need (about the 95th percentile); the budget's base

    # The rays are the 95th percentile of the honest player's rays over the placements the rays tell apart (the
    # share of such placements needing more, which are redrawn: 3.7%, 4.1%, 4.2%, 3.4%, 3.8%).
    presets = (Config(7, 2, 12), Config(4, 4, 15), Config(5, 3, 15), Config(6, 3, 17), Config(5, 4, 18))
    bounded = "the placements are enumerated with every ray's answer; their count grows steeply with the grid"

    def space_size(self, level: int) -> int | None:
        """Every placement the rays tell apart and the honest player singles out within the level's rays is one
        problem."""
        config = self.level_config(level)
        rays = _table(config.size, config.atoms).rays
        return sum(1 for need in rays.values() if need <= config.rays)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        table = _table(config.size, config.atoms)
        placements = table.unique
        # Redraw the placements the honest player needs more than the level's rays for (about one in twenty-five):
        # the turn budget is the same for every problem of the level, so it tells nothing of the atoms.
        atoms = retry(lambda: placements[rng.randrange(len(placements))],
                      lambda drawn: table.rays[drawn] <= config.rays, attempts=1000,
                      what="a placement the honest player singles out within the level's rays")
        rays = table.rays[atoms]
        n = config.size
        prompt = (
            f"Let's play Black Box. {config.atoms} atoms are hidden in distinct cells of a {n}x{n} grid: rows 1 to "
            f"{n} from top to bottom, columns {_column(0)} to {_column(n - 1)} from left to right (cell B3 is in "
            f"column B, row 3). Around the edge are {4 * n} numbered ports, clockwise: ports 1 to {n} along the "
            f"top from left to right (their rays travel down), ports {n + 1} to {2 * n} down the right side (rays "
            f"travel left), ports {2 * n + 1} to {3 * n} along the bottom from right to left (rays travel up) and "
            f"ports {3 * n + 1} to {4 * n} up the left side (rays travel right).\n"
            "A ray moves one cell at a time. Before each step it looks at the cell straight ahead and the two cells "
            "diagonally ahead (ahead and one to either side): if the cell straight ahead holds an atom, the ray is "
            "absorbed; otherwise, if both diagonal cells hold atoms, it turns back the way it came; if one does, "
            "it turns 90 degrees away from that atom (and looks again before stepping); if none does, it steps "
            "ahead. A ray whose first cell has no atom but which has an atom diagonally ahead of its port is "
            "reflected at once. A ray that leaves the grid at the port it entered by is reflected; otherwise it "
            "exits at the port where it leaves.\n\n"
            f"Each turn, either fire one ray, for example: fire 3; or, as your final move, name all {config.atoms} "
            "atoms' cells, for example: atoms at A1, C2. You win by naming exactly the right cells; you have "
            f"{_budget(config.rays)} turns."
        )
        secret = [_name(n, cell) for cell in atoms]
        data = {"size": n, "atoms": config.atoms, "secret": secret, "rays": rays, "budget": _budget(config.rays)}
        return Problem(prompt=prompt, answer=", ".join(secret), data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["rays"] + comb(data["size"] ** 2, data["atoms"]) / 100

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"fired": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        n, count = problem.data["size"], problem.data["atoms"]
        parsed = read_move(move, n)
        if parsed is None:
            return Outcome.invalid(state, f"write one move: fire and a port number from 1 to {4 * n}, such as "
                                          f"fire 3, or atoms at and {count} cells, such as atoms at A1, C2")
        kind, value = parsed
        if kind == "fire":
            port = int(value[0])
            if not 1 <= port <= 4 * n:
                return Outcome.invalid(state, f"there is no port {port}; the ports are 1 to {4 * n}")
            secret = _placement(n, problem.data["secret"])
            result = _trace(n, frozenset(secret), port - 1)
            state = {"fired": [*state["fired"], port]}
            return Outcome.goes_on(state, f"Ray from port {port}: {_say(result)}.")
        cells = value
        if len(cells) != count or len(set(cells)) != count:
            return Outcome.invalid(state, f"name exactly {count} different cells")
        if any(not _on_grid(n, cell) for cell in cells):
            return Outcome.invalid(state, f"name cells in columns A to {_column(n - 1)} and rows 1 to {n}")
        right = sorted(cells) == sorted(problem.data["secret"])
        if right:
            return Outcome(state, Verdict.right(), "Right: those are the atoms. You win!", True)
        return Outcome(state, Verdict.wrong("wrong atoms"), "Wrong: those are not the atoms. The game is over.",
                       True)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        """Fire the rays the honest player would (the lowest ports first), then name the atoms."""
        if len(state["fired"]) < problem.data["rays"]:
            return f"fire {len(state['fired']) + 1}"
        return "atoms at " + ", ".join(problem.data["secret"])

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """Every ray (a guess is legal too, but one of ``C(cells, atoms)`` guesses is right)."""
        return [f"fire {port}" for port in range(1, 4 * problem.data["size"] + 1)]

    def heuristics(self) -> dict[str, Policy]:
        def fire_then_first_cells(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
            """Fire the ports in order until the last turn, then name the grid's first cells."""
            n, count = problem.data["size"], problem.data["atoms"]
            if len(state["fired"]) < self.max_turns(problem) - 1:
                return f"fire {len(state['fired']) % (4 * n) + 1}"
            cells = [_name(n, index) for index in range(count)]
            return "atoms at " + ", ".join(cells)

        return {"fire every port, then name the first cells": fire_then_first_cells}

    def honest_move(self, view: View) -> str:
        """Keep the placements consistent with every answer read; fire the lowest port not fired yet, and name
        the atoms once one placement is left."""
        n, count = view.public["size"], view.public["atoms"]
        seen = {int(port): _heard(what, exit_port) for port, what, exit_port in
                _RESULT.findall("\n".join(view.observations))}
        left = _consistent(n, count, tuple(sorted(seen.items(), key=lambda heard: heard[0])))
        if len(left) == 1:
            return "atoms at " + ", ".join(_name(n, cell) for cell in left[0])
        port = next((p for p in range(1, 4 * n + 1) if p not in seen), 1)
        return f"fire {port}"


def read_move(move: str, size: int) -> tuple[str, tuple[str, ...]] | None:
    """``("fire", ("5",))`` for a ray, ``("atoms", ("B2", "D4"))`` for a final answer, or None.

    >>> read_move("Fire 5.", 4), read_move("atoms at b2 and d4", 4), read_move("fire 5, fire 6", 4)
    (('fire', ('5',)), ('atoms', ('B2', 'D4')), None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[str, tuple[str, ...]] | None:
        flat = " ".join(text.lower().split())
        fire = _FIRE.match(flat)
        if fire:
            return "fire", (str(int(fire.group(1))),)
        lead = _GUESS_LEAD.match(flat)
        rest = flat[lead.end():] if lead else flat
        parts = [part for part in _SEPARATOR.split(rest.strip(" .")) if part]
        # A letter and its row may be written apart ("b 2"): join a lone letter with the number after it.
        cells: list[str] = []
        for part in parts:
            if cells and cells[-1].isalpha() and part.isdigit():
                cells[-1] += part
            else:
                cells.append(part)
        matched = [_CELL.match(cell) for cell in cells]
        if not cells or len(cells) > 4 * size or not all(matched):
            return None
        return "atoms", tuple(m.group(1).upper() + str(int(m.group(2))) for m in matched if m)

    return read_move_answer(move, read)


def _budget(rays: int) -> int:
    """The turn budget of a level whose honest player needs at most ``rays`` rays: those, the answer and the slips.
    Version 1's was the problem's own honest rays plus one plus the slips, which told the player after which ray one
    placement was left (correlation 1.00 with the hidden ray count)."""
    return rays + 1 + SLIPS


def _column(index: int) -> str:
    return chr(ord("A") + index)


def _name(size: int, cell: int) -> str:
    return f"{_column(cell % size)}{cell // size + 1}"


def _on_grid(size: int, name: str) -> bool:
    return ord(name[0]) - ord("A") < size and 1 <= int(name[1:]) <= size


def _placement(size: int, names: list[str]) -> Placement:
    return tuple(sorted((int(name[1:]) - 1) * size + ord(name[0]) - ord("A") for name in names))


_DIRECTIONS = ((1, 0), (0, -1), (-1, 0), (0, 1))  # down, left, up, right: the rays of the four sides


def _port_start(size: int, port: int) -> tuple[int, int, int]:
    """The (row, column) just outside the grid in front of 0-based ``port`` and the side it lies on."""
    side, offset = divmod(port, size)
    if side == 0:
        return -1, offset, 0
    if side == 1:
        return offset, size, 1
    if side == 2:
        return size, size - 1 - offset, 2
    return size - 1 - offset, -1, 3


def _port_at(size: int, row: int, column: int) -> int:
    """The 0-based port at the outside position (row, column) a ray leaves the grid to."""
    if row < 0:
        return column
    if column >= size:
        return size + row
    if row >= size:
        return 2 * size + size - 1 - column
    return 3 * size + size - 1 - row


def _trace(size: int, atoms: frozenset[int], port: int) -> str | int:
    """ABSORBED, REFLECTED or the 0-based port where a ray fired from 0-based ``port`` leaves."""
    return _trace_padded(size, _padded_atoms(size, atoms), port)


def _padded_atoms(size: int, atoms: Iterable[int]) -> int:
    """The atoms as a bit set over the grid with a one-cell border (:func:`_padded_board`)."""
    return sum(1 << (atom // size + 1) * (size + 2) + atom % size + 1 for atom in atoms)


@functools.lru_cache(maxsize=16)
def _padded_board(size: int) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    """The grid with a one-cell border, cells numbered row by row: per port, the (cell, step, side step) a ray
    starts from (the side step points to the cell on the ray's left); per cell, the port a ray stepping there
    leaves by, or -1 inside the grid. A ray is then integer steps and bit tests (the rays are the table's cost)."""
    width = size + 2
    starts = []
    for port in range(4 * size):
        row, column, side = _port_start(size, port)
        d_row, d_column = _DIRECTIONS[side]
        starts.append(((row + 1) * width + column + 1, d_row * width + d_column, d_column * width + d_row))
    exits = tuple(-1 if 0 <= row < size and 0 <= column < size else _port_at(size, row, column)
                  for row in range(-1, size + 1) for column in range(-1, size + 1))
    return tuple(starts), exits


def _trace_padded(size: int, atoms: int, port: int) -> str | int:
    """:func:`_trace` on atoms as a padded bit set: a ray stepping ``step`` has the cells ``ahead + side`` and
    ``ahead - side`` on its two sides; a turn swaps or negates the two steps."""
    starts, exits = _padded_board(size)
    cell, step, side = starts[port]
    ahead = cell + step
    if atoms >> ahead & 1:
        return ABSORBED
    if atoms >> (ahead + side) & 1 or atoms >> (ahead - side) & 1:
        return REFLECTED
    for _ in range(8 * size * size + 8):  # a ray's path is reversible, so it ends; the bound is a guard
        ahead = cell + step
        if atoms >> ahead & 1:
            return ABSORBED
        left = atoms >> (ahead + side) & 1
        right = atoms >> (ahead - side) & 1
        if left and right:
            step, side = -step, -side
        elif left:
            step, side = -side, -step
        elif right:
            step, side = side, step
        else:
            cell = ahead
            exit_port = exits[cell]
            if exit_port >= 0:
                return REFLECTED if exit_port == port else exit_port
    return ABSORBED  # unreachable: rays cannot loop


def _say(result: str | int) -> str:
    return result if isinstance(result, str) else f"exits at port {result + 1}"


def _heard(what: str, exit_port: str) -> str | int:
    return int(exit_port) - 1 if exit_port else what


@dataclass(frozen=True)
class _Table:
    placements: tuple[Placement, ...]
    answers: dict[Placement, tuple[str | int, ...]]
    unique: tuple[Placement, ...]  # the placements no other placement answers alike on every ray
    rays: dict[Placement, int]  # per unique placement, the rays the honest player fires before it is the one left


@functools.lru_cache(maxsize=8)
def _table(size: int, atoms: int) -> _Table:
    placements = tuple(itertools.combinations(range(size * size), atoms))
    ports = range(4 * size)
    answers = {}
    for placement in placements:
        atoms_at = _padded_atoms(size, placement)
        answers[placement] = tuple(_trace_padded(size, atoms_at, port) for port in ports)
    counts: dict[tuple[str | int, ...], int] = {}
    for signature in answers.values():
        counts[signature] = counts.get(signature, 0) + 1
    unique = tuple(placement for placement in placements if counts[answers[placement]] == 1)
    return _Table(placements, answers, unique, _rays_by_placement(size, placements, answers))


def _rays_by_placement(size: int, placements: tuple[Placement, ...],
                       answers: dict[Placement, tuple[str | int, ...]]) -> dict[Placement, int]:
    """Per placement the rays tell apart, how many the honest player (lowest port first) fires before it is the one
    placement left: the placements are split by the answer of port 1, then port 2, ..., and a placement's count is
    the number of rays after which its group holds it alone (:func:`_honest_rays` follows one placement)."""
    rays: dict[Placement, int] = {}
    groups: list[list[Placement]] = [list(placements)]
    for fired in range(4 * size + 1):
        split: dict[tuple[int, str | int], list[Placement]] = {}
        for number, group in enumerate(groups):
            if len(group) == 1:
                rays[group[0]] = fired
            elif fired < 4 * size:
                for placement in group:
                    split.setdefault((number, answers[placement][fired]), []).append(placement)
        groups = list(split.values())
    return rays


@functools.lru_cache(maxsize=4096)
def _consistent(size: int, atoms: int, seen: tuple[tuple[int, str | int], ...]) -> tuple[Placement, ...]:
    """The placements answering every (1-based port, result) in ``seen`` alike, narrowed from one ray fewer."""
    table = _table(size, atoms)
    if not seen:
        return table.placements
    (port, result), rest = seen[-1], seen[:-1]
    return tuple(p for p in _consistent(size, atoms, rest) if table.answers[p][port - 1] == result)


def _honest_rays(size: int, atoms: int, secret: Placement) -> int:
    """How many rays the honest player fires (lowest port first) before one placement is left."""
    signature = _table(size, atoms).answers[secret]
    seen: tuple[tuple[int, str | int], ...] = ()
    for fired in range(4 * size + 1):
        # The narrowing is memoised by the answers seen: the first rays' answers are shared by many secrets.
        if len(_consistent(size, atoms, seen)) == 1:
            return fired
        seen = (*seen, (fired + 1, signature[fired]))
    return 4 * size  # unreachable: the secret's answers are unique
