"""Answer lowest-common-ancestor queries on a rooted tree.

A uniformly random labelled tree (:func:`palaestra.generators.graphs.random_tree`) is rooted at a
random non-leaf node and given as an edge list; each query names two nodes, and the answer lists, in query
order, the deepest node that is an ancestor of both (a node is its own ancestor). Queries never
involve the root. The root is never a leaf, nor a node a guess would pick (node 0 or the last node, the
tree's centre, a highest-degree node), and the queries pin it down by construction: the root's edges are
paired up, and for each pair one query joins a node below one edge to a node below the other (its answer is the
root; any other node, taken as the root, answers it differently); the other queries are answered below the root.
Problems where every query's ancestor is a highest-degree node on the path between the two (a guess that ignores
the root) are redrawn, and so are those where fewer than five nodes, none a query's nor a guessable one, have
every edge on a query's path as the root must, the root's degree and as many queries' paths through them (a guess
among them). Each answer is unique; the verifier compares the list in order.

Version 4: the highest-degree node on the path between the two query nodes, a rule that never looks at
the root, answered 0.50 of level 0, 0.18 of level 2 and 0.05 of level 4 (every query right); problems it
answers are redrawn, and the rule is declared.

Version 5: rooting the tree at node 0 instead of the stated root answered every query in 0.37, 0.37, 0.40, 0.37,
0.20 of levels 0-4 (at a random node 0.36-0.20); the queries now pin the root down, so a wrong root rarely agrees.

Version 6: v5's redraw kept leaf roots (84-99% of problems), whose neighbour, taken as the root, gives the same
answers: rooting the tree at a random leaf answered 0.17, 0.17, 0.14, 0.11, 0.08 of levels 0-4, at a random node
0.23-0.07, at a random non-leaf 0.32-0.06, and a random non-leaf inner node of each query's path 0.31/0.13 of levels
0/1. Now the stated root is the only one that gives every answer and is a non-leaf, and levels 0-1 have 14 and 16
nodes and 3 queries (v5: 8 and 12 nodes, 2 queries): a random leaf answers none, a random node 0.07-0.03, a random
non-leaf 0.13, 0.11, 0.08, 0.07, 0.06 (one in the non-leaves: chance), a random path node 0.04-0.00.

Version 7: that construction marks the root: it is one of the few nodes, none a query's, every edge of which lies
on a query's path (uniqueness needs it), and rooting at a random such node answered 0.41, 0.31, 0.28, 0.25, 0.19 of
levels 0-4. Problems with fewer than five such nodes are redrawn: 0.18, 0.17, 0.16, 0.16, 0.15.

Version 8: v7 counted the guessable nodes (node 0, the last, the centre, a highest-degree node) among the five, but
the root is never one of them: rooting at a random lookalike that is not guessable answered 0.30, 0.25, 0.25, 0.20,
0.19 of levels 0-4, at the one of highest degree 0.32, 0.27, 0.29, 0.36, 0.24. And the root lies on the paths of the
crossing queries only (the others are answered below it), most lookalikes on more: with only the first counted right,
one on a single query's path answered 0.29, 0.25, 0.32, 0.26, 0.30. Now five non-guessable lookalikes of the root's degree and on as many queries' paths
are needed (the root then has degree 2 in nearly every problem, as most lookalikes do): these guesses answer
0.19-0.14, 0.19-0.08 and 0.19-0.18 (40 seeds a level).
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

MIN_ROOT_LOOKALIKES = 5  # nodes that, like the root, have every edge on a query's path: a guess among them wins 1 in 5


@register
class LowestCommonAncestor(Task):
    id = "graphs/lca"
    version = 8  # v3: level 0 asks two queries (one was answered by the busiest query node 0.43 of the time)
    # v4: queries whose ancestor is the busiest node on the path between them are redrawn
    # v5: queries that most other roots answer alike are redrawn (the root-blind guess)
    # v6: no other root answers alike (by construction), the root is never a leaf; levels 0-1 grow
    # v7: at least MIN_ROOT_LOOKALIKES nodes have every edge on a query's path, as the root has
    # v8: only lookalikes that are not guessable nodes, of the root's degree and on as many queries' paths, count
    family = "graphs"
    description = "Answer lowest-common-ancestor queries on a rooted tree."
    tags = ("graphs", "trees")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        queries: int

    presets = (
        Config(nodes=14, queries=3),
        Config(nodes=16, queries=3),
        Config(nodes=20, queries=4),
        Config(nodes=24, queries=4),
        Config(nodes=30, queries=5),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.nodes

        def draw() -> tuple[list[list[int]], int, list[list[int]], list[int]] | None:
            rows = sorted([u, v] for u, v, _ in random_tree(rng, n).edges)
            degree = degrees(n, rows)
            # a node a guess would pick (the first or last node, the tree's centre, a highest-degree node) is never
            # the root; a leaf cannot be (its neighbour, taken as the root, would give every answer alike)
            guesses = {0, n - 1, *two_sweep_middle(n, rows), *busiest_guesses(n, rows)[0]}
            root = rng.choice([x for x in range(n) if degree[x] > 1 and x not in guesses] or [-1])
            if root < 0:
                return None
            through = -(-degree[root] // 2)  # queries whose path crosses the root: two of its edges each
            if through >= config.queries:
                return None  # every query would be answered by the root
            parent, depth = _rooted(n, rows, root)
            # each neighbour of the root, paired with another, with a node below each of the two: the pair's path
            # crosses the root by those two edges, so any other root (below some neighbour) answers that query
            # differently and the stated root is the only one that gives every answer
            sides = rng.sample([x for x in range(n) if parent[x] == root], degree[root])
            if len(sides) % 2:
                sides.append(rng.choice(sides[:-1]))
            below: dict[int, list[int]] = {side: [] for side in sides}
            for x in range(n):
                top = x
                while top != root and parent[top] != root:
                    top = parent[top]
                if top != root:
                    below[top].append(x)
            queries = [[rng.choice(below[a]), rng.choice(below[b])] for a, b in zip(sides[::2], sides[1::2])]
            others = [x for x in range(n) if x != root]
            for _ in range(8 * config.queries):  # the rest answered below the root (a star has no such pair)
                if len(queries) == config.queries:
                    break
                u, v = rng.sample(others, 2)
                if _lca(parent, depth, u, v) != root:
                    queries.append([u, v])
            if len(queries) < config.queries:
                return None
            rng.shuffle(queries)
            answers = [_lca(parent, depth, u, v) for u, v in queries]
            if all(a in _busiest_on_path(parent, depth, degree, u, v) for (u, v), a in zip(queries, answers)):
                return None  # the highest-degree node on each path, a guess that ignores the root, would answer
            # the root is one of the nodes every edge of which the queries' paths cross; the guessable nodes are
            # never the root, so only the others count, and only those that also have the root's degree and lie on
            # as many queries' paths (the crossing ones: the other queries are answered below the root), so that
            # neither a node's degree nor the paths through it single the root out among them
            on_paths = _paths_through(parent, depth, queries)
            lookalikes = [x for x in _covered_inner_nodes(parent, depth, degree, queries) - guesses
                          if degree[x] == degree[root] and on_paths[x] == on_paths[root]]
            if len(lookalikes) < MIN_ROOT_LOOKALIKES:
                return None
            return rows, root, queries, answers

        rows, root, queries, answers = retry(draw, attempts=20_000, what="queries the busiest-node guess does not answer")
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


def _covered_inner_nodes(parent: list[int], depth: list[int], degree: list[int], queries: list[list[int]]) -> set[int]:
    """The nodes, none of them a query's, whose every edge lies on some query's path. The stated root is one of them
    (were an edge of it on no path, the neighbour across it, taken as the root, would give every answer alike), so a
    guess among them that ignores the stated root wins one time in as many as there are.

    >>> parent, depth = _rooted(5, [[0, 1], [1, 2], [2, 3], [3, 4]], 0)
    >>> sorted(_covered_inner_nodes(parent, depth, [1, 2, 2, 2, 1], [[0, 4]]))
    [1, 2, 3]
    """
    crossed: dict[int, int] = {}  # node -> edges of it that some query's path crosses
    edges: set[tuple[int, int]] = set()
    for u, v in queries:
        top = _lca(parent, depth, u, v)
        edges.update((x, parent[x]) for x in (*_up_to(parent, u, top), *_up_to(parent, v, top)))
    for child, up in edges:
        crossed[child] = crossed.get(child, 0) + 1
        crossed[up] = crossed.get(up, 0) + 1
    asked = {x for pair in queries for x in pair}
    return {x for x, count in crossed.items() if x not in asked and count == degree[x] > 1}


def _paths_through(parent: list[int], depth: list[int], queries: list[list[int]]) -> dict[int, int]:
    """How many queries' paths pass through each node (both ends included; nodes on none are left out).

    >>> parent, depth = _rooted(5, [[0, 1], [1, 2], [2, 3], [3, 4]], 0)
    >>> sorted(_paths_through(parent, depth, [[0, 2], [1, 4]]).items())
    [(0, 1), (1, 2), (2, 2), (3, 1), (4, 1)]
    """
    count: dict[int, int] = {}
    for u, v in queries:
        top = _lca(parent, depth, u, v)
        for x in {top, *(_up_to(parent, u, top)), *(_up_to(parent, v, top))}:
            count[x] = count.get(x, 0) + 1
    return count


def _up_to(parent: list[int], x: int, top: int) -> list[int]:
    """The nodes from ``x`` up to ``top``, ``top`` left out."""
    nodes = []
    while x != top:
        nodes.append(x)
        x = parent[x]
    return nodes


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
