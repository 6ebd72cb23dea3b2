"""List the strongly connected components of a directed graph.

Nodes are split into a planted number of groups (shuffled ids; a group may be a single node).
Each group of two or more nodes gets a directed cycle through all its nodes plus a few chords, so it
is strongly connected; edges between groups only go forward in a random order of the groups, so no
two groups merge. The components are exactly the groups; the edge count between groups is high
enough that weak connectivity says little.

The answer is the partition (unique), in any order and any group spelling of
:func:`palaestra.envs.graphs.common.read_groups`; the verifier compares partitions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import (
    braced_groups,
    check_partition,
    edge_list,
    format_groups,
    partition_of,
    random_groups,
    read_partition,
)


@register
class StronglyConnectedComponents(Task):
    id = "graphs/scc"
    family = "graphs"
    description = "List the strongly connected components of a directed graph."
    tags = ("graphs", "directed", "connectivity")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        nodes: int
        components: tuple[int, int]  # inclusive range
        chords: float  # extra edges inside components, per node
        between: float  # edges between components, per component

    presets = (
        Config(nodes=7, components=(2, 3), chords=0.2, between=1.0),
        Config(nodes=10, components=(3, 4), chords=0.3, between=1.5),
        Config(nodes=14, components=(3, 6), chords=0.4, between=1.5),
        Config(nodes=20, components=(4, 8), chords=0.4, between=2.0),
        Config(nodes=28, components=(5, 10), chords=0.5, between=2.0),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        k = rng.randint(*config.components)
        groups = random_groups(rng, n, k)
        edges: set[tuple[int, int]] = set()
        for group in groups:
            if len(group) > 1:
                edges.update(zip(group, group[1:] + group[:1]))
        big = [g for g in groups if len(g) >= 3]
        for _ in range(round(config.chords * n)):
            if big:
                u, v = rng.sample(rng.choice(big), 2)
                edges.add((u, v))
        for _ in range(round(config.between * k)):
            a, b = sorted(rng.sample(range(k), 2))  # forward in the order of the groups
            edges.add((rng.choice(groups[a]), rng.choice(groups[b])))
        edge_rows = sorted([u, v] for u, v in edges)
        prompt = (
            f"A directed graph has nodes 0 to {n - 1} and these {len(edge_rows)} edges (a->b goes from a to b):\n"
            f"{edge_list(edge_rows, directed=True)}\n\n"
            "List its strongly connected components: the largest groups of nodes in which every node can reach "
            "every other along the edges' directions (a node on its own can be a component). Write one component "
            "per line with its nodes separated by spaces, for example:\n0 5 8\n1\n..."
        )
        return Problem(prompt=prompt, answer=format_groups(groups),
                       data={"n": n, "edges": edge_rows, "components": sorted(sorted(g) for g in groups)})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges."""
        return float(problem.data["n"] + len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["n"]
        groups = read_partition(answer, n)
        if groups is None:
            return Verdict.unparsed("expected one component per line, nodes separated by spaces")
        error = check_partition(groups, n)
        if error:
            return Verdict.wrong(error)
        truth = partition_of(problem.data["components"])
        if partition_of(groups) == truth:
            return Verdict.right()
        return Verdict.wrong(f"these are not the strongly connected components ({len(truth)} expected)")

    def spellings(self, problem: Problem) -> list[str]:
        groups = [line.split() for line in (problem.answer or "").splitlines()]
        return [*super().spellings(problem), braced_groups(groups[::-1]),
                "\n".join(f"SCC {i}: {', '.join(g)}" for i, g in enumerate(groups, 1)),
                "[" + ", ".join("[" + ", ".join(g) + "]" for g in groups) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        groups = [list(g) for g in problem.data["components"]]
        merged = [groups[0] + groups[1], *groups[2:]]
        big = next(g for g in groups if len(g) > 1)
        split = [g for g in groups if g is not big] + [big[:1], big[1:]]
        return [format_groups(merged), format_groups(split), format_groups(groups[1:]),
                " ".join(str(v) for v in range(problem.data["n"]))]
