"""Find a minimum-weight path between two nodes of a weighted graph given as an edge list.

The graph is undirected at low levels and directed at high ones; the target is
always reachable. The verifier accepts **any** path of optimal total weight: node
labels separated by spaces, commas or arrows (``A C F``, ``A, C, F``, ``A -> C -> F``).
It checks the path starts at the source, ends at the target, uses only edges of the
graph (in their direction) and weighs exactly the optimum computed at generation.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from itertools import islice

import networkx as nx

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.structured import parse_tokens

MAX_ANSWER_CHARS = 2_000
_ARROWS = ("->", "→", "—", "–")


@register
class ShortestPath(Task):
    id = "graphs/shortest_path"
    family = "graphs"
    description = "Give a minimum-weight path between two nodes of a weighted graph."
    tags = ("graphs", "search", "optimization")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        extra_edges: int  # edges added on top of a random spanning tree
        max_weight: int
        directed: bool
        min_hops: int  # the chosen target is at least this many edges from the source

    def config(self, level: int) -> Config:
        return [
            self.Config(nodes=6, extra_edges=3, max_weight=9, directed=False, min_hops=2),
            self.Config(nodes=8, extra_edges=5, max_weight=9, directed=False, min_hops=2),
            self.Config(nodes=11, extra_edges=9, max_weight=15, directed=False, min_hops=3),
            self.Config(nodes=14, extra_edges=16, max_weight=20, directed=True, min_hops=3),
            self.Config(nodes=18, extra_edges=26, max_weight=30, directed=True, min_hops=4),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        while True:  # retry the rare graph where no pair is far enough apart
            graph = _random_graph(rng, config)
            pair = _far_pair(rng, graph, config.min_hops)
            if pair is not None:
                break
        source, target, path, distance = pair
        ends = graph.edges() if config.directed else (sorted(e) for e in graph.edges())
        edges = sorted([u, v, graph[u][v]["weight"]] for u, v in ends)
        link = "->" if config.directed else "-"
        kind = "directed" if config.directed else "undirected"
        edge_lines = "\n".join(f"{u} {link} {v}  weight {w}" for u, v, w in edges)
        direction = " Edges can only be travelled in the direction of the arrow." if config.directed else ""
        prompt = (
            f"A weighted {kind} graph has nodes {', '.join(sorted(graph.nodes()))} and these edges:\n\n"
            f"{edge_lines}\n\n"
            f"Find a path from {source} to {target} with the minimum total weight.{direction}\n"
            f"Give the path as node labels separated by spaces, starting with {source} and ending "
            f"with {target} (for example: {source} X Y {target})."
        )
        return Problem(
            prompt=prompt,
            answer=" ".join(path),
            data={
                "nodes": sorted(graph.nodes()),
                "edges": edges,
                "directed": config.directed,
                "source": source,
                "target": target,
                "distance": distance,
            },
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        path = _read_path(answer, set(problem.data["nodes"]))
        if path is None:
            return Verdict.unparsed("expected node labels separated by spaces")
        data = problem.data
        if path[0] != data["source"]:
            return Verdict.wrong(f"the path must start at {data['source']}")
        if path[-1] != data["target"]:
            return Verdict.wrong(f"the path must end at {data['target']}")
        if len(path) > len(data["nodes"]):
            return Verdict.wrong("the path repeats nodes, so it is not the shortest")
        weights = _edge_weights(data["edges"], data["directed"])
        total = 0
        for u, v in zip(path, path[1:]):
            if (u, v) not in weights:
                return Verdict.wrong(f"{u} to {v} is not an edge of the graph")
            total += weights[(u, v)]
        return Verdict.judge(total == data["distance"], f"the path weighs {total}, which is not the minimum")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        gold = (problem.answer or "").split()
        weights = _edge_weights(data["edges"], data["directed"])
        source = data["source"]
        wrong = [" ".join(gold[:-1]), " ".join(reversed(gold))]
        strangers = [n for n in data["nodes"] if n != source and (source, n) not in weights]
        if strangers:  # a first step along a non-edge
            wrong.append(" ".join([source, rng.choice(strangers), *gold[1:]]))
        longer = _longer_path(data, weights)
        if longer:
            wrong.append(" ".join(longer))
        return wrong


def _random_graph(rng: random.Random, config: ShortestPath.Config) -> nx.Graph:
    """A random spanning tree plus extra edges, with random positive integer weights."""
    labels = list(string.ascii_uppercase[: config.nodes])
    graph: nx.Graph = nx.DiGraph() if config.directed else nx.Graph()
    graph.add_nodes_from(labels)
    order = labels[:]
    rng.shuffle(order)
    for i in range(1, len(order)):
        pair = [order[i], order[rng.randrange(i)]]
        rng.shuffle(pair)  # a random direction for directed graphs
        graph.add_edge(*pair, weight=rng.randint(1, config.max_weight))
    added = 0
    for _ in range(config.extra_edges * 4):  # bounded attempts; existing pairs are skipped
        if added == config.extra_edges:
            break
        u, v = rng.sample(labels, 2)
        if not graph.has_edge(u, v) and not graph.has_edge(v, u):
            graph.add_edge(u, v, weight=rng.randint(1, config.max_weight))
            added += 1
    return graph


def _far_pair(rng: random.Random, graph: nx.Graph, min_hops: int) -> tuple[str, str, list[str], int] | None:
    """(source, target, a shortest path, its weight) with a path of at least ``min_hops`` edges."""
    sources = sorted(graph.nodes())
    rng.shuffle(sources)
    for source in sources:
        distances, paths = nx.single_source_dijkstra(graph, source)
        targets = sorted(t for t in paths if len(paths[t]) > min_hops)
        if targets:
            target = rng.choice(targets)
            return source, target, paths[target], int(distances[target])
    return None


def _read_path(answer: str, nodes: set[str]) -> list[str] | None:
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        return None
    text = answer
    for arrow in _ARROWS:
        text = text.replace(arrow, " ")
    tokens = parse_tokens(text.replace("-", " "))
    if tokens is None:
        return None
    path = [t.upper() for t in tokens]
    return path if all(label in nodes for label in path) else None


def _edge_weights(edges: list[list], directed: bool) -> dict[tuple[str, str], int]:
    weights = {(u, v): w for u, v, w in edges}
    if not directed:
        weights.update({(v, u): w for u, v, w in edges})
    return weights


def _longer_path(data: dict, weights: dict[tuple[str, str], int]) -> list[str] | None:
    """A valid source-target path strictly heavier than the optimum, if a short search finds one."""
    graph: nx.Graph = nx.DiGraph() if data["directed"] else nx.Graph()
    graph.add_weighted_edges_from(data["edges"])
    for path in islice(nx.shortest_simple_paths(graph, data["source"], data["target"], weight="weight"), 20):
        if sum(weights[(u, v)] for u, v in zip(path, path[1:])) > data["distance"]:
            return path
    return None
