"""Red-team regressions (round 3, session 22): video_poker v2 pays nothing for rules of thumb.

v1 scored holds against a uniformly random hold on the fixed jacks-or-better table, and a rule of thumb earned
0.75 at the top level. v2 draws the pay table per game and puts the zero at the best of ten rules of thumb; these
tests play rules through the env's own scoring, including rules that are not among the ten.
"""

from __future__ import annotations

import pytest

import palaestra
from palaestra.envs.games import video_poker

RANKS = "23456789TJQKA"


def _royal_draw_first(cards: list[str], pair_from: str) -> tuple[int, ...]:
    """Three or more suited cards ten or higher, else the pairs, else the high cards (not one of the ten)."""
    for suit in "cdhs":
        suited = tuple(i for i, c in enumerate(cards) if c[1] == suit and RANKS.index(c[0]) >= RANKS.index("T"))
        if len(suited) >= 3:
            return suited
    ranks = [c[0] for c in cards]
    pairs = tuple(i for i, r in enumerate(ranks) if ranks.count(r) > 1)
    return pairs or tuple(i for i, c in enumerate(cards) if RANKS.index(c[0]) >= RANKS.index(pair_from))


def _pair_and_kicker(cards: list[str], pair_from: str) -> tuple[int, ...]:
    """The paired cards and the highest other card, else the highest card (not one of the ten)."""
    ranks = [c[0] for c in cards]
    pairs = [i for i, r in enumerate(ranks) if ranks.count(r) > 1]
    others = [i for i in range(5) if i not in pairs]
    if not others:
        return tuple(pairs)
    return tuple(sorted([*pairs, max(others, key=lambda i: RANKS.index(cards[i][0]))]))


def _play(task, problem, rule) -> float:
    state = task.initial_state(problem)
    for hand in problem.data["hands"]:
        hold = rule(hand["cards"], problem.data["pair_from"])
        outcome = task.play(problem, state, "hold " + (" ".join(str(i + 1) for i in hold) or "none"))
        state = outcome.state
    return outcome.verdict.reward


@pytest.mark.parametrize("level", [0, 4])
def test_every_rule_of_thumb_scores_zero(level: int) -> None:
    task = palaestra.make("games/video_poker", level=level).unwrapped.task
    problems = [task.sample(level, seed) for seed in range(6)]
    for name, rule in video_poker.RULES.items():
        assert all(_play(task, problem, rule) == 0.0 for problem in problems), name


def test_rules_outside_the_ten_earn_little() -> None:
    task = palaestra.make("games/video_poker", level=4).unwrapped.task
    problems = [task.sample(4, seed) for seed in range(30)]
    for rule in (_royal_draw_first, _pair_and_kicker):
        assert sum(_play(task, problem, rule) for problem in problems) / len(problems) <= 0.15, rule.__name__


def test_the_best_holds_score_one_and_the_table_is_the_games_own() -> None:
    task = palaestra.make("games/video_poker", level=2).unwrapped.task
    tables = set()
    for seed in range(8):
        problem = task.sample(2, seed)
        best = _play(task, problem, lambda cards, pair_from, p=problem: video_poker.HOLDS[
            next(h["values"].index(max(h["values"])) for h in p.data["hands"] if h["cards"] == cards)])
        assert best == 1.0
        pays = problem.data["pays"]
        assert all(f"{name} {pay}" in problem.prompt for name, pay in pays.items())
        tables.add(tuple(pays.values()))
    assert len(tables) == 8  # a pay table drawn per game: no one memorised strategy card fits them all


def test_a_reply_holding_for_several_hands_is_refused() -> None:
    # "hold 2 hold 1 hold 3" (a plan for three hands) was read as one hold of three cards.
    task = palaestra.make("games/video_poker", level=2).unwrapped.task
    problem = task.sample(2, 2)
    state = task.initial_state(problem)
    assert not task.play(problem, state, "hold 2 hold 1 hold 3").verdict.parsed
    assert not task.play(problem, state, "keep 1, keep 2").verdict.parsed
    assert task.play(problem, state, "Hold cards 1 and 3.").verdict.parsed
