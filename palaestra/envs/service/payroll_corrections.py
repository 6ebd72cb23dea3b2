"""Correct an employee's recorded hours, told over several turns, under a payroll policy with overtime pay.

The episode's records are a payroll's employees (an hourly rate each), two-week pay periods (the current one
open, earlier ones paid on a date) and the hours recorded per employee and day. A scripted employee
(:class:`~palaestra.envs.service.common.ScriptedUser`) asks one correction per message ("on 2024-11-26 I
worked 9.5 hours, not 7.5"); from level 2 one correction starts vague ("one of my days is wrong") and the
employee's next message gives the day and hours; some ask for a colleague. The functions do what they are
asked; the policy is the agent's:

1. only the employee's own hours may be corrected;
2. no day may be recorded with more than 12 hours;
3. a day in the open period is corrected in place; a day in a period paid at most 30 days ago is left as
   it is and the pay difference is added as an adjustment (negative when fewer hours were worked); a day in
   a period paid longer ago is not corrected;
4. a day's pay is the rate for each hour up to 8, and 1.5 times the rate for each hour beyond 8.

The answer is the total of the adjustments added in the conversation (dollars and cents, negative when it
is); the final records (hours and adjustments) must be those the policy determines, and the employee must
have been told each adjustment's reference. Corrections fall on both sides of the policy in most draws.
The difficulty is twice the corrections plus the refused ones plus the overtime days plus the clauses in play.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import (
    Function,
    Records,
    ScriptedUser,
    call,
    cents_of,
    dollars,
    draw_person,
    draw_side,
    judge_dollars,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 12, 9)
PERIOD_DAYS, PAID_AFTER, ADJUST_DAYS, MAX_HOURS, REGULAR_HOURS = 14, 3, 30, 12, 8
CLOSINGS = ("That's all, thanks.", "Nothing else, thank you.", "That was everything.")


@register
class PayrollCorrections(ScriptedUser):
    id = "service/payroll_corrections"
    family = "service"
    description = "Correct an employee's recorded hours, told over several turns, under a payroll policy (periods, adjustments, overtime)."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "arithmetic", "agentic")
    version = 2  # v2: a twenty-fifth of the problems refuse every request (v1: a tenth)
    tool_names = ("find_employee", "get_day", "set_hours", "add_adjustment")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]
        periods: int  # pay periods on record (the open one and those paid before it)
        vague: bool  # one correction starts vague; the next message gives the day
        slack: int

    presets = (
        Config((2, 2), 2, False, 3),
        Config((2, 3), 3, False, 3),
        Config((3, 3), 4, True, 4),
        Config((3, 4), 4, True, 4),
        Config((4, 5), 5, True, 5),
    )
    growth = Growth(limits={"requests": (8, 12), "periods": 8, "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_employee": Function("Find an employee by e-mail: id, name and hourly rate.", {"email": "string"},
                                      _find_employee),
            "get_day": Function("Read an employee's recorded hours on a day (YYYY-MM-DD) and its pay period's status.",
                                {"employee_id": "string", "day": "string"}, _get_day),
            "set_hours": Function("Set an employee's recorded hours on a day.",
                                  {"employee_id": "string", "day": "string", "hours": "number"}, _set_hours),
            "add_adjustment": Function("Add a pay adjustment (cents, negative to deduct) for an employee's day to the "
                                       "next payroll; returns its reference.",
                                       {"employee_id": "string", "day": "string", "amount_cents": "integer"}, _adjust),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="days for the corrections", attempts=60)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        forge = NameForge(rng)
        people = [draw_person(forge, rng, "E", "payroll.example") for _ in range(2)]
        employees = {p["id"]: {**p, "rate_cents": rng.randint(450, 1200) * 4} for p in people}
        if len(employees) < 2:
            return None
        open_start = TODAY - timedelta(days=rng.randint(2, PERIOD_DAYS - 1))
        periods = {}
        for back in range(config.periods):
            start = open_start - timedelta(days=PERIOD_DAYS * back)
            end = start + timedelta(days=PERIOD_DAYS - 1)
            paid = None if back == 0 else (end + timedelta(days=PAID_AFTER)).isoformat()
            periods[f"PP{start.strftime('%m%d')}"] = {"start": start.isoformat(), "end": end.isoformat(), "paid": paid}
        first = open_start - timedelta(days=PERIOD_DAYS * (config.periods - 1))
        span = (TODAY - first).days
        hours: dict[str, dict[str, float]] = {pid: {} for pid in employees}
        for pid in employees:
            for day in rng.sample(range(span + 1), min(span + 1, 6 + 2 * config.periods)):
                hours[pid][(first + timedelta(days=day)).isoformat()] = rng.choice((4, 6, 7.5, 8, 8, 9, 10))
        records: Records = {"today": TODAY.isoformat(), "employees": employees, "periods": periods, "hours": hours,
                            "adjustments": {}, "next": 0}
        caller, colleague = people[0]["id"], people[1]["id"]
        side = draw_side(rng)
        count = rng.randint(*config.requests)
        requests: list[dict[str, Any]] = []
        used: set[str] = set()
        for _ in range(count):
            whose = colleague if rng.random() < 0.15 else caller
            free = sorted(set(hours[whose]) - used)
            if not free:
                return None
            date = rng.choice(free)
            used.add(date)
            old = hours[whose][date]
            new = rng.choice([h for h in (5, 6.5, 7.5, 8, 8.5, 9, 9.5, 10, 11, 12, 12.5, 13) if h != old])
            requests.append({"employee": whose, "day": date, "hours": new})
        results = _serve(records, caller, requests)[1]
        served = [r is not None for r in results]
        if (side == "mixed") != (len(set(served)) == 2) or (side != "mixed" and served[0] != (side == "all allowed")):
            return None
        vague = rng.randrange(count) if config.vague else None
        user = []
        for index, request in enumerate(requests):
            old = hours[request["employee"]][request["day"]]
            fix = f"On {request['day']} I worked {_hours(request['hours'])} hours, not {_hours(old)}."
            if request["employee"] == colleague:
                who = employees[colleague]
                fix = (f"Could you fix my colleague {who['name']}'s hours ({who['email']})? On {request['day']} "
                       f"they worked {_hours(request['hours'])} hours, not {_hours(old)}.")
            if index == vague:
                user.append("One of my days is recorded wrong.")
            user.append(fix)
        user.append(rng.choice(CLOSINGS))
        user[0] = f"Hi, this is {employees[caller]['name']} ({employees[caller]['email']}). {user[0]}"
        budget = 2 + 3 * count + config.slack
        rules = [
            "1. Correct only the caller's own hours, never a colleague's.",
            f"2. No day may be recorded with more than {MAX_HOURS} hours; refuse such a correction.",
            f"3. A day in the open pay period is corrected in place. For a day in a period paid at most {ADJUST_DAYS} "
            "days ago, leave the recorded hours as they are and add the pay difference as an adjustment (negative "
            "when fewer hours were worked). A day in a period paid longer ago is not corrected.",
            f"4. A day's pay is the hourly rate for each hour up to {REGULAR_HOURS}, and 1.5 times the rate for each "
            f"hour beyond {REGULAR_HOURS}.",
            "5. Tell the caller the reference of every adjustment you add.",
        ]
        prompt = (
            f"You are a payroll assistant. Today is {TODAY.isoformat()}. Payroll policy:\n" + "\n".join(rules)
            + "\n\nThe caller will tell you what to correct over several messages: a reply to them without a tool call "
            "is a message they answer, until they have nothing more to ask. Carry out what the policy allows, refuse "
            "the rest, and do nothing they did not ask for. When they have nothing more to ask, give your final "
            "answer: the total of the adjustments you added, in dollars (negative if it is), e.g. "
            f"<answer>$12.34</answer> (<answer>$0.00</answer> if none).\n\nCaller: {user[0]}\n\n"
            + self.tools_prompt(budget)
        )
        data = {"records": records, "caller": caller, "requests": requests, "vague": vague, "user": user,
                "budget": budget}
        return Problem(prompt=prompt, answer=dollars(sum(r[1] for r in results if r is not None and r[0] == "adjust")),
                       data=data)

    def expected_records(self, problem: Problem) -> Records:
        return _serve(problem.data["records"], problem.data["caller"], problem.data["requests"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        return {f"the adjustment reference {ref}": ref for ref in self.expected_records(problem)["adjustments"]}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        results = _serve(data["records"], data["caller"], data["requests"])[1]
        overtime = sum(r["hours"] > REGULAR_HOURS for r in data["requests"])
        return (2 * len(results) + sum(r is None for r in results) + overtime
                + 2 * (data["vague"] is not None) + len(data["records"]["periods"]) / 2)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        bare = answer.replace("$", "")
        return [bare, f"{bare} dollars", f"The adjustment total is {answer}.", f"{bare} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 100), dollars(cents + 1), dollars(-cents) if cents else "$1.00",
                f"{problem.answer} or $0.00"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = data["records"]
        caller = records["employees"][data["caller"]]
        replies = [call("find_employee", email=caller["email"])]
        results = _serve(records, data["caller"], data["requests"])[1]
        adjustments = 0
        for index, (request, result) in enumerate(zip(data["requests"], results)):
            if index == data["vague"]:
                replies.append("Which day, and how many hours did you work?")
            replies.append(call("get_day", employee_id=request["employee"], day=request["day"]))
            message = "Sorry, the policy does not allow that correction."
            if result is not None and result[0] == "set":
                replies.append(call("set_hours", employee_id=request["employee"], day=request["day"],
                                    hours=request["hours"]))
                message = "Corrected."
            elif result is not None:
                replies.append(call("add_adjustment", employee_id=request["employee"], day=request["day"],
                                    amount_cents=result[1]))
                message = f"Adjustment ADJ{100 + adjustments} of {dollars(result[1])} added."
                adjustments += 1
            replies.append(f"{message} Anything else?")
        return [*replies, problem.answer or "$0.00"]


def _hours(value: float) -> str:
    return f"{value:g}"


def pay_cents(rate: int, hours: float) -> int:
    """A day's pay: the rate up to 8 hours, 1.5 times it beyond (exact: rates are multiples of 4 cents, hours of
    half an hour).

    >>> pay_cents(2000, 9.5)
    20500
    """
    regular = min(hours, REGULAR_HOURS)
    return int(Fraction(rate) * Fraction(regular) + Fraction(3, 2) * rate * Fraction(max(hours - REGULAR_HOURS, 0)))


def _period(records: Records, day: str) -> dict[str, Any] | None:
    return next((p for p in records["periods"].values() if p["start"] <= day <= p["end"]), None)


def _correction(records: Records, caller: str, request: dict[str, Any]) -> tuple[str, int] | None:
    """``("set", 0)`` for a correction in place, ``("adjust", cents)`` for an adjustment, None when refused."""
    if request["employee"] != caller or request["hours"] > MAX_HOURS:
        return None
    period = _period(records, request["day"])
    if period is None:
        return None
    if period["paid"] is None:
        return "set", 0
    if (TODAY - date.fromisoformat(period["paid"])).days > ADJUST_DAYS:
        return None
    rate = records["employees"][caller]["rate_cents"]
    old = records["hours"][caller][request["day"]]
    return "adjust", pay_cents(rate, request["hours"]) - pay_cents(rate, old)


def _serve(initial: Records, caller: str, requests: list[dict[str, Any]]
           ) -> tuple[Records, list[tuple[str, int] | None]]:
    records = copy.deepcopy(initial)
    results = []
    for request in requests:
        result = _correction(records, caller, request)
        results.append(result)
        if result is not None and result[0] == "set":
            _set_hours(records, {"employee_id": caller, "day": request["day"], "hours": request["hours"]})
        elif result is not None:
            _adjust(records, {"employee_id": caller, "day": request["day"], "amount_cents": result[1]})
    return records, results


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_employee(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for employee_id, person in records["employees"].items():
        if person["email"] == email:
            return f"employee {employee_id}: {person['name']}, rate {dollars(person['rate_cents'])} an hour", None
    return f"error: no employee with e-mail {email[:100]!r}", None


def _day(records: Records, args: dict[str, Any]) -> tuple[str, str, str | None]:
    employee, day = str(args["employee_id"])[:40], str(args["day"]).strip()[:20]
    if employee not in records["employees"]:
        return employee, day, f"error: no employee {employee!r}"
    if day not in records["hours"][employee]:
        return employee, day, f"error: no hours recorded for {employee} on {day!r}"
    return employee, day, None


def _get_day(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    employee, day, error = _day(records, args)
    if error is not None:
        return error, None
    period = _period(records, day)
    status = "no pay period" if period is None else (
        f"period {period['start']} to {period['end']}, " + (f"paid {period['paid']}" if period["paid"] else "open"))
    return f"{employee} on {day}: {_hours(records['hours'][employee][day])} hours; {status}", None


def _set_hours(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    employee, day, error = _day(records, args)
    value = args["hours"]
    if error is None and (isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 24):
        error = "error: hours must be a number from 0 to 24"
    if error is not None:
        return error, None
    records["hours"][employee][day] = value
    return f"{employee} on {day}: now {_hours(value)} hours", records


def _adjust(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    employee, day, error = _day(records, args)
    amount = args["amount_cents"]
    if error is None and (isinstance(amount, bool) or not isinstance(amount, int) or abs(amount) > 10**7):
        error = "error: amount_cents must be a whole number of cents"
    if error is not None:
        return error, None
    reference = f"ADJ{100 + records['next']}"
    records["next"] += 1
    records["adjustments"][reference] = {"employee": employee, "day": day, "amount_cents": amount}
    return f"adjustment {reference} of {dollars(amount)} added for {employee} on {day}", records
