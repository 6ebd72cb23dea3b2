"""Red-team regressions (issue 21) for operations, planning, sequences, probability, calculus, linalg,
geometry, verification and causal: textbook heuristics that reached the optimum, and answers a
policy could give without solving."""

from __future__ import annotations

import itertools

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.operations import facility_location, flow_shop, integer_program, set_cover, transportation

SEEDS = range(12)


def _problems(env_id: str, level: int = 4) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, 4_000 + seed) for seed in SEEDS]


def _reward(env_id: str, problem: palaestra.Problem, answer: str) -> float:
    return palaestra.score(problem, make_source(env_id).format_answer(answer)).reward


def test_facility_location_local_search_is_a_local_optimum_and_never_optimal() -> None:
    """Greedy add then open/close/swap solved 90% of level-4 problems before v2."""
    for problem in _problems("operations/facility_location"):
        opening, serving = problem.data["opening"], problem.data["serving"]
        chosen = facility_location.local_search_open(opening, serving)
        cost = facility_location.total_cost(opening, serving, chosen)
        neighbours = [set(chosen) ^ {i} for i in range(len(opening))]
        neighbours += [(set(chosen) - {i}) | {j} for i in chosen for j in range(len(opening)) if j not in chosen]
        assert all(facility_location.total_cost(opening, serving, sorted(n)) >= cost for n in neighbours if n)
        assert cost > problem.data["optimum"]
        assert _reward("operations/facility_location", problem, ", ".join(f"W{i + 1}" for i in chosen)) == 0
        assert _reward("operations/facility_location", problem, problem.answer or "") == 1


def test_integer_program_rounding_repairs_are_feasible_and_never_optimal() -> None:
    """Rounding the LP down and raising variables greedily solved 56% (80% from the best nearby point) of
    level-4 problems before v2."""
    for problem in _problems("operations/integer_program"):
        c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
        for point in integer_program.rounding_repairs(c, a, b):
            assert min(point) >= 0
            assert all(sum(x * v for x, v in zip(row, point)) <= bound for row, bound in zip(a, b))
            value = sum(x * v for x, v in zip(c, point))
            assert value < problem.data["optimum"]
            spelled = ", ".join(f"x{j + 1} = {v}" for j, v in enumerate(point)) + f", P = {value}"
            assert _reward("operations/integer_program", problem, spelled) == 0


def test_set_cover_improved_greedy_covers_and_is_never_optimal() -> None:
    """Greedy with redundant sets dropped and cheaper swaps solved 63% of level-4 problems before v2."""
    for problem in _problems("operations/set_cover"):
        sets, costs, n = problem.data["sets"], problem.data["costs"], problem.data["n"]
        chosen = set_cover.improved_greedy_cover(sets, costs, n)
        assert set().union(*(sets[i] for i in chosen)) == set(range(1, n + 1))
        assert sum(costs[i] for i in chosen) > problem.data["optimum"]
        assert _reward("operations/set_cover", problem, ", ".join(f"S{i + 1}" for i in chosen)) == 0


def _neh(times: list[list[int]]) -> list[int]:
    """NEH written independently of the env: longest total first, best insertion (first on ties)."""
    order: list[int] = []
    for job in sorted(range(len(times)), key=lambda j: -sum(times[j])):
        order = min((order[:k] + [job] + order[k:] for k in range(len(order) + 1)),
                    key=lambda o: flow_shop.makespan(times, o))
    return order


def test_flow_shop_neh_is_never_optimal() -> None:
    """NEH solved 55% of level-4 problems before v2."""
    for problem in _problems("operations/flow_shop"):
        times = problem.data["times"]
        for order in (_neh(times), flow_shop.neh_order(times)):
            assert sorted(order) == list(range(len(times)))
            assert flow_shop.makespan(times, order) > problem.data["makespan"]
            assert _reward("operations/flow_shop", problem, ", ".join(f"J{j + 1}" for j in order)) == 0


def test_transportation_vogel_is_feasible_and_never_optimal() -> None:
    """Vogel's approximation solved 48% of level-4 problems before v2."""
    for problem in _problems("operations/transportation"):
        supply, demand, cost = problem.data["supply"], problem.data["demand"], problem.data["cost"]
        plan = transportation.vogel_plan(supply, demand, cost)
        assert [sum(row) for row in plan] == supply
        assert [sum(column) for column in zip(*plan)] == demand
        text = "\n".join(" ".join(map(str, row)) for row in plan)
        assert _reward("operations/transportation", problem, text) == 0
        assert _reward("operations/transportation", problem, problem.answer or "") == 1


@pytest.mark.parametrize("env_id", ["operations/facility_location", "operations/flow_shop",
                                    "operations/integer_program", "operations/set_cover",
                                    "operations/transportation"])
def test_declared_heuristics_fail_from_level_two(env_id: str) -> None:
    source = make_source(env_id)
    for (name, policy), problem in itertools.product(source.heuristics().items(), _problems(env_id, 2)[:6]):
        assert _reward(env_id, problem, policy(problem)) == 0, name
