"""Yes/no, true/false and fixed option sets."""

from __future__ import annotations

import pytest

from palaestra.verifiers.choices import read_choice, read_option, read_yes_no

YES_NO = [
    ("yes", True),
    ("Yes.", True),
    ("YES", True),
    ("Yes!", True),
    ("YES!!!", True),
    ("Yes...", None),  # trailing off
    ("True", True),  # propositional: issue #9
    ("true", True),
    (r"\boxed{\text{Yes}}", True),
    ("**Yes**", True),
    ("The answer is yes.", True),
    ("Answer: True", True),
    ("'yes'", True),
    ("no", False),
    ("No.", False),
    ("FALSE", False),
    ("yes or no", None),
    ("Yes, no wait, no", None),
    ("Yes/No", None),
    ("Yes? ", None),
    ("Yes, but only if P.", None),
    ("Yes, it is not entailed.", None),  # a negation after yes contradicts it
    ("Yes, false.", None),
    ("No. Actually yes.", None),
    ("maybe", None),
    ("y", None),
    ("Nope", None),
    ("It is entailed.", None),
    ("", None),
    ("yes" * 1000, None),
]


@pytest.mark.parametrize("text, value", YES_NO)
def test_read_yes_no(text: str, value: bool | None) -> None:
    assert read_yes_no(text) is value


@pytest.mark.parametrize(
    "text, value",
    [("valid", True), ("Invalid.", False), ("The argument is valid.", True), ("invalid, as shown", None),
     ("valid or invalid", None), ("Valid, no wait, invalid", None), ("yes", True)],
)
def test_caller_synonyms(text: str, value: bool | None) -> None:
    read = read_yes_no(text, yes=("yes", "valid", "the argument is valid"), no=("no", "invalid"))
    assert read is value


@pytest.mark.parametrize(
    "text, value",
    [("entailed", True), ("not entailed", False), ("Not entailed, since P may be false.", None),
     ("Entailed, it is not.", None), ("Entailed. Not entailed.", None)],
)
def test_multi_word_spellings_match_longest_first(text: str, value: bool | None) -> None:
    assert read_yes_no(text, yes=("entailed",), no=("not entailed",)) is value


CHOICES = [
    ("A", "A"),
    ("a", "A"),
    ("(A)", "A"),
    ("A)", "A"),
    ("[A]", "A"),
    ("A.", "A"),
    ("option A", "A"),
    ("Option (A).", "A"),
    ("Choice C", "C"),
    ("The answer is A.", "A"),
    (r"\boxed{B}", "B"),
    ("**D**", "D"),
    ("C: 12", "C"),
    ("(C) 12", "C"),
    ("12", "C"),  # the option's text
    ("A or B", None),
    ("A, or maybe B", None),
    ("A, not B", None),
    ("A. B is wrong.", None),
    ("A B", None),
    ("E", None),
    ("AB", None),
    ("", None),
]


@pytest.mark.parametrize("text, label", CHOICES)
def test_read_choice(text: str, label: str | None) -> None:
    assert read_choice(text, "ABCD", texts={"A": "3", "B": "7", "C": "12", "D": "15"}) == label


def test_read_option_with_named_classes_and_caller_errors() -> None:
    classes = {"cat": ["cat", "a cat"], "dog": ["dog", "a dog"]}
    assert read_option("A cat.", classes) == "cat"
    assert read_option("Cat, not a dog.", classes) is None
    assert read_choice("c", "ABCD", synonyms={"C": ["third"]}) == "C"
    assert read_choice("third", "ABCD", synonyms={"C": ["third"]}) == "C"
    with pytest.raises(ValueError):  # a caller's mistake, found on the first call
        read_option("x", {1: ["same"], 2: ["same"]})
