"""Inventory decisions: economic order quantity, quantity discounts and the newsvendor, exactly.

Level 0 asks for the economic order quantity Q* = sqrt(2DS/H) and the yearly ordering-plus-holding
cost at it (drawn so the root is whole); level 1 adds the orders per year and the reorder point for
a lead time (a 365-day year); level 2 offers all-units quantity discounts (a lower unit price from
each break quantity on, the holding cost per unit fixed): the best order quantity is the EOQ where
its tier allows it or a break quantity, and the answer gives it with the yearly total cost
(purchases included); levels 3 and 4 are newsvendor problems with a discrete demand distribution
(price, unit cost, salvage value and, at level 4, a goodwill penalty per unit short): the answer
is an order quantity and its expected profit. The verifier accepts **any** order quantity whose
cost (or expected profit) is the optimum, with the stated cost equal to that quantity's. From
level 2 on, problems are redrawn until the textbook shortcuts are not optimal: the plain EOQ (and
which of the three break quantities is optimal is drawn, each equally likely, so ordering at the
lowest price is right a third of the time, not always); ordering the mean, the most likely or the
median demand, and at level 4 the critical fractile that ignores the goodwill penalty.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.operations.common import read_named_numbers
from palaestra.verifiers.rationals import format_fraction

NAMES = {"eoq": ("Q", "C"), "reorder": ("Q", "N", "R"), "discount": ("Q", "T"), "newsvendor": ("q", "E"),
         "penalty": ("q", "E")}
EXAMPLES = {"eoq": "Q = 250, C = 1500", "reorder": "Q = 250, N = 24/5, R = 300/73", "discount": "Q = 250, T = 60750",
            "newsvendor": "q = 40, E = 1255/2", "penalty": "q = 40, E = 1255/2"}


@register
class Inventory(Task):
    id = "operations/inventory"
    family = "operations"
    description = "Economic order quantity, reorder points, all-units quantity discounts and the newsvendor, exactly."
    tags = ("operations-research", "inventory", "optimization", "math")
    version = 2  # v2: level 2 draws which break is optimal; levels 3-4 beat more shortcuts (see _discount, _newsvendor_data)

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("eoq"), Config("reorder"), Config("discount"), Config("newsvendor"), Config("penalty"))
    bounded = "its levels are kinds of inventory decision (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, data = _KINDS[config.kind](rng)
        names = NAMES[config.kind]
        prompt = f"{text}\n\nGive exact values (fractions where needed), e.g. {EXAMPLES[config.kind]}."
        answer = ", ".join(f"{name} = {data['answer'][name]}" for name in names)
        return Problem(prompt=prompt, answer=answer, data={"kind": config.kind, **data})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        kind = problem.data["kind"]
        names = NAMES[kind]
        values = read_named_numbers(answer, names)
        if values is None:
            return Verdict.unparsed("expected " + ", ".join(f"{n} = <exact value>" for n in names))
        expected = {k: Fraction(v) for k, v in problem.data["answer"].items()}
        if kind in ("eoq", "reorder"):
            for name in names:
                if values[name] != expected[name]:
                    return Verdict.wrong(f"wrong {name}")
            return Verdict.right()
        quantity, stated = values[names[0]], values[names[1]]
        if quantity <= 0 or (kind != "discount" and quantity.denominator != 1):
            return Verdict.wrong("the order quantity must be a positive whole number")
        if kind == "discount":
            worth = discount_cost(problem.data, quantity)
            if stated != worth:
                return Verdict.wrong(f"ordering {format_fraction(quantity)} costs {format_fraction(worth)} a year, "
                                     f"not {format_fraction(stated)}")
            return Verdict.judge(worth == expected["T"], "that order quantity does not have the least yearly cost")
        worth = expected_profit(problem.data, int(quantity))
        if stated != worth:
            return Verdict.wrong(f"ordering {quantity} has expected profit {format_fraction(worth)}, not "
                                 f"{format_fraction(stated)}")
        return Verdict.judge(worth == expected["E"], "that order quantity does not maximise the expected profit")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def shortcut(problem: Problem) -> str:
            data = problem.data
            if data["kind"] in ("eoq", "reorder"):
                return problem.answer or ""
            if data["kind"] == "discount":
                q = Fraction(data["eoq"])
                return f"Q = {format_fraction(q)}, T = {format_fraction(discount_cost(data, q))}"
            demand = newsvendor_shortcuts(data)["the mean demand"]
            return f"q = {demand}, E = {format_fraction(expected_profit(data, demand))}"

        def spelled(name: str) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                data = problem.data
                if data["kind"] == "discount":  # ordering at the lowest price: the largest break quantity
                    q = Fraction(data["breaks"][-1])
                    return f"Q = {format_fraction(q)}, T = {format_fraction(discount_cost(data, q))}"
                if data["kind"] not in ("newsvendor", "penalty"):
                    return problem.answer or ""
                demand = newsvendor_shortcuts(data).get(name, newsvendor_shortcuts(data)["the mean demand"])
                return f"q = {demand}, E = {format_fraction(expected_profit(data, demand))}"
            return answer

        return {"textbook shortcut: the plain EOQ, or order the mean demand": shortcut,
                "the largest break, or the most likely demand": spelled("the most likely demand"),
                "the largest break, or the median demand": spelled("the median demand"),
                "the critical fractile ignoring the goodwill penalty": spelled(
                    "the critical fractile without the goodwill penalty")}

    def difficulty(self, problem: Problem) -> float:
        """Reasoning steps of the kind (plus the demand values or price tiers to weigh), plus a tenth of the
        answer's digits."""
        data = problem.data
        digits = sum(c.isdigit() for v in data["answer"].values() for c in v)
        return data["steps"] + len(data.get("demand", data.get("breaks", []))) + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), ", ".join(reversed(pairs)), "\n".join(pairs) + ".",
                "\\boxed{" + "; ".join(pairs) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        names = NAMES[data["kind"]]
        values = {k: Fraction(v) for k, v in data["answer"].items()}

        def spelled(changed: dict[str, Fraction]) -> str:
            return ", ".join(f"{n} = {format_fraction(changed[n])}" for n in names)

        first, last = names[0], names[-1]
        wrong = [spelled({**values, last: values[last] + 1}), spelled({**values, first: values[first] * 2}),
                 ", ".join(f"{n} = {format_fraction(values[n])}" for n in names[:-1]),
                 spelled(values) + f" or {first} = {format_fraction(values[first] + 1)}"]
        if data["kind"] in ("newsvendor", "penalty"):  # a quantity off the optimum, with its own true profit
            best = values["E"]
            for q in range(0, max(data["demand"]) + 2):
                if expected_profit(data, q) != best:
                    wrong.append(f"q = {q}, E = {format_fraction(expected_profit(data, q))}")
                    break
        return wrong


def _eoq_numbers(rng: random.Random) -> tuple[int, int, int, int]:
    """(yearly demand D, cost per order S, holding cost per unit-year H, EOQ), with sqrt(2DS/H) whole."""
    quantity = rng.randint(2, 60) * 10
    order_cost = rng.randint(2, 40) * 5
    multiple = rng.randint(1, 12)  # H = multiple * 2S / gcd, so that D = H Q^2 / (2S) is whole
    step = 2 * order_cost // math.gcd(2 * order_cost, quantity * quantity)
    holding = multiple * step
    demand = holding * quantity * quantity // (2 * order_cost)
    return demand, order_cost, holding, quantity


def _eoq(rng: random.Random) -> tuple[str, dict]:
    demand, order_cost, holding, quantity = _eoq_numbers(rng)
    cost = Fraction(demand * order_cost, quantity) + Fraction(holding * quantity, 2)
    text = (f"A shop sells {demand} units a year at a steady rate. Each order costs {order_cost} to place (whatever its "
            f"size) and holding one unit in stock for a year costs {holding}. Find the economic order quantity Q (the "
            "order size minimising the yearly ordering plus holding cost, no shortages) and that yearly cost C.")
    return text, {"answer": {"Q": str(quantity), "C": format_fraction(cost)}, "steps": 2}


def _reorder(rng: random.Random) -> tuple[str, dict]:
    demand, order_cost, holding, quantity = _eoq_numbers(rng)
    lead = rng.randint(2, 30)
    text = (f"A workshop uses {demand} units a year at a steady rate (a year has 365 days). Each order costs "
            f"{order_cost} to place and holding one unit for a year costs {holding}; a delivery arrives {lead} days "
            "after the order. Find the economic order quantity Q, the number N of orders per year, and the reorder "
            "point R (the stock level at which to order so the delivery arrives as stock runs out).")
    answer = {"Q": str(quantity), "N": format_fraction(Fraction(demand, quantity)),
              "R": format_fraction(Fraction(demand * lead, 365))}
    return text, {"answer": answer, "steps": 4}


def discount_cost(data: dict, quantity: Fraction) -> Fraction:
    """Yearly purchases plus ordering plus holding when ordering ``quantity`` at its tier's unit price."""
    price = next(p for b, p in reversed(list(zip(data["breaks"], data["prices"]))) if quantity >= b)
    return (data["D"] * price + Fraction(data["D"] * data["S"]) / quantity + Fraction(data["H"]) * quantity / 2)


def _best_discount(data: dict) -> tuple[Fraction, Fraction]:
    """(an optimal order quantity, its yearly cost): the EOQ if its tier allows it, else a break quantity."""
    candidates = [Fraction(b) for b in data["breaks"][1:]]
    eoq = Fraction(data["eoq"])
    candidates.append(eoq)
    return min((discount_cost(data, q), q) for q in candidates)[::-1]


def _discount(rng: random.Random) -> tuple[str, dict]:
    # Version 2: three break quantities (four tiers), the optimal one drawn first (each equally likely) and the
    # schedule redrawn until it is optimal. Version 1 had one or two breaks and the optimum was the largest break
    # in 98% of the problems, so "order at the lowest price" earned reward without comparing any cost.
    target = rng.randrange(3)

    def draw() -> dict:
        demand, order_cost, holding, quantity = _eoq_numbers(rng)
        base = rng.randint(10, 80)
        tiers = 4
        breaks = [1] + sorted(rng.sample(range(quantity + 10, quantity * 4 + 20, 10), tiers - 1))
        prices = [base]
        for _ in range(tiers - 1):
            prices.append(prices[-1] - rng.randint(1, max(1, prices[-1] // 6)))
        return {"D": demand, "S": order_cost, "H": holding, "eoq": quantity, "breaks": breaks, "prices": prices}

    def acceptable(data: dict) -> bool:
        best_q, best = _best_discount(data)
        return best_q == data["breaks"][1 + target] and min(data["prices"]) > 0

    data = retry(draw, acceptable, what="a discount schedule that beats the plain EOQ")
    best_q, best = _best_discount(data)
    breaks, prices = data["breaks"], data["prices"]
    tiers = "; ".join(
        (f"{prices[i]} each for orders below {breaks[1]} units" if i == 0 else
         f"{prices[i]} each for orders of {b} units or more" + (f" (below {breaks[i + 1]})" if i + 1 < len(breaks) else ""))
        for i, b in enumerate(breaks))
    text = (f"A firm uses {data['D']} units a year at a steady rate. Each order costs {data['S']} to place and holding "
            f"one unit for a year costs {data['H']} (whatever its price). The supplier's all-units prices: {tiers}. "
            "Find the order quantity Q that minimises the yearly total cost (purchases, ordering and holding; no "
            "shortages) and that total cost T.")
    return text, {**data, "answer": {"Q": format_fraction(best_q), "T": format_fraction(best)}, "steps": 5}


def expected_profit(data: dict, quantity: int) -> Fraction:
    """Expected profit of ordering ``quantity``: sales at the price, leftovers at the salvage value, shortages at
    the penalty, less the purchase cost."""
    total = Fraction(-data["cost"] * quantity)
    for demand, chance in zip(data["demand"], data["chance"]):
        sold = min(quantity, demand)
        total += Fraction(chance) * (data["price"] * sold + data["salvage"] * (quantity - sold)
                                     - data["penalty"] * (demand - sold))
    return total


def _newsvendor_data(rng: random.Random, values: int, penalty: bool) -> dict:
    def draw() -> dict:
        demand = sorted(rng.sample(range(10, 200, 5), values))
        weights = [rng.randint(1, 9) for _ in demand]
        total = sum(weights)
        price = rng.randint(10, 60)
        return {"demand": demand, "chance": [format_fraction(Fraction(w, total)) for w in weights], "price": price,
                "cost": rng.randint(2, price - 2), "salvage": rng.randint(0, 1), "penalty": rng.randint(1, 15) if penalty
                else 0, "weights": weights}

    def acceptable(data: dict) -> bool:
        best = max(expected_profit(data, d) for d in data["demand"])
        modes = [d for w, d in zip(data["weights"], data["demand"]) if w == max(data["weights"])]  # ties: every one
        return all(expected_profit(data, q) < best for q in [*newsvendor_shortcuts(data).values(), *modes])

    return retry(draw, acceptable, what="a newsvendor problem no shortcut quantity solves")


def newsvendor_shortcuts(data: dict) -> dict[str, int]:
    """Order quantities of the textbook shortcuts, which the drawn problems defeat (version 2 added all but the
    mean: in version 1 the most likely demand was optimal in 40% of the problems at levels 3 and 4, the median in
    27-45%, and the critical fractile that ignores the goodwill penalty in 52% at level 4)."""
    weights, demand = data["weights"], data["demand"]
    total = sum(weights)

    def quantile(share: Fraction) -> int:  # the smallest demand whose cumulative chance reaches ``share``
        running = 0
        for w, d in zip(weights, demand):
            running += w
            if Fraction(running, total) >= share:
                return d
        return demand[-1]

    found = {"the mean demand": round(sum(Fraction(p) * d for d, p in zip(demand, data["chance"]))),
             "the most likely demand": max(zip(weights, demand), key=lambda pair: (pair[0], -pair[1]))[1],
             "the median demand": quantile(Fraction(1, 2))}
    if data["penalty"]:
        found["the critical fractile without the goodwill penalty"] = quantile(
            Fraction(data["price"] - data["cost"], data["price"] - data["salvage"]))
    return found


def _newsvendor_text(data: dict) -> str:
    total = sum(data["weights"])
    table = ", ".join(f"{d} with probability {w}/{total}" for d, w in zip(data["demand"], data["weights"]))
    penalty = (f" Each unit of unmet demand also costs {data['penalty']} in lost goodwill." if data["penalty"] else "")
    return (f"A vendor orders a whole number of newspapers once, before the day's demand is known. Demand is {table}. "
            f"Each paper costs {data['cost']} and sells for {data['price']}; unsold papers are returned for "
            f"{data['salvage']} each.{penalty} Find an order quantity q that maximises the expected profit and that "
            "expected profit E.")


def _newsvendor_kind(rng: random.Random, values: Sequence[int], penalty: bool, steps: int) -> tuple[str, dict]:
    data = _newsvendor_data(rng, rng.choice(values), penalty)
    best = max(data["demand"], key=lambda d: (expected_profit(data, d), -d))
    answer = {"q": str(best), "E": format_fraction(expected_profit(data, best))}
    return _newsvendor_text(data), {**data, "answer": answer, "steps": steps}


def _newsvendor(rng: random.Random) -> tuple[str, dict]:
    return _newsvendor_kind(rng, (3, 4, 5), False, 6)


def _penalty(rng: random.Random) -> tuple[str, dict]:
    return _newsvendor_kind(rng, (5, 6, 7), True, 7)


_KINDS: dict[str, Callable[[random.Random], tuple[str, dict]]] = {
    "eoq": _eoq, "reorder": _reorder, "discount": _discount, "newsvendor": _newsvendor, "penalty": _penalty,
}
