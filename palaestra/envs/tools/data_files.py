"""Answer a question about generated CSV files by analysing them with a sandboxed Python interpreter.

The python tool's working directory holds ``sales.csv`` (200 to 3,000 orders: date, region, product,
quantity, unit price, customer) and, at the top level, ``customers.csv`` (city and segment of each
customer). The prompt shows the header and first rows only, so the answer needs code: counts with
filters, revenue (quantity x unit price) of a product in a month, customers who bought two given
products, the customer with the largest revenue, quantities per region and quarter, revenue of a
city's customers in a segment (a join of the two files). At levels 3-4 the data is dirty, as the
prompt says: region names vary in case and surrounding spaces, and some quantities are blank
(orders not delivered, to be left out). The answer is an exact integer, an exact amount with two
decimals, or a customer id. The difficulty is log10 of the rows plus the question's filters, joins
and dirty-data rules.

Generation speed: about 310 problems/s at level 4 on this 2-core machine. Each problem generates its own
data files (2,500-3,000 sales rows with a customers table, dirty values included) and computes the
reference answer from their columns, so no answer can be memorised; drawing those rows is nearly all the
time, and the files are cached so the tools and the oracle reuse them.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.envs.tools.common import ToolTask, counted_units, tool_call
from palaestra.generators.knowledge import NameForge
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import grade_number

REGIONS = ("North", "South", "East", "West", "Central")
SEGMENTS = ("retail", "wholesale", "online")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
YEAR_START = date(2023, 1, 1)
DATES = tuple((YEAR_START + timedelta(days=d)).isoformat() for d in range(365))
MONTH_OF_DAY = tuple((YEAR_START + timedelta(days=d)).month for d in range(365))
SALES_HEADER = "order_id,date,region,product,quantity,unit_price,customer_id"
CUSTOMERS_HEADER = "customer_id,city,segment"
# Filters per question kind (the difficulty's question part).
FILTERS = {"count_region": 1, "count_product_quantity": 2, "revenue_product_month": 2, "customers_both": 2,
           "top_customer": 1, "quantity_region_quarter": 2, "revenue_city_segment": 4}


@register
class DataFiles(ToolTask):
    id = "tools/data_files"
    family = "tools"
    description = "Answer questions about generated CSV sales files by analysing them with Python."
    tags = ("tools", "multi-turn", "python", "data-analysis", "files")
    tool_names = ("python",)

    @dataclass(frozen=True)
    class Config:
        rows: tuple[int, int]
        customers: int
        kinds: tuple[str, ...]
        dirty: bool

    presets = (
        Config((150, 250), 40, ("count_region", "count_product_quantity"), False),
        Config((400, 700), 80, ("count_product_quantity", "revenue_product_month"), False),
        Config((900, 1400), 150, ("revenue_product_month", "customers_both"), False),
        Config((1600, 2200), 200, ("top_customer", "quantity_region_quarter"), True),
        Config((2500, 3000), 250, ("revenue_city_segment", "quantity_region_quarter"), True),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 6 to 7)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)

        def draw() -> tuple[dict[str, Any], dict[str, Any], Any] | None:
            spec = {"seed": rng.getrandbits(32), "rows": rng.randint(*config.rows), "customers": config.customers,
                    "dirty": config.dirty, "with_customers": kind == "revenue_city_segment"}
            question = _question(kind, _tables(**spec), rng)
            return None if question is None else (spec, *question)

        spec, question, answer = retry(draw, what=f"a {kind} question", attempts=30)
        tables = _tables(**spec)
        files = "sales.csv" + (" and customers.csv" if spec["with_customers"] else "")
        shown = [f"sales.csv ({spec['rows']} rows after the header), first lines:\n"
                 + "\n".join([SALES_HEADER, *(_sales_line(tables, i) for i in range(3))])]
        if spec["with_customers"]:
            shown.append(f"customers.csv ({spec['customers']} rows after the header), first lines:\n"
                         + "\n".join(_customers_csv(**spec).splitlines()[:4]))
        dirty = ("\nThe data is not clean: region names vary in capitalisation and may have spaces around them "
                 "(they name the same region), and some quantities are blank: those orders were not delivered, "
                 "leave them out.") if spec["dirty"] else ""
        form = {"integer": "an integer, e.g. <answer>1234</answer>",
                "amount": "the exact amount with two decimals, e.g. <answer>12345.60</answer>",
                "customer": "the customer id, e.g. <answer>C0007</answer>"}[question["type"]]
        prompt = (
            f"The python tool's working directory contains {files}. Each order line has a quantity and a unit "
            f"price; its revenue is quantity x unit_price.\n\n" + "\n\n".join(shown) + f"\n{dirty}\n\n"
            f"Question: {question['text']}\n\nAnalyse the file{'s' if spec['with_customers'] else ''} with the "
            f"python tool. Answer with {form}.\n\n{self.tools_prompt(5)}"
        )
        data = {"files": spec, "kind": kind, "question": question, "budget": 5}
        return Problem(prompt=prompt, answer=str(answer), data=data)

    def python_files(self, problem: Problem) -> dict[str, str]:
        spec = problem.data["files"]
        files = {"sales.csv": _sales_csv(**spec)}
        if spec["with_customers"]:
            files["customers.csv"] = _customers_csv(**spec)
        return files

    def difficulty(self, problem: Problem) -> float:
        spec = problem.data["files"]
        return math.log10(spec["rows"]) + FILTERS[problem.data["kind"]] + int(spec["dirty"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        kind = problem.data["question"]["type"]
        if kind == "customer":
            expected = (problem.answer or "").casefold()
            ok = read_answer(answer, lambda s: True if s.strip().casefold() == expected else None)
            return Verdict.judge(bool(ok))
        verdict = grade_number(answer, Fraction(problem.answer or "0"), units=counted_units(problem.prompt))
        if verdict is None:
            return Verdict.unparsed("not a number")
        return Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        return [tool_call("python", code=_code(problem.data["kind"], problem.data["question"])), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        kind = problem.data["question"]["type"]
        answer = problem.answer or ""
        if kind == "customer":
            return [answer.lower(), f"{answer}."]
        spelled = [f"{Decimal(answer):,}", f"{answer}."]
        if kind == "amount":
            spelled.append(f"{answer}0")
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        kind = problem.data["question"]["type"]
        answer = problem.answer or ""
        if kind == "customer":
            number = int(answer[1:])
            return [f"C{number + 1:04d}", f"{answer} or C{number + 1:04d}"]
        if kind == "amount":
            value = Decimal(answer)
            return [str(value + Decimal("0.01")), str(value.to_integral_value()) if value % 1 else str(value + 1)]
        value = int(answer)
        return [str(value + 1), str(value - 1)]


@functools.lru_cache(maxsize=16)
def _tables(seed: int, rows: int, customers: int, dirty: bool, with_customers: bool) -> dict[str, Any]:
    """The files' contents as columns, from their spec (cached: generation, tools and the oracle share it)."""
    rng = random.Random(seed)
    forge = NameForge(rng)
    products = [forge.word(2) for _ in range(10)]
    base_cents = [rng.randint(199, 19_999) for _ in products]
    cities = [forge.word(2) for _ in range(6)]
    product = rng.choices(range(len(products)), k=rows)
    days = rng.choices(range(365), k=rows)
    region = rng.choices(range(len(REGIONS)), k=rows)
    quantity: list[int | None] = list(rng.choices(range(1, 21), k=rows))
    delta = rng.choices(range(-60, 61), k=rows)
    customer = rng.choices(range(1, customers + 1), k=rows)
    region_text = [REGIONS[r] for r in region]
    if dirty:
        for i in rng.sample(range(rows), rows // 25):
            quantity[i] = None
        for i in rng.sample(range(rows), rows // 5):
            name = REGIONS[region[i]]
            region_text[i] = rng.choice((name.lower(), name.upper(), f" {name}", f"{name} ", f" {name.lower()} "))
    cents = [max(50, base_cents[p] + d) for p, d in zip(product, delta)]
    return {
        "products": products, "cities": cities,
        "city": [rng.randrange(len(cities)) for _ in range(customers)],
        "segment": [rng.randrange(len(SEGMENTS)) for _ in range(customers)],
        "product": product, "day": days, "region": region, "region_text": region_text, "quantity": quantity,
        "cents": cents, "customer": customer,
    }


@functools.lru_cache(maxsize=8)
def _sales_csv(seed: int, rows: int, customers: int, dirty: bool, with_customers: bool) -> str:
    t = _tables(seed, rows, customers, dirty, with_customers)
    return "\n".join([SALES_HEADER, *(_sales_line(t, i) for i in range(rows))]) + "\n"


def _sales_line(t: dict[str, Any], i: int) -> str:
    quantity = "" if t["quantity"][i] is None else str(t["quantity"][i])
    cents = t["cents"][i]
    return (f"{100001 + i},{DATES[t['day'][i]]},{t['region_text'][i]},{t['products'][t['product'][i]]},{quantity},"
            f"{cents // 100}.{cents % 100:02d},C{t['customer'][i]:04d}")


@functools.lru_cache(maxsize=8)
def _customers_csv(seed: int, rows: int, customers: int, dirty: bool, with_customers: bool) -> str:
    t = _tables(seed, rows, customers, dirty, with_customers)
    lines = [CUSTOMERS_HEADER] + [f"C{c + 1:04d},{t['cities'][t['city'][c]]},{SEGMENTS[t['segment'][c]]}"
                                  for c in range(customers)]
    return "\n".join(lines) + "\n"


def _question(kind: str, t: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str] | None:
    """The question (text, answer type and parameters) and its answer, or None when it would be degenerate."""
    n = len(t["product"])
    delivered = [i for i in range(n) if t["quantity"][i] is not None]
    if kind == "count_region":
        r = rng.randrange(len(REGIONS))
        answer = sum(1 for i in range(n) if t["region"][i] == r)
        return {"type": "integer", "region": REGIONS[r],
                "text": f"How many orders (lines of sales.csv) are from the {REGIONS[r]} region?"}, str(answer)
    if kind == "count_product_quantity":
        p, q = rng.randrange(len(t["products"])), rng.randint(5, 16)
        answer = sum(1 for i in delivered if t["product"][i] == p and t["quantity"][i] >= q)
        if answer == 0:
            return None
        name = t["products"][p]
        return {"type": "integer", "product": name, "min_quantity": q,
                "text": f"How many orders of the product {name} have a quantity of at least {q}?"}, str(answer)
    if kind == "revenue_product_month":
        p, month = rng.randrange(len(t["products"])), rng.randint(1, 12)
        chosen = [i for i in delivered if t["product"][i] == p and MONTH_OF_DAY[t["day"][i]] == month]
        if not chosen:
            return None
        name = t["products"][p]
        text = f"What is the total revenue of the product {name} in {MONTHS[month - 1]} 2023?"
        return {"type": "amount", "product": name, "month": month, "text": text}, _amount(t, chosen)
    if kind == "customers_both":
        a, b = rng.sample(range(len(t["products"])), 2)
        bought_a = {t["customer"][i] for i in delivered if t["product"][i] == a}
        bought_b = {t["customer"][i] for i in delivered if t["product"][i] == b}
        answer = len(bought_a & bought_b)
        if answer == 0:
            return None
        names = t["products"][a], t["products"][b]
        text = f"How many distinct customers bought both {names[0]} and {names[1]}?"
        return {"type": "integer", "products": list(names), "text": text}, str(answer)
    if kind == "top_customer":
        revenue: dict[int, int] = {}
        for i in delivered:
            revenue[t["customer"][i]] = revenue.get(t["customer"][i], 0) + t["quantity"][i] * t["cents"][i]
        ranked = sorted(revenue.values(), reverse=True)
        if len(ranked) < 2 or ranked[0] == ranked[1]:
            return None
        best = max(revenue, key=revenue.__getitem__)
        return {"type": "customer", "text": "Which customer has the largest total revenue?"}, f"C{best:04d}"
    if kind == "quantity_region_quarter":
        r, quarter = rng.randrange(len(REGIONS)), rng.randint(1, 4)
        answer = sum(t["quantity"][i] for i in delivered
                     if t["region"][i] == r and (MONTH_OF_DAY[t["day"][i]] - 1) // 3 + 1 == quarter)
        text = (f"What is the total quantity delivered in the {REGIONS[r]} region in quarter Q{quarter} of 2023 "
                f"(Q1 = January to March)?")
        return {"type": "integer", "region": REGIONS[r], "quarter": quarter, "text": text}, str(answer)
    city, segment = rng.randrange(len(t["cities"])), rng.randrange(len(SEGMENTS))
    first, last = sorted(rng.sample(range(1, 13), 2))
    chosen = [i for i in delivered if t["city"][t["customer"][i] - 1] == city
              and t["segment"][t["customer"][i] - 1] == segment and first <= MONTH_OF_DAY[t["day"][i]] <= last]
    if not chosen:
        return None
    text = (f"What is the total revenue from {SEGMENTS[segment]} customers based in {t['cities'][city]} "
            f"(see customers.csv) for orders dated from {MONTHS[first - 1]} to {MONTHS[last - 1]} 2023 inclusive?")
    return {"type": "amount", "city": t["cities"][city], "segment": SEGMENTS[segment], "months": [first, last],
            "text": text}, _amount(t, chosen)


def _amount(t: dict[str, Any], chosen: list[int]) -> str:
    cents = sum(t["quantity"][i] * t["cents"][i] for i in chosen)
    return f"{cents // 100}.{cents % 100:02d}"


def _code(kind: str, q: dict[str, Any]) -> str:
    """The oracle's analysis program."""
    head = ("import csv\nfrom decimal import Decimal\nrows = list(csv.DictReader(open('sales.csv')))\n"
            "rows = [r for r in rows if r['quantity'].strip()]\nfor r in rows:\n"
            "    r['region'] = r['region'].strip().title()\n    r['quantity'] = int(r['quantity'])\n"
            "    r['unit_price'] = Decimal(r['unit_price'])\n    r['month'] = int(r['date'][5:7])\n")
    if kind == "count_region":
        return head.replace("rows = [r for r in rows if r['quantity'].strip()]\n", "") \
            .replace("    r['quantity'] = int(r['quantity'])\n", "") \
            + f"sum(1 for r in rows if r['region'] == {q['region']!r})"
    if kind == "count_product_quantity":
        return head + (f"sum(1 for r in rows if r['product'] == {q['product']!r} "
                       f"and r['quantity'] >= {q['min_quantity']})")
    if kind == "revenue_product_month":
        return head + (f"sum(r['quantity'] * r['unit_price'] for r in rows if r['product'] == {q['product']!r} "
                       f"and r['month'] == {q['month']})")
    if kind == "customers_both":
        a, b = q["products"]
        return head + (f"a = {{r['customer_id'] for r in rows if r['product'] == {a!r}}}\n"
                       f"b = {{r['customer_id'] for r in rows if r['product'] == {b!r}}}\nlen(a & b)")
    if kind == "top_customer":
        return head + ("from collections import Counter\ntotal = Counter()\nfor r in rows:\n"
                       "    total[r['customer_id']] += r['quantity'] * r['unit_price']\ntotal.most_common(1)[0][0]")
    if kind == "quantity_region_quarter":
        return head + (f"sum(r['quantity'] for r in rows if r['region'] == {q['region']!r} "
                       f"and (r['month'] - 1) // 3 + 1 == {q['quarter']})")
    first, last = q["months"]
    return head + ("customers = {c['customer_id']: c for c in csv.DictReader(open('customers.csv'))}\n"
                   f"sum(r['quantity'] * r['unit_price'] for r in rows if {first} <= r['month'] <= {last} and "
                   f"customers[r['customer_id']]['city'] == {q['city']!r} and "
                   f"customers[r['customer_id']]['segment'] == {q['segment']!r})")
