"""Red-team regressions (round 3, session 21, games3): simple rules that earn reward in the games family."""

from __future__ import annotations

import pytest

import palaestra
from palaestra.envs.games import kuhn_poker


def _always_bet_or_call(problem, state, history, rng):
    return "bet" if "bet" in kuhn_poker._allowed(state["history"]) else "call"


@pytest.mark.xfail(
    strict=True,
    reason="open finding: kuhn_poker v2 tests only two of the simple rules; "
    "'always bet or call' scores ~0.66 at level 4 (cap 0.4). Adding it to the generator's test "
    "broke generation time and unbounded levels (see the r21 games3 report).",
)
def test_kuhn_poker_always_bet_or_call_is_held_to_the_cap():
    task = palaestra.make("games/kuhn_poker", level=4).unwrapped.task
    cap = task.level_config(4).rule_share
    scores = [kuhn_poker._rule_score(task, task.sample(4, seed).data, _always_bet_or_call) for seed in range(2)]
    assert max(scores) <= cap
