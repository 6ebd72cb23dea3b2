"""Red-team regressions, round 3 session 19 (logic families: proofs, deduction, verification, symbolic, algebra,
calculus, linalg, probability, geometry, arithmetic). Each test pins an exploit found and fixed in this session."""

from __future__ import annotations

import math

import pytest

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- arithmetic/linear_diophantine: the count read off the density c·g/(a·b) -----------------------------------


@pytest.mark.parametrize("level", [4, 5])
def test_linear_diophantine_count_is_not_the_rounded_density(level):
    """v2 asked for the bare count of non-negative solutions: it is floor(c·g/(a·b)) or the next integer, so
    rounding that estimate (no solving) scored 0.67 at level 4. v3 asks for the count with the least-x solution."""
    task = _task("arithmetic/linear_diophantine")
    total = 0.0
    for seed in range(60):
        problem = task.sample(level, seed)
        a, b, c = problem.data["a"], problem.data["b"], problem.data["c"]
        estimate = round(c * math.gcd(a, b) / (a * b))
        total += _reward(problem, str(estimate)) + _reward(problem, f"count: {estimate}")
        assert _reward(problem, problem.answer) == 1.0
    assert total == 0.0


def test_linear_diophantine_count_needs_the_least_x_solution():
    task = _task("arithmetic/linear_diophantine")
    for seed in range(40):
        problem = task.sample(4, seed)
        a, b, c = problem.data["a"], problem.data["b"], problem.data["c"]
        g = math.gcd(a, b)
        count_line, pair_line = problem.answer.splitlines()
        x = int(pair_line.split("x = ")[1].split(",")[0])
        y = (c - a * x) // b
        assert _reward(problem, f"{count_line}\nsmallest x: x = {x}, y = {y}") == 1.0
        assert _reward(problem, f"{count_line.split(': ')[1]}\n({x}, {y})") == 1.0
        if y - a // g >= 0:  # another non-negative solution, not the least-x one
            assert _reward(problem, f"{count_line}\nsmallest x: x = {x + b // g}, y = {y - a // g}") == 0.0
