"""Red-team regressions (round 3, session 25, algorithms/graphs/planning/spatial): cheap structural rules
that named the answer without solving.

- graphs/min_cut v1 redrew networks where the plain cut around the source or the sink was minimal, but
  not their pruned forms (leave out edges that carry no flow): the cheaper of "the source plus every node
  that cannot reach the sink" and "every node the source reaches but the sink" was a minimum cut in 0.45
  of level 0 and 0.20 of level 4.
- graphs/tree_centroid v3: the tree's centre (the middle of a longest path), the notion a policy confuses
  with the centroid, named the centroid of 0.37 of levels 0 and 2.
- graphs/lca v3: the highest-degree node on the path between the two query nodes, a rule that never
  looks at the root, answered every query of 0.50 of level 0 and 0.18 of level 2.
- graphs/center v3: two breadth-first sweeps (from node 0 to the farthest node, from there to the farthest)
  and the middle of the path between their ends, exact only on trees, named the centre of 0.47 of level 0
  and 0.75 of level 4; all the middle nodes of shortest paths between the two ends, 0.63 and 0.74.
- algorithms/merge_intervals v1: the misreadings "touching intervals stay apart" and "intervals one
  apart merge" were right on 0.63 and 0.73 of level 0, 0.27 and 0.42 of level 4.
- algorithms/interval_scheduling v1: earliest finish first with touching activities counted as
  overlapping chose a maximum set in 0.65 of level 0 and 0.23 of level 4.
- spatial/cube_net_folding: the three opposite pairs written as bracketed pairs, "(G, K), (J, W), (N, Q)"
  or "{G, K}, {J, W}, {N, Q}", were unreadable (a right answer scored 0); grading only.
- algorithms/josephus: "Badge #108" and the naming sentence "The last person left is badge 108." were
  unreadable (a right answer scored 0); grading only.

Each policy is written here from scratch (not imported from the fixed code), so the tests fail on the old
generators.
"""

from __future__ import annotations

import pytest

import palaestra
from palaestra.kit.base import sample

SEEDS = range(20)


def _paid(env_id: str, level: int, policy) -> int:
    return sum(
        palaestra.score(p, f"<answer>{policy(p)}</answer>").correct
        for p in (sample(env_id, level, seed) for seed in SEEDS)
    )


def _closure(start: int, steps: dict[int, list[int]]) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        for v in steps.get(stack.pop(), []):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def _cheaper_pruned_cut(p) -> str:
    data = p.data
    n, s, t, edges = data["n"], data["source"], data["sink"], data["edges"]
    forward: dict[int, list[int]] = {}
    backward: dict[int, list[int]] = {}
    for u, v, _ in edges:
        forward.setdefault(u, []).append(v)
        backward.setdefault(v, []).append(u)
    around_source = {s} | (set(range(n)) - _closure(t, backward))
    around_sink = _closure(s, forward) - {t}

    def capacity(side: set[int]) -> int:
        return sum(w for u, v, w in edges if u in side and v not in side)

    return " ".join(map(str, sorted(min((around_source, around_sink), key=capacity))))


@pytest.mark.parametrize("level", [0, 4])
def test_min_cut_is_not_a_pruned_cut_around_source_or_sink(level):
    assert _paid("graphs/min_cut", level, _cheaper_pruned_cut) == 0


def _adjacency(n: int, edges) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        out[u].append(v)
        out[v].append(u)
    return out


def _bfs_parents(out: list[list[int]], start: int) -> tuple[list[int], list[int]]:
    parent, order = {start: start}, [start]
    for u in order:
        for v in out[u]:
            if v not in parent:
                parent[v] = u
                order.append(v)
    return [parent[v] for v in range(len(out))], order


def _tree_centre(p) -> str:
    out = _adjacency(p.data["n"], p.data["edges"])
    _, order = _bfs_parents(out, 0)
    parent, order = _bfs_parents(out, order[-1])
    path = [order[-1]]
    while parent[path[-1]] != path[-1]:
        path.append(parent[path[-1]])
    half = len(path) // 2
    middle = path[half - 1 : half + 1] if len(path) % 2 == 0 else [path[half]]
    return " ".join(map(str, sorted(middle)))


@pytest.mark.parametrize("level", [0, 2])
def test_tree_centroid_is_not_the_tree_centre(level):
    assert _paid("graphs/tree_centroid", level, _tree_centre) <= 1


def _busiest_on_query_paths(p) -> str:
    n, edges = p.data["n"], p.data["edges"]
    out = _adjacency(n, edges)
    guesses = []
    for u, v in p.data["queries"]:
        parent, _ = _bfs_parents(out, u)
        path = [v]
        while path[-1] != u:
            path.append(parent[path[-1]])
        guesses.append(max(path, key=lambda x: (len(out[x]), -x)))
    return ", ".join(map(str, guesses))


@pytest.mark.parametrize("level", [0, 2])
def test_lca_is_not_the_busiest_node_on_each_path(level):
    assert _paid("graphs/lca", level, _busiest_on_query_paths) == 0


def _sweep_ends(out: list[list[int]]) -> tuple[list[int], list[int], int, int]:
    first, order = _bfs_parents(out, 0)
    a = order[-1]
    parent, order = _bfs_parents(out, a)
    return first, parent, a, order[-1]


def _depths(parent: list[int], v: int) -> int:
    depth = 0
    while parent[v] != v:
        v, depth = parent[v], depth + 1
    return depth


def _sweep_middle(p) -> str:
    out = _adjacency(p.data["n"], p.data["edges"])
    _, parent, a, b = _sweep_ends(out)
    path = [b]
    while path[-1] != a:
        path.append(parent[path[-1]])
    half = len(path) // 2
    return " ".join(map(str, sorted(path[half - 1 : half + 1] if len(path) % 2 == 0 else [path[half]])))


def _sweep_middle_nodes(p) -> str:
    n = p.data["n"]
    out = _adjacency(n, p.data["edges"])
    _, from_a, a, b = _sweep_ends(out)
    from_b, _ = _bfs_parents(out, b)
    da, db = [_depths(from_a, v) for v in range(n)], [_depths(from_b, v) for v in range(n)]
    far = da[b]
    middle = [v for v in range(n) if da[v] + db[v] == far and da[v] in (far // 2, far - far // 2)]
    return " ".join(map(str, middle))


@pytest.mark.parametrize("level", [0, 4])
def test_center_is_not_the_middle_of_two_sweeps(level):
    assert _paid("graphs/center", level, _sweep_middle) <= 2
    assert _paid("graphs/center", level, _sweep_middle_nodes) <= 2


def _merged(p, reach: int) -> str:
    out: list[list[int]] = []
    for a, b in sorted(p.data["intervals"]):
        if out and a <= out[-1][1] + reach:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return ", ".join(f"[{a}, {b}]" for a, b in out)


@pytest.mark.parametrize("level", [0, 4])
def test_merge_intervals_misreadings_of_touching_earn_nothing(level):
    assert _paid("algorithms/merge_intervals", level, lambda p: _merged(p, -1)) == 0
    assert _paid("algorithms/merge_intervals", level, lambda p: _merged(p, 1)) == 0


def _finish_first_touching_apart(p) -> str:
    spans, names = p.data["spans"], p.data["names"]
    chosen: list[int] = []
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][1], spans[i][0])):
        if all(spans[i][1] < spans[j][0] or spans[j][1] < spans[i][0] for j in chosen):
            chosen.append(i)
    return ", ".join(names[i] for i in chosen)


@pytest.mark.parametrize("level", [0, 2])
def test_interval_scheduling_touching_as_overlap_earns_nothing(level):
    assert _paid("algorithms/interval_scheduling", level, _finish_first_touching_apart) == 0


def test_policies_answer_some_problems_right():
    """The rules are real rules: each answers a problem it should (a sanity check on the policies)."""
    from palaestra.core import Problem

    path = Problem(prompt="", answer=None, data={"n": 5, "edges": [[0, 1], [1, 2], [2, 3], [3, 4]]})
    assert _tree_centre(path) == "2"
    assert _sweep_middle(path) == _sweep_middle_nodes(path) == "2"
    star = {"n": 5, "edges": [[0, 1], [0, 2], [0, 3], [3, 4]], "root": 4, "queries": [[1, 2]]}
    assert _busiest_on_query_paths(Problem(prompt="", answer=None, data=star)) == "0"
    touching = Problem(prompt="", answer=None, data={"intervals": [[3, 5], [1, 3], [6, 8]]})
    assert (_merged(touching, 0), _merged(touching, -1), _merged(touching, 1)) == (
        "[1, 5], [6, 8]",
        "[1, 3], [3, 5], [6, 8]",
        "[1, 8]",
    )
    network = {"n": 4, "source": 0, "sink": 3, "edges": [[0, 1, 5], [0, 2, 1], [1, 3, 1], [2, 3, 5]]}
    assert _cheaper_pruned_cut(Problem(prompt="", answer=None, data=network)) in ("0", "0 1 2")


def test_cube_net_folding_reads_bracketed_pairs():
    problem = sample("spatial/cube_net_folding", 4, 0)
    pairs = [pair.split("-") for pair in problem.answer.split(", ")]
    right = [", ".join(f"({a}, {b})" for a, b in pairs), "; ".join("{" + f"{b}, {a}" + "}" for a, b in pairs)]
    for reply in right:
        assert palaestra.score(problem, f"<answer>{reply}</answer>").correct, reply
    (a, b), (c, d), _ = pairs
    for wrong in [
        f"({a}, {c}), ({b}, {d}), ({pairs[2][0]}, {pairs[2][1]})",
        right[0] + f" or ({a}, {c})",
        ", ".join(f"({x}, {y})" for x, y in pairs[:2]),
    ]:
        assert not palaestra.score(problem, f"<answer>{wrong}</answer>").correct, wrong


def test_josephus_reads_badge_hash_and_naming_sentences():
    problem = sample("algorithms/josephus", 2, 0)
    gold = problem.answer
    for reply in (f"Badge #{gold}", f"The last person left is badge {gold}.", f"Survivor: {gold}"):
        assert palaestra.score(problem, f"<answer>{reply}</answer>").correct, reply
    other = next(b for b in problem.data["badges"] if str(b) != gold)
    for reply in (f"The last person is badge {gold} or {other}", f"person {other} is badge {gold}"):
        assert not palaestra.score(problem, f"<answer>{reply}</answer>").correct, reply
