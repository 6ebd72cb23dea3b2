"""Find a minimum s-t cut of a capacitated directed graph (the certificate of its maximum flow).

A random weakly connected directed graph (:func:`palaestra.generators.graphs.random_connected`)
gets integer capacities; the source is the node that reaches the most others and the sink the
node reachable from it that is the most edges away. Networks where cutting every edge out of the
source, or every edge into the sink, is already minimal are redrawn, and so are those where the same two
cuts are minimal once the edges that carry no flow are left out (the source's edges into nodes that
can reach the sink; the sink's edges from nodes the source reaches): see the declared ``heuristics``. The maximum flow value comes from
augmenting paths at generation (:func:`_minimum_cut`); by max-flow/min-cut it equals the smallest
total capacity of edges leaving a set of nodes that holds the source and not the sink.

The answer is such a set (the source side). The verifier accepts **any** minimum cut: the set
must hold the source, not hold the sink, and the capacities of the edges leaving it must add up
to the maximum flow value.

Version 2: version 1 redrew only the plain cuts around the source ({source}) and the sink (every node
but the sink). Their pruned forms, the source with every node that cannot reach the sink, and every
node the source reaches but the sink, still cost the minimum in 0.35 and 0.05 of level 0 and 0.10 and
0.11 of level 4, and the cheaper of the two was a minimum cut in 0.45 of level 0 and 0.20 of level 4.

Version 3: a minimum cut of the network with the edge directions ignored (every edge also running backwards)
was a minimum directed cut in 0.23, 0.13, 0.03, 0.17, 0.10 of levels 0-4; networks where either such cut
(nearest the source or nearest the sink) is minimal are redrawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import read_nodes, weighted_edge_lines
from palaestra.generators.graphs import Graph, bfs_distances, random_connected, reachable


@register
class MinCut(Task):
    id = "graphs/min_cut"
    family = "graphs"
    description = "Give the source side of a minimum s-t cut (max-flow/min-cut) of a capacitated digraph."
    tags = ("graphs", "flow", "optimization")
    version = 3  # v3: networks where a minimum cut with the edge directions ignored is minimal are redrawn

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        max_capacity: int

    presets = (
        Config(nodes=5, edges=8, max_capacity=9),
        Config(nodes=7, edges=12, max_capacity=9),
        Config(nodes=9, edges=17, max_capacity=15),
        Config(nodes=12, edges=24, max_capacity=20),
        Config(nodes=15, edges=32, max_capacity=25),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes

        def draw() -> tuple | None:
            graph = random_connected(rng, n, config.edges, directed=True, weights=(1, config.max_capacity))
            reach = [bfs_distances(graph, v) for v in range(n)]
            source = max(range(n), key=lambda v: (sum(d > 0 for d in reach[v]), rng.random()))
            far = max(reach[source])
            if far < 2:
                return None
            sink = rng.choice([v for v in range(n) if reach[source][v] == far])
            edges = [list(e) for e in graph.edges]
            value, side = _minimum_cut(n, edges, source, sink)
            trivial = (
                _cut(edges, {source}),
                _cut(edges, set(range(n)) - {sink}),
                *(_cut(edges, side) for side in _pruned_trivial_sides(n, edges, source, sink)),
            )
            if value in trivial:  # cutting around the source or the sink alone must not be optimal
                return None
            if value in (_cut(edges, set(blind)) for blind in _undirected_sides(n, edges, source, sink)):
                return None  # nor a minimum cut of the network with the edge directions ignored
            return graph, source, sink, value, side

        graph, source, sink, value, side = retry(draw, what="a network with a distant sink")
        edges = sorted([u, v, w] for u, v, w in graph.edges)
        prompt = (
            f"A directed network has nodes 0 to {n - 1} and these {len(edges)} edges with capacities "
            f"(a -> b goes from a to b):\n{weighted_edge_lines(edges, directed=True, word='capacity')}\n\n"
            f"Find a minimum cut between the source {source} and the sink {sink}: a set S of nodes that contains "
            f"{source} but not {sink}, such that the total capacity of the edges going from a node in S to a node "
            "outside S is as small as possible (it equals the maximum flow from source to sink). "
            "Give the nodes of S separated by spaces, for example: "
            f"{source} 8 2 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, side)),
                       data={"n": n, "edges": edges, "source": source, "sink": sink, "flow": value})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how long augmenting paths can get)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(which: int) -> Callable[[Problem], str]:
            def policy(problem: Problem) -> str:
                data = problem.data
                side = _pruned_trivial_sides(data["n"], data["edges"], data["source"], data["sink"])[which]
                return " ".join(map(str, sorted(side)))

            return policy

        return {"source_edges_that_reach_the_sink": rule(0), "sink_edges_from_reachable_nodes": rule(1)}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        nodes = read_nodes(answer, data["n"])
        if nodes is None:
            return Verdict.unparsed("expected the nodes of S separated by spaces")
        side = set(nodes)
        if len(side) != len(nodes):
            return Verdict.wrong("a node is listed twice")
        if data["source"] not in side:
            return Verdict.wrong(f"S must contain the source {data['source']}")
        if data["sink"] in side:
            return Verdict.wrong(f"S must not contain the sink {data['sink']}")
        capacity = _cut(data["edges"], side)
        return Verdict.judge(capacity == data["flow"], f"the cut's capacity is {capacity}, not the minimum")

    def spellings(self, problem: Problem) -> list[str]:
        nodes = (problem.answer or "").split()
        return [*super().spellings(problem), "{" + ", ".join(reversed(nodes)) + "}", "S = {" + ", ".join(nodes) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        nodes = [int(v) for v in (problem.answer or "").split()]
        wrong = [" ".join(map(str, [*nodes, data["sink"]])), " ".join(str(v) for v in nodes if v != data["source"])]
        for candidate in ([data["source"]], [v for v in range(data["n"]) if v != data["sink"]]):
            if _cut(data["edges"], set(candidate)) != data["flow"]:
                wrong.append(" ".join(map(str, candidate)))
        return wrong


def _cut(edges: list[list[int]], side: set[int]) -> int:
    """Total capacity of the edges leaving ``side``."""
    return sum(w for u, v, w in edges if u in side and v not in side)


def _pruned_trivial_sides(n: int, edges: list[list[int]], source: int, sink: int) -> tuple[set[int], set[int]]:
    """The cuts around the source and around the sink with the edges that carry no flow left out.

    The first side is the source with every node that cannot reach the sink (it cuts the source's edges
    into nodes that can); the second every node the source reaches except the sink (it cuts the sink's
    edges from those nodes).

    >>> _pruned_trivial_sides(5, [[0, 1, 1], [0, 3, 1], [1, 2, 1], [4, 2, 1], [4, 0, 1]], 0, 2)
    ({0, 3}, {0, 1, 3})
    """
    forward = Graph(n, tuple((u, v, w) for u, v, w in edges), directed=True)
    backward = Graph(n, tuple((v, u, w) for u, v, w in edges), directed=True)
    reaches_sink = reachable(backward, sink)
    return ({source} | (set(range(n)) - reaches_sink), reachable(forward, source) - {sink})


def _undirected_sides(n: int, edges: list[list[int]], source: int, sink: int) -> tuple[list[int], list[int]]:
    """The source sides of the minimum cuts nearest the sink and nearest the source once every edge also runs
    backwards: what a solver that ignores the edge directions answers.

    >>> _undirected_sides(3, [[0, 1, 5], [2, 1, 1]], 0, 2)
    ([0, 1], [0, 1])
    """
    both = [*edges, *([v, u, w] for u, v, w in edges)]
    nearest_source = [v for v in range(n) if v not in _minimum_cut(n, both, sink, source)[1]]
    return _minimum_cut(n, both, source, sink)[1], nearest_source


def _minimum_cut(n: int, edges: list[list[int]], source: int, sink: int) -> tuple[int, list[int]]:
    """The maximum flow value and the source side of the minimum cut nearest the sink, increasing.

    Shortest augmenting paths (Edmonds-Karp) on a residual capacity matrix. The side is every node
    that cannot reach the sink in the residual network: that set is the same for every maximum flow
    (the cut networkx's ``minimum_cut`` returns too), so the answer does not depend on the algorithm.

    >>> _minimum_cut(3, [[0, 1, 5], [1, 2, 1]], 0, 2), _minimum_cut(3, [[0, 1, 1], [1, 2, 5]], 0, 2)
    ((1, [0, 1]), (1, [0]))
    """
    residual = [[0] * n for _ in range(n)]
    for u, v, w in edges:
        residual[u][v] += w
    value = 0
    for _ in range(sum(w for _, _, w in edges) + 1):  # each augmentation adds at least 1 to the flow
        parent = {source: source}
        queue = [source]
        for u in queue:  # grows while it is read: breadth-first
            for v in range(n):
                if residual[u][v] > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            break
        path, v = [], sink
        while v != source:
            path.append((parent[v], v))
            v = parent[v]
        pushed = min(residual[u][v] for u, v in path)
        for u, v in path:
            residual[u][v] -= pushed
            residual[v][u] += pushed
        value += pushed
    reaches_sink = {sink}
    stack = [sink]
    while stack:
        v = stack.pop()
        for u in range(n):
            if residual[u][v] > 0 and u not in reaches_sink:
                reaches_sink.add(u)
                stack.append(u)
    return value, [v for v in range(n) if v not in reaches_sink]
