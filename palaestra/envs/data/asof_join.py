"""Convert transactions to euros with the exchange rate in force on each transaction's date (an as-of join).

A rate table (currency, effective date, euros per unit; rows in no particular order) and a list of
transactions (id, date, currency, amount) are given. Each transaction converts at its currency's rate with
the latest effective date on or before the transaction's date (a rate applies from its effective date
until the next one; euro amounts convert at 1). Transaction dates are drawn on, between and after the
effective dates, so both "the nearest date" and "the next rate" are wrong rules. The answer gives every
transaction's amount in euros, exactly (amounts have two decimals and rates four, so products terminate),
as ``id = euros`` pairs in any order; the verifier reads them with the shared assignment reader and names
the first wrong transaction.

Difficulty: the transactions plus the rate rows plus the transactions dated exactly on an effective date.

Version 2: both wrong rules now go wrong in every problem. Reading "on or before" as "before" (a transaction
dated on an effective date taking the rate before it) answered 0.60 of level 0 and 0.28 of level 2, taking the
next rate 0.39 of level 0, the currency's first (or last) rate whatever the date 0.17: a transaction on a
changing rate's date, or one between two dates, was often missing. Tables are redrawn until each of these
readings changes some transaction's amount. Version 3: so do two more (40 seeds a level): the rate of the
nearest effective date, either side (0.62 of level 0, 0.33 of level 1, 0.20 of level 2), and the first row of
the table on or before the date rather than the latest (0.68 and 0.50 of levels 0-1); now 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import csv_text, exact_text, keyed_text, keyed_verdict, money, number_spellings
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "T98 = 12.5, T99 = 1034.2875"  # a fixed placeholder: never derived from the answer
CURRENCIES = {"USD": (8600, 9600), "GBP": (11300, 12100), "CHF": (10000, 10800), "SEK": (820, 920),
              "JPY": (58, 66), "PLN": (2200, 2400)}  # euros per unit, in ten-thousandths


def rate_on(rates: list[list], currency: str, day: str) -> Fraction:
    """The rate (euros per unit) of ``currency`` in force on ``day``: the latest effective date on or before it."""
    if currency == "EUR":
        return Fraction(1)
    in_force = [(effective, Fraction(value, 10000)) for cur, effective, value in rates
                if cur == currency and effective <= day]
    return max(in_force)[1]


def misread_rate(rates: list[list], currency: str, day: str, rule: str) -> Fraction | None:
    """The rate a misreading takes: ``before``, the latest effective date strictly before ``day`` (the first rate
    when there is none); ``next``, the earliest on or after it (the last rate when there is none); ``first`` and
    ``last``, the currency's first or last rate whatever the date; ``nearest`` and ``nearest_earlier``, the effective
    date closest to ``day`` either side (a tie to the later, or to the earlier); ``listed``, the first row of the table (in its order) on or before
    ``day``, not the latest."""
    if currency == "EUR":
        return Fraction(1)
    if rule == "listed":
        return next(Fraction(value, 10000) for cur, effective, value in rates if cur == currency and effective <= day)
    rows = sorted((effective, Fraction(value, 10000)) for cur, effective, value in rates if cur == currency)
    if rule == "first":
        return rows[0][1]
    if rule == "last":
        return rows[-1][1]
    if rule in ("nearest", "nearest_earlier"):
        moment = date.fromisoformat(day)
        return min(rows, key=lambda row: (abs((date.fromisoformat(row[0]) - moment).days),
                                          (row[0] < day) == (rule == "nearest")))[1]
    if rule == "before":
        earlier = [value for effective, value in rows if effective < day]
        return earlier[-1] if earlier else rows[0][1]
    later = [value for effective, value in rows if effective >= day]
    return later[0] if later else rows[-1][1]


@register
class AsofJoin(Task):
    id = "data/asof_join"
    family = "data"
    description = "Convert transactions to euros with the exchange rate in force on each date (an as-of join)."
    tags = ("data", "tables", "joins", "temporal")
    version = 3  # v3: the nearest effective date and the first row listed on or before the date decide too

    @dataclass(frozen=True)
    class Config:
        transactions: int
        currencies: int
        rates: int  # rate rows per currency

    presets = (Config(3, 1, 2), Config(4, 2, 2), Config(6, 2, 3), Config(8, 3, 3), Config(11, 4, 4))
    growth = Growth(steps={"transactions": 3, "rates": 1}, limits={"rates": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        currencies = rng.sample(sorted(CURRENCIES), config.currencies)

        def draw() -> tuple[list[list[Any]], list[dict[str, Any]], int]:
            start = date(2024, rng.randint(1, 6), 1)
            rates: list[list[Any]] = []
            effective: dict[str, list[str]] = {}
            for currency in currencies:
                days = sorted(rng.sample(range(0, 25 * config.rates), config.rates))
                days[0] = 0  # every transaction (dated from the start on) has a rate in force
                low, high = CURRENCIES[currency]
                effective[currency] = [(start + timedelta(days=d)).isoformat() for d in days]
                rates.extend([currency, day, rng.randint(low, high)] for day in effective[currency])
            rng.shuffle(rates)
            transactions: list[dict[str, Any]] = []
            on_boundary = 0
            for number in rng.sample(range(1, max(100, 4 * config.transactions)), config.transactions):
                currency = rng.choice([*currencies, "EUR"] if rng.random() < 0.15 else currencies)
                if currency != "EUR" and rng.random() < 0.3:
                    day = rng.choice(effective[currency])  # exactly on an effective date: the new rate applies
                    on_boundary += 1
                else:
                    day = (start + timedelta(days=rng.randrange(0, 25 * config.rates + 10))).isoformat()
                cents = rng.randrange(100, 500000)
                euros = Fraction(cents, 100) * rate_on(rates, currency, day)
                transactions.append({"id": f"T{number}", "date": day, "currency": currency, "cents": cents,
                                     "euros": str(euros)})
            return rates, transactions, on_boundary

        def decided(drawn: tuple[list[list[Any]], list[dict[str, Any]], int]) -> bool:
            # the stated rule must decide against each misreading: a rate strictly before the date ("on or
            # before" read as "before": 0.60 of level 0), the next rate on or after it (0.39 of level 0), the
            # currency's first or last rate whatever the date (0.17 each); v3: the nearest effective date (0.62 of
            # level 0, 0.33 of level 1, 0.20 of level 2) and the first row listed on or before the date (0.68,
            # 0.50 of levels 0-1)
            drawn_rates, drawn_transactions, _ = drawn
            return all(any(misread_rate(drawn_rates, t["currency"], t["date"], rule)
                           != rate_on(drawn_rates, t["currency"], t["date"]) for t in drawn_transactions)
                       for rule in ("before", "next", "first", "last", "nearest", "nearest_earlier", "listed"))

        rates, transactions, on_boundary = retry(draw, decided, what="transactions the as-of rule decides")
        rates_text = csv_text(["currency", "effective_date", "eur_per_unit"],
                              [[c, d, exact_text(Fraction(v, 10000))] for c, d, v in rates])
        transactions_text = csv_text(["id", "date", "currency", "amount"],
                                     [[t["id"], t["date"], t["currency"], money(t["cents"])] for t in transactions])
        prompt = (
            f"Exchange rates (euros per unit of the currency):\n\n{rates_text}\n\nTransactions:\n\n{transactions_text}"
            "\n\nA rate applies from its effective date until the currency's next effective date, so each "
            "transaction converts at its currency's rate with the latest effective date on or before the "
            "transaction's date; EUR amounts stay as they are.\n\nGive every transaction's amount in euros, exactly "
            f"(no rounding), as id = euros pairs separated by commas, in any order, for example: {EXAMPLE}"
        )
        result = {t["id"]: exact_text(Fraction(t["euros"])) for t in transactions}
        data = {"result": result, "transactions": len(transactions), "rates": len(rates), "on_boundary": on_boundary}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        truth = {key: Fraction(value) for key, value in problem.data["result"].items()}
        return keyed_verdict(answer, truth, list(truth), what="transaction", example=EXAMPLE, describe=exact_text)

    def difficulty(self, problem: Problem) -> float:
        """Transactions + rate rows + transactions dated exactly on an effective date."""
        data = problem.data
        return float(data["transactions"] + data["rates"] + data["on_boundary"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k}: {number_spellings(Fraction(v))[-1]}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        victim = rng.choice(list(result))
        rounded = {k: exact_text(Fraction(round(Fraction(v) * 100), 100)) for k, v in result.items()}
        wrong = [keyed_text({**result, victim: exact_text(Fraction(result[victim]) + Fraction(1, 100))}),
                 keyed_text({k: v for k, v in result.items() if k != victim})]
        if rounded != result:
            wrong.append(keyed_text(rounded))
        return wrong
