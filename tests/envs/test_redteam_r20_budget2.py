"""Red-team regressions (round 3, session 20, budget2): turn budgets that told a hidden quantity, now fixed by the
level and checked at generation to suffice (text adventure: twice the oracle's plan plus two turns per room; cooking:
the oracle's plan plus four turns per room; fog maze: the hidden shortest route plus the spare turns; black box: the
honest player's rays plus three)."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.kit.play import play_episode


def _sample(env_id: str, level: int, seeds: range) -> tuple[set[int], list]:
    source = make_source(env_id)
    problems = [source.sample(level, seed) for seed in seeds]
    return {source.max_turns(problem) for problem in problems}, problems


def _honest_wins(env_id: str, problem) -> bool:
    source = make_source(env_id)
    return play_episode(source, problem, lambda s, h, p=problem: source.honest_move(source.view(p, h)))[1]


def test_text_adventure_budget_does_not_tell_the_plan_length() -> None:
    """v1: budget = 2 * oracle plan + 2 * rooms (correlation 1.00 with the plan at levels 0/2/4). v2: five turns per
    room and four per locked door, whatever the plan; the oracle's plan and the honest game fit in it."""
    for level, budget in ((0, 24), (4, 96)):
        budgets, problems = _sample("interactive/text_adventure", level, range(8))
        assert budgets == {budget}
        assert len({problem.data["plan"] for problem in problems}) > 1  # the plans differ, the budget does not
        for problem in problems[:2]:
            assert problem.data["plan"] <= budget
            assert _honest_wins("interactive/text_adventure", problem)


def test_cooking_budget_does_not_tell_the_plan_length() -> None:
    """v1: budget = oracle plan + 4 * rooms, stated in the prompt too (correlation 1.00 with the plan). v2: five turns
    per room, four per recipe ingredient and four more; the oracle's plan and the honest game fit in it."""
    for level, budget in ((0, 28), (4, 80)):
        budgets, problems = _sample("interactive/cooking", level, range(8))
        assert budgets == {budget}
        assert all(f"You have {budget} turns" in problem.prompt for problem in problems)
        assert len({problem.data["plan"] for problem in problems}) > 1
        for problem in problems[:2]:
            assert problem.data["plan"] <= budget
            assert _honest_wins("interactive/cooking", problem)


def test_fog_maze_budget_does_not_tell_the_shortest_route() -> None:
    """v3: budget = the hidden maze's shortest route + a share of the cells (correlation 1.00 with the route). v4: a
    route allowance plus the spare turns, each a share of the cells; mazes whose route is longer are redrawn."""
    for level, budget in ((0, 24), (2, 46)):
        budgets, problems = _sample("games/fog_maze", level, range(10))
        assert budgets == {budget}
        assert all(f"You have {budget} turns" in problem.prompt for problem in problems)
        assert len({problem.data["shortest"] for problem in problems}) > 1
        assert all(problem.data["shortest"] <= budget for problem in problems)
