"""Games of helper g2: snake (hand-checked moves, crashes, refused plans, the oracle winning, random play losing)."""

from __future__ import annotations

import random

import pytest

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source

SNAKE = "games/snake"


def snake_problem() -> Problem:
    """A 6 x 6 board, the snake in row 3 (head at column 3, tail at column 1) heading right, food two cells ahead.

    Cells are row * 6 + column: the head is cell 14, the body 13, the tail 12, the food 16. After the first food
    the next one is the first free cell of the order from just after 16's place: 0 (cell 14 is covered then).
    """
    order = [3, 16, 14, 0, 35] + [c for c in range(36) if c not in (3, 16, 14, 0, 35)]
    data = {"size": 6, "snake": [14, 13, 12], "food": 16, "cursor": 2, "order": order, "target": 2, "plan": 8,
            "budget": 11}
    return Problem(env_id=SNAKE, level=0, seed=0, data=data, version=3)


def episode(source, problem: Problem, chooser) -> tuple[list[str], float, bool]:
    state, moves, total = source.initial_state(problem), [], 0.0
    for _ in range(source.max_turns(problem)):
        move = chooser(state)
        moves.append(move)
        outcome = source.play(problem, state, move)
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return moves, total, bool(outcome.verdict.correct)
    return moves, total, False


def test_snake_moves_eats_grows_and_places_the_next_food_in_order() -> None:
    source = make_source(SNAKE)
    problem = snake_problem()
    state = source.initial_state(problem)
    first = source.play(problem, state, "right")
    assert not first.done and first.state["snake"] == [15, 14, 13]  # the tail left cell 12
    eaten = source.play(problem, first.state, "Move right.")
    assert not eaten.done and eaten.state["snake"] == [16, 15, 14, 13]  # grown: the tail stayed
    assert eaten.state["food"] == 0 and eaten.state["eaten"] == 1  # cell 14 (next in order) is covered: skip to 0
    assert "1 of 2 eaten" in eaten.observation and "*" in eaten.observation


def test_snake_crashes_into_its_body_and_the_wall_lose() -> None:
    source = make_source(SNAKE)
    problem = snake_problem()
    state = source.initial_state(problem)
    body = source.play(problem, state, "left")  # the neck is at cell 13
    assert body.done and not body.verdict.correct and "own body" in body.observation
    walled = {**state, "snake": [2, 8, 14]}  # head on the top row
    wall = source.play(problem, walled, "up")
    assert wall.done and not wall.verdict.correct and "wall" in wall.observation
    chasing = {**state, "snake": [14, 15, 9, 8]}  # the head moves onto the tail's cell, which it leaves
    followed = source.play(problem, chasing, "up")
    assert not followed.done and followed.state["snake"] == [8, 14, 15, 9]


def test_snake_refuses_unreadable_moves_and_plans() -> None:
    source = make_source(SNAKE)
    problem = snake_problem()
    state = source.initial_state(problem)
    for move in ("jump", "up or down", "diagonal"):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state and "up, down, left or right" in outcome.observation
    plan = source.advance(problem, state, source.format_answer("right, right"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_snake_hand_checked_game_is_won_and_replays_the_same() -> None:
    source = make_source(SNAKE)
    problem = snake_problem()
    moves = ["right", "right", "up", "up", "left", "left", "left", "left"]  # food at 16, then at cell 0 (top left)
    state, total = source.initial_state(problem), 0.0
    for move in moves:
        outcome = source.play(problem, state, move)
        state, total = outcome.state, total + outcome.verdict.reward
    assert outcome.done and outcome.verdict.correct and total == 1.0
    replayed = palaestra.score(problem, [source.format_answer(m) for m in moves])
    assert replayed.reward == 1.0 and replayed.correct


@pytest.mark.parametrize("level", range(5))
def test_snake_oracle_wins_in_its_planned_moves_and_replays(level: int) -> None:
    source = make_source(SNAKE)
    for seed in range(2):
        problem = source.sample(level, seed)
        moves, total, won = episode(source, problem, lambda state, p=problem: source.oracle(p, state))
        assert won and total == 1.0 and len(moves) == problem.data["plan"] <= source.max_turns(problem)
        replayed = palaestra.score(problem, [source.format_answer(m) for m in moves])
        assert replayed.reward == 1.0 and replayed.correct


def test_snake_random_legal_play_loses_at_the_top_level() -> None:
    source = make_source(SNAKE)
    for seed in range(6):
        problem = source.sample(4, seed)
        rng = random.Random(seed)
        _, total, won = episode(source, problem, lambda state, p=problem: rng.choice(source.legal_moves(p, state)))
        assert not won and total == 0.0


# --- Video poker ---------------------------------------------------------------

POKER = "games/video_poker"


JACKS_OR_BETTER = {"royal flush": 250, "straight flush": 50, "four of a kind": 25, "full house": 9, "flush": 6,
                   "straight": 4, "three of a kind": 3, "two pair": 2}


def poker_problem(cards: list[str], low: str = "T") -> Problem:
    """One hand on the deck from ``low`` to aces, paid as jacks or better, with its values computed by the env."""
    from palaestra.envs.games import video_poker

    values = video_poker._hold_values(low, cards, video_poker._pay_vector(JACKS_OR_BETTER, "J"))
    rules = max(values[video_poker._mask(rule(cards, "J"))] for rule in video_poker.RULES.values())
    data = {"low": low, "pays": JACKS_OR_BETTER, "pair_from": "J", "hands": [{"cards": cards, "values": values}],
            "best": max(values), "random": sum(values) / 32, "rules": rules}
    return Problem(env_id=POKER, level=0, seed=0, data=data)


def test_video_poker_hold_values_match_a_brute_force_enumeration() -> None:
    from itertools import combinations

    from palaestra.envs.games import video_poker

    cards = ["Th", "Jh", "Qh", "Kc", "Kd"]
    for pays, pair_from in ((JACKS_OR_BETTER, "J"), ({**JACKS_OR_BETTER, "flush": 2, "two pair": 1}, "Q")):
        vector = video_poker._pay_vector(pays, pair_from)
        values = video_poker._hold_values("T", cards, vector)
        assert values[31] == 1  # holding everything: a pair of kings pays 1 (jacks or queens or better)
        rest = [c for c in video_poker._deck("T") if c not in cards]
        for hold in ((0, 1, 2), (3, 4), (), (1,)):
            finals = [[cards[i] for i in hold] + list(extra) for extra in combinations(rest, 5 - len(hold))]
            paid = [video_poker._kind_paid(f, pair_from) for f in finals]
            expected = sum(pays.get(name, 1) if name else 0 for name in paid) / len(finals)
            assert abs(values[sum(1 << i for i in hold)] - expected) < 1e-9
    assert video_poker._kind_paid(["Ts", "Js", "Qs", "Ks", "As"], "J") == "royal flush"
    assert video_poker._kind_paid(["Tc", "Jd", "Qs", "Ks", "Ah"], "J") == "straight"
    assert video_poker._kind_paid(["Tc", "Td", "Qs", "Ks", "Ah"], "J") is None  # a pair of tens does not pay
    assert video_poker._kind_paid(["Jc", "Jd", "Qs", "Ks", "Ah"], "Q") is None  # nor jacks when queens are needed


def test_video_poker_reads_holds_by_position_or_name_and_refuses_others() -> None:
    source = make_source(POKER)
    problem = poker_problem(["Th", "Jh", "Qh", "Kc", "Kd"])
    state = source.initial_state(problem)
    by_position = source.play(problem, state, "hold 4 5")
    by_name = source.play(problem, state, "Hold Kc and Kd.")
    assert by_position.done and by_position.verdict.reward == by_name.verdict.reward
    for move in ("hold 6", "hold 1 1", "hold As", "fold"):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state


def test_video_poker_scores_expected_values_against_the_rules_of_thumb() -> None:
    source = make_source(POKER)
    problem = poker_problem(["Kh", "Ac", "Tc", "9d", "Jh"], low="9")
    state = source.initial_state(problem)
    best = source.play(problem, state, source.oracle(problem, state))
    assert best.verdict.reward == 1.0 and best.verdict.correct and source.oracle(problem, state) == "hold 1 5"
    values, data = problem.data["hands"][0]["values"], problem.data
    assert data["rules"] < data["best"]  # no rule of thumb holds Kh Jh, the best hold here
    suited = source.play(problem, state, "hold Ac Tc")  # a rule's hold (two suited cards ten or higher): the zero
    assert values[0b00110] <= data["rules"] and suited.verdict.reward == 0.0
    for mask in range(32):  # any hold: scored by its expected value, whatever comes
        reward = source.play(problem, state, "hold " + (" ".join(str(i + 1) for i in range(5) if mask >> i & 1)
                                                        or "none")).verdict.reward
        expected = (values[mask] - data["rules"]) / (data["best"] - data["rules"])
        assert abs(reward - max(0.0, min(1.0, expected))) < 1e-9


@pytest.mark.parametrize("level", range(5))
def test_video_poker_oracle_scores_one_and_replays(level: int) -> None:
    source = make_source(POKER)
    problem = source.sample(level, 1)
    moves, total, won = episode(source, problem, lambda state, p=problem: source.oracle(p, state))
    assert won and total == 1.0 and len(moves) == len(problem.data["hands"])
    replayed = palaestra.score(problem, [source.format_answer(m) for m in moves])
    assert replayed.reward == 1.0


def test_video_poker_random_holds_score_little_at_the_top_level() -> None:
    source = make_source(POKER)
    scores = []
    for seed in range(12):
        problem = source.sample(4, seed)
        rng = random.Random(seed)
        scores.append(episode(source, problem, lambda state, p=problem: rng.choice(source.legal_moves(p, state)))[1])
    assert sum(scores) / len(scores) < 0.2
