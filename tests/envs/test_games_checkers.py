"""games/checkers (issue #27): hand-checked positions, refusals, a replay, the oracle winning, random play losing."""

from __future__ import annotations

import dataclasses
import functools
import random

import palaestra
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import checkers
from palaestra.generators.draughts import DRAW, Position, board_of, mover_moves, solver_of
from palaestra.kit.play import oracle_moves, play_episode

CHECKERS = "games/checkers"
BOARD = board_of(6)


def hand_problem(position: Position, look: int = 0, turns: int = 4) -> Problem:
    base = make_source(CHECKERS).sample(0, 0)
    data = {**base.data, "size": 6, "position": list(position), "look": look, "turns": turns, "fastest": turns - 2,
            "first_moves": len(BOARD.moves(position, checkers.MODEL))}
    return dataclasses.replace(base, data=data)


# Your king on a1 and man on e1; the opponent's men on b2 and d4 (moving down the board): the double jump
# a1xc3xe5 is the one legal move, and it takes both men.
DOUBLE_JUMP = (BOARD.mask("e1"), BOARD.mask("a1"), BOARD.mask("b2", "d4"), 0)


def test_mandatory_double_jump_is_the_only_move_and_wins() -> None:
    assert [BOARD.path_name(path) for path, _ in BOARD.moves(DOUBLE_JUMP, 0)] == ["a1xc3xe5"]
    source = make_source(CHECKERS)
    problem = hand_problem(DOUBLE_JUMP)
    state = source.initial_state(problem)
    for move in ("a1xc3xe5", "A1XC3XE5", "a1-c3-e5", "a1 c3 e5", "Move: a1xc3xe5.", "a1xe5", "move a1 to c3 to e5", r"\boxed{a1xc3xe5}"):
        outcome = source.play(problem, state, move)
        assert outcome.done and outcome.verdict.correct, move
        assert "you win" in outcome.observation
    assert solver_of(6).value(DOUBLE_JUMP, 0) == 1


def test_refusals_say_why() -> None:
    source = make_source(CHECKERS)
    problem = hand_problem(DOUBLE_JUMP)
    state = source.initial_state(problem)
    assert "capturing is mandatory" in source.play(problem, state, "e1-f2").observation
    assert "must be completed" in source.play(problem, state, "a1xc3").observation
    assert "no piece on d2" in source.play(problem, state, "d2-e3").observation
    assert "no piece on b2" in source.play(problem, state, "b2-c1").observation
    assert "dark squares" in source.play(problem, state, "a2-b3").observation
    for unreadable in ("a1xc3xe5 e1-f2", "a1-c3xe5", "a1xc3xe5, e1-f2", "a1", "jump!", "a1xc3xe5 or e1-f2", "a1 to c3-e5"):
        outcome = source.play(problem, state, unreadable)
        assert not outcome.verdict.parsed and outcome.state == state, unreadable
    # Without a capture on the board, a man may not step backwards.
    quiet = (BOARD.mask("c3"), BOARD.mask("a1"), 0, BOARD.mask("f6"))
    problem = hand_problem(quiet)
    state = source.initial_state(problem)
    assert "forward" in source.play(problem, state, "c3-b2").observation
    assert not source.play(problem, state, "c3-b2").verdict.parsed
    assert source.play(problem, state, "c3-d4").verdict.parsed


def test_a_position_seen_from_the_other_side_names_the_squares_turned() -> None:
    """Look 1 turns the board half round: the king on a1 is shown on f6, and its jump reads f6xd4xb2."""
    source = make_source(CHECKERS)
    problem = hand_problem(DOUBLE_JUMP, look=1)
    state = source.initial_state(problem)
    assert source.legal_moves(problem, state) == ["f6xd4xb2"]
    assert source.play(problem, state, "f6xd4xb2").verdict.correct
    assert not source.play(problem, state, "a1xc3xe5").verdict.parsed
    picture = checkers._picture(problem.data, DOUBLE_JUMP)
    assert picture.splitlines()[1].split() == ["6", "x", ".", "X"]  # b6 shows e1, d6 shows c1, f6 shows a1


@functools.cache
def forced_win_within(position: Position, moves: int) -> bool:
    """Plain game-tree search, independent of the retrograde solver: can the model win within ``moves`` moves?"""
    if moves == 0:
        return False
    for _, child in BOARD.moves(position, 0):
        replies = BOARD.moves(child, 1)
        if not replies or all(BOARD.moves(after, 0) and forced_win_within(after, moves - 1) for _, after in replies):
            return True
    return False


def test_solver_agrees_with_a_plain_search_on_catalogue_positions() -> None:
    solver = solver_of(6)
    for position, fastest in checkers.catalogue()[0][:12]:
        value = solver.value(position, 0)
        assert value != DRAW and value % 2 == 1
        assert mover_moves(value) == fastest >= 3
        assert forced_win_within(position, fastest) and not forced_win_within(position, fastest - 1)


def test_oracle_wins_and_replay_matches() -> None:
    source = make_source(CHECKERS)
    for level in range(5):
        problem = source.sample(level, 5)
        moves, total = oracle_moves(source, problem)
        assert total == 1.0
        assert len(moves) == problem.data["fastest"]
        assert palaestra.score(problem, [source.format_answer(m) for m in moves]).reward == total
        # One move short of the fastest win, replayed, is not a win.
        assert palaestra.score(problem, [source.format_answer(m) for m in moves[:-1]]).reward == 0.0


def test_random_legal_loses_at_the_top_level() -> None:
    source = make_source(CHECKERS)
    rng = random.Random(0)
    wins = 0.0
    for seed in range(12):
        problem = source.sample(4, seed)
        wins += play_episode(source, problem, lambda state, history: rng.choice(source.legal_moves(problem, state)))[0]
    assert wins <= 1


def test_catalogue_entries_are_won_as_fast_as_recorded() -> None:
    for level, entries in checkers.catalogue().items():
        solver = solver_of(make_source(CHECKERS).presets[level].size)
        for position, fastest in entries[:: max(1, len(entries) // 8)]:
            assert mover_moves(solver.value(position, 0)) == fastest


def test_the_opponent_resists_longest() -> None:
    """After each oracle move the opponent's reply leaves the model's fastest win as slow as any reply could."""
    source = make_source(CHECKERS)
    problem = source.sample(4, 2)
    solver = solver_of(problem.data["size"])
    state = source.initial_state(problem)
    for _ in range(3):
        position = tuple(state["position"])
        _, child = next(option for option in solver.moves(position, 0)
                           if checkers._name_path(problem.data, option[0]) == source.oracle(problem, state))
        outcome = source.play(problem, state, source.oracle(problem, state))
        after = tuple(outcome.state["position"])
        slowest = max(solver.value(reply, 0) for _, reply in solver.moves(child, 1))
        assert solver.value(after, 0) == slowest == solver.value(position, 0) - 2
        state = outcome.state
