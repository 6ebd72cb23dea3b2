"""Colour the regions of an ASCII map with k colours so that regions sharing an edge differ (any colouring).

The map is a grid whose cells carry region letters; a region is the cells of one letter (always connected),
and two regions are neighbours when cells of each share an edge (touching only at a corner does not count,
as the prompt says). The number of colours k is the fewest that work (found by exhaustive search), and the
map is redrawn until colouring the regions greedily in alphabetical order (each takes the smallest colour no
neighbour has) fails with k colours, so the textbook greedy rule does not solve it. Many colourings are
right: the verifier reads one colour (1 to k) per region and checks every neighbouring pair, naming a clash.

Difficulty: the neighbouring pairs (the constraints to satisfy) plus the regions, on the drawn map.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import read_integer

EXAMPLE = "A = 2, B = 1, C = 3, ..."  # a fixed placeholder of the right shape: never derived from the answer


def grow_regions(rng: random.Random, rows: int, cols: int, regions: int) -> list[list[int]]:
    """A random partition of the grid into ``regions`` connected regions grown from random seeds."""
    owner = [[-1] * cols for _ in range(rows)]
    frontier = []
    for index, (r, c) in enumerate(rng.sample([(r, c) for r in range(rows) for c in range(cols)], regions)):
        owner[r][c] = index
        frontier.append((r, c))
    while frontier:
        position = rng.randrange(len(frontier))
        r, c = frontier[position]
        free = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols and owner[r + dr][c + dc] < 0]
        if not free:
            frontier[position] = frontier[-1]
            frontier.pop()
            continue
        nr, nc = rng.choice(free)
        owner[nr][nc] = owner[r][c]
        frontier.append((nr, nc))
    return owner


def neighbours(owner: list[list[int]]) -> set[tuple[int, int]]:
    """Pairs ``(a, b)`` with ``a < b`` of regions that share an edge."""
    pairs = set()
    for r, row in enumerate(owner):
        for c, region in enumerate(row):
            for other in (owner[r + 1][c] if r + 1 < len(owner) else region, row[c + 1] if c + 1 < len(row) else region):
                if other != region:
                    pairs.add((min(region, other), max(region, other)))
    return pairs


def colouring(count: int, edges: set[tuple[int, int]], colours: int) -> list[int] | None:
    """A proper colouring of regions 0..count-1 by backtracking, or None when ``colours`` are too few.

    Regions are taken in breadth-first order from the one with most neighbours, so each region placed has
    already-coloured neighbours and dead ends show early.
    """
    adjacent: list[set[int]] = [set() for _ in range(count)]
    for a, b in edges:
        adjacent[a].add(b)
        adjacent[b].add(a)
    order: list[int] = []
    for root in sorted(range(count), key=lambda v: -len(adjacent[v])):
        if root in order:
            continue
        order.append(root)
        queue = [root]
        while queue:
            vertex = queue.pop(0)
            for other in sorted(adjacent[vertex], key=lambda v: -len(adjacent[v])):
                if other not in order:
                    order.append(other)
                    queue.append(other)
    chosen = [0] * count

    def place(position: int) -> bool:
        if position == count:
            return True
        region = order[position]
        for colour in range(1, colours + 1):
            if all(chosen[other] != colour for other in adjacent[region]):
                chosen[region] = colour
                if place(position + 1):
                    return True
        chosen[region] = 0
        return False

    return chosen[:] if place(0) else None


def greedy_fits(count: int, edges: set[tuple[int, int]], colours: int) -> bool:
    """Whether colouring in index order with the smallest colour free of earlier neighbours stays within k."""
    chosen: list[int] = []
    for index in range(count):
        taken = {chosen[a if b == index else b] for a, b in edges if index in (a, b) and min(a, b) < index}
        chosen.append(min(c for c in range(1, len(taken) + 2) if c not in taken))
    return max(chosen) <= colours


@register
class MapColouringAscii(Task):
    id = "spatial/map_colouring_ascii"
    family = "spatial"
    description = "Colour the lettered regions of an ASCII map with the fewest colours so neighbours differ."
    tags = ("spatial", "colouring", "grids", "constraint-satisfaction")

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        regions: int

    presets = (Config(5, 7, 8), Config(6, 8, 10), Config(7, 9, 12), Config(8, 10, 14), Config(9, 11, 16))
    # regions are named by the 26 letters; past that the map stops growing
    growth = Growth(steps={"rows": 1, "cols": 1, "regions": 2}, limits={"regions": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[list[int]], set[tuple[int, int]], int] | None:
            owner = grow_regions(rng, config.rows, config.cols, config.regions)
            edges = neighbours(owner)
            for colours in (2, 3, 4):
                if colouring(config.regions, edges, colours) is not None:
                    return (owner, edges, colours) if not greedy_fits(config.regions, edges, colours) else None
            return None

        owner, edges, colours = retry(draw, what="a map the alphabetical greedy colouring fails on")
        letters = string.ascii_uppercase[: config.regions]
        found = colouring(config.regions, edges, colours)
        assert found is not None
        picture = "\n".join("".join(letters[region] for region in row) for row in owner)
        prompt = (
            f"This map is divided into regions {letters[0]} to {letters[-1]}; each letter marks the cells of one "
            f"region:\n\n{picture}\n\nTwo regions are neighbours when a cell of one shares an edge with a cell of "
            "the other (touching only at a corner does not count). Give each region one of the colours 1 to "
            f"{colours} so that neighbours always have different colours. Answer with every region's colour, for "
            f"example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=", ".join(f"{letter} = {colour}" for letter, colour in
                                                       zip(letters, found, strict=True)),
                       data={"letters": letters, "colours": colours, "edges": sorted(map(list, edges))})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        letters, colours = problem.data["letters"], problem.data["colours"]
        given: dict[str, int] | None = read_assignment(answer, list(letters), read_integer)
        if given is None:
            return Verdict.unparsed(f"expected a colour for each of {letters[0]} to {letters[-1]}, such as A = 2")
        for letter, value in given.items():
            if value not in range(1, colours + 1):
                return Verdict.wrong(f"{letter} has colour {value}; the colours are 1 to {colours}")
        for a, b in problem.data["edges"]:
            if given[letters[a]] == given[letters[b]]:
                return Verdict.wrong(f"neighbours {letters[a]} and {letters[b]} both have colour {given[letters[a]]}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Neighbouring pairs (the constraints) plus regions."""
        return float(len(problem.data["edges"]) + len(problem.data["letters"]))

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        # another right colouring: the colours permuted
        permuted = ", ".join(f"{p.split(' = ')[0]} = {int(p.split(' = ')[1]) % problem.data['colours'] + 1}"
                             for p in pairs)
        return [*super().spellings(problem), "; ".join(reversed(pairs)), "\n".join(p.replace(" = ", ": ") for p in pairs),
                permuted]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        letters = problem.data["letters"]
        a, b = problem.data["edges"][0]
        pairs = dict(p.split(" = ") for p in (problem.answer or "").split(", "))
        clash = {**pairs, letters[b]: pairs[letters[a]]}
        out_of_range = {**pairs, letters[0]: str(problem.data["colours"] + 1)}
        return [", ".join(f"{k} = {v}" for k, v in clash.items()), ", ".join(f"{k} = {v}" for k, v in out_of_range.items()),
                ", ".join(f"{k} = 1" for k in letters), ", ".join(f"{k} = {v}" for k, v in list(pairs.items())[:-1])]
