"""Compare what the same product costs delivered from several generated shops; answer the lowest total.

The site (:mod:`palaestra.envs.web.common`) is a shop finder: the start page links to 2 to 4 or more shops;
each shop has a home page linking to its catalogue (a table over one or more pages: product, model code,
condition, price), its shipping page and, from level 2, a deals page. Shipping rules differ by shop: a flat
fee waived from some items' cost on, or a fee for the first item plus one for each further item. A deal
takes a percentage off the items' cost from some amount on (the cost after it rounded down to the cent);
the free-shipping threshold is met by the items' cost after the deal. The prompt asks for some units of a
product by its model code, new: each shop sells it (with another name), and from level 1 also refurbished
at a lower price.

The answer is the lowest total (items plus shipping) over the shops, in dollars and cents; totals are
distinct by construction. The shop with the lowest unit price is the cheapest delivered in one draw in as many
as there are shops (chance), so comparing prices alone and working out that shop's total fails: in version 1 a
draw where it was the best was kept one time in five, and as the lower price wins 9 draws in 10 between two
shops, that rule was right in 63-71% of levels 0-1 and ~30% of levels 2-4. The difficulty is a third of the catalogue rows plus the shipping and deals
pages plus the units plus the traps and rules in play.

Version 3 (red team, round 3): most stated rules rarely decided the answer, so a reading that left one out was
right in most problems (levels 0-4): counting the free-shipping threshold before the deal 0.97-0.99, the deal
without its threshold 0.77-0.87, the flat fee always due 0.73-0.86, the first item's fee for every item 0.62-0.77,
comparing the shops for one unit 0.66-0.84, the deal rounded up 0.39-0.56. Now every shop of a problem ships by one
kind of rule (flat fee or per item, even odds), the units are two to five, deals (most shops, from level 2) and
free-shipping thresholds are placed just either side of the shop's items cost (or, with a deal, between the cost
before and after it), and a draw is kept only when each misreading in play gives a wrong lowest total (with flat
fees and deals, two of the five, one of them the threshold's or the fee's): over 200 problems a level, of those
where the rule is in play, at levels 2-4, the threshold before the deal 0.34-0.40, the fee always due 0.33-0.39
(0 at levels 0-1), the deal without its threshold 0.22-0.25, rounded up 0.15-0.23, ignored 0.06-0.07, either
per-item misreading and one-unit comparison 0.

Version 4 (red team, round 3, session 31): with flat fees and deals only two misreadings were required to fail, so
counting the threshold before the deal (0.32-0.38 at levels 2-4) and the fee always due (0.36-0.37) still paid. Both
must now fail in every such problem, with one deal misreading (the deal without its threshold half the time); the
shops' numbers are drawn and checked before the site is built, so the few hundred draws this takes stay cheap. Over 150
problems a level at levels 2-4: both fee misreadings 0.32-0.38 -> 0, the deal without its threshold 0.20-0.21, rounded
up 0.25-0.29, ignored 0.11-0.12.

Generation speed: 0.5-6 ms of CPU a problem (level 2 slowest).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import call, cents_of, dollars, judge_dollars
from palaestra.envs.web.common import WebTask, new_path, page, site_records
from palaestra.generators.knowledge import NameForge

GOODS = ("blender", "drill", "lantern", "toaster", "router", "heater", "scale", "fan", "speaker", "kettle")
SHOP_WORDS = ("Market", "Depot", "Store", "Outlet", "Bazaar", "Supply")
PER_PAGE = 6
# Draws of the shops' numbers (a few microseconds each; the site is built once they pass): with flat fees and deals a
# few hundred are needed on average, and none of 160 problems at levels 0-7 ran out.
ATTEMPTS = 20_000


@register
class CompareSites(WebTask):
    id = "web/compare_sites"
    family = "web"
    description = "Compare a product's delivered cost (price, shipping rules, deals) across several generated shops; answer the lowest total."
    tags = ("web", "navigation", "comparison", "arithmetic", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow")
    version = 4  # v4: both misreadings of the free-shipping rule fail in every problem with flat fees and deals

    @dataclass(frozen=True)
    class Config:
        shops: int
        listed: tuple[int, int]  # catalogue rows per shop
        refurbished: bool
        deals: bool
        slack: int

    presets = (
        Config(2, (3, 5), False, False, 3),
        Config(2, (4, 7), True, False, 3),
        Config(3, (5, 9), True, True, 4),
        Config(3, (7, 12), True, True, 4),
        Config(4, (8, 14), True, True, 5),
    )
    growth = Growth(limits={"shops": 8, "listed": (20, 30), "slack": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        lowest_wins = rng.random() < 1 / config.shops  # the lowest unit price is the best deal at chance rate only
        kind = rng.choice(("flat", "per item"))  # every shop's kind of shipping rule, so each rule in play decides
        slips = (*(DEAL_SLIPS if config.deals else ()),
                 *(PER_ITEM_SLIPS if kind == "per item" else FLAT_SLIPS if config.deals else FLAT_SLIPS[:1]))
        # Each misreading in play must give a wrong total; with flat fees and deals, both of the fee's and one of the
        # deal's (all five at once are met by too few draws: the fee that stays due wants the cheapest shop's
        # shipping free, the threshold counted before the deal another shop's threshold between its costs), the
        # deal without its threshold half the time as it passes most when not required.
        required = slips
        if kind == "flat" and config.deals:
            required = (*FLAT_SLIPS, rng.choice(("deal below its threshold", "deal below its threshold",
                                                  "no deal", "deal rounded up")))
        return retry(lambda: self._draw(rng, config, lowest_wins, kind, required),
                     what="shops with one cheapest delivered total that the rules in play decide", attempts=ATTEMPTS)

    def _draw(self, rng: random.Random, config: Config, lowest_wins: bool, kind: str,
              required: Sequence[str]) -> Problem | None:
        # The numbers first (cheap), the site only for a draw they pass: a few thousand draws may be needed.
        units = rng.randint(2, 5)  # from two: with one unit the per-item fees' slips give the right total
        base = rng.randint(20, 200) * 100
        offers: list[tuple[int, dict[str, Any], tuple[int, int] | None]] = []  # each shop's price, shipping, deal
        for _ in range(config.shops):
            price = base + rng.randint(-15, 15) * 100 + rng.choice((0, 49, 99))
            deal = _deal(rng, price * units) if config.deals and rng.random() < 0.85 else None
            rule = _shipping(rng, kind, price * units, _delivered(price, units, {"kind": "none"}, deal, None))
            offers.append((price, rule, deal))
        totals = [_total(price, units, rule, deal) for price, rule, deal in offers]
        prices = [price for price, _, _ in offers]
        best = min(totals)
        if totals.count(best) > 1 or (prices.index(min(prices)) == totals.index(best)) != lowest_wins:
            return None
        if any(min(_delivered(price, units, rule, deal, slip) for price, rule, deal in offers) == best
               for slip in required):
            return None  # a reading that leaves one stated rule out would give the right total
        price, rule, deal = min(offers, key=lambda offer: _delivered(offer[0], 1, offer[1], offer[2], None))
        if _total(price, units, rule, deal) == best:
            return None  # comparing the shops for one unit would pick the right one
        forge = NameForge(rng)
        good = rng.choice(GOODS)
        model = f"{rng.choice('BCDFGHKMNPRSTVXZ')}{rng.choice('BCDFGHKMNPRSTVXZ')}-{rng.randint(100, 999)}"
        pages: dict[str, dict[str, Any]] = {"/": page("Shop finder", ["Shops we list:"])}
        shops: list[dict[str, Any]] = []
        brands = [forge.word(2) for _ in range(10)]  # product names need not be unique: a few brands serve
        for price, rule, deal in offers:
            shop = f"{forge.word(2)} {rng.choice(SHOP_WORDS)}"
            rows = [[f"{rng.choice(brands)} {good}", model, "new", dollars(price)]]
            if config.refurbished:
                rows.append([f"{rng.choice(brands)} {good}", model, "refurbished",
                             dollars(price - rng.randint(5, 40) * 100)])
            others = rng.randint(*config.listed) - len(rows)
            for _ in range(max(others, 0)):
                rows.append([f"{rng.choice(brands)} {rng.choice(GOODS)}", f"{rng.choice('BCDFGHKMNPRSTVXZ')}"
                             f"{rng.choice('BCDFGHKMNPRSTVXZ')}-{rng.randint(100, 999)}", rng.choice(("new", "new",
                             "refurbished")), dollars(rng.randint(10, 250) * 100 + rng.choice((0, 49, 99)))])
            rng.shuffle(rows)
            if sum(row[1] == model and row[2] == "new" for row in rows) != 1:
                return None
            home = new_path(rng, "s", pages)
            pages[home] = page(f"{shop}: home", [f"Welcome to {shop}."], [["Shop finder", "/"]])
            chunks = [rows[i:i + PER_PAGE] for i in range(0, len(rows), PER_PAGE)]
            paths = [new_path(rng, "c", pages) for _ in chunks]
            for number, (path, chunk) in enumerate(zip(paths, chunks)):
                links = [[f"{shop} home", home]]
                if number + 1 < len(paths):
                    links.append(["Next page", paths[number + 1]])
                pages[path] = page(f"{shop}: catalogue (page {number + 1} of {len(paths)})", [], links,
                                   [["Product", "Model", "Condition", "Price"], *chunk])
            shipping = new_path(rng, "i", pages)
            pages[shipping] = page(f"{shop}: shipping", [_rule_text(rule)], [[f"{shop} home", home]])
            sections = [["Catalogue", paths[0]], ["Shipping", shipping]]
            if config.deals:
                deals = new_path(rng, "d", pages)
                text = (f"{deal[0]}% off the items' cost when it is at least {dollars(deal[1])}, before shipping; the "
                        "cost after the deal is rounded down to the cent, and the free-shipping threshold counts it."
                        if deal else "No deals this week.")
                pages[deals] = page(f"{shop}: deals", [text], [[f"{shop} home", home]])
                sections.append(["Deals", deals])
            pages[home]["links"] += rng.sample(sections, len(sections))
            pages["/"]["links"].append([shop, home])
            shops.append({"home": home, "catalogue": paths, "rows": len(rows), "info": [p for _, p in sections[1:]]})
        budget = 1 + sum(1 + len(s["catalogue"]) + len(s["info"]) for s in shops) + config.slack
        prompt = (
            f"You want to buy {units} new {good}{'s' if units > 1 else ''}, model {model}, delivered. The shop finder "
            "at / lists shops that sell it. Using the tools, find which shop delivers them for the lowest total (the "
            "items plus shipping, after any deal), and answer with that total in dollars, e.g. "
            f"<answer>$12.34</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"records": site_records(pages), "shops": shops, "units": units, "refurbished": config.refurbished,
                "deals": config.deals,
                "budget": budget}
        return Problem(prompt=prompt, answer=dollars(best), data=data)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        reading = sum(s["rows"] / 3 + len(s["info"]) for s in data["shops"])
        return reading + data["units"] + 2 * data["refurbished"] + 2 * data["deals"]

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def plan(self, problem: Problem) -> list[str]:
        moves = [call("open", url="/")]
        for shop in problem.data["shops"]:
            moves += [call("open", url=path) for path in (*shop["catalogue"], *shop["info"])]
        return [*moves, problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The lowest total is {answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 100), dollars(cents + 1), f"{problem.answer} or {dollars(cents + 500)}"]


def _deal(rng: random.Random, items: int) -> tuple[int, int]:
    """A percentage off from a threshold that this shop's items cost reaches or misses by less than $75 (either
    way the threshold decides: version 2's thresholds were mostly far below the cost, so ignoring them paid)."""
    if rng.random() < 0.5:
        return rng.choice((5, 10, 15)), max(1, items // 2_500 - rng.randint(0, 2)) * 2_500
    return rng.choice((5, 10, 15)), (items // 2_500 + 1 + rng.randint(0, 2)) * 2_500


def _shipping(rng: random.Random, kind: str, items: int, discounted: int) -> dict[str, int | str]:
    """A shop's shipping rule. A flat fee's free-shipping threshold is reached by the items' cost, missed by it, or
    (with a deal) reached before the deal but not after it, so each reading of the rule gives another total."""
    if kind == "per item":
        return {"kind": "per item", "first": rng.randint(4, 15) * 100 + rng.choice((0, 50)),
                "further": rng.randint(1, 6) * 100 + rng.choice((0, 50))}
    fee = rng.randint(4, 25) * 100 + rng.choice((0, 99))
    between = range(discounted // 100 + 1, items // 100 + 1)  # whole dollars the deal takes the cost below
    place = rng.choice(("reached", "missed", "between", "between") if between else ("reached", "missed"))
    if place == "between":
        return {"kind": "flat", "fee": fee, "free_from": rng.choice(between) * 100}
    if place == "reached":
        return {"kind": "flat", "fee": fee, "free_from": max(1, discounted // 500 - rng.randint(0, 10)) * 500}
    return {"kind": "flat", "fee": fee, "free_from": (items // 500 + 1 + rng.randint(0, 10)) * 500}


def _rule_text(rule: dict[str, Any]) -> str:
    if rule["kind"] == "flat":
        return (f"Shipping costs {dollars(rule['fee'])} per order, and nothing when the items cost "
                f"{dollars(rule['free_from'])} or more.")
    return f"Shipping costs {dollars(rule['first'])} for the first item and {dollars(rule['further'])} for each further item."


# Readings that leave one stated rule out, or apply it wrong (version 3): a problem is kept only when none of those
# that concern its rules gives the right total.
DEAL_SLIPS = ("no deal", "deal below its threshold", "deal rounded up")
FLAT_SLIPS = ("fee always", "threshold before the deal")
PER_ITEM_SLIPS = ("first fee per item", "first fee only")


def _total(price: int, units: int, rule: dict[str, Any], deal: tuple[int, int] | None) -> int:
    """The delivered total in cents: the items (after the deal, rounded down to the cent) plus shipping.

    >>> _total(3_333, 3, {"kind": "flat", "fee": 500, "free_from": 9_000}, (10, 5_000))  # 9999 -> 8999.1 -> 8999
    9499
    """
    return _delivered(price, units, rule, deal, None)


def _delivered(price: int, units: int, rule: dict[str, Any], deal: tuple[int, int] | None, slip: str | None) -> int:
    """The delivered total in cents under the stated rules (``slip`` None) or with the named one misread."""
    items = price * units
    if deal is not None and slip != "no deal" and (items >= deal[1] or slip == "deal below its threshold"):
        discounted = items * (100 - deal[0])
        items = -(-discounted // 100) if slip == "deal rounded up" else discounted // 100
    if rule["kind"] == "none":  # the items alone
        return items
    if rule["kind"] == "flat":
        reached = (price * units if slip == "threshold before the deal" else items) >= rule["free_from"]
        return items + (0 if reached and slip != "fee always" else rule["fee"])
    if slip == "first fee per item":
        return items + rule["first"] * units
    if slip == "first fee only":
        return items + rule["first"]
    return items + rule["first"] + rule["further"] * (units - 1)
