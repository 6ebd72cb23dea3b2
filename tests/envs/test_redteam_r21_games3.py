"""Red-team regressions (round 3, session 21, games3): simple rules that earn reward in the games family."""

from __future__ import annotations

import pytest

import palaestra
from palaestra.envs.games import kuhn_poker


def _always_bet_or_call(problem, state, history, rng):
    return "bet" if "bet" in kuhn_poker._allowed(state["history"]) else "call"


def test_kuhn_poker_always_bet_or_call_is_held_to_the_cap():
    # v2's level-4 cap (its config's rule_share); v3 sets the reward's zero from the threshold rules instead
    task = palaestra.make("games/kuhn_poker", level=4).unwrapped.task
    cap = 0.4
    scores = [kuhn_poker._rule_score(task, task.sample(4, seed).data, _always_bet_or_call) for seed in range(2)]
    assert max(scores) <= cap


def test_resistance_prompt_lists_no_clean_team():
    # v1 listed an earlier mission with 0 sabotage (a spy-free team of the size asked) in 40% of level-4 prompts;
    # proposing it every turn wins, and "repeat a team seen to succeed, else the first players" won 48% there.
    task = palaestra.make("games/resistance", level=4).unwrapped.task
    for level in (2, 4):
        for seed in range(40):
            problem = task.sample(level, seed)
            assert all(count > 0 for _, count in problem.data["earlier"])
            assert ": 0 sabotage" not in problem.prompt


def test_resistance_honest_player_still_wins():
    task = palaestra.make("games/resistance", level=4).unwrapped.task
    problems = [task.sample(4, seed) for seed in range(10)]
    wins = sum(task.honest_turns(p, task.max_turns(p)) is not None for p in problems)
    assert wins >= 8


def test_resistance_avoid_failed_rule_is_held_down():
    # With every earlier mission failed, "the first players never on a failed mission" won 38% at level 4 (kit bar
    # 50%, noisy at the kit's sizes); games it wins are now kept half the time from level 2 (about 21%).
    from palaestra.envs.games import resistance

    task = palaestra.make("games/resistance", level=4).unwrapped.task
    config = task.level_config(4)
    wins = [
        resistance._avoid_failed_wins(config, p.data["spies"], p.data["earlier"])
        for p in (task.sample(4, seed) for seed in range(80))
    ]
    assert sum(wins) / len(wins) <= 0.33


def _suited_else_pairs_else_high(cards):
    for suit in "cdhs":
        suited = tuple(i for i, c in enumerate(cards) if c[1] == suit)
        if len(suited) >= 3:
            return suited
    ranks = [c[0] for c in cards]
    pairs = tuple(i for i, r in enumerate(ranks) if ranks.count(r) > 1)
    return pairs or (max(range(5), key=lambda i: "23456789TJQKA".index(cards[i][0])),)


@pytest.mark.xfail(
    strict=True,
    reason="open finding: video_poker's tricky hands defeat only hold all/none/pairs; "
    "'hold three or more of a suit, else pairs, else the highest card' scores ~0.75 at level 4. "
    "Adding flush-draw rules to the filter moved the reward to the next simple rule (suited high "
    "cards 0.72): needs a design change (see the r21 games3 report).",
)
def test_video_poker_flush_draw_rule_does_not_pay():
    task = palaestra.make("games/video_poker", level=4).unwrapped.task
    scores = []
    for seed in range(40):
        hands = task.sample(4, seed).data["hands"]
        chosen = sum(h["values"][sum(1 << i for i in _suited_else_pairs_else_high(h["cards"]))] for h in hands)
        chance = sum(sum(h["values"]) / 32 for h in hands)
        best = sum(max(h["values"]) for h in hands)
        scores.append(min(1.0, max(0.0, (chosen - chance) / (best - chance))))
    assert sum(scores) / len(scores) <= 0.5
