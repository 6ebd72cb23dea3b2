"""Session 23: right answers the shared readers refused, and the wrong or hedged answers next to them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_exact, read_integer, unit_spellings


@pytest.mark.parametrize(
    "text",
    ["-(5/57)", "−(5/57)", r"-\left(5/57\right)", r"-(\frac{5}{57})", "x = -(5/57)", r"\boxed{-(5/57)}", "-(5/57)."],
)
def test_a_sign_before_a_bracketed_number_reads(text: str) -> None:
    assert read_exact(text) == Fraction(-5, 57)


@pytest.mark.parametrize(
    "text",
    ["- 5/57", "- (5/57)", "-(5/57) or 5/57", "-(5/57), 5/57", "-(5)(7)", "-(5/57). That is it.", "-(2+3)", "-(≈5)"],
)
def test_a_bullet_a_hedge_or_an_expression_after_a_sign_stays_unread(text: str) -> None:
    assert read_exact(text) is None


def test_a_signed_bracketed_number_takes_its_unit() -> None:
    assert read_exact("-(7) m/s", units=unit_spellings("m/s")) == -7


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("The digits are 807.", 807),
        ("The three digits are 807", 807),
        ("The position is 18.", 18),
        ("The roots are 4", 4),
    ],
)
def test_a_plural_naming_sentence_reads(text: str, answer: int) -> None:
    assert read_integer(text) == answer


@pytest.mark.parametrize(
    "text", ["The digits are not 807", "The digits are 807 or 808", "The digits are 807. No.", "The culprits are 807"]
)
def test_a_naming_sentence_reads_nothing_past_its_answer(text: str) -> None:
    assert read_integer(text) is None


def test_the_naming_sentence_lead_in_goes_only_before_an_answer() -> None:
    assert strip_wrappers("The digits are 807") == "807"
    assert strip_wrappers("The culprit is Ann") == "The culprit is Ann"


def test_subscript_digits_in_names_read_as_digits() -> None:
    assert read_assignment("[O₂] = 0.01, [NO₂] = 0.44".replace("[", "").replace("]", ""), ["O2", "NO2"]) == {
        "O2": Fraction(1, 100),
        "NO2": Fraction(44, 100),
    }
    assert read_assignment("x₁ = 2, x₂ = 3", ["x_1", "x_2"]) == {"x_1": 2, "x_2": 3}


def test_subscript_digits_do_not_make_a_hedge_or_a_value() -> None:
    assert read_assignment("O₂ = 0.01, O2 = 0.02", ["O2"]) is None  # one name, two values
    assert read_assignment("x = 3₂", ["x"]) is None  # a subscript after a digit is not read as one


@pytest.mark.parametrize(
    "text", ["5⁄57", "5∕57", r"\displaystyle \frac{5}{57}", r"\boxed{\displaystyle\frac{5}{57}}", r"\textstyle 5/57"]
)
def test_fraction_slashes_and_display_style_read(text: str) -> None:
    assert read_exact(text) == Fraction(5, 57)


@pytest.mark.parametrize("text", ["5⁄57 or 6⁄57", r"\displaystyle", r"\displaystyles 5/57", "5⁄57⁄2"])
def test_fraction_slashes_and_display_style_read_nothing_else(text: str) -> None:
    assert read_exact(text) is None


def test_bulleted_assignments_and_moves_read() -> None:
    from palaestra.verifiers.moves import read_place_moves

    assert read_assignment("- x = 2\n- y = 3", ["x", "y"]) == {"x": 2, "y": 3}
    assert read_assignment("* x = 2\n* y = 3.", ["x", "y"]) == {"x": 2, "y": 3}
    assert read_place_moves("- A->C\n- A->B", "ABC", max_count=5) == [("A", "C"), ("A", "B")]
    assert read_place_moves("Moves:\n• A->C\n• A->B", "ABC", max_count=5) == [("A", "C"), ("A", "B")]


@pytest.mark.parametrize(
    "text", ["- x = 2\n- y = 3\n- or y = 4", "- x = 2\n- y = 3\n- y = 4", "- x = 2\n* y = 3", "- x = 2\n- y = 3\nNo."]
)
def test_bullets_carry_no_hedge_or_mixed_list(text: str) -> None:
    assert read_assignment(text, ["x", "y"]) is None
