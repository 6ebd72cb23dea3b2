"""Loan amortisation with exact arithmetic: the level payment, the total interest, or the balance left.

A loan of a whole number of dollars is repaid by equal payments at the end of each period (a year at the
lower levels, a month above them), interest compounding each period at the stated rate (an annual
percentage divided by 12 for monthly payments). Every quantity is computed exactly in fractions:

- payment: principal × r / (1 − (1 + r)^−n), rounded to the nearest cent (halves up);
- total interest: n times the payment rounded to the cent, minus the principal;
- balance after k payments of the rounded payment: the principal grown by k periods of interest minus the
  payments grown from when they were paid, interest never rounded along the way; rounded to the cent only at
  the end.

The prompt states the rounding rule, so the answer in cents is unique; the exact unrounded fraction is also
accepted. Dividing the principal by the number of payments (ignoring interest) is told apart in the feedback.

Difficulty: three per step of the question's chain (payment 1, interest 2, balance 3) plus twice the bits of
the number of payments.

Version 2: five levels, up to 30 years of monthly payments. Version 1 grew by 240 payments a level without
end: a 130-year loan at level 9, whose exact balance has thousands of digits (past Python's 4,300-digit limit
for writing a number, so generation raised at some seeds from level 9 on).

Version 3: the stated rounding always matters. A total interest is redrawn when the unrounded payment times n,
minus the loan, rounds to the same cents; a balance when the unrounded payment, or interest rounded to the cent
every period, gives the same cents. Those slips answered 0.33 and 0.10 of the interest questions of levels 1 and
2, and interest rounded every month 0.71, 0.38 and 0.14 of the balance questions of levels 2 to 4; now none.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

DOLLARS = {"$": 1, "dollars": 1, "dollar": 1, "USD": 1}
MODE_WEIGHT = {"payment": 1, "interest": 2, "balance": 3}
ANNUAL_PERCENTS = (3, 4, 5, 6, 7, 8, 9, 10, 12)


def to_cents(value: Fraction) -> Fraction:
    """``value`` rounded to the cent, halves up (amounts here are positive)."""
    return Fraction(math.floor(value * 100 + Fraction(1, 2)), 100)


def level_payment(principal: int, rate: Fraction, periods: int) -> Fraction:
    growth = (1 + rate) ** periods
    return principal * rate * growth / (growth - 1)


def balance_after(principal: int, rate: Fraction, payment: Fraction, paid: int) -> Fraction:
    growth = (1 + rate) ** paid
    return principal * growth - payment * (growth - 1) / rate


def rounded_balance(principal: int, rate: Fraction, payment: Fraction, paid: int) -> Fraction:
    """The balance after ``paid`` payments with each period's interest rounded to the cent: the slip the prompt
    rules out."""
    balance = Fraction(principal)
    for _ in range(paid):
        balance = to_cents(balance * (1 + rate)) - payment
    return balance


def cents_text(value: Fraction) -> str:
    cents = value * 100
    return f"{cents.numerator // 100}.{cents.numerator % 100:02d}"


@register
class Amortisation(Task):
    id = "economics/amortisation"
    family = "economics"
    version = 3  # v3: problems where ignoring the stated rounding gives the same cents are redrawn
    description = "Level payment, total interest or remaining balance of an amortised loan, exact to the cent."
    tags = ("economics", "finance", "math")

    @dataclass(frozen=True)
    class Config:
        periods: int  # the most payments (the drawn loan has between a third of this and this many)
        monthly: bool  # monthly payments at a twelfth of the annual rate, rather than yearly ones
        modes: tuple[str, ...]  # the questions this level may ask

    presets = (Config(4, False, ("payment",)), Config(8, False, ("payment", "interest")),
               Config(36, True, ("payment", "interest", "balance")), Config(120, True, ("interest", "balance")),
               Config(360, True, ("interest", "balance")))
    bounded = "loans run 30 years at most (360 monthly payments); longer ones only lengthen the exact fractions"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        mode = rng.choice(config.modes)

        def draw() -> tuple[int, int, Fraction, int, int, Fraction] | None:
            periods = rng.randint(max(2, config.periods // 3), config.periods)
            if config.monthly:
                periods = max(12, periods // 12 * 12)  # whole years of monthly payments
            percent = rng.choice(ANNUAL_PERCENTS)
            rate = Fraction(percent, 1200 if config.monthly else 100)
            principal = rng.randint(10, 400) * (1000 if config.monthly else 100)
            payment = to_cents(level_payment(principal, rate, periods))
            paid = rng.randint(1, periods - 1)
            if mode == "payment":
                return periods, percent, rate, principal, paid, level_payment(principal, rate, periods)
            if mode == "interest":
                exact = payment * periods - principal
                slips = [level_payment(principal, rate, periods) * periods - principal]
            else:
                exact = balance_after(principal, rate, payment, paid)
                slips = [balance_after(principal, rate, level_payment(principal, rate, periods), paid),
                         rounded_balance(principal, rate, payment, paid)]
            # v3: the stated rounding must matter: the unrounded payment, or (for a balance) interest rounded to
            # the cent every period, gives another amount in cents
            return None if to_cents(exact) in map(to_cents, slips) else (periods, percent, rate, principal, paid, exact)

        periods, percent, rate, principal, paid, exact = retry(draw, what="a loan whose rounding rule matters")
        unit = "month" if config.monthly else "year"
        terms = (f"A loan of ${principal:,} is repaid by {periods} equal payments, one at the end of each {unit}. "
                 f"Interest is {percent}% per year"
                 + (f", compounded monthly (so {format_fraction(rate * 100)}% per month)." if config.monthly
                    else ", compounded yearly.")
                 + " The payment is rounded to the nearest cent (half a cent rounds up).")
        if mode == "payment":
            question = "What is each payment?"
        elif mode == "interest":
            question = "How much interest is paid in total: all the (rounded) payments added up, minus the loan?"
        else:
            question = (f"How much is still owed just after payment number {paid}? Interest is not rounded from "
                        f"{unit} to {unit}; round only the final balance to the nearest cent.")
        prompt = (f"{terms}\n\n{question} Give the amount in dollars to the cent, for example: $1234.56")
        return Problem(prompt=prompt, answer=cents_text(to_cents(exact)),
                       data={"mode": mode, "principal": principal, "rate": format_fraction(rate),
                             "periods": periods, "paid": paid, "exact": format_fraction(exact)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_exact(answer, units=DOLLARS, sentence=True)
        if written is None:
            return Verdict.unparsed("expected an amount in dollars, such as $1234.56")
        exact = Fraction(problem.data["exact"])
        if written in (exact, to_cents(exact)):
            return Verdict.right()
        principal, periods = problem.data["principal"], problem.data["periods"]
        if problem.data["mode"] == "payment" and written in (Fraction(principal, periods),
                                                             to_cents(Fraction(principal, periods))):
            return Verdict.wrong("that divides the loan by the number of payments, ignoring the interest")
        return Verdict.wrong(f"{cents_text(to_cents(abs(written)))} is not the amount asked, to the cent")

    def difficulty(self, problem: Problem) -> float:
        """Three per step of the question's chain plus twice the bits of the number of payments."""
        return 3.0 * MODE_WEIGHT[problem.data["mode"]] + 2 * math.log2(problem.data["periods"])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        exact = problem.data["exact"]  # the unrounded fraction: an 80-digit one is past any reader's numeral limit
        return [*super().spellings(problem), f"${gold}", f"{gold} dollars", f"\\boxed{{{gold}}}",
                f"Answer: ${gold}.", f"${float(Fraction(gold)):,.2f}", *([exact] if len(exact) <= 40 else [])]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = Fraction(problem.answer or "0")
        principal, periods = problem.data["principal"], problem.data["periods"]
        naive = to_cents(Fraction(principal, periods))
        wrong = [cents_text(gold + Fraction(1, 100)), cents_text(gold + 1), f"{problem.answer} or {cents_text(gold + 1)}"]
        if naive != gold and problem.data["mode"] == "payment":
            wrong.append(cents_text(naive))
        return wrong
