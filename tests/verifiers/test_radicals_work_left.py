"""verifiers/radicals.work_left: a worked-out value against the question's arithmetic typed back, and the naming
sentences the shared reader reads past for statistics and triangle quantities."""

from __future__ import annotations

import pytest

from palaestra.verifiers.radicals import read_radical, work_left


@pytest.mark.parametrize("text", ["sqrt(91^2 - 77^2)", "sqrt(8281 - 5929)", "31*27/4", "47 - 12", "(7 + 8)/2",
                                  "The range is 47 - 12.", "x = 10 + 36 + 2*sqrt(349)", "91**2", "3^2"])
def test_arithmetic_left_undone(text):
    assert work_left(text)


@pytest.mark.parametrize("text", ["35", "15/2", "-3/2", "sqrt(75)", "sqrt(9/2)", "\\sqrt{\\frac{9}{2}}", "(3/2)√2",
                                  "46 + 2*sqrt(349)", "(√6 + √2)/4", "s^2 = 9/2", "\\sigma^{2} = 9/2",
                                  "The range is 35.", "3*sqrt(2) ≈ 4.243", "**2*sqrt(1594)**"])
def test_values_are_not_flagged(text):
    assert not work_left(text)
    assert read_radical(text, max_numbers=8) is not None


@pytest.mark.parametrize(("text", "value"), [("The range is 35", "35"), ("The hypotenuse is 5√2.", "5*sqrt(2)"),
                                             ("The z-score is -3/2.", "-3/2"), ("The mode is 7", "7"),
                                             ("The sample standard deviation of the data is 3√2/2", "3*sqrt(2)/2")])
def test_naming_sentences_are_read(text, value):
    assert read_radical(text) == read_radical(value)


@pytest.mark.parametrize("text", ["The range is not 35", "The range is 35 or 36", "The mode is 7. No, 8."])
def test_naming_sentences_keep_the_grammar(text):
    assert read_radical(text) is None
