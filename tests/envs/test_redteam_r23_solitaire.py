"""Red-team regressions (round 3, session 23, solitaire): the simple rules earn almost nothing in golf solitaire.

The game hides the stock's order, and in version 1 the one-line honest rule scored about half the reward at the top
level (the zero was random play's). Version 2 plays a family of simple rules on each deal at generation and puts the
zero most of the way (0.5 at level 0, 0.7 at level 1, 0.8 above) from random play's to the best of them; the honest
player plans by sampling the unseen cards.
"""

from __future__ import annotations

import palaestra
from palaestra.core import regret_reward
from palaestra.kit.play import play_episode


def _rule_means(env_id: str, level: int, seeds: int) -> dict[str, float]:
    task = palaestra.make(env_id, level=level).unwrapped.task
    totals: dict[str, float] = {}
    for seed in range(seeds):
        data = task.sample(level, seed).data
        for name, count in data["rules"].items():
            totals[name] = totals.get(name, 0.0) + regret_reward(count, data["baseline"], data["best"]) / seeds
    return totals


def _honest_mean(env_id: str, level: int, seeds: range) -> float:
    task = palaestra.make(env_id, level=level).unwrapped.task
    total = 0.0
    for seed in seeds:
        problem = task.sample(level, seed)
        total += play_episode(task, problem, lambda state, history, p=problem: task.honest_move(task.view(p, history)))[0]
    return total / len(seeds)


def test_golf_every_simple_rule_scores_about_nothing_at_the_top_level():
    means = _rule_means("games/golf_solitaire", 4, 12)
    assert set(means) == {"first", "last", "draw", "tallest", "chain", "follow"}
    assert max(means.values()) <= 0.15, means


def test_golf_declared_heuristics_cover_the_rules():
    task = palaestra.make("games/golf_solitaire", level=4).unwrapped.task
    names = " | ".join(task.heuristics())
    assert "longest visible chain" in names and "first playable column" in names and len(task.heuristics()) == 6


def test_golf_honest_player_still_earns_a_fair_score():
    assert _honest_mean("games/golf_solitaire", 4, range(4)) >= 0.3  # about 0.4 over 40 deals
