"""Carry out a customer's subscription changes under a stated billing policy with exact proration.

The episode's records are a software company's plan catalogue (price per seat per month; annual billing at
ten months' price per seat per year), one customer's subscriptions (a product, a plan, monthly or annual
billing, seats, the current period's start and end, a status) and the ledger of charges and refunds. The
customer asks, in order, to upgrade or downgrade plans, add or remove seats and, from level 3, cancel.
The functions change a plan or the seats now or at renewal, cancel now or at renewal, and charge or
refund an amount; they refuse only the impossible (an unknown plan, no seats), never what the policy
forbids:

1. an upgrade (a higher price per seat) takes effect now and is charged ``(new - old price per seat) *
   seats * remaining days / period days``, remaining days = period end minus today, period days = 30
   (monthly) or 365 (annual), prices per period, rounded to the nearest cent (half a cent up);
2. more seats take effect now, charged ``price per seat * added seats * remaining / period days``, rounded
   the same way; a downgrade or fewer seats take effect at renewal, with no refund;
3. trial subscriptions cannot change plan or seats;
4. from level 2, annual subscriptions cannot be downgraded nor lose seats before renewal;
5. from level 3, a cancellation takes effect at renewal, except within 14 days of the period's start
   (today minus start at most 14): then now, refunding ``price * seats * remaining / period days``;
6. from level 4, a past-due subscription cannot be changed (it may still be cancelled).

One charge or refund per request. The answer is the net amount charged today (charges minus refunds, in
dollars; negative for a net refund). The episode is judged on the answer and on the final records against
those the policy determines. Requests are built on both sides of the policy (a tenth of problems
all allowed, a twenty-fifth all refused), so neither serving everything nor nothing pays. The difficulty is the
requests plus the subscriptions plus twice the clauses in play plus the prorated requests.

Version 3 (red team, round 3): most clauses decided few requests, so serving the requests with one clause left out
still met the policy in many problems (levels 2-5, 200 problems each): the trial clause 0.43-0.65, the annual one
0.46-0.63, the past-due one 0.45-0.54 (levels 4-5), and the cancellation rule read as always "now" 0.65-0.76 or
always "at renewal" 0.52-0.75 (levels 3-5). Now a mixed problem names, before it is drawn, four of the clauses in
play (every one where fewer are in play; the cancellation rule counts as two, its exception and its rule), steers
its requests to a subscription each named clause decides, and is kept only when leaving any named clause out
changes what the policy does. Level 3 has three subscriptions and four to six requests (was two to three, three to
five), room for its four clauses. Leaving one clause out now meets the policy in 0.09-0.32 of the problems of levels 2-5
(the most at level 4, where one of five clauses goes unnamed; the trial clause alone at levels 0-1: 0.10-0.14).

Generation speed: 1-19 ms of CPU a problem (level 4 slowest: about 30 draws a problem, the whole policy served again
without each named clause).
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
    ServiceTask,
    call,
    cents_of,
    dollars,
    draw_person,
    draw_side,
    draw_sides,
    judge_dollars,
    ledger_net,
    served_records,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 11, 20)
PLANS = {"basic": 800, "team": 1_500, "business": 2_600, "enterprise": 4_200}  # cents per seat per month
PERIOD_DAYS = {"monthly": 30, "annual": 365}
ANNUAL_MONTHS = 10  # an annual seat costs ten months' price
COOLING_OFF_DAYS = 14
PRODUCTS = ("Docs", "Mail", "Storage", "Chat", "Forms", "Sheets", "Meet")


@register
class SubscriptionChanges(ServiceTask):
    id = "service/subscription_changes"
    family = "service"
    description = "Carry out subscription plan and seat changes under a billing policy with exact proration."
    tags = ("service", "multi-turn", "tools", "policy", "billing", "agentic")
    version = 3  # v3: four named clauses in play decide each mixed problem (v2: leaving one out paid 0.43-0.76)
    tool_names = ("find_customer", "get_subscription", "change_plan", "change_seats", "cancel_subscription",
                  "charge", "refund")

    @dataclass(frozen=True)
    class Config:
        subscriptions: tuple[int, int]
        requests: tuple[int, int]
        annual: bool
        cancels: bool
        past_due: bool
        budget: int

    presets = (
        Config((1, 2), (2, 2), False, False, False, 8),
        Config((2, 2), (2, 3), False, False, False, 10),
        Config((2, 3), (3, 4), True, False, False, 14),
        Config((3, 3), (4, 6), True, True, False, 20),
        Config((3, 4), (4, 6), True, True, True, 22),
    )
    growth = Growth(limits={"subscriptions": 7, "requests": 14, "budget": 44})

    def functions(self) -> dict[str, Function]:
        return {
            "find_customer": Function("Find a customer by e-mail address: id, name and subscription ids.",
                                      {"email": "string"}, _find_customer),
            "get_subscription": Function("Read a subscription: product, plan (and its price per seat per month), "
                                         "billing, seats, current period start and end, status, changes scheduled.",
                                         {"subscription_id": "string"}, _get_subscription),
            "change_plan": Function("Change a subscription's plan, when = 'now' or 'renewal'.",
                                    {"subscription_id": "string", "plan": "string", "when": "string"}, _change_plan),
            "change_seats": Function("Set a subscription's number of seats (the new total), when = 'now' or 'renewal'.",
                                     {"subscription_id": "string", "seats": "integer", "when": "string"},
                                     _change_seats),
            "cancel_subscription": Function("Cancel a subscription, when = 'now' or 'renewal'.",
                                            {"subscription_id": "string", "when": "string"}, _cancel),
            "charge": Function("Charge the customer an amount in cents for a subscription.",
                               {"subscription_id": "string", "amount_cents": "integer"}, _ledger("charge")),
            "refund": Function("Refund the customer an amount in cents for a subscription.",
                               {"subscription_id": "string", "amount_cents": "integer"}, _ledger("refund")),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = draw_side(rng)
        rules = {"annual": config.annual, "cancels": config.cancels, "past_due": config.past_due}
        in_play = [clause for clause in CLAUSES if CLAUSE_RULE[clause] is None or rules[CLAUSE_RULE[clause]]]
        # Named before the draw (redraws must not favour the clauses that decide most easily).
        deciding = rng.sample(in_play, min(DECIDING, len(in_play))) if kind == "mixed" else []
        # Attempts: levels 3-4 keep about one draw in 25-30 (four named clauses; 99% of problems within 220 draws).
        return retry(lambda: self._draw(rng, config, kind, deciding),
                     what="requests on the asked sides of the policy that the named clauses decide", attempts=1_000)

    def _draw(self, rng: random.Random, config: Config, kind: str, deciding: list[str]) -> Problem | None:
        forge = NameForge(rng)
        customer = draw_person(forge, rng, "U")
        subscriptions: dict[str, dict[str, Any]] = {}
        for product in rng.sample(PRODUCTS, rng.randint(*config.subscriptions)):
            billing = "annual" if config.annual and rng.random() < 0.4 else "monthly"
            start = TODAY - timedelta(days=rng.randint(0, PERIOD_DAYS[billing] - 1))
            status = rng.choice(("active", "active", "active", "trial") + (("past_due",) if config.past_due else ()))
            subscriptions[f"S{rng.randint(100, 999)}{product[0]}"] = {
                "customer": customer["id"], "product": product, "plan": rng.choice(list(PLANS)),
                "billing": billing, "seats": rng.randint(1, 25), "start": start.isoformat(),
                "end": (start + timedelta(days=PERIOD_DAYS[billing])).isoformat(), "status": status,
                "pending_plan": None, "pending_seats": None, "cancel_at_renewal": False}
        if len(subscriptions) < config.subscriptions[0]:
            return None
        records = {"today": TODAY.isoformat(), "plans": dict(PLANS), "customers": {customer["id"]: customer},
                   "subscriptions": subscriptions, "ledger": []}
        rules = {"annual": config.annual, "cancels": config.cancels, "past_due": config.past_due}
        sides = draw_sides(rng, rng.randint(*config.requests), kind)
        if sides is None:
            return None
        world = copy.deepcopy(records)
        requests: list[dict[str, Any]] = []
        for allowed in sides:
            options = [r for r in _options(world, rng, rules) if _fits(requests, r)
                       and _allowed(world, r, rules) == allowed]
            charging = [r for r in options if _charges(world, r)]
            if allowed and charging and rng.random() < 0.7:  # most served requests move money
                options = charging
            # A named clause no request tests yet: a request it decides, where one fits.
            untested = [clause for clause in deciding
                        if not any(_decided_by(world, r, clause) for r in requests)]
            steered = [r for r in options if any(_decided_by(world, r, clause) for clause in untested)]
            options = steered or options
            if not options:
                return None
            request = rng.choice(options)
            if allowed:
                _serve(world, request, rules)
            requests.append(request)
        texts = [f"{n}. {_describe(subscriptions, r)}" for n, r in enumerate(requests, 1)]
        prompt = (
            f"You are a billing agent of a software company. Today is {TODAY.isoformat()}. Plans (price per seat per "
            f"month): {', '.join(f'{p} ${c // 100}.{c % 100:02d}' for p, c in PLANS.items())}.\n"
            f"Billing policy:\n{_policy(config)}\n\n"
            "Handle the customer's requests below in the order given, each as far as the policy allows (a refused "
            "request does not stop the next ones), using the tools: one charge or refund per request that calls for "
            "one; do nothing the policy forbids and nothing the customer did not ask for. Then reply to the customer "
            "with the net amount charged today (charges minus refunds) in dollars, e.g. <answer>$12.34</answer> "
            "(<answer>-$12.34</answer> for a net refund, <answer>$0.00</answer> if nothing was charged).\n\n"
            f"Customer: Hello, this is {customer['name']} ({customer['email']}). Please:\n" + "\n".join(texts)
            + f"\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requests": requests, "rules": rules, "budget": config.budget}
        served = served_records(data, _allowed, _serve)
        if any(_served_without(data, clause) == served for clause in deciding):
            return None  # a named clause left out would still do what the policy does
        net = ledger_net(served["ledger"])
        return Problem(prompt=prompt, answer=dollars(net), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return served_records(problem.data, _allowed, _serve)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        clauses = 3 + sum(data["rules"].values())
        prorated = len(served_records(data, _allowed, _serve)["ledger"])
        return len(data["requests"]) + len(data["records"]["subscriptions"]) + 2 * clauses + prorated

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy.deepcopy(data["records"])
        customer = next(iter(records["customers"].values()))
        replies = [call("find_customer", email=customer["email"])]
        replies += [call("get_subscription", subscription_id=s) for s in dict.fromkeys(r["sub"] for r in data["requests"])]
        for request in data["requests"]:
            if _allowed(records, request, data["rules"]):
                replies += [call(name, **arguments) for name, arguments in _serve(records, request, data["rules"])]
        return [*replies, problem.answer or "$0.00"]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        bare = answer.replace("$", "")
        return [bare, f"{bare} dollars", f"{answer}.", f"{bare} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 1), dollars(cents - 100), f"{problem.answer} or $0.00"]


def _policy(config: SubscriptionChanges.Config) -> str:
    rules = ["An upgrade (to a plan with a higher price per seat) takes effect now and is charged (new price per "
             "seat - old price per seat) * seats * remaining days / period days, where remaining days = the "
             "period's end date minus today, period days = 30 for monthly billing and 365 for annual billing, and "
             f"the price per period is the monthly price (monthly billing) or {ANNUAL_MONTHS} times it (annual "
             "billing). Round each charge or refund to the nearest cent (half a cent rounds up).",
             "More seats take effect now and are charged price per seat * added seats * remaining days / period "
             "days (the current plan's price, rounded the same way). A downgrade or fewer seats take effect at "
             "renewal, with nothing charged or refunded.",
             "Trial subscriptions cannot change plan or seats."]
    if config.annual:
        rules.append("Annual subscriptions cannot be downgraded nor lose seats before their renewal.")
    if config.cancels:
        rules.append(f"A cancellation takes effect at renewal, with no refund, except within {COOLING_OFF_DAYS} days "
                     f"of the period's start (today minus the start date at most {COOLING_OFF_DAYS}): then it takes "
                     "effect now and refunds price per seat * seats * remaining days / period days (rounded the "
                     "same way).")
    if config.past_due:
        rules.append("A past-due subscription cannot change plan or seats (it may be cancelled).")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _describe(subscriptions: dict[str, Any], request: dict[str, Any]) -> str:
    product = subscriptions[request["sub"]]["product"]
    if request["kind"] == "plan":
        return f"Move my {product} subscription to the {request['plan']} plan."
    if request["kind"] == "seats":
        change = request["seats"]
        return (f"{'Add' if change > 0 else 'Remove'} {abs(change)} seat{'s' if abs(change) != 1 else ''} "
                f"{'to' if change > 0 else 'from'} my {product} subscription.")
    return f"Cancel my {product} subscription."


def _options(records: Records, rng: random.Random, rules: dict[str, bool]) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = []
    for sub_id, sub in records["subscriptions"].items():
        if sub["status"] == "cancelled":
            continue
        options += [{"kind": "plan", "sub": sub_id, "plan": p} for p in PLANS if p != sub["plan"]]
        options += [{"kind": "seats", "sub": sub_id, "seats": rng.randint(1, 10)}]
        if sub["seats"] > 1:
            options += [{"kind": "seats", "sub": sub_id, "seats": -rng.randint(1, sub["seats"] - 1)}]
        if rules["cancels"]:
            options.append({"kind": "cancel", "sub": sub_id})
    return options


def _fits(requests: list[dict[str, Any]], request: dict[str, Any]) -> bool:
    """At most one request of each kind per subscription, and nothing after its cancellation."""
    same = [r for r in requests if r["sub"] == request["sub"]]
    return all(r["kind"] != request["kind"] and r["kind"] != "cancel" for r in same)


def _charges(records: Records, request: dict[str, Any]) -> bool:
    """Whether serving ``request`` charges or refunds (an upgrade, more seats, a cancellation in the first days)."""
    sub = records["subscriptions"][request["sub"]]
    if request["kind"] == "plan":
        return PLANS[request["plan"]] > PLANS[sub["plan"]]
    if request["kind"] == "seats":
        return request["seats"] > 0
    return (date.fromisoformat(records["today"]) - date.fromisoformat(sub["start"])).days <= COOLING_OFF_DAYS


def _refusal(records: Records, request: dict[str, Any], rules: dict[str, bool], ignoring: str = "") -> str | None:
    """The first clause that forbids ``request`` (``trial``, ``past due``, ``annual``; not the one ``ignoring``
    names), or None when the policy allows it."""
    sub = records["subscriptions"][request["sub"]]
    if request["kind"] == "cancel":
        return None
    shrinking = (request["kind"] == "plan" and PLANS[request["plan"]] < PLANS[sub["plan"]]) or (
        request["kind"] == "seats" and request["seats"] < 0)
    forbidding = {"trial": sub["status"] == "trial", "past due": rules["past_due"] and sub["status"] == "past_due",
                  "annual": rules["annual"] and sub["billing"] == "annual" and shrinking}
    return next((clause for clause, forbids in forbidding.items() if forbids and clause != ignoring), None)


def _allowed(records: Records, request: dict[str, Any], rules: dict[str, bool]) -> bool:
    return _refusal(records, request, rules) is None


# The clauses a mixed problem's requests must each decide (version 3): the three that refuse, and the cancellation
# rule's two parts (its exception, within the first days: now with a refund; its rule, after them: at renewal).
CLAUSES = ("trial", "annual", "past due", "cancel early", "cancel late")
CLAUSE_RULE = {"trial": None, "annual": "annual", "past due": "past_due", "cancel early": "cancels",
               "cancel late": "cancels"}  # the config switch that puts each in play
DECIDING = 4  # named per mixed problem (all five at once: too few draws meet them with 4-6 requests)


def _early(records: Records, sub: dict[str, Any]) -> bool:
    """Whether a cancellation today falls within the first days of the subscription's period."""
    return (date.fromisoformat(records["today"]) - date.fromisoformat(sub["start"])).days <= COOLING_OFF_DAYS


def _decided_by(records: Records, request: dict[str, Any], clause: str) -> bool:
    """Whether ``clause`` decides what the policy does with ``request`` on ``records``."""
    if request["kind"] == "cancel":
        early = _early(records, records["subscriptions"][request["sub"]])
        return clause == ("cancel early" if early else "cancel late")
    every = {"annual": True, "past_due": True, "cancels": True}
    return _refusal(records, request, every) == clause and _refusal(records, request, every, ignoring=clause) is None


def _served_without(data: dict[str, Any], clause: str) -> Records:
    """The records as a policy without ``clause`` leaves them (a cancellation part left out: the other applies)."""
    def allowed(records: Records, request: dict[str, Any], rules: dict[str, bool]) -> bool:
        return _refusal(records, request, rules, ignoring=clause) is None

    def serve(records: Records, request: dict[str, Any], rules: dict[str, bool]) -> list[tuple[str, dict[str, Any]]]:
        early = {"cancel early": False, "cancel late": True}.get(clause)
        return _serve(records, request, rules, early)

    return served_records(data, allowed, serve)


def _prorated(sub: dict[str, Any], per_seat_month: int, seats: int, today: date) -> int:
    remaining = (date.fromisoformat(sub["end"]) - today).days
    per_period = per_seat_month * (ANNUAL_MONTHS if sub["billing"] == "annual" else 1)
    exact = Fraction(per_period * seats * remaining, PERIOD_DAYS[sub["billing"]])
    return int(exact + Fraction(1, 2))  # half a cent up (non-negative amounts)


def _serve(records: Records, request: dict[str, Any], rules: dict[str, bool],
           early: bool | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Carry out an allowed request on ``records``; the function calls that do it (``early`` overrides whether a
    cancellation falls within the first days, for a policy that misreads the rule)."""
    today = date.fromisoformat(records["today"])
    sub_id = request["sub"]
    sub = records["subscriptions"][sub_id]
    calls: list[tuple[str, dict[str, Any]]] = []
    if request["kind"] == "plan":
        if PLANS[request["plan"]] > PLANS[sub["plan"]]:
            amount = _prorated(sub, PLANS[request["plan"]] - PLANS[sub["plan"]], sub["seats"], today)
            sub["plan"] = request["plan"]
            calls.append(("change_plan", {"subscription_id": sub_id, "plan": request["plan"], "when": "now"}))
            if amount:
                records["ledger"].append({"sub": sub_id, "kind": "charge", "amount_cents": amount})
                calls.append(("charge", {"subscription_id": sub_id, "amount_cents": amount}))
        else:
            sub["pending_plan"] = request["plan"]
            calls.append(("change_plan", {"subscription_id": sub_id, "plan": request["plan"], "when": "renewal"}))
    elif request["kind"] == "seats":
        seats = sub["seats"] + request["seats"]
        if request["seats"] > 0:
            amount = _prorated(sub, PLANS[sub["plan"]], request["seats"], today)
            sub["seats"] = seats
            calls.append(("change_seats", {"subscription_id": sub_id, "seats": seats, "when": "now"}))
            if amount:
                records["ledger"].append({"sub": sub_id, "kind": "charge", "amount_cents": amount})
                calls.append(("charge", {"subscription_id": sub_id, "amount_cents": amount}))
        else:
            sub["pending_seats"] = seats
            calls.append(("change_seats", {"subscription_id": sub_id, "seats": seats, "when": "renewal"}))
    elif _early(records, sub) if early is None else early:
        amount = _prorated(sub, PLANS[sub["plan"]], sub["seats"], today)
        sub["status"] = "cancelled"
        calls.append(("cancel_subscription", {"subscription_id": sub_id, "when": "now"}))
        if amount:
            records["ledger"].append({"sub": sub_id, "kind": "refund", "amount_cents": amount})
            calls.append(("refund", {"subscription_id": sub_id, "amount_cents": amount}))
    else:
        sub["cancel_at_renewal"] = True
        calls.append(("cancel_subscription", {"subscription_id": sub_id, "when": "renewal"}))
    return calls


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _subscription(records: Records, args: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    sub = records["subscriptions"].get(str(args["subscription_id"]))
    if sub is None:
        return None, f"error: no subscription {str(args['subscription_id'])[:40]!r}"
    if sub["status"] == "cancelled":
        return None, f"error: subscription {args['subscription_id']} is cancelled"
    return sub, ""


def _when(args: dict[str, Any]) -> str | None:
    when = str(args["when"]).strip().lower()
    return when if when in ("now", "renewal") else None


def _find_customer(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for customer in records["customers"].values():
        if customer["email"] == email:
            subs = [s for s, sub in records["subscriptions"].items() if sub["customer"] == customer["id"]]
            return f"customer {customer['id']}: {customer['name']}, subscriptions: {', '.join(subs)}", None
    return f"error: no customer with e-mail {email[:100]!r}", None


def _get_subscription(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    sub = records["subscriptions"].get(str(args["subscription_id"]))
    if sub is None:
        return f"error: no subscription {str(args['subscription_id'])[:40]!r}", None
    price = records["plans"][sub["plan"]]
    scheduled = [f"plan {sub['pending_plan']} at renewal" if sub["pending_plan"] else "",
                 f"{sub['pending_seats']} seats at renewal" if sub["pending_seats"] else "",
                 "cancellation at renewal" if sub["cancel_at_renewal"] else ""]
    return (f"subscription {args['subscription_id']}: {sub['product']}, plan {sub['plan']} (${price // 100}."
            f"{price % 100:02d} per seat per month), {sub['billing']} billing, {sub['seats']} seats, period "
            f"{sub['start']} to {sub['end']}, status {sub['status']}, scheduled: "
            f"{', '.join(s for s in scheduled if s) or 'nothing'}"), None


def _change_plan(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    sub, error = _subscription(records, args)
    when = _when(args)
    if sub is None:
        return error, None
    if str(args["plan"]) not in records["plans"] or when is None:
        return "error: plan must be one of the catalogue's and when 'now' or 'renewal'", None
    if when == "now":
        sub["plan"] = str(args["plan"])
    else:
        sub["pending_plan"] = str(args["plan"])
    return f"subscription {args['subscription_id']}: plan {args['plan']} ({when})", records


def _change_seats(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    sub, error = _subscription(records, args)
    when = _when(args)
    if sub is None:
        return error, None
    seats = args["seats"]
    if not isinstance(seats, int) or not 1 <= seats <= 10_000 or when is None:
        return "error: seats must be a whole number from 1 and when 'now' or 'renewal'", None
    if when == "now":
        sub["seats"] = seats
    else:
        sub["pending_seats"] = seats
    return f"subscription {args['subscription_id']}: {seats} seats ({when})", records


def _cancel(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    sub, error = _subscription(records, args)
    when = _when(args)
    if sub is None:
        return error, None
    if when is None:
        return "error: when must be 'now' or 'renewal'", None
    if when == "now":
        sub["status"] = "cancelled"
    else:
        sub["cancel_at_renewal"] = True
    return f"subscription {args['subscription_id']} cancelled ({when})", records


def _ledger(kind: str) -> Any:
    def run(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
        sub_id = str(args["subscription_id"])
        amount = args["amount_cents"]
        if sub_id not in records["subscriptions"]:
            return f"error: no subscription {sub_id[:40]!r}", None
        if not isinstance(amount, int) or not 0 < amount <= 10**9:
            return "error: amount_cents must be a positive whole number", None
        records["ledger"].append({"sub": sub_id, "kind": kind, "amount_cents": amount})
        return f"{kind} of ${amount // 100}.{amount % 100:02d} recorded for {sub_id}", records
    return run
