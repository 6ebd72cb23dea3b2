"""Find the cheapest product meeting constraints in a generated shop, across a category's paginated listing.

The site (:mod:`palaestra.envs.web.common`) is a shop: the start page links to 3 to 8 categories; a
category's listing runs over 1 to 5 or more pages ("Next page" links), each a table of products (name,
price, colour) linking to product pages, which alone show the SKU, the rating and the availability. The
prompt asks for the cheapest product of one category in a colour, in stock and rated at least some
stars; the agent reads every listing page, then opens the candidates' pages in price order until one
meets the rest. A site search over page titles is offered (it finds products by name, which does not
help to compare them).

The answer (the SKU, a random code) is unique: prices within a category are distinct. Near misses in
every draw, all cheaper than the answer: a product of that colour in stock but rated too low, one of that
colour rated well enough but out of stock, and one of another colour in stock and rated well enough (since
version 2: v1 drew one of the first two, so ignoring the stock paid in 57-77% of draws, ignoring the rating
or the colour in 29-67%); more cheaper products of other colours, a cheaper qualifying product of that
colour in another category, and listings not sorted by price (on a listing of several pages the answer is
on the first one in about a quarter of draws over pages: reading page 1 only paid 27-44% in v1). The difficulty is the category's products plus the
candidates cheaper than the answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.service.common import call
from palaestra.envs.web.common import TOKEN_LETTERS, WebTask, judge_code, new_path, page, site_records
from palaestra.generators.knowledge import NameForge

CATEGORIES = {"Lamps": "lamp", "Kettles": "kettle", "Backpacks": "backpack", "Headphones": "headphones",
              "Chairs": "chair", "Mugs": "mug", "Jackets": "jacket", "Tents": "tent"}
COLOURS = ("black", "white", "red", "blue", "green")
THRESHOLDS = ("3.5", "4.0", "4.5")
EXAMPLE = "AB12CD"
LATER_PAGE = 0.75  # a multi-page listing's answer drawn onto page 1 is moved to a later page this often


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


@register
class CheapestProduct(WebTask):
    id = "web/cheapest_product"
    family = "web"
    description = "Find the cheapest in-stock, well-rated product of a colour across a shop's paginated category listing."
    tags = ("web", "navigation", "comparison", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow", "search")
    version = 2  # v2: 3-7 cheaper near misses (rating, stock, colour) in every draw; the answer mostly past page 1

    @dataclass(frozen=True)
    class Config:
        categories: int
        pages: tuple[int, int]  # listing pages of the asked category
        per_page: int
        slack: int

    presets = (  # v2: 8 or more per page (v1: 5-6), room for the 3-7 near misses cheaper than the answer
        Config(3, (1, 1), 8, 4),
        Config(3, (1, 2), 8, 5),
        Config(4, (2, 3), 8, 6),
        Config(4, (2, 4), 9, 6),
        Config(5, (3, 5), 10, 8),
    )
    growth = Growth(limits={"categories": 8, "per_page": 12, "slack": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return self._draw(rng, config)

    def _draw(self, rng: random.Random, config: Config) -> Problem:
        forge = NameForge(rng)
        names = rng.sample(sorted(CATEGORIES), config.categories)
        asked, colour, threshold = names[0], rng.choice(COLOURS), rng.choice(THRESHOLDS)
        pages_count = rng.randint(*config.pages)
        # Cheaper than the answer: 2-5 products of its colour that each fail one condition (at least one only the
        # rating, one only the stock) and 1-2 of other colours that meet the rest, so that a reader who skips a
        # condition answers another product, and the answer's rank by price (among its colour, or overall) varies
        # (v1: always one near miss of the colour, so "the second cheapest of the colour" paid 53-100%).
        fails = ["rating", "stock", *(rng.choice(("rating", "stock")) for _ in range(rng.randint(0, 3)))]
        others = 1 + rng.randint(0, 1)
        rank = len(fails) + others
        count = config.per_page * (pages_count - 1) + rng.randint(min(rank + 1, config.per_page), config.per_page)
        goods = sorted(self._products(rng, forge, asked, count), key=lambda g: g["price"])
        best = goods[rank]
        best.update(colour=colour, stock=True, rating=max(best["rating"], float(threshold)))
        cheaper = goods[:rank]
        rng.shuffle(cheaper)
        for product, fail in zip(cheaper, fails):
            product.update(colour=colour, stock=fail != "stock", rating=max(product["rating"], float(threshold)))
            if fail == "rating":
                product["rating"] = round(float(threshold) - rng.randint(1, 8) / 10, 1)
        for product in cheaper[len(fails):]:
            product.update(colour=rng.choice([c for c in COLOURS if c != colour]), stock=True,
                           rating=max(product["rating"], float(threshold)))
        rng.shuffle(goods)
        if count > config.per_page and goods.index(best) < config.per_page and rng.random() < LATER_PAGE:
            later = rng.randrange(config.per_page, count)  # mostly not on the first page, which a lazy reader stops at
            here = goods.index(best)
            goods[here], goods[later] = goods[later], goods[here]
        catalogue = {asked: goods}
        for name in names[1:]:
            catalogue[name] = self._products(rng, forge, name, rng.randint(3, config.per_page))
        decoy = catalogue[names[1]][0]  # another category's product that would qualify, and is cheaper
        decoy.update(colour=colour, stock=True, rating=float(threshold) + 0.3,
                     price=max(best["price"] - rng.randint(1, 400), 100))
        pages: dict[str, dict[str, Any]] = {"/": page("Shop home", ["Welcome to our shop. Browse a category."])}
        listing_route: list[str] = []
        for name, products in catalogue.items():
            per_category = [products[i:i + config.per_page] for i in range(0, len(products), config.per_page)]
            paths = [new_path(rng, "c", pages) for _ in per_category]
            for number, (path, chunk) in enumerate(zip(paths, per_category)):
                links = []
                for product in chunk:
                    product["path"] = new_path(rng, "p", {**pages, path: None})
                    links.append([product["name"], product["path"]])
                    pages[product["path"]] = page(product["name"], [
                        f"SKU: {product['sku']}", f"Price: {_money(product['price'])}",
                        f"Colour: {product['colour']}", f"Rating: {product['rating']:.1f} / 5",
                        f"Availability: {'in stock' if product['stock'] else 'out of stock'}"],
                        [[f"Back to {name}", paths[0]], ["Home", "/"]])
                if number + 1 < len(paths):
                    links.append(["Next page", paths[number + 1]])
                if number > 0:
                    links.append(["Previous page", paths[number - 1]])
                table = [["Product", "Price", "Colour"],
                         *[[p["name"], _money(p["price"]), p["colour"]] for p in chunk]]
                pages[path] = page(f"{name} (page {number + 1} of {len(paths)})", [], [*links, ["Home", "/"]],
                                   table)
            pages["/"]["links"].append([name, paths[0]])
            if name == asked:
                listing_route = paths
        rng.shuffle(pages["/"]["links"])
        candidates = sorted((g for g in goods if g["colour"] == colour and g["price"] <= best["price"]),
                            key=lambda g: g["price"])
        budget = 1 + len(listing_route) + 2 * len(candidates) + config.slack  # v2: a candidate may take a listing and a product page
        prompt = (
            f"You are shopping on a website whose start page is /. Find the cheapest product in the {asked} "
            f"category that is {colour}, in stock, and rated at least {threshold} stars. Use the tools to browse "
            f"the site, then answer with its SKU, e.g. <answer>{EXAMPLE}</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"records": site_records(pages), "listing": listing_route,
                "candidates": [g["path"] for g in candidates], "budget": budget}
        return Problem(prompt=prompt, answer=best["sku"], data=data)

    def _products(self, rng: random.Random, forge: NameForge, category: str, count: int) -> list[dict[str, Any]]:
        prices = rng.sample(range(500, 25_000), count)
        return [{"name": f"{forge.word(2)} {CATEGORIES[category]}", "price": price, "colour": rng.choice(COLOURS),
                 "stock": rng.random() < 0.75, "rating": rng.randint(25, 50) / 10,
                 "sku": "".join(rng.choice(TOKEN_LETTERS.upper()) for _ in range(6))} for price in prices]

    def difficulty(self, problem: Problem) -> float:
        pages = problem.data["records"]["site"]["pages"]
        listed = sum(len(pages[path]["table"]) - 1 for path in problem.data["listing"])
        return listed / 5 + len(problem.data["candidates"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_code(answer, problem.answer or "", "SKU")

    def plan(self, problem: Problem) -> list[str]:
        listing = problem.data["listing"]
        moves = [call("open", url="/")] + [call("open", url=path) for path in listing]
        return [*moves, *(call("open", url=path) for path in problem.data["candidates"]), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [answer.lower(), f"SKU {answer}", f"The SKU is {answer}.", f"{answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        skus = [line.split()[1] for record in problem.data["records"]["site"]["pages"].values()
                for line in record["text"][:1] if line.startswith("SKU:")]
        others = [sku for sku in skus if sku != answer]
        return [*rng.sample(others, min(3, len(others))), f"{answer} or {others[0]}", answer[:-1]]
