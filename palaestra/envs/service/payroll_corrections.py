"""Correct an employee's recorded hours, told over several turns, under a payroll policy with overtime pay.

The episode's records are a payroll's employees (an hourly rate each), two-week pay periods (the current one
open, earlier ones paid three days after they end, but for one held up with the window in play) and the hours
recorded per employee and day. A scripted employee (:class:`~palaestra.envs.service.common.ScriptedUser`) asks
one correction per message ("on 2024-11-26 I worked 9.5 hours, not 7.5"); from level 2 one correction starts
vague ("one of my days is wrong") and the employee's next message gives the day and hours; some ask for a
colleague. The functions do what they are asked; the policy is the agent's:

1. only the employee's own hours may be corrected;
2. from level 1, no day may be recorded with more than 12 hours;
3. a day in the open period is corrected in place; a day in a paid period is left as it is and the pay
   difference is added as an adjustment (negative when fewer hours were worked); from level 2, only for a
   period paid at most 30 days ago, and a day in a period paid longer ago is not corrected;
4. a day's pay is the rate for each hour up to 8, and 1.5 times the rate for each hour beyond 8.

The answer is the total of the adjustments added in the conversation (dollars and cents, negative when it
is); the final records (hours and adjustments) must be those the policy determines, and the employee must
have been told each adjustment's reference. Requests are built on both sides of the policy (a tenth of the
problems all allowed, a twenty-fifth all refused). In every mixed problem each misreading of a clause in play (see
``_blinds``: a colleague's hours corrected, the limit ignored or 12 hours refused, the open period adjusted, paid
days corrected in place or refused, the window ignored, ending a day early or late or counted from the day worked,
overtime ignored, doubled or paid on the whole day, deductions refused or paid as a gain) changes what some request
gets: each request is the one of a few drawn that exposes the most misreadings not yet exposed, a draw that leaves
one unexposed is drawn again, and with the window in play a period is paid exactly 30 days ago and the one before
it, its pay held up, 31 days ago. (v2 drew requests as they fell: on 40 seeds a level, refusing 12 hours solved
0.78-0.88 of levels 0-5, correcting a colleague's hours 0.47-0.80, ignoring the limit 0.57-0.78, adjusting the open
period 0.60-0.78, refusing deductions 0.40-0.80, overtime on the whole day 0.35-0.47, ending the window a day early
0.93-1.00 of levels 2-5, counting it from the day worked 0.57-0.82, ignoring it 0.20-0.57; now each solves 0.00-0.12
of levels 1-6, the one-sided problems, and the colleague's 0.23 of level 0, where it is the only refusal: 9 of the
40 draws fell all allowed.) v3 paid every period three days
after it ended, 14 days apart, so none could be paid 31 days ago beside the one paid 30 days ago: counting 31 days
as within the window solved 1.00 of levels 2-6; now 0.12-0.17 (40 seeds), the all-allowed problems, as ignoring it.
The difficulty is twice the corrections plus the refused ones plus the overtime days plus twice the clauses in play
(the limit, the window) plus two for a vague one plus half the periods.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.problem import copy_data
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
HOURS_ASKED = (5, 6.5, 7.5, 8, 8.5, 9, 9.5, 10, 11, 12, 12.5, 13)
COLLEAGUE_SHARE = 0.15  # of the requests drawn, those for the colleague
CANDIDATES = 30  # requests drawn to pick each one from
ALL_CLAUSES = {"limit": True, "window": True}
LATE = 4  # with the window in play, the period back from the open one whose pay was held up (see _draw)


@register
class PayrollCorrections(ScriptedUser):
    id = "service/payroll_corrections"
    family = "service"
    description = "Correct an employee's recorded hours, told over several turns, under a payroll policy (periods, adjustments, overtime)."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "arithmetic", "agentic")
    version = 4  # v4: a period paid 31 days ago beside the one paid 30 days ago (a 31-day window solved all)
    # v3: every misreading of a clause in play changes the outcome of every mixed problem (v2: a twenty-fifth of
    # the problems refuse every request; v1: a tenth)
    tool_names = ("find_employee", "get_day", "set_hours", "add_adjustment")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]  # enough for every misreading in play (see _blinds) to have a request exposing it
        periods: int  # pay periods on record (the open one and those paid before it)
        limit: bool  # the 12-hour limit is in the policy
        window: bool  # adjustments only for periods paid at most 30 days ago (5 periods or more: one paid 31 ago)
        vague: bool  # one correction starts vague; the next message gives the day
        slack: int

    presets = (
        Config((3, 4), 2, False, False, False, 3),
        Config((4, 5), 3, True, False, False, 3),
        Config((6, 6), 5, True, True, True, 4),
        Config((6, 7), 5, True, True, True, 4),
        Config((7, 8), 6, True, True, True, 5),
    )
    growth = Growth(limits={"requests": (12, 14), "periods": 8, "slack": 10})

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
        side = draw_side(rng)
        return retry(lambda: self._draw(rng, config, side), what="days for the corrections", attempts=200)

    def _draw(self, rng: random.Random, config: Config, side: str) -> Problem | None:
        forge = NameForge(rng)
        people = [draw_person(forge, rng, "E", "payroll.example") for _ in range(2)]
        employees = {p["id"]: {**p, "rate_cents": rng.randint(450, 1200) * 4} for p in people}
        if len(employees) < 2:
            return None
        # with the window in play the open period starts so that the third one back is paid exactly ADJUST_DAYS
        # ago: a request on it exposes reading "at most 30 days" as "less than 30" (and counting from the day worked);
        # the fourth one back was paid late, a day before it: a request on it exposes reading "at most 31 days"
        opened = ADJUST_DAYS + PAID_AFTER - 2 * PERIOD_DAYS - 1 if config.window else rng.randint(2, PERIOD_DAYS - 1)
        open_start = TODAY - timedelta(days=opened)
        periods = {}
        for back in range(config.periods):
            start = open_start - timedelta(days=PERIOD_DAYS * back)
            end = start + timedelta(days=PERIOD_DAYS - 1)
            paid = None if back == 0 else (end + timedelta(days=PAID_AFTER)).isoformat()
            if config.window and back == LATE:
                paid = (TODAY - timedelta(days=ADJUST_DAYS + 1)).isoformat()
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
        rules = {"limit": config.limit, "window": config.window}
        undecided = set(_blinds(rules)) if side == "mixed" else set()
        requests: list[dict[str, Any]] = []
        used: set[str] = set()
        for _ in range(rng.randint(*config.requests)):
            # the request among a few drawn that exposes the most misreadings not yet exposed, else one on the side
            drawn = (_request(rng, hours, caller, colleague, used) for _ in range(CANDIDATES))
            candidates = [c for c in drawn if c is not None]
            if side != "mixed":
                candidates = [c for c in candidates
                              if (_correction(records, caller, c, rules) is None) == (side == "all refused")]
            elif undecided:
                exposed = [len(_decides(records, caller, c, rules, undecided)) for c in candidates]
                candidates = [c for c, n in zip(candidates, exposed) if n == max(exposed)]
            if not candidates:
                return None
            request = candidates[0]
            undecided -= _decides(records, caller, request, rules, undecided)
            used.add(request["day"])
            requests.append(request)
        rng.shuffle(requests)  # those that expose the most were drawn first
        # requests fall on distinct days, so a misreading that changes one request's result changes the outcome
        results = _serve(records, caller, requests, rules)[1]
        if undecided or (side == "mixed") != (len({r is not None for r in results}) == 2):
            return None
        count = len(requests)
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
        prompt = (
            f"You are a payroll assistant. Today is {TODAY.isoformat()}. Payroll policy:\n{_policy(rules)}"
            + "\n\nThe caller will tell you what to correct over several messages: a reply to them without a tool call "
            "is a message they answer, until they have nothing more to ask. Carry out what the policy allows, refuse "
            "the rest, and do nothing they did not ask for. When they have nothing more to ask, give your final "
            "answer: the total of the adjustments you added, in dollars (negative if it is), e.g. "
            f"<answer>$12.34</answer> (<answer>$0.00</answer> if none).\n\nCaller: {user[0]}\n\n"
            + self.tools_prompt(budget)
        )
        data = {"records": records, "caller": caller, "requests": requests, "rules": rules, "vague": vague,
                "user": user, "budget": budget}
        return Problem(prompt=prompt, answer=dollars(sum(r[1] for r in results if r is not None and r[0] == "adjust")),
                       data=data)

    def expected_records(self, problem: Problem) -> Records:
        data = problem.data
        return _serve(data["records"], data["caller"], data["requests"], data["rules"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        return {f"the adjustment reference {ref}": ref for ref in self.expected_records(problem)["adjustments"]}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        results = _serve(data["records"], data["caller"], data["requests"], data["rules"])[1]
        overtime = sum(r["hours"] > REGULAR_HOURS for r in data["requests"])
        return (2 * len(results) + sum(r is None for r in results) + overtime + 2 * sum(data["rules"].values())
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
        results = _serve(records, data["caller"], data["requests"], data["rules"])[1]
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


def _policy(rules: dict[str, bool]) -> str:
    clauses = ["Correct only the caller's own hours, never a colleague's."]
    if rules["limit"]:
        clauses.append(f"No day may be recorded with more than {MAX_HOURS} hours; refuse such a correction.")
    paid = f"a period paid at most {ADJUST_DAYS} days ago" if rules["window"] else "a paid period"
    clauses.append(f"A day in the open pay period is corrected in place. For a day in {paid}, leave the recorded "
                   "hours as they are and add the pay difference as an adjustment (negative when fewer hours were "
                   "worked)." + (" A day in a period paid longer ago is not corrected." if rules["window"] else ""))
    clauses += [f"A day's pay is the hourly rate for each hour up to {REGULAR_HOURS}, and 1.5 times the rate for "
                f"each hour beyond {REGULAR_HOURS}.", "Tell the caller the reference of every adjustment you add."]
    return "\n".join(f"{n}. {clause}" for n, clause in enumerate(clauses, 1))


def _request(rng: random.Random, hours: dict[str, dict[str, float]], caller: str, colleague: str,
             used: set[str]) -> dict[str, Any] | None:
    """A correction of a day not yet asked about (its hours other than those recorded), mostly the caller's; None
    when the employee drawn has no such day."""
    whose = colleague if rng.random() < COLLEAGUE_SHARE else caller
    free = [d for d in hours[whose] if d not in used]
    if not free:
        return None
    day = rng.choice(free)
    new = rng.choice([h for h in HOURS_ASKED if h != hours[whose][day]])
    return {"employee": whose, "day": day, "hours": new}


def pay_cents(rate: int, hours: float, blind: str | None = None) -> int:
    """A day's pay: the rate up to 8 hours, 1.5 times it beyond; ``blind``: as the overtime misread (see
    :func:`_blinds`). Exact in whole cents on integers (Fractions made generation five times slower): rates
    are multiples of 4 cents and hours of half an hour.

    >>> pay_cents(2000, 9.5)
    20500
    """
    halves = round(2 * hours)
    if blind == "no_overtime":
        return rate * halves // 2
    if blind == "overtime_whole_day" and hours > REGULAR_HOURS:
        return 3 * rate * halves // 4
    regular = min(halves, 2 * REGULAR_HOURS)
    return rate * regular // 2 + 3 * rate * (halves - regular) // 4


def _period(records: Records, day: str) -> dict[str, Any] | None:
    return next((p for p in records["periods"].values() if p["start"] <= day <= p["end"]), None)


def _blinds(rules: dict[str, bool]) -> tuple[str, ...]:
    """The misreadings of the policy that a request can expose, each named as :func:`_correction` reads ``blind``:
    a colleague's hours corrected, the open period adjusted, paid days corrected in place, no overtime, overtime on
    the whole day, deductions refused; the limit ignored or 12 hours refused; the window ignored, ending the day
    before its last or the day after, or counted from the day worked. A request exposing some exposes the rest of the module
    docstring's list: paid days refused (as in place), double overtime (as none), deductions paid as a gain (as
    refused)."""
    return (("colleague", "open_adjusted", "paid_in_place", "no_overtime", "overtime_whole_day", "no_deduction")
            + (("no_limit", "limit_at_12") if rules["limit"] else ())
            + (("no_window", "window_before", "window_31", "window_from_day") if rules["window"] else ()))


def _correction(records: Records, caller: str, request: dict[str, Any], rules: dict[str, bool] = ALL_CLAUSES,
                blind: str | None = None) -> tuple[str, int] | None:
    """``("set", 0)`` for a correction in place, ``("adjust", cents)`` for an adjustment, None when refused, under
    the clauses ``rules`` puts in play (all by default, as at the top levels; ``blind``: by the policy misread that
    way, see :func:`_blinds`)."""
    employee, day, hours = request["employee"], request["day"], request["hours"]
    if employee != caller and blind != "colleague":
        return None
    if rules["limit"] and ((hours > MAX_HOURS and blind != "no_limit")
                           or (hours == MAX_HOURS and blind == "limit_at_12")):
        return None
    period = _period(records, day)
    if period is None:
        return None
    rate = records["employees"][employee]["rate_cents"]
    amount = pay_cents(rate, hours, blind) - pay_cents(rate, records["hours"][employee][day], blind)
    if period["paid"] is None:
        return ("adjust", amount) if blind == "open_adjusted" else ("set", 0)
    if rules["window"] and blind != "no_window":
        since = (TODAY - date.fromisoformat(day if blind == "window_from_day" else period["paid"])).days
        if since > ADJUST_DAYS + (blind == "window_31") or (since == ADJUST_DAYS and blind == "window_before"):
            return None
    if blind == "paid_in_place":
        return "set", 0
    if amount < 0 and blind == "no_deduction":
        return None
    return "adjust", amount


def _decides(records: Records, caller: str, request: dict[str, Any], rules: dict[str, bool],
             blinds: set[str]) -> set[str]:
    """The misreadings among ``blinds`` that would change what ``request`` gets on ``records``."""
    result = _correction(records, caller, request, rules)
    return {blind for blind in blinds if _correction(records, caller, request, rules, blind) != result}


def _serve(initial: Records, caller: str, requests: list[dict[str, Any]], rules: dict[str, bool]
           ) -> tuple[Records, list[tuple[str, int] | None]]:
    records = copy_data(initial)
    results = []
    for request in requests:
        result = _correction(records, caller, request, rules)
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
