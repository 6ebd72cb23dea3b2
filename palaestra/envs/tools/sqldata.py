"""Generated databases for the SQL tasks: drawing one per problem, running queries read-only, and a
thinned twin database that tells a query computing the answer from one that just states it.

A problem stores the database's spec (:func:`palaestra.generators.database.database_spec`), never
its rows. Judging a text-to-SQL answer runs it read-only (the ``sql`` tool's connection and query
runner, with their limits) on the database and on a *thinned twin*: the same tables with about
30% of each table's rows dropped (deterministically). A query equivalent to the reference
gives the reference's result on both; a query that hard-codes the result it saw through the tool
(``SELECT 17``, ``VALUES ('a', 3)``) matches on the first only.

Example::

    >>> import random
    >>> from palaestra.generators.database import DatabaseParams
    >>> seed, db = draw_database(random.Random(0), DatabaseParams(tables=3, rows=20))
    >>> twin = thinned(db, 0)
    >>> [t.name for t in twin.tables] == [t.name for t in db.tables]
    True
    >>> sum(len(t.rows) for t in twin.tables) < sum(len(t.rows) for t in db.tables)
    True
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import OrderedDict

from palaestra.core import derive_seed
from palaestra.generators.database import Database, DatabaseParams, build_database
from palaestra.tools.sql import QueryResult, connect_readonly, run_query

JUDGE_SECONDS = 0.5  # per query when judging (the sql tool's own limit)
JUDGE_ROWS = 10_000
KEEP_SHARE = 0.7  # rows kept in the thinned twin


def draw_database(rng: random.Random, params: DatabaseParams) -> tuple[int, Database]:
    """A fresh database seed and its database (cached per process, written to a file on first query)."""
    seed = rng.getrandbits(32)
    return seed, build_database(seed, params)


def execute(db: Database, query: str, timeout: float = JUDGE_SECONDS) -> QueryResult:
    """Run ``query`` (model text or a reference) read-only on ``db`` with the sql tool's limits; never raises
    on bad SQL (an error result). Raises only when the database file cannot be opened."""
    conn = connect_readonly(db.path)
    try:
        return run_query(conn, query, max_rows=JUDGE_ROWS, timeout=timeout)
    finally:
        conn.close()


THINNED_CACHE_SIZE = 16
_thinned_cache: OrderedDict[tuple[str, int], Database] = OrderedDict()
_thinned_lock = threading.Lock()


def thinned(db: Database, salt: int) -> Database:
    """The database with about 30% of every table's rows dropped (the same ``salt``, the same rows);
    a few are cached per process."""
    cache_key = (db.key, salt)
    with _thinned_lock:
        if cache_key in _thinned_cache:
            _thinned_cache.move_to_end(cache_key)
            return _thinned_cache[cache_key]
    rng = random.Random(derive_seed("thinned", db.key, salt))
    tables = []
    for table in db.tables:
        kept = tuple(row for row in table.rows if rng.random() < KEEP_SHARE)
        tables.append(dataclasses.replace(table, rows=kept if len(kept) >= 2 else table.rows[:2]))
    twin = Database(f"{db.key}|thinned:{salt}", db.domain, tables)
    with _thinned_lock:
        _thinned_cache[cache_key] = twin
        while len(_thinned_cache) > THINNED_CACHE_SIZE:
            _thinned_cache.popitem(last=False)
    return twin


def schema_block(db: Database) -> str:
    return f"The SQLite database has these tables:\n\n{db.schema_sql()}"
