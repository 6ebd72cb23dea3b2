"""Group the nodes of a graph by their distance (in edges) from a source: breadth-first layers.

A random connected graph (:func:`palaestra.generators.graphs.random_connected`), undirected at the
low levels and directed at the high ones (where some nodes may be unreachable and are left out;
the source is drawn among the nodes that reach at least 60% of the graph, or the ones that reach
the most).
The layers are unique: line ``d`` lists the nodes exactly ``d`` edges from the source, the first
line the source alone. The verifier compares the layers in order, the nodes inside a layer in
any order; a ``2:``-style label on a line must match its distance.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list, hop_layers, read_groups
from palaestra.generators.graphs import random_connected


@register
class BfsLayers(Task):
    id = "graphs/bfs_layers"
    version = 2
    family = "graphs"
    description = "List the nodes of a graph layer by layer by distance from a source (BFS layers)."
    tags = ("graphs", "distances", "search")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        directed: bool

    presets = (
        Config(nodes=7, edges=8, directed=False),
        Config(nodes=10, edges=13, directed=False),
        Config(nodes=14, edges=19, directed=False),
        Config(nodes=16, edges=26, directed=True),
        Config(nodes=22, edges=36, directed=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, directed = config.nodes, config.directed
        graph = random_connected(rng, n, config.edges, directed=directed)
        neighbours = graph.neighbours()
        if directed:
            reach = [len(hop_layers(neighbours, v)[1]) for v in range(n)]
            sources = [v for v in range(n) if reach[v] >= min(max(reach), 0.6 * n)]
        else:  # a connected undirected graph: every node reaches all n
            sources = list(range(n))
        source = rng.choice(sources)
        distance, reached = hop_layers(neighbours, source)
        layers = [[] for _ in range(distance[reached[-1]] + 1)]
        for v in range(n):
            if distance[v] >= 0:
                layers[distance[v]].append(v)
        rows = sorted([u, v] for u, v, _ in graph.edges)
        kind = "directed" if directed else "undirected"
        arrows = " (a->b goes from a to b)" if directed else ""
        unreachable = " Leave out nodes that cannot be reached from the source." if directed else ""
        # example lines of other nodes, drawn independently of their distances (of the answer)
        others = rng.sample([v for v in range(n) if v != source], 5)
        second, third = sorted(others[:2]), sorted(others[2:])
        prompt = (
            f"{'A' if directed else 'An'} {kind} graph has nodes 0 to {n - 1} and these {len(rows)} edges{arrows}:\n"
            f"{edge_list(rows, directed)}\n\n"
            f"Group the nodes by their distance from node {source}, the fewest edges on a path from {source} "
            f"{'along the edge directions ' if directed else ''}to the node.{unreachable} Write one line per "
            f"distance 0, 1, 2, ... in order, each line holding the nodes at that distance separated by spaces, "
            f"for example:\n{source}\n{' '.join(map(str, second))}\n{' '.join(map(str, third))}\n..."
        )
        return Problem(prompt=prompt, answer="\n".join(" ".join(map(str, layer)) for layer in layers),
                       data={"n": n, "edges": rows, "directed": directed, "source": source, "layers": layers})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how many layers the search can need)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        groups = read_groups(answer, problem.data["n"])
        if groups is None:
            return Verdict.unparsed("expected one line of nodes per distance")
        truth = problem.data["layers"]
        labels = [label for label, _ in groups]
        if any(label is not None for label in labels) and labels != list(range(len(groups))):
            return Verdict.wrong("the line labels are not the distances 0, 1, 2, ...")
        seen: set[int] = set()
        for d, (_, nodes) in enumerate(groups):
            if seen & set(nodes) or len(set(nodes)) != len(nodes):
                return Verdict.wrong("a node appears twice")
            seen.update(nodes)
            if d >= len(truth):
                return Verdict.wrong(f"no node is at distance {d}")
            if set(nodes) != set(truth[d]):
                return Verdict.wrong(f"the nodes at distance {d} are wrong")
        return Verdict.judge(len(groups) == len(truth), "some distances are missing")

    def spellings(self, problem: Problem) -> list[str]:
        layers = problem.data["layers"]
        return [*super().spellings(problem),
                "\n".join(f"{d}: " + ", ".join(map(str, reversed(layer))) for d, layer in enumerate(layers)),
                "[" + ", ".join("[" + ", ".join(map(str, layer)) + "]" for layer in layers) + "]",
                "\n".join(f"Distance {d}: " + " ".join(map(str, layer)) for d, layer in enumerate(layers))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        layers = [list(layer) for layer in problem.data["layers"]]
        moved = [layer[:] for layer in layers]
        moved[-2].append(moved[-1].pop())  # there are at least two layers: the graph is (weakly) connected
        moved = [layer for layer in moved if layer]
        return ["\n".join(" ".join(map(str, layer)) for layer in wrong)
                for wrong in (moved, layers[:-1], [layers[0], *layers[2:]], layers[:1] + layers[1:][::-1])
                if wrong != layers]
