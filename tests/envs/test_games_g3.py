"""games/hackenbush (issue #27): a hand-checked drawing, refusals, a replay, the oracle winning, random play losing."""

from __future__ import annotations

import dataclasses
import random

import palaestra
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import hackenbush
from palaestra.kit.play import oracle_moves, play_episode

HACKENBUSH = "games/hackenbush"


def hand_problem() -> Problem:
    """Ground - 1 blue (A), 1 - 2 red (B), ground - 3 red (C), ground - 4 blue (D), 4 - 5 blue (E)."""
    base = make_source(HACKENBUSH).sample(0, 0)
    data = {**base.data, "graph": [[0, 1, 0], [1, 2, 1], [0, 3, 1], [0, 4, 0], [4, 5, 0]],
            "labels": ["A", "B", "C", "D", "E"], "points": ["ground", "1", "2", "3", "4", "5"], "turns": 5,
            "first_moves": 3}
    return dataclasses.replace(base, data=data)


def test_hand_checked_drawing() -> None:
    """Values: A-B is 1/2 (blue below red), C is -1, D-E is 2: total 3/2 > 0, blue wins. Cutting D drops E."""
    source = make_source(HACKENBUSH)
    problem = hand_problem()
    state = source.initial_state(problem)
    outcome = source.play(problem, state, "cut D")
    assert "Edge E falls" in outcome.observation
    # After cutting D (value 1/2 - 1 = -1/2 left, red to move) red wins: the solver agrees.
    solver = hackenbush._solver(hackenbush._graph(problem.data))
    assert not solver.wins(0b00111, hackenbush.MODEL)
    assert solver.wins(0b11111, hackenbush.MODEL)
    # Cutting E leaves 1/2 + 1 - 1 = 1/2, cutting A (B falls) leaves -1 + 2 = 1: blue still wins.
    assert set(solver.winning_moves(0b11111, hackenbush.MODEL)) == {0, 4}


def test_refusals_say_why() -> None:
    source = make_source(HACKENBUSH)
    problem = hand_problem()
    state = source.initial_state(problem)
    assert "red" in source.play(problem, state, "cut B").observation
    assert "label" in source.play(problem, state, "cut Z").observation
    assert "label" in source.play(problem, state, "A or E").observation
    after = source.play(problem, state, "D").state
    assert "already gone" in source.play(problem, after, "E").observation


def test_spellings_of_a_cut_are_read() -> None:
    source = make_source(HACKENBUSH)
    problem = hand_problem()
    state = source.initial_state(problem)
    for move in ("E", "cut E", "edge e", "Cut edge E.", r"\boxed{E}"):
        assert source.play(problem, state, move).state != state, move


def test_oracle_wins_and_replay_matches() -> None:
    source = make_source(HACKENBUSH)
    for level in range(5):
        problem = source.sample(level, 3)
        moves, total = oracle_moves(source, problem)
        assert total == 1.0
        assert palaestra.score(problem, [source.format_answer(m) for m in moves]).reward == total


def test_random_legal_loses_at_the_top_level() -> None:
    source = make_source(HACKENBUSH)
    rng = random.Random(0)
    wins = 0
    for seed in range(10):
        problem = source.sample(4, seed)
        wins += play_episode(source, problem, lambda state, history: rng.choice(source.legal_moves(problem, state)))[0]
    assert wins <= 2


def test_catalogue_drawings_are_won_for_blue() -> None:
    for graphs in hackenbush.catalogue().values():
        graph = graphs[0]
        assert hackenbush._solver(graph).wins((1 << len(graph)) - 1, hackenbush.MODEL)
