"""Red-team regression for games/black_box (round 3, session 20, blackbox): the turn budget told the hidden
placement's ray count. v1's budget was the honest player's rays on the problem plus three (correlation 1.00 with
the hidden count: it said after which ray one placement was left and ruled out the placements needing another
count). v2: one budget per level (the level's 95th-percentile rays plus three); placements needing more are
redrawn, and ``space_size`` counts only those that fit."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.games import black_box
from palaestra.kit.play import play_episode


def test_black_box_budget_is_one_number_per_level_while_the_rays_vary() -> None:
    source = make_source("games/black_box")
    for level, budget in ((0, 15), (2, 18), (4, 21)):
        problems = [source.sample(level, seed) for seed in range(20)]
        assert {source.max_turns(problem) for problem in problems} == {budget}
        assert all(f"you have {budget} turns." in problem.prompt for problem in problems)
        rays = {problem.data["rays"] for problem in problems}
        assert len(rays) > 2  # the hidden counts differ, the budget does not
        assert max(rays) + 3 <= budget  # the honest player's rays, the answer and the slips fit
    for problem in (source.sample(4, 0), source.sample(0, 1)):  # the honest player and the oracle still win
        honest = play_episode(source, problem, lambda s, h, p=problem: source.honest_move(source.view(p, h)))
        assert honest[1]
        assert play_episode(source, problem, lambda s, h, p=problem: source.oracle(p, s))[1]


def test_black_box_ray_table_matches_the_honest_player_and_space_counts_what_fits() -> None:
    source = make_source("games/black_box")
    config = source.level_config(2)
    table = black_box._table(config.size, config.atoms)
    assert set(table.rays) == set(table.unique)
    for placement in table.unique[::150]:
        assert table.rays[placement] == black_box._honest_rays(config.size, config.atoms, placement)
    fit = sum(1 for need in table.rays.values() if need <= config.rays)
    assert source.space_size(2) == fit < len(table.unique)  # the placements needing more rays are not drawn
