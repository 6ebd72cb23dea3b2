"""Red-team regressions, session 31 (helper mixed): cheap rules that earned reward without doing the task."""

from __future__ import annotations

import random
import re

import pytest

import palaestra
from palaestra.kit.play import policy_scores


def test_word_ladder_closer_letters_rule_mostly_loses_at_levels_2_and_3() -> None:
    # Version 3: the declared closer-letters rule (ties at random) won 0.67 of level 2 and 0.50 of level 3.
    task = palaestra.make("games/word_ladder", level=0).unwrapped.task
    rule = task.heuristics()["closer letters first"]
    level_2, level_3 = policy_scores("games/word_ladder", rule, 60, levels=[2, 3])
    assert level_2 < 0.4 and level_3 < 0.4, (level_2, level_3)


def _observations(env_id: str, level: int, seed: int) -> list[str]:
    """What the model is told over one game of random legal moves."""
    task = palaestra.make(env_id, level=0).unwrapped.task
    problem = task.sample(level, seed)
    state, rng, seen = task.initial_state(problem), random.Random(seed), []
    for _ in range(task.max_turns(problem)):
        outcome = task.play(problem, state, rng.choice(task.legal_moves(problem, state)))
        seen.append(outcome.observation)
        if outcome.done:
            break
        state = outcome.state
    return seen


@pytest.mark.parametrize("env_id", ["games/blackjack", "games/kuhn_poker", "games/leduc_holdem"])
def test_hand_feedback_does_not_tell_which_decisions_were_best(env_id: str) -> None:
    # Before: each hand ended with "Your decisions this hand: 1 of 2 right.", which against drawn rules or a hidden
    # opponent strategy tells the model which choice was the best one, hand by hand.
    for seed in range(4):
        for observation in _observations(env_id, 0, seed):
            assert not re.search(r"\d+ of \d+ right|decisions this hand", observation), observation


def test_guard_maze_greedy_rules_lose_at_levels_0_and_1() -> None:
    # Version 2 did not filter levels 0-1: the waiting rule won 0.82/0.85 of them, the east-first nearest-safe rule
    # 1.00/0.89.
    task = palaestra.make("games/guard_maze", level=0).unwrapped.task
    for name, rule in task.heuristics().items():
        shares = policy_scores("games/guard_maze", rule, 20, levels=[0, 1])
        assert max(shares) < 0.2, (name, shares)
