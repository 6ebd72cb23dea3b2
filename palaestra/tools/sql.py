"""Read-only SQL over a SQLite database file: the ``sql`` tool and the query runner behind it.

Model-written SQL runs in this process, so every layer is a hard limit, not a convention:

- the file is opened through a ``file:...?mode=ro&immutable=1`` URI: SQLite itself refuses writes;
- an authorizer allows only reading: ``SELECT`` and reads of tables, recursive CTEs, an allow-list
  of deterministic built-in functions (no ``load_extension``, ``random``, ``randomblob``,
  ``zeroblob``, and no ``printf``/``format``, whose width argument loops inside one step, out of
  the progress handler's reach) and a few introspection pragmas (``table_info``, ``foreign_key_list``, ...).
  Everything else is denied at prepare time: INSERT/UPDATE/DELETE, CREATE/DROP/ALTER (temporary
  objects included), ATTACH/DETACH (and so ``VACUUM INTO``, which writes a file by attaching it),
  transactions, pragma assignments, ANALYZE, REINDEX;
- extension loading stays disabled;
- a progress handler aborts a statement after ``timeout`` seconds (infinite recursive CTEs, huge
  cartesian products, sorts), checked every few hundred virtual-machine instructions;
- ``Connection.setlimit`` (Python 3.11+) caps strings and blobs at ``MAX_VALUE_BYTES`` (so
  ``printf('%.*c', ...)``, ``replace`` or ``||`` cannot build huge values), statements at
  ``MAX_QUERY_CHARS`` and LIKE/GLOB patterns at ``MAX_PATTERN_CHARS``; on Python 3.10 SQLite's
  compiled-in limits apply instead (strings up to 1 GB: a doubling ``s || s`` could then allocate
  that much before an error);
- a statement must start with SELECT, WITH, VALUES, PRAGMA or EXPLAIN (after comments), one
  statement per call (Python's sqlite3 refuses a second), rows fetched up to a cap, each cell
  and the whole reply cut to a size.

Errors come back as text (``error: ...``), never as exceptions.

The progress handler counts virtual-machine steps, and one step can run for seconds (a built-in
function over a large value), so the tool runs its queries in worker processes
(:func:`run_query_isolated`): a worker that has burnt ``WORKER_SLACK`` seconds of CPU past the
query's time limit is killed (and its CPU time is capped by ``RLIMIT_CPU`` besides), and the
caller gets "stopped" instead of a thread that burns CPU after its client left.

Example::

    tool = SqlTool("/path/to/db.sqlite")          # or SqlTool(database) for any object with .path
    tool.call({"query": "SELECT name, price FROM products ORDER BY price DESC LIMIT 2"})
    # 'name | price\\nTogond Femer | 464.37\\nHevro Furen | 429.99\\n(2 rows)'
    tool.call({"query": "DELETE FROM products"})
    # 'error: not allowed: the database is read-only ...'
"""

from __future__ import annotations

import marshal
import math
import os
import select
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.tools.base import Tool

MAX_QUERY_CHARS = 10_000
MAX_VALUE_BYTES = 100_000
MAX_PATTERN_CHARS = 200
PROGRESS_STEPS = 200  # virtual-machine instructions between two clock checks
WORKER_SLACK = 0.5  # seconds past a query's time limit before its worker process is killed
MAX_WORKERS = 2 * (os.cpu_count() or 1)  # concurrent isolated queries; more wait for a worker
WORKER_START_TIMEOUT = 60.0
WORKER_POLL = 0.05  # seconds between two looks at a running query's CPU time
WORKER_WALL_FACTOR = 10  # a starved worker's wall-clock allowance, in CPU allowances
STARVED = 0.1  # a worker that used less than this share of its allowance in CPU was starved, not busy
_TICKS = os.sysconf("SC_CLK_TCK")
WORKER_MEMORY = 1 << 30  # address space of a worker (the database is mapped read-only)

READ_PRAGMAS = frozenset({"table_info", "table_xinfo", "table_list", "foreign_key_list", "index_list",
                          "index_info", "index_xinfo"})
ALLOWED_FUNCTIONS = frozenset("""
abs avg char coalesce count date datetime glob group_concat hex ifnull iif instr julianday length like
likelihood likely lower ltrim max min nullif octet_length quote replace round rtrim sign
strftime string_agg substr substring sum time total trim typeof unhex unicode unixepoch unlikely upper
concat concat_ws
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2 mod pi pow
power radians sin sinh sqrt tan tanh trunc
json json_array json_array_length json_extract json_object json_type json_valid json_quote json_group_array
json_group_object json_each json_tree
""".split())

_ALLOWED_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE}


def _authorize(action: int, arg1: str | None, arg2: str | None, database: str | None, trigger: str | None) -> int:
    if action in _ALLOWED_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION and arg2 is not None and arg2.lower() in ALLOWED_FUNCTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and arg1 is not None and arg1.lower() in READ_PRAGMAS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def connect_readonly(path: str) -> sqlite3.Connection:
    """A connection to the SQLite file at ``path`` that can only read (see the module docstring).

    The caller must not run statements of its own on it after handing it to model text: the
    authorizer applies to every statement.
    """
    uri = "file:" + path.replace("?", "%3f").replace("#", "%23") + "?mode=ro&immutable=1"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    if hasattr(conn, "enable_load_extension"):  # absent when Python was built without extension support
        conn.enable_load_extension(False)
    if hasattr(conn, "setlimit"):  # Python 3.11+
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_QUERY_CHARS * 4)
        conn.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, MAX_PATTERN_CHARS)
        conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    conn.set_authorizer(_authorize)
    return conn


@dataclass(frozen=True)
class QueryResult:
    """What one query returned: column names and rows (at most ``max_rows``), or an error."""

    columns: tuple[str, ...] = ()
    rows: tuple[tuple, ...] = ()
    truncated: bool = False  # more rows existed than were fetched
    error: str | None = None
    seconds: float = 0.0


def run_query(conn: sqlite3.Connection, query: str, max_rows: int = 50, timeout: float = 0.5) -> QueryResult:
    """Run one read-only statement of model text on ``conn`` (from :func:`connect_readonly`); never raises."""
    start = time.monotonic()
    if not isinstance(query, str):
        return QueryResult(error="the query must be a string")
    if len(query) > MAX_QUERY_CHARS:
        return QueryResult(error=f"query longer than {MAX_QUERY_CHARS} characters")
    if not query.strip():
        return QueryResult(error="empty query")
    if "\x00" in query:
        return QueryResult(error="the query contains a NUL character")
    if _first_keyword(query) not in STATEMENT_KEYWORDS:
        return QueryResult(error=_explain(sqlite3.DatabaseError("not authorized")))
    deadline = start + timeout
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), PROGRESS_STEPS)
    cursor = None
    try:
        cursor = conn.execute(query)
        columns = tuple(str(d[0])[:100] for d in cursor.description or ())
        rows = cursor.fetchmany(max_rows + 1)
        truncated = len(rows) > max_rows
        return QueryResult(columns, tuple(tuple(r) for r in rows[:max_rows]), truncated,
                           seconds=time.monotonic() - start)
    except sqlite3.Warning as exc:  # Python < 3.12 reports a second statement as a Warning
        return QueryResult(error=_explain(exc), seconds=time.monotonic() - start)
    except sqlite3.Error as exc:
        message = _explain(exc)
        if "interrupted" in message:
            message = f"the query ran longer than {timeout:g} s and was stopped"
        return QueryResult(error=message, seconds=time.monotonic() - start)
    except (OverflowError, MemoryError, ValueError, RecursionError) as exc:
        return QueryResult(error=f"{type(exc).__name__}: {str(exc)[:200]}", seconds=time.monotonic() - start)
    finally:
        if cursor is not None:
            try:
                cursor.close()
            except sqlite3.Error:
                pass
        conn.set_progress_handler(None, 0)


STATEMENT_KEYWORDS = frozenset({"select", "with", "values", "pragma", "explain"})


# --- queries in worker processes ------------------------------------------------------------

_FRAME = struct.Struct("<I")
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_WORKER_BOOT = """
import sys
sys.path.insert(0, sys.argv[1])
from palaestra.tools.sql import _worker_main
_worker_main()
"""


def _write_frame(fd: int, message: Any) -> None:
    data = marshal.dumps(message)
    view = memoryview(_FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes | None:
    """``size`` bytes from ``fd``, or None at EOF or once ``deadline`` (monotonic) has passed."""
    chunks, got = [], 0
    while got < size:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
        chunk = os.read(fd, size - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _read_frame(fd: int, deadline: float | None = None) -> Any:
    header = _read_exactly(fd, _FRAME.size, deadline)
    if header is None:
        return None
    body = _read_exactly(fd, _FRAME.unpack(header)[0], deadline)
    return None if body is None else marshal.loads(body)


def _worker_main() -> None:
    """A query worker: read (path, query, max rows, timeout) frames on stdin, answer on stdout."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    connections: dict[str, sqlite3.Connection] = {}
    _write_frame(1, "ready")
    while (request := _read_frame(0)) is not None:
        path, query, max_rows, timeout = request
        used = sum(os.times()[:2])
        budget = math.ceil(used + timeout + WORKER_SLACK) + 1  # a backstop for the caller's kill
        resource.setrlimit(resource.RLIMIT_CPU, (budget, budget + 1))
        try:
            if path not in connections:
                if len(connections) >= 8:
                    connections.pop(next(iter(connections))).close()
                connections[path] = connect_readonly(path)
            result = run_query(connections[path], query, max_rows, timeout)
        except sqlite3.Error as exc:
            result = QueryResult(error=f"the database is unavailable ({str(exc)[:200]})")
        _write_frame(1, (result.columns, result.rows, result.truncated, result.error, result.seconds))


class _Worker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _WORKER_BOOT, _PACKAGE_ROOT],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={}, close_fds=True,
        )
        assert self.proc.stdout is not None
        # Its start-up (an interpreter and this module) is not the first query's time.
        if _read_frame(self.proc.stdout.fileno(), time.monotonic() + WORKER_START_TIMEOUT) != "ready":
            self.kill()
            raise OSError("the query worker did not start")

    def query(self, path: str, query: str, max_rows: int, timeout: float) -> QueryResult | None:
        """The worker's result, or None when it did not answer in time (it is then killed)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        try:
            before = self.cpu_seconds()
            _write_frame(self.proc.stdin.fileno(), (path, query, max_rows, timeout))
            start = time.monotonic()
            # Killed timeout + WORKER_SLACK seconds after the query was sent, unless by then it has
            # hardly used the CPU (STARVED: a busy machine, not a hostile query); such a worker is
            # killed once it has burnt that much CPU, or at WORKER_WALL_FACTOR times it in wall time.
            allowance = timeout + WORKER_SLACK
            while not select.select([fd], [], [], WORKER_POLL)[0]:
                burnt, waited = self.cpu_seconds() - before, time.monotonic() - start
                if waited >= allowance and burnt >= STARVED * allowance:
                    raise TimeoutError
                if waited >= WORKER_WALL_FACTOR * allowance:
                    raise TimeoutError
            reply = _read_frame(fd, time.monotonic() + WORKER_START_TIMEOUT)
        except (OSError, ValueError, EOFError):  # TimeoutError included
            reply = None
        if reply is None:
            self.kill()
            return None
        columns, rows, truncated, error, seconds = reply
        return QueryResult(tuple(columns), tuple(rows), truncated, error, seconds)

    def cpu_seconds(self) -> float:
        """The worker's CPU time so far (user and system)."""
        with open(f"/proc/{self.proc.pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


class _WorkerPool:
    """Idle workers shared by every tool of this process (a forked child makes its own)."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.idle: list[_Worker] = []
        self.count = 0
        self.cond = threading.Condition()

    def take(self) -> _Worker:
        with self.cond:
            while not self.idle and self.count >= MAX_WORKERS:
                self.cond.wait()
            if self.idle:
                return self.idle.pop()
            self.count += 1
        try:
            return _Worker()
        except OSError:
            with self.cond:
                self.count -= 1
                self.cond.notify()
            raise

    def give_back(self, worker: _Worker | None) -> None:
        with self.cond:
            if worker is None:
                self.count -= 1
            else:
                self.idle.append(worker)
            self.cond.notify()


_pool: _WorkerPool | None = None
_pool_lock = threading.Lock()


def run_query_isolated(path: str, query: str, max_rows: int = 50, timeout: float = 0.5) -> QueryResult:
    """:func:`run_query` on the database file at ``path``, in a worker process that is killed if
    it overruns ``timeout`` by ``WORKER_SLACK`` seconds (CPU included); never raises."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool.owner != os.getpid():
            _pool = _WorkerPool()
        pool = _pool
    start = time.monotonic()
    for _ in range(2):  # an idle worker found dead, or dying as the query reaches it, is replaced once
        try:
            worker = pool.take()
        except OSError as exc:
            return QueryResult(error=f"the query could not start ({exc})")
        alive = worker.proc.poll() is None
        if not alive:
            worker.kill()  # reaps it and closes its pipes
        sent = time.monotonic()
        result = worker.query(path, query, max_rows, timeout) if alive else None
        pool.give_back(worker if result is not None else None)
        # A worker may exit just after answering the query before (e.g. freeing a huge sort past its memory
        # limit): then this query fails at once, long before its time limit, and deserves a fresh worker.
        if alive and (result is not None or time.monotonic() - sent >= timeout):
            break
    if result is None:
        return QueryResult(error=f"the query ran longer than {timeout:g} s and was stopped",
                           seconds=time.monotonic() - start)
    return result


def _first_keyword(query: str) -> str:
    """The statement's first word, after whitespace and comments (a linear scan, no regex)."""
    i, n = 0, len(query)
    for _ in range(n + 1):  # each round consumes at least one character or stops
        while i < n and query[i].isspace():
            i += 1
        if query.startswith("--", i):
            end = query.find("\n", i)
            i = n if end < 0 else end + 1
        elif query.startswith("/*", i):
            end = query.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            break
    j = i
    while j < n and (query[j].isalpha() or query[j] == "_"):
        j += 1
    return query[i:j].lower()


def _explain(exc: Exception) -> str:
    text = str(exc)[:300]
    if "not authorized" in text or "authorization denied" in text or "prohibited" in text:
        return ("not allowed: the database is read-only and only SELECT queries (WITH ... SELECT, VALUES, "
                "PRAGMA table_info/foreign_key_list) with built-in functions may run")
    if "one statement at a time" in text:
        return "one SQL statement per call"
    return text


def format_table(result: QueryResult, max_cell_chars: int = 80, max_chars: int = 4_000) -> str:
    """A compact text table: a header line, one line per row (``|`` between cells), a row count."""
    if result.error is not None:
        return f"error: {result.error}"
    if not result.columns:
        return "(statement ran; no result rows)"
    lines = [" | ".join(result.columns)]
    size = len(lines[0])
    shown = 0
    for row in result.rows:
        line = " | ".join(_cell(v, max_cell_chars) for v in row)
        if size + len(line) + 1 > max_chars:
            break
        lines.append(line)
        size += len(line) + 1
        shown += 1
    if shown < len(result.rows) or result.truncated:
        more = "more rows exist" if result.truncated else f"{len(result.rows)} rows in all"
        lines.append(f"(first {shown} rows shown; {more}: narrow the query or add LIMIT)")
    else:
        lines.append(f"({shown} row{'s' if shown != 1 else ''})")
    return "\n".join(lines)


def _cell(value: Any, limit: int) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return f"<blob of {len(value)} bytes>"
    text = repr(value) if isinstance(value, float) else str(value)
    text = text.replace("\n", "\\n").replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def database_of_problem(problem: Any) -> Any:
    """The database described by ``problem.data["database"]`` (a generated-database spec), or None."""
    data = getattr(problem, "data", None)
    if isinstance(data, dict) and isinstance(data.get("database"), dict):
        from palaestra.generators.database import database_from_spec

        return database_from_spec(data["database"])
    return None


class SqlTool(Tool):
    """``sql(query)``: run one read-only query on a database; results as a text table.

    The database is a path or an object with a ``path`` attribute (such as
    :class:`palaestra.generators.database.Database`): given at construction (fixed), or the
    episode's, which the tool-use wrapper passes to :meth:`bind` at every reset: by default
    ``problem.data["database"]``, a spec of :func:`palaestra.generators.database.database_spec`,
    rebuilt (cached) by ``database_from_spec``; or what ``resolve(problem)`` returns.
    """

    name = "sql"
    description = (
        "Run one read-only SQLite query (SELECT / WITH ... SELECT) on the database and get the result rows "
        "as a table. Writes, ATTACH and PRAGMA changes are not allowed."
    )
    parameters = {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "one SQLite SELECT statement"}},
        "required": ["query"],
        "additionalProperties": False,
    }

    def __init__(self, database: Any = None, resolve: Callable[[Any], Any] | None = None, timeout: float = 0.5,
                 max_rows: int = 30, max_chars: int = 4_000) -> None:
        self.resolve = resolve if resolve is not None else database_of_problem
        self.timeout, self.max_rows, self.max_chars = timeout, max_rows, max_chars
        self.fixed = database
        self._path: str | None = None
        self._lock = threading.Lock()
        self.set_database(database)

    def bind(self, problem: Any) -> None:
        """Use the database of ``problem`` (what ``resolve`` returns), else the fixed one, if any."""
        found = self.resolve(problem) if problem is not None else None
        self.set_database(found if found is not None else self.fixed)

    def set_database(self, database: Any) -> None:
        """Query ``database`` (a path, an object with ``.path``, or None) until the next :meth:`bind`."""
        path = None if database is None else database if isinstance(database, str) else database.path
        with self._lock:
            self._path = path

    def run(self, arguments: dict[str, Any]) -> str:
        with self._lock:
            path = self._path
        if path is None:
            self.infrastructure_error = "sql: no database bound to the tool"
            return "error: the sql tool has no database"
        if not os.path.isfile(path):
            self.infrastructure_error = f"sql: cannot open the database ({path} is not a file)"
            return "error: the database is unavailable"
        result = run_query_isolated(path, arguments["query"], self.max_rows, self.timeout)
        if result.error is not None and result.error.startswith("the database is unavailable"):
            self.infrastructure_error = f"sql: {result.error}"
            return "error: the database is unavailable"
        return format_table(result, max_chars=self.max_chars)

    def close(self) -> None:
        """Nothing to release: the query workers are shared by every tool of the process."""


# --- comparing results (text-to-SQL judging) ---------------------------------------------------


def results_match(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]], ordered: bool,
                  rel_tol: float = 1e-6) -> bool:
    """Whether two query results hold the same rows: as lists when ``ordered``, else as multisets.

    Numbers compare by value (``3`` equals ``3.0``; floats within ``rel_tol``, since equivalent
    queries may sum in another order); booleans are not numbers; columns may come in another
    order (``SELECT a, b`` matches ``SELECT b, a``) but not in another number.

    >>> results_match([(1, "x"), (2, "y")], [("y", 2.0), ("x", 1)], ordered=False)
    True
    >>> results_match([(1,), (1,)], [(1,)], ordered=False)
    False
    """
    if len(expected) != len(actual):
        return False
    if not expected:
        return True
    width = len(expected[0])
    if any(len(r) != width for r in expected) or any(len(r) != width for r in actual):
        return False
    for permutation in _column_permutations(expected, actual, width):
        moved = [tuple(row[j] for j in permutation) for row in actual]
        if _rows_equal(expected, moved, ordered, rel_tol):
            return True
    return False


def _column_permutations(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]], width: int):
    """Orders of ``actual``'s columns worth trying: identity first, then those pairing columns
    with equal value multisets (a bounded backtracking search)."""
    identity = tuple(range(width))
    yield identity
    signature_expected = [_column_signature(expected, i) for i in range(width)]
    signature_actual = [_column_signature(actual, j) for j in range(width)]
    options = [[j for j in range(width) if signature_actual[j] == signature_expected[i]] for i in range(width)]
    budget = [1_000]

    def extend(prefix: list[int]):
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if len(prefix) == width:
            if tuple(prefix) != identity:
                yield tuple(prefix)
            return
        for j in options[len(prefix)]:
            if j not in prefix:
                yield from extend([*prefix, j])

    yield from extend([])


def _column_signature(rows: Sequence[Sequence[Any]], column: int) -> tuple:
    return tuple(sorted((_sort_key(row[column]) for row in rows), key=repr))


def _sort_key(value: Any) -> tuple:
    if value is None:
        return (0, "")
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return (2, repr(value))
        return (2, f"{float(value):.6g}")
    if isinstance(value, bytes):
        return (4, value.hex())
    return (3, str(value))


def _rows_equal(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]], ordered: bool,
                rel_tol: float) -> bool:
    if not ordered:
        def key(row: Sequence[Any]) -> str:
            return repr(tuple(_sort_key(v) for v in row))

        expected, actual = sorted(expected, key=key), sorted(actual, key=key)
    return all(_value_equal(a, b, rel_tol) for ra, rb in zip(expected, actual) for a, b in zip(ra, rb))


def _value_equal(a: Any, b: Any, rel_tol: float) -> bool:
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-9) or a == b
    return type(a) is type(b) and a == b
