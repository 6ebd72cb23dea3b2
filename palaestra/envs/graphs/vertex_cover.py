"""Find a minimum vertex cover: the fewest nodes that touch every edge.

Levels 0-1: random connected graphs (:func:`palaestra.generators.graphs.random_connected`). From level 2
on (v4) the graph joins, by one edge, two parts built to trap the textbook rules, under a random labelling:
a randomised Johnson graph (k nodes, and for each i from k down to 2, k // i nodes each joined to i of
them, a fresh random grouping per i; a few random extra edges), on which taking the node of highest
degree (after the neighbour of any degree-1 node: the leaf rule) covers with more nodes than the optimum,
and a random graph of minimum degree 2 on which keeping out of the cover the node with the fewest
neighbours does. Each part is redrawn until its rules miss its optimum, then the whole graph until all
the declared rules miss the whole optimum: greed with pruning, the leaf rule then greed then pruning,
and the rest of a greedy independent set (each with ties to the lower or the higher id where it has a
tie-break to choose) solve none of them.
v3 redrew random connected graphs against two of them, and the leaf rule solved 97/85/80% of levels 2-4
(round-3 red team); on random graphs of these sizes all the rules are optimal 90-99% of the time.
The optimum comes from an exact branch and bound at generation. The verifier accepts **any** minimum
cover: distinct nodes, every edge touched, as few nodes as the optimum.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.graphs._greedy import greedy_cover, independent_set_cover, leaf_rule_cover, neighbour_sets
from palaestra.envs.graphs.common import edge_list, read_nodes
from palaestra.generators.graphs import random_connected

MAX_GREEDY_RETRIES = 300


@register
class VertexCover(Task):
    id = "graphs/vertex_cover"
    family = "graphs"
    description = "Give a minimum vertex cover of a graph."
    tags = ("graphs", "optimization", "np-hard")
    version = 4

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        beat_greedy: bool
        trap: int = 0  # > 0: the k of the Johnson part; nodes and edges are then the random part's

    presets = (
        Config(nodes=9, edges=13, beat_greedy=False),
        Config(nodes=11, edges=16, beat_greedy=False),
        Config(nodes=10, edges=20, beat_greedy=True, trap=6),
        Config(nodes=11, edges=22, beat_greedy=True, trap=6),
        Config(nodes=12, edges=24, beat_greedy=True, trap=7),
    )
    # Capped: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"nodes": 2, "edges": 4}, limits={"nodes": 30, "edges": 60, "trap": 7})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if config.trap:
            n, rows, cover = _trapped_graph(rng, config)
        else:
            n = config.nodes
            for _ in range(MAX_GREEDY_RETRIES):  # keeps the last draw if greed keeps being optimal
                rows = sorted([u, v] for u, v, _ in random_connected(rng, n, config.edges).edges)
                cover = minimum_vertex_cover(n, rows)
                if not config.beat_greedy or _beats(n, rows, len(cover), _GREEDY_COVERS.values()):
                    break
        prompt = (
            f"An undirected graph has nodes 0 to {n - 1} and these {len(rows)} edges:\n{edge_list(rows)}\n\n"
            "Find a minimum vertex cover: as few nodes as possible such that every edge has at least one end "
            "among them. Give the nodes separated by spaces, for example: 0 3 5 ..."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, cover)),
                       data={"n": n, "edges": rows, "size": len(cover)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def greedy(rule: Callable[[int, list[list[int]]], list[int]]) -> Callable[[Problem], str]:
            return lambda problem: " ".join(map(str, rule(problem.data["n"], problem.data["edges"])))

        return {name: greedy(rule) for name, rule in _GREEDY_COVERS.items()}

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter of the graph."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        nodes = read_nodes(answer, problem.data["n"])
        if nodes is None:
            return Verdict.unparsed("expected nodes separated by spaces")
        chosen = set(nodes)
        if len(chosen) != len(nodes):
            return Verdict.wrong("a node is listed twice")
        for u, v in problem.data["edges"]:
            if u not in chosen and v not in chosen:
                return Verdict.wrong(f"the edge {u}-{v} is not covered")
        return Verdict.judge(len(chosen) == problem.data["size"], f"{len(chosen)} nodes is not the minimum")

    def spellings(self, problem: Problem) -> list[str]:
        nodes = (problem.answer or "").split()
        return [*super().spellings(problem), "{" + ", ".join(reversed(nodes)) + "}", ", ".join(nodes)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        nodes = [int(v) for v in (problem.answer or "").split()]
        outside = [v for v in range(problem.data["n"]) if v not in nodes]
        wrong = [" ".join(map(str, nodes[1:]))]  # a minimum cover minus a node leaves an edge uncovered
        if outside:
            wrong.append(" ".join(map(str, [*nodes, rng.choice(outside)])))
        return wrong


def minimum_vertex_cover(n: int, edges: list[list[int]], within: list[int] | None = None) -> list[int]:
    """A minimum vertex cover by branch and bound on bitmasks: take the node of highest degree, or
    all of its neighbours; a matching found greedily bounds the rest from below.

    With ``within`` (a cover), the search looks only for covers smaller than it: the same minimum cover if
    there is one (the search meets the first minimum cover in its order whatever the bound it starts from,
    as long as that bound is larger), else ``within`` itself. Generators that only ask whether some rule
    missed the optimum pass the rules' smallest cover, and prune far more.

    >>> minimum_vertex_cover(4, [[0, 1], [1, 2], [2, 3]])
    [1, 2]
    >>> minimum_vertex_cover(4, [[0, 1], [1, 2], [2, 3]], within=[0, 2])
    [0, 2]
    """
    neighbours = [0] * n
    for u, v in edges:
        neighbours[u] |= 1 << v
        neighbours[v] |= 1 << u
    if within is None:
        best = [(1 << n) - 1]
    else:
        best = [sum(1 << v for v in set(within))]

    def lower_bound(alive: int) -> int:
        used, size, rest = 0, 0, alive
        while rest:  # the alive nodes, lowest first
            low = rest & -rest
            rest ^= low
            if not used & low:
                free = neighbours[low.bit_length() - 1] & alive & ~used
                if free:
                    used |= low | (free & -free)
                    size += 1
        return size

    def search(alive: int, taken: int) -> None:
        degree, u, rest = 0, -1, alive
        while rest:  # the highest degree, ties to the highest node
            low = rest & -rest
            rest ^= low
            count = (neighbours[low.bit_length() - 1] & alive).bit_count()
            if count >= degree:
                degree, u = count, low.bit_length() - 1
        if degree == 0:
            if taken.bit_count() < best[0].bit_count():
                best[0] = taken
            return
        if taken.bit_count() + lower_bound(alive) >= best[0].bit_count():
            return
        search(alive & ~(1 << u), taken | 1 << u)
        around = neighbours[u] & alive
        search(alive & ~around & ~(1 << u), taken | around)

    search((1 << n) - 1, 0)
    return [v for v in range(n) if best[0] >> v & 1]


def _beats(n: int, rows: list[list[int]], size: int, rules: Iterable[Callable[[int, list[list[int]]], list[int]]]) -> bool:
    return all(len(rule(n, rows)) > size for rule in rules)


def _rules_miss(n: int, rows: list[list[int]], rules: Iterable[Callable[[int, list[list[int]]], list[int]]]) -> bool:
    """Whether every rule's cover is larger than the minimum (as :func:`_beats` with the minimum's size): a search
    only for a cover smaller than the rules' smallest."""
    smallest = min((rule(n, rows) for rule in rules), key=len)
    return len(minimum_vertex_cover(n, rows, within=smallest)) < len(smallest)


def _johnson(rng: random.Random, k: int) -> tuple[int, list[list[int]]]:
    """Johnson's graph that traps greed: k nodes, and for each i from k down to 2, k // i nodes each joined to a
    group of i of them (the groups of one i disjoint, regrouped at random per i); two random extra edges."""
    rows: set[tuple[int, int]] = set()
    size = k
    for i in range(k, 1, -1):
        first = rng.sample(range(k), k)
        for group in range(k // i):
            rows.update((u, size) for u in first[group * i:group * i + i])
            size += 1
    for _ in range(2):
        u, v = rng.sample(range(size), 2)
        rows.add((min(u, v), max(u, v)))
    return size, sorted([u, v] for u, v in rows)


def _min_degree_two(rng: random.Random, n: int, m: int) -> list[list[int]]:
    """A random connected graph, with edges added until every node has at least two neighbours."""
    rows = {(u, v) for u, v, _ in random_connected(rng, n, m).edges}
    joined = neighbour_sets(n, sorted(rows))
    for v in range(n):
        while len(joined[v]) < 2:
            u = rng.choice([u for u in range(n) if u != v and u not in joined[v]])
            rows.add((min(u, v), max(u, v)))
            joined[u].add(v)
            joined[v].add(u)
    return sorted([u, v] for u, v in rows)


def _trapped_graph(rng: random.Random, config: VertexCover.Config) -> tuple[int, list[list[int]], list[int]]:
    """A Johnson part on which greed and the leaf rule miss the optimum, a random part on which the greedy
    independent sets do, and one edge between them, labelled at random. Each part is checked on its own nodes
    numbered in the order of their final labels (so every tie-break falls the same way, and the rules, which
    act on each part as on its own, miss the whole optimum). Redrawn (bounded) until every declared rule misses
    the whole; the last draw is kept."""
    independent_rules = [rule for name, rule in _GREEDY_COVERS.items() if "independent set" in name]
    greedy_rules = [rule for rule in _GREEDY_COVERS.values() if rule not in independent_rules]
    for _ in range(MAX_GREEDY_RETRIES):
        size_a, part_a = _johnson(rng, config.trap)
        shuffle = rng.sample(range(size_a), size_a)
        part_a = sorted(sorted((shuffle[u], shuffle[v])) for u, v in part_a)
        if not _rules_miss(size_a, part_a, greedy_rules):
            continue
        size_b = config.nodes
        for _ in range(MAX_GREEDY_RETRIES):
            part_b = _min_degree_two(rng, size_b, config.edges)
            if _rules_miss(size_b, part_b, independent_rules):
                break
        n = size_a + size_b
        labels = rng.sample(range(n), n)
        in_a, in_b = sorted(labels[:size_a]), sorted(labels[size_a:])
        bridge = sorted((in_a[rng.randrange(size_a)], in_b[rng.randrange(size_b)]))
        rows = sorted([*(sorted((in_a[u], in_a[v])) for u, v in part_a),
                       *(sorted((in_b[u], in_b[v])) for u, v in part_b), bridge])
        cover = minimum_vertex_cover(n, rows)
        if _beats(n, rows, len(cover), _GREEDY_COVERS.values()):
            break
    return n, rows, cover


def pruned_greedy_cover(n: int, edges: list[list[int]]) -> list[int]:
    """The greedy cover without its redundant nodes (a node whose neighbours are all in the cover), the
    last taken dropped first."""
    return prune_cover(n, edges, greedy_cover(n, edges))


def prune_cover(n: int, edges: list[list[int]], cover: list[int]) -> list[int]:
    """A cover (nodes in the order taken) without its redundant nodes, the last taken dropped first."""
    joined = neighbour_sets(n, edges)
    kept = set(cover)
    for node in reversed(cover):
        if joined[node] <= kept - {node}:
            kept.discard(node)
    return sorted(kept)


_GREEDY_COVERS: dict[str, Callable[[int, list[list[int]]], list[int]]] = {
    "greedy cover, pruned": pruned_greedy_cover,
    "the rest of a greedy independent set (fewest neighbours first)": independent_set_cover,
    "the rest of a greedy independent set (fewest neighbours first), ties to the larger id":
        lambda n, edges: independent_set_cover(n, edges, prefer_high=True),
    "leaf rule, then greed, pruned": lambda n, edges: prune_cover(n, edges, leaf_rule_cover(n, edges)),
    "leaf rule, then greed, pruned, ties to the larger id":
        lambda n, edges: prune_cover(n, edges, leaf_rule_cover(n, edges, prefer_high=True)),
}
