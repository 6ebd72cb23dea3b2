"""Red-team regressions, round 3 session 29 (helper "pref"): interactive/preference_elicitation.

Version 4 drew the user's weights and must-haves evenly, so a rule that asks every feature (the must-haves), ignores
the weights and recommends the acceptable rental with the best equal-weight total won 0.62, 0.37, 0.56, 0.36 and
0.52 of levels 0-4 (seeds 0-199; chance 0.25 to 0.08), and "the cheapest acceptable rental" 0.46 to 0.28.
"""

from __future__ import annotations

import numpy as np

import palaestra
from palaestra.core.registry import make_source

ENV = "interactive/preference_elicitation"
LOWER_IS_BETTER = {"price", "distance"}


def _acceptable(data: dict) -> list[int]:
    """The rentals with every must-have and no deal-breaker (v7): what asking each feature tells a player (the weights
    stay unknown)."""
    needs = [feature for feature, need in data["needs"].items() if need]
    refuses = [feature for feature, refused in data["refuses"].items() if refused]
    return [i for i, row in enumerate(data["rentals"]) if all(row[f] for f in needs) and not any(row[f] for f in refuses)]


def _equal_weights(data: dict) -> int:
    """The acceptable rental with the best total of positions between the worst and the best value on the list."""
    rentals = data["rentals"]

    def position(row: dict, attribute: str) -> float:
        values = [r[attribute] for r in rentals]
        low, high = min(values), max(values)
        if high == low:
            return 1.0
        share = (row[attribute] - low) / (high - low)
        return 1 - share if attribute in LOWER_IS_BETTER else share

    return max(_acceptable(data), key=lambda i: (sum(position(rentals[i], a) for a in data["numeric"]), -i))


def _problems(level: int, count: int) -> list[palaestra.Problem]:
    source = make_source(ENV)
    return [source.sample(level, seed) for seed in range(count)]


def test_equal_weights_after_the_features_rarely_names_the_favourite() -> None:
    # Version 4, seeds 0-59: 0.58 of level 2's games and 0.58 of level 4's (chance 0.125 and 0.083).
    for level in (2, 4):
        problems = _problems(level, 60)
        hits = sum(_equal_weights(p.data) == p.data["favourite"] for p in problems)
        assert hits <= 0.3 * len(problems), (level, hits)


def test_the_cheapest_or_first_acceptable_rental_rarely_pays() -> None:
    # Version 4, seeds 0-99 of level 2: the cheapest acceptable rental won 0.36, the first 0.27 (chance 0.125).
    problems = _problems(2, 100)
    cheapest = sum(min(_acceptable(p.data), key=lambda i: (p.data["rentals"][i]["price"], i)) == p.data["favourite"]
                   for p in problems)
    first = sum(_acceptable(p.data)[0] == p.data["favourite"] for p in problems)
    assert cheapest <= 27 and first <= 20, (cheapest, first)


def test_the_must_haves_leave_several_possible_favourites() -> None:
    # The favourite is drawn among the possible favourites of the users with the same must-haves (every weight
    # vector the generator allows), and there are at least ``favourites`` of them at each level.
    from palaestra.envs.interactive import preference_elicitation as module

    source = make_source(ENV)
    assert [config.favourites for config in source.presets] == [3, 4, 5, 5, 6]
    for level in (0, 2, 4):
        for problem in _problems(level, 5):
            data = problem.data
            base = {key: data[key] for key in ("labels", "numeric", "features", "rentals")}
            _, stances_of, favourite_of, valid = module._users(base)  # v7: a stance per feature (1, 0 or -1)
            stances = np.array([int(data["needs"][f]) - int(data["refuses"][f]) for f in data["features"]])
            same = valid & (stances_of == stances[None, :]).all(axis=1)
            assert len(set(favourite_of[same].tolist())) >= source.level_config(level).favourites, (level, problem.seed)


def test_the_weight_blind_rules_are_declared_and_lose_at_the_top_level() -> None:
    source = make_source(ENV)
    rules = source.heuristics()
    assert any("equal weights" in name for name in rules) and any("cheapest" in name for name in rules)
    problems = _problems(4, 30)
    for name, rule in rules.items():
        wins = 0
        for problem in problems:
            state, history = source.initial_state(problem), ()
            for _ in range(source.max_turns(problem)):
                move = rule(problem, state, history, None)
                outcome = source.play(problem, state, move)
                state, history = outcome.state, (*history, (move, outcome.observation))
                if outcome.done:
                    wins += bool(outcome.verdict.correct)
                    break
        assert wins <= 0.3 * len(problems), (name, wins)
    for level in (2, 3):  # the honest player still wins within the budget
        for seed in range(3):
            problem = source.sample(level, seed)
            assert source.honest_turns(problem, source.max_turns(problem)) is not None, (level, seed)
