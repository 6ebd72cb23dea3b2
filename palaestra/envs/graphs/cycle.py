"""Find a cycle in a graph, or say that it has none.

Half the graphs have a cycle and half do not, with the same numbers of nodes and edges, so
counting edges does not tell them apart. Undirected (levels 0-1): an acyclic graph is a forest
(a random tree with one edge removed); a cyclic one is the same kind of tree with one edge moved
so that it closes a cycle inside one part. Directed (levels 2-4): a random DAG, or a random DAG
with one edge fewer plus one edge back along a path of it
(:func:`palaestra.generators.graphs.random_cyclic`).

Both sides carry a proof. A cyclic graph is answered by **any** simple cycle of it, written as its
nodes in order (``3 7 2``, ``3 -> 7 -> 2 -> 3``; any starting node, either direction when
undirected). An acyclic one is answered by ``acyclic:`` and every node once in an order that proves
it: a topological order (every edge goes from an earlier node to a later one) when directed, and an
order in which every node has at most one neighbour before it when undirected (the last node of
any cycle would have two). A bare ``acyclic`` is wrong, and an answer giving both a cycle and
``acyclic`` is a hedge and is not read.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import (
    attempt,
    closed_walk,
    cycle_error,
    edge_list,
    edge_set,
    find_cycle,
    non_cycle_example,
    read_nodes,
    without_yes,
)
from palaestra.generators.graphs import UnionFind, random_cyclic, random_dag, random_tree
from palaestra.verifiers.claims import mentions
from palaestra.verifiers.normalize import strip_wrappers

ACYCLIC = ("acyclic", "no cycle", "no cycles", "none", "no directed cycle")
# "acyclic:", "The graph is acyclic. Order:", "No cycle; topological order:" before the order that proves it
_ACYCLIC_HEAD = re.compile(
    r"^\W{0,8}(?:no\b[\s,.:;!-]*)?(?:(?:the graph|it) is |there (?:is|are) )?(?:acyclic|no (?:directed )?cycles?)\b"
    r"[\s,.:;=!-]*(?:(?:an? |the )?(?:topological )?order(?:ing)?\b\s*(?:is\b)?\s*[:=]?\s*)?", re.IGNORECASE)


@register
class Cycle(Task):
    id = "graphs/cycle"
    family = "graphs"
    description = "Find a cycle in a graph (any) or report that it is acyclic."
    tags = ("graphs", "cycles", "search")
    version = 2
    bare_verdicts = ("acyclic",)

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        directed: bool

    presets = (
        Config(nodes=8, edges=6, directed=False),
        Config(nodes=11, edges=9, directed=False),
        Config(nodes=9, edges=13, directed=True),
        Config(nodes=12, edges=19, directed=True),
        Config(nodes=16, edges=28, directed=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, m, directed = config.nodes, config.edges, config.directed
        cyclic = rng.random() < 0.5
        if directed:
            if cyclic:
                graph = retry(lambda: attempt(lambda: random_cyclic(rng, n, m, directed=True)), what="a cyclic digraph")
            else:
                graph = random_dag(rng, n, m)[0]
            edges = sorted([u, v] for u, v, _ in graph.edges)
        else:
            edges = _undirected(rng, n, m, cyclic)
        cycle = find_cycle(n, edges, directed)
        kind = "directed" if directed else "undirected"
        example = (" -> " if directed else " - ").join(map(str, non_cycle_example(rng, n, edges, directed)))
        prompt = (
            f"A {kind} graph has nodes 0 to {n - 1} and these {len(edges)} edges"
            f"{' (a -> b goes from a to b)' if directed else ''}:\n{edge_list(edges, directed)}\n\n"
            f"Does the graph contain a {'directed ' if directed else ''}cycle? If it does, give one cycle as its "
            f"nodes in order, each node once (for example: {example}, meaning the cycle returns from the last node "
            "to the first). If it has no cycle, prove it: answer 'acyclic:' followed by every node once, in an "
            + ("order in which every edge goes from an earlier node to a later one (a topological order)"
               if directed else "order in which every node has at most one neighbour before it")
            + ", for example: acyclic: 2 0 1 ..."
        )
        answer = "acyclic: " + " ".join(map(str, acyclic_order(n, edges, directed))) if cycle is None else \
            " ".join(map(str, cycle))
        return Problem(prompt=prompt, answer=answer, data={"n": n, "directed": directed, "edges": edges,
                                                           "cyclic": cycle is not None})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how far the search for a cycle reaches)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if not isinstance(answer, str) or len(answer) > 20_000:
            return Verdict.unparsed("no readable answer")
        text = strip_wrappers(answer).strip()
        head = _ACYCLIC_HEAD.match(text[:200])
        if head:
            if not text[head.end():].strip(" .!*"):
                return Verdict.wrong("'acyclic' needs its proof: every node in an order that rules out a cycle")
            order = read_nodes(text[head.end():], data["n"])
            if order is None:
                return Verdict.unparsed("expected 'acyclic:' followed by every node once, in order")
            error = order_error(order, data["n"], data["edges"], data["directed"])
            return Verdict.wrong(error) if error else Verdict.right()
        if mentions(text, ACYCLIC):
            return Verdict.unparsed("the answer gives both a cycle and 'acyclic'")
        nodes = read_nodes(without_yes(text), data["n"])
        if nodes is None:
            return Verdict.unparsed("expected a cycle as nodes in order, or 'acyclic:' and an order of the nodes")
        error = cycle_error(closed_walk(nodes), edge_set(data["edges"], data["directed"]), data["directed"])
        return Verdict.wrong(error) if error else Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if not problem.data["cyclic"]:
            order = gold.split(":")[1].split()
            return [*super().spellings(problem), "The graph is acyclic. Order: " + ", ".join(order),
                    "Acyclic: " + " -> ".join(order), "No cycle; order: " + " ".join(order)]
        nodes = gold.split()
        rotated = nodes[1:] + nodes[:1]
        spellings = [" -> ".join([*nodes, nodes[0]]), ", ".join(rotated), "[" + ", ".join(nodes) + "]"]
        if not problem.data["directed"]:
            spellings.append(" - ".join(reversed(nodes)))
        return [*super().spellings(problem), *spellings]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        n = data["n"]
        if not data["cyclic"]:
            order = (problem.answer or "").split(":")[1].split()
            wrong = [" ".join(map(str, rng.sample(range(n), 3))), "0 1 2", "acyclic", "acyclic: " + " ".join(order[:-1]),
                     f"{problem.answer} (or 0 1 2)"]
            if data["directed"]:
                wrong.append("acyclic: " + " ".join(reversed(order)))  # every edge now goes backwards
            return wrong
        nodes = list(map(int, (problem.answer or "").split()))
        steps = edge_set(data["edges"], data["directed"])
        wrong = ["acyclic", "acyclic: " + " ".join(map(str, range(n))), f"{problem.answer}. Acyclic."]
        strangers = [v for v in range(n) if (nodes[0], v) not in steps and v not in nodes]
        if strangers:
            wrong.append(" ".join(map(str, [nodes[0], rng.choice(strangers), *nodes[2:]])))
        if data["directed"]:
            wrong.append(" ".join(map(str, nodes[::-1])))  # no edge is paired with its reverse
        return wrong


def _undirected(rng: random.Random, n: int, m: int, cyclic: bool) -> list[list[int]]:
    """``m <= n - 1`` edges of a random tree; for a cyclic graph one more tree edge is dropped and an
    edge inside the larger remaining part closes a cycle (a part of at least 3 nodes always exists)."""
    tree = [(u, v) for u, v, _ in random_tree(rng, n).edges]
    rng.shuffle(tree)
    kept = tree[: m - 1] if cyclic else tree[:m]
    if cyclic:
        part = _largest_part(n, kept)
        joined = set(kept)
        free = [(u, v) for u in part for v in part if u < v and (u, v) not in joined]
        kept.append(rng.choice(free))
    return sorted([u, v] for u, v in kept)


def _largest_part(n: int, pairs: list[tuple[int, int]]) -> list[int]:
    sets = UnionFind(n)
    for u, v in pairs:
        sets.union(u, v)
    parts: dict[int, list[int]] = {}
    for v in range(n):
        parts.setdefault(sets.find(v), []).append(v)
    return max(parts.values(), key=len)


def acyclic_order(n: int, edges: list[list[int]], directed: bool) -> list[int]:
    """The proof of an acyclic graph: a topological order (directed; smallest ready node first), or a
    breadth-first order of each tree of a forest, roots first, so each node follows only its parent."""
    neighbours: list[list[int]] = [[] for _ in range(n)]
    waiting = [0] * n
    for u, v in edges:
        neighbours[u].append(v)
        if directed:
            waiting[v] += 1
        else:
            neighbours[v].append(u)
    order: list[int] = []
    placed = [False] * n
    for root in range(n):
        if placed[root] or waiting[root]:
            continue
        queue = [root]
        placed[root] = True
        for node in queue:  # the queue grows while it is read: breadth first
            order.append(node)
            for nxt in sorted(neighbours[node]):
                if directed:
                    waiting[nxt] -= 1
                    if waiting[nxt] or placed[nxt]:
                        continue
                elif placed[nxt]:
                    continue
                placed[nxt] = True
                queue.append(nxt)
    return order


def order_error(order: list[int], n: int, edges: list[list[int]], directed: bool) -> str | None:
    """Why ``order`` does not prove the graph acyclic, or None when it does."""
    if sorted(order) != list(range(n)):
        return "the order must list every node exactly once"
    position = {v: i for i, v in enumerate(order)}
    if directed:
        for u, v in edges:
            if position[u] > position[v]:
                return f"the edge {u} -> {v} goes from a later node to an earlier one"
        return None
    earlier: dict[int, int] = {}
    for u, v in edges:
        later, first = (u, v) if position[u] > position[v] else (v, u)
        if later in earlier:
            return f"node {later} has two neighbours before it ({earlier[later]} and {first})"
        earlier[later] = first
    return None
