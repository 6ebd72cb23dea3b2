"""Red team, round 40 (schedules: envs where one cheap pass or a published rule still solved the top levels).

- operations/exam_timetabling (v5): first fit in one random order (each exam into the first slot without a clash and
  the smallest free room that fits) completed 39%, 22% and 27% of the timetables at levels 2-4 (mean over 100 orders
  on 40 seeds); from level 2 on the grid is now full (as many exams as slot-room places), so a timetable is a perfect
  packing: 8%, 4% and 2% (the smallest fitting room free in any slot, in a random order: 16%, 9%, 6%).
- operations/shift_scheduling (v4): Baker's rule for two consecutive days off (for the fewest workers the bounds allow,
  then one more at a time, each worker off on the two days whose larger remaining need is lowest) is exact for the
  fewest workers: 98-100% at every level. From level 2 on each day has its own pay and the goal is the lowest bill:
  Baker's rule 0% (30 seeds at levels 2-4), with the dearer days off first on ties 0% (50-80% before the pays were
  redrawn), the cheapest LP relaxation rounded up and stripped 0% (60-90%), the fewest-workers optimum 3-10%.
- tools/date_arithmetic (v3): estimating the k-th Friday the 13th after a date as the date plus k mean gaps (146,097
  days / 688) and answering the Friday the 13th nearest the estimate was right in 42% and 35% of those questions
  (0.21 of level 2, 0.18 of level 3, 200 seeds); the answer now lies a drawn number of places (-2 to +1, uniform)
  from that nearest one: 0.10 and 0.15 (300 seeds), no neighbour of the estimate above 0.15.

The policies are written out here, not taken from the envs, so the tests hold the envs to the rules.
"""

from __future__ import annotations

import itertools
import random
import re
from datetime import date, timedelta

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


# --- operations/shift_scheduling -----------------------------------------------------------------------------------

SHIFTS = "operations/shift_scheduling"


def _on_duty(starts: list[int], k: int) -> list[int]:
    n = len(starts)
    return [sum(starts[(j - i) % n] for i in range(k)) for j in range(n)]


def _baker(demand: list[int], pay: list[int], by_pay: bool) -> str:
    """Baker's rule: the fewest workers first, each off on the pair of days whose larger remaining need is lowest."""
    n = len(demand)
    for workers in range(max(demand), sum(demand) + 1):
        need, starts = list(demand), [0] * n
        for _ in range(workers):
            off = min(range(n), key=lambda s: (max(need[s], need[(s + 1) % n]),
                                               -(pay[s] + pay[(s + 1) % n]) if by_pay else 0, s))
            starts[(off + 2) % n] += 1
            need = [v if j in (off, (off + 1) % n) else v - 1 for j, v in enumerate(need)]
        if max(need) <= 0:
            return ", ".join(f"D{j + 1} = {v}" for j, v in enumerate(starts))
    return "none"


@pytest.mark.parametrize("level", [2, 3, 4, 6])
def test_shift_scheduling_bakers_rule_misses_the_cheapest_bill(level: int) -> None:
    """Baker's rule solved 98-100% of version 3's problems at every level; now 0% from level 2 on."""
    for seed in range(12):
        problem = make_source(SHIFTS).sample(level, seed)
        demand, pay = problem.data["demand"], problem.data.get("pay", problem.data["demand"])
        assert _reward(SHIFTS, problem, _baker(demand, pay, False)) == 0
        assert _reward(SHIFTS, problem, _baker(demand, pay, True)) == 0


def test_shift_scheduling_bakers_rule_still_solves_the_head_count_levels() -> None:
    """Levels 0-1 keep the fewest-workers question, where Baker's rule is exact (by design: the easy levels)."""
    solved = sum(_reward(SHIFTS, problem, _baker(problem.data["demand"], problem.data["demand"], False))
                 for problem in (make_source(SHIFTS).sample(1, seed) for seed in range(10)))
    assert solved >= 9


def test_shift_scheduling_cheapest_bill_matches_brute_force() -> None:
    from palaestra.envs.operations.shift_scheduling import cheapest_starts

    rng = random.Random(40)
    for _ in range(25):
        n = rng.randint(4, 5)
        demand = [rng.randint(0, 3) for _ in range(n)]
        pay = [rng.randrange(100, 201, 10) for _ in range(n)]
        best = min(sum(w * h for w, h in zip(pay, _on_duty(list(x), n - 2)))
                   for x in itertools.product(range(4), repeat=n)
                   if all(h >= d for h, d in zip(_on_duty(list(x), n - 2), demand)))
        starts, cost = cheapest_starts(demand, n - 2, pay)
        assert cost == best == sum(w * h for w, h in zip(pay, _on_duty(starts, n - 2)))


@pytest.mark.parametrize("level", [2, 4, 7])
def test_shift_scheduling_reference_pays_the_cheapest_bill(level: int) -> None:
    for seed in range(6):
        problem = make_source(SHIFTS).sample(level, seed)
        assert _reward(SHIFTS, problem, problem.answer or "") == 1
        starts = [int(part.split(" = ")[1]) for part in (problem.answer or "").split(", ")]
        pricier = [v + 1 if j == 0 else v for j, v in enumerate(starts)]  # covered, one worker more
        assert _reward(SHIFTS, problem, ", ".join(f"D{j + 1} = {v}" for j, v in enumerate(pricier))) == 0


# --- tools/date_arithmetic -----------------------------------------------------------------------------------------

DATES = "tools/date_arithmetic"


def _friday13s_near(day: date) -> list[date]:
    return [date(y, m, 13) for y in range(day.year - 5, day.year + 6) for m in range(1, 13)
            if date(y, m, 13).weekday() == 4]


@pytest.mark.parametrize("level", [2, 3])
def test_date_arithmetic_no_neighbour_of_the_estimate_is_often_right(level: int) -> None:
    """Version 2: the Friday the 13th nearest start + k * 146097/688 days was right in 42% and 35% of the questions."""
    source = make_source(DATES)
    asked = 0
    right = dict.fromkeys(range(-2, 3), 0)
    for seed in range(120):
        problem = source.sample(level, seed)
        asked_for = re.search(r"the (\d+)\w\w Friday the 13th after \w+ (\d{4}-\d\d-\d\d)", problem.prompt)
        if not asked_for:
            continue
        asked += 1
        estimate = date.fromisoformat(asked_for[2]) + timedelta(days=int(asked_for[1]) * 146_097 / 688)
        days = _friday13s_near(estimate)
        nearest = min(range(len(days)), key=lambda i: abs((days[i] - estimate).days))
        for shift in right:
            right[shift] += source.judge(problem, days[nearest + shift].isoformat()).correct
    assert asked >= 40
    assert max(right.values()) <= 0.33 * asked, (asked, right)


def test_date_arithmetic_friday13_reference_counts_from_the_date() -> None:
    source = make_source(DATES)
    for seed in range(40):
        problem = source.sample(2, seed)
        if problem.data["kind"] != "friday13":
            continue
        day, left = date.fromisoformat(problem.data["params"]["start"]), problem.data["params"]["k"]
        while left:
            day += timedelta(days=1)
            left -= day.day == 13 and day.weekday() == 4
        assert problem.answer == day.isoformat()
        assert source.judge(problem, day.isoformat()).correct
