"""Envs whose answers span lines read them through the answer grammar's wrappers and lead-ins too: "Answer:" on a
line of its own, "**Final Answer:** ...", "The answer is **...**." (these four read the raw text and refused them)."""

from __future__ import annotations

import pytest

from palaestra.core.extract import wrap
from palaestra.core.registry import make_source

ENVS = ["sequences/magic_square", "deduction/scheduling", "puzzles/zebra", "deduction/fol_countermodel"]


@pytest.mark.parametrize("env_id", ENVS)
def test_a_multi_line_reference_is_read_after_a_lead_in(env_id: str) -> None:
    env = make_source(env_id)
    for seed in range(3):
        problem = env.sample(0, seed)
        gold = problem.answer or ""
        for text in (gold, f"Answer:\n{gold}", f"**Final Answer:** {gold}", f"The answer is **{gold}**."):
            assert env.check(problem, wrap(text, problem.answer_format)).correct, (seed, text)


@pytest.mark.parametrize("env_id", ENVS)
def test_retractions_after_it_stay_unread(env_id: str) -> None:
    env = make_source(env_id)
    problem = env.sample(0, 1)
    gold = problem.answer or ""
    for text in (f"{gold}\nI take it back.", f"Answer:\n{gold}\n\nOr maybe not.", f"**Final Answer:** {gold} (no, that is wrong)"):
        assert not env.check(problem, wrap(text, problem.answer_format)).correct, text
