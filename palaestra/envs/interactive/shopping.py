"""Shopping: search a generated catalogue, inspect products and buy one that meets every stated requirement.

A WebShop-like task, all local. The catalogue holds products of several categories, each with
a colour, a material, a size, features, a price and a rating. The instruction names a category
and some requirements (colour, material, size, a feature, a price ceiling, a minimum rating).
Besides one product that meets them all, the catalogue holds many near misses (products that
fail exactly one requirement) and unrelated products.

Commands (stated in the prompt): ``search WORDS`` lists the five best keyword matches (id,
name, price; ties by id), ``more`` the next five of the last search, ``view ID`` a product's
full details, and ``buy ID`` buys it and ends the episode. Buying needs the product to have been viewed. Reward 1 when the product
bought meets every requirement (checked against them, not against the planted id), 0 otherwise; an
unreadable command, or viewing or buying an unknown id, costs a turn.

Every problem asks a minimum rating and one requirement the search words match (colour, material, size or feature),
and four of the near misses fail only the rating: the results page shows id, name and price, so those decoys tie with
the target on every search word and only viewing tells them apart. Random products never meet every requirement (the
planted product is the only one). Version 1 did neither: buying the first result of a search for the requirement words,
unviewed, won 0.62, 0.30 and 0.28 of levels 0-2 (the cheapest result of that page 0.33, 0.45, 0.35), as a problem whose
requirements were all search words had the search rank the target first; now 0.20 at level 0 (one in five tied
candidates) and at most 0.10 above (the cheapest: 0.23, then at most 0.10; 40 games per level). A problem is redrawn
when the honest shopper (:meth:`Shopping.honest_move`) does not buy right within the level's turns.

The oracle views the planted product and buys it. Levels add
requirements and grow the catalogue. The difficulty measure is the number of requirements plus
the base-2 logarithm of the number of products in the category asked for.

Generation speed: about 5 ms per problem at level 4 on this 2-core machine (version 1: 1.3 ms). Each problem builds a
catalogue of 300 random products (with near misses of the target that fail one requirement each), and the honest
shopper's whole game is played on it (rarely redrawn) so that the level's turns are known to suffice. The catalogue's
size is what the level asks the shopper to search.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.moves import read_command

RESULTS = 5
RATING_DECOYS = 4  # near misses that fail only the minimum rating: at least this many tie with the target
KEYWORD_REQUIREMENTS = ("colour", "material", "size", "feature")  # requirements the search words match
CATEGORIES = {
    "backpack": {"sizes": ["15 L", "20 L", "25 L", "30 L", "40 L"], "materials": ["nylon", "canvas", "leather",
                 "polyester"], "features": ["laptop sleeve", "waterproof", "chest strap", "bottle pocket"]},
    "running shoes": {"sizes": ["7", "8", "9", "10", "11", "12"], "materials": ["mesh", "knit", "leather",
                      "synthetic"], "features": ["waterproof", "reflective", "wide fit", "trail grip"]},
    "jacket": {"sizes": ["XS", "S", "M", "L", "XL"], "materials": ["wool", "down", "fleece", "nylon"],
               "features": ["hood", "waterproof", "zip pockets", "packable"]},
    "headphones": {"sizes": ["compact", "standard", "large"], "materials": ["plastic", "aluminium", "leather"],
                   "features": ["wireless", "noise cancelling", "foldable", "microphone"]},
    "desk lamp": {"sizes": ["small", "medium", "tall"], "materials": ["metal", "wood", "plastic", "glass"],
                  "features": ["dimmable", "usb port", "clamp", "timer"]},
    "water bottle": {"sizes": ["500 ml", "750 ml", "1 L", "1.5 L"], "materials": ["steel", "glass", "plastic",
                     "aluminium"], "features": ["insulated", "straw lid", "leak proof", "carry loop"]},
}
COLOURS = ("black", "white", "red", "blue", "green", "grey", "navy", "orange", "pink", "brown", "yellow", "purple")
BRANDS = ("Aurora", "Bolt", "Cedar", "Dune", "Ember", "Fjord", "Granite", "Harbor", "Iris", "Juniper", "Kestrel",
          "Lumen", "Maple", "Nimbus", "Orbit", "Pioneer", "Quartz", "Ridge", "Summit", "Tundra", "Umbra", "Vale",
          "Willow", "Zephyr")
STYLES = ("classic", "urban", "trail", "everyday", "pro", "lite", "prime", "travel", "studio", "sport", "nova",
          "core")
REQUIREMENTS = ("colour", "material", "size", "feature", "price", "rating")
_ID = re.compile(r"^p\d{4}$")


@register
class Shopping(MultiTurnTask):
    id = "interactive/shopping"
    family = "interactive"
    description = "Search a generated catalogue, inspect products and buy one meeting every requirement."
    tags = ("interactive", "multi-turn", "web-agent", "search")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    version = 2  # v2: a rating and a search word always asked, rating decoys tie with the target, one right product

    @dataclass(frozen=True)
    class Config:
        requirements: int  # beyond the category
        products: int
        near_misses: int
        turns: int

    presets = (
        Config(2, 30, 6, 10),
        Config(3, 60, 10, 12),
        Config(4, 120, 14, 14),
        Config(5, 200, 18, 16),
        Config(6, 300, 24, 18),
    )
    growth = Growth(steps={"products": 100})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            problem = self._draw(rng, config)
            return problem if self.honest_turns(problem, config.turns) is not None else None

        return retry(draw, attempts=200, what="a catalogue the honest shopper searches within the budget")

    def _draw(self, rng: random.Random, config: Config) -> Problem:
        ids = [f"P{n}" for n in rng.sample(range(1000, 10000), config.products)]
        category = rng.choice(sorted(CATEGORIES))
        target = _random_product(rng, category)
        # A minimum rating and a search word are always asked, and RATING_DECOYS near misses fail only the rating: the
        # results page does not show ratings, so those decoys tie with the target and only viewing tells them apart.
        keyword = rng.choice(KEYWORD_REQUIREMENTS)
        rest = [name for name in REQUIREMENTS if name not in ("rating", keyword)]
        asked = ["rating", keyword, *rng.sample(rest, config.requirements - 2)]
        wants = _requirements(rng, target, asked)
        products = [target]
        for k in range(config.near_misses):
            products.append(_near_miss(rng, target, wants, "rating" if k < RATING_DECOYS else asked[k % len(asked)]))
        while len(products) < config.products:
            product = _random_product(rng, category if rng.random() < 0.3 else rng.choice(sorted(CATEGORIES)))
            if _failed(product, wants):  # the target is the only product meeting every requirement
                products.append(product)
        rng.shuffle(products)
        catalogue = {pid: product for pid, product in zip(ids, products)}
        target_id = ids[products.index(target)]
        for pid, product in catalogue.items():
            product["name"] = f"{product['brand']} {product['style']} {product['category']}"
        prompt = (
            "You are shopping in an online store. Find and buy a product that meets every requirement:\n"
            f"{_requirements_text(category, wants)}\n\n"
            "Commands: search WORDS (lists the five best keyword matches with id, name and price; the words are "
            "matched against each product's name, colour, material, size and features), more (the next five matches "
            "of your last search), view ID (shows a product's details), buy ID (buys it and ends the task; you can "
            "only buy a product you have viewed). For example: "
            f"search {COLOURS[0]} {category}\n"
            "An unreadable command, or an unknown id, costs a turn."
        )
        data = {"catalogue": catalogue, "wants": wants, "target": target_id, "turns": config.turns}
        return Problem(prompt=prompt, answer=target_id, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def honest_move(self, view: View) -> str:
        """Search with every word the requirements name, view the results in order, buy the first that
        meets every requirement (reading the details shown), paging on with more when a page is used up."""
        wants = _honest_wants(view.prompt)
        checked: dict[str, bool] = {}
        listed: list[str] = []
        for move, observation in view.history:
            details = _DETAILS.match(observation)
            if details:
                pid, category, colour, material, size, features, price, rating = details.groups()
                product = {"category": category, "colour": colour, "material": material, "size": size,
                           "features": [] if features == "none" else features.split(", "),
                           "price": float(price), "rating": float(rating)}
                checked[pid] = category == wants.get("category") and all(
                    _meets(product, name, value) for name, value in wants.items() if name != "category")
            elif observation.startswith("Results"):
                listed += [pid for pid in _RESULT.findall(observation) if pid not in listed]
        good = [pid for pid, ok in checked.items() if ok]
        if good:
            return f"buy {good[0]}"
        unseen = [pid for pid in listed if pid not in checked]
        if unseen:
            return f"view {unseen[0]}"
        if listed:
            return "more"
        words = [wants[name] for name in ("colour", "material", "size", "feature") if name in wants]
        return "search " + " ".join([*words, wants.get("category", "")]).strip()

    def difficulty(self, problem: Problem) -> float:
        wants = problem.data["wants"]
        same = sum(p["category"] == wants["category"] for p in problem.data["catalogue"].values())
        return (len(wants) - 1) + math.log2(same)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"viewed": [], "query": "", "shown": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        catalogue = problem.data["catalogue"]
        command = read_command(move, _parse)
        if command is None:
            why = "write search WORDS, view ID or buy ID"
            return Outcome.invalid(state, why, "command")
        verb, argument = command
        if verb == "search":
            return Outcome({**state, "query": argument, "shown": RESULTS}, Verdict.wrong("searched"),
                           _search(catalogue, argument, 0))
        if verb == "more":
            if not state["query"]:
                return Outcome(state, Verdict.wrong("no search"), "Search for something first.")
            return Outcome({**state, "shown": state["shown"] + RESULTS}, Verdict.wrong("searched"),
                           _search(catalogue, state["query"], state["shown"]))
        pid = argument.upper()
        if pid not in catalogue:
            return Outcome(state, Verdict.wrong("unknown id"), f"There is no product {pid}.")
        if verb == "view":
            viewed = state["viewed"] if pid in state["viewed"] else sorted([*state["viewed"], pid])
            return Outcome({**state, "viewed": viewed}, Verdict.wrong("viewed"), _details(pid, catalogue[pid]))
        if pid not in state["viewed"]:
            return Outcome(state, Verdict.wrong("not viewed"), f"View {pid} before buying it.")
        failed = _failed(catalogue[pid], problem.data["wants"])
        if failed:
            return Outcome(state, Verdict.wrong("wrong product"),
                           f"You bought {pid}, which misses requirements ({'; '.join(failed)}).", True)
        return Outcome(state, Verdict.right(), f"You bought {pid}. It meets every requirement: well done!", True)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        target = problem.data["target"]
        return f"buy {target}" if target in state["viewed"] else f"view {target}"


def _random_product(rng: random.Random, category: str) -> dict[str, Any]:
    spec = CATEGORIES[category]
    return {
        "category": category, "brand": rng.choice(BRANDS), "style": rng.choice(STYLES),
        "colour": rng.choice(COLOURS), "material": rng.choice(spec["materials"]), "size": rng.choice(spec["sizes"]),
        "features": sorted(rng.sample(spec["features"], rng.randint(0, 2))),
        "price": round(rng.uniform(15, 200), 2), "rating": round(rng.uniform(2.5, 5.0), 1),
    }


def _requirements(rng: random.Random, target: dict[str, Any], asked: list[str]) -> dict[str, Any]:
    wants: dict[str, Any] = {"category": target["category"]}
    for name in asked:
        if name == "feature":
            if not target["features"]:
                target["features"] = [rng.choice(CATEGORIES[target["category"]]["features"])]
            wants["feature"] = rng.choice(target["features"])
        elif name == "price":
            wants["price"] = int(math.ceil(target["price"] / 10) * 10)  # a round ceiling above the price
        elif name == "rating":
            target["rating"] = max(target["rating"], 3.5)
            wants["rating"] = math.floor(target["rating"] * 2) / 2  # a half-star floor below the rating
        else:
            wants[name] = target[name]
    return wants


def _near_miss(rng: random.Random, target: dict[str, Any], wants: dict[str, Any], broken: str) -> dict[str, Any]:
    """A product meeting every requirement but ``broken`` (other details drawn afresh where not required)."""
    product = _random_product(rng, target["category"])
    spec = CATEGORIES[target["category"]]
    for name, value in wants.items():
        if name in ("colour", "material", "size"):
            product[name] = value
        elif name == "feature":
            product["features"] = sorted({*product["features"], value})
        elif name == "price":
            product["price"] = round(rng.uniform(15, value - 0.01), 2)
        elif name == "rating":
            product["rating"] = round(rng.uniform(value, 5.0), 1)
    if broken in ("colour", "material", "size"):
        pool = COLOURS if broken == "colour" else spec["materials"] if broken == "material" else spec["sizes"]
        product[broken] = rng.choice([v for v in pool if v != wants[broken]])
    elif broken == "feature":
        product["features"] = [f for f in product["features"] if f != wants["feature"]]
    elif broken == "price":
        product["price"] = round(wants["price"] + rng.uniform(1, 40), 2)
    else:
        product["rating"] = round(rng.uniform(2.0, wants["rating"] - 0.1), 1)
    return product


def _requirement_text(name: str, value: Any) -> str:
    if name == "feature":
        return f"has the feature: {value}"
    if name == "price":
        return f"price at most ${value}"
    if name == "rating":
        return f"rating at least {value:g} stars"
    return f"{name}: {value}"


_WANT = re.compile(r"^- (category|colour|material|size): (.+)$|^- has the feature: (.+)$|^- price at most \$(\d+(?:\.\d+)?)$"
                   r"|^- rating at least (\d+(?:\.\d+)?) stars$", re.MULTILINE)
_DETAILS = re.compile(r"^(P\d+): .*\ncategory: (.+); colour: (.+); material: (.+); size: (.+); features: (.+); "
                      r"price: \$(\d+\.\d+); rating: (\d+\.\d) stars$")
_RESULT = re.compile(r"^(P\d+): ", re.MULTILINE)


def _honest_wants(prompt: str) -> dict[str, Any]:
    wants: dict[str, Any] = {}
    for m in _WANT.finditer(prompt):
        if m.group(1):
            wants[m.group(1)] = m.group(2).strip()
        elif m.group(3):
            wants["feature"] = m.group(3).strip()
        elif m.group(4):
            wants["price"] = float(m.group(4))
        else:
            wants["rating"] = float(m.group(5))
    return wants


def _requirements_text(category: str, wants: dict[str, Any]) -> str:
    lines = [f"- category: {category}"]
    lines += [f"- {_requirement_text(name, wants[name])}" for name in REQUIREMENTS if name in wants]
    return "\n".join(lines)


def _meets(product: dict[str, Any], name: str, value: Any) -> bool:
    if name == "feature":
        return value in product["features"]
    if name == "price":
        return product["price"] <= value
    if name == "rating":
        return product["rating"] >= value
    return product[name] == value


def _failed(product: dict[str, Any], wants: dict[str, Any]) -> list[str]:
    """The requirements ``product`` misses, as text."""
    return [_requirement_text(name, value) for name, value in wants.items() if not _meets(product, name, value)]


def _words(product: dict[str, Any]) -> set[str]:
    text = " ".join([product["name"], product["colour"], product["material"], product["size"], *product["features"]])
    return set(text.lower().split())


def _search(catalogue: dict[str, dict[str, Any]], query: str, skip: int) -> str:
    """Results ``skip + 1`` to ``skip + 5`` of a keyword search: most query words matched first, then by id."""
    terms = set(query.lower().split())
    scored = sorted((-len(terms & _words(p)), pid) for pid, p in catalogue.items())
    hits = [pid for score, pid in scored if score < 0]
    page = hits[skip: skip + RESULTS]
    if not page:
        return f"No {'more ' if skip else ''}products match '{query}'."
    lines = [f"{pid}: {catalogue[pid]['name']}, ${catalogue[pid]['price']:.2f}" for pid in page]
    return f"Results {skip + 1}-{skip + len(page)} of {len(hits)} for '{query}':\n" + "\n".join(lines)


def _details(pid: str, product: dict[str, Any]) -> str:
    features = ", ".join(product["features"]) or "none"
    return (f"{pid}: {product['name']}\ncategory: {product['category']}; colour: {product['colour']}; material: "
            f"{product['material']}; size: {product['size']}; features: {features}; price: ${product['price']:.2f}; "
            f"rating: {product['rating']:.1f} stars")


# Words a grader reads past before a command; never "not" or "don't".
_LEAD = frozenset({"i", "we", "i'd", "we'd", "i'll", "we'll", "would", "will", "like", "to", "let", "let's", "me", "now"})


def _parse(words: list[str]) -> tuple[str, str] | None:
    if words in (["more"], ["next"], ["next", "page"], ["more", "results"]):
        return ("more", "")
    while words and words[0] in _LEAD:  # "I'll buy P1234", "I'd like to buy P1234", "Let me view P1234"
        words = words[1:]
    if len(words) < 2:
        return None
    verb = {"search": "search", "find": "search", "view": "view", "open": "view", "click": "view", "inspect": "view",
            "buy": "buy", "purchase": "buy"}.get(words[0])
    if verb is None:
        return None
    if verb == "search":
        query = " ".join(words[1:])
        return (verb, query) if len(query) <= 200 else None
    if verb == "buy" and words[1:2] == ["now"]:
        words = words[1:]
    rest = [w for w in words[1:] if w not in ("product", "item", "id")]
    return (verb, rest[0]) if len(rest) == 1 and _ID.match(rest[0]) else None
