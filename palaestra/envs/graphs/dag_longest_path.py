"""Find a path of maximum total weight in a weighted directed acyclic graph (a critical path).

The DAG comes from :func:`palaestra.generators.graphs.random_dag` with integer weights. The
longest path anywhere in the graph (a dynamic programme over a topological order, at generation)
is the optimum; the verifier accepts **any** path that follows edges in their direction and weighs
exactly that much.

Graphs are redrawn until every path with the most edges weighs less than the optimum: ignoring the
weights (a longest path by edge count) found the answer in 0.60-0.84 of the graphs before; and
until the greedy walk (the heaviest edge, then always the heaviest edge onward) falls short too, and
the best of the greedy walks from every node (heaviest edge onward; v2 left it 25-47% of levels 2-4).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import read_nodes, weighted_edge_lines
from palaestra.generators.graphs import Graph, random_dag, topological_order


@register
class DagLongestPath(Task):
    id = "graphs/dag_longest_path"
    family = "graphs"
    description = "Give a maximum-weight path in a weighted directed acyclic graph."
    tags = ("graphs", "dag", "dynamic-programming", "paths")
    version = 3

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        max_weight: int

    presets = (
        Config(nodes=6, edges=8, max_weight=9),
        Config(nodes=8, edges=12, max_weight=9),
        Config(nodes=11, edges=18, max_weight=15),
        Config(nodes=14, edges=25, max_weight=20),
        Config(nodes=18, edges=34, max_weight=30),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes

        def draw() -> tuple[Graph, list[int], int] | None:
            dag, _ = random_dag(rng, n, config.edges, weights=(1, config.max_weight))
            path, weight = _longest(dag)
            if weight in (_heaviest_of_most_edges(dag), _greedy_walk(dag), _best_greedy_walk(dag)):
                return None  # a longest path by edge count, or a greedy walk, would do
            return dag, path, weight

        dag, path, weight = retry(draw, what="a DAG whose heaviest path is not one with the most edges")
        rows = sorted([u, v, w] for u, v, w in dag.edges)
        prompt = (
            f"A directed acyclic graph has nodes 0 to {n - 1} and these weighted edges (a -> b goes from a to b):\n"
            f"{weighted_edge_lines(rows, directed=True)}\n\n"
            "Find a path with the largest total weight, following edges in their direction; it may start and end "
            "at any nodes. Give its nodes in order, separated by spaces, for example: 5 2 7 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, path)), data={"n": n, "edges": rows, "weight": weight})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter of the underlying graph plus the edges of the path to find."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        path_edges = len((problem.answer or "").split()) - 1
        return float(size_and_reach(data["n"], data["edges"]) + path_edges)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        path = read_nodes(answer, problem.data["n"])
        if path is None:
            return Verdict.unparsed("expected the nodes of the path in order")
        weights = {(u, v): w for u, v, w in problem.data["edges"]}
        total = 0
        for u, v in zip(path, path[1:]):
            if (u, v) not in weights:
                return Verdict.wrong(f"{u} -> {v} is not an edge")
            total += weights[(u, v)]
        return Verdict.judge(total == problem.data["weight"], f"the path weighs {total}, not the most possible")

    def spellings(self, problem: Problem) -> list[str]:
        path = (problem.answer or "").split()
        return [*super().spellings(problem), " -> ".join(path), "[" + ", ".join(path) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        path = (problem.answer or "").split()  # positive weights: a shorter piece weighs less
        return [" ".join(path[:-1]), " ".join(path[1:]), " ".join(reversed(path))]


def _longest(dag: Graph) -> tuple[list[int], int]:
    """A maximum-weight path of a DAG (the first found in topological order) and its weight."""
    order = topological_order(dag) or []
    best = [0] * dag.n
    parent = [-1] * dag.n
    out = dag.adjacency()
    for u in order:
        for v, w in out[u]:
            if best[u] + w > best[v]:
                best[v], parent[v] = best[u] + w, u
    end = max(range(dag.n), key=lambda v: (best[v], -v))
    path = [end]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    return path[::-1], best[end]


def _heaviest_of_most_edges(dag: Graph) -> int:
    """The largest weight among the paths with the most edges (what ignoring weights finds at best)."""
    best = [(0, 0)] * dag.n  # (edges, weight) of the best path ending at each node, edges first
    out = dag.adjacency()
    for u in topological_order(dag) or []:
        for v, w in out[u]:
            best[v] = max(best[v], (best[u][0] + 1, best[u][1] + w))
    return max(best)[1]


def _best_greedy_walk(dag: Graph) -> int:
    """The heaviest of the greedy walks from every node (always a heaviest edge onward, ties broken every way)."""
    out = dag.adjacency()
    memo: dict[int, int] = {}
    for v in reversed(topological_order(dag) or []):
        top = max((w for _, w in out[v]), default=0)
        memo[v] = max((w + memo[u] for u, w in out[v] if w == top), default=0)
    return max(memo.values(), default=0)


def _greedy_walk(dag: Graph) -> int:
    """The weight of the walk that starts with the heaviest edge and always takes the heaviest edge onward."""
    out = dag.adjacency()
    u, v, weight = max(dag.edges, key=lambda edge: edge[2])
    while out[v]:
        v, w = max(out[v], key=lambda step: step[1])
        weight += w
    return weight
