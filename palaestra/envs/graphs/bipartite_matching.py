"""Give a maximum matching of a bipartite graph (workers and the tasks each can do).

A random bipartite graph (:func:`palaestra.generators.graphs.random_bipartite`, not necessarily
connected) is relabelled so the left side is ``0..a-1`` and the right side ``a..n-1``. From level
1 on, graphs are redrawn until a greedy matching (edges in sorted order) is not maximum, so the
answer needs augmenting paths. The verifier accepts **any** maximum matching: pairs that are edges,
no node used twice, as many pairs as the maximum (Hopcroft-Karp in networkx, at generation).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list, read_edges
from palaestra.generators.graphs import random_bipartite


@register
class BipartiteMatching(Task):
    id = "graphs/bipartite_matching"
    family = "graphs"
    description = "Give a maximum matching of a bipartite graph."
    tags = ("graphs", "matching", "optimization")

    @dataclass(frozen=True)
    class Config:
        left: int
        right: int
        edges: int
        beat_greedy: bool

    presets = (
        Config(left=4, right=5, edges=7, beat_greedy=False),
        Config(left=5, right=6, edges=10, beat_greedy=True),
        Config(left=7, right=7, edges=14, beat_greedy=True),
        Config(left=9, right=10, edges=20, beat_greedy=True),
        Config(left=12, right=12, edges=28, beat_greedy=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        a, b = config.left, config.right
        n = a + b

        def draw() -> tuple[list[list[int]], list[list[int]]]:
            graph, side = random_bipartite(rng, a, b, config.edges, connected=False)
            left = [v for v in range(n) if side[v] == 0]
            right = [v for v in range(n) if side[v] == 1]
            label = {v: i for i, v in enumerate(left + right)}
            edges = sorted(sorted([label[u], label[v]]) for u, v, _ in graph.edges)
            g = nx.Graph()
            g.add_nodes_from(range(n))
            g.add_edges_from(edges)
            found = nx.bipartite.hopcroft_karp_matching(g, top_nodes=range(a))
            return edges, sorted([u, found[u]] for u in range(a) if u in found)

        def hard(drawn: tuple[list[list[int]], list[list[int]]]) -> bool:
            edges, matching = drawn
            return not config.beat_greedy or _greedy(edges) < len(matching)

        edges, matching = retry(draw, hard, what="a matching that greedy misses")
        prompt = (
            f"Workers 0 to {a - 1} are to be paired with tasks {a} to {n - 1}. A worker can do only the tasks "
            f"it is joined to by these {len(edges)} edges:\n{edge_list(edges)}\n\n"
            "Each worker can take at most one task and each task at most one worker. Give a maximum matching: "
            "as many worker-task pairs as possible. Write each pair as worker-task, pairs separated by commas, "
            f"for example: 0-{a + 2}, 3-{a}, ..."
        )
        return Problem(prompt=prompt, answer=", ".join(f"{u}-{v}" for u, v in matching),
                       data={"left": a, "n": n, "edges": edges, "size": len(matching)})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how long augmenting paths can get)."""
        from palaestra.envs.graphs._measures import diameter

        data = problem.data
        return float(data["n"] + len(data["edges"]) + diameter(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        pairs = read_edges(answer, data["n"])
        if pairs is None:
            return Verdict.unparsed("expected pairs such as 0-7, 3-5")
        edges = {tuple(e) for e in data["edges"]}
        used: set[int] = set()
        for u, v in pairs:
            pair = (min(u, v), max(u, v))
            if pair not in edges:
                return Verdict.wrong(f"{u}-{v} is not an edge")
            if u in used or v in used:
                return Verdict.wrong(f"node {u if u in used else v} is used twice")
            used.update(pair)
        return Verdict.judge(len(pairs) == data["size"], f"{len(pairs)} pairs is not the maximum")

    def spellings(self, problem: Problem) -> list[str]:
        pairs = [p.split("-") for p in (problem.answer or "").split(", ")]
        return [*super().spellings(problem), ", ".join(f"({u}, {v})" for u, v in reversed(pairs)),
                "\n".join(f"{v} - {u}" for u, v in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        pairs = [tuple(map(int, p.split("-"))) for p in (problem.answer or "").split(", ")]
        wrong = [", ".join(f"{u}-{v}" for u, v in pairs[:-1])]
        u, v = pairs[0]
        clash = [e for e in problem.data["edges"] if (e[0] == u) != (e[1] == v) and (e[0] == u or e[1] == v)]
        if clash:  # another edge at one end of the first pair: a node used twice
            wrong.append(", ".join(f"{x}-{y}" for x, y in [*pairs, tuple(rng.choice(clash))]))
        edges = {tuple(e) for e in problem.data["edges"]}
        left, n = problem.data["left"], problem.data["n"]
        stranger = next(((x, y) for x in range(left) for y in range(left, n) if (x, y) not in edges), None)
        if stranger:
            wrong.append(", ".join(f"{x}-{y}" for x, y in [stranger, *pairs[1:]]))
        return wrong


def _greedy(edges: list[list[int]]) -> int:
    used: set[int] = set()
    size = 0
    for u, v in edges:
        if u not in used and v not in used:
            used.update((u, v))
            size += 1
    return size
