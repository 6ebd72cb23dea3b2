"""Find a maximum clique: the largest set of nodes that are all joined to each other.

Levels 0-1: a random graph of a given density gets a planted clique a little larger than the density makes
likely. From level 2 on (v3) the graph is the join of two parts of 10-12 nodes (every node of one joined to
every node of the other, under a random labelling). Each part has a planted clique with no other edges out
of it (so peeling, which drops a node of fewest neighbours first, drops its nodes early) and a hub: a node
outside the clique joined to every other node outside it (so the node of highest degree is in no largest
clique). A largest clique is a largest clique of each part together. A clique grown greedily (add the
candidate with the most neighbours among the candidates, or the most overall; ties to the lower or the
higher id) from any start node grows, in the part without the start, as from nothing: into the hub. Each part
is redrawn (bounded) until growth from nothing and peeling miss its maximum, and the whole graph until the
textbook greedy clique, the clique grown from every start node (four rules) and peeling (two tie-breaks),
all declared to the kit, miss it: they solve none of levels 2-4. v2 drew one planted part, redrawn against
the single greedy clique only, and growing from every start node found the maximum in all of 2,000 draws
(round-3 red team). Not beaten: growing from every pair of joined nodes (n^2 starts; one start per part)
still finds the maximum. The true maximum comes from networkx's maximal-clique enumeration at generation.
The verifier accepts **any** maximum clique: distinct nodes, every pair joined by an edge, as many nodes as
the maximum.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs._greedy import (
    greedy_clique,
    grown_clique,
    multi_start_clique,
    neighbour_sets,
    peeled_clique,
)
from palaestra.envs.graphs.common import edge_list, read_nodes


@register
class MaxClique(Task):
    id = "graphs/max_clique"
    family = "graphs"
    description = "Give a largest clique of a graph."
    tags = ("graphs", "optimization", "np-hard")
    version = 3

    @dataclass(frozen=True)
    class Config:
        nodes: int
        density: float
        planted: int
        beat_greedy: bool
        parts: int = 1  # 2: the join of two parts of nodes // 2 nodes, each with its own planted clique and hub

    presets = (
        Config(nodes=8, density=0.3, planted=4, beat_greedy=False),
        Config(nodes=10, density=0.3, planted=4, beat_greedy=False),
        Config(nodes=20, density=0.5, planted=4, beat_greedy=True, parts=2),
        Config(nodes=22, density=0.5, planted=4, beat_greedy=True, parts=2),
        Config(nodes=24, density=0.5, planted=5, beat_greedy=True, parts=2),
    )
    # Capped: past them generation raises or passes its CPU bound (difficulty saturates past level 10).
    growth = Growth(steps={"nodes": 2}, limits={"nodes": 36, "planted": 5, "parts": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:

        n = config.nodes
        if config.parts > 1:
            rows, best = retry(lambda: _joined_parts(rng, config), attempts=300,
                               what="a join of two parts on which greed misses the maximum clique")
        else:
            def draw() -> tuple[list[list[int]], list[int]] | None:
                edges = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < config.density}
                planted = sorted(rng.sample(range(n), config.planted))
                edges.update((u, v) for i, u in enumerate(planted) for v in planted[i + 1 :])
                rows = sorted([u, v] for u, v in edges)
                if config.beat_greedy and len(greedy_clique(n, rows)) >= config.planted:
                    return None  # greed already finds a clique as large as the planted one: no need to search
                return rows, _largest_clique(n, rows)

            rows, best = retry(draw, attempts=3_000, what="a graph on which greed misses the maximum clique")
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n{edge_list(rows)}\n\n"
            "Find a maximum clique: as many nodes as possible such that every two of them are joined by an edge. "
            "Give its nodes separated by spaces, for example: 1 4 6 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, best)),
                       data={"n": n, "edges": rows, "size": len(best)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(clique: Callable[[int, list[list[int]]], list[int]]) -> Callable[[Problem], str]:
            return lambda problem: " ".join(map(str, clique(problem.data["n"], problem.data["edges"])))

        return {name: rule(clique) for name, clique in _GREEDY_CLIQUES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges."""
        return float(problem.data["n"] + len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nodes = read_nodes(answer, problem.data["n"])
        if nodes is None:
            return Verdict.unparsed("expected nodes separated by spaces")
        if len(set(nodes)) != len(nodes):
            return Verdict.wrong("a node is listed twice")
        edges = {tuple(e) for e in problem.data["edges"]}
        for i, u in enumerate(nodes):
            for v in nodes[i + 1 :]:
                if (min(u, v), max(u, v)) not in edges:
                    return Verdict.wrong(f"{u} and {v} are not joined by an edge")
        return Verdict.judge(len(nodes) == problem.data["size"], f"a clique of {len(nodes)} nodes is not the largest")

    def spellings(self, problem: Problem) -> list[str]:
        nodes = (problem.answer or "").split()
        return [*super().spellings(problem), "{" + ", ".join(reversed(nodes)) + "}", ", ".join(nodes)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        nodes = [int(v) for v in (problem.answer or "").split()]
        edges = {tuple(e) for e in problem.data["edges"]}
        wrong = [" ".join(map(str, nodes[:-1]))]
        outsiders = [v for v in range(problem.data["n"]) if v not in nodes
                     and any((min(u, v), max(u, v)) not in edges for u in nodes)]
        if outsiders:
            wrong.append(" ".join(map(str, [*nodes, rng.choice(outsiders)])))
        return wrong


_GREEDY_CLIQUES: dict[str, Callable[[int, list[list[int]]], list[int]]] = {
    "greedy clique": greedy_clique,
    "greedy clique grown from every start node": multi_start_clique,
    "greedy clique grown from every start node, ties to the larger id":
        lambda n, edges: multi_start_clique(n, edges, prefer_high=True),
    "greedy clique grown from every start node by degree": lambda n, edges: multi_start_clique(n, edges, by_degree=True),
    "greedy clique grown from every start node by degree, ties to the larger id":
        lambda n, edges: multi_start_clique(n, edges, prefer_high=True, by_degree=True),
    "peeling (drop a node of fewest neighbours until a clique is left)": peeled_clique,
    "peeling, ties to the larger id": lambda n, edges: peeled_clique(n, edges, prefer_high=True),
}


def _largest_clique(n: int, rows: list[list[int]]) -> list[int]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(rows)
    return max((sorted(c) for c in nx.find_cliques(graph)), key=lambda c: (len(c), [-v for v in c]))


def _part(rng: random.Random, labels: list[int], density: float, planted: int) -> list[tuple[int, int]] | None:
    """A part on the nodes ``labels``: random edges outside a planted clique, and a hub (a node outside the clique
    joined to every other node outside it). None unless every clique grown from nothing (the four rules) and
    peeling miss the part's maximum."""
    size = len(labels)
    order = rng.sample(range(size), size)
    clique, hub = order[:planted], order[planted]
    inside = set(clique)
    # No edge leaves the planted clique, so that peeling (fewest neighbours first) drops its nodes early.
    edges = {(u, v) for u in range(size) for v in range(u + 1, size)
             if (u in inside) == (v in inside) and rng.random() < density}
    edges.update((min(u, v), max(u, v)) for i, u in enumerate(clique) for v in clique[i + 1 :])
    edges.update((min(hub, v), max(hub, v)) for v in order[planted + 1 :])
    rows = sorted(sorted((labels[u], labels[v])) for u, v in edges)
    # Each rule, run on the part alone under its final labels (the other nodes left without edges).
    joined = neighbour_sets(max(labels) + 1, rows)
    top = len(_largest_clique(max(labels) + 1, rows))
    for prefer_high in (False, True):
        for by_degree in (False, True):
            if len(grown_clique(joined, None, prefer_high, by_degree)) >= top:
                return None
        if len(peeled_clique(max(labels) + 1, rows, prefer_high)) >= top:
            return None
    return [(u, v) for u, v in rows]


def _joined_parts(rng: random.Random, config: MaxClique.Config) -> tuple[list[list[int]], list[int]] | None:
    """Two parts (each redrawn, bounded, until greed grown from nothing misses its maximum), every node of one
    joined to every node of the other; None unless every declared rule misses the maximum of the whole."""
    n = config.nodes
    labels = rng.sample(range(n), n)
    cuts = [n * i // config.parts for i in range(config.parts + 1)]
    halves = [labels[cuts[i]:cuts[i + 1]] for i in range(config.parts)]
    parts = []
    for half in halves:
        part = None
        for _ in range(200):
            part = _part(rng, half, config.density, config.planted)
            if part is not None:
                break
        if part is None:
            return None
        parts.append(part)
    rows = sorted({(min(u, v), max(u, v)) for i, half in enumerate(halves) for other in halves[i + 1:]
                   for u in half for v in other}.union(*parts))
    edges = [[u, v] for u, v in rows]
    best = _largest_clique(n, edges)
    if any(len(rule(n, edges)) >= len(best) for rule in _GREEDY_CLIQUES.values()):
        return None
    return edges, best
