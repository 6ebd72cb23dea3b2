"""Sets (order free) and lists (order kept) with caller-given item readers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.sets import one_of, read_items, read_list, read_set

TWO_THREE = frozenset({Fraction(2), Fraction(3)})

SOLUTION_SETS = [
    "{2, 3}",
    r"\{2, 3\}",
    r"\left\{ 2, 3 \right\}",
    "[2, 3]",
    "(2, 3)",
    "2, 3",
    "3, 2",
    "2 and 3",
    "2, and 3",
    "2; 3",
    "2\n3",
    "- 2\n- 3",
    "1. 2\n2. 3",
    "x = 2, x = 3",
    "x = 2 and x = 3",
    r"x_{1,2} = 2, 3",  # solve_equation: issue #9
    "x_1 = 2, x_2 = 3",
    r"x_{1} = 2, x_{2} = 3",
    r"x \in \{2, 3\}",  # solve_equation: issue #9
    "x ∈ {2, 3}",
    "S = {2, 3}",
    "Solutions: 2, 3",
    "The solutions are 2 and 3.",
    "2, 3,",
    "'2', '3'",
    r"$2$, $3$",
    r"\boxed{2, 3}",
]


@pytest.mark.parametrize("text", SOLUTION_SETS)
def test_set_spellings(text: str) -> None:
    assert read_set(text, read_exact) == TWO_THREE


@pytest.mark.parametrize(
    "text, allowed",
    [("2 or 3", TWO_THREE), (r"2 \text{ or } 3", TWO_THREE), ("x = 2 or x = 3", TWO_THREE), ("2, or 3", TWO_THREE),
     ("2 or 3 or 4", frozenset({2, 3, 4}))],
)
def test_or_is_a_hedge_unless_the_caller_asks_for_all_solutions(text: str, allowed: frozenset) -> None:
    assert read_set(text, read_exact) is None
    assert read_set(text, read_exact, allow_or=True) == allowed


@pytest.mark.parametrize(
    "text",
    ["2, or maybe 3", "2, 3 (or 4)", "{2, 3} and 4", "2, 3, x", "2, , 3", "2, 3. Or 4.", "2 3", "", "{", "2,, 3",
     "x = 2, y = 3", "2, 3, ...", "{2, 3}, {4}", "either 2 or 3", "2 and/or 3", "lambda x: 1"]
)
def test_malformed_sets_are_unreadable(text: str) -> None:
    assert read_set(text, read_exact, allow_or=True) is None


@pytest.mark.parametrize(
    "text",
    ["∅", r"\emptyset", r"\varnothing", "{}", r"\{\}", "[]", "none", "None.", "no solutions", "No real solutions.",
     "There are no solutions.", "the empty set", "S = ∅", r"x \in \emptyset"],
)
def test_empty_set_only_when_enabled(text: str) -> None:
    assert read_set(text, read_exact) is None
    assert read_set(text, read_exact, allow_empty=True) == frozenset()


def test_blank_text_is_no_answer_not_the_empty_set() -> None:
    assert read_set("", read_exact, allow_empty=True) is None
    assert read_set("  \n ", read_exact, allow_empty=True) is None
    assert read_set("S = ", read_exact, allow_empty=True) is None


def test_extra_empty_words() -> None:
    assert read_set("0", allow_empty=True) == {"0"}  # "0" is a token unless the caller names it a spelling of none
    assert read_set("0", one_of(["e2e4"]), allow_empty=True, empty_words=["0"]) == frozenset()


def test_duplicates_policy() -> None:
    assert read_set("2, 2", read_exact) is None
    assert read_set("2, 2", read_exact, duplicates="merge") == {2}
    assert read_list("2, 2", read_exact) == [2, 2]
    assert read_items("2, 3, 2", read_exact, duplicates="merge") == [2, 3]
    assert read_items("[1, 2], [1, 2]", read_list, duplicates="reject") is None  # unhashable items compare by ==
    with pytest.raises(ValueError):
        read_items("a", duplicates="twice")


CAUSAL = one_of(["A3", "H3", "B1", "Z"])


@pytest.mark.parametrize(
    "text, expected",
    [
        ("S = {A3, H3}", {"A3", "H3"}),  # causal backdoor: issue #9
        ("A3 and H3", {"A3", "H3"}),  # causal backdoor: issue #9
        ("{a3, h3}", {"A3", "H3"}),
        ("A3, H3, and B1", {"A3", "H3", "B1"}),
        ("A3 or H3", None),
        ("A3 and Q7", None),
        ("A3 H3", None),
    ],
)
def test_vocabulary_items(text: str, expected: set | None) -> None:
    assert read_set(text, CAUSAL) == (None if expected is None else frozenset(expected))


def test_space_separated_and_ordered_lists() -> None:
    assert read_set("A3 H3", CAUSAL, space_separated=True) == {"A3", "H3"}
    assert read_set("A3 H3 are the set", CAUSAL, space_separated=True) is None
    assert read_list("['d2d3', 'd2d4']") == ["d2d3", "d2d4"]  # legal_moves: issue #9
    assert read_list('["b", "a"]') == ["b", "a"]
    assert read_list("3, 1, 2", read_exact) == [3, 1, 2]
    assert read_list("(1, 2), (3, 4)", lambda t: read_list(t, read_exact)) == [[1, 2], [3, 4]]
    assert read_list("x = 1, y = 2", prefix=False, read_item=lambda t: t) == ["x = 1", "y = 2"]


def test_expand_one_item_into_several() -> None:
    def plus_minus(text: str):
        base, sep, delta = text.partition("±")
        return [base + "+" + delta, base + "-" + delta] if sep else [text]

    def read_sum(text: str):
        left, op, right = text.partition("+") if "+" in text else text.partition("-")
        a, b = read_exact(left), read_exact(right)
        return None if a is None or b is None else (a + b if op == "+" else a - b)

    assert read_set("x = 1 ± 2", read_sum, expand=plus_minus) == {3, -1}


def test_item_and_size_limits() -> None:
    assert read_list(", ".join(["a"] * 1000)) is not None
    assert read_list(", ".join(["a"] * 1001)) is None
    assert read_list("a, b, c", max_items=2) is None
    assert read_list("a" * 201) is None
    assert read_list("x" * 20_001) is None
