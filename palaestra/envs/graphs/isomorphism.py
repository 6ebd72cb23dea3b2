"""Decide whether two graphs are isomorphic (yes/no), with hard negatives.

The first graph G is random and connected on nodes ``0..n-1``. Half the time the second graph H is
G under a random relabelling onto letters; otherwise it is G after random degree-preserving double
edge swaps, then relabelled, and kept only if networkx proves it is not isomorphic to G. So both
graphs always have the same numbers of nodes and edges and the same degree sequence; from level 2
on the negatives also have the same number of triangles, and G is a random connected 3-regular graph
(every node of degree 3): the degrees of a node's neighbours, and colour refinement (Weisfeiler-Leman)
built on them, are then the same everywhere and decide nothing. Before version 2 (random graphs of
any degrees) comparing the multisets of neighbour degrees answered 0.99 of the problems at every
level. Answers are balanced yes/no (the kit checks no surface feature predicts them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list
from palaestra.generators.graphs import letter_labels, random_connected
from palaestra.verifiers.choices import read_yes_no


@register
class Isomorphism(Task):
    id = "graphs/isomorphism"
    family = "graphs"
    description = "Decide whether two graphs with the same degree sequence are isomorphic."
    tags = ("graphs", "isomorphism", "classification")
    version = 2

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        same_triangles: bool  # negatives also match in their number of triangles
        regular: bool  # G is 3-regular (edges = 3 * nodes / 2), so neighbour degrees say nothing

    presets = (
        Config(nodes=6, edges=7, same_triangles=False, regular=False),
        Config(nodes=8, edges=12, same_triangles=True, regular=True),
        Config(nodes=10, edges=15, same_triangles=True, regular=True),
        Config(nodes=12, edges=18, same_triangles=True, regular=True),
        Config(nodes=14, edges=21, same_triangles=True, regular=True),
    )
    # Capped where telling non-isomorphic regular graphs apart at generation stays well under a second.
    growth = Growth(limits={"nodes": 40, "edges": 60})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n, m = config.nodes, config.edges
        isomorphic = rng.random() < 0.5

        def draw() -> tuple[list[list[int]], list[list[int]]] | None:
            if config.regular:
                g = nx.random_regular_graph(3, n, seed=rng.randrange(2**32))
                if not nx.is_connected(g):
                    return None
                first = sorted(sorted(e) for e in g.edges)
            else:
                first = sorted([u, v] for u, v, _ in random_connected(rng, n, m).edges)
                g = nx.Graph(first)
            if isomorphic:
                return first, first
            h = g.copy()
            try:
                nx.double_edge_swap(h, nswap=rng.randint(1, 3), max_tries=200, seed=rng.randrange(2**32))
            except nx.NetworkXException:
                return None
            if not nx.is_connected(h):
                return None
            if config.same_triangles and sum(nx.triangles(g).values()) != sum(nx.triangles(h).values()):
                return None  # (checked before the isomorphism test: it is far cheaper and rejects most swaps)
            if _distance_profiles(g) == _distance_profiles(h) and nx.is_isomorphic(g, h):
                return None  # (different profiles already prove the graphs different, far faster than VF2)
            return first, sorted(sorted(e) for e in h.edges)

        first, second = retry(draw, what="a pair of graphs of the drawn kind")
        relabel = list(range(n))
        rng.shuffle(relabel)
        letters = letter_labels(n)
        renamed = sorted(sorted([letters[relabel[u]], letters[relabel[v]]]) for u, v in second)
        prompt = (
            f"Graph G has nodes 0 to {n - 1} and these {len(first)} edges:\n{edge_list(first)}\n\n"
            f"Graph H has nodes {letters[0]} to {letters[-1]} and these {len(renamed)} edges:\n"
            + ", ".join(f"{a}-{b}" for a, b in renamed)
            + "\n\nAre G and H isomorphic, that is, can the nodes of H be renamed as 0 to "
            f"{n - 1} so that it has exactly the edges of G? Answer yes or no."
        )
        return Problem(prompt=prompt, answer="yes" if isomorphic else "no",
                       data={"first": first, "second": renamed, "isomorphic": isomorphic})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges of one graph, plus the nodes that degrees alone do not tell apart, plus the
        diameter (how far a renaming's consequences reach)."""
        from palaestra.envs.graphs._measures import diameter

        nodes = {v for e in problem.data["first"] for v in e}
        degrees = [sum(v in e for e in problem.data["first"]) for v in nodes]
        alike = sum(degrees.count(d) > 1 for d in degrees)
        return float(len(nodes) + len(problem.data["first"])) + alike / 2 + diameter(len(nodes), problem.data["first"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = read_yes_no(answer) if isinstance(answer, str) and len(answer) < 600 else None
        if said is None:
            return Verdict.unparsed("expected yes or no")
        return Verdict.judge(said == problem.data["isomorphic"])

    def spellings(self, problem: Problem) -> list[str]:
        word = problem.answer or ""
        return [*super().spellings(problem), word.capitalize() + ".", f"**{word.upper()}**",
                "Yes." if word == "yes" else "No."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["no" if problem.answer == "yes" else "yes", "yes or no", "maybe"]


def _distance_profiles(graph) -> list[tuple[int, ...]]:
    """Per node, its distances to every node, sorted; the list of them sorted: equal for isomorphic graphs."""
    import networkx as nx

    return sorted(tuple(sorted(nx.single_source_shortest_path_length(graph, v).values())) for v in graph)
