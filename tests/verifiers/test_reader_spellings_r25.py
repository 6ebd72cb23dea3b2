"""Spellings a careful grader accepts that the shared readers refused (round 3, twenty-fifth session's red team):
a naming sentence with "a"/"an" or the quantities of number theory, factoring and geometry, and ``A^(-1) =``."""

from __future__ import annotations

import pytest

from palaestra.verifiers.matrices import read_matrix
from palaestra.verifiers.numeric import read_number


@pytest.mark.parametrize("text", ["The gcd is 12.", "The greatest common divisor is 12", "The lcm is 12",
                                  "An antiderivative is 12", "A solution is 12", "The simplified form is 12",
                                  "The radius is 12."])
def test_naming_sentences_are_read(text: str) -> None:
    assert read_number(text) == 12


@pytest.mark.parametrize("text", ["The gcd is not 12.", "A 12", "The gcd is 12 or 6", "An answer might be 12"])
def test_what_a_naming_sentence_cannot_account_for_stays_unread(text: str) -> None:
    assert read_number(text) is None


@pytest.mark.parametrize("lead", ["A^(-1) = ", "A^{-1} = ", "A^-1 = ", ""])
def test_an_inverse_named_before_the_matrix_is_read(lead: str) -> None:
    assert read_matrix(f"{lead}[[1, 2], [3, 4]]") == read_matrix("[[1, 2], [3, 4]]") is not None


def test_an_unbalanced_inverse_name_is_not_read() -> None:
    assert read_matrix("A^{-1 = [[1, 2], [3, 4]]") is None


@pytest.mark.parametrize(("text", "value", "reduced"), [(r"\frac1{117}", (1, 117), True), (r"\frac{12}5", (12, 5), True),
                                                        (r"\frac2{4}", (1, 2), False), (r"\frac{4}2", (2, 1), False)])
def test_a_fraction_with_one_side_braced_is_read_and_checked_for_lowest_terms(text: str, value: tuple[int, int],
                                                                              reduced: bool) -> None:
    from fractions import Fraction

    from palaestra.verifiers.rationals import read_lowest_terms

    assert read_lowest_terms(text) == (Fraction(*value), reduced)


def test_inline_math_around_each_pair_of_an_assignment_is_read() -> None:
    from fractions import Fraction

    from palaestra.verifiers.assignments import read_values
    from palaestra.verifiers.numeric import read_exact

    expected = {"x": Fraction(-10), "y": Fraction(-1)}
    assert read_values(r"\(x = -10\), \(y = -1\)", ["x", "y"], read_exact) == expected
    assert read_values(r"\(x = -10\), \(y = -1\) or \(x = 2\)", ["x", "y"], read_exact) is None
