"""Red team r31: code/sql_window's hidden tables pin the stated tie rules (v2: DENSE_RANK() <= n passed 0.24-0.40
of the top-N problems that keep boundary ties, at levels 2-4; other tie-rule slips up to 0.12)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from palaestra import sandbox
from palaestra.core.registry import make_source
from palaestra.verifiers.polyglot import fence

SQL = make_source("code/sql_window")


def _groups(rows: list[dict[str, Any]], group: str) -> list[list[dict[str, Any]]]:
    parts: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        parts[row[group]].append(row)
    return list(parts.values())


def _top(p: dict[str, Any], cols: tuple[str, str, str], rows: list[dict[str, Any]], rule: str) -> list[list[Any]]:
    """Rows kept by ``rule(...) <= n`` over each group (ties ordered by increasing id)."""
    ident, group, value = cols
    sign = -1 if p["largest"] else 1
    kept = []
    for part in _groups(rows, group):
        values = [sign * r[value] for r in part]
        for number, r in enumerate(sorted(part, key=lambda r: (sign * r[value], r[ident])), start=1):
            v = sign * r[value]
            place = {"row_number": number, "rank": 1 + sum(o < v for o in values),
                     "dense_rank": 1 + len({o for o in values if o < v})}[rule]
            if place <= p["n"]:
                kept.append([r[group], r[ident]])
    return kept


def _beside(p: dict[str, Any], cols: tuple[str, str, str], rows: list[dict[str, Any]]) -> list[list[Any]]:
    """Rows at or above (at or below) their group's average: the non-strict slip."""
    ident, group, value = cols
    kept = []
    for part in _groups(rows, group):
        total, count = sum(r[value] for r in part), len(part)
        for r in part:
            if (r[value] * count >= total) if p["above"] else (r[value] * count <= total):
                kept.append([r[ident], count] if p["with_count"] else [r[ident]])
    return kept


def _same(a: list[list[Any]], b: list[list[Any]]) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


def _columns(problem: Any) -> tuple[str, str, str]:
    from palaestra.envs.code.sql_window import schema_of

    s = schema_of(problem.data["params"])
    return s.id, s.group, s.value


def _passes(problem: Any, slip: Any) -> bool:
    cols = _columns(problem)
    return all(_same(slip(problem.data["params"], cols, rows), expected)
               for rows, expected in zip(problem.data["tables"], problem.data["results"]))


def test_sql_r31_no_other_ranking_function_passes_a_top_n_problem() -> None:
    checked = 0
    for level in (2, 3, 4):
        for seed in range(60):
            problem = SQL.sample(level, seed)
            if problem.data["question"] != "top_n":
                continue
            stated = "rank" if problem.data["params"]["ties"] == "included" else "row_number"
            for rule in {"row_number", "rank", "dense_rank"} - {stated}:
                assert not _passes(problem, lambda p, c, r, rule=rule: _top(p, c, r, rule)), (level, seed, rule)
            checked += 1
    assert checked > 30


def test_sql_r31_a_non_strict_comparison_with_the_average_fails() -> None:
    checked = 0
    for level in (3, 4):
        for seed in range(80):
            problem = SQL.sample(level, seed)
            if problem.data["question"] == "above_average":
                assert not _passes(problem, _beside), (level, seed)
                checked += 1
    assert checked > 15


def test_sql_r31_the_dense_rank_query_is_rejected_in_the_sandbox() -> None:
    if not sandbox.probe().languages["sql"].available:
        pytest.skip("no SQL toolchain in the sandbox")
    problem = next(p for seed in range(200) if (p := SQL.sample(3, seed)).data["question"] == "top_n"
                   and p.data["params"]["ties"] == "included")
    gold = SQL.sources(problem)["sql"]
    assert SQL.verify(problem, fence(("sql", gold))).correct
    slip = gold.replace("RANK()", "DENSE_RANK()")
    assert slip != gold and not SQL.verify(problem, fence(("sql", slip))).correct
