"""Round-3 session-24 red team (search): textbook search rules on algorithms/tsp and graphs/max_clique.

algorithms/tsp v4 (a hidden round trip in a sparse network of cheap links) was redrawn against nearest neighbour
+ 2-opt from every start city but not against or-opt: nearest neighbour, 2-opt and or-opt (moving a stretch of
1-3 cities) in turn from every start city found the optimum of 68-83% of levels 2-6. v5 hides the round trip
behind a decoy four joins away (no 2-opt, 3-opt or or-opt move reaches it) and redraws against the or-opt rule."""

from __future__ import annotations

from palaestra.core.registry import make_source


def _length(distance: list[list[int]], tour: list[int]) -> int:
    return sum(distance[a][b] for a, b in zip(tour, tour[1:] + tour[:1]))


def _nearest(distance: list[list[int]], start: int) -> list[int]:
    tour = [start]
    while len(tour) < len(distance):
        here = tour[-1]
        tour.append(min((c for c in range(len(distance)) if c not in tour), key=lambda c: (distance[here][c], c)))
    return tour


def _two_opt(distance: list[list[int]], tour: list[int]) -> list[int]:
    tour, n = list(tour), len(tour)
    improved = True
    while improved:
        improved = False
        for i in range(n - 1):
            for j in range(i + 2, n if i else n - 1):
                a, b, c, d = tour[i], tour[i + 1], tour[j], tour[(j + 1) % n]
                if distance[a][c] + distance[b][d] < distance[a][b] + distance[c][d]:
                    tour[i + 1 : j + 1] = reversed(tour[i + 1 : j + 1])
                    improved = True
    return tour


def _or_opt(distance: list[list[int]], tour: list[int], longest: int) -> list[int]:
    """Move the stretch (1 to ``longest`` cities, either way round) whose best move shortens the tour most."""
    n = len(tour)
    while True:
        gain, move = 0, None
        for size in range(1, longest + 1):
            for i in range(n):
                turned = tour[i:] + tour[:i]
                stretch, rest = turned[:size], turned[size:]
                saved = distance[rest[-1]][stretch[0]] + distance[stretch[-1]][rest[0]] - distance[rest[-1]][rest[0]]
                for j in range(len(rest) - 1):
                    a, b = rest[j], rest[j + 1]
                    for piece in (stretch, stretch[::-1]):
                        change = distance[a][piece[0]] + distance[piece[-1]][b] - distance[a][b] - saved
                        if change < gain:
                            gain, move = change, rest[: j + 1] + piece + rest[j + 1 :]
        if move is None:
            return tour
        tour = move


def _local_search_every_start(distance: list[list[int]], longest: int = 3) -> list[int]:
    best: list[int] = []
    for start in range(len(distance)):
        tour = _two_opt(distance, _nearest(distance, start))
        while True:
            length = _length(distance, tour)
            tour = _two_opt(distance, _or_opt(distance, tour, longest))
            if _length(distance, tour) == length:
                break
        if not best or _length(distance, tour) < _length(distance, best):
            best = tour
    return best


def _solved(level: int, seeds: range, rule) -> int:
    source = make_source("algorithms/tsp")
    solved = 0
    for seed in seeds:
        p = source.sample(level, 24_000 + seed)
        tour = rule(p.data["distance"])
        solved += source.verify(p, " ".join(p.data["names"][i] for i in tour)).correct
    return solved


def test_tsp_two_opt_and_or_opt_from_every_start_solves_few_hard_problems():
    # v4: 9 of these 12 at level 2 (the or-opt rule solved 68-83% of levels 2-6).
    for level in (2, 4):
        assert _solved(level, range(12), _local_search_every_start) <= 2, level


def test_tsp_or_opt_of_longer_stretches_solves_few_hard_problems():
    # The hidden trip differs from the decoy in four joins: no single stretch move reaches it.
    assert _solved(4, range(8), lambda d: _local_search_every_start(d, longest=6)) <= 2


def test_tsp_declares_the_or_opt_rule():
    assert any("or-opt" in name for name in make_source("algorithms/tsp").heuristics())


# graphs/max_clique v4 (the join of 3 parts at levels 2-3, 4 from level 4; in each part a planted triangle and
# decoys) fell to growing from every triangle at levels 2-3: a triangle with a clique node in each of the 3 parts
# grows every part to its triangle (100% of levels 2-3, 60 problems a level). v5 joins 4 parts from level 2.


def _neighbours(n: int, edges: list[list[int]]) -> list[set[int]]:
    joined: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        joined[u].add(v)
        joined[v].add(u)
    return joined


def _grown(joined: list[set[int]], start: tuple[int, ...]) -> set[int]:
    clique = set(start)
    candidates = set.intersection(*(joined[v] for v in start))
    while candidates:
        nxt = max(candidates, key=lambda w: (len(joined[w] & candidates), -w))
        clique.add(nxt)
        candidates &= joined[nxt]
    return clique


def _from_every_triangle(n: int, edges: list[list[int]]) -> set[int]:
    joined = _neighbours(n, edges)
    return max((_grown(joined, (u, v, w)) for u, v in edges for w in joined[u] & joined[v] if w > v), key=len)


def _clique_solved(level: int, seeds: range, rule) -> int:
    source = make_source("graphs/max_clique")
    solved = 0
    for seed in seeds:
        p = source.sample(level, 24_000 + seed)
        solved += source.verify(p, " ".join(map(str, sorted(rule(p.data["n"], p.data["edges"]))))).correct
    return solved


def test_max_clique_grown_from_every_triangle_solves_no_hard_level():
    for level in (2, 3):
        assert _clique_solved(level, range(2), _from_every_triangle) == 0, level


def test_max_clique_declares_the_triangle_rule():
    names = make_source("graphs/max_clique").heuristics()
    assert any("triangle" in name for name in names)
