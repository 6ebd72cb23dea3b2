"""Red-team regressions for the games family (round 3, session 20): fixed-margin rules at GOPS levels 1-2 and the
minesweeper turn budget that told the board's hidden 3BV."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.generators.minesweeper import HIDDEN
from palaestra.kit.play import play_episode


def _at_least(problem, k: int):
    def choose(state, history):
        prize = problem.data["prizes"][state["round"]]
        return str(min([c for c in state["hand"] if c >= prize + k] or state["hand"]))

    return choose


def test_gops_fixed_margin_rules_lose_at_levels_one_and_two() -> None:
    """v2's levels 1-2 faced fixed bidders (the card nearest the prize; that plus noise): "the lowest card at least
    the prize + 1 (or + 2)" won 1.00 at level 1 and 0.85 (0.80) at level 2 over 100 problems. The steady opponent
    (v3) forecasts a kept margin and outbids it: every margin 0..5 wins at most 0.20 over 200 problems."""
    source = make_source("games/gops")
    for level in (1, 2):
        problems = [source.sample(level, seed) for seed in range(25)]
        for k in range(6):
            wins = sum(play_episode(source, problem, _at_least(problem, k))[1] for problem in problems)
            assert wins <= 10, (level, k, wins)
        honest = sum(
            play_episode(source, p, lambda s, h, p=p: source.honest_move(source.view(p, h)))[1] for p in problems[:12]
        )  # the honest player (sampled rollouts since v5) is the costly one: a dozen of the problems
        assert honest >= 8, (level, honest)
        assert all(play_episode(source, p, lambda s, h, p=p: source.oracle(p, s))[1] for p in problems[:8])


def test_minesweeper_budget_is_read_from_the_board_shown() -> None:
    """v1's budget was clicks * 3 // 2 + 8 (clicks: the hidden 3BV less one), printed as "(N turns left)": it named
    the 3BV exactly (correlation 1.00). Two boards showing as many hidden cells now get one budget."""
    source = make_source("games/minesweeper")
    budgets: dict[tuple[int, int], set[int]] = {}
    clicks_seen: dict[tuple[int, int], set[int]] = {}
    for seed in range(40):
        problem = source.sample(0, seed)
        cells = problem.data["rows"] * problem.data["cols"]
        mask = source.opened(problem.data, HIDDEN * cells, problem.data["first"])
        key = (mask.count(HIDDEN), len(problem.data["mines"]))
        budgets.setdefault(key, set()).add(source.max_turns(problem))
        clicks_seen.setdefault(key, set()).add(problem.data["clicks"])
    assert all(len(values) == 1 for values in budgets.values())
    assert any(len(values) > 1 for values in clicks_seen.values())  # the budget no longer separates 3BVs
