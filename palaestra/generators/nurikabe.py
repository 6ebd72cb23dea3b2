"""Nurikabe: random solved grids, the rule checks, and a uniqueness proof with the shared SAT solver.

A Nurikabe grid is split into *islands* and the *sea*. Each island holds exactly one numbered clue
cell and as many cells as its number; islands touch each other only at corners; the sea (every
other cell) is one orthogonally connected region and holds no 2x2 block.

- :func:`random_solution`: islands grown at random and grown into every 2x2 block of sea, keeping
  the sea connected; a clue is put on a random cell of each island;
- :func:`conflicts`: the rule breaks a partly marked grid shows for certain (a 2x2 block of sea,
  an island with two clues, one larger than its number, a closed island too small or without a
  number, a closed-off part of the sea), never whether a mark agrees with the solution;
- :func:`count_solutions`: how many grids the clues allow (up to ``limit``), by SAT over "sea" and
  "cell belongs to clue k" with the connectivity of islands and sea added lazily as cuts (a part
  cut off must grow past its border) until a model passes.

Example::

    >>> count_solutions(3, 3, [((0, 0), 2), ((2, 2), 2)])  # a1+a2 with c3+c2, or a1+b1 with c3+b3
    2
    >>> count_solutions(3, 3, [((0, 0), 3), ((2, 2), 1)])  # only a1 b1 a2 keeps the sea whole and pool-free
    1
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from functools import lru_cache

from palaestra.solvers.sat import CNF, SatSolver

Cell = tuple[int, int]
Clue = tuple[Cell, int]
MAX_CUT_ROUNDS = 400  # SAT calls one uniqueness question may take (cuts and blocked models together)


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)) if 0 <= r + dr < rows and 0 <= c + dc < cols]


@lru_cache(maxsize=64)
def _adjacency(rows: int, cols: int) -> dict[Cell, list[Cell]]:
    """Every cell's :func:`neighbours`, in the same order (cached per grid size: the searches ask for them
    again and again). Callers only read the lists."""
    return {(r, c): neighbours((r, c), rows, cols) for r in range(rows) for c in range(cols)}


def components(cells: Iterable[Cell], rows: int, cols: int) -> list[set[Cell]]:
    """The orthogonally connected parts of ``cells`` (cells of the ``rows`` x ``cols`` grid)."""
    adjacency = _adjacency(rows, cols)
    left = set(cells)
    parts = []
    while left:
        start = min(left)
        part, queue = {start}, deque([start])
        left.discard(start)
        while queue:
            for nxt in adjacency[queue.popleft()]:
                if nxt in left:
                    left.discard(nxt)
                    part.add(nxt)
                    queue.append(nxt)
        parts.append(part)
    return parts


def _bit(cell: Cell, cols: int) -> int:
    """The cell as one bit of a set of cells held in an int: bit ``r * (cols + 1) + c`` (a spare column between
    rows, so that no shift by one wraps round to the next row)."""
    return 1 << (cell[0] * (cols + 1) + cell[1])


def _flood(seed: int, cells: int, cols: int) -> int:
    """The cells of ``cells`` (a set of :func:`_bit`) orthogonally connected to the cells of ``seed``: one
    shift per direction and step, so a connectivity test costs a few int operations, not a search."""
    width = cols + 1
    reach = seed & cells
    while True:
        grown = (reach | reach << 1 | reach >> 1 | reach << width | reach >> width) & cells
        if grown == reach:
            return reach
        reach = grown


def pools(sea: set[Cell], rows: int, cols: int) -> list[list[Cell]]:
    """The 2x2 blocks wholly in ``sea``."""
    blocks = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if all(cell in sea for cell in block):
                blocks.append(block)
    return blocks


def _pools_of_bits(sea_bits: int, cols: int) -> list[list[Cell]]:
    """:func:`pools` of a sea held as :func:`_bit` s, in the same order (by top-left cell, row by row)."""
    width = cols + 1
    corners = sea_bits & sea_bits >> 1 & sea_bits >> width & sea_bits >> (width + 1)  # the spare column and
    blocks = []                                                                        # the grid's end cut the rest
    while corners:
        low = corners & -corners
        r, c = divmod(low.bit_length() - 1, width)
        blocks.append([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)])
        corners ^= low
    return blocks


def random_solution(rng: random.Random, rows: int, cols: int, largest: int, seeds: int) -> list[set[Cell]] | None:
    """Islands of a solved grid (at most ``largest`` cells each), or None when the growth gets stuck."""
    sea = {(r, c) for r in range(rows) for c in range(cols)}
    island_of: dict[Cell, int] = {}
    islands: list[set[Cell]] = []

    adjacency = _adjacency(rows, cols)
    sea_bits = sum(_bit(cell, cols) for cell in sea)  # the sea again, as one int

    def grow(cell: Cell) -> bool:
        nonlocal sea_bits
        touching = {island_of[n] for n in adjacency[cell] if n in island_of}
        if len(touching) > 1 or (touching and len(islands[next(iter(touching))]) >= largest):
            return False
        rest = sea_bits & ~_bit(cell, cols)
        if _flood(rest & -rest, rest, cols) != rest:  # the rest of the sea would fall apart
            return False
        index = touching.pop() if touching else len(islands)
        if index == len(islands):
            islands.append(set())
        islands[index].add(cell)
        island_of[cell] = index
        sea.discard(cell)
        sea_bits = rest
        return True

    for _ in range(seeds):  # free growth first, so that islands come in several sizes
        if islands and rng.random() < 0.7:
            island = islands[rng.randrange(len(islands))]
            border = sorted({n for cell in island for n in adjacency[cell] if n in sea})
            if border:
                grow(rng.choice(border))
        else:
            grow(rng.choice(sorted(sea)))
    for _ in range(rows * cols):  # then fill every 2x2 block of sea
        blocks = _pools_of_bits(sea_bits, cols)
        if not blocks:
            return islands
        block = rng.choice(blocks)
        if not any(grow(cell) for cell in rng.sample(block, 4)):
            return None
    return None


def conflicts(rows: int, cols: int, clues: Sequence[Clue], shaded: set[Cell], dotted: set[Cell]) -> list[str]:
    """The rule breaks the marks show for certain (shaded: sea; dotted and clue cells: island), as sentences."""
    numbers = dict(clues)
    problems = []
    for block in pools(shaded, rows, cols):
        problems.append(f"a 2x2 block of sea at {_name(block[0])}-{_name(block[3])}")
    land = dotted | set(numbers)
    for part in components(land, rows, cols):
        inside = sorted(cell for cell in part if cell in numbers)
        border = {n for cell in part for n in neighbours(cell, rows, cols)} - part
        closed = border <= shaded
        where = _name(min(part))
        if len(inside) > 1:
            problems.append(f"the island at {where} holds {len(inside)} numbers")
        elif inside and len(part) > numbers[inside[0]]:
            problems.append(f"the island of the {numbers[inside[0]]} at {_name(inside[0])} has {len(part)} cells")
        elif inside and closed and len(part) < numbers[inside[0]]:
            problems.append(f"the island of the {numbers[inside[0]]} at {_name(inside[0])} is closed at "
                            f"{len(part)} cells")
        elif not inside and closed:
            problems.append(f"the island at {where} is closed without a number")
    seas = components(shaded, rows, cols)
    if len(seas) > 1:
        for part in seas:
            border = {n for cell in part for n in neighbours(cell, rows, cols)} - part
            if border <= land:
                problems.append(f"the sea at {_name(min(part))} is cut off from the rest of the sea")
    return problems


def _name(cell: Cell) -> str:
    return f"{chr(97 + cell[1])}{cell[0] + 1}"


def count_solutions(rows: int, cols: int, clues: Sequence[Clue], limit: int = 2,
                    givens: dict[Cell, bool] | None = None) -> int:
    """How many solved grids the clues (and ``givens``: cell -> is sea) allow, counting no further than ``limit``
    (``limit`` also when the proof takes more than :data:`MAX_CUT_ROUNDS` solver calls, so an unproven grid is
    never called unique)."""
    found = solutions(rows, cols, clues, limit, givens)
    return limit if found is None else len(found)


def solutions(rows: int, cols: int, clues: Sequence[Clue], limit: int = 2,
              givens: dict[Cell, bool] | None = None) -> list[set[Cell]] | None:
    """The seas of up to ``limit`` solved grids the clues and ``givens`` allow; None when the proof takes more
    than :data:`MAX_CUT_ROUNDS` solver calls."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    cnf = CNF()
    sea = {cell: cnf.var(("sea", cell)) for cell in cells}
    owner: dict[tuple[int, Cell], int] = {}
    clue_cells = {cell for cell, _ in clues}
    for k, (clue, size) in enumerate(clues):
        (r0, c0) = clue
        for r in range(max(0, r0 - size + 1), min(rows, r0 + size)):  # the cells closer than ``size`` steps,
            spread = size - 1 - abs(r - r0)                           # row by row as in ``cells``
            for c in range(max(0, c0 - spread), min(cols, c0 + spread + 1)):
                cell = (r, c)
                if cell == clue or cell not in clue_cells:
                    owner[(k, cell)] = cnf.var(("island", k, cell))
        cnf.add([-sea[clue]])
        cnf.add([owner[(k, clue)]])
        cnf.exactly([v for (j, _), v in owner.items() if j == k], size)
    by_cell: dict[Cell, list[tuple[int, int]]] = {cell: [] for cell in cells}
    for (k, cell), v in owner.items():
        by_cell[cell].append((k, v))
    for cell in cells:
        mine = [v for _, v in by_cell[cell]]
        cnf.add([sea[cell], *mine])
        for v in mine:
            cnf.add([-v, -sea[cell]])
        for i, a in enumerate(mine):
            for b in mine[i + 1:]:
                cnf.add([-a, -b])
        for nxt in neighbours(cell, rows, cols):
            if nxt < cell:
                continue  # each pair of neighbours once
            for k, a in by_cell[cell]:
                for j, b in by_cell[nxt]:
                    if j != k:
                        cnf.add([-a, -b])
    for block in pools(set(cells), rows, cols):
        cnf.add([-sea[cell] for cell in block])
    for cell, is_sea in (givens or {}).items():
        cnf.add([sea[cell] if is_sea else -sea[cell]])
    owned: list[list[tuple[Cell, tuple[str, int, Cell], int]]] = [[] for _ in clues]  # each clue's cells, in
    for k, cell in owner:                                                                  # owner's order
        owned[k].append((cell, ("island", k, cell), _bit(cell, cols)))
    found: list[set[Cell]] = []
    with SatSolver(cnf) as solver:
        for _ in range(MAX_CUT_ROUNDS):
            model = solver.model()
            if model is None:
                return found
            water = {cell for cell in cells if model[("sea", cell)]}
            cuts = _cuts(rows, cols, clues, water, model, sea, owner, owned)
            if cuts:
                for clause in cuts:
                    solver.add(clause)
                continue
            found.append(water)
            if len(found) >= limit:
                return found
            solver.add([-sea[cell] if cell in water else sea[cell] for cell in cells])
    return None


def _cuts(rows: int, cols: int, clues: Sequence[Clue], water: set[Cell], model: dict, sea: dict[Cell, int],
          owner: dict[tuple[int, Cell], int], owned: list[list[tuple[Cell, tuple[str, int, Cell], int]]]
          ) -> list[list[int]]:
    """Clauses that cut off the model's broken connections: a part of an island away from its clue, or a part
    of the sea apart from another, must grow past its border. ``owned[k]``: the cells clue ``k`` may own, with
    their variables' names and their :func:`_bit`."""
    adjacency = _adjacency(rows, cols)
    cuts = []
    for k, (clue, _) in enumerate(clues):
        mine_bits = 0
        for _, name, bit in owned[k]:
            if model[name]:
                mine_bits |= bit
        if _flood(_bit(clue, cols), mine_bits, cols) == mine_bits:
            continue  # one part, holding the clue: nothing to cut (the usual case)
        mine = {cell for cell, name, _ in owned[k] if model[name]}
        for part in components(mine, rows, cols):
            if clue in part:
                continue
            border = {n for cell in part for n in adjacency[cell]} - part
            cuts.append([-owner[(k, cell)] for cell in part] + [owner[(k, n)] for n in border if (k, n) in owner])
    water_bits = sum(_bit(cell, cols) for cell in water)
    if _flood(water_bits & -water_bits, water_bits, cols) == water_bits:
        return cuts  # the sea is one part (or none)
    parts = components(water, rows, cols)
    if len(parts) > 1:
        for part in parts:
            other = next(cell for cell in water if cell not in part)
            border = {n for cell in part for n in adjacency[cell]} - part
            cuts.append([-sea[cell] for cell in part] + [-sea[other]] + [sea[n] for n in border])
    return cuts
