"""Count the shortest paths between two nodes of a graph.

The answer is drawn first, uniformly from a range that widens with the level, and a layered graph
is built around it: the source alone in the first layer, every node joined to one or more nodes of
the layer before, the target's neighbours one step closer (and how many of them each node two layers
back joins) solved for so that exactly that many shortest paths reach it, then neutral edges (inside
a layer, or into nodes outside the target's past) up to a fixed edge count per level, so the prompt's
length says nothing; then the node ids are shuffled. The count (a dynamic programme over
breadth-first order, rechecked at generation) is one integer, checked exactly.

Version 3: from level 2 on the target's count is not what "multiply the branchings" gives along any path
back to the source (the product of how many nodes one step closer each node on it has, which is the count
only where all of a node's predecessors are reached equally often): along the path through the smallest
predecessors that rule answered 0.53 of level 2 and 0.18 of level 4 before.

Version 4: random layered graphs rarely reach more than a few counts, so the constant "3" answered 0.29 of
level 0, "5" 0.23 of level 1, "7" 0.17 of level 2 and "10" 0.12 of level 3; the count is now drawn
uniformly (2-16, 3-18, 4-24, 8-40, 12-80) and the graph built to it, levels 0-2 have a few more nodes,
and the branching products are avoided at level 1 too (that rule answered 0.47 of it) and in half of level 0
(0.71 of it before, 0.45 with uniform counts alone).
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
ATTEMPTS = 5_000  # the rarest count of a level is built by about 1 draw in 150 (0.05 ms a draw)


@register
class CountShortestPaths(Task):
    id = "graphs/count_shortest_paths"
    version = 4  # v3: from level 2 on, the branching product along a path back is never the count; v4: uniform
    family = "graphs"
    description = "Count the distinct shortest paths between two nodes of a graph."
    tags = ("graphs", "counting", "dynamic-programming")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        layers: int
        edges: int
        counts: tuple[int, int]  # inclusive range of the answer
        min_hops: int  # the target's least distance from the source
        products: float  # the share of problems where the branchings multiplied along a path back never count

    presets = (
        Config(nodes=12, layers=5, edges=20, counts=(2, 16), min_hops=3, products=0.5),
        Config(nodes=13, layers=6, edges=22, counts=(3, 18), min_hops=3, products=1.0),
        Config(nodes=15, layers=6, edges=26, counts=(4, 24), min_hops=3, products=1.0),
        Config(nodes=18, layers=7, edges=32, counts=(8, 40), min_hops=4, products=1.0),
        Config(nodes=24, layers=8, edges=42, counts=(12, 80), min_hops=5, products=1.0),
    )
    # Capped at level 13's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nodes": 78, "layers": 17, "edges": 150, "counts": (48, 440), "min_hops": 14})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        count = rng.randint(*config.counts)  # the answer first, uniformly: no count is a favourite
        # 2 paths are always a branching product (two ways in, or one way in from a node with two)
        avoid_products = rng.random() < config.products and count > 2

        def draw() -> tuple[Graph, int, int] | None:
            built = _build(rng, config, count)
            if built is None:
                return None
            graph, source, target = built
            neighbours, distance = graph.neighbours(), bfs_distances(graph, source)
            if _count(neighbours, distance, source)[target] != count:  # the construction's promise, checked
                return None
            if avoid_products and count in branching_products(neighbours, distance, target):
                return None  # multiplying the branchings along a path back must not count (level 0: half the time)
            return built

        graph, source, target = retry(draw, attempts=ATTEMPTS, what=f"a node reached by {count} shortest paths")
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


def _build(rng: random.Random, config: CountShortestPaths.Config, count: int) -> tuple[Graph, int, int] | None:
    """A layered graph with ``config.edges`` edges whose target is reached by exactly ``count`` shortest paths,
    its source and its target (None when this draw cannot reach ``count`` within the edges).

    The source stands alone in the first layer and every node has a neighbour in the layer before (its distance
    is its layer). Nodes up to two layers before the target's pick random neighbours in the layer before; the
    target picks some nodes ``S`` of the layer before, and how many of ``S`` each node two layers back joins is
    solved for (a bounded knapsack over their counts), so that the target's count is ``count``. Later nodes hang
    from one random node of the layer before, and the remaining edges go where they change no count the
    target's depends on (inside a layer, or up to a node outside the target's past). Node ids are shuffled."""
    n, layers = config.nodes, config.layers
    order = list(range(n))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(2, n), layers - 2))
    groups = [order[:1]] + [order[a:b] for a, b in zip([1, *cuts], [*cuts, n])]
    depth = rng.randrange(config.min_hops, layers)  # the target's layer
    edges: set[tuple[int, int]] = set()
    ways = {order[0]: 1}

    def join(u: int, v: int) -> None:
        edges.add((min(u, v), max(u, v)))

    # half the draws pick any number of neighbours one step closer, half about as many as make ``count`` likely
    tuned, growth = rng.random() < 0.5, (count / 3) ** (1 / max(1, depth - 2))
    for before, after in zip(groups[: depth - 2], groups[1: depth - 1]):
        for v in after:
            many = int(growth) + (rng.random() < growth - int(growth)) if tuned else rng.randint(1, len(before))
            picked = rng.sample(before, max(1, min(many, len(before))))
            for u in picked:
                join(u, v)
            ways[v] = sum(ways[u] for u in picked)
    back, mids, target = groups[depth - 2], groups[depth - 1], rng.choice(groups[depth])
    times = _multiplicities(rng, [ways[u] for u in back], len(mids), count)  # how many of S each node joins
    if times is None:
        return None
    size = rng.randint(max(times), min(sum(times), len(mids)))
    chosen = rng.sample(mids, size)  # S: the target's neighbours one step closer
    slots = [u for u, k in zip(back, times) for _ in range(k)]
    for i, u in enumerate(slots):  # round robin: a node's k joins go to k different nodes, and every one gets one
        join(u, chosen[i % size])
    fixed = {*order[1: 1 + sum(map(len, groups[1: depth - 1]))], *chosen, target}  # counts the target's depends on
    for v in chosen:
        join(v, target)
    for k in range(depth - 1, len(groups)):
        for v in groups[k]:
            if v not in fixed:
                join(rng.choice(groups[k - 1]), v)
    neutral = {(min(u, v), max(u, v)) for group in groups for i, u in enumerate(group) for v in group[i + 1:]}
    neutral |= {(min(u, v), max(u, v)) for before, after in zip(groups, groups[1:])
                for v in after if v not in fixed for u in before}
    free = sorted(neutral - edges)
    missing = config.edges - len(edges)
    if not 0 <= missing <= len(free):
        return None
    edges.update(rng.sample(free, missing))
    return Graph(n, tuple((u, v, 1) for u, v in sorted(edges))), order[0], target


def _multiplicities(rng: random.Random, weights: Sequence[int], most: int, total: int) -> list[int] | None:
    """Random ``k_i`` in ``0 .. most`` with ``sum(k_i * weights[i]) == total``, or None: a table of the sums the
    first items make (none above ``total``), then a random walk back through it."""
    reach = [{0}]
    for w in weights:
        reach.append({s + k * w for s in reach[-1] for k in range(most + 1) if s + k * w <= total})
    if total not in reach[-1]:
        return None
    times, left = [0] * len(weights), total
    for i in range(len(weights), 0, -1):
        w = weights[i - 1]
        k = rng.choice([k for k in range(most + 1) if left - k * w in reach[i - 1]])
        times[i - 1], left = k, left - k * w
    return times


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
