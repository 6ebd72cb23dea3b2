"""Round-3 session-20 red team (clique): graphs/max_clique v3 (the join of two parts, each with a planted clique
and a hub) was solved at every level by growing a greedy clique from every pair of joined nodes (a start in
each part fixes both planted cliques). v4 joins 3 parts (4 from level 4) whose decoys outnumber the planted
clique's neighbours, so every pair (and from level 4 every triangle) leaves a part that grows as from nothing."""

from __future__ import annotations

from palaestra.core.registry import make_source


def _neighbours(n: int, edges: list[list[int]]) -> list[set[int]]:
    joined: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        joined[u].add(v)
        joined[v].add(u)
    return joined


def _grown(joined: list[set[int]], start: tuple[int, ...], prefer_high: bool, by_degree: bool = False) -> list[int]:
    sign = 1 if prefer_high else -1
    clique = list(start)
    candidates = set.intersection(*(joined[v] for v in start)) if start else set(range(len(joined)))
    while candidates:
        nxt = max(candidates, key=lambda w: (len(joined[w]) if by_degree else len(joined[w] & candidates), sign * w))
        clique.append(nxt)
        candidates &= joined[nxt]
    return sorted(clique)


def _grown_from_every_pair(n: int, edges: list[list[int]], prefer_high: bool) -> list[int]:
    joined = _neighbours(n, edges)
    return max((_grown(joined, (u, v), prefer_high) for u, v in edges), key=len)


def _grown_from_every_triangle(n: int, edges: list[list[int]]) -> list[int]:
    joined = _neighbours(n, edges)
    return max((_grown(joined, (u, v, w), False) for u, v in edges for w in joined[u] & joined[v] if w > v), key=len)


def _answer(nodes: list[int]) -> str:
    return " ".join(map(str, nodes))


def test_max_clique_grown_from_every_pair_solves_no_hard_level():
    source = make_source("graphs/max_clique")
    for level in (2, 3, 4):
        problems = [source.sample(level, 3_000 + seed) for seed in range(4)]
        for prefer_high in (False, True):
            solved = sum(
                source.verify(p, _answer(_grown_from_every_pair(p.data["n"], p.data["edges"], prefer_high))).correct
                for p in problems
            )
            assert solved == 0, (level, prefer_high, solved)


def test_max_clique_greedy_by_degree_solves_no_hard_level():
    source = make_source("graphs/max_clique")
    for level in (2, 3, 4):
        for seed in range(10):
            p = source.sample(level, 3_000 + seed)
            for prefer_high in (False, True):
                clique = _grown(_neighbours(p.data["n"], p.data["edges"]), (), prefer_high, by_degree=True)
                assert not source.verify(p, _answer(clique)).correct, (level, seed, prefer_high)


def test_max_clique_grown_from_every_triangle_solves_no_level_from_4():
    source = make_source("graphs/max_clique")
    problems = [source.sample(4, 3_000 + seed) for seed in range(2)]
    assert not any(source.verify(p, _answer(_grown_from_every_triangle(p.data["n"], p.data["edges"]))).correct
                   for p in problems)


def test_max_clique_declares_the_rule_grown_from_every_pair():
    names = make_source("graphs/max_clique").heuristics()
    assert any("every pair" in name for name in names)


def test_max_clique_grown_from_every_pair_with_random_ties_solves_no_hard_level():
    # A decoy of each part has more neighbours than every clique node, so growth does not hinge on a tie-break.
    import random

    source = make_source("graphs/max_clique")
    for level in (2, 4):
        for seed in range(2):
            p = source.sample(level, 3_100 + seed)
            n, edges = p.data["n"], p.data["edges"]
            joined = _neighbours(n, edges)
            rng = random.Random(seed)
            for _ in range(2):
                rank = [rng.random() for _ in range(n)]
                for u, v in edges:
                    clique, candidates = [u, v], joined[u] & joined[v]
                    while candidates:
                        nxt = max(candidates, key=lambda w: (len(joined[w] & candidates), rank[w]))
                        clique.append(nxt)
                        candidates &= joined[nxt]
                    assert len(clique) < p.data["size"], (level, seed)


def test_max_clique_nodes_do_not_share_one_degree():
    # With no edge out of each planted clique its nodes all had one degree: the nodes of that degree were the answer.
    source = make_source("graphs/max_clique")
    shared = 0
    for level in (2, 3, 4):
        for seed in range(10):
            p = source.sample(level, 3_200 + seed)
            joined = _neighbours(p.data["n"], p.data["edges"])
            shared += len({len(joined[int(v)]) for v in (p.answer or "").split()}) == 1
    assert shared <= 1
