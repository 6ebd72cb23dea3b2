"""Service envs with a scripted user (round 3c): the goal comes over several turns, replayable; the oracle serves
by the policy, serving everything or nothing rarely pays, random tool use scores about 0, and the customer must
be told the facts the policy names."""

from __future__ import annotations

import json
import random
import re

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.service import grocery_substitutions as gs
from palaestra.envs.service import hotel_reservations as hr
from palaestra.envs.service import insurance_claims as ic
from palaestra.envs.service import it_tickets as it
from palaestra.envs.service import payroll_corrections as pc
from palaestra.envs.service.common import ScriptedUser, call, dollars, mentions, records_difference

SCRIPTED = ("service/it_tickets", "service/hotel_reservations", "service/insurance_claims",
            "service/grocery_substitutions", "service/payroll_corrections")


def play(source, problem, replies: list[str]):
    state = source.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = source.advance(problem, state, source.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


def strings_in(value, found: set[str]) -> set[str]:
    """Every key and string value of a JSON record: what a random agent might pass as an argument."""
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(str(key))
            strings_in(inner, found)
    elif isinstance(value, list):
        for inner in value:
            strings_in(inner, found)
    elif isinstance(value, str):
        found.add(value)
    return found


def random_tool_episode(source, problem, rng: random.Random) -> float:
    """A policy calling random functions with arguments drawn from the records, chatting, then answering at random."""
    words = sorted(strings_in(problem.data["records"], set()))
    schemas = source.tool_schemas()
    replies = []
    for _ in range(source.max_turns(problem)):
        roll = rng.random()
        if roll < 0.6:
            schema = rng.choice(schemas)["function"]
            arguments = {}
            for name, kind in schema["parameters"]["properties"].items():
                if kind["type"] == "integer":
                    arguments[name] = rng.choice((0, 1, 2, rng.randint(0, 100_000)))
                elif kind["type"] == "array":
                    arguments[name] = rng.sample(words, 2)
                elif kind["type"] == "object":
                    arguments[name] = {rng.choice(words): rng.choice(words)}
                else:
                    arguments[name] = rng.choice(words)
            replies.append(call(schema["name"], **arguments))
        elif roll < 0.85:
            replies.append(rng.choice(("OK.", "Could you tell me more?", "Done.")))
        else:
            replies.append(rng.choice(("none", "1", "1, 2", "$0.00", f"${rng.randint(0, 900)}.00")))
    return palaestra.score(problem, [source.format_answer(r) for r in replies]).reward


@pytest.mark.parametrize("env_id", SCRIPTED)
def test_oracle_serves_by_the_policy_at_every_level_and_replays(env_id: str) -> None:
    source = make_source(env_id)
    for level in range(6):
        problem = source.sample(level, 7)
        assert play(source, problem, source.plan(problem)).verdict.correct, level
        replayed = palaestra.score(json.loads(problem.to_json()), [source.format_answer(r) for r in source.plan(problem)])
        assert replayed.correct, (level, replayed)


@pytest.mark.parametrize("env_id", SCRIPTED)
def test_random_tool_use_scores_about_zero(env_id: str) -> None:
    source = make_source(env_id)
    rng = random.Random(5)
    total = sum(random_tool_episode(source, source.sample(level, seed), rng) for level in (0, 2, 4) for seed in range(8))
    assert total <= 1.0, total


@pytest.mark.parametrize("env_id", SCRIPTED)
def test_doing_nothing_rarely_pays(env_id: str) -> None:
    source = make_source(env_id)
    wins = 0
    for seed in range(30):
        problem = source.sample(2, seed)
        chat = ["OK, noted. Anything else?"] * (len(source.user_turns(problem)) - 1)
        nothing = "none" if env_id == "service/it_tickets" else "$0.00"
        wins += play(source, problem, [*chat, nothing]).verdict.correct
    assert wins <= 6, wins


def test_the_customer_states_the_goal_one_message_at_a_time_and_an_early_answer_is_a_message() -> None:
    source = make_source("service/it_tickets")
    problem = source.sample(2, 3)
    script = source.user_turns(problem)
    assert len(script) >= 3 and script[0] in problem.prompt and script[1] not in problem.prompt
    state = source.initial_state(problem)
    outcome = source.advance(problem, state, "<answer>1</answer>")  # too early: the employee goes on
    assert not outcome.done and outcome.observation == f"Customer: {script[1]}"
    assert outcome.state["heard"] == 2 and outcome.state["messages"] == ["<answer>1</answer>"]
    assert state["heard"] == 1  # play does not mutate its input


def test_a_customer_not_told_the_required_fact_fails_with_the_reason() -> None:
    source = make_source("service/insurance_claims")
    for seed in range(40):
        problem = source.sample(1, seed)
        if source.required_facts(problem):
            break
    facts = list(source.required_facts(problem).values())
    silent = [re.sub(r"Filed as claim CL\d+", "Filed", reply) for reply in source.plan(problem)]
    outcome = play(source, problem, silent)
    assert not outcome.verdict.correct and "was not told the claim number" in outcome.verdict.feedback
    assert all(not mentions(" ".join(silent).casefold(), fact.casefold()) for fact in facts)


def test_mentions_needs_the_whole_token() -> None:
    assert mentions("your claim is cl101.", "cl101")
    assert not mentions("your claim is cl1010", "cl101") and not mentions("xcl101", "cl101")


def test_records_difference_names_the_first_difference() -> None:
    assert records_difference({"a": {"b": 1}}, {"a": {"b": 1}}) is None
    assert records_difference({"a": {"b": 1}}, {"a": {"b": 2}}) == "records.a.b is 2, it should be 1"
    assert records_difference({"a": [1]}, {"a": [1, 1]}) == "records.a has 2 entries, it should have 1"
    assert records_difference({"a": {}}, {"a": {"x": 1}}) == "records.a.x should not exist"


def test_it_tickets_changing_a_colleagues_ticket_scores_zero_with_the_reason() -> None:
    source = make_source("service/it_tickets")
    for seed in range(200):
        problem = source.sample(1, seed)
        foreign = [r for r in problem.data["requests"] if not r["own"] and r["kind"] == "priority"]
        if foreign:
            break
    plan = source.plan(problem)
    extra = call("set_priority", ticket_id=foreign[0]["ticket"], priority=1)
    outcome = play(source, problem, [extra, *plan])
    assert not outcome.verdict.correct
    assert f"records.tickets.{foreign[0]['ticket']}.priority is 1" in outcome.verdict.feedback


def test_it_tickets_hand_checked_rules() -> None:
    def closed(days: int) -> str:
        return (it.TODAY - it.timedelta(days=days)).isoformat()

    records = {"today": it.TODAY.isoformat(), "next": 0, "employees": {"E1": {}, "E2": {}},
               "tickets": {"T1": {"reporter": "E1", "category": "hardware", "status": "open", "blocking": False},
                           "T2": {"reporter": "E1", "category": "network", "status": "open", "blocking": False},
                           "T3": {"reporter": "E1", "category": "software", "status": "open", "blocking": True},
                           "T4": {"reporter": "E1", "category": "accounts", "status": "closed", "closed": closed(7)},
                           "T5": {"reporter": "E1", "category": "accounts", "status": "closed", "closed": closed(8)},
                           "T6": {"reporter": "E2", "category": "network", "status": "open", "blocking": False}}}
    assert not it._allowed(records, "E1", {"kind": "priority", "ticket": "T1"}, True)[0]
    assert it._allowed(records, "E1", {"kind": "priority", "ticket": "T2"}, True)[0]
    assert it._allowed(records, "E1", {"kind": "priority", "ticket": "T3"}, True)[0]  # it blocks a team
    assert not it._allowed(records, "E1", {"kind": "priority", "ticket": "T3"}, False)[0]  # no such exception
    assert not it._allowed(records, "E1", {"kind": "priority", "ticket": "T6"}, True)[0]  # not theirs
    assert it._allowed(records, "E1", {"kind": "reopen", "ticket": "T4"}, False)[0]  # day 7 included
    assert not it._allowed(records, "E1", {"kind": "reopen", "ticket": "T5"}, False)[0]
    assert it._allowed(records, "E1", {"kind": "move", "ticket": "T1", "team": "desk"}, False)[0]
    assert not it._allowed(records, "E1", {"kind": "move", "ticket": "T1", "team": "apps"}, False)[0]
    assert it._allowed(records, "E1", {"kind": "create", "category": "hardware"}, False) == (
        False, "You already have an open ticket for that: T1.")
    # each clause left out flips the request it alone decides
    for blind, request in (("own", {"kind": "priority", "ticket": "T6"}), ("priority", {"kind": "priority",
                           "ticket": "T1"}), ("blocking", {"kind": "priority", "ticket": "T3"}),
                           ("team", {"kind": "move", "ticket": "T1", "team": "apps"}),
                           ("reopen", {"kind": "reopen", "ticket": "T5"}), ("edge", {"kind": "reopen", "ticket": "T4"}),
                           ("create", {"kind": "create", "category": "hardware"})):
        assert it._allowed(records, "E1", request, True)[0] != it._allowed(records, "E1", request, True, blind)[0]


def test_hotel_hand_checked_refunds() -> None:
    def records(days: int, refundable: bool, tier: str = "Basic") -> dict:
        return {"guests": {"G": {"tier": tier}}, "reservations": {"H1": {
            "guest": "G", "check_in": (hr.TODAY + hr.timedelta(days=days)).isoformat(), "nights": 3,
            "rate_cents": 10_050, "refundable": refundable, "status": "booked"}}}

    cancel = {"kind": "cancel", "reservation": "H1"}
    assert hr._refund(records(2, True), cancel, False) == 30_150  # 2 days' notice: in full
    assert hr._refund(records(1, True), cancel, False) is None
    assert hr._refund(records(1, True), cancel, True) == 20_100  # late: all nights but the first
    assert hr._refund(records(30, False), cancel, True) is None
    assert hr._refund(records(5, True), {"kind": "shorten", "reservation": "H1", "drop": 2}, True) == 20_100
    assert hr._refund(records(5, False, "Gold"), {"kind": "upgrade", "reservation": "H1"}, True) == 0
    assert hr._refund(records(5, True, "Silver"), {"kind": "upgrade", "reservation": "H1"}, True) is None


def test_hotel_a_refund_beyond_the_rule_fails_with_the_reason() -> None:
    source = make_source("service/hotel_reservations")
    for seed in range(100):
        problem = source.sample(1, seed)
        if '"cancel_reservation"' in " ".join(source.plan(problem)):
            break
    plan = source.plan(problem)
    generous = [re.sub(r'"refund_cents": (\d+)', lambda m: f'"refund_cents": {int(m.group(1)) + 100}', r)
                if '"cancel_reservation"' in r else r for r in plan]
    outcome = play(source, problem, generous[:-1] + [problem.answer])
    assert not outcome.verdict.correct and "refund_cents" in outcome.verdict.feedback


def test_insurance_hand_checked_payouts() -> None:
    records = {"caller": "P1", "policies": {"A1": {
        "holder": "P1", "start": "2024-01-01", "end": "2024-12-31", "deductible_cents": 50_000,
        "limit_cents": 200_000, "paid_cents": 100_000}, "B1": {
        "holder": "P2", "start": "2024-01-01", "end": "2024-12-31", "deductible_cents": 0,
        "limit_cents": 200_000, "paid_cents": 0}}}
    day = (ic.TODAY - ic.timedelta(days=30)).isoformat()  # day 30 included
    claim = {"policy": "A1", "date": day, "cost_cents": 80_000, "theft": False, "report": ""}
    assert ic._payout(records, claim, True) == 30_000
    assert ic._payout(records, {**claim, "cost_cents": 900_000}, True) == 100_000  # capped at what is left
    assert ic._payout(records, {**claim, "cost_cents": 50_000}, True) is None  # not above the deductible
    assert ic._payout(records, {**claim, "policy": "B1"}, True) is None  # a relative's policy
    late = (ic.TODAY - ic.timedelta(days=31)).isoformat()
    assert ic._payout(records, {**claim, "date": late}, True) is None
    assert ic._payout(records, {**claim, "theft": True}, True) is None  # no police report
    assert ic._payout(records, {**claim, "theft": True, "report": "PR-1"}, True) == 30_000


def test_grocery_hand_checked_rules() -> None:
    records = {"customers": {"C": {"allergies": ["nuts"]}},
               "orders": {"G": {"customer": "C", "lines": [{"sku": "A", "packed": True, "unit_price_cents": 500}, {"sku": "B", "packed": False}]}},
               "products": {"A": {"category": "dairy", "price_cents": 500, "in_stock": False, "allergens": []},
                            "B": {"category": "dairy", "price_cents": 500, "in_stock": True, "allergens": []},
                            "N": {"category": "dairy", "price_cents": 600, "in_stock": True, "allergens": []},
                            "M": {"category": "dairy", "price_cents": 601, "in_stock": True, "allergens": []},
                            "X": {"category": "dairy", "price_cents": 300, "in_stock": True, "allergens": ["nuts"]},
                            "P": {"category": "bakery", "price_cents": 300, "in_stock": True, "allergens": []}}}
    substitute = {"kind": "substitute", "sku": "A"}
    assert gs._allowed(records, "G", {**substitute, "new": "N"})  # exactly 20% more
    assert not gs._allowed(records, "G", {**substitute, "new": "M"})  # a cent over
    assert not gs._allowed(records, "G", {**substitute, "new": "X"})  # an allergen the customer listed
    assert not gs._allowed(records, "G", {**substitute, "new": "P"})  # another category
    assert not gs._allowed(records, "G", {"kind": "substitute", "sku": "B", "new": "N"})  # B is in stock
    assert not gs._allowed(records, "G", {"kind": "remove", "sku": "A"})  # packed
    assert gs._allowed(records, "G", {"kind": "remove", "sku": "B"})
    assert gs._allowed(records, "G", {"kind": "add", "new": "N", "quantity": 4})
    assert not gs._allowed(records, "G", {"kind": "add", "new": "N", "quantity": 5})
    assert gs._arguments(records, "G", {**substitute, "new": "X"})[1]["unit_price_cents"] == 300  # the lower price


def test_grocery_the_delivery_window_must_be_told() -> None:
    source = make_source("service/grocery_substitutions")
    problem = source.sample(1, 2)
    window = problem.data["records"]["orders"][problem.data["order"]]["window"]
    plan = source.plan(problem)
    vague = [reply.replace(window, "the usual time") for reply in plan]
    assert play(source, problem, plan).verdict.correct
    outcome = play(source, problem, vague)
    assert not outcome.verdict.correct and "delivery window" in outcome.verdict.feedback


def test_payroll_hand_checked_pay_and_corrections() -> None:
    assert pc.pay_cents(2_000, 8) == 16_000 and pc.pay_cents(2_000, 10) == 22_000 and pc.pay_cents(2_000, 6.5) == 13_000
    records = {"employees": {"E1": {"rate_cents": 2_000}, "E2": {"rate_cents": 1_000}},
               "hours": {"E1": {"2024-12-05": 8, "2024-11-25": 9, "2024-10-20": 8}, "E2": {"2024-12-05": 8}},
               "periods": {"A": {"start": "2024-12-02", "end": "2024-12-15", "paid": None},
                           "B": {"start": "2024-11-18", "end": "2024-12-01", "paid": "2024-12-04"},
                           "C": {"start": "2024-10-07", "end": "2024-10-20", "paid": "2024-10-23"}}}
    assert pc._correction(records, "E1", {"employee": "E1", "day": "2024-12-05", "hours": 9}) == ("set", 0)
    assert pc._correction(records, "E1", {"employee": "E1", "day": "2024-11-25", "hours": 7.5}) == ("adjust", -4_000)
    assert pc._correction(records, "E1", {"employee": "E1", "day": "2024-11-25", "hours": 12}) == ("adjust", 9_000)
    assert pc._correction(records, "E1", {"employee": "E1", "day": "2024-11-25", "hours": 12.5}) is None  # over 12
    assert pc._correction(records, "E1", {"employee": "E1", "day": "2024-10-20", "hours": 9}) is None  # paid long ago
    assert pc._correction(records, "E1", {"employee": "E2", "day": "2024-12-05", "hours": 9}) is None  # a colleague


def test_functions_do_not_enforce_the_policy() -> None:
    source = make_source("service/insurance_claims")
    problem = source.sample(0, 1)
    policy = next(iter(problem.data["records"]["policies"]))
    outcome = play(source, problem, [call("file_claim", policy_id=policy, incident_date="2020-01-01",
                                          cost_cents=1, payout_cents=10**8, police_report="")])
    assert "claim CL100 filed" in outcome.observation


def test_scripted_envs_are_scripted_users() -> None:
    assert all(isinstance(make_source(env_id), ScriptedUser) for env_id in SCRIPTED)


def _everything(env_id: str, problem) -> list[str]:
    """Carry out every request as asked, with the amounts a policy-blind agent would enter, then answer."""
    data = problem.data
    records = data["records"]
    calls = []
    if env_id == "service/it_tickets":
        calls = [it._action(data["employee"], request) for request in data["requests"]]
        answer = ", ".join(str(n) for n in range(1, len(data["requests"]) + 1))
    elif env_id == "service/hotel_reservations":
        total = 0
        for request in data["requests"]:
            booking = records["reservations"][request["reservation"]]
            if request["kind"] == "cancel":
                refund = booking["nights"] * booking["rate_cents"]
                calls.append(call("cancel_reservation", reservation_id=request["reservation"], refund_cents=refund))
            elif request["kind"] == "shorten":
                refund = request["drop"] * booking["rate_cents"]
                calls.append(call("shorten_stay", reservation_id=request["reservation"],
                                  nights=booking["nights"] - request["drop"], refund_cents=refund))
            else:
                refund = 0
                calls.append(call("upgrade_room", reservation_id=request["reservation"]))
            total += refund
        answer = dollars(total)
    elif env_id == "service/insurance_claims":
        total = 0
        for incident in data["incidents"]:
            payout = max(incident["cost_cents"] - records["policies"][incident["policy"]]["deductible_cents"], 0)
            calls.append(call("file_claim", policy_id=incident["policy"], incident_date=incident["date"],
                              cost_cents=incident["cost_cents"], payout_cents=payout, police_report=incident["report"]))
            total += payout
        answer = dollars(total)
    elif env_id == "service/payroll_corrections":
        calls = [call("set_hours", employee_id=r["employee"], day=r["day"], hours=r["hours"]) for r in data["requests"]]
        answer = "$0.00"
    else:
        copy = json.loads(json.dumps(records))
        for request in data["requests"]:
            name, arguments = gs._arguments(copy, data["order"], request)
            calls.append(call(name, **arguments))
            gs.FUNCTIONS[name](copy, arguments)
        answer = dollars(gs._total(copy, data["order"]))
    chat = ["Done. Anything else?"] * (len(data["user"]) - 1)
    return [*calls, *chat, answer]


@pytest.mark.parametrize("env_id", SCRIPTED)
def test_doing_everything_asked_rarely_pays(env_id: str) -> None:
    source = make_source(env_id)
    wins = sum(play(source, problem, _everything(env_id, problem)).verdict.correct
               for problem in (source.sample(2, seed) for seed in range(30)))
    assert wins <= 6, wins


@pytest.mark.parametrize("env_id", SCRIPTED)
def test_the_final_answer_is_read_by_the_grammar_after_the_conversation(env_id: str) -> None:
    """The kit's constant, hedge and retraction probes meet the customer, not the judge, in a scripted env: the
    final answer's grammar is checked here at the end of the oracle's conversation instead."""
    source = make_source(env_id)
    for seed in range(3):
        problem = source.sample(3, seed)
        conversation = source.plan(problem)[:-1]
        for spelled in source.spellings(problem):
            assert play(source, problem, [*conversation, spelled]).verdict.correct, spelled
        wrong = [*source.corruptions(problem, random.Random(0)), f"{problem.answer}. I take it back.",
                 f"{problem.answer}\nJust kidding, I do not know."]
        for answer in wrong:
            assert not play(source, problem, [*conversation, answer]).verdict.correct, answer
