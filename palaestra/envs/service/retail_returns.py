"""Serve a customer's return and cancellation request under a stated store policy, with order functions.

The episode's records are a shop's customers and orders (generated: items with prices, categories and a
final-sale flag; orders pending, shipped or delivered on a date). A customer writes that they want to return
some items (named, not by id) and, from level 2, cancel two orders. The agent has functions to find the
customer by e-mail, read an order, return items of an order (a refund of their prices) and cancel an order
(a refund of its unreturned items); the functions do what they are asked, the policy is the agent's to
follow (each level states the clauses in play):

1. a delivered item may be returned up to 30 days after its delivery date (the 30th day included); from
   level 1, items of orders not yet delivered (shipped) cannot be returned;
2. final-sale items are never returned;
3. from level 1, an item is returned at most once (some were returned before);
4. from level 2, an order may be cancelled only while pending;
5. from level 3, electronics may be returned only up to 14 days after delivery (the 14th day included).

The agent serves what the policy allows, refuses the rest, and answers with the total refunded in this
conversation (dollars and cents). The episode is judged on both: the answer, and the final records
against those the policy determines (a refund the policy forbids, or one it allows left out, fails). A tenth
of the problems allow every request and a twenty-fifth refuse every one; in the rest, every clause in play
decides a request of its own (an item delivered 30 days ago and one 31 days ago, from level 3 electronics
delivered 14 and 15 days ago, a final-sale item and one returned before that the window would allow, an item
of a shipped order, a pending and a shipped order to cancel; a one-sided problem holds those of its side), and
a draw that the policy misreading some clause would serve alike is drawn again. (v3 drew requests as they fell:
on 40 seeds a level, a policy misreading one clause solved 0.28-1.00 of levels 0-5, one taking the 30th day as
too late 0.93-1.00; now 0.03-0.17.) Only delivered orders hold items returned before. The difficulty is the
orders plus the requests plus the orders to cancel plus twice the clauses in play.
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
    ServiceTask,
    call,
    cents_of,
    dollars,
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
# the days since delivery of the item that decides each boundary (see _blinds): the last day allowed, the first not
DECIDING_AGES = {"day30_out": RETURN_DAYS, "day31_in": RETURN_DAYS + 1,
                 "e_day14_out": ELECTRONICS_DAYS, "e_day15_in": ELECTRONICS_DAYS + 1}
ALLOWING = frozenset({"day30_out", "e_day14_out", "cancel_none"})  # the misreadings that refuse an allowed request


@register
class RetailReturns(ServiceTask):
    id = "service/retail_returns"
    family = "service"
    description = "Serve a customer's return and cancellation request under a stated store policy, with order functions."
    version = 4  # v4: every clause in play decides every mixed problem (v3: a twenty-fifth of the problems refuse
    # every request; v2: a tenth)
    tags = ("service", "multi-turn", "tools", "policy", "agentic")
    tool_names = ("find_customer", "get_order", "return_items", "cancel_order")

    @dataclass(frozen=True)
    class Config:
        orders: tuple[int, int]  # at least those the deciding requests need
        requested: tuple[int, int]  # items asked to return
        undelivered: bool  # shipped orders and items returned before, with their clauses
        cancel: bool  # the request also asks to cancel two orders
        electronics_rule: bool
        slack: int  # tool calls beyond reading every order and returning from each

    presets = (
        Config((2, 2), (3, 3), False, False, False, 2),
        Config((3, 4), (5, 5), True, False, False, 2),
        Config((5, 6), (5, 6), True, True, False, 3),
        Config((6, 7), (7, 7), True, True, True, 3),
        Config((7, 8), (8, 9), True, True, True, 4),
    )
    growth = Growth(limits={"orders": (12, 14), "requested": (12, 14), "slack": 8})

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
        return retry(lambda: self._draw(rng, config, side), what="orders for the deciding requests", attempts=60)

    def _draw(self, rng: random.Random, config: Config, side: str) -> Problem | None:
        forge = NameForge(rng)
        customer = draw_person(forge, rng, "C")
        rules = {"undelivered": config.undelivered, "cancel": config.cancel, "electronics": config.electronics_rule}
        # a one-sided problem holds the deciding requests of its side: a misreading that refuses more then fails the
        # problems that allow everything, one that allows more those that refuse everything
        blinds = [blind for blind in _blinds(rules) if side == "mixed" or (blind in ALLOWING) == (side == "all allowed")]

        def item(category: str | None = None, final_sale: bool = False, returned: bool = False) -> dict[str, Any]:
            category = category or rng.choice(CATEGORIES)
            return {"name": f"{forge.word(2).lower()} {rng.choice(NOUNS[category])}", "category": category,
                    "price_cents": rng.randint(5, 300) * 100 + rng.choice((0, 49, 99)), "final_sale": final_sale,
                    "returned": returned}

        def order(status: str, age: int | None = None) -> dict[str, Any]:
            delivered = None
            if status == "delivered":
                delivered = (TODAY - timedelta(days=rng.randint(0, 45) if age is None else age)).isoformat()
            return {"customer": customer["id"], "status": status, "delivered": delivered, "items": []}

        # an order is made for each deciding request (a delivery date on each side of a boundary, a shipped order),
        # holding the item that request asks for: clean, and an electronics item only where its limit decides
        deciding: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        for blind in blinds:
            if blind in DECIDING_AGES or blind == "undelivered":
                made = order("delivered", DECIDING_AGES[blind]) if blind in DECIDING_AGES else order("shipped")
                made["items"].append(item("electronics" if blind.startswith("e_") else _plain(rng, rules)))
                deciding[blind] = (made, made["items"][0])
        # the orders to cancel: a pending and a shipped one in a mixed problem, else both on the problem's side
        cancels = ([order("pending"), order("shipped")] if side == "mixed" else
                   [order("pending" if side == "all allowed" else "shipped") for _ in range(2)]) if config.cancel else []
        others = [order("delivered" if not config.undelivered or rng.random() < 0.75 else "shipped")
                  for _ in range(rng.randint(*config.orders) - len(deciding) - len(cancels))]
        orders_made = [made for made, _ in deciding.values()] + others
        # the final-sale and returned refusals: an item of a delivered order that the window would allow
        for blind in ("final_sale", "returned"):
            if blind in blinds:
                window = [o for o in orders_made if o["delivered"] and _age(TODAY, o) <= RETURN_DAYS]
                if not window:
                    return None
                made = rng.choice(window)
                early = _age(TODAY, made) <= ELECTRONICS_DAYS
                made["items"].append(item(None if early else _plain(rng, rules), final_sale=blind == "final_sale",
                                          returned=blind == "returned"))
                deciding[blind] = (made, made["items"][-1])
        for made in orders_made + cancels:  # items returned before only of delivered orders
            made["items"] += [item(final_sale=rng.random() < 0.2,
                                   returned=config.undelivered and made["delivered"] is not None and rng.random() < 0.1)
                              for _ in range(max(0, rng.randint(2, 4) - len(made["items"])))]
            rng.shuffle(made["items"])
        every = orders_made + cancels
        rng.shuffle(every)
        orders: dict[str, dict[str, Any]] = {}
        for index, made in enumerate(every):
            order_id = f"W{rng.randint(10_000, 99_999)}{index}"
            for number, entry in enumerate(made["items"], 1):
                entry["id"] = f"{order_id}-{number}"
            orders[order_id] = made
        ids = {id(made): order_id for order_id, made in orders.items()}
        records = {"today": TODAY.isoformat(), "customers": {customer["id"]: customer}, "orders": orders}
        chosen = [(ids[id(made)], entry) for made, entry in deciding.values()]
        candidates = [(ids[id(made)], entry) for made in orders_made for entry in made["items"]
                      if all(entry is not taken for _, taken in chosen)]
        pools = {allowed: [(oid, entry) for oid, entry in candidates
                           if _allowed(records, oid, entry["id"], config.electronics_rule) == allowed]
                 for allowed in (True, False)}
        fillers = [side == "all allowed" or (side == "mixed" and rng.random() < 0.5)
                   for _ in range(max(0, rng.randint(*config.requested) - len(chosen)))]
        if any(len(pools[allowed]) < fillers.count(allowed) for allowed in (True, False)):
            return None
        requested = chosen + rng.sample(pools[True], fillers.count(True)) + rng.sample(pools[False], fillers.count(False))
        rng.shuffle(requested)
        cancel_ids = [ids[id(made)] for made in cancels]
        budget = 1 + 2 * len(orders) + config.slack
        data = {"records": records, "requested": [[oid, entry["id"]] for oid, entry in requested],
                "cancels": cancel_ids, "rules": rules, "budget": budget}
        outcome = _served(data)
        if any(_served(data, blind) == outcome for blind in blinds):
            return None
        asks = [f"the {entry['name']}" for _, entry in requested]
        request = (f"Hi, this is {customer['name']} ({customer['email']}). I'd like to return {_join(asks)}"
                   + (f", and please cancel orders {_join(cancel_ids)}" if cancel_ids else "") + ". Thanks!")
        prompt = (
            f"You are a customer-service agent of an online shop. Today is {TODAY.isoformat()}. Store policy:\n"
            f"{_policy(rules)}\n\nServe the customer's request below as far as the policy allows, using the tools; do "
            "nothing the policy forbids and nothing the customer did not ask for. Then reply to the customer with "
            "the total amount refunded in this conversation, in dollars, e.g. <answer>$12.34</answer> "
            "(<answer>$0.00</answer> if nothing could be refunded).\n\n"
            f"Customer: {request}\n\n{self.tools_prompt(budget)}"
        )
        return Problem(prompt=prompt, answer=dollars(outcome[1]), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return _served(problem.data)[0]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        clauses = 2 + 2 * data["rules"]["undelivered"] + data["rules"]["cancel"] + data["rules"]["electronics"]
        return len(data["records"]["orders"]) + len(data["requested"]) + len(data["cancels"]) + 2 * clauses

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
            if _allowed(records, order_id, item_id, data["rules"]["electronics"]):
                allowed.setdefault(order_id, []).append(item_id)
        replies += [call("return_items", order_id=order_id, item_ids=items) for order_id, items in allowed.items()]
        replies += [call("cancel_order", order_id=order_id) for order_id in data["cancels"]
                    if _cancellable(records["orders"][order_id])]
        return [*replies, problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The total is {answer}.", f"{answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [f"${(cents + 100) // 100}.{cents % 100:02d}", f"${cents // 100}.{(cents + 1) % 100:02d}",
                f"{problem.answer} or $0.00"]


def _policy(rules: dict[str, bool]) -> str:
    clauses = [f"A delivered item may be returned up to {RETURN_DAYS} days after its delivery date (day {RETURN_DAYS} "
               "included)" + ("; items of orders not yet delivered cannot be returned." if rules["undelivered"]
                              else "."),
               "Final-sale items can never be returned."]
    if rules["undelivered"]:
        clauses.append("An item already returned cannot be returned again.")
    if rules["cancel"]:
        clauses.append("An order may be cancelled only while it is pending (not yet shipped).")
    if rules["electronics"]:
        clauses.append(f"Electronics may be returned only up to {ELECTRONICS_DAYS} days after delivery (day "
                       f"{ELECTRONICS_DAYS} included).")
    return "\n".join(f"{n}. {clause}" for n, clause in enumerate(clauses, 1))


def _blinds(rules: dict[str, bool]) -> tuple[str, ...]:
    """The clauses in play that a policy might misread, each named as :func:`_allowed` and :func:`_cancellable`
    read ``blind``: the 30-day window's last day taken as too late or a day more allowed (and the same for the
    electronics' 14 days), the final-sale, not-yet-delivered and already-returned refusals, and cancelling a shipped
    order or no order at all."""
    return (("day30_out", "day31_in", "final_sale")
            + (("undelivered", "returned") if rules["undelivered"] else ())
            + (("cancel_shipped", "cancel_none") if rules["cancel"] else ())
            + (("e_day14_out", "e_day15_in") if rules["electronics"] else ()))


def _plain(rng: random.Random, rules: dict[str, bool]) -> str:
    """A category whose return window is the 30 days (any, without the electronics clause)."""
    return rng.choice(CATEGORIES[:-1] if rules["electronics"] else CATEGORIES)


def _age(today: date, order: dict[str, Any]) -> int:
    return (today - date.fromisoformat(order["delivered"])).days


def _allowed(records: Records, order_id: str, item_id: str, electronics_rule: bool, blind: str | None = None) -> bool:
    """Whether the policy allows returning the item (``blind``: the policy misread so, see :func:`_blinds`)."""
    order = records["orders"][order_id]
    item = _item(records, order_id, item_id)
    if order["status"] == "shipped" and blind == "undelivered":
        return not item["final_sale"] and not item["returned"]
    if (order["status"] != "delivered" or (item["final_sale"] and blind != "final_sale")
            or (item["returned"] and blind != "returned")):
        return False
    electronics = electronics_rule and item["category"] == "electronics"
    limit = ELECTRONICS_DAYS if electronics else RETURN_DAYS
    limit += {"e_day14_out" if electronics else "day30_out": -1, "e_day15_in" if electronics else "day31_in": 1
              }.get(blind or "", 0)
    return _age(date.fromisoformat(records["today"]), order) <= limit


def _cancellable(order: dict[str, Any], blind: str | None = None) -> bool:
    return blind != "cancel_none" and (order["status"] == "pending"
                                       or (blind == "cancel_shipped" and order["status"] == "shipped"))


def _served(data: dict[str, Any], blind: str | None = None) -> tuple[Records, int]:
    """The records after the request is served by the policy (``blind``: misread so) and the cents refunded."""
    records: Records = copy_data(data["records"])
    refund = 0
    for order_id, item_id in data["requested"]:
        if _allowed(records, order_id, item_id, data["rules"]["electronics"], blind):
            item = _item(records, order_id, item_id)
            item["returned"] = True
            refund += item["price_cents"]
    for order_id in data["cancels"]:
        order = records["orders"][order_id]
        if _cancellable(order, blind):
            order["status"] = "cancelled"
            refund += sum(item["price_cents"] for item in order["items"] if not item["returned"])
    return records, refund


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
