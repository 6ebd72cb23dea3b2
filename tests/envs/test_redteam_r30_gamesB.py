"""Red-team regressions, session 30 (games B): cheap rules of thumb that earned reward without solving."""

from __future__ import annotations

import random

import palaestra
from palaestra.envs.games import cribbage_pegging as pegging
from palaestra.envs.games import dots_and_boxes


def _episode(task, problem, policy) -> float:
    state, history, total = task.initial_state(problem), (), 0.0
    rng = random.Random(problem.seed)
    for _ in range(task.max_turns(problem)):
        move = policy(problem, state, history, rng)
        outcome = task.play(problem, state, move)
        total += outcome.verdict.reward
        state, history = outcome.state, (*history, (move, outcome.observation))
        if outcome.done:
            break
    return total


def _wary_self(problem, state, history, rng) -> str:
    """Cribbage pegging: the card scoring most now less the opponent's best reply (the opponent's own rule)."""
    frozen = pegging._frozen(state)
    best = None
    for rank in pegging._playable(frozen):
        placed, points = pegging._place(frozen, pegging.ME, rank)
        threat = max([pegging.score_card(placed[3] + (r,), placed[2] + pegging.COUNTS[r])
                      for r in pegging._fits(placed[1], placed[2])], default=0)
        if best is None or (points - threat, pegging.value(rank)) > best[0]:
            best = ((points - threat, pegging.value(rank)), rank)
    return pegging.RANK_NAMES[best[1] - 1]


def test_cribbage_pegging_wary_rule_of_thumb_earns_nothing():
    # v1: the reward's zero was random play's; "points now less the opponent's best reply" scored 0.37 at level 1.
    task = palaestra.make("games/cribbage_pegging", level=1).unwrapped.task
    scores = [_episode(task, task.sample(1, seed), _wary_self) for seed in range(12)]
    assert sum(scores) / len(scores) <= 0.1


def test_cribbage_pegging_zero_is_at_least_every_rule_margin():
    task = palaestra.make("games/cribbage_pegging", level=2).unwrapped.task
    for seed in range(4):
        data = task.sample(2, seed).data
        assert data["baseline"] >= max(pegging._rule_margin(data, rule) for rule in pegging.RULES.values())
        assert data["best"] - data["baseline"] >= 2


def test_dots_and_boxes_shortest_sacrifice_rule_rarely_wins_at_the_top():
    # v3: "take a box, else a safe line, else give away the fewest boxes" won 0.57 at level 3 and 0.32 at level 4.
    task = palaestra.make("games/dots_and_boxes", level=3).unwrapped.task
    for seed in range(3):
        problem = task.sample(3, seed)
        data = problem.data
        rows, cols = data["rows"], data["cols"]
        chance = dots_and_boxes._rule_win_chance(rows, cols, dots_and_boxes._fewest_given_line, data["drawn"],
                                                 data["mine"] - data["theirs"])
        assert chance <= 0.3


def test_nim_leaving_count_is_not_read_as_the_count_taken():
    # "heap A leaving 1" (heap A down to 1) was read as "take 1 from heap A"; the take-then-split spelling still reads.
    task = palaestra.make("games/nim", level=0).unwrapped.task
    problem = task.sample(0, 1)
    state = task.initial_state(problem)
    assert not task.play(problem, state, "heap A leaving 1").verdict.parsed
    assert task.play(problem, state, "take 1 from heap A").verdict.parsed
    kayles = palaestra.make("games/nim", level=3).unwrapped.task
    problem = kayles.sample(3, 0)
    oracle = kayles.oracle(problem, kayles.initial_state(problem))
    assert kayles.play(problem, kayles.initial_state(problem), oracle.replace(" and split the rest into", ", leaving")
                       ).verdict.parsed or " split " not in oracle
