"""Red-team regressions (issue 21) for operations, planning, sequences, probability, calculus, linalg,
geometry, verification and causal: textbook heuristics that reached the optimum, and answers a
policy could give without solving."""

from __future__ import annotations

import itertools

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.operations import (
    exam_timetabling,
    facility_location,
    flow_shop,
    integer_program,
    lot_sizing,
    set_cover,
    transportation,
)

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


def _first_fit_largest_first(data: dict) -> list[tuple[int, int]] | None:
    """First fit with the exams by largest enrolment, written independently of the env."""
    capacity, size, slots = data["capacity"], data["size"], data["slots"]
    clash = {e: set() for e in range(len(size))}
    for a, b in data["conflicts"]:
        clash[a].add(b)
        clash[b].add(a)
    plan: dict[int, tuple[int, int]] = {}
    for exam in sorted(range(len(size)), key=lambda e: (-size[e], -len(clash[e]), e)):
        spots = [(s, q) for s in range(slots) for q in sorted(range(len(capacity)), key=lambda q: capacity[q])
                 if capacity[q] >= size[exam] and (s, q) not in plan.values()
                 and all(plan[o][0] != s for o in clash[exam] if o in plan)]
        if not spots:
            return None
        plan[exam] = spots[0]
    return [plan[e] for e in range(len(size))]


def test_exam_timetabling_first_fit_gets_stuck_in_every_textbook_order() -> None:
    """First fit by largest enrolment completed 57% of level-4 timetables before v2."""
    for problem in _problems("operations/exam_timetabling"):
        data = problem.data
        assert _first_fit_largest_first(data) is None
        for order in exam_timetabling.FIRST_FIT_ORDERS:
            assert exam_timetabling.first_fit(data["capacity"], data["size"], data["conflicts"], data["slots"],
                                              order) is None
        assert _reward("operations/exam_timetabling", problem, problem.answer or "") == 1


def test_lot_sizing_incremental_rule_is_never_optimal() -> None:
    """Extending a batch while holding the next demand costs less than its setup solved 68% at level 4 before v2."""
    for problem in _problems("operations/lot_sizing"):
        demand, setup, holding = problem.data["demand"], problem.data["setup"], problem.data["holding"]
        plan = lot_sizing.incremental_plan(demand, setup, holding)
        assert sum(plan) == sum(demand)
        assert lot_sizing.plan_cost(demand, setup, holding, plan) > problem.data["optimum"]
        assert _reward("operations/lot_sizing", problem, " ".join(map(str, plan))) == 0


def test_underdetermined_system_constant_no_solution_pays_little() -> None:
    """'no solution' was the answer to 20-25% of problems at levels 1, 3 and 4 (constant scored 0.20-0.28); 8% since,
    and from version 4 it needs its certificate, so the bare constant earns nothing."""
    source = make_source("linalg/underdetermined_system")
    for level in (1, 4):
        problems = [source.sample(level, 6_000 + seed) for seed in range(150)]
        share = sum(not p.data["consistent"] for p in problems) / len(problems)
        assert 0 < share <= 0.12, (level, share)
        assert not any(_reward("linalg/underdetermined_system", p, "no solution") for p in problems)


@pytest.mark.parametrize("env_id", ["operations/exam_timetabling", "operations/facility_location",
                                    "operations/flow_shop", "operations/integer_program", "operations/lot_sizing",
                                    "operations/set_cover", "operations/transportation"])
def test_declared_heuristics_fail_from_level_two(env_id: str) -> None:
    source = make_source(env_id)
    for (name, policy), problem in itertools.product(source.heuristics().items(), _problems(env_id, 2)[:6]):
        assert _reward(env_id, problem, policy(problem)) == 0, name


def test_underdetermined_system_reads_a_space_run_inside_a_vector_quickly() -> None:
    """A comma separator starting with \\s* rescanned a 19,000-space run at every position (0.65 s CPU)."""
    import time

    source = make_source("linalg/underdetermined_system")
    problem = source.sample(4, 300_014)
    answer = problem.answer or ""
    cut = answer.rfind(" ", 0, len(answer) // 2 + 1)
    hostile = answer[:cut] + " " * 19_000 + answer[cut:]
    start = time.process_time()
    source.verify(problem, hostile)
    assert time.process_time() - start < 0.1
    assert source.verify(problem, answer.replace(", ", " ,  ")).correct


def _dsep(level: int, count: int) -> list[palaestra.Problem]:
    source = make_source("causal/graph_query")
    found: list[palaestra.Problem] = []
    for seed in range(4 * count):
        problem = source.sample(level, 8_000 + seed)
        if problem.data["kind"] == "dsep":
            found.append(problem)
            if len(found) == count:
                break
    return found


def test_graph_query_constant_yes_pays_little_and_a_bare_no_pays_nothing() -> None:
    """At 50/50 a constant 'yes' scored 0.35-0.44 and a bare 'no' as much; a no now needs its open path."""
    for level in (0, 4):
        problems = _dsep(level, 24)
        separated = [p for p in problems if p.data["separated"]]
        assert 0.05 <= len(separated) / len(problems) <= 0.45
        assert all(_reward("causal/graph_query", p, "no") == 0 for p in problems)
        assert all(_reward("causal/graph_query", p, "yes") == 1 for p in separated)


def test_graph_query_open_path_is_checked_not_compared() -> None:
    import networkx as nx

    for problem in _dsep(4, 16):
        if problem.data["separated"]:
            continue
        graph = nx.DiGraph(problem.data["edges"])
        x, y, z = problem.data["x"], problem.data["y"], set(problem.data["z"])
        undirected = graph.to_undirected()
        for path in itertools.islice(nx.all_simple_paths(undirected, x, y), 12):
            is_open = all(
                (({b} | nx.descendants(graph, b)) & z) if graph.has_edge(a, b) and graph.has_edge(c, b) else b not in z
                for a, b, c in zip(path, path[1:], path[2:]))
            reward = _reward("causal/graph_query", problem, "no: " + " - ".join(reversed(path)))
            assert reward == float(bool(is_open)), path
        reference = problem.answer or ""
        flipped = reference.replace("->", "<=").replace("<-", "->").replace("<=", "<-")  # every arrow wrong
        assert _reward("causal/graph_query", problem, flipped) == 0
        assert _reward("causal/graph_query", problem, f"yes. {reference}") == 0
        assert _reward("causal/graph_query", problem, reference.replace("no:", "No, they are d-connected via")) == 1


def _gn1_plan(problem: palaestra.Problem) -> list[str]:
    """Gupta and Nau's greedy, written independently of the env: a block onto its final place while one can go,
    else the alphabetically first clear misplaced block (not on the table) onto the table."""
    on = {a[1]: (a[2] if a[0] == "on" else "table") for a in problem.data["init"] if a[0] in ("on", "ontable")}
    goal = {a[1]: (a[2] if a[0] == "on" else "table") for a in problem.data["goal"] if a[0] in ("on", "ontable")}

    def placed(block: str) -> bool:
        while on[block] == goal[block]:
            if on[block] == "table":
                return True
            block = on[block]
        return False

    plan: list[str] = []
    while on != goal:
        clear = sorted(b for b in on if b not in on.values() and not placed(b))
        ready = [b for b in clear if goal[b] == "table" or (goal[b] not in on.values() and placed(goal[b]))]
        block = ready[0] if ready else next(b for b in clear if on[b] != "table")
        target = goal[block] if ready else "table"
        plan.append(f"(pick-up {block})" if on[block] == "table" else f"(unstack {block} {on[block]})")
        plan.append(f"(put-down {block})" if target == "table" else f"(stack {block} {target})")
        on[block] = target
    return plan


def test_blocksworld_textbook_greedy_rarely_finds_the_shortest_plan() -> None:
    """GN1 found a shortest plan for 87% of level-4 problems before v3."""
    problems = _problems("planning/blocksworld")
    rewards = [_reward("planning/blocksworld", p, "\n".join(_gn1_plan(p))) for p in problems]
    assert sum(rewards) <= len(problems) / 2
    for problem in problems:
        assert _reward("planning/blocksworld", problem, problem.answer or "") == 1


def _busiest_floor_visits(problem: palaestra.Problem) -> int:
    """Floor moves of the greedy elevator, written independently of the env: serve everyone at this floor, then
    go to the floor where the most passengers can board or leave (the lowest such floor on ties)."""
    origin = {a[1]: int(a[2][1:]) for a in problem.data["init"] if a[0] == "origin"}
    destination = {a[1]: int(a[2][1:]) for a in problem.data["init"] if a[0] == "destin"}
    floor = next(int(a[1][1:]) for a in problem.data["init"] if a[0] == "lift-at")
    waiting, aboard, visits = set(origin), set(), 0
    while True:
        aboard -= {p for p in aboard if destination[p] == floor}
        boarding = {p for p in waiting if origin[p] == floor}
        waiting -= boarding
        aboard |= boarding
        if not waiting and not aboard:
            return visits
        stops = [origin[p] for p in waiting] + [destination[p] for p in aboard]
        floor = min(set(stops), key=lambda f: (-stops.count(f), f))
        visits += 1


def test_miconic_busiest_floor_greedy_is_rarely_shortest() -> None:
    """Going to the floor with the most passengers to board or leave was shortest for 48% at level 4 before v3."""
    problems = _problems("planning/miconic")
    shortest = [len((p.answer or "").splitlines()) - 2 * sum(a[0] == "origin" for a in p.data["init"])
                for p in problems]
    hits = sum(_busiest_floor_visits(p) == best for p, best in zip(problems, shortest))
    assert hits <= len(problems) / 4


def test_counterfactual_answer_is_never_a_stated_noise_probability() -> None:
    """35-40% of answers were a stated P(U = 1) or its complement; the outcome's own noise scored 0.12-0.14."""
    import re
    from fractions import Fraction

    source = make_source("causal/counterfactual")
    for level in (0, 2):
        for seed in range(40):
            problem = source.sample(level, 9_000 + seed)
            stated = {Fraction(v) for v in re.findall(r"P\(U_\w+ = 1\) = (\d+/\d+)", problem.prompt)}
            assert stated
            answer = Fraction(problem.answer or "")
            assert answer not in stated and 1 - answer not in stated


def test_modular_puzzle_answer_is_never_a_number_the_conditions_state() -> None:
    """At level 0 'answer a stated remainder' scored 0.14 before v2 (x0 below every modulus is its own remainder)."""
    import re

    source = make_source("sequences/modular_puzzle")
    for seed in range(120):
        problem = source.sample(0, 9_500 + seed)
        stated = re.findall(r"\d+", problem.prompt.split("All of these are true:")[1].split("What is")[0])
        assert problem.answer not in stated


def test_eigenvalues_are_not_the_diagonal_entries() -> None:
    """Reading the diagonal off (triangular matrices from few row operations) scored 0.55/0.28/0.23 at L0-L2."""
    source = make_source("linalg/eigenvalues")
    for level in (0, 1, 2):
        for seed in range(40):
            problem = source.sample(level, 9_800 + seed)
            matrix = problem.data["matrix"]
            diagonal = ", ".join(str(matrix[i][i]) for i in range(len(matrix)))
            assert _reward("linalg/eigenvalues", problem, diagonal) == 0
            assert _reward("linalg/eigenvalues", problem, problem.answer or "") == 1


def test_bitvector_input_target_echoed_as_every_input_is_wrong() -> None:
    """Giving the target itself as every input solved 13% of level-2 problems before v2."""
    import re

    source = make_source("verification/bitvector_input")
    for level in (0, 2, 4):
        for seed in range(40):
            problem = source.sample(level, 9_900 + seed)
            names = re.search(r"def f\(([^)]*)\)", problem.prompt).group(1).split(", ")
            echo = ", ".join(f"{name} = {problem.data['target']}" for name in names)
            assert _reward("verification/bitvector_input", problem, echo) == 0


@pytest.mark.parametrize(("env_id", "level", "cut"), [
    ("sequences/roman_numerals", 2, "\n\nUse the standard form"),  # an additive numeral already standard: copy it
    ("probability/markov_absorption", 4, "\n\nGive the exact value"),  # a start leading straight to absorption
    ("geometry/triangle_solving", 4, "\n\nGive the exact value"),  # an isosceles triangle: the side given
])
def test_answer_is_not_printed_in_the_question(env_id: str, level: int, cut: str) -> None:
    """Copying the answer out of the question scored 0.22 (roman L2), 0.16 (markov L4), 0.09 (triangles L4)."""
    import re

    source = make_source(env_id)
    for seed in range(60):
        problem = source.sample(level, 9_600 + seed)
        question = problem.prompt.split(cut)[0]
        answer = problem.answer or ""
        assert not re.search(r"(?<![\w/.])" + re.escape(answer) + r"(?![\w/])", question), (seed, answer)
        assert _reward(env_id, problem, answer) == 1
