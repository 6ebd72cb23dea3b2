"""Capital budgeting on a stated stream of yearly cash flows: the net present value at a rate, the payback
period, or the internal rate of return.

- NPV: the sum of each year's cash flow divided by (1 + rate)^year, year 0 undiscounted. The exact value is a
  fraction; the prompt asks for it rounded to the cent (halves away from zero), and the exact fraction is
  accepted as well. The undiscounted sum is told apart in the feedback.
- Payback: the time until the cumulative (undiscounted) cash flow reaches zero, counting the year in which
  it does so fractionally (its cash flow assumed to arrive evenly over the year): an exact fraction of years.
- IRR: the rate at which the NPV is exactly zero. The flows are built from a planted whole-percent rate (the
  later flows scaled so that every flow is a whole number of dollars); with one outlay followed by inflows
  the IRR is unique (one sign change). The verifier checks the NPV at the written rate is exactly zero.

Difficulty: the years of the drawn stream, times 1 (payback), 2 (NPV) or 3 (IRR), plus half the digits of
its flows. IRR problems have 2 to 4 years of inflows.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

RATES = (4, 5, 6, 8, 10, 12, 15, 20, 25)  # whole percents
MODE_WEIGHT = {"payback": 1, "npv": 2, "irr": 3}
DOLLARS = {"$": 1, "dollars": 1, "dollar": 1, "USD": 1}
YEARS = {"years": 1, "year": 1, "yr": 1, "yrs": 1}
PERCENT = {"%": Fraction(1, 100), "percent": Fraction(1, 100), "per cent": Fraction(1, 100)}


def npv(flows: list[int], rate: Fraction) -> Fraction:
    return sum((Fraction(flow) / (1 + rate) ** year for year, flow in enumerate(flows)), Fraction(0))


def to_cents(value: Fraction) -> Fraction:
    """``value`` rounded to the cent, halves away from zero."""
    cents = math.floor(abs(value) * 100 + Fraction(1, 2))
    return Fraction(cents if value >= 0 else -cents, 100)


def payback(flows: list[int]) -> Fraction | None:
    """Years until the cumulative flow reaches zero (fractional within the year), or None if it never does."""
    total = Fraction(flows[0])
    for year, flow in enumerate(flows[1:], start=1):
        if total + flow >= 0:
            return year - 1 + (-total) / flow
        total += flow
    return None


def cents_text(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    cents = abs(value) * 100
    return f"{sign}{cents.numerator // 100}.{cents.numerator % 100:02d}"


@register
class NpvIrr(Task):
    id = "economics/npv_irr"
    version = 2  # v2: the IRR problems scale every cash flow by one factor (v1 broke the proportion in some draws)
    family = "economics"
    description = "Net present value, payback period or internal rate of return of yearly cash flows, exactly."
    tags = ("economics", "finance", "math")

    @dataclass(frozen=True)
    class Config:
        years: int  # years of inflows after the outlay in year 0 (IRR problems use 2 to 4)
        modes: tuple[str, ...]  # the questions this level may ask

    presets = (Config(3, ("payback", "npv")), Config(4, ("payback", "npv")), Config(5, ("payback", "npv", "irr")),
               Config(6, ("npv", "irr")), Config(8, ("npv",)))
    growth = Growth(steps={"years": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        mode = rng.choice(config.modes)
        if mode == "irr":
            years = rng.randint(2, max(2, min(4, config.years - 2)))
            rate = Fraction(rng.choice(RATES), 100)
            inflows = [rng.randint(1, 20) for _ in range(years)]
            present = sum((Fraction(c) / (1 + rate) ** (t + 1) for t, c in enumerate(inflows)), Fraction(0))
            scale = present.denominator * rng.randint(1, 3)  # every flow a whole number of dollars
            flows = [-int(present * scale)] + [c * scale for c in inflows]
            common = math.gcd(*flows)
            # One factor for every flow (small flows read better in hundreds): scaling some flows and not others
            # broke the proportion, and the stated IRR was not the flows' (v1: 2 in 10 problems at levels 2-3).
            factor = 100 if all(abs(f // common) < 10 ** 4 for f in flows) else 1
            flows = [f // common * factor for f in flows]
        else:
            years = rng.randint(max(2, config.years - 1), config.years)
            outlay = rng.randint(10 * years, 25 * years) * 100  # recovered, if at all, late in the stream
            flows = [-outlay] + [rng.randint(5, 40) * 100 for _ in range(years)]
            if mode == "payback" and payback(flows) is None:
                flows[-1] = -sum(flows[:-1]) + rng.randint(1, 20) * 100  # recovered in the last year
            rate = Fraction(rng.choice(RATES), 100)
        table = "\n".join(f"year {t}: {'-' if f < 0 else ''}${abs(f):,}" for t, f in enumerate(flows))
        if mode == "npv":
            exact = npv(flows, rate)
            question = (f"What is the net present value (NPV) of this project at a discount rate of "
                        f"{rate * 100}% per year? (Year 0 is not discounted; year t's cash flow is divided by "
                        f"(1 + rate)^t.) Give the NPV in dollars rounded to the nearest cent, for example: "
                        f"$-1234.56 or $987.65")
            answer, value = cents_text(to_cents(exact)), exact
        elif mode == "payback":
            value = payback(flows) or Fraction(0)
            question = ("What is the payback period: the time until the cumulative (undiscounted) cash flow "
                        "reaches zero, counting the year of recovery fractionally as if its cash flow arrived "
                        "evenly through that year? Give it in years exactly (a fraction, or a decimal only if "
                        "exact), for example: 5/7 years")
            answer = format_fraction(value)
        else:
            value = rate
            question = ("What is the internal rate of return (IRR): the yearly discount rate at which the net "
                        "present value is exactly zero? Give it as a percentage, for example: 7%")
            answer = f"{format_fraction(rate * 100)}%"
        prompt = f"A project has these cash flows (year 0 is the initial outlay):\n\n{table}\n\n{question}"
        return Problem(prompt=prompt, answer=answer,
                       data={"mode": mode, "flows": flows, "rate": format_fraction(rate),
                             "value": format_fraction(value)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        mode, flows = problem.data["mode"], problem.data["flows"]
        value = Fraction(problem.data["value"])
        if mode == "npv":
            written = read_exact(answer, units=DOLLARS)
            if written is None:
                return Verdict.unparsed("expected an amount in dollars, such as $1234.56")
            if written in (value, to_cents(value)):
                return Verdict.right()
            if written in (sum(flows), to_cents(Fraction(sum(flows)))):
                return Verdict.wrong("that is the undiscounted sum of the cash flows; discount each year's flow")
            return Verdict.wrong(f"{format_fraction(written)} is not the NPV rounded to the cent")
        if mode == "payback":
            written = read_exact(answer, units=YEARS, mixed=True)
            if written is None:
                return Verdict.unparsed("expected a number of years, such as 5/2")
            if written == value:
                return Verdict.right()
            return Verdict.wrong(f"after {format_fraction(written)} years the cumulative cash flow is not zero")
        written = read_exact(answer, units=PERCENT)
        if written is None:
            return Verdict.unparsed("expected a percentage, such as 7%")
        marked = "%" in answer or "percent" in answer.lower() or "per cent" in answer.lower()
        rate = written / 100 if written >= 1 and not marked else written  # a bare 10 means 10%, a bare 0.1 too
        if rate <= -1:
            return Verdict.wrong("a rate of -100% or less is not a discount rate")
        if npv(flows, rate) == 0:
            return Verdict.right()
        return Verdict.wrong(f"at {format_fraction(rate * 100)}% the NPV is not zero")

    def difficulty(self, problem: Problem) -> float:
        """Years of the drawn stream times the question's weight, plus the digits of its largest flow."""
        flows = problem.data["flows"]
        return float(len(flows) * MODE_WEIGHT[problem.data["mode"]] + sum(len(str(abs(f))) for f in flows) / 2)

    def spellings(self, problem: Problem) -> list[str]:
        mode, value = problem.data["mode"], Fraction(problem.data["value"])
        gold = problem.answer or ""
        if mode == "npv":
            return [*super().spellings(problem), f"${gold}", f"{gold} dollars", f"\\boxed{{{gold}}}",
                    f"NPV = ${gold}", format_fraction(value), f"Answer: {gold}."]
        if mode == "payback":
            whole, rest = divmod(value, 1)
            extra = [f"{whole} {format_fraction(rest)} years"] if rest and whole else []
            return [*super().spellings(problem), f"{gold} years", f"\\boxed{{{gold}}}",
                    f"\\frac{{{value.numerator}}}{{{value.denominator}}}", f"Answer: {gold} years.", *extra]
        return [*super().spellings(problem), format_fraction(value), f"\\boxed{{{gold}}}", f"IRR = {gold}",
                f"{format_fraction(value * 100)} percent", f"Answer: {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        mode, flows, value = problem.data["mode"], problem.data["flows"], Fraction(problem.data["value"])
        gold = problem.answer or ""
        if mode == "npv":
            rounded = to_cents(value)
            return [cents_text(Fraction(sum(flows))), cents_text(rounded + Fraction(1, 100)),
                    cents_text(-rounded) if rounded else "1.00", f"{gold} or {cents_text(Fraction(sum(flows)))}"]
        if mode == "payback":
            return [str(math.ceil(value)) if value.denominator > 1 else str(value + 1), format_fraction(value + 1),
                    f"{gold} or {format_fraction(value + 1)}"]
        percent = value * 100
        return [f"{format_fraction(percent + 1)}%", f"{format_fraction(percent / 2)}%", f"{gold} or 1%"]
