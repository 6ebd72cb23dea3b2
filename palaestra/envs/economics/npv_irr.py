"""Capital budgeting on a stated stream of yearly cash flows: the net present value at a rate, the payback
period, or the internal rate of return.

- NPV: the sum of each year's cash flow divided by (1 + rate)^year, year 0 undiscounted. The exact value is a
  fraction; the prompt asks for it rounded to the cent (halves away from zero), and the exact fraction is
  accepted as well. The undiscounted sum is told apart in the feedback.
- Payback: the time until the cumulative (undiscounted) cash flow reaches zero, counting the year in which
  it does so fractionally (its cash flow assumed to arrive evenly over the year): an exact fraction of years.
- IRR: the rate at which the NPV is zero, as a percentage to two decimals. With one outlay followed by inflows
  the IRR is unique (one sign change) and the NPV falls as the rate rises, so the verifier needs no reference:
  a written rate w is right when the NPV changes sign between w - 0.005 and w + 0.005 percentage points
  (exact rational arithmetic), i.e. when w is within half a hundredth of a point of the IRR. Version 2 planted
  one of nine whole-percent rates: a one-line estimate, ((sum of inflows / outlay)^(1 / mean year) - 1), snapped
  to those nine was right on every problem (rounded to a whole percent, 84-91%), with no NPV ever evaluated.
  Version 3's flows are round hundreds of dollars and the outlay whole dollars, so the IRR is irrational in
  general, and that estimate is within the half-hundredth on a few problems in a hundred (declared as a
  heuristic, with its nearest whole percent).

Difficulty: the years of the drawn stream, times 1 (payback), 2 (NPV) or 3 (IRR), plus half the digits of
its flows. IRR problems have 2 to 4 years of inflows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

RATES = (4, 5, 6, 8, 10, 12, 15, 20, 25)  # whole percents: the NPV questions' discount rates
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
    version = 3  # v3: the IRR to two decimals, checked by the NPV's sign change (v2 planted one of nine rates)
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
            flows, rate = retry(lambda: _irr_flows(rng, years), what="cash flows whose IRR is not on a rounding edge")
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
                        "present value is zero? Give it as a percentage rounded to two decimals (hundredths of a "
                        f"percent), for example: {IRR_EXAMPLE}")
            answer = f"{_percent_text(rate)}%"
        prompt = f"A project has these cash flows (year 0 is the initial outlay):\n\n{table}\n\n{question}"
        return Problem(prompt=prompt, answer=answer,
                       data={"mode": mode, "flows": flows, "rate": format_fraction(rate),
                             "value": format_fraction(value)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        mode, flows = problem.data["mode"], problem.data["flows"]
        value = Fraction(problem.data["value"])
        if mode == "npv":
            written = read_exact(answer, units=DOLLARS, sentence=True)
            if written is None:
                return Verdict.unparsed("expected an amount in dollars, such as $1234.56")
            if written in (value, to_cents(value)):
                return Verdict.right()
            if written in (sum(flows), to_cents(Fraction(sum(flows)))):
                return Verdict.wrong("that is the undiscounted sum of the cash flows; discount each year's flow")
            return Verdict.wrong(f"{format_fraction(written)} is not the NPV rounded to the cent")
        if mode == "payback":
            written = read_exact(answer, units=YEARS, mixed=True, sentence=True)
            if written is None:
                return Verdict.unparsed("expected a number of years, such as 5/2")
            if written == value:
                return Verdict.right()
            return Verdict.wrong(f"after {format_fraction(written)} years the cumulative cash flow is not zero")
        written = read_exact(answer, units=PERCENT, sentence=True)
        if written is None:
            return Verdict.unparsed("expected a percentage, such as 7%")
        marked = "%" in answer or "percent" in answer.lower() or "per cent" in answer.lower()
        rate = written / 100 if written >= 1 and not marked else written  # a bare 10 means 10%, a bare 0.1 too
        if rate <= -1:
            return Verdict.wrong("a rate of -100% or less is not a discount rate")
        if rate - IRR_HALF_STEP > -1 and npv(flows, rate - IRR_HALF_STEP) >= 0 >= npv(flows, rate + IRR_HALF_STEP):
            return Verdict.right()
        return Verdict.wrong(f"{format_fraction(rate * 100)}% is not within 0.005 percentage points of the IRR")

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
                f"{_percent_text(value)} percent", f"Answer: {gold}.", f"{gold[:-1]} %", str(float(value))]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """The one-line IRR estimate that version 2's nine planted rates paid, to two decimals and to a whole
        percent (on the NPV and payback questions it answers nothing they accept)."""
        def estimate(places: int) -> Callable[[Problem], str]:
            def rule(problem: Problem) -> str:
                return f"{round(_rough_irr(problem.data['flows']) * 100, places):.{places}f}%"
            return rule
        return {"rough IRR estimate": estimate(2), "rough IRR estimate, whole percent": estimate(0)}

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
        wrong = [f"{format_fraction(percent + 1)}%", f"{format_fraction(percent / 2)}%", f"{gold} or 1%",
                 f"{_percent_text(value + Fraction(2, 10_000))}%", f"{round(percent)}%", f"{gold} or {round(percent)}%"]
        return [w for w in wrong if not self.verify(problem, w).correct]


IRR_EXAMPLE = "7.25%"  # a fixed placeholder: never derived from the answer
IRR_HALF_STEP = Fraction(1, 20_000)  # half a hundredth of a percentage point, as a rate


def _percent_text(rate: Fraction) -> str:
    """``rate`` as a percentage to two decimals (``0.07351`` -> ``7.35``), halves away from zero."""
    hundredths = math.floor(abs(rate) * 10_000 + Fraction(1, 2))
    return f"{'-' if rate < 0 else ''}{hundredths // 100}.{hundredths % 100:02d}"


def _irr_flows(rng: random.Random, years: int) -> tuple[list[int], Fraction] | None:
    """Inflows of round hundreds and an outlay of whole dollars near their value at a rate of 3-30%, and the IRR to
    two decimals; None when the IRR lies within a millionth of a point of a rounding edge (the reference would
    then rest on float precision)."""
    inflows = [rng.randint(5, 40) * 100 for _ in range(years)]
    target = rng.uniform(0.03, 0.30)
    outlay = round(sum(c / (1 + target) ** (t + 1) for t, c in enumerate(inflows)))
    flows = [-outlay, *inflows]
    low, high = -0.5, 2.0  # the NPV falls through zero once between them (one sign change, IRR near target)
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if _float_npv(flows, middle) > 0 else (low, middle)
    rate = Fraction(math.floor(low * 10_000 + 0.5), 10_000)
    edge = Fraction(1, 10**8)
    if not (npv(flows, rate - IRR_HALF_STEP + edge) > 0 > npv(flows, rate + IRR_HALF_STEP - edge)):
        return None
    return flows, rate


def _float_npv(flows: list[int], rate: float) -> float:
    return sum(flow / (1 + rate) ** year for year, flow in enumerate(flows))


def _rough_irr(flows: list[int]) -> float:
    """((sum of inflows / outlay)^(1 / D) - 1), D the inflows' cash-weighted mean year: no NPV is evaluated."""
    inflows = flows[1:]
    mean_year = sum(t * c for t, c in enumerate(inflows, start=1)) / max(1, sum(inflows))
    if flows[0] >= 0 or sum(inflows) <= 0 or mean_year <= 0:
        return 0.0
    return float((sum(inflows) / -flows[0]) ** (1 / mean_year) - 1)
