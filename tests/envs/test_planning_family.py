"""Planning envs (issue 13): optimal lengths against plain search, and the plan readers' trickiest cases.

The contract kit covers references, spellings, corruptions, hostile input and distinctness; these
tests check that the domain-specific searches the generators use find true optima (breadth-first
search over the ground STRIPS actions or the puzzle's own rules agrees), that the verifiers accept
other valid plans and reject longer ones where a shortest plan is asked.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.planning._people_crossing import read_loads
from palaestra.envs.planning._strips import StripsRules, action_text, plan_text, read_plan
from palaestra.envs.planning.river_crossing import read_crossings
from palaestra.solvers.simulate import shortest_plan


def _sample(env_id: str, level: int, seed: int):
    task = make_source(env_id)
    return task, task.sample(level, seed)


# --- readers -------------------------------------------------------------------------------------------------


def test_plan_reader_takes_pddl_and_function_spellings_and_refuses_hedges():
    names = ["pick-up", "stack"]
    want = [("pick-up", ("a",)), ("stack", ("a", "b"))]
    assert read_plan("(pick-up a)\n(stack a b)", 10, names) == want
    assert read_plan("1. pick-up(A)\n2. stack(A, B)", 10, names) == want
    assert read_plan("pick-up a\nstack a b\n\nThis reaches the goal.", 10, names) is None  # a remark (#21)
    assert read_plan("0.000: (pick-up a) [1]\n1.000: (stack a b) [1]\n; cost = 2", 10, names) == want
    assert read_plan("```\n(pick-up a)\n(stack a b)\n```", 10, names) == want
    assert read_plan("(pick-up a) or (pick-up b)", 10, names) is None
    assert read_plan("(pick-up a)\n(stack a b)", 1, names) is None  # more actions than allowed
    assert read_plan("this plan reaches the goal", 10, names) is None


def test_crossing_readers():
    names = ["wolf", "goat", "cabbage"]
    assert read_crossings("goat; nothing; wolf and cabbage", names) == [2, 0, 5]
    assert read_crossings("1. Take the goat across.\n2. Return alone.", names) == [2, 0]
    assert read_crossings("goat + wolf", names) == [3]
    assert read_crossings("goat or wolf", names) is None
    assert read_crossings("goat; lion", names) is None
    assert read_loads("MC; 2 cannibals; 1M 1C") == [(1, 1), (0, 2), (1, 1)]
    assert read_loads("two missionaries and one cannibal") == [(2, 1)]
    assert read_loads("MC, maybe CC") is None


# --- optimal lengths against plain breadth-first search ------------------------------------------------------


@pytest.mark.parametrize("env_id, level, seeds", [
    ("planning/blocksworld", 0, range(4)), ("planning/blocksworld", 1, range(2)),
    ("planning/gripper", 0, range(2)), ("planning/miconic", 0, range(3)),
])
def test_strips_optimum_matches_breadth_first_search_over_ground_actions(env_id, level, seeds):
    for seed in seeds:
        task, problem = _sample(env_id, level, seed)
        plain = shortest_plan(StripsRules(task.instance(problem)), max_nodes=400_000)
        assert len(plain) == problem.data["length"], (env_id, seed)


def test_optimal_levels_reject_longer_valid_plans_and_any_levels_accept_them():
    task, problem = _sample("planning/blocksworld", 0, 3)  # level 0: any valid plan
    rules = StripsRules(task.instance(problem))
    # an unhurried plan: put every block on the table, then build the goal towers bottom up
    state, plan = rules.initial(), []
    for _ in range(10):
        top = [a for a in state if a[0] == "on" and ("clear", a[1]) in state]
        if not top:
            break
        plan += [("unstack", top[0][1:]), ("put-down", (top[0][1],))]
        state = rules.run(plan).state
    goal_on = {a[1]: a[2] for a in rules.instance.goal if a[0] == "on"}
    built: set[str] = {a[1] for a in rules.instance.goal if a[0] == "ontable"}
    for _ in range(len(goal_on)):
        for block, support in sorted(goal_on.items()):
            if support in built and block not in built:
                plan += [("pick-up", (block,)), ("stack", (block, support))]
                built.add(block)
    assert rules.run(plan).solved
    assert task.verify(problem, plan_text(plan)).correct
    optimal_task, optimal_problem = _sample("planning/blocksworld", 2, 0)
    gold = read_plan(optimal_problem.answer, 100, optimal_task.action_names())
    longer = gold + [("pick-up", ("zz",))]
    assert not optimal_task.verify(optimal_problem, plan_text(longer)).correct
    assert "no object" in optimal_task.verify(optimal_problem, plan_text(longer)).feedback
    assert not optimal_task.verify(optimal_problem, action_text(gold[0])).correct


def test_sliding_puzzle_optimum_matches_breadth_first_search():
    from palaestra.envs.planning.sliding_puzzle import SlidingRules

    for seed in range(3):
        task, problem = _sample("planning/sliding_puzzle", 1, seed)
        data = problem.data
        rules = SlidingRules(tuple(data["start"]), tuple(data["goal"]), data["side"])

        class Blind(SlidingRules):
            def heuristic(self, state):
                return 0

        plain = shortest_plan(Blind(rules.start, rules.target, rules.side), max_nodes=200_000)
        assert len(plain) == data["optimal"]
        assert task.verify(problem, ", ".join(map(str, plain))).correct  # another shortest solution scores too


def test_water_jugs_and_hanoi_variants_optima_match_generic_search():
    from palaestra.envs.planning.hanoi_variants import variant_rules
    from palaestra.envs.planning.water_jugs import _rules

    for seed in range(4):
        _, problem = _sample("planning/water_jugs", 2, seed)
        assert len(shortest_plan(_rules(problem))) == problem.data["optimal"]
        _, problem = _sample("planning/hanoi_variants", 1, seed)
        data = problem.data
        assert len(shortest_plan(variant_rules(data["variant"], data["start"], data["goal"]))) == data["optimal"]


# --- verifiers: rules that matter --------------------------------------------------------------------------


def test_hanoi_variant_rejects_a_move_the_variant_forbids():
    task = make_source("planning/hanoi_variants")
    for seed in range(30):
        problem = task.sample(0, seed)
        if problem.data["variant"] == "cyclic":
            break
    start = problem.data["start"]
    top_peg = start[0]
    backwards = {"A": "C", "B": "A", "C": "B"}[top_peg]  # counter-clockwise
    verdict = task.verify(problem, f"{top_peg}->{backwards}, {problem.answer}")
    assert not verdict.correct and "does not allow" in verdict.feedback


def test_keys_doors_rejects_walking_through_a_locked_door():
    from palaestra.envs.planning.keys_doors import _shortest_ignoring_doors

    task, problem = _sample("planning/keys_doors", 2, 1)
    straight = _shortest_ignoring_doors(problem)
    verdict = task.verify(problem, straight)
    assert not verdict.correct and "without key" in verdict.feedback


def test_sokoban_accepts_lurd_and_refuses_pushing_into_a_wall():
    task = make_source("planning/sokoban")
    problem = task.sample(1, 2)
    lurd = task.spellings(problem)[4]
    assert lurd != problem.answer and task.verify(problem, lurd).correct
    data = {"grid": ["#####", "#---#", "#####"], "keeper": [1, 1], "boxes": [[1, 2]], "goals": [[1, 3]], "shortest": 1}
    tiny = problem.__class__(problem.env_id, 0, 0, "", "R", data, problem.version)
    assert task.verify(tiny, "R").correct
    verdict = task.verify(tiny, "RR")
    assert not verdict.correct and "into a wall" in verdict.feedback


def test_river_crossing_refuses_leaving_a_forbidden_pair():
    task = make_source("planning/river_crossing", puzzle="items")
    problem = task.sample(0, 0)
    a, b = problem.data["conflicts"][0]
    names = problem.data["items"]
    others = [n for i, n in enumerate(names) if i not in (a, b)]
    verdict = task.verify(problem, others[0] if others else "nothing")  # leaves a and b alone together
    assert not verdict.correct and "left alone together" in verdict.feedback
