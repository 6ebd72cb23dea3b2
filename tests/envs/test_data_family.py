"""The data family: hand-checked small instances, near misses rejected with useful feedback, other spellings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _problem(env_id: str, level: int = 1, seed: int = 3) -> tuple[Any, Problem]:
    source = make_source(env_id)
    return source, source.sample(level, seed)


# group_aggregate ------------------------------------------------------------------------------------------

def test_group_aggregate_hand_checked() -> None:
    from palaestra.envs.data.group_aggregate import aggregate

    rows = [
        {"region": "North", "category": "Books", "status": "paid", "quantity": 2, "price": 1000},
        {"region": "North", "category": "Toys", "status": "paid", "quantity": 3, "price": 250},
        {"region": "South", "category": "Books", "status": "refunded", "quantity": 9, "price": 100},
        {"region": "South", "category": "Toys", "status": "paid", "quantity": 1, "price": 333},
    ]
    paid = [["status_in", ["paid"]]]
    assert aggregate(rows, paid, "region", "sum", "revenue") == {"North": Fraction(2750, 100),
                                                                 "South": Fraction(333, 100)}
    assert aggregate(rows, paid, "region", "average", "quantity") == {"North": Fraction(5, 2), "South": 1}
    assert aggregate(rows, [["quantity_at_least", 3]], "category", "count", "quantity") == {"Toys": 1, "Books": 1}


def test_group_aggregate_grading() -> None:
    source, problem = _problem("data/group_aggregate", level=2)
    result = problem.data["result"]
    first = next(iter(result))
    wrong = dict(result)
    wrong[first] = str(Fraction(wrong[first]) + 1)
    verdict = source.verify(problem, ", ".join(f"{k} = {v}" for k, v in wrong.items()))
    assert not verdict.correct and first in verdict.feedback
    reordered = "\n".join(f"{k}: {v}" for k, v in reversed(list(result.items())))
    assert source.verify(problem, reordered).correct


# spreadsheet ----------------------------------------------------------------------------------------------

def test_spreadsheet_hand_checked() -> None:
    from palaestra.envs.data.spreadsheet import evaluate, render

    values = {"A1": Fraction(4), "A2": Fraction(7), "B1": Fraction(-2)}  # A3 blank
    average = ["fn", "AVERAGE", ["A1", "A2", "A3"], "A1:A3"]
    assert evaluate(average, values) == Fraction(11, 2)  # the blank A3 is skipped, not counted as 0
    formula = ["mul", ["sub", ["ref", "A2"], ["ref", "B1"]], ["num", 3]]
    assert render(formula) == "(A2 - B1) * 3" and evaluate(formula, values) == 27
    branch = ["if", [">", ["ref", "B1"], ["ref", "A3"]], ["ref", "A1"], ["sub", ["ref", "A2"], ["num", 1]]]
    assert evaluate(branch, values) == 6  # -2 > 0 (blank) fails: A2 - 1


def test_spreadsheet_grading() -> None:
    source, problem = _problem("data/spreadsheet", level=3)
    result = problem.data["result"]
    cell = next(iter(result))
    wrong = {k: (str(Fraction(v) + 1) if k == cell else v) for k, v in result.items()}
    verdict = source.verify(problem, ", ".join(f"{k} = {v}" for k, v in wrong.items()))
    assert not verdict.correct and cell in verdict.feedback
    assert source.verify(problem, "; ".join(f"{k.lower()}: {v}" for k, v in reversed(list(result.items())))).correct


# json_path ------------------------------------------------------------------------------------------------

def test_json_path_hand_checked() -> None:
    from palaestra.envs.data.json_path import path_text, select

    document = {"featured": {"sku": "F-1", "price": 500},
                "departments": [{"floor": 1, "items": [{"sku": "A-1", "price": 1250, "stock": 0},
                                                       {"sku": "A-2", "price": 300, "stock": 4}]},
                                {"floor": 2, "items": [{"sku": "B-1", "price": 999, "stock": 7}]}]}
    cheap = [["key", "departments"], ["wild"], ["key", "items"],
             ["filter", [["price", "<", 1000], ["stock", ">", 5]], "&&"], ["key", "sku"]]
    assert path_text(cheap) == "$.departments[*].items[?(@.price < 10 && @.stock > 5)].sku"
    assert select(document, cheap) == ["B-1"]
    assert select(document, [["descend", "sku"]]) == ["F-1", "A-1", "A-2", "B-1"]  # document order
    last = [["key", "departments"], ["index", -1], ["key", "items"], ["slice", 0, 2], ["key", "stock"]]
    assert select(document, last) == [7]


def test_json_path_grading() -> None:
    source, problem = _problem("data/json_path", level=3)
    values = problem.data["values"]
    verdict = source.verify(problem, ", ".join(values[1:]))
    assert not verdict.correct and verdict.feedback
    assert source.verify(problem, "[" + ", ".join(f"'{v}'" for v in values) + "]").correct


# apply_patch ----------------------------------------------------------------------------------------------

def test_apply_patch_reference_is_the_diffed_file() -> None:
    source, problem = _problem("data/apply_patch", level=2)
    diff = problem.prompt.split("```diff\n")[1].split("\n```")[0].split("\n")
    old = problem.data["original"].split("\n")
    # replay the diff by hand: the hunks' removed lines must be where the headers say, the result the reference
    result, cursor, index = [], 0, 2
    while index < len(diff):
        start = int(diff[index].split()[1].split(",")[0].lstrip("-")) - 1
        result.extend(old[cursor:start])
        cursor, index = start, index + 1
        while index < len(diff) and not diff[index].startswith("@@"):
            mark, text = diff[index][:1], diff[index][1:]
            if mark in " -":
                assert old[cursor] == text
                cursor += 1
            if mark in " +":
                result.append(text)
            index += 1
    result.extend(old[cursor:])
    assert "\n".join(result) == problem.data["patched"]
    assert source.verify(problem, "Patched file:\n```ini\n" + problem.data["patched"] + "\n```").correct


def test_apply_patch_unpatched_file_rejected() -> None:
    source, problem = _problem("data/apply_patch", level=1)
    verdict = source.verify(problem, "```\n" + problem.data["original"] + "\n```")
    assert not verdict.correct and "line" in verdict.feedback


# log_windows ----------------------------------------------------------------------------------------------

def test_log_windows_recounted_from_the_prompt() -> None:
    import re
    from datetime import datetime, timedelta

    source, problem = _problem("data/log_windows", level=3, seed=7)
    log = problem.prompt.split("```\n")[1].strip().split("\n")
    span = re.search(r"from (\S+ \S+) to (\S+ \S+) UTC into consecutive (\d+)-minute", problem.prompt)
    assert span
    start = datetime.fromisoformat(span.group(1) + "+00:00")
    width = timedelta(minutes=int(span.group(3)))
    asked = re.search(r"Count the (.+?) in each window", problem.prompt)
    assert asked
    what = asked.group(1)
    counts = [0] * len(problem.data["counts"])
    for line in log:
        stamp, level, service = line.split()[:3]
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        if what == "lines of level WARN or ERROR":
            hit = level in ("WARN", "ERROR")
        elif what.startswith("lines of level"):
            hit = level == what.split()[-1]
        else:
            hit = level == "ERROR" and service == f"[{what.split()[3]}]"
        index = (moment - start) // width
        if hit and 0 <= index < len(counts):
            counts[index] += 1
    assert counts == problem.data["counts"]
    assert source.verify(problem, "[" + " ".join(map(str, counts)) + "]").correct
    counts[0] += 1
    verdict = source.verify(problem, ", ".join(map(str, counts)))
    assert not verdict.correct and "window 1" in verdict.feedback


# reconcile ------------------------------------------------------------------------------------------------

def test_reconcile_recomputed_from_the_prompt() -> None:
    from datetime import datetime

    source, problem = _problem("data/reconcile", level=3, seed=11)
    ledger_text = problem.prompt.split("payments:\n\n")[1].split("\n\n")[0].split("\n")[1:]
    bank_text = problem.prompt.split("export lists:\n\n")[1].split("\n\n")[0].split("\n")[1:]
    ledger = {ref: (day, payee.lower(), Fraction(amount))
              for ref, day, payee, amount in (line.split(",") for line in ledger_text)}
    bank = {ref: (datetime.strptime(day, "%d/%m/%Y").date().isoformat(), payee.lower(), Fraction(amount))
            for ref, day, payee, amount in (line.split(",") for line in bank_text)}
    differing = {ref for ref in set(ledger) | set(bank) if ledger.get(ref) != bank.get(ref)}
    assert differing == set(problem.data["mismatched"])
    assert source.verify(problem, "\n".join(sorted(differing, reverse=True))).correct
    matching = sorted(set(ledger) - differing)
    verdict = source.verify(problem, ", ".join(sorted(differing | {matching[0]})))
    assert not verdict.correct and matching[0] in verdict.feedback


# top_k ----------------------------------------------------------------------------------------------------

def test_top_k_tie_rules_hand_checked() -> None:
    from palaestra.envs.data.top_k import ranking

    rows = [["G1", "Cato", 5], ["G2", "Ada", 3], ["G3", "Ada", 2], ["G4", "Bea", 4], ["G5", "Bea", 1], ["G6", "Dora", 9]]
    # totals: Dora 9, Cato 5, Ada 5, Bea 5
    assert ranking(rows, "name")[0] == ["Dora", "Ada", "Bea", "Cato"]
    assert ranking(rows, "games")[0] == ["Dora", "Cato", "Ada", "Bea"]  # Cato played once
    assert ranking(rows, "best")[0] == ["Dora", "Cato", "Bea", "Ada"]  # best games 5, 4, 3


def test_top_k_grading() -> None:
    source, problem = _problem("data/top_k", level=3)
    top = problem.data["top"]
    swapped = [top[1], top[0], *top[2:]]
    verdict = source.verify(problem, ", ".join(swapped))
    assert not verdict.correct and "place 1" in verdict.feedback
    assert source.verify(problem, "\n".join(f"{i}. {name.lower()}" for i, name in enumerate(top, 1))).correct


# join -----------------------------------------------------------------------------------------------------

def test_join_hand_checked() -> None:
    from palaestra.envs.data.join import answer_ids

    data = {"customers": [{"id": "C1", "city": "Lyon", "limit": 10000}, {"id": "C2", "city": "Oslo", "limit": 500},
                          {"id": "C3", "city": "Lyon", "limit": 900}],
            "orders": [{"id": "O-1", "customer": "C1", "cents": 20000}, {"id": "O-2", "customer": "C2", "cents": 600},
                       {"id": "O-3", "customer": "C9", "cents": 99000}, {"id": "O-4", "customer": "C1", "cents": 5000}],
            "countries": {"Lyon": "France", "Oslo": "Norway"}, "place": "Lyon", "threshold": 10000}
    assert answer_ids({**data, "kind": "city"}) == ["O-1"]  # O-3's customer C9 is unknown: dropped by the join
    assert answer_ids({**data, "kind": "over_limit"}) == ["O-1", "O-2"]
    assert answer_ids({**data, "kind": "no_orders"}) == ["C3"]
    assert answer_ids({**data, "kind": "country", "place": "Norway", "threshold": 100}) == ["O-2"]


def test_join_grading() -> None:
    source, problem = _problem("data/join", level=3)
    ids = problem.data["answer"]
    assert source.verify(problem, "{" + ", ".join(i.lower() for i in reversed(ids)) + "}").correct
    verdict = source.verify(problem, ", ".join(ids[:-1]) if len(ids) > 1 else "O-0")
    assert not verdict.correct and verdict.parsed


# clean_dates ----------------------------------------------------------------------------------------------

def test_clean_dates_conventions_hand_checked() -> None:
    from datetime import date

    from palaestra.envs.data.clean_dates import read_iso, written

    day = date(1998, 3, 4)
    assert written(day, "billing") == "04/03/1998" and written(day, "crm") == "03/04/1998"
    assert written(day, "warehouse") == "04.03.1998" and written(day, "export") == "19980304"
    assert written(day, "webshop") == "4 March 1998" and written(day, "support") == "March 4, 1998"
    assert written(day, "legacy") == "04-Mar-98"
    assert read_iso("1998-03-04") == day and read_iso("1998-02-30") is None and read_iso("04/03/1998") is None


def test_clean_dates_grading() -> None:
    source, problem = _problem("data/clean_dates", level=2)
    result = problem.data["result"]
    first = next(iter(result))
    wrong = {**result, first: "1900-01-01"}
    verdict = source.verify(problem, ", ".join(f"{k} = {v}" for k, v in wrong.items()))
    assert not verdict.correct and first in verdict.feedback
    assert source.verify(problem, "\n".join(f"{k}: {v}" for k, v in reversed(list(result.items())))).correct


# schema_infer ---------------------------------------------------------------------------------------------

def test_schema_infer_rules_hand_checked() -> None:
    from palaestra.envs.data.schema_infer import column_type

    assert column_type(["TRUE", "false", ""]) == "boolean"
    assert column_type(["+7", "007", "-3"]) == "integer"
    assert column_type(["12", "0.75", ""]) == "decimal"  # an integer fits decimal too
    assert column_type(["1e3", "12"]) == "text" and column_type([".5", "1.5"]) == "text"
    assert column_type(["2024-02-29", "2023-12-31"]) == "date"
    assert column_type(["2023-02-29", "2023-12-31"]) == "text"  # 2023 is no leap year
    assert column_type(["true", "1"]) == "text"


def test_schema_infer_types_recomputed_from_the_printed_table() -> None:
    import csv
    import io

    from palaestra.envs.data.schema_infer import column_type

    source = make_source("data/schema_infer")
    for seed in range(20):  # regression: a spoiler "1,200" once split its CSV row into one cell too many
        problem = source.sample(4, seed)
        text = problem.prompt.split("CSV table:\n\n")[1].split("\n\n")[0]
        rows = list(csv.reader(io.StringIO(text)))
        assert all(len(row) == len(rows[0]) for row in rows)
        types = {name: column_type([row[i] for row in rows[1:]]) for i, name in enumerate(rows[0])}
        assert types == problem.data["result"]


def test_schema_infer_grading() -> None:
    source, problem = _problem("data/schema_infer", level=2)
    result = problem.data["result"]
    column = next(iter(result))
    other = "text" if result[column] != "text" else "integer"
    verdict = source.verify(problem, ", ".join(f"{k} = {other if k == column else v}" for k, v in result.items()))
    assert not verdict.correct and column in verdict.feedback
    assert source.verify(problem, "\n".join(f"{k}: {v.capitalize()}" for k, v in result.items())).correct


# pivot ----------------------------------------------------------------------------------------------------

def test_pivot_hand_checked() -> None:
    from palaestra.envs.data.pivot import pivot

    rows = [["Plaza", "Mon", "morning", 5], ["Plaza", "Mon", "evening", 7], ["Market", "Tue", "evening", 3],
            ["Plaza", "Tue", "evening", 1]]
    assert pivot(rows, ["Market", "Plaza"], ["Mon", "Tue"], None) == {"Market": [0, 3], "Plaza": [12, 1]}
    assert pivot(rows, ["Market", "Plaza"], ["Mon", "Tue"], "evening") == {"Market": [0, 3], "Plaza": [7, 1]}


def test_pivot_grading() -> None:
    source, problem = _problem("data/pivot", level=3)
    result = problem.data["result"]
    store = next(iter(result))
    swapped = {s: list(reversed(c)) if s == store else c for s, c in result.items()}
    if swapped != result:
        verdict = source.verify(problem, "\n".join(f"{s}: {', '.join(map(str, c))}" for s, c in swapped.items()))
        assert not verdict.correct and store in verdict.feedback
    assert source.verify(problem, "\n".join(f"{s} = {' '.join(map(str, c))}" for s, c in result.items())).correct


# clean_phones ---------------------------------------------------------------------------------------------

def test_clean_phones_styles_normalise_to_the_reference() -> None:
    import random
    import re

    from palaestra.envs.data.clean_phones import COUNTRIES, written

    rng = random.Random(5)
    for country, (code, trunk, _) in COUNTRIES.items():
        number = ("0" if country == "Italy" else "7") + "123456789"[: COUNTRIES[country][2] - 1]
        for international in (False, True):
            for _ in range(10):
                typed = written(rng, country, number, international, "United States")
                digits = re.sub(r"\D", "", typed.replace("(0)", ""))
                if typed.startswith("+"):
                    assert digits == code + number
                elif typed.startswith(("00 ", "011 ")):
                    after_exit = re.sub(r"\D", "", typed.split(" ", 1)[1])
                    assert after_exit == code + number and typed.split()[1] == code
                else:  # national: the trunk prefix, then the number
                    assert digits == trunk + number or (country == "United States" and digits == number)


def test_clean_phones_grading() -> None:
    source, problem = _problem("data/clean_phones", level=2)
    result = problem.data["result"]
    first = next(iter(result))
    wrong = {**result, first: result[first][:3] + "0" + result[first][3:]}
    verdict = source.verify(problem, ", ".join(f"{k} = {v}" for k, v in wrong.items()))
    assert not verdict.correct and first in verdict.feedback
    assert source.verify(problem, "\n".join(f"{k}: {v}" for k, v in reversed(list(result.items())))).correct


# csv_fields -----------------------------------------------------------------------------------------------

def test_csv_fields_reference_matches_a_real_csv_parser() -> None:
    import csv
    import io

    source = make_source("data/csv_fields")
    for seed in range(20):  # regression: quoting a simple field once rewrote a line that ended in a tag
        problem = source.sample(4, seed)
        text = problem.prompt.split("```\n")[1].split("\n```")[0]
        rows = list(csv.reader(io.StringIO(text)))
        assert all(len(row) == len(rows[0]) for row in rows)
        column = rows[0].index(problem.data["asked"])
        assert [row[column] for row in rows[1:]] == problem.data["values"]
    naive = [(line.split(",") + [""] * 9)[column] for line in text.split("\n")[1:]]
    assert naive != problem.data["values"]  # splitting lines at commas does not work
    assert source.verify(problem, "\n".join(problem.data["values"])).correct
    verdict = source.verify(problem, ", ".join(v for v in naive if v))
    assert not verdict.correct


# json_diff ------------------------------------------------------------------------------------------------

def test_json_diff_hand_checked() -> None:
    from palaestra.envs.data.json_diff import differences

    old = {"server": {"port": 8080, "tls": {"on": True}}, "log": "info", "gone": 1}
    new = {"log": "info", "server": {"tls": {"on": True, "cert": "x"}, "port": "8080"}}  # keys reordered
    assert differences(old, new) == {"~server.port", "+server.tls.cert", "-gone"}


def test_json_diff_grading() -> None:
    source, problem = _problem("data/json_diff", level=3)
    found = problem.data["differences"]
    assert source.verify(problem, "\n".join(f"`{e}`" for e in reversed(found))).correct
    verdict = source.verify(problem, ", ".join(found[1:]))
    assert not verdict.correct and found[0][1:] in verdict.feedback


# unit_normalize -------------------------------------------------------------------------------------------

def test_unit_normalize_hand_checked() -> None:
    from palaestra.envs.data.unit_normalize import GRAMS, rounded

    assert 2 * GRAMS["lb"] + 4 * GRAMS["oz"] == Fraction("1020.58283250")  # 2 lb 4 oz = 36 oz
    assert rounded(2 * GRAMS["lb"] + 4 * GRAMS["oz"]) == "1020.58"
    assert rounded(Fraction("0.125")) == "0.13" and rounded(Fraction(1500)) == "1500"


def test_unit_normalize_tolerance_is_the_stated_one() -> None:
    source, problem = _problem("data/unit_normalize", level=3)
    parcels = problem.data["parcels"]
    exact = {p["id"]: Fraction(p["grams"]) for p in parcels}
    inside = ", ".join(f"{k} = {float(v + Fraction(4, 1000)):.4f}" for k, v in exact.items())
    outside = ", ".join(f"{k} = {float(v + Fraction(6, 1000)):.4f}" for k, v in exact.items())
    assert source.verify(problem, inside).correct
    verdict = source.verify(problem, outside)
    assert not verdict.correct and "0.005" in verdict.feedback


# dedupe ---------------------------------------------------------------------------------------------------

def test_dedupe_transitive_groups_hand_checked() -> None:
    from palaestra.envs.data.dedupe import groups

    records = [
        {"id": "R3", "email": "a@x.test", "phone": "111-222-3333"},
        {"id": "R7", "email": " A@X.TEST", "phone": "999 8887777"},  # same email as R3
        {"id": "R9", "email": "b@x.test", "phone": "(999) 888 7777"},  # same phone as R7: joins R3 through R7
        {"id": "R12", "email": "c@x.test", "phone": "5556667777"},  # alone (a shared name would not matter)
    ]
    assert groups(records) == {"R3": "R3", "R7": "R3", "R9": "R3", "R12": "R12"}


def test_dedupe_grading() -> None:
    source, problem = _problem("data/dedupe", level=3)
    result = problem.data["result"]
    assert source.verify(problem, "\n".join(f"{k.lower()}: {v}" for k, v in result.items())).correct
    alone = {k: k for k in result}
    verdict = source.verify(problem, ", ".join(f"{k} = {v}" for k, v in alone.items()))
    assert not verdict.correct and "record" in verdict.feedback


# sessionize -----------------------------------------------------------------------------------------------

def test_sessionize_hand_checked() -> None:
    from palaestra.envs.data.sessionize import sessions

    events = [[600, "Ada", "/a"], [0, "Ada", "/b"], [1200, "Ada", "/c"], [1201 + 600, "Ada", "/d"], [50, "Bo", "/e"]]
    # gaps of Ada (10-minute rule): 600 (exactly: same session), 600, 601 (new session)
    assert sessions(events, 10) == {"Ada": (2, 1200), "Bo": (1, 0)}


def test_sessionize_grading() -> None:
    source, problem = _problem("data/sessionize", level=3)
    result = problem.data["result"]
    user = next(iter(result))
    wrong = {u: (c, s + 1 if u == user else s) for u, (c, s) in result.items()}
    verdict = source.verify(problem, "\n".join(f"{u}: {c}, {s}" for u, (c, s) in wrong.items()))
    assert not verdict.correct and user in verdict.feedback


# resample -------------------------------------------------------------------------------------------------

def test_resample_hand_checked() -> None:
    from palaestra.envs.data.resample import resample

    readings = [[600, 10], [607, None], [614, 24], [630, 0]]  # 10:00 10, 10:07 NA (ignored), 10:14 24, 10:30 0
    grid = [600, 610, 620, 630]
    assert resample(readings, grid, "linear") == [10, 20, 15, 0]  # 10 + 14 * 10/14; 24 - 24 * 6/16
    assert resample(readings, grid, "previous") == [10, 10, 24, 0]
    assert resample([[0, 1], [7, 2]], [3], "linear") == [Fraction(10, 7)]


def test_resample_grading() -> None:
    source, problem = _problem("data/resample", level=2)
    values = problem.data["values"]
    assert source.verify(problem, "[" + ", ".join(values) + "]").correct
    wrong = [str(Fraction(values[0]) + Fraction(1, 2)), *values[1:]]
    verdict = source.verify(problem, ", ".join(wrong))
    assert not verdict.correct and "wrong" in verdict.feedback


# validate -------------------------------------------------------------------------------------------------

def test_validate_first_rule_hand_checked() -> None:
    from palaestra.envs.data.validate import first_broken

    good = {"email": "a.b@corp.example", "age": "30", "department": "sales", "start": "2020-01-01", "manager": ""}
    rows = [
        {**good, "label": "r1", "id": "E1"},
        {**good, "label": "r2", "id": "E1", "age": "17"},  # repeats E1 (rule 1) and is too young (rule 3)
        {**good, "label": "r3", "id": "E3", "email": "a.b@corp", "manager": "E9"},  # rules 2 and 6
        {**good, "label": "r4", "id": "E4", "start": "2023-02-29", "manager": "E3"},  # no such day: rule 5
        {**good, "label": "r5", "id": "E5", "department": "Sales"},  # case matters: rule 4
    ]
    assert first_broken(rows) == {"r2": 1, "r3": 2, "r4": 5, "r5": 4}


def test_validate_grading() -> None:
    source, problem = _problem("data/validate", level=3)
    result = problem.data["result"]
    row = next(iter(result))
    verdict = source.verify(problem, ", ".join(f"{k} = {v % 6 + 1 if k == row else v}" for k, v in result.items()))
    assert not verdict.correct and row in verdict.feedback
    assert source.verify(problem, "\n".join(f"{k.upper()}: {v}" for k, v in result.items())).correct


# sort_rows ------------------------------------------------------------------------------------------------

def test_sort_rows_hand_checked() -> None:
    from palaestra.envs.data.sort_rows import sort_rows

    rows = [{"sku": "A", "category": "toys", "price": 950, "rating": None, "stock": 1},
            {"sku": "B", "category": "Books", "price": 1000, "rating": 5, "stock": 2},
            {"sku": "C", "category": "TOYS", "price": 1000, "rating": 4, "stock": 3},
            {"sku": "D", "category": "books", "price": 950, "rating": 4, "stock": 4}]
    # price as a number: 9.50 before 10.00; then category descending ignoring case (toys before books)
    assert sort_rows(rows, [["price", "asc"], ["category", "desc"]], "last") == ["A", "D", "C", "B"]
    # rating descending with the blank last, and with the blank first
    assert sort_rows(rows, [["rating", "desc"]], "last") == ["B", "C", "D", "A"]
    assert sort_rows(rows, [["rating", "desc"]], "first") == ["A", "B", "C", "D"]


def test_sort_rows_grading() -> None:
    source, problem = _problem("data/sort_rows", level=2)
    order = problem.data["order"]
    assert source.verify(problem, "\n".join(s.lower() for s in order)).correct
    verdict = source.verify(problem, ", ".join([order[1], order[0], *order[2:]]))
    assert not verdict.correct and "position 1" in verdict.feedback


# every reference recomputed from the printed prompt (a rendering bug would break the link) ------------------

def _csv_after(prompt: str, marker: str) -> list[list[str]]:
    import csv
    import io

    text = prompt.split(marker)[1].lstrip("\n").split("\n\n")[0]
    return list(csv.reader(io.StringIO(text)))


def _samples(env_id: str) -> list[Problem]:
    source = make_source(env_id)
    return [source.sample(level, seed) for level in (1, 4) for seed in range(4)]


def test_printed_tables_give_the_references() -> None:
    import re

    from palaestra.envs.data.group_aggregate import aggregate
    from palaestra.envs.data.join import answer_ids
    from palaestra.envs.data.pivot import pivot
    from palaestra.envs.data.sort_rows import sort_rows
    from palaestra.envs.data.top_k import ranking
    from palaestra.envs.data.validate import first_broken

    for p in _samples("data/group_aggregate"):
        rows = [{"order_id": int(r[0]), "region": r[1], "category": r[2], "status": r[3], "quantity": int(r[4]),
                 "price": int(Fraction(r[5]) * 100)} for r in _csv_after(p.prompt, "in CSV:\n\n")[1:]]
        result = aggregate(rows, p.data["conditions"], p.data["group_by"], p.data["aggregate"], p.data["measure"])
        assert result == {k: Fraction(v) for k, v in p.data["result"].items()}
    for p in _samples("data/join"):
        data = dict(p.data)
        data["customers"] = [{"id": r[0], "city": r[2], "limit": int(Fraction(r[3]) * 100)}
                             for r in _csv_after(p.prompt, "customers.csv:")[1:]]
        data["orders"] = [{"id": r[0], "customer": r[1], "cents": int(Fraction(r[2]) * 100)}
                          for r in _csv_after(p.prompt, "orders.csv:")[1:]]
        if "cities.csv:" in p.prompt:
            data["countries"] = {r[0]: r[1] for r in _csv_after(p.prompt, "cities.csv:")[1:]}
        assert answer_ids(data) == p.data["answer"]
    for p in _samples("data/pivot"):
        shift = re.search(r"total visitors of the (\w+) shift", p.prompt)
        rows = [[a, b, c, int(d)] for a, b, c, d in _csv_after(p.prompt, "store visits:\n\n")[1:]]
        assert pivot(rows, p.data["stores"], p.data["days"], shift.group(1) if shift else None) == p.data["result"]
    for p in _samples("data/validate"):
        rows = [{"label": r[0], "id": r[1], "email": r[2], "age": r[3], "department": r[4], "start": r[5],
                 "manager": r[6]} for r in _csv_after(p.prompt, "employee table:\n\n")[1:]]
        assert first_broken(rows) == p.data["result"]
    for p in _samples("data/sort_rows"):
        rows = [{"sku": r[0], "category": r[1], "price": int(Fraction(r[2]) * 100), "rating": int(r[3]) if r[3] else None,
                 "stock": int(r[4])} for r in _csv_after(p.prompt, "product table:\n\n")[1:]]
        keys = re.search(r"Sort the rows by (.+?), then by sku ascending", p.prompt)
        assert keys
        spec = [[k.split()[0], "asc" if k.split()[1] == "ascending" else "desc"] for k in keys.group(1).split(", then ")]
        blanks = "first" if "blank rating goes first" in p.prompt else "last"
        assert sort_rows(rows, spec, blanks) == p.data["order"]
    for p in _samples("data/top_k"):
        rows = [[a, b, int(c)] for a, b, c in _csv_after(p.prompt, "per game:\n\n")[1:]]
        assert ranking(rows, p.data["rule"])[0][: len(p.data["top"])] == p.data["top"]


def test_printed_documents_and_logs_give_the_references() -> None:
    import json
    import re

    from palaestra.envs.data.dedupe import groups
    from palaestra.envs.data.json_path import select
    from palaestra.envs.data.resample import resample
    from palaestra.envs.data.sessionize import sessions

    def cents(node: object) -> object:
        if isinstance(node, dict):
            return {k: (int(v * 100) if k == "price" else cents(v)) for k, v in node.items()}
        return [cents(v) for v in node] if isinstance(node, list) else node

    for p in _samples("data/json_path"):
        text = p.prompt.split("JSON document:\n\n")[1].split("\n\nEvaluate")[0]
        values = select(cents(json.loads(text, parse_float=Fraction)), p.data["path"])
        shown = [Fraction(v, 100) if p.data["field"] == "price" else v for v in values]
        assert shown == [Fraction(v) if p.data["numeric"] else v for v in p.data["values"]]
    for p in _samples("data/dedupe"):
        lines = p.prompt.split("(id | name | email | phone):\n\n")[1].split("\n\n")[0].split("\n")
        records = [dict(zip(("id", "name", "email", "phone"), line.split(" | "), strict=True)) for line in lines]
        assert groups(records) == p.data["result"]
    for p in _samples("data/resample"):
        lines = p.prompt.split("(time,value):\n\n")[1].split("\n\n")[0].split("\n")
        readings: list[list] = []
        for line in lines:
            clock, value = line.split(",")
            readings.append([int(clock[:2]) * 60 + int(clock[3:]), None if value == "NA" else int(value)])
        method = "linear" if "linear interpolation" in p.prompt else "previous"
        assert resample(readings, p.data["grid"], method) == [Fraction(v) for v in p.data["values"]]
    for p in _samples("data/sessionize"):
        events = []
        for line in p.prompt.split("```\n")[1].strip().split("\n"):
            clock, user, page = line.split()
            hours, minutes, seconds = map(int, clock.split(":"))
            events.append([hours * 3600 + minutes * 60 + seconds, user, page])
        gap = re.search(r"at most (\d+) minutes apart", p.prompt)
        assert gap
        assert {u: list(v) for u, v in sessions(events, int(gap.group(1))).items()} == p.data["result"]


# asof_join ------------------------------------------------------------------------------------------------

def test_asof_join_rate_in_force_hand_checked() -> None:
    from palaestra.envs.data.asof_join import rate_on

    rates = [["USD", "2024-03-10", 9000], ["USD", "2024-03-01", 9200], ["GBP", "2024-03-01", 11700]]
    assert rate_on(rates, "USD", "2024-03-09") == Fraction("0.92")  # before the second rate: the first
    assert rate_on(rates, "USD", "2024-03-10") == Fraction("0.9")  # on its effective date: the new rate
    assert rate_on(rates, "USD", "2024-04-30") == Fraction("0.9") and rate_on(rates, "EUR", "2024-01-01") == 1


def test_asof_join_recomputed_from_the_prompt_and_graded() -> None:
    source, problem = _problem("data/asof_join", level=3)
    from palaestra.envs.data.asof_join import rate_on

    rates = [[c, d, int(Fraction(v) * 10000)] for c, d, v in _csv_after(problem.prompt, "currency):\n\n")[1:]]
    for tid, day, currency, amount in _csv_after(problem.prompt, "Transactions:\n\n")[1:]:
        assert Fraction(amount) * rate_on(rates, currency, day) == Fraction(problem.data["result"][tid])
    result = problem.data["result"]
    first = next(iter(result))
    verdict = source.verify(problem, ", ".join(f"{k} = {Fraction(v) + 1 if k == first else v}" for k, v in result.items()))
    assert not verdict.correct and first in verdict.feedback


# stock_ledger ---------------------------------------------------------------------------------------------

def test_stock_ledger_replay_hand_checked() -> None:
    from palaestra.envs.data.stock_ledger import replay

    opening = {"lamp_W1": 5, "lamp_W2": 0}
    movements = [["transfer", "lamp", 4, "W1", "W2"],  # W1 1, W2 4
                 ["ship", "lamp", 3, "W1", ""],  # only 1 at W1: rejected
                 ["count", "lamp", 9, "", "W1"],  # W1 set to 9
                 ["ship", "lamp", 3, "W1", ""],  # now it fits: W1 6
                 ["receive", "lamp", 2, "", "W2"]]  # W2 6
    assert replay(opening, movements) == ({"lamp_W1": 6, "lamp_W2": 6}, [2])


def test_stock_ledger_grading() -> None:
    source, problem = _problem("data/stock_ledger", level=3)
    result = problem.data["result"]
    key = next(iter(result))
    verdict = source.verify(problem, ", ".join(f"{k} = {v + 1 if k == key else v}" for k, v in result.items()))
    assert not verdict.correct and key in verdict.feedback
    assert source.verify(problem, "\n".join(f"{k}: {v}" for k, v in reversed(list(result.items())))).correct


# funnel ---------------------------------------------------------------------------------------------------

def test_funnel_depth_hand_checked() -> None:
    from palaestra.envs.data.funnel import depth, funnel_counts

    steps = ["view", "cart", "pay"]
    out_of_order = [(0, "cart"), (60, "view"), (120, "pay")]  # the cart came before the view: step 1 only
    assert depth(out_of_order, steps, None) == 1
    late_start = [(0, "view"), (100, "cart"), (2000, "view"), (2100, "cart"), (2200, "pay")]
    assert depth(late_start, steps, 10) == 3  # the first view's cart is too early for a pay within 10 minutes
    assert depth([(0, "view"), (100, "cart"), (700, "pay")], steps, 10) == 2  # the pay is 11:40 after the view
    events = [[0, "Ada", "view"], [5, "Ada", "cart"], [9, "Bo", "view"], [1, "Cy", "pay"]]
    assert funnel_counts(events, steps, None) == [2, 1, 0]


def test_funnel_grading() -> None:
    source, problem = _problem("data/funnel", level=3)
    counts = problem.data["counts"]
    assert source.verify(problem, "[" + " ".join(map(str, counts)) + "]").correct
    verdict = source.verify(problem, ", ".join(str(c + 1) for c in counts))
    assert not verdict.correct and "step 1" in verdict.feedback
