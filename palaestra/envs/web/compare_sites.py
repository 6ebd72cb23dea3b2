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
"""

from __future__ import annotations

import random
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
ATTEMPTS = 400  # two shops: the lower price wins 9 draws in 10, so "it does not" takes ~10 draws (0.9^400 ~ 5e-19)


@register
class CompareSites(WebTask):
    id = "web/compare_sites"
    family = "web"
    description = "Compare a product's delivered cost (price, shipping rules, deals) across several generated shops; answer the lowest total."
    tags = ("web", "navigation", "comparison", "arithmetic", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow")
    version = 2  # v2: the lowest unit price wins at chance rate (v1: 63-71% of levels 0-1)

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
        return retry(lambda: self._draw(rng, config, lowest_wins), what="shops with one cheapest delivered total",
                     attempts=ATTEMPTS)

    def _draw(self, rng: random.Random, config: Config, lowest_wins: bool) -> Problem | None:
        forge = NameForge(rng)
        good = rng.choice(GOODS)
        model = f"{rng.choice('BCDFGHKMNPRSTVXZ')}{rng.choice('BCDFGHKMNPRSTVXZ')}-{rng.randint(100, 999)}"
        units = rng.randint(1, 5)
        base = rng.randint(20, 200) * 100
        pages: dict[str, dict[str, Any]] = {"/": page("Shop finder", ["Shops we list:"])}
        shops: list[dict[str, Any]] = []
        totals: list[int] = []
        prices: list[int] = []
        brands = [forge.word(2) for _ in range(10)]  # product names need not be unique: a few brands serve
        for _ in range(config.shops):
            shop = f"{forge.word(2)} {rng.choice(SHOP_WORDS)}"
            price = base + rng.randint(-15, 15) * 100 + rng.choice((0, 49, 99))
            rule = self._shipping(rng)
            deal = (rng.choice((5, 10, 15)), rng.randint(2, 8) * 2_500) if config.deals and rng.random() < 0.6 else None
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
            totals.append(_total(price, units, rule, deal))
            prices.append(price)
        best = min(totals)
        if totals.count(best) > 1 or (prices.index(min(prices)) == totals.index(best)) != lowest_wins:
            return None
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

    def _shipping(self, rng: random.Random) -> dict[str, int | str]:
        if rng.random() < 0.5:
            return {"kind": "flat", "fee": rng.randint(4, 25) * 100 + rng.choice((0, 99)),
                    "free_from": rng.randint(4, 40) * 2_500}
        return {"kind": "per item", "first": rng.randint(4, 15) * 100 + rng.choice((0, 50)),
                "further": rng.randint(1, 6) * 100 + rng.choice((0, 50))}

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


def _rule_text(rule: dict[str, Any]) -> str:
    if rule["kind"] == "flat":
        return (f"Shipping costs {dollars(rule['fee'])} per order, and nothing when the items cost "
                f"{dollars(rule['free_from'])} or more.")
    return f"Shipping costs {dollars(rule['first'])} for the first item and {dollars(rule['further'])} for each further item."


def _total(price: int, units: int, rule: dict[str, Any], deal: tuple[int, int] | None) -> int:
    """The delivered total in cents: the items (after the deal, rounded down to the cent) plus shipping.

    >>> _total(3_333, 3, {"kind": "flat", "fee": 500, "free_from": 9_000}, (10, 5_000))  # 9999 -> 8999.1 -> 8999
    9499
    """
    items = price * units
    if deal is not None and items >= deal[1]:
        items = items * (100 - deal[0]) // 100
    if rule["kind"] == "flat":
        return items + (0 if items >= rule["free_from"] else rule["fee"])
    return items + rule["first"] + rule["further"] * (units - 1)
