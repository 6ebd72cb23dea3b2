"""Each grading defect listed in issue #9, as the shared readers now read it.

The envs move onto these readers later; this table pins the readers' side of every fix.
"""

from __future__ import annotations

import chess

from palaestra.verifiers.assignments import read_assignment, read_roles
from palaestra.verifiers.blocks import same_block
from palaestra.verifiers.chess_moves import looks_like_move, read_move, read_move_set
from palaestra.verifiers.choices import read_yes_no
from palaestra.verifiers.expressions import parse_expression
from palaestra.verifiers.moves import read_place_moves
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import (
    Tolerance,
    grade_number,
    is_inexact_decimal,
    read_approx,
    read_exact,
    read_integer,
    unit_spellings,
)
from palaestra.verifiers.sets import one_of, read_set


def test_right_answers_that_were_rejected() -> None:
    assert read_assignment("(x, y) = (-6, 5)", ["x", "y"]) == {"x": -6, "y": 5}  # linear_system
    assert read_set(r"x_{1,2} = -1, 4", read_exact) == {-1, 4}  # solve_equation
    assert read_set(r"x \in \{-1, 4\}", read_exact) == {-1, 4}
    assert read_set(r"2 \text{ or } 3", read_exact, allow_or=True) == {2, 3}
    for text in ("(10)", r"\boxed{10}", "10e0"):  # arithmetic/expression
        assert read_exact(text) == 10, text
    board = chess.Board()
    assert [m.uci() for m in read_move_set(board, "['d2d3', 'd2d4']")] == ["d2d3", "d2d4"]  # legal_moves
    assert read_move_set(board, "0", allow_empty=True) == []
    assert looks_like_move("E2E4") and read_move(board, "E2E4") == chess.Move.from_uci("e2e4")  # mate_in_one
    variables = one_of(["A3", "H3", "B2"])
    assert read_set("S = {A3, H3}", variables) == read_set("A3 and H3", variables) == {"A3", "H3"}  # graph_query
    assert read_yes_no("True") is True and read_yes_no("Yes.") is True  # propositional
    assert read_roles("Ada is a knight and Ben is a knave", ["Ada", "Ben"], ["knight", "knave"]) == {
        "Ada": "knight", "Ben": "knave"}  # knights_knaves
    assert read_approx("≈ 7", units=unit_spellings("m/s")) == 7  # kinematics, where approximation is allowed
    assert read_place_moves("1. A->C", "ABC", max_count=7) == [("A", "C")]  # hanoi
    assert read_integer("481.0") == 481  # guess_number
    assert same_block("```\n 8\n```", " 8") is True  # output_prediction: the fence keeps the leading space


def test_wrong_answers_that_were_accepted() -> None:
    assert is_inexact_decimal("2.000000001", [2])  # solve_equation demands exact values
    assert is_inexact_decimal("1.4142135624")  # a 10-digit decimal is not the surd √2
    assert grade_number("26.02", 26, tolerance=Tolerance.decimals(2)) is False  # beam_statics: two decimals
    assert read_exact("7 seconds", units=unit_spellings("m/s")) is None  # kinematics: a time is no velocity
    assert read_exact("≈ 7", units=unit_spellings("m/s")) is None  # and no marker where exact is asked
    assert same_block("8", " 8") is False  # output_prediction: leading whitespace is significant

    def countdown(text: str):
        return parse_expression(text, operators=("+", "-", "*", "/"), functions=(), constants=False)

    assert read_answer("(8 + 4) * 7 = 85", countdown) is None  # countdown: "= 85" is not ignored
    assert read_exact("(8 + 4) * 7 = 85") is None


def test_numbers_on_separate_lines_are_two_answers_not_one() -> None:
    from palaestra.verifiers.numeric import read_exact

    assert read_exact("481\n482") is None and read_exact("481\n\n482") is None
    assert read_exact("482\n") == 482
