"""Red team, round 3 session 35: service/grocery_substitutions v3, every clause in play decides every mixed problem.

Each policy below settles the order by the store policy except one condition, misread (left out, or read one way
too strict or too loose), computes its calls and the order's total from the records, and is replayed through the
env's multi-turn API. Version 2 stated every clause from level 0 but drew requests as they fell: on 40 seeds a
level, levels 0-5, substituting in-stock items solved 0.78-0.90, substituting out-of-stock products 0.78-0.97, any
category 0.82-0.93, no price cap 0.80-0.95, a cap read as "under 20%" 1.00 and as 25% 0.97-1.00, no rise in price
allowed 0.60-0.88, charging the new product's price 0.60-0.88 and the old item's 0.25-0.78, ignoring allergens
0.65-0.82 (levels 2-5), removing packed items 0.35-0.70, adding out-of-stock products 0.70-0.85, no unit limit
0.72-0.90, a limit of 3 units 0.78-0.97 and of 5 units 0.93-0.97. Version 3 states the category and stock of a
substitute from level 1, the price cap from level 3 and the unit limit from level 4, and builds a request for each
misreading to get wrong: each now solves only problems whose requests are all on its side, 0.03-0.12 a level.
"""

from __future__ import annotations

import copy
from typing import Any

from envs_support import blind_shares, solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call, dollars

GROCERY = make_source("service/grocery_substitutions")

# misreading -> the first level whose stated policy has the condition it misreads
MISREADINGS = {"substitute in-stock items": 0, "charge the new price": 0, "charge the old price": 0,
               "no rise in price": 0, "remove packed items": 0, "add out-of-stock products": 0,
               "substitute out-of-stock products": 1, "any category": 1, "ignore allergens": 2,
               "no price cap": 3, "a cap under 20%": 3, "a 25% cap": 3, "no unit limit": 4, "at most 3 units": 4,
               "at most 5 units": 4}


def _allowed(records: dict[str, Any], lines: list[dict[str, Any]], allergies: list[str], request: dict[str, Any],
             misreading: str | None) -> bool:
    if request["kind"] == "remove":
        line = next((line for line in lines if line["sku"] == request["sku"]), None)
        return line is not None and (not line["packed"] or misreading == "remove packed items")
    new = records["products"][request["new"]]
    if request["kind"] == "add":
        limit = {"no unit limit": 99, "at most 3 units": 3, "at most 5 units": 5}.get(misreading or "", 4)
        return (new["in_stock"] or misreading == "add out-of-stock products") and request["quantity"] <= limit
    old = records["products"][request["sku"]]
    new_price, old_price = new["price_cents"], old["price_cents"]
    priced = {"no price cap": True, "a cap under 20%": 5 * new_price < 6 * old_price,
              "a 25% cap": 4 * new_price <= 5 * old_price,
              "no rise in price": new_price <= old_price}.get(misreading or "", 5 * new_price <= 6 * old_price)
    return ((not old["in_stock"] or misreading == "substitute in-stock items")
            and (new["in_stock"] or misreading == "substitute out-of-stock products")
            and (new["category"] == old["category"] or misreading == "any category") and priced
            and (not set(new["allergens"]) & set(allergies) or misreading == "ignore allergens"))


def _policy(problem: Any, misreading: str | None) -> list[str]:
    """The store policy's calls and final total with ``misreading`` (None: the policy as stated)."""
    data = problem.data
    records = copy.deepcopy(data["records"])
    order_id = data["order"]
    order = records["orders"][order_id]
    customer = records["customers"][order["customer"]]
    lines = order["lines"]
    replies = [call("find_customer", email=customer["email"]), call("get_order", order_id=order_id)]
    for turn in data["turns"]:
        if turn.startswith("ask"):
            replies.append("There are two of those on your order: which one do you mean?")
            continue
        if turn == "question":
            replies.append(f"It will be delivered between {order['window']}. Anything else?")
            continue
        request = data["requests"][int(turn.split()[1])]
        allowed = _allowed(records, lines, customer["allergies"], request, misreading)
        if allowed and request["kind"] == "remove":
            lines.remove(next(line for line in lines if line["sku"] == request["sku"]))
            replies.append(call("remove_item", order_id=order_id, sku=request["sku"]))
        elif allowed and request["kind"] == "add":
            item = records["products"][request["new"]]
            lines.append({"sku": request["new"], "unit_price_cents": item["price_cents"],
                          "quantity": request["quantity"]})
            replies.append(call("add_item", order_id=order_id, sku=request["new"], quantity=request["quantity"],
                                unit_price_cents=item["price_cents"]))
        elif allowed:
            line = next(line for line in lines if line["sku"] == request["sku"])
            new_price = records["products"][request["new"]]["price_cents"]
            price = {"charge the new price": new_price, "charge the old price": line["unit_price_cents"]}.get(
                misreading or "", min(new_price, line["unit_price_cents"]))
            line.update(sku=request["new"], unit_price_cents=price)
            replies.append(call("substitute_item", order_id=order_id, old_sku=request["sku"],
                                new_sku=request["new"], unit_price_cents=price))
        replies.append(f"{'Done.' if allowed else 'Sorry, the policy does not allow that.'} Anything else?")
    return [*replies, dollars(sum(line["unit_price_cents"] * line["quantity"] for line in lines))]


def test_no_single_misreading_solves_more_than_the_one_sided_problems() -> None:
    shares = blind_shares(GROCERY, _policy, MISREADINGS, range(5), 30)
    assert max(shares.values()) <= 0.2, {key: share for key, share in shares.items() if share > 0.2}


def test_the_reference_plan_solves_every_level() -> None:
    for level in range(7):
        for seed in range(10):
            problem = GROCERY.sample(level, seed)
            assert solves(GROCERY, problem, GROCERY.plan(problem)), (level, seed)
