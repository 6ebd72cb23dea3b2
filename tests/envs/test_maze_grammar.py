"""planning/maze reads its route through the shared answer grammar (it had a reader of its own that refused
``\\boxed{...}``, ``Answer: ...``, a closing full stop and naming sentences around a right route)."""

from __future__ import annotations

import pytest

from palaestra.core.extract import wrap
from palaestra.core.registry import make_source


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_shortest_route_is_read_in_the_spellings_a_grader_accepts(seed: int) -> None:
    maze = make_source("planning/maze")
    problem = maze.sample(1, seed)
    gold = problem.answer or ""
    for spelling in (gold, f"{gold}.", f"\\boxed{{{gold}}}", f"Answer: {gold}", f"The answer is {gold}.",
                     " ".join(gold), ", ".join(gold), f"**{gold}**", gold.lower()):
        assert maze.check(problem, wrap(spelling, problem.answer_format)).correct, spelling


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hedges_and_near_misses_stay_wrong(seed: int) -> None:
    maze = make_source("planning/maze")
    problem = maze.sample(1, seed)
    gold = problem.answer or ""
    for wrong in (f"{gold} or {gold[:-1]}", f"either {gold} or {gold[::-1]}", gold[:-1], f"{gold}. I take it back.",
                  f"{gold}X", ""):
        assert not maze.check(problem, wrap(wrong, problem.answer_format)).correct, wrong
