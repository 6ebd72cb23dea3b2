"""Red-team regressions for tools/aggregation_qa, tools/sql_qa, web/room_booking and arithmetic/number_theory
(round 3, session 28): answers a constant or a cheap rule earned, and right answers a careful grader accepts
that were rejected.

Each share below was measured before the fix on the same seeds (in the comment) and is asserted well below it.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta

import palaestra
from palaestra.core.registry import make_source


def _problems(env_id: str, level: int, count: int, base: int = 28_000) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def _modal_share(problems: list[palaestra.Problem]) -> float:
    return Counter(p.answer for p in problems).most_common(1)[0][1] / len(problems)


def test_aggregation_counts_are_spread_so_no_constant_pays() -> None:
    # v4 drew level 2's employee counts from 3-8 alone: the constant 4 answered a fifth of the level (0.19 here).
    # v5 draws them from 2-10 and mixes in founder ages; levels 3-4 mix counts with earliest employees.
    by_level = {level: _problems("tools/aggregation_qa", level, 80) for level in (2, 3, 4)}
    for level, problems in by_level.items():
        assert _modal_share(problems) <= 0.12, (level, Counter(p.answer for p in problems).most_common(3))
    counts = {int(p.answer) for p in by_level[2] if p.answer and p.answer.isdigit() and "work for" in p.prompt}
    assert {2, 10} & counts and len(counts) >= 8, sorted(counts)


def test_aggregation_budget_covers_the_largest_count() -> None:
    # a count of 10 employees needs up to 2 * (10 + 1) tool calls; the budget stays a level constant
    budgets = {p.data["budget"] for p in _problems("tools/aggregation_qa", 2, 30)}
    assert budgets == {22}


def test_sql_level_0_and_3_counts_are_drawn_flat() -> None:
    # v3 thinned small counts only: at level 0 a count answered an eighth or more ("5": 0.15 of these 120 seeds), and at
    # level 3 the counts above an average piled on 17-23. v4 draws the count first, uniformly (2-19, 2-30).
    problems = _problems("tools/sql_qa", 0, 120)
    assert _modal_share(problems) <= 0.12, Counter(p.answer for p in problems).most_common(3)
    values = [int(p.answer or "0") for p in problems]
    assert min(values) >= 2 and max(values) <= 19 and len(set(values)) >= 15
    level_3 = [int(p.answer or "0") for p in _problems("tools/sql_qa", 3, 10)]
    assert min(level_3) >= 2 and max(level_3) <= 30, sorted(level_3)


def _room_rules(problem: palaestra.Problem) -> dict[str, bool]:
    """Which cheap rules pick the answer's room: a rank by price, or the policy with one of its filters unread."""
    data = problem.data
    rooms = data["records"]["rooms"]
    min_stars = int(re.search(r"at least (\d) stars", problem.prompt).group(1))  # type: ignore[union-attr]
    start = date.fromisoformat(data["check_in"])
    stay = {(start + timedelta(days=n)).isoformat() for n in range(data["nights"])}
    city = sorted(data["city_rooms"], key=lambda path: rooms[path]["price"])
    best = data["route"][-1]
    free = [path for path in city if stay <= set(rooms[path]["free"])]
    starred = [path for path in city if rooms[path]["stars"] >= min_stars]
    top = max(rooms[path]["stars"] for path in city)
    return {"cheapest": city[0] == best, "third": city[min(2, len(city) - 1)] == best, "priciest": city[-1] == best,
            "stars unread": free[:1] == [best], "nights unread": starred[:1] == [best],
            "four stars and up": [path for path in free if rooms[path]["stars"] >= 4][:1] == [best],
            "best-rated hotel": [path for path in free if rooms[path]["stars"] == top][:1] == [best]}


def test_room_booking_no_rank_or_half_read_policy_finds_the_room() -> None:
    # v3 at level 0 (2-4 rooms a city, the answer at rank 2-4): the priciest room of the city was right in 0.87, the
    # third-cheapest in 0.61, the cheapest free room (stars unread) in 0.22, the cheapest free room of the best-rated
    # hotel in 0.92 and of 4 stars and up in 0.78; v4 draws the rank from 1 to the priciest among 6 rooms, the cheaper
    # rooms hold the near misses, and the answer's hotel mostly has just the stars asked (3-5), other hotels more.
    for level in (0, 1, 2):
        problems = _problems("web/room_booking", level, 120)
        rules = [_room_rules(problem) for problem in problems]
        shares = {rule: sum(picks[rule] for picks in rules) / len(problems) for rule in rules[0]}
        assert max(shares[rule] for rule in ("cheapest", "third", "priciest")) <= 0.3, (level, shares)
        assert shares["stars unread"] <= 0.15 and shares["nights unread"] <= 0.15, (level, shares)
        assert shares["four stars and up"] <= 0.6 and shares["best-rated hotel"] <= 0.72, (level, shares)


def test_room_booking_budget_decides_often_enough() -> None:
    # v3 had no room within budget in a fifth of the problems: the right room booked, the budget unread, was right in
    # 0.8. v4: two in five.
    problems = _problems("web/room_booking", 0, 150) + _problems("web/room_booking", 3, 150)
    share = sum(p.data["room"] is None for p in problems) / len(problems)
    assert 0.3 <= share <= 0.5, share


def test_room_booking_reads_a_booked_label() -> None:
    source = make_source("web/room_booking")
    problem = next(p for p in _problems("web/room_booking", 0, 20) if p.data["room"] is not None)
    code = problem.answer or ""
    assert source.judge(problem, f"Booked: {code}").correct
    assert source.judge(problem, f"booked {code}").correct
    assert not source.judge(problem, f"Booked: BK{int(code[2:]) + 1}").correct
    assert not source.judge(problem, f"Booked: {code} or BK10000").correct


def test_number_theory_divisor_counts_are_spread() -> None:
    # v5 drew the number first: "8" answered a third of level 1's divisor questions (0.32 there); v6 draws the count.
    problems = [p for p in _problems("arithmetic/number_theory", 1, 1000) if p.data["kind"] == "divisors"]
    assert len(problems) >= 150
    assert _modal_share(problems) <= 0.16, Counter(p.answer for p in problems).most_common(3)
    for problem in problems:  # the count is the number's
        n = problem.data["numbers"][0]
        assert sum(1 for d in range(1, n + 1) if n % d == 0) == int(problem.answer or "0")


def test_number_theory_gcd_is_not_a_printed_number_and_powers_rarely_leave_0_or_1() -> None:
    # v5: the gcd was the smallest number (the lcm the largest) in 13-17% at levels 0-1 (a cofactor of 1), and a^b
    # mod m was 0 or 1 in 24% of level 0's powers
    for level in (0, 1):
        problems = _problems("arithmetic/number_theory", level, 300)
        gcds = [p for p in problems if p.data["kind"] == "gcd"]
        assert gcds and not any(int(p.answer or "0") in p.data["numbers"] for p in gcds)
        lcms = [p for p in problems if p.data["kind"] == "lcm"]
        assert lcms and not any(int(p.answer or "0") in p.data["numbers"] for p in lcms)
    powers = [p for p in _problems("arithmetic/number_theory", 0, 300) if p.data["kind"] == "power_mod"]
    assert sum(p.answer in ("0", "1") for p in powers) / len(powers) <= 0.12
    gcds = [p for p in _problems("arithmetic/number_theory", 0, 300) if p.data["kind"] == "gcd"]
    assert _modal_share(gcds) <= 0.14, Counter(p.answer for p in gcds).most_common(3)  # v5: "2" in 0.2


def test_number_theory_reads_a_divisor_count_with_its_unit() -> None:
    source = make_source("arithmetic/number_theory")
    problem = next(p for p in _problems("arithmetic/number_theory", 1, 60) if p.data["kind"] == "divisors")
    value = int(problem.answer or "0")
    for right in (f"{value} divisors", f"There are {value} positive divisors.", f"{value}"):
        assert source.verify(problem, right).correct, right
    for wrong in (f"{value + 1} divisors", f"{value} divisors or {value + 1}", f"{value} rows"):
        assert not source.verify(problem, wrong).correct, wrong
    gcd = next(p for p in _problems("arithmetic/number_theory", 1, 60) if p.data["kind"] == "gcd")
    assert not source.verify(gcd, f"{gcd.answer} divisors").correct  # the unit is the divisor count's only
