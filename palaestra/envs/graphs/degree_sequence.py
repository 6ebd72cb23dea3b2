"""Build a simple graph with a given degree sequence, or show there is none.

Degrees are drawn uniformly from ``1..n-1`` (redrawn until their sum is even, so parity never gives
the answer away), and the draws are redrawn until they are graphical or not, by a fair coin. The
two classes come from the same distribution and are about equally common in it, so the sum or the
largest degree says little. Graphical sequences get a reference graph from Havel-Hakimi.

The verifier accepts **any** simple graph (no loops, no repeated edges) whose degrees match, and
``impossible`` exactly when the sequence is not graphical (Erdős-Gallai, through networkx).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import read_edges, without_yes
from palaestra.verifiers.choices import read_option

IMPOSSIBLE = ("impossible", "no such graph", "no such graph exists", "not possible", "none", "no graph",
              "there is no such graph", "not graphical", "it is impossible")


@register
class DegreeSequence(Task):
    id = "graphs/degree_sequence"
    family = "graphs"
    description = "Give a simple graph with the given node degrees, or say that none exists."
    tags = ("graphs", "construction", "proof")

    @dataclass(frozen=True)
    class Config:
        nodes: int

    presets = (Config(nodes=7), Config(nodes=9), Config(nodes=11), Config(nodes=14), Config(nodes=18))
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n = config.nodes
        graphical = rng.random() < 0.5

        def draw() -> list[int] | None:
            degrees = [rng.randint(1, n - 1) for _ in range(n)]
            return degrees if sum(degrees) % 2 == 0 else None

        degrees = retry(draw, lambda d: nx.is_graphical(d) == graphical, what="a degree sequence of the drawn kind")
        answer = ", ".join(f"{u}-{v}" for u, v in _havel_hakimi(degrees)) if graphical else "impossible"
        listing = "\n".join(f"node {v}: degree {d}" for v, d in enumerate(degrees))
        prompt = (
            f"Is there a simple undirected graph (no loops, no repeated edges) on nodes 0 to {n - 1} in which "
            f"each node has exactly this degree (number of edges touching it)?\n{listing}\n\n"
            "If there is, give one: its edges as pairs of nodes joined by a dash, separated by commas, for "
            "example: 0-2, 1-2, 1-3, ... If there is none, answer: impossible"
        )
        return Problem(prompt=prompt, answer=answer, data={"degrees": degrees, "graphical": graphical})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus the edges a realisation needs."""
        degrees = problem.data["degrees"]
        return float(len(degrees) + sum(degrees) // 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        degrees = problem.data["degrees"]
        n = len(degrees)
        if isinstance(answer, str) and len(answer) < 600 and read_option(answer, {True: IMPOSSIBLE}):
            return Verdict.judge(not problem.data["graphical"], "such a graph exists")
        pairs = read_edges(without_yes(answer), n)
        if pairs is None:
            return Verdict.unparsed("expected edges such as 0-2, 1-3, or 'impossible'")
        seen: set[tuple[int, int]] = set()
        got = [0] * n
        for u, v in pairs:
            if u == v:
                return Verdict.wrong(f"{u}-{v} is a loop")
            pair = (min(u, v), max(u, v))
            if pair in seen:
                return Verdict.wrong(f"the edge {u}-{v} is repeated")
            seen.add(pair)
            got[u] += 1
            got[v] += 1
        for v in range(n):
            if got[v] != degrees[v]:
                return Verdict.wrong(f"node {v} has degree {got[v]}, not {degrees[v]}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        if not problem.data["graphical"]:
            return [*super().spellings(problem), "Impossible.", "No such graph exists"]
        pairs = [p.split("-") for p in (problem.answer or "").split(", ")]
        return [*super().spellings(problem), ", ".join(f"({v}, {u})" for u, v in reversed(pairs)),
                "\n".join(f"{u} - {v}" for u, v in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        degrees = problem.data["degrees"]
        if not problem.data["graphical"]:  # any graph: no simple graph has these degrees
            return ["0-1", ", ".join(f"{v}-{(v + 1) % len(degrees)}" for v in range(len(degrees)))]
        pairs = (problem.answer or "").split(", ")
        return ["impossible", ", ".join(pairs[:-1]), ", ".join([*pairs, pairs[0]])]


def _havel_hakimi(degrees: list[int]) -> list[tuple[int, int]]:
    """Edges realising a graphical sequence: the node of largest remaining degree joins the next largest."""
    left = list(degrees)
    edges = []
    for _ in range(len(degrees)):
        u = max(range(len(left)), key=lambda v: (left[v], -v))
        if left[u] == 0:
            break
        partners = sorted((v for v in range(len(left)) if v != u and left[v] > 0), key=lambda v: (-left[v], v))
        for v in partners[: left[u]]:
            left[v] -= 1
            edges.append((min(u, v), max(u, v)))
        left[u] = 0
    return sorted(edges)
