"""Find a negative cycle in a weighted directed graph (Bellman-Ford territory), or say there is none.

Weights come from node potentials: ``w(a, b) = c(a, b) + p(a) - p(b)`` with ``c >= 0``, so many
edges are negative yet every cycle weighs its ``c`` total, never less than zero. Then one cycle of
the graph (every graph drawn has cycles) is brought to a total of -3 to -1 (half the time) or 0 to
2, its edges sharing the change, and other edges are raised by as much as the cycle was lowered,
so the total weight and the weight range say nothing about the answer. Bellman-Ford then decides
(draws whose outcome differs from the coin are redrawn). Both kinds have the same numbers of
nodes and edges.

The verifier accepts **any** cycle that follows edges in their direction and has negative total
weight, and ``none`` exactly when no negative cycle exists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import (
    closed_walk,
    cycle_error,
    find_cycle,
    non_cycle_example,
    read_nodes,
    weighted_edge_lines,
    without_yes,
)
from palaestra.generators.graphs import random_connected
from palaestra.verifiers.choices import read_option

NONE_SPELLINGS = ("none", "no negative cycle", "no", "there is no negative cycle", "no negative cycles",
                  "there are no negative cycles")


@register
class NegativeCycle(Task):
    id = "graphs/negative_cycle"
    family = "graphs"
    description = "Find a negative-weight cycle in a directed graph, or report that none exists."
    tags = ("graphs", "shortest-paths", "cycles")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        max_cost: int
        max_potential: int

    presets = (
        Config(nodes=6, edges=9, max_cost=6, max_potential=6),
        Config(nodes=8, edges=13, max_cost=8, max_potential=8),
        Config(nodes=10, edges=17, max_cost=10, max_potential=10),
        Config(nodes=12, edges=22, max_cost=12, max_potential=12),
        Config(nodes=15, edges=30, max_cost=15, max_potential=15),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        negative = rng.random() < 0.5

        def draw() -> tuple[list[list[int]], list[int] | None] | None:
            graph = random_connected(rng, n, config.edges, directed=True)
            potential = [rng.randint(0, config.max_potential) for _ in range(n)]
            weights = {(u, v): rng.randint(0, config.max_cost) + potential[u] - potential[v] for u, v, _ in graph.edges}
            start = rng.randrange(n)
            order = list(range(start, n)) + list(range(start))  # find a cycle from a random place
            relabel = {v: i for i, v in enumerate(order)}
            cycle = find_cycle(n, [[relabel[u], relabel[v]] for u, v in weights], directed=True)
            if cycle is None:
                return None
            cycle = [order[i] for i in cycle]
            steps = list(zip(cycle, cycle[1:] + cycle[:1]))
            target = rng.randint(-3, -1) if negative else rng.randint(0, 2)
            drop = sum(weights[s] for s in steps) - target
            _spread(weights, steps, -drop)
            others = [e for e in sorted(weights) if e not in steps]
            if drop > 0:  # raise other edges as much: the total weight says nothing; raising adds no negative cycle
                _spread(weights, rng.sample(others, min(len(others), len(steps))), drop)
            rows = sorted([u, v, w] for (u, v), w in weights.items())
            if _has_negative_cycle(n, rows) != negative:
                return None
            return rows, cycle if negative else None

        rows, cycle = retry(draw, what="a graph with a cycle")
        a, b, c = non_cycle_example(rng, n, rows, directed=True)
        prompt = (
            f"A directed graph has nodes 0 to {n - 1} and these weighted edges (a -> b goes from a to b; weights "
            f"may be negative):\n{weighted_edge_lines(rows, directed=True)}\n\n"
            "Does the graph contain a negative cycle, a directed cycle whose edge weights add up to less than zero? "
            f"If it does, give one as its nodes in order, each once (for example: {a} {b} {c}, meaning "
            f"{a} -> {b} -> {c} -> {a}). "
            "If it does not, answer: none"
        )
        return Problem(prompt=prompt, answer="none" if cycle is None else " ".join(map(str, cycle)),
                       data={"n": n, "edges": rows, "negative": cycle is not None})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges."""
        return float(problem.data["n"] + len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if isinstance(answer, str) and len(answer) < 600 and read_option(answer, {True: NONE_SPELLINGS}):
            return Verdict.judge(not data["negative"], "the graph has a negative cycle")
        nodes = read_nodes(without_yes(answer), data["n"])
        if nodes is None:
            return Verdict.unparsed("expected a cycle as nodes in order, or 'none'")
        cycle = closed_walk(nodes)
        weights = {(u, v): w for u, v, w in data["edges"]}
        error = cycle_error(cycle, set(weights), directed=True)
        if error:
            return Verdict.wrong(error)
        total = sum(weights[s] for s in zip(cycle, cycle[1:] + cycle[:1]))
        return Verdict.judge(total < 0, f"the cycle weighs {total}, which is not negative")

    def spellings(self, problem: Problem) -> list[str]:
        if not problem.data["negative"]:
            return [*super().spellings(problem), "None.", "There is no negative cycle."]
        nodes = (problem.answer or "").split()
        return [*super().spellings(problem), " -> ".join([*nodes, nodes[0]]), ", ".join(nodes[1:] + nodes[:1])]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        if data["negative"]:
            nodes = (problem.answer or "").split()
            return ["none", " ".join(reversed(nodes)) if len(nodes) > 2 else "0 0", " ".join(nodes[:1])]
        weights = {(u, v): w for u, v, w in data["edges"]}
        cycle = find_cycle(data["n"], [[u, v] for u, v in weights], directed=True) or [0, 1]
        return [" ".join(map(str, cycle)), "0 1 2"]


def _spread(weights: dict[tuple[int, int], int], steps: list[tuple[int, int]], change: int) -> None:
    """Add ``change`` to the weights of ``steps``, spread as evenly as integers allow."""
    for i, step in enumerate(steps):
        weights[step] += change // len(steps) + (i < change % len(steps))


def _has_negative_cycle(n: int, edges: list[list[int]]) -> bool:
    """Bellman-Ford from a virtual source joined to every node: a relaxation in round n means a negative cycle."""
    distance = [0] * n
    for _ in range(n):
        changed = False
        for u, v, w in edges:
            if distance[u] + w < distance[v]:
                distance[v] = distance[u] + w
                changed = True
        if not changed:
            return False
    return True
