"""LP duality: the shadow prices of a production plan's resources (an optimal solution of the dual program), exactly.

A workshop makes products from limited resources (a table of whole-number requirements per unit,
profits and stocks): the primal program maximises profit c·x subject to A x <= b, x >= 0. The
task asks for its dual: a price y_i >= 0 per unit of each resource such that, for every product,
the resources one unit uses are worth at least its profit (yᵀA >= c), minimising the stock's
total worth W = b·y; by strong duality the minimum equals the maximum profit, and the prices are
the resources' shadow prices. The reference comes from an exact simplex method
(:mod:`palaestra.solvers.lp`, fractions). The verifier accepts **any** optimal dual solution (a
degenerate plan has several): every price given and non-negative, every product's constraint
met, W equal to b·y and to the maximum profit. Programs are redrawn until no single resource priced
alone (the "bottleneck" pricing: put all the value on one resource, the cheapest such feasible
pricing) is optimal, nor the scarcity pricing: price the scarcest resources, one per product (fewest
in stock, or least stock per unit used in all or at most), so that every product's constraint is tight.

Version 2: version 1 redrew bottleneck-priced programs only from level 2, and level 0 had two resources
(every optimum either one resource priced alone or both constraints tight), so the bottleneck pricing
solved 0.70 of level 0 and 0.68 of level 1; with the redraw at every level, pricing the scarcest
resources by stock per unit used solved 0.78 and 0.60 of levels 0-1 with three resources at level 0. Levels 0
and 1 now have four and five resources for two products (6 and 10 pairs of resources to price) and both redraws
hold everywhere: each of those rules solves none, and other fixed choices of the pair (the first two, the two
most in stock, least stock per unit used at the least) at most 0.20 of level 0 and 0.13 of level 1.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.operations.common import (
    named_values_spellings,
    named_values_text,
    random_packing_program,
    read_named_numbers,
    well_posed,
)
from palaestra.solvers.linalg import solve
from palaestra.solvers.lp import maximise
from palaestra.verifiers.rationals import format_fraction

_EXAMPLE_VALUES = ("7/3", "0", "5", "1/2")  # a fixed placeholder shape, independent of the answer


@register
class LpDuality(Task):
    id = "operations/lp_duality"
    family = "operations"
    description = "Shadow prices of a production LP's resources: an optimal dual solution (any one), exactly."
    tags = ("operations-research", "optimization", "math", "duality")
    version = 2  # v2: neither the bottleneck nor the scarcity pricing is optimal, at any level
    distinct_from = {"operations/linear_program": "the answer is the dual program's optimal prices, a certificate "
                                                  "of optimality, not the primal plan"}

    @dataclass(frozen=True)
    class Config:
        products: int
        resources: int

    presets = (
        Config(products=2, resources=4),
        Config(products=2, resources=5),
        Config(products=3, resources=3),
        Config(products=3, resources=4),
        Config(products=4, resources=5),
    )
    growth = Growth(steps={"products": 1, "resources": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, m = config.products, config.resources

        def acceptable(program: tuple[list[int], list[list[int]], list[int]]) -> bool:
            c, a, b = program
            if not well_posed(a):
                return False
            solution = maximise(c, a, b)
            assert solution is not None  # bounded: every product uses some resource
            cheapest = bottleneck_pricing(c, a, b)
            if cheapest is not None and cheapest[1] == solution.value:
                return False
            return not any(prices is not None and _optimal_pricing(c, a, b, prices, solution.value)
                           for prices in scarcity_pricings(c, a, b).values())

        c, a, b = retry(lambda: random_packing_program(rng, n, m), acceptable, what="a production LP no single-resource pricing solves")
        solution = maximise(c, a, b)
        assert solution is not None
        names = [f"y{i + 1}" for i in range(m)]
        header = "resource  " + "  ".join(f"P{j + 1:<2}" for j in range(n)) + "  stock"
        rows = "\n".join(f"R{i + 1:<8} " + "  ".join(f"{v:>3}" for v in row) + f"  {stock:>5}"
                         for i, (row, stock) in enumerate(zip(a, b)))
        profits = "profit    " + "  ".join(f"{v:>3}" for v in c)
        example = ", ".join(f"{name} = {_EXAMPLE_VALUES[i % 4]}" for i, name in enumerate(names)) + ", W = 52"
        prompt = (
            f"A workshop makes products P1 to P{n} (any non-negative real amounts) from resources R1 to R{m}. The table "
            f"gives the units of each resource one unit of each product uses, the stock of each resource and the "
            f"profit per unit of each product:\n{header}\n{rows}\n{profits}\n\nThe workshop maximises its profit "
            "(the primal program). Solve the dual program: find a price y_i >= 0 per unit of each resource R_i such "
            "that, for every product, the resources one unit of it uses are worth at least its profit, and the total "
            "worth of the stock, W = sum of stock_i * y_i, is as small as possible (these are the shadow prices). "
            f"Give every price and W, exact (fractions where needed), e.g. {example}."
        )
        answer = named_values_text(names, solution.duals, "W", solution.value)
        return Problem(prompt=prompt, answer=answer, data={
            "c": c, "a": a, "b": b, "optimum": format_fraction(solution.value), "pivots": solution.pivots,
            "duals": [format_fraction(v) for v in solution.duals],
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
        names = [f"y{i + 1}" for i in range(len(b))]
        values = read_named_numbers(answer, [*names, "W"])
        if values is None:
            return Verdict.unparsed(f"expected {', '.join(names)} and W, each as name = exact value")
        prices = [values[name] for name in names]
        for name, price in zip(names, prices):
            if price < 0:
                return Verdict.wrong(f"the price {name} is negative")
        for j, profit in enumerate(c):
            worth = sum((row[j] * price for row, price in zip(a, prices)), Fraction(0))
            if worth < profit:
                return Verdict.wrong(f"one unit of P{j + 1} uses resources worth {format_fraction(worth)}, less than "
                                     f"its profit {profit}")
        total = sum((stock * price for stock, price in zip(b, prices)), Fraction(0))
        if values["W"] != total:
            return Verdict.wrong(f"W at these prices is {format_fraction(total)}, not {format_fraction(values['W'])}")
        return Verdict.judge(total == Fraction(problem.data["optimum"]), "feasible prices, but W is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def bottleneck(problem: Problem) -> str:
            c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
            found = bottleneck_pricing(c, a, b)
            prices = found[0] if found is not None else [Fraction(max(c))] * len(b)
            total = sum((stock * p for stock, p in zip(b, prices)), Fraction(0))
            return named_values_text([f"y{i + 1}" for i in range(len(b))], prices, "W", total)

        def scarcest(problem: Problem) -> str:
            c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
            prices = scarcity_pricings(c, a, b)["stock per unit used"] or [Fraction(max(c))] * len(b)
            total = sum((stock * p for stock, p in zip(b, prices)), Fraction(0))
            return named_values_text([f"y{i + 1}" for i in range(len(b))], prices, "W", total)

        return {"price the bottleneck resource alone": bottleneck, "price the scarcest resources, all tight": scarcest}

    def difficulty(self, problem: Problem) -> float:
        """Twice the products (each a dual constraint, and a price to find per product: which resources get
        them is the question) plus the resources, plus the simplex pivots the optimum took and the positive prices."""
        data = problem.data
        return 2 * len(data["c"]) + len(data["b"]) + data["pivots"] + sum(v != "0" for v in data["duals"]) / 2

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *named_values_spellings(problem.answer or "")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = [f"y{i + 1}" for i in range(len(problem.data["b"]))]
        duals = [Fraction(v) for v in problem.data["duals"]]
        optimum = Fraction(problem.data["optimum"])
        b = problem.data["b"]

        def spelled(ys: list[Fraction], value: Fraction) -> str:
            return named_values_text(names, ys, "W", value)

        raised = [duals[0] + 1, *duals[1:]]
        top = max(range(len(duals)), key=lambda i: duals[i])  # halving a positive price drops W below the optimum
        lowered = [d / 2 if i == top else d for i, d in enumerate(duals)]
        return [spelled(duals, optimum + 1), spelled(raised, optimum + b[0]),
                spelled([Fraction(0)] * len(names), Fraction(0)), spelled(lowered, sum(
                    (s * d for s, d in zip(b, lowered)), Fraction(0))),
                spelled(duals, optimum) + f" or W = {format_fraction(optimum + 1)}",
                ", ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, duals))]


def bottleneck_pricing(c: list[int], a: list[list[int]], b: list[int]) -> tuple[list[Fraction], Fraction] | None:
    """The cheapest dual-feasible pricing that puts a price on one resource only (it must cover every product's
    profit by itself), as (prices, W); None when no single resource is used by every product."""
    best: tuple[list[Fraction], Fraction] | None = None
    for i, row in enumerate(a):
        if any(v == 0 for v in row):
            continue
        price = max(Fraction(profit, v) for profit, v in zip(c, row))
        if best is None or b[i] * price < best[1]:
            best = ([price if k == i else Fraction(0) for k in range(len(b))], b[i] * price)
    return best


def scarcity_pricings(c: list[int], a: list[list[int]], b: list[int]) -> dict[str, list[Fraction] | None]:
    """Prices that make every product's constraint tight on the scarcest resources, one per product, by measure of
    scarcity: the stock, the stock per unit used in all, and per unit used at most (None where the system has no
    single solution)."""
    n = len(c)
    scarcity = {"stock": lambda i: Fraction(b[i]), "stock per unit used": lambda i: Fraction(b[i], max(1, sum(a[i]))),
                "stock per largest use": lambda i: Fraction(b[i], max(1, *a[i]))}
    pricings: dict[str, list[Fraction] | None] = {}
    for name, key in scarcity.items():
        chosen = sorted(sorted(range(len(b)), key=key)[:n])
        prices = solve([[a[i][j] for i in chosen] for j in range(n)], c)
        priced = dict(zip(chosen, prices or []))
        pricings[name] = None if prices is None else [priced.get(i, Fraction(0)) for i in range(len(b))]
    return pricings


def _optimal_pricing(c: list[int], a: list[list[int]], b: list[int], prices: list[Fraction], optimum: Fraction) -> bool:
    """Whether ``prices`` are feasible for the dual and reach the optimum."""
    covers = all(sum((row[j] * y for row, y in zip(a, prices)), Fraction(0)) >= profit for j, profit in enumerate(c))
    return min(prices) >= 0 and covers and sum((s * y for s, y in zip(b, prices)), Fraction(0)) == optimum
