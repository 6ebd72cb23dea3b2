"""Red-team round 3, session 23 (games4): games/gops paid simple rules for winning.

v4 scored 1 for any win: against the random level-0 bidder "match the prize" and "the lowest card at least the prize"
won 0.90 and random cards 0.40; "the highest card on the top half of the prizes left, else the lowest" won 0.78, 0.62
and 0.45 at levels 0, 2 and 4 (40 problems a level), random cards 0.23-0.30 at levels 2-4. v5 scores the final margin
with its zero at the best margin (at least 0) any simple rule of ``gops.RULES`` reaches on the deal.
"""

from __future__ import annotations

import random

from palaestra.core.registry import make_source
from palaestra.envs.games import gops
from palaestra.kit.play import play_episode

SOURCE = make_source("games/gops")
TOP = SOURCE.levels() - 1


def _mean(problems, choose) -> float:
    return sum(min(1.0, play_episode(SOURCE, p, lambda s, h, p=p: choose(p, s, h))[0]) for p in problems) / len(problems)


def test_gops_every_simple_rule_scores_zero_at_the_top_level() -> None:
    problems = [SOURCE.sample(TOP, seed) for seed in range(8)]
    for name, rule in SOURCE.heuristics().items():
        rng = random.Random(0)
        assert _mean(problems, lambda p, s, h, rule=rule: rule(p, s, h, rng)) <= 0.15, name
    assert "the highest card on the top half of the prizes left, else the lowest" in SOURCE.heuristics()


def test_gops_level_zero_rules_and_random_play_score_little() -> None:
    problems = [SOURCE.sample(0, seed) for seed in range(20)]
    heuristics = SOURCE.heuristics()
    for name in ("match the prize, else the lowest", "the lowest card at least the prize +0, else the lowest",
                 "the highest card on the top half of the prizes left, else the lowest"):
        assert _mean(problems, lambda p, s, h, rule=heuristics[name]: rule(p, s, h, random.Random(0))) == 0.0, name
    rng = random.Random(1)
    assert _mean(problems, lambda p, s, h: rng.choice(SOURCE.legal_moves(p, s))) <= 0.1


def test_gops_zero_is_the_best_rule_margin_and_the_oracle_scores_one() -> None:
    for level in (0, TOP):
        for seed in range(4):
            problem = SOURCE.sample(level, seed)
            zero = max(0, max(gops._rule_margin(problem.data, rule) for rule in gops.RULES.values()))
            assert problem.data["zero"] == zero < problem.data["best"]
            assert _mean([problem], lambda p, s, h: SOURCE.oracle(p, s)) == 1.0


def test_gops_honest_player_scores_well_per_level() -> None:
    for level in (0, TOP):
        problems = [SOURCE.sample(level, seed) for seed in range(4)]
        assert _mean(problems, lambda p, s, h: SOURCE.honest_move(SOURCE.view(p, h))) >= 0.5, level


CODENAMES = make_source("games/codenames")


def test_codenames_simple_clue_rules_score_zero() -> None:
    """v1's zero was random play's: the greedy clue (the longest run now) scored 1.00, 0.68 and 0.21 at levels 0, 2
    and 4, the most-shared attribute 0.64, 0.23, 0.14 (40 boards a level). v2's zero is at least the best rule's."""
    from palaestra.envs.games import codenames

    for level in (0, 2):
        for seed in range(6):
            problem = CODENAMES.sample(level, seed)
            assert problem.data["zero"] >= problem.data["rules"]
            for name, rule in CODENAMES.heuristics().items():
                reward = play_episode(CODENAMES, problem, lambda s, h, p=problem, rule=rule: rule(p, s, h, None))[0]
                assert reward == 0.0, (level, seed, name)
            assert play_episode(CODENAMES, problem, lambda s, h, p=problem: CODENAMES.oracle(p, s))[0] == 1.0
    assert len(codenames.RULES) >= 4
