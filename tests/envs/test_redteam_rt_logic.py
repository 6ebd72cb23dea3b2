"""Red-team regressions for the logic families (deduction, puzzles, algorithms, arithmetic, algebra, graphs,
chess): a lazy policy that drops one stated rule (the weights, a second greedy order, ...) must not be paid.

Each test plays the lazy policy on a handful of seeds where it used to score most of the time, so it
fails on the old generators and stays cheap.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.kit.base import sample

SEEDS = range(900, 915)


def _score(problem: Problem, answer: str) -> bool:
    return palaestra.score(problem, f"<answer>{answer}</answer>").correct


def _paid(env_id: str, level: int, policy) -> int:
    return sum(_score(problem, policy(problem)) for problem in (sample(env_id, level, seed) for seed in SEEDS))


# --- graphs: paths that ignore the weights -------------------------------------------------------------------

def _most_edges_dag_path(problem: Problem) -> str:
    """The heaviest of the paths with the most edges: a longest path that counts edges, not weights."""
    out = defaultdict(list)
    for u, v, w in problem.data["edges"]:
        out[u].append((v, w))
    n = problem.data["n"]
    memo: dict[int, tuple[int, int, int]] = {}

    def best(u: int) -> tuple[int, int, int]:
        if u not in memo:
            options = [(1 + best(v)[0], best(v)[1] + w, v) for v, w in out[u]]
            memo[u] = max(options) if options else (0, 0, -1)
        return memo[u]

    node = max(range(n), key=lambda u: best(u)[:2])
    path = [node]
    while best(path[-1])[2] >= 0:
        path.append(best(path[-1])[2])
    return " ".join(map(str, path))


def _most_edges_tree_path(problem: Problem) -> str:
    """Two sweeps counting edges: the tree's diameter if every weight were 1."""
    out = defaultdict(list)
    for u, v, _ in problem.data["edges"]:
        out[u].append(v)
        out[v].append(u)

    def farthest(start: int) -> tuple[int, dict[int, int]]:
        depth, parent, stack = {start: 0}, {start: -1}, [start]
        while stack:
            u = stack.pop()
            for v in out[u]:
                if v not in depth:
                    depth[v], parent[v] = depth[u] + 1, u
                    stack.append(v)
        return max(depth, key=lambda v: (depth[v], -v)), parent

    first, _ = farthest(0)
    last, parent = farthest(first)
    path = [last]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    return " ".join(map(str, path))


@pytest.mark.parametrize("level", [0, 2, 4])
def test_dag_longest_path_is_not_the_path_with_most_edges(level):
    assert _paid("graphs/dag_longest_path", level, _most_edges_dag_path) == 0


@pytest.mark.parametrize("level", [0, 2, 4])
def test_tree_diameter_is_not_the_diameter_in_edges(level):
    assert _paid("graphs/tree_diameter", level, _most_edges_tree_path) == 0


# --- algorithms: textbook greedy rules -----------------------------------------------------------------------

def _knapsack_by_value(problem: Problem) -> str:
    data, room, chosen = problem.data, problem.data["capacity"], []
    for i in sorted(range(len(data["items"])), key=lambda i: -data["items"][i][1]):
        if data["items"][i][0] <= room:
            chosen.append(data["names"][i])
            room -= data["items"][i][0]
    return ", ".join(chosen)


def _jobs_by_profit(problem: Problem) -> str:
    jobs, chosen = problem.data["jobs"], []
    for i in sorted(range(len(jobs)), key=lambda i: -jobs[i][2]):
        trial = sorted([*chosen, i], key=lambda j: jobs[j][1])
        time, on_time = 0, True
        for j in trial:
            time += jobs[j][0]
            on_time = on_time and time <= jobs[j][1]
        if on_time:
            chosen = trial
    return " ".join(problem.data["names"][i] for i in chosen)


@pytest.mark.parametrize("level", [2, 4])
def test_knapsack_most_valuable_first_is_not_optimal(level):
    assert _paid("algorithms/knapsack", level, _knapsack_by_value) == 0


@pytest.mark.parametrize("level", [2, 4])
def test_deadline_scheduling_most_profitable_first_is_not_optimal(level):
    assert _paid("algorithms/deadline_scheduling", level, _jobs_by_profit) == 0


def test_declared_greedy_baselines_reach_no_optimum_past_level_0():
    for env_id in ("algorithms/knapsack", "algorithms/deadline_scheduling"):
        heuristics = make_source(env_id).heuristics()
        assert len(heuristics) >= 3
        for policy in heuristics.values():
            assert _paid(env_id, 3, policy) == 0


def _fewest_edges_path(problem: Problem) -> str:
    """Breadth first from the source, the lightest of the paths with the fewest edges: weights only break ties."""
    data = problem.data
    out = defaultdict(list)
    for u, v, w in data["edges"]:
        out[u].append((v, w))
        if not data["directed"]:
            out[v].append((u, w))
    best = {data["source"]: (0, 0, -1)}  # node: (edges, weight, previous)
    layer = [data["source"]]
    while layer:
        following = []
        for u in layer:
            for v, w in out[u]:
                candidate = (best[u][0] + 1, best[u][1] + w, u)
                if v not in best:
                    following.append(v)
                    best[v] = candidate
                elif candidate[:2] < best[v][:2]:
                    best[v] = candidate
        layer = following
    path = [data["target"]]
    while best[path[-1]][2] >= 0:
        path.append(best[path[-1]][2])
    return " ".join(data["labels"][v] for v in reversed(path))


@pytest.mark.parametrize("level", [0, 2, 4])
def test_shortest_path_is_not_the_path_with_fewest_edges(level):
    assert _paid("graphs/shortest_path", level, _fewest_edges_path) == 0


# --- deduction: reading rule heads instead of chaining -------------------------------------------------------

def _every_rule_head(problem: Problem) -> str:
    data = problem.data
    facts = set(data["facts"])
    return ", ".join(sorted({data["atoms"][head] for _, head in data["rules"] if head not in facts}))


@pytest.mark.parametrize("level", [0, 2, 4, 6])
def test_horn_inference_is_not_every_rule_conclusion(level):
    assert _paid("deduction/horn_inference", level, _every_rule_head) == 0


# --- chess: moves that ignore the check rule -----------------------------------------------------------------

def _pseudo_legal(problem: Problem) -> str:
    """The moves (or their count) a player finds who forgets that a move may not leave the king in check."""
    import chess

    board = chess.Board(problem.data["fen"])
    if problem.data["kind"] == "count":
        return str(sum(1 for _ in board.generate_pseudo_legal_moves()))
    square = chess.parse_square(problem.data["square"])
    return " ".join(m.uci() for m in board.generate_pseudo_legal_moves() if m.from_square == square) or "none"


@pytest.mark.parametrize("level", [0, 2, 4])
def test_legal_moves_are_not_the_pseudo_legal_moves(level):
    assert _paid("chess/legal_moves", level, _pseudo_legal) <= 3  # 5% of problems have no trap: 0.75 of 15


# --- deduction: mastermind scores read by halves --------------------------------------------------------------

def _codes_fitting(problem: Problem, reading) -> int:
    from itertools import product

    from palaestra.generators.mastermind import score

    data = problem.data
    return sum(all(reading(score(guess, list(code))) == reading((exact, partial))
                   for guess, exact, partial in data["history"])
               for code in product(range(1, data["digits"] + 1), repeat=data["length"]))


@pytest.mark.parametrize("level", [0, 2])
def test_mastermind_half_read_scores_leave_several_codes(level):
    for seed in SEEDS:
        problem = sample("deduction/mastermind_deduce", level, seed)
        assert _codes_fitting(problem, lambda s: s[0]) >= 6  # exact counts only
        assert _codes_fitting(problem, lambda s: s[0] + s[1]) >= 6  # totals only, positions ignored


# --- graphs: textbook colouring --------------------------------------------------------------------------------

def test_coloring_is_not_solved_by_dsatur():
    heuristics = make_source("graphs/coloring").heuristics()
    assert "DSATUR" in heuristics
    for level in (2, 4, 6):
        for heuristic in heuristics.values():
            assert _paid("graphs/coloring", level, heuristic) == 0


# --- algorithms: operator rules dropped ----------------------------------------------------------------------

def _every_operator_left_to_right(problem: Problem) -> str:
    """Shunting-yard that groups ^ to the left like the other operators (the right-to-left rule dropped)."""
    precedence = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}
    output, stack = [], []
    for token in problem.data["infix"].replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            stack.append(token)
        elif token == ")":
            while stack[-1] != "(":
                output.append(stack.pop())
            stack.pop()
        elif token in precedence:
            while stack and stack[-1] != "(" and precedence[stack[-1]] >= precedence[token]:
                output.append(stack.pop())
            stack.append(token)
        else:
            output.append(token)
    return " ".join(output + stack[::-1])


@pytest.mark.parametrize("level", [2, 4, 6])
def test_infix_to_postfix_needs_right_associative_powers(level):
    assert _paid("algorithms/infix_to_postfix", level, _every_operator_left_to_right) == 0


def _full_ties_by_name(problem: Problem) -> str:
    """Sorted by the keys with full ties broken by name: the stable-sort rule dropped."""
    from palaestra.envs.algorithms.multi_key_sort import sort_records

    records = [dict(zip(("name", "age", "city", "score"), row)) for row in problem.data["records"]]
    return ", ".join(sort_records(sorted(records, key=lambda r: r["name"]), problem.data["keys"]))


@pytest.mark.parametrize("level", [0, 2, 4])
def test_multi_key_sort_needs_the_stable_order_of_ties(level):
    assert _paid("algorithms/multi_key_sort", level, _full_ties_by_name) == 0


# --- graphs: cuts read off the leaves -------------------------------------------------------------------------

def _cuts_beside_leaves(problem: Problem) -> str:
    """The edges to leaves (bridges) or the leaves' neighbours (articulation points): always cuts, rarely all."""
    joined = defaultdict(set)
    for u, v in problem.data["edges"]:
        joined[u].add(v)
        joined[v].add(u)
    leaves = [v for v in joined if len(joined[v]) == 1]
    if "cuts" in problem.data:
        return " ".join(str(u) for u in sorted({next(iter(joined[v])) for v in leaves})) or "none"
    return ", ".join(f"{u}-{v}" for u, v in problem.data["edges"] if u in leaves or v in leaves) or "none"


@pytest.mark.parametrize("level", [0, 2])
def test_bridges_and_cut_vertices_are_not_read_off_the_leaves(level):
    assert _paid("graphs/bridges", level, _cuts_beside_leaves) == 0


# --- algorithms: sequence greedy answers ----------------------------------------------------------------------

def _earliest_matches(problem: Problem) -> str:
    """Each letter of the longer greedy common subsequence matched at its earliest chance."""
    def greedy(first: str, second: str) -> str:
        found, start = "", 0
        for letter in first:
            at = second.find(letter, start)
            if at >= 0:
                found, start = found + letter, at + 1
        return found

    first, second = problem.data["first"], problem.data["second"]
    return max(greedy(first, second), greedy(second, first), key=len)


def _climb_from_the_smallest(problem: Problem) -> str:
    sequence = problem.data["sequence"]
    taken = [min(sequence)]
    for value in sequence[sequence.index(min(sequence)) + 1:]:
        if value > taken[-1]:
            taken.append(value)
    return ", ".join(map(str, taken))


def _gaps_at_the_end(problem: Problem) -> str:
    first, second = problem.data["first"], problem.data["second"]
    width = max(len(first), len(second))
    return f"{first.ljust(width, '-')}\n{second.ljust(width, '-')}"


@pytest.mark.parametrize("level", [0, 2])
def test_sequence_greedy_answers_fall_short(level):
    assert _paid("algorithms/lcs", level, _earliest_matches) == 0
    assert _paid("algorithms/lis", level, _climb_from_the_smallest) == 0
    assert _paid("algorithms/edit_distance", level, _gaps_at_the_end) == 0


# --- graphs: isomorphism decided by neighbour degrees ---------------------------------------------------------

def _same_neighbour_degrees(problem: Problem) -> str:
    """yes exactly when the graphs have the same multiset of (degree, sorted neighbour degrees)."""
    def profile(edges) -> list:
        joined = defaultdict(list)
        for u, v in edges:
            joined[u].append(v)
            joined[v].append(u)
        return sorted((len(joined[u]), sorted(len(joined[w]) for w in joined[u])) for u in joined)

    return "yes" if profile(problem.data["first"]) == profile(problem.data["second"]) else "no"


def test_isomorphism_is_not_decided_by_neighbour_degrees():
    paid = sum(_paid("graphs/isomorphism", level, _same_neighbour_degrees) for level in (2, 3, 4))
    assert paid <= 33  # chance is 22.5 of 45; the old graphs paid 44-45


# --- deduction: the stated number of liars ignored ------------------------------------------------------------

def _fewest_liars(problem: Problem) -> str:
    """The culprit and liars of a consistent story with as few liars as possible (the stated count ignored)."""
    from palaestra.envs.deduction.liars import _truth

    names, statements = problem.data["names"], problem.data["statements"]
    n = len(names)
    stories = sorted((bin(mask).count("1"), culprit, mask) for culprit in range(n) for mask in range(1 << n)
                     if all(_truth(s, culprit, {i for i in range(n) if mask >> i & 1}) == (not mask >> speaker & 1)
                            for speaker, s in enumerate(statements)))
    _, culprit, mask = stories[0]
    liars = [names[i] for i in range(n) if mask >> i & 1]
    return f"culprit: {names[culprit]}\nliars: {', '.join(liars) or 'none'}"


@pytest.mark.parametrize("level", [2, 4])
def test_liars_needs_the_stated_number_of_liars(level):
    assert _paid("deduction/liars", level, _fewest_liars) == 0
