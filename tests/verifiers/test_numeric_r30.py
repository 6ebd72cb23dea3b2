"""verifiers/numeric: a fraction with a bracketed side is read as a careful grader reads it (session 30: the math
red team found ``(23)/(144)`` refused by exact_probability), and a bracket after a digit stays a product."""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.verifiers.numeric import read_exact


@pytest.mark.parametrize(("text", "value"), [
    ("(23)/(144)", Fraction(23, 144)), ("(-23)/144", Fraction(-23, 144)), ("23/(-144)", Fraction(-23, 144)),
    ("-(-23)/144", Fraction(23, 144)), ("-(23)/(144)", Fraction(-23, 144)), ("( 5 )/( 8 )", Fraction(5, 8)),
    ("(1,000)/(3)", Fraction(1000, 3)), ("(23)/(144) ≈ 0.16", Fraction(23, 144)),
])
def test_bracketed_sides(text, value):
    assert read_exact(text) == value


@pytest.mark.parametrize("text", ["2(3)/4", "(2)(3)/4", "(23)/(144) or 1/2", "(23)/(144)/(2)", "(2 3)/4"])
def test_not_a_bracketed_fraction(text):
    assert read_exact(text) is None
