"""Red-team regressions for games/gops (round 3, session 20): rules cycling through a few margins beat the v3
opponents ("the lowest card at least the prize + m_t, else the lowest", m_t repeating (5, -1, 1) won 0.86 at level 4
and (2, -1) 0.65 at level 1 over 100 problems). v4's pattern opponent forecasts a repeated margin (periods 1-4)."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.games import gops
from palaestra.kit.play import play_episode


def _cycle(problem, margins: tuple[int, ...]):
    def choose(state, history):
        prize = problem.data["prizes"][state["round"]]
        k = margins[state["round"] % len(margins)]
        return str(min([c for c in state["hand"] if c >= prize + k] or state["hand"]))

    return choose


def test_gops_margin_cycles_lose_at_the_top_level() -> None:
    """v3 (reactive opponent) at level 4 over 40 problems: (5, -1, 1) won 33-35; v4 allows at most 0.35 of them."""
    source = make_source("games/gops")
    problems = [source.sample(4, seed) for seed in range(40)]
    for margins in ((5, -1, 1), (2, -1), (3, -1, 3), (2, -1, -1, 1), (5,)):
        wins = sum(play_episode(source, problem, _cycle(problem, margins))[1] for problem in problems)
        assert wins <= 14, (margins, wins)
    # the honest player (sampled rollouts since v5) is the costly one: a dozen of the problems
    honest = sum(play_episode(source, p, lambda s, h, p=p: source.honest_move(source.view(p, h)))[1] for p in problems[:12])
    assert honest >= 9, honest


def test_gops_pattern_forecast_follows_the_shortest_period() -> None:
    assert gops._forecast([]) == 0
    assert gops._forecast([3]) == 3
    assert gops._forecast([2, -1]) == 2  # period 1 does not fit; period 2 has nothing to check yet
    assert gops._forecast([2, -1, 2, -1]) == 2
    assert gops._forecast([5, -1, 1, 5, -1, 1]) == 5
    assert gops._forecast([2, -1, -1, 1, 2, -1]) == -1  # period 4: the third margin comes again
    assert gops._forecast([0, 4, 1, 2, 3]) == 2  # no period fits the last three: the lower median
    problem = make_source("games/gops").sample(4, 0)
    assert "p rounds ago" in problem.prompt and "the prize plus 4" in problem.prompt
