"""The faster exact solvers behind some generators (issue #29, item 3) against brute force on small inputs."""

from __future__ import annotations

import itertools
import random

from palaestra.envs.algorithms.knapsack import _best
from palaestra.envs.algorithms.partition import half_subset
from palaestra.envs.graphs._greedy import dsatur


def test_knapsack_best_is_a_feasible_optimum():
    rng = random.Random(7)
    for _ in range(300):
        items = [[rng.randint(1, 12), rng.randint(1, 20)] for _ in range(rng.randint(1, 8))]
        capacity = rng.randint(1, 40)
        chosen = _best(items, capacity)
        assert chosen == sorted(set(chosen))
        assert sum(items[i][0] for i in chosen) <= capacity
        optimum = max(sum(items[i][1] for i in subset)
                      for k in range(len(items) + 1) for subset in itertools.combinations(range(len(items)), k)
                      if sum(items[i][0] for i in subset) <= capacity)
        assert sum(items[i][1] for i in chosen) == optimum


def test_half_subset_finds_a_half_exactly_when_one_exists():
    rng = random.Random(8)
    for _ in range(300):
        numbers = [rng.randint(1, 30) for _ in range(rng.randint(1, 9))]
        total = sum(numbers)
        exists = total % 2 == 0 and any(2 * sum(subset) == total for k in range(len(numbers) + 1)
                                        for subset in itertools.combinations(numbers, k))
        group = half_subset(numbers)
        assert (group is not None) == exists
        if group is not None:  # a sub-multiset in list order summing to half
            assert 2 * sum(group) == total
            rest = list(numbers)
            for x in group:
                rest.remove(x)


def _dsatur_by_definition(n: int, edges: list[tuple[int, int]]) -> list[int]:
    joined = [{v for e in edges for u, v in (e, e[::-1]) if u == w} for w in range(n)]
    colours = [0] * n
    for _ in range(n):
        node = max((v for v in range(n) if not colours[v]),
                   key=lambda v: (len({colours[u] for u in joined[v]} - {0}), len(joined[v]), -v))
        colours[node] = min(set(range(1, n + 2)) - {colours[u] for u in joined[node]})
    return colours


def test_dsatur_follows_the_rule_and_colours_properly():
    rng = random.Random(9)
    for _ in range(200):
        n = rng.randint(1, 14)
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.4]
        colours = dsatur(n, edges)
        assert colours == _dsatur_by_definition(n, edges)
        assert all(colours[u] != colours[v] for u, v in edges)


def test_minimum_cut_matches_networkx():
    import networkx as nx

    from palaestra.envs.graphs.min_cut import _minimum_cut
    from palaestra.generators.graphs import random_connected

    rng = random.Random(10)
    for _ in range(200):
        n = rng.randint(2, 12)
        graph = random_connected(rng, n, rng.randint(n - 1, min(n * (n - 1) // 2, 2 * n)), directed=True,
                                 weights=(1, 20))
        source, sink = rng.sample(range(n), 2)
        network = nx.DiGraph()
        network.add_nodes_from(range(n))
        network.add_edges_from((u, v, {"capacity": w}) for u, v, w in graph.edges)
        value, (side, _) = nx.minimum_cut(network, source, sink)
        assert _minimum_cut(n, [list(e) for e in graph.edges], source, sink) == (value, sorted(side))


def _crosses_in_fractions(viewer, target, wall, closed):
    from fractions import Fraction

    low, high = Fraction(0), Fraction(1)
    for axis in (0, 1):
        start, delta = Fraction(2 * viewer[axis] + 1, 2), target[axis] - viewer[axis]
        near, far = wall[axis], wall[axis] + 1
        if delta == 0:
            if not near < start < far:
                return False
            continue
        t1, t2 = (near - start) / delta, (far - start) / delta
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return low <= high if closed else low < high


def test_line_of_sight_integer_test_matches_rational_geometry():
    from palaestra.envs.spatial.line_of_sight import crosses

    cells = [(r, c) for r in range(4) for c in range(4)]
    for viewer, target, wall in itertools.product(cells, repeat=3):
        for closed in (False, True):
            assert crosses(viewer, target, wall, closed=closed) == _crosses_in_fractions(viewer, target, wall, closed)


def test_distance_profiles_never_separate_isomorphic_graphs():
    import networkx as nx

    from palaestra.envs.graphs.isomorphism import _distance_profiles

    rng = random.Random(12)
    separated = 0
    for _ in range(60):
        g = nx.random_regular_graph(3, 10, seed=rng.randrange(2**32))
        order = list(g)
        rng.shuffle(order)
        assert _distance_profiles(g) == _distance_profiles(nx.relabel_nodes(g, dict(zip(g, order))))
        h = g.copy()
        nx.double_edge_swap(h, nswap=2, max_tries=200, seed=rng.randrange(2**32))
        if _distance_profiles(g) != _distance_profiles(h):
            separated += 1
            assert not nx.is_isomorphic(g, h)
    assert separated > 0


def test_crossing_searches_agree_with_the_rules_they_inline():
    from palaestra.envs.planning._people_crossing import LEFT, RIGHT, CrossingRules, _distances
    from palaestra.envs.planning.river_crossing import CrossingRules as ItemRules

    rng = random.Random(13)
    for _ in range(150):  # the people search's inlined legality is the rules' check
        m, c = rng.randint(0, 6), rng.randint(0, 6)
        rules = CrossingRules(m, c, rng.randint(1, 4), rng.randint(0, 2), rng.random() < 0.5,
                              (rng.randint(0, m), rng.randint(0, c), rng.choice((LEFT, RIGHT))), (-1, -1))
        if not rules.bank_safe(*rules.start[:2]):
            continue
        distance, queue = {rules.start: 0}, [rules.start]
        for state in queue:
            for move in rules.moves(state):
                nxt = rules.apply(state, move)
                if rules.check(state, move) is None and nxt not in distance:
                    distance[nxt] = distance[state] + 1
                    queue.append(nxt)
        assert _distances(rules) == distance
    rules = ItemRules(4, 2, [(0, 1), (2, 1)])  # the items rules: capacity by bit count, pairs as masks
    assert rules.check((0, 0), 0b0111) == "the boat holds at most 2 besides the farmer"
    assert rules.check((0, 0), 0b1000) == "item 0 and item 1 are left alone together"
    assert rules.check((0, 0), 0b0010) is None
    assert rules.check((1, 0b0011), 0b0001) is None and rules.check((1, 0b0111), 0b0001) is not None


def test_held_karp_finds_a_shortest_tour():
    import math

    from palaestra.envs.algorithms.tsp import _length, held_karp

    rng = random.Random(14)
    for _ in range(60):
        n = rng.randint(1, 7)
        points = [(rng.randint(0, 9), rng.randint(0, 9)) for _ in range(n)]
        distance = [[round(math.dist(p, q)) for q in points] for p in points]
        length, tour = held_karp(distance)
        assert sorted(tour) == list(range(n)) and tour[0] == 0 and _length(distance, tour) == length
        assert length == min(_length(distance, [0, *rest]) for rest in itertools.permutations(range(1, n)))
