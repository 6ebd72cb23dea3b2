"""Percentages, ratios and rates as short word problems with exact answers.

Templates by level: a percent of a number and direct proportion (level 0); percent
change, sharing in a ratio and unit rates (level 1); reversing a percentage change,
successive changes and average speed over two legs (level 2); compound interest, two
workers together and mixing solutions (level 3); several steps chained (discount then
tax then the original price, a ratio that changes after a transfer, a round trip at two
speeds with a stop) at level 4. Numbers are drawn so the answer is exact: a whole
number, a terminating decimal or, where it must be, a fraction.

The answer is one number, in the unit the question names or without it (``15``,
``15%``, ``15 percent``, ``$64``, ``64 dollars``, ``72 km/h``, ``2.4 hours``, ``33 marbles``,
``12/5``); a rounded value of a non-terminating answer is wrong. (Before v3 a count of marbles
written with its noun, ``33 marbles``, was unparsed: 0% -> 100% of such right answers accepted.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.numeric import format_decimal, read_exact
from palaestra.verifiers.rationals import other_spellings

# unit key -> accepted unit spellings (all factor 1: the question fixes the unit)
_UNITS: dict[str, tuple[str, ...]] = {
    "percent": ("%", "percent", "per cent", "\\%"),
    "dollars": ("dollars", "dollar", "$", "USD"),
    "km/h": ("km/h", "kph", "km per hour", "kilometres per hour", "kilometers per hour", "km h^-1"),
    "hours": ("hours", "hour", "h", "hrs", "hr"),
    "litres": ("litres", "liters", "litre", "liter", "L", "l"),
    "marbles": ("marbles", "marble"),
    "": (),
}
_COUNTED = {"marbles"}  # a count: the question names what is counted, so the prompt adds no "in <unit>"
_ITEMS = ("notebooks", "pens", "apples", "tickets", "bolts", "candles", "mugs", "batteries")
_NAMES = ("Ana", "Ben", "Chloe", "Dev", "Emil", "Fatima", "Grace", "Hugo", "Ines", "Jon")

Question = tuple[str, Fraction, str, int]  # text, exact answer, unit key, steps


@register
class Percentages(Task):
    id = "arithmetic/percentages"
    version = 3  # v3: "33 marbles" is accepted for a count of marbles (it was unparsed); "1 marble"
    family = "arithmetic"
    description = "Percentages, ratios and rates as word problems with exact answers."
    tags = ("math", "arithmetic", "word-problems")

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]

    presets = (
        Config(("percent_of", "proportion", "what_percent")),
        Config(("percent_change", "ratio_share", "unit_rate")),
        Config(("reverse_percent", "successive", "average_speed")),
        Config(("compound", "work_together", "mixture")),
        Config(("discount_tax_reverse", "ratio_transfer", "round_trip")),
    )
    bounded = "its levels are kinds of problem (the `templates` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        template = rng.choice(config.templates)
        question, value, unit, steps = _TEMPLATES[template](rng)
        unit_note = f" in {unit}" if unit and unit not in _COUNTED else ""
        example = "12.5"  # a fixed placeholder: independent of the answer
        prompt = (f"{question}\n\nGive the exact answer{unit_note} as a number (a fraction if it does not "
                  f"terminate), e.g. {example}.")
        return Problem(prompt=prompt, answer=format_decimal(value), data={
            "template": template, "value": str(value), "unit": unit, "steps": steps,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        units = _UNITS[problem.data["unit"]]
        value = read_exact(answer, units=units or None, mixed=True, max_digits=60)
        if value is None:
            return Verdict.unparsed("not an exact number")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Arithmetic steps the question needs (1 for a percent of a number ... 6 for chained steps), plus a
        tenth of the digits of the exact value."""
        return float(problem.data["steps"]) + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        unit = problem.data["unit"]
        extra = [f"{problem.answer} {_UNITS[unit][0]}" if unit else f"{problem.answer}.", f"x = {problem.answer}"]
        if unit == "percent":
            extra.append(f"{problem.answer}%")
        if unit == "dollars":
            extra.append(f"${problem.answer}")
        return [*super().spellings(problem), *other_spellings(value), *extra]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        wrong = [format_decimal(value + 1), format_decimal(value * 2 + 1), format_decimal(-value - 1),
                 f"{problem.answer} or {format_decimal(value + 2)}"]
        if (value * 100).denominator != 1:
            wrong.append(f"{float(value):.2f}")
        return [w for w in wrong if read_exact(w) != value]


def _money(value: Fraction | int) -> str:
    """Dollars, exactly (the generators keep amounts in whole cents)."""
    v = Fraction(value)
    text = format_decimal(v)
    return f"${text}" if "." not in text or len(text.split(".")[1]) != 1 else f"${text}0"


def _percent_of(rng: random.Random) -> Question:
    p, base = rng.choice([5, 10, 12, 15, 20, 25, 30, 35, 40, 45, 60, 75, 80, 125, 150]), rng.randint(2, 400) * 4
    return f"What is {p}% of {base}?", Fraction(p * base, 100), "", 1


def _what_percent(rng: random.Random) -> Question:
    whole = rng.choice([20, 25, 40, 50, 80, 125, 200, 250, 400, 500]) * rng.randint(1, 6)
    part = rng.randint(1, whole * 3 // 2)
    return f"What percentage of {whole} is {part}?", Fraction(part * 100, whole), "percent", 1


def _proportion(rng: random.Random) -> Question:
    item, n, m = rng.choice(_ITEMS), rng.randint(2, 12), rng.randint(2, 40)
    price = Fraction(rng.randint(3, 60) * n, 4)  # a cost per item of a quarter-dollar multiple
    if n == m:
        m += 1
    return (f"{n} {item} cost {_money(price)}. At the same price per item, how much do {m} {item} cost?",
            price / n * m, "dollars", 2)


def _percent_change(rng: random.Random) -> Question:
    old = rng.randint(1, 25) * 20  # a multiple of 20, so a change in quarter percents stays in whole cents
    change = Fraction(rng.choice([-1, 1]) * rng.randint(1, 60), rng.choice([1, 2, 4]))
    new = old * (1 + change / 100)
    direction = "rises" if change > 0 else "falls"
    return (f"A price {direction} from {_money(old)} to {_money(new)}. By what percentage did it change? "
            "(Give a decrease as a negative percentage.)"), change, "percent", 2


def _ratio_share(rng: random.Random) -> Question:
    parts = [rng.randint(1, 9) for _ in range(rng.randint(2, 4))]
    total = sum(parts) * rng.randint(3, 60)
    names = rng.sample(_NAMES, len(parts))
    who = rng.randrange(len(parts))
    ratio = ":".join(map(str, parts))
    return (f"{', '.join(names[:-1])} and {names[-1]} share {_money(total)} in the ratio {ratio} (in that order). "
            f"How much does {names[who]} get?", Fraction(total * parts[who], sum(parts)), "dollars", 2)


def _unit_rate(rng: random.Random) -> Question:
    hours = Fraction(rng.randint(2, 20), rng.choice([2, 4]))
    speed = rng.randint(20, 120)
    return f"A car covers {format_decimal(hours * speed)} km in {format_decimal(hours)} hours at a steady speed. " \
           "What is its speed?", Fraction(speed), "km/h", 2


def _reverse_percent(rng: random.Random) -> Question:
    original = rng.randint(4, 200) * 5
    p = rng.choice([5, 10, 15, 20, 25, 30, 40, 12, 35])
    up = rng.random() < 0.4
    now = Fraction(original) * (100 + p if up else 100 - p) / 100
    what = f"after a {p}% increase" if up else f"after a {p}% discount"
    return f"An item costs {_money(now)} {what}. What was its price before the change?", Fraction(original), \
        "dollars", 3


def _successive(rng: random.Random) -> Question:
    a, b = rng.choice([-1, 1]) * rng.randint(5, 50), rng.choice([-1, 1]) * rng.randint(5, 50)
    overall = ((100 + Fraction(a)) * (100 + b) / 100) - 100

    def change(x: int) -> str:
        return f"increases by {x}%" if x > 0 else f"decreases by {-x}%"

    return (f"A quantity {change(a)} and then {change(b)}. What is the overall percentage change? "
            "(Give a decrease as a negative percentage.)"), overall, "percent", 3


def _average_speed(rng: random.Random) -> Question:
    d1, d2 = rng.randint(2, 30) * 10, rng.randint(2, 30) * 10
    v1, v2 = rng.choice([30, 40, 50, 60, 75, 80, 90, 100, 120]), rng.choice([20, 30, 45, 50, 60, 80, 100])
    time = Fraction(d1, v1) + Fraction(d2, v2)
    return (f"A bus drives {d1} km at {v1} km/h and then {d2} km at {v2} km/h. What is its average speed for "
            "the whole journey?"), (d1 + d2) / time, "km/h", 3


def _compound(rng: random.Random) -> Question:
    principal, years = rng.randint(1, 200) * 100, rng.randint(2, 3)
    rate = rng.choice([2, 3, 4, 5, 6, 8, 10, 12, 15, 20])
    value = principal * (1 + Fraction(rate, 100)) ** years
    return (f"{_money(principal)} is invested at {rate}% per year, compounded once a year. What is it worth after "
            f"{years} years?"), value, "dollars", 4


def _work_together(rng: random.Random) -> Question:
    hours = rng.sample(range(2, 41), rng.choice([2, 2, 3]))
    names = rng.sample(_NAMES, len(hours))
    alone = "; ".join(f"{name} alone can paint a fence in {h} hours" for name, h in zip(names, hours))
    together = 1 / sum(Fraction(1, h) for h in hours)
    return f"{alone}. Working together at those rates, how long do they take?", together, "hours", 4


def _mixture(rng: random.Random) -> Question:
    v1, v2 = rng.randint(1, 12), rng.randint(1, 12)
    c1, c2 = rng.sample([5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 80], 2)
    value = Fraction(v1 * c1 + v2 * c2, v1 + v2)
    return (f"{v1} litres of a {c1}% salt solution are mixed with {v2} litres of a {c2}% salt solution. What is "
            "the salt concentration of the mixture, as a percentage?"), value, "percent", 4


def _discount_tax_reverse(rng: random.Random) -> Question:
    discount, tax = rng.choice([10, 15, 20, 25, 30, 40]), rng.choice([5, 8, 10, 20, 25])
    original = retry(lambda: rng.randint(4, 150) * 10, lambda o: (o * (100 - discount) * (100 + tax)) % 100 == 0,
                     what="a price that ends in whole cents")
    paid = Fraction(original) * (100 - discount) / 100 * (100 + tax) / 100
    return (f"A shop takes {discount}% off a jacket's price, then adds {tax}% sales tax to the discounted price. "
            f"The customer pays {_money(paid)}. What was the jacket's price before the discount?"), \
        Fraction(original), "dollars", 6


def _ratio_transfer(rng: random.Random) -> Question:
    names = rng.sample(_NAMES, 2)
    a, b = rng.sample(range(1, 10), 2)
    unit = rng.randint(3, 30)
    moved = rng.randint(1, a * unit - 1)
    x, y = a * unit - moved, b * unit + moved
    return (f"{names[0]} and {names[1]} have marbles in the ratio {a}:{b}. After {names[0]} gives {names[1]} "
            f"{moved} marble{'s' if moved > 1 else ''}, they have them in the ratio {Fraction(x, y).numerator}:{Fraction(x, y).denominator}. "
            f"How many marbles did {names[0]} have at first?"), Fraction(a * unit), "marbles", 6


def _round_trip(rng: random.Random) -> Question:
    distance = rng.randint(3, 40) * 10
    v1, v2 = rng.choice([40, 50, 60, 75, 80, 90, 100]), rng.choice([30, 45, 50, 60, 80, 120])
    stop = Fraction(rng.choice([15, 20, 30, 45, 60, 90]), 60)
    total = Fraction(distance, v1) + Fraction(distance, v2) + stop
    return (f"A courier drives {distance} km to a depot at {v1} km/h, stops there for {format_decimal(stop * 60)} "
            f"minutes, and drives back the same way at {v2} km/h. What is the average speed for the whole trip, "
            "stop included?"), 2 * distance / total, "km/h", 6


_TEMPLATES: dict[str, Callable[[random.Random], Question]] = {
    "percent_of": _percent_of, "what_percent": _what_percent, "proportion": _proportion,
    "percent_change": _percent_change, "ratio_share": _ratio_share, "unit_rate": _unit_rate,
    "reverse_percent": _reverse_percent, "successive": _successive, "average_speed": _average_speed,
    "compound": _compound, "work_together": _work_together, "mixture": _mixture,
    "discount_tax_reverse": _discount_tax_reverse, "ratio_transfer": _ratio_transfer, "round_trip": _round_trip,
}
