"""Count the shortest paths between two nodes of a graph.

Random sparse graphs rarely have more than two or three shortest paths between any pair, so the
graph is layered: the source alone in the first layer, every node joined to one or two nodes of
the layer before, then random edges between neighbouring layers (a few inside one) up to a fixed
edge count per level, so the prompt's length says nothing; then the node ids are shuffled. The
target is a random node at least ``min_hops`` edges from the source reached by a number of
shortest paths in a range that grows with the level; where that range is small, the answer is
drawn uniformly from it first (so no count dominates) and layered graphs are redrawn until a
node has exactly that count. The count
(a dynamic programme over breadth-first order, at generation) is one integer, checked exactly.

Version 3: from level 2 on the target's count is not what "multiply the branchings" gives along any path
back to the source (the product of how many nodes one step closer each node on it has, which is the count
only where all of a node's predecessors are reached equally often): along the path through the smallest
predecessors that rule answered 0.53 of level 2 and 0.18 of level 4 before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list
from palaestra.generators.graphs import Graph, bfs_distances
from palaestra.verifiers.numeric import read_integer

UNITS = ("paths", "shortest paths", "ways")


@register
class CountShortestPaths(Task):
    id = "graphs/count_shortest_paths"
    version = 3  # v3: from level 2 on, the branching product along a path back is never the count
    family = "graphs"
    description = "Count the distinct shortest paths between two nodes of a graph."
    tags = ("graphs", "counting", "dynamic-programming")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        layers: int
        edges: int
        counts: tuple[int, int]  # inclusive range of the answer
        uniform: bool  # draw the answer uniformly from the range first (few possible answers: no favourite)
        min_hops: int

    presets = (
        Config(nodes=8, layers=4, edges=11, counts=(2, 5), uniform=True, min_hops=2),
        Config(nodes=11, layers=5, edges=16, counts=(3, 8), uniform=True, min_hops=3),
        Config(nodes=14, layers=6, edges=22, counts=(4, 20), uniform=False, min_hops=3),
        Config(nodes=18, layers=7, edges=30, counts=(8, 40), uniform=False, min_hops=4),
        Config(nodes=24, layers=8, edges=42, counts=(12, 80), uniform=False, min_hops=5),
    )
    # Capped at level 13's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nodes": 78, "layers": 17, "edges": 150, "counts": (48, 440), "min_hops": 14})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        low, high = config.counts
        if config.uniform:
            low = high = rng.randint(low, high)

        def draw() -> tuple[Graph, int, int, int] | None:
            graph, source = _layered(rng, n, config.layers, config.edges)
            distance = bfs_distances(graph, source)
            neighbours = graph.neighbours()
            ways = _count(neighbours, distance, source)
            targets = [v for v in range(n) if low <= ways[v] <= high and distance[v] >= config.min_hops]
            if not config.uniform:  # levels 2 and up: multiplying the branchings along a path back must not count
                targets = [v for v in targets if ways[v] not in branching_products(neighbours, distance, v)]
            if not targets:
                return None
            target = rng.choice(targets)
            return graph, source, target, ways[target]

        graph, source, target, count = retry(draw, what=f"a node reached by {low} to {high} shortest paths")
        rows = sorted([u, v] for u, v, _ in graph.edges)
        example = 12  # a fixed placeholder: independent of the answer
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n{edge_list(rows)}\n\n"
            f"How many different shortest paths (paths with the fewest edges) lead from node {source} to node "
            f"{target}? Two paths are different if their sequences of nodes differ. Give a single integer, "
            f"for example: {example}"
        )
        return Problem(prompt=prompt, answer=str(count),
                       data={"n": n, "edges": rows, "source": source, "target": target, "count": count})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"the branchings multiplied along a path back": branching_guess}

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (the layers the counts flow through)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_integer(answer, units=UNITS) if isinstance(answer, str) and len(answer) < 400 else None
        if value is None:
            return Verdict.unparsed("expected a single integer")
        return Verdict.judge(value == problem.data["count"], f"{value} is not the number of shortest paths")

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), f"{problem.answer} paths", f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        count = problem.data["count"]
        return [str(count + 1), str(count - 1), f"{count} or {count + 1}", "1"]


def branching_products(neighbours: Sequence[Sequence[int]], distance: Sequence[int], target: int) -> set[int]:
    """What "multiply the branchings" gives: for each path back from ``target`` along shortest-path edges, the
    product of the numbers of nodes one step closer to the source that each node on it has. It is the count
    only where every node's predecessors are reached equally often.

    >>> sorted(branching_products([[1, 2], [0, 3], [0, 3], [1, 2, 4], [3]], [0, 1, 1, 2, 3], 4))
    [2]
    """
    products: dict[int, set[int]] = {}
    for v in sorted((v for v in range(len(distance)) if 0 <= distance[v] <= distance[target]), key=distance.__getitem__):
        before = [u for u in neighbours[v] if distance[u] == distance[v] - 1]
        products[v] = {len(before) * x for u in before for x in products[u]} if before else {1}
    return products[target]


def _count(neighbours: list[list[int]], distance: list[int], source: int) -> list[int]:
    """Shortest paths from ``source`` to every node: sums over edges one step further, in order of distance."""
    ways = [0] * len(distance)
    ways[source] = 1
    for u in sorted(range(len(distance)), key=distance.__getitem__):
        for v in neighbours[u]:
            if distance[u] + 1 == distance[v]:
                ways[v] += ways[u]
    return ways


def _layered(rng: random.Random, n: int, layers: int, m: int) -> tuple[Graph, int]:
    """A graph in ``layers`` layers (the source alone in the first) with about ``m`` edges, and its
    source: each node hangs from a node of the layer before, then random edges join neighbouring
    layers (a fifth of them inside a layer) until there are ``m``. Node ids are shuffled."""
    order = list(range(n))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(2, n), layers - 2))
    groups = [order[:1]] + [order[a:b] for a, b in zip([1, *cuts], [*cuts, n])]
    edges: set[tuple[int, int]] = set()
    for before, after in zip(groups, groups[1:]):
        for v in after:
            u = rng.choice(before)
            edges.add((min(u, v), max(u, v)))
    for _ in range(20 * m):  # bounded: repeated pairs are skipped
        if len(edges) >= m:
            break
        k = rng.randrange(len(groups) - 1)
        u = rng.choice(groups[k])
        v = rng.choice(groups[k + 1] + (groups[k] if rng.random() < 0.2 else []))
        if u != v:
            edges.add((min(u, v), max(u, v)))
    return Graph(n, tuple((u, v, 1) for u, v in sorted(edges))), order[0]


def branching_guess(problem: Problem) -> str:
    """The branchings multiplied along the path back through the smallest predecessor (``heuristics()``)."""
    data = problem.data
    graph = Graph(data["n"], tuple((u, v, 1) for u, v in data["edges"]))
    neighbours, distance = graph.neighbours(), bfs_distances(graph, data["source"])
    product, node = 1, data["target"]
    while node != data["source"]:
        before = [u for u in neighbours[node] if distance[u] == distance[node] - 1]
        product, node = product * len(before), min(before)
    return str(product)
