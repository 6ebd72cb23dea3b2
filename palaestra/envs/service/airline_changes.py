"""Carry out a traveller's flight changes, upgrades and cancellations under stated fare rules, with booking functions.

The episode's records are an airline's flights (route, departure, economy and business fares) and one
customer's bookings (a flight, a cabin, a fare type basic/standard/flex, the amount paid, when it was
booked) and a ledger. The customer asks, one request per booking, to move to another flight on the same
route (named by date and time), from level 1 to upgrade to business, and from level 3 to cancel. The
functions search flights, change a booking's flight or cabin, cancel it, and charge or refund an amount;
they refuse only the impossible (an unknown flight, another route), never what the rules forbid:

1. basic fares cannot be changed or upgraded (a cancellation refunds nothing);
2. a flight change costs a $75.00 fee for a standard fare (none for flex) plus the fare difference (the new
   flight's fare in the booking's cabin minus the amount paid) when positive; a flex fare is refunded a
   negative difference, a standard fare is not;
3. an upgrade to business is charged the business fare minus the economy fare of the booking's flight;
4. from level 2, a change to another flight on the same date as the booked one has no fee;
5. from level 3, a cancellation refunds the amount paid for flex, the amount paid minus $100.00 (never
   below zero) for standard, nothing for basic; any booking made within the last 24 hours is refunded in
   full;
6. from level 4, no change or upgrade less than 2 hours before the booked flight departs.

One charge or refund per request. The answer is the net amount charged (charges minus refunds, dollars;
negative for a net refund). The episode is judged on the answer and on the final records against those
the rules determine. Requests are built on both sides of the rules (a twenty-fifth of problems all allowed,
a twenty-fifth all refused). The difficulty is twice the requests plus twice the rules in play plus half the
requests that move money (which vary from draw to draw: at full weight they hid the extra request each level past
the presets adds).

Every part of the rules in play (see ``_parts``: basic fares refused; the change fee; the fare difference, refunded
to flex but not to standard fares; the upgrade's price; no fee on the same date; the cancellation refunds by fare
and the 24-hour full refund; the cutoff) decides at least one request of every mixed problem on its own: a booking
is built for each (in one-sided problems, each part on that side), and a draw that misses one is drawn again. So a
policy blind to one part fails every mixed problem. (v2 drew bookings as they fell: "charge no fare difference"
solved 0.40-0.63 of every level, "refund basic cancellations less the fee" 0.93-0.95 of levels 3-4, "a fee on
same-date changes too" 0.92 of levels 2-4, "ignore the cutoff" 0.28 of level 4, on 60 seeds.) This takes more
bookings a level (3-4 at level 0, 9-10 at level 4).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
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
    judge_dollars,
    ledger_net,
    served_records,
)
from palaestra.generators.knowledge import NameForge

NOW = datetime(2024, 5, 2, 9, 0)
CITIES = ("LIS", "OSL", "ATH", "DUB", "VIE", "PRG", "CPH", "MAD", "HEL", "BUD")
CHANGE_FEE, CANCEL_FEE = 7_500, 10_000
CUTOFF = timedelta(hours=2)
FARES = ("basic", "standard", "flex")
ALL_ALLOWED = 0.04  # the share of problems whose requests the rules all allow (the refusing rules decide nothing)
ALL_REFUSED = 0.04  # and all refuse (the rest mix both sides)
REFUSING = frozenset({"basic", "cutoff"})  # the parts of the rules that refuse a request (the rest set amounts)
BOOKING_TRIES = 30  # draws of one booking for its role before the problem is drawn again


@register
class AirlineChanges(ServiceTask):
    id = "service/airline_changes"
    family = "service"
    description = "Change, upgrade and cancel a traveller's flights under stated fare rules, with booking functions."
    tags = ("service", "multi-turn", "tools", "policy", "travel", "agentic")
    version = 3  # v3: every part of the rules in play decides a request of every mixed problem; more bookings
    # (v2: a twenty-fifth of the problems refuse every request; v1: a tenth)
    tool_names = ("find_customer", "get_booking", "search_flights", "change_flight", "change_cabin",
                  "cancel_booking", "charge", "refund")

    @dataclass(frozen=True)
    class Config:
        bookings: tuple[int, int]  # one request per booking
        upgrades: bool
        same_day: bool
        cancels: bool
        cutoff: bool
        budget: int

    presets = (
        Config((3, 4), False, False, False, False, 18),
        Config((4, 5), True, False, False, False, 22),
        Config((5, 6), True, True, False, False, 26),
        Config((8, 9), True, True, True, False, 38),
        Config((9, 10), True, True, True, True, 42),
    )
    growth = Growth(limits={"bookings": 16, "budget": 66})

    def functions(self) -> dict[str, Function]:
        return {
            "find_customer": Function("Find a customer by e-mail address: id, name and booking references.",
                                      {"email": "string"}, _find_customer),
            "get_booking": Function("Read a booking: flight (route, departure), cabin, fare type, amount paid, when "
                                    "it was booked, status.", {"booking": "string"}, _get_booking),
            "search_flights": Function("Flights on a route on a date (YYYY-MM-DD): id, departure, economy and business "
                                       "fares.", {"origin": "string", "destination": "string", "date": "string"},
                                       _search_flights),
            "change_flight": Function("Move a booking to another flight on the same route.",
                                      {"booking": "string", "flight": "string"}, _change_flight),
            "change_cabin": Function("Set a booking's cabin ('economy' or 'business').",
                                     {"booking": "string", "cabin": "string"}, _change_cabin),
            "cancel_booking": Function("Cancel a booking.", {"booking": "string"}, _cancel_booking),
            "charge": Function("Charge the customer an amount in cents for a booking (added to its amount paid).",
                               {"booking": "string", "amount_cents": "integer"}, _ledger("charge")),
            "refund": Function("Refund the customer an amount in cents for a booking (taken from its amount paid).",
                               {"booking": "string", "amount_cents": "integer"}, _ledger("refund")),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = _draw_kind(rng)  # drawn once, so that redraws do not skew the shares
        return retry(lambda: self._draw(rng, config, kind), what="requests that each rule in play decides",
                     attempts=100)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        customer = draw_person(forge, rng, "T")
        rules = {"upgrades": config.upgrades, "same_day": config.same_day, "cancels": config.cancels,
                 "cutoff": config.cutoff}
        parts = _parts(rules)
        roles = _roles(parts, kind)
        count = max(rng.randint(*config.bookings), len(roles))
        slots: list[tuple[str | None, bool]] = [(role, role not in REFUSING) for role in roles]
        fill = [True] * (count - len(slots)) if kind == "all allowed" else [False] * (count - len(slots)) \
            if kind == "all refused" else [rng.random() < 0.5 for _ in range(count - len(slots))]
        slots += [(None, allowed) for allowed in fill]
        rng.shuffle(slots)
        flights: dict[str, dict[str, Any]] = {}
        bookings: dict[str, dict[str, Any]] = {}
        requests: list[dict[str, Any]] = []
        records = {"now": NOW.isoformat(timespec="minutes"), "customers": {customer["id"]: customer},
                   "flights": flights, "bookings": bookings, "ledger": []}
        for role, allowed in slots:
            request = None
            for _ in range(BOOKING_TRIES):
                request = _booking_request(rng, config, records, rules, role, allowed)
                if request is not None:
                    break
            if request is None:
                return None
            requests.append(request)
        if not _needed(parts, kind) <= _decided(records, requests, rules, parts):
            return None
        texts = [f"{n}. {_describe(records, r)}" for n, r in enumerate(requests, 1)]
        prompt = (
            f"You are an airline's customer agent. It is now {NOW.isoformat(sep=' ', timespec='minutes')}. Fare "
            f"rules:\n{_policy(config)}\n\n"
            "Handle the customer's requests below, each as far as the rules allow (a refused request does not stop "
            "the others), using the tools: one charge or refund per request that calls for one; do nothing the rules "
            "forbid and nothing the customer did not ask for. Then reply to the customer with the net amount charged "
            "(charges minus refunds) in dollars, e.g. <answer>$12.34</answer> (<answer>-$12.34</answer> for a net "
            "refund, <answer>$0.00</answer> if nothing was charged).\n\n"
            f"Customer: Hi, this is {customer['name']} ({customer['email']}). Please:\n" + "\n".join(texts)
            + f"\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requests": requests, "rules": rules, "budget": config.budget}
        net = ledger_net(served_records(data, _allowed, _serve)["ledger"])
        return Problem(prompt=prompt, answer=dollars(net), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return served_records(problem.data, _allowed, _serve)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        ledger = served_records(data, _allowed, _serve)["ledger"]
        return 2 * len(data["requests"]) + 2 * (2 + sum(data["rules"].values())) + len(ledger) / 2

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy_data(data["records"])
        customer = next(iter(records["customers"].values()))
        replies = [call("find_customer", email=customer["email"])]
        replies += [call("get_booking", booking=r["booking"]) for r in data["requests"]]
        for request in data["requests"]:
            if request["kind"] == "change":
                flight = records["flights"][request["flight"]]
                replies.append(call("search_flights", origin=flight["origin"], destination=flight["destination"],
                                    date=flight["departure"][:10]))
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
        return [dollars(cents + 1), dollars(cents - CHANGE_FEE), f"{problem.answer} or $0.00"]


def _policy(config: AirlineChanges.Config) -> str:
    rules = ["Basic fares cannot be changed or upgraded (a basic fare may be cancelled, with no refund).",
             f"A flight change (to another flight on the same route) costs a ${CHANGE_FEE // 100}.00 change fee for a "
             "standard fare and no fee for a flex fare, plus the fare difference (the new flight's fare in the "
             "booking's cabin minus the amount paid) when it is positive. When it is negative, a flex fare is "
             "refunded the difference and a standard fare gets nothing back; charge or refund the net amount."]
    if config.upgrades:
        rules.append("An upgrade to business is charged the business fare minus the economy fare of the booking's "
                     "flight.")
    if config.same_day:
        rules.append("A change to another flight departing on the same date as the booked flight has no change fee.")
    if config.cancels:
        rules.append(f"A cancellation refunds the amount paid for a flex fare, the amount paid minus "
                     f"${CANCEL_FEE // 100}.00 (never below zero) for a standard fare, nothing for a basic fare; but "
                     "a booking made less than 24 hours ago is refunded the full amount paid, whatever its fare.")
    if config.cutoff:
        rules.append("No change or upgrade is possible less than 2 hours before the booked flight departs.")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _describe(records: Records, request: dict[str, Any]) -> str:
    booking = records["bookings"][request["booking"]]
    flight = records["flights"][booking["flight"]]
    route = f"{flight['origin']}-{flight['destination']}"
    if request["kind"] == "change":
        new = records["flights"][request["flight"]]["departure"]
        return (f"Move booking {request['booking']} ({route}) to the flight departing {new[:10]} at {new[11:]}.")
    if request["kind"] == "upgrade":
        return f"Upgrade booking {request['booking']} ({route}) to business."
    return f"Cancel booking {request['booking']} ({route})."


def _allowed(records: Records, request: dict[str, Any], rules: dict[str, bool], blind: str | None = None) -> bool:
    """Whether the rules allow ``request`` (``blind``: the rules without that part, see :func:`_parts`)."""
    booking = records["bookings"][request["booking"]]
    if request["kind"] == "cancel":
        return True
    if booking["fare"] == "basic" and blind != "basic":
        return False
    departure = datetime.fromisoformat(records["flights"][booking["flight"]]["departure"])
    return not (rules["cutoff"] and blind != "cutoff" and departure - datetime.fromisoformat(records["now"]) < CUTOFF)


def _serve(records: Records, request: dict[str, Any], rules: dict[str, bool],
           blind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Carry out an allowed request on ``records``; the function calls that do it (``blind``: as the rules without
    that part would, see :func:`_parts`)."""
    reference = request["booking"]
    booking = records["bookings"][reference]
    flight = records["flights"][booking["flight"]]
    fare = booking["fare"]
    calls: list[tuple[str, dict[str, Any]]] = []
    amount = 0  # positive: a charge; negative: a refund
    if request["kind"] == "change":
        new = records["flights"][request["flight"]]
        difference = 0 if blind == "diff" else new[f"{booking['cabin']}_cents"] - booking["paid_cents"]
        same_day = rules["same_day"] and blind != "same_day" and new["departure"][:10] == flight["departure"][:10]
        fee = CHANGE_FEE if fare == "standard" and not same_day and blind != "fee" else 0
        refunded = (fare == "flex") != (blind == {"flex": "flex_neg", "standard": "std_neg"}.get(fare))
        amount = fee + (difference if difference > 0 or refunded else 0)
        booking["flight"] = request["flight"]
        calls.append(("change_flight", {"booking": reference, "flight": request["flight"]}))
    elif request["kind"] == "upgrade":
        amount = 0 if blind == "upgrade" else flight["business_cents"] - flight["economy_cents"]
        booking["cabin"] = "business"
        calls.append(("change_cabin", {"booking": reference, "cabin": "business"}))
    else:
        recent = blind != "recent" and datetime.fromisoformat(records["now"]) - datetime.fromisoformat(
            booking["booked_at"]) < timedelta(hours=24)
        paid = booking["paid_cents"]
        fee_fares = {"cancel_fee": (), "basic_refund": ("standard", "basic")}.get(blind or "", ("standard",))
        refund = paid if recent or fare == "flex" else max(0, paid - CANCEL_FEE) if fare in fee_fares \
            else paid if blind == "cancel_fee" and fare == "standard" else 0
        amount = -refund
        booking["status"] = "cancelled"
        calls.append(("cancel_booking", {"booking": reference}))
    if amount:
        kind = "charge" if amount > 0 else "refund"
        _record(records, reference, kind, abs(amount))
        calls.append((kind, {"booking": reference, "amount_cents": abs(amount)}))
    return calls


def _draw_kind(rng: random.Random) -> str:
    """``all allowed`` (:data:`ALL_ALLOWED` of the problems), ``all refused`` (:data:`ALL_REFUSED`) or ``mixed``."""
    draw = rng.random()
    return "all allowed" if draw < ALL_ALLOWED else "all refused" if draw < ALL_ALLOWED + ALL_REFUSED else "mixed"


def _parts(rules: dict[str, bool]) -> frozenset[str]:
    """The parts of the rules in play, each one a policy could leave out: basic fares are not changed (``basic``);
    the change fee (``fee``); the fare difference (``diff``), refunded to flex (``flex_neg``) but not to standard
    fares (``std_neg``); the upgrade's price (``upgrade``); no fee on the same date (``same_day``); the cancellation
    fee of standard fares (``cancel_fee``), no refund for basic ones (``basic_refund``), a full refund within 24 hours
    of booking (``recent``); the 2-hour cutoff (``cutoff``)."""
    active = {"basic": True, "fee": True, "diff": True, "flex_neg": True, "std_neg": True,
              "upgrade": rules["upgrades"], "same_day": rules["same_day"], "cancel_fee": rules["cancels"],
              "basic_refund": rules["cancels"], "recent": rules["cancels"], "cutoff": rules["cutoff"]}
    return frozenset(name for name, on in active.items() if on)


def _roles(parts: frozenset[str], kind: str) -> list[str]:
    """The bookings built for a part to decide (a standard change to a lower fare on another date decides ``fee``
    and ``std_neg``; a flex change to a lower fare decides ``flex_neg`` and ``diff``): on the side ``kind`` allows."""
    roles = sorted(parts - {"fee", "diff"})
    if kind == "all refused":
        return [role for role in roles if role in REFUSING]
    return [role for role in roles if role not in REFUSING] if kind == "all allowed" else roles


def _needed(parts: frozenset[str], kind: str) -> frozenset[str]:
    """The parts that must each decide a request: all in a mixed problem, the refusing ones when all are refused,
    the others when all are allowed."""
    return parts if kind == "mixed" else parts & REFUSING if kind == "all refused" else parts - REFUSING


def _decided(records: Records, requests: list[dict[str, Any]], rules: dict[str, bool],
             parts: frozenset[str]) -> set[str]:
    """The parts that decide at least one request on their own (one request per booking, so each is judged on the
    first records): without the part the request is allowed where it is refused, or the reverse, or moves another
    amount."""
    decided = set()
    for request in requests:
        outcomes = {}
        for blind in [None, *parts]:  # the request's booking alone is copied: the flights are only read
            world = {"now": records["now"], "flights": records["flights"], "ledger": [],
                     "bookings": {request["booking"]: dict(records["bookings"][request["booking"]])}}
            allowed = _allowed(world, request, rules, blind)
            outcomes[blind] = (allowed, _serve(world, request, rules, blind) if allowed else [])
        decided |= {part for part in parts if outcomes[part] != outcomes[None]}
    return decided


def _route(rng: random.Random, records: Records) -> list[str] | None:
    """Five flights on a new route, three of them on the first day (those departing within 30 minutes dropped)."""
    flights = records["flights"]
    origin, destination = rng.sample(CITIES, 2)
    day = NOW.date() + timedelta(days=rng.randint(0, 4))
    route = []
    for offset in (0, 0, 0, 1, 2):  # flights on the booked day and later days
        departure = datetime.combine(day + timedelta(days=offset), datetime.min.time()) + timedelta(
            minutes=rng.randrange(6 * 60, 22 * 60, 5))
        if departure <= NOW + timedelta(minutes=30):
            continue
        economy = rng.randint(60, 400) * 100 + rng.choice((0, 50, 99))
        flight_id = f"{rng.choice('AFKRX')}{rng.choice('AZPQ')}{rng.randint(100, 999)}"
        if flight_id in flights or flight_id in route:
            return None
        route.append(flight_id)
        flights[flight_id] = {"origin": origin, "destination": destination,
                              "departure": departure.isoformat(timespec="minutes"), "economy_cents": economy,
                              "business_cents": economy + rng.randint(80, 500) * 100}
    if len(route) < 2 or len({flights[f]["departure"] for f in route}) < len(route):
        for flight_id in route:
            del flights[flight_id]
        return None  # each flight of a route is named by its departure: no two alike
    return route


def _booking_request(rng: random.Random, config: AirlineChanges.Config, records: Records, rules: dict[str, bool],
                     role: str | None, allowed: bool) -> dict[str, Any] | None:
    """A new booking on a new route and the customer's request about it, on the ``allowed`` side of the rules,
    built for part ``role`` to decide (None: as it falls); None (and the records as they were) when the draw
    misses."""
    flights, bookings = records["flights"], records["bookings"]
    route = _route(rng, records)
    if route is None:
        return None
    kinds = ["change"] + (["upgrade"] if config.upgrades else []) + (["cancel"] if config.cancels else [])
    kind_of = {"basic": [k for k in kinds if k != "cancel"], "cutoff": [k for k in kinds if k != "cancel"],
               "std_neg": ["change"], "flex_neg": ["change"], "same_day": ["change"], "upgrade": ["upgrade"],
               "recent": ["cancel"], "cancel_fee": ["cancel"], "basic_refund": ["cancel"]}
    fare_of = {"basic": ["basic"], "std_neg": ["standard"], "flex_neg": ["flex"], "same_day": ["standard"],
               "recent": ["standard", "basic"], "cancel_fee": ["standard"], "basic_refund": ["basic"]}
    request_kind = rng.choice(kind_of.get(role or "", kinds if allowed else [k for k in kinds if k != "cancel"]))
    fare = rng.choice(fare_of.get(role or "", (*FARES, "standard", "flex") if request_kind == "cancel"
                                  else FARES[1:] if allowed else FARES[:1]))
    late = role == "cutoff" or (role is None and not allowed and config.cutoff and rng.random() < 0.4)
    if late and role is None:
        fare = rng.choice(FARES[1:])  # refused for the cutoff, not the fare
    first_day = [f for f in route if flights[f]["departure"][:10] == flights[route[0]]["departure"][:10]]
    booked_flight = rng.choice(first_day if role == "same_day" else route)
    if late or (config.cutoff and rng.random() < 0.25):  # departing soon: inside the cutoff or just outside
        minutes = rng.choice((60, 90, 115, 119) if late else (120, 121, 150, 180))
        flights[booked_flight]["departure"] = (NOW + timedelta(minutes=minutes)).isoformat(timespec="minutes")
    cabin = "economy" if request_kind == "upgrade" or rng.random() < 0.7 else "business"
    paid = flights[booked_flight][f"{cabin}_cents"] + rng.choice((0, 0, -1_000, 1_500))
    reference = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    hours = {"recent": (3, 20, 23), "cancel_fee": (25, 30, 72, 400), "basic_refund": (25, 30, 72, 400)}
    booked_at = NOW - timedelta(hours=rng.choice(hours.get(role or "", (3, 20, 23, 25, 30, 72, 400))))
    request: dict[str, Any] = {"kind": request_kind, "booking": reference}
    if request_kind == "change":
        day = flights[booked_flight]["departure"][:10]
        targets = [f for f in route if f != booked_flight]
        if role == "same_day":
            targets = [f for f in targets if flights[f]["departure"][:10] == day]
        elif role in ("std_neg", "flex_neg"):  # a lower fare on another date
            targets = [f for f in targets if flights[f]["departure"][:10] != day and flights[f][f"{cabin}_cents"] < paid]
        if targets:
            request["flight"] = rng.choice(targets)
    if reference in bookings:
        for flight_id in route:
            del flights[flight_id]
        return None
    bookings[reference] = {"customer": next(iter(records["customers"])), "flight": booked_flight, "cabin": cabin,
                           "fare": fare, "paid_cents": paid, "booked_at": booked_at.isoformat(timespec="minutes"),
                           "status": "confirmed"}
    if (request_kind == "change" and "flight" not in request) or (role == "basic_refund" and paid <= CANCEL_FEE) or _allowed(records, request, rules) != allowed:
        del bookings[reference]
        for flight_id in route:
            del flights[flight_id]
        return None
    return request


def _record(records: Records, reference: str, kind: str, amount: int) -> None:
    records["ledger"].append({"booking": reference, "kind": kind, "amount_cents": amount})
    records["bookings"][reference]["paid_cents"] += amount if kind == "charge" else -amount


# --- the functions (they do what they are asked; the rules are the agent's) -----------------------------------


def _booking(records: Records, args: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    booking = records["bookings"].get(str(args["booking"]).strip().upper())
    if booking is None:
        return None, f"error: no booking {str(args['booking'])[:40]!r}"
    if booking["status"] == "cancelled":
        return None, f"error: booking {args['booking']} is cancelled"
    return booking, ""


def _find_customer(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for customer in records["customers"].values():
        if customer["email"] == email:
            refs = [r for r, b in records["bookings"].items() if b["customer"] == customer["id"]]
            return f"customer {customer['id']}: {customer['name']}, bookings: {', '.join(refs)}", None
    return f"error: no customer with e-mail {email[:100]!r}", None


def _get_booking(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    reference = str(args["booking"]).strip().upper()
    booking = records["bookings"].get(reference)
    if booking is None:
        return f"error: no booking {str(args['booking'])[:40]!r}", None
    flight = records["flights"][booking["flight"]]
    paid = booking["paid_cents"]
    return (f"booking {reference}: flight {booking['flight']} {flight['origin']}-{flight['destination']} departing "
            f"{flight['departure'].replace('T', ' ')}, {booking['cabin']} cabin, {booking['fare']} fare, paid "
            f"${paid // 100}.{paid % 100:02d}, booked {booking['booked_at'].replace('T', ' ')}, "
            f"status {booking['status']}"), None


def _search_flights(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    origin, destination = str(args["origin"]).strip().upper(), str(args["destination"]).strip().upper()
    day = str(args["date"]).strip()[:10]
    lines = []
    for flight_id, flight in sorted(records["flights"].items(), key=lambda item: item[1]["departure"]):
        if (flight["origin"], flight["destination"]) == (origin, destination) and flight["departure"][:10] == day:
            economy, business = flight["economy_cents"], flight["business_cents"]
            lines.append(f"- {flight_id}: departs {flight['departure'].replace('T', ' ')}, economy "
                         f"${economy // 100}.{economy % 100:02d}, business ${business // 100}.{business % 100:02d}")
    return ("\n".join(lines) if lines else "no flights"), None


def _change_flight(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    booking, error = _booking(records, args)
    if booking is None:
        return error, None
    flight = records["flights"].get(str(args["flight"]).strip().upper())
    old = records["flights"][booking["flight"]]
    if flight is None:
        return f"error: no flight {str(args['flight'])[:40]!r}", None
    if (flight["origin"], flight["destination"]) != (old["origin"], old["destination"]):
        return "error: that flight is on another route", None
    booking["flight"] = str(args["flight"]).strip().upper()
    return f"booking {str(args['booking']).strip().upper()} moved to flight {booking['flight']}", records


def _change_cabin(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    booking, error = _booking(records, args)
    cabin = str(args["cabin"]).strip().lower()
    if booking is None:
        return error, None
    if cabin not in ("economy", "business"):
        return "error: cabin must be 'economy' or 'business'", None
    booking["cabin"] = cabin
    return f"booking {str(args['booking']).strip().upper()}: {cabin} cabin", records


def _cancel_booking(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    booking, error = _booking(records, args)
    if booking is None:
        return error, None
    booking["status"] = "cancelled"
    return f"booking {str(args['booking']).strip().upper()} cancelled", records


def _ledger(kind: str) -> Any:
    def run(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
        reference = str(args["booking"]).strip().upper()
        amount = args["amount_cents"]
        if reference not in records["bookings"]:
            return f"error: no booking {str(args['booking'])[:40]!r}", None
        if not isinstance(amount, int) or not 0 < amount <= 10**8:
            return "error: amount_cents must be a positive whole number", None
        _record(records, reference, kind, amount)
        return f"{kind} of ${amount // 100}.{amount % 100:02d} recorded for {reference}", records
    return run
