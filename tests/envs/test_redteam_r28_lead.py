"""Round 3, session 28: the lead's grading fixes from the helpers' probes (shared readers, written once)."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.web.common import judge_code
from palaestra.verifiers.numeric import read_number


def test_it_is_leads_a_number_in_and_what_follows_is_still_read_whole() -> None:
    assert read_number("It is 19.") == 19 and read_number("It's 19.") == 19
    assert read_number("It is not 19.") is None and read_number("It is 19 or 20.") is None
    assert read_number("Italy 19") is None


def test_sql_qa_takes_it_is_before_the_count() -> None:
    source = make_source("tools/sql_qa")
    problem = source.sample(0, 3)
    assert source.judge(problem, f"It is {problem.answer}.").correct


def test_a_named_answer_put_as_a_question_is_not_accepted() -> None:
    source = make_source("tools/aggregation_qa")
    problem = source.sample(1, 0)
    assert source.judge(problem, problem.answer).correct
    assert not source.judge(problem, f"{problem.answer}?").correct


def test_booked_labels_a_code_in_every_web_env() -> None:
    assert judge_code("Booked: BK12345", "BK12345", "confirmation code").correct
    assert not judge_code("Booked: BK12346", "BK12345", "confirmation code").correct


def test_a_unit_after_the_numbers_markup_is_read_with_its_factor() -> None:
    from fractions import Fraction

    speeds = {"m/s": 1, "km/h": Fraction(5, 18)}
    assert read_number(r"\boxed{21} shortest paths", units=["shortest paths"]) == 21
    assert read_number("**6** s.", units=["s"], unit_required=True) == 6
    assert read_number("**25.2** km/h", units=speeds) == 7
    assert read_number("**6 or 7** s", units=["s"]) is None
    assert read_number(r"\boxed{6} s. Just kidding", units=["s"]) is None
    assert read_number("**6**", units=["s"], unit_required=True) is None


def test_the_basis_and_the_steps_are_lead_ins() -> None:
    null_space = make_source("linalg/null_space")
    problem = null_space.sample(0, 3)
    assert null_space.check(problem, null_space.format_answer(f"The basis is {problem.answer}.")).correct
    jugs = make_source("planning/water_jugs")
    problem = jugs.sample(0, 3)
    assert jugs.check(problem, jugs.format_answer(f"The steps are: {problem.answer}")).correct
