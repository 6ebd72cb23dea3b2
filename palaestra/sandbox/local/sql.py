"""``language="sql"``: SQLite, in-process in the sandboxed job, and its machine-readable output.

The job's (confined) interpreter opens the database, prepares it, runs the candidate's SQL
statement by statement, and prints one JSON line per statement that returns rows:

- database: ``database.sqlite`` from ``files`` if given (a copy in the scratch dir: changes
  never leave the job), else an in-memory one;
- ``setup.sql`` from ``files``, if given, runs first, unrestricted (it is the caller's);
- then the source, split into statements; ``ATTACH``/``DETACH`` and ``load_extension`` are
  refused by an authorizer (and Landlock would keep a database outside the scratch dir
  unreadable anyway);
- stdout: for each statement with a result (``SELECT``, ``PRAGMA``, ``... RETURNING``) one line
  ``{"columns": [names], "rows": [[values], ...]}``, in order. Values: integers and text as
  JSON integers and strings, reals as JSON numbers (``{"real": "inf"}``, ``"-inf"`` or ``"nan"``
  when not finite), ``NULL`` as ``null``, blobs as ``{"blob": "<hex>"}``. Rows are streamed,
  so a huge result is cut by ``Limits.output_bytes`` (``output_truncated``, an unfinished line).
- on the first failing statement: a line ``{"error": "<message>", "statement": <index>}`` and
  exit status 1 (earlier results stay printed). Exit status 0 otherwise.

Example::

    r = sandbox.run("SELECT name, n FROM t ORDER BY n", language="sql",
                    files={"setup.sql": "CREATE TABLE t(name TEXT, n INT); INSERT INTO t VALUES ('a', 2), ('b', 1);"})
    json.loads(r.stdout)   # {'columns': ['name', 'n'], 'rows': [['b', 1], ['a', 2]]}
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Iterator
from typing import Any, NoReturn

from .runner import _finish

DATABASE = "database.sqlite"
SETUP = "setup.sql"
FETCH = 256  # rows per fetch: results are streamed, never held whole
_DENIED_ACTIONS = {24, 25}  # SQLITE_ATTACH, SQLITE_DETACH
_FUNCTION = 31  # SQLITE_FUNCTION: arg2 is the function's name


def statements(sql: str) -> Iterator[str]:
    """The statements of ``sql``, split where SQLite itself sees one end (quotes, comments and
    triggers' inner semicolons respected); a trailing unterminated statement comes last."""
    import sqlite3

    start = 0
    for end, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : end + 1]):
            yield sql[start : end + 1]
            start = end + 1
    rest = sql[start:]
    if rest.strip():
        yield rest


def _value(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"blob": value.hex()}
    if isinstance(value, float) and not math.isfinite(value):
        return {"real": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    return value


def _authorize(action: int, arg1: Any, arg2: Any, *_: Any) -> int:
    if action in _DENIED_ACTIONS or (action == _FUNCTION and str(arg2).lower() == "load_extension"):
        return 1  # SQLITE_DENY
    return 0  # SQLITE_OK


def _emit(cursor: Any) -> None:
    write = sys.stdout.write
    write('{"columns": ' + json.dumps([d[0] for d in cursor.description]) + ', "rows": [')
    first = True
    while rows := cursor.fetchmany(FETCH):
        for row in rows:
            write(("" if first else ", ") + json.dumps([_value(v) for v in row]))
            first = False
    write("]}\n")


def run(source: str) -> int:
    """Run the job's SQL (see the module docstring); the exit status."""
    import sqlite3

    index = 0  # of the statement running, for the error line
    try:
        connection = sqlite3.connect(DATABASE if os.path.exists(DATABASE) else ":memory:", isolation_level=None)
        if os.path.exists(SETUP):
            with open(SETUP, encoding="utf-8") as f:
                connection.executescript(f.read())
        connection.set_authorizer(_authorize)
        if hasattr(connection, "setlimit"):  # Python >= 3.11
            connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        for statement in statements(source):
            cursor = connection.execute(statement)
            if cursor.description is not None:
                _emit(cursor)
            index += 1
    except (sqlite3.Error, sqlite3.Warning, OSError, UnicodeDecodeError) as exc:
        sys.stdout.write(json.dumps({"error": f"{type(exc).__name__}: {exc}", "statement": index}) + "\n")
        return 1
    return 0


def run_main(source: str) -> NoReturn:
    """Run the SQL job and end the process (after the runner's usual flush)."""
    try:
        status = run(source)
    except MemoryError:
        os.write(2, b"MemoryError\n")
        status = 1
    _finish(status)
