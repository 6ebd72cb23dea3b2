"""Find a maximum clique: the largest set of nodes that are all joined to each other.

A random graph of a given density gets a planted clique a little larger than the density makes
likely, so the maximum is usually (not always) the planted one; the true maximum size comes from
networkx's maximal-clique enumeration at generation. From level 2 on, graphs are redrawn until the
textbook greedy clique (start at a node of highest degree, keep adding the candidate with the most
neighbours among the candidates; declared to the kit) is smaller than the maximum: it solves none
of them (0% at levels 2-4, against 87-100% before). The verifier accepts **any** maximum clique:
distinct nodes, every pair joined by an edge, as many nodes as the maximum.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs._greedy import greedy_clique
from palaestra.envs.graphs.common import edge_list, read_nodes


@register
class MaxClique(Task):
    id = "graphs/max_clique"
    family = "graphs"
    description = "Give a largest clique of a graph."
    tags = ("graphs", "optimization", "np-hard")
    version = 2

    @dataclass(frozen=True)
    class Config:
        nodes: int
        density: float
        planted: int
        beat_greedy: bool

    presets = (
        Config(nodes=8, density=0.3, planted=4, beat_greedy=False),
        Config(nodes=10, density=0.3, planted=4, beat_greedy=False),
        Config(nodes=13, density=0.35, planted=4, beat_greedy=True),
        Config(nodes=16, density=0.35, planted=5, beat_greedy=True),
        Config(nodes=20, density=0.35, planted=6, beat_greedy=True),
    )
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nodes": 52, "planted": 14})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n = config.nodes

        def draw() -> tuple[list[list[int]], list[int]] | None:
            edges = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < config.density}
            planted = sorted(rng.sample(range(n), config.planted))
            edges.update((u, v) for i, u in enumerate(planted) for v in planted[i + 1 :])
            rows = sorted([u, v] for u, v in edges)
            if config.beat_greedy and len(greedy_clique(n, rows)) >= config.planted:
                return None  # greed already finds a clique as large as the planted one: no need to search
            graph = nx.Graph()
            graph.add_nodes_from(range(n))
            graph.add_edges_from(rows)
            best = max((sorted(c) for c in nx.find_cliques(graph)), key=lambda c: (len(c), [-v for v in c]))
            return rows, best

        rows, best = retry(draw, attempts=3_000, what="a graph on which greed misses the maximum clique")
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n{edge_list(rows)}\n\n"
            "Find a maximum clique: as many nodes as possible such that every two of them are joined by an edge. "
            "Give its nodes separated by spaces, for example: 1 4 6 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, best)),
                       data={"n": n, "edges": rows, "size": len(best)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def greedy(problem: Problem) -> str:
            return " ".join(map(str, greedy_clique(problem.data["n"], problem.data["edges"])))

        return {"greedy clique": greedy}

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
