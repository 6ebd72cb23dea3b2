"""Reconcile two tables by key: find every key whose rows disagree or that appears in only one table.

A ledger (``ref,date,payee,amount``, ISO dates) and a bank export of the same payments (``ref,date,payee,
amount``, dates as DD/MM/YYYY, payees in capitals, amounts without trailing zeros, rows in another order)
are given. Two rows match when they have the same ref, the same calendar date, the same payee ignoring
letter case, and the same amount as a number; so the formatting differences are not mismatches, while a
changed amount (digits swapped, a few cents off), a date a day off or with day and month swapped, another
payee, or a row missing from either side is. The answer is the set of refs that do not match, in any
order; the verifier reads it with the shared set reader and names a ref wrongly included or left out.
The number of mismatches is drawn per problem, so neither a count nor "none" pays; every problem has a
mismatch in the amount, the date and the payee, and a ref missing from each side (v1 drew each fault freely:
a check that skipped one field or one side was right in 34-84% of problems).

Difficulty: the rows of both tables plus the mismatching refs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text, money
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.sets import read_set, read_token

EXAMPLE = "TX-000, TX-999"  # a fixed placeholder: never derived from the answer
FAULTS = ("amount_swap", "amount_cents", "date_day", "date_swap", "payee", "missing_bank", "missing_ledger")
# What a check can overlook: a field, or one side of the tables; every problem has a mismatch of each group.
GROUPS = (("amount_swap", "amount_cents"), ("date_day", "date_swap"), ("payee",), ("missing_bank",),
          ("missing_ledger",))


def _bank_amount(cents: int) -> str:
    text = money(cents)
    return text.rstrip("0").rstrip(".") if text.endswith("0") else text


def _read_ref(text: str) -> str | None:
    token = read_token(text)
    return token.upper() if token else None


@register
class Reconcile(Task):
    id = "data/reconcile"
    family = "data"
    description = "Find the keys whose rows differ between a ledger and a bank export (or are missing from one)."
    tags = ("data", "tables", "reconciliation")

    @dataclass(frozen=True)
    class Config:
        rows: int
        faults: int  # the most mismatching refs

    version = 2  # v2: every problem has a mismatch in each field and on each side (a field-blind check paid 0.34-0.84)
    presets = (Config(10, 6), Config(12, 7), Config(15, 8), Config(19, 9), Config(25, 10))
    growth = Growth(steps={"rows": 7, "faults": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        start = date(2024, rng.randint(1, 12), 1)
        refs = [f"TX-{n}" for n in sorted(rng.sample(range(1000, 10000), config.rows))]
        ledger: list[dict[str, Any]] = []
        for ref in refs:
            day = start + timedelta(days=rng.randrange(28))
            ledger.append({"ref": ref, "date": day, "payee": rng.choice(WORDS["payees"]),
                           "cents": rng.randrange(500, 500000)})
        bank = [dict(row) for row in ledger]
        count = rng.randint(len(GROUPS), max(len(GROUPS), min(config.faults, config.rows - 2)))
        faulty = rng.sample(range(config.rows), count)
        # One mismatch of each group (a check that skips a field or a side fails), the rest drawn freely.
        kinds = [rng.choice(group) for group in GROUPS] + [rng.choice(FAULTS) for _ in range(count - len(GROUPS))]
        rng.shuffle(kinds)
        dropped: set[int] = set()
        for index, fault in zip(faulty, kinds, strict=True):
            row = bank[index]
            if fault == "date_swap" and (row["date"].day > 12 or row["date"].day == row["date"].month):
                fault = "date_day"
            if fault == "amount_swap":
                digits = list(str(row["cents"]))
                positions = [i for i in range(len(digits) - 1) if digits[i] != digits[i + 1]]
                if positions:
                    i = rng.choice(positions)
                    digits[i], digits[i + 1] = digits[i + 1], digits[i]
                    row["cents"] = int("".join(digits))
                else:
                    row["cents"] += 100
            elif fault == "amount_cents":
                row["cents"] += rng.choice((-1, 1)) * rng.randint(1, 9)
            elif fault == "date_day":
                row["date"] += timedelta(days=rng.choice((-1, 1)))
            elif fault == "date_swap":
                row["date"] = date(row["date"].year, row["date"].day, row["date"].month)
            elif fault == "payee":
                row["payee"] = rng.choice([p for p in WORDS["payees"] if p != row["payee"]])
            else:
                dropped.add(index)
                if fault == "missing_ledger":
                    ledger[index] = {}
        ledger_rows = [row for row in ledger if row]
        bank_rows = [row for i, row in enumerate(bank) if not (i in dropped and ledger[i])]
        rng.shuffle(bank_rows)
        mismatched = sorted(refs[i] for i in faulty)
        ledger_text = csv_text(["ref", "date", "payee", "amount"],
                               [[r["ref"], r["date"].isoformat(), r["payee"], money(r["cents"])] for r in ledger_rows])
        bank_text = csv_text(["ref", "date", "payee", "amount"],
                             [[r["ref"], r["date"].strftime("%d/%m/%Y"), r["payee"].upper(), _bank_amount(r["cents"])]
                              for r in bank_rows])
        prompt = (
            f"Our ledger lists these payments:\n\n{ledger_text}\n\nThe bank's export lists:\n\n{bank_text}\n\n"
            "The bank writes dates as DD/MM/YYYY, payees in capitals and amounts without trailing zeros. Two rows "
            "match when they have the same ref, the same date, the same payee (ignoring letter case) and the same "
            "amount. Which refs do not match: their rows differ, or the ref appears in only one of the tables?\n\n"
            f"List those refs separated by commas, in any order, for example: {EXAMPLE}"
        )
        data = {"mismatched": mismatched, "refs": refs, "ledger_rows": len(ledger_rows), "bank_rows": len(bank_rows)}
        return Problem(prompt=prompt, answer=", ".join(mismatched), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_set(answer, _read_ref, max_items=500)
        if given is None:
            return Verdict.unparsed(f"expected refs separated by commas, such as {EXAMPLE}")
        truth = set(problem.data["mismatched"])
        extra = sorted(given - truth)
        if extra:
            known = extra[0] in problem.data["refs"]
            return Verdict.wrong(f"{extra[0]} " + ("matches in both tables" if known else "is in neither table"))
        missing = sorted(truth - given)
        return Verdict.judge(not missing, f"{missing[0] if missing else ''} does not match but is left out")

    def difficulty(self, problem: Problem) -> float:
        """Rows of both tables + mismatching refs."""
        data = problem.data
        return float(data["ledger_rows"] + data["bank_rows"] + len(data["mismatched"]))

    def spellings(self, problem: Problem) -> list[str]:
        refs = problem.data["mismatched"]
        return [*markup_spellings(problem.answer or ""), ", ".join(reversed(refs)), "\n".join(refs),
                "{" + ", ".join(r.lower() for r in refs) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        refs = problem.data["mismatched"]
        matching = [r for r in problem.data["refs"] if r not in refs]
        wrong = [", ".join([*refs, rng.choice(matching)]), "none", ", ".join(problem.data["refs"])]
        if len(refs) > 1:
            wrong.append(", ".join(refs[1:]))
        return wrong
