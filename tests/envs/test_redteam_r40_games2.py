"""Red-team regressions (round 3, session 40, games2): cheap policies that earned reward without solving.

- interactive/negotiation v4: a player that ignored every bid, waited and asked one fixed multiple of the cost in
  the last round scored 0.34-0.35 at every level (the best of 26 multiples, 300 games per level); the limit's
  surplus over the cost is now drawn over a 37.5-fold range and only the share above 0.6 is scored: 0.09-0.10
  (the honest player 0.96 at level 0 and 0.59 at level 4, the oracle 1).
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.kit.play import play_episode

# --- interactive/negotiation: a price fixed in advance, every bid ignored ------------------------------------------


def _blind_multiple(source, problem, multiple):
    def choose(state, history):
        if state["round"] < problem.data["rounds"] - 1:
            return f"offer {100 * problem.data['cost']}"  # above every limit: wait
        return f"offer {round(multiple * problem.data['cost'])}"

    return min(1.0, play_episode(source, problem, choose)[0])


def test_negotiation_a_fixed_multiple_of_the_cost_pays_little():
    source = make_source("interactive/negotiation")
    for level in (0, 4):
        problems = [source.sample(level, seed) for seed in range(7000, 7100)]
        for multiple in (1.3, 1.5, 1.6, 2.0, 3.0):  # v3: 0.30-0.35 (1.3-2.0; 3.0 waited past every limit)
            score = sum(_blind_multiple(source, p, multiple) for p in problems) / len(problems)
            assert score <= 0.15, (level, multiple, score)


def test_negotiation_the_honest_player_and_the_oracle_still_score():
    source = make_source("interactive/negotiation")
    for level, bound in ((0, 0.85), (4, 0.4)):
        problems = [source.sample(level, seed) for seed in range(7000, 7040)]
        honest = sum(
            min(1.0, play_episode(source, p, lambda s, h, p=p: source.honest_move(source.view(p, h)))[0])
            for p in problems
        ) / len(problems)
        assert honest >= bound, (level, honest)
        for problem in problems[:10]:
            assert play_episode(source, problem, lambda s, h, p=problem: source.oracle(p, s)) == (1.0, True)
