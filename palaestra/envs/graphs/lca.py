"""Answer lowest-common-ancestor queries on a rooted tree.

A uniformly random labelled tree (:func:`palaestra.generators.graphs.random_tree`) is rooted at a
random node and given as an edge list; each query names two nodes, and the answer lists, in query
order, the deepest node that is an ancestor of both (a node is its own ancestor). Queries never
involve the root and are drawn so that the answer is rarely the root itself; problems where every
query's ancestor is a highest-degree node on the path between the two (a guess that ignores the root)
are redrawn, and so are those where, taken as the root instead, more than one other node (as a rule a
neighbour of the root) gives every query the same answers, and those where a node a guess would pick (a
query's node, node 0 or the last node, the tree's centre, a highest-degree node) is the root or agrees with it. Each answer is unique; the verifier compares the list in order.

Version 4: the highest-degree node on the path between the two query nodes, a rule that never looks at
the root, answered 0.50 of level 0, 0.18 of level 2 and 0.05 of level 4 (every query right); problems it
answers are redrawn, and the rule is declared.

Version 5: rooting the tree at node 0 instead of the stated root answered every query in 0.37, 0.37, 0.40, 0.37,
0.20 of levels 0-4 (at a random node 0.36-0.20); the queries now pin the root down, so a wrong root rarely agrees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs._measures import degrees, two_sweep_middle
from palaestra.envs.graphs.common import busiest_guesses, edge_list, read_nodes
from palaestra.generators.graphs import random_tree


@register
class LowestCommonAncestor(Task):
    id = "graphs/lca"
    version = 5  # v3: level 0 asks two queries (one was answered by the busiest query node 0.43 of the time)
    # v4: queries whose ancestor is the busiest node on the path between them are redrawn
    # v5: queries that most other roots answer alike are redrawn (the root-blind guess)
    family = "graphs"
    description = "Answer lowest-common-ancestor queries on a rooted tree."
    tags = ("graphs", "trees")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        queries: int

    presets = (
        Config(nodes=8, queries=2),
        Config(nodes=12, queries=2),
        Config(nodes=16, queries=3),
        Config(nodes=22, queries=4),
        Config(nodes=30, queries=5),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes

        def draw() -> tuple[list[list[int]], int, list[list[int]], list[int]] | None:
            rows = sorted([u, v] for u, v, _ in random_tree(rng, n).edges)
            root = rng.randrange(n)
            parent, depth = _rooted(n, rows, root)
            degree = degrees(n, rows)
            others = [x for x in range(n) if x != root]
            queries, answers = [], []
            guessed = True  # whether the busiest node on each path is each query's ancestor
            for _ in range(config.queries):
                for _ in range(8):  # prefer a pair whose ancestor is not the root
                    u, v = rng.sample(others, 2)
                    ancestor = _lca(parent, depth, u, v)
                    if ancestor != root:
                        break
                queries.append([u, v])
                answers.append(ancestor)
                guessed = guessed and ancestor in _busiest_on_path(parent, depth, degree, u, v)
            # at most one other root may agree (the root's neighbour usually does), and no root a guess would
            # pick (a query's node, the first or last node, the tree's centre or a highest-degree node) may be
            # the root or agree with it
            agree = _roots_that_agree(parent, depth, queries, answers)
            guesses = {0, n - 1, *two_sweep_middle(n, rows), *busiest_guesses(n, rows)[0], *sum(queries, [])}
            if guessed or len(agree) > 2 or agree & guesses:
                return None  # the busiest-node guess, or rooting the tree elsewhere, would answer
            return rows, root, queries, answers

        rows, root, queries, answers = retry(draw, attempts=20_000, what="queries no guess and no other root answers")
        example = [rng.randrange(n) for _ in answers]  # drawn independently of the answer
        listing = "\n".join(f"{i}. {u} and {v}" for i, (u, v) in enumerate(queries, 1))
        prompt = (
            f"A tree has nodes 0 to {n - 1} and these edges:\n{edge_list(rows)}\n\nIt is rooted at node {root}. "
            "For each pair below, give their lowest common ancestor: the deepest node that has both of them in "
            f"its subtree (a node counts as its own ancestor).\n{listing}\n\n"
            f"Give the {len(queries)} answer{'s' if len(queries) > 1 else ''} in order, separated by commas, "
            "for example: " + ", ".join(map(str, example))
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, answers)),
                       data={"n": n, "edges": rows, "root": root, "queries": queries, "answers": answers})

    def difficulty(self, problem: Problem) -> float:
        """Nodes times queries, plus the tree's diameter (how far up the ancestors can lie)."""
        from palaestra.envs.graphs._measures import diameter

        data = problem.data
        return float(data["n"] * len(data["queries"]) + diameter(data["n"], data["edges"]))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def busiest_on_path(problem: Problem) -> str:
            data = problem.data
            parent, depth = _rooted(data["n"], data["edges"], data["root"])
            degree = degrees(data["n"], data["edges"])
            return ", ".join(str(min(_busiest_on_path(parent, depth, degree, u, v))) for u, v in data["queries"])

        return {"the highest-degree node on the path": busiest_on_path}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nodes = read_nodes(answer, problem.data["n"])
        truth = problem.data["answers"]
        if nodes is None:
            return Verdict.unparsed("expected one node per query, separated by commas")
        if len(nodes) != len(truth):
            return Verdict.wrong(f"expected {len(truth)} answers, got {len(nodes)}")
        for i, (got, want) in enumerate(zip(nodes, truth), 1):
            if got != want:
                return Verdict.wrong(f"the answer to query {i} is wrong")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        answers = problem.data["answers"]
        return [*super().spellings(problem), " ".join(map(str, answers)),
                "\n".join(f"{i}. {a}" for i, a in enumerate(answers, 1)) if len(answers) > 1 else f"node {answers[0]}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answers = problem.data["answers"]
        root = problem.data["root"]
        wrong = [", ".join(map(str, answers[:-1] + [(answers[-1] + 1) % problem.data["n"]]))]
        if any(a != root for a in answers):
            wrong.append(", ".join(str(root) for _ in answers))
        if len(answers) > 1:
            wrong.append(", ".join(map(str, answers[:-1])))
        return wrong


def _rooted(n: int, edges: list[list[int]], root: int) -> tuple[list[int], list[int]]:
    out: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        out[u].append(v)
        out[v].append(u)
    parent, depth = [-1] * n, [0] * n
    order = [root]
    seen = {root}
    for u in order:
        for v in out[u]:
            if v not in seen:
                seen.add(v)
                parent[v], depth[v] = u, depth[u] + 1
                order.append(v)
    return parent, depth


def _lca(parent: list[int], depth: list[int], u: int, v: int) -> int:
    while depth[u] > depth[v]:
        u = parent[u]
    while depth[v] > depth[u]:
        v = parent[v]
    while u != v:
        u, v = parent[u], parent[v]
    return u


def _roots_that_agree(parent: list[int], depth: list[int], queries: list[list[int]], answers: list[int]) -> set[int]:
    """The nodes that, taken as the root, give every query the same ancestor (the true root among them).

    Rooted at ``r``, the ancestor of ``u`` and ``v`` is the node where the paths between the three meet: the deepest,
    in the true rooting, of the three pairwise ancestors.

    >>> parent, depth = _rooted(4, [[0, 1], [1, 2], [1, 3]], 0)
    >>> sorted(_roots_that_agree(parent, depth, [[2, 3]], [1])), sorted(_roots_that_agree(parent, depth, [[0, 2]], [0]))
    ([0, 1], [0])
    """

    def meet(u: int, v: int, r: int) -> int:
        return max((_lca(parent, depth, u, v), _lca(parent, depth, u, r), _lca(parent, depth, v, r)),
                   key=depth.__getitem__)

    return {r for r in range(len(parent)) if all(meet(u, v, r) == a for (u, v), a in zip(queries, answers))}


def _busiest_on_path(parent: list[int], depth: list[int], degree: list[int], u: int, v: int) -> set[int]:
    """The nodes of highest degree on the tree path from ``u`` to ``v`` (both ends included).

    >>> parent, depth = _rooted(5, [[0, 1], [1, 2], [1, 3], [3, 4]], 0)
    >>> sorted(_busiest_on_path(parent, depth, degrees(5, [[0, 1], [1, 2], [1, 3], [3, 4]]), 2, 4))
    [1]
    """
    ancestor = _lca(parent, depth, u, v)
    path = [ancestor]
    for end in (u, v):
        while end != ancestor:
            path.append(end)
            end = parent[end]
    top = max(degree[x] for x in path)
    return {x for x in path if degree[x] == top}
