"""List the articulation points (cut vertices) of a connected undirected graph.

Graphs are random connected graphs (:func:`palaestra.generators.graphs.random_connected`) sparse
enough to have cut vertices, redrawn until they have at least one, and at least one node that is
not a leaf yet is no cut vertex either (so "every inner node" is wrong). The articulation points
(networkx at generation) are a unique set; the verifier compares sets of nodes, in any order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.graphs.common import edge_list, read_nodes
from palaestra.generators.graphs import random_connected


@register
class ArticulationPoints(Task):
    id = "graphs/articulation_points"
    version = 2
    family = "graphs"
    description = "List every articulation point (cut vertex) of a connected undirected graph."
    tags = ("graphs", "connectivity")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int

    def config(self, level: int) -> Config:
        return [
            self.Config(nodes=8, edges=9),
            self.Config(nodes=11, edges=13),
            self.Config(nodes=15, edges=18),
            self.Config(nodes=20, edges=25),
            self.Config(nodes=27, edges=34),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n = config.nodes

        def draw() -> tuple[list[list[int]], list[int]] | None:
            graph = random_connected(rng, n, config.edges)
            g = graph.to_networkx()
            cuts = sorted(nx.articulation_points(g))
            inner = [v for v in range(n) if g.degree(v) > 1 and v not in cuts]
            return (sorted([u, v] for u, v, _ in graph.edges), cuts) if cuts and inner else None

        edges, cuts = retry(draw, what="a graph with cut vertices")
        example = sorted(rng.sample(range(n), 2))  # drawn independently of the answer
        prompt = (
            f"An undirected connected graph has nodes 0 to {n - 1} and these {len(edges)} edges:\n"
            f"{edge_list(edges)}\n\n"
            "List all of its articulation points: the nodes whose removal (together with their edges) would "
            "disconnect the remaining graph. Give the nodes separated by spaces, for example: "
            f"{example[0]} {example[1]} ... (or none "
            "if there is no such node)."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, cuts)), data={"n": n, "edges": edges, "cuts": cuts})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges."""
        return float(problem.data["n"] + len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nodes = read_nodes(answer, problem.data["n"], allow_empty=True)
        if nodes is None:
            return Verdict.unparsed("expected nodes separated by spaces")
        if len(set(nodes)) != len(nodes):
            return Verdict.wrong("a node is listed twice")
        truth = set(problem.data["cuts"])
        extra = [v for v in nodes if v not in truth]
        if extra:
            return Verdict.wrong(f"removing node {extra[0]} does not disconnect the graph")
        return Verdict.judge(set(nodes) == truth, f"{len(truth) - len(nodes)} articulation point(s) missing")

    def spellings(self, problem: Problem) -> list[str]:
        cuts = problem.data["cuts"]
        return [*super().spellings(problem), "{" + ", ".join(map(str, reversed(cuts))) + "}",
                " and ".join(f"node {v}" for v in cuts)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cuts = problem.data["cuts"]
        others = [v for v in range(problem.data["n"]) if v not in cuts]
        wrong = [" ".join(map(str, [*cuts, rng.choice(others)])), "none"]
        wrong.append(" ".join(map(str, cuts[1:])) if len(cuts) > 1 else str(rng.choice(others)))
        return wrong
