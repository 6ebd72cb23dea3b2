"""games/contextual_bandit: no rule that ignores the visitor's profile earns reward (version 3).

Version 2 put the reward's zero at random play (the mean over ads), so showing one fixed ad to every visitor scored
0.16-0.27 per level and "each ad once, then the first one clicked" up to 0.38, both ignoring the profile. Now the
zero is the best single ad shown to everyone, and the click tables are drawn so that using the profile beats it by a
clear margin, which leaves the honest (profile-using) learner a positive score.
"""

from __future__ import annotations

import random

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.games import contextual_bandit
from palaestra.kit.play import play_episode

ENV = "games/contextual_bandit"
PROBLEMS = 12


def _visitor_rows(problem) -> list[list[float]]:
    data = problem.data
    return [data["rates"][contextual_bandit._profile_index(data, turn)] for turn in range(data["visitors"])]


@pytest.mark.parametrize("level", [1, 3])
def test_a_fixed_ad_or_a_profile_blind_rule_earns_nothing(level: int) -> None:
    source = make_source(ENV)
    blind = source.heuristics()["each ad once, then the first click (profile ignored)"]
    fixed_means: dict[str, float] = {}
    blind_total = 0.0
    for seed in range(PROBLEMS):
        problem = source.sample(level, seed)
        for label in problem.data["labels"]:
            score = play_episode(source, problem, lambda state, history, m=label: m)[0]
            fixed_means[label] = fixed_means.get(label, 0.0) + score / PROBLEMS
        rng = random.Random(seed)
        blind_total += play_episode(source, problem,
                                    lambda state, history, p=problem: blind(p, state, history, rng))[0]
    # Version 2: the best fixed ad 0.24 (level 1) and 0.25 (level 3); the blind rule 0.25 and 0.33.
    assert max(fixed_means.values()) <= 0.05, fixed_means
    assert blind_total / PROBLEMS <= 0.10


def test_the_zero_is_the_best_single_ad_and_the_profile_gains_a_margin() -> None:
    source = make_source(ENV)
    for level in range(5):
        for seed in range(4):
            problem = source.sample(level, seed)
            rows = _visitor_rows(problem)
            sums = [sum(row[ad] for row in rows) for ad in range(len(problem.data["labels"]))]
            best_single = problem.data["labels"][sums.index(max(sums))]
            # Always the best single ad scores exactly 0 (it beat random play under version 2's zero).
            assert play_episode(source, problem, lambda state, history: best_single)[0] == 0.0
            gain = sum(max(row) for row in rows) - max(sums)
            assert gain >= contextual_bandit.MIN_CONTEXT_GAIN * len(rows) - 1e-9


@pytest.mark.parametrize("level", [0, 4])
def test_the_honest_player_still_scores(level: int) -> None:
    source = make_source(ENV)
    total = 0.0
    for seed in range(6):
        problem = source.sample(level, seed)
        total += play_episode(source, problem,
                              lambda state, history, p=problem: source.honest_move(source.view(p, history)))[0]
    assert total / 6 >= 0.3
