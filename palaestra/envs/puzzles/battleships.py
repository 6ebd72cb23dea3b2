"""Battleships (Bimaru): find the hidden fleet from the number of ship cells in every row and column.

Ships are straight lines of 1 to 4 cells; no two ships touch, not even diagonally. The prompt gives
the fleet, the count of ship cells in each row and column, and a few revealed cells (ship or water).

Generation places the fleet at random (each ship, longest first, at a random spot that touches no
other), then proves with a SAT solver that the counts and the revealed cells allow no other fleet:
cell variables, exact row and column counts, no two ship cells diagonally adjacent (which also
makes every group of ship cells a straight line), and for each ship length a gate per possible
position ("a run of exactly this length starts here") with an exact count of gates per length.
Cells are revealed one at a time where a competing solution differs from the hidden one, until
none remains; then revealed cells are dropped while the proof still goes through
(:func:`prune_clues`), so the puzzle has exactly one solution and a minimal set of revealed cells.

The verifier checks the rules on the answer (counts, fleet, no touching, revealed cells), never
compares strings.

Generation speed: about 140 problems/s of CPU time at level 4 (10x10) on this 2-core machine (fewer when it is
busy). Each drawn fleet gets its own SAT encoding: the row and column counts are encoded per fleet, while the
rules that depend only on the size and fleet (a gate per possible ship position, the ship counts) are built
once and replayed renumbered. Then one SAT call per revealed cell finds a competing fleet and one bounded proof
per revealed cell prunes them; loading the formula into the solver and the solver calls are now most of the
time, and both are what proves the one solution the prompt promises.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    BudgetExhausted,
    ClauseBlock,
    ProofSolver,
    prune_clues,
    read_marks,
)
from palaestra.generators.battleship import placements

Cell = tuple[int, int]
SHIP, WATER, UNKNOWN = "#", ".", "?"
_DIAGONALS = ((1, 1), (1, -1))
_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
_SHIP_NAMES = {1: "submarine", 2: "destroyer", 3: "cruiser", 4: "battleship"}


@register
class Battleships(Task):
    id = "puzzles/battleships"
    family = "puzzles"
    description = "Find a hidden fleet from ship-cell counts per row and column and a few revealed cells (Bimaru)."
    tags = ("puzzle", "grid", "constraint-satisfaction")
    multiline = True
    version = 2  # v2: the grid stops growing at 30x30 (level 24 on); at level 40 a 46x46 grid took ~2 s to prove unique

    @dataclass(frozen=True)
    class Config:
        size: int
        fleet: tuple[int, ...]  # ship lengths, longest first

    presets = (
        Config(size=6, fleet=(3, 2, 1, 1)),
        Config(size=7, fleet=(3, 2, 2, 1, 1)),
        Config(size=8, fleet=(4, 3, 2, 1, 1, 1)),
        Config(size=9, fleet=(4, 3, 2, 2, 1, 1, 1)),
        Config(size=10, fleet=(4, 3, 2, 2, 1, 1, 1)),
    )
    # The fleet keeps its size while the grid grows, so a far level's grid is mostly open water and its proof of one
    # solution costs more and more: the size is capped and the difficulty (unknown cells) saturates there.
    growth = Growth(limits={"size": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size
        ships, revealed = retry(lambda: _unique_puzzle(rng, n, config.fleet), what="a uniquely solvable fleet")
        rows = [sum((r, c) in ships for c in range(n)) for r in range(n)]
        cols = [sum((r, c) in ships for r in range(n)) for c in range(n)]
        shown = [[UNKNOWN] * n for _ in range(n)]
        for r, c in revealed:
            shown[r][c] = SHIP if (r, c) in ships else WATER
        fleet = Counter(config.fleet)
        fleet_text = ", ".join(f"{count} {_SHIP_NAMES[length]}{'s' if count > 1 else ''} ({length} cell"
                               f"{'s' if length > 1 else ''})" for length, count in sorted(fleet.items(), reverse=True))
        drawing = "\n".join(" ".join(row) + f"  | {rows[r]}" for r, row in enumerate(shown))
        drawing += "\n" + " ".join("-" * n) + "\n" + " ".join(map(str, cols))  # counts < 10: ships never touch
        prompt = (
            f"Solve this {n}x{n} Battleships puzzle. The fleet is: {fleet_text}. Each ship is a straight horizontal "
            "or vertical line of cells; no two ships touch, not even diagonally. The number after each row is how "
            "many of its cells hold a ship; the numbers under the grid count the ship cells in each column. "
            f"Revealed cells: {SHIP} is part of a ship, {WATER} is water; {UNKNOWN} is unknown. The puzzle has exactly one "
            f"solution.\n\n{drawing}\n\n"
            f"Give the whole grid as {n} lines of {n} characters: # for a ship cell and . for water. For example, a "
            "4x4 grid with a 2-cell ship and a submarine could be written:\n.##.\n....\n...#\n...."
        )
        answer = "\n".join("".join(SHIP if (r, c) in ships else "." for c in range(n)) for r in range(n))
        return Problem(prompt=prompt, answer=answer, data={
            "fleet": list(config.fleet), "rows": rows, "cols": cols, "shown": ["".join(row) for row in shown]})

    def difficulty(self, problem: Problem) -> float:
        """Unknown cells (the grid's area less the revealed cells)."""
        return float(sum(row.count(UNKNOWN) for row in problem.data["shown"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        n = len(data["rows"])
        grid = read_marks(answer, n, n, SHIP, WATER)
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        ships = {(r, c) for r in range(n) for c in range(n) if grid[r][c]}
        for r, row in enumerate(data["shown"]):
            for c, mark in enumerate(row):
                if mark != UNKNOWN and ((r, c) in ships) != (mark == SHIP):
                    return Verdict.wrong(f"row {r + 1}, column {c + 1} is revealed as {'ship' if mark == SHIP else 'water'}")
        for r in range(n):
            if sum(grid[r]) != data["rows"][r]:
                return Verdict.wrong(f"row {r + 1} has {sum(grid[r])} ship cells, not {data['rows'][r]}")
        for c in range(n):
            count = sum(grid[r][c] for r in range(n))
            if count != data["cols"][c]:
                return Verdict.wrong(f"column {c + 1} has {count} ship cells, not {data['cols'][c]}")
        for r, c in ships:
            for dr, dc in _DIAGONALS:
                if (r + dr, c + dc) in ships:
                    return Verdict.wrong(f"the ships at row {r + 1}, column {c + 1} and row {r + dr + 1}, column "
                                         f"{c + dc + 1} touch diagonally")
        lengths = sorted(_ship_lengths(ships), reverse=True)
        if lengths != sorted(data["fleet"], reverse=True):
            return Verdict.wrong(f"the ships have lengths {lengths}, not the fleet {sorted(data['fleet'], reverse=True)}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), " \n".join(" ".join(row) for row in gold.splitlines()),
                f"```\n{gold}\n```", f"Solution:\n{gold}", "\n".join("|".join(row) for row in gold.splitlines())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        n = len(rows)
        ship_cells = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == SHIP]
        water = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == "."]
        moved = [row[:] for row in rows]
        (r, c), (r2, c2) = rng.choice(ship_cells), rng.choice(water)
        moved[r][c], moved[r2][c2] = ".", SHIP
        dropped = [row[:] for row in rows]
        dropped[r][c] = "."
        transposed = [list(col) for col in zip(*rows)]
        wrong = [moved, dropped, rows[:-1], transposed]
        return [text for text in ("\n".join(map("".join, g)) for g in wrong) if text != problem.answer]


def _ship_lengths(ships: set[Cell]) -> list[int]:
    """Lengths of the orthogonally connected groups of ship cells (straight, once diagonals are ruled out)."""
    seen: set[Cell] = set()
    lengths = []
    for start in ships:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:  # each ship cell is pushed once
            r, c = stack.pop()
            size += 1
            for dr, dc in _ORTHOGONAL:
                neighbour = (r + dr, c + dc)
                if neighbour in ships and neighbour not in seen:
                    seen.add(neighbour)
                    stack.append(neighbour)
        lengths.append(size)
    return lengths


@cache
def _placements(n: int, length: int) -> tuple[tuple[Cell, ...], ...]:
    """Every position of a ship of ``length`` cells, the horizontal ones first (cached: it depends only on the size)."""
    ordered = sorted(placements(n, length), key=lambda cells: cells[0][0] != cells[-1][0])  # stable: row by row
    return tuple(tuple(cells) for cells in ordered)


def _place_fleet(rng: random.Random, n: int, fleet: tuple[int, ...]) -> set[Cell] | None:
    ships: set[Cell] = set()
    blocked: set[Cell] = set()  # ship cells and their eight neighbours
    for length in fleet:
        free = [cells for cells in _placements(n, length) if blocked.isdisjoint(cells)]
        if not free:
            return None
        cells = rng.choice(free)
        ships.update(cells)
        blocked.update((r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return ships


def _rules(n: int, fleet: tuple[int, ...], rows: list[int], cols: list[int]) -> tuple[CNF, dict[Cell, int]]:
    cnf = CNF()
    cell = {(r, c): cnf.var((r, c)) for r in range(n) for c in range(n)}
    for i in range(n):
        cnf.exactly([cell[i, c] for c in range(n)], rows[i])
        cnf.exactly([cell[r, i] for r in range(n)], cols[i])
    _fleet_rules(n, fleet).replay(cnf)
    return cnf, cell


@cache
def _fleet_rules(n: int, fleet: tuple[int, ...]) -> ClauseBlock:
    """The rules that do not depend on the counts (no diagonal contact, a gate per ship position, the number of
    ships of each length), over the cell variables 1..n*n: cached per size and fleet, since encoding the gates
    is most of the work of building a puzzle's formula."""
    cnf = CNF()
    cell = {(r, c): cnf.var((r, c)) for r in range(n) for c in range(n)}
    for (r, c), lit in cell.items():
        for dr, dc in _DIAGONALS:
            if (r + dr, c + dc) in cell:
                cnf.add([-lit, -cell[r + dr, c + dc]])
    for length, count in Counter(fleet).items():
        gates = []
        for cells in _placements(n, length):
            (r0, c0), (r1, c1) = cells[0], cells[-1]
            if length == 1:
                ends = [(r0 + dr, c0 + dc) for dr, dc in _ORTHOGONAL]
            elif r0 == r1:
                ends = [(r0, c0 - 1), (r1, c1 + 1)]
            else:
                ends = [(r0 - 1, c0), (r1 + 1, c1)]
            gates.append(cnf.and_of([cell[x] for x in cells] + [-cell[x] for x in ends if x in cell]))
        cnf.exactly(gates, count)
    return ClauseBlock(cnf.clauses, fixed=n * n, top=cnf.top)


def _unique_puzzle(rng: random.Random, n: int, fleet: tuple[int, ...]) -> tuple[set[Cell], list[Cell]] | None:
    ships = _place_fleet(rng, n, fleet)
    if ships is None:
        return None
    rows = [sum((r, c) in ships for c in range(n)) for r in range(n)]
    cols = [sum((r, c) in ships for r in range(n)) for c in range(n)]
    cnf, cell = _rules(n, fleet, rows, cols)
    truth = {x: (lit if x in ships else -lit) for x, lit in cell.items()}
    cnf.add([-lit for lit in truth.values()])  # any other solution differs in some cell
    revealed: list[Cell] = []
    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        try:
            for _ in range(n * n):  # each round reveals a new cell
                rival = solver.model([truth[x] for x in revealed])
                if rival is None:
                    break
                differing = [x for x in cell if rival[x] != (x in ships)]
                revealed.append(rng.choice(differing))
            else:
                return None
        except BudgetExhausted:
            return None
        order = list(range(len(revealed)))
        rng.shuffle(order)
        kept = prune_clues(solver, [[truth[x]] for x in revealed], order)
    return ships, sorted(x for x, keep in zip(revealed, kept) if keep)
