"""Join two (or three) CSV tables by key and list the rows a question about both selects.

A customers table (id, name, city, credit limit) and an orders table (order id, customer id, amount)
are given; from level 3 a third table maps cities to countries. One of three questions is asked:
the orders placed by customers of a city (or a country, through the third table) above an amount; the
orders whose amount exceeds their own customer's credit limit; or the customers who placed no order.
Some orders name a customer id missing from the customers table (an inner join drops them; the prompt
says so). The answer is a set of ids in any order, read with the shared set reader; the verifier names
an id wrongly included or left out. Problems are redrawn until the answer has at least one id and
leaves out some of the candidates, so neither "none" nor "all of them" pays; since v2 a place question is
also redrawn until its amount condition changes the answer (v1: the place alone answered 0.39 of level 0's).
Since v3 an amount question has an order exactly on its bound (the threshold, or its customer's credit limit)
that decides, so reading "greater than" as "at least" no longer gives the answer (it gave 1.00 of every level).

Difficulty: the rows of all tables plus the ids in the answer plus 5 for a three-table join.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text, money
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.sets import read_set, read_token

EXAMPLE = "X-1, X-2"  # a fixed placeholder: never derived from the answer
COUNTRIES = ("France", "Norway", "Portugal", "Austria", "Italy", "Belgium", "Sweden", "Spain")


def _read_id(text: str) -> str | None:
    token = read_token(text)
    return token.upper() if token else None


def answer_ids(data: dict, *, at_least: bool = False) -> list[str]:
    """The reference: the ids the question selects, from the tables in ``data`` (or, with ``at_least``, under
    the misreading of "greater than" as "at least")."""
    customers = {c["id"]: c for c in data["customers"]}
    kind = data["kind"]
    if kind == "no_orders":
        ordered = {o["customer"] for o in data["orders"]}
        return sorted(c for c in customers if c not in ordered)
    selected = []
    for order in data["orders"]:
        customer = customers.get(order["customer"])
        if customer is None:
            continue
        bound = customer["limit"] if kind == "over_limit" else data["threshold"]
        above = order["cents"] >= bound if at_least else order["cents"] > bound
        if kind == "over_limit":
            keep = above
        elif kind == "city":
            keep = customer["city"] == data["place"] and above
        else:
            keep = data["countries"][customer["city"]] == data["place"] and above
        if keep:
            selected.append(order["id"])
    return sorted(selected)


@register
class Join(Task):
    id = "data/join"
    family = "data"
    description = "Join customers and orders (and countries) by key and list the ids a question selects."
    tags = ("data", "tables", "joins")
    version = 3  # v3: an order on its bound decides; v2: the amount condition always matters

    @dataclass(frozen=True)
    class Config:
        customers: int
        orders: int
        three_tables: bool

    presets = (Config(4, 8, False), Config(6, 12, False), Config(8, 16, False), Config(10, 22, True),
               Config(14, 30, True))
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"customers": 4, "orders": 8}, limits={"customers": 86, "orders": 174})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kinds = ("city", "over_limit", "no_orders") if not config.three_tables else ("country", "over_limit",
                                                                                     "no_orders", "country")

        def draw() -> dict:
            cities = rng.sample(WORDS["cities"], min(len(WORDS["cities"]), max(3, config.customers // 2)))
            countries = {city: rng.choice(COUNTRIES[:3]) for city in cities}
            ids = [f"C{n}" for n in sorted(rng.sample(range(10, 100), config.customers + 2))]
            customers = [{"id": cid, "name": f"{rng.choice(WORDS['first_names'])} {rng.choice(WORDS['surnames'])}",
                          "city": rng.choice(cities), "limit": rng.randrange(5000, 60000, 2500)}
                         for cid in ids[: config.customers]]
            known = [c["id"] for c in customers]
            strangers = ids[config.customers:]  # ids of customers the table does not list
            orders = [{"id": f"O-{n}", "customer": rng.choice(known) if rng.random() < 0.85 else rng.choice(strangers),
                       "cents": rng.randrange(1000, 80000, 5)}
                      for n in sorted(rng.sample(range(1000, 10000), config.orders))]
            kind = rng.choice(kinds)
            place = rng.choice(cities) if kind == "city" else rng.choice(sorted(set(countries.values())))
            threshold = rng.randrange(10000, 50000, 2500)
            by_id = {c["id"]: c for c in customers}
            if kind != "no_orders":  # one order exactly on its bound: "greater than" read as "at least" must fail
                fits = [o for o in orders if o["customer"] in by_id and (kind == "over_limit" or place in (
                    by_id[o["customer"]]["city"], countries[str(by_id[o["customer"]]["city"])]))]
                if fits:
                    order = rng.choice(fits)
                    order["cents"] = by_id[order["customer"]]["limit"] if kind == "over_limit" else threshold
            return {"customers": customers, "orders": orders, "countries": countries, "kind": kind, "place": place,
                    "threshold": threshold}

        def fair(data: dict) -> bool:
            chosen = answer_ids(data)
            pool = data["customers"] if data["kind"] == "no_orders" else data["orders"]
            if data["kind"] in ("city", "country") and answer_ids({**data, "threshold": 0}) == chosen:
                return False  # the amount condition must matter, not only the place
            if data["kind"] != "no_orders" and answer_ids(data, at_least=True) == chosen:
                return False  # an order exactly on its bound must matter (v2: "at least" answered 1.00)
            return 0 < len(chosen) < len(pool) * 3 // 4

        data = retry(draw, fair, attempts=300, what="a question selecting some but not all ids")
        ids = answer_ids(data)
        customers_text = csv_text(["customer_id", "name", "city", "credit_limit"],
                                  [[c["id"], c["name"], c["city"], money(c["limit"])] for c in data["customers"]])
        orders_text = csv_text(["order_id", "customer_id", "amount"],
                               [[o["id"], o["customer"], money(o["cents"])] for o in data["orders"]])
        tables = f"customers.csv:\n\n{customers_text}\n\norders.csv:\n\n{orders_text}"
        if config.three_tables:
            tables += "\n\ncities.csv:\n\n" + csv_text(["city", "country"], sorted(data["countries"].items()))
        question = {
            "city": f"Which orders were placed by customers in {data['place']} and have an amount greater than "
                    f"{money(data['threshold'])}? Give their order ids.",
            "country": f"Which orders were placed by customers living in {data['place']} and have an amount greater "
                       f"than {money(data['threshold'])}? Give their order ids.",
            "over_limit": "Which orders have an amount greater than the credit limit of the customer who placed "
                          "them? Give their order ids.",
            "no_orders": "Which customers in customers.csv placed no order at all? Give their customer ids.",
        }[data["kind"]]
        prompt = (
            f"Here are the tables of a shop:\n\n{tables}\n\nOrders whose customer_id is not in customers.csv are "
            f"ignored.\n\n{question} List the ids separated by commas, in any order, for example: {EXAMPLE}"
        )
        data["answer"] = ids
        return Problem(prompt=prompt, answer=", ".join(ids), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_set(answer, _read_id, max_items=500)
        if given is None:
            return Verdict.unparsed(f"expected ids separated by commas, such as {EXAMPLE}")
        truth = set(problem.data["answer"])
        extra = sorted(given - truth)
        if extra:
            return Verdict.wrong(f"{extra[0]} does not meet the question's condition")
        missing = sorted(truth - given)
        return Verdict.judge(not missing, f"{missing[0] if missing else ''} meets the condition but is left out")

    def difficulty(self, problem: Problem) -> float:
        """Rows of every table + ids in the answer + 5 for a three-table join."""
        data = problem.data
        three = 5 + len(data["countries"]) if data["kind"] == "country" else 0
        return float(len(data["customers"]) + len(data["orders"]) + len(data["answer"]) + three)

    def spellings(self, problem: Problem) -> list[str]:
        ids = problem.data["answer"]
        return [*markup_spellings(problem.answer or ""), ", ".join(reversed(ids)), "\n".join(ids),
                "[" + ", ".join(f"'{i.lower()}'" for i in ids) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        ids = data["answer"]
        pool = [c["id"] for c in data["customers"]] if data["kind"] == "no_orders" else [o["id"] for o in data["orders"]]
        outside = [i for i in pool if i not in ids]
        wrong = [", ".join([*ids, rng.choice(outside)]), ", ".join(pool), "none"]
        if len(ids) > 1:
            wrong.append(", ".join(ids[1:]))
        return wrong
