"""Serve a customer's return and cancellation request under a stated store policy, with order functions.

The episode's records are a shop's customers and orders (generated: items with prices, categories and a
final-sale flag; orders pending, shipped or delivered on a date). A customer writes that they want to return
some items (named, not by id) and, from level 2, cancel an order. The agent has functions to find the
customer by e-mail, read an order, return items of an order (a refund of their prices) and cancel an order
(a refund of its unreturned items); the functions do what they are asked, the policy is the agent's to
follow:

1. a delivered item may be returned up to 30 days after its delivery date (the 30th day included);
2. final-sale items are never returned;
3. from level 3, electronics may be returned only up to 14 days after delivery;
4. an order may be cancelled only while pending; a shipped order can be neither returned nor cancelled;
5. an item is returned at most once (some were returned before).

The agent serves what the policy allows, refuses the rest, and answers with the total refunded in this
conversation (dollars and cents). The episode is judged on both: the answer, and the final records
against those the policy determines (a refund the policy forbids, or one it allows left out, fails). Each
problem has requested items on both sides of the policy in most draws (a tenth all allowed, a twenty-fifth all
refused), so neither "refund everything" nor "refuse everything" pays. The difficulty is the number of
orders plus the requested items plus the policy's clauses in play.
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
    ServiceTask,
    call,
    cents_of,
    draw_person,
    draw_side,
    judge_dollars,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 6, 20)
RETURN_DAYS, ELECTRONICS_DAYS = 30, 14
CATEGORIES = ("clothing", "home", "books", "toys", "electronics")
NOUNS = {"clothing": ("jacket", "scarf", "shirt", "boots"), "home": ("lamp", "kettle", "rug", "vase"),
         "books": ("atlas", "cookbook", "novel", "diary"), "toys": ("kite", "puzzle", "robot", "yo-yo"),
         "electronics": ("headphones", "speaker", "charger", "camera")}


@register
class RetailReturns(ServiceTask):
    id = "service/retail_returns"
    family = "service"
    description = "Serve a customer's return and cancellation request under a stated store policy, with order functions."
    version = 3  # v3: every request refused in a twenty-fifth of the problems (v2: a tenth), the shared draw_side
    tags = ("service", "multi-turn", "tools", "policy", "agentic")
    tool_names = ("find_customer", "get_order", "return_items", "cancel_order")

    @dataclass(frozen=True)
    class Config:
        orders: int
        requested: tuple[int, int]  # items asked to return
        cancel: bool  # the request also asks to cancel an order
        electronics_rule: bool
        budget: int

    presets = (
        Config(1, (2, 2), False, False, 5),
        Config(2, (2, 3), False, False, 6),
        Config(3, (2, 3), True, False, 8),
        Config(3, (3, 4), True, True, 9),
        Config(4, (3, 5), True, True, 10),
    )
    growth = Growth(limits={"orders": 10, "requested": 10, "budget": 20})

    def functions(self) -> dict[str, Function]:
        return {
            "find_customer": Function("Find a customer by e-mail address: their id, name and order ids.",
                                      {"email": "string"}, _find_customer),
            "get_order": Function("Read an order: its status, delivery date, and items (id, name, category, price, "
                                  "final sale, returned).", {"order_id": "string"}, _get_order),
            "return_items": Function("Return items of an order and refund their prices to the customer.",
                                     {"order_id": "string", "item_ids": "array"}, _return_items, item_type="string"),
            "cancel_order": Function("Cancel an order and refund its items that were not returned.",
                                     {"order_id": "string"}, _cancel_order),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # The request's sides are drawn once, before the orders: drawn with them, the redraws (small orders
        # rarely have two returnable items) favoured "all refused", which paid "$0.00" 0.21 at level 0.
        side = draw_side(rng)
        return retry(lambda: self._draw(rng, config, side), what="orders with a request on both sides of the policy",
                     attempts=60)

    def _draw(self, rng: random.Random, config: Config, side: str) -> Problem | None:
        forge = NameForge(rng)
        customer = draw_person(forge, rng, "C")
        orders: dict[str, dict[str, Any]] = {}
        used_names: set[str] = set()
        for index in range(config.orders):
            order_id = f"W{rng.randint(10_000, 99_999)}{index}"
            if config.cancel and index == 0:  # the order the customer asks to cancel: pending, or already shipped
                status = "pending" if rng.random() < 0.6 else "shipped"
            else:
                status = rng.choice(("delivered", "delivered", "delivered", "shipped"))
            delivered = (TODAY - timedelta(days=rng.randint(0, 45))).isoformat() if status == "delivered" else None
            items = []
            for number in range(rng.randint(2, 4)):
                category = rng.choice(CATEGORIES)
                name = f"{forge.word(2).lower()} {rng.choice(NOUNS[category])}"
                used_names.add(name)
                items.append({"id": f"{order_id}-{number + 1}", "name": name, "category": category,
                              "price_cents": rng.randint(5, 300) * 100 + rng.choice((0, 49, 99)),
                              "final_sale": rng.random() < 0.2, "returned": rng.random() < 0.1})
            orders[order_id] = {"customer": customer["id"], "status": status, "delivered": delivered, "items": items}
        records = {"today": TODAY.isoformat(), "customers": {customer["id"]: customer}, "orders": orders}
        candidates = [(oid, item) for index, (oid, order) in enumerate(orders.items())
                      if not (config.cancel and index == 0) for item in order["items"]]
        pools = {allowed: [(oid, item) for oid, item in candidates
                           if _allowed(records, oid, item["id"], config.electronics_rule) == allowed]
                 for allowed in (True, False)}
        count = rng.randint(*config.requested)
        granted = count if side == "all allowed" else 0 if side == "all refused" else rng.randint(1, count - 1)
        if len(pools[True]) < granted or len(pools[False]) < count - granted:
            return None
        requested = rng.sample(pools[True], granted) + rng.sample(pools[False], count - granted)
        rng.shuffle(requested)
        cancel = next(iter(orders)) if config.cancel else None
        asks = [f"the {item['name']}" for _, item in requested]
        request = (f"Hi, this is {customer['name']} ({customer['email']}). I'd like to return "
                   f"{_join(asks)}" + (f", and please cancel order {cancel}" if cancel else "") + ". Thanks!")
        policy = _policy(config.electronics_rule)
        prompt = (
            f"You are a customer-service agent of an online shop. Today is {TODAY.isoformat()}. Store policy:\n"
            f"{policy}\n\nServe the customer's request below as far as the policy allows, using the tools; do "
            "nothing the policy forbids and nothing the customer did not ask for. Then reply to the customer with "
            "the total amount refunded in this conversation, in dollars, e.g. <answer>$12.34</answer> "
            "(<answer>$0.00</answer> if nothing could be refunded).\n\n"
            f"Customer: {request}\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requested": [[oid, item["id"]] for oid, item in requested], "cancel": cancel,
                "electronics_rule": config.electronics_rule, "budget": config.budget}
        refund = _refund_cents(data)
        return Problem(prompt=prompt, answer=f"${refund // 100}.{refund % 100:02d}", data=data)

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy.deepcopy(problem.data["records"])
        for order_id, item_id in problem.data["requested"]:
            if _allowed(records, order_id, item_id, problem.data["electronics_rule"]):
                _item(records, order_id, item_id)["returned"] = True
        cancel = problem.data["cancel"]
        if cancel is not None and records["orders"][cancel]["status"] == "pending":
            records["orders"][cancel]["status"] = "cancelled"
        return records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return (len(data["records"]["orders"]) + len(data["requested"]) + 2 * (data["cancel"] is not None)
                + 2 * data["electronics_rule"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = data["records"]
        customer = next(iter(records["customers"].values()))
        replies = [call("find_customer", email=customer["email"])]
        replies += [call("get_order", order_id=order_id) for order_id in records["orders"]]
        allowed: dict[str, list[str]] = {}
        for order_id, item_id in data["requested"]:
            if _allowed(records, order_id, item_id, data["electronics_rule"]):
                allowed.setdefault(order_id, []).append(item_id)
        replies += [call("return_items", order_id=order_id, item_ids=items) for order_id, items in allowed.items()]
        if data["cancel"] is not None and records["orders"][data["cancel"]]["status"] == "pending":
            replies.append(call("cancel_order", order_id=data["cancel"]))
        return [*replies, problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The total is {answer}.", f"{answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [f"${(cents + 100) // 100}.{cents % 100:02d}", f"${cents // 100}.{(cents + 1) % 100:02d}",
                f"{problem.answer} or $0.00"]


def _policy(electronics_rule: bool) -> str:
    rules = [f"1. A delivered item may be returned up to {RETURN_DAYS} days after its delivery date (day "
             f"{RETURN_DAYS} included); items of orders not yet delivered cannot be returned.",
             "2. Final-sale items can never be returned.",
             "3. An order may be cancelled only while it is pending (not yet shipped).",
             "4. An item already returned cannot be returned again."]
    if electronics_rule:
        rules.append(f"5. Electronics may be returned only up to {ELECTRONICS_DAYS} days after delivery.")
    return "\n".join(rules)


def _allowed(records: Records, order_id: str, item_id: str, electronics_rule: bool) -> bool:
    order = records["orders"][order_id]
    item = _item(records, order_id, item_id)
    if order["status"] != "delivered" or item["final_sale"] or item["returned"]:
        return False
    age = (date.fromisoformat(records["today"]) - date.fromisoformat(order["delivered"])).days
    limit = ELECTRONICS_DAYS if electronics_rule and item["category"] == "electronics" else RETURN_DAYS
    return age <= limit


def _refund_cents(data: dict[str, Any]) -> int:
    records = data["records"]
    total = sum(_item(records, o, i)["price_cents"] for o, i in data["requested"]
                if _allowed(records, o, i, data["electronics_rule"]))
    cancel = data["cancel"]
    if cancel is not None and records["orders"][cancel]["status"] == "pending":
        total += sum(item["price_cents"] for item in records["orders"][cancel]["items"] if not item["returned"])
    return total


def _item(records: Records, order_id: str, item_id: str) -> dict[str, Any]:
    return next(item for item in records["orders"][order_id]["items"] if item["id"] == item_id)


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_customer(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for customer in records["customers"].values():
        if customer["email"] == email:
            orders = [oid for oid, order in records["orders"].items() if order["customer"] == customer["id"]]
            return (f"customer {customer['id']}: {customer['name']}, orders: {', '.join(orders)}"), None
    return f"error: no customer with e-mail {email[:100]!r}", None


def _get_order(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = records["orders"].get(str(args["order_id"]))
    if order is None:
        return f"error: no order {str(args['order_id'])[:40]!r}", None
    lines = [f"order {args['order_id']}: status {order['status']}"
             + (f", delivered {order['delivered']}" if order["delivered"] else "")]
    for item in order["items"]:
        price = item["price_cents"]
        lines.append(f"- {item['id']}: {item['name']} ({item['category']}), ${price // 100}.{price % 100:02d}"
                     + (", final sale" if item["final_sale"] else "") + (", returned" if item["returned"] else ""))
    return "\n".join(lines), None


def _return_items(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = records["orders"].get(str(args["order_id"]))
    if order is None:
        return f"error: no order {str(args['order_id'])[:40]!r}", None
    wanted = [str(i) for i in args["item_ids"]][:20]
    items = {item["id"]: item for item in order["items"]}
    unknown = [i for i in wanted if i not in items]
    if unknown or not wanted:
        return f"error: not items of order {args['order_id']}: {', '.join(unknown)[:200] or 'none given'}", None
    again = [i for i in wanted if items[i]["returned"]]
    if again:
        return f"error: already returned: {', '.join(again)}", None
    refund = 0
    for item_id in dict.fromkeys(wanted):
        items[item_id]["returned"] = True
        refund += items[item_id]["price_cents"]
    return f"returned {', '.join(dict.fromkeys(wanted))}; refunded ${refund // 100}.{refund % 100:02d}", records


def _cancel_order(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = records["orders"].get(str(args["order_id"]))
    if order is None:
        return f"error: no order {str(args['order_id'])[:40]!r}", None
    if order["status"] in ("cancelled", "delivered"):
        return f"error: order {args['order_id']} is {order['status']}", None
    order["status"] = "cancelled"
    refund = sum(item["price_cents"] for item in order["items"] if not item["returned"])
    return f"order {args['order_id']} cancelled; refunded ${refund // 100}.{refund % 100:02d}", records
