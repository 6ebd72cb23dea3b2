"""Serve a hotel guest's cancellations, shortened stays and upgrades, told over several turns, under a rate policy.

The episode's records are a hotel chain's guest (a loyalty tier) and their reservations (hotel city, check-in
date, nights, nightly rate, refundable or not, room type). A scripted guest
(:class:`~palaestra.envs.service.common.ScriptedUser`) states one request per message: cancel a reservation,
shorten a stay by some nights, upgrade a room; from level 2 one request names a reservation by its city when
the guest has two there, and the guest's next message gives its check-in date. The functions do what they are
asked (a refund of whatever amount the agent enters); the policy is the agent's to follow:

1. non-refundable reservations are never cancelled, shortened or refunded;
2. a refundable reservation cancelled 2 or more days before check-in is refunded in full (nights x rate);
   from level 2, one cancelled 0 or 1 day before check-in is refunded all nights but the first;
3. a stay may be shortened only 2 or more days before check-in, refunding the nights dropped;
4. room upgrades are only for Gold guests (at no charge).

The answer is the total refunded in the conversation (dollars and cents); the final records (status, nights,
room, refunds) must be those the policy determines, and the guest must have been told the cancellation code of
every reservation cancelled. Requests fall on both sides of the policy in most draws. The difficulty is twice
the requests plus the refused ones plus the reservations plus the clauses in play.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from datetime import date, timedelta
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

TODAY = date(2024, 10, 7)
NOTICE_DAYS = 2
CITIES = ("Lisbon", "Oslo", "Porto", "Vienna", "Krakow", "Seville", "Bergen", "Ghent")
CLOSINGS = ("That's everything, thanks.", "Nothing else, thank you!", "That was all, thanks.")
KINDS = ("cancel", "shorten", "upgrade")
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


@register
class HotelReservations(ScriptedUser):
    id = "service/hotel_reservations"
    family = "service"
    description = "Cancel, shorten and upgrade a guest's hotel reservations, told over several turns, under a rate policy."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 2  # v2: a twenty-fifth of the problems refuse every request (v1: a tenth)
    tool_names = ("find_guest", "get_reservation", "cancel_reservation", "shorten_stay", "upgrade_room")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]
        others: tuple[int, int]  # reservations the guest does not mention
        late_rule: bool  # late cancellations: all nights but the first refunded
        ambiguous: bool
        slack: int

    presets = (
        Config((2, 2), (0, 1), False, False, 3),
        Config((2, 3), (1, 2), False, False, 3),
        Config((3, 3), (1, 2), True, True, 4),
        Config((3, 4), (2, 3), True, True, 4),
        Config((4, 5), (2, 4), True, True, 5),
    )
    growth = Growth(limits={"requests": (8, 12), "others": (8, 10), "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_guest": Function("Find a guest by e-mail: id, name, loyalty tier and reservation ids.",
                                   {"email": "string"}, _find_guest),
            "get_reservation": Function("Read a reservation: hotel, check-in date, nights, nightly rate, rate type, "
                                        "room and status.", {"reservation_id": "string"}, _get_reservation),
            "cancel_reservation": Function("Cancel a reservation and refund the amount given (in cents); returns the "
                                           "cancellation code.", {"reservation_id": "string", "refund_cents": "integer"},
                                           _cancel),
            "shorten_stay": Function("Set a reservation's number of nights and refund the amount given (in cents).",
                                     {"reservation_id": "string", "nights": "integer", "refund_cents": "integer"},
                                     _shorten),
            "upgrade_room": Function("Change a reservation's room to deluxe.", {"reservation_id": "string"}, _upgrade),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="reservations for the requests", attempts=60)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        forge = NameForge(rng)
        guest = {**draw_person(forge, rng, "G"), "tier": rng.choice(("Gold", "Silver", "Basic"))}
        records: Records = {"today": TODAY.isoformat(), "guests": {guest["id"]: guest}, "reservations": {},
                            "codes": {}}
        numbers = iter(rng.sample(range(10_000, 99_999), 30))
        cities = rng.sample(CITIES, len(CITIES))

        def reserve(city: str, days: int, refundable: bool) -> str:
            rid = f"H{next(numbers)}"
            records["reservations"][rid] = {
                "guest": guest["id"], "city": city, "check_in": (TODAY + timedelta(days=days)).isoformat(),
                "nights": rng.randint(2, 6), "rate_cents": rng.randint(60, 320) * 100 + rng.choice((0, 50)),
                "refundable": refundable, "room": "standard", "status": "booked", "refund_cents": 0}
            records["codes"][rid] = "".join(rng.choice(CODE_LETTERS) for _ in range(6))
            return rid

        side = draw_side(rng)
        count = rng.randint(*config.requests)
        wanted = [side == "all allowed" or (side == "mixed" and rng.random() < 0.5) for _ in range(count)]
        if side == "mixed" and len(set(wanted)) == 1:
            wanted[rng.randrange(count)] = not wanted[0]
        requests: list[dict[str, Any]] = []
        for index, allowed in enumerate(wanted):
            kind = rng.choice(KINDS)
            city = cities[index % len(cities)]
            if kind == "upgrade":
                if allowed != (guest["tier"] == "Gold"):
                    kind = "cancel"
                else:
                    requests.append({"kind": kind, "reservation": reserve(city, rng.randint(0, 40), rng.random() < .5)})
                    continue
            late = config.late_rule and rng.random() < 0.4
            refundable = allowed or (late and kind == "cancel") or rng.random() < 0.4
            days = rng.randint(0, NOTICE_DAYS - 1) if late or (refundable and not allowed) else \
                rng.randint(NOTICE_DAYS, 40)
            rid = reserve(city, days, refundable)
            if kind == "shorten":
                nights = records["reservations"][rid]["nights"]
                requests.append({"kind": kind, "reservation": rid, "drop": rng.randint(1, nights - 1)})
            else:
                requests.append({"kind": kind, "reservation": rid})
        for _ in range(rng.randint(*config.others)):
            reserve(rng.choice(CITIES), rng.randint(0, 40), rng.random() < 0.5)
        ambiguous = None
        if config.ambiguous:
            ambiguous = rng.randrange(count)
            target = records["reservations"][requests[ambiguous]["reservation"]]
            reserve(target["city"], rng.randint(0, 40), rng.random() < 0.5)  # a second reservation in that city
            if sum(r["city"] == target["city"] and r["check_in"] == target["check_in"]
                   for r in records["reservations"].values()) > 1:
                return None
        order = list(records["reservations"])
        rng.shuffle(order)
        records["reservations"] = {rid: records["reservations"][rid] for rid in order}
        _, refunds = _serve(records, requests, config.late_rule)
        served = [refund is not None for refund in refunds]
        if side == "mixed" and len(set(served)) < 2:
            return None
        if side != "mixed" and served != [side == "all allowed"] * count:
            return None
        user = []
        for index, request in enumerate(requests):
            reservation = records["reservations"][request["reservation"]]
            name = (f"my reservation in {reservation['city']}" if index == ambiguous
                    else f"reservation {request['reservation']}")
            if request["kind"] == "cancel":
                user.append(f"Please cancel {name}.")
            elif request["kind"] == "shorten":
                user.append(f"Could you take {request['drop']} night{'s' if request['drop'] > 1 else ''} off {name}? "
                            "I need to leave earlier.")
            else:
                user.append(f"I'd love an upgrade to a deluxe room for {name}.")
            if index == ambiguous:
                user.append(f"Sorry, I mean the one checking in on {reservation['check_in']}.")
        user.append(rng.choice(CLOSINGS))
        user[0] = f"Hello, this is {guest['name']} ({guest['email']}). {user[0]}"
        budget = 2 + 2 * count + len(records["reservations"]) // 2 + config.slack
        rules = [
            "1. Non-refundable reservations are never cancelled, shortened or refunded.",
            f"2. A refundable reservation cancelled {NOTICE_DAYS} or more days before check-in is refunded in full "
            "(nights times the nightly rate)." + (
                f" One cancelled less than {NOTICE_DAYS} days before check-in is refunded all nights but the first."
                if config.late_rule else f" Refundable reservations cannot be cancelled less than {NOTICE_DAYS} "
                "days before check-in."),
            f"3. A stay may be shortened only {NOTICE_DAYS} or more days before check-in; refund the nights dropped.",
            "4. Room upgrades (to deluxe) are only for Gold guests, at no charge.",
            "5. Tell the guest the cancellation code of every reservation you cancel.",
        ]
        prompt = (
            f"You are a hotel chain's reservations agent. Today is {TODAY.isoformat()}. Policy:\n" + "\n".join(rules)
            + "\n\nThe guest will tell you what they need over several messages: a reply to them without a tool call "
            "is a message they answer, until they have nothing more to ask. Carry out what the policy allows, refuse "
            "the rest, and do nothing they did not ask for. When they have nothing more to ask, give your final "
            "answer: the total refunded in this conversation, in dollars, e.g. <answer>$12.34</answer> "
            f"(<answer>$0.00</answer> if nothing).\n\nGuest: {user[0]}\n\n" + self.tools_prompt(budget)
        )
        data = {"records": records, "requests": requests, "late_rule": config.late_rule, "ambiguous": ambiguous,
                "user": user, "budget": budget}
        return Problem(prompt=prompt, answer=dollars(sum(r or 0 for r in refunds)), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return _serve(problem.data["records"], problem.data["requests"], problem.data["late_rule"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        records = problem.data["records"]
        _, refunds = _serve(records, problem.data["requests"], problem.data["late_rule"])
        return {f"the cancellation code of {r['reservation']}": records["codes"][r["reservation"]]
                for r, refund in zip(problem.data["requests"], refunds) if r["kind"] == "cancel" and refund is not None}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        _, refunds = _serve(data["records"], data["requests"], data["late_rule"])
        return (2 * len(data["requests"]) + sum(r is None for r in refunds) + len(data["records"]["reservations"]) / 2
                + 2 * data["late_rule"] + 2 * (data["ambiguous"] is not None))

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The refund total is {answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 100), dollars(cents + 1), f"{problem.answer} or $0.00"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = data["records"]
        guest = next(iter(records["guests"].values()))
        replies = [call("find_guest", email=guest["email"])]
        _, refunds = _serve(records, data["requests"], data["late_rule"])
        for index, (request, refund) in enumerate(zip(data["requests"], refunds)):
            rid = request["reservation"]
            if index == data["ambiguous"]:
                replies.append("You have two reservations there: which check-in date?")
            replies.append(call("get_reservation", reservation_id=rid))
            message = "The policy does not allow that, sorry."
            if refund is not None:
                if request["kind"] == "cancel":
                    replies.append(call("cancel_reservation", reservation_id=rid, refund_cents=refund))
                    message = f"Cancelled; your cancellation code is {records['codes'][rid]}."
                elif request["kind"] == "shorten":
                    nights = records["reservations"][rid]["nights"] - request["drop"]
                    replies.append(call("shorten_stay", reservation_id=rid, nights=nights, refund_cents=refund))
                    message = "Your stay is shortened."
                else:
                    replies.append(call("upgrade_room", reservation_id=rid))
                    message = "Upgraded to deluxe."
            replies.append(f"{message} Anything else?")
        return [*replies, problem.answer or "$0.00"]


def _refund(records: Records, request: dict[str, Any], late_rule: bool) -> int | None:
    """The refund the policy gives ``request`` (0 for an upgrade), or None when it refuses it."""
    reservation = records["reservations"][request["reservation"]]
    if request["kind"] == "upgrade":
        return 0 if records["guests"][reservation["guest"]]["tier"] == "Gold" else None
    if not reservation["refundable"] or reservation["status"] != "booked":
        return None
    notice = (date.fromisoformat(reservation["check_in"]) - TODAY).days
    rate, nights = reservation["rate_cents"], reservation["nights"]
    if request["kind"] == "shorten":
        return rate * request["drop"] if notice >= NOTICE_DAYS else None
    if notice >= NOTICE_DAYS:
        return rate * nights
    return rate * (nights - 1) if late_rule else None


def _serve(initial: Records, requests: list[dict[str, Any]], late_rule: bool) -> tuple[Records, list[int | None]]:
    records = copy.deepcopy(initial)
    refunds = []
    for request in requests:
        refund = _refund(records, request, late_rule)
        refunds.append(refund)
        if refund is None:
            continue
        reservation = records["reservations"][request["reservation"]]
        if request["kind"] == "upgrade":
            reservation["room"] = "deluxe"
        elif request["kind"] == "shorten":
            reservation["nights"] -= request["drop"]
        else:
            reservation["status"] = "cancelled"
        reservation["refund_cents"] += refund
    return records, refunds


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _reservation(records: Records, args: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    rid = str(args["reservation_id"])
    found = records["reservations"].get(rid)
    return found, "" if found is not None else f"error: no reservation {rid[:40]!r}"


def _find_guest(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for guest_id, guest in records["guests"].items():
        if guest["email"] == email:
            own = [rid for rid, r in records["reservations"].items() if r["guest"] == guest_id]
            return f"guest {guest_id}: {guest['name']}, tier {guest['tier']}, reservations: {', '.join(own)}", None
    return f"error: no guest with e-mail {email[:100]!r}", None


def _get_reservation(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    found, error = _reservation(records, args)
    if found is None:
        return error, None
    return (f"reservation {args['reservation_id']}: hotel in {found['city']}, check-in {found['check_in']}, "
            f"{found['nights']} nights at {dollars(found['rate_cents'])} a night, "
            f"{'refundable' if found['refundable'] else 'non-refundable'} rate, {found['room']} room, "
            f"status {found['status']}, refunded so far {dollars(found['refund_cents'])}"), None


def _money_argument(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**8 else None


def _cancel(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    found, error = _reservation(records, args)
    refund = _money_argument(args["refund_cents"])
    if found is None or refund is None:
        return error or "error: refund_cents must be a whole number of cents, 0 or more", None
    if found["status"] != "booked":
        return f"error: reservation {args['reservation_id']} is {found['status']}", None
    found["status"] = "cancelled"
    found["refund_cents"] += refund
    return (f"reservation {args['reservation_id']} cancelled, {dollars(refund)} refunded; cancellation code "
            f"{records['codes'][args['reservation_id']]}"), records


def _shorten(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    found, error = _reservation(records, args)
    refund = _money_argument(args["refund_cents"])
    if found is None or refund is None:
        return error or "error: refund_cents must be a whole number of cents, 0 or more", None
    nights = args["nights"]
    if not isinstance(nights, int) or isinstance(nights, bool) or not 1 <= nights <= found["nights"]:
        return f"error: nights must be 1 to {found['nights']}", None
    found["nights"] = nights
    found["refund_cents"] += refund
    return f"reservation {args['reservation_id']} now {nights} nights, {dollars(refund)} refunded", records


def _upgrade(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    found, error = _reservation(records, args)
    if found is None:
        return error, None
    found["room"] = "deluxe"
    return f"reservation {args['reservation_id']} upgraded to deluxe", records
