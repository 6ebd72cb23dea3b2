"""Find a cycle in a graph, or say that it has none.

Half the graphs have a cycle and half do not, with the same numbers of nodes and edges, so
counting edges does not tell them apart. Undirected (levels 0-1): an acyclic graph is a forest
(a random tree with one edge removed); a cyclic one is the same kind of tree with one edge moved
so that it closes a cycle inside one part. Directed (levels 2-4): a random DAG, or a random DAG
with one edge fewer plus one edge back along a path of it
(:func:`palaestra.generators.graphs.random_cyclic`).

The verifier accepts **any** simple cycle of the graph, written as its nodes in order (``3 7 2``,
``3 -> 7 -> 2 -> 3``; any starting node, either direction when undirected), and ``acyclic`` (or
``no cycle``) exactly when there is none.
"""

from __future__ import annotations

import random
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
from palaestra.generators.graphs import random_cyclic, random_dag, random_tree
from palaestra.verifiers.choices import read_option

ACYCLIC = ("acyclic", "no cycle", "no cycles", "none", "the graph is acyclic", "there is no cycle",
           "it is acyclic", "no cycle exists", "there are no cycles")


@register
class Cycle(Task):
    id = "graphs/cycle"
    family = "graphs"
    description = "Find a cycle in a graph (any) or report that it is acyclic."
    tags = ("graphs", "cycles", "search")

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
            "to the first). If it has no cycle, answer: acyclic"
        )
        answer = "acyclic" if cycle is None else " ".join(map(str, cycle))
        return Problem(prompt=prompt, answer=answer, data={"n": n, "directed": directed, "edges": edges,
                                                           "cyclic": cycle is not None})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges."""
        return float(problem.data["n"] + len(problem.data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        said_acyclic = read_option(answer, {True: ACYCLIC}) if isinstance(answer, str) and len(answer) < 600 else None
        if said_acyclic:
            return Verdict.judge(not data["cyclic"], "the graph has a cycle")
        nodes = read_nodes(without_yes(answer), data["n"])
        if nodes is None:
            return Verdict.unparsed("expected a cycle as nodes in order, or 'acyclic'")
        error = cycle_error(closed_walk(nodes), edge_set(data["edges"], data["directed"]), data["directed"])
        return Verdict.wrong(error) if error else Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if not problem.data["cyclic"]:
            return [*super().spellings(problem), "The graph is acyclic.", "no cycle", "Acyclic"]
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
            return [" ".join(map(str, rng.sample(range(n), 3))), "0 1 2"]
        nodes = list(map(int, (problem.answer or "").split()))
        steps = edge_set(data["edges"], data["directed"])
        wrong = ["acyclic"]
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
    root = list(range(n))

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for u, v in pairs:
        root[find(u)] = find(v)
    parts: dict[int, list[int]] = {}
    for v in range(n):
        parts.setdefault(find(v), []).append(v)
    return max(parts.values(), key=len)
