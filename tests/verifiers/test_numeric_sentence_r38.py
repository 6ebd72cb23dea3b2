"""verifiers.numeric: a naming sentence ("The charge is 5 µC.") read for an env that asks one named quantity
(``sentence=True``), by a positive grammar; hedges, negations, second values and retractions stay unreadable."""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.verifiers.assignments import read_quantity
from palaestra.verifiers.numeric import grade_number, read_approx, read_exact, read_number, strip_sentence

UNITS = {"µC": 1, "uC": 1, "m/s": 1, "nC": Fraction(1, 1000)}

READ = [
    "The charge is 5 µC.", "The final velocity is 5 m/s.", "So the equilibrium price is 5.", "The charge on the plate is 5 µC",
    "The total charge equals 5 µC", "The charge is equal to 5 µC.", "**The charge is 5 µC.**", "The charge: 5 µC",
    "The charge = 5 µC", "Therefore, the charge Q is 5 µC.", "Answer: The charge is 5 µC", "The charge is 5000 nC.",
    "the   charge\nis 5 µC", "An equivalent charge is $5$ µC", "Its charge is \\boxed{5} µC.", "The Charge Is 5 µC",
]
REFUSED = [
    "Maybe the charge is 5", "The charge is 5 or 6", "The charge is not 5", "I think the charge might be 5",
    "The charge is 5. Actually the charge is 6", "The charge is 5, 6", "The wrong charge is 5",
    "The charge or the voltage is 5", "The charge is maybe 5", "The charge perhaps is 5", "The charge isn't 5",
    "The charge is 5 µC (or 6 µC)", "The charge is 5\nThe charge is 6", "The charge might be 5",
    "The charge is 5 and the voltage is 6", "Not the charge: 5", "The charge is at least 5", "The charge is 5?",
    "The charge is probably 5", "The charge is 5 µC, not 6 µC", "The charge could be 5", "Charge maybe is 5",
    "the charge is 5 or the charge is 6", "The charge is approximately 5", "The approximate charge is 5",
    "The charge is 5 seconds", "The charge of 5 is 6 and 5", "We think the charge is 5", "If the charge is 5",
    "The charge is either 5 or 6", "The charge, if anything, is 5", "The one or other charge is 5",
    "The charge on C5 is 5", "The molar mass of H2O is 5", "The mass of NaCl is 5", "The force in AB is 5",
    "The MAYBE charge is 5", "The NOT charge is 5",
]


@pytest.mark.parametrize("text", READ)
def test_sentence_names_the_one_value(text: str) -> None:
    assert read_exact(text, units=UNITS, sentence=True) == 5
    assert read_number(text, units=UNITS, sentence=True) == 5
    assert grade_number(text, 5, units=UNITS, sentence=True) is True
    assert read_quantity(text, UNITS, sentence=True) == 5


@pytest.mark.parametrize("text", REFUSED)
def test_sentence_refuses_hedges_negations_and_second_values(text: str) -> None:
    assert read_exact(text, units=UNITS, sentence=True) is None
    assert read_quantity(text, UNITS, sentence=True) is None


def test_sentence_is_opt_in_and_keeps_the_old_reading_otherwise() -> None:
    assert read_exact("The charge is 5 µC.", units=UNITS) is None  # an env that does not ask for one named value
    assert read_exact("So the equilibrium price is 5.") == 5  # a noun of the shared lead-in list, as before
    assert read_exact("x = 7/2", sentence=True) == Fraction(7, 2) and read_exact("7", sentence=True) == 7


def test_sentence_with_approximation_only_where_approximations_are_allowed() -> None:
    assert read_approx("The charge is approximately 5 µC", units=UNITS, sentence=True) == 5
    assert read_exact("The charge is approximately 5 µC", units=UNITS, sentence=True) is None
    assert read_exact("The charge is 5/3 ≈ 1.67 µC", units=UNITS, sentence=True) == Fraction(5, 3)
    assert read_exact("The charge is 5/3 ≈ 1.9 µC", units=UNITS, sentence=True) is None


def test_strip_sentence() -> None:
    assert strip_sentence("So the final velocity is 12/5 m/s.") == "12/5 m/s."
    assert strip_sentence("**The final velocity is 3*sqrt(2) m/s**") == "3*sqrt(2) m/s"
    for text in ("Maybe the velocity is 3", "The velocity might be 3", "3 m/s", "The wrong velocity is 3"):
        assert strip_sentence(text) == text


def test_sentence_is_bounded_on_long_subjects() -> None:
    long_subject = "The " + "very " * 5_000 + "charge is 5"
    assert read_exact(long_subject, sentence=True) is None
    assert read_exact("The a b c d e f charge is 5", sentence=True) is None  # a subject of more than six words
    assert read_exact("The a b c d e charge is 5", sentence=True) == 5


@pytest.mark.parametrize("text", ["The wrong value is 5", "The incorrect area is 5", "An approximate value is 5",
                                  "The other value is 5", "The value or the area is 5"])
def test_the_shared_lead_in_refuses_a_negated_or_hedged_noun(text: str) -> None:
    # The fixed-noun lead-in of verifiers.normalize took any three words before its noun: "The wrong value is 5"
    # read as 5. It now refuses the words a naming sentence may not hold, as the sentence grammar does.
    assert read_number(text) is None
    assert read_number(text.replace("5", "x = 5")) is None


@pytest.mark.parametrize("text", ["The smallest possible value is 5", "The expected value of X is 5",
                                  "The no-arbitrage price is 5", "The total is 5"])
def test_the_shared_lead_in_still_reads_plain_adjectives(text: str) -> None:
    assert read_number(text) == 5
