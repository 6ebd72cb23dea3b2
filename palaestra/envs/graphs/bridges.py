"""List the bridges of a connected undirected graph: the edges whose removal disconnects it.

Graphs are random connected graphs (:func:`palaestra.generators.graphs.random_connected`) sparse
enough to keep several bridges, redrawn until they have at least one bridge and at least one
cycle. The bridges (found by networkx at generation) are a unique set; the verifier compares
sets of edges, in any order, either way round, in any pair spelling of
:func:`palaestra.envs.graphs.common.read_edges` (``0-1, 2-3``, ``(0, 1), (2, 3)``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.graphs.common import edge_list, read_edges
from palaestra.generators.graphs import random_connected


@register
class Bridges(Task):
    id = "graphs/bridges"
    family = "graphs"
    description = "List every bridge (cut edge) of a connected undirected graph."
    tags = ("graphs", "connectivity")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int

    def config(self, level: int) -> Config:
        return [
            self.Config(nodes=7, edges=8),
            self.Config(nodes=10, edges=12),
            self.Config(nodes=14, edges=17),
            self.Config(nodes=20, edges=25),
            self.Config(nodes=28, edges=35),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n, m = config.nodes, config.edges

        def draw() -> tuple[list[list[int]], list[list[int]]]:
            graph = random_connected(rng, n, m)
            edges = sorted([u, v] for u, v, _ in graph.edges)
            return edges, sorted(sorted(e) for e in nx.bridges(graph.to_networkx()))

        edges, bridges = retry(draw, lambda drawn: 0 < len(drawn[1]) < len(drawn[0]), what="a graph with bridges")
        prompt = (
            f"An undirected connected graph has nodes 0 to {n - 1} and these {len(edges)} edges:\n"
            f"{edge_list(edges)}\n\n"
            "List all of its bridges: the edges whose removal would disconnect the graph. Write each bridge as "
            "its two nodes joined by a dash, bridges separated by commas, for example: 2-7, 4-5 (or none if "
            "there is no bridge)."
        )
        return Problem(prompt=prompt, answer=", ".join(f"{u}-{v}" for u, v in bridges),
                       data={"n": n, "edges": edges, "bridges": bridges})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how far a cut's effect reaches), plus the bridges."""
        from palaestra.envs.graphs.measures import diameter

        data = problem.data
        return float(data["n"] + len(data["edges"]) + len(data["bridges"]) + diameter(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        pairs = read_edges(answer, problem.data["n"], allow_empty=True)
        if pairs is None:
            return Verdict.unparsed("expected edges such as 2-7, 4-5")
        written = [tuple(sorted(p)) for p in pairs]
        if len(set(written)) != len(written):
            return Verdict.wrong("an edge is listed twice")
        edges = {tuple(e) for e in problem.data["edges"]}
        strangers = [p for p in written if p not in edges]
        if strangers:
            return Verdict.wrong(f"{strangers[0][0]}-{strangers[0][1]} is not an edge of the graph")
        truth = {tuple(b) for b in problem.data["bridges"]}
        if set(written) == truth:
            return Verdict.right()
        extra = [p for p in written if p not in truth]
        if extra:
            return Verdict.wrong(f"{extra[0][0]}-{extra[0][1]} is not a bridge")
        return Verdict.wrong(f"{len(truth) - len(written)} bridge(s) missing")

    def spellings(self, problem: Problem) -> list[str]:
        bridges = problem.data["bridges"]
        return [*super().spellings(problem), ", ".join(f"({v}, {u})" for u, v in reversed(bridges)),
                "\n".join(f"{u} - {v}" for u, v in bridges), "[" + ", ".join(f"[{u}, {v}]" for u, v in bridges) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        bridges = problem.data["bridges"]
        others = [e for e in problem.data["edges"] if e not in bridges]
        extra = rng.choice(others)
        wrong = [", ".join(f"{u}-{v}" for u, v in [*bridges, extra]), "none"]
        if len(bridges) > 1:
            wrong.append(", ".join(f"{u}-{v}" for u, v in bridges[1:]))
        else:
            wrong.append(f"{extra[0]}-{extra[1]}")
        return wrong
