"""Red-team regressions (round 3, session 19) for graphs and algorithms: a textbook heuristic that differs from
the declared one only in a tie-break, or is its equally common sibling, must not solve the hard levels.

The generators redrew against one deterministic heuristic each, so its twin with ties broken the other way
(or the other textbook construction) still solved about half the top level or more. Each policy is written
here from scratch (not imported from the fixed code), so these tests fail on the old generators.
"""

from __future__ import annotations

import pytest

import palaestra
from palaestra.core import Problem
from palaestra.kit.base import sample

SEEDS = range(900, 912)


def _paid(env_id: str, level: int, policy) -> int:
    return sum(
        palaestra.score(p, f"<answer>{policy(p)}</answer>").correct
        for p in (sample(env_id, level, seed) for seed in SEEDS)
    )


def _joined(n: int, edges) -> list[set[int]]:
    out: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        out[u].add(v)
        out[v].add(u)
    return out


def _colouring_text(colours: list[int]) -> str:
    return ", ".join(f"{v}: {c}" for v, c in enumerate(colours))


def _dsatur_high(n: int, edges) -> list[int]:
    """DSATUR (most distinct neighbour colours, then degree) with ties to the larger node id."""
    joined = _joined(n, edges)
    colours, seen, left = [0] * n, [set() for _ in range(n)], set(range(n))
    while left:
        node = max(left, key=lambda v: (len(seen[v]), len(joined[v]), v))
        left.remove(node)
        colours[node] = next(c for c in range(1, n + 2) if c not in seen[node])
        for u in joined[node]:
            seen[u].add(colours[node])
    return colours


def _smallest_last(n: int, edges) -> list[int]:
    joined = _joined(n, edges)
    degree, left, order = [len(j) for j in joined], set(range(n)), []
    while left:
        node = min(left, key=lambda v: (degree[v], v))
        left.remove(node)
        order.append(node)
        for u in joined[node] & left:
            degree[u] -= 1
    colours = [0] * n
    for node in reversed(order):
        used = {colours[u] for u in joined[node]}
        colours[node] = next(c for c in range(1, n + 2) if c not in used)
    return colours


@pytest.mark.parametrize("level", [2, 4])
def test_chromatic_number_is_not_dsatur_with_other_ties_or_smallest_last(level):
    nodes = lambda p: p.data["n"]  # noqa: E731
    assert (
        _paid("graphs/chromatic_number", level, lambda p: _colouring_text(_dsatur_high(nodes(p), p.data["edges"]))) == 0
    )
    assert (
        _paid("graphs/chromatic_number", level, lambda p: _colouring_text(_smallest_last(nodes(p), p.data["edges"])))
        == 0
    )


@pytest.mark.parametrize("level", [2, 4])
def test_coloring_is_not_dsatur_with_other_ties_or_smallest_last(level):
    nodes = lambda p: p.data["nodes"]  # noqa: E731
    assert _paid("graphs/coloring", level, lambda p: _colouring_text(_dsatur_high(nodes(p), p.data["edges"]))) == 0
    assert _paid("graphs/coloring", level, lambda p: _colouring_text(_smallest_last(nodes(p), p.data["edges"]))) == 0


def _warnsdorff_high(problem: Problem) -> str:
    """Warnsdorff's rule from every start, ties to the larger id (v2 redrew against ties to the smaller)."""
    n = problem.data["n"]
    joined = _joined(n, problem.data["edges"])
    best: list[int] = []
    for start in sorted(range(n), key=lambda v: (len(joined[v]), -v)):
        path, seen = [start], {start}
        while options := [v for v in joined[path[-1]] if v not in seen]:
            path.append(min(options, key=lambda v: (len(joined[v] - seen), -v)))
            seen.add(path[-1])
        if len(path) > len(best):
            best = path
    return " ".join(map(str, best))


@pytest.mark.parametrize("level", [2, 4])
def test_hamiltonian_path_is_not_warnsdorff_with_other_ties(level):
    assert _paid("graphs/hamiltonian_path", level, _warnsdorff_high) == 0


def _independent_set_complement(problem: Problem) -> str:
    """Keep a node of fewest remaining neighbours out of the cover, put its neighbours in; repeat."""
    n = problem.data["n"]
    joined = _joined(n, problem.data["edges"])
    left, independent = set(range(n)), set()
    while left:
        node = min(left, key=lambda v: (len(joined[v] & left), v))
        independent.add(node)
        left -= joined[node] | {node}
    return " ".join(str(v) for v in range(n) if v not in independent)


@pytest.mark.parametrize("level", [2, 4])
def test_vertex_cover_is_not_the_rest_of_a_greedy_independent_set(level):
    assert _paid("graphs/vertex_cover", level, _independent_set_complement) == 0


def _farthest_insertion(problem: Problem) -> str:
    d = problem.data["distance"]
    n = len(d)
    tour = [0, max(range(n), key=lambda c: d[0][c])]
    while len(tour) < n:
        city = max((c for c in range(n) if c not in tour), key=lambda c: min(d[c][t] for t in tour))
        k = len(tour)
        place = min(
            range(k), key=lambda i: d[tour[i]][city] + d[city][tour[(i + 1) % k]] - d[tour[i]][tour[(i + 1) % k]]
        )
        tour.insert(place + 1, city)
    return " ".join(problem.data["names"][i] for i in tour)


@pytest.mark.parametrize("level", [2, 4])
def test_tsp_is_not_farthest_insertion(level):
    assert _paid("algorithms/tsp", level, _farthest_insertion) == 0


def test_policies_are_real_tours_and_colourings():
    """The policies above are valid answers, only not optimal: at level 0 they score."""
    assert _paid("algorithms/tsp", 0, _farthest_insertion) >= 6
    assert _paid("graphs/hamiltonian_path", 0, _warnsdorff_high) >= 9
    assert _paid("graphs/vertex_cover", 0, _independent_set_complement) >= 9


def _differencing_or_impossible(problem: Problem) -> str:
    """Karmarkar-Karp: replace the two largest by their difference (opposite groups); impossible if it ends above 0."""
    items = [(x, [x], []) for x in problem.data["numbers"]]
    while len(items) > 1:
        items.sort(key=lambda item: item[0], reverse=True)
        (a, a_with, a_against), (b, b_with, b_against) = items[0], items[1]
        items = [(a - b, a_with + b_against, a_against + b_with), *items[2:]]
    left, with_it, _ = items[0]
    return ", ".join(map(str, with_it)) if left == 0 else "impossible"


@pytest.mark.parametrize("level", [2, 4])
def test_partition_is_not_karmarkar_karp(level):
    """Differencing may only earn what the bare 'impossible' earns (the certificate-free fifth of problems)."""
    impossible = sum(not sample("algorithms/partition", level, seed).data["possible"] for seed in SEEDS)
    assert _paid("algorithms/partition", level, _differencing_or_impossible) == impossible


def _greedy_walks_from_every_node(problem: Problem) -> str:
    """From each node follow the heaviest edge onward (ties to the larger node); the heaviest such walk."""
    out: dict[int, list[tuple[int, int]]] = {}
    for u, v, w in problem.data["edges"]:
        out.setdefault(u, []).append((w, v))
    best: list[int] = []
    best_weight = -1
    for start in range(problem.data["n"]):
        path, weight = [start], 0
        while out.get(path[-1]):
            w, v = max(out[path[-1]])
            path.append(v)
            weight += w
        if weight > best_weight:
            best, best_weight = path, weight
    return " ".join(map(str, best))


@pytest.mark.parametrize("level", [2, 4])
def test_dag_longest_path_is_not_the_best_greedy_walk(level):
    assert _paid("graphs/dag_longest_path", level, _greedy_walks_from_every_node) == 0


def _ratio_greedy_with_one_left_out(problem: Problem) -> str:
    """Pack by value per weight; then redo it without each item taken; keep the most valuable packing."""
    items, capacity, names = problem.data["items"], problem.data["capacity"], problem.data["names"]

    def pack(skip: int) -> list[int]:
        chosen, room = [], capacity
        for i in sorted(range(len(items)), key=lambda i: (-items[i][1] / items[i][0], i)):
            if i != skip and items[i][0] <= room:
                chosen.append(i)
                room -= items[i][0]
        return chosen

    first = pack(-1)
    best = max([first, *(pack(i) for i in first)], key=lambda c: sum(items[i][1] for i in c))
    return ", ".join(names[i] for i in best) or "none"


@pytest.mark.parametrize("level", [2, 4])
def test_knapsack_is_not_the_ratio_greedy_with_one_item_left_out(level):
    assert _paid("algorithms/knapsack", level, _ratio_greedy_with_one_left_out) == 0


def _largest_coin_count_then_greedy(problem: Problem) -> str:
    coins, amount = problem.data["coins"], problem.data["amount"]
    largest = max(coins)
    best = None
    for count in range(amount // largest + 1):
        rest, paid = amount - count * largest, [largest] * count
        for coin in sorted(coins, reverse=True)[1:]:
            paid += [coin] * (rest // coin)
            rest %= coin
        if rest == 0 and (best is None or len(paid) < len(best)):
            best = paid
    return " + ".join(map(str, best)) if best else "0"


@pytest.mark.parametrize("level", [2, 4])
def test_coin_change_is_not_the_greedy_over_counts_of_the_largest_coin(level):
    assert _paid("algorithms/coin_change", level, _largest_coin_count_then_greedy) == 0
