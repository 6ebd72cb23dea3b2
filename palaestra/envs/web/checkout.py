"""Buy items in a generated shop through its forms: cart quantities, then a checkout the site validates.

The site (:mod:`palaestra.envs.web.common`) is a shop: the start page links to categories, a category page
to its products; a product page shows its price and stock and has an ``add_to_cart`` form (field
``quantity``: the cart line is set to it, 0 removes it); the cart page (linked from every page) lists the
lines and links to the checkout page, whose ``checkout`` form takes the customer's name, street, city,
postcode, phone and a shipping option from the page's table (code, price, days). The site validates like
a real one and names the field at fault (a phone must be 10 digits, a postcode 5 digits, a quantity at
most the stock, a shipping code one of the table's); an order placed empties the cart and gets a number
the site says once, which the agent reports.

The prompt asks for two orders, placed one after the other through the same forms, each with its items (by name:
products of similar names exist), its recipient's details in human writing (a phone with brackets and a dash) and
the cheapest shipping that arrives within its own number of days (the cheapest option overall is too slow for both;
a dearer one arrives in time too, and so do faster ones). The episode is judged on the answer (the second order's
number) and on the final records: exactly these two orders, in this order, with the asked items, quantities,
details and shipping, and an empty cart (an order placed twice or with a wrong line fails). The difficulty is the
items to buy plus the categories and shipping options to read.

Version 2 (session-30 red team): the answer is any option but the cheapest (the fastest too), among 4 to 6; in
version 1 it was drawn from the second to the third-fastest of 3 to 5 options, so the second-cheapest option was
the answer in every problem of levels 0-1 (33-52% of levels 2-4).

Version 3 (red team, round 3, session 31): in 4 problems in 5 the answer takes exactly the days asked for and the next
cheaper option one day more, so reading "within N days" as "under N days" (right in 0.25-0.42 of levels 0-5 before)
or as "N + 1 days or under" (0.28-0.40) picks another option; over 300 problems a level both are now right in 0.03-0.09.

Version 4 (red team, round 3, session 32): prices rose with speed, so the cheapest option in time was always the
slowest one in time and ignoring the prices paid: the slowest option within the days won every problem, the option
taking exactly the days asked for 0.90-0.99, and the fastest 0.17-0.35 of levels 0-5 (100 seeds). Now the table
(:func:`_shipping_table`) has a dearer option in time beside the answer (taking the same days at the edge, in either
order; more days otherwise), the answer is never the fastest, and the faster options' prices are shuffled above it:
over 100 seeds a level the fastest, the cheapest and the dearest win 0; the slowest in time (ties by row) 0.36-0.50;
the first option taking exactly the days asked for 0.36-0.46; each fixed price rank at most 0.42 (levels 0-1 offer
six options, three of them possible answers). The cheapest of the options taking exactly the days asked for still
wins 0.82-0.94 there: it is right wherever "under N days" is wrong, which version 3 kept under 0.2.

Version 5 (the lead, session 32): one deadline cannot make both "under N days" and "exactly N days" err (the first
is wrong only when the answer takes N days, the second only when it does not), so the answer sits at the deadline
in half the problems (``EDGE_ODDS``; 0.85 in version 4): over 100 seeds a level (0-5) "exactly N days" wins
0.38-0.55 (0.81-0.91 in version 4), "under N days" 0.45-0.62 (0.09-0.19), "N + 1 days or under" 0.04-0.15, the
slowest option in time 0.21-0.29 (0.42-0.47). Half is this design's floor; a second deadline in a problem (two
orders) would be the fix.

Version 6 (red team, round 3, session 34): two orders, each with its own deadline, over one shipping table
(:func:`_shipping_table`): one deadline sits at its answer's edge (a dearer partner taking the same days, the next
slower option one day more and cheaper), at the other the answer is strictly faster than a dearer partner taking
the deadline's days; the later deadline's answer is the cheaper one. Each reading below fails one of the two orders
in every problem, and a wrong order fails the episode: over 100 seeds a level (0-5), playing the oracle with the
shipping choice replaced, "under N days" wins 0 (0.40-0.55 in version 5), "exactly N days" 0 (0.45-0.60), "N + 1
days or under" 0 (0.05-0.17), the slowest option in time 0 (0.24-0.29), "exactly N days, else the cheapest under" 0
(0.55-0.69), "N - 1 or N days" 0 (0.65-0.87), each fixed price rank 0 (rank 1: 0.17-0.41); the fastest and the
cheapest stay at 0 (these two and the first four are :meth:`Checkout.heuristics`). Version 5's
answer lay at most one speed below its deadline, so the cheapest of the two slowest speeds in time won every
problem; now most extra options lie between an answer and its partner, and one or two more options a level (7 to
9) leave the cheapest of the two slowest speeds in time 0.00-0.09, "N - 2 to N days" 0.00-0.19 (0.84-0.98), the
three slowest speeds 0.48, 0.48, 0.16, 0.28, 0.03, 0.02 (a small table's in-time options are few: that rule then
is the stated one).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Policy, Problem, Verdict, register
from palaestra.core.problem import copy_data
from palaestra.core.task import Growth
from palaestra.envs.service.common import Records, call
from palaestra.envs.web.common import WebTask, judge_code, new_path, page, route_moves, site_records
from palaestra.generators.knowledge import NameForge

GOODS = ("lamp", "kettle", "backpack", "chair", "mug", "jacket", "tent", "scarf", "clock", "vase")
SPEEDS = ("freight", "economy", "saver", "parcel", "standard", "tracked", "priority", "express", "rush", "overnight",
          "courier")
EXAMPLE = "10000"
FIELDS = ("name", "street", "city", "postcode", "phone", "shipping")
ORDINALS = ("First", "Second")
ShippingRule = Callable[[dict[str, dict[str, int]], int], str]  # (the shipping options, the days asked for) -> a code


def _ladder(start: int, gaps: list[int]) -> list[int]:
    """Days rising from ``start`` by ``gaps``."""
    days = [start]
    for gap in gaps:
        days.append(days[-1] + gap)
    return days


def _deadline_group(rng: random.Random, edge: bool, between: int) -> tuple[list[int], int, int]:
    """One deadline's options, fastest first, as days after the group's first: its answer, ``between`` dearer
    options and a dearer partner; the answer's and the partner's places in the group.

    At the ``edge`` the answer and its partner take the same days (the deadline's), in either order; else the partner
    is slower and takes the deadline's days, the answer at least two days fewer (an option between them or a day
    free), so "exactly N days" picks the partner and "N - 1 or N days" the partner or the option between."""
    if edge:
        answer = rng.randrange(2)
        return [0, 0], answer, 1 - answer
    gaps = [rng.randint(1, 2) for _ in range(between + 1)] if between else [rng.randint(2, 3)]
    return _ladder(0, gaps), 0, between + 1


def _shipping_table(rng: random.Random, options: int) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Shipping options as (days, price), slowest first; the rows of the later and the earlier deadline's answers,
    and the two deadlines, in that order.

    From the fastest up: ``fast`` options, the earlier deadline's group, the later one's (:func:`_deadline_group`)
    and ``slow`` options too slow for both. One deadline (either) sits at its answer's edge, where the next slower
    option takes one day more and is cheaper (a slow option, or the later deadline's answer); at the other the
    answer is strictly faster than a dearer partner taking the deadline's days. Prices: the slow options are the
    cheapest, then the later deadline's answer, then the earlier one's; the other options are dearer, shuffled.
    """
    later_at_edge = rng.random() < 0.5
    slow, fast, between = 1, 0, 0
    for _ in range(options - 5):  # beyond one slow option and each deadline's answer and partner
        # most extra options lie between an answer and its slower partner: "the cheapest of the k slowest speeds in
        # time" then passes over the answer
        place = "between" if rng.random() < 0.75 else rng.choice(("slow", "fast"))
        slow, fast, between = slow + (place == "slow"), fast + (place == "fast"), between + (place == "between")
    earlier, earlier_answer, earlier_partner = _deadline_group(rng, not later_at_edge, between if later_at_edge else 0)
    later, later_answer, later_partner = _deadline_group(rng, later_at_edge, 0 if later_at_edge else between)
    days = _ladder(rng.randint(1, 2), [rng.randint(1, 2) for _ in range(fast)])[:fast]
    earlier_start = days[-1] + rng.randint(1, 2) if days else rng.randint(1, 3)
    # the edge's next slower option takes one day more: the later deadline's answer, or the first slow option
    later_start = earlier_start + earlier[-1] + (rng.randint(1, 2) if later_at_edge else 1)
    slow_start = later_start + later[-1] + (1 if later_at_edge else rng.randint(1, 2))
    days += [earlier_start + offset for offset in earlier] + [later_start + offset for offset in later]
    days += _ladder(slow_start, [rng.randint(1, 2) for _ in range(slow - 1)])
    prices = sorted(rng.sample(range(300, 4000, 25), options))
    slow_prices, dearer = prices[:slow], prices[slow + 2:]
    rng.shuffle(slow_prices)
    rng.shuffle(dearer)
    earlier_prices = dearer[fast:fast + len(earlier) - 1]
    earlier_prices.insert(earlier_answer, prices[slow + 1])
    later_prices = dearer[fast + len(earlier) - 1:]
    later_prices.insert(later_answer, prices[slow])
    rows = list(zip(days, [*dearer[:fast], *earlier_prices, *later_prices, *slow_prices]))
    answers = [fast + len(earlier) + later_answer, fast + earlier_answer]
    deadlines = [later_start + later[later_partner], earlier_start + earlier[earlier_partner]]
    return rows[::-1], [len(rows) - 1 - row for row in answers], deadlines


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _clean(value: str) -> str:
    return " ".join(value.split()).casefold()


@register
class Checkout(WebTask):
    id = "web/checkout"
    version = 6  # v6: two orders, one deadline at its answer's edge and one above it (v5: one order, one deadline)
    family = "web"
    description = "Buy the asked items through a shop's cart and validated checkout form; report the order number."
    tags = ("web", "navigation", "forms", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow", "fill_and_submit")

    @dataclass(frozen=True)
    class Config:
        items: tuple[int, int]  # distinct products to buy
        categories: int
        per_category: int
        shipping: int  # shipping options
        slack: int

    presets = (
        Config((1, 1), 1, 3, 7, 6),
        Config((1, 2), 2, 3, 7, 7),
        Config((2, 2), 2, 4, 8, 8),
        Config((2, 3), 3, 4, 8, 9),
        Config((3, 4), 4, 4, 9, 10),
    )
    growth = Growth(limits={"categories": 10, "per_category": 8, "shipping": len(SPEEDS), "slack": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        forge = NameForge(rng)
        pages: dict[str, dict[str, Any]] = {"/": page("Shop home", ["Welcome! Browse a category."])}
        cart_path, checkout_path = new_path(rng, "s", pages), ""
        pages[cart_path] = page("Your cart")
        checkout_path = new_path(rng, "s", pages)
        catalog: dict[str, dict[str, Any]] = {}
        routes: dict[str, list[str]] = {}
        for _ in range(config.categories):
            noun = rng.choice(GOODS)
            category = new_path(rng, "c", pages)
            name = f"{forge.word(2)} {noun}s"
            pages[category] = page(name.capitalize())
            pages["/"]["links"].append([name.capitalize(), category])
            stem = forge.word(2)
            for index in range(config.per_category):
                # products of one category share a stem, so the asked one is told apart by its full name
                title = f"{stem} {noun}" + ("" if index == 0 else f" {rng.choice(('mini', 'XL', 'pro', 'II'))}")
                if any(p["title"] == title for p in catalog.values()):
                    title = f"{forge.word(2)} {noun}"
                path = new_path(rng, "p", pages)
                product: dict[str, Any] = {"title": title, "sku": f"{forge.word(1).upper()}-{rng.randint(100, 999)}",
                           "price": rng.randint(500, 20_000), "stock": rng.randint(2, 9)}
                catalog[path] = product
                pages[path] = page(title, [f"SKU: {product['sku']}", f"Price: {_money(product['price'])}",
                                           f"In stock: {product['stock']}"],
                                   [[f"Back to {pages[category]['title']}", category], ["Cart", cart_path],
                                    ["Home", "/"]], forms={"add_to_cart": ["quantity"]})
                pages[category]["links"].append([title, path])
                routes[path] = ["/", category, path]
            rng.shuffle(pages[category]["links"])
            pages[category]["links"] += [["Cart", cart_path], ["Home", "/"]]
        pages["/"]["links"].append(["Cart", cart_path])
        speeds = sorted(rng.sample(SPEEDS, config.shipping), key=SPEEDS.index)
        table, answer_rows, deadlines = _shipping_table(rng, config.shipping)
        options = {code: {"days": d, "price": p} for code, (d, p) in zip(speeds, table)}
        pages[checkout_path] = page(
            "Checkout", ["Shipping options (use the code in the shipping field):"],
            [["Cart", cart_path], ["Home", "/"]],
            [["code", "price", "delivery days"], *[[c, _money(o["price"]), str(o["days"])] for c, o in options.items()]],
            {"checkout": list(FIELDS)})
        pages[cart_path]["links"] = [["Checkout", checkout_path], ["Home", "/"]]
        pages[cart_path]["text"] = ["Your cart is empty."]
        later_first = rng.random() < 0.5  # which order has the later deadline (and the cheaper answer)
        orders: list[dict[str, Any]] = []
        asked: list[str] = []
        for index in (0, 1) if later_first else (1, 0):
            wanted = rng.sample(sorted(catalog), rng.randint(*config.items))
            quantities = {path: rng.randint(1, min(3, catalog[path]["stock"])) for path in wanted}
            customer = _draw_customer(rng, forge)
            orders.append({"wanted": [[path, quantities[path]] for path in wanted], "customer": customer,
                           "shipping": speeds[answer_rows[index]], "within": deadlines[index]})
            lines = ", ".join(f"{quantities[p]} x {catalog[p]['title']}" for p in wanted)
            digits = customer["phone"]
            asked.append(f"buy exactly these items: {lines}; ship them to {customer['name']}, {customer['street']}, "
                         f"{customer['postcode']} {customer['city']}; phone ({digits[:3]}) {digits[3:6]}-{digits[6:]}; "
                         f"choose the cheapest shipping option that delivers within {deadlines[index]} days")
        records = site_records(pages, catalog=catalog, cart={}, orders=[], shipping=options, cart_page=cart_path,
                               next_order=rng.randint(10_001, 99_998))
        items = sum(len(order["wanted"]) for order in orders)
        budget = 3 * items + 2 * config.categories + 10 + config.slack  # room to read every category once
        prompt = (
            "You are shopping on a website whose start page is /. Place two orders, one after the other. "
            f"{' '.join(f'{ORDINALS[i]} order: {words}.' for i, words in enumerate(asked))} Place each order with "
            "the site's forms (fill_and_submit fills a form of the page open now; an order takes what is in the "
            "cart), the first before the second, and order nothing else; then answer with the order number the "
            f"site gives the second order, e.g. <answer>{EXAMPLE}</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"records": records, "orders": orders, "routes": routes, "checkout": checkout_path, "budget": budget}
        return Problem(prompt=prompt, answer=str(records["next_order"] + 1), data=data)

    # --- the site's forms (they validate input; what to buy is the agent's business) -----------------------
    def submit(self, records: Records, form_id: str, fields: dict[str, str]) -> tuple[str, Records | None]:
        if form_id == "add_to_cart":
            return _add_to_cart(records, fields)
        return _checkout(records, fields)

    def _submissions(self, problem: Problem, choose: ShippingRule | None = None
                     ) -> list[tuple[str | None, dict[str, str]]]:
        """The form submissions of the oracle (of ``choose``'s shipping choice, where given): the page open (None
        for the checkout page) and the form's fields."""
        options = problem.data["records"]["shipping"]
        steps: list[tuple[str | None, dict[str, str]]] = []
        for order in problem.data["orders"]:
            shipping = order["shipping"] if choose is None else choose(options, order["within"])
            steps += [(path, {"quantity": str(q)}) for path, q in order["wanted"]]
            steps.append((None, {**order["customer"], "shipping": shipping}))
        return steps

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy_data(problem.data["records"])
        for path, fields in self._submissions(problem):
            records["browser"] = {"at": path or problem.data["checkout"]}
            changed = self.submit(records, "checkout" if path is None else "add_to_cart", fields)[1]
            assert changed is not None, "the oracle's submission was refused"
            records = changed
        return records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        wanted = [line for order in data["orders"] for line in order["wanted"]]
        return (2 * len(wanted) + sum(q for _, q in wanted) / 2 + len(data["routes"]) / 4
                + len(data["records"]["shipping"]) / 2)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_code(answer, problem.answer or "", "order number")

    def plan(self, problem: Problem) -> list[str]:
        return [*self._moves(problem), problem.answer or ""]

    def _moves(self, problem: Problem, choose: ShippingRule | None = None) -> list[str]:
        """The oracle's tool calls (with ``choose``'s shipping choice, where given)."""
        data = problem.data
        pages = data["records"]["site"]["pages"]
        moves: list[str] = []
        for path, fields in self._submissions(problem, choose):
            if path is None:
                moves.append(call("open", url=data["checkout"]))
                moves.append(call("fill_and_submit", form_id="checkout", fields=fields))
            else:
                moves += route_moves(pages, data["routes"][path])
                moves.append(call("fill_and_submit", form_id="add_to_cart", fields=fields))
        return moves

    def heuristics(self) -> dict[str, Policy]:
        """The oracle's play with another reading of "the cheapest option that delivers within N days"."""

        def playing(choose: ShippingRule) -> Policy:
            def policy(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
                moves = self._moves(problem, choose)
                if len(history) < len(moves):
                    return moves[len(history)]
                numbers = re.findall(r"order number is (\d+)", " ".join(seen for _, seen in history))
                return numbers[-1] if numbers else EXAMPLE  # the number the site gave the last order

            return policy

        return {name: playing(choose) for name, choose in MISREADINGS.items()}

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [f"Order {answer}", f"order number {answer}.", f"The order number is {answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        number = int(problem.answer or EXAMPLE)
        first = number - 1  # the first order's number
        return [str(number + 1), str(first), f"{first}, {number}", f"{number} or {first}", EXAMPLE]


def _draw_customer(rng: random.Random, forge: NameForge) -> dict[str, str]:
    street = f"{rng.randint(2, 250)} {forge.word(2)} {rng.choice(('Street', 'Road', 'Lane', 'Avenue'))}"
    digits = f"{rng.randint(200, 999)}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"
    return {"name": f"{forge.word(2)} {forge.word(2)}", "street": street, "city": forge.word(3),
            "postcode": f"{rng.randint(0, 99_999):05d}", "phone": digits}


def _cheapest(options: dict[str, dict[str, int]], keep: Callable[[int], bool]) -> str:
    """The cheapest shipping code whose days ``keep`` allows ("none" where none does: the site refuses it)."""
    allowed = [(option["price"], code) for code, option in options.items() if keep(option["days"])]
    return min(allowed)[1] if allowed else "none"


def _slowest_in_time(options: dict[str, dict[str, int]], within: int) -> str:
    in_time = [(option["days"], code) for code, option in options.items() if option["days"] <= within]
    return max(in_time, key=lambda row: row[0])[1]  # ties: the first row


# Readings of "the cheapest option that delivers within N days" a policy could learn instead of it, and rules that
# skip a clause: each fails at least one of the two orders in every problem.
MISREADINGS: dict[str, ShippingRule] = {
    "within N days read as under N days": lambda options, n: _cheapest(options, lambda days: days < n),
    "within N days read as exactly N days": lambda options, n: _cheapest(options, lambda days: days == n),
    "within N days read as N + 1 days or under": lambda options, n: _cheapest(options, lambda days: days <= n + 1),
    "the slowest option in time": _slowest_in_time,
    "the fastest option": lambda options, n: min(options, key=lambda code: options[code]["days"]),
    "the cheapest option": lambda options, n: _cheapest(options, lambda days: True),
}


def _cart_text(records: Records) -> list[str]:
    catalog = records["catalog"]
    lines = [f"{catalog[path]['title']} ({catalog[path]['sku']}): {quantity} x {_money(catalog[path]['price'])}"
             for path, quantity in records["cart"].items()]
    total = sum(catalog[path]["price"] * quantity for path, quantity in records["cart"].items())
    return [*lines, f"Total: {_money(total)}"] if lines else ["Your cart is empty."]


def _add_to_cart(records: Records, fields: dict[str, str]) -> tuple[str, Records | None]:
    path = records["browser"]["at"]
    product = records["catalog"][path]
    quantity = fields.get("quantity", "").strip()
    if not quantity.isdigit() or len(quantity) > 3:
        return "error: quantity: a whole number is required", None
    if int(quantity) > product["stock"]:
        return f"error: quantity: only {product['stock']} in stock", None
    if int(quantity) == 0:
        records["cart"].pop(path, None)
    else:
        records["cart"][path] = int(quantity)
    records["site"]["pages"][records["cart_page"]]["text"] = _cart_text(records)
    return f"cart updated: {product['title']} x {quantity}", records


def _checkout(records: Records, fields: dict[str, str]) -> tuple[str, Records | None]:
    problems = [f"{field}: required" for field in FIELDS if not fields.get(field, "").strip()]
    phone, postcode = fields.get("phone", "").strip(), fields.get("postcode", "").strip()
    if phone and not (phone.isdigit() and len(phone) == 10):
        problems.append("phone: 10 digits, without spaces or signs")
    if postcode and not (postcode.isdigit() and len(postcode) == 5):
        problems.append("postcode: 5 digits")
    code = _clean(fields.get("shipping", ""))
    if code and code not in records["shipping"]:
        problems.append(f"shipping: one of {', '.join(records['shipping'])}")
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        problems.append(f"unknown fields: {', '.join(unknown)[:100]}")
    if not records["cart"]:
        problems.append("the cart is empty")
    if problems:
        return "error: the order was not placed: " + "; ".join(problems), None
    number = records["next_order"]
    total = sum(records["catalog"][p]["price"] * q for p, q in records["cart"].items())
    total += records["shipping"][code]["price"]
    records["orders"].append({"number": number, "items": {records["catalog"][p]["sku"]: q
                                                          for p, q in records["cart"].items()},
                              **{field: _clean(fields[field]) for field in FIELDS}, "total": total})
    records["cart"], records["next_order"] = {}, number + 1
    records["site"]["pages"][records["cart_page"]]["text"] = _cart_text(records)
    return f"Thank you! Your order number is {number} (total {_money(total)}).", records

