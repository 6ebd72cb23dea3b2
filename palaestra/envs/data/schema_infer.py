"""Infer each column's type of a CSV table from its values, under stated rules.

A column's type is the first of boolean, integer, decimal, date that every non-empty value of the column
fits, and text when none does. The rules are stated exactly: boolean is true/false in any letter case;
integer is an optional sign and digits (leading zeros allowed); decimal is an integer or an optional sign,
digits, a point and digits (no exponent, no thousands separator, digits on both sides of the point); date
is YYYY-MM-DD naming a real calendar day; empty cells are ignored. Columns are drawn with a base type and,
often, one value that widens the type (a decimal among integers) or breaks it (``2023-02-29``, ``1e3``,
``yes``, ``.5``), and harmless look-alikes (``+7``, ``007``, ``TRUE``, empty cells); column names are drawn
independently of the types, so a name says nothing. Tables are redrawn until they hold three types at least
and at most half of their columns are text, so no constant answer pays, and (version 2) until typing each
column by its first value, or by the type most of its values have, gives a wrong answer somewhere (those
lazy readings answered 0.34 and 0.28 of level 0). Version 3: every stated rule decides. v2 left each look-alike
to chance, so a reader that skipped one rule was right far too often: booleans in lower case only 0.63 of level 0
and 0.30 of level 4, no + sign 0.61 of level 0, no leading zeros 0.63, a date not checked to be a real day 0.83 and
0.77, a decimal with an exponent or a bare point 0.69 and 0.43. Each problem now has a boolean column with a value
not in lower case, an integer column with a + sign and a leading zero, a date column with a day that does not exist
and a number column with a value of a bare point or an exponent, each in a random position, and it is redrawn
until each of those misreadings (``MISREADINGS``) gives another answer. The answer gives every column's type as
``column = type`` pairs in any order; the verifier names the first wrong column.

Difficulty: the cells of the table plus three per column whose type a single value changes.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text, keyed_text, keyed_verdict
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "alpha = text, beta = integer"  # a fixed placeholder: never derived from the answer
TYPES = ("boolean", "integer", "decimal", "date", "text")
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?\d+\.\d+")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


# Lazy readings of the rules: booleans in lower case only, integers without a + sign, integers without leading
# zeros, any YYYY-MM-DD text as a date, decimals with a bare point or an exponent (v2 paid them 0.43-0.83 of level 0)
MISREADINGS = ("lower_case_booleans", "no_plus_sign", "no_leading_zeros", "any_date_text", "loose_decimals")
_LOOSE_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_LEADING_ZERO = re.compile(r"[+-]?0\d+")


def misread_fits(value: str, kind: str, misreading: str) -> bool:
    """Whether one cell fits a type under a lazy reading of the rules (one of ``MISREADINGS``)."""
    if misreading == "lower_case_booleans" and kind == "boolean":
        return value in ("true", "false")
    if misreading == "no_plus_sign" and kind in ("integer", "decimal") and value.startswith("+"):
        return False
    if misreading == "no_leading_zeros" and kind == "integer" and _LEADING_ZERO.fullmatch(value):
        return False
    if misreading == "any_date_text" and kind == "date":
        return bool(_DATE.fullmatch(value))
    if misreading == "loose_decimals" and kind == "decimal":
        return bool(_LOOSE_DECIMAL.fullmatch(value))
    return fits(value, kind)


def misread_types(columns: list[list[str]], misreading: str) -> list[str]:
    """Each column's type under a lazy reading of the rules."""
    return [next(kind for kind in TYPES if all(misread_fits(v, kind, misreading) for v in values if v != ""))
            for values in columns]


def fits(value: str, kind: str) -> bool:
    """Whether one non-empty cell fits a type under the stated rules."""
    if kind == "boolean":
        return value.lower() in ("true", "false")
    if kind == "integer":
        return bool(_INTEGER.fullmatch(value))
    if kind == "decimal":
        return bool(_INTEGER.fullmatch(value) or _DECIMAL.fullmatch(value))
    if kind == "date":
        match = _DATE.fullmatch(value)
        if not match:
            return False
        try:
            date(*map(int, match.groups()))
        except ValueError:
            return False
        return True
    return True


def column_type(values: list[str]) -> str:
    present = [v for v in values if v != ""]
    return next(kind for kind in TYPES if all(fits(v, kind) for v in present))


def first_value_types(columns: list[list[str]]) -> list[str]:
    """Each column typed by its first non-empty value alone (a lazy reading)."""
    return [column_type([next(v for v in values if v != "")]) for values in columns]


def majority_types(columns: list[list[str]]) -> list[str]:
    """Each column typed by the type most of its values have on their own (a lazy reading)."""
    return [Counter(column_type([v]) for v in values if v != "").most_common(1)[0][0] for values in columns]


def _read_type(text: str) -> str | None:
    word = text.strip().strip("`*'\"").lower()
    return word if word in TYPES else None


def _base_value(rng: random.Random, kind: str) -> str:
    if kind == "boolean":
        return rng.choice(("true", "false", "True", "FALSE", "false", "true"))
    if kind == "integer":
        return rng.choice((str(rng.randint(0, 999)), str(rng.randint(-50, 50)), f"+{rng.randint(1, 9)}",
                           f"00{rng.randint(1, 9)}", str(rng.randint(1000, 99999))))
    if kind == "decimal":
        return rng.choice((f"{rng.randint(0, 99)}.{rng.randint(0, 99):02d}", f"-{rng.randint(0, 9)}.{rng.randint(0, 9)}",
                           f"{rng.randint(0, 500)}.0", str(rng.randint(0, 99))))
    if kind == "date":
        return (date(2015, 1, 1) + timedelta(days=rng.randrange(4000))).isoformat()
    return rng.choice(WORDS["cities"] + WORDS["products"] + ["n/a", "TBD", "A-12", "12 kg", "3/4"])


SPOILERS = {  # base type -> values that change the column's type, and the type they give
    "boolean": (("yes", "text"), ("1", "text"), ("no", "text")),
    "integer": (("12.5", "decimal"), ("0.75", "decimal"), ("1e3", "text"), ("1 200", "text"), ("N/A", "text")),
    "decimal": ((".5", "text"), ("3.", "text"), ("2.5e2", "text"), ("12.5%", "text")),
    "date": (("2023-02-29", "text"), ("2021/05/04", "text"), ("2022-13-01", "text"), ("2020-1-5", "text")),
    "text": (),
}
# Columns planted in every problem, so that each rule decides: base type -> the values planted in it
PLANTED = (
    ("boolean", (("TRUE", "True", "FALSE", "False"),)),  # not lower case: still boolean
    ("integer", (("+3", "+12", "+7"), ("007", "0042", "-05"))),  # a sign, a leading zero: still integer
    ("date", (("2023-02-29", "2022-13-01", "2021-04-31", "2019-06-31"),)),  # no such day: text
    ("decimal", ((".5", "3.", "2.5e2", "1e3", "-.25"),)),  # a bare point, an exponent: text
)


@register
class SchemaInfer(Task):
    id = "data/schema_infer"
    family = "data"
    description = "Infer each CSV column's type (boolean, integer, decimal, date, text) from its values by rules."
    tags = ("data", "tables", "schemas")
    version = 3  # v3: every rule decides (v2: skipping one paid 0.43-0.83 of level 0)

    @dataclass(frozen=True)
    class Config:
        columns: int
        rows: int

    presets = (Config(4, 5), Config(5, 6), Config(6, 8), Config(8, 10), Config(10, 12))
    growth = Growth(steps={"columns": 1, "rows": 2}, limits={"columns": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = rng.sample(WORDS["fields"], config.columns)

        def draw() -> tuple[list[list[str]], int]:
            columns, changed = [], 0
            planted = dict(zip(rng.sample(range(len(names)), len(PLANTED)), PLANTED, strict=False))
            for position in range(len(names)):
                base = planted[position][0] if position in planted else rng.choices(TYPES, (2, 3, 3, 3, 1))[0]
                values = [_base_value(rng, base) for _ in range(config.rows)]
                if base == "decimal" and not any(_DECIMAL.fullmatch(v) for v in values):
                    values[0] = f"{rng.randint(1, 99)}.5"
                for _ in range(rng.choice((0, 0, 1))):  # an empty cell, ignored
                    values[rng.randrange(config.rows)] = ""
                if SPOILERS[base] and rng.random() < 0.35:
                    spoiler, _ = rng.choice(SPOILERS[base])
                    values[rng.randrange(config.rows)] = spoiler
                    changed += 1
                if all(v == "" for v in values):
                    values[0] = _base_value(rng, base)
                if position in planted:  # the look-alikes each rule decides, in distinct rows
                    for row, choices in zip(rng.sample(range(config.rows), len(planted[position][1])),
                                            planted[position][1], strict=True):
                        values[row] = rng.choice(choices)
                    changed += base in ("date", "decimal")
                columns.append(values)
            return columns, changed

        def varied(drawn: tuple[list[list[str]], int]) -> bool:
            kinds = [column_type(values) for values in drawn[0]]
            if kinds in (first_value_types(drawn[0]), majority_types(drawn[0])):
                return False  # every value must be read: a column's first value answered 0.34 of level 0
            if any(misread_types(drawn[0], misreading) == kinds for misreading in MISREADINGS):
                return False  # every rule must decide (skipping one paid 0.43-0.83 of level 0 in v2)
            return len(set(kinds)) >= 3 and 2 * kinds.count("text") <= len(kinds)

        columns, changed = retry(draw, varied, attempts=200, what="columns of three types at least, half not text")
        result = {name: column_type(values) for name, values in zip(names, columns, strict=True)}
        table = csv_text(names, [[column[r] for column in columns] for r in range(config.rows)])
        prompt = (
            f"Here is a CSV table:\n\n{table}\n\nInfer each column's type: the first of boolean, integer, decimal, "
            "date that every non-empty value of the column fits, or text if none does. Empty cells are ignored. "
            "boolean: true or false in any letter case. integer: an optional + or - sign and digits (leading zeros "
            "allowed). decimal: an integer, or an optional sign, digits, a point and digits (no exponent, no "
            "thousands separator). date: YYYY-MM-DD naming a real calendar day.\n\nAnswer with one column = type "
            f"pair per column, separated by commas, in any order, for example: {EXAMPLE}"
        )
        data = {"columns": names, "result": result, "cells": config.rows * config.columns, "changed": changed}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        truth = problem.data["result"]
        return keyed_verdict(answer, truth, problem.data["columns"], _read_type, what="column", example=EXAMPLE)

    def difficulty(self, problem: Problem) -> float:
        """Cells + 3 per column whose type one value changes."""
        return float(problem.data["cells"] + 3 * problem.data["changed"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k}: {v.upper()}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        victim = rng.choice(list(result))
        other = rng.choice([t for t in TYPES if t != result[victim]])
        return [keyed_text({**result, victim: other}), keyed_text({k: "text" for k in result}),
                keyed_text({k: v for k, v in result.items() if k != victim})]
