"""Red-team round 39 (certs): envs whose certificates or counts a guess without the work earned.

- graphs/negative_cycle v4: the proof of "none" (one value per node that no edge undercuts) came from part of the
  work, the graphs' shortest distances being shallow: at level 0 (40 seeds) two passes of Bellman-Ford gave a valid
  proof for 0.64 (in place 0.88) of the graphs without a negative cycle, sums down a breadth-first tree 0.55,
  Dijkstra 0.21 (two passes still 0.06-0.31 at level 4); now every graph has a path that all shortest distances
  follow, and each of these earns 0 at levels 0-4 (a depth-first tree in a random order about 0.1 at level 0).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from palaestra.core.registry import make_source

Edges = list[list[int]]


def _passes(n: int, edges: Edges, passes: int, in_place: bool) -> list[int]:
    distance = [0] * n
    for _ in range(passes):
        before = distance if in_place else list(distance)
        for u, v, w in edges:
            distance[v] = min(distance[v], before[u] + w)
    return distance


def _tree(n: int, edges: Edges, depth_first: bool, rng: random.Random | None = None) -> list[int]:
    """Sums down a search forest, roots in node order (or a random order, with shuffled edges, given ``rng``)."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, w in edges:
        out[u].append((v, w))
    roots = list(range(n))
    if rng:
        rng.shuffle(roots)
        for row in out:
            rng.shuffle(row)
    value: dict[int, int] = {}
    for root in roots:
        if root in value:
            continue
        value[root] = 0
        todo = [root]
        while todo:
            a = todo.pop() if depth_first else todo.pop(0)
            for b, w in out[a]:
                if b not in value:
                    value[b] = value[a] + w
                    todo.append(b)
                    if depth_first:
                        todo.append(a)  # come back to a's other edges after b's
                        break
    return [value[v] for v in range(n)]


def _dijkstra(n: int, edges: Edges) -> list[int]:
    distance, settled = [0] * n, [False] * n
    for _ in range(n):
        a = min((v for v in range(n) if not settled[v]), key=lambda v: distance[v])
        settled[a] = True
        for u, v, w in edges:
            if u == a and not settled[v]:
                distance[v] = min(distance[v], distance[a] + w)
    return distance


_PROOFS: dict[str, Callable[[int, Edges], list[int]]] = {
    "zeros": lambda n, e: [0] * n,
    "one_pass": lambda n, e: _passes(n, e, 1, True),
    "two_passes": lambda n, e: _passes(n, e, 2, True),
    "two_rounds": lambda n, e: _passes(n, e, 2, False),
    "two_passes_backwards": lambda n, e: _passes(n, e[::-1], 2, True),
    "bfs_tree": lambda n, e: _tree(n, e, False),
    "dfs_tree": lambda n, e: _tree(n, e, True),
    "dijkstra": _dijkstra,
}


def test_negative_cycle_none_needs_the_full_relaxation() -> None:
    src = make_source("graphs/negative_cycle")
    for level in range(5):
        problems = [p for p in (src.sample(level, 70_000 + s) for s in range(30)) if not p.data["negative"]]
        assert len(problems) >= 8
        for name, guess in _PROOFS.items():
            hits = sum(src.verify(p, "none: " + " ".join(map(str, guess(p.data["n"], p.data["edges"])))).reward == 1
                       for p in problems)
            assert hits <= 0.1 * len(problems), (level, name, hits, len(problems))
        shuffled = sum(src.verify(p, "none: " + " ".join(map(str, _tree(p.data["n"], p.data["edges"], True,
                                                                       random.Random(s))))).reward == 1
                       for s, p in enumerate(problems))
        assert shuffled <= 0.2 * len(problems), (level, shuffled)


def test_negative_cycle_reference_solves_both_kinds() -> None:
    src = make_source("graphs/negative_cycle")
    kinds = set()
    for level in range(5):
        for seed in range(12):
            problem = src.sample(level, 70_000 + seed)
            kinds.add(problem.data["negative"])
            assert src.verify(problem, problem.answer).reward == 1
            assert src.verify(problem, "none").reward == 0
    assert kinds == {True, False}
