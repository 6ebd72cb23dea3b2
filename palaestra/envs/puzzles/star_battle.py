"""Star Battle: place stars so that every row, column and region holds the same number of stars
and no two stars touch, not even diagonally.

A random star placement comes first (the SAT solver's :func:`random_model` over the row,
column and touching rules). Regions are grown from the stars (each region from its stars:
unassigned cells next to a region join a random neighbouring region), so the placement fits
them. A SAT solver (one variable per cell; exactly k stars per row, column and region; no two
touching) then looks for another placement; while one exists, a cell holding one of its stars
but none of ours moves to a neighbouring region (keeping both regions connected), which leaves
our placement valid and usually breaks the other. Layouts still ambiguous after a few moves are
drawn again, so every puzzle has exactly one solution.

Version 2: with one star per line the solver's random placement favoured a few of the possible ones, so one 5x5
grid was the answer of 0.11 of level 0 (500 seeds; 14 placements exist) and a constant grid paid. With one star per
line the placement is now drawn uniformly from all of them (each is a permutation whose neighbouring entries differ
by at least 2, listed once per size) and kept while layouts are tried: every level-0 answer is about 1/14.

The answer is the grid with ``*`` for a star and ``.`` for an empty cell, one row per line; the
verifier checks the rules.

Generation speed: about 70 problems/s at level 4 on this 2-core machine. A random star placement is itself a
SAT model, and each layout is then searched for a rival placement again after every region edit (about 40 SAT
calls per puzzle), with about 2 of 3 layouts redrawn because they stay ambiguous after a few edits; this is
what makes the puzzle have exactly one solution.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.puzzles.common import (
    CNF,
    NEIGHBOURS,
    PROOF_BUDGET,
    BudgetExhausted,
    ProofSolver,
    connected,
    copy_cnf,
    grid_corruptions,
    grid_spellings,
    random_model,
    read_marks,
    with_spaces,
)

_REPAIRS = 30  # region moves tried before a new layout is drawn
_LAYOUTS = 100  # layouts drawn before generation gives up
_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Cell = tuple[int, int]


@register
class StarBattle(Task):
    id = "puzzles/star_battle"
    version = 2
    family = "puzzles"
    description = "Place stars: the same number in every row, column and region, no two touching (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        stars: int  # per row, column and region

    presets = (
        Config(size=5, stars=1),
        Config(size=6, stars=1),
        Config(size=7, stars=1),
        Config(size=8, stars=1),
        Config(size=9, stars=2),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, k = config.size, config.stars
        base, star = _base_rules(n, k)
        cnf, _, member, layout_switches = _rules_with_regions(n, k)
        with ProofSolver(base, PROOF_BUDGET) as placer, ProofSolver(cnf, PROOF_BUDGET) as checker:
            switches = iter(layout_switches)
            # one star per line: the placement (the answer) is drawn first, uniformly, and kept while layouts are tried
            placement = sorted(enumerate(rng.choice(_one_per_line(n)))) if k == 1 else None
            stars, region = retry(lambda: _unique_layout(rng, n, k, placer, checker, star, member, next(switches),
                                                         placement),
                                  attempts=_LAYOUTS, what="a uniquely solvable layout")
        star_word = "star" if k == 1 else "stars"
        prompt = (
            f"Solve this {n}x{n} Star Battle puzzle. The grid is divided into {n} regions, shown by letters. "
            f"Place stars so that every row, every column and every region contains exactly {k} {star_word}, "
            "and no two stars touch each other, not even diagonally. The puzzle has exactly one solution.\n\n"
            + "\n".join(" ".join(_LABELS[v] for v in row) for row in region)
            + f"\n\nGive the grid as {n} lines of {n} characters, * for a star and . for an empty cell. For "
            "example, a 4x4 grid with one star per row and column could be written:\n.*..\n...*\n*...\n..*."
        )
        answer = "\n".join("".join("*" if (r, c) in stars else "." for c in range(n)) for r in range(n))
        regions = ["".join(_LABELS[v] for v in row) for row in region]
        return Problem(prompt=prompt, answer=answer, data={"regions": regions, "stars": k})

    def difficulty(self, problem: Problem) -> float:
        """Cells times stars per line, plus a tenth of the largest region's cells (the places a star may go)."""
        regions = problem.data["regions"]
        largest = max("".join(regions).count(letter) for letter in set("".join(regions)))
        return float(len(regions) ** 2 * problem.data["stars"]) + largest / 10

    def verify(self, problem: Problem, answer: str) -> Verdict:
        regions, k = problem.data["regions"], problem.data["stars"]
        n = len(regions)
        grid = read_marks(answer, n, n, "*X#", ".0")
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        stars = {(r, c) for r in range(n) for c in range(n) if grid[r][c]}
        for i in range(n):
            if sum(grid[i]) != k:
                return Verdict.wrong(f"row {i + 1} does not hold exactly {k} star(s)")
            if sum(grid[r][i] for r in range(n)) != k:
                return Verdict.wrong(f"column {i + 1} does not hold exactly {k} star(s)")
        for label in sorted(set("".join(regions))):
            if sum(1 for r, c in stars if regions[r][c] == label) != k:
                return Verdict.wrong(f"region {label} does not hold exactly {k} star(s)")
        for r, c in stars:
            if any((r + dr, c + dc) in stars for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)):
                return Verdict.wrong(f"the star in row {r + 1}, column {c + 1} touches another star")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *grid_spellings(gold), with_spaces(gold), gold.replace("*", "X"), f"```\n{gold}\n```",
                f"Answer: {gold}", f"**Answer:** {gold}", f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        mirrored = [row[::-1] for row in rows]  # rows, columns and touching still fine; regions not (unique)
        shifted = rows[1:] + rows[:1]
        wrong = [rows[:-1]] + [g for g in (mirrored, shifted) if g != rows]
        wrong_grids = ["\n".join(map("".join, g)) for g in wrong]
        return [*wrong_grids, *grid_corruptions(problem.answer or "", wrong_grids[0])]


@cache
def _base_rules(n: int, k: int) -> tuple[CNF, dict[Cell, int]]:
    """The rules that do not depend on the regions: k stars per row and column, no two touching."""
    cnf = CNF()
    star = {(r, c): cnf.var((r, c)) for r in range(n) for c in range(n)}
    for i in range(n):
        cnf.exactly([star[(i, c)] for c in range(n)], k)
        cnf.exactly([star[(r, i)] for r in range(n)], k)
    for (r, c), v in star.items():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            if (r + dr, c + dc) in star:
                cnf.add([-v, -star[(r + dr, c + dc)]])
    return cnf, star


@cache
def _rules_with_regions(n: int, k: int) -> tuple[CNF, dict[Cell, int], dict[tuple[Cell, int], int], list[int]]:
    """All the rules, with the regions as variables: ``member[(cell, label)]`` says the cell belongs
    to that region, and each region holds k stars among its members. A layout's regions are then
    solver assumptions, so one solver checks every region change of every layout one generation
    tries; each layout's "another placement" clause is switched on by a literal of its own (one
    spare variable per layout, since a solver takes no new variables)."""
    rules, star = _base_rules(n, k)
    cnf = copy_cnf(rules)
    switches = [cnf.auxiliary() for _ in range(_LAYOUTS)]
    member = {(cell, label): cnf.auxiliary() for cell in star for label in range(n)}  # unnamed: models stay small
    for label in range(n):
        starred = []
        for cell, v in star.items():
            both = cnf.auxiliary()  # this star is in the region
            inside = member[(cell, label)]
            cnf.clauses.extend([[-both, v], [-both, inside], [both, -v, -inside]])
            starred.append(both)
        cnf.exactly(starred, k)
    return cnf, star, member, switches


@cache
def _one_per_line(n: int) -> list[tuple[int, ...]]:
    """Every placement of one star per row and column with no two touching: the star's column in each row (a
    permutation whose neighbouring entries differ by at least 2; 14 for n = 5, 5,242 for n = 8)."""
    partial: list[tuple[int, ...]] = [()]
    for _ in range(n):  # extend every partial placement by one row
        partial = [p + (c,) for p in partial for c in range(n) if c not in p and (not p or abs(c - p[-1]) >= 2)]
    return partial


def _grow(rng: random.Random, n: int, seeds: list[list[Cell]]) -> list[list[int]]:
    """Regions grown from their seed cells: a random unassigned cell next to a region joins it."""
    region = [[-1] * n for _ in range(n)]
    frontier: list[Cell] = []  # unassigned cells next to a region
    waiting: set[Cell] = set()

    def assign(r: int, c: int, label: int) -> None:
        region[r][c] = label
        for dr, dc in NEIGHBOURS:
            cell = (r + dr, c + dc)
            if 0 <= cell[0] < n and 0 <= cell[1] < n and region[cell[0]][cell[1]] < 0 and cell not in waiting:
                waiting.add(cell)
                frontier.append(cell)

    for label, cells in enumerate(seeds):
        for r, c in cells:
            region[r][c] = label
    for label, cells in enumerate(seeds):
        for r, c in cells:
            assign(r, c, label)
    for _ in range(n * n):  # each pass assigns one cell
        if not frontier:
            break
        i = rng.randrange(len(frontier))
        frontier[i], frontier[-1] = frontier[-1], frontier[i]
        r, c = frontier.pop()
        waiting.discard((r, c))
        options = [region[r + dr][c + dc] for dr, dc in NEIGHBOURS
                   if 0 <= r + dr < n and 0 <= c + dc < n and region[r + dr][c + dc] >= 0]
        assign(r, c, rng.choice(options))
    return region


def _seeds(rng: random.Random, stars: list[Cell], k: int) -> list[list[Cell]] | None:
    """Stars grouped into regions of ``k`` (pairs joined by a shortest path of cells, for k = 2)."""
    if k == 1:
        return [[s] for s in stars]
    left = stars[:]
    rng.shuffle(left)
    groups = []
    for _ in range(len(stars) // 2):  # pair each star with a near one: regions stay compact
        first = left.pop()
        second = min(left, key=lambda s: (abs(s[0] - first[0]) + abs(s[1] - first[1]), rng.random()))
        left.remove(second)
        path = [first]
        r, c = first
        for _ in range(4 * len(stars) ** 2):  # walk towards the second star, one step at a time
            if (r, c) == second:
                break
            options = []
            if r != second[0]:
                options.append((r + (1 if second[0] > r else -1), c))
            if c != second[1]:
                options.append((r, c + (1 if second[1] > c else -1)))
            r, c = rng.choice(options)
            path.append((r, c))
        groups.append(path)
    taken: set[Cell] = set()
    star_cells = set(stars)
    for path in groups:
        if star_cells & set(path[1:-1]):
            return None  # a path through another star would put three stars in one region
        if taken & set(path):
            return None  # two paths cross: draw again
        taken |= set(path)
    return groups


def _unique_layout(rng: random.Random, n: int, k: int, placer: ProofSolver, checker: ProofSolver,
                   star: dict[Cell, int], member: dict[tuple[Cell, int], int],
                   switch: int, placement: list[Cell] | None = None) -> tuple[set[Cell], list[list[int]]] | None:
    """A random star placement (or the given one) and regions around it that no other placement fits, or None.

    ``placer`` holds the rules without regions; ``checker`` all of them, the regions given as
    assumptions; ``switch`` turns on this layout's "another placement" clause.
    """
    stars = placement
    if stars is None:
        model = random_model(placer, list(star), rng)
        if model is None:
            return None
        stars = sorted(cell for cell in star if model[cell])
    seeds = _seeds(rng, stars, k)
    if seeds is None:
        return None
    region = _grow(rng, n, seeds)
    ours = set(stars)
    checker.add([-switch, *(-v if cell in ours else v for cell, v in star.items())])  # another placement?
    for _ in range(_REPAIRS):
        regions = [v if region[cell[0]][cell[1]] == label else -v for (cell, label), v in member.items()]
        try:
            found = checker.model([switch, *regions])
        except BudgetExhausted:
            return None
        if found is None:
            order: dict[int, int] = {}  # region letters in reading order
            return ours, [[order.setdefault(v, len(order)) for v in row] for row in region]
        other = {cell for cell in star if found[cell]}
        movable = []
        for r, c in sorted(other - ours):
            here = region[r][c]
            members = {(i, j) for i in range(n) for j in range(n) if region[i][j] == here}
            if not connected(members - {(r, c)}):
                continue
            for dr, dc in NEIGHBOURS:
                if 0 <= r + dr < n and 0 <= c + dc < n and region[r + dr][c + dc] != here:
                    movable.append(((r, c), region[r + dr][c + dc]))
        if not movable:
            return None
        (r, c), target = rng.choice(movable)
        region[r][c] = target
    return None
