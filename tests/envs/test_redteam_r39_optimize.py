"""Red team, round 39 (second look at economics and operations envs last red-teamed by round 3's 27th session).

- operations/integer_program (v4): the greedy fill from zero (each variable raised as far as the slack allows, in a
  textbook order: largest objective coefficient, largest stand-alone value or largest coefficient per unit of
  resource first) was optimal in 30-50% of the problems at levels 2-4 (coefficient order: 50%, 35%, 40%); those
  levels now redraw until all three fills miss the optimum: 0% (40 seeds a level).
- operations/transportation (v3): Russell's approximation (the open route of most negative cost - u_i - v_j,
  u_i and v_j the largest open costs of its row and column) was optimal in 47%, 47% and 28% of the problems at
  levels 2-4; those levels now redraw it away too: 0%.
- operations/exam_timetabling (v4): first fit (each exam, in the order listed, into the first slot without a clash
  and the smallest free room that fits) completed 38%, 25% and 42% of the timetables at levels 2-4, and 38%, 7%
  and 30% in the reverse order; those levels now list the exams most conflicts first (an order first fit is drawn
  to fail in): 0% listed, 10%, 3%, 5% reversed.
- economics/price_discrimination (v3): for the uniform price, the smallest consistent served set (its price on its
  own aggregate demand) was the best on 0.38 of level 3 (200 seeds; 0.45 on 40), 83% of its uniform questions,
  and the aggregate demand's price on 0.29 of level 2; a coin drawn per problem now decides whether the smallest
  consistent set is the best: 0.26 and 0.21 (200 seeds), about half the uniform questions, a two-way guess.
- operations/lot_sizing (v3): the least-unit-cost rule (extend a batch while its cost per unit falls) and the period
  order quantity (a batch every round(EOQ / mean demand) periods) were optimal in 17% and 16% of the problems at
  level 2, 11% and 9% at level 3 (150 seeds); levels 2 and up now redraw them away too: 0%.

The policies are written out here, not taken from the envs, so the tests hold the envs to the textbook rules.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.core.registry import make_source

SEEDS = range(20)


def _reward(env: str, problem, text: str) -> float:  # type: ignore[no-untyped-def]
    return make_source(env).verify(problem, text).reward


def _fill(c: list[int], a: list[list[int]], b: list[int], key) -> list[int]:  # type: ignore[no-untyped-def]
    slack, point = list(b), [0] * len(c)
    for j in sorted(range(len(c)), key=lambda j: (key(c, a, b, j), j)):
        point[j] = min(slack[i] // row[j] for i, row in enumerate(a) if row[j] > 0)
        slack = [s - row[j] * point[j] for s, row in zip(slack, a)]
    return point


_ORDERS = {
    "coefficient": lambda c, a, b, j: Fraction(-c[j]),
    "stand-alone value": lambda c, a, b, j: -c[j] * min(Fraction(b[i], r[j]) for i, r in enumerate(a) if r[j]),
    "per unit of resource": lambda c, a, b, j: Fraction(-c[j], sum(r[j] for r in a)),
}


@pytest.mark.parametrize("level", [2, 3, 4])
def test_integer_program_greedy_fills_earn_nothing(level: int) -> None:
    env = "operations/integer_program"
    for seed in SEEDS:
        problem = make_source(env).sample(level, seed)
        c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
        for key in _ORDERS.values():
            point = _fill(c, a, b, key)
            text = ", ".join(f"x{j + 1} = {v}" for j, v in enumerate(point)) + f", P = {sum(map(int.__mul__, c, point))}"
            assert _reward(env, problem, text) == 0, (seed, text)


@pytest.mark.parametrize("level", [0, 2, 4, 6])
def test_integer_program_reference_solves(level: int) -> None:
    env = "operations/integer_program"
    for seed in range(8):
        problem = make_source(env).sample(level, seed)
        assert _reward(env, problem, problem.answer or "") == 1


def _russell(supply: list[int], demand: list[int], cost: list[list[int]]) -> list[list[int]]:
    left, wanted = list(supply), list(demand)
    plan = [[0] * len(demand) for _ in supply]
    rows, columns = set(range(len(supply))), set(range(len(demand)))
    while rows and columns:
        u = {i: max(cost[i][j] for j in columns) for i in rows}
        v = {j: max(cost[i][j] for i in rows) for j in columns}
        _, i, j = min((cost[i][j] - u[i] - v[j], i, j) for i in rows for j in columns)
        amount = min(left[i], wanted[j])
        plan[i][j] += amount
        left[i] -= amount
        wanted[j] -= amount
        if left[i] == 0:
            rows.discard(i)
        if wanted[j] == 0:
            columns.discard(j)
    return plan


@pytest.mark.parametrize("level", [2, 3, 4])
def test_transportation_russell_earns_nothing(level: int) -> None:
    env = "operations/transportation"
    for seed in SEEDS:
        problem = make_source(env).sample(level, seed)
        plan = _russell(problem.data["supply"], problem.data["demand"], problem.data["cost"])
        assert _reward(env, problem, "\n".join(" ".join(map(str, row)) for row in plan)) == 0, seed


@pytest.mark.parametrize("level", [0, 2, 4, 6])
def test_transportation_reference_solves(level: int) -> None:
    env = "operations/transportation"
    for seed in range(8):
        problem = make_source(env).sample(level, seed)
        assert _reward(env, problem, problem.answer or "") == 1


def _first_fit(problem, order: list[int]) -> str:  # type: ignore[no-untyped-def]
    data = problem.data
    capacity, size, clashes = data["capacity"], data["size"], {tuple(pair) for pair in data["conflicts"]}
    plan: dict[int, tuple[int, int]] = {}
    for exam in order:
        spot = next(((slot, room) for slot in range(data["slots"])
                     if not any((min(exam, o), max(exam, o)) in clashes and plan[o][0] == slot for o in plan)
                     for room in sorted(range(len(capacity)), key=capacity.__getitem__)
                     if capacity[room] >= size[exam] and (slot, room) not in plan.values()), None)
        if spot is None:
            return "stuck"
        plan[exam] = spot
    return "\n".join(f"E{e + 1}: S{plan[e][0] + 1} R{plan[e][1] + 1}" for e in range(len(size)))


@pytest.mark.parametrize("level", [2, 3, 4])
def test_exam_timetabling_first_fit_in_the_listed_order_earns_little(level: int) -> None:
    env = "operations/exam_timetabling"
    listed = reverse = 0.0
    for seed in SEEDS:
        problem = make_source(env).sample(level, seed)
        exams = list(range(len(problem.data["size"])))
        listed += _reward(env, problem, _first_fit(problem, exams))
        reverse += _reward(env, problem, _first_fit(problem, exams[::-1]))
    assert listed == 0
    assert reverse <= 0.2 * len(SEEDS)


@pytest.mark.parametrize("level", [0, 2, 4, 6])
def test_exam_timetabling_reference_solves(level: int) -> None:
    env = "operations/exam_timetabling"
    for seed in range(8):
        problem = make_source(env).sample(level, seed)
        assert _reward(env, problem, problem.answer or "") == 1


def test_price_discrimination_smallest_served_set_is_a_coin_flip() -> None:
    env = "economics/price_discrimination"
    shortcut = make_source(env).heuristics()["the smallest consistent served set"]
    asked = right = 0.0
    for level in (3, 4):
        for seed in range(30):
            problem = make_source(env).sample(level, seed)
            if problem.data["question"] == "uniform":
                asked += 1
                right += _reward(env, problem, shortcut(problem))
    assert right <= 0.6 * asked, (right, asked)


@pytest.mark.parametrize("level", [2, 3, 4, 6])
def test_price_discrimination_reference_solves(level: int) -> None:
    env = "economics/price_discrimination"
    for seed in range(8):
        problem = make_source(env).sample(level, seed)
        assert _reward(env, problem, problem.answer or "") == 1


def _least_unit_cost(demand: list[int], setup: list[int], holding: int) -> list[int]:
    plan, j = [0] * len(demand), 0
    while j < len(demand):
        if demand[j] == 0:
            j += 1
            continue
        end, units, cost = j + 1, demand[j], Fraction(setup[j])
        while end < len(demand):
            more = cost + holding * (end - j) * demand[end]
            if more / (units + demand[end]) > cost / units:
                break
            end, units, cost = end + 1, units + demand[end], more
        plan[j] = sum(demand[j:end])
        j = end
    return plan


def _period_order_quantity(demand: list[int], setup: list[int], holding: int) -> list[int]:
    mean_demand, mean_setup = sum(demand) / len(demand), sum(setup) / len(setup)
    k = max(1, round((2 * mean_demand * mean_setup / holding) ** 0.5 / mean_demand))
    return [sum(demand[j:j + k]) if j % k == 0 else 0 for j in range(len(demand))]


@pytest.mark.parametrize("level", [2, 3, 4])
def test_lot_sizing_least_unit_cost_and_period_order_quantity_earn_nothing(level: int) -> None:
    env = "operations/lot_sizing"
    for seed in range(30):
        problem = make_source(env).sample(level, seed)
        data = problem.data
        for rule in (_least_unit_cost, _period_order_quantity):
            plan = rule(data["demand"], data["setup"], data["holding"])
            assert _reward(env, problem, " ".join(map(str, plan))) == 0, (seed, rule.__name__)


@pytest.mark.parametrize("level", [0, 2, 4, 6])
def test_lot_sizing_reference_solves(level: int) -> None:
    env = "operations/lot_sizing"
    for seed in range(8):
        problem = make_source(env).sample(level, seed)
        assert _reward(env, problem, problem.answer or "") == 1
