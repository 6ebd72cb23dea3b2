"""Red-team regressions (round 3, session 22): kuhn_poker's reward has its zero at the threshold rules.

Version 2 paid from uniformly random decisions up, so every sensible simple rule earned a lot (always bet or call
about 0.66 at level 4, bet the top card and call with the top half 0.83 at level 0). Version 3 sets the zero a
little below the best threshold rule for the drawn opponent; the honest player, learning the opponent from the
hands, keeps a fair score.
"""

from __future__ import annotations

import random

import pytest

from palaestra.core import MultiTurnTask
from palaestra.core.registry import make_source
from palaestra.envs.games import kuhn_poker

TOP = 4  # the top preset level
SEEDS = range(6)


def _task() -> MultiTurnTask:
    source = make_source("games/kuhn_poker")
    assert isinstance(source, MultiTurnTask)
    return source


def _play(task, problem, choose) -> float:
    state, history, total = task.initial_state(problem), (), 0.0
    for _ in range(task.max_turns(problem)):
        move = choose(state, history)
        outcome = task.play(problem, state, move)
        total += outcome.verdict.reward
        if outcome.done:
            return total
        state, history = outcome.state, (*history, (move, outcome.observation))
    return total


@pytest.mark.parametrize("name", [
    "always bet or call", "always check or call", "always check or fold",
    "never fold (bet with the top half, call every bet)", "bet and call with the top half of the deck",
    "bet the top card only, call with the top half", "always bet, call with the top half",
    "check when first; bet and call with the top half when second",
])
def test_simple_rules_score_about_zero_at_the_top_level(name: str) -> None:
    task = _task()
    rule = task.heuristics()[name]
    scores = [kuhn_poker._rule_score(task, task.sample(TOP, seed).data, rule) for seed in SEEDS]
    assert sum(scores) / len(scores) <= 0.15, scores


def test_the_textbook_rule_scores_about_zero_in_classic_kuhn() -> None:
    # v2: "bet the top card only, call with the top half" scored 0.83 on average at level 0 (cards 1-3)
    task = _task()
    rule = task.heuristics()["bet the top card only, call with the top half"]
    scores = [kuhn_poker._rule_score(task, task.sample(0, seed).data, rule) for seed in range(8)]
    assert sum(scores) / len(scores) <= 0.2, scores


def test_random_play_scores_zero_and_the_oracle_one() -> None:
    task = _task()
    for seed in range(3):
        problem = task.sample(TOP, seed)
        rng = random.Random(seed)
        assert _play(task, problem, lambda state, history: rng.choice(task.legal_moves(problem, state))) <= 0.05
        assert _play(task, problem, lambda state, history: task.oracle(problem, state)) == pytest.approx(1.0)


def test_the_honest_player_keeps_a_fair_score() -> None:
    task = _task()
    scores = []
    for level in (0, TOP):
        for seed in range(4):
            problem = task.sample(level, seed)
            score = _play(task, problem, lambda state, history, p=problem: task.honest_move(task.view(p, history)))
            assert score == pytest.approx(kuhn_poker._honest_score(problem.data))  # the generator's replay
            assert score >= kuhn_poker.HONEST_BAR - 1e-9
            scores.append(score)
    assert sum(scores) / len(scores) >= 0.3, scores


def test_the_zero_sits_just_below_the_best_threshold_rule() -> None:
    task = _task()
    for seed in range(4):
        data = task.sample(TOP, seed).data
        rules, random_value, best, _ = kuhn_poker._rules(data)
        zero = kuhn_poker._zero(data)
        assert random_value <= zero < rules < best
        assert zero == pytest.approx(max(random_value, rules - kuhn_poker.MARGIN * (best - rules)))


def test_the_prompt_states_the_zero() -> None:
    prompt = _task().sample(2, 0).prompt
    assert "threshold rule" in prompt and "random decisions score 0 (or less" not in prompt
