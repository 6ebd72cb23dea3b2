"""Red team, round 3 session 35: service/retail_returns v4, every clause in play decides every mixed problem.

Version 3 drew the requested items as they fell: on 40 seeds a level, a policy following the whole policy but one
clause solved 0.28-0.75 of levels 0-5 ignoring final sale, 0.65-0.97 ignoring the 30-day window, 0.93-1.00 taking
the 30th day as too late and 0.97-1.00 allowing the 31st, 0.70-1.00 returning items of shipped orders, 0.72-0.90
returning an item again, 0.55-0.70 cancelling a shipped order and 0.30-0.45 cancelling none (one order to cancel,
pending or shipped), 0.78-0.88 ignoring the electronics' 14 days, 0.97-1.00 moving their boundary a day either way.
Version 4 makes an order and an item for each clause in play (items delivered 30 and 31 days ago, electronics 14
and 15 days ago, a final-sale and an already-returned item the window would allow, an item of a shipped order, a
pending and a shipped order to cancel; a one-sided problem holds those of its side), states the clauses by level
(shipped orders and earlier returns from level 1, cancelling from level 2, electronics from level 3) and redraws
a problem the misread policy serves alike: each such policy now solves 0.03-0.17 a level on 40 seeds (0.00-0.20 on
this test's 30), the one-sided problems of the other side. v3 also gave pending orders items "returned" before, and
a policy refunding a cancelled order's every item solved 0.78-0.88 of levels 2-5; only delivered orders have them now.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from envs_support import blind_shares, solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call

RETURNS = make_source("service/retail_returns")
# misreading -> the first level where its clause is in play
MISREADINGS = {"window ignored": 0, "day 30 too late": 0, "day 31 allowed": 0, "final sale ignored": 0,
               "shipped items returned": 1, "returned again": 1, "shipped orders cancelled": 2,
               "no order cancelled": 2, "electronics at 30 days": 3, "electronics day 14 too late": 3,
               "electronics day 15 allowed": 3, "every item at 14 days": 3}


def _returnable(records: Any, order: Any, item: Any, electronics_rule: bool, misreading: str | None) -> bool:
    """The store policy as read from the prompt's clauses, but for ``misreading``; written apart from the env."""
    if order["status"] == "shipped" and misreading == "shipped items returned":
        return not item["final_sale"] and not item["returned"]
    if order["status"] != "delivered":
        return False
    if (item["final_sale"] and misreading != "final sale ignored") or (item["returned"]
                                                                       and misreading != "returned again"):
        return False
    age = (date.fromisoformat(records["today"]) - date.fromisoformat(order["delivered"])).days
    if electronics_rule and (item["category"] == "electronics" or misreading == "every item at 14 days"):
        if misreading != "electronics at 30 days":
            return age <= 14 + (misreading == "electronics day 15 allowed") - (misreading == "electronics day 14 too late")
    if misreading == "window ignored":
        return True
    return age <= 30 + (misreading == "day 31 allowed") - (misreading == "day 30 too late")


def _policy(problem: Any, misreading: str | None) -> list[str]:
    """The shop's policy (None: all of it), its calls and the total it refunds computed from what it did."""
    data = problem.data
    records = data["records"]
    customer = next(iter(records["customers"].values()))
    replies = [call("find_customer", email=customer["email"])]
    replies += [call("get_order", order_id=order_id) for order_id in records["orders"]]
    returns: dict[str, list[str]] = {}
    total = 0
    for order_id, item_id in data["requested"]:
        order = records["orders"][order_id]
        item = next(entry for entry in order["items"] if entry["id"] == item_id)
        if _returnable(records, order, item, data["rules"]["electronics"], misreading):
            returns.setdefault(order_id, []).append(item_id)
            total += item["price_cents"]
    replies += [call("return_items", order_id=order_id, item_ids=items) for order_id, items in returns.items()]
    for order_id in data["cancels"]:
        order = records["orders"][order_id]
        if misreading != "no order cancelled" and (order["status"] == "pending" or (
                misreading == "shipped orders cancelled" and order["status"] == "shipped")):
            replies.append(call("cancel_order", order_id=order_id))
            total += sum(item["price_cents"] for item in order["items"] if not item["returned"])
    return [*replies, f"${total // 100}.{total % 100:02d}"]


def test_no_policy_misreading_one_clause_solves_more_than_the_one_sided_problems() -> None:
    shares = blind_shares(RETURNS, _policy, MISREADINGS, range(5), seeds=30)
    assert max(shares.values()) <= 0.2, {key: share for key, share in shares.items() if share > 0.2}


@pytest.mark.parametrize("level", range(7))
def test_the_reference_plan_solves_every_level(level: int) -> None:
    for seed in range(10):
        problem = RETURNS.sample(level, seed)
        assert solves(RETURNS, problem, RETURNS.plan(problem)), (level, seed)


def test_a_level_states_only_the_clauses_in_play() -> None:
    first, second, fourth = (RETURNS.sample(level, 3) for level in (0, 1, 3))
    assert "not yet delivered" not in first.prompt and "returned again" not in first.prompt
    assert "not yet delivered" in second.prompt and "returned again" in second.prompt
    assert "cancelled only while" not in second.prompt and "Electronics" not in second.prompt
    assert "cancel orders" in fourth.prompt and "5. Electronics may be returned only up to 14 days" in fourth.prompt
    assert all(order["status"] == "delivered" and not item["returned"]
               for order in first.data["records"]["orders"].values() for item in order["items"])
