"""Session 23 red-team regressions for games/gin_rummy (v2): the zero sits at a family of simple rules.

Version 1 kept a share of the deals the greedy rule "take the pile's card when it lowers the deadwood, discard to the
least deadwood, knock when allowed" wins, so it won 35-60% per level. Version 2 keeps only deals that no rule of the
family (draw rule x discard rule x knock threshold) wins; the honest player, which values draws by the unseen cards,
still wins a fair share.
"""

from __future__ import annotations

import random

from palaestra.envs.games import gin_rummy
from palaestra.envs.games.gin_rummy import GinRummy
from palaestra.kit.play import _policy_chooser, play_episode

SOURCE = GinRummy()


def _reward(problem, chooser) -> float:
    return min(1.0, play_episode(SOURCE, problem, chooser)[0])


def _rule(take: str, discard: str, knock: int | None):
    return lambda problem, state, history, rng: gin_rummy._rule_move(problem.data, state, take, discard, knock)


def test_every_rule_of_the_family_loses_at_the_top_level() -> None:
    problems = [SOURCE.sample(4, seed) for seed in range(3)]
    rules = [(take, discard, knock) for take, discard in gin_rummy.FAMILY for knock in (None, 0, 5, 8)]
    for problem in problems:
        for take, discard, knock in rules:
            chooser = _policy_chooser(problem, _rule(take, discard, knock), random.Random(0))
            assert _reward(problem, chooser) == 0.0, (problem.seed, take, discard, knock)


def test_declared_heuristics_lose_and_the_oracle_wins() -> None:
    for seed in range(3):
        problem = SOURCE.sample(2, seed)
        for name, policy in SOURCE.heuristics().items():
            assert _reward(problem, _policy_chooser(problem, policy, random.Random(seed))) == 0.0, name
        assert _reward(problem, lambda state, history, p=problem: SOURCE.oracle(p, state)) == 1.0


def test_bitmask_playout_matches_the_game() -> None:
    """The generator's mask play-out (every knock threshold at once) agrees with playing each rule in the game."""
    rng = random.Random(5)
    config = GinRummy.presets[2]
    for _ in range(6):
        data = SOURCE.generate(rng, config).data
        data = {**data, "mine": data["mine"]}
        for take, discard in gin_rummy.FAMILY[::3]:
            fast = gin_rummy._knock_thresholds_win(data, take, discard)
            slow = any(gin_rummy._wins(data, lambda d, s, k=k: gin_rummy._rule_move(d, s, take, discard, k))
                       for k in range(data["knock"] + 1))
            assert fast == slow


def test_honest_player_wins_a_fair_share() -> None:
    wins = 0
    problems = [SOURCE.sample(level, seed) for level in (0, 4) for seed in range(4)]
    for problem in problems:
        wins += _reward(problem, lambda state, history, p=problem: SOURCE.honest_move(SOURCE.view(p, history)))
    assert wins >= 3  # measured 55-75% per level on 40 games; v1's careful greedy player wins none of these deals


def test_mask_oracle_playout_matches_the_game() -> None:
    """The generator's mask play-out of the oracle agrees with playing the oracle's moves in the game, on kept and
    on random deals (won or not)."""
    rng = random.Random(11)
    for config in GinRummy.presets:
        for _ in range(12):
            cards = rng.sample(gin_rummy.deck(config.ranks), 4 * config.ranks)
            h = config.hand
            data = {"mine": sorted(cards[:h]), "theirs": sorted(cards[h:2 * h]), "upcard": cards[2 * h],
                    "stock": cards[2 * h + 1:], "ranks": config.ranks, "knock": config.knock,
                    "opponent_knock": config.opponent_knock, "noise": config.noise, "rounds": config.rounds,
                    "tape": rng.getrandbits(48)}
            assert gin_rummy._oracle_rounds(data) == gin_rummy._rounds_to_win(data, gin_rummy._seer_move)
        problem = SOURCE.generate(rng, config)
        assert gin_rummy._rounds_to_win(problem.data, gin_rummy._seer_move) == problem.data["oracle_rounds"]
