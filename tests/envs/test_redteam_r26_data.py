"""Red-team regressions (round 3, session 26, second look) for the data and sequences families.

Shortcuts that paid (measured over 100-200 seeds before the fix):

- ``data/csv_fields`` v1: the asked column was the file's only city column or its only small-number column, so
  listing the city names (or the numbers 1-40) in file order, without parsing the CSV at all, answered 1.00 of
  every level. v2 adds an origin and a depot city and a floor and a box count, each blank in some records:
  the look-up scores 0.00; segmenting records by their ids and guessing among a record's candidates 0.48 of
  level 0 (three records), 0.22 of level 2 and 0.05 of level 4.
- ``data/top_k`` v1: only the alphabetical tie-break had to give another top k, so always breaking ties by the
  best single game paid 0.71 of level 4 (fewer games 0.67) whatever rule the prompt stated. v2 redraws until
  every other rule gives another top k: each fixed rule scores about its own share (0.28-0.41).
- ``data/stock_ledger`` v1: replaying the ledger without its stock counts answered 0.69 of level 0, 0.33 of
  level 2 and 0.16 of level 4. v2 redraws until a count changes the closing stock (0.00), and from level 1 until
  moving what the source holds instead of rejecting an over-draw does too (that misreading paid 0.08 of level 2
  once counts were forced, 0.00 now).
- ``data/spreadsheet`` v1: counting blank cells as 0 in SUM/AVERAGE/MIN/MAX (the prompt says ranges skip them)
  answered 0.74 of level 2 and 0.70 of level 4. v2 redraws until that misreading changes an asked value: 0.00.
- ``data/dedupe`` v2: the prompt says names are not compared, but matching records whose names are written
  alike as well answered 0.80 of level 0, 0.55 of level 2 and 0.41 of level 4. v3 always gives two customers
  one name and redraws until that misreading changes the groups: 0.00.
- ``data/join`` v1: for "orders of customers in <place> above <amount>", the place alone (amount ignored)
  answered 0.39 of level 0's place questions and 0.14 of level 4's. v2 redraws until the amount matters: 0.00.

Right answers that were rejected: ``Q1 = 1500 grams`` (unit_normalize); the pivot written as a Markdown or CSV
table (pivot); ``view: 9, cart: 5`` and ``9 -> 5`` (funnel); ``1010_{-2}``, ``(1T0)_3``, ``5 = 101`` and
``101 (base -2)`` (numeral_systems); ``Bottom row: 3, 8`` and bricks ``[3][8]`` (number_pyramid); ``x = 0x2A``
and ``42 = 0x2A`` (bit_manipulation, which read ``x = 42`` but not the hexadecimal).

The policies below are written from the prompt, not imported from the envs, so they fail on the old generators.
"""

from __future__ import annotations

import re

import palaestra
from palaestra.envs.data.common import WORDS


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


# ---------------------------------------------------------------------------------------------- csv_fields


def _by_look(prompt: str) -> str:
    """The asked column's values picked out by their look: every city name, or every number from 1 to 99."""
    text = prompt.split("```\n")[1].split("\n```")[0]
    body = text.split("\n", 1)[1]
    if "column qty" in prompt:
        values = re.findall(r"(?<![\w-])(\d{1,2})(?![\w])", body)
    else:
        values = [w for w in re.findall(r"[A-Z][a-z]+", body) if w in WORDS["cities"]]
    return ", ".join(values)


def test_csv_fields_column_kind_is_no_shortcut() -> None:
    task = _task("data/csv_fields")
    for level in (0, 2, 4):
        scores = [task.verify(p, _by_look(p.prompt)).reward for p in (task.sample(level, s) for s in range(15))]
        assert sum(scores) == 0, (level, scores)


# ---------------------------------------------------------------------------------------------------- top_k


def _top_by(prompt: str, k: int, rule: str) -> list[str]:
    table = prompt.split("game,player,points\n")[1].split("\n\n")[0]
    totals: dict[str, int] = {}
    games: dict[str, int] = {}
    best: dict[str, int] = {}
    for line in table.splitlines():
        _, player, points = line.split(",")
        totals[player] = totals.get(player, 0) + int(points)
        games[player] = games.get(player, 0) + 1
        best[player] = max(best.get(player, 0), int(points))
    second = {"name": lambda p: 0, "games": lambda p: games[p], "best": lambda p: -best[p]}[rule]
    return sorted(totals, key=lambda p: (-totals[p], second(p), p))[:k]


def test_top_k_stated_rule_decides() -> None:
    task = _task("data/top_k")
    for level in (2, 4):
        for seed in range(12):
            p = task.sample(level, seed)
            k = len(p.data["top"])
            right = [rule for rule in ("name", "games", "best") if _top_by(p.prompt, k, rule) == p.data["top"]]
            assert len(right) == 1, (level, seed, right)  # only the stated rule gives the reference


# ----------------------------------------------------------------------------------------------------- join


def test_join_amount_condition_matters() -> None:
    task = _task("data/join")
    checked = 0
    for level in (0, 2, 4):
        for seed in range(40):
            p = task.sample(level, seed)
            if "have an amount greater than" not in p.prompt or "placed by customers" not in p.prompt:
                continue
            place = re.search(r"customers (?:in|living in) (\w+) and", p.prompt).group(1)
            customers = dict(re.findall(r"^(C\d+),[^,]+,(\w+),", p.prompt, re.M))
            countries = (
                dict(re.findall(r"^(\w+),(\w+)$", p.prompt.split("cities.csv:")[-1], re.M))
                if "cities.csv" in p.prompt
                else {}
            )
            chosen = [
                o
                for o, c in re.findall(r"^(O-\d+),(C\d+),", p.prompt, re.M)
                if c in customers and (countries.get(customers[c]) if countries else customers[c]) == place
            ]
            assert task.verify(p, ", ".join(chosen)).reward == 0, (level, seed)
            checked += 1
    assert checked >= 10


# ------------------------------------------------------------------------------------- spellings accepted


def test_unit_normalize_reads_grams_spelled_out() -> None:
    task = _task("data/unit_normalize")
    p = task.sample(4, 1)
    pairs = p.data["result"]
    assert task.verify(p, ", ".join(f"{k} = {v} grams" for k, v in pairs.items())).reward == 1
    assert task.verify(p, "\n".join(f"{k}: {v} gram" for k, v in pairs.items())).reward == 1
    first = next(iter(pairs))
    assert (
        task.verify(
            p, ", ".join(f"{k} = {v} kg" if k == first else f"{k} = {v} grams" for k, v in pairs.items())
        ).reward
        == 0
    )


def test_pivot_reads_a_markdown_or_csv_table() -> None:
    task = _task("data/pivot")
    for level, seed in ((0, 5), (4, 1)):
        p = task.sample(level, seed)
        result, days = p.data["result"], p.data["days"]
        markdown = "\n".join(
            [
                "| Store | " + " | ".join(days) + " |",
                "|---" * (len(days) + 1) + "|",
                *("| " + s + " | " + " | ".join(map(str, c)) + " |" for s, c in result.items()),
            ]
        )
        csv = "\n".join(["store," + ",".join(days), *(s + "," + ",".join(map(str, c)) for s, c in result.items())])
        flipped = "\n".join(
            [
                "| store | " + " | ".join(reversed(days)) + " |",
                *("| " + s + " | " + " | ".join(map(str, reversed(c))) + " |" for s, c in result.items()),
            ]
        )
        for right in (markdown, csv, f"```\n{csv}\n```", flipped):
            assert task.verify(p, right).reward == 1, right
        headless_flipped = "\n".join(
            "| " + s + " | " + " | ".join(map(str, reversed(c))) + " |" for s, c in result.items()
        )
        short = "\n".join(markdown.splitlines()[:-1])
        assert task.verify(p, headless_flipped).reward == 0
        assert task.verify(p, short).reward == 0


def test_funnel_reads_named_steps_and_arrows() -> None:
    task = _task("data/funnel")
    for level in (0, 4):
        p = task.sample(level, 1)
        counts, steps = p.data["counts"], p.data["steps"]
        named = ", ".join(f"{s}: {c}" for s, c in zip(steps, counts, strict=True))
        assert task.verify(p, named).reward == 1
        assert task.verify(p, " -> ".join(map(str, counts))).reward == 1
        assert task.verify(p, ", ".join(f"{s}: {c}" for s, c in zip(steps[:-1], counts, strict=False))).reward == 0
        assert task.verify(p, ", ".join(f"{s}: {c}" for s, c in zip(steps, reversed(counts), strict=True))).reward == (
            1 if counts == counts[::-1] else 0
        )


def test_numeral_systems_reads_a_base_subscript() -> None:
    task = _task("sequences/numeral_systems")
    labels = {"negabinary": "-2", "balanced_ternary": "3", "bijective26": "26"}
    seen = set()
    for level in (2, 4):
        for seed in range(30):
            p = task.sample(level, seed)
            system = p.data["system"]
            if p.data["direction"] != "to" or system not in labels:
                continue
            seen.add(system)
            gold, label = p.answer, labels[system]
            for right in (f"{gold}_{{{label}}}", f"({gold})_{{{label}}}", f"{p.data['value']} = {gold}"):
                assert task.verify(p, right).reward == 1, right
            assert task.verify(p, f"{gold}_{{10}}").reward == 0
            assert task.verify(p, f"{p.data['value'] + 1} = {gold}").reward == 0
    assert seen == set(labels)


def test_number_pyramid_reads_a_lead_in_and_bricks() -> None:
    task = _task("sequences/number_pyramid")
    p = task.sample(4, 1)
    row = p.answer.split(", ")
    for right in (
        f"Bottom row: {p.answer}",
        f"**Bottom row:** {p.answer}",
        "".join(f"[{x}]" for x in row),
        " | ".join(row),
    ):
        assert task.verify(p, right).reward == 1, right
    assert task.verify(p, f"Bottom row: {p.answer} or 1, 2").reward == 0
    assert task.verify(p, ", ".join(reversed(row))).reward == 0


def test_bit_manipulation_reads_x_equals_hex() -> None:
    task = _task("sequences/bit_manipulation")
    p = task.sample(4, 1)
    n = p.data["value"]
    for right in (f"x = {hex(n)}", f"{n} = {hex(n)}", f"x = {n} = {hex(n)}", f"popcount = {n}", f"x = {n}."):
        assert task.verify(p, right).reward == 1, right
    assert task.verify(p, f"{n + 1} = {hex(n)}").reward == 0
    assert task.verify(p, f"x = {hex(n + 1)}").reward == 0


# ---------------------------------------------------------------------------------------------- stock_ledger


def _ledger_misread(prompt: str, *, counts: bool, clamp: bool) -> str:
    """The closing stock replayed from the prompt, skipping counts or clamping over-draws as asked."""
    stock = {f"{m[1]}_{m[2]}": int(m[3]) for m in re.finditer(r"^(\w+) at (W\d+): (\d+)$", prompt, re.M)}
    for line in re.findall(r"^\d+\. (.*)$", prompt, re.M):
        w = line.split()
        if w[0] == "receive":
            stock[f"{w[2]}_{w[4]}"] += int(w[1])
        elif w[0] == "stock":
            if counts:
                stock[f"{w[2]}_{w[4]}"] = int(w[6])
        else:
            quantity, source = int(w[1]), f"{w[2]}_{w[4]}"
            if stock[source] < quantity:
                if not clamp:
                    continue
                quantity = stock[source]
            stock[source] -= quantity
            if w[0] == "transfer":
                stock[f"{w[2]}_{w[6]}"] += quantity
    return ", ".join(f"{k} = {v}" for k, v in stock.items())


def test_stock_ledger_counts_and_rejections_matter() -> None:
    task = _task("data/stock_ledger")
    for level in (0, 2, 4):
        for seed in range(12):
            p = task.sample(level, seed)
            assert task.verify(p, _ledger_misread(p.prompt, counts=True, clamp=False)).reward == 1  # the rule
            assert task.verify(p, _ledger_misread(p.prompt, counts=False, clamp=False)).reward == 0, (level, seed)
            if level:
                assert task.verify(p, _ledger_misread(p.prompt, counts=True, clamp=True)).reward == 0, (level, seed)


# ----------------------------------------------------------------------------------------------- spreadsheet


def _sheet_misread(prompt: str) -> str:
    """The asked cells evaluated from the prompt with blank cells counted as 0 in SUM/AVERAGE/MIN/MAX."""
    from fractions import Fraction

    cells = dict(re.findall(r"^([A-Z]\d+): (.+)$", prompt.split("Cells not listed")[0], re.M))
    memo: dict[str, Fraction] = {}

    def value(name: str) -> Fraction:
        if name not in cells:
            return Fraction(0)
        if name not in memo:
            text = cells[name]
            memo[name] = (
                parse(re.findall(r"[A-Z]+\(|[A-Z]\d+:[A-Z]\d+|[A-Z]\d+|\d+|[-+*(),<>=]", text[1:]), [0])
                if text.startswith("=")
                else Fraction(int(text))
            )
        return memo[name]

    def span(text: str) -> list[str]:
        (c1, r1), (c2, r2) = ((ord(x[0]), int(x[1:])) for x in text.split(":"))
        return [
            f"{chr(c)}{r}" for r in range(min(r1, r2), max(r1, r2) + 1) for c in range(min(c1, c2), max(c1, c2) + 1)
        ]

    def parse(tokens: list[str], at: list[int]) -> Fraction:  # expr := term (('+'|'-') term)*
        total = term(tokens, at)
        while at[0] < len(tokens) and tokens[at[0]] in "+-":
            sign = tokens[at[0]]
            at[0] += 1
            right = term(tokens, at)
            total = total + right if sign == "+" else total - right
        return total

    def term(tokens: list[str], at: list[int]) -> Fraction:
        product = atom(tokens, at)
        while at[0] < len(tokens) and tokens[at[0]] == "*":
            at[0] += 1
            product *= atom(tokens, at)
        return product

    def atom(tokens: list[str], at: list[int]) -> Fraction:
        token = tokens[at[0]]
        at[0] += 1
        if token == "-":
            return -atom(tokens, at)
        if token == "(":
            inner = parse(tokens, at)
            at[0] += 1
            return inner
        if token == "IF(":
            left = parse(tokens, at)
            op = tokens[at[0]]
            at[0] += 1
            right = parse(tokens, at)
            at[0] += 1  # ,
            then = parse(tokens, at)
            at[0] += 1  # ,
            otherwise = parse(tokens, at)
            at[0] += 1  # )
            holds = left > right if op == ">" else left < right if op == "<" else left == right
            return then if holds else otherwise
        if token.endswith("("):
            values = [value(name) for name in span(tokens[at[0]])]  # blanks read as 0: the misreading
            at[0] += 2
            return {
                "SUM": sum(values, Fraction(0)),
                "AVERAGE": sum(values, Fraction(0)) / len(values),
                "MIN": min(values),
                "MAX": max(values),
            }[token[:-1]]
        return value(token) if token[0].isalpha() else Fraction(int(token))

    asked = re.search(r"What are the values of (.+?)\?", prompt).group(1).replace(" and ", ", ").split(", ")
    out = []
    for name in asked:
        v = value(name)
        out.append(f"{name} = {v.numerator}/{v.denominator}" if v.denominator != 1 else f"{name} = {v.numerator}")
    return ", ".join(out)


def test_spreadsheet_blank_rule_matters() -> None:
    task = _task("data/spreadsheet")
    for level in (2, 4):
        for seed in range(10):
            p = task.sample(level, seed)
            assert task.verify(p, _sheet_misread(p.prompt)).reward == 0, (level, seed)
    p = task.sample(0, 1)  # level 0 has no blank cell: the same reader gives the reference
    assert task.verify(p, _sheet_misread(p.prompt)).reward == 1


# ---------------------------------------------------------------------------------------------------- dedupe


def _dedupe_with_names(prompt: str) -> str:
    """The groups when records whose names are written alike (ignoring case) also match: the rule misread."""
    rows = [line.split(" | ") for line in prompt.splitlines() if re.match(r"^R\d+ \|", line)]
    parent = {row[0]: row[0] for row in rows}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    first: dict[str, str] = {}
    for rid, name, email, phone in rows:
        for key in ("e" + email.strip().lower(), "p" + re.sub(r"\D", "", phone), "n" + name.strip().lower()):
            if key in first:
                a, b = sorted((find(first[key]), find(rid)), key=lambda r: int(r[1:]))
                parent[b] = a
            else:
                first[key] = rid
    return ", ".join(f"{row[0]} = {find(row[0])}" for row in rows)


def test_dedupe_names_never_decide() -> None:
    task = _task("data/dedupe")
    for level in (0, 2, 4):
        for seed in range(15):
            p = task.sample(level, seed)
            assert task.verify(p, _dedupe_with_names(p.prompt)).reward == 0, (level, seed)
