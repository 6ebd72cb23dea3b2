"""Env-specific behaviour of graphs/*, search/* and combinatorial/countdown beyond the contract kit."""

from __future__ import annotations

import random
import time
from collections import deque
from itertools import product

import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _task(env_id: str):
    return make_source(env_id)


# --- graphs/shortest_path ----------------------------------------------------

def _diamond(directed: bool = False) -> Problem:
    # Two optimal routes A-B-D and A-C-D (weight 2), a heavy shortcut A-D (5).
    edges = [["A", "B", 1], ["A", "C", 1], ["A", "D", 5], ["B", "D", 1], ["C", "D", 1]]
    data = {"nodes": ["A", "B", "C", "D"], "edges": edges, "directed": directed,
            "source": "A", "target": "D", "distance": 2}
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
    one_way.data["edges"][3] = ["D", "B", 1]  # B -> D becomes D -> B
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


# --- graphs/coloring ----------------------------------------------------------

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


# --- search/maze --------------------------------------------------------------

def _open_room() -> Problem:
    grid = ["#####", "#S..#", "#...#", "#..G#", "#####"]
    return Problem(data={"grid": grid, "start": [1, 1], "goal": [3, 3], "length": 4})


def test_maze_accepts_every_shortest_route():
    task = _task("search/maze")
    for answer in ("RRDD", "DDRR", "r d r d", "D, R, D, R"):
        assert task.verify(_open_room(), answer).correct, answer


def test_maze_rejects_walls_detours_and_wrong_endings():
    task = _task("search/maze")
    assert "wall" in task.verify(_open_room(), "URRDDD").feedback
    assert "shorter" in task.verify(_open_room(), "RLRRDD").feedback
    assert "does not end" in task.verify(_open_room(), "RRD").feedback
    assert not task.verify(_open_room(), "RRXDD").parsed


def test_maze_reference_matches_bfs_length_at_every_level():
    task = _task("search/maze")
    for level in range(5):
        problem = task.sample(level, 11)
        assert len(problem.answer) == problem.data["length"]
        assert task.verify(problem, problem.answer).correct


# --- search/hanoi -------------------------------------------------------------

def _hanoi(stacks: dict, target: str, optimal: int) -> Problem:
    return Problem(data={"disks": sum(map(len, stacks.values())), "stacks": stacks,
                         "target": target, "optimal_moves": optimal})


def test_hanoi_rejects_illegal_moves():
    task = _task("search/hanoi")
    problem = _hanoi({"A": [2, 1], "B": [], "C": []}, "C", 3)
    assert task.verify(problem, "A->B, A->C, B->C").correct
    assert task.verify(problem, "AB AC BC").correct
    assert "smaller disk" in task.verify(problem, "A->B, A->B").feedback
    assert "empty" in task.verify(problem, "B->C").feedback
    assert "not all disks" in task.verify(problem, "A->B, A->C").feedback
    assert "not the minimum" in task.verify(problem, "A->C, C->B, A->C, B->C").feedback
    assert not task.verify(problem, "A->D").parsed


def _bfs_moves(position: tuple[str, ...], target: str) -> int:
    goal, seen, queue = (target,) * len(position), {position: 0}, deque([position])
    while queue:
        state = queue.popleft()
        if state == goal:
            return seen[state]
        tops = {peg: d for d, peg in reversed(list(enumerate(state)))}  # smallest disk on each peg
        for a, b in product(tops, "ABC"):
            if a != b and (b not in tops or tops[b] > tops[a]):
                nxt = state[: tops[a]] + (b,) + state[tops[a] + 1:]
                if nxt not in seen:
                    seen[nxt] = seen[state] + 1
                    queue.append(nxt)
    raise AssertionError("unreachable")


def test_hanoi_optimum_matches_breadth_first_search():
    task = _task("search/hanoi")
    for level, seed in product(range(2), range(20)):
        problem = task.sample(level, seed)
        peg_of = {d: peg for peg, disks in problem.data["stacks"].items() for d in disks}
        position = tuple(peg_of[d] for d in range(1, problem.data["disks"] + 1))
        assert problem.data["optimal_moves"] == _bfs_moves(position, problem.data["target"])


# --- combinatorial/countdown ----------------------------------------------------

def _countdown(target: int = 17, exactly_once: bool = False) -> Problem:
    return Problem(data={"numbers": [2, 3, 5, 7], "target": target, "exactly_once": exactly_once})


def test_countdown_accepts_alternative_expressions():
    task = _task("combinatorial/countdown")
    for answer in ("2 * 5 + 7", "7 + 5 * 2", "(3 * 5) + 2", "7 × 2 + 3", "2 * 5 + 7 = 17", "7 / (2 / 5) - 1 / 2"):
        assert task.verify(_countdown(), answer).correct is (answer != "7 / (2 / 5) - 1 / 2"), answer
    for answer in ("2 * 3 + 5 + 7", "3 * 7 - 5 + 2"):
        assert task.verify(_countdown(target=18, exactly_once=True), answer).correct, answer


def test_countdown_rejects_reuse_strangers_minus_and_powers():
    task = _task("combinatorial/countdown")
    assert "more often" in task.verify(_countdown(), "7 + 7 + 3").feedback
    assert "more often" in task.verify(_countdown(), "2 * 5 + 1 + 6").feedback
    assert "negative" in task.verify(_countdown(), "-3 + 20").feedback
    assert "exactly once" in task.verify(_countdown(target=13, exactly_once=True), "2 * 5 + 3").feedback
    assert not task.verify(_countdown(), "2 ** 3 + 7 + 2").parsed
    assert not task.verify(_countdown(), "__import__('os').system('ls')").parsed
    assert "equals" in task.verify(_countdown(), "2 * 5 + 3").feedback


def test_countdown_rejects_tower_of_powers_fast():
    task = _task("combinatorial/countdown")
    start = time.perf_counter()
    verdict = task.verify(_countdown(), "9**9**9**9")
    assert not verdict.correct and time.perf_counter() - start < 0.05


@pytest.mark.parametrize("level", range(5))
def test_countdown_generates_at_least_2000_problems_per_second(level):
    task = _task("combinatorial/countdown")
    start = time.perf_counter()
    for seed in range(500):
        task.sample(level, seed)
    assert 500 / (time.perf_counter() - start) >= 2000
