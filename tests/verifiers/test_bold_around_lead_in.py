"""Bold (or another pair) around a lead-in and its answer: "**Answer: 7**" is read as 7.

The lead-in's own bold pattern took the opening stars and left the closing ones on the answer ("7**"), so a right
answer written that way was refused by every reader built on the grammar; a pair around the whole text is now
taken off before lead-ins are looked for (code fences still first)."""

from __future__ import annotations

import pytest

from palaestra.core.extract import wrap
from palaestra.core.registry import make_source
from palaestra.verifiers.normalize import read_answer, strip_wrappers


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


@pytest.mark.parametrize("text", ["**Answer: 7**", "**The answer is 7**", "**Final answer: 7**", "**Answer: 7.**",
                                  "**Answer:** 7", "Answer: **7**", "**Answer:** **7**", "`Answer: 7`", "**answer 7**", "My answer is 7.",
                                  "My final answer is 7", "**My answer: 7**"])
def test_a_pair_around_a_lead_in_and_its_answer_is_read(text: str) -> None:
    assert read_answer(text, _number) == 7


@pytest.mark.parametrize("text", ["**Answer: 7** I take it back.", "**7** or **8**", "**Answer: 7** **8**",
                                  "**Answer: 7 or 8**", "**Answer: 7. That is not the answer.**",
                                  "My answer is 7 or 8", "I think my answer is 7"])
def test_remarks_and_second_answers_stay_unread(text: str) -> None:
    assert read_answer(text, _number) is None


def test_code_fences_keep_their_info_string_off_the_answer() -> None:
    assert strip_wrappers("```python\nprint(1)\n```") == "print(1)"
    assert strip_wrappers("Answer:\n```\n42\n```") == "42"


def test_an_env_accepts_its_reference_in_bold_with_a_lead_in() -> None:
    env = make_source("arithmetic/expression")
    problem = env.sample(1, 3)
    for text in (f"**Answer: {problem.answer}**", f"**The answer is {problem.answer}**"):
        assert env.check(problem, wrap(text, problem.answer_format)).correct, text
    assert not env.check(problem, wrap(f"**Answer: {problem.answer}** or **0**", problem.answer_format)).correct


@pytest.mark.parametrize(("text", "inner"), [("**acyclic: 0 2 1**.", "acyclic: 0 2 1"), ("\\boxed{7}.", "7"),
                                             ('"yes".', "yes"), ("**7**!", "7")])
def test_a_closing_mark_just_after_a_wrapper_is_outside_the_answer(text: str, inner: str) -> None:
    assert strip_wrappers(text) == inner


def test_a_closing_mark_does_not_join_two_wrapped_answers() -> None:
    assert strip_wrappers("**7** or **8**.") == "**7** or **8**."


@pytest.mark.parametrize(("env_id", "level"), [("graphs/cycle", 0), ("physics/thin_lens", 0), ("puzzles/skyscrapers", 0)])
def test_structured_answers_in_bold_before_a_full_stop_are_read(env_id: str, level: int) -> None:
    env = make_source(env_id)
    problem = env.sample(level, 0)
    assert env.check(problem, wrap(f"The answer is **{problem.answer}**.", problem.answer_format)).correct
