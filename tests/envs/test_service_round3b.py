"""New service envs (round 3b): oracles serve by the policy; serving everything or nothing rarely pays."""

from __future__ import annotations

import copy

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.service import access_requests as ar
from palaestra.envs.service import airline_changes as ac
from palaestra.envs.service import bank_transfers as bt
from palaestra.envs.service import clinic_appointments as ca
from palaestra.envs.service import library_loans as ll
from palaestra.envs.service import subscription_changes as sc
from palaestra.envs.service.common import call, cents_of, dollars, ledger_net

BANK = make_source("service/bank_transfers")


def play(source, problem, replies: list[str]):
    state = source.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = source.advance(problem, state, source.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


def test_bank_oracle_serves_by_the_policy_at_every_level_and_replays() -> None:
    for level in range(6):
        problem = BANK.sample(level, 11)
        assert play(BANK, problem, BANK.plan(problem)).verdict.correct, level
        assert palaestra.score(problem, [BANK.format_answer(r) for r in BANK.plan(problem)]).correct


def _bank_everything(problem) -> list[str]:
    requests = problem.data["requests"]
    replies = [call("transfer", from_account=r["from"], to_account=r["to"], amount_cents=r["amount_cents"],
                    credited_cents=r["credited_cents"]) for r in requests]
    return [*replies, ", ".join(str(n) for n in range(1, len(requests) + 1))]


def test_bank_serving_everything_or_nothing_rarely_pays() -> None:
    everything = nothing = 0
    for seed in range(40):
        problem = BANK.sample(3, seed)
        everything += play(BANK, problem, _bank_everything(problem)).verdict.correct
        nothing += play(BANK, problem, ["none"]).verdict.correct
    assert everything <= 8 and nothing <= 8, (everything, nothing)


def test_bank_a_conversion_rounded_up_is_wrong_even_with_the_right_answer() -> None:
    for seed in range(80):
        problem = BANK.sample(2, seed)
        records = problem.data["records"]
        converted = [r for r in problem.data["requests"]
                     if records["accounts"][r["from"]]["currency"] != records["accounts"][r["to"]]["currency"]]
        if converted and problem.answer != "none" and converted[0]["credited_cents"] in [
                problem.data["requests"][int(n) - 1]["credited_cents"] for n in problem.answer.split(", ")]:
            break
    plan = BANK.plan(problem)
    request = converted[0]
    honest = call("transfer", from_account=request["from"], to_account=request["to"],
                  amount_cents=request["amount_cents"], credited_cents=request["credited_cents"])
    rounded_up = honest.replace(f'"credited_cents": {request["credited_cents"]}',
                                f'"credited_cents": {request["credited_cents"] + 1}')
    outcome = play(BANK, problem, [rounded_up if reply == honest else reply for reply in plan])
    assert not outcome.verdict.correct and "records" in outcome.verdict.feedback


def test_bank_hand_checked_rules() -> None:
    assert bt._credited(10_000, "USD", "EUR") == 9_150
    assert bt._credited(333, "EUR", "GBP") == 285  # 285.048 rounded down
    records = {"accounts": {"A": {"owner": "K", "currency": "USD", "status": "open", "balance_cents": 50_000,
                                  "holds": [10_000]},
                            "B": {"owner": "X", "currency": "USD", "status": "open", "balance_cents": 0, "holds": []}},
               "transfers": [{"date": bt.TODAY, "from": "A", "to": "B", "amount_cents": 150_000},
                             {"date": bt.YESTERDAY, "from": "A", "to": "B", "amount_cents": 190_000}]}
    rules = {"limit": True, "frozen": True}
    request = {"from": "A", "to": "B", "amount_cents": 40_000, "credited_cents": 40_000}
    assert bt._allowed(records, request, rules)  # equal to the available balance; within the day's limit
    assert not bt._allowed(records, {**request, "amount_cents": 40_001}, rules)  # over what the hold leaves
    records["transfers"][0]["amount_cents"] = 170_000  # today's 1,700.00 + 400.00 > 2,000.00
    assert not bt._allowed(records, request, rules)


def test_bank_functions_do_not_enforce_the_policy() -> None:
    problem = BANK.sample(1, 3)
    own = [a for a, acc in problem.data["records"]["accounts"].items() if acc["name"] != "external"]
    overdraft = call("transfer", from_account=own[0], to_account=own[1], amount_cents=10**9, credited_cents=10**9)
    outcome = play(BANK, problem, [overdraft])
    assert outcome.observation.count("transferred") == 1  # an overdraft is policy, not physics
    outcome = play(BANK, problem, [call("transfer", from_account=own[0], to_account=own[0], amount_cents=5,
                                        credited_cents=5)])
    assert "same account" in outcome.observation


def test_bank_answers_in_other_spellings() -> None:
    for seed in range(6):
        problem = BANK.sample(3, seed)
        for spelled in BANK.spellings(problem):
            assert BANK.judge(problem, spelled).correct, spelled
        for wrong in BANK.corruptions(problem, None):
            assert not BANK.judge(problem, wrong).correct, wrong


LIBRARY = make_source("service/library_loans")


def test_library_oracle_serves_by_the_policy_at_every_level_and_replays() -> None:
    for level in range(6):
        problem = LIBRARY.sample(level, 5)
        assert play(LIBRARY, problem, LIBRARY.plan(problem)).verdict.correct, level
        assert palaestra.score(problem, [LIBRARY.format_answer(r) for r in LIBRARY.plan(problem)]).correct


def _library_everything(problem) -> list[str]:
    """Renew and lend everything asked, with the right dates, charging no fines and ignoring the policy."""
    data = problem.data
    records = data["records"]
    patron_id = next(iter(records["patrons"]))
    replies = []
    for request in data["requests"]:
        if request["kind"] == "renew":
            kind = records["items"][records["loans"][request["loan"]]["item"]]["type"]
            due = (ll.TODAY + ll.timedelta(days=ll.LOAN_DAYS[kind])).isoformat()
            replies.append(call("renew_loan", loan_id=request["loan"], due_date=due))
        else:
            due = (ll.TODAY + ll.timedelta(days=ll.LOAN_DAYS[records["items"][request["item"]]["type"]])).isoformat()
            replies.append(call("checkout", patron_id=patron_id, item_id=request["item"], due_date=due))
    return [*replies, ", ".join(str(n) for n in range(1, len(data["requests"]) + 1))]


def test_library_serving_everything_or_nothing_rarely_pays() -> None:
    everything = nothing = 0
    for seed in range(40):
        problem = LIBRARY.sample(2, seed)
        everything += play(LIBRARY, problem, _library_everything(problem)).verdict.correct
        nothing += play(LIBRARY, problem, ["none"]).verdict.correct
    assert everything <= 8 and nothing <= 8, (everything, nothing)


def test_library_an_overdue_renewal_without_its_fine_is_wrong() -> None:
    problem = next(p for p in (LIBRARY.sample(3, s) for s in range(80))
                   if any(c.startswith('<tool_call>{"name": "charge_fine"') for c in LIBRARY.plan(p)))
    plan = [reply for reply in LIBRARY.plan(problem) if '"charge_fine"' not in reply]
    outcome = play(LIBRARY, problem, plan)
    assert not outcome.verdict.correct and "records" in outcome.verdict.feedback


def test_library_hand_checked_fines_and_holds() -> None:
    records = {"today": "2024-10-15", "patrons": {"P1": {"fines_cents": 500}},
               "items": {"I1": {"type": "dvd", "holds": []}, "I2": {"type": "book", "holds": ["P1", "P2"]},
                         "I3": {"type": "book", "holds": ["P2", "P1"]}},
               "loans": {"L001": {"patron": "P1", "item": "I1", "due": "2024-10-01", "renewals": 1}}}
    assert ll._fine(records, records["loans"]["L001"]) == 1_000  # 14 days * $1.00, capped at $10.00
    records["loans"]["L001"]["due"] = "2024-10-12"
    assert ll._fine(records, records["loans"]["L001"]) == 300
    rules = {"fines": True, "limits": True}
    assert ll._allowed(records, "P1", {"kind": "renew", "loan": "L001"}, rules)
    assert ll._allowed(records, "P1", {"kind": "borrow", "item": "I2"}, rules)  # first in line; fines of exactly $5
    assert not ll._allowed(records, "P1", {"kind": "borrow", "item": "I3"}, rules)  # second in line
    records["patrons"]["P1"]["fines_cents"] = 501
    assert not ll._allowed(records, "P1", {"kind": "borrow", "item": "I2"}, rules)


SUBSCRIPTIONS = make_source("service/subscription_changes")


def test_subscription_oracle_serves_by_the_policy_at_every_level_and_replays() -> None:
    for level in range(6):
        problem = SUBSCRIPTIONS.sample(level, 2)
        assert play(SUBSCRIPTIONS, problem, SUBSCRIPTIONS.plan(problem)).verdict.correct, level
        assert palaestra.score(problem, [SUBSCRIPTIONS.format_answer(r) for r in SUBSCRIPTIONS.plan(problem)]).correct


def test_subscription_serving_everything_or_nothing_rarely_pays() -> None:
    """Everything: every request served with the right prorated amounts, whatever the trial/annual/past-due rules."""
    everything = nothing = 0
    for seed in range(40):
        problem = SUBSCRIPTIONS.sample(4, seed)
        records = copy.deepcopy(problem.data["records"])
        replies = [call(name, **arguments) for request in problem.data["requests"]
                   for name, arguments in sc._serve(records, request, problem.data["rules"])]
        everything += play(SUBSCRIPTIONS, problem, [*replies, dollars(ledger_net(records["ledger"]))]).verdict.correct
        nothing += play(SUBSCRIPTIONS, problem, ["$0.00"]).verdict.correct
    assert everything <= 8 and nothing <= 8, (everything, nothing)


def test_subscription_hand_checked_proration() -> None:
    monthly = {"end": "2024-11-27", "billing": "monthly"}  # 7 days left of 30
    assert sc._prorated(monthly, 800, 1, sc.TODAY) == 187  # 186.67 rounds up
    assert sc._prorated(monthly, 1_500 - 800, 3, sc.TODAY) == 490
    annual = {"end": "2025-02-28", "billing": "annual"}  # 100 days left of 365; 10 months' price a year
    assert sc._prorated(annual, 4_200, 2, sc.TODAY) == 23_014  # 23013.70
    assert dollars(-1_234) == "-$12.34" and cents_of("-$12.34") == -1_234


def test_subscription_a_charge_rounded_down_is_wrong_even_with_the_right_total() -> None:
    problem = next(p for p in (SUBSCRIPTIONS.sample(2, s) for s in range(60))
                   if sum('"charge"' in r for r in SUBSCRIPTIONS.plan(p)) >= 1)
    plan = SUBSCRIPTIONS.plan(problem)
    index = next(i for i, r in enumerate(plan) if '"charge"' in r)
    amount = int(plan[index].split('"amount_cents": ')[1].split("}")[0])
    plan[index] = plan[index].replace(f'"amount_cents": {amount}', f'"amount_cents": {amount - 1}')  # rounded down
    outcome = play(SUBSCRIPTIONS, problem, plan)
    assert not outcome.verdict.correct
    assert SUBSCRIPTIONS.judge(problem, problem.answer).correct
    assert SUBSCRIPTIONS.judge(problem, problem.answer.replace("$", "") + " dollars").correct
    assert not SUBSCRIPTIONS.judge(problem, f"{problem.answer} or $0.00").correct


AIRLINE = make_source("service/airline_changes")


def test_airline_oracle_serves_by_the_rules_at_every_level_and_replays() -> None:
    for level in range(6):
        problem = AIRLINE.sample(level, 4)
        assert play(AIRLINE, problem, AIRLINE.plan(problem)).verdict.correct, level
        assert palaestra.score(problem, [AIRLINE.format_answer(r) for r in AIRLINE.plan(problem)]).correct


def test_airline_serving_everything_or_nothing_rarely_pays() -> None:
    """Everything: every request served with the right amounts, whatever the basic-fare and cutoff rules say."""
    everything = nothing = 0
    for seed in range(40):
        problem = AIRLINE.sample(4, seed)
        records = copy.deepcopy(problem.data["records"])
        replies = [call(name, **arguments) for request in problem.data["requests"]
                   for name, arguments in ac._serve(records, request, problem.data["rules"])]
        everything += play(AIRLINE, problem, [*replies, dollars(ledger_net(records["ledger"]))]).verdict.correct
        nothing += play(AIRLINE, problem, ["$0.00"]).verdict.correct
    assert everything <= 8 and nothing <= 8, (everything, nothing)


def test_airline_hand_checked_fees() -> None:
    records = {"now": "2024-05-02T09:00", "flights": {
        "A1": {"origin": "LIS", "destination": "OSL", "departure": "2024-05-03T10:00", "economy_cents": 20_000,
               "business_cents": 50_000},
        "A2": {"origin": "LIS", "destination": "OSL", "departure": "2024-05-03T18:00", "economy_cents": 25_000,
               "business_cents": 60_000},
        "A3": {"origin": "LIS", "destination": "OSL", "departure": "2024-05-04T08:00", "economy_cents": 15_000,
               "business_cents": 40_000}},
        "bookings": {"R": {"flight": "A1", "cabin": "economy", "fare": "standard", "paid_cents": 20_000,
                           "booked_at": "2024-04-01T10:00", "status": "confirmed"}}, "ledger": []}
    rules = {"upgrades": True, "same_day": True, "cancels": True, "cutoff": True}
    same_day = copy.deepcopy(records)
    ac._serve(same_day, {"kind": "change", "booking": "R", "flight": "A2"}, rules)
    assert same_day["ledger"] == [{"booking": "R", "kind": "charge", "amount_cents": 5_000}]  # no fee; +$50.00
    later = copy.deepcopy(records)
    ac._serve(later, {"kind": "change", "booking": "R", "flight": "A3"}, rules)
    assert later["ledger"] == [{"booking": "R", "kind": "charge", "amount_cents": 7_500}]  # fee; no refund of $50
    records["bookings"]["R"]["fare"] = "flex"
    ac._serve(records, {"kind": "change", "booking": "R", "flight": "A3"}, rules)
    assert records["ledger"] == [{"booking": "R", "kind": "refund", "amount_cents": 5_000}]
    records["flights"]["A3"]["departure"] = "2024-05-02T10:59"  # 1 h 59 min away: too late to change
    assert not ac._allowed(records, {"kind": "upgrade", "booking": "R"}, rules)
    records["flights"]["A3"]["departure"] = "2024-05-02T11:00"  # exactly 2 h: allowed
    assert ac._allowed(records, {"kind": "upgrade", "booking": "R"}, rules)


ACCESS = make_source("service/access_requests")


def test_access_oracle_serves_by_the_policy_at_every_level_and_replays() -> None:
    for level in range(6):
        problem = ACCESS.sample(level, 8)
        assert play(ACCESS, problem, ACCESS.plan(problem)).verdict.correct, level
        assert palaestra.score(problem, [ACCESS.format_answer(r) for r in ACCESS.plan(problem)]).correct


def test_access_granting_everything_or_nothing_rarely_pays() -> None:
    everything = nothing = 0
    for seed in range(40):
        problem = ACCESS.sample(3, seed)
        records = copy.deepcopy(problem.data["records"])
        replies = [call("grant_role", person_id=r["person"], role=r["role"],
                        expires=ar._grant(records, r, problem.data["rules"])) for r in problem.data["requests"]]
        count = len(problem.data["requests"])
        everything += play(ACCESS, problem, [*replies, ", ".join(str(n) for n in range(1, count + 1))]).verdict.correct
        nothing += play(ACCESS, problem, ["none"]).verdict.correct
    assert everything <= 8 and nothing <= 8, (everything, nothing)


def test_access_hand_checked_rules() -> None:
    records = {"today": "2024-08-05", "people": {
        "E1": {"type": "employee", "status": "active", "manager": "E9", "roles": {"payments-create": None}},
        "E2": {"type": "contractor", "status": "active", "manager": "E9", "roles": {}},
        "E3": {"type": "employee", "status": "on leave", "manager": "E9", "roles": {}}},
        "approvals": [{"person": "E1", "role": "db-admin", "approver": "E8"},
                      {"person": "E1", "role": "prod-admin", "approver": "E9"},
                      {"person": "E2", "role": "prod-admin", "approver": "E9"}]}
    rules = {"approvals": True, "contractors": True, "duties": True}
    assert ar._allowed(records, {"person": "E1", "role": "prod-admin"}, rules)
    assert not ar._allowed(records, {"person": "E1", "role": "db-admin"}, rules)  # approved by someone else
    assert not ar._allowed(records, {"person": "E2", "role": "prod-admin"}, rules)  # a contractor
    assert not ar._allowed(records, {"person": "E3", "role": "wiki-edit"}, rules)  # on leave
    assert not ar._allowed(records, {"person": "E1", "role": "payments-approve"}, rules)  # separation of duties
    assert ar._grant(records, {"person": "E2", "role": "wiki-edit"}, rules) == "2024-09-04"
    assert ar._grant(records, {"person": "E1", "role": "prod-admin"}, rules) == "2024-11-03"
    assert ar._grant(records, {"person": "E1", "role": "analytics"}, rules) == "never"


CLINIC = make_source("service/clinic_appointments")


def test_clinic_oracle_serves_by_the_policy_at_every_level_and_replays() -> None:
    for level in range(6):
        problem = CLINIC.sample(level, 6)
        assert play(CLINIC, problem, CLINIC.plan(problem)).verdict.correct, level
        assert palaestra.score(problem, [CLINIC.format_answer(r) for r in CLINIC.plan(problem)]).correct


def test_clinic_booking_everything_or_nothing_rarely_pays() -> None:
    """Everything: each booking in the earliest fitting free slot and each cancellation done, whatever the policy."""
    everything = nothing = 0
    for seed in range(40):
        problem = CLINIC.sample(3, seed)
        records = copy.deepcopy(problem.data["records"])
        patient_id = next(iter(records["patients"]))
        replies = []
        for request in problem.data["requests"]:
            if request["kind"] == "cancel" or ca._candidates(records, request):
                replies += [call(n, **a) for n, a in ca._serve(records, patient_id, request, problem.data["rules"])]
        count = len(problem.data["requests"])
        everything += play(CLINIC, problem, [*replies, ", ".join(str(n) for n in range(1, count + 1))]).verdict.correct
        nothing += play(CLINIC, problem, ["none"]).verdict.correct
    assert everything <= 8 and nothing <= 8, (everything, nothing)


def test_clinic_hand_checked_rules() -> None:
    records = {"now": "2024-06-10T09:00", "patients": {"N1": {"referrals": [], "fees_cents": 0}},
               "doctors": {"D1": {"specialty": "general practice"}, "D2": {"specialty": "dermatology"}},
               "slots": {"a": {"doctor": "D1", "start": "2024-06-11T12:00", "patient": None},
                         "b": {"doctor": "D1", "start": "2024-06-11T11:30", "patient": "N9"},
                         "c": {"doctor": "D1", "start": "2024-06-11T14:00", "patient": None},
                         "d": {"doctor": "D2", "start": "2024-06-11T09:00", "patient": "N1"},
                         "e": {"doctor": "D2", "start": "2024-06-11T10:00", "patient": None}}}
    rules = {"referrals": True, "cancels": True, "late_fee": True}
    morning = {"kind": "book", "specialty": "general practice", "date": "2024-06-11", "half": "morning"}
    afternoon = {**morning, "half": "afternoon"}
    assert not ca._allowed(records, "N1", morning, rules)  # 11:30 is taken; 12:00 is afternoon
    assert ca._candidates(records, afternoon) == ["a", "c"]
    skin = {"kind": "book", "specialty": "dermatology", "date": "2024-06-11", "half": "morning"}
    assert not ca._allowed(records, "N1", skin, rules)  # no referral (and one held)
    assert not ca._late(records, "d")  # exactly 24 hours away: no fee
    records["slots"]["d"]["start"] = "2024-06-11T08:59"
    assert ca._late(records, "d")
    assert ca._serve(records, "N1", {"kind": "cancel", "slot": "d"}, rules)[1] == (
        "charge_fee", {"patient_id": "N1", "amount_cents": 4_000})
