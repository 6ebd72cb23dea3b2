"""Find a longest path in a weighted tree (its diameter).

A uniformly random labelled tree (:func:`palaestra.generators.graphs.random_tree`) with integer
edge weights. The diameter (two sweeps of a weighted depth-first search, at generation) is the
largest total weight of a path between two nodes; the verifier accepts **any** path of the tree
of that weight, in either direction.

Trees are redrawn until every path with the most edges weighs less than the diameter: ignoring the
weights (two breadth-first sweeps counting edges) found the answer in 0.43-0.73 of the trees before;
and until one sweep (node 0 to the node farthest from it) falls short too, and so do the greedy paths: a walk
from any node, or a grow from any edge at both ends, always along the heaviest edge onward until a leaf. Before
version 3 growing the heaviest edge found a longest path in 0.80, 0.57, 0.47, 0.03, 0.00 of levels 0-4, the best
grow over all edges in 1.00, 0.70, 0.50, 0.20, 0.30 and the best walk over all starts in 0.90-0.10.

Generation speed: about 900-1,000 problems/s at level 4 on this 2-core machine, at the 1,000 mark. About 3.6
trees are drawn per problem, and each is checked against the shortcut of taking the heaviest path among those with
the most edges (`_heaviest_of_most_edges`, two thirds of the time): a tree where that shortcut is right is redrawn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import read_nodes, weighted_edge_lines
from palaestra.generators.graphs import random_tree


@register
class TreeDiameter(Task):
    id = "graphs/tree_diameter"
    family = "graphs"
    description = "Give a path of maximum total weight in a weighted tree."
    tags = ("graphs", "trees", "paths")
    version = 3  # v3: trees where a greedy walk (from any node) or grow (from any edge) is a diameter are redrawn

    @dataclass(frozen=True)
    class Config:
        nodes: int
        max_weight: int

    presets = (
        Config(nodes=9, max_weight=9),  # v3: 9 nodes, not 7: no 7-node tree is beyond every greedy path and shortcut
        Config(nodes=10, max_weight=9),
        Config(nodes=14, max_weight=15),
        Config(nodes=19, max_weight=20),
        Config(nodes=26, max_weight=30),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes

        def draw() -> tuple[list[list[int]], list[int], int] | None:
            rows = sorted([u, v, w] for u, v, w in random_tree(rng, n, weights=(1, config.max_weight)).edges)
            out = _adjacency(n, rows)
            first, parent = _farthest(out, 0)
            one_sweep = _weight_to(first, parent, out)
            last, parent = _farthest(out, first)
            path = [last]
            while path[-1] != first:
                path.append(parent[path[-1]])
            weight = sum(_weights(rows)[(u, v)] for u, v in zip(path, path[1:]))
            if weight in (_heaviest_of_most_edges(out), one_sweep, _best_greedy(out, rows)):
                return None  # a longest path by edge count, a single sweep from node 0 or a greedy path would do
            return rows, path, weight

        # about 1 tree in 150 passes at level 0 and 1 in 50 at level 1, a few milliseconds
        rows, path, weight = retry(draw, attempts=5_000, what="a tree whose diameter no shortcut finds")
        prompt = (
            f"A tree has nodes 0 to {n - 1} and these weighted edges:\n{weighted_edge_lines(rows)}\n\n"
            "Find a longest path in the tree: a path between two nodes with the largest total weight. "
            "Give its nodes in order from one end to the other, separated by spaces, for example: 4 0 7 2 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, path)),
                       data={"n": n, "edges": rows, "weight": weight})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus the tree's diameter in edges (the path to find)."""
        from palaestra.envs.graphs._measures import diameter

        data = problem.data
        return float(data["n"] + diameter(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        path = read_nodes(answer, problem.data["n"])
        if path is None:
            return Verdict.unparsed("expected the nodes of the path in order")
        if len(set(path)) != len(path):
            return Verdict.wrong("the path visits a node twice")
        weights = _weights(problem.data["edges"])
        total = 0
        for u, v in zip(path, path[1:]):
            if (u, v) not in weights:
                return Verdict.wrong(f"{u}-{v} is not an edge")
            total += weights[(u, v)]
        return Verdict.judge(total == problem.data["weight"], f"the path weighs {total}, not the most possible")

    def spellings(self, problem: Problem) -> list[str]:
        path = (problem.answer or "").split()
        return [*super().spellings(problem), " ".join(reversed(path)), " -> ".join(path), ", ".join(path)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        path = (problem.answer or "").split()  # weights are positive: a shorter piece weighs less
        wrong = [" ".join(path[:-1]), " ".join(path[1:])]
        if len(path) > 2:  # the two ends are not adjacent in a tree
            wrong.append(" ".join([path[0], path[-1]]))
        return wrong


def _weights(edges: list[list[int]]) -> dict[tuple[int, int], int]:
    table = {(u, v): w for u, v, w in edges}
    table.update({(v, u): w for u, v, w in edges})
    return table


def _adjacency(n: int, edges: list[list[int]]) -> list[list[tuple[int, int]]]:
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        out[u].append((v, w))
        out[v].append((u, w))
    return out


def _farthest(out: list[list[tuple[int, int]]], start: int) -> tuple[int, list[int]]:
    """The node of greatest weighted distance from ``start`` (smallest id on ties) and the parent links."""
    distance = [-1] * len(out)
    parent = [-1] * len(out)
    distance[start] = 0
    stack = [start]
    while stack:
        u = stack.pop()
        for v, w in out[u]:
            if distance[v] < 0:
                distance[v], parent[v] = distance[u] + w, u
                stack.append(v)
    far = max(range(len(out)), key=lambda v: (distance[v], -v))
    return far, parent


def _heaviest_of_most_edges(out: list[list[tuple[int, int]]]) -> int:
    """The largest weight of a path among the paths with the most edges (what ignoring weights finds at best)."""
    best = (-1, -1)
    for start in range(len(out)):
        reach = {start: (0, 0)}
        stack = [start]
        while stack:
            u = stack.pop()
            for v, w in out[u]:
                if v not in reach:
                    reach[v] = (reach[u][0] + 1, reach[u][1] + w)
                    stack.append(v)
        best = max(best, *reach.values())
    return best[1]


def _best_greedy(out: list[list[tuple[int, int]]], rows: list[list[int]]) -> int:
    """The heaviest path the greedy rules find: from every node a walk, and from every edge a grow at both ends,
    each stepping along the heaviest edge onward (any of them on ties) until it reaches a leaf.

    >>> _best_greedy(_adjacency(5, [[0, 1, 5], [1, 2, 1], [0, 3, 2], [3, 4, 9]]), [[0, 1, 5], [1, 2, 1], [0, 3, 2], [3, 4, 9]])
    17
    """

    def onward(end: int, behind: int) -> int:  # the heaviest of the greedy continuations, whatever the tie-break
        steps = [(w, x) for x, w in out[end] if x != behind]
        if not steps:
            return 0
        top = max(w for w, _ in steps)
        return top + max(onward(x, end) for w, x in steps if w == top)

    walks = (onward(start, -1) for start in range(len(out)))
    grows = (w + onward(u, v) + onward(v, u) for u, v, w in rows)
    return max(*walks, *grows)


def _weight_to(node: int, parent: list[int], out: list[list[tuple[int, int]]]) -> int:
    """The weight of the path from ``node`` up the parent links to the sweep's start."""
    weight = 0
    while parent[node] >= 0:
        weight += dict(out[node])[parent[node]]
        node = parent[node]
    return weight
