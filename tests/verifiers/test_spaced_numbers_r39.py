"""A written number, a space, then a bracketed number is no product a grader reads (round 3, session 39).

The shared formula reader read ``0 (5/4)sqrt(2)`` as ``0 * (5/4) * sqrt(2)``: an answer then another, accepted
wherever the answer is 0 (``calculus/definite_integral``). ``2 (3/4)`` is a mixed number to some readers and a
product to others. Both are refused now; a number juxtaposed with a variable or a bracketed expression still
multiplies.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.verifiers.formulas import evaluate, read_formula


@pytest.mark.parametrize("text", ["0 (5/4)sqrt(2)", "0 (5/4) sqrt(2)", "2 (3/4)", "2.5 (1.5)", "2 ( 3 / 4 )x"])
def test_a_number_then_a_bracketed_number_is_unreadable(text: str) -> None:
    assert read_formula(text, ["x"]) is None


@pytest.mark.parametrize(("text", "value"), [("2 (x+1)", 8), ("3(1/2)", 1.5), ("x (3/4)", 2.25), ("x^2 (1/2)", 4.5),
                                             ("2 x", 6)])
def test_other_juxtapositions_still_multiply(text: str, value: float) -> None:
    expr = read_formula(text, ["x"])
    assert expr is not None
    assert evaluate(expr, {"x": 3.0}) == pytest.approx(value)


def test_definite_integral_refuses_a_zero_answer_with_a_second_value() -> None:
    source = make_source("calculus/definite_integral")
    problem = next(p for p in (source.sample(0, seed) for seed in range(300)) if p.answer.strip() == "0")
    assert source.verify(problem, "0").correct
    assert not source.verify(problem, "0 (5/4)sqrt(2)").correct
