"""Red team, round 3 session 35: service/payroll_corrections v3, every misreading of a clause decides every problem.

Each scripted policy below applies the payroll policy with one clause misread (computed from the records, not from
the env's internals) and is replayed through the env's multi-turn API. Version 2 drew corrections as they fell: on
40 seeds a level, refusing a day of exactly 12 hours solved 0.78-0.88 of levels 0-5, correcting a colleague's hours
0.47-0.80, ignoring the 12-hour limit 0.57-0.78, adjusting days of the open period 0.60-0.78, refusing deductions (or
adding them as gains) 0.40-0.80, overtime ignored 0.23-0.35 and paid on the whole day 0.35-0.47, ending the 30-day
window a day early 0.93-1.00 of levels 2-5, counting it from the day worked 0.57-0.82, ignoring it 0.20-0.57.
Version 3 draws each correction as the one of a few that exposes the most misreadings not yet exposed and draws a
problem again while one stays unexposed; the limit is in play from level 1 and the window from level 2 (with a
period paid exactly 30 days ago): each policy now solves 0.00-0.12 of levels 1-6 (40 seeds), the one-sided problems,
and correcting a colleague's hours 0.23 of level 0, where the colleague is the only refusal (9 of the 40 draws fell
all allowed; a tenth is the design). Counting 31 days as within the window was not tested here: in v3 a period paid
31 days ago could not sit beside one paid 30 days ago. Version 4 pays the period before that one late, 31 days ago,
so both off-by-ones are exposed in one problem (tests/envs/test_redteam_r37_misc.py).
"""

from __future__ import annotations

import copy
from datetime import date
from fractions import Fraction
from typing import Any

from envs_support import blind_shares, solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call, dollars

PAYROLL = make_source("service/payroll_corrections")

# misreading -> the first level where it is in play (the limit from level 1, the window from level 2)
MISREADINGS = {"colleague's hours": 0, "adjust in the open period": 0, "paid days in place": 0,
               "paid days refused": 0, "no overtime": 0, "double overtime": 0, "whole day at 1.5": 0,
               "no deductions": 0, "deductions added": 0, "references untold": 0, "no hour limit": 1,
               "12 hours refused": 1, "no window": 2, "window before 30 days": 2, "window from the day worked": 2}


def _pay(rate: int, hours: float, misreading: str | None) -> int:
    if misreading == "no overtime":
        return int(rate * Fraction(hours))
    if misreading == "whole day at 1.5" and hours > 8:
        return int(Fraction(3, 2) * rate * Fraction(hours))
    premium = 2 if misreading == "double overtime" else Fraction(3, 2)
    return int(rate * Fraction(min(hours, 8)) + premium * rate * Fraction(max(hours - 8, 0)))


def _correction(records: Any, caller: str, request: Any, rules: Any, misreading: str | None) -> tuple[str, int] | None:
    """("set", 0), ("adjust", cents) or None (refused), as the policy read with ``misreading`` decides."""
    employee, day, hours = request["employee"], request["day"], request["hours"]
    if employee != caller and misreading != "colleague's hours":
        return None
    if rules["limit"] and ((hours > 12 and misreading != "no hour limit")
                           or (hours == 12 and misreading == "12 hours refused")):
        return None
    period = next(p for p in records["periods"].values() if p["start"] <= day <= p["end"])
    rate = records["employees"][employee]["rate_cents"]
    amount = _pay(rate, hours, misreading) - _pay(rate, records["hours"][employee][day], misreading)
    if period["paid"] is None:
        return ("adjust", amount) if misreading == "adjust in the open period" else ("set", 0)
    if misreading == "paid days refused":
        return None
    today = date.fromisoformat(records["today"])
    paid_ago = (today - date.fromisoformat(period["paid"])).days
    if rules["window"] and not {"no window": True, "window before 30 days": paid_ago < 30,
                                "window from the day worked": (today - date.fromisoformat(day)).days <= 30
                                }.get(misreading or "", paid_ago <= 30):
        return None
    if misreading == "paid days in place":
        return "set", 0
    if amount < 0 and misreading == "no deductions":
        return None
    return "adjust", abs(amount) if misreading == "deductions added" else amount


def _policy(problem: Any, misreading: str | None) -> list[str]:
    """The replies of the payroll policy read with ``misreading`` (None: as stated), and the total it adds."""
    data = problem.data
    records, caller = copy.deepcopy(data["records"]), data["caller"]
    replies = [call("find_employee", email=records["employees"][caller]["email"])]
    added, total = 0, 0
    for index, request in enumerate(data["requests"]):
        if index == data["vague"]:
            replies.append("Which day, and how many hours did you work?")
        employee, day = request["employee"], request["day"]
        replies.append(call("get_day", employee_id=employee, day=day))
        result = _correction(records, caller, request, data["rules"], misreading)
        message = "Sorry, the policy does not allow that correction."
        if result is not None and result[0] == "set":
            replies.append(call("set_hours", employee_id=employee, day=day, hours=request["hours"]))
            records["hours"][employee][day] = request["hours"]
            message = "Corrected."
        elif result is not None:
            replies.append(call("add_adjustment", employee_id=employee, day=day, amount_cents=result[1]))
            reference = "" if misreading == "references untold" else f" ADJ{100 + added}"
            message = f"Adjustment{reference} of {dollars(result[1])} added."
            added, total = added + 1, total + result[1]
        replies.append(f"{message} Anything else?")
    return [*replies, dollars(total)]


def test_no_single_misreading_solves_more_than_the_one_sided_problems() -> None:
    shares = blind_shares(PAYROLL, _policy, MISREADINGS, range(5), 30)
    assert all(share <= 0.2 for share in shares.values()), {k: v for k, v in shares.items() if v > 0.2}


def test_the_misreadings_in_play_are_stated_and_the_others_are_not() -> None:
    for level, limit, window in ((0, False, False), (1, True, False), (2, True, True)):
        problem = PAYROLL.sample(level, 7)
        assert problem.data["rules"] == {"limit": limit, "window": window}
        assert ("more than 12 hours" in problem.prompt) == limit
        assert ("paid at most 30 days ago" in problem.prompt) == window


def test_the_reference_plan_solves_every_level() -> None:
    for level in range(7):
        for seed in range(10):
            problem = PAYROLL.sample(level, seed)
            assert solves(PAYROLL, problem, PAYROLL.plan(problem)), (level, seed)
            assert solves(PAYROLL, problem, _policy(problem, None)), (level, seed)
