"""The shared clean-up and the one answer grammar every reader uses."""

from __future__ import annotations

import random
import re

import pytest

from palaestra.verifiers.expressions import parse_expression
from palaestra.verifiers.normalize import (
    closing_bracket,
    is_closing,
    mentions,
    read_answer,
    simplify_latex,
    split_top_level,
    strip_wrappers,
    unify,
)


@pytest.mark.parametrize(
    "text, inner",
    [
        (r"\boxed{10}", "10"),
        (r"\boxed{\frac{1}{2}}", r"\frac{1}{2}"),
        (r"$\boxed{x}$", "x"),
        ("$$x$$", "x"),
        (r"\(x\)", "x"),
        (r"\[x\]", "x"),
        ("**x**", "x"),
        ("`x`", "x"),
        ("```x```", "x"),
        ("```text\nx\n```", "x"),
        ("~~~\nx\n~~~", "x"),
        (r"\text{Yes}", "Yes"),
        ('"x"', "x"),
        ("“x”", "x"),
        ("Answer: x", "x"),
        ("answer x", "x"),
        ("Final answer: x", "x"),
        ("The final answer is x", "x"),
        ("The answers are x", "x"),
        ("**Answer:** x", "x"),
        ("Therefore, x", "x"),
        ("So x", "x"),
        ("  x  ", "x"),
        # only whole-answer wrappers go
        (r"\boxed{1} + \boxed{2}", r"\boxed{1} + \boxed{2}"),
        ("$1$ and $2$", "$1$ and $2$"),
        ("'a', 'b'", "'a', 'b'"),
        ("Answers", "Answers"),
        ("Sofia", "Sofia"),
        ("**x", "**x"),
        (r"\boxed{x", r"\boxed{x"),
    ],
)
def test_strip_wrappers(text: str, inner: str) -> None:
    assert strip_wrappers(text) == inner


def test_unify_and_latex() -> None:
    assert unify("\u2212\u00a01\u200b\r\n") == "- 1\n"
    assert simplify_latex(r"\left( \dfrac{1}{2} \right)") == r"( \frac{1}{2} )"
    assert simplify_latex(r"x \in \{1, 2\} \cup \emptyset") == r"x ∈ {1, 2} \cup ∅"
    assert simplify_latex(r"2 \text{ or } 3") == "2  or  3"
    assert simplify_latex(r"x = 1 \\ y = 2") == "x = 1 \n y = 2"
    assert simplify_latex(r"\infty \int") == r"∞ \int"  # \in must not eat \int or \infty


# The grammar's closing: punctuation and markup only. The tails the old word-list rule read past as remarks
# (". That is the total.", " (the total)", ", it is entailed.") are no longer closings: a remark cannot be told
# from a retraction without reading it.
CLOSINGS = [".", "!", "", " ", "**.**", " .", "\n"]
NOT_CLOSINGS = [
    ". That is the total.",
    ", it is entailed.",
    " — the premises do not entail it",
    "\n\nThat is all of them.",
    " (the total)",
    ". Done.",
    " = 85",
    ", or maybe 12",
    ". Wait, no.",
    "...",
    ". That is not the answer.",
    "\nJust kidding, I do not know.",
    ". " + "." * 300,
]


@pytest.mark.parametrize("tail", CLOSINGS)
def test_closings(tail: str) -> None:
    assert is_closing(tail)


@pytest.mark.parametrize("tail", NOT_CLOSINGS)
def test_remarks_are_not_closings(tail: str) -> None:
    assert not is_closing(tail)


def test_mentions() -> None:
    assert mentions("(B)", ["B"]) and not mentions("AB", ["B"]) and not mentions("b", ["B"])


def _digits(text: str) -> str | None:
    return text if re.fullmatch(r"\d+", text) else None


@pytest.mark.parametrize(
    "text, read",
    [
        ("10", "10"),
        ("10.", "10"),
        (r"\boxed{10}.", "10"),
        ("Answer: **10**.", "10"),
        ("10. That is the total.", None),
        (r"\boxed{10}. That is the total.", None),
        ("Answer: 10. Done.", None),
        ("10, or maybe 12", None),
        ("10 (or 12)", None),
        ("10 (the total)", None),
        ("10 = 10", None),
        ("10 is the answer", None),
        ("10.5", None),
        ("10!", None),
        ("10...", None),
    ],
)
def test_read_answer(text: str, read: str | None) -> None:
    assert read_answer(text, _digits) == read


def test_declared_units_are_the_only_words_after_an_answer() -> None:
    paths = ["shortest paths", "paths"]
    assert read_answer("There are 10 shortest paths.", _digits, units=paths) == "10"
    assert read_answer("10 paths", _digits, units=paths) == "10"
    assert read_answer("10 apples", _digits, units=paths) is None
    assert read_answer("10 shortest paths. Or maybe not.", _digits, units=paths) is None
    assert read_answer("10paths", _digits, units=paths) is None  # a unit after a letter is part of a word


def test_countdown_equation_tail_is_not_ignored() -> None:
    """issue #9: ``(8 + 4) * 7 = 85`` must not be read as ``(8 + 4) * 7``; nor is a remark after it read past."""

    def expression(text: str):
        return parse_expression(text, operators=("+", "-", "*", "/"), functions=(), constants=False)

    assert read_answer("(8 + 4) * 7 = 85", expression) is None
    assert read_answer("(8 + 4) * 7. That uses every number once.", expression) is None
    assert read_answer("(8 + 4) * 7.", expression) is not None


def test_split_top_level_keeps_brackets_together() -> None:
    separator = re.compile(r" ?, ?")
    assert split_top_level(r"\frac{1}{2}, (1, 2), [3, 4], 5", separator) == [
        ("", r"\frac{1}{2}"), (", ", "(1, 2)"), (", ", "[3, 4]"), (", ", "5")
    ]
    assert split_top_level("a), b", separator) == [("", "a)"), (", ", "b")]  # unbalanced: never below depth 0


@pytest.mark.parametrize("text", ["Move: c4", "**Move:** c4", "my next move: c4", "Guess: c4", "bid: c4"])
def test_a_move_label_is_a_lead_in(text):
    assert strip_wrappers(text) == "c4"


@pytest.mark.parametrize("text", ["moves: c4", "move c4", "Guess c4"])
def test_other_move_wordings_are_left_to_the_env(text):
    assert strip_wrappers(text) == text


@pytest.mark.parametrize("text, inner", [
    ("The coefficient is 27/4.", "27/4."), ("The minimum cost is 7", "7"), ("The area of the triangle is 6", "6"),
    ("the expected value equals 7/2", "7/2"), ("The number of ways to choose 5 is 10", "10"),
])
def test_a_named_quantity_is_a_lead_in(text, inner):
    assert strip_wrappers(text) == inner


@pytest.mark.parametrize("text", ["The Brit owns the zebra", "The culprit is Ann", "Ursula is Adam's father-in-law"])
def test_sentences_that_are_answers_keep_their_subject(text):
    assert strip_wrappers(text) == text


def _closing_by_hand(text: str, start: int) -> int:
    """The bracket closing ``text[start]``, found one character at a time (the definition closing_bracket speeds up)."""
    if not 0 <= start < len(text) or text[start] not in "([{":
        return -1
    opener, closer, depth = text[start], {"(": ")", "[": "]", "{": "}"}[text[start]], 0
    for i in range(start, len(text)):
        depth += (text[i] == opener) - (text[i] == closer)
        if depth == 0:
            return i
    return -1


def test_closing_bracket_agrees_with_a_scan_by_hand_on_short_and_long_texts() -> None:
    rng = random.Random(7)
    for _ in range(400):
        size = rng.choice([3, 40, 300, 2_000, 20_000])
        text = "{" * rng.randrange(size) + "".join(rng.choice("{}()[]x日\ud800") for _ in range(size))
        start = rng.randrange(len(text))
        assert closing_bracket.__wrapped__(text, start) == _closing_by_hand(text, start)

