"""Red-team regressions for economics/dominance, planning/water_jugs, chemistry/balance_equation, deduction/kinship
and web/room_booking (round 3, session 28): a constant answer or a rule that reads half the problem earned reward,
and right answers a careful grader accepts were rejected.

Each share below was measured before the fix on the same seeds (in the comment) and is asserted well below it.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import palaestra
from palaestra.core.registry import make_source


def _problems(env_id: str, level: int, count: int, base: int = 28_100) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def _modal_share(problems: list[palaestra.Problem]) -> float:
    return Counter(p.answer for p in problems).most_common(1)[0][1] / len(problems)


def test_dominance_level_0_has_no_dominant_survivor_set() -> None:
    # v2 drew 2-3 rows and columns at level 0: a quarter of the games were 2x2 and "A, 2" survived in 0.14 of 500 seeds
    # (0.12 here); v3 draws 3-4 rows.
    problems = _problems("economics/dominance", 0, 300)
    assert _modal_share(problems) <= 0.09, Counter(p.answer for p in problems).most_common(3)
    assert all(len(p.data["row_payoffs"]) >= 3 for p in problems)


def test_dominance_reads_a_survivors_label_and_refuses_hedges() -> None:
    source = make_source("economics/dominance")
    problem = _problems("economics/dominance", 1, 1)[0]
    listed = problem.answer or ""
    for right in (f"Survivors: {listed}", f"The surviving strategies are {listed}.", f"Answer: {listed}",
                  f"\\boxed{{{listed}}}", f"{listed}."):
        assert source.verify(problem, right).correct, right
    for wrong in (f"Survivors: {listed} or A", f"{listed}, or maybe 1", f"Survivors: {listed}. Or not."):
        assert not source.verify(problem, wrong).correct, wrong


def test_water_jugs_no_constant_plan_is_a_shortest_solution() -> None:
    # v2 (capacities sorted, level 0 two to four steps, goals drawn among amounts): "fill A, pour A B" was a shortest
    # plan in 0.12 of level 0 and "fill A, pour A C" in 0.11 ("fill C, pour C A": 0.13 here); v3: at most ~0.07 for any
    # plan found.
    source = make_source("planning/water_jugs")
    problems = _problems("planning/water_jugs", 0, 150)
    for plan in ("fill A, pour A B", "fill A, pour A C", "fill C, pour C A", "fill B, pour B C",
                 "fill A, pour C B, pour A C", "fill A, pour B C, pour A B"):
        share = sum(source.verify(p, plan).correct for p in problems) / len(problems)
        assert share <= 0.09, (plan, share)


def test_balance_equation_small_coefficient_lists_are_thinned() -> None:
    # v2: reactions balanced by ones and twos alone were 0.46 of level 0 (0.57 here), over a few orders each answering
    # up to 0.12 ("2, 1, 1, 2"); v3 keeps them at odds 0.55 and draws larger fuels.
    problems = _problems("chemistry/balance_equation", 0, 300)
    small = sum(max(p.data["coefficients"]) <= 2 for p in problems) / len(problems)
    assert small <= 0.42, small
    assert _modal_share(problems) <= 0.08, Counter(p.answer for p in problems).most_common(3)


def test_kinship_level_2_asks_fifteen_words() -> None:
    # v3 asked 11 words at level 2 (aunts, cousins, in-laws): one answered 0.09-0.11 of the level; v4 adds the
    # grandparents and grandchildren (15 words, one each 1/15 of the time); v5 the blood words too (23).
    answers = Counter(p.answer for p in _problems("deduction/kinship", 2, 240))
    assert {"grandfather", "grandmother", "grandson", "granddaughter"} <= set(answers), answers
    assert len(answers) >= 15 and max(answers.values()) / 240 <= 0.12, answers


def _free_rank(problem: palaestra.Problem) -> int:
    """Where the answer's hotel stands among the asked city's star ratings that have a room free for the stay (1: the
    best-rated), or 0 when the answer is not the cheapest free room of its rating (no rank rule finds it)."""
    data = problem.data
    rooms = data["records"]["rooms"]
    start = date.fromisoformat(data["check_in"])
    stay = {(start + timedelta(days=n)).isoformat() for n in range(data["nights"])}
    free = sorted((path for path in data["city_rooms"] if stay <= set(rooms[path]["free"])),
                  key=lambda path: rooms[path]["price"])
    best = data["route"][-1]
    ratings = sorted({rooms[path]["stars"] for path in free}, reverse=True)
    stars = rooms[best]["stars"]
    if [path for path in free if rooms[path]["stars"] == stars][:1] != [best]:
        return 0
    return ratings.index(stars) + 1


def test_room_booking_the_best_or_second_rated_hotel_is_rarely_the_answer() -> None:
    # v4 as first changed this session (three hotels a city, a threshold of 3-5 stars): the cheapest free room of the
    # best-rated hotel with one was the answer in 0.73 / 0.71 / 0.79 of levels 0-2 (500 seeds), of the second-rated
    # in 0.21-0.28; now five hotels or more, thresholds 2-4, and 0-3 better-rated hotels with free rooms above the
    # answer's: each rank about 0.25-0.3.
    for level in (0, 1, 2):
        ranks = Counter(_free_rank(problem) for problem in _problems("web/room_booking", level, 150))
        shares = {rank: count / 150 for rank, count in ranks.items()}
        assert shares.get(1, 0) <= 0.36 and shares.get(2, 0) <= 0.36 and shares.get(3, 0) <= 0.4, (level, shares)
    # and without raising a fixed star threshold's share (the asked one unread; v4 before: 0.32-0.41): it is right
    # whenever it equals the asked one, a third of the problems, and a little more
    problems = _problems("web/room_booking", 3, 150)
    for stars in (2, 3, 4, 5):
        right = 0
        for problem in problems:
            data = problem.data
            rooms = data["records"]["rooms"]
            start = date.fromisoformat(data["check_in"])
            stay = {(start + timedelta(days=n)).isoformat() for n in range(data["nights"])}
            free = sorted((path for path in data["city_rooms"] if stay <= set(rooms[path]["free"])
                           and rooms[path]["stars"] >= stars), key=lambda path: rooms[path]["price"])
            right += free[:1] == [data["route"][-1]]
        assert right / len(problems) <= 0.5, (stars, right / len(problems))
