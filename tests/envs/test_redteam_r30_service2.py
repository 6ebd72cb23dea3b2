"""Red team, round 3 session 30 (service2): policies blind to one part of an env's stated rules.

service/airline_changes: each scripted policy below applies the fare rules except one part, computing its calls
from the records, and is replayed through the env's multi-turn API. In v2 each booking's request was drawn as it
fell, so most parts decided few problems: on 60 seeds a level, "charge no fare difference" solved 0.40-0.63,
"no change fee" 0.42-0.85, "never refund a negative difference" 0.78-0.83, "refund every negative difference"
0.65-0.92, "a fee on same-date changes too" 0.92 (levels 2-4), "no 24-hour full refund" 0.73-0.78, "refund a
standard cancellation in full" 0.92, "refund basic cancellations less the fee" 0.93-0.95 (levels 3-4), "ignore the
2-hour cutoff" 0.28 (level 4). v3 builds a booking for each part to decide in every mixed problem: the blind
policies now solve only the one-sided problems (0.00-0.06 a level on 100 seeds).
"""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from typing import Any

from envs_support import solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call

AIRLINE = make_source("service/airline_changes")
CHANGE_FEE, CANCEL_FEE = 7_500, 10_000
# blind part -> the first level where it is in play
AIRLINE_BLIND = {"basic fares change": 0, "no change fee": 0, "no fare difference": 0, "flex gets nothing back": 0,
                 "standard refunded too": 0, "free upgrades": 1, "fee on the same date": 2, "no 24-hour refund": 3,
                 "standard cancels in full": 3, "basic cancels less the fee": 3, "no cutoff": 4}


def _airline_policy(problem: Any, blind: str | None) -> list[str]:
    """The calls and the answer of the fare rules applied without the part ``blind`` (None: all of them)."""
    data, rules = problem.data, problem.data["rules"]
    records = copy.deepcopy(data["records"])
    now = datetime.fromisoformat(records["now"])
    replies, net = [], 0
    for request in data["requests"]:
        reference = request["booking"]
        booking = records["bookings"][reference]
        flight = records["flights"][booking["flight"]]
        fare = booking["fare"]
        if request["kind"] != "cancel":
            if fare == "basic" and blind != "basic fares change":
                continue
            if rules["cutoff"] and blind != "no cutoff" and datetime.fromisoformat(flight["departure"]) - now < \
                    timedelta(hours=2):
                continue
        if request["kind"] == "change":
            new = records["flights"][request["flight"]]
            difference = 0 if blind == "no fare difference" else new[f"{booking['cabin']}_cents"] - booking["paid_cents"]
            same_day = rules["same_day"] and blind != "fee on the same date" and \
                new["departure"][:10] == flight["departure"][:10]
            fee = CHANGE_FEE if fare == "standard" and not same_day and blind != "no change fee" else 0
            refunded = fare == "standard" if blind == "standard refunded too" else \
                False if blind == "flex gets nothing back" else fare == "flex"
            amount = fee + (difference if difference > 0 or refunded or (blind == "standard refunded too"
                                                                        and fare == "flex") else 0)
            replies.append(call("change_flight", booking=reference, flight=request["flight"]))
        elif request["kind"] == "upgrade":
            amount = 0 if blind == "free upgrades" else flight["business_cents"] - flight["economy_cents"]
            replies.append(call("change_cabin", booking=reference, cabin="business"))
        else:
            recent = blind != "no 24-hour refund" and now - datetime.fromisoformat(booking["booked_at"]) < \
                timedelta(hours=24)
            paid = booking["paid_cents"]
            if recent or fare == "flex" or (fare == "standard" and blind == "standard cancels in full"):
                refund = paid
            elif fare == "standard" or blind == "basic cancels less the fee":
                refund = max(0, paid - CANCEL_FEE)
            else:
                refund = 0
            amount = -refund
            replies.append(call("cancel_booking", booking=reference))
        if amount:
            replies.append(call("charge" if amount > 0 else "refund", booking=reference, amount_cents=abs(amount)))
            booking["paid_cents"] += amount
        net += amount
    sign = "-" if net < 0 else ""
    return [*replies, f"{sign}${abs(net) // 100}.{abs(net) % 100:02d}"]


def test_airline_r30_a_policy_blind_to_one_fare_rule_fails_every_mixed_problem() -> None:
    seeds = 12
    for level in range(5):
        wins = dict.fromkeys(AIRLINE_BLIND, 0)
        for seed in range(seeds):
            problem = AIRLINE.sample(level, seed)
            assert solves(AIRLINE, problem, _airline_policy(problem, None)), (level, seed)
            for blind, first_level in AIRLINE_BLIND.items():
                if level >= first_level and solves(AIRLINE, problem, _airline_policy(problem, blind)):
                    wins[blind] += 1
        for blind, first_level in AIRLINE_BLIND.items():
            if level >= first_level:
                assert wins[blind] / seeds <= 0.2, (level, blind, wins[blind])
