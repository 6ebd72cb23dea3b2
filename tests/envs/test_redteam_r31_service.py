"""Red team, round 3 session 31 (service): policies blind to one clause of an env's stated policy.

Each scripted policy below applies an env's policy except one clause (or one side of it), computing its calls from
the records, and is replayed through the env's multi-turn API; "allow every change" leaves all refusals out.

service/subscription_changes (v2 -> v3, 100 seeds a level): ignoring the annual clause solved 0.50-0.67 of levels
2-5, the trial clause 0.49-0.64 of levels 2-5, the past-due clause 0.42-0.54 (levels 4-5), cancelling always at
renewal 0.50-0.74 and always now with a refund 0.59-0.78 (levels 3-5). v3 builds a request for each clause to decide
in every mixed problem: the blind policies now solve only the one-sided problems (0.03-0.17 a level).

service/clinic_appointments (v2 -> v3, 100 seeds a level): counting 12:00 as morning solved 0.60-0.90 of levels 0-5,
charging the fee at exactly 24 hours 0.93-0.97 and no fee 0.72-0.78 (levels 3-5), counting cancelled appointments
against the limit 0.79-0.93 (levels 2-5), ignoring the referrals 0.33-0.72, the limit per specialty 0.31-0.89 (0.45-0.89
counting only appointments held before the conversation), taking the latest slot 0.47-0.58 of levels 0-2, booking
whatever has a free slot 0.54-0.72 of levels 0-1. v3: 0.03-0.15 a level (60 seeds).
"""

from __future__ import annotations

import copy
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

from envs_support import blind_shares

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call

SUBSCRIPTIONS = make_source("service/subscription_changes")
CLINIC = make_source("service/clinic_appointments")

PLANS = {"basic": 800, "team": 1_500, "business": 2_600, "enterprise": 4_200}
PERIOD = {"monthly": 30, "annual": 365}
# blind part -> the first level where it is in play ("allow every change": the refusals all left out)
SUB_BLIND = {"trial": 0, "annual": 2, "cooling off never": 3, "cooling off always": 3, "past due": 4,
             "allow every change": 0}


def _prorate(sub: dict[str, Any], per_seat: int, seats: int, today: date) -> int:
    remaining = (date.fromisoformat(sub["end"]) - today).days
    per_period = per_seat * (10 if sub["billing"] == "annual" else 1)
    return int(Fraction(per_period * seats * remaining, PERIOD[sub["billing"]]) + Fraction(1, 2))


def _subscription_policy(problem: Any, blind: str | None) -> list[str]:
    """The calls and the answer of the billing policy applied without the part ``blind`` (None: all of it)."""
    data, rules = problem.data, problem.data["rules"]
    records = copy.deepcopy(data["records"])
    today = date.fromisoformat(records["today"])
    replies, net = [], 0
    for request in data["requests"]:
        sid = request["sub"]
        sub = records["subscriptions"][sid]
        amount = 0
        if request["kind"] == "cancel":
            fresh = (today - date.fromisoformat(sub["start"])).days <= 14
            if blind == "cooling off never":
                fresh = False
            elif blind == "cooling off always":
                fresh = True
            if fresh:
                amount = -_prorate(sub, PLANS[sub["plan"]], sub["seats"], today)
                sub["status"] = "cancelled"
                replies.append(call("cancel_subscription", subscription_id=sid, when="now"))
            else:
                replies.append(call("cancel_subscription", subscription_id=sid, when="renewal"))
        else:
            if sub["status"] == "trial" and blind not in ("trial", "allow every change"):
                continue
            if rules["past_due"] and sub["status"] == "past_due" and blind not in ("past due", "allow every change"):
                continue
            up = request["kind"] == "plan" and PLANS[request["plan"]] > PLANS[sub["plan"]]
            more = request["kind"] == "seats" and request["seats"] > 0
            if rules["annual"] and sub["billing"] == "annual" and not (up or more) and blind not in (
                    "annual", "allow every change"):
                continue
            if request["kind"] == "plan":
                if up:
                    amount = _prorate(sub, PLANS[request["plan"]] - PLANS[sub["plan"]], sub["seats"], today)
                    sub["plan"] = request["plan"]
                replies.append(call("change_plan", subscription_id=sid, plan=request["plan"],
                                    when="now" if up else "renewal"))
            else:
                seats = sub["seats"] + request["seats"]
                if more:
                    amount = _prorate(sub, PLANS[sub["plan"]], request["seats"], today)
                    sub["seats"] = seats
                replies.append(call("change_seats", subscription_id=sid, seats=seats, when="now" if more else "renewal"))
        if amount:
            replies.append(call("charge" if amount > 0 else "refund", subscription_id=sid, amount_cents=abs(amount)))
        net += amount
    sign = "-" if net < 0 else ""
    return [*replies, f"{sign}${abs(net) // 100}.{abs(net) % 100:02d}"]


def test_subscriptions_r31_a_policy_blind_to_one_clause_fails_every_mixed_problem() -> None:
    shares = blind_shares(SUBSCRIPTIONS, _subscription_policy, SUB_BLIND, range(6), 30)
    assert all(share <= 0.3 for share in shares.values()), {k: v for k, v in shares.items() if v > 0.3}


GENERAL = "general practice"
# blind part -> the first level where it is in play
CLINIC_BLIND = {"latest slot": 0, "noon is morning": 0, "no limit per specialty": 0,
                "limit counts only earlier appointments": 0, "no referrals": 1,
                "cancelled still count": 2, "no late fee": 3, "fee at exactly 24 hours": 3,
                "allow every booking": 0}  # "allow every booking": the referral and limit refusals left out


def _clinic_policy(problem: Any, blind: str | None) -> list[str]:
    """The calls and the answer of the scheduling policy applied without the part ``blind`` (None: all of it)."""
    data, rules = problem.data, problem.data["rules"]
    records = copy.deepcopy(data["records"])
    now = datetime.fromisoformat(records["now"])
    patient_id = next(iter(records["patients"]))
    patient = records["patients"][patient_id]
    cancelled: set[str] = set()  # the specialties of appointments cancelled in the conversation
    replies, served = [], []
    for number, request in enumerate(data["requests"], 1):
        if request["kind"] == "cancel":
            slot = records["slots"][request["slot"]]
            if slot["patient"] != patient_id:
                continue
            start = datetime.fromisoformat(slot["start"])
            replies.append(call("cancel_slot", slot_id=request["slot"]))
            late = start - now <= timedelta(hours=24) if blind == "fee at exactly 24 hours" else \
                start - now < timedelta(hours=24)
            if rules["late_fee"] and late and blind != "no late fee":
                replies.append(call("charge_fee", patient_id=patient_id, amount_cents=4_000))
            slot["patient"] = None
            cancelled.add(records["doctors"][slot["doctor"]]["specialty"])
            served.append(str(number))
            continue
        specialty = request["specialty"]
        free = blind == "allow every booking"
        if rules["referrals"] and specialty != GENERAL and specialty not in patient["referrals"] and \
                blind != "no referrals" and not free:
            continue
        source = data["records"] if blind == "limit counts only earlier appointments" else records
        held = any(s["patient"] == patient_id and records["doctors"][s["doctor"]]["specialty"] == specialty
                   for s in source["slots"].values())
        if blind == "cancelled still count" and specialty in cancelled:
            held = True
        if held and blind != "no limit per specialty" and not free:
            continue
        fits = []
        for slot_id, slot in records["slots"].items():
            start = datetime.fromisoformat(slot["start"])
            morning = start.hour < 12 or (blind == "noon is morning" and start.hour == 12 and start.minute == 0)
            if slot["patient"] is None and records["doctors"][slot["doctor"]]["specialty"] == specialty and \
                    slot["start"][:10] == request["date"] and morning == (request["half"] == "morning") and start > now:
                fits.append((slot["start"], slot_id))
        if not fits:
            continue
        fits.sort()
        slot_id = fits[-1][1] if blind == "latest slot" else fits[0][1]
        records["slots"][slot_id]["patient"] = patient_id
        replies.append(call("book_slot", slot_id=slot_id, patient_id=patient_id))
        served.append(str(number))
    return [*replies, ", ".join(served) or "none"]


def test_clinic_r31_a_policy_blind_to_one_part_fails_every_mixed_problem() -> None:
    shares = blind_shares(CLINIC, _clinic_policy, CLINIC_BLIND, range(5), 20)
    assert all(share <= 0.4 for share in shares.values()), {k: v for k, v in shares.items() if v > 0.4}
