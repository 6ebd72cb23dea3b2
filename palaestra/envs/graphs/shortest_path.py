"""Find a minimum-weight path between two nodes of a weighted graph given as an edge list.

The graph (from :func:`palaestra.generators.graphs.random_connected`: a random spanning tree
plus extra edges, integer weights) is undirected at low levels and directed at high ones; the
target is always reachable and at least a few edges away. The verifier accepts **any** path of
optimal total weight: node labels separated by spaces, commas or arrows (``A C F``, ``A, C, F``,
``A -> C -> F``). It checks the path starts at the source, ends at the target, uses only edges
of the graph (in their direction) and weighs exactly the optimum computed at generation.

Targets are kept only where no path with the fewest edges is a shortest one and the greedy walk
(always the lightest edge to an unvisited node, the target as soon as it is adjacent) does not reach
it at the optimum: ignoring the weights (fewest edges) found the answer in 0.22-0.84 of levels 0-6
and the greedy walk in 0.11-0.54 before (version 3). On the directed levels a target is kept only where the
graph with the arrows ignored has a strictly lighter path, so a shortest path that ignores the directions is
never a valid answer: it answered 0.17 and 0.07 of levels 3 and 4 before (version 4).

Version 2: generation moved onto the shared graph generator and plain-list Dijkstra (different
graphs for the same seed, exactly the requested number of edges), edges are stored as integer
triples ``[u, v, weight]`` with the node labels alongside, and a difficulty measure was declared.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.generators.graphs import Graph, dijkstra, letter_labels, path_to, random_connected, render
from palaestra.verifiers.moves import read_tokens
from palaestra.verifiers.normalize import markup_spellings, named, read_answer, unparsed_feedback


@register
class ShortestPath(Task):
    id = "graphs/shortest_path"
    version = 4  # v4: directed targets are kept only where ignoring the arrows finds a lighter (invalid) path
    family = "graphs"
    description = "Give a minimum-weight path between two nodes of a weighted graph."
    tags = ("graphs", "search", "optimization")
    max_answer_chars = 2_000

    @dataclass(frozen=True)
    class Config:
        nodes: int
        extra_edges: int  # edges added on top of a random spanning tree
        max_weight: int
        directed: bool
        min_hops: int  # the chosen target is at least this many edges from the source

    presets = (
        Config(nodes=6, extra_edges=3, max_weight=9, directed=False, min_hops=2),
        Config(nodes=8, extra_edges=5, max_weight=9, directed=False, min_hops=2),
        Config(nodes=11, extra_edges=9, max_weight=15, directed=False, min_hops=3),
        Config(nodes=14, extra_edges=16, max_weight=20, directed=True, min_hops=3),
        Config(nodes=18, extra_edges=26, max_weight=30, directed=True, min_hops=4),
    )
    # Capped at level 13's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nodes": 54, "extra_edges": 116, "max_weight": 120, "min_hops": 13})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        graph, source, target, path, distance = retry(
            lambda: _draw(rng, config), what=f"a graph with a target {config.min_hops} edges from the source"
        )
        labels = letter_labels(n)
        kind = "directed" if config.directed else "undirected"
        direction = " Edges can only be travelled in the direction of the arrow." if config.directed else ""
        s, t = labels[source], labels[target]
        prompt = (
            f"A weighted {kind} graph has nodes {', '.join(labels)} and these edges:\n\n"
            f"{render(graph, labels)}\n\n"
            f"Find a path from {s} to {t} with the minimum total weight.{direction}\n"
            f"Give the path as node labels separated by spaces, starting with {s} and ending "
            f"with {t} (for example: {s} X Y {t})."
        )
        return Problem(
            prompt=prompt,
            answer=" ".join(labels[v] for v in path),
            data={
                "labels": labels,
                "edges": [list(edge) for edge in graph.edges],
                "directed": config.directed,
                "source": source,
                "target": target,
                "distance": distance,
            },
        )

    def difficulty(self, problem: Problem) -> float:
        """Nodes times the number of edges on the reference path."""
        return float(len(problem.data["labels"]) * (len(problem.answer.split()) - 1))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        labels = data["labels"]
        path = _read_path(answer, {label: i for i, label in enumerate(labels)})
        if path is None:
            return Verdict.unparsed(unparsed_feedback(answer, "node labels separated by spaces"))
        if path[0] != data["source"]:
            return Verdict.wrong(f"the path must start at {labels[data['source']]}")
        if path[-1] != data["target"]:
            return Verdict.wrong(f"the path must end at {labels[data['target']]}")
        if len(path) > len(labels):
            return Verdict.wrong("the path repeats nodes, so it is not the shortest")
        weights = _edge_weights(data["edges"], data["directed"])
        total = 0
        for u, v in zip(path, path[1:]):
            if (u, v) not in weights:
                return Verdict.wrong(f"{labels[u]} to {labels[v]} is not an edge of the graph")
            total += weights[(u, v)]
        return Verdict.judge(total == data["distance"], f"the path weighs {total}, which is not the minimum")

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *markup_spellings(gold), f"The shortest path is {' -> '.join(gold.split())}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        labels = data["labels"]
        gold = (problem.answer or "").split()
        weights = _edge_weights(data["edges"], data["directed"])
        source = data["source"]
        wrong = [" ".join(gold[:-1]), " ".join(reversed(gold))]
        strangers = [v for v in range(len(labels)) if v != source and (source, v) not in weights]
        if strangers:  # a first step along a non-edge
            wrong.append(" ".join([labels[source], labels[rng.choice(strangers)], *gold[1:]]))
        longer = _longer_path(data, weights)
        if longer:
            wrong.append(" ".join(labels[v] for v in longer))
        return wrong


def _draw(rng: random.Random, config: ShortestPath.Config) -> tuple[Graph, int, int, list[int], int] | None:
    """(graph, source, target, a shortest path, its weight) with a path of at least ``min_hops``
    edges, trying sources from a random one on; None when no pair is that far apart."""
    n = config.nodes
    graph = random_connected(rng, n, n - 1 + config.extra_edges, config.directed, (1, config.max_weight))
    first = int(rng.random() * n)
    for source in [*range(first, n), *range(first)]:
        distance, parent = dijkstra(graph, source)
        hops = [0] * n
        for v in sorted(range(n), key=distance.__getitem__):  # parents come first: weights are positive
            if parent[v] >= 0:
                hops[v] = hops[parent[v]] + 1
        fewest_edges = _lightest_of_fewest_edges(graph, source)
        # directed: a path that ignores the arrows must be strictly lighter, so no such path is a valid answer
        blind = dijkstra(Graph(n, graph.edges, directed=False), source)[0] if config.directed else [-1] * n
        targets = [v for v in range(n) if hops[v] >= config.min_hops and fewest_edges[v] > distance[v]
                   and _greedy_walk(graph, source, v) != distance[v] and blind[v] < distance[v]]
        if targets:
            target = targets[int(rng.random() * len(targets))]
            return graph, source, target, path_to(parent, source, target), distance[target]
    return None


def _lightest_of_fewest_edges(graph: Graph, source: int) -> list[int]:
    """Per node, the lightest weight among the paths from ``source`` with the fewest edges (breadth first)."""
    adjacency = graph.adjacency()
    hops = {source: 0}
    lightest = {source: 0}
    layer = [source]
    while layer:
        following: list[int] = []
        for u in layer:
            for v, w in adjacency[u]:
                if v not in hops:
                    hops[v] = hops[u] + 1
                    following.append(v)
                if hops[v] == hops[u] + 1:
                    lightest[v] = min(lightest.get(v, lightest[u] + w), lightest[u] + w)
        layer = following
    return [lightest.get(v, -1) for v in range(graph.n)]


def _greedy_walk(graph: Graph, source: int, target: int) -> int:
    """The weight of the walk that steps to the target when it can and else along the lightest edge to an
    unvisited node; -1 when it gets stuck."""
    adjacency = graph.adjacency()
    node, weight, seen = source, 0, {source}
    while node != target:
        steps = {v: w for v, w in adjacency[node] if v not in seen}
        if not steps:
            return -1
        following = target if target in steps else min(steps, key=lambda v: (steps[v], v))
        weight += steps[following]
        node = following
        seen.add(node)
    return weight


def _read_path(answer: str, index: dict[str, int]) -> list[int] | None:
    """The labels of a path (``A B C``, ``A -> B -> C``, ``A, B, C``) as node indices, by the shared token reader."""
    if not isinstance(answer, str) or len(answer) > ShortestPath.max_answer_chars:
        return None

    def path(text: str) -> list[int] | None:
        return read_tokens(text, index, max_count=2 * len(index))

    # or a naming sentence: "The shortest path is A -> C -> D", "Shortest path from A to D: A C D"
    return path(answer) or read_answer(answer, named(path, "path|route"))


def _edge_weights(edges: list[list[int]], directed: bool) -> dict[tuple[int, int], int]:
    weights = {(u, v): w for u, v, w in edges}
    if not directed:
        weights.update({(v, u): w for u, v, w in edges})
    return weights


def _longer_path(data: dict, weights: dict[tuple[int, int], int], budget: int = 5_000) -> list[int] | None:
    """A simple source-target path strictly heavier than the optimum, from a bounded depth-first search."""
    out: dict[int, list[int]] = {}
    for u, v in weights:
        out.setdefault(u, []).append(v)
    target = data["target"]
    stack = [(data["source"], [data["source"]], 0)]
    for _ in range(budget):
        if not stack:
            return None
        node, path, weight = stack.pop()
        if node == target:
            if weight > data["distance"]:
                return path
            continue
        for nxt in sorted(out.get(node, ())):
            if nxt not in path:
                stack.append((nxt, [*path, nxt], weight + weights[(node, nxt)]))
    return None
