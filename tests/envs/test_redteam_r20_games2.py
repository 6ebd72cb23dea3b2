"""Red-team regressions for the games family (round 3, session 20, games2): turn budgets that told a hidden quantity
(dungeon crawl: the oracle's plan length; klondike: the hidden-card solver's line; room grid: the honest player's
probes), now fixed by the level and checked at generation to suffice."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.kit.play import play_episode


def _budgets(env_id: str, level: int, seeds: range) -> tuple[set[int], list]:
    source = make_source(env_id)
    problems = [source.sample(level, seed) for seed in seeds]
    return {source.max_turns(problem) for problem in problems}, problems


def test_dungeon_crawl_budget_does_not_tell_the_plan_length() -> None:
    """v1: budget = oracle plan + rooms + 3 * guards + 2 (correlation 1.00 with the plan at levels 0/2/4). v2: three
    turns per room and two per guard, whatever the plan; the oracle's plan and the honest game fit in it."""
    source = make_source("games/dungeon_crawl")
    for level, budget in ((0, 31), (4, 87)):
        budgets, problems = _budgets("games/dungeon_crawl", level, range(6))
        assert budgets == {budget}
        assert len({problem.data["plan"] for problem in problems}) > 1  # the plans differ, the budget does not
        for problem in problems[:2]:
            assert problem.data["plan"] <= budget
            honest = play_episode(source, problem, lambda s, h, p=problem: source.honest_move(source.view(p, h)))
            assert honest[1]


def test_klondike_budget_does_not_tell_the_solver_line() -> None:
    """v1: budget = the solver's line + 12 (correlation 1.00). v2: two turns per card and per stock card, less six;
    deals whose line leaves less than twelve spare turns are redrawn."""
    for level, budget in ((0, 62), (4, 92)):
        budgets, problems = _budgets("games/klondike", level, range(5))
        assert budgets == {budget}
        assert all(len(problem.data["line"]) + 12 <= budget for problem in problems)
        assert len({len(problem.data["line"]) for problem in problems}) > 1


def test_room_grid_budget_does_not_tell_the_honest_probes() -> None:
    """v1: budget = the honest player's probes + 3 (correlation 1.00). v2: three per treasure, one per eight rooms
    and five more; sheets where the honest player needs more than the budget less three are redrawn."""
    for level, budget in ((0, 19), (4, 36)):
        budgets, problems = _budgets("games/room_grid", level, range(8))
        assert budgets == {budget}
        assert all(problem.data["honest"] + 3 <= budget for problem in problems)
        assert len({problem.data["honest"] for problem in problems}) > 1
