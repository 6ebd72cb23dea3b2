"""Red team, round 3 session 35: service/hotel_reservations v3, every clause decides every mixed problem.

Each policy below follows the reservations policy except one clause, left out or misread one way, and is replayed
through the env's multi-turn API. Version 2 drew requests as they fell, so few problems had a request that one
clause alone decided: on 40 seeds a level, reading the notice as more than 2 days solved 0.95-1.00 of levels 0-5
for cancellations and 0.88-1.00 for shortened stays, as at least 1 day 0.55-0.95 and 0.62-0.95, shortening at any
time 0.42-0.88, never upgrading 0.68-0.95 and upgrading everyone 0.65-0.80, refunding non-refundable rooms
0.42-0.57, a late cancellation refunded in full or the other way 0.35-0.88, shortenings refunded nothing 0.47-0.75
or the nights kept 0.57-0.82, every cancellation less the first night 0.23-0.50, not telling the cancellation codes
0.05-0.38. Version 3 puts shortened stays in play from level 1, upgrades (with a companion's rooms, whose own tier
decides) from level 2 and late refunds from level 3, and gives every mixed problem a request that each clause in
play decides: each of those policies, and one upgrading by the tier of the guest who booked, now solves only
problems whose requests are all on one side of the policy, and one-sided problems decide what requests on their
side can: 0.00-0.20 a level on 40 seeds (0.20: refunding non-refundable rooms, shortening late, upgrading everyone at
level 4, whose seeds 0-39 drew 8 problems all allowed, which no refusal can fail).
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

from envs_support import solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call, dollars

HOTEL = make_source("service/hotel_reservations")

# blind -> the first level where its clause is in play
BLINDS = {"non-refundable refunded": 0, "cancel notice > 2 days": 0, "cancel notice >= 1 day": 0,
          "late cancel in full": 0, "late cancel the other way": 0, "every cancel less the first night": 0,
          "no cancellation code": 0, "shorten notice > 2 days": 1, "shorten notice >= 1 day": 1,
          "shorten any time": 1, "shorten without refund": 1, "shorten refunds the nights kept": 1,
          "upgrade everyone": 2, "upgrade no one": 2, "upgrade by the booker's tier": 2}


def _refund(records: Any, request: Any, late_rule: bool, blind: str | None) -> int | None:
    """The refund of ``request`` under the policy misread as ``blind`` (None: refused), from the records alone."""
    reservation = records["reservations"][request["reservation"]]
    if request["kind"] == "upgrade":
        staying = reservation["booked_by"] if blind == "upgrade by the booker's tier" else reservation["guest"]
        gold = records["guests"][staying]["tier"] == "Gold"
        return 0 if (gold or blind == "upgrade everyone") and blind != "upgrade no one" else None
    if reservation["status"] != "booked" or not (reservation["refundable"] or blind == "non-refundable refunded"):
        return None
    notice = (date.fromisoformat(reservation["check_in"]) - date.fromisoformat(records["today"])).days
    rate, nights = reservation["rate_cents"], reservation["nights"]
    if request["kind"] == "shorten":
        if notice < {"shorten notice > 2 days": 3, "shorten notice >= 1 day": 1, "shorten any time": 0}.get(blind, 2):
            return None
        return {"shorten without refund": 0, "shorten refunds the nights kept": rate * (nights - request["drop"])}.get(
            blind, rate * request["drop"])
    if notice >= {"cancel notice > 2 days": 3, "cancel notice >= 1 day": 1}.get(blind, 2):
        return rate * (nights - 1) if blind == "every cancel less the first night" else rate * nights
    if blind == "late cancel in full":
        return rate * nights
    return rate * (nights - 1) if late_rule != (blind == "late cancel the other way") else None


def _policy(problem: Any, blind: str | None) -> list[str]:
    """The replies of the reservations policy with the part ``blind`` misread (None: all of it)."""
    data = problem.data
    records = copy.deepcopy(data["records"])
    caller = next(g for g in records["guests"].values() if g["email"] in data["user"][0])
    replies, total = [call("find_guest", email=caller["email"])], 0
    for index, request in enumerate(data["requests"]):
        rid = request["reservation"]
        reservation = records["reservations"][rid]
        if index == data["ambiguous"]:
            replies.append("You have two reservations there: which check-in date?")
        replies.append(call("get_reservation", reservation_id=rid))
        refund = _refund(records, request, data["rules"]["late_rule"], blind)
        message = "The policy does not allow that, sorry."
        if refund is not None:
            total += refund
            reservation["refund_cents"] += refund
            if request["kind"] == "cancel":
                reservation["status"] = "cancelled"
                replies.append(call("cancel_reservation", reservation_id=rid, refund_cents=refund))
                message = "Cancelled." if blind == "no cancellation code" else \
                    f"Cancelled; your cancellation code is {records['codes'][rid]}."
            elif request["kind"] == "shorten":
                reservation["nights"] -= request["drop"]
                replies.append(call("shorten_stay", reservation_id=rid, nights=reservation["nights"],
                                    refund_cents=refund))
                message = "Your stay is shortened."
            else:
                reservation["room"] = "deluxe"
                replies.append(call("upgrade_room", reservation_id=rid))
                message = "Upgraded to deluxe."
        replies.append(f"{message} Anything else?")
    return [*replies, dollars(total)]


def _one_sided(problem: Any) -> bool:
    served = {_refund(problem.data["records"], r, problem.data["rules"]["late_rule"], None) is not None
              for r in problem.data["requests"]}
    return len(served) == 1


def test_no_policy_blind_to_one_clause_solves_more_than_the_one_sided_problems() -> None:
    # 60 seeds a level: the one-sided problems alone (a tenth all allowed, which no refusal clause can fail) drew 7
    # of seeds 0-29 at level 4, so 30 seeds would measure the seeds' luck rather than the generator
    seeds = 60
    for level in range(5):
        wins = dict.fromkeys(BLINDS, 0)
        for seed in range(seeds):
            problem = HOTEL.sample(level, seed)
            assert solves(HOTEL, problem, _policy(problem, None)), (level, seed)
            for blind, first in BLINDS.items():
                if level >= first and solves(HOTEL, problem, _policy(problem, blind)):
                    assert _one_sided(problem), (level, seed, blind)  # every mixed problem fails every blind
                    wins[blind] += 1
        assert all(won / seeds <= 0.2 for won in wins.values()), (level, wins)


def test_the_reference_plan_solves_every_level() -> None:
    for level in range(7):
        for seed in range(10):
            problem = HOTEL.sample(level, seed)
            assert solves(HOTEL, problem, HOTEL.plan(problem)), (level, seed)
