"""Find the centroid of a tree: the node(s) whose removal leaves the smallest largest piece.

A uniformly random labelled tree (:func:`palaestra.generators.graphs.random_tree`); half the
draws are redrawn until the tree has two centroids (adjacent, each leaving pieces of at most half
the nodes), so the answer's size is not a given. Trees whose highest-degree node is the centroid
are kept with chance 0.02 (that cheap guess named the centroid of 0.22-0.32 of levels 0-2 before), and
so are trees whose centre (the middle node or two of a longest path) is the centroid. Which trees are
redrawn never depends on the labels, so every node is equally likely to be the centroid.
The centroid is a unique set of one or two nodes, compared as a set.

Version 4: the centre, the sibling notion a policy confuses with the centroid, named the centroid of 0.37
of levels 0 and 2 and 0.12 of level 4; such trees are now kept with the same chance 0.02.

Version 5: the busiest-node redraw looked at the lowest label among tied highest-degree nodes, so high labels
were the centroid more often: the constant "7" (and the prompt's largest number, n - 1) answered 0.12 of level 0
(uniform labels: 1/16), and the highest-labelled highest-degree node 0.48 / 0.25 / 0.18 / 0.10 / 0.07 of levels
0-4. The redraw now reads no labels (``busiest_odds``): trees whose highest-degree nodes are the centroid are kept
with chance 0.02, trees whose single centroid ties with others for the highest degree with chance 0.1. Level 0
has 10 nodes (8 before): every single centroid of an 8-node tree has the highest degree, so a highest-degree
node, ties broken by label either way, would answer a quarter of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs._measures import degrees, two_sweep_middle
from palaestra.envs.graphs.common import BUSIEST_KEPT, busiest_answer, edge_list, read_nodes
from palaestra.generators.graphs import random_tree

TIED_KEPT = 0.1
"""The share kept of trees whose single centroid ties with other nodes for the highest degree."""


@register
class TreeCentroid(Task):
    id = "graphs/tree_centroid"
    version = 5  # v3: trees the busiest-node guess solves are mostly redrawn; v4: so are those the centre solves;
    # v5: the redraw reads no labels (labels were biased high)
    family = "graphs"
    description = "List the centroid node(s) of a tree."
    tags = ("graphs", "trees")

    @dataclass(frozen=True)
    class Config:
        nodes: int  # even, so that two centroids are possible

    # not 8 nodes at level 0: every single centroid of an 8-node tree has the highest degree
    presets = (Config(nodes=10), Config(nodes=12), Config(nodes=16), Config(nodes=22), Config(nodes=30))
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes
        pair = rng.random() < 0.5

        def draw() -> tuple[list[list[int]], list[int]] | None:
            rows = sorted([u, v] for u, v, _ in random_tree(rng, n).edges)
            center = centroids(n, rows)
            if (len(center) == 2) != pair:
                return None
            odds = busiest_odds(center, n, rows)  # trees a highest-degree guess solves are mostly redrawn
            if odds and rng.random() >= (BUSIEST_KEPT if odds == 1 else TIED_KEPT):
                return None
            if two_sweep_middle(n, rows) == center and rng.random() >= BUSIEST_KEPT:
                return None
            return rows, center

        rows, center = retry(draw, what="a tree of the drawn kind")
        single, *two = rng.sample(range(n), 3)  # drawn independently of the answer
        prompt = (
            f"A tree has nodes 0 to {n - 1} and these edges:\n{edge_list(rows)}\n\n"
            "Removing a node splits the tree into pieces. Find the centroid: the node (or the two nodes, if two "
            "tie) whose removal makes the largest remaining piece as small as possible. Give the node, or both "
            f"nodes separated by a space, for example: {single} (or: {min(two)} {max(two)})"
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, center)),
                       data={"n": n, "edges": rows, "centroid": center})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {
            "the highest-degree nodes": busiest_answer,
            "the centre (middle of a longest path)": lambda p: " ".join(
                map(str, two_sweep_middle(p.data["n"], p.data["edges"]))
            ),
        }

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus the tree's diameter."""
        from palaestra.envs.graphs._measures import diameter

        data = problem.data
        return float(data["n"] + diameter(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nodes = read_nodes(answer, problem.data["n"])
        if nodes is None:
            return Verdict.unparsed("expected one or two nodes")
        if len(set(nodes)) != len(nodes):
            return Verdict.wrong("a node is listed twice")
        truth = set(problem.data["centroid"])
        if set(nodes) == truth:
            return Verdict.right()
        return Verdict.wrong("two nodes tie; give both" if set(nodes) < truth else "that is not the centroid")

    def spellings(self, problem: Problem) -> list[str]:
        nodes = problem.data["centroid"]
        spelled = [*super().spellings(problem), ", ".join(map(str, reversed(nodes)))]
        if len(nodes) == 2:
            spelled.append(f"{nodes[1]} and {nodes[0]}")
        else:
            spelled.append(f"node {nodes[0]}")
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        center = problem.data["centroid"]
        others = [v for v in range(problem.data["n"]) if v not in center]
        wrong = [str(rng.choice(others)), " ".join(map(str, [*center, rng.choice(others)]))]
        if len(center) == 2:
            wrong.append(str(center[0]))
        return wrong


def busiest_odds(center: list[int], n: int, edges: list[list[int]]) -> float:
    """The chance that a highest-degree node, ties broken at random, is the centroid (0 for two centroids unless
    the highest-degree nodes are exactly those two: then 1, as for the list of all highest-degree nodes).

    It never reads the labels (the busiest-node guess that takes the lowest label among tied nodes does), so
    redrawing the trees by it keeps every label equally likely to be the centroid.

    >>> busiest_odds([1], 4, [[0, 1], [1, 2], [1, 3]]), busiest_odds([1, 2], 4, [[0, 1], [1, 2], [2, 3]])
    (1.0, 1.0)
    >>> busiest_odds([2], 5, [[0, 1], [1, 2], [2, 3], [3, 4]])
    0.3333333333333333
    >>> busiest_odds([0, 4], 8, [[0, 1], [0, 2], [0, 3], [0, 4], [4, 5], [5, 6], [6, 7]])
    0.0
    """
    degree = degrees(n, edges)
    top = max(degree)
    busiest = {v for v in range(n) if degree[v] == top}
    if set(center) == busiest:
        return 1.0
    return 1 / len(busiest) if len(center) == 1 and center[0] in busiest else 0.0


def centroids(n: int, edges: list[list[int]]) -> list[int]:
    """The nodes minimising the largest piece left after their removal (subtree sizes from node 0).

    >>> centroids(4, [[0, 1], [1, 2], [2, 3]])
    [1, 2]
    """
    out: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        out[u].append(v)
        out[v].append(u)
    parent = [-1] * n
    order = [0]
    seen = [False] * n
    seen[0] = True
    for u in order:
        for v in out[u]:
            if not seen[v]:
                seen[v], parent[v] = True, u
                order.append(v)
    size = [1] * n
    for u in reversed(order[1:]):
        size[parent[u]] += size[u]
    worst = [max([n - size[u]] + [size[v] for v in out[u] if v != parent[u]]) for u in range(n)]
    best = min(worst)
    return [u for u in range(n) if worst[u] == best]
