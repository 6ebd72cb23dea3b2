"""Red-team regressions (round 3, session 21, games3): simple rules that earned reward in the games family."""

from __future__ import annotations

import palaestra
from palaestra.envs.games import kuhn_poker


def _always_bet_or_call(problem, state, history, rng):
    return "bet" if "bet" in kuhn_poker._allowed(state["history"]) else "call"


def test_kuhn_poker_always_bet_or_call_is_held_to_the_cap():
    # v2 tested only "top half" and "always check or call"; their mirror, bet whenever allowed and call every bet,
    # scored 0.66 on average at level 4 (cap 0.4) against opponents that fold too often.
    task = palaestra.make("games/kuhn_poker", level=4).unwrapped.task
    assert "always bet or call" in task.heuristics()
    cap = task.level_config(4).rule_share
    for seed in range(2):
        problem = task.sample(4, seed)
        assert kuhn_poker._rule_score(task, problem.data, _always_bet_or_call) <= cap
