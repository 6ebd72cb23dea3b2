"""Random graph generators: guaranteed properties checked with networkx, determinism, data and text."""

from __future__ import annotations

import json
import random
from collections import Counter

import networkx as nx
import pytest

from palaestra.generators import graphs as g

SEEDS = range(25)


def assert_simple(graph: g.Graph) -> None:
    """No self-loops, no repeated pair (in either direction), undirected edges stored with u < v."""
    pairs = [(u, v) for u, v, _ in graph.edges]
    assert all(u != v and 0 <= u < graph.n and 0 <= v < graph.n for u, v in pairs)
    assert len({frozenset(p) for p in pairs}) == len(pairs)
    if not graph.directed:
        assert all(u < v for u, v in pairs)


@pytest.mark.parametrize("n", [1, 2, 5, 17])
def test_trees_have_n_minus_one_edges_and_are_connected(n):
    for seed in SEEDS:
        tree = g.random_tree(random.Random(seed), n, weights=(2, 4))
        assert len(tree.edges) == n - 1
        assert_simple(tree)
        assert nx.is_tree(tree.to_networkx())
        assert g.is_connected(tree) and not g.has_cycle(tree)
        assert all(2 <= w <= 4 for _, _, w in tree.edges)


def test_trees_are_uniform_over_labelled_trees():
    # Cayley: 4^2 = 16 labelled trees on 4 nodes; each should come up about 1/16 of the time.
    counts = Counter(frozenset(e[:2] for e in g.random_tree(random.Random(s), 4).edges) for s in range(3_200))
    assert len(counts) == 16
    assert all(130 <= c <= 270 for c in counts.values()), counts


@pytest.mark.parametrize(("n", "m", "directed"), [(2, 1, False), (8, 7, True), (11, 19, False), (12, 40, True),
                                                  (7, 21, False), (9, 30, True)])
def test_connected_graphs_have_exactly_m_edges(n, m, directed):
    for seed in SEEDS:
        graph = g.random_connected(random.Random(seed), n, m, directed, weights=(1, 9))
        assert len(graph.edges) == m and graph.directed == directed
        assert_simple(graph)
        nxg = graph.to_networkx()
        assert (nx.is_weakly_connected(nxg) if directed else nx.is_connected(nxg))
        assert g.is_connected(graph)


def test_impossible_edge_counts_are_refused():
    with pytest.raises(ValueError):
        g.random_connected(random.Random(0), 5, 3)
    with pytest.raises(ValueError):
        g.random_connected(random.Random(0), 5, 11)
    with pytest.raises(ValueError):
        g.random_colorable(random.Random(0), 6, 2, 10)  # classes of 3 and 3 hold at most 9 edges


def test_dags_are_acyclic_with_a_topological_order():
    for seed in SEEDS:
        dag, order = g.random_dag(random.Random(seed), 10, 20, weights=(1, 5))
        nxg = dag.to_networkx()
        assert nx.is_directed_acyclic_graph(nxg) and nx.is_weakly_connected(nxg)
        assert len(dag.edges) == 20 and sorted(order) == list(range(10))
        position = {v: i for i, v in enumerate(order)}
        assert all(position[u] < position[v] for u, v, _ in dag.edges)
        assert not g.has_cycle(dag) and g.topological_order(dag) is not None
    sparse, _ = g.random_dag(random.Random(1), 10, 3, connected=False)
    assert len(sparse.edges) == 3


def test_bipartite_graphs_keep_their_sides():
    for seed in SEEDS:
        graph, side = g.random_bipartite(random.Random(seed), 4, 6, 15)
        nxg = graph.to_networkx()
        assert nx.is_bipartite(nxg) and nx.is_connected(nxg)
        assert len(graph.edges) == 15 and side.count(0) == 4 and side.count(1) == 6
        assert all(side[u] != side[v] for u, v, _ in graph.edges)
        assert_simple(graph)
    complete, _ = g.random_bipartite(random.Random(3), 3, 3, 9)
    assert len(complete.edges) == 9


@pytest.mark.parametrize(("n", "m"), [(6, 12), (10, 24), (14, 20)])
def test_planar_graphs_pass_networkx_planarity(n, m):
    for seed in range(8):
        graph = g.random_planar(random.Random(seed), n, m)
        nxg = graph.to_networkx()
        assert nx.check_planarity(nxg)[0] and nx.is_connected(nxg) and len(graph.edges) == m
        assert_simple(graph)


@pytest.mark.parametrize(("n", "k", "m"), [(10, 2, 12), (13, 3, 26), (22, 4, 77), (8, 3, 10)])
def test_colourable_graphs_are_properly_coloured_and_need_k_colours(n, k, m):
    for seed in SEEDS:
        graph, colors = g.random_colorable(random.Random(seed), n, k, m)
        assert sorted(set(colors)) == list(range(1, k + 1))
        assert all(colors[u] != colors[v] for u, v, _ in graph.edges)
        nxg = graph.to_networkx()
        assert nx.is_connected(nxg) and len(graph.edges) == m
        assert max(len(c) for c in nx.find_cliques(nxg)) >= k  # the planted clique: k colours are needed
        assert_simple(graph)


def test_graphs_with_and_without_cycles():
    for seed in SEEDS:
        forest = g.random_forest(random.Random(seed), 12, 8)
        assert nx.is_forest(forest.to_networkx()) and not g.has_cycle(forest)
        assert len(g.components(forest)) == 4
        cyclic = g.random_cyclic(random.Random(seed), 9, 12, directed=True)
        assert not nx.is_directed_acyclic_graph(cyclic.to_networkx()) and g.has_cycle(cyclic)
        assert len(cyclic.edges) == 12 and nx.is_weakly_connected(cyclic.to_networkx())
        assert_simple(cyclic)
        undirected = g.random_cyclic(random.Random(seed), 9, 9)
        assert nx.cycle_basis(undirected.to_networkx()) and g.has_cycle(undirected)


@pytest.mark.parametrize(("n", "m", "low", "high"), [(12, 16, 4, 5), (15, 25, 3, 3), (10, 9, 6, 8), (8, 28, 1, 1)])
def test_diameter_lands_in_the_requested_range(n, m, low, high):
    for seed in range(10):
        graph = g.random_with_diameter(random.Random(seed), n, m, low, high)
        nxg = graph.to_networkx()
        assert low <= nx.diameter(nxg) <= high and len(graph.edges) == m
        assert g.diameter(graph) == nx.diameter(nxg)


def test_generators_are_deterministic_and_data_is_json_native():
    for make in (lambda r: g.random_connected(r, 9, 14, True, (1, 20)), lambda r: g.random_dag(r, 8, 12)[0],
                 lambda r: g.random_planar(r, 9, 18, (3, 3)), lambda r: g.random_bipartite(r, 3, 5, 10)[0]):
        first, second = make(random.Random(42)), make(random.Random(42))
        assert first == second
        data = json.loads(json.dumps(first.to_data()))
        assert g.Graph.from_data(data) == first
        assert all(len(edge) == 3 and all(type(x) is int for x in edge) for edge in data["edges"])
    assert g.random_connected(random.Random(1), 9, 14) != g.random_connected(random.Random(2), 9, 14)


def test_render_is_canonical():
    graph = g.Graph(3, ((1, 2, 5), (0, 1, 4)))
    assert g.render(graph, ["A", "B", "C"]) == "A - B (weight 4)\nB - C (weight 5)"
    assert g.render(g.Graph(3, ((2, 0, 1),), True), weighted=False) == "2 -> 0"
    assert g.letter_labels(3) == ["A", "B", "C"] and len(set(g.letter_labels(60))) == 60


@pytest.mark.parametrize("directed", [False, True])
def test_dijkstra_and_bfs_match_networkx(directed):
    for seed in SEEDS:
        graph = g.random_connected(random.Random(seed), 14, 30, directed, weights=(1, 12))
        nxg = graph.to_networkx()
        source = seed % 14
        distance, parent = g.dijkstra(graph, source)
        expected = nx.single_source_dijkstra_path_length(nxg, source)
        assert {v: d for v, d in enumerate(distance) if d >= 0} == expected
        for target in expected:
            path = g.path_to(parent, source, target)
            assert path[0] == source and path[-1] == target
            assert sum(graph.weight(u, v) for u, v in zip(path, path[1:])) == expected[target]
        hops = nx.single_source_shortest_path_length(nxg, source)
        assert {v: d for v, d in enumerate(g.bfs_distances(graph, source)) if d >= 0} == hops
