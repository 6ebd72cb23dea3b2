"""What the service envs' shared helpers do (palaestra/envs/service/common.py): drawing which requests the policy
allows, serving them in order, a ledger's net, the served-requests answer and judging an amount in dollars."""

from __future__ import annotations

import random

from palaestra.core import Problem
from palaestra.envs.service.common import (
    draw_sides,
    judge_dollars,
    ledger_net,
    served_answer,
    served_records,
)


def test_draw_sides_gives_one_side_throughout_unless_mixed() -> None:
    rng = random.Random(1)
    assert draw_sides(rng, 3, "all allowed") == [True, True, True]
    assert draw_sides(rng, 2, "all refused") == [False, False]
    assert rng.random() == random.Random(1).random()  # a one-sided problem draws nothing


def test_a_mixed_draw_has_both_sides_or_asks_for_a_redraw() -> None:
    redraws = 0
    for seed in range(200):
        sides = draw_sides(random.Random(seed), 3, "mixed")
        if sides is None:
            redraws += 1
            continue
        assert len(sides) == 3 and any(sides) and not all(sides)
    assert 0 < redraws < 200
    # one request cannot be both allowed and refused: always a redraw
    assert all(draw_sides(random.Random(seed), 1, "mixed") is None for seed in range(20))


def test_a_mixed_draw_consumes_the_rng_as_the_envs_always_did() -> None:
    rng, twin = random.Random(7), random.Random(7)
    sides = draw_sides(rng, 4, "mixed")
    expected = [twin.random() < 0.5 for _ in range(4)]
    expected[twin.randrange(4)], expected[twin.randrange(4)] = True, False
    assert sides == (None if all(expected) or not any(expected) else expected)
    assert rng.random() == twin.random()


def test_served_records_serves_allowed_requests_in_order_on_a_copy() -> None:
    data = {"records": {"balance": 10, "log": []}, "requests": [6, 6, 3], "rules": {"overdraft": False}}

    def allowed(records, request, rules):  # sees what the earlier requests left
        return rules["overdraft"] or records["balance"] >= request

    def serve(records, request, rules):
        records["balance"] -= request
        records["log"].append(request)

    assert served_records(data, allowed, serve) == {"balance": 1, "log": [6, 3]}
    assert data["records"] == {"balance": 10, "log": []}


def test_ledger_net_is_charges_minus_refunds() -> None:
    ledger = [{"kind": "charge", "amount_cents": 1_500}, {"kind": "refund", "amount_cents": 2_000},
              {"kind": "charge", "amount_cents": 5}]
    assert ledger_net(ledger) == -495
    assert ledger_net([]) == 0


def test_served_answer_lists_the_allowed_request_numbers() -> None:
    assert served_answer([True, False, True]) == "1, 3"
    assert served_answer([False, True]) == "2"
    assert served_answer([False, False]) == "none"


def test_judge_dollars_reads_an_amount_exactly_to_the_cent() -> None:
    problem = Problem(prompt="", answer="-$12.05", data={})
    for right in ("-$12.05", "-12.05", "- $12.05", "-12.05 dollars", "The refund total is -$12.05."):
        assert judge_dollars(problem, right).correct, right
    for wrong in ("$12.05", "-$12.06", "-$12"):
        verdict = judge_dollars(problem, wrong)
        assert verdict.parsed and not verdict.correct, wrong
    unread = judge_dollars(problem, "about twelve")
    assert not unread.parsed and unread.feedback == "not an amount in dollars"
    assert judge_dollars(Problem(prompt="", answer=None, data={}), "$0.00").correct  # no answer: nothing charged
