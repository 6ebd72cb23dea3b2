"""Red-team regression (round 3, session 27, proofs / interactive / chess second look): right answers in a
grader's spelling that were refused.

- chess/legal_moves: a SAN promotion (``d8=Q``) was cut at its ``=`` by the list reader's ``x = ...`` prefix rule,
  so every promotion answer in SAN (the prompt allows SAN) was unread; a one-move bulleted answer (``- dxc6``) too.
- chess/mate_in_one: the mate spelled out after the move (``Qxg8 mate``, ``Qxg8 checkmate``, ``Qxg8++``) was
  unread; the move is still played and tested for mate, so a non-mate with the word earns nothing.
- interactive/meeting_scheduling: ``Monday 17.00`` was unread, and the refusal said start hours run 9 to 16 while
  17:00 starts are allowed.
- interactive/negotiation: ``offer $120.00`` (whole dollars with cents written) was unread and cost the round.
"""

from __future__ import annotations

import chess

from palaestra.core.registry import make_source


def test_legal_moves_reads_san_promotions_and_one_bulleted_move() -> None:
    source = make_source("chess/legal_moves")
    problem = source.sample(4, 58)  # the pawn on d7 promotes: d7d8b d7d8n d7d8q d7d8r
    assert problem.data["moves"] == ["d7d8b", "d7d8n", "d7d8q", "d7d8r"]
    for answer in ("d8=B d8=N d8=Q+ d8=R+", "d8=Q, d8=R, d8=B, d8=N", "d8=Q+ d8=R+ d8=B and d8=N",
                   "d7d8=Q d7d8=R d7d8=B d7d8=N", "Moves: d8=Q d8=R d8=B d8=N"):
        assert source.verify(problem, answer).correct, answer
    for answer in ("d8=Q+ d8=R+ d8=B", "d8=Q or d8=R or d8=B or d8=N", "d8=Q d8=R d8=B d8=N e8=Q"):
        assert not source.verify(problem, answer).correct, answer
    one = source.sample(0, 0)
    assert one.data["moves"] == ["d7c6"]
    for answer in ("- dxc6", "* dxc6", "• d7c6"):
        assert source.verify(one, answer).correct, answer
    assert not source.verify(one, "- dxc6 or none").correct


def test_mate_in_one_reads_the_mate_spelled_out_but_still_tests_it() -> None:
    source = make_source("chess/mate_in_one")
    problem = source.sample(0, 0)
    board = chess.Board(problem.data["fen"])
    assert board.san(board.parse_san(problem.answer)) == "Qxg8#"
    for answer in ("Qxg8 mate", "Qxg8 checkmate", "Qxg8++", "Qxg8 #", "1. Qxg8 mate", "**Qxg8 (mate)**", "g5g8 mate"):
        assert source.verify(problem, answer).correct, answer
    other = next(m for m in board.legal_moves if m.uci() != "g5g8")
    for answer in (f"{board.san(other)} mate", f"{board.san(other)}++", "Qxg8 or Qh7 mate", "mate", "Qxg8 is mate"):
        assert not source.verify(problem, answer).correct, answer


def test_meeting_scheduling_reads_dotted_hours_and_states_the_last_start() -> None:
    source = make_source("interactive/meeting_scheduling")
    problem = source.sample(0, 1)
    state = source.initial_state(problem)
    dotted = source.play(problem, state, "Monday 17.00")
    assert dotted.verdict.parsed and dotted.observation.startswith("Monday 17:00")
    refused = source.play(problem, state, "Monday 18:00")
    assert not refused.verdict.parsed and "from 9 to 17" in refused.observation
    assert not source.play(problem, state, "Monday 12:30").verdict.parsed


def test_negotiation_reads_whole_dollars_with_cents_written() -> None:
    source = make_source("interactive/negotiation")
    problem = source.sample(2, 1)
    state = source.initial_state(problem)
    for move in ("offer $120.00", "Offer: $120.00", "offer USD 120"):
        outcome = source.play(problem, state, move)
        assert outcome.verdict.parsed and "rejects $120" in outcome.observation, move
    for move in ("offer 120.50", "offer 120 or accept", "offer $0.00"):
        assert not source.play(problem, state, move).verdict.parsed, move


def test_negotiation_difficulty_means_grow_with_the_level_on_the_kit_seeds() -> None:
    """The plain width ratio's heavy tail made the kit's means fall (0.143 -> 0.131 from level 1 to 2, 1.56 -> 1.47
    from 4 to 5 on its 40 seeds): ``palaestra check`` failed on this env."""
    from palaestra.kit.base import DIFFICULTY_SEED

    source = make_source("interactive/negotiation")
    means = []
    for level in range(6):
        values = [source.difficulty(source.sample(level, DIFFICULTY_SEED + seed)) for seed in range(40)]
        means.append(sum(values) / len(values))
    assert all(later > earlier for earlier, later in zip(means, means[1:])), means
