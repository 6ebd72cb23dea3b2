"""Board games against searching opponents (issue #27): hand-checked positions, refusals, replays, who wins."""

from __future__ import annotations

import dataclasses
import random

import chess
import pytest

import palaestra
from palaestra.core.multiturn import MultiTurnTask
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.generators import lone_king
from palaestra.generators.lone_king import square
from palaestra.kit.play import play_episode


def oracle_episode(source: MultiTurnTask, problem: Problem) -> tuple[list[str], float, bool]:
    """The oracle's moves, its total reward and whether it won."""
    moves: list[str] = []

    def choose(state, history):
        moves.append(source.oracle(problem, state))
        return moves[-1]

    total, won = play_episode(source, problem, choose)
    return moves, total, won


def random_legal_score(source: MultiTurnTask, problem: Problem, seed: int) -> float:
    rng = random.Random(seed)
    return play_episode(source, problem, lambda state, history: rng.choice(source.legal_moves(problem, state)))[0]


# --- games/chess_endgame --------------------------------------------------------

CHESS = "games/chess_endgame"


def chess_problem(piece: str, wk: str, bk: str, p: str) -> Problem:
    base = make_source(CHESS).sample(0, 0)
    data = {**base.data, "piece": piece, "white_king": square(wk), "black_king": square(bk), "white_piece": square(p),
            "mate_in": lone_king.white_to_move_mate_in(piece, square(wk), square(bk), square(p)), "turns": 6}
    return dataclasses.replace(base, data=data)


def test_chess_table_agrees_with_python_chess() -> None:
    """Legal moves, checkmate and stalemate as python-chess sees them; a mate in 1 has a mating move."""
    rng = random.Random(5)
    checked = 0
    while checked < 300:
        piece = rng.choice(lone_king.PIECES)
        position = (rng.randrange(64), rng.randrange(64), rng.randrange(64))
        if not lone_king.white_to_move_legal(position, piece):
            continue
        checked += 1
        wk, bk, p = position
        board = chess.Board(None)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(p, chess.Piece(chess.QUEEN if piece == "Q" else chess.ROOK, chess.WHITE))
        assert board.is_valid()
        mine = {after for after in lone_king.white_moves(piece, position)}
        theirs = set()
        for move in board.legal_moves:
            after = (move.to_square, bk, p) if move.from_square == wk else (wk, bk, move.to_square)
            theirs.add(after)
            board.push(move)
            left = lone_king.black_to_move_mate_in(piece, *after)
            assert (left == 0) == board.is_checkmate()
            if board.is_stalemate():
                assert left is None
            board.pop()
        assert mine == theirs
        if lone_king.white_to_move_mate_in(piece, *position) == 1:
            assert any(board.is_checkmate() for _ in _pushed(board, board.legal_moves))


def _pushed(board: chess.Board, moves):
    """Each move pushed on ``board`` in turn (popped after the caller looks)."""
    for move in list(moves):
        board.push(move)
        yield move
        board.pop()


def test_chess_table_maxima_are_the_known_ones() -> None:
    """King and queen mate in at most 10 moves, king and rook in at most 16 (the known longest mates)."""
    for piece, longest in (("Q", 10), ("R", 16)):
        table = lone_king._tables()[piece]
        assert max(table) == longest


def test_chess_hand_checked_mate_in_one() -> None:
    source = make_source(CHESS)
    problem = chess_problem("Q", "c6", "a8", "h7")
    assert problem.data["mate_in"] == 1
    start = source.initial_state(problem)
    won = source.play(problem, start, "Qb7#")
    assert won.done and won.verdict.correct and "Checkmate" in won.observation
    assert source.play(problem, start, "h7b7").verdict.correct  # UCI
    hangs = source.play(problem, start, "Qa7+")  # not defended by the king on c6: Black takes it
    assert hangs.done and not hangs.verdict.correct and "taking your queen" in hangs.observation
    stalemate = source.play(problem, start, "Qc7")
    assert stalemate.done and not stalemate.verdict.correct and "stalemate" in stalemate.observation
    assert source.oracle(problem, start) == "Qb7#"


def test_chess_illegal_and_unreadable_moves_are_refused() -> None:
    source = make_source(CHESS)
    problem = chess_problem("R", "c6", "a8", "h7")
    start = source.initial_state(problem)
    illegal = source.play(problem, start, "Kb7")  # next to the black king
    assert not illegal.verdict.parsed and illegal.state == start and "not a legal White move" in illegal.observation
    unreadable = source.play(problem, start, "mate him")
    assert not unreadable.verdict.parsed and "SAN or UCI" in unreadable.observation
    plan = source.advance(problem, start, source.format_answer("Rh8+ Kb6"))
    assert not plan.verdict.parsed and plan.state == start


def test_chess_defender_resists_longest() -> None:
    """After each White move the defender's square keeps the largest distance to mate among its moves."""
    source = make_source(CHESS)
    problem = source.sample(4, 1)
    state = source.initial_state(problem)
    piece = problem.data["piece"]
    for _ in range(3):
        move = source.oracle(problem, state)
        outcome = source.play(problem, state, move)
        if outcome.done:
            break
        after = outcome.state
        moved = (after["wk"], state["bk"], after["p"])  # White has moved, Black not yet
        options = lone_king.black_moves(piece, moved)
        depths = [lone_king.white_to_move_mate_in(piece, moved[0], t, moved[2]) for t in options]
        assert lone_king.white_to_move_mate_in(piece, after["wk"], after["bk"], after["p"]) == max(depths)
        state = after


@pytest.mark.parametrize("level", range(5))
def test_chess_oracle_mates_in_the_tables_distance(level: int) -> None:
    source = make_source(CHESS)
    for seed in range(3):
        problem = source.sample(level, seed)
        moves, total, won = oracle_episode(source, problem)
        assert won and total == 1.0 and len(moves) == problem.data["mate_in"]
        replayed = palaestra.score(problem, [source.format_answer(m) for m in moves])
        assert replayed.reward == 1.0 and replayed.correct


def test_chess_random_legal_play_does_not_mate_at_the_top_level() -> None:
    source = make_source(CHESS)
    scores = [random_legal_score(source, source.sample(4, seed), seed) for seed in range(6)]
    assert scores == [0.0] * 6


# --- games/domineering -----------------------------------------------------------

DOMINEERING = "games/domineering"


def domineering_problem(rows: int, cols: int, empty: int) -> Problem:
    base = make_source(DOMINEERING).sample(0, 0)
    return dataclasses.replace(base, data={**base.data, "rows": rows, "cols": cols, "empty": empty, "turns": 4, "first_moves": 3})


def test_domineering_hand_checked_two_by_three() -> None:
    """On an empty 2 x 3 board only the middle column wins: it leaves no horizontal pair."""
    source = make_source(DOMINEERING)
    problem = domineering_problem(2, 3, 0b111111)
    start = source.initial_state(problem)
    assert source.legal_moves(problem, start) == ["a1", "b1", "c1"]
    assert source.oracle(problem, start) == "b1"
    won = source.play(problem, start, "b1")
    assert won.done and won.verdict.correct and "you win" in won.observation
    lost = source.play(problem, start, "c1-c2")  # both cells, the same domino as c1
    assert lost.done and not lost.verdict.correct and "The opponent places" in lost.observation
    assert "you lose" in lost.observation
    edge = source.play(problem, start, "place a1")  # the mirror image: the opponent takes b-c, nothing is left
    assert edge.done and not edge.verdict.correct


def test_domineering_illegal_and_unreadable_moves_are_refused() -> None:
    source = make_source(DOMINEERING)
    problem = domineering_problem(2, 3, 0b111110)  # a1 blocked
    start = source.initial_state(problem)
    blocked = source.play(problem, start, "a1")
    assert not blocked.verdict.parsed and blocked.state == start and "blocked or covered" in blocked.observation
    bottom = source.play(problem, start, "b2")
    assert not bottom.verdict.parsed and "bottom row" in bottom.observation
    sideways = source.play(problem, start, "b1-c1")  # a horizontal domino is the opponent's
    assert not sideways.verdict.parsed and "upper cell" in sideways.observation
    plan = source.advance(problem, start, source.format_answer("b1 c1"))
    assert not plan.verdict.parsed and plan.state == start


@pytest.mark.parametrize("level", range(5))
def test_domineering_oracle_wins_and_replays(level: int) -> None:
    source = make_source(DOMINEERING)
    for seed in range(2):
        problem = source.sample(level, seed)
        moves, total, won = oracle_episode(source, problem)
        assert won and total == 1.0
        replayed = palaestra.score(problem, [source.format_answer(m) for m in moves])
        assert replayed.reward == 1.0 and replayed.correct


def test_domineering_positions_are_first_player_wins_with_few_winning_moves() -> None:
    from palaestra.envs.games._boards import random_win_chance
    from palaestra.envs.games.domineering import MAX_RANDOM_WIN, MODEL, _solver

    source = make_source(DOMINEERING)
    for level in range(5):
        problem = source.sample(level, 3)
        solver = _solver(problem.data["rows"], problem.data["cols"])
        empty = problem.data["empty"]
        assert solver.wins(empty, MODEL)
        assert 3 * len(solver.winning_moves(empty, MODEL)) <= len(solver.moves(empty, MODEL))
        assert random_win_chance(solver, empty, MODEL) <= MAX_RANDOM_WIN


def test_random_win_chance_on_a_hand_checked_board() -> None:
    """Empty 2 x 3 board: of the three first moves only the middle column wins, so random play wins 1/3."""
    from palaestra.envs.games._boards import random_win_chance
    from palaestra.envs.games.domineering import MODEL, _solver

    assert random_win_chance(_solver(2, 3), 0b111111, MODEL) == pytest.approx(1 / 3)


def test_domineering_random_legal_play_loses_at_the_top_level() -> None:
    source = make_source(DOMINEERING)
    scores = [random_legal_score(source, source.sample(4, seed), seed) for seed in range(6)]
    assert sum(scores) <= 1.0


# --- games/clobber ------------------------------------------------------------------

CLOBBER = "games/clobber"


def clobber_problem(rows: int, cols: int, mine: int, theirs: int) -> Problem:
    base = make_source(CLOBBER).sample(0, 0)
    data = {**base.data, "rows": rows, "cols": cols, "mine": mine, "theirs": theirs, "turns": 4}
    return dataclasses.replace(base, data=data)


def test_clobber_hand_checked_row() -> None:
    """Row O X O O: b1xa1 leaves the O stones only each other as neighbours (no move: X wins);
    b1xc1 lets d1 take c1, and X has no stone left."""
    from palaestra.envs.games._boards import random_win_chance
    from palaestra.envs.games.clobber import MODEL, _solver

    source = make_source(CLOBBER)
    problem = clobber_problem(1, 4, 0b0010, 0b1101)
    start = source.initial_state(problem)
    assert sorted(source.legal_moves(problem, start)) == ["b1-a1", "b1-c1"]
    assert source.oracle(problem, start) == "b1-a1"
    won = source.play(problem, start, "b1xa1")
    assert won.done and won.verdict.correct and "you win" in won.observation
    lost = source.play(problem, start, "move b1 to c1")
    assert lost.done and not lost.verdict.correct and "The opponent plays d1-c1" in lost.observation
    assert random_win_chance(_solver(1, 4), (0b0010, 0b1101), MODEL) == pytest.approx(0.5)


def test_clobber_illegal_and_unreadable_moves_are_refused() -> None:
    source = make_source(CLOBBER)
    problem = clobber_problem(1, 4, 0b0010, 0b1101)
    start = source.initial_state(problem)
    not_mine = source.play(problem, start, "a1-b1")
    assert not not_mine.verdict.parsed and not_mine.state == start and "no X stone on a1" in not_mine.observation
    off_board = source.play(problem, start, "b1-b2")
    assert not off_board.verdict.parsed and "such as b2-b3" in off_board.observation
    plan = source.advance(problem, start, source.format_answer("b1-a1, c1-b1"))
    assert not plan.verdict.parsed and plan.state == start


@pytest.mark.parametrize("level", range(5))
def test_clobber_oracle_wins_and_replays(level: int) -> None:
    source = make_source(CLOBBER)
    for seed in range(2):
        problem = source.sample(level, seed)
        moves, total, won = oracle_episode(source, problem)
        assert won and total == 1.0
        replayed = palaestra.score(problem, [source.format_answer(m) for m in moves])
        assert replayed.reward == 1.0 and replayed.correct


def test_clobber_positions_are_wins_random_play_rarely_wins() -> None:
    from palaestra.envs.games._boards import random_win_chance
    from palaestra.envs.games.clobber import MAX_RANDOM_WIN, MODEL, _solver

    source = make_source(CLOBBER)
    for level in range(5):
        problem = source.sample(level, 3)
        solver = _solver(problem.data["rows"], problem.data["cols"])
        position = (problem.data["mine"], problem.data["theirs"])
        assert solver.wins(position, MODEL)
        assert random_win_chance(solver, position, MODEL) <= MAX_RANDOM_WIN
    scores = [random_legal_score(source, source.sample(4, seed), seed) for seed in range(6)]
    assert sum(scores) <= 1.0
