"""games/breakthrough (issue #27): a hand-checked position, refusals, views, a replay, the oracle winning, random losing."""

from __future__ import annotations

import dataclasses
import random

import palaestra
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import breakthrough
from palaestra.generators.breakthrough import solver_for, square
from palaestra.kit.play import oracle_moves, play_episode

BREAKTHROUGH = "games/breakthrough"


def hand_problem(mirrored: bool = False, as_black: bool = False) -> Problem:
    """4 files x 5 ranks: White c3; Black a5 and c4. White to move."""
    base = make_source(BREAKTHROUGH).sample(0, 0)
    data = {**base.data, "cols": 4, "rows": 5, "mine": 1 << square("c3", 4),
            "theirs": 1 << square("a5", 4) | 1 << square("c4", 4), "plies": 3, "turns": 4,
            "mirrored": mirrored, "as_black": as_black}
    return dataclasses.replace(base, data=data)


def test_hand_checked_position() -> None:
    """c3-c4 is a straight capture (illegal); c3-b4 is taken by a5xb4 (White's last piece); c3-d4 wins at d5 next."""
    source = make_source(BREAKTHROUGH)
    problem = hand_problem()
    data = problem.data
    solver = solver_for(4, 5)
    assert solver.value(data["mine"], data["theirs"], True) == 3
    assert [breakthrough._name(data, m) for m in solver.winning_moves(data["mine"], data["theirs"], True)] == ["c3-d4"]
    state = source.initial_state(problem)
    assert source.oracle(problem, state) == "c3-d4"
    lost = source.play(problem, state, "c3-b4")
    assert lost.done and not lost.verdict.correct and "a5xb4" in lost.observation
    assert "captures your last piece" in lost.observation
    after = source.play(problem, state, "c3-d4")
    assert not after.done
    won = source.play(problem, after.state, "d4-d5")
    assert won.done and won.verdict.correct and "far rank" in won.observation


def test_illegal_moves_are_refused_with_the_reason() -> None:
    source = make_source(BREAKTHROUGH)
    problem = hand_problem()
    state = source.initial_state(problem)
    reasons = {"c3-c4": "only diagonally", "c3xc4": "only diagonally", "c3-c5": "one square forward",
               "c3-d2": "one square forward", "a5-b4": "enemy piece", "b2-b3": "no piece",
               "c3-d4 d4-d5": "two squares", "c3-d4 or c3-b4": "two squares", "c3-z9": "two squares"}
    for move, reason in reasons.items():
        outcome = source.play(problem, state, move)
        assert outcome.state == state and not outcome.done and not outcome.verdict.correct, move
        assert reason in outcome.observation, (move, outcome.observation)


def test_spellings_of_a_move_are_read() -> None:
    source = make_source(BREAKTHROUGH)
    problem = hand_problem()
    state = source.initial_state(problem)
    expected = source.play(problem, state, "c3-d4").state
    for move in ("C3-D4", "c3xd4", "c3 d4", "c3 to d4", "Move: c3-d4.", "move c3 to d4", r"\boxed{c3-d4}"):
        assert source.play(problem, state, move).state == expected, move


def test_the_four_views_are_one_game() -> None:
    """Mirrored and seen from Black, canonical c3-d4 is b3-a2 (files a-d, b-c swap; ranks r -> 6 - r)."""
    source = make_source(BREAKTHROUGH)
    problem = hand_problem(mirrored=True, as_black=True)
    state = source.initial_state(problem)
    assert source.oracle(problem, state) == "b3-a2"
    assert source.play(problem, state, "b3-a2").state == source.play(hand_problem(), state, "c3-d4").state
    assert "B" in breakthrough._board(problem.data, state["mine"], state["theirs"]).splitlines()[2]  # rank 3
    assert "You play Black (B)" in make_source(BREAKTHROUGH).sample(0, next(
        seed for seed in range(50) if make_source(BREAKTHROUGH).sample(0, seed).data["as_black"])).prompt


def test_oracle_wins_and_replay_matches() -> None:
    source = make_source(BREAKTHROUGH)
    for level in range(5):
        problem = source.sample(level, 3)
        moves, total = oracle_moves(source, problem)
        assert total == 1.0
        assert palaestra.score(problem, [source.format_answer(m) for m in moves]).reward == total


def test_a_losing_replay_matches_the_episode() -> None:
    source = make_source(BREAKTHROUGH)
    problem = source.sample(4, 1)
    rng = random.Random(5)
    moves: list[str] = []

    def choose(state, history):
        moves.append(rng.choice(source.legal_moves(problem, state)))
        return moves[-1]

    total = play_episode(source, problem, choose)[0]
    assert palaestra.score(problem, [source.format_answer(m) for m in moves]).reward == total


def test_random_legal_loses_at_the_top_level() -> None:
    source = make_source(BREAKTHROUGH)
    rng = random.Random(0)
    wins = 0
    for seed in range(10):
        problem = source.sample(4, seed)
        wins += play_episode(source, problem, lambda state, history: rng.choice(source.legal_moves(problem, state)))[0]
    assert wins <= 1


def test_catalogue_positions_are_won_in_their_plies() -> None:
    source = make_source(BREAKTHROUGH)
    for level in range(5):
        config = source.level_config(level)
        solver = solver_for(config.cols, config.rows)
        for white, black, plies in breakthrough._entries(config)[:3]:
            assert config.plies[0] <= plies <= config.plies[1] and plies >= 5
            assert solver.win_distance(white, black, True) == plies
