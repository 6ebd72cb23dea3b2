"""The sql tool bounds every query in time with a mechanism that can kill it (#23 finding 4).

SQLite's progress handler counts virtual-machine steps, and a single step (a built-in function
over a large value) can run for seconds: in-process, a 0.5 s query ran for many seconds. The tool
runs queries in worker processes and kills one that overruns."""

from __future__ import annotations

import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from palaestra.tools.sql import WORKER_SLACK, SqlTool

LONG = "replace(" * 4 + "'aaaaaaaaaa'" + ",'a','aaaaaaaaaa')" * 4  # 100,000 characters
SLOW = ("WITH s(x) AS (SELECT " + LONG + ") SELECT "
        + " + ".join(["instr(x, substr(x, 1, 50000) || 'b')"] * 60) + " FROM s")


@pytest.fixture
def database(tmp_path: Path) -> str:
    path = tmp_path / "shop.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE items (name TEXT, price REAL)")
    conn.executemany("INSERT INTO items VALUES (?, ?)", [("pen", 1.5), ("book", 12.0)])
    conn.commit()
    conn.close()
    return str(path)


def test_a_query_slow_inside_one_step_is_stopped_on_time(database: str) -> None:
    tool = SqlTool(database, timeout=0.5)
    start = time.monotonic()
    reply = tool.call({"query": SLOW})
    took = time.monotonic() - start
    assert reply == "error: the query ran longer than 0.5 s and was stopped", reply
    assert took < 0.5 + WORKER_SLACK + 1.0, took
    assert tool.call({"query": "SELECT name FROM items ORDER BY price"}) == "name\npen\nbook\n(2 rows)"


def test_slow_clients_do_not_hold_up_a_benign_one(database: str) -> None:
    """Six hostile queries at once, then a benign one: answered, and promptly."""
    tool = SqlTool(database, timeout=0.5)
    with ThreadPoolExecutor(7) as pool:
        hostile = [pool.submit(tool.call, {"query": SLOW}) for _ in range(6)]
        time.sleep(0.1)
        start = time.monotonic()
        benign = pool.submit(tool.call, {"query": "SELECT count(*) FROM items"}).result(timeout=30)
        waited = time.monotonic() - start
        assert all(f.result(timeout=30).startswith("error: the query ran longer") for f in hostile)
    assert benign == "count(*)\n2\n(1 row)"
    # Before, the six ran one after another in-process, several seconds each, and the benign query
    # waited behind all of them (over 30 s); now it waits at most for a worker to be freed.
    assert waited < 8.0, waited


def test_text_to_sql_judges_the_model_query_in_a_killable_worker() -> None:
    """The judge runs the reference in-process (trusted) and the model's query in the tool's worker: the
    slow query's CPU is the worker's, and it is stopped at the judge's limit."""
    from palaestra import make_source

    task = make_source("tools/text_to_sql")
    problem = task.sample(0, 0)
    task.judge(problem, problem.data["sql"])  # warm: the database file and a worker exist
    start = time.process_time()
    verdict = task.judge(problem, SLOW)
    spent = time.process_time() - start
    assert not verdict.correct and "was stopped" in verdict.feedback, verdict
    assert spent < 0.4, f"{spent:.2f} s of this process's CPU: the query ran in-process"
