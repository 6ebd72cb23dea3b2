"""The read-only SQL tool: results, limits, and hostile SQL that must be refused or stopped
in bounded time, leaving the database unchanged and the tool working."""

from __future__ import annotations

import glob
import hashlib
import json
import os
import resource
import sqlite3
import sys
import tempfile
import time

import pytest

from palaestra.core import Problem
from palaestra.generators.database import DatabaseParams, build_database, database_from_spec, database_spec
from palaestra.tools.sql import (
    MAX_QUERY_CHARS,
    QueryResult,
    SqlTool,
    connect_readonly,
    format_table,
    results_match,
    run_query,
)

PARAMS = DatabaseParams(domain="retail", tables=8, rows=300)


@pytest.fixture(scope="module")
def db():
    return build_database(17, PARAMS)


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_schema_and_results_as_a_compact_table(db) -> None:
    schema = SqlTool().schema()
    assert schema["function"]["name"] == "sql" and schema["function"]["parameters"]["required"] == ["query"]
    tool = SqlTool(db)
    top = sorted(db.table("products").rows, key=lambda r: -r[3])[:2]
    out = tool.call({"query": "SELECT name, price FROM products ORDER BY price DESC LIMIT 2"})
    assert out == f"name | price\n{top[0][1]} | {top[0][3]!r}\n{top[1][1]} | {top[1][3]!r}\n(2 rows)"
    nulls = sum(1 for r in db.table("customers").rows if r[2] is None)
    assert tool.call({"query": "SELECT COUNT(*) AS n FROM customers WHERE email IS NULL"}) == f"n\n{nulls}\n(1 row)"
    assert "NULL" in tool.call({"query": "SELECT email FROM customers WHERE email IS NULL LIMIT 1"})
    assert tool.call({"query": "PRAGMA table_info(orders)"}).startswith("cid | name | type")
    assert "orders" in tool.call({"query": "SELECT name FROM sqlite_master WHERE type = 'table'"})
    assert tool.call({"query": "-- a comment\n/* another */ SELECT 1 + 1"}) == "1 + 1\n2\n(1 row)"
    assert tool.call({"query": "SELECT 1;"}) == "1\n1\n(1 row)"


def test_row_and_size_caps(db) -> None:
    tool = SqlTool(db, max_rows=5, max_chars=300)
    out = tool.call({"query": "SELECT * FROM order_items"})
    lines = out.splitlines()
    assert len(lines) <= 7 and lines[-1].endswith("narrow the query or add LIMIT)") and len(out) <= 400
    wide = tool.call({"query": "SELECT group_concat(name) FROM customers"})
    assert len(wide) <= 400 and "..." in wide
    result = QueryResult(("a",), tuple((i,) for i in range(10)), False)
    assert format_table(result, max_chars=12).endswith(
        "(first 5 rows shown; 10 rows in all: narrow the query or add LIMIT)")
    assert format_table(QueryResult(("a|b",), (("x\ny|z",),))) == "a|b\nx\\ny\\|z\n(1 row)"


HOSTILE = [
    # writes and schema changes
    "DELETE FROM orders", "INSERT INTO regions VALUES (99, 'x', NULL)", "UPDATE products SET price = 0",
    "REPLACE INTO regions VALUES (1, 'x', NULL)", "CREATE TABLE t (a)", "CREATE TEMP TABLE t (a)",
    "CREATE VIEW v AS SELECT 1", "CREATE INDEX i ON orders (status)", "DROP TABLE orders",
    "ALTER TABLE orders ADD COLUMN x", "CREATE TRIGGER t AFTER INSERT ON orders BEGIN SELECT 1; END",
    "WITH x AS (SELECT 1) DELETE FROM orders", "INSERT INTO orders SELECT * FROM orders",
    # files, attachments, pragmas, maintenance
    "ATTACH DATABASE '{tmp}/evil.db' AS e", "ATTACH ':memory:' AS m", "DETACH main", "VACUUM",
    "VACUUM INTO '{tmp}/evil2.db'", "PRAGMA query_only = 0", "PRAGMA writable_schema = 1",
    "PRAGMA journal_mode = WAL", "PRAGMA temp_store_directory = '{tmp}'", "PRAGMA foreign_keys = 0",
    "PRAGMA user_version = 7", "ANALYZE", "REINDEX", "BEGIN", "COMMIT", "SAVEPOINT s", "RELEASE s",
    "SELECT load_extension('{tmp}/x.so')", "SELECT writefile('{tmp}/f', 'x')", "SELECT readfile('/etc/passwd')",
    "SELECT * FROM pragma_table_info('orders')", "SELECT randomblob(10)", "SELECT zeroblob(1000000000)",
    "SELECT random()", "SELECT sqlite_version()",
    # several statements
    "SELECT 1; DROP TABLE orders", "SELECT 1; SELECT 2", "SELECT 1;; DELETE FROM orders",
    # unbounded work
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c ORDER BY x DESC",
    "WITH RECURSIVE c(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM c) SELECT length(s) FROM c",
    "SELECT COUNT(*) FROM order_items a, order_items b, order_items c, order_items d",
    "SELECT a.item_id FROM order_items a, order_items b, order_items c ORDER BY a.quantity * b.unit_price * c.quantity",
    "SELECT DISTINCT a.name || b.name || c.name FROM customers a, customers b, customers c",
    "SELECT group_concat(a.name) FROM customers a, customers b",
    "SELECT printf('%.*c', 1000000000, 'x')", "SELECT format('%1000000000d', 1)",
    "WITH RECURSIVE c(s, n) AS (SELECT 'a', 0 UNION ALL SELECT s || s, n + 1 FROM c WHERE n < 15) "
    "SELECT instr(max(s) || max(s) || 'b', substr(max(s), 1, 30000) || 'b') FROM c",
    "WITH RECURSIVE c(s, n) AS (SELECT 'a', 0 UNION ALL SELECT s || s, n + 1 FROM c WHERE n < 15) "
    "SELECT replace(max(s), 'a', max(s)) FROM c",
    "SELECT 'a' LIKE '" + "%a" * 500 + "b'",
    "SELECT " + "(" * 5000 + "1" + ")" * 5000,
    "SELECT " + " + ".join(["1"] * 2400),
    # huge, empty and strange input
    "x" * 1_000_000, "SELECT '" + "x" * 1_000_000 + "'", "", "  \n ", "\x00SELECT 1", "SELECT '\udcff'",
    "SELECT '日本語 🎉' AS ünïcode", "🎉", "SELECT * FROM nowhere", "SELEC 1",
]


def test_hostile_sql_is_refused_or_bounded_and_harmless(db) -> None:
    path = db.path
    before = digest(path)
    scratch = tempfile.mkdtemp(prefix="sql-hostile-")
    tool = SqlTool(db)
    expected = tool.call({"query": "SELECT COUNT(*), SUM(quantity) FROM order_items"})
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for template in HOSTILE:
        query = template.replace("{tmp}", scratch)
        start = time.process_time()
        out = tool.call({"query": query})
        elapsed = time.process_time() - start
        assert elapsed < 1.0, (query[:80], elapsed)
        assert isinstance(out, str) and len(out) <= tool.max_chars + 200, query[:80]
        assert tool.infrastructure_error is None, (query[:80], tool.infrastructure_error)
        if query.lstrip().upper().startswith(("DELETE", "INSERT", "UPDATE", "REPLACE", "CREATE", "DROP", "ALTER",
                                               "ATTACH", "DETACH", "VACUUM", "PRAGMA QUERY", "PRAGMA WRIT",
                                               "ANALYZE", "BEGIN", "WITH X AS")):
            assert out.startswith("error: not allowed"), (query, out)
        assert tool.call({"query": "SELECT COUNT(*), SUM(quantity) FROM order_items"}) == expected, query[:80]
    growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
    assert growth_mb < 300, growth_mb
    assert digest(path) == before
    assert os.listdir(scratch) == []
    assert glob.glob(os.path.join(os.path.dirname(path), "*-journal")) == []
    os.rmdir(scratch)


def test_timeouts_and_caps_report_what_happened(db) -> None:
    tool = SqlTool(db, timeout=0.2)
    out = tool.call({"query": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"})
    assert out == "error: the query ran longer than 0.2 s and was stopped"
    assert tool.call({"query": "SELECT 1; SELECT 2"}) == "error: one SQL statement per call"
    assert tool.call({"query": "x" * (MAX_QUERY_CHARS + 1)}) == f"error: query longer than {MAX_QUERY_CHARS} characters"
    if sys.version_info >= (3, 11):
        doubling = "WITH RECURSIVE c(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM c) SELECT length(s) FROM c"
        assert tool.call({"query": doubling}) == "error: string or blob too big"
    streamed = tool.call({"query": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"})
    assert streamed.splitlines()[1] == "1" and "more rows exist" in streamed


def test_run_query_never_raises_and_connection_stays_read_only(db) -> None:
    conn = connect_readonly(db.path)
    try:
        assert run_query(conn, "SELECT COUNT(*) FROM orders").rows == ((len(db.table("orders").rows),),)
        assert run_query(conn, 12).error == "the query must be a string"  # type: ignore[arg-type]
        bad = run_query(conn, "DELETE FROM orders")
        assert bad.error and bad.error.startswith("not allowed")
        with pytest.raises(sqlite3.DatabaseError):  # even outside run_query, the authorizer holds
            conn.execute("DELETE FROM orders")
        result = run_query(conn, "SELECT order_id FROM orders", max_rows=3)
        assert len(result.rows) == 3 and result.truncated
    finally:
        conn.close()


def test_bind_follows_the_problem_database_spec() -> None:
    tool = SqlTool()  # as the tool-use wrapper makes it: no database until bind
    assert tool.call({"query": "SELECT 1"}) == "error: the sql tool has no database" and tool.infrastructure_error
    missing = SqlTool(os.path.join(tempfile.gettempdir(), "no-such-palaestra-db.sqlite"))
    assert missing.call({"query": "SELECT 1"}) == "error: the database is unavailable" and missing.infrastructure_error
    retail = database_spec(1, DatabaseParams(domain="retail", tables=2, rows=10))
    school = json.loads(json.dumps(database_spec(2, DatabaseParams(domain="school", tables=2, rows=10))))
    tool.bind(Problem(env_id="tools/x", data={"database": retail}))
    assert "regions" in tool.call({"query": "SELECT name FROM sqlite_master"})
    tool.bind(Problem(env_id="tools/x", data={"database": school}))
    assert "departments" in tool.call({"query": "SELECT name FROM sqlite_master"})
    tool.bind(Problem(env_id="tools/y", data={}))
    assert tool.call({"query": "SELECT 1"}) == "error: the sql tool has no database"
    fixed = SqlTool(build_database(1, DatabaseParams(domain="retail", tables=2, rows=10)))
    fixed.bind(Problem(env_id="tools/y", data={}))
    assert "regions" in fixed.call({"query": "SELECT name FROM sqlite_master"})
    custom = SqlTool(resolve=lambda problem: database_from_spec(school))
    custom.bind(Problem(env_id="tools/x", data={"database": retail}))
    assert "departments" in custom.call({"query": "SELECT name FROM sqlite_master"})
    for t in (tool, fixed, custom, missing):
        t.close()
        t.close()


def test_results_match_is_a_multiset_comparison() -> None:
    rows = [(1, "x", 2.5), (2, "y", None), (2, "y", None)]
    assert results_match(rows, list(reversed(rows)), ordered=False)
    assert not results_match(rows, list(reversed(rows)), ordered=True)
    assert results_match(rows, [(2.0, "y", None), (1.0, "x", 2.5000000001), (2, "y", None)], ordered=False)
    assert results_match(rows, [("x", 2.5, 1), ("y", None, 2), ("y", None, 2)], ordered=False)  # columns moved
    assert not results_match(rows, rows[:2], ordered=False)  # a duplicate lost
    assert not results_match(rows, [(1, "x", 2.5), (2, "y", None), (3, "y", None)], ordered=False)
    assert not results_match(rows, [(1, "x"), (2, "y"), (2, "y")], ordered=False)  # a column lost
    assert not results_match([(1,)], [("1",)], ordered=False)  # a string is not a number
    assert not results_match([(1.0,)], [(1.01,)], ordered=False)
    assert results_match([], [], ordered=True)
    assert not results_match([(None,)], [(0,)], ordered=False)
