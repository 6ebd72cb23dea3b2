"""Find an Eulerian trail: a walk that uses every edge of a graph exactly once.

The graph is a cycle through every node plus a few more edge-disjoint random short cycles, so it
is connected and every degree is even; half the time one edge is then removed, leaving exactly two
odd-degree nodes where any Eulerian trail must start and end. The verifier accepts **any** walk
that steps along edges of the graph and uses each edge exactly once (no edge left out).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list, read_nodes


@register
class EulerianPath(Task):
    id = "graphs/eulerian_path"
    family = "graphs"
    description = "Give a walk that uses every edge of a graph exactly once (an Eulerian path or circuit)."
    tags = ("graphs", "paths")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        cycles: int  # extra random cycles on top of the spanning cycle
        longest_cycle: int

    presets = (
        Config(nodes=7, cycles=1, longest_cycle=4),
        Config(nodes=8, cycles=2, longest_cycle=4),
        Config(nodes=9, cycles=3, longest_cycle=5),
        Config(nodes=11, cycles=5, longest_cycle=5),
        Config(nodes=13, cycles=7, longest_cycle=6),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n = config.nodes
        order = list(range(n))
        rng.shuffle(order)
        edges = {_pair(u, v) for u, v in zip(order, order[1:] + order[:1])}
        added = 0
        for _ in range(30 * config.cycles):  # bounded: a cycle reusing an edge is skipped
            if added == config.cycles:
                break
            loop = rng.sample(range(n), rng.randint(3, config.longest_cycle))
            pairs = {_pair(u, v) for u, v in zip(loop, loop[1:] + loop[:1])}
            if not pairs & edges:
                edges |= pairs
                added += 1
        if rng.random() < 0.5:  # an even graph has no bridge, so removing an edge keeps it connected
            edges.remove(rng.choice(sorted(edges)))
        rows = sorted([u, v] for u, v in edges)
        graph = nx.Graph(rows)
        steps = list(nx.eulerian_path(graph))
        walk = [steps[0][0]] + [v for _, v in steps]
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n{edge_list(rows)}\n\n"
            "Find a walk that uses every edge exactly once (an Eulerian path; it may end where it started or "
            "elsewhere). Give the nodes of the walk in order, separated by spaces, for example: 2 0 4 2 1 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, walk)), data={"n": n, "edges": rows})

    def difficulty(self, problem: Problem) -> float:
        """Edges: the length of the walk."""
        return float(len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        edges = {tuple(e) for e in problem.data["edges"]}
        walk = read_nodes(answer, problem.data["n"])
        if walk is None:
            return Verdict.unparsed("expected the nodes of the walk in order")
        used: set[tuple[int, int]] = set()
        for u, v in zip(walk, walk[1:]):
            pair = _pair(u, v)
            if pair not in edges:
                return Verdict.wrong(f"{u}-{v} is not an edge")
            if pair in used:
                return Verdict.wrong(f"the edge {u}-{v} is used twice")
            used.add(pair)
        if len(used) != len(edges):
            return Verdict.wrong(f"{len(edges) - len(used)} edge(s) are never used")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """The greedy walk without Fleury's bridge test: from an odd node (else the first), always along the
        unused edge to the smallest (or largest) neighbour, until stuck."""
        return {"greedy walk, smallest neighbour": lambda problem: _greedy_walk(problem, prefer_high=False),
                "greedy walk, largest neighbour": lambda problem: _greedy_walk(problem, prefer_high=True)}

    def spellings(self, problem: Problem) -> list[str]:
        walk = (problem.answer or "").split()
        return [*super().spellings(problem), " ".join(reversed(walk)), " -> ".join(walk), ", ".join(walk)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        walk = (problem.answer or "").split()
        return [" ".join(walk[:-1]), " ".join([*walk, walk[-2]]), " ".join(walk[1:]) if walk[0] != walk[-1] else
                " ".join(walk[2:])]


def _greedy_walk(problem: Problem, prefer_high: bool) -> str:
    edges = problem.data["edges"]
    joined: dict[int, set[int]] = {}
    for u, v in edges:
        joined.setdefault(u, set()).add(v)
        joined.setdefault(v, set()).add(u)
    pick = max if prefer_high else min
    odd = [v for v in joined if len(joined[v]) % 2]
    node = pick(odd or list(joined))
    walk = [node]
    for _ in range(len(edges)):  # each step uses an edge
        if not joined[node]:
            break
        nxt = pick(joined[node])
        joined[node].discard(nxt)
        joined[nxt].discard(node)
        walk.append(nxt)
        node = nxt
    return " ".join(map(str, walk))


def _pair(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)
