"""Consumer choice: the utility-maximising bundle of divisible goods under a budget, exactly.

A consumer with income M faces prices p_i for goods named x, y, z, w, ... and has one of these utilities
(positive integer parameters):

- Cobb-Douglas  U = x^a · y^b · ...: spends the share a_i / Σa of M on good i (unequal exponents, so an
  even split never passes);
- perfect complements  U = min(x/a, y/b, ...): buys in the fixed proportions, x_i = a_i · M / Σ a_j p_j;
- perfect substitutes  U = a·x + b·y + ...: spends everything on the one good with the highest a_i / p_i
  (drawn unique; the cheapest good is not usually the one);
- quasi-linear  U = a·ln x + ... + y_last: each log good at a_i · p_last / p_i, the rest of the income on the last
  good (drawn so that it stays positive);
- Stone-Geary  U = (x − s_x)^a · (y − s_y)^b · ...: the subsistence amounts first, then Cobb-Douglas shares of
  the income left (top levels).

Each optimum is unique (strictly quasi-concave utilities with an interior optimum, the complements' kink, a
unique best ratio for substitutes) and computed with ``Fraction``; the answer names each good's quantity
exactly (fractions or exact decimals), read by the shared assignment reader. The feedback says when a bundle
is off the budget line, or costs the income but is not the optimum.

Difficulty: the goods, the utility's weight (Stone-Geary and quasi-linear heaviest) and the bits of the
answer's denominators.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

NAMES = ("x", "y", "z", "w", "v", "u", "t", "s", "r", "q", "p", "o")
EXAMPLE_VALUES = ("1/2", "7", "3", "5/4")  # a fixed placeholder of the right shape: never the answer
KIND_WEIGHT = {"cobb_douglas": 1, "complements": 1, "substitutes": 1, "quasi_linear": 3, "stone_geary": 4}


def _product(terms: list[str]) -> str:
    return " · ".join(terms)


@register
class ConsumerChoice(Task):
    id = "economics/consumer_choice"
    family = "economics"
    description = "The utility-maximising bundle under a budget (Cobb-Douglas, complements, substitutes, quasi-linear)."
    tags = ("economics", "math", "optimisation")

    @dataclass(frozen=True)
    class Config:
        goods: int
        kinds: tuple[str, ...]
        max_price: int  # prices are whole numbers from 1 to this (larger ones give longer fractions)

    presets = (Config(2, ("cobb_douglas", "complements", "substitutes"), 20),
               Config(2, ("cobb_douglas", "complements", "substitutes", "quasi_linear"), 20),
               Config(3, ("cobb_douglas", "complements", "substitutes", "quasi_linear"), 25),
               Config(3, ("cobb_douglas", "complements", "quasi_linear", "stone_geary"), 30),
               Config(4, ("cobb_douglas", "complements", "quasi_linear", "stone_geary"), 40))
    growth = Growth(steps={"goods": 1, "max_price": 20}, limits={"goods": len(NAMES)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), lambda p: p is not None, attempts=100,
                     what="a unique optimum")

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        goods = min(config.goods, len(NAMES))
        names = list(NAMES[:goods])
        kind = rng.choice(config.kinds)
        prices = [Fraction(rng.randint(1, config.max_price)) for _ in names]
        income = Fraction(rng.randint(10, 400) * 5)
        weights = rng.sample(range(1, 10 + goods), goods)  # distinct: no even split, no tie
        if kind == "cobb_douglas":
            total = sum(weights)
            bundle = [Fraction(a, total) * income / p for a, p in zip(weights, prices, strict=True)]
            utility = "U = " + _product([f"{n}^{a}" if a > 1 else n for n, a in zip(names, weights, strict=True)])
        elif kind == "complements":
            cost = sum(a * p for a, p in zip(weights, prices, strict=True))
            bundle = [a * income / cost for a in weights]
            utility = "U = min(" + ", ".join(f"{n}/{a}" if a > 1 else n
                                              for n, a in zip(names, weights, strict=True)) + ")"
        elif kind == "substitutes":
            ratios = [Fraction(a) / p for a, p in zip(weights, prices, strict=True)]
            best = ratios.index(max(ratios))
            cheapest = min(range(goods), key=lambda i: (prices[i], i))
            if ratios.count(ratios[best]) > 1 or (best == cheapest and rng.random() > 1 / goods):
                return None  # a tie has no unique optimum; "buy the cheapest" should usually fail
            bundle = [income / prices[i] if i == best else Fraction(0) for i in range(goods)]
            utility = "U = " + " + ".join(f"{a}{n}" if a > 1 else n for n, a in zip(names, weights, strict=True))
        elif kind == "quasi_linear":
            last = prices[-1]
            bundle = [Fraction(a) * last / p for a, p in zip(weights[:-1], prices[:-1], strict=True)]
            spent = sum(q * p for q, p in zip(bundle, prices, strict=False))
            income = max(income, Fraction(int(spent) + rng.randint(5, 200)))
            bundle.append((income - spent) / last)
            utility = "U = " + " + ".join(f"{a} ln {n}" if a > 1 else f"ln {n}"
                                          for n, a in zip(names[:-1], weights[:-1], strict=True)) + f" + {names[-1]}"
        else:
            subsistence = [Fraction(rng.randint(1, 8)) for _ in names]
            committed = sum(s * p for s, p in zip(subsistence, prices, strict=True))
            income = max(income, committed + rng.randint(10, 300))
            total = sum(weights)
            bundle = [s + Fraction(a, total) * (income - committed) / p
                      for s, a, p in zip(subsistence, weights, prices, strict=True)]
            utility = "U = " + _product([f"({n} − {s})^{a}" if a > 1 else f"({n} − {s})"
                                         for n, s, a in zip(names, subsistence, weights, strict=True)])
        price_text = ", ".join(f"p_{n} = {format_fraction(p)}" for n, p in zip(names, prices, strict=True))
        example = ", ".join(f"{n} = {v}" for n, v in zip(names, EXAMPLE_VALUES * 3, strict=False))
        prompt = (
            f"A consumer has income M = {format_fraction(income)} to spend on {len(names)} perfectly divisible goods "
            f"{', '.join(names[:-1])} and {names[-1]}, at prices {price_text}. Their utility is\n\n{utility}\n\n"
            f"({'ln is the natural logarithm; ' if kind == 'quasi_linear' else ''}quantities are non-negative"
            f"{' and each bracket must stay positive' if kind == 'stone_geary' else ''}.) Which bundle maximises "
            "utility subject to the budget constraint? Give every quantity exactly (fractions allowed), for example: "
            f"{example}"
        )
        answer = ", ".join(f"{n} = {format_fraction(q)}" for n, q in zip(names, bundle, strict=True))
        return Problem(prompt=prompt, answer=answer,
                       data={"kind": kind, "names": names, "income": str(income),
                             "prices": [str(p) for p in prices], "bundle": [str(q) for q in bundle]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        given = read_assignment(answer, names, read_exact) if isinstance(answer, str) else None
        if given is None:
            return Verdict.unparsed("expected each good's quantity exactly, such as x = 1/2, y = 7")
        bundle = [Fraction(q) for q in problem.data["bundle"]]
        if all(given[n] == q for n, q in zip(names, bundle, strict=True)):
            return Verdict.right()
        cost = sum(given[n] * Fraction(p) for n, p in zip(names, problem.data["prices"], strict=True))
        if any(given[n] < 0 for n in names):
            return Verdict.wrong("quantities cannot be negative")
        if cost != Fraction(problem.data["income"]):
            return Verdict.wrong(f"the bundle costs {format_fraction(cost)}, not the income; utility rises with "
                                 "spending")
        wrong = next(n for n, q in zip(names, bundle, strict=True) if given[n] != q)
        return Verdict.wrong(f"the bundle spends the income but is not the optimum ({wrong} is off)")

    def difficulty(self, problem: Problem) -> float:
        """The goods, the utility's weight and the bits of the answer's denominators."""
        bundle = [Fraction(q) for q in problem.data["bundle"]]
        bits = sum(q.denominator.bit_length() - 1 for q in bundle)
        return float(2 * len(bundle) + 2 * KIND_WEIGHT[problem.data["kind"]] + bits / 3)

    def spellings(self, problem: Problem) -> list[str]:
        names = problem.data["names"]
        bundle = [Fraction(q) for q in problem.data["bundle"]]
        values = ", ".join(format_fraction(q) for q in bundle)
        latex = ", ".join(f"{n} = \\frac{{{q.numerator}}}{{{q.denominator}}}" if q.denominator > 1 else f"{n} = {q}"
                          for n, q in zip(names, bundle, strict=True))
        return [*super().spellings(problem), f"({', '.join(names)}) = ({values})", latex,
                "Answer: " + "; ".join(f"{n}: {format_fraction(q)}" for n, q in zip(names, bundle, strict=True)) + "."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = problem.data["names"]
        bundle = [Fraction(q) for q in problem.data["bundle"]]
        income = Fraction(problem.data["income"])
        prices = [Fraction(p) for p in problem.data["prices"]]
        even = [income / len(names) / p for p in prices]  # an even split of the income
        wrong = [even, [q * 2 for q in bundle], [*bundle[:-1], bundle[-1] + 1], list(reversed(bundle))]
        return [", ".join(f"{n} = {format_fraction(q)}" for n, q in zip(names, w, strict=True))
                for w in wrong if w != bundle]
