"""List the connected components of an undirected graph.

Nodes are split into a planted number of groups; each group gets a random spanning tree and a few
extra edges, so the components are exactly the groups. The node ids are shuffled so groups are not
runs of consecutive ids, and the edge list is sorted, so the layout gives nothing away. A group may be
a single isolated node.

The answer is the partition itself, in any order and any of the group spellings of
:func:`palaestra.envs.graphs.common.read_groups` (one component per line, ``{0, 3}, {1, 2}``,
``[[0, 3], [1, 2]]``). It is unique, so the verifier compares partitions (never strings).
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
from palaestra.generators.graphs import Graph, components, random_tree


@register
class Components(Task):
    id = "graphs/components"
    family = "graphs"
    description = "List the connected components of an undirected graph."
    tags = ("graphs", "connectivity")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        nodes: int
        components: tuple[int, int]  # inclusive range of the number of components
        extra_edges: float  # extra edges per node, on top of each component's spanning tree

    presets = (
        Config(nodes=8, components=(2, 3), extra_edges=0.25),
        Config(nodes=11, components=(3, 4), extra_edges=0.3),
        Config(nodes=16, components=(3, 6), extra_edges=0.4),
        Config(nodes=22, components=(4, 7), extra_edges=0.5),
        Config(nodes=30, components=(5, 9), extra_edges=0.6),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        k = rng.randint(*config.components)
        groups = random_groups(rng, n, k)
        edges: set[tuple[int, int]] = set()
        for group in groups:
            tree = random_tree(rng, len(group))
            edges.update(tuple(sorted((group[u], group[v]))) for u, v, _ in tree.edges)
        extra = round(config.extra_edges * n)
        big = [g for g in groups if len(g) >= 3]
        for _ in range(4 * extra):  # bounded: a pair already joined is skipped
            if not big or len(edges) >= n - k + extra:
                break
            group = rng.choice(big)
            u, v = rng.sample(group, 2)
            edges.add((min(u, v), max(u, v)))
        graph = Graph(n, tuple((u, v, 1) for u, v in sorted(edges)))
        found = groups  # by construction: a spanning tree inside each group, extra edges only within one
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(graph.edges)} edges:\n"
            f"{edge_list(graph.edges)}\n\n"
            "List its connected components (a node with no edges is a component of its own). "
            "Write one component per line with its nodes separated by spaces, for example:\n"
            "0 5 8\n1 2\n..."
        )
        return Problem(prompt=prompt, answer=format_groups(found),
                       data={"n": n, "edges": [[u, v] for u, v, _ in graph.edges]})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges: the graph to search."""
        return float(problem.data["n"] + len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["n"]
        groups = read_partition(answer, n)
        if groups is None:
            return Verdict.unparsed("expected one component per line, nodes separated by spaces")
        problem_with = check_partition(groups, n)
        if problem_with:
            return Verdict.wrong(problem_with)
        truth = partition_of(components(Graph(n, tuple((u, v, 1) for u, v in problem.data["edges"]))))
        if partition_of(groups) == truth:
            return Verdict.right()
        return Verdict.wrong(f"these are not the components ({len(truth)} components expected)"
                             if len(groups) != len(truth) else "these are not the components")

    def spellings(self, problem: Problem) -> list[str]:
        groups = [list(map(int, line.split())) for line in (problem.answer or "").splitlines()]
        return [
            *super().spellings(problem),
            braced_groups(groups[::-1]),
            "[" + ", ".join("[" + ", ".join(map(str, g[::-1])) + "]" for g in groups) + "]",
            "\n".join(f"Component {i}: {', '.join(map(str, g))}" for i, g in enumerate(groups, 1)),
            "; ".join(" ".join(map(str, g)) for g in groups),
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        groups = [list(map(int, line.split())) for line in (problem.answer or "").splitlines()]
        merged = [groups[0] + groups[1], *groups[2:]]
        moved = [g[:] for g in groups]
        donor = next(i for i, g in enumerate(moved) if g)
        node = moved[donor].pop()
        moved[(donor + 1) % len(moved)].append(node)
        moved = [g for g in moved if g]
        split = [g for g in groups if len(g) > 1][0]
        halves = [g for g in groups if g is not split] + [split[:1], split[1:]]
        return [format_groups(merged), format_groups(moved), format_groups(halves), format_groups(groups[:-1])]
