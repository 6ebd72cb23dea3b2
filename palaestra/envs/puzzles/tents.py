"""Tents: pitch one tent next to every tree, no two tents touching, matching the row and column counts.

Generation places tents at random (never touching, not even diagonally) and gives each a tree
on a free orthogonal neighbour; the counts of tents per row and column are the clues. A SAT
solver (tent variables on the free cells; no two touching; exact counts; a tree-tent pairing
where every tree takes exactly one adjacent tent and every tent belongs to exactly one adjacent
tree) looks for another set of tent cells (the pairing may differ; the tents may not); layouts
that have one are drawn again, so every puzzle has exactly one solution.

The answer is the grid with ``T`` for the trees, ``A`` for the tents and ``.`` for empty cells,
one row per line; the verifier checks the rules, including that a one-to-one pairing of trees
and adjacent tents exists (a bipartite matching).

Version 2: the top level (and every level past it) redraws puzzles that the textbook rules finish: unit
propagation over the rules (a full row or column empties its other cells, one that needs as many tents as it has
open cells fills them, a cell next to no tree stays empty, the cells around a tent stay empty, a tree with one open
neighbour left gets its tent there), applied until it stalls. In version 1 they finished 32% of the level 4 puzzles
(100 seeds; 75% at level 2, 56% at level 3), so a policy that learned those rules and nothing else earned a third
of the top level. Version 2 keeps levels 0-3 as they were (a curriculum the rules mostly solve) and the declared
heuristic ``textbook rules until they stall`` scores 0 at level 4 (100 seeds). One-step lookahead (a cell whose
tent or emptiness the rules refute at once) still finishes these puzzles; that is reasoning by contradiction, the
solving the env asks for.

Generation speed: about 110-200 problems/s at level 4 (depending on the machine's load) on this 2-core
machine. Each drawn layout gets its own SAT encoding (tent cells, exact row and column counts, the tree-tent
pairing) and one call that looks for another set of tent cells; building and loading that encoding is most of
the time, and about 1 layout in 2 is redrawn because such a rival exists (at the top level about 1 in 3 more
because the textbook rules finish it, about 135 problems/s there in version 2). The proof is what makes the
puzzle have exactly one solution.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.puzzles.common import (
    CNF,
    NEIGHBOURS,
    PROOF_BUDGET,
    BudgetExhausted,
    ProofSolver,
    grid_corruptions,
    grid_spellings,
    read_cells,
    with_spaces,
)

Cell = tuple[int, int]
_TENTS = "A^"


@register
class Tents(Task):
    id = "puzzles/tents"
    family = "puzzles"
    description = "Pitch a tent beside every tree, tents never touching, matching line counts (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "matching")
    multiline = True
    version = 2  # v2: the top level (and every level past it) redraws puzzles the textbook rules finish

    @dataclass(frozen=True)
    class Config:
        size: int
        density: float  # chance a cell is tried as a tent while the layout is drawn
        beyond_textbook: bool = False  # keep only puzzles that the textbook rules (unit propagation) do not finish

    presets = (
        Config(size=5, density=0.5),
        Config(size=6, density=0.5),
        Config(size=8, density=0.5),
        Config(size=10, density=0.5),
        Config(size=12, density=0.5, beyond_textbook=True),
    )
    # Capped at level 11's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"size": 1}, limits={"size": 19})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size

        def accept(layout: tuple[set[Cell], set[Cell]]) -> bool:
            return _unique(n, *layout) and not (config.beyond_textbook and _propagation_finishes(n, *layout))

        tents, trees = retry(lambda: _layout(rng, n, config.density), accept=accept, what="a uniquely solvable layout")
        rows, cols = _counts(n, tents)
        picture = [" ".join("T" if (r, c) in trees else "." for c in range(n)) + f"  {rows[r]}" for r in range(n)]
        picture.append(" ".join(map(str, cols)))
        prompt = (
            f"Solve this {n}x{n} Tents puzzle. T marks a tree. Place tents in empty cells so that every tree has "
            "its own tent directly above, below, left or right of it (trees and tents pair up one to one), no two "
            "tents touch each other, not even diagonally, and each row and column holds as many tents as the "
            "number at its end (row counts on the right, column counts below). The puzzle has exactly one "
            "solution.\n\n" + "\n".join(picture)
            + f"\n\nGive the grid as {n} lines of {n} characters: T for a tree, A for a tent and . for an empty "
            "cell. For example, a 3x3 grid with one tree and its tent could be written:\n.T.\n.A.\n..."
        )
        answer = "\n".join("".join("T" if (r, c) in trees else "A" if (r, c) in tents else "." for c in range(n))
                           for r in range(n))
        data = {"trees": sorted([r, c] for r, c in trees), "rows": rows, "cols": cols, "size": n}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Cells in the grid plus the trees to pair with tents."""
        return float(problem.data["size"] ** 2 + len(problem.data["trees"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["size"]
        trees = {(r, c) for r, c in problem.data["trees"]}
        grid = read_cells(answer, n, n, "Tt." + _TENTS + _TENTS.lower())
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        grid = [[mark.upper() for mark in row] for row in grid]  # t and a read as T and A
        tents = set()
        for r in range(n):
            for c in range(n):
                if (grid[r][c] == "T") != ((r, c) in trees):
                    return Verdict.wrong(f"row {r + 1}, column {c + 1}: trees stay exactly where the puzzle has them")
                if grid[r][c] in _TENTS:
                    tents.add((r, c))
        for i in range(n):
            if sum(1 for r, _ in tents if r == i) != problem.data["rows"][i]:
                return Verdict.wrong(f"row {i + 1} does not hold {problem.data['rows'][i]} tent(s)")
            if sum(1 for _, c in tents if c == i) != problem.data["cols"][i]:
                return Verdict.wrong(f"column {i + 1} does not hold {problem.data['cols'][i]} tent(s)")
        for r, c in tents:
            if any((r + dr, c + dc) in tents for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)):
                return Verdict.wrong(f"the tent in row {r + 1}, column {c + 1} touches another tent")
        if len(tents) != len(trees) or _matching_size(trees, tents) != len(trees):
            return Verdict.wrong("the trees and tents cannot be paired one to one with each tent next to its tree")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *grid_spellings(gold), with_spaces(gold), gold.replace("A", "^"), f"```\n{gold}\n```"]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"textbook rules until they stall": _textbook_answer}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        tents = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "A"]
        empty = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "."]
        moved = [row[:] for row in rows]
        r, c = rng.choice(tents)
        moved[r][c] = "."
        r, c = rng.choice(empty)
        moved[r][c] = "A"
        wrong_grids = ["\n".join(map("".join, g)) for g in (moved, rows[:-1])]
        return [*wrong_grids, *grid_corruptions(problem.answer or "", wrong_grids[0])]


def _matching_size(trees: set[Cell], tents: set[Cell]) -> int:
    """Size of a maximum matching between trees and orthogonally adjacent tents (augmenting paths)."""
    owner: dict[Cell, Cell] = {}

    def augment(tree: Cell, seen: set[Cell]) -> bool:
        for dr, dc in NEIGHBOURS:
            tent = (tree[0] + dr, tree[1] + dc)
            if tent in tents and tent not in seen:
                seen.add(tent)
                if tent not in owner or augment(owner[tent], seen):
                    owner[tent] = tree
                    return True
        return False

    return sum(augment(tree, set()) for tree in sorted(trees))


def _layout(rng: random.Random, n: int, density: float) -> tuple[set[Cell], set[Cell]]:
    """Random non-touching tents, each with a tree on a free orthogonal neighbour."""
    tents: set[Cell] = set()
    trees: set[Cell] = set()
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    for r, c in cells:
        if rng.random() >= density or (r, c) in trees:
            continue
        if any((r + dr, c + dc) in tents for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
            continue
        spots = [(r + dr, c + dc) for dr, dc in NEIGHBOURS
                 if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in tents | trees]
        if spots:
            tents.add((r, c))
            trees.add(rng.choice(spots))
    return tents, trees


def _rules(n: int, trees: set[Cell], rows: list[int], cols: list[int]) -> tuple[CNF, dict[Cell, int]]:
    """The puzzle's rules as CNF over tent variables on the free cells (plus tree-tent pairing variables)."""
    cnf = CNF()
    tent = {(r, c): cnf.var((r, c)) for r in range(n) for c in range(n) if (r, c) not in trees}
    for (r, c), v in tent.items():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            if (r + dr, c + dc) in tent:
                cnf.add([-v, -tent[(r + dr, c + dc)]])
    for i in range(n):
        cnf.exactly([tent[(i, c)] for c in range(n) if (i, c) in tent], rows[i])
        cnf.exactly([tent[(r, i)] for r in range(n) if (r, i) in tent], cols[i])
    pairs_at: dict[Cell, list[int]] = {}
    for tree in sorted(trees):
        pairs = []
        for dr, dc in NEIGHBOURS:
            cell = (tree[0] + dr, tree[1] + dc)
            if cell in tent:
                pair = cnf.var(("pair", tree, cell))
                cnf.implies(pair, tent[cell])
                pairs.append(pair)
                pairs_at.setdefault(cell, []).append(pair)
        cnf.exactly_one(pairs)
    for cell, v in tent.items():
        pairs = pairs_at.get(cell, [])
        cnf.at_most(pairs, 1)
        cnf.add([-v, *pairs])  # a tent belongs to a tree
    return cnf, tent


def _counts(n: int, tents: set[Cell]) -> tuple[list[int], list[int]]:
    return [sum(1 for r, _ in tents if r == i) for i in range(n)], [sum(1 for _, c in tents if c == i) for i in range(n)]


def _unique(n: int, tents: set[Cell], trees: set[Cell]) -> bool:
    """Whether no other set of tent cells satisfies the puzzle (an exhausted budget counts as no)."""
    if not tents:
        return False
    cnf, tent = _rules(n, trees, *_counts(n, tents))
    cnf.add([-v if cell in tents else v for cell, v in tent.items()])  # other tent cells
    try:
        with ProofSolver(cnf, PROOF_BUDGET) as solver:
            return not solver.satisfiable()
    except BudgetExhausted:
        return False


def _propagated(n: int, trees: set[Cell], rows: list[int], cols: list[int]) -> dict[Cell, bool]:
    """The cells the textbook rules decide, applied until they stall: unit propagation over :func:`_rules`.

    Each rule forces what it alone implies: a full row or column empties its other cells, one that needs as many
    tents as it has open cells fills them, a cell next to no tree stays empty, the eight cells around a tent stay
    empty, a tree with one open neighbour left gets its tent there, a tent claimed by one tree is no other's.
    """
    cnf, tent = _rules(n, trees, rows, cols)
    watching: dict[int, list[list[int]]] = {}
    for clause in cnf.clauses:
        for lit in clause:
            watching.setdefault(-lit, []).append(clause)  # the clauses to look at when ``lit`` turns false
    true: set[int] = set()
    queue = [clause[0] for clause in cnf.clauses if len(clause) == 1]
    true.update(queue)
    while queue:  # each literal enters the queue at most once
        for clause in watching.get(queue.pop(), ()):
            if any(lit in true for lit in clause):
                continue
            open_lits = [lit for lit in clause if -lit not in true]
            if len(open_lits) == 1 and open_lits[0] not in true:
                true.add(open_lits[0])
                queue.append(open_lits[0])
    return {cell: v in true for cell, v in tent.items() if v in true or -v in true}


def _textbook_answer(problem: Problem) -> str:
    """The grid the textbook rules reach: a tent where they force one, ``.`` on every other free cell."""
    n = problem.data["size"]
    trees = {(r, c) for r, c in problem.data["trees"]}
    decided = _propagated(n, trees, problem.data["rows"], problem.data["cols"])
    return "\n".join("".join("T" if (r, c) in trees else "A" if decided.get((r, c)) else "." for c in range(n))
                     for r in range(n))


def _propagation_finishes(n: int, tents: set[Cell], trees: set[Cell]) -> bool:
    """Whether :func:`_propagated` decides every cell of the puzzle (the textbook rules alone solve it)."""
    return len(_propagated(n, trees, *_counts(n, tents))) == n * n - len(trees)
