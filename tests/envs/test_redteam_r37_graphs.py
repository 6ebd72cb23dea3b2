"""Red-team regressions (round 3, session 37): graph and algorithm envs paid solvers that ignore one clause, or
a textbook greedy rule.

- graphs/tree_diameter: growing the heaviest edge greedily at both ends found a longest path in 0.80, 0.57, 0.47
  of levels 0-2 (the best grow over all edges 1.00, 0.70, 0.50, 0.20, 0.30 of levels 0-4); now 0.00 everywhere.
- graphs/lca: rooting the tree at node 0 instead of the stated root answered every query in 0.37, 0.37, 0.40,
  0.37, 0.20 of levels 0-4 (at the centre 0.30-0.03, at the first query's node 0.27-0.03); now 0.00.
- graphs/min_cut: a minimum cut of the network with the edge directions ignored was minimal in 0.23, 0.13,
  0.03, 0.17, 0.10 of levels 0-4; now 0.00.
- graphs/shortest_path: Dijkstra with the arrows ignored answered 0.17 and 0.07 of the directed levels 3 and 4;
  now 0.00.
- graphs/bipartite_matching: level 0 was not redrawn against the rules: fewest options first (to the least
  busy task) matched maximally 0.97 of it, edges in sorted order 0.50; now 0.00 (0.04 for a static variant).
- algorithms/lis: a longest non-decreasing subsequence (ignoring "strictly") was accepted on 0.70, 0.73, 0.67,
  0.60, 0.63 of levels 0-4; now 0.00 (it is always longer than the optimum).
- algorithms/infix_to_postfix: ignoring precedence (every operator left to right) was right on 0.87/0.67 of
  levels 0/1, grouping equal-precedence operators right to left on 0.63, 0.30, 0.63, 0.50, 0.27 of levels 0-4;
  now 0.00.
- algorithms/interval_scheduling: shortest first was optimal on 0.93/0.83 of levels 0/1, earliest start first
  on 0.70 of level 0; now 0.00.
- algorithms/deadline_scheduling: level 0 was not redrawn: by profit 0.90, by profit rate 0.77, by earliest
  deadline 0.50; now 0.00.
- algorithms/partition: largest first into the lighter group (``impossible`` when it ends unequal) was right
  on 0.83/0.57 of levels 0/1; now only the ``impossible`` share (about 0.2).
- algorithms/edit_distance: an alignment without substitutions (gaps around a longest common subsequence)
  was optimal on 0.10, 0.33, 0.17, 0.07, 0.10 of levels 0-4; now 0.00.
- algorithms/tsp: nearest neighbour from the best start city was optimal on 0.83/0.60 of levels 0/1; now 0.00.

Each policy is written here from scratch (not imported from the env), so these tests fail on the old generators.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import pytest

from palaestra.core import Problem
from palaestra.kit.base import make_source, sample

SEEDS = range(900, 925)


def _solved(env_id: str, level: int, policy: Callable[[Problem], str], seeds: range = SEEDS) -> int:
    task = make_source(env_id)
    return sum(task.verify(p, policy(p)).correct for p in (sample(env_id, level, seed) for seed in seeds))


def _neighbours(n: int, edges: list[list[int]], directed: bool = False) -> list[dict[int, int]]:
    out: list[dict[int, int]] = [{} for _ in range(n)]
    for u, v, *rest in edges:
        w = rest[0] if rest else 1
        out[u][v] = min(w, out[u].get(v, w))
        if not directed:
            out[v][u] = min(w, out[v].get(u, w))
    return out


# graphs/tree_diameter


def _grow(out: list[dict[int, int]], u: int, v: int, w: int) -> tuple[int, list[int]]:
    """The edge u-v extended at both ends along the heaviest edge onward (the largest node on ties) until a leaf."""
    path, weight = [u, v], w
    for front in (True, False):
        while True:
            end, behind = (path[-1], path[-2]) if front else (path[0], path[1])
            steps = [(x_w, x) for x, x_w in out[end].items() if x != behind]
            if not steps:
                break
            step_w, step = max(steps)
            weight += step_w
            if front:
                path.append(step)
            else:
                path.insert(0, step)
    return weight, path


def _best_grow(problem: Problem) -> str:
    out = _neighbours(problem.data["n"], problem.data["edges"])
    return " ".join(map(str, max(_grow(out, *edge) for edge in problem.data["edges"])[1]))


def _heaviest_edge_grow(problem: Problem) -> str:
    edges = problem.data["edges"]
    heaviest = max(edges, key=lambda edge: edge[2])
    return " ".join(map(str, _grow(_neighbours(problem.data["n"], edges), *heaviest)[1]))


@pytest.mark.parametrize("level", [0, 1, 2, 4])
def test_tree_diameter_is_not_a_greedy_grow(level):
    # was 1.00, 0.70, 0.50, 0.30 of levels 0, 1, 2, 4 (best grow) and 0.80, 0.57, 0.47 (heaviest edge grow)
    assert _solved("graphs/tree_diameter", level, _best_grow) <= 1
    assert _solved("graphs/tree_diameter", level, _heaviest_edge_grow) <= 1


# graphs/lca


def _lca_rooted_at(root_of: Callable[[Problem], int]) -> Callable[[Problem], str]:
    def policy(problem: Problem) -> str:
        data = problem.data
        out = _neighbours(data["n"], data["edges"])
        root = root_of(problem)
        parent, depth, order = {root: root}, {root: 0}, [root]
        for u in order:
            for v in out[u]:
                if v not in parent:
                    parent[v], depth[v] = u, depth[u] + 1
                    order.append(v)
        answers = []
        for a, b in data["queries"]:
            while depth[a] > depth[b]:
                a = parent[a]
            while depth[b] > depth[a]:
                b = parent[b]
            while a != b:
                a, b = parent[a], parent[b]
            answers.append(a)
        return ", ".join(map(str, answers))

    return policy


def _centre(problem: Problem) -> int:
    data = problem.data
    out = _neighbours(data["n"], data["edges"])

    def eccentricity(s: int) -> int:
        seen, layer, far = {s}, [s], 0
        while layer:
            layer = [v for u in layer for v in out[u] if v not in seen and not seen.add(v)]  # type: ignore[func-returns-value]
            far += bool(layer)
        return far

    return min(range(data["n"]), key=eccentricity)


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_lca_ignoring_the_root_fails(level):
    # rooted at node 0: was 0.37, 0.37, 0.40, 0.37, 0.20 of levels 0-4; at the centre 0.30, 0.23, 0.33, 0.27, 0.03
    assert _solved("graphs/lca", level, _lca_rooted_at(lambda p: 0)) <= 1
    assert _solved("graphs/lca", level, _lca_rooted_at(_centre)) <= 1
    assert _solved("graphs/lca", level, _lca_rooted_at(lambda p: p.data["queries"][0][0])) <= 1


@pytest.mark.parametrize("level", [0, 2, 4])
def test_lca_with_the_stated_root_solves(level):
    assert _solved("graphs/lca", level, _lca_rooted_at(lambda p: p.data["root"])) == len(SEEDS)


# graphs/min_cut


def _max_flow_side(n: int, edges: list[list[int]], source: int, sink: int) -> set[int]:
    """The source side nearest the source of a minimum cut (nodes reachable in the final residual network)."""
    residual = [[0] * n for _ in range(n)]
    for u, v, w in edges:
        residual[u][v] += w
    while True:
        parent = {source: source}
        queue = [source]
        for u in queue:
            for v in range(n):
                if residual[u][v] > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return set(parent)
        path, v = [], sink
        while v != source:
            path.append((parent[v], v))
            v = parent[v]
        pushed = min(residual[a][b] for a, b in path)
        for a, b in path:
            residual[a][b] -= pushed
            residual[b][a] += pushed


def _undirected_cut(problem: Problem) -> str:
    data = problem.data
    both = [*data["edges"], *([v, u, w] for u, v, w in data["edges"])]
    return " ".join(map(str, sorted(_max_flow_side(data["n"], both, data["source"], data["sink"]))))


def _directed_cut(problem: Problem) -> str:
    data = problem.data
    return " ".join(map(str, sorted(_max_flow_side(data["n"], data["edges"], data["source"], data["sink"]))))


@pytest.mark.parametrize("level", [0, 1, 3, 4])
def test_min_cut_ignoring_directions_fails(level):
    # was 0.23, 0.13, 0.17, 0.10 of levels 0, 1, 3, 4
    assert _solved("graphs/min_cut", level, _undirected_cut) == 0
    assert _solved("graphs/min_cut", level, _directed_cut) == len(SEEDS)


# graphs/shortest_path


def _dijkstra_path(problem: Problem, directed: bool) -> str:
    data = problem.data
    out = _neighbours(len(data["labels"]), data["edges"], directed)
    source, target = data["source"], data["target"]
    best, parent, heap = {source: 0}, {source: source}, [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > best[u]:
            continue
        for v, w in out[u].items():
            if d + w < best.get(v, d + w + 1):
                best[v], parent[v] = d + w, u
                heapq.heappush(heap, (d + w, v))
    path = [target]
    while path[-1] != source:
        path.append(parent[path[-1]])
    return " ".join(data["labels"][v] for v in reversed(path))


@pytest.mark.parametrize("level", [3, 4, 5])
def test_shortest_path_ignoring_the_arrows_fails(level):
    # was 0.17 and 0.07 of levels 3 and 4
    assert _solved("graphs/shortest_path", level, lambda p: _dijkstra_path(p, directed=False)) == 0
    assert _solved("graphs/shortest_path", level, lambda p: _dijkstra_path(p, directed=True)) == len(SEEDS)


# algorithms/lis


def _non_decreasing(problem: Problem) -> str:
    values = problem.data["sequence"]
    best = [[v] for v in values]
    for i, v in enumerate(values):
        for j in range(i):
            if values[j] <= v and len(best[j]) + 1 > len(best[i]):
                best[i] = [*best[j], v]
    return ", ".join(map(str, max(best, key=len)))


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_lis_is_strictly_increasing(level):
    # ignoring "strictly" was accepted on 0.70, 0.73, 0.67, 0.60, 0.63 of levels 0-4
    assert _solved("algorithms/lis", level, _non_decreasing) == 0


# algorithms/infix_to_postfix


def _shunting_yard(problem: Problem, ranks: dict[str, int], ties_left: bool) -> str:
    output: list[str] = []
    stack: list[str] = []
    for token in problem.data["infix"].replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            stack.append(token)
        elif token == ")":
            while stack[-1] != "(":
                output.append(stack.pop())
            stack.pop()
        elif token in ranks:
            while stack and stack[-1] != "(" and (
                ranks[stack[-1]] > ranks[token] or ranks[stack[-1]] == ranks[token] and ties_left and token != "^"
            ):
                output.append(stack.pop())
            stack.append(token)
        else:
            output.append(token)
    return " ".join(output + stack[::-1])


RANKS = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_infix_to_postfix_needs_precedence_and_left_grouping(level):
    # no precedence: 0.87/0.67 of levels 0/1; ties grouped to the right: 0.63, 0.30, 0.63, 0.50, 0.27 of levels 0-4
    flat = dict.fromkeys(RANKS, 1)
    assert _solved("algorithms/infix_to_postfix", level, lambda p: _shunting_yard(p, flat, True)) == 0
    assert _solved("algorithms/infix_to_postfix", level, lambda p: _shunting_yard(p, RANKS, False)) == 0
    assert _solved("algorithms/infix_to_postfix", level, lambda p: _shunting_yard(p, RANKS, True)) == len(SEEDS)


# algorithms/interval_scheduling


def _interval_greedy(problem: Problem, key: Callable[[list[int]], object]) -> str:
    data = problem.data
    kept: list[list[int]] = []
    names = []
    for name, span in sorted(zip(data["names"], data["spans"]), key=lambda item: key(item[1])):
        if all(span[1] <= s or e <= span[0] for s, e in kept):
            kept.append(span)
            names.append(name)
    return ", ".join(names)


@pytest.mark.parametrize("level", [0, 1])
def test_interval_scheduling_low_levels_beat_naive_greedy(level):
    # shortest first was optimal on 0.93/0.83 of levels 0/1, earliest start first on 0.70 of level 0
    assert _solved("algorithms/interval_scheduling", level, lambda p: _interval_greedy(p, lambda s: s[1] - s[0])) <= 1
    assert _solved("algorithms/interval_scheduling", level, lambda p: _interval_greedy(p, lambda s: s[0])) <= 1
    assert _solved("algorithms/interval_scheduling", level, lambda p: _interval_greedy(p, lambda s: s[1])) == len(SEEDS)


# algorithms/deadline_scheduling


def _by_profit(problem: Problem) -> str:
    data = problem.data
    chosen: list[int] = []
    for i in sorted(range(len(data["jobs"])), key=lambda i: -data["jobs"][i][2]):
        trial = sorted([*chosen, i], key=lambda j: data["jobs"][j][1])
        finish, on_time = 0, True
        for j in trial:
            finish += data["jobs"][j][0]
            on_time = on_time and finish <= data["jobs"][j][1]
        if on_time:
            chosen = trial
    return " ".join(data["names"][i] for i in chosen)


def test_deadline_scheduling_level_0_beats_profit_greedy():
    # was 0.90 of level 0
    assert _solved("algorithms/deadline_scheduling", 0, _by_profit) == 0


# algorithms/partition


def _largest_first(problem: Problem) -> str:
    groups: tuple[list[int], list[int]] = ([], [])
    for x in sorted(problem.data["numbers"], reverse=True):
        min(groups, key=sum).append(x)
    return ", ".join(map(str, groups[0])) if sum(groups[0]) == sum(groups[1]) else "impossible"


@pytest.mark.parametrize("level", [0, 1])
def test_partition_low_levels_beat_the_greedy(level):
    # was 0.83/0.57 of levels 0/1; now it is right only where there is no split
    impossible = sum(not sample("algorithms/partition", level, seed).data["possible"] for seed in SEEDS)
    assert _solved("algorithms/partition", level, _largest_first) == impossible


# algorithms/tsp


def _nearest_best_start(problem: Problem) -> str:
    distance = problem.data["distance"]
    n = len(distance)
    tours = []
    for start in range(n):
        tour = [start]
        while len(tour) < n:
            tour.append(min((c for c in range(n) if c not in tour), key=lambda c: distance[tour[-1]][c]))
        tours.append((sum(distance[a][b] for a, b in zip(tour, tour[1:] + tour[:1])), tour))
    return " ".join(problem.data["names"][i] for i in min(tours)[1])


@pytest.mark.parametrize("level", [0, 1])
def test_tsp_low_levels_beat_nearest_neighbour(level):
    # was 0.83/0.60 of levels 0/1
    assert _solved("algorithms/tsp", level, _nearest_best_start) <= 1


# graphs/bipartite_matching


def _fewest_options_first(problem: Problem) -> str:
    data = problem.data
    out = _neighbours(data["n"], data["edges"])
    taken: set[int] = set()
    pairs = []
    for worker in sorted(range(data["left"]), key=lambda w: (len(out[w]), w)):
        free = sorted((t for t in out[worker] if t not in taken), key=lambda t: (len(out[t]), t))
        if free:
            taken.add(free[0])
            pairs.append(f"{worker}-{free[0]}")
    return ", ".join(pairs)


def test_bipartite_matching_level_0_beats_the_greedy_rules():
    # was 22 of these 25 (0.97 of level 0 over 30 seeds); this static variant of the env's rule still finds 1
    assert _solved("graphs/bipartite_matching", 0, _fewest_options_first) <= 2


# algorithms/edit_distance


def _gaps_only(problem: Problem) -> str:
    first, second = problem.data["first"], problem.data["second"]
    n, m = len(first), len(second)
    common = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            common[i][j] = common[i + 1][j + 1] + 1 if first[i] == second[j] else max(common[i + 1][j], common[i][j + 1])
    i = j = 0
    top = bottom = ""
    while i < n or j < m:
        if i < n and j < m and first[i] == second[j]:
            top, bottom, i, j = top + first[i], bottom + second[j], i + 1, j + 1
        elif j < m and (i == n or common[i][j + 1] >= common[i + 1][j]):
            top, bottom, j = top + "-", bottom + second[j], j + 1
        else:
            top, bottom, i = top + first[i], bottom + "-", i + 1
    return f"{top}\n{bottom}"


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_edit_distance_needs_substitutions(level):
    # was 0.10, 0.33, 0.17, 0.07, 0.10 of levels 0-4
    assert _solved("algorithms/edit_distance", level, _gaps_only) == 0
