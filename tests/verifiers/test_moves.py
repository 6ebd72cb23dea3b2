"""Move sequences: alphabet tokens (maze steps), place-to-place moves (Hanoi) and chess moves."""

from __future__ import annotations

import chess
import pytest

from palaestra.verifiers.chess_moves import looks_like_move, read_move, read_move_line, read_move_set
from palaestra.verifiers.moves import read_place_moves, read_tokens

STEPS = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R", "↑": "U"}

TOKENS = [
    ("U D L R", list("UDLR")),
    ("UDLR", list("UDLR")),
    ("udlr", list("UDLR")),
    ("U, D, L, R", list("UDLR")),
    ("U,D,L,R", list("UDLR")),
    ("U; D", list("UD")),
    ("U -> D -> L", list("UDL")),
    ("U→D", list("UD")),
    ("U-D-L", list("UDL")),
    ('["U", "D"]', list("UD")),
    ("['U', 'D']", list("UD")),
    ("(U, D)", list("UD")),
    ("up, down, left", list("UDL")),
    ("Up Down", list("UD")),
    ("up then right", list("UR")),
    ("1. U\n2. R\n3. R", list("URR")),
    ("U\nR\nR", list("URR")),
    ("↑ R", list("UR")),
    ("**RRDD**", list("RRDD")),
    # unreadable
    ("U, X", None),
    ("UDX", None),
    ("upward", None),
    ("U or D", None),
    ("RRDD, or maybe RRDR", None),
    ("RRDD. Or RDRD.", None),
    ("", None),
    ("1. 2.", None),
]


@pytest.mark.parametrize("text, moves", TOKENS)
def test_read_tokens(text: str, moves: list[str] | None) -> None:
    assert read_tokens(text, STEPS, max_count=20) == moves


def test_token_limits_and_case() -> None:
    assert read_tokens("U" * 20, STEPS, max_count=20) == ["U"] * 20
    assert read_tokens("U" * 21, STEPS, max_count=20) is None
    assert read_tokens("U " * 21, STEPS, max_count=20) is None
    assert read_tokens("u", "UDLR", max_count=5, case_sensitive=True) is None
    assert read_tokens("U", "UDLR", max_count=5, case_sensitive=True) == ["U"]
    assert read_tokens("none", STEPS, max_count=5) is None
    assert read_tokens("none", STEPS, max_count=5, allow_empty=True) == []
    assert read_tokens("[]", STEPS, max_count=5, allow_empty=True) == []
    assert read_tokens("  ", STEPS, max_count=5, allow_empty=True) is None  # no answer is not "no moves"
    assert read_tokens("up-left", {"up-left": 7, "up": 8}, max_count=5) == [7]  # a dash in a spelling is no separator


PEG_MOVES = [
    ("A->C", [("A", "C")]),  # hanoi: issue #9
    ("1. A->C", [("A", "C")]),  # hanoi: issue #9 (a numbered list)
    ("1. A->C\n2. A->B\n3. C->B", [("A", "C"), ("A", "B"), ("C", "B")]),
    ("1) A -> C\n2) A -> B", [("A", "C"), ("A", "B")]),
    ("Step 1: A -> C\nStep 2: A -> B", [("A", "C"), ("A", "B")]),
    ("A → C, A → B", [("A", "C"), ("A", "B")]),
    ("A to C, then A to B", [("A", "C"), ("A", "B")]),
    ("A-C A-B", [("A", "C"), ("A", "B")]),
    ("AC AB", [("A", "C"), ("A", "B")]),
    ("AC, AB", [("A", "C"), ("A", "B")]),
    ("(A, C), (A, B)", [("A", "C"), ("A", "B")]),
    ("a->c; a->b", [("A", "C"), ("A", "B")]),
    ("move disk 1 from A to C", [("A", "C")]),
    ("Move disk 1 from A to C\nMove disk 2 from A to B", [("A", "C"), ("A", "B")]),
    ("Move the top disk from peg A to peg C.", [("A", "C")]),
    ("Move a disk from rod A to rod C", [("A", "C")]),
    ("Moves: A->C, A->B", [("A", "C"), ("A", "B")]),
    ("[A->C, A->B]", [("A", "C"), ("A", "B")]),
    # unreadable
    ("A->C or A->B", None),
    ("A->C, maybe A->B", None),
    ("A->D", None),
    ("A->C, B", None),
    ("A->C. Then B is free.", None),  # a peg named in the remark
    ("BACK", None),
    ("", None),
]


@pytest.mark.parametrize("text, moves", PEG_MOVES)
def test_read_place_moves(text: str, moves: list | None) -> None:
    assert read_place_moves(text, "ABC", max_count=10) == moves


def test_place_moves_pieces_numbers_and_limits() -> None:
    assert read_place_moves("move disk 2 from A to C, then A to B", "ABC", max_count=5, pieces=True) == [
        ("A", "C", 2), ("A", "B", None)]
    assert read_place_moves("1. 1->3\n2. 1->2", ["1", "2", "3"], max_count=5) == [("1", "3"), ("1", "2")]
    assert read_place_moves("left to right", ["left", "middle", "right"], max_count=5) == [("left", "right")]
    assert read_place_moves(", ".join(["A->C"] * 11), "ABC", max_count=10) is None


START = chess.Board()
TWO_MATES = chess.Board("7k/8/6K1/8/8/8/1R6/R7 w - - 0 1")
PROMOTION = chess.Board("k7/4P3/8/8/8/8/8/K7 w - - 0 1")
CASTLING = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
PAWN_OR_BISHOP = chess.Board("7k/8/8/8/2p5/1P6/8/K4B2 w - - 0 1")  # b3xc4 and Bf1xc4 both land on c4

CHESS = [
    (START, "Nf3", "g1f3"),
    (START, "nf3", "g1f3"),
    (START, "NF3", "g1f3"),
    (START, "N-f3", "g1f3"),
    (START, "Ng1f3", "g1f3"),
    (START, "Ng1-f3", "g1f3"),
    (START, "g1f3", "g1f3"),
    (START, "G1F3", "g1f3"),
    (START, "E2E4", "e2e4"),  # mate_in_one: issue #9 (upper-case UCI)
    (START, "e2-e4", "e2e4"),
    (START, "E2-E4", "e2e4"),
    (START, "e4", "e2e4"),
    (START, "E4", "e2e4"),
    (START, "Pe4", "e2e4"),
    (START, "e2 to e4", "e2e4"),
    (START, "e2→e4", "e2e4"),
    (START, "1. e4", "e2e4"),
    (START, "Nf3!?", "g1f3"),
    (START, "**Nf3**", "g1f3"),
    (START, "`e2e4`", "e2e4"),
    (TWO_MATES, "Ra8#", "a1a8"),
    (TWO_MATES, "ra8", "a1a8"),
    (TWO_MATES, "RA8#", "a1a8"),
    (TWO_MATES, "A1A8", "a1a8"),
    (PROMOTION, "e8=Q", "e7e8q"),
    (PROMOTION, "e8=q", "e7e8q"),
    (PROMOTION, "e8Q", "e7e8q"),
    (PROMOTION, "e7e8q", "e7e8q"),
    (PROMOTION, "E7E8Q", "e7e8q"),
    (PROMOTION, "e8=N", "e7e8n"),
    (CASTLING, "O-O", "e1g1"),
    (CASTLING, "0-0", "e1g1"),
    (CASTLING, "o-o", "e1g1"),
    (CASTLING, "O-O-O", "e1c1"),
    (PAWN_OR_BISHOP, "bxc4", "b3c4"),  # standard SAN: the pawn
    (PAWN_OR_BISHOP, "Bxc4", "f1c4"),
    (PAWN_OR_BISHOP, "bc4", None),  # lower case: pawn or bishop, ambiguous
    (START, "Ke2", None),
    (START, "e5", None),
    (START, "0000", None),
    (START, "--", None),
    (START, "Nf3, or maybe Nc3", None),
    (START, "Nf3 Nc3", None),
    (PROMOTION, "e8", None),  # no promotion piece
    (START, "Qz9", None),
    (START, "", None),
]


@pytest.mark.parametrize("board, text, uci", CHESS)
def test_read_move(board: chess.Board, text: str, uci: str | None) -> None:
    move = read_move(board, text)
    assert (move.uci() if move else None) == uci


@pytest.mark.parametrize(
    "text, shaped", [("Qxh7#", True), ("QXH7", True), ("E2E4", True), ("e2 to e4", True), ("hello", False),
                     ("Nf3 Nc3", False), ("0000", False), ("x" * 5000, False)]
)
def test_looks_like_move(text: str, shaped: bool) -> None:
    assert looks_like_move(text) is shaped


@pytest.mark.parametrize(
    "text, ucis",
    [
        ("['d2d3', 'd2d4']", ["d2d3", "d2d4"]),  # legal_moves: issue #9
        ("d2d3 d2d4", ["d2d3", "d2d4"]),
        ("d3, d4", ["d2d3", "d2d4"]),
        ("d3 and d4", ["d2d3", "d2d4"]),
        ("{D2D3, D2D4}", ["d2d3", "d2d4"]),
        ("d3, d3", None),
        ("d3, d5", None),
        ("d3 or d4", None),
        ("0", None),
    ],
)
def test_read_move_set(text: str, ucis: list[str] | None) -> None:
    moves = read_move_set(START, text)
    assert (None if moves is None else [m.uci() for m in moves]) == ucis


@pytest.mark.parametrize("text", ["0", "none", "No legal moves.", "[]", "0 moves"])
def test_no_moves_when_the_caller_allows_it(text: str) -> None:
    """legal_moves: issue #9 (``0`` for a piece with no moves)."""
    assert read_move_set(START, text, allow_empty=True) == []


def test_read_move_line() -> None:
    assert [m.uci() for m in read_move_line(START, "1. e4 e5 2. Nf3")] == ["e2e4", "e7e5", "g1f3"]
    assert [m.uci() for m in read_move_line(START, "1.e4 e5 2.Nf3.")] == ["e2e4", "e7e5", "g1f3"]
    assert [m.uci() for m in read_move_line(START, "e2e4, e7e5")] == ["e2e4", "e7e5"]
    assert read_move_line(START, "e4 e4") is None  # the second e4 is Black's, and illegal
    assert read_move_line(START, "e4 " * 60, max_count=50) is None
    assert START.fen() == chess.STARTING_FEN  # the board is not changed
