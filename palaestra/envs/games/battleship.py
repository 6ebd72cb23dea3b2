"""Battleship: sink the opponent's hidden fleet before its seeded hunter sinks yours.

Both sides have the same fleet on their own square grid (columns a, b, ..., rows 1, 2, ...);
ships lie in straight lines, horizontal or vertical, without overlapping. Each turn the model
fires one shot (``c4``, ``fire at c4``) and hears ``miss``, ``hit`` or ``hit and sunk`` (with
the ship's name); then the opponent fires once at the model's fleet, which is shown in the
prompt. Whoever sinks the whole enemy fleet first wins; the model shoots first. A repeated,
off-board or unreadable shot wastes the model's shot (the opponent still fires). Reward 1 for
a win, 0 for a loss. The grid of the model's shots is shown after every turn.

The opponent hunts by level: hunt-and-target (random shots until a hit, then the cells around
it, along the line once two hits align); then hunting only on a checkerboard; then hunting the
cell that the most placements of the ships still afloat would cover. Version 2: level 0's opponent
shot at random on a 6x6 grid, so a race against it was a coin toss for any shooter that does not repeat
itself: uniformly random shots won 0.53 of level 0's games and firing in reading order 0.67 (30 games).
It now hunts and targets on a 7x7 grid with the same three ships: random shots win 0.05, reading order
0.13, the honest player 0.75 (60 games). Its shots depend only on its own results and a tape drawn
with the problem, so they are computed at generation and stored. The oracle, which knows the
fleet, fires only at ships and always wins (the opponent needs at least as many shots and
fires second).

The difficulty measure is the hit rate the model must beat: the fleet's cells divided by the
shots the opponent needs to sink the model's fleet.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.envs.games.common import cell_name, read_cell, render_board
from palaestra.generators.battleship import placements

SHIPS = (("carrier", 5), ("battleship", 4), ("cruiser", 3), ("submarine", 3), ("destroyer", 2),
         ("patrol boat", 2))
VERBS = ("fire at", "fire on", "fire", "shoot at", "shoot", "attack", "target")


@register
class Battleship(MultiTurnTask):
    id = "games/battleship"
    family = "games"
    description = "Sink the opponent's hidden fleet before its seeded hunting opponent sinks yours."
    tags = ("games", "multi-turn", "two-player", "search")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    version = 2  # v2: level 0 hunts and targets on 7x7 (its random shooter lost half its races to random play)
    public_keys = ("size", "fleet")  # the prompt states the grid and the fleet
    honest_win_share = 0.5  # a race against a hunter as good as the honest player at the top level

    @dataclass(frozen=True)
    class Config:
        size: int
        fleet: tuple[str, ...]  # ship names from SHIPS
        hunter: str  # target (hunt at random, then target); parity (hunt on a checkerboard); density

    presets = (
        Config(7, ("cruiser", "destroyer", "patrol boat"), "target"),
        Config(7, ("battleship", "cruiser", "destroyer"), "target"),
        Config(7, ("battleship", "cruiser", "submarine", "destroyer"), "target"),
        Config(8, ("carrier", "battleship", "cruiser", "submarine", "destroyer"), "parity"),
        Config(8, ("carrier", "battleship", "cruiser", "submarine", "destroyer"), "density"),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 5 to 6)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        lengths = dict(SHIPS)
        fleet = [[name, lengths[name]] for name in config.fleet]
        theirs = _place(rng, config.size, fleet)
        ours = _place(rng, config.size, fleet)
        volleys = _hunt(rng, config.size, ours, config.hunter)
        data = {"size": config.size, "fleet": fleet, "theirs": theirs, "ours": ours, "volleys": volleys,
                "hunter": config.hunter}
        listing = ", ".join(f"{name} ({length})" for name, length in fleet)
        prompt = (
            f"Let's play Battleship on a {config.size}x{config.size} grid: columns a to "
            f"{chr(96 + config.size)}, rows 1 to {config.size}. Each side has the same fleet: {listing}. Ships lie "
            "in straight lines, across or down, and do not overlap. We take turns firing one shot at each other's "
            "grid; you shoot first. Whoever sinks the whole enemy fleet first wins.\n\n"
            f"Your fleet (letters mark your ships, '.' is water):\n{render_board(_fleet_rows(data))}\n\n"
            "Each turn, write the one cell you fire at, for example: c4. A repeated or unreadable shot is wasted."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["volleys"])  # the opponent has won by then

    def difficulty(self, problem: Problem) -> float:
        return sum(length for _, length in problem.data["fleet"]) / len(problem.data["volleys"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"shots": [], "turn": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        size = data["size"]
        cell = read_cell(move, size, size, VERBS)
        shots = state["shots"]
        if cell is None:
            said, verdict = "Invalid shot: write one cell such as c4; your shot is wasted.", Verdict.unparsed("unreadable")
        else:
            index = cell[0] * size + cell[1]
            if index in shots:
                said, verdict = f"You already fired at {cell_name(*cell)}; your shot is wasted.", Verdict.wrong("repeat")
            else:
                shots = [*shots, index]
                said, verdict = f"You fire at {cell_name(*cell)}: {_result(data['theirs'], shots, index)}.", Verdict.wrong("fired")
                if _all_sunk(data["theirs"], shots):
                    state = {"shots": shots, "turn": state["turn"]}
                    return Outcome(state, Verdict.right(), f"{said} You sank the whole enemy fleet: you win!", True)
        turn = state["turn"]
        volley = data["volleys"][turn]
        fired = data["volleys"][: turn + 1]
        said += f" The opponent fires at {cell_name(volley // size, volley % size)}: " \
                f"{_result(data['ours'], fired, volley)}."
        state = {"shots": shots, "turn": turn + 1}
        if _all_sunk(data["ours"], fired):
            return Outcome(state, Verdict.wrong("lost"), f"{said} Your whole fleet is sunk: you lose.", True)
        return Outcome(state, verdict, f"{said}\nYour shots (X hit, o miss):\n{_shots_picture(data, shots)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        size = problem.data["size"]
        index = next(i for _, cells in problem.data["theirs"] for i in cells if i not in state["shots"])
        return cell_name(index // size, index % size)

    def honest_move(self, view: View) -> str:
        """Fire where the most placements of the ships still afloat fit what the shots so far showed,
        placements through an unsunk hit counting far more (hunt, then target)."""
        size, fleet = view.public["size"], view.public["fleet"]
        lengths = dict((name, length) for name, length in fleet)
        misses: set[int] = set()
        hits: list[int] = []
        sunk_cells: set[int] = set()
        sunk: set[str] = set()
        for _, observation in view.history:
            match = _FIRED.match(observation)
            if not match:
                continue
            index = (int(match.group(2)) - 1) * size + ord(match.group(1)) - 97
            if match.group(3) == "miss":
                misses.add(index)
                continue
            hits.append(index)
            if match.group(4):
                sunk.add(match.group(4))
                sunk_cells |= _sunk_line(size, set(hits) - sunk_cells, index, lengths[match.group(4)])
        open_hits = set(hits) - sunk_cells
        blocked = misses | sunk_cells
        shot = misses | set(hits)
        score = [0.0] * (size * size)
        for name, length in fleet:
            if name in sunk:
                continue
            for cells in _placements(size, length):
                if blocked.intersection(cells):
                    continue
                covered = len(open_hits.intersection(cells))
                weight = 100.0 ** covered
                for cell in cells:
                    score[cell] += weight
        best = max((i for i in range(size * size) if i not in shot), key=lambda i: (score[i], -i))
        return cell_name(best // size, best % size)


def _place(rng: random.Random, size: int, fleet: list[list[Any]]) -> list[list[Any]]:
    """Random non-overlapping placements: ``[name, [cell indices]]`` per ship (the longest placed first)."""
    taken: set[int] = set()
    placed = []
    for name, length in fleet:
        options = [cells for cells in _placements(size, length) if taken.isdisjoint(cells)]
        cells = rng.choice(options)  # a fleet always fits: at most 17 cells on 36 or more
        taken |= set(cells)
        placed.append([name, list(cells)])
    return placed


_FIRED = re.compile(r"You fire at ([a-z])(\d+): (miss|hit and sunk the ([a-z ]+)|hit)\.")


@functools.lru_cache(maxsize=None)
def _placements(size: int, length: int) -> tuple[tuple[int, ...], ...]:
    """Every position of a ship of ``length``, as cell indices (built once per board size and length: the density
    hunter counts them again before every shot)."""
    return tuple(tuple(r * size + c for r, c in cells) for cells in placements(size, length))


def _sunk_line(size: int, hits: set[int], last: int, length: int) -> set[int]:
    """The cells of a ship of ``length`` just sunk at ``last``: a line of hits through it (the first found)."""
    for cells in _placements(size, length):
        if last in cells and hits.issuperset(cells):
            return set(cells)
    return {last}


def _result(fleet: list[list[Any]], fired: list[int], index: int) -> str:
    for name, cells in fleet:
        if index in cells:
            return f"hit and sunk the {name}" if all(c in fired for c in cells) else "hit"
    return "miss"


def _all_sunk(fleet: list[list[Any]], fired: list[int]) -> bool:
    hit = set(fired)
    return all(c in hit for _, cells in fleet for c in cells)


def _fleet_rows(data: dict[str, Any]) -> list[list[str]]:
    size = data["size"]
    rows = [["."] * size for _ in range(size)]
    for name, cells in data["ours"]:
        for index in cells:
            rows[index // size][index % size] = name[0].upper()
    return rows


def _shots_picture(data: dict[str, Any], shots: list[int]) -> str:
    size = data["size"]
    ships = {c for _, cells in data["theirs"] for c in cells}
    rows = [["."] * size for _ in range(size)]
    for index in shots:
        rows[index // size][index % size] = "X" if index in ships else "o"
    return render_board(rows)


def _hunt(rng: random.Random, size: int, fleet: list[list[Any]], hunter: str) -> list[int]:
    """The opponent's shots, in order, until it has sunk ``fleet``."""
    owner = {c: name for name, cells in fleet for c in cells}
    sunk: set[str] = set()
    fired: list[int] = []
    tried: set[int] = set()
    for _ in range(size * size):
        open_hits = [c for c in fired if c in owner and owner[c] not in sunk]
        shot = _target(size, open_hits, tried) if open_hits else None
        if shot is None:
            pool = [c for c in range(size * size) if c not in tried]
            if hunter == "parity":
                checker = [c for c in pool if (c // size + c % size) % 2 == 0]
                pool = checker or pool
            elif hunter == "density":
                afloat = [length for name, length in ((n, len(cells)) for n, cells in fleet) if name not in sunk]
                pool = _densest(size, afloat, tried - set(owner), pool) or pool
            shot = rng.choice(pool)
        fired.append(shot)
        tried.add(shot)
        if shot in owner and all(c in tried for c in next(cells for name, cells in fleet if name == owner[shot])):
            sunk.add(owner[shot])
        if len(sunk) == len(fleet):
            break
    return fired


def _densest(size: int, lengths: list[int], misses: set[int], pool: list[int]) -> list[int]:
    """The cells of ``pool`` covered by the most placements of ships of ``lengths`` that avoid ``misses``."""
    cover = [0] * (size * size)
    for length in lengths:
        for cells in _placements(size, length):
            if misses.isdisjoint(cells):
                for cell in cells:
                    cover[cell] += 1
    best = max((cover[c] for c in pool), default=0)
    return [c for c in pool if cover[c] == best] if best else []


def _target(size: int, hits: list[int], tried: set[int]) -> int | None:
    """Next cell to try around unsunk hits: along the line of two aligned hits first, else any neighbour."""
    def neighbours(cell: int) -> list[int]:
        r, c = divmod(cell, size)
        around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return [a * size + b for a, b in around if 0 <= a < size and 0 <= b < size]

    hit_set = set(hits)
    for cell in hits:
        r, c = divmod(cell, size)
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr) * size + c + dc in hit_set and r + dr < size and c + dc < size:
                for k in range(1, size):  # extend the line both ways past the hits
                    for sign in (1, -1):
                        a, b = r + sign * k * dr, c + sign * k * dc
                        if 0 <= a < size and 0 <= b < size and a * size + b not in hit_set and a * size + b not in tried:
                            if sign == -1 or (r + (k - 1) * dr) * size + c + (k - 1) * dc in hit_set:
                                return a * size + b
    for cell in hits:
        for nxt in neighbours(cell):
            if nxt not in tried:
                return nxt
    return None
