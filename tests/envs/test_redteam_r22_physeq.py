"""Red-team round 3, session 22 (physics, sequences, spatial, temporal): regression tests.

Each test failed before its fix and passes after it.
"""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


def _reward(task, problem, reply: str) -> float:
    return task.check(problem, f"<answer>{reply}</answer>").reward


# --- spatial/hex_distance: the greedy walk toward the goal ---------------------------------------------------------

_HEX = {"E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (0, 1), "SW": (-1, 1)}


def _hex_gap(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def _greedy_walk(problem, order) -> str:
    """Step to a free on-board neighbour nearest the goal, ties in ``order``, written independently of the env."""
    data = problem.data
    blocked = {tuple(cell) for cell in data["blocked"]}
    cell, goal, steps = tuple(data["start"]), tuple(data["goal"]), []
    while cell != goal and len(steps) < 60:
        options = [(name, (cell[0] + _HEX[name][0], cell[1] + _HEX[name][1])) for name in order]
        options = [(n, c) for n, c in options if c not in blocked and _hex_gap(c, (0, 0)) <= data["radius"]]
        if not options:
            break
        name, cell = min(options, key=lambda item: _hex_gap(item[1], goal))
        steps.append(name)
    return ", ".join(steps)


def test_hex_distance_greedy_walk_is_never_shortest_from_level_two() -> None:
    """v1 forced a detour only: the greedy walk (ties in the prompt's order) was a shortest walk for 0.80 of level 0,
    0.68 of level 2 and 0.48 of level 4 (the top). v2 draws levels 2+ where no greedy walk (any ties) is shortest."""
    task = _task("spatial/hex_distance")
    orders = (tuple(_HEX), tuple(reversed(_HEX)), ("NW", "SE", "E", "W", "SW", "NE"))
    for level in (2, 4):
        for seed in range(15):
            problem = task.sample(level, seed)
            assert _reward(task, problem, problem.answer) == 1.0
            for order in orders:
                assert _reward(task, problem, _greedy_walk(problem, order)) == 0.0
    heuristic = task.heuristics()["greedy toward the goal"]
    assert sum(task.verify(p, heuristic(p)).correct for p in (task.sample(4, s) for s in range(15))) == 0


# --- physics: a right value in another unit of the same quantity ---------------------------------------------------


def _sample(env_id: str, level: int, seed: int):
    task = _task(env_id)
    return task, task.sample(level, seed)


def test_physics_reads_the_si_unit_and_common_abbreviations() -> None:
    """``0.000172 F`` for 172 μF, ``324403.2 s`` for 11264/125 h, ``1262 kg/m3``, ``-52.23914 MPa``, ``7565/39
    yrs`` and ``... J/C`` for volts were refused; a wrong unit or a value not converted still scores 0."""
    task, problem = _sample("physics/capacitors", 0, 0)
    assert problem.answer == "172 μF"
    assert _reward(task, problem, "0.000172 F") == 1.0
    assert _reward(task, problem, "172e-6 farads") == 1.0
    assert _reward(task, problem, "172 F") == 0.0

    task, problem = _sample("physics/orbits", 4, 0)
    assert problem.answer == "11264/125 h"
    assert _reward(task, problem, "324403.2 s") == 1.0
    assert _reward(task, problem, "90.112 hrs") == 1.0
    assert _reward(task, problem, "11264/125 s") == 0.0

    task, problem = _sample("physics/fluids", 4, 0)
    assert problem.answer == "1262 kg/m³"
    assert _reward(task, problem, "1262 kg/m3") == 1.0
    assert _reward(task, problem, "1262 g/cm3") == 0.0

    task, problem = _sample("physics/fluids", 2, 0)
    assert problem.answer == "-52239140 Pa"
    assert _reward(task, problem, "-52.23914 MPa") == 1.0
    assert _reward(task, problem, "-52239140 MPa") == 0.0

    task, problem = _sample("physics/relativity", 0, 0)
    assert problem.answer == "7565/39 years"
    assert _reward(task, problem, "7565/39 yrs") == 1.0
    assert _reward(task, problem, "7565/39 days") == 0.0

    task, problem = _sample("physics/electrostatics", 2, 0)
    assert problem.answer.endswith(" V")
    assert _reward(task, problem, problem.answer.replace(" V", " J/C")) == 1.0
    assert _reward(task, problem, problem.answer.replace(" V", " kV")) == 0.0


# --- temporal/time_zones: a 12-hour clock reading ------------------------------------------------------------------


def test_time_zones_reads_a_twelve_hour_time() -> None:
    """``Sunday 2:54 PM`` (and ``p.m.``, ``2:54pm``) for Sunday 14:54 was refused; 14:54 PM, 2:54 AM, 12:54 PM and a
    hedge still score 0, and midnight and noon read the usual way."""
    task = _task("temporal/time_zones")
    problem = task.sample(0, 1)
    assert problem.answer == "Wednesday 14:34"  # (v2 draws)
    for right in ("Wednesday 2:34 PM", "Wednesday 2:34 p.m.", "Wed 2:34pm", "2:34 PM on Wednesday",
                  "Wednesday 02:34 PM"):
        assert _reward(task, problem, right) == 1.0, right
    for wrong in ("Wednesday 14:34 PM", "Wednesday 2:34 AM", "Wednesday 12:34 PM", "Wednesday 2:34 PM or 3:34 PM",
                  "Wednesday 2:34"):
        assert _reward(task, problem, wrong) == 0.0, wrong
    from palaestra.envs.temporal.common import read_week_time

    assert read_week_time("Monday 12:05 AM") == 5
    assert read_week_time("Monday 12:05 PM") == 12 * 60 + 5
    assert read_week_time("Monday 13:05 AM") is None


# --- sequences/rational_trees: a mixed number --------------------------------------------------------------------


def test_rational_trees_reads_a_mixed_number() -> None:
    """``2 1/4`` for 9/4 was refused while ``2.25`` scored; a wrong value or a hedge still scores 0."""
    task = _task("sequences/rational_trees")
    problem = task.sample(0, 13)  # (seed 0 gave 5/4 before rational_trees v3 drew positions from 9)
    assert problem.answer == "9/4"
    assert _reward(task, problem, "2 1/4") == 1.0
    assert _reward(task, problem, "21/4") == 0.0
    assert _reward(task, problem, "2 1/4 or 9/4") == 0.0
