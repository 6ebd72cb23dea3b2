"""Find the centre of a connected graph: the nodes whose farthest node is nearest.

The graph comes from :func:`palaestra.generators.graphs.random_with_diameter` (connected,
unweighted, with a diameter drawn from a range that grows with the level). Eccentricities are
breadth-first distances; the centre (the nodes of minimum eccentricity, i.e. at the radius) is a
unique set, compared as a set in any order and spelling. Graphs whose highest-degree node(s) are the
centre are kept with chance 0.02 (that cheap guess named the centre of 0.09-0.21 of the problems before),
and so are graphs whose centre is the middle of a longest shortest path found by two breadth-first sweeps
(any node ``a`` and a node ``b`` farthest from it: the middle node of a shortest ``a``-``b`` path, or
the middle two or either of them when the distance is odd, or the middle nodes of all such paths), or
the middle nodes of all longest shortest paths together (:func:`sweep_middles`).

Version 4: the two-sweep middle (breadth-first from node 0, again from the farthest node found, and the
middle of the path between them), two searches where the centre takes one per node and exact only on
trees, named the centre of 0.47 of level 0, 0.69 of level 2 and 0.75 of level 4; the middle nodes of all
shortest paths between the two sweeps' ends, 0.63, 0.82 and 0.74. Where the diameter is even and the radius
half of it, every centre node is a middle node of every longest shortest path, so the redraws keep mostly
graphs of odd diameter (level 4: 0.53 of diameter 5, 0.45 of 7), whose centre is mostly three nodes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs._measures import two_sweep_middle
from palaestra.envs.graphs.common import (
    BUSIEST_KEPT,
    attempt,
    busiest_answer,
    busiest_rule_answers,
    edge_list,
    read_nodes,
)
from palaestra.generators.graphs import bfs_distances, random_with_diameter


@register
class Center(Task):
    id = "graphs/center"
    version = 4  # v3: graphs the busiest-node guess solves are mostly redrawn; v4: and those two sweeps solve
    family = "graphs"
    description = "List the centre of a connected graph (the nodes of minimum eccentricity)."
    tags = ("graphs", "distances")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        diameter: tuple[int, int]

    presets = (
        Config(nodes=7, edges=8, diameter=(3, 4)),
        Config(nodes=10, edges=12, diameter=(3, 5)),
        Config(nodes=13, edges=16, diameter=(4, 6)),
        Config(nodes=17, edges=21, diameter=(5, 7)),
        Config(nodes=22, edges=28, diameter=(5, 8)),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes

        def draw() -> tuple[list[list[int]], list[int], int] | None:
            graph = attempt(lambda: random_with_diameter(rng, n, config.edges, *config.diameter))
            if graph is None:
                return None
            distance = [bfs_distances(graph, v) for v in range(n)]
            eccentricity = [max(row) for row in distance]
            radius = min(eccentricity)
            center = [v for v in range(n) if eccentricity[v] == radius]
            rows = sorted([u, v] for u, v, _ in graph.edges)
            if busiest_rule_answers(center, n, rows) and rng.random() >= BUSIEST_KEPT:
                return None
            if frozenset(center) in sweep_middles(distance, rows) and rng.random() >= BUSIEST_KEPT:
                return None
            return rows, center, radius

        rows, center, radius = retry(draw, what="a graph of the wanted diameter")
        example = sorted(rng.sample(range(n), 2))  # drawn independently of the answer
        prompt = (
            f"An undirected connected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n"
            f"{edge_list(rows)}\n\n"
            "The eccentricity of a node is the largest number of edges on a shortest path from it to any other "
            "node. List the centre of the graph: all nodes whose eccentricity is the smallest. Give the nodes "
            f"separated by spaces, for example: {example[0]} {example[1]} ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, center)),
                       data={"n": n, "edges": rows, "center": center, "radius": radius})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"the highest-degree nodes": busiest_answer, "the middle of two breadth-first sweeps": _two_sweeps}

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (the eccentricities to compare), plus half the centre's size (the
        ties to confirm): the redraws above leave mostly odd diameters, so the diameter alone barely varies."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"])) + len(data["center"]) / 2

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nodes = read_nodes(answer, problem.data["n"])
        if nodes is None:
            return Verdict.unparsed("expected nodes separated by spaces")
        if len(set(nodes)) != len(nodes):
            return Verdict.wrong("a node is listed twice")
        center = set(problem.data["center"])
        extra = [v for v in nodes if v not in center]
        if extra:
            return Verdict.wrong(f"node {extra[0]} is not in the centre")
        return Verdict.judge(set(nodes) == center, "some centre nodes are missing")

    def spellings(self, problem: Problem) -> list[str]:
        nodes = (problem.answer or "").split()
        return [*super().spellings(problem), "{" + ", ".join(reversed(nodes)) + "}", " and ".join(nodes)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        center = problem.data["center"]
        outside = [v for v in range(problem.data["n"]) if v not in center]
        wrong = [" ".join(map(str, [*center, rng.choice(outside)])), str(rng.choice(outside))]
        if len(center) > 1:
            wrong.append(" ".join(map(str, center[1:])))
        return wrong


def sweep_middles(distance: list[list[int]], edges: list[list[int]]) -> set[frozenset[int]]:
    """What "the middle of a longest path" guesses answer: for every node ``a`` and node ``b`` farthest from
    it, the middle node of each shortest ``a``-``b`` path (at an odd distance its middle two, and each alone),
    and the middle nodes of all those paths together; and the middle nodes of all longest shortest paths.

    >>> path = [[0, 1], [1, 2], [2, 3]]
    >>> sorted(sorted(s) for s in sweep_middles([[abs(u - v) for v in range(4)] for u in range(4)], path))
    [[1], [1, 2], [2]]
    """
    n = len(distance)
    joined: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        joined[u].append(v)
        joined[v].append(u)
    diameter = max(max(row) for row in distance)
    guesses: set[frozenset[int]] = set()
    widest: set[int] = set()  # the middle nodes of every longest shortest path
    for a in range(n):
        far = max(distance[a])
        half = far // 2
        for b in (b for b in range(n) if distance[a][b] == far):
            middle: set[int] = set()
            for x in (x for x in range(n) if distance[a][x] == half and distance[x][b] == far - half):
                middle.add(x)
                if far % 2 == 0:
                    guesses.add(frozenset([x]))
                    continue
                for y in joined[x]:
                    if distance[a][y] == half + 1 and distance[y][b] == half:
                        guesses.update((frozenset([x]), frozenset([y]), frozenset([x, y])))
                        middle.add(y)
            guesses.add(frozenset(middle))
            if far == diameter:
                widest |= middle
    guesses.add(frozenset(widest))
    return guesses


def _two_sweeps(problem: Problem) -> str:
    """The middle of two breadth-first sweeps (:func:`~palaestra.envs.graphs._measures.two_sweep_middle`)."""
    return " ".join(map(str, two_sweep_middle(problem.data["n"], problem.data["edges"])))
