"""Give a minimum spanning tree of a weighted connected undirected graph.

Graphs come from :func:`palaestra.generators.graphs.random_connected` with integer weights; small
weight ranges make ties, so a graph often has several minimum spanning trees. The verifier accepts
**any** of them: exactly ``n - 1`` distinct edges of the graph that connect every node, whose total
weight equals the optimum (Kruskal's, computed at generation).

Every graph defeats three shortcuts, whatever they do with ties: the ``n - 1`` lightest edges contain a
cycle (an edge lighter than the tree's heaviest closes one); the edges that are lightest at one of
their ends leave the graph disconnected (one round of Borůvka is not the whole tree); and joining each
node to its lightest neighbour numbered below it (or above it) makes no tree or a heavier one. Before
version 2 the lightest edges solved 0.55/0.28/0.10 of levels 0-2, each node's lightest edge
0.60/0.23/0.03, the lightest neighbour below 0.23/0.03 of levels 0-1 and above 0.35/0.05/0.03 of
levels 0-2; all now solve none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import read_edges, weighted_edge_lines
from palaestra.generators.graphs import Graph, UnionFind, random_connected, reachable


@register
class MinimumSpanningTree(Task):
    id = "graphs/mst"
    family = "graphs"
    description = "Give any minimum spanning tree of a weighted undirected graph."
    tags = ("graphs", "optimization", "trees")
    version = 2  # v2: the lightest edges, each node's lightest edge and a scan by number never make the tree

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        max_weight: int

    presets = (
        Config(nodes=5, edges=7, max_weight=9),
        Config(nodes=7, edges=11, max_weight=9),
        Config(nodes=10, edges=17, max_weight=15),
        Config(nodes=13, edges=24, max_weight=20),
        Config(nodes=17, edges=34, max_weight=30),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        edges = retry(lambda: sorted([u, v, w] for u, v, w in
                                     random_connected(rng, n, config.edges, weights=(1, config.max_weight)).edges),
                      accept=lambda drawn: _defeats_shortcuts(n, drawn), what="a graph no shortcut spans")
        tree = _kruskal(n, edges)
        weight = sum(w for _, _, w in tree)
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(edges)} weighted edges:\n"
            f"{weighted_edge_lines(edges)}\n\n"
            "Give a minimum spanning tree: edges of the graph that connect all the nodes with the smallest "
            "possible total weight. Write each edge as its two nodes joined by a dash, edges separated by "
            "commas, for example: 0-3, 1-3, 2-4, ..."
        )
        return Problem(prompt=prompt, answer=", ".join(f"{u}-{v}" for u, v, _ in tree),
                       data={"n": n, "edges": edges, "weight": weight})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter of the graph, plus half the edges whose weight ties with another
        (ties leave choices to get right)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        weights = [e[2] for e in data["edges"]]
        ties = sum(weights.count(w) > 1 for w in weights)
        return float(size_and_reach(data["n"], data["edges"])) + ties / 2

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["n"]
        pairs = read_edges(answer, n)
        if pairs is None:
            return Verdict.unparsed("expected edges such as 0-3, 1-3")
        weights = {(u, v): w for u, v, w in problem.data["edges"]}
        chosen = [tuple(sorted(p)) for p in pairs]
        if len(set(chosen)) != len(chosen):
            return Verdict.wrong("an edge is listed twice")
        for u, v in chosen:
            if (u, v) not in weights:
                return Verdict.wrong(f"{u}-{v} is not an edge of the graph")
        if len(chosen) != n - 1:
            return Verdict.wrong(f"a spanning tree of {n} nodes has {n - 1} edges, not {len(chosen)}")
        sets = UnionFind(n)
        for u, v in chosen:
            if not sets.union(u, v):
                return Verdict.wrong(f"the edge {u}-{v} closes a cycle")
        total = sum(weights[e] for e in chosen)
        return Verdict.judge(total == problem.data["weight"],
                             f"the tree weighs {total}, more than the minimum")

    def spellings(self, problem: Problem) -> list[str]:
        pairs = [p.split("-") for p in (problem.answer or "").split(", ")]
        return [*super().spellings(problem), ", ".join(f"({v}, {u})" for u, v in reversed(pairs)),
                "\n".join(f"{u} - {v}" for u, v in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n, edges = problem.data["n"], problem.data["edges"]
        tree = [tuple(map(int, p.split("-"))) for p in (problem.answer or "").split(", ")]
        wrong = [", ".join(f"{u}-{v}" for u, v in tree[:-1])]
        # swap a tree edge for the heaviest non-tree edge that reconnects: a spanning tree, heavier
        # unless every reconnecting edge ties; swapping against a strictly heavier one is certainly wrong
        weights = {(u, v): w for u, v, w in edges}
        for removed in tree:
            rest = [e for e in tree if e != removed]
            side = reachable(Graph(n, tuple((u, v, 0) for u, v in rest)), removed[0])
            heavier = [(u, v) for u, v, w in edges if (u in side) != (v in side) and w > weights[removed]]
            if heavier:
                wrong.append(", ".join(f"{u}-{v}" for u, v in [*rest, rng.choice(heavier)]))
                break
        return wrong


def _kruskal(n: int, edges: list[list[int]]) -> list[list[int]]:
    sets = UnionFind(n)
    tree = []
    for u, v, w in sorted(edges, key=lambda e: (e[2], e[0], e[1])):
        if sets.union(u, v):
            tree.append([u, v, w])
    return sorted(tree)


def _defeats_shortcuts(n: int, edges: list[list[int]]) -> bool:
    """Whether no choice of the ``n - 1`` lightest edges, of each node's lightest edge, nor of each node's lightest
    neighbour numbered below (above) it, is a minimum spanning tree.

    An edge lighter than the minimum tree's heaviest edge that closes a cycle among the lighter edges puts a
    cycle in every pick of the ``n - 1`` lightest (or they would be a lighter tree); the edges lightest at either
    end, every tie included, must leave two components, so no tie-break of them connects the graph; a scan by
    number weighs the same under every tie-break, so its weight must differ from the minimum.
    """
    tree = _kruskal(n, edges)
    heaviest, weight = max(w for _, _, w in tree), sum(w for _, _, w in tree)
    lighter = UnionFind(n)
    if all(lighter.union(u, v) for u, v, w in edges if w < heaviest):
        return False
    lightest_at = [min(w for u, v, w in edges if node in (u, v)) for node in range(n)]
    chosen = UnionFind(n)
    joins = sum(chosen.union(u, v) for u, v, w in edges if w in (lightest_at[u], lightest_at[v]))
    return joins < n - 1 and all(_scan_weight(n, edges, upward) != weight for upward in (False, True))


def _scan_weight(n: int, edges: list[list[int]], upward: bool) -> int | None:
    """The weight of the tree that joins every node but the first (or the last) to its lightest neighbour numbered
    below (above) it, whatever the tie-break; None when some node has no such neighbour (no tree)."""
    total = 0
    for node in range(1, n) if not upward else range(n - 1):
        weights = [w for u, v, w in edges if node in (u, v) and ((u + v - node > node) == upward)]
        if not weights:
            return None
        total += min(weights)
    return total
