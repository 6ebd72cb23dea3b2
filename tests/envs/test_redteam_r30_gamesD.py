"""Red-team regressions, session 30 (helper gamesD): warehouse_orders' cheap picking rules, game_2048's corner rule."""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import Problem
from palaestra.core.registry import make_source

STEPS = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}


def _farthest_then_nearest(problem: Problem, state: dict[str, Any]) -> str:
    """Written here, apart from the env: pick an adjacent item if there is room; else, carrying nothing, walk to the
    item farthest from the dock, carrying something, to the nearest one; when full or done, go and drop."""
    from palaestra.envs.games import warehouse_orders as w

    data = problem.data
    plan = w._planner(w._layout(data))
    pos, carried = tuple(state["pos"]), state["carried"]
    left = [k for k in sorted(data["items"]) if k not in carried and k not in state["delivered"]]

    def reach(source: tuple[int, int], letter: str) -> int:
        return min(plan.distances(source)[cell] for cell in plan.spots[letter])

    if left and len(carried) < data["load"]:
        for letter in left:
            if pos in plan.spots[letter]:
                return f"pick {letter}"
        dock = tuple(data["dock"])
        target = (max(left, key=lambda k: (reach(dock, k), -ord(k))) if not carried else  # type: ignore[arg-type]
                  min(left, key=lambda k: (reach(pos, k), k)))  # type: ignore[arg-type]
        here = plan.distances(pos)  # type: ignore[arg-type]
        goal = min(plan.spots[target], key=lambda cell: (here[cell], cell))
    elif pos == tuple(data["dock"]):
        return "drop"
    else:
        goal = tuple(data["dock"])
    to_goal = plan.distances(goal)  # type: ignore[arg-type]
    return next(name for name, (dr, dc) in STEPS.items() if to_goal.get((pos[0] + dr, pos[1] + dc), 10**9)
                == to_goal[pos] - 1)  # type: ignore[index]


def test_warehouse_orders_farthest_first_rule_earns_nothing() -> None:
    # v1 set the zero at the nearest-item rule only: this rule scored 0.63 at level 0 (0.37-0.63 per level).
    source = make_source("games/warehouse_orders")
    for seed in range(8):
        problem = source.sample(0, seed)
        state, total = source.initial_state(problem), 0.0
        for _ in range(source.max_turns(problem)):
            outcome = source.play(problem, state, _farthest_then_nearest(problem, state))
            state, total = outcome.state, total + outcome.verdict.reward
            if outcome.done:
                break
        assert outcome.done and total == 0, (seed, state["actions"], problem.data)
    assert any("farthest" in name for name in source.heuristics())


def test_warehouse_orders_listed_order_rule_is_a_declared_zero() -> None:
    # v1: "walk to the next item in the order listed" scored 0.14-0.43 per level.
    source = make_source("games/warehouse_orders")
    rule = source.heuristics()["in the order listed"]
    problem = source.sample(1, 0)
    state, total = source.initial_state(problem), 0.0
    for _ in range(source.max_turns(problem)):
        outcome = source.play(problem, state, rule(problem, state, [], random.Random(0)))
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            break
    assert outcome.done and total == 0 and "best simple rule" in outcome.observation


def test_game_2048_declares_the_corner_rule() -> None:
    source = make_source("games/game_2048")
    rules = source.heuristics()
    assert len(rules) == 1
    rule = next(iter(rules.values()))
    problem = source.sample(0, 0)
    # Nothing slides down or left on this board; right does.
    state = {"board": [0, 0, 0, 4, 0, 0, 2, 8, 16], "count": 1}
    assert rule(problem, state, [], random.Random(0)) == "R"


def test_lights_out_declares_chase_the_lights() -> None:
    # The chase solves every level-0 (4x4) board within the budget: a textbook rule, now declared.
    source = make_source("games/lights_out")
    rule = source.heuristics()["chase the lights down"]
    problem = source.sample(0, 0)
    assert rule(problem, {"lights": 0b10}, [], random.Random(0)) == "b2"
