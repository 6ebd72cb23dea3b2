"""Linear supply and demand: the equilibrium, the effect of a per-unit tax or a price floor, or the price
elasticity of demand at equilibrium, all exact.

Demand is Qd = a − b·P and supply Qs = c + d·P (b, d > 0; fractional slopes at the top level). Questions:

- equilibrium: the price P and quantity Q where Qd = Qs;
- tax: a tax of t per unit collected from sellers (supply becomes c + d·(P − t)): the price buyers pay Pb,
  the price sellers keep Ps = Pb − t, and the quantity Q;
- floor: a binding minimum price F above the equilibrium: the quantity traded Q = Qd(F) and the excess
  supply X = Qs(F) − Qd(F);
- elasticity: the point price elasticity of demand at the equilibrium, (dQd/dP)·P/Q = −b·P/Q, signed.

Every answer is a short list of named exact numbers, unique, compared exactly; the feedback names the first
wrong one (and says when a tax answer is the no-tax equilibrium, or an elasticity is given unsigned).

Difficulty: the question's weight (equilibrium 1, elasticity 2, tax 3, floor 3) times four, plus the digits
of the curves' coefficients and the bits of the answers' numerators and denominators.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

MODE_WEIGHT = {"equilibrium": 1, "elasticity": 2, "tax": 3, "floor": 3}
NAMES = {"equilibrium": ["P", "Q"], "tax": ["Pb", "Ps", "Q"], "floor": ["Q", "X"], "elasticity": ["E"]}
# Units a careful grader accepts after a value: dollars after a price, "units" after a quantity.
PRICE_UNITS = {"$": 1, "dollars": 1, "dollar": 1}
QUANTITY_UNITS = {"units": 1, "unit": 1}
EXAMPLES = {"equilibrium": "P = 7/3, Q = 41", "tax": "Pb = 9.5, Ps = 8, Q = 17/2", "floor": "Q = 13, X = 11/4",
            "elasticity": "E = -5/8"}  # fixed placeholders of the right shape: never derived from the answer


def price_term(slope: Fraction) -> str:
    """``P``, ``3·P`` or ``(3/2)·P``."""
    if slope == 1:
        return "P"
    return f"{format_fraction(slope) if slope.denominator == 1 else f'({format_fraction(slope)})'}·P"


def equilibrium(a: Fraction, b: Fraction, c: Fraction, d: Fraction, tax: Fraction = Fraction(0)) -> tuple[Fraction, Fraction]:
    """The price buyers pay and the quantity where demand meets supply shifted up by ``tax``."""
    price = (a - c + d * tax) / (b + d)
    return price, a - b * price


@register
class MarketEquilibrium(Task):
    id = "economics/market_equilibrium"
    family = "economics"
    description = "Linear supply and demand: equilibrium, per-unit tax, price floor or elasticity, exactly."
    tags = ("economics", "microeconomics", "math")

    @dataclass(frozen=True)
    class Config:
        high: int  # demand's intercept is drawn up to this
        fractional: bool  # slopes may be fractions
        modes: tuple[str, ...]

    presets = (Config(60, False, ("equilibrium",)), Config(100, False, ("equilibrium", "elasticity")),
               Config(150, False, ("equilibrium", "elasticity", "tax")),
               Config(200, False, ("elasticity", "tax", "floor")), Config(300, True, ("elasticity", "tax", "floor")))
    growth = Growth(factors={"high": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        mode = rng.choice(config.modes)

        def slope() -> Fraction:
            if config.fractional and rng.random() < 0.6:
                return Fraction(rng.randint(1, 9), rng.choice((2, 3, 4, 5)))
            return Fraction(rng.randint(1, 6))

        def draw() -> tuple[Fraction, ...] | None:
            b, d = slope(), slope()
            a = Fraction(rng.randint(config.high // 3, config.high))
            c = Fraction(rng.randint(-config.high // 4, config.high // 4))
            price, quantity = equilibrium(a, b, c, d)
            if price <= 0 or quantity <= 0:
                return None
            return a, b, c, d, price, quantity

        a, b, c, d, price, quantity = retry(draw, what="curves meeting at a positive price and quantity")
        curves = (f"Demand: Qd = {format_fraction(a)} - {price_term(b)}\n"
                  f"Supply: Qs = {format_fraction(c) + ' + ' if c else ''}{price_term(d)}")
        extra: dict[str, str] = {}
        if mode == "equilibrium":
            values = [price, quantity]
            question = "Find the equilibrium price P and quantity Q."
        elif mode == "tax":
            tax = Fraction(rng.randint(1, max(1, int(price) - 1))) if price > 2 else Fraction(1, 2)
            taxed_price, taxed_quantity = equilibrium(a, b, c, d, tax)
            if taxed_quantity <= 0:
                tax = price / 4
                taxed_price, taxed_quantity = equilibrium(a, b, c, d, tax)
            values = [taxed_price, taxed_price - tax, taxed_quantity]
            extra["tax"] = format_fraction(tax)
            question = (f"The government collects a tax of {format_fraction(tax)} per unit from the sellers. Find the "
                        "price buyers pay Pb, the price sellers keep after the tax Ps, and the quantity traded Q.")
        elif mode == "floor":
            floor = Fraction(math.floor(price) + rng.randint(1, max(1, int(a / b - price) // 2)))
            if a - b * floor <= 0:
                floor = (price + a / b) / 2
            values = [a - b * floor, (c + d * floor) - (a - b * floor)]
            extra["floor"] = format_fraction(floor)
            question = (f"A minimum price of {format_fraction(floor)} is imposed (it is above the equilibrium price, "
                        "so it binds). Find the quantity traded Q (what buyers demand at that price) and the excess "
                        "supply X (quantity supplied minus quantity demanded at that price).")
        else:
            values = [-b * price / quantity]
            question = ("Find the price elasticity of demand at the equilibrium point, E = (dQd/dP)·P/Q, as a signed "
                        "number.")
        names = NAMES[mode]
        prompt = (f"A market has linear demand and supply curves (P is the price, Q the quantity):\n\n{curves}\n\n"
                  f"{question} Give each number exactly (a fraction, or a decimal only if it is exact), for example: "
                  f"{EXAMPLES[mode]}")
        answer = ", ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, values, strict=True))
        return Problem(prompt=prompt, answer=answer,
                       data={"mode": mode, "names": names, "values": [format_fraction(v) for v in values],
                             "curve": [format_fraction(x) for x in (a, b, c, d)],
                             "untaxed": [format_fraction(price), format_fraction(quantity)], **extra})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names, mode = problem.data["names"], problem.data["mode"]

        def read_value(text: str) -> Fraction | None:  # a price may carry dollars, a quantity "units"
            price = read_exact(text, units=PRICE_UNITS)
            return price if price is not None else read_exact(text, units=QUANTITY_UNITS)

        expected = [Fraction(v) for v in problem.data["values"]]
        if mode == "elasticity":
            value = read_assignment(answer, names, read_exact)
            single = read_exact(answer) if value is None else value["E"]
            if single is None:
                return Verdict.unparsed("expected one number, such as E = -3/4")
            if single == expected[0]:
                return Verdict.right()
            if single == -expected[0]:
                return Verdict.wrong("the elasticity of demand is negative here: give it signed")
            return Verdict.wrong(f"{format_fraction(single)} is not the elasticity at the equilibrium")
        written = read_assignment(answer, names, read_value)
        if written is None:
            return Verdict.unparsed(f"expected {', '.join(f'{n} = ...' for n in names)}")
        got = [written[n] for n in names]
        if got == expected:
            return Verdict.right()
        if mode == "tax" and got[0] == got[1] == Fraction(problem.data["untaxed"][0]):
            return Verdict.wrong("that is the equilibrium without the tax")
        wrong = next(n for n, g, e in zip(names, got, expected, strict=True) if g != e)
        return Verdict.wrong(f"{wrong} = {format_fraction(written[wrong])} is wrong")

    def difficulty(self, problem: Problem) -> float:
        """Four times the question's weight, plus the curves' digits and the bits of the answers' terms."""
        digits = sum(len(x.replace("-", "").replace("/", "")) for x in problem.data["curve"])
        values = [Fraction(v) for v in problem.data["values"]]
        bits = sum(math.log2(v.denominator) + math.log2(abs(v.numerator) + 1) for v in values)
        return 4.0 * MODE_WEIGHT[problem.data["mode"]] + digits + bits

    def spellings(self, problem: Problem) -> list[str]:
        names, values = problem.data["names"], [Fraction(v) for v in problem.data["values"]]
        pairs = list(zip(names, values, strict=True))
        colons = ", ".join(f"{n}: {format_fraction(v)}" for n, v in pairs)
        lines = "\n".join(f"{n} = {format_fraction(v)}" for n, v in pairs)
        latex = ", ".join(f"{n} = \\frac{{{v.numerator}}}{{{v.denominator}}}" for n, v in pairs)
        backwards = ", ".join(f"{n} = {format_fraction(v)}" for n, v in reversed(pairs))
        spelled = [*super().spellings(problem), colons, lines, f"\\boxed{{{latex}}}", backwards,
                   f"Answer: {problem.answer}."]
        if len(values) == 1:
            spelled.append(format_fraction(values[0]))
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names, values = problem.data["names"], [Fraction(v) for v in problem.data["values"]]
        candidates = [[v + 1 for v in values], [values[-1], *values[:-1]] if len(values) > 1 else [-values[0]]]
        if problem.data["mode"] == "tax":
            untaxed = [Fraction(v) for v in problem.data["untaxed"]]
            candidates.append([untaxed[0], untaxed[0], untaxed[1]])
        wrong = [", ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, c, strict=True)) for c in candidates
                 if c != values]
        return [*wrong, f"{problem.answer} or {wrong[0]}"]
