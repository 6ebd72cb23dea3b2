"""Serve a hotel guest's cancellations, shortened stays and upgrades, told over several turns, under a rate policy.

The episode's records are a hotel chain's guest (a loyalty tier) and the reservations they booked (hotel city,
check-in date, nights, nightly rate, refundable or not, room type, and the guest staying: from level 2 some rooms
are for a companion with their own tier). A scripted guest (:class:`~palaestra.envs.service.common.ScriptedUser`)
states one request per message: cancel a reservation, from level 1 shorten a stay by some nights, from level 2
upgrade a room; from level 2 one request names a reservation by its city when the guest has two there, and the
guest's next message gives its check-in date. The functions do what they are asked (a refund of whatever amount
the agent enters); the policy is the agent's to follow:

1. non-refundable reservations are never cancelled, shortened or refunded;
2. a refundable reservation cancelled 2 or more days before check-in is refunded in full (nights x rate);
   one cancelled later is refused, or from level 3 refunded all nights but the first;
3. from level 1, a stay may be shortened only 2 or more days before check-in, refunding the nights dropped;
4. from level 2, room upgrades are only for rooms whose guest staying is Gold (at no charge).

The answer is the total refunded in the conversation (dollars and cents); the final records (status, nights,
room, refunds) must be those the policy determines, and the guest must have been told the cancellation code of
every reservation cancelled. Requests fall on both sides of the policy (a tenth of problems all allowed, a
twenty-fifth all refused). In every mixed problem each clause in play decides a request on its own, both ways and
at its day boundary (:func:`_blinds`): a non-refundable reservation the notice would allow, cancellations 1 and 2
days before check-in, shortened stays 1 and 2 days before, upgrades of a Gold and a non-Gold guest's rooms, one of
them the companion's; requests that a clause decides come first, and a draw the policy without some clause would
serve alike is drawn again; one-sided problems decide what requests on their side can. (v2 drew requests as they
fell: on 40 seeds a level, reading the notice as more than 2 days solved 0.88-1.00 of levels 0-5, never upgrading
0.68-0.95, refunding non-refundable rooms 0.42-0.57; now each such policy solves only one-sided problems, 0.00-0.20.)
The difficulty is twice the requests plus the refused ones plus half the reservations plus twice each of the
shortened stays, upgrades, late refunds and ambiguous request in play.
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
    draw_sides,
    judge_dollars,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 10, 7)
NOTICE_DAYS = 2
CITIES = ("Lisbon", "Oslo", "Porto", "Vienna", "Krakow", "Seville", "Bergen", "Ghent")
CLOSINGS = ("That's everything, thanks.", "Nothing else, thank you!", "That was all, thanks.")
TIERS = ("Gold", "Silver", "Basic")
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


@register
class HotelReservations(ScriptedUser):
    id = "service/hotel_reservations"
    family = "service"
    description = "Cancel, shorten and upgrade a guest's hotel reservations, told over several turns, under a rate policy."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 3  # v3: every clause in play decides every mixed problem, shortened stays from level 1, upgrades (and
    # a companion's rooms) from level 2, late refunds from level 3 (v2: a twenty-fifth of the problems refuse every
    # request; v1: a tenth)
    tool_names = ("find_guest", "get_reservation", "cancel_reservation", "shorten_stay", "upgrade_room")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]
        others: tuple[int, int]  # reservations the guest does not mention
        shortens: bool
        upgrades: bool  # and a companion staying in some of the rooms
        late_rule: bool  # late cancellations: all nights but the first refunded
        ambiguous: bool
        slack: int

    # a mixed problem needs a request per role of _roles: 3, 5, 7 requests with cancels, shortens, upgrades in play
    presets = (
        Config((3, 4), (0, 1), False, False, False, False, 3),
        Config((5, 6), (1, 2), True, False, False, False, 3),
        Config((7, 7), (1, 2), True, True, False, True, 4),
        Config((7, 8), (2, 3), True, True, True, True, 4),
        Config((8, 9), (2, 4), True, True, True, True, 5),
    )
    growth = Growth(limits={"requests": (12, 14), "others": (8, 10), "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_guest": Function("Find a guest by e-mail: id, name, loyalty tier and the ids of the reservations "
                                   "they booked.", {"email": "string"}, _find_guest),
            "get_reservation": Function("Read a reservation: hotel, check-in date, nights, nightly rate, rate type, "
                                        "room, status and the guest staying (their loyalty tier).",
                                        {"reservation_id": "string"}, _get_reservation),
            "cancel_reservation": Function("Cancel a reservation and refund the amount given (in cents); returns the "
                                           "cancellation code.", {"reservation_id": "string", "refund_cents": "integer"},
                                           _cancel),
            "shorten_stay": Function("Set a reservation's number of nights and refund the amount given (in cents).",
                                     {"reservation_id": "string", "nights": "integer", "refund_cents": "integer"},
                                     _shorten),
            "upgrade_room": Function("Change a reservation's room to deluxe.", {"reservation_id": "string"}, _upgrade),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        side = draw_side(rng)
        return retry(lambda: self._draw(rng, config, side), what="reservations for the requests", attempts=100)

    def _draw(self, rng: random.Random, config: Config, side: str) -> Problem | None:
        forge = NameForge(rng)
        rules = {"shortens": config.shortens, "upgrades": config.upgrades, "late_rule": config.late_rule}
        mixed = side == "mixed"
        guest = {**draw_person(forge, rng, "G"), "tier": rng.choice(TIERS)}
        records: Records = {"today": TODAY.isoformat(), "guests": {guest["id"]: guest}, "reservations": {},
                            "codes": {}}
        if config.upgrades:  # in a mixed problem one of the two is Gold, for an upgrade each way
            tier = rng.choice(TIERS) if not mixed else "Gold" if guest["tier"] != "Gold" else rng.choice(TIERS[1:])
            companion = {**draw_person(forge, rng, "G"), "tier": tier}
            if companion["id"] == guest["id"] or companion["email"] == guest["email"]:
                return None
            records["guests"][companion["id"]] = companion
        numbers = iter(rng.sample(range(10_000, 99_999), 40))
        cities = rng.sample(CITIES, len(CITIES))

        def reserve(draft: dict[str, Any]) -> str:
            rid = f"H{next(numbers)}"
            records["reservations"][rid] = draft
            records["codes"][rid] = "".join(rng.choice(CODE_LETTERS) for _ in range(6))
            return rid

        refusing, allowing = _roles(rules)
        count = max(rng.randint(*config.requests), refusing + allowing if mixed else 0)
        sides = draw_sides(rng, count, side)
        if sides is None:
            return None
        if mixed:  # a refused request for each refusing role and an allowed one for each serving role
            sides = [False] * refusing + [True] * allowing + sides[refusing + allowing:]
            rng.shuffle(sides)
        requests: list[dict[str, Any]] = []
        # one-sided problems too get requests that decide clauses where their side allows (a refusal by the notice
        # alone, a cancellation at the notice), so a blind policy solves little more than the all-allowed ones
        undecided = set(_blinds(rules))
        for index, allowed in enumerate(sides):
            city = cities[index % len(cities)]
            drafts = [d for d in _boundary_drafts(rng, city, records["guests"], rules)
                      if (_draft_refund(records["guests"], d, rules) is not None) == allowed]
            deciding = [(len(_decides(records["guests"], d, rules) & undecided), d) for d in drafts]
            most = max((n for n, _ in deciding), default=0)
            if most:  # each clause in play gets a request it decides, as many clauses at once as one can decide
                draft = rng.choice([d for n, d in deciding if n == most])
                undecided -= _decides(records["guests"], draft, rules)
            else:
                found = next((d for d in (_natural_draft(rng, city, records["guests"], rules) for _ in range(40))
                              if (_draft_refund(records["guests"], d, rules) is not None) == allowed), None)
                if found is None:
                    return None
                draft = found
            requests.append({**draft["request"], "reservation": reserve(draft["reservation"])})
        if mixed and undecided:
            return None
        for _ in range(rng.randint(*config.others)):
            reserve(_natural_draft(rng, rng.choice(CITIES), records["guests"], rules)["reservation"])
        ambiguous = None
        if config.ambiguous:
            ambiguous = rng.randrange(count)
            target = records["reservations"][requests[ambiguous]["reservation"]]
            second = _natural_draft(rng, target["city"], records["guests"], rules)["reservation"]
            reserve({**second, "guest": target["guest"]})  # a second reservation in that city
            if sum(r["city"] == target["city"] and r["check_in"] == target["check_in"]
                   for r in records["reservations"].values()) > 1:
                return None
        order = list(records["reservations"])
        rng.shuffle(order)
        records["reservations"] = {rid: records["reservations"][rid] for rid in order}
        _, refunds = _serve(records, requests, config.late_rule)
        if mixed and any(_serve(records, requests, config.late_rule, blind)[1] == refunds for blind in _blinds(rules)):
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
        rules_text = [
            "Non-refundable reservations are never cancelled, shortened or refunded.",
            f"A refundable reservation cancelled {NOTICE_DAYS} or more days before check-in is refunded in full "
            "(nights times the nightly rate)." + (
                f" One cancelled less than {NOTICE_DAYS} days before check-in is refunded all nights but the first."
                if config.late_rule else f" Refundable reservations cannot be cancelled less than {NOTICE_DAYS} "
                "days before check-in."),
        ]
        if config.shortens:
            rules_text.append(f"A stay may be shortened only {NOTICE_DAYS} or more days before check-in; refund the "
                              "nights dropped.")
        if config.upgrades:
            rules_text.append("Room upgrades (to deluxe) are only for rooms whose guest staying (shown on the "
                              "reservation; not always the one who booked it) is Gold, at no charge.")
        rules_text.append("Tell the guest the cancellation code of every reservation you cancel.")
        prompt = (
            f"You are a hotel chain's reservations agent. Today is {TODAY.isoformat()}. Policy:\n"
            + "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules_text, 1))
            + "\n\nThe guest will tell you what they need over several messages: a reply to them without a tool call "
            "is a message they answer, until they have nothing more to ask. Carry out what the policy allows, refuse "
            "the rest, and do nothing they did not ask for. When they have nothing more to ask, give your final "
            "answer: the total refunded in this conversation, in dollars, e.g. <answer>$12.34</answer> "
            f"(<answer>$0.00</answer> if nothing).\n\nGuest: {user[0]}\n\n" + self.tools_prompt(budget)
        )
        data = {"records": records, "requests": requests, "rules": rules, "ambiguous": ambiguous, "user": user,
                "budget": budget}
        return Problem(prompt=prompt, answer=dollars(sum(r or 0 for r in refunds)), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return _serve(problem.data["records"], problem.data["requests"], problem.data["rules"]["late_rule"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        records = problem.data["records"]
        _, refunds = _serve(records, problem.data["requests"], problem.data["rules"]["late_rule"])
        return {f"the cancellation code of {r['reservation']}": records["codes"][r["reservation"]]
                for r, refund in zip(problem.data["requests"], refunds) if r["kind"] == "cancel" and refund is not None}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        _, refunds = _serve(data["records"], data["requests"], data["rules"]["late_rule"])
        return (2 * len(data["requests"]) + sum(r is None for r in refunds) + len(data["records"]["reservations"]) / 2
                + 2 * sum(data["rules"].values()) + 2 * (data["ambiguous"] is not None))

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
        guest = next(iter(records["guests"].values()))  # the caller comes first, before a companion
        replies = [call("find_guest", email=guest["email"])]
        _, refunds = _serve(records, data["requests"], data["rules"]["late_rule"])
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


# --- drawing the requests: a draft is a reservation to make and the request about it -------------------------


def _roles(rules: dict[str, bool]) -> tuple[int, int]:
    """How many refused and allowed requests a mixed problem needs for every clause in play to decide one: refused
    a non-refundable reservation, a late cancellation (without the late rule), a late shortening and a non-Gold
    upgrade; allowed a cancellation at the notice, a late one (with the late rule), a shortening at the notice and
    a Gold upgrade."""
    refusing = 1 + (not rules["late_rule"]) + rules["shortens"] + rules["upgrades"]
    allowing = 1 + rules["late_rule"] + rules["shortens"] + rules["upgrades"]
    return refusing, allowing


def _draft(rng: random.Random, city: str, kind: str, guests: dict[str, Any], staying: str, refundable: bool,
           days: int) -> dict[str, Any]:
    nights = rng.randint(2, 6)
    reservation: dict[str, Any] = {
        "booked_by": next(iter(guests)), "guest": staying, "city": city,
        "check_in": (TODAY + timedelta(days=days)).isoformat(), "nights": nights,
        "rate_cents": rng.randint(60, 320) * 100 + rng.choice((0, 50)), "refundable": refundable,
        "room": "standard", "status": "booked", "refund_cents": 0}
    request = {"kind": kind, "drop": rng.randint(1, nights - 1)} if kind == "shorten" else {"kind": kind}
    return {"reservation": reservation, "request": request}


def _kinds(rules: dict[str, bool]) -> tuple[str, ...]:
    return ("cancel",) + (("shorten",) if rules["shortens"] else ()) + (("upgrade",) if rules["upgrades"] else ())


def _natural_draft(rng: random.Random, city: str, guests: dict[str, Any], rules: dict[str, bool]) -> dict[str, Any]:
    """A request as guests make them: mostly for their own room, any notice up to 40 days, some near the limit."""
    staying = next(iter(guests)) if rng.random() < 0.7 else rng.choice(list(guests))
    days = rng.randint(0, 40) if rng.random() < 0.8 else rng.randint(0, NOTICE_DAYS + 1)
    return _draft(rng, city, rng.choice(_kinds(rules)), guests, staying, rng.random() < 0.6, days)


def _boundary_drafts(rng: random.Random, city: str, guests: dict[str, Any],
                     rules: dict[str, bool]) -> list[dict[str, Any]]:
    """The requests that can decide a clause: a cancellation or shortening a day either side of the notice limit
    (refundable, or not with notice enough), an upgrade of each guest's room."""
    drafts = []
    for kind in _kinds(rules):
        if kind == "upgrade":
            drafts += [_draft(rng, city, kind, guests, staying, rng.random() < 0.5, rng.randint(0, 40))
                       for staying in guests]
        else:
            drafts += [_draft(rng, city, kind, guests, rng.choice(list(guests)), refundable, days)
                       for refundable, days in ((True, NOTICE_DAYS - 1), (True, NOTICE_DAYS), (False, NOTICE_DAYS))]
    return drafts


def _draft_refund(guests: dict[str, Any], draft: dict[str, Any], rules: dict[str, bool],
                  blind: str | None = None) -> int | None:
    records = {"guests": guests, "reservations": {"draft": draft["reservation"]}}
    return _refund(records, {**draft["request"], "reservation": "draft"}, rules["late_rule"], blind)


def _decides(guests: dict[str, Any], draft: dict[str, Any], rules: dict[str, bool]) -> set[str]:
    """The clauses whose absence would change what the policy does with ``draft``'s request."""
    refund = _draft_refund(guests, draft, rules)
    return {blind for blind in _blinds(rules) if _draft_refund(guests, draft, rules, blind) != refund}


# --- the policy, and the policy with one clause left out or misread -------------------------------------------


def _blinds(rules: dict[str, bool]) -> tuple[str, ...]:
    """The clauses in play that a policy might leave out or misread, as :func:`_refund` reads ``blind``: refunding
    non-refundable rooms; the cancellation notice read as more than 2 days or as 1; a late cancellation refunded in
    full, or the other way (refused with the late rule, all nights but the first without it); every cancellation
    refunded all nights but the first; the same notice misread for shortened stays, or none asked, a shortening
    refunded nothing or the nights kept; upgrades for everyone, no one, or by the tier of the guest who booked.
    (Telling the cancellation codes is decided by the cancellation at the notice, always served.)"""
    return (("refundable", "cancel_strict", "cancel_loose", "late_full", "late_other", "late_always")
            + (("shorten_strict", "shorten_loose", "shorten_any", "shorten_free", "shorten_kept")
               if rules["shortens"] else ())
            + (("upgrade_all", "upgrade_none", "upgrade_booker") if rules["upgrades"] else ()))


def _notice_needed(kind: str, blind: str | None) -> int:
    """The days before check-in a cancellation or shortening needs, as the policy reads it (``blind``: misread)."""
    if blind == "shorten_any" and kind == "shorten":
        return 0
    return NOTICE_DAYS + {f"{kind}_strict": 1, f"{kind}_loose": -1}.get(blind or "", 0)


def _refund(records: Records, request: dict[str, Any], late_rule: bool, blind: str | None = None) -> int | None:
    """The refund the policy gives ``request`` (0 for an upgrade), or None when it refuses it (``blind``: the
    policy with that clause left out or misread, see :func:`_blinds`)."""
    reservation = records["reservations"][request["reservation"]]
    if request["kind"] == "upgrade":
        staying = reservation["booked_by"] if blind == "upgrade_booker" else reservation["guest"]
        gold = records["guests"][staying]["tier"] == "Gold"
        return 0 if (gold or blind == "upgrade_all") and blind != "upgrade_none" else None
    if not (reservation["refundable"] or blind == "refundable") or reservation["status"] != "booked":
        return None
    notice = (date.fromisoformat(reservation["check_in"]) - TODAY).days
    rate, nights = reservation["rate_cents"], reservation["nights"]
    if request["kind"] == "shorten":
        if notice < _notice_needed("shorten", blind):
            return None
        return {"shorten_free": 0, "shorten_kept": rate * (nights - request["drop"])}.get(blind or "",
                                                                                          rate * request["drop"])
    if notice >= _notice_needed("cancel", blind):
        return rate * (nights - (blind == "late_always"))
    if blind == "late_full":
        return rate * nights
    return rate * (nights - 1) if late_rule != (blind == "late_other") else None


def _serve(initial: Records, requests: list[dict[str, Any]], late_rule: bool,
           blind: str | None = None) -> tuple[Records, list[int | None]]:
    """The records after the policy (``blind``: misread, see :func:`_blinds`) serves ``requests``, and the refunds."""
    records = copy_data(initial)
    refunds = []
    for request in requests:
        refund = _refund(records, request, late_rule, blind)
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
            own = [rid for rid, r in records["reservations"].items() if r["booked_by"] == guest_id]
            return (f"guest {guest_id}: {guest['name']}, tier {guest['tier']}, reservations booked: "
                    f"{', '.join(own) or 'none'}"), None
    return f"error: no guest with e-mail {email[:100]!r}", None


def _get_reservation(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    found, error = _reservation(records, args)
    if found is None:
        return error, None
    staying = records["guests"][found["guest"]]
    return (f"reservation {args['reservation_id']}: hotel in {found['city']}, check-in {found['check_in']}, "
            f"{found['nights']} nights at {dollars(found['rate_cents'])} a night, "
            f"{'refundable' if found['refundable'] else 'non-refundable'} rate, {found['room']} room, "
            f"status {found['status']}, refunded so far {dollars(found['refund_cents'])}, guest staying "
            f"{staying['name']} ({found['guest']}, tier {staying['tier']})"), None


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
