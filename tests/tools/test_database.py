"""Generated SQLite databases and SQL questions: structure, determinism (same seed, same bytes)
and ground truths recomputed in Python from each question's spec, without SQL."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from palaestra.generators.database import (
    DOMAINS,
    QUESTION_KINDS,
    Database,
    DatabaseParams,
    SqlQuestion,
    build_database,
    database_from_spec,
    database_spec,
    generate_database,
    sql_question,
)
from palaestra.tools.sql import results_match


def file_digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.mark.parametrize("domain", sorted(DOMAINS))
@pytest.mark.parametrize("tables", [2, 5, 8])
def test_structure_foreign_keys_types_and_nulls(domain: str, tables: int) -> None:
    db = build_database(1, DatabaseParams(domain=domain, tables=tables, rows=60))
    assert db.domain == domain and len(db.tables) == tables
    names = [t.name for t in db.tables]
    assert len(set(names)) == tables
    conn = sqlite3.connect(f"file:{db.path}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []  # every reference resolves
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == names
        for table in db.tables:
            assert conn.execute(f"SELECT COUNT(*) FROM {table.name}").fetchone()[0] == len(table.rows) >= 3
            declared = {row[1]: (row[2], row[3], row[5]) for row in conn.execute(f"PRAGMA table_info({table.name})")}
            for i, column in enumerate(table.columns):
                sql_type, not_null, primary = declared[column.name]
                assert sql_type == column.sql_type and bool(primary) == column.primary_key
                assert bool(not_null) == (not column.nullable and not column.primary_key)
                values = [row[i] for row in table.rows]
                expected = {"INTEGER": int, "BOOLEAN": int, "REAL": float, "TEXT": str, "DATE": str}[column.sql_type]
                assert all(v is None or type(v) is expected for v in values), (table.name, column.name)
                if not column.nullable:
                    assert None not in values
                if column.primary_key:
                    assert values == list(range(1, len(values) + 1))
                if column.references:
                    assert column.references in names[: names.index(table.name)]  # parents come first
                if column.sql_type == "DATE":
                    assert all(v is None or (len(v) == 10 and v[4] == v[7] == "-") for v in values)
            if table.label:
                labels = table.values(table.label)
                assert len(set(labels)) == len(labels), f"{table.name}.{table.label} must name rows uniquely"
            for fk in (c for c in table.columns if c.references):
                parent = db.table(fk.references)
                linked = set(table.values(fk.name)) - {None}
                assert linked <= set(range(1, len(parent.rows) + 1))
    finally:
        conn.close()


def test_tables_are_connected_and_nulls_follow_the_knob() -> None:
    for seed in range(10):
        db = generate_database(random.Random(seed), DatabaseParams(tables=4, rows=50))
        edges = {(t.name, c.references) for t in db.tables for c in t.columns if c.references}
        reached, frontier = {db.tables[0].name}, [db.tables[0].name]
        for _ in range(10):
            frontier = [b for a, b in edges if a in frontier and b not in reached] + \
                       [a for a, b in edges if b in frontier and a not in reached]
            reached.update(frontier)
        assert reached == {t.name for t in db.tables}

    def null_share(null_rate: float) -> float:
        params = DatabaseParams(domain="library", tables=8, rows=200, null_rate=null_rate)
        db = generate_database(random.Random(3), params)
        cells = [v for t in db.tables for c in t.columns if c.nullable for v in t.values(c.name)]
        return sum(v is None for v in cells) / len(cells)

    assert null_share(0.0) == 0.0 and 0.1 < null_share(1.0) < 0.4


def test_same_seed_same_bytes_and_sizes_scale() -> None:
    params = DatabaseParams(domain="school", tables=6, rows=80)
    a = generate_database(random.Random(5), params)
    b = generate_database(random.Random(5), params)
    c = generate_database(random.Random(6), params)
    assert a.tables == b.tables and a.tables != c.tables
    paths = []
    for db, name in ((a, "a"), (b, "b"), (c, "c")):
        path = os.path.join(os.path.dirname(build_database(0, params).path), f"copy-{name}-{os.getpid()}.sqlite")
        db.write(path)
        paths.append(path)
    try:
        assert file_digest(paths[0]) == file_digest(paths[1]) != file_digest(paths[2])
    finally:
        for path in paths:
            os.remove(path)
    small = build_database(5, DatabaseParams(domain="retail", tables=8, rows=20))
    large = build_database(5, DatabaseParams(domain="retail", tables=8, rows=400))
    assert sum(len(t.rows) for t in large.tables) > 10 * sum(len(t.rows) for t in small.tables)


def test_database_bytes_are_the_same_in_a_fresh_process() -> None:
    spec = database_spec(42, DatabaseParams(tables=5, rows=50))
    here = file_digest(database_from_spec(spec).path)
    code = ("import hashlib\nfrom palaestra.generators.database import database_from_spec\n"
            f"print(hashlib.sha256(open(database_from_spec({spec!r}).path, 'rb').read()).hexdigest())")
    for hash_seed in ("0", "7"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert out.stdout.strip() == here
    assert json.loads(json.dumps(spec)) == spec
    assert database_from_spec(spec) is database_from_spec(spec)


# --- questions: ground truth recomputed from the spec, in Python -------------------------------


def as_dicts(db: Database, table: str) -> list[dict[str, Any]]:
    t = db.table(table)
    return [dict(zip([c.name for c in t.columns], row)) for row in t.rows]


def holds(row: dict[str, Any], cond: dict[str, Any] | None) -> bool:
    if cond is None:
        return True
    value, op, target = row[cond["column"]], cond["op"], cond["value"]
    if op == "IS NULL":
        return value is None
    if op == "IS NOT NULL":
        return value is not None
    if value is None:
        return False
    return {">": value > target, "<": value < target, ">=": value >= target, "<=": value <= target,
            "=": value == target}[op]


def pk(db: Database, table: str) -> str:
    return db.table(table).columns[0].name


def evaluate(db: Database, spec: dict[str, Any]) -> list[tuple]:
    kind = spec["kind"]
    if kind == "count_where":
        return [(sum(holds(r, spec["where"]) for r in as_dicts(db, spec["table"])),)]
    if kind == "aggregate":
        values = [r[spec["column"]] for r in as_dicts(db, spec["table"])
                  if holds(r, spec["where"]) and r[spec["column"]] is not None]
        if not values:
            return [(None,)]
        result = {"AVG": sum(values) / len(values), "SUM": sum(values), "MIN": min(values),
                  "MAX": max(values)}[spec["function"]]
        return [(round(result, spec["round"]) if spec["round"] else result,)]
    if kind == "argmax":
        rows = [r for r in as_dicts(db, spec["table"]) if r[spec["column"]] is not None]
        best = (max if spec["highest"] else min)(rows, key=lambda r: r[spec["column"]])
        return [(best[spec["label"]],)]
    if kind in ("count_join", "count_join2"):
        parents = {r[pk(db, spec["parent"])]: r for r in as_dicts(db, spec["parent"])}
        if kind == "count_join2":
            middle = {r[pk(db, spec["middle"])]: parents.get(r[spec["fk2"]]) for r in as_dicts(db, spec["middle"])}
            parents = middle
        return [(sum(1 for r in as_dicts(db, spec["child"])
                     if parents.get(r[spec["fk"]]) is not None and holds(parents[r[spec["fk"]]], spec["where"])),)]
    if kind == "count_without":
        used = {r[spec["fk"]] for r in as_dicts(db, spec["child"])}
        return [(sum(1 for r in as_dicts(db, spec["parent"]) if r[pk(db, spec["parent"])] not in used),)]
    if kind in ("group_count", "having"):
        counts = Counter(r[spec["fk"]] for r in as_dicts(db, spec["child"]) if r[spec["fk"]] is not None)
        parents = as_dicts(db, spec["parent"])
        if kind == "group_count":
            return [(p[spec["label"]], counts[p[pk(db, spec["parent"])]]) for p in parents]
        return [(p[spec["label"]],) for p in parents if counts[p[pk(db, spec["parent"])]] >= spec["min_count"]]
    if kind == "top_n":
        rows = sorted((r for r in as_dicts(db, spec["table"]) if r[spec["column"]] is not None),
                      key=lambda r: r[spec["column"]], reverse=True)
        return [(r[spec["label"]], r[spec["column"]]) for r in rows[: spec["n"]]]
    if kind == "above_average":
        rows = as_dicts(db, spec["table"])
        values = [r[spec["column"]] for r in rows if r[spec["column"]] is not None]
        mean = sum(values) / len(values) if values else None
        return [(sum(1 for v in values if mean is not None and v > mean),)]
    raise AssertionError(kind)


@pytest.mark.parametrize("tier", sorted(QUESTION_KINDS))
def test_question_ground_truth_matches_a_python_evaluation(tier: int) -> None:
    seen = Counter()
    for seed in range(12):
        db = build_database(seed, DatabaseParams(tables=8, rows=40))
        rng = random.Random(seed)
        for kind in QUESTION_KINDS[tier]:
            q = sql_question(db, rng, tier, kind)
            seen[kind] += 1
            assert q.tier == tier and q.spec["kind"] == kind and q.text.endswith(("?", ".", "places."))
            expected = evaluate(db, q.spec)
            assert results_match(expected, q.rows, ordered=q.ordered, rel_tol=1e-3), (q.text, expected, q.rows)
            if q.answer is not None:
                assert len(q.rows) == 1 and len(q.rows[0]) == 1 and q.answer == str(q.rows[0][0])
            round_trip = SqlQuestion.from_dict(json.loads(json.dumps(q.to_dict())))
            assert round_trip == q
    assert set(seen) == set(QUESTION_KINDS[tier])


def test_questions_are_deterministic_and_fit_small_databases() -> None:
    db = build_database(3, DatabaseParams(domain="retail", tables=2, rows=30))
    for tier in QUESTION_KINDS:
        a = sql_question(db, random.Random(9), tier)
        b = sql_question(db, random.Random(9), tier)
        assert a == b
    with pytest.raises(ValueError):
        DatabaseParams(tables=9)
    with pytest.raises(ValueError):
        DatabaseParams(domain="space")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_forked_workers_write_their_files_under_the_parents_root() -> None:
    from palaestra.generators import database as module

    parent_path = build_database(1, DatabaseParams(tables=2, rows=10)).path
    root = module._files_state["root"]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reports its file's path and leaves as a pool worker does (no atexit)
        try:
            child_path = build_database(2, DatabaseParams(tables=2, rows=10)).path
            os.write(write, child_path.encode())
        finally:
            os._exit(0)
    os.close(write)
    child_path = os.read(read, 4096).decode()
    os.close(read)
    os.waitpid(pid, 0)
    assert child_path.startswith(root + os.sep) and os.path.exists(child_path)
    assert os.path.dirname(child_path) != os.path.dirname(parent_path)
