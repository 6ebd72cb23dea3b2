"""The lead's red-team findings of session 30.

- probability/descriptive_statistics: the statistic's definition typed back is not its value. Before, ``max - min``
  for a range and ``(a + b)/2`` for an even median read as exact numbers and were accepted: 36% of level-0 problems
  (300 seeds) answered without doing the subtraction or the division.
- calculus/limits level 3: a one-sided limit of |p x - p c|/(q x - q c) is the function's value at any point on that
  side, so plugging in c + 1 (or c - 1) answered 18% of level 3 (400 seeds) without a limit (v3); v4 multiplies by
  (x - e).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import palaestra
from palaestra.verifiers.formulas import evaluate, read_formula


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


def test_one_sided_limit_is_not_the_value_beside_the_point():
    task = palaestra.make("calculus/limits", level=3).unwrapped.task
    one_sided = 0
    for seed in range(200):
        problem = task.sample(3, seed)
        found = re.search(r"limit of (.*) as x → (-?\d+) from (above|below)\.", problem.prompt)
        if found is None or "|" not in found.group(1):
            continue
        one_sided += 1
        centre = int(found.group(2))
        beside = Fraction(centre + (1 if found.group(3) == "above" else -1))
        value = evaluate(read_formula(found.group(1), ["x"]), {"x": beside})
        guess = Fraction(str(value)).limit_denominator(1000)
        assert task.check(problem, f"<answer>{guess}</answer>").reward == 0, (seed, problem.prompt)
        assert task.check(problem, f"<answer>{problem.answer}</answer>").reward == 1
    assert one_sided >= 20
