"""An exact answer followed by its decimal (``3/7 ≈ 0.43``) is read as the exact value, in every env that reads
numbers with :mod:`palaestra.verifiers.numeric`; a decimal that is not the value rounded or truncated makes it a
second answer (round 3's red team: physics accepted the form, biology, causal and economics did not)."""

from fractions import Fraction

import pytest

import palaestra
from palaestra.verifiers.numeric import decimal_agrees, grade_number, read_exact


@pytest.mark.parametrize(
    "text",
    ["3/7 ≈ 0.43", "3/7 ≈ 0.428", "3/7 ≈ 0.42", r"\boxed{\frac{3}{7} \approx 0.4286}.", "Answer: x = 3/7 ≈ 0.43"],
)
def test_an_exact_value_then_a_true_decimal_reads_as_the_exact_value(text):
    assert read_exact(text) == Fraction(3, 7)
    assert grade_number(text, Fraction(3, 7)) is True


@pytest.mark.parametrize(
    "text",
    ["3/7 ≈ 0.5", "3/7 ≈ 0.44", "3/7 ≈ 0.43 ≈ 0.5", "≈ 3/7 ≈ 0.43", "3/7 ≈ 0.43 or 1/2", "3/7 or 1/2 ≈ 0.43", "3/7 ≈"],
)
def test_a_false_decimal_a_second_sign_or_a_hedge_is_unreadable(text):
    assert read_exact(text) is None


def test_the_decimal_place_is_scaled_by_the_unit_written_after_it():
    units = {"Hz": 1, "kHz": 1000}
    assert read_exact("1706 ≈ 1.7 kHz", units=units) == 1706
    assert read_exact("1706 ≈ 1.8 kHz", units=units) is None
    assert decimal_agrees(Fraction(-3, 7), Fraction(-43, 100), "-0.43")
    assert not decimal_agrees(Fraction(3, 7), Fraction(3, 7), "3/7")  # a fraction is not a decimal


def _decimal(value: Fraction, places: int = 3) -> str:
    return f"{float(value):.{places}f}"


@pytest.mark.parametrize(
    "env_id", ["biology/hardy_weinberg", "causal/counterfactual", "causal/intervention"]
)
def test_envs_accept_the_exact_answer_with_its_decimal_and_refuse_a_false_one(env_id):
    task = palaestra.make(env_id, level=2).unwrapped.task
    for seed in range(4):
        problem = task.sample(2, seed)
        exact = Fraction(problem.answer)
        assert task.check(problem, f"<answer>{problem.answer} ≈ {_decimal(exact)}</answer>").reward == 1
        off = _decimal(exact + Fraction(1, 50))
        assert task.check(problem, f"<answer>{problem.answer} ≈ {off}</answer>").reward == 0


@pytest.mark.parametrize(
    "text, readable",
    [("3*sqrt(2) ≈ 4.243", True), ("3*sqrt(2) ≈ 4.24", True), (r"\boxed{3\sqrt{2} \approx 4.2426}", True),
     ("3*sqrt(2) ≈ 4.25", False), ("3*sqrt(2) ≈ 4.243 ≈ 5", False)],
)
def test_a_surd_may_be_followed_by_its_decimal(text, readable):
    from palaestra.verifiers.radicals import read_radical

    assert (read_radical(text) is not None) is readable
    if readable:
        assert read_radical(text) == read_radical("3*sqrt(2)")


@pytest.mark.parametrize(
    "text, readable",
    [("pi/15 ≈ 0.2094", True), ("pi/15 ≈ 0.20", True), ("e^2 ≈ 7.389", True), ("e^2 ≈ 7.38", True),
     ("pi/15 ≈ 0.2095", False), ("e^2 ≈ 7.4", True), ("e^2 ≈ 7.5", False)],
)
def test_a_constant_formula_takes_the_same_rule_for_its_decimal(text, readable):
    from palaestra.verifiers.formulas import read_formula

    assert (read_formula(text, []) is not None) is readable
