"""Graph-reasoning envs (issue 12): ground truth against networkx, and the verifiers' trickiest cases.

The contract kit covers references, spellings, corruptions, hostile input and balance of the
answers; these tests check that what the generators claim is true (networkx agrees), that the
verifiers accept every valid answer when several are right, and reject near misses.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.graphs._greedy import dsatur
from palaestra.envs.graphs.common import read_edges, read_groups, read_nodes
from palaestra.kit import best_threshold_rule, surface_features

SEEDS = range(6)
LEVELS = range(5)


def _samples(env_id: str, seeds=SEEDS):
    task = make_source(env_id)
    return task, [task.sample(level, seed) for level in LEVELS for seed in seeds]


def _graph(n: int, edges, directed: bool = False) -> nx.Graph:
    graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((e[0], e[1], {"weight": e[2]} if len(e) > 2 else {}) for e in edges)
    return graph


def _problem(env_id: str, data: dict, answer: str = "") -> Problem:
    return Problem(env_id, 0, 0, "", answer, data, make_source(env_id).version)


# --- readers -------------------------------------------------------------------------------------------------


def test_readers_take_common_spellings_and_refuse_hedges_and_strangers():
    assert read_nodes("0 → 3 → 5", 6) == read_nodes("[0, 3, 5]", 6) == read_nodes("node 0, node 3 and node 5", 6)
    assert read_nodes("1. 4\n2. 0", 6) == [4, 0]
    assert read_nodes("0 3 or 5", 6) is None and read_nodes("0 3 6", 6) is None
    assert read_nodes("0 1 2. That is the path.", 6) is None and read_nodes("0 1 2.", 6) == [0, 1, 2]
    assert read_edges("(0, 1), (1, 2)", 3) == read_edges("0-1\n1-2", 3) == read_edges("[[0, 1], [1, 2]]", 3)
    assert read_edges("0-1, 1", 3) is None and read_edges("0-1, 1-5", 3) is None
    assert read_groups("Layer 0: 4\nLayer 1: 0, 2", 5) == [(0, [4]), (1, [0, 2])]
    assert read_groups("{0, 2}, {1}", 3) == read_groups("[[0, 2], [1]]", 3) == [(None, [0, 2]), (None, [1])]
    assert read_groups("{0, 2}, x", 3) is None


# --- ground truth against networkx ---------------------------------------------------------------------------


def test_components_scc_and_bridges_match_networkx():
    task, problems = _samples("graphs/components")
    for p in problems:
        truth = sorted(sorted(c) for c in nx.connected_components(_graph(p.data["n"], p.data["edges"])))
        assert task.verify(p, "\n".join(" ".join(map(str, c)) for c in truth)).correct
    _, problems = _samples("graphs/scc")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"], directed=True)
        assert sorted(sorted(c) for c in nx.strongly_connected_components(g)) == p.data["components"]
    task = make_source("graphs/bridges", target="bridges")
    for p in [task.sample(level, seed) for level in LEVELS for seed in SEEDS]:
        assert sorted(sorted(b) for b in nx.bridges(_graph(p.data["n"], p.data["edges"]))) == p.data["bridges"]


def test_optima_match_networkx():
    _, problems = _samples("graphs/mst")
    for p in problems:
        assert nx.minimum_spanning_tree(_graph(p.data["n"], p.data["edges"])).size(weight="weight") == p.data["weight"]
    _, problems = _samples("graphs/bipartite_matching")
    for p in problems:
        matching = nx.bipartite.maximum_matching(_graph(p.data["n"], p.data["edges"]), top_nodes=range(p.data["left"]))
        assert len(matching) // 2 == p.data["size"]
    _, problems = _samples("graphs/max_clique")
    for p in problems:
        assert max(len(c) for c in nx.find_cliques(_graph(p.data["n"], p.data["edges"]))) == p.data["size"]
    _, problems = _samples("graphs/dag_longest_path")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"], directed=True)
        assert nx.dag_longest_path_length(g) == p.data["weight"]
    _, problems = _samples("graphs/tree_diameter")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"])
        lengths = dict(nx.all_pairs_dijkstra_path_length(g))
        assert max(max(row.values()) for row in lengths.values()) == p.data["weight"]
    _, problems = _samples("graphs/min_cut")
    for p in problems:
        g = nx.DiGraph()
        g.add_edges_from((u, v, {"capacity": w}) for u, v, w in p.data["edges"])
        assert nx.maximum_flow_value(g, p.data["source"], p.data["sink"]) == p.data["flow"]


def test_articulation_points_match_networkx():
    task = make_source("graphs/bridges", target="articulation_points")  # graphs/articulation_points merged in
    for p in [task.sample(level, seed) for level in LEVELS for seed in SEEDS]:
        assert sorted(nx.articulation_points(_graph(p.data["n"], p.data["edges"]))) == p.data["cuts"]


def test_chromatic_number_is_exact_and_beyond_dsatur_from_level_2():
    task = make_source("graphs/chromatic_number")
    for level in LEVELS:
        for seed in range(3):
            p = task.sample(level, seed)
            n, edges, k = p.data["n"], p.data["edges"], p.data["chromatic"]
            g = _graph(n, edges)
            assert task.verify(p, p.answer).correct
            # no colouring with k - 1 colours: every assignment of k - 1 colours has a clash (small k, n)
            if level <= 1:
                fewer = itertools.product(range(k - 1), repeat=n)
                assert not any(all(c[u] != c[v] for u, v in edges) for c in fewer)
            assert g.number_of_nodes() == n
            if level >= 2:  # the textbook greedy colouring needs more colours than the minimum
                assert max(dsatur(n, edges)) > k


def test_chromatic_number_rejects_extra_colours_and_reads_pairs():
    task = make_source("graphs/chromatic_number")
    triangle = _problem("graphs/chromatic_number", {"n": 3, "edges": [[0, 1], [1, 2], [0, 2]], "chromatic": 3})
    assert task.verify(triangle, "node 0: colour 3\nnode 1: colour 1\nnode 2: colour 2").correct
    path = _problem("graphs/chromatic_number", {"n": 3, "edges": [[0, 1], [1, 2]], "chromatic": 2})
    assert task.verify(path, "0: 1, 1: 2, 2: 1").correct and not task.verify(path, "0: 1, 1: 2, 2: 3").correct
    assert not task.verify(path, "0: 1, 1: 2, 1: 1, 2: 1").parsed


def test_vertex_cover_is_minimum_by_brute_force():
    _, problems = _samples("graphs/vertex_cover", seeds=range(3))
    for p in problems[:6]:  # levels 0-1: brute force stays cheap
        n, edges = p.data["n"], p.data["edges"]
        covers = (set(c) for k in range(n + 1) for c in itertools.combinations(range(n), k))
        smallest = len(next(c for c in covers if all(u in c or v in c for u, v in edges)))
        assert smallest == p.data["size"]
    for p in problems[6:9]:  # level 2 (over 20 nodes): the rest of a largest independent set, by networkx
        n, edges = p.data["n"], p.data["edges"]
        independent = max(len(c) for c in nx.find_cliques(nx.complement(_graph(n, edges))))
        assert n - independent == p.data["size"]


def test_distances_layers_centre_and_counts_match_networkx():
    _, problems = _samples("graphs/bfs_layers")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"], p.data["directed"])
        lengths = nx.single_source_shortest_path_length(g, p.data["source"])
        assert [sorted(v for v, d in lengths.items() if d == k) for k in range(max(lengths.values()) + 1)] \
            == p.data["layers"]
    _, problems = _samples("graphs/center")
    for p in problems:
        assert sorted(nx.center(_graph(p.data["n"], p.data["edges"]))) == p.data["center"]
    _, problems = _samples("graphs/count_shortest_paths")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"])
        assert len(list(nx.all_shortest_paths(g, p.data["source"], p.data["target"]))) == p.data["count"]
    _, problems = _samples("graphs/lca")
    for p in problems:
        tree = nx.bfs_tree(_graph(p.data["n"], p.data["edges"]), p.data["root"])
        assert [nx.lowest_common_ancestor(tree, u, v) for u, v in p.data["queries"]] == p.data["answers"]


def test_centroid_minimises_the_largest_piece():
    _, problems = _samples("graphs/tree_centroid")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"])

        def largest_piece(v: int, g: nx.Graph = g) -> int:
            rest = g.copy()
            rest.remove_node(v)
            return max(len(c) for c in nx.connected_components(rest))

        pieces = {v: largest_piece(v) for v in g}
        assert sorted(v for v in g if pieces[v] == min(pieces.values())) == p.data["centroid"]


def test_decision_flags_match_networkx():
    _, problems = _samples("graphs/negative_cycle")
    for p in problems:
        assert nx.negative_edge_cycle(_graph(p.data["n"], p.data["edges"], directed=True)) == p.data["negative"]
    _, problems = _samples("graphs/isomorphism")
    for p in problems:
        first = nx.Graph([tuple(e) for e in p.data["first"]])
        second = nx.Graph([tuple(e) for e in p.data["second"]])
        assert nx.is_isomorphic(first, second) == p.data["isomorphic"]
        assert sorted(d for _, d in first.degree) == sorted(d for _, d in second.degree)
    _, problems = _samples("graphs/degree_sequence")
    for p in problems:
        assert nx.is_graphical(p.data["degrees"]) == p.data["graphical"]
    _, problems = _samples("graphs/bipartite")
    for p in problems:
        assert nx.is_bipartite(_graph(p.data["n"], p.data["edges"])) == p.data["bipartite"]
    _, problems = _samples("graphs/cycle")
    for p in problems:
        g = _graph(p.data["n"], p.data["edges"], p.data["directed"])
        has = not nx.is_directed_acyclic_graph(g) if p.data["directed"] else not nx.is_forest(g)
        assert has == p.data["cyclic"]
    _, problems = _samples("graphs/eulerian_path")
    for p in problems:
        assert nx.has_eulerian_path(_graph(p.data["n"], p.data["edges"]))


@pytest.mark.parametrize("env_id, flag", [("graphs/cycle", "cyclic"), ("graphs/bipartite", "bipartite"),
                                          ("graphs/negative_cycle", "negative"),
                                          ("graphs/degree_sequence", "graphical")])
def test_yes_no_kinds_are_balanced_and_not_told_by_surface_features(env_id, flag):
    task = make_source(env_id)
    for level in (0, 4):
        problems = [task.sample(level, 70_000 + seed) for seed in range(300)]
        kinds = [str(p.data[flag]) for p in problems]
        assert 0.4 <= kinds.count("True") / len(kinds) <= 0.6
        _, accuracy = best_threshold_rule([surface_features(p.prompt) for p in problems], kinds)
        assert accuracy <= 0.7


def test_cycle_kinds_share_node_and_edge_counts():
    task = make_source("graphs/cycle")
    for level in LEVELS:
        shapes = {(p.data["n"], len(p.data["edges"])) for p in (task.sample(level, s) for s in range(40))}
        assert len(shapes) == 1


# --- verifiers: every valid answer, no near miss --------------------------------------------------------------


def test_cycle_accepts_any_cycle_and_rejects_fakes():
    task = make_source("graphs/cycle")
    square = _problem("graphs/cycle", {"n": 4, "directed": False, "cyclic": True,
                                       "edges": [[0, 1], [1, 2], [2, 3], [0, 3], [0, 2]]})
    for answer in ("0 1 2", "2 3 0", "0 1 2 3 0", "3 -> 2 -> 1 -> 0"):
        assert task.verify(square, answer).correct, answer
    for answer in ("0 1", "0 1 3", "acyclic", "0 1 2 1"):
        assert not task.verify(square, answer).correct, answer
    forest = _problem("graphs/cycle", {"n": 3, "directed": False, "cyclic": False, "edges": [[0, 1], [1, 2]]})
    assert task.verify(forest, "The graph is acyclic. Order: 1 0 2").correct and not task.verify(forest, "0 1 2").correct
    # "acyclic" needs its proof: an order with at most one earlier neighbour per node (1 follows both 0 and 2)
    assert not task.verify(forest, "The graph is acyclic.").correct and not task.verify(forest, "acyclic: 0 2 1").correct


def test_bipartite_witnesses_are_checked_against_the_graph():
    task = make_source("graphs/bipartite")
    path = _problem("graphs/bipartite", {"n": 4, "edges": [[0, 1], [1, 2], [2, 3]], "bipartite": True})
    assert task.verify(path, "0 2\n1 3").correct and task.verify(path, "{1, 3}, {0, 2}").correct
    assert not task.verify(path, "0 1\n2 3").correct and not task.verify(path, "0 2").correct
    pentagon = _problem("graphs/bipartite", {"n": 5, "edges": [[0, 1], [1, 2], [2, 3], [3, 4], [0, 4]],
                                             "bipartite": False})
    assert task.verify(pentagon, "odd cycle: 2 3 4 0 1").correct
    assert not task.verify(pentagon, "odd cycle: 0 1 2 3").correct  # even and not closed by an edge
    assert not task.verify(pentagon, "0 2 4\n1 3").correct


def test_mst_accepts_every_minimum_tree_under_ties():
    task = make_source("graphs/mst")
    triangle = _problem("graphs/mst", {"n": 3, "edges": [[0, 1, 1], [0, 2, 1], [1, 2, 1]], "weight": 2})
    for answer in ("0-1, 0-2", "0-1, 1-2", "(2, 1), (2, 0)"):
        assert task.verify(triangle, answer).correct, answer
    assert not task.verify(triangle, "0-1, 0-1").correct and not task.verify(triangle, "0-1").correct


def test_min_cut_accepts_any_minimum_cut():
    task = make_source("graphs/min_cut")
    chain = _problem("graphs/min_cut", {"n": 3, "edges": [[0, 1, 2], [1, 2, 2]], "source": 0, "sink": 2, "flow": 2})
    assert task.verify(chain, "0").correct and task.verify(chain, "{0, 1}").correct
    assert not task.verify(chain, "0 1 2").correct and not task.verify(chain, "1").correct


def test_degree_sequence_checks_the_graph_not_the_reference():
    task = make_source("graphs/degree_sequence")
    square = _problem("graphs/degree_sequence", {"degrees": [2, 2, 2, 2], "graphical": True})
    assert task.verify(square, "0-1, 1-2, 2-3, 3-0").correct and task.verify(square, "0-2, 2-1, 1-3, 3-0").correct
    assert not task.verify(square, "0-1, 0-1, 2-3, 2-3").correct  # repeated edges
    assert not task.verify(square, "impossible").correct
    odd = _problem("graphs/degree_sequence", {"degrees": [3, 3, 1, 1], "graphical": False})
    assert task.verify(odd, "Impossible: 0 1").correct and not task.verify(odd, "0-1, 0-2, 1-3").correct
    # "impossible" needs its proof: nodes 0 and 1 want 6 but can get at most 2 + 1 + 1 = 4 (a lone node proves nothing)
    assert not task.verify(odd, "Impossible.").correct and not task.verify(odd, "impossible: 0").correct


def test_path_envs_accept_other_optimal_answers():
    task = make_source("graphs/hamiltonian_path")
    cycle = _problem("graphs/hamiltonian_path", {"n": 4, "edges": [[0, 1], [1, 2], [2, 3], [0, 3]]})
    assert all(task.verify(cycle, a).correct for a in ("0 1 2 3", "2 1 0 3", "3 2 1 0"))
    assert not task.verify(cycle, "0 2 1 3").correct
    euler = make_source("graphs/eulerian_path")
    bowtie = _problem("graphs/eulerian_path", {"n": 5, "edges": [[0, 1], [0, 2], [1, 2], [2, 3], [2, 4], [3, 4]]})
    assert euler.verify(bowtie, "2 0 1 2 3 4 2").correct and euler.verify(bowtie, "2 4 3 2 1 0 2").correct
    assert not euler.verify(bowtie, "2 0 1 2 3 4").correct
    topo = make_source("graphs/topological_sort")
    diamond = _problem("graphs/topological_sort", {"n": 4, "edges": [[0, 1], [0, 2], [1, 3], [2, 3]]})
    assert topo.verify(diamond, "0 1 2 3").correct and topo.verify(diamond, "0 2 1 3").correct
    assert not topo.verify(diamond, "1 0 2 3").correct


def test_set_answers_need_every_member():
    task = make_source("graphs/tree_centroid")
    path = _problem("graphs/tree_centroid", {"n": 4, "edges": [[0, 1], [1, 2], [2, 3]], "centroid": [1, 2]})
    assert task.verify(path, "2 and 1").correct
    verdict = task.verify(path, "1")
    assert not verdict.correct and "both" in verdict.feedback
    bridges = make_source("graphs/bridges")
    lollipop = _problem("graphs/bridges", {"n": 4, "edges": [[0, 1], [0, 2], [1, 2], [2, 3]], "bridges": [[2, 3]]})
    assert bridges.verify(lollipop, "(3, 2)").correct and not bridges.verify(lollipop, "2-3, 0-1").correct
    assert not bridges.verify(lollipop, "none").correct


def test_generators_never_use_the_global_random_state():
    state = random.getstate()
    for env_id in ("graphs/isomorphism", "graphs/eulerian_path", "graphs/min_cut"):
        make_source(env_id).sample(2, 5)
    assert random.getstate() == state


# --- red-team regressions ------------------------------------------------------------------------------------


def test_read_edges_takes_numbered_lines_and_one_outer_bracket():
    assert read_edges("1. 0-4\n2. 1-6", 7) == read_edges("[0-4, 1-6]", 7) == [(0, 4), (1, 6)]
    assert read_edges("{0-4; 1-6}", 7) == [(0, 4), (1, 6)]
    assert read_edges("[0, 1, 2]", 7) is None and read_edges("[0-4, 1-6] or [0-1]", 7) is None


def test_bipartite_reads_a_wrapped_odd_cycle_as_a_cycle():
    task = make_source("graphs/bipartite")
    problem = next(p for p in (task.sample(0, s) for s in range(40)) if not p.data["bipartite"])
    cycle = problem.answer
    for spelled in (f"\\boxed{{{cycle}}}", f"Final answer: {cycle}", f"**{cycle}**",
                    "**Odd cycle:** " + cycle.split(":")[1].strip()):
        assert task.verify(problem, spelled).correct, spelled
    nodes = cycle.split(":")[1].split()
    assert not task.verify(problem, f"\\boxed{{odd cycle: {' '.join(nodes[:-1])}}}").correct



def test_bipartite_reads_a_leading_yes_or_no_and_checks_it_against_the_proof():
    task = make_source("graphs/bipartite")
    problems = [task.sample(0, s) for s in range(40)]
    split = next(p for p in problems if p.data["bipartite"])
    odd = next(p for p in problems if not p.data["bipartite"])
    for spelled in (f"Yes.\n{split.answer}", f"Yes, it is bipartite.\n{split.answer}",
                    "{" + "}, {".join(line.replace(" ", ", ") for line in split.answer.split("\n")) + "}"):
        assert task.verify(split, spelled).correct, spelled
    for spelled in (f"No. {odd.answer}", f"No, it is not bipartite. {odd.answer}"):
        assert task.verify(odd, spelled).correct, spelled
    for contradiction in (f"No.\n{split.answer}", f"No, it is bipartite.\n{split.answer}"):
        assert not task.verify(split, contradiction).correct, contradiction
    assert not task.verify(odd, f"Yes. {odd.answer}").correct


@pytest.mark.parametrize("env_id", ["graphs/cycle", "graphs/negative_cycle", "graphs/degree_sequence"])
def test_a_leading_yes_before_the_witness_is_accepted(env_id):
    task = make_source(env_id)
    problem = next(p for p in (task.sample(level, s) for level in LEVELS for s in SEEDS)
                   if not p.answer.startswith(("acyclic", "none", "impossible")))
    assert task.verify(problem, "Yes: " + problem.answer).correct
    assert not task.verify(problem, "Yes: " + problem.answer + " or none").correct


def test_bfs_layers_example_has_the_answer_shape():
    task = make_source("graphs/bfs_layers")
    for level in LEVELS:
        for seed in range(20):
            problem = task.sample(level, seed)
            example = problem.prompt.rsplit("for example:\n", 1)[1].split("\n...")[0].split("\n")
            assert example[0] == str(problem.data["source"]) and len(set(" ".join(example).split())) == 6


def test_read_node_values_takes_numbered_lines_and_space_separated_pairs():
    from palaestra.envs.graphs.common import read_node_values

    assert read_node_values("1. 0: 3\n2. 1: 1\n3. 2: 2", 3) == read_node_values("0: 3 1: 1 2: 2", 3) \
        == {0: 3, 1: 1, 2: 2}
    assert read_node_values("0: 31: 1", 3) is None and read_node_values("0: 3 1: 1 or 2: 2", 3) is None


@pytest.mark.parametrize("env_id", ["graphs/cycle", "graphs/negative_cycle", "graphs/bipartite"])
def test_fixed_looking_examples_are_never_right_answers(env_id):
    task = make_source(env_id)
    for level in LEVELS:
        for seed in range(40):
            problem = task.sample(level, seed)
            example = problem.prompt.rsplit("for example: ", 1)[1]
            example = example.split(",")[0].split(" (")[0].split(" ...")[0].strip()
            assert example and not task.verify(problem, example).correct, (level, seed, example)


def test_readers_take_bulleted_lines_and_a_short_leading_label():
    assert read_nodes("Vertex cover: 0, 3", 5) == read_nodes("- 0\n- 3", 5) == read_nodes("S = 0 3", 5) == [0, 3]
    assert read_edges("Edges: 0-1, 1-2", 3) == read_edges("* 0-1\n* 1-2", 3) == [(0, 1), (1, 2)]
    assert read_nodes("- 0\n3", 5) is None and read_nodes("Vertex cover: 0 or 3", 5) is None
    task = make_source("graphs/vertex_cover")
    problem = task.sample(1, 1)
    assert task.verify(problem, "Minimum vertex cover: " + problem.answer).correct


def test_isomorphism_yes_needs_a_renaming_and_any_valid_one_is_accepted():
    """v2 took a bare yes or no on balanced problems (a coin paid half). v3: a yes is a renaming, checked
    edge by edge (any isomorphism, not only the one drawn); a bare yes scores 0; no answers a quarter."""
    task = make_source("graphs/isomorphism")
    problems = [task.sample(level, seed) for level in (0, 4) for seed in range(40)]
    assert 0.1 <= sum(p.answer == "no" for p in problems) / len(problems) <= 0.4
    for p in problems:
        assert not task.verify(p, "yes").correct
        if p.answer == "no":
            continue
        first = nx.Graph([tuple(e) for e in p.data["first"]])
        second = nx.Graph([tuple(e) for e in p.data["second"]])
        for mapping in itertools.islice(nx.algorithms.isomorphism.GraphMatcher(second, first).isomorphisms_iter(), 3):
            answer = ", ".join(f"{letter} = {node}" for letter, node in sorted(mapping.items()))
            assert task.verify(p, answer).correct, answer
        assert not task.verify(p, p.answer + " or no").correct and not task.verify(p, "no. " + p.answer).correct
