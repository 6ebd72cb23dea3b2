"""Env-specific behaviour of graphs/*, search/* and arithmetic/countdown beyond the contract kit."""

from __future__ import annotations

import random
import time

import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _task(env_id: str):
    return make_source(env_id)


# --- graphs/shortest_path ----------------------------------------------------

def _diamond(directed: bool = False) -> Problem:
    # Two optimal routes A-B-D and A-C-D (weight 2), a heavy shortcut A-D (5).
    edges = [[0, 1, 1], [0, 2, 1], [0, 3, 5], [1, 3, 1], [2, 3, 1]]
    data = {"labels": ["A", "B", "C", "D"], "edges": edges, "directed": directed,
            "source": 0, "target": 3, "distance": 2}
    return Problem(prompt="", answer="A B D", data=data)


def test_shortest_path_accepts_any_optimal_path_in_any_separator_style():
    task, problem = _task("graphs/shortest_path"), _diamond()
    for answer in ("A B D", "A C D", "a -> c -> d", "A, C, D", "[A, B, D]", "A → B → D"):
        assert task.verify(problem, answer).correct, answer


def test_shortest_path_rejects_longer_invalid_and_misdirected_paths():
    task = _task("graphs/shortest_path")
    verdict = task.verify(_diamond(), "A D")
    assert not verdict.correct and "weighs 5" in verdict.feedback
    assert "not an edge" in task.verify(_diamond(), "A B C D").feedback
    assert "end at D" in task.verify(_diamond(), "A B").feedback
    one_way = _diamond(directed=True)
    one_way.data["edges"][3] = [3, 1, 1]  # B -> D becomes D -> B
    assert "B to D is not an edge" in task.verify(one_way, "A B D").feedback
    assert task.verify(one_way, "A C D").correct
    assert not task.verify(_diamond(), "A B Z D").parsed


def test_shortest_path_reference_is_optimal_and_corruptions_fail():
    task = _task("graphs/shortest_path")
    for level in range(5):
        problem = task.sample(level, 3)
        assert task.verify(problem, problem.answer).correct
        for wrong in task.corruptions(problem, random.Random(0)):
            assert not task.verify(problem, wrong).correct


def test_shortest_path_optimum_matches_networkx_and_data_is_homogeneous():
    import networkx as nx

    task = _task("graphs/shortest_path")
    for level in range(5):
        config = task.config(level)
        for seed in range(15):
            problem = task.sample(level, seed)
            data = problem.data
            assert len(data["edges"]) == config.nodes - 1 + config.extra_edges
            assert all(len(e) == 3 and all(type(x) is int for x in e) for e in data["edges"])  # Arrow-safe
            graph = nx.DiGraph() if data["directed"] else nx.Graph()
            graph.add_weighted_edges_from(data["edges"])
            assert nx.dijkstra_path_length(graph, data["source"], data["target"]) == data["distance"]
            assert len(problem.answer.split()) - 1 >= config.min_hops
            assert task.difficulty(problem) > 0


# --- graphs/coloring ----------------------------------------------------------

def test_coloring_graphs_are_connected_planted_and_sized():
    import networkx as nx

    task = _task("graphs/coloring")
    for level in range(5):
        config = task.config(level)
        for seed in range(10):
            problem = task.sample(level, seed)
            edges = problem.data["edges"]
            assert len(edges) == round(config.average_degree * config.nodes / 2)
            graph = nx.Graph(edges)
            graph.add_nodes_from(range(config.nodes))
            assert nx.is_connected(graph)
            assert max(len(c) for c in nx.find_cliques(graph)) >= config.colors
            assert task.verify(problem, problem.answer).correct


def test_coloring_accepts_a_different_proper_colouring():
    task = _task("graphs/coloring")
    problem = task.sample(2, 5)
    gold = dict(pair.split(": ") for pair in problem.answer.split(", "))
    swapped = {v: {"1": "2", "2": "1"}.get(c, c) for v, c in gold.items()}  # rename colours 1 <-> 2
    answer = ", ".join(f"{v}: {c}" for v, c in swapped.items())
    assert answer != problem.answer and task.verify(problem, answer).correct


def test_coloring_rejects_clashes_gaps_and_bad_colours():
    task = _task("graphs/coloring")
    problem = Problem(data={"nodes": 3, "colors": 2, "edges": [[0, 1], [1, 2]]})
    assert task.verify(problem, "0: 1, 1: 2, 2: 1").correct
    assert task.verify(problem, "{0: 1; 1: 2; 2: 1}").correct
    assert "adjacent" in task.verify(problem, "0: 1, 1: 1, 2: 2").feedback
    assert "no colour" in task.verify(problem, "0: 1, 1: 2").feedback
    assert "not one of" in task.verify(problem, "0: 1, 1: 3, 2: 1").feedback
    assert "two colours" in task.verify(problem, "0: 1, 1: 2, 2: 1, 2: 2").feedback
    assert not task.verify(problem, "1 2 1").parsed


# --- planning/maze --------------------------------------------------------------

def _open_room() -> Problem:
    grid = ["#####", "#S..#", "#...#", "#..G#", "#####"]
    return Problem(data={"grid": grid, "start": [1, 1], "goal": [3, 3], "length": 4})


def test_maze_accepts_every_shortest_route():
    task = _task("planning/maze")
    for answer in ("RRDD", "DDRR", "r d r d", "D, R, D, R"):
        assert task.verify(_open_room(), answer).correct, answer


def test_maze_rejects_walls_detours_and_wrong_endings():
    task = _task("planning/maze")
    assert "wall" in task.verify(_open_room(), "URRDDD").feedback
    assert "shorter" in task.verify(_open_room(), "RLRRDD").feedback
    assert "does not end" in task.verify(_open_room(), "RRD").feedback
    assert not task.verify(_open_room(), "RRXDD").parsed


def test_maze_reference_matches_bfs_length_at_every_level():
    task = _task("planning/maze")
    for level in range(5):
        problem = task.sample(level, 11)
        assert len(problem.answer) == problem.data["length"]
        assert task.verify(problem, problem.answer).correct


def test_maze_optimum_from_generic_search_on_the_maze_rules():
    from palaestra.envs.planning.maze import MazeRules
    from palaestra.solvers.simulate import shortest_plan

    task = _task("planning/maze")
    for level in range(5):
        for seed in range(6):
            data = task.sample(level, seed).data
            plan = shortest_plan(MazeRules(data["grid"], data["start"], data["goal"]))
            assert len(plan) == data["length"]
            assert task.verify(task.sample(level, seed), "".join(plan)).correct


def test_maze_level_zero_has_one_route_and_loops_give_alternatives_that_are_accepted():
    from palaestra.generators.grids import count_shortest_paths

    task = _task("planning/maze")
    for seed in range(20):
        data = task.sample(0, seed).data
        assert count_shortest_paths(data["grid"], tuple(data["start"]), tuple(data["goal"])) == 1
    several = 0
    for seed in range(30):
        problem = task.sample(3, seed)
        data = problem.data
        if count_shortest_paths(data["grid"], tuple(data["start"]), tuple(data["goal"])) > 1:
            several += 1
            other = _another_shortest_route(data, problem.answer)
            assert other != problem.answer and task.verify(problem, other).correct
    assert several > 0


def _another_shortest_route(data: dict, avoid: str) -> str:
    """A shortest route other than ``avoid``: breadth-first search from the goal, then at the first
    square where two moves both get closer, take the other one."""
    from palaestra.generators.grids import MOVES, distances

    grid, to_goal = data["grid"], distances(data["grid"], tuple(data["goal"]))
    r, c = data["start"]
    route = ""
    for _ in range(data["length"]):
        closer = [m for m, (dr, dc) in MOVES.items() if to_goal.get((r + dr, c + dc), -1) == to_goal[(r, c)] - 1]
        prefix_matches = avoid.startswith(route)
        move = next((m for m in closer if not (prefix_matches and avoid[len(route)] == m)), closer[0])
        route += move
        r, c = r + MOVES[move][0], c + MOVES[move][1]
    assert grid[r][c] == "G"
    return route


@pytest.mark.parametrize("env_id", ["graphs/shortest_path", "graphs/coloring", "planning/maze"])
def test_difficulty_measure_grows_with_level(env_id):
    task = _task(env_id)
    means = [sum(task.difficulty(task.sample(level, seed)) for seed in range(30)) / 30 for level in range(5)]
    assert means == sorted(means) and len(set(means)) == 5, means


# --- planning/hanoi -------------------------------------------------------------

def _countdown(target: int = 17, exactly_once: bool = False) -> Problem:
    return Problem(data={"numbers": [2, 3, 5, 7], "target": target, "exactly_once": exactly_once})


def test_countdown_accepts_alternative_expressions():
    task = _task("arithmetic/countdown")
    for answer in ("2 * 5 + 7", "7 + 5 * 2", "(3 * 5) + 2", "7 × 2 + 3", "2 * 5 + 7 = 17", "7 / (2 / 5) - 1 / 2"):
        assert task.verify(_countdown(), answer).correct is (answer != "7 / (2 / 5) - 1 / 2"), answer
    for answer in ("2 * 3 + 5 + 7", "3 * 7 - 5 + 2"):
        assert task.verify(_countdown(target=18, exactly_once=True), answer).correct, answer


def test_countdown_rejects_reuse_strangers_minus_and_powers():
    task = _task("arithmetic/countdown")
    assert "more often" in task.verify(_countdown(), "7 + 7 + 3").feedback
    assert "more often" in task.verify(_countdown(), "2 * 5 + 1 + 6").feedback
    assert "negative" in task.verify(_countdown(), "-3 + 20").feedback
    assert "exactly once" in task.verify(_countdown(target=13, exactly_once=True), "2 * 5 + 3").feedback
    assert not task.verify(_countdown(), "2 ** 3 + 7 + 2").parsed
    assert not task.verify(_countdown(), "__import__('os').system('ls')").parsed
    assert "equals" in task.verify(_countdown(), "2 * 5 + 3").feedback


def test_countdown_rejects_tower_of_powers_fast():
    task = _task("arithmetic/countdown")
    start = time.process_time()
    verdict = task.verify(_countdown(), "9**9**9**9")
    assert not verdict.correct and time.process_time() - start < 0.05


@pytest.mark.parametrize("level", range(5))
def test_countdown_generates_at_least_2000_problems_per_second(level):
    # The Countdown game alone: the make-target game (merged in from puzzles/twenty_four) searches its numbers.
    task = make_source("arithmetic/countdown", game="countdown")
    start = time.process_time()
    for seed in range(500):
        task.sample(level, seed)
    assert 500 / (time.process_time() - start) >= 2000
