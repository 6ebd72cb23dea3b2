"""Sort a table by several keys with mixed directions, case-insensitive text and stated placement of blanks.

A product table (sku, category, price, rating, stock) is given with an ORDER BY-style specification of two
to four keys, each ascending or descending: text compares ignoring letter case (categories are written in
mixed case), numbers compare as numbers (9.5 before 10), blank ratings go first or last as stated whatever
the direction, and the sku (unique) breaks any remaining tie. Categories and ratings are drawn from few
values so that the later keys decide.

Version 2: a table is redrawn until every stated rule decides something: the first key alone, comparing
categories with their case, the other placement of blank ratings, and comparing prices or stock as written
text each give another order (first key only answered 0.39 of level 0, 0.32 with ties left in table order; comparing with case 0.72 of level 0
and 0.37 of level 4; one fixed blank placement 0.87 of level 0 and 0.74 of level 4). The answer is the list of skus in sorted order; the verifier reads
it with the shared list reader and names the first wrong position.

Version 3: every table lists a product twice (equal under every key, the category perhaps in another case), the
later row with the smaller sku, so the final sku tie-break decides too (v2: keeping fully tied rows in table order
answered 0.77 of level 0 and 0.95 of level 4).

Difficulty: the rows plus the keys plus the adjacent pairs of the sorted table that the first key leaves
tied (the later keys' work).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text, money
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.sets import read_list, read_token

EXAMPLE = "ZZ-100, ZZ-200, ZZ-300"  # a fixed placeholder: never derived from the answer
KEYS = ("category", "price", "rating", "stock")


def _value(row: dict, key: str, fold_case: bool = True, numeric: bool = True) -> object:
    if key == "category":
        return row["category"].lower() if fold_case else row["category"]
    if key == "price":
        return Fraction(row["price"], 100) if numeric else money(row["price"])
    if key == "stock" and not numeric:
        return str(row["stock"])
    return row[key]


def sort_rows(rows: list[dict], spec: list[list], blanks: str, *, fold_case: bool = True,
              numeric: bool = True) -> list[str]:
    """The skus in order under ``spec`` (``[key, "asc"|"desc"]`` pairs), blank ratings ``first`` or ``last``
    (or under a misreading: text compared with its case, ``fold_case=False``; prices and stock compared as
    written text, ``numeric=False``)."""
    def compare(a: dict, b: dict) -> int:
        for key, direction in spec:
            x, y = _value(a, key, fold_case, numeric), _value(b, key, fold_case, numeric)
            if x == y:
                continue
            if x is None or y is None:  # a blank rating: placed as stated, whatever the direction
                blank_first = blanks == "first"
                return (-1 if blank_first else 1) if x is None else (1 if blank_first else -1)
            less = x < y  # type: ignore[operator]
            return (-1 if less else 1) * (1 if direction == "asc" else -1)
        return -1 if a["sku"] < b["sku"] else 1 if a["sku"] > b["sku"] else 0

    return [row["sku"] for row in sorted(rows, key=cmp_to_key(compare))]


def _read_sku(text: str) -> str | None:
    token = read_token(text)
    return token.upper() if token else None


@register
class SortRows(Task):
    id = "data/sort_rows"
    family = "data"
    description = "Sort table rows by several keys (mixed directions, case-insensitive text, blanks placed as stated)."
    tags = ("data", "tables", "sorting")
    version = 3  # v3: the sku tie-break decides (v2: ties left in table order paid 0.77-0.95)

    @dataclass(frozen=True)
    class Config:
        rows: int
        keys: int

    presets = (Config(6, 2), Config(8, 2), Config(11, 3), Config(15, 3), Config(20, 4))
    growth = Growth(steps={"rows": 5})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[dict[str, Any]], list[list], str]:
            categories = rng.sample(WORDS["categories"], 3)
            skus = rng.sample(range(100, 1000), config.rows)
            rows: list[dict[str, Any]] = []
            for number in skus:
                category = rng.choice(categories)
                written = rng.choice((category, category.lower(), category.upper()))
                rows.append({"sku": f"SK-{number}", "category": written,
                             "price": rng.choice((950, 1000, 1250, 199, 2000, rng.randrange(100, 5000, 50))),
                             "rating": rng.choice((None, 3, 4, 4, 5, 5)), "stock": rng.randint(0, 30)})
            spec = [[key, rng.choice(("asc", "desc"))] for key in rng.sample(KEYS, config.keys)]
            # a product listed twice (the same values under every key, the category perhaps in another case), the
            # later row with the smaller sku: only the sku tie-break orders them (v2 left that to chance: keeping
            # tied rows in table order answered 0.77 of level 0 and 0.95 of level 4)
            first, second = sorted(rng.sample(range(config.rows), 2))
            twin = rows[second]
            twin.update({key: rows[first][key] for key in ("price", "rating", "stock")},
                        category=rng.choice((str.lower, str.upper, str))(rows[first]["category"]))
            if twin["sku"] > rows[first]["sku"]:
                twin["sku"], rows[first]["sku"] = rows[first]["sku"], twin["sku"]
            return rows, spec, rng.choice(("first", "last"))

        def every_rule_matters(drawn: tuple[list[dict[str, Any]], list[list], str]) -> bool:
            rows, spec, blanks = drawn
            order = sort_rows(rows, spec, blanks)
            keys = [key for key, _ in spec]
            other_blanks = "last" if blanks == "first" else "first"
            in_table_order = [{**row, "sku": str(1000 + i)} for i, row in enumerate(rows)]  # ties keep the table's order
            first_key_stable = [rows[int(sku) - 1000]["sku"] for sku in sort_rows(in_table_order, spec[:1], blanks)]
            all_keys_stable = [rows[int(sku) - 1000]["sku"] for sku in sort_rows(in_table_order, spec, blanks)]
            return (order not in (sort_rows(rows, spec[:1], blanks), first_key_stable)  # the later keys decide
                    and order != all_keys_stable  # and the sku breaks a tie
                    and ("category" not in keys or sort_rows(rows, spec, blanks, fold_case=False) != order)
                    and ("rating" not in keys or sort_rows(rows, spec, other_blanks) != order)
                    and (not {"price", "stock"} & set(keys)
                         or sort_rows(rows, spec, blanks, numeric=False) != order))

        rows, spec, blanks = retry(draw, every_rule_matters, attempts=500, what="a table on which every sorting rule matters")
        order = sort_rows(rows, spec, blanks)
        table = csv_text(["sku", "category", "price", "rating", "stock"],
                         [[r["sku"], r["category"], money(r["price"]), "" if r["rating"] is None else r["rating"],
                           r["stock"]] for r in rows])
        words = {"asc": "ascending", "desc": "descending"}
        keys_text = ", then ".join(f"{key} {words[direction]}" for key, direction in spec)
        prompt = (
            f"Here is a product table:\n\n{table}\n\nSort the rows by {keys_text}, then by sku ascending. Text "
            "compares ignoring letter case; price, rating and stock compare as numbers; a blank rating goes "
            f"{blanks}, whichever the direction.\n\nList the skus in sorted order, separated by commas, for example: "
            f"{EXAMPLE}"
        )
        by_sku = {r["sku"]: r for r in rows}
        first_key = spec[0][0]
        tied = sum(1 for a, b in zip(order, order[1:], strict=False)
                   if _value(by_sku[a], first_key) == _value(by_sku[b], first_key))
        data = {"order": order, "keys": len(spec), "tied": tied}
        return Problem(prompt=prompt, answer=", ".join(order), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_list(answer, _read_sku, max_items=500)
        if given is None:
            return Verdict.unparsed(f"expected skus separated by commas, such as {EXAMPLE}")
        order = problem.data["order"]
        if sorted(given) != sorted(order):
            return Verdict.wrong("the list must hold every sku of the table exactly once")
        wrong = next(i for i, (a, b) in enumerate(zip(given, order, strict=True), start=1) if a != b) \
            if given != order else 0
        return Verdict.judge(not wrong, f"position {wrong} is wrong")

    def difficulty(self, problem: Problem) -> float:
        """Rows + keys + adjacent sorted pairs the first key leaves tied."""
        data = problem.data
        return float(len(data["order"]) + data["keys"] + data["tied"])

    def spellings(self, problem: Problem) -> list[str]:
        order = problem.data["order"]
        return [*markup_spellings(problem.answer or ""), "\n".join(order), "[" + ", ".join(order) + "]",
                ", ".join(s.lower() for s in order)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        order = problem.data["order"]
        i = rng.randrange(len(order) - 1)
        swapped = [*order[:i], order[i + 1], order[i], *order[i + 2 :]]
        return [", ".join(swapped), ", ".join(sorted(order)) if sorted(order) != order else ", ".join(reversed(order)),
                ", ".join(order[:-1])]
