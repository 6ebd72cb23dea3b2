"""Every shared reader never raises and returns quickly on hostile, huge or random text."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import chess
import pytest

from palaestra.verifiers.assignments import read_assignment, read_roles
from palaestra.verifiers.blocks import read_block, read_grid, same_block
from palaestra.verifiers.chess_moves import looks_like_move, read_move, read_move_line, read_move_set
from palaestra.verifiers.choices import read_choice, read_yes_no
from palaestra.verifiers.moves import read_place_moves, read_tokens
from palaestra.verifiers.numeric import (
    Tolerance,
    grade_number,
    is_inexact_decimal,
    max_fraction_digits,
    read_approx,
    read_exact,
    read_integer,
    unit_spellings,
)
from palaestra.verifiers.sets import read_list, read_set

BOARD = chess.Board()
READERS: dict[str, Callable[[str], object]] = {
    "read_exact": read_exact,
    "read_exact_units": lambda t: read_exact(t, units=unit_spellings("m/s"), mixed=True),
    "read_approx": read_approx,
    "read_integer": read_integer,
    "grade_number": lambda t: grade_number(t, 7, tolerance=Tolerance(absolute="0.5")),
    "is_inexact_decimal": lambda t: is_inexact_decimal(t, [2]),
    "max_fraction_digits": max_fraction_digits,
    "read_assignment": lambda t: read_assignment(t, ["x", "y"]),
    "read_roles": lambda t: read_roles(t, ["Ada", "Ben"], ["knight", "knave"]),
    "read_set": lambda t: read_set(t, read_exact, allow_or=True, allow_empty=True),
    "read_list": lambda t: read_list(t, space_separated=True),
    "read_yes_no": read_yes_no,
    "read_choice": lambda t: read_choice(t, "ABCD"),
    "read_block": read_block,
    "same_block": lambda t: same_block(t, " 8"),
    "read_grid": lambda t: read_grid(t, "0123456789"),
    "read_tokens": lambda t: read_tokens(t, "UDLR", max_count=1_000),
    "read_place_moves": lambda t: read_place_moves(t, "ABC", max_count=1_000),
    "read_move": lambda t: read_move(BOARD, t),
    "looks_like_move": looks_like_move,
    "read_move_set": lambda t: read_move_set(BOARD, t),
    "read_move_line": lambda t: read_move_line(BOARD, t),
}

HOSTILE = {
    "1 MB of x": "x" * 1_000_000,
    "1 MB of spaces": " " * 1_000_000,
    "1 MB of new lines": "\n" * 1_000_000,
    "1 MB of digits": "7" * 1_000_000,
    "100k digits": "9" * 100_000,
    "100k digits with a point": "1." + "3" * 100_000,
    "50k nested parentheses": "(" * 50_000 + "1" + ")" * 50_000,
    "50k nested braces": "{" * 50_000 + "}" * 50_000,
    "50k boxed": "\\boxed{" * 50_000 + "1" + "}" * 50_000,
    "nested parentheses within caps": "(" * 2_000 + "1" + ")" * 2_000,
    "nested braces within caps": "{" * 9_000 + "a" + "}" * 9_000,
    "many separators": "a, " * 300_000,
    "many short items within caps": "1, " * 6_000,
    "many breaks": "1. " * 200_000,
    "many dollars": "$" * 500_000,
    "many fences": "```\n" * 50_000,
    "spaces within caps": "1" + " " * 19_000 + "2",
    "space runs within caps": ("x" + " " * 50) * 350,
    "many moves": "A->C, " * 150_000,
    "many exponents": "1e" * 100_000,
    "latex soup": "\\frac{\\text{\\left(" * 5_000,
    "unicode": "−½≈∅∈→" * 100_000,
    "equals chain": "x = " * 100_000,
    "tail soup": "10. " + "That is it. " * 10_000,
}


def _fastest(read: Callable[[str], object], text: str, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.process_time()
        read(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs_return_in_under_50_ms(name: str) -> None:
    text = HOSTILE[name]
    slow = {reader: seconds for reader, read in READERS.items() if (seconds := _fastest(read, text)) > 0.05}
    assert not slow, f"{name}: {slow}"


ALPHABET = list("0123456789 .,;:-+*/^=()[]{}\\$`'\"\nxyzABCabc_!?≈~−½∅∈→") + [
    "\\frac", "\\boxed{", "\\text{", " and ", " or ", "yes", "no", "```", "e", "x =", "->", "Nf3", "\\left(", "∅",
]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_random_text_never_raises(reader: str) -> None:
    rng = random.Random(f"fuzz/{reader}")
    read = READERS[reader]
    for _ in range(1_500):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 40)))
        read(text)  # an exception fails the test


@pytest.mark.parametrize("reader", sorted(READERS))
def test_non_strings_are_unreadable(reader: str) -> None:
    for value in (None, 7, b"7", ["7"]):
        assert READERS[reader](value) in (None, False, 0)  # type: ignore[arg-type]
