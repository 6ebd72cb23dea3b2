"""probability/descriptive_statistics: the statistic's definition typed back is not its value (session 30).

Before, ``max - min`` for a range and ``(a + b)/2`` for an even median read as exact numbers and were accepted:
36% of level-0 problems (300 seeds) answered without doing the subtraction or the division.
"""

from __future__ import annotations

import re

import pytest

import palaestra


def _task():
    return palaestra.make("probability/descriptive_statistics", level=0).unwrapped.task


def _data(prompt: str) -> list[int]:
    found = re.search(r"\):\s*([-\d, ]+)\.", prompt)
    assert found is not None
    return [int(x) for x in found.group(1).split(",")]


def _problem(task, kind: str, even: bool = False):
    for seed in range(300):
        problem = task.sample(0, seed) if not even else task.sample(1, seed)
        if problem.data["kind"] == kind and (not even or len(_data(problem.prompt)) % 2 == 0):
            return problem
    raise AssertionError(f"no {kind} problem in 300 seeds")


def test_range_typed_back_is_refused_and_its_value_accepted():
    task = _task()
    problem = _problem(task, "range")
    values = sorted(_data(problem.prompt))
    assert task.check(problem, f"<answer>{values[-1]} - {values[0]}</answer>").reward == 0
    assert task.check(problem, f"<answer>The range is {values[-1]} - {values[0]}.</answer>").reward == 0
    assert task.check(problem, f"<answer>{values[-1] - values[0]}</answer>").reward == 1
    assert task.check(problem, f"<answer>The range is {values[-1] - values[0]}.</answer>").reward == 1


def test_even_median_typed_back_is_refused():
    task = _task()
    problem = _problem(task, "median", even=True)
    values = sorted(_data(problem.prompt))
    low, high = values[len(values) // 2 - 1], values[len(values) // 2]
    assert task.check(problem, f"<answer>({low} + {high})/2</answer>").reward == 0
    assert task.check(problem, f"<answer>{problem.answer}</answer>").reward == 1


@pytest.mark.parametrize(("kind", "level"), [("population_sd", 3), ("sample_variance", 2)])
def test_named_values_with_powers_in_the_name_are_read(kind, level):
    task = _task()
    problem = next(p for p in (task.sample(level, seed) for seed in range(400)) if p.data["kind"] == kind)
    name = "s^2" if kind == "sample_variance" else "\\sigma"
    assert task.check(problem, f"<answer>{name} = {problem.answer}</answer>").reward == 1
