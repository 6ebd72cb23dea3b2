"""Red-team regressions (round 3, session 21, games3): simple rules that earn reward in the games family."""

from __future__ import annotations

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


def test_video_poker_flush_draw_rule_does_not_pay():
    # v1 scored holds against a random hold's value: this rule earned ~0.75 at level 4. v2 (a pay table per game,
    # the zero at the best of ten rules of thumb) pays it 0; played through the env's own scoring.
    task = palaestra.make("games/video_poker", level=4).unwrapped.task
    scores = []
    for seed in range(40):
        problem = task.sample(4, seed)
        state = task.initial_state(problem)
        for hand in problem.data["hands"]:
            hold = _suited_else_pairs_else_high(hand["cards"])
            outcome = task.play(problem, state, "hold " + (" ".join(str(i + 1) for i in hold) or "none"))
            state = outcome.state
        scores.append(outcome.verdict.reward)
    assert sum(scores) / len(scores) <= 0.05
