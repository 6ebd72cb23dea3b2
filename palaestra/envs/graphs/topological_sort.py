"""Order the nodes of a directed acyclic graph so that every edge points forward.

The DAG comes from :func:`palaestra.generators.graphs.random_dag` (edges go forward in a hidden
random order; weakly connected). Most DAGs have many topological orders: the verifier accepts
**any** order that lists every node once and puts ``a`` before ``b`` for every edge ``a -> b``.

Every DAG defeats sorting the nodes by a degree, whatever the tie-break: for each of in-degree, out-degree
(most first) and in-degree minus out-degree some edge ``a -> b`` has ``a`` strictly behind ``b``; and listing the
sources, then the other nodes by number (up or down), then the sinks fails too. Before version 2 those sorts
solved 0.28/0.35/0.68 of level 0 and 0.30/0.25/0.33 of level 1, sources-numbered-sinks 0.28/0.15/0.10 of levels
0-2; now none.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list, read_nodes
from palaestra.generators.graphs import random_dag


@register
class TopologicalSort(Task):
    id = "graphs/topological_sort"
    family = "graphs"
    description = "Give any topological order of a directed acyclic graph."
    tags = ("graphs", "dag", "ordering")
    version = 2  # v2: no sort by a degree gives a topological order

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int

    presets = (
        Config(nodes=7, edges=9),
        Config(nodes=9, edges=12),
        Config(nodes=13, edges=20),
        Config(nodes=18, edges=30),
        Config(nodes=25, edges=45),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        edges = retry(lambda: sorted([u, v] for u, v, _ in random_dag(rng, n, config.edges)[0].edges),
                      accept=lambda drawn: _defeats_degree_sorts(n, drawn), what="a DAG no degree sort orders")
        prompt = (
            f"A directed graph has nodes 0 to {n - 1} and these {len(edges)} edges (a->b goes from a to b):\n"
            f"{edge_list(edges, directed=True)}\n\n"
            "The graph has no directed cycle. Give a topological order: every node exactly once, with a before b "
            "for every edge a->b. Write the nodes separated by spaces, for example: 3 0 4 1 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, _kahn(n, edges, smallest=True))),
                       data={"n": n, "edges": edges})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter of the underlying graph."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["n"]
        order = read_nodes(answer, n)
        if order is None:
            return Verdict.unparsed("expected the nodes in order, separated by spaces")
        position = {}
        for i, v in enumerate(order):
            if v in position:
                return Verdict.wrong(f"node {v} appears twice")
            position[v] = i
        if len(position) != n:
            return Verdict.wrong(f"node {next(v for v in range(n) if v not in position)} is missing")
        for u, v in problem.data["edges"]:
            if position[u] > position[v]:
                return Verdict.wrong(f"{v} comes before {u}, but there is an edge {u}->{v}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = (problem.answer or "").split()
        other = _kahn(problem.data["n"], problem.data["edges"], smallest=False)
        return [*super().spellings(problem), " -> ".join(gold), "[" + ", ".join(gold) + "]",
                " ".join(map(str, other))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = (problem.answer or "").split()
        u, v = (str(x) for x in rng.choice(problem.data["edges"]))
        swapped = [v if x == u else u if x == v else x for x in gold]
        return [" ".join(swapped), " ".join(gold[:-1]), " ".join([*gold[:-1], gold[0]]), " ".join(gold[::-1])]


def _kahn(n: int, edges: list[list[int]], smallest: bool) -> list[int]:
    """Kahn's algorithm taking the smallest (or largest) ready node first."""
    out: list[list[int]] = [[] for _ in range(n)]
    indegree = [0] * n
    for u, v in edges:
        out[u].append(v)
        indegree[v] += 1
    sign = 1 if smallest else -1
    ready = [sign * v for v in range(n) if indegree[v] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        u = sign * heapq.heappop(ready)
        order.append(u)
        for v in out[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                heapq.heappush(ready, sign * v)
    return order


def _defeats_degree_sorts(n: int, edges: list[list[int]]) -> bool:
    """Whether each degree key (in-degree, minus out-degree, in-degree minus out-degree) puts the head of some
    edge strictly before its tail, so sorting by it fails under any tie-break, and the edges between inner
    nodes (neither sources nor sinks) go both up and down in number, so sources first, sinks last and the rest
    by number (either way) fails too."""
    indegree, outdegree = [0] * n, [0] * n
    for u, v in edges:
        outdegree[u] += 1
        indegree[v] += 1
    keys = (indegree, [-d for d in outdegree], [i - o for i, o in zip(indegree, outdegree)])
    inner = [v > u for u, v in edges if indegree[u] and outdegree[v]]
    return all(any(key[u] > key[v] for u, v in edges) for key in keys) and True in inner and False in inner
