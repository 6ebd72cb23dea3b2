"""Buy items in a generated shop through its forms: cart quantities, then a checkout the site validates.

The site (:mod:`palaestra.envs.web.common`) is a shop: the start page links to categories, a category page
to its products; a product page shows its price and stock and has an ``add_to_cart`` form (field
``quantity``: the cart line is set to it, 0 removes it); the cart page (linked from every page) lists the
lines and links to the checkout page, whose ``checkout`` form takes the customer's name, street, city,
postcode, phone and a shipping option from the page's table (code, price, days). The site validates like
a real one and names the field at fault (a phone must be 10 digits, a postcode 5 digits, a quantity at
most the stock, a shipping code one of the table's); an order placed empties the cart and gets a number
the site says once, which the agent reports.

The prompt gives the items (by name: products of similar names exist), the customer's details in
human writing (a phone with brackets and a dash), and asks for the cheapest shipping that arrives within
some days (the cheapest option overall is too slow; a dearer one arrives in time too, and so do faster ones). The episode is judged on the
answer (the order number) and on the final records: exactly one order, with the asked items, quantities,
details and shipping, and an empty cart (an order placed twice or with a wrong line fails). The
difficulty is the items to buy plus the categories and shipping options to read.

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
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import Records, call
from palaestra.envs.web.common import WebTask, judge_code, new_path, page, route_moves, site_records
from palaestra.generators.knowledge import NameForge

GOODS = ("lamp", "kettle", "backpack", "chair", "mug", "jacket", "tent", "scarf", "clock", "vase")
SPEEDS = ("economy", "saver", "standard", "tracked", "priority", "express", "overnight", "courier")
EXAMPLE = "10000"
FIELDS = ("name", "street", "city", "postcode", "phone", "shipping")
EDGE_ODDS = 0.5  # share of problems whose asked days are the answer's (_shipping_table; 0.85 in version 4)


def _shipping_table(rng: random.Random, options: int, edge: bool) -> tuple[list[tuple[int, int]], int, int] | None:
    """Shipping options as (days, price), slowest first, the answer's index and the days asked for.

    From the slowest: ``slow`` options too slow and all cheaper than the answer, a dearer one still in time (the
    "partner"), the answer, and faster, dearer ones. At the ``edge`` the answer and its partner take the days asked
    for (in either order) and the fastest of the slow ones one day more; else the partner is slower than the answer
    and the days asked for lie between the partner's and the slow ones'.
    """
    slow = rng.randint(1, options - 3)
    fast = options - slow - 2
    values = sorted(rng.sample(range(1, 12), options - 1 if edge else options), reverse=True)
    slow_days, rest = values[:slow], values[slow:]
    if edge:
        answer_days = partner_days = within = rest[0]
        if slow_days[-1] != within + 1:
            return None
    else:
        partner_days, answer_days = rest[0], rest[1]
        within = rng.randint(partner_days, slow_days[-1] - 1)
    fast_days = rest[-fast:]
    prices = sorted(rng.sample(range(300, 4000, 25), options))
    slow_prices, dearer = prices[:slow], prices[slow + 1:]
    rng.shuffle(slow_prices)
    rng.shuffle(dearer)
    answer, partner = (answer_days, prices[slow]), (partner_days, dearer[0])
    pair = [partner, answer] if not edge or rng.random() < 0.5 else [answer, partner]
    table = [*zip(slow_days, slow_prices), *pair, *zip(fast_days, dearer[1:])]
    return table, table.index(answer), within


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _clean(value: str) -> str:
    return " ".join(value.split()).casefold()


@register
class Checkout(WebTask):
    id = "web/checkout"
    version = 5  # v5: the answer at the deadline in half the problems (v4: a dearer option in time beside it)
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
        Config((1, 1), 1, 3, 6, 6),
        Config((1, 2), 2, 3, 6, 7),
        Config((2, 2), 2, 4, 7, 8),
        Config((2, 3), 3, 4, 7, 9),
        Config((3, 4), 4, 4, 8, 10),
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
        edge = rng.random() < EDGE_ODDS
        table, k, within = retry(lambda: _shipping_table(rng, config.shipping, edge), what="shipping options",
                                 attempts=200)
        options = {code: {"days": d, "price": p} for code, (d, p) in zip(speeds, table)}
        shipping = speeds[k]
        pages[checkout_path] = page(
            "Checkout", ["Shipping options (use the code in the shipping field):"],
            [["Cart", cart_path], ["Home", "/"]],
            [["code", "price", "delivery days"], *[[c, _money(o["price"]), str(o["days"])] for c, o in options.items()]],
            {"checkout": list(FIELDS)})
        pages[cart_path]["links"] = [["Checkout", checkout_path], ["Home", "/"]]
        pages[cart_path]["text"] = ["Your cart is empty."]
        wanted = rng.sample(sorted(catalog), rng.randint(*config.items))
        quantities = {path: rng.randint(1, min(3, catalog[path]["stock"])) for path in wanted}
        first, last = forge.word(2), forge.word(2)
        street = f"{rng.randint(2, 250)} {forge.word(2)} {rng.choice(('Street', 'Road', 'Lane', 'Avenue'))}"
        city, postcode = forge.word(3), f"{rng.randint(0, 99_999):05d}"
        digits = f"{rng.randint(200, 999)}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"
        customer = {"name": f"{first} {last}", "street": street, "city": city, "postcode": postcode,
                    "phone": digits}
        records = site_records(pages, catalog=catalog, cart={}, orders=[], shipping=options, cart_page=cart_path,
                               next_order=rng.randint(10_001, 99_999))
        lines = ", ".join(f"{quantities[p]} x {catalog[p]['title']}" for p in wanted)
        budget = 3 * len(wanted) + 2 * config.categories + 6 + config.slack  # room to read every category once
        prompt = (
            f"You are shopping for a customer on a website whose start page is /. Buy exactly these items: {lines}. "
            f"Ship them to {first} {last}, {street}, {postcode} {city}; phone ({digits[:3]}) {digits[3:6]}-"
            f"{digits[6:]}. Choose the cheapest shipping option that delivers within {within} days. Place one "
            "order with the site's forms (fill_and_submit fills a form of the page open now), then answer with "
            f"the order number the site gives, e.g. <answer>{EXAMPLE}</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"records": records, "wanted": [[p, quantities[p]] for p in wanted], "routes": routes,
                "customer": customer, "shipping": shipping, "checkout": checkout_path, "budget": budget}
        return Problem(prompt=prompt, answer=str(records["next_order"]), data=data)

    # --- the site's forms (they validate input; what to buy is the agent's business) -----------------------
    def submit(self, records: Records, form_id: str, fields: dict[str, str]) -> tuple[str, Records | None]:
        if form_id == "add_to_cart":
            return _add_to_cart(records, fields)
        return _checkout(records, fields)

    def _submissions(self, problem: Problem) -> list[tuple[str | None, dict[str, str]]]:
        """The oracle's form submissions: the page open and the form's fields."""
        data = problem.data
        steps: list[tuple[str | None, dict[str, str]]] = [(path, {"quantity": str(q)}) for path, q in data["wanted"]]
        return [*steps, (None, {**data["customer"], "shipping": data["shipping"]})]

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy.deepcopy(problem.data["records"])
        for path, fields in self._submissions(problem):
            records["browser"] = {"at": path or problem.data["checkout"]}
            changed = self.submit(records, "checkout" if path is None else "add_to_cart", fields)[1]
            assert changed is not None, "the oracle's submission was refused"
            records = changed
        return records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return (2 * len(data["wanted"]) + sum(q for _, q in data["wanted"]) / 2 + len(data["routes"]) / 4
                + len(data["records"]["shipping"]) / 2)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_code(answer, problem.answer or "", "order number")

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        pages = data["records"]["site"]["pages"]
        moves: list[str] = []
        for path, fields in self._submissions(problem):
            if path is None:
                moves.append(call("open", url=data["checkout"]))
                moves.append(call("fill_and_submit", form_id="checkout", fields=fields))
            else:
                moves += route_moves(pages, data["routes"][path])
                moves.append(call("fill_and_submit", form_id="add_to_cart", fields=fields))
        return [*moves, problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [f"Order {answer}", f"order number {answer}.", f"The order number is {answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        number = int(problem.answer or EXAMPLE)
        return [str(number + 1), str(number - 1), f"{number} or {number + 1}", EXAMPLE]


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

