"""A grouped number's first group never starts with 0 (round 3 session 29): "0 414" and "0,414" read as 414 before,
so a money answer "0 $106.00" was accepted for $106.00 and a European "0,414" read as four hundred and fourteen."""

import pytest

from palaestra.verifiers.numeric import read_number


@pytest.mark.parametrize("text", ["0 414", "00 414", "0,414", "0 000 414", "00,414"])
def test_a_group_starting_with_zero_is_no_grouped_number(text: str) -> None:
    assert read_number(text) is None


@pytest.mark.parametrize("text, value", [("1,414", 1414), ("1 414", 1414), ("12 345 678", 12345678), ("414", 414),
                                         ("10,000", 10000), ("0", 0), ("0.5", 0.5)])
def test_grouped_numbers_still_read(text: str, value: float) -> None:
    assert read_number(text) == value
