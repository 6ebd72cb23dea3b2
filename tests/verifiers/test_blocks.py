"""Multi-line answers: program output and grids, with per-env whitespace policy."""

from __future__ import annotations

import pytest

from palaestra.verifiers.blocks import read_block, read_grid, same_block

BLOCKS = [
    # text, expected lines with leading whitespace kept (the program-output policy)
    ("```\n 8\n```", [" 8"]),  # output_prediction: issue #9 (the fenced exact output starting with a space)
    ("```text\n 8\n 9\n```", [" 8", " 9"]),
    ("```output\n  a\nb  \n```", ["  a", "b"]),
    ("~~~\n 8\n~~~", [" 8"]),
    ("````\n```\n````", None),  # a fence inside a fence is ambiguous
    ("``` 8```", [" 8"]),
    ("```8```", ["8"]),
    ("Output:\n```\n 8\n```", [" 8"]),
    ("The program prints:\n\n```\n 8\n```", [" 8"]),
    ("```\n 8\n```\n\n", [" 8"]),
    ("\n\n 8 \n\n", [" 8"]),
    ("a\r\nb\r\n", ["a", "b"]),
    ("a\n\nb", ["a", "", "b"]),  # inner blank lines are output
    ("```\n\n 8\n\n```", [" 8"]),
    # unreadable
    ("```\n 8\n", None),  # unclosed fence
    ("```\na\n```\n```\nb\n```", None),  # two blocks
    ("I ran it in my head and then wrote this:\n```\n8\n```", ["8"]),  # a label line ending in ":"
    ("I ran it in my head.\n```\n8\n```", None),  # prose before the fence is no label
    ("Maybe 9, or:\nperhaps\n```\n8\n```", None),
    ("```\n 8\n```\nThe output is 9.", None),  # a remark with digits may change the answer
    ("", None),
    ("\n \n", None),
]


@pytest.mark.parametrize("text, lines", BLOCKS)
def test_read_block_keeping_leading_whitespace(text: str, lines: list[str] | None) -> None:
    assert read_block(text) == lines


@pytest.mark.parametrize(
    "text, expected, policy, same",
    [
        ("```\n 8\n```", " 8", {}, True),
        ("8", " 8", {}, False),  # output_prediction: issue #9 (8 is not " 8" where leading space is significant)
        (" 8", " 8", {}, True),
        ("8", " 8", {"leading": "strip"}, True),
        ("  a\n  b", "a\nb", {"leading": "dedent"}, True),
        ("  a\n    b", "a\nb", {"leading": "dedent"}, False),
        ("a  \nb", "a\nb", {}, True),
        ("a  \nb", "a\nb", {"trailing": "keep"}, False),
        ("\na\n", "a", {}, True),
        ("\na", "\na", {"blank_edges": False}, True),
        ("a", "\na", {"blank_edges": False}, False),
        ("```\n```", "", {}, None),
        ("x\ty", "x    y", {}, False),  # tabs are not spaces
    ],
)
def test_same_block(text: str, expected: str, policy: dict, same: bool | None) -> None:
    assert same_block(text, expected, **policy) is same


def test_policy_names_are_checked() -> None:
    with pytest.raises(ValueError):
        read_block("x", leading="sometimes")


DIGITS = "0123456789"
GRIDS = [
    ("12\n34", [["1", "2"], ["3", "4"]]),
    ("1 2\n3 4", [["1", "2"], ["3", "4"]]),
    ("1,2\n3,4", [["1", "2"], ["3", "4"]]),
    ("| 1 | 2 |\n| 3 | 4 |", [["1", "2"], ["3", "4"]]),
    ("1 2 | 3\n------+---\n4 5 | 6", [["1", "2", "3"], ["4", "5", "6"]]),
    ("123 456\n789 123", [list("123456"), list("789123")]),  # sudoku-style box spacing
    ("[[1, 2], [3, 4]]", [["1", "2"], ["3", "4"]]),
    ("[[1, 2],\n [3, 4]]", [["1", "2"], ["3", "4"]]),
    ("[1, 2]\n[3, 4]", [["1", "2"], ["3", "4"]]),
    ("```\n12\n34\n```", [["1", "2"], ["3", "4"]]),
    ("12\n3", None),
    ("12\n3a", None),
    ("12\n34\n56 is the last row", None),
    ("", None),
]


@pytest.mark.parametrize("text, rows", GRIDS)
def test_read_grid(text: str, rows: list[list[str]] | None) -> None:
    assert read_grid(text, DIGITS) == rows


def test_grid_alphabets() -> None:
    assert read_grid("#.#\n...", "#.") == [["#", ".", "#"], [".", ".", "."]]
    assert read_grid("10 2\n3 11", [str(n) for n in range(16)]) == [["10", "2"], ["3", "11"]]
    assert read_grid("a b\nc", None, rectangular=False) == [["a", "b"], ["c"]]
    assert read_grid("'X', 'O'\n'O', 'X'", "XO") == [["X", "O"], ["O", "X"]]
    assert read_grid("1" * 101 + "\n", DIGITS, max_cells=100) is None
