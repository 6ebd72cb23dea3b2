"""Env-specific behaviour of strings/compose, chess/*, causal/graph_query and code/output_prediction."""

from __future__ import annotations

import contextlib
import io
import random

import chess
import networkx as nx
import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.chess import mate_in_one
from palaestra.envs.strings.compose import PRIMITIVES

# --- strings/compose ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "k", "expected"),
    [
        ("caesar", "xyZ", 3, "abC"),
        ("rotate_left", "abcde", 7, "cdeab"),  # k modulo the length
        ("rotate_right", "abcde", 1, "eabcd"),
        ("swap_pairs", "abcde", 0, "badce"),  # the last unpaired character stays
        ("sort", "bAaB", 0, "ABab"),
        ("odd_positions", "abcdef", 0, "ace"),
        ("drop_vowels", "bEaUty", 0, "bty"),
        ("collapse_runs", "aabccca", 0, "abca"),
        ("upper_odd", "abcde", 0, "AbCdE"),
        ("take_first", "ab", 5, "ab"),
    ],
)
def test_string_primitives_match_their_definitions(name: str, text: str, k: int, expected: str) -> None:
    assert PRIMITIVES[name].apply(text, k) == expected


def test_compose_depth_grows_and_verifier_is_exact_but_lenient_on_quotes() -> None:
    task = make_source("strings/compose")
    depths = [task.sample(level, 3).data["expression"].count("(") for level in range(5)]
    assert depths == sorted(depths) and depths[0] == 1 and depths[-1] >= 5
    p = task.sample(2, 5)
    assert task.verify(p, f'  "{p.answer}" ').correct
    if p.answer.lower() != p.answer.upper():
        wrong_case = task.verify(p, p.answer.swapcase())
        assert not wrong_case.correct and "case" in wrong_case.feedback
    assert not task.verify(p, p.answer + "x").correct


# --- chess/mate_in_one ---------------------------------------------------------

TWO_MATES = "7k/8/6K1/8/8/8/1R6/R7 w - - 0 1"  # Ra8# and Rb8# both mate


def test_any_mating_move_is_accepted_in_san_or_uci() -> None:
    task = make_source("chess/mate_in_one")
    p = Problem(answer="Ra1-a8#", data={"fen": TWO_MATES, "mates": 2})
    for answer in ("Ra8#", "Ra8", "a1a8", "Rb8#", "b2b8", "1. Rb8#", "Rb2-b8#", "ra8", "A1A8", "RB8#"):
        assert task.verify(p, answer).correct, answer


@pytest.mark.parametrize(
    ("answer", "parsed", "reason"),
    [
        ("Ra7", True, "not checkmate"),
        ("Kg7", True, "not a legal move"),  # next to the enemy king
        ("h1h8", True, "not a legal move"),  # no piece there
        ("0000", False, ""),  # python-chess would read a null move
        ("--", False, ""),
        ("Qz9#", False, ""),
        ("Ra8 or Ra7", False, ""),  # a hedge between two moves
        ("x" * 5000, False, ""),
    ],
)
def test_wrong_or_malformed_moves_are_rejected_without_exception(answer: str, parsed: bool, reason: str) -> None:
    task = make_source("chess/mate_in_one")
    v = task.verify(Problem(answer="Ra1-a8#", data={"fen": TWO_MATES, "mates": 2}), answer)
    assert not v.correct and v.parsed == parsed and reason in v.feedback


def test_high_levels_have_a_unique_mate_checked_by_the_library() -> None:
    task = make_source("chess/mate_in_one")
    for seed in range(5):
        p = task.sample(4, seed)
        board = chess.Board(p.data["fen"])
        mates = [m for m in board.legal_moves if mate_in_one._mates(board, m)]
        assert len(mates) == p.data["mates"] == 1
        assert board.lan(mates[0]) == p.answer


def test_checking_move_filter_finds_every_check() -> None:
    rng = random.Random(0)
    config = mate_in_one.MateInOne().config(4)
    boards = [b for b in (mate_in_one._random_position(rng, config) for _ in range(300)) if b is not None]
    for board in boards:
        checks = mate_in_one._checking_moves(board)
        assert set(checks) == {m for m in board.legal_moves if board.gives_check(m)} and len(set(checks)) == len(checks)


# --- chess/legal_moves -----------------------------------------------------------

def test_piece_moves_in_any_order_and_notation() -> None:
    task = make_source("chess/legal_moves")
    start = chess.Board().fen()
    p = Problem(answer="g1f3 g1h3", data={"fen": start, "kind": "list", "square": "g1", "moves": ["g1f3", "g1h3"]})
    assert task.verify(p, "Nh3, Nf3").correct
    assert task.verify(p, "[g1h3, g1f3, g1f3]").correct
    assert "missing" in task.verify(p, "g1f3").feedback
    assert "does not move the piece" in task.verify(p, "g1f3 g1h3 e2e4").feedback
    assert "not a legal move" in task.verify(p, "g1f3 g1h3 g1e2").feedback
    assert not task.verify(p, "none").correct


def test_stuck_piece_answers_none_and_count_questions_take_a_number() -> None:
    task = make_source("chess/legal_moves")
    pinned = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"  # the bishop on e2 is pinned to its king
    p = Problem(answer="none", data={"fen": pinned, "kind": "list", "square": "e2", "moves": []})
    assert task.verify(p, "None").correct and not task.verify(p, "e2d3").correct
    count = Problem(answer="20", data={"fen": chess.Board().fen(), "kind": "count", "count": 20})
    assert task.verify(count, "20").correct and not task.verify(count, "21").correct


def test_far_levels_generate_at_every_seed() -> None:
    # Before version 5 game lengths grew without end: at level 40, 3 seeds in 30 failed after replaying for seconds.
    task = make_source("chess/legal_moves")
    assert task.level_config(40) == task.level_config(13)
    for seed in range(300_000, 300_030):
        assert chess.Board(task.sample(40, seed).data["fen"]).ply() >= task.level_config(40).min_plies


def test_generated_lists_are_the_library_legal_moves() -> None:
    task = make_source("chess/legal_moves")
    for seed in range(20):
        p = task.sample(3, seed)
        board = chess.Board(p.data["fen"])
        if p.data["kind"] == "count":
            assert p.data["count"] == board.legal_moves.count()
        else:
            square = chess.parse_square(p.data["square"])
            assert p.data["moves"] == sorted(m.uci() for m in board.legal_moves if m.from_square == square)


# --- causal/graph_query -----------------------------------------------------------

def _graph(p: Problem) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(p.data["nodes"])
    g.add_edges_from(p.data["edges"])
    return g


def test_dsep_answers_agree_with_networkx_and_are_balanced() -> None:
    task = make_source("causal/graph_query")
    labels = []
    for seed in range(120):
        p = task.sample(3, seed)
        if p.data["kind"] != "dsep":
            continue
        truth = nx.is_d_separator(_graph(p), {p.data["x"]}, {p.data["y"]}, set(p.data["z"]))
        assert p.answer == "yes" if truth else p.answer.startswith("no: ")
        assert task.verify(p, "Yes." if truth else "NO: " + p.answer[4:]).correct
        assert not task.verify(p, "NO").correct  # a no needs its open path (issue #21)
        labels.append(truth)
    assert 0.1 < sum(labels) / len(labels) < 0.4  # yes, the certificate-free side, is 25% of questions


def test_backdoor_accepts_any_valid_set_and_rejects_invalid_ones() -> None:
    task = make_source("causal/graph_query")
    problems = [task.sample(1, seed) for seed in range(40)]  # level 1: X's parents measured (r19)
    problems = [p for p in problems if p.data["kind"] == "backdoor"]
    assert problems
    for p in problems:
        g, x, y = _graph(p), p.data["x"], p.data["y"]
        parents = sorted(g.predecessors(x))  # the parents of X always satisfy the criterion here
        assert task.verify(p, " ".join(parents).lower()).correct
        assert "backdoor path" in task.verify(p, "none").feedback
        for child in sorted(set(g.successors(x)) - {y})[:1]:
            assert "descendant" in task.verify(p, ", ".join(parents + [child])).feedback
        assert "unknown" in task.verify(p, "Q0").feedback
        assert not task.verify(p, f"{x}, {', '.join(parents)}").correct


# --- code/output_prediction -------------------------------------------------------

@pytest.mark.parametrize("level", range(5))
def test_interpreter_output_matches_python(level: int) -> None:
    """Runs our own generated programs (never model text) with Python to check the interpreter."""
    task = make_source("code/output_prediction")
    for seed in range(60):
        p = task.sample(level, seed)
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(p.data["program"], "<generated>", "exec"), {})  # noqa: S102
        assert buffer.getvalue().rstrip("\n") == p.answer, p.data["program"]


def test_output_comparison_ignores_layout_but_not_content() -> None:
    task = make_source("code/output_prediction")
    p = Problem(answer="3\n[1, 2]", data={"program": "", "output": "3\n[1, 2]"})
    assert task.verify(p, "\n3   \n[1, 2]\n\n").correct
    assert task.verify(p, "```\n3\n[1, 2]\n```").correct
    assert task.verify(p, "3\n[1,2]").feedback == "line 2 differs"
    assert "2 line" in task.verify(p, "3").feedback


def test_programs_grow_with_level() -> None:
    task = make_source("code/output_prediction")
    sizes = [sum(len(task.sample(level, s).data["program"].splitlines()) for s in range(20)) for level in range(5)]
    assert sizes == sorted(sizes)
