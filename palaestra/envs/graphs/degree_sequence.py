"""Build a simple graph with a given degree sequence, or show there is none.

Degrees are drawn uniformly from ``1..n-1`` (redrawn until their sum is even, so parity never gives
the answer away), and the draws are redrawn until they are graphical or not, by a fair coin. The
two classes come from the same distribution and are about equally common in it, so the sum or the
largest degree says little. Graphical sequences get a reference graph from Havel-Hakimi.

Both sides carry a proof. A graphical sequence is answered by **any** simple graph (no loops, no
repeated edges) whose degrees match. A non-graphical one is answered by ``impossible:`` and a set
``S`` of ``k`` nodes whose degrees add up to more than ``k(k-1) + Σ_{v ∉ S} min(deg v, k)``: the
edges inside ``S`` give at most ``k(k-1)`` degree and each node outside at most ``min(deg v, k)``, so
no graph has those degrees. Erdős-Gallai says such a set (the ``k`` largest degrees for some ``k``)
exists for every non-graphical sequence of even sum; the reference gives the smallest such ``k``.
A bare ``impossible`` is wrong, and an edge list followed by ``impossible`` is a hedge and not read.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import read_edges, read_nodes, without_yes
from palaestra.verifiers.claims import mentions
from palaestra.verifiers.normalize import strip_wrappers

IMPOSSIBLE = ("impossible", "no such graph", "not possible", "none", "no graph", "not graphical")
# "impossible:", "It is impossible. S =", "Not graphical; set:" before the set that proves it
_IMPOSSIBLE_HEAD = re.compile(
    r"^\W{0,8}(?:no\b[\s,.:;!-]*)?(?:it is |this is )?(?:impossible|not possible|not graphical|no such graph(?: exists)?)"
    r"\b[\s,.:;=!-]*(?:(?:the |a )?set\b\s*)?(?:s\b\s*)?(?:is\b\s*)?[:=]?\s*", re.IGNORECASE)


@register
class DegreeSequence(Task):
    id = "graphs/degree_sequence"
    family = "graphs"
    description = "Give a simple graph with the given node degrees, or say that none exists."
    tags = ("graphs", "construction", "proof")
    version = 2
    bare_verdicts = ("impossible",)

    @dataclass(frozen=True)
    class Config:
        nodes: int

    presets = (Config(nodes=7), Config(nodes=9), Config(nodes=11), Config(nodes=14), Config(nodes=18))
    # Capped at level 24's values: past them the reference outgrows what the answer reader takes (difficulty saturates).
    growth = Growth(limits={"nodes": 98})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n = config.nodes
        graphical = rng.random() < 0.5

        def draw() -> list[int] | None:
            degrees = [rng.randint(1, n - 1) for _ in range(n)]
            return degrees if sum(degrees) % 2 == 0 else None

        degrees = retry(draw, lambda d: nx.is_graphical(d) == graphical, what="a degree sequence of the drawn kind")
        answer = (", ".join(f"{u}-{v}" for u, v in _havel_hakimi(degrees)) if graphical
                  else "impossible: " + " ".join(map(str, sorted(_overfull_set(degrees)))))
        listing = "\n".join(f"node {v}: degree {d}" for v, d in enumerate(degrees))
        prompt = (
            f"Is there a simple undirected graph (no loops, no repeated edges) on nodes 0 to {n - 1} in which "
            f"each node has exactly this degree (number of edges touching it)?\n{listing}\n\n"
            "If there is, give one: its edges as pairs of nodes joined by a dash, separated by commas, for "
            "example: 0-2, 1-2, 1-3, ... If there is none, prove it: answer 'impossible:' followed by a set S of "
            "nodes whose degrees add up to more than k(k-1) + the sum over the nodes outside S of min(degree, k), "
            "where k is the size of S (edges inside S give S at most k(k-1) degree and each node outside at most "
            "min(degree, k)), for example: impossible: 1 4"
        )
        return Problem(prompt=prompt, answer=answer, data={"degrees": degrees, "graphical": graphical})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus the edges a realisation needs."""
        degrees = problem.data["degrees"]
        return float(len(degrees) + sum(degrees) // 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        degrees = problem.data["degrees"]
        n = len(degrees)
        if not isinstance(answer, str) or len(answer) > 20_000:
            return Verdict.unparsed("no readable answer")
        text = strip_wrappers(answer).strip()
        head = _IMPOSSIBLE_HEAD.match(text[:200])
        if head:
            if not text[head.end():].strip(" .!*"):
                return Verdict.wrong("'impossible' needs its proof: a set of nodes with too much degree")
            chosen = read_nodes(text[head.end():].strip().strip("{}[]()"), n)
            if chosen is None:
                return Verdict.unparsed("expected 'impossible:' followed by a set of nodes")
            return _check_overfull(chosen, degrees)
        if mentions(text, IMPOSSIBLE):
            return Verdict.unparsed("the answer gives both a graph and 'impossible'")
        pairs = read_edges(without_yes(text), n)
        if pairs is None:
            return Verdict.unparsed("expected edges such as 0-2, 1-3, or 'impossible:' and a set of nodes")
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
            nodes = (problem.answer or "").split(":")[1].split()
            return [*super().spellings(problem), "Impossible. S = {" + ", ".join(nodes) + "}",
                    "No such graph exists: " + ", ".join(reversed(nodes))]
        pairs = [p.split("-") for p in (problem.answer or "").split(", ")]
        return [*super().spellings(problem), ", ".join(f"({v}, {u})" for u, v in reversed(pairs)),
                "\n".join(f"{u} - {v}" for u, v in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        degrees = problem.data["degrees"]
        if not problem.data["graphical"]:  # any graph: no simple graph has these degrees
            lightest = min(range(len(degrees)), key=lambda v: (degrees[v], v))
            return ["0-1", ", ".join(f"{v}-{(v + 1) % len(degrees)}" for v in range(len(degrees))), "impossible",
                    f"impossible: {lightest}", f"0-1. {problem.answer}"]
        pairs = (problem.answer or "").split(", ")
        return ["impossible", ", ".join(pairs[:-1]), ", ".join([*pairs, pairs[0]]), f"{problem.answer}. Impossible.",
                "impossible: " + " ".join(map(str, range(len(degrees))))]


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


def _overload(chosen: set[int], degrees: list[int]) -> int:
    """How much the degrees in ``chosen`` exceed what edges inside it and edges from outside can supply."""
    k = len(chosen)
    supply = k * (k - 1) + sum(min(d, k) for v, d in enumerate(degrees) if v not in chosen)
    return sum(degrees[v] for v in chosen) - supply


def _overfull_set(degrees: list[int]) -> list[int]:
    """The ``k`` nodes of largest degree for the smallest ``k`` that breaks Erdős-Gallai."""
    ranked = sorted(range(len(degrees)), key=lambda v: (-degrees[v], v))
    for k in range(1, len(degrees) + 1):
        if _overload(set(ranked[:k]), degrees) > 0:
            return ranked[:k]
    raise ValueError("the sequence is graphical")


def _check_overfull(chosen: list[int], degrees: list[int]) -> Verdict:
    if len(set(chosen)) != len(chosen):
        return Verdict.wrong("the set names a node twice")
    excess = _overload(set(chosen), degrees)
    if excess <= 0:
        return Verdict.wrong(f"edges can supply the degrees of that set ({-excess} to spare): it proves nothing")
    return Verdict.right()
