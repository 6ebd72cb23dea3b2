"""Settle a grocery order's substitutions, removals and additions, told over several turns, under a store policy.

The episode's records are a grocery store's customer (from level 2 with allergies), one order being packed
(lines: product, unit price, quantity, out of stock or not, packed or not) and the store's products (category,
price, stock, allergens). A scripted customer (:class:`~palaestra.envs.service.common.ScriptedUser`) asks one
thing per message: substitute an out-of-stock item with a product they name, remove an item, add some units
of a product; once in the conversation they ask when the order arrives; from level 2 one request names an item
by its kind ("the cheese") when the order has two, and the customer's next message says which. The functions
do what they are asked (a line's price is whatever the agent enters); the policy is the agent's:

1. only out-of-stock items are substituted (from level 1 by an in-stock product of the same category; from level
   3 one whose price is at most 20% above the item's, ``5 x new <= 6 x old`` in cents); the line keeps its
   quantity and is charged the lower of the two prices;
2. from level 2, never substitute a product containing an allergen the customer listed;
3. packed items cannot be removed;
4. additions only of in-stock products (from level 4 at most 4 units per product), at the product's price.

The answer is the order's total after the conversation (every line on the order, unit price x quantity); the
final order must be the one the policy determines, and the customer must have been told the delivery window.
Requests are built on both sides of the policy (a tenth of the problems all allowed, a twenty-fifth all refused),
and every problem has a request for each misreading of the clauses in play that its side can show: a request
refused by each condition alone (an item in stock, a substitute out of stock, of another category, over the cap
or with an allergen, a packed item, an addition out of stock or over the limit), a substitute dearer than the
item (exactly 20% above it where the cap is stated) and one cheaper, an addition of exactly the limit; a refused
price is at most 25% above the item's and a refused quantity one over the limit, so that a cap or limit read
looser is caught too; a draw that the policy with one misreading would settle alike is drawn again. (v2 drew
requests as they fell: on 40 seeds a level, each of these misreadings solved 0.25-1.00 of levels 0-5, most of
them 0.7-1.0; now 0.03-0.12.) The difficulty is twice the requests plus the refused ones plus half the order's
lines, plus two for allergies and two for an item named by its kind.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.problem import copy_data
from palaestra.core.task import Growth
from palaestra.envs.service.common import (
    Function,
    Records,
    ScriptedUser,
    call,
    cents_of,
    dollars,
    draw_person,
    draw_side,
    judge_dollars,
)
from palaestra.generators.knowledge import NameForge

ADD_LIMIT = 4
# the misreadings that serve a refused request, each named by the condition it leaves out (see _blinds): a refused
# request is built for each, failing that condition alone
REFUSALS = ("old_stock", "new_stock", "category", "cap", "allergen", "packed", "add_stock", "limit")
ALLOWED = ("sub", "sub", "remove", "add")  # the allowed requests drawn at random, half of them substitutions
# the allowed request each other misreading gets wrong: a dearer substitute (at the cap where it is stated), a
# cheaper one, an addition of exactly the limit
DECIDING = {"charge_new": "dearer", "cap_strict": "dearer", "charge_old": "cheaper", "limit_strict": "full"}
NOUNS = {"dairy": ("milk", "yogurt", "cheese", "butter"), "bakery": ("bread", "bagels", "muffins", "crackers"),
         "produce": ("apples", "spinach", "carrots", "pears"), "pantry": ("granola", "pasta", "cookies", "rice")}
ALLERGENS = ("nuts", "gluten", "soy", "sesame")
WINDOWS = ("08:00-10:00", "10:00-12:00", "12:00-14:00", "14:00-16:00", "16:00-18:00", "18:00-20:00")
CLOSINGS = ("That's all, thanks!", "Nothing else, thank you.", "That was everything.")


@register
class GrocerySubstitutions(ScriptedUser):
    id = "service/grocery_substitutions"
    family = "service"
    description = "Settle a grocery order's substitutions, removals and additions, told over several turns, under a store policy."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 3  # v3: every clause in play decides every mixed problem, clauses in play by level (v2: a
    # twenty-fifth of the problems refuse every request; v1: a tenth)
    tool_names = ("find_customer", "get_order", "get_product", "substitute_item", "remove_item", "add_item")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]
        lines: tuple[int, int]  # order lines besides those the requests name
        alike: bool  # a substitute must be in stock and of the item's category
        allergies: bool
        ambiguous: bool
        cap: bool  # a substitute's price at most 20% above the item's
        limit: bool  # at most ADD_LIMIT units added per product
        slack: int

    # each level has at least a request for each misreading of its clauses (_blinds) to get wrong
    presets = (
        Config((5, 6), (1, 2), False, False, False, False, False, 3),
        Config((7, 8), (2, 3), True, False, False, False, False, 3),
        Config((8, 9), (2, 3), True, True, True, False, False, 4),
        Config((9, 10), (3, 4), True, True, True, True, False, 4),
        Config((11, 12), (3, 5), True, True, True, True, True, 5),
    )
    growth = Growth(limits={"requests": (13, 15), "lines": (8, 10), "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_customer": Function("Find a customer by e-mail: id, name, allergies and their open order.",
                                      {"email": "string"}, _find_customer),
            "get_order": Function("Read an order: delivery window and lines (product, unit price, quantity, stock, "
                                  "packed).", {"order_id": "string"}, _get_order),
            "get_product": Function("Read a product: name, category, price, stock and allergens.", {"sku": "string"},
                                    _get_product),
            "substitute_item": Function("Replace an order line's product by another product at the unit price given "
                                        "(cents).", {"order_id": "string", "old_sku": "string", "new_sku": "string",
                                                     "unit_price_cents": "integer"}, _substitute),
            "remove_item": Function("Remove an order line.", {"order_id": "string", "sku": "string"}, _remove),
            "add_item": Function("Add units of a product to an order at the unit price given (cents).",
                                 {"order_id": "string", "sku": "string", "quantity": "integer",
                                  "unit_price_cents": "integer"}, _add),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        side = draw_side(rng)
        return retry(lambda: self._draw(rng, config, side), what="an order for the requests", attempts=60)

    def _draw(self, rng: random.Random, config: Config, side: str) -> Problem | None:
        forge = NameForge(rng)
        allergies = sorted(rng.sample(ALLERGENS, rng.randint(1, 2))) if config.allergies else []
        customer = {**draw_person(forge, rng, "C"), "allergies": allergies}
        order_id = f"G{rng.randint(100_000, 999_999)}"
        records: Records = {"customers": {customer["id"]: customer}, "products": {},
                            "orders": {order_id: {"customer": customer["id"], "window": rng.choice(WINDOWS),
                                                  "lines": []}}}
        numbers = iter(rng.sample(range(1000, 9999), 80))
        lines = records["orders"][order_id]["lines"]

        def product(category: str, price: int, noun: str | None = None, stock: bool = True,
                    allergens: list[str] | None = None) -> str:
            sku = f"S{next(numbers)}"
            records["products"][sku] = {
                "name": f"{forge.word(2)} {noun or rng.choice(NOUNS[category])}", "category": category,
                "price_cents": price, "in_stock": stock,
                "allergens": allergens if allergens is not None else
                ([rng.choice(ALLERGENS)] if rng.random() < 0.3 else [])}
            return sku

        def line(sku: str, packed: bool = False) -> None:
            item = records["products"][sku]
            lines.append({"sku": sku, "name": item["name"], "unit_price_cents": item["price_cents"],
                          "quantity": rng.randint(1, 3), "packed": packed})

        def build(role: str) -> dict[str, Any]:
            """A request the policy allows (``role`` in :data:`ALLOWED`) or one that only the condition ``role`` of
            :data:`REFUSALS` refuses, so that the policy without that condition serves it."""
            category = rng.choice(sorted(NOUNS))
            price = rng.randint(150, 1200)
            if role in ("remove", "packed"):
                sku = product(category, price)
                line(sku, packed=role == "packed")
                return {"kind": "remove", "sku": sku}
            if role in ("add", "full", "add_stock", "limit"):
                # the refused quantity is one over the limit, so that a limit read one looser is caught too
                quantity = {"full": ADD_LIMIT, "limit": ADD_LIMIT + 1}.get(role, rng.randint(1, ADD_LIMIT))
                return {"kind": "add", "new": product(category, price, stock=role != "add_stock"),
                        "quantity": quantity}
            if role == "dearer" and config.cap:  # whole nickels, for a substitute exactly at the cap
                price -= price % 5
            high = price * 6 // 5  # the dearest substitute the 20% cap allows
            if role == "cheaper":
                new_price = rng.randint(price // 2, price - 1)
            elif role == "dearer":  # at the cap itself where it is stated, so that reading it as "under 20%" is caught
                new_price = high if config.cap else rng.randint(price + 1, high)
            elif role == "cap":  # at most 25% above, so that a cap read as 25% is caught too
                new_price = rng.randint(high + 1, price * 5 // 4)
            else:
                new_price = rng.randint(price // 2, high)
            old = product(category, price, stock=role == "old_stock", allergens=[])
            line(old)
            safe = [a for a in ALLERGENS if a not in allergies]
            allergens = [rng.choice(allergies)] if role == "allergen" else (
                [rng.choice(safe)] if rng.random() < 0.3 else [])
            new_category = rng.choice([c for c in NOUNS if c != category]) if role == "category" else category
            new = product(new_category, new_price, stock=role != "new_stock", allergens=allergens)
            return {"kind": "substitute", "sku": old, "new": new}

        blinds = _blinds(config)
        refusals = [blind for blind in blinds if blind in REFUSALS]
        # a request for each misreading to get wrong that the problem's side has, then requests of its side at random
        deciding = [role for role in dict.fromkeys(DECIDING.get(blind, blind) for blind in blinds)
                    if side == "mixed" or (role in REFUSALS) == (side == "all refused")]
        roles = deciding + [
            rng.choice(refusals) if side == "all refused" or (side == "mixed" and rng.random() < 0.5)
            else rng.choice(ALLOWED) for _ in range(rng.randint(*config.requests) - len(deciding))]
        rng.shuffle(roles)
        requests = [build(role) for role in roles]
        for _ in range(rng.randint(*config.lines)):
            line(product(rng.choice(sorted(NOUNS)), rng.randint(150, 1200), stock=rng.random() < 0.8),
                 rng.random() < 0.5)
        ambiguous = None
        if config.ambiguous:
            named = [i for i, r in enumerate(requests) if r["kind"] != "add"]
            if not named:
                return None
            ambiguous = rng.choice(named)
            target = records["products"][requests[ambiguous]["sku"]]
            noun = target["name"].split()[-1]
            line(product(target["category"], rng.randint(150, 1200), noun=noun), rng.random() < 0.5)
        rng.shuffle(lines)
        final = _serve(records, order_id, requests)[0]
        if any(_serve(records, order_id, requests, blind)[0] == final
               for blind in blinds if DECIDING.get(blind, blind) in deciding):
            return None
        user, turns = [], []  # the customer's messages, and what each is: a request, a clarification, the question
        for index, request in enumerate(requests):
            if index == ambiguous:
                name = f"the {records['products'][request['sku']]['name'].split()[-1]}"
            elif request["kind"] != "add":
                name = f"the {records['products'][request['sku']]['name']} ({request['sku']})"
            if request["kind"] == "substitute":
                user.append(f"Instead of {name}, could you give me the {records['products'][request['new']]['name']} "
                            f"({request['new']})?")
            elif request["kind"] == "remove":
                user.append(f"Please take {name} off my order.")
            else:
                item = records["products"][request["new"]]
                user.append(f"Could you add {request['quantity']} x {item['name']} ({request['new']})?")
            turns.append(f"ask {index}" if index == ambiguous else f"request {index}")
            if index == ambiguous:
                user.append(f"Sorry, I mean the {records['products'][request['sku']]['name']}.")
                turns.append(f"request {index}")
        at = rng.choice([k for k in range(1, len(user) + 1) if not turns[k - 1].startswith("ask")])
        user.insert(at, "By the way, when will my order be delivered?")
        turns.insert(at, "question")
        user.append(rng.choice(CLOSINGS))
        user[0] = f"Hi, it's {customer['name']} ({customer['email']}), about my order {order_id}. {user[0]}"
        budget = 3 + 3 * len(requests) + config.slack  # a substitution takes two look-ups and a call
        substitute = ", by an in-stock product of the same category" if config.alike else ", by a product" if config.cap else ""
        rules = [
            f"1. Only out-of-stock items may be substituted{substitute}"
            + (" whose price is at most 20% above the item's price" if config.cap else "")
            + ". The line keeps its quantity and is charged the lower of the two prices.",
            "2. Packed items cannot be removed.",
            "3. Add only in-stock products" + (f", at most {ADD_LIMIT} units per product" if config.limit else "")
            + ", at the product's price.",
        ]
        if config.allergies:
            rules.append("4. Never substitute a product that contains an allergen the customer listed.")
        prompt = (
            "You are a grocery store's customer-service agent. Store policy:\n" + "\n".join(rules)
            + "\n\nThe customer will tell you what they want over several messages: a reply to them without a tool "
            "call is a message they answer, until they have nothing more to ask. Carry out what the policy allows, "
            "refuse the rest, do nothing they did not ask for, and answer their questions from the records. When "
            "they have nothing more to ask, give your final answer: the order's total now (every line on the order, "
            "unit price times quantity), in dollars, e.g. <answer>$12.34</answer>.\n\n"
            f"Customer: {user[0]}\n\n" + self.tools_prompt(budget)
        )
        data = {"records": records, "order": order_id, "requests": requests, "ambiguous": ambiguous, "user": user, "turns": turns,
                "budget": budget}
        return Problem(prompt=prompt, answer=dollars(_total(final, order_id)), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return _serve(problem.data["records"], problem.data["order"], problem.data["requests"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        return {"the delivery window": problem.data["records"]["orders"][problem.data["order"]]["window"]}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        _, served = _serve(data["records"], data["order"], data["requests"])
        lines = len(data["records"]["orders"][data["order"]]["lines"])
        allergies = bool(next(iter(data["records"]["customers"].values()))["allergies"])
        return 2 * len(served) + served.count(False) + lines / 2 + 2 * allergies + 2 * (data["ambiguous"] is not None)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The new total is {answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 100), dollars(cents + 1), f"{problem.answer} or $0.00"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy_data(data["records"])
        order_id = data["order"]
        customer = records["customers"][records["orders"][order_id]["customer"]]
        replies = [call("find_customer", email=customer["email"]), call("get_order", order_id=order_id)]
        for turn in data["turns"]:  # the oracle's answer to each of the customer's messages but the last
            if turn.startswith("ask"):
                replies.append("There are two of those on your order: which one do you mean?")
            elif turn == "question":
                replies.append(f"It will be delivered between {records['orders'][order_id]['window']}. Anything else?")
            else:
                request = data["requests"][int(turn.split()[1])]
                if "new" in request:
                    replies.append(call("get_product", sku=request["new"]))
                if request["kind"] == "substitute":
                    replies.append(call("get_product", sku=request["sku"]))
                allowed = _allowed(records, order_id, request)
                if allowed:
                    name, arguments = _arguments(records, order_id, request)
                    replies.append(call(name, **arguments))
                    FUNCTIONS[name](records, arguments)
                replies.append(f"{'Done.' if allowed else 'Sorry, the policy does not allow that.'} Anything else?")
        return [*replies, problem.answer or "$0.00"]


def _line(records: Records, order_id: str, sku: str) -> dict[str, Any] | None:
    return next((line for line in records["orders"][order_id]["lines"] if line["sku"] == sku), None)


def _blinds(config: GrocerySubstitutions.Config) -> tuple[str, ...]:
    """The misreadings of the clauses in play, as :func:`_allowed` and :func:`_arguments` read ``blind``: each
    condition of :data:`REFUSALS` in play left out, a substitute charged at the new product's price or the old item's,
    and the price cap and the unit limit read one stricter (a price exactly 20% above refused, the limit's own
    quantity refused). The policy stated at a level is the whole policy on the orders drawn there: a condition not
    in play is never failed."""
    return (("old_stock", "packed", "add_stock", "charge_new", "charge_old")
            + (("new_stock", "category") if config.alike else ()) + (("allergen",) if config.allergies else ())
            + (("cap", "cap_strict") if config.cap else ()) + (("limit", "limit_strict") if config.limit else ()))


def _allowed(records: Records, order_id: str, request: dict[str, Any], blind: str | None = None) -> bool:
    """Whether the policy allows ``request`` (``blind``: the policy with that misreading, see :func:`_blinds`)."""
    kind = request["kind"]
    if kind == "remove":
        line = _line(records, order_id, request["sku"])
        return line is not None and (not line["packed"] or blind == "packed")
    new = records["products"][request["new"]]
    if kind == "add":
        within = request["quantity"] < ADD_LIMIT if blind == "limit_strict" else (
            request["quantity"] <= ADD_LIMIT or blind == "limit")
        return (new["in_stock"] or blind == "add_stock") and within
    old = records["products"][request["sku"]]
    allergies = records["customers"][records["orders"][order_id]["customer"]]["allergies"]
    dearer, cap = 5 * new["price_cents"], 6 * old["price_cents"]
    priced = dearer < cap if blind == "cap_strict" else dearer <= cap or blind == "cap"
    return ((not old["in_stock"] or blind == "old_stock") and (new["in_stock"] or blind == "new_stock")
            and (new["category"] == old["category"] or blind == "category") and priced
            and (not set(new["allergens"]) & set(allergies) or blind == "allergen"))


def _arguments(records: Records, order_id: str, request: dict[str, Any],
               blind: str | None = None) -> tuple[str, dict[str, Any]]:
    """The function and arguments that carry out ``request`` by the policy (``blind``: with that misreading)."""
    if request["kind"] == "remove":
        return "remove_item", {"order_id": order_id, "sku": request["sku"]}
    price = records["products"][request["new"]]["price_cents"]
    if request["kind"] == "add":
        return "add_item", {"order_id": order_id, "sku": request["new"], "quantity": request["quantity"],
                            "unit_price_cents": price}
    old = _line(records, order_id, request["sku"])
    assert old is not None
    kept = old["unit_price_cents"]
    charged = price if blind == "charge_new" else kept if blind == "charge_old" else min(price, kept)
    return "substitute_item", {"order_id": order_id, "old_sku": request["sku"], "new_sku": request["new"],
                               "unit_price_cents": charged}


def _serve(initial: Records, order_id: str, requests: list[dict[str, Any]],
           blind: str | None = None) -> tuple[Records, list[bool]]:
    """The records after ``requests`` are served by the policy (``blind``: with that misreading), and which were."""
    records = copy_data(initial)
    served = []
    for request in requests:
        allowed = _allowed(records, order_id, request, blind)
        served.append(allowed)
        if allowed:
            name, arguments = _arguments(records, order_id, request, blind)
            FUNCTIONS[name](records, arguments)
    return records, served


def _total(records: Records, order_id: str) -> int:
    return sum(line["unit_price_cents"] * line["quantity"] for line in records["orders"][order_id]["lines"])


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_customer(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for customer_id, customer in records["customers"].items():
        if customer["email"] == email:
            orders = [oid for oid, order in records["orders"].items() if order["customer"] == customer_id]
            return (f"customer {customer_id}: {customer['name']}, allergies: "
                    f"{', '.join(customer['allergies']) or 'none listed'}; open order: {', '.join(orders)}"), None
    return f"error: no customer with e-mail {email[:100]!r}", None


def _order(records: Records, args: dict[str, Any]) -> dict[str, Any] | None:
    order: dict[str, Any] | None = records["orders"].get(str(args["order_id"]))
    return order


def _get_order(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = _order(records, args)
    if order is None:
        return f"error: no order {str(args['order_id'])[:40]!r}", None
    rows = [f"order {args['order_id']}: delivery window {order['window']}"]
    for line in order["lines"]:
        stock = "in stock" if records["products"][line["sku"]]["in_stock"] else "OUT OF STOCK"
        rows.append(f"- {line['sku']}: {line['name']}, {dollars(line['unit_price_cents'])} x {line['quantity']}, "
                    f"{stock}{', packed' if line['packed'] else ''}")
    return "\n".join(rows), None


def _get_product(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    item = records["products"].get(str(args["sku"]))
    if item is None:
        return f"error: no product {str(args['sku'])[:40]!r}", None
    return (f"product {args['sku']}: {item['name']}, {item['category']}, {dollars(item['price_cents'])}, "
            f"{'in stock' if item['in_stock'] else 'out of stock'}, allergens: "
            f"{', '.join(item['allergens']) or 'none'}"), None


def _count(value: Any, low: int, high: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


def _substitute(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = _order(records, args)
    new = records["products"].get(str(args["new_sku"]))
    price = _count(args["unit_price_cents"], 0, 10**7)
    if order is None or new is None or price is None:
        return "error: unknown order or product, or a price that is not a whole number of cents", None
    line = _line(records, str(args["order_id"]), str(args["old_sku"]))
    if line is None:
        return f"error: no line {str(args['old_sku'])[:40]!r} on the order", None
    line.update(sku=str(args["new_sku"]), name=new["name"], unit_price_cents=price)
    return f"{args['old_sku']} replaced by {args['new_sku']} at {dollars(price)}", records


def _remove(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = _order(records, args)
    if order is None:
        return f"error: no order {str(args['order_id'])[:40]!r}", None
    line = _line(records, str(args["order_id"]), str(args["sku"]))
    if line is None:
        return f"error: no line {str(args['sku'])[:40]!r} on the order", None
    order["lines"].remove(line)
    return f"{args['sku']} removed", records


def _add(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    order = _order(records, args)
    item = records["products"].get(str(args["sku"]))
    quantity, price = _count(args["quantity"], 1, 99), _count(args["unit_price_cents"], 0, 10**7)
    if order is None or item is None or quantity is None or price is None:
        return "error: unknown order or product, or a quantity or price out of range", None
    order["lines"].append({"sku": str(args["sku"]), "name": item["name"], "unit_price_cents": price,
                           "quantity": quantity, "packed": False})
    return f"{quantity} x {args['sku']} added at {dollars(price)}", records


FUNCTIONS = {"substitute_item": _substitute, "remove_item": _remove, "add_item": _add}
