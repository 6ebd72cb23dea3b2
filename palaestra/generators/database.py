"""Generated SQLite databases (2-8 tables with foreign keys, typed columns, NULLs) and SQL questions.

A :class:`Database` is drawn from one of three domains (``retail``, ``school``, ``library``), each a
catalogue of eight tables linked by foreign keys. :func:`generate_database` picks a subset of
``tables`` tables that is closed under required references and connected, then fills it with
``rows`` rows per main table (lookup tables stay small): invented names and titles (from the
syllable generator of :mod:`palaestra.generators.knowledge`), INTEGER / REAL / TEXT / DATE /
BOOLEAN columns, enumerations, derived columns (an e-mail from a name, a return date after a loan
date) and NULLs at ``null_rate`` in nullable columns. Optional references to a table outside the
subset are dropped with their column.

:meth:`Database.path` writes the database once to a per-process temporary file (an LRU of
``FILE_CACHE_SIZE`` files, removed at exit) for :class:`palaestra.tools.sql.SqlTool` to open
read-only. The same ``(seed, params)`` gives the same tables and the same file bytes.

:func:`sql_question` draws a question with a reference query at a difficulty tier 0-4 (counts
with a filter; aggregates and arg-max; joins and anti-joins; grouping, top-n and nested
averages; HAVING and two-step joins). Its ground truth is the reference query's result, and a
structured ``spec`` states the question as data so it can be checked without SQL.

Example::

    >>> import random
    >>> db = build_database(3, DatabaseParams(domain="retail", tables=4, rows=30))
    >>> len(db.tables), db is build_database(3, DatabaseParams(domain="retail", tables=4, rows=30))
    (4, True)
    >>> q = sql_question(db, random.Random(0), tier=0)
    >>> q.sql.startswith("SELECT COUNT(*)")
    True
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import itertools
import json
import os
import random
import shutil
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core.retry import retry
from palaestra.generators.knowledge import NameForge

# --- catalogue --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ColumnSpec:
    """How to generate one column. ``kind`` picks the generator, ``args`` its parameters."""

    name: str
    sql_type: str
    kind: str
    args: tuple = ()
    null_rate: float = 0.0  # 0 means NOT NULL
    references: str | None = None  # a table name for foreign keys


@dataclass(frozen=True)
class TableSpec:
    name: str
    columns: tuple[ColumnSpec, ...]
    scale: float = 1.0  # rows = scale * params.rows (at least 3)
    cap: int | None = None  # lookup tables stay small

    def required_parents(self) -> list[str]:
        return [c.references for c in self.columns if c.references and c.null_rate == 0]

    def parents(self) -> list[str]:
        return [c.references for c in self.columns if c.references]


def _pk(name: str) -> ColumnSpec:
    return ColumnSpec(name, "INTEGER", "pk")


def _fk(name: str, table: str, null_rate: float = 0.0) -> ColumnSpec:
    return ColumnSpec(name, "INTEGER", "fk", (), null_rate, table)


STATUSES = ("pending", "shipped", "delivered", "cancelled", "returned")
COMMENTS = ("great value", "works as described", "arrived late", "would buy again", "poor quality", "too small")
SEMESTERS = ("2022-fall", "2023-spring", "2023-fall", "2024-spring")
ROLES = ("member", "treasurer", "secretary", "president")
GENRES = ("mystery", "poetry", "history", "science", "fantasy", "biography", "travel")
CONDITIONS = ("new", "good", "worn", "damaged")
CATEGORY_WORDS = ("Garden", "Kitchen", "Toys", "Books", "Outdoor", "Office", "Audio", "Bath", "Lighting", "Tools",
                  "Crafts", "Pets")
SUBJECT_WORDS = ("Physics", "History", "Music", "Chemistry", "Linguistics", "Geology", "Economics", "Art",
                 "Biology", "Philosophy")

DOMAINS: dict[str, tuple[TableSpec, ...]] = {
    "retail": (
        TableSpec("regions", (_pk("region_id"), ColumnSpec("name", "TEXT", "place"),
                              ColumnSpec("manager", "TEXT", "person", (), 0.2)), 0.1, 12),
        TableSpec("stores", (_pk("store_id"), ColumnSpec("name", "TEXT", "title", ("Store",)),
                             _fk("region_id", "regions"),
                             ColumnSpec("opened_on", "DATE", "date", (1990, 2023)),
                             ColumnSpec("floor_area", "REAL", "real", (200, 5000), 0.15)), 0.2, 40),
        TableSpec("customers", (_pk("customer_id"), ColumnSpec("name", "TEXT", "person"),
                                ColumnSpec("email", "TEXT", "email", ("name",), 0.25),
                                _fk("region_id", "regions", 0.1),
                                ColumnSpec("joined_on", "DATE", "date", (2010, 2024)),
                                ColumnSpec("loyalty_points", "INTEGER", "int", (0, 5000), 0.2))),
        TableSpec("categories", (_pk("category_id"),
                                 ColumnSpec("name", "TEXT", "enum_unique", CATEGORY_WORDS)),
                  0.1, len(CATEGORY_WORDS)),
        TableSpec("products", (_pk("product_id"), ColumnSpec("name", "TEXT", "title", ()),
                               _fk("category_id", "categories"),
                               ColumnSpec("price", "REAL", "real", (1, 500)),
                               ColumnSpec("discontinued", "BOOLEAN", "bool", (0.15,))), 0.5),
        TableSpec("orders", (_pk("order_id"), _fk("customer_id", "customers"), _fk("store_id", "stores", 0.3),
                             ColumnSpec("ordered_on", "DATE", "date", (2018, 2024)),
                             ColumnSpec("status", "TEXT", "enum", STATUSES)), 2.0),
        TableSpec("order_items", (_pk("item_id"), _fk("order_id", "orders"),
                                  _fk("product_id", "products"),
                                  ColumnSpec("quantity", "INTEGER", "int", (1, 10)),
                                  ColumnSpec("unit_price", "REAL", "real", (1, 500))), 3.0),
        TableSpec("reviews", (_pk("review_id"), _fk("product_id", "products"),
                              _fk("customer_id", "customers"),
                              ColumnSpec("rating", "INTEGER", "int", (1, 5)),
                              ColumnSpec("comment", "TEXT", "enum", COMMENTS, 0.4)), 1.0),
    ),
    "school": (
        TableSpec("departments", (_pk("department_id"),
                                  ColumnSpec("name", "TEXT", "enum_unique", SUBJECT_WORDS),
                                  ColumnSpec("building", "TEXT", "place", (), 0.2),
                                  ColumnSpec("budget", "REAL", "real", (10_000, 900_000))),
                  0.1, len(SUBJECT_WORDS)),
        TableSpec("teachers", (_pk("teacher_id"), ColumnSpec("name", "TEXT", "person"),
                               _fk("department_id", "departments"),
                               ColumnSpec("hired_on", "DATE", "date", (1995, 2024)),
                               ColumnSpec("salary", "REAL", "real", (30_000, 120_000), 0.1)), 0.3),
        TableSpec("students", (_pk("student_id"), ColumnSpec("name", "TEXT", "person"),
                               ColumnSpec("email", "TEXT", "email", ("name",), 0.2),
                               ColumnSpec("enrolled_on", "DATE", "date", (2019, 2024)),
                               ColumnSpec("year", "INTEGER", "int", (1, 4)),
                               _fk("advisor_id", "teachers", 0.3))),
        TableSpec("courses", (_pk("course_id"), ColumnSpec("title", "TEXT", "title", ("Seminar",)),
                              _fk("department_id", "departments"),
                              ColumnSpec("credits", "INTEGER", "int", (1, 6)),
                              _fk("teacher_id", "teachers", 0.1)), 0.3),
        TableSpec("enrollments", (_pk("enrollment_id"), _fk("student_id", "students"),
                                  _fk("course_id", "courses"),
                                  ColumnSpec("semester", "TEXT", "enum", SEMESTERS),
                                  ColumnSpec("grade", "REAL", "real", (0, 100), 0.15)), 3.0),
        TableSpec("clubs", (_pk("club_id"), ColumnSpec("name", "TEXT", "title", ("Club",)),
                            ColumnSpec("founded_on", "DATE", "date", (1950, 2023))), 0.1, 15),
        TableSpec("memberships", (_pk("membership_id"), _fk("student_id", "students"),
                                  _fk("club_id", "clubs"),
                                  ColumnSpec("role", "TEXT", "enum", ROLES)), 1.0),
        TableSpec("scholarships", (_pk("scholarship_id"), _fk("student_id", "students"),
                                   ColumnSpec("amount", "REAL", "real", (500, 20_000)),
                                   ColumnSpec("awarded_on", "DATE", "date", (2019, 2024))), 0.4),
    ),
    "library": (
        TableSpec("branches", (_pk("branch_id"), ColumnSpec("name", "TEXT", "place"),
                               ColumnSpec("opened_on", "DATE", "date", (1900, 2020)),
                               ColumnSpec("phone", "TEXT", "phone", (), 0.3)), 0.1, 10),
        TableSpec("members", (_pk("member_id"), ColumnSpec("name", "TEXT", "person"),
                              ColumnSpec("email", "TEXT", "email", ("name",), 0.3),
                              _fk("branch_id", "branches"),
                              ColumnSpec("joined_on", "DATE", "date", (2005, 2024)),
                              ColumnSpec("birth_year", "INTEGER", "int", (1940, 2010), 0.2))),
        TableSpec("authors", (_pk("author_id"), ColumnSpec("name", "TEXT", "person"),
                              ColumnSpec("country", "TEXT", "place_pool", (8,)),
                              ColumnSpec("born", "INTEGER", "int", (1800, 1995), 0.25)), 0.3),
        TableSpec("books", (_pk("book_id"), ColumnSpec("title", "TEXT", "title", ()),
                            _fk("author_id", "authors"), ColumnSpec("genre", "TEXT", "enum", GENRES),
                            ColumnSpec("published", "INTEGER", "int", (1850, 2024)),
                            ColumnSpec("pages", "INTEGER", "int", (40, 1200), 0.1)), 0.8),
        TableSpec("copies", (_pk("copy_id"), _fk("book_id", "books"), _fk("branch_id", "branches"),
                             ColumnSpec("condition", "TEXT", "enum", CONDITIONS)), 1.5),
        TableSpec("loans", (_pk("loan_id"), _fk("copy_id", "copies"), _fk("member_id", "members"),
                            ColumnSpec("loaned_on", "DATE", "date", (2020, 2024)),
                            ColumnSpec("returned_on", "DATE", "date_after", ("loaned_on", 60), 0.3)), 2.0),
        TableSpec("fines", (_pk("fine_id"), _fk("loan_id", "loans"),
                            ColumnSpec("amount", "REAL", "real", (0.5, 40)),
                            ColumnSpec("paid", "BOOLEAN", "bool", (0.6,))), 0.5),
        TableSpec("events", (_pk("event_id"), _fk("branch_id", "branches"),
                             ColumnSpec("title", "TEXT", "title", ("Evening",)),
                             ColumnSpec("held_on", "DATE", "date", (2015, 2024)),
                             ColumnSpec("attendance", "INTEGER", "int", (3, 300), 0.2)), 0.3),
    ),
}


# --- the database -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    name: str
    sql_type: str
    nullable: bool
    primary_key: bool = False
    references: str | None = None  # parent table
    referenced_column: str | None = None  # the parent's primary key


@dataclass(frozen=True)
class Table:
    """A generated table; ``label`` is its name/title column (questions name rows by it)."""

    name: str
    columns: tuple[Column, ...]
    rows: tuple[tuple, ...]
    label: str | None = None

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def index(self, name: str) -> int:
        return next(i for i, c in enumerate(self.columns) if c.name == name)

    def values(self, name: str) -> list[Any]:
        i = self.index(name)
        return [row[i] for row in self.rows]

    def create_sql(self) -> str:
        parts = []
        for c in self.columns:
            text = f"{c.name} {c.sql_type}"
            if c.primary_key:
                text += " PRIMARY KEY"
            elif not c.nullable:
                text += " NOT NULL"
            parts.append(text)
        for c in self.columns:
            if c.references:
                parts.append(f"FOREIGN KEY ({c.name}) REFERENCES {c.references}({c.referenced_column})")
        return f"CREATE TABLE {self.name} (\n  " + ",\n  ".join(parts) + "\n)"


@dataclass(frozen=True)
class DatabaseParams:
    """domain: ``retail``, ``school``, ``library`` or None (drawn); tables: 2-8; rows: rows of a
    main table (others scale from it); null_rate: share of NULLs in nullable columns, relative to
    each column's own rate (1.0 = the catalogue's rates, 0 = no NULLs)."""

    domain: str | None = None
    tables: int = 4
    rows: int = 40
    null_rate: float = 1.0

    def __post_init__(self) -> None:
        if not 2 <= self.tables <= 8:
            raise ValueError("tables must be 2..8")
        if self.rows < 3:
            raise ValueError("rows must be >= 3")
        if self.domain is not None and self.domain not in DOMAINS:
            raise ValueError(f"domain must be one of {sorted(DOMAINS)} or None")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DatabaseParams:
        return cls(**data)


@dataclass
class Database:
    """Generated tables, in creation order (parents before children)."""

    key: str
    domain: str
    tables: list[Table]

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)

    def schema_sql(self) -> str:
        """The ``CREATE TABLE`` statements, for a prompt."""
        return ";\n\n".join(t.create_sql() for t in self.tables) + ";"

    def write(self, path: str) -> None:
        """Write the database to a new SQLite file at ``path`` (same database, same bytes)."""
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA journal_mode=OFF")
            conn.execute("PRAGMA synchronous=OFF")
            for table in self.tables:
                conn.execute(table.create_sql())
                marks = ", ".join("?" * len(table.columns))
                conn.executemany(f"INSERT INTO {table.name} VALUES ({marks})", table.rows)
            conn.commit()
        finally:
            conn.close()

    @property
    def path(self) -> str:
        """A read-only SQLite file of this database, written once per process and cached."""
        return _database_file(self)

    def query(self, sql: str) -> tuple[list[str], list[tuple]]:
        """Run trusted SQL (a reference query, never model text) on the file: (columns, rows)."""
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            cursor = conn.execute(sql)
            return [d[0] for d in cursor.description], cursor.fetchall()
        finally:
            conn.close()


def select_tables(specs: tuple[TableSpec, ...], count: int, rng: random.Random) -> list[TableSpec]:
    """A random subset of ``count`` tables, closed under required references and connected
    through foreign keys, in catalogue order (parents first)."""
    names = [s.name for s in specs]
    by_name = {s.name: s for s in specs}
    valid = []
    for subset in itertools.combinations(names, count):
        chosen = set(subset)
        if any(p not in chosen for n in subset for p in by_name[n].required_parents()):
            continue
        if _connected(subset, by_name):
            valid.append(subset)
    if not valid:
        raise ValueError(f"no connected {count}-table subset")
    return [by_name[n] for n in rng.choice(valid)]


def _connected(subset: tuple[str, ...], by_name: dict[str, TableSpec]) -> bool:
    chosen = set(subset)
    edges = {n: set() for n in subset}
    for n in subset:
        for p in by_name[n].parents():
            if p in chosen:
                edges[n].add(p)
                edges[p].add(n)
    seen, stack = {subset[0]}, [subset[0]]
    for _ in range(len(subset) ** 2):  # a bounded depth-first walk
        if not stack:
            break
        for m in sorted(edges[stack.pop()]):
            if m not in seen:
                seen.add(m)
                stack.append(m)
    return seen == chosen


def generate_database(rng: random.Random, params: DatabaseParams, key: str = "") -> Database:
    """Draw a domain (unless given), a table subset and the rows; deterministic from ``rng``."""
    domain = params.domain or rng.choice(sorted(DOMAINS))
    specs = select_tables(DOMAINS[domain], params.tables, rng)
    included = {s.name for s in specs}
    forge = NameForge(rng)
    places = [forge.word(rng.choice((2, 3))) for _ in range(12)]
    tables: dict[str, Table] = {}
    for spec in specs:
        columns_specs = [c for c in spec.columns if c.references is None or c.references in included]
        count = max(3, round(spec.scale * params.rows))
        if spec.cap is not None:
            count = min(count, spec.cap)
        rows = _rows(rng, forge, spec, columns_specs, count, tables, places, params.null_rate)
        columns = tuple(Column(c.name, c.sql_type, nullable=c.null_rate > 0, primary_key=c.kind == "pk",
                               references=c.references,
                               referenced_column=tables[c.references].columns[0].name if c.references else None)
                        for c in columns_specs)
        label = next((c.name for c in columns_specs if c.name in ("name", "title")), None)
        tables[spec.name] = Table(spec.name, columns, rows, label)
    return Database(key, domain, list(tables.values()))


def _rows(rng: random.Random, forge: NameForge, spec: TableSpec, columns: list[ColumnSpec], count: int,
          tables: dict[str, Table], places: list[str], null_scale: float) -> tuple[tuple, ...]:
    makers = {c.name: _maker(rng, forge, c, count, tables, places) for c in columns}
    rows = []
    for i in range(count):
        row: dict[str, Any] = {}
        for c in columns:
            value = makers[c.name](i, row)
            if c.null_rate and rng.random() < c.null_rate * null_scale:
                value = None
            row[c.name] = value
        rows.append(tuple(row[c.name] for c in columns))
    return tuple(rows)


def _maker(rng: random.Random, forge: NameForge, column: ColumnSpec, count: int, tables: dict[str, Table],
           places: list[str]) -> Callable[[int, dict[str, Any]], Any]:
    kind, args = column.kind, column.args
    if kind == "pk":
        return lambda i, row: i + 1
    if kind == "fk":
        parent = tables[str(column.references)]
        return lambda i, row: rng.randint(1, len(parent.rows))
    if kind == "person":
        return lambda i, row: forge.claim(lambda: f"{forge.syllables(rng.choice((1, 2)))} {forge.syllables(2)}")
    if kind == "title":
        suffix = f" {args[0]}" if args else ""
        return lambda i, row: forge.claim(lambda: f"{forge.syllables(2)} {forge.syllables(rng.choice((1, 2)))}{suffix}")
    if kind == "place":
        return lambda i, row: forge.word(rng.choice((2, 3)))
    if kind == "place_pool":
        pool = places[: args[0]]
        return lambda i, row: rng.choice(pool)
    if kind == "enum":
        return lambda i, row: rng.choice(args)
    if kind == "enum_unique":
        order = list(args)
        rng.shuffle(order)
        return lambda i, row: order[i]
    if kind == "int":
        return lambda i, row: rng.randint(args[0], args[1])
    if kind == "real":
        return lambda i, row: round(rng.uniform(args[0], args[1]), 2)
    if kind == "bool":
        return lambda i, row: int(rng.random() < args[0])
    if kind == "date":
        return lambda i, row: _date(rng, args[0], args[1])
    if kind == "date_after":
        def after(i: int, row: dict[str, Any]) -> str:
            import datetime

            start = datetime.date.fromisoformat(row[args[0]])
            return (start + datetime.timedelta(days=rng.randint(1, args[1]))).isoformat()
        return after
    if kind == "email":
        def email(i: int, row: dict[str, Any]) -> str:
            return row[args[0]].lower().replace(" ", ".") + rng.choice(("@mail.example", "@post.example"))
        return email
    if kind == "phone":
        return lambda i, row: f"555-{rng.randint(0, 9999):04d}"
    raise ValueError(f"unknown column kind {kind!r}")


def _date(rng: random.Random, first_year: int, last_year: int) -> str:
    return f"{rng.randint(first_year, last_year):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


DATABASE_VERSION = 1


def database_spec(seed: int, params: DatabaseParams) -> dict[str, Any]:
    """A JSON-native recipe for ``Problem.data``."""
    return {"seed": seed, "params": params.to_dict(), "version": DATABASE_VERSION}


@functools.lru_cache(maxsize=8)
def build_database(seed: int, params: DatabaseParams) -> Database:
    """The database of ``(seed, params)``, generated once per process (8 cached). Read-only: shared."""
    key = "database:" + json.dumps(database_spec(seed, params), sort_keys=True, separators=(",", ":"))
    return generate_database(random.Random(seed), params, key)


def database_from_spec(spec: dict[str, Any]) -> Database:
    """Rebuild (or fetch from the cache) the database a :func:`database_spec` describes."""
    if spec.get("version", DATABASE_VERSION) != DATABASE_VERSION:
        raise ValueError(f"database version {spec.get('version')} is not {DATABASE_VERSION}")
    return build_database(int(spec["seed"]), DatabaseParams.from_dict(spec["params"]))


# --- files ------------------------------------------------------------------------------------

FILE_CACHE_SIZE = 16
_files: OrderedDict[str, str] = OrderedDict()
_files_lock = threading.Lock()
_files_state: dict[str, Any] = {"pid": None, "dir": None, "root": None}
_file_numbers = itertools.count()


ROOT_PREFIX = "palaestra-db-"


def _database_file(db: Database) -> str:
    """The path of ``db`` written to this process's temporary directory (LRU of files).

    Each process writes its own files, in a directory under the root of the first process that
    wrote any: forked workers leave through ``os._exit`` (no ``atexit``), so the first process's
    clean-up removes theirs too. A first process that left without its exit handlers leaves its root (a
    multiprocessing worker, which leaves through ``os._exit``: ``palaestra export --workers N``'s are started by a
    forkserver, so each is a first process; a killed one); the next process to make a root, or to leave, removes it."""
    with _files_lock:
        if _files_state["pid"] != os.getpid():  # first use here, or a forked child
            _files.clear()
            root = _files_state["root"]
            if root is None or not os.path.isdir(root):
                _remove_abandoned_roots()
                root = tempfile.mkdtemp(prefix=ROOT_PREFIX)
                atexit.register(_leave, root)
            _files_state.update(pid=os.getpid(), root=root, dir=tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=root))
        path = _files.get(db.key)
        if path is not None and os.path.exists(path):
            _files.move_to_end(db.key)
            return path
        path = os.path.join(_files_state["dir"], f"{next(_file_numbers)}.sqlite")
        partial = path + ".partial"
        db.write(partial)
        os.replace(partial, path)
        _files[db.key] = path
        while len(_files) > FILE_CACHE_SIZE:
            _, old = _files.popitem(last=False)
            try:
                os.remove(old)  # open read-only connections keep reading the unlinked file
            except OSError:
                pass
        return path


def _leave(root: str) -> None:
    """At exit: this process's root, and the roots its children left without their exit handlers (an export's pool
    workers end before it does)."""
    shutil.rmtree(root, ignore_errors=True)
    _remove_abandoned_roots()


def _remove_abandoned_roots() -> None:
    """Remove this user's roots of database files whose every writer has ended (a root's folders are named
    ``<pid>-...`` by the processes that wrote there). A root with no folder yet is being set up: kept."""
    base = tempfile.gettempdir()
    try:
        names = [name for name in os.listdir(base) if name.startswith(ROOT_PREFIX)]
    except OSError:
        return
    for name in names:
        root = os.path.join(base, name)
        try:
            if os.stat(root).st_uid != os.getuid():
                continue
            writers = [entry.split("-", 1)[0] for entry in os.listdir(root)]
        except OSError:
            continue
        if writers and all(writer.isdigit() and not _running(int(writer)) for writer in writers):
            shutil.rmtree(root, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process holds that pid now
        return True
    return True


# --- questions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SqlQuestion:
    """A question about a database and its ground truth.

    text: the question; sql: a reference query; ordered: whether row order matters (the question
    says so); columns/rows: the reference result; answer: a one-cell result as text (None for
    multi-row results); spec: the question as data (kind, tables, columns, values); tier: 0-4.
    """

    text: str
    sql: str
    ordered: bool
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]
    answer: str | None
    spec: dict[str, Any]
    tier: int

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "sql": self.sql, "ordered": self.ordered, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows], "answer": self.answer, "spec": self.spec, "tier": self.tier}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SqlQuestion:
        return cls(data["text"], data["sql"], data["ordered"], tuple(data["columns"]),
                   tuple(tuple(r) for r in data["rows"]), data["answer"], data["spec"], int(data["tier"]))


QUESTION_KINDS: dict[int, tuple[str, ...]] = {
    0: ("count_where",),
    1: ("aggregate", "argmax"),
    2: ("count_join", "count_without"),
    3: ("group_count", "top_n", "above_average"),
    4: ("having", "count_join2"),
}
_OPERATORS = {">": "greater than", "<": "less than", ">=": "at least", "<=": "at most", "=": "equal to"}
_DATE_OPERATORS = {">": "after", "<": "before", ">=": "on or after", "<=": "on or before", "=": "on"}
_AGGREGATES = {"AVG": "average", "SUM": "sum", "MIN": "minimum", "MAX": "maximum"}


def _sql_literal(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def _condition(rng: random.Random, table: Table) -> dict[str, Any] | None:
    """A filter ``{column, op, value}`` on a non-key column (``op`` IS NULL for nullable ones)."""
    candidates = [c for c in table.columns if not c.primary_key and not c.references and c.name != table.label
                  and "email" not in c.name and c.name != "phone"]
    if not candidates:
        return None
    column = rng.choice(candidates)
    values = [v for v in table.values(column.name) if v is not None]
    if column.nullable and rng.random() < 0.25:
        return {"column": column.name, "op": rng.choice(("IS NULL", "IS NOT NULL")), "value": None,
                "type": column.sql_type}
    if not values:
        return None
    value = rng.choice(values)
    if column.sql_type == "TEXT" or column.sql_type == "BOOLEAN":
        op = "="
    else:
        op = rng.choice((">", "<", ">=", "<="))
    return {"column": column.name, "op": op, "value": value, "type": column.sql_type}


def _condition_sql(cond: dict[str, Any], alias: str = "") -> str:
    prefix = f"{alias}." if alias else ""
    if cond["value"] is None:
        return f"{prefix}{cond['column']} {cond['op']}"
    return f"{prefix}{cond['column']} {cond['op']} {_sql_literal(cond['value'])}"


def _condition_text(cond: dict[str, Any]) -> str:
    if cond["op"] == "IS NULL":
        return f"`{cond['column']}` is NULL"
    if cond["op"] == "IS NOT NULL":
        return f"`{cond['column']}` is not NULL"
    words = _DATE_OPERATORS if cond.get("type") == "DATE" else _OPERATORS
    return f"`{cond['column']}` {words[cond['op']]} {_sql_literal(cond['value'])}"


def _links(db: Database) -> list[tuple[Table, Column, Table]]:
    """(child, foreign-key column, parent) for every foreign key."""
    return [(t, c, db.table(c.references)) for t in db.tables for c in t.columns if c.references]


def sql_question(db: Database, rng: random.Random, tier: int, kind: str | None = None) -> SqlQuestion:
    """A question at difficulty ``tier`` (0-4) with a unique, non-trivial answer."""
    kinds = QUESTION_KINDS[tier]
    available = [k for k in kinds if _possible(db, k)] if kind is None else [kind]
    if not available:
        raise ValueError(f"no question of tier {tier} fits this database's tables")
    chosen = kind or rng.choice(available)
    return retry(lambda: _draw(db, rng, chosen, tier), what=f"a {chosen} question", attempts=300)


def _possible(db: Database, kind: str) -> bool:
    links = _links(db)
    if kind in ("count_where", "aggregate", "above_average"):
        return True
    if kind in ("argmax", "top_n"):
        return any(t.label and _numeric(t) for t in db.tables)
    if kind in ("count_join", "count_without", "group_count", "having"):
        return any(p.label for _, _, p in links) if kind in ("group_count", "having") else bool(links)
    if kind == "count_join2":
        return any(p.name == c2.name for c2, _, _ in links for _, _, p in links)
    raise ValueError(f"unknown question kind {kind!r}")


def _numeric(table: Table) -> list[Column]:
    return [c for c in table.columns if c.sql_type in ("INTEGER", "REAL") and not c.primary_key and not c.references]


def _draw(db: Database, rng: random.Random, kind: str, tier: int) -> SqlQuestion | None:
    links = _links(db)
    if kind == "count_where":
        table = rng.choice(db.tables)
        cond = _condition(rng, table)
        if cond is None:
            return None
        spec = {"kind": kind, "table": table.name, "where": cond}
        sql = f"SELECT COUNT(*) FROM {table.name} WHERE {_condition_sql(cond)}"
        text = f"How many rows of `{table.name}` have {_condition_text(cond)}?"
        return _finish(db, spec, sql, text, False, tier, nontrivial=len(table.rows))
    if kind == "aggregate":
        table = rng.choice([t for t in db.tables if _numeric(t)] or db.tables)
        numeric = _numeric(table)
        if not numeric:
            return None
        column = rng.choice(numeric)
        function = rng.choice(sorted(_AGGREGATES))
        cond = _condition(rng, table) if rng.random() < 0.6 else None
        where = f" WHERE {_condition_sql(cond)}" if cond else ""
        expr = f"{function}({column.name})"
        rounded = function == "AVG" or column.sql_type == "REAL"
        if rounded:
            expr = f"ROUND({expr}, 2)"
        spec = {"kind": kind, "table": table.name, "function": function, "column": column.name, "where": cond,
                "round": 2 if rounded else None}
        text = (f"What is the {_AGGREGATES[function]} of `{column.name}` over the rows of `{table.name}`"
                + (f" that have {_condition_text(cond)}" if cond else "") + " (ignoring NULLs)?"
                + (" Round to 2 decimal places." if rounded else ""))
        return _finish(db, spec, f"SELECT {expr} FROM {table.name}{where}", text, False, tier)
    if kind == "argmax":
        table = rng.choice([t for t in db.tables if t.label and _numeric(t)])
        column = rng.choice(_numeric(table))
        highest = rng.random() < 0.5
        values = sorted(v for v in table.values(column.name) if v is not None)
        if not values or values.count(values[-1 if highest else 0]) != 1:
            return None  # a tie at the top: no unique answer
        spec = {"kind": kind, "table": table.name, "column": column.name, "label": table.label, "highest": highest}
        sql = (f"SELECT {table.label} FROM {table.name} WHERE {column.name} IS NOT NULL "
               f"ORDER BY {column.name} {'DESC' if highest else 'ASC'} LIMIT 1")
        text = f"Which `{table.label}` in `{table.name}` has the {'highest' if highest else 'lowest'} `{column.name}`?"
        return _finish(db, spec, sql, text, False, tier)
    if kind in ("count_join", "count_without"):
        child, fk, parent = rng.choice(links)
        if kind == "count_without":
            spec = {"kind": kind, "child": child.name, "fk": fk.name, "parent": parent.name}
            sql = (f"SELECT COUNT(*) FROM {parent.name} p WHERE NOT EXISTS "
                   f"(SELECT 1 FROM {child.name} c WHERE c.{fk.name} = p.{parent.columns[0].name})")
            text = (f"How many rows of `{parent.name}` are referenced by no row of `{child.name}` "
                    f"(through `{child.name}.{fk.name}`)?")
            return _finish(db, spec, sql, text, False, tier)
        cond = _condition(rng, parent)
        if cond is None:
            return None
        spec = {"kind": kind, "child": child.name, "fk": fk.name, "parent": parent.name, "where": cond}
        sql = (f"SELECT COUNT(*) FROM {child.name} c JOIN {parent.name} p ON c.{fk.name} = "
               f"p.{parent.columns[0].name} WHERE {_condition_sql(cond, 'p')}")
        text = (f"How many rows of `{child.name}` reference (through `{fk.name}`) a row of `{parent.name}` "
                f"that has {_condition_text(cond)}?")
        return _finish(db, spec, sql, text, False, tier, nontrivial=len(child.rows))
    if kind == "group_count":
        child, fk, parent = rng.choice([link for link in links if link[2].label])
        spec = {"kind": kind, "child": child.name, "fk": fk.name, "parent": parent.name, "label": parent.label}
        pk = parent.columns[0].name
        sql = (f"SELECT p.{parent.label}, COUNT(c.{fk.name}) FROM {parent.name} p LEFT JOIN {child.name} c "
               f"ON c.{fk.name} = p.{pk} GROUP BY p.{pk}")
        text = (f"For every row of `{parent.name}`, give its `{parent.label}` and the number of rows of "
                f"`{child.name}` that reference it through `{fk.name}` (0 when none).")
        return _finish(db, spec, sql, text, False, tier)
    if kind == "top_n":
        table = rng.choice([t for t in db.tables if t.label and _numeric(t)])
        column = rng.choice(_numeric(table))
        n = rng.randint(2, 5)
        values = sorted((v for v in table.values(column.name) if v is not None), reverse=True)
        if len(values) <= n or len(set(values[: n + 1])) != n + 1:
            return None  # a tie inside or at the edge of the top n
        spec = {"kind": kind, "table": table.name, "column": column.name, "label": table.label, "n": n}
        sql = (f"SELECT {table.label}, {column.name} FROM {table.name} WHERE {column.name} IS NOT NULL "
               f"ORDER BY {column.name} DESC LIMIT {n}")
        text = (f"List the `{table.label}` and `{column.name}` of the {n} rows of `{table.name}` with the highest "
                f"`{column.name}`, highest first.")
        return _finish(db, spec, sql, text, True, tier)
    if kind == "above_average":
        table = rng.choice([t for t in db.tables if _numeric(t)] or db.tables)
        numeric = _numeric(table)
        if not numeric:
            return None
        column = rng.choice(numeric)
        spec = {"kind": kind, "table": table.name, "column": column.name}
        sql = (f"SELECT COUNT(*) FROM {table.name} WHERE {column.name} > "
               f"(SELECT AVG({column.name}) FROM {table.name})")
        text = (f"How many rows of `{table.name}` have a `{column.name}` above the average `{column.name}` "
                f"of `{table.name}` (NULLs ignored)?")
        return _finish(db, spec, sql, text, False, tier, nontrivial=len(table.rows))
    if kind == "having":
        child, fk, parent = rng.choice([link for link in links if link[2].label])
        counts: dict[Any, int] = {}
        for v in child.values(fk.name):
            if v is not None:
                counts[v] = counts.get(v, 0) + 1
        if not counts:
            return None
        thresholds = sorted(set(counts.values()))
        threshold = rng.choice([t for t in thresholds if t >= 2] or thresholds)
        spec = {"kind": kind, "child": child.name, "fk": fk.name, "parent": parent.name, "label": parent.label,
                "min_count": threshold}
        pk = parent.columns[0].name
        sql = (f"SELECT p.{parent.label} FROM {parent.name} p JOIN {child.name} c ON c.{fk.name} = p.{pk} "
               f"GROUP BY p.{pk} HAVING COUNT(*) >= {threshold}")
        text = (f"Which `{parent.label}` values of `{parent.name}` are referenced by at least {threshold} rows of "
                f"`{child.name}` (through `{fk.name}`)? List each once.")
        return _finish(db, spec, sql, text, False, tier)
    if kind == "count_join2":
        chains = [(c1, f1, mid, f2, top) for c1, f1, mid in links for c2, f2, top in links if c2.name == mid.name]
        child, fk1, middle, fk2, top = rng.choice(chains)
        cond = _condition(rng, top)
        if cond is None:
            return None
        spec = {"kind": kind, "child": child.name, "fk": fk1.name, "middle": middle.name, "fk2": fk2.name,
                "parent": top.name, "where": cond}
        sql = (f"SELECT COUNT(*) FROM {child.name} c JOIN {middle.name} m ON c.{fk1.name} = m.{middle.columns[0].name} "
               f"JOIN {top.name} p ON m.{fk2.name} = p.{top.columns[0].name} WHERE {_condition_sql(cond, 'p')}")
        text = (f"How many rows of `{child.name}` reference (through `{fk1.name}`) a row of `{middle.name}` whose "
                f"`{fk2.name}` points to a row of `{top.name}` that has {_condition_text(cond)}?")
        return _finish(db, spec, sql, text, False, tier, nontrivial=len(child.rows))
    raise ValueError(f"unknown question kind {kind!r}")


def _finish(db: Database, spec: dict[str, Any], sql: str, text: str, ordered: bool, tier: int,
            nontrivial: int | None = None) -> SqlQuestion | None:
    columns, rows = db.query(sql)
    if not rows:
        return None
    single = len(rows) == 1 and len(rows[0]) == 1
    if single and rows[0][0] is None:
        return None
    if nontrivial is not None and single and rows[0][0] in (0, nontrivial):
        return None  # a filter that keeps nothing or everything teaches nothing
    answer = str(rows[0][0]) if single else None
    return SqlQuestion(text, sql, ordered, tuple(columns), tuple(tuple(r) for r in rows), answer, spec, tier)
