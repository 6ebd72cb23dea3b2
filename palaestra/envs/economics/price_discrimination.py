"""Monopoly pricing across markets: third-degree price discrimination or one uniform price, exactly.

A monopolist with constant marginal cost c sells in one or more separate markets with linear inverse demand
P_i = a_i − b_i·Q_i. Questions:

- discrimination: a price per market (MR_i = MC in each): the price and quantity in every market and the
  total profit (P_i = (a_i + c)/2, Q_i = (a_i − c)/(2 b_i));
- uniform: one price for all markets (resale cannot be stopped): the aggregate demand is kinked where a
  market's choke price a_i is passed, so the optimum is found over each set of served markets (the ones
  whose choke price exceeds the price), keeping the candidates consistent with their set; the profit
  maximum is unique (ties are redrawn) and may leave the small markets unserved — the answer is the price,
  the total quantity and the profit. From level 2 on, markets are redrawn until at least two served sets
  give a consistent candidate (so the profits must be compared, not just the first consistent set taken),
  and from level 3 on (three markets or more) until the best one leaves a market unserved (so the price on
  the aggregate demand of all markets is never right).

Every reference is exact (``Fraction``); the answer names each value exactly (``P_1 = 45, Q_1 = 35/2, ...,
profit = 1225/2``), read by the shared assignment reader. The feedback names the first wrong value, and says
when a uniform price serves every market although dropping some pays more.

Version 2: the aggregate demand's price was right on 0.32 of level 2 and 0.10 of level 4 (a quarter of the
uniform questions), the largest consistent served set (the textbook walk that drops a priced-out market and
recomputes) on 0.49 and 0.44; now 0.29 and 0 for the first, 0.30 and 0.22 for the second. The question is
drawn once per problem, so the redraws keep the half-and-half mix.

Version 3: the smallest consistent served set was the best in most uniform questions from level 3 on (that
shortcut was right on 0.45 of level 3 and 0.23 of level 4), the aggregate demand's price in two thirds of them at
level 2 (0.33); from level 2 on a coin drawn once per problem decides whether the smallest consistent set is the
best, so each shortcut is right on about half the uniform questions or fewer, as a guess between two candidates
would be.

Difficulty: the markets, the question's weight (the kinked uniform price heaviest) and the bits of the
answer's denominators.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

Market = tuple[Fraction, Fraction]  # (a, b): P = a − b·Q


def _served_prices(markets: list[Market], cost: Fraction) -> list[tuple[Fraction, Fraction, Fraction, int, bool]]:
    """(profit, price, quantity, markets served, consistent) for serving the 1, 2, ... markets with the highest
    choke prices at that set's optimal price, consistent or not."""
    ranked = sorted(markets, key=lambda m: -m[0])
    found = []
    for served in range(1, len(ranked) + 1):
        active, rest = ranked[:served], ranked[served:]
        intercept = sum((a / b for a, b in active), Fraction(0))
        slope = sum((1 / b for _, b in active), Fraction(0))
        price = (intercept + slope * cost) / (2 * slope)
        consistent = cost < price and all(price < a for a, _ in active) and all(price >= a for a, _ in rest)
        quantity = intercept - slope * price
        found.append(((price - cost) * quantity, price, quantity, served, consistent))
    return found


def uniform_candidates(markets: list[Market], cost: Fraction) -> list[tuple[Fraction, Fraction, Fraction, int]]:
    """(profit, price, quantity, markets served) for each consistent served set: the markets with the highest
    choke prices, served at the set's optimal price, which must lie below their choke prices and at or above
    the others', best first."""
    return sorted(
        (
            (profit, price, quantity, served)
            for profit, price, quantity, served, consistent in _served_prices(markets, cost)
            if consistent
        ),
        reverse=True,
    )


@register
class PriceDiscrimination(Task):
    id = "economics/price_discrimination"
    family = "economics"
    description = "Monopoly prices, quantities and profit with third-degree discrimination or one uniform price."
    tags = ("economics", "math", "optimisation")
    version = 3  # v3: from level 2 on, the smallest consistent served set is the best in half the uniform questions

    @dataclass(frozen=True)
    class Config:
        markets: int
        questions: tuple[str, ...]
        fractional: bool  # whether demand slopes may be fractions
        # for the uniform price: 1 redraws until two served sets or more give a consistent candidate (the
        # profits must be compared), 2 also until the best one leaves a market unserved
        kinked: int = 2

    presets = (
        Config(1, ("discrimination",), False),
        Config(2, ("discrimination",), False),
        Config(2, ("discrimination", "uniform"), True, kinked=1),
        Config(3, ("discrimination", "uniform"), True),
        Config(4, ("discrimination", "uniform"), True),
    )
    growth = Growth(steps={"markets": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question = rng.choice(config.questions)  # drawn once, so the redraws below do not tilt the mix
        # likewise whether the smallest consistent served set is the best (a coin only where it is asked)
        smallest_best = question == "uniform" and config.kinked >= 1 and rng.random() < 0.5
        return retry(
            lambda: self._draw(rng, config, question, smallest_best), lambda p: p is not None, attempts=1000,
            what="a unique optimum",
        )

    def _draw(self, rng: random.Random, config: Config, question: str, smallest_best: bool) -> Problem | None:
        cost = Fraction(rng.randint(2, 30))
        markets: list[Market] = []
        for _ in range(config.markets):
            a = cost + rng.randint(10, 100 + 50 * config.markets)  # room for distinct choke prices
            b = Fraction(rng.randint(1, 8), rng.randint(1, 4) if config.fractional else 1)
            markets.append((a, b))
        if len({a for a, _ in markets}) < len(markets):
            return None
        n = len(markets)
        if question == "discrimination":
            prices = [(a + cost) / 2 for a, _ in markets]
            quantities = [(a - cost) / (2 * b) for a, b in markets]
            profit = sum(((p - cost) * q for p, q in zip(prices, quantities, strict=True)), Fraction(0))
            values = {}
            for i, (p, q) in enumerate(zip(prices, quantities, strict=True), start=1):
                values[f"P_{i}"], values[f"Q_{i}"] = p, q
            values["profit"] = profit
            served = n
            ask = (
                "The monopolist can charge a different price in each market (no resale between them). Find the "
                "profit-maximising price P_i and quantity Q_i in every market and the total profit."
            )
        else:
            candidates = uniform_candidates(markets, cost)
            if not candidates or (len(candidates) > 1 and candidates[0][0] == candidates[1][0]):
                return None
            profit, price, quantity, served = candidates[0]
            if (config.kinked >= 1 and len(candidates) < 2) or (config.kinked >= 2 and served == n):
                return None
            if config.kinked >= 1 and (served == min(c[3] for c in candidates)) != smallest_best:
                return None
            values = {"P": price, "Q": quantity, "profit": profit}
            ask = (
                "Resale between the markets cannot be prevented, so the monopolist must charge one uniform price "
                "P in all of them (a market whose demand is zero at that price buys nothing). Find the "
                "profit-maximising price P, the total quantity Q sold and the profit."
            )
        demand = "\n".join(
            f"- market {i}: P_{i} = {format_fraction(a)} − {format_fraction(b) + '·' if b != 1 else ''}Q_{i}"
            for i, (a, b) in enumerate(markets, start=1)
        )
        names = list(values)
        # a fixed placeholder of the right shape, never the answer (equal prices would need equal choke prices)
        example = ", ".join(
            f"{name} = {'100' if name == 'profit' else ('12' if name.startswith('P') else '7/2')}" for name in names
        )
        prompt = (
            f"A monopolist produces at a constant marginal cost of {format_fraction(cost)} (no fixed cost) and sells "
            f"in {n} separate market{'s' if n > 1 else ''} with inverse demand:\n{demand}\n\n{ask}\n\n"
            f"Give every value exactly (fractions allowed), for example: {example}"
        )
        if n == 1 and question == "discrimination":
            prompt = prompt.replace(
                "The monopolist can charge a different price in each market (no resale between them). ", ""
            )
        answer = ", ".join(f"{name} = {format_fraction(value)}" for name, value in values.items())
        all_served = uniform_candidates(markets, cost)
        naive = next((c for c in all_served if c[3] == n), None)
        return Problem(
            prompt=prompt,
            answer=answer,
            data={
                "question": question,
                "names": names,
                "values": [str(v) for v in values.values()],
                "markets": n,
                "served": served,
                "cost": str(cost),
                "demand": [[str(a), str(b)] for a, b in markets],
                "serve_all": [str(naive[1]), str(naive[2]), str(naive[0])]
                if naive and question == "uniform" and served < n
                else None,
            },
        )

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Uniform-price shortcuts (a discrimination question gets one price for every market from each): the
        price on the aggregate demand of all markets; the largest served set whose price is consistent (the
        textbook walk that drops a market priced out and recomputes); the smallest consistent one."""

        def rule(pick: Callable[[list[tuple[Fraction, Fraction, Fraction, int, bool]]], tuple | None]):
            def answer(problem: Problem) -> str:
                markets = [(Fraction(a), Fraction(b)) for a, b in problem.data["demand"]]
                cost = Fraction(problem.data["cost"])
                chosen = pick(_served_prices(markets, cost))
                if chosen is None:
                    return "P = 0, Q = 0, profit = 0"
                price = chosen[1]
                sold = [max(Fraction(0), (a - price) / b) for a, b in markets]
                total = sum(sold, Fraction(0))
                if problem.data["question"] == "uniform":
                    values = {"P": price, "Q": total, "profit": (price - cost) * total}
                else:
                    values = {}
                    for i, q in enumerate(sold, start=1):
                        values[f"P_{i}"], values[f"Q_{i}"] = price, q
                    values["profit"] = (price - cost) * total
                return ", ".join(f"{name} = {format_fraction(v)}" for name, v in values.items())

            return answer

        return {
            "the aggregate demand's price": rule(lambda found: found[-1]),
            "the largest consistent served set": rule(
                lambda found: max((c for c in found if c[4]), key=lambda c: c[3], default=None)
            ),
            "the smallest consistent served set": rule(
                lambda found: min((c for c in found if c[4]), key=lambda c: c[3], default=None)
            ),
        }

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        given = read_assignment(answer, names, read_exact) if isinstance(answer, str) else None
        if given is None:
            return Verdict.unparsed(f"expected {', '.join(names)} exactly, such as P = 12, Q = 7/2, profit = 100")
        values = [Fraction(v) for v in problem.data["values"]]
        for name, value in zip(names, values, strict=True):
            if given[name] != value:
                if problem.data["serve_all"] is not None and given["P"] == Fraction(problem.data["serve_all"][0]):
                    return Verdict.wrong(
                        "that price serves every market, but leaving the smaller markets unserved earns more"
                    )
                return Verdict.wrong(f"{name} is not {format_fraction(given[name])}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Markets weigh 2, the uniform (kinked) question 3 more, plus the bits of the answer's denominators."""
        data = problem.data
        bits = sum(Fraction(v).denominator.bit_length() - 1 for v in data["values"])
        return float(2 * data["markets"] + 3 * (data["question"] == "uniform") + bits / 3)

    def spellings(self, problem: Problem) -> list[str]:
        names = problem.data["names"]
        values = [Fraction(v) for v in problem.data["values"]]
        latex = ", ".join(
            f"{n.replace('_', '_{')}{'}' if '_' in n else ''} = "
            + (f"\\frac{{{v.numerator}}}{{{v.denominator}}}" if v.denominator > 1 else str(v))
            for n, v in zip(names, values, strict=True)
        )
        return [
            *super().spellings(problem),
            latex,
            "\n".join(f"{n}: {format_fraction(v)}" for n, v in zip(names, values, strict=True)),
            "Answer: " + "; ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, values, strict=True)) + ".",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = problem.data["names"]
        values = [Fraction(v) for v in problem.data["values"]]

        def text(vs: list[Fraction]) -> str:
            return ", ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, vs, strict=True))

        wrong = [
            text([*values[:-1], values[-1] + 1]),
            text([values[0] * 2, *values[1:]]),
            text([v / 2 for v in values]),
        ]
        if problem.data["serve_all"] is not None:
            wrong.append(text([Fraction(v) for v in problem.data["serve_all"]]))
        return wrong
