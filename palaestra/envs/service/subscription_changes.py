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
all allowed, a twenty-fifth all refused), so neither serving everything nor nothing pays. In every mixed problem
each clause in play decides a request on its own (the trial, annual and past-due refusals; the cooling-off
exception both ways): a subscription is made for each refusal, requests that a clause decides come first, and a
draw the policy without some clause would serve alike is drawn again. (v2 drew requests as they fell: on 100 seeds
a level, ignoring the annual clause solved 0.50-0.67 of levels 2-5, the trial clause 0.49-0.64 of levels 2-5, the
past-due clause 0.42-0.54, cancelling always at renewal or always now 0.50-0.78; now 0.03-0.17.) The difficulty is the
requests plus the subscriptions plus twice the clauses in play plus the prorated requests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.problem import copy_data
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
    version = 3  # v3: every clause in play decides every mixed problem (v2: a twenty-fifth of the problems refuse
    # every request; v1: a tenth)
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
        Config((2, 3), (3, 5), True, True, False, 18),
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
        return retry(lambda: self._draw(rng, config, kind), what="requests on the asked sides of the policy",
                     attempts=200)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        customer = draw_person(forge, rng, "U")
        rules = {"annual": config.annual, "cancels": config.cancels, "past_due": config.past_due}
        blinds = _blinds(rules) if kind == "mixed" else ()
        # the first subscriptions are made for the refusing clauses in play to have one to refuse
        roles = [b for b in ("trial", "annual", "past_due") if b in blinds]
        subscriptions: dict[str, dict[str, Any]] = {}
        for product in rng.sample(PRODUCTS, max(rng.randint(*config.subscriptions), len(roles))):
            role = roles.pop() if roles else None
            billing = "annual" if role == "annual" or (config.annual and rng.random() < 0.4) else "monthly"
            start = TODAY - timedelta(days=rng.randint(0, PERIOD_DAYS[billing] - 1))
            if role == "annual" and config.cancels and rng.random() < 0.5:  # a fresh annual period to cancel
                start = TODAY - timedelta(days=rng.randint(0, COOLING_OFF_DAYS))
            status = role if role in ("trial", "past_due") else "active" if role else rng.choice(
                ("active", "active", "active", "trial") + (("past_due",) if config.past_due else ()))
            subscriptions[f"S{rng.randint(100, 999)}{product[0]}"] = {
                "customer": customer["id"], "product": product, "plan": rng.choice(list(PLANS)),
                "billing": billing, "seats": rng.randint(1, 25), "start": start.isoformat(),
                "end": (start + timedelta(days=PERIOD_DAYS[billing])).isoformat(), "status": status,
                "pending_plan": None, "pending_seats": None, "cancel_at_renewal": False}
        if len(subscriptions) < config.subscriptions[0]:
            return None
        records = {"today": TODAY.isoformat(), "plans": dict(PLANS), "customers": {customer["id"]: customer},
                   "subscriptions": subscriptions, "ledger": []}
        count = max(rng.randint(*config.requests), len(blinds) + 1 if blinds else 0)
        sides = draw_sides(rng, count, kind)
        if sides is None:
            return None
        if blinds:  # a refused request for each refusing clause and an allowed one for each cancellation's side
            refusing = sum(b in ("trial", "annual", "past_due") for b in blinds)
            sides = [False] * refusing + [True] * (len(blinds) - refusing) + sides[len(blinds):]
            rng.shuffle(sides)
            if all(sides) or not any(sides):
                return None
        world = copy_data(records)
        requests: list[dict[str, Any]] = []
        undecided = set(blinds)
        for allowed in sides:
            options = [r for r in _options(world, rng, rules) if _fits(requests, r)
                       and _allowed(world, r, rules) == allowed]
            deciding = [r for r in options if _decides(world, r, rules) & undecided]
            charging = [r for r in options if _charges(world, r)]
            if deciding:  # each clause in play gets a request it decides
                options = deciding
            elif allowed and charging and rng.random() < 0.7:  # most served requests move money
                options = charging
            if not options:
                return None
            request = rng.choice(options)
            undecided -= _decides(world, request, rules)
            if allowed:
                _serve(world, request, rules)
            requests.append(request)
        outcome = _outcome(records, requests, rules)
        if any(_outcome(records, requests, rules, blind) == outcome for blind in blinds):
            return None
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
        net = ledger_net(served_records(data, _allowed, _serve)["ledger"])
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
        records = copy_data(data["records"])
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


def _blinds(rules: dict[str, bool]) -> tuple[str, ...]:
    """The clauses in play that a policy might leave out, each named as :func:`_allowed` and :func:`_serve` read
    ``blind``: the trial, annual and past-due refusals, and the cooling-off exception both ways (a cancellation
    always at renewal, or always now with a refund)."""
    return (("trial",) + (("annual",) if rules["annual"] else ())
            + (("cooling_never", "cooling_always") if rules["cancels"] else ())
            + (("past_due",) if rules["past_due"] else ()))


def _allowed(records: Records, request: dict[str, Any], rules: dict[str, bool], blind: str | None = None) -> bool:
    """Whether the policy allows ``request`` (``blind``: the policy without that clause, see :func:`_blinds`)."""
    sub = records["subscriptions"][request["sub"]]
    if request["kind"] == "cancel":
        return True
    if (sub["status"] == "trial" and blind != "trial") or (
            rules["past_due"] and sub["status"] == "past_due" and blind != "past_due"):
        return False
    shrinking = (request["kind"] == "plan" and PLANS[request["plan"]] < PLANS[sub["plan"]]) or (
        request["kind"] == "seats" and request["seats"] < 0)
    return not (rules["annual"] and sub["billing"] == "annual" and shrinking and blind != "annual")


def _decides(records: Records, request: dict[str, Any], rules: dict[str, bool]) -> set[str]:
    """The clauses whose absence would change what ``request`` does on ``records``."""
    def calls(blind: str | None) -> list[tuple[str, dict[str, Any]]]:
        if not _allowed(records, request, rules, blind):
            return []
        # serving reads and changes only the request's subscription and the ledger: copy just those
        sub_id = request["sub"]
        alone = {"today": records["today"], "subscriptions": {sub_id: dict(records["subscriptions"][sub_id])},
                 "ledger": []}
        return _serve(alone, request, rules, blind)

    served = calls(None)
    return {blind for blind in _blinds(rules) if calls(blind) != served}


def _outcome(records: Records, requests: list[dict[str, Any]], rules: dict[str, bool],
             blind: str | None = None) -> Records:
    """The records after ``requests`` are served by the policy (``blind``: without that clause)."""
    world = copy_data(records)
    for request in requests:
        if _allowed(world, request, rules, blind):
            _serve(world, request, rules, blind)
    return world


def _prorated(sub: dict[str, Any], per_seat_month: int, seats: int, today: date) -> int:
    remaining = (date.fromisoformat(sub["end"]) - today).days
    per_period = per_seat_month * (ANNUAL_MONTHS if sub["billing"] == "annual" else 1)
    exact = Fraction(per_period * seats * remaining, PERIOD_DAYS[sub["billing"]])
    return int(exact + Fraction(1, 2))  # half a cent up (non-negative amounts)


def _serve(records: Records, request: dict[str, Any], rules: dict[str, bool],
           blind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Carry out an allowed request on ``records``; the function calls that do it (``blind``: as the policy
    without that clause does)."""
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
    elif blind == "cooling_always" or (blind != "cooling_never"
                                       and (today - date.fromisoformat(sub["start"])).days <= COOLING_OFF_DAYS):
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
