"""Red team, round 40 (schedules: envs where one cheap pass or a published rule still solved the top levels).

- operations/exam_timetabling (v5): first fit in one random order (each exam into the first slot without a clash and
  the smallest free room that fits) completed 39%, 22% and 27% of the timetables at levels 2-4 (mean over 100 orders
  on 40 seeds); from level 2 on the grid is now full (as many exams as slot-room places), so a timetable is a perfect
  packing: 8%, 4% and 2% (the smallest fitting room free in any slot, in a random order: 16%, 9%, 6%).

The policies are written out here, not taken from the envs, so the tests hold the envs to the rules.
"""

from __future__ import annotations

import random

import pytest

from palaestra.core.registry import make_source


def _reward(env: str, problem, text: str) -> float:  # type: ignore[no-untyped-def]
    return make_source(env).verify(problem, text).reward


# --- operations/exam_timetabling -----------------------------------------------------------------------------------

EXAMS = "operations/exam_timetabling"


def _first_fit(data: dict, order: list[int], best_room: bool) -> str:  # type: ignore[type-arg]
    """Each exam in ``order`` into the first clash-free slot with a free fitting room (the smallest), or with
    ``best_room`` into the smallest fitting room free in some clash-free slot."""
    capacity, size, slots = data["capacity"], data["size"], data["slots"]
    clash = {(a, b) for a, b in data["conflicts"]} | {(b, a) for a, b in data["conflicts"]}
    plan: dict[int, tuple[int, int]] = {}
    for exam in order:
        free = [(slot, room) for slot in range(slots) for room in range(len(capacity))
                if capacity[room] >= size[exam] and (slot, room) not in plan.values()
                and not any((exam, o) in clash and plan[o][0] == slot for o in plan)]
        if not free:
            return "stuck"
        plan[exam] = min(free, key=lambda p: (capacity[p[1]], p[0]) if best_room else (p[0], capacity[p[1]]))
    return "\n".join(f"E{e + 1}: S{plan[e][0] + 1} R{plan[e][1] + 1}" for e in range(len(size)))


@pytest.mark.parametrize("level", [2, 3, 4])
def test_exam_timetabling_one_random_first_fit_rarely_completes(level: int) -> None:
    """Version 4: 39%, 22%, 27% at levels 2-4 (plain); now about 8%, 4%, 2% (best room 16%, 9%, 6%)."""
    plain = best = 0.0
    tries = 0
    for seed in range(20):
        problem = make_source(EXAMS).sample(level, seed)
        exams = list(range(len(problem.data["size"])))
        for shuffle in range(5):
            order = random.Random(100 * seed + shuffle).sample(exams, len(exams))
            plain += _reward(EXAMS, problem, _first_fit(problem.data, order, False))
            best += _reward(EXAMS, problem, _first_fit(problem.data, order, True))
            tries += 1
    assert plain <= 0.15 * tries, plain / tries
    assert best <= 0.25 * tries, best / tries


@pytest.mark.parametrize("level", [2, 3, 4])
def test_exam_timetabling_first_fit_in_the_listed_order_fails_both_ways(level: int) -> None:
    for seed in range(20):
        problem = make_source(EXAMS).sample(level, seed)
        exams = list(range(len(problem.data["size"])))
        assert _reward(EXAMS, problem, _first_fit(problem.data, exams, False)) == 0
        assert _reward(EXAMS, problem, _first_fit(problem.data, exams, True)) == 0


@pytest.mark.parametrize("level", [2, 4, 6])
def test_exam_timetabling_grid_is_full_and_the_reference_solves(level: int) -> None:
    for seed in range(10):
        problem = make_source(EXAMS).sample(level, seed)
        data = problem.data
        assert len(data["size"]) == data["slots"] * len(data["capacity"])
        assert _reward(EXAMS, problem, problem.answer or "") == 1
