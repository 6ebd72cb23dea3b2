"""Write one SQL query with window functions (rankings, running totals, lags, top-N, streaks) over a generated table.

Each problem generates a table (its name and column names drawn from a few domains: sales by
region, scores by team, readings by sensor ...) and a question whose answer needs a per-row or
per-group computation over ordered partitions. The answer is one ``SELECT`` statement
(``WITH ... SELECT`` allowed; SQLite, which has window functions); it runs on several hidden
databases with the same schema and different rows, in one sandbox job
(:func:`palaestra.verifiers.polyglot.check_query`: each database rebuilt before the query,
read-only while it runs), and each result is compared with the expected one **as a multiset of
rows** with the stated columns (their names are free; the row order is not checked). Expected
results come from trusted Python implementations in this module; the reference query agrees
with them through the sandbox (``tests/code``).

Version 3 (red team, round 3): a top-N question that keeps ties at the boundary was answered as well by
``DENSE_RANK() <= n`` as by ``RANK() <= n`` in 0.35, 0.40 and 0.24 of its problems at levels 2-4 (no tie above the
cut in any table), and the other slips of the tie rules (``ROW_NUMBER`` for ``RANK``, ``RANK`` for ``ROW_NUMBER``, a
non-strict comparison with the group average, a running aggregate ordered by time alone) passed in up to 0.12. Each
question names its slips (:meth:`Question.slips`), and tables on which one of them gives every expected result
are redrawn, so each slip fails at least one table of every problem.

This is not text-to-SQL over a foreign-key schema (the tool-use envs do that): the skill is
ordered, partitioned computation with exact tie rules.
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import PolyglotTask, Template, convention
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence

# table, id column, group column, group values, time column, value column
DOMAINS = (
    ("sales", "sale_id", "region", ("north", "south", "east", "west", "central"), "day", "amount"),
    ("scores", "score_id", "team", ("lions", "hawks", "otters", "wolves"), "round", "points"),
    ("readings", "reading_id", "sensor", ("s1", "s2", "s3", "s4", "s5", "s6"), "minute", "level"),
    ("shipments", "shipment_id", "depot", ("alpha", "bravo", "delta"), "week", "crates"),
    ("visits", "visit_id", "clinic", ("oak", "elm", "fir", "yew"), "hour", "patients"),
    ("trades", "trade_id", "desk", ("fx", "rates", "credit", "equity"), "tick", "volume"),
)

Row = dict[str, Any]
Answer = Callable[[dict[str, Any], "Schema", list[Row]], list[list[Any]]]


@dataclass(frozen=True)
class Schema:
    table: str
    id: str
    group: str
    groups: tuple[str, ...]
    time: str
    value: str

    def create(self) -> str:
        # Not INTEGER PRIMARY KEY: that makes the id the rowid, and SQLite would then store and scan the rows in id
        # order, so a window missing the stated tie-break by id would still read ties in id order.
        return (f"CREATE TABLE {self.table} ({self.id} INTEGER NOT NULL UNIQUE, {self.group} TEXT NOT NULL, "
                f"{self.time} INTEGER NOT NULL, {self.value} INTEGER NOT NULL)")


def schema_of(p: dict[str, Any]) -> Schema:
    return Schema(*DOMAINS[p["domain"]])


def ordered(rows: list[Row], s: Schema) -> list[Row]:
    """Rows by time, then id: the order every question uses inside a partition."""
    return sorted(rows, key=lambda r: (r[s.time], r[s.id]))


def partitions(rows: list[Row], s: Schema, by_group: bool = True) -> list[list[Row]]:
    parts: dict[Any, list[Row]] = defaultdict(list)
    for row in rows:
        parts[row[s.group] if by_group else None].append(row)
    return [ordered(part, s) for part in parts.values()]


class Question(Template):
    """One kind of question: its text, its trusted answer, its reference SQL and result columns (its
    :meth:`text` and :meth:`sql` take the table's schema too)."""

    def text(self, p: dict[str, Any], s: Schema) -> str:
        raise NotImplementedError

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        raise NotImplementedError

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        raise NotImplementedError

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        raise NotImplementedError

    def slips(self, p: dict[str, Any]) -> tuple[Answer, ...]:
        """Plausible wrong readings of the question (another tie rule, a non-strict comparison), each an answer
        function like :meth:`answer`: generation redraws tables on which one of them gives every expected result."""
        return ()


ORDER_TEXT = "ordered by {time} and then, for equal {time}, by {id}"


def _order(s: Schema) -> str:
    return ORDER_TEXT.format(time=s.time, id=s.id)


def _scope(p: dict[str, Any], s: Schema) -> str:
    return f"among the rows of the same {s.group}" if p.get("by_group", True) else "over the whole table"


def _over(p: dict[str, Any], s: Schema, frame: str = "") -> str:
    part = f"PARTITION BY {s.group} " if p.get("by_group", True) else ""
    return f"OVER ({part}ORDER BY {s.time}, {s.id}{frame})"


# --- running aggregates -----------------------------------------------------------------------

class Running(Question):
    name = "running"
    tier = 1
    KINDS = {"sum": "the running total of {value}", "max": "the running maximum of {value}",
             "count": "the running count of rows", "min": "the running minimum of {value}"}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"kind": rng.choice(list(self.KINDS)), "by_group": rng.random() < 0.75}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        what = self.KINDS[p["kind"]].format(value=s.value)
        return (f"For every row, give its {s.id} and {what} {_scope(p, s)}, {_order(s)}: the aggregate over that row "
                "and every row before it in this order.")

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.id, f"running_{p['kind']}"]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        out = []
        for part in partitions(rows, s, p["by_group"]):
            seen: list[int] = []
            for row in part:
                seen.append(row[s.value])
                value = {"sum": sum(seen), "max": max(seen), "min": min(seen), "count": len(seen)}[p["kind"]]
                out.append([row[s.id], value])
        return out

    def slips(self, p: dict[str, Any]) -> tuple[Answer, ...]:
        return (_running_by_time,)

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        agg = "COUNT(*)" if p["kind"] == "count" else f"{p['kind'].upper()}({s.value})"
        frame = " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
        return f"SELECT {s.id}, {agg} {_over(p, s, frame)} AS running_{p['kind']}\nFROM {s.table}"


def _running_by_time(p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
    """The running aggregate ordered by time alone (SQL's default frame then takes every row of the same time)."""
    out = []
    for part in partitions(rows, s, p["by_group"]):
        for row in part:
            seen = [r[s.value] for r in part if r[s.time] <= row[s.time]]
            value = {"sum": sum(seen), "max": max(seen), "min": min(seen), "count": len(seen)}[p["kind"]]
            out.append([row[s.id], value])
    return out


# --- rankings ---------------------------------------------------------------------------------

class Ranking(Question):
    name = "ranking"
    tier = 1
    KINDS = {
        "row_number": "its position 1, 2, 3, ... when the rows {scope} are sorted by {value} {direction}, rows with "
                      "equal {value} in increasing {id} order",
        "rank": "its rank {scope} by {value} {direction}: 1 + the number of rows {scope} with a {better} {value} "
                "(equal values share a rank, and ranks then skip)",
        "dense_rank": "its dense rank {scope} by {value} {direction}: 1 + the number of distinct {value} values "
                      "{scope} that are {better} than its own (equal values share a rank, and ranks do not skip)",
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"kind": rng.choice(list(self.KINDS)), "descending": rng.random() < 0.6, "by_group": rng.random() < 0.75}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        direction = "from largest to smallest" if p["descending"] else "from smallest to largest"
        better = "larger" if p["descending"] else "smaller"
        what = self.KINDS[p["kind"]].format(scope=_scope(p, s), value=s.value, direction=direction, better=better,
                                            id=s.id)
        return f"For every row, give its {s.id} and {what}."

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.id, p["kind"]]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        out = []
        sign = -1 if p["descending"] else 1
        for part in partitions(rows, s, p["by_group"]):
            values = [r[s.value] for r in part]
            if p["kind"] == "row_number":
                order = sorted(part, key=lambda r: (sign * r[s.value], r[s.id]))
                out += [[r[s.id], i + 1] for i, r in enumerate(order)]
            elif p["kind"] == "rank":
                out += [[r[s.id], 1 + sum(sign * v < sign * r[s.value] for v in values)] for r in part]
            else:
                out += [[r[s.id], 1 + len({v for v in values if sign * v < sign * r[s.value]})] for r in part]
        return out

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        part = f"PARTITION BY {s.group} " if p["by_group"] else ""
        direction = "DESC" if p["descending"] else "ASC"
        tie = f", {s.id}" if p["kind"] == "row_number" else ""
        window = f"OVER ({part}ORDER BY {s.value} {direction}{tie})"
        return f"SELECT {s.id}, {p['kind'].upper()}() {window} AS {p['kind']}\nFROM {s.table}"


# --- lag / lead -------------------------------------------------------------------------------

class Shift(Question):
    name = "shift"
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"direction": rng.choice(["previous", "next"]), "offset": rng.randint(1, 2), "by_group": True,
                "difference": rng.random() < 0.6}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        which = "before" if p["direction"] == "previous" else "after"
        other = (f"the row {p['offset']} place{'s' if p['offset'] > 1 else ''} {which} it {_scope(p, s)}, {_order(s)}")
        if p["difference"]:
            what = f"its {s.value} minus the {s.value} of {other} (NULL when there is no such row)"
        else:
            what = f"the {s.value} of {other} (NULL when there is no such row)"
        return f"For every row, give its {s.id} and {what}."

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.id, "delta" if p["difference"] else "other"]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        out = []
        step = -p["offset"] if p["direction"] == "previous" else p["offset"]
        for part in partitions(rows, s, True):
            for i, row in enumerate(part):
                j = i + step
                other = part[j][s.value] if 0 <= j < len(part) else None
                if p["difference"]:
                    out.append([row[s.id], None if other is None else row[s.value] - other])
                else:
                    out.append([row[s.id], other])
        return out

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        fn = "LAG" if p["direction"] == "previous" else "LEAD"
        shifted = f"{fn}({s.value}, {p['offset']}) {_over(p, s)}"
        expr = f"{s.value} - {shifted} AS delta" if p["difference"] else f"{shifted} AS other"
        return f"SELECT {s.id}, {expr}\nFROM {s.table}"


# --- moving sums ------------------------------------------------------------------------------

class Moving(Question):
    name = "moving"
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"width": rng.randint(2, 4), "kind": rng.choice(["sum", "max"]), "by_group": rng.random() < 0.75}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        what = "sum" if p["kind"] == "sum" else "largest"
        return (f"For every row, give its {s.id} and the {what} of {s.value} over a "
                f"moving window {_scope(p, s)}, {_order(s)}: the row itself and the {p['width'] - 1} row"
                f"{'s' if p['width'] > 2 else ''} just before it (fewer at the start).")

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.id, f"moving_{p['kind']}"]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        out = []
        for part in partitions(rows, s, p["by_group"]):
            for i, row in enumerate(part):
                window = [r[s.value] for r in part[max(0, i - p["width"] + 1): i + 1]]
                out.append([row[s.id], sum(window) if p["kind"] == "sum" else max(window)])
        return out

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        frame = f" ROWS BETWEEN {p['width'] - 1} PRECEDING AND CURRENT ROW"
        moving = f"{p['kind'].upper()}({s.value}) {_over(p, s, frame)}"
        return f"SELECT {s.id}, {moving} AS moving_{p['kind']}\nFROM {s.table}"


# --- first value ------------------------------------------------------------------------------

class FirstValue(Question):
    name = "first_value"
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"which": rng.choice(["first", "last"]), "difference": rng.random() < 0.5, "by_group": True}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        which = "earliest" if p["which"] == "first" else "latest"
        base = (f"the {s.value} of the {which} row of its {s.group} ({_order(s)}; the {which} is the {p['which']} in "
                "this order)")
        what = f"its {s.value} minus {base}" if p["difference"] else base
        return f"For every row, give its {s.id} and {what}."

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.id, "compared" if p["difference"] else "reference_value"]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        out = []
        for part in partitions(rows, s, True):
            anchor = part[0 if p["which"] == "first" else -1][s.value]
            out += [[r[s.id], r[s.value] - anchor if p["difference"] else anchor] for r in part]
        return out

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        fn = "FIRST_VALUE" if p["which"] == "first" else "LAST_VALUE"
        frame = " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
        value = f"{fn}({s.value}) {_over(p, s, frame)}"
        expr = f"{s.value} - {value} AS compared" if p["difference"] else f"{value} AS reference_value"
        return f"SELECT {s.id}, {expr}\nFROM {s.table}"


# --- top N per group --------------------------------------------------------------------------

class TopN(Question):
    name = "top_n"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"n": rng.randint(1, 3), "largest": rng.random() < 0.6, "ties": rng.choice(["included", "by_id"])}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        word = "largest" if p["largest"] else "smallest"
        better = "larger" if p["largest"] else "smaller"
        if p["ties"] == "included":
            rule = (f"every row such that fewer than {p['n']} rows of its {s.group} have a strictly {better} {s.value} "
                    "(so ties at the boundary are all kept)")
        else:
            rule = (f"the {p['n']} rows of each {s.group} with the {word} {s.value}, equal {s.value} values ordered by "
                    f"increasing {s.id} (a {s.group} with fewer rows keeps them all)")
        return f"Give the {s.group} and the {s.id} of {rule}."

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.group, s.id]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        return _top(p, s, rows, "rank" if p["ties"] == "included" else "row_number")

    def slips(self, p: dict[str, Any]) -> tuple[Answer, ...]:
        stated = "rank" if p["ties"] == "included" else "row_number"
        return tuple(functools.partial(_top, position=other) for other in POSITIONS if other != stated)

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        direction = "DESC" if p["largest"] else "ASC"
        fn = "RANK()" if p["ties"] == "included" else "ROW_NUMBER()"
        tie = "" if p["ties"] == "included" else f", {s.id}"
        return (f"WITH ranked AS (\n  SELECT {s.group}, {s.id},\n         {fn} OVER (PARTITION BY {s.group} ORDER BY "
                f"{s.value} {direction}{tie}) AS position\n  FROM {s.table}\n)\nSELECT {s.group}, {s.id} FROM ranked "
                f"WHERE position <= {p['n']}")


POSITIONS = ("row_number", "rank", "dense_rank")  # SQL's ranking functions


def _top(p: dict[str, Any], s: Schema, rows: list[Row], position: str) -> list[list[Any]]:
    """The rows of each group whose ``position`` (a ranking function, ties in increasing id order) is at most n."""
    sign = -1 if p["largest"] else 1
    out = []
    for part in partitions(rows, s, True):
        values = [sign * r[s.value] for r in part]
        for number, r in enumerate(sorted(part, key=lambda r: (sign * r[s.value], r[s.id])), start=1):
            value = sign * r[s.value]
            place = {"row_number": number, "rank": 1 + sum(v < value for v in values),
                     "dense_rank": 1 + len({v for v in values if v < value})}[position]
            if place <= p["n"]:
                out.append([r[s.group], r[s.id]])
    return out


# --- above the group average ------------------------------------------------------------------

class AboveAverage(Question):
    name = "above_average"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"above": rng.random() < 0.5, "with_count": rng.random() < 0.5}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        side = "greater than" if p["above"] else "less than"
        extra = f" and the number of rows in its {s.group}" if p["with_count"] else ""
        return (f"Give the {s.id}{extra} of every row whose {s.value} is strictly {side} the average {s.value} of the "
                f"rows of its {s.group} (the exact average, not rounded).")

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.id, "group_size"] if p["with_count"] else [s.id]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        return _beside_average(p, s, rows, strict=True)

    def slips(self, p: dict[str, Any]) -> tuple[Answer, ...]:
        return (functools.partial(_beside_average, strict=False),)

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        side = ">" if p["above"] else "<"
        extra = ", group_size" if p["with_count"] else ""
        return (f"WITH stats AS (\n  SELECT {s.id}, {s.value},\n"
                f"         SUM({s.value}) OVER (PARTITION BY {s.group}) AS total,\n"
                f"         COUNT(*) OVER (PARTITION BY {s.group}) AS group_size\n  FROM {s.table}\n)\n"
                f"SELECT {s.id}{extra} FROM stats WHERE {s.value} * group_size {side} total")


def _beside_average(p: dict[str, Any], s: Schema, rows: list[Row], strict: bool) -> list[list[Any]]:
    """The rows above (or below) their group's average; ``strict=False`` keeps the rows equal to it too."""
    out = []
    for part in partitions(rows, s, True):
        total, count = sum(r[s.value] for r in part), len(part)
        for r in part:
            gap = r[s.value] * count - total if p["above"] else total - r[s.value] * count
            if gap > 0 or (gap == 0 and not strict):
                out.append([r[s.id], count] if p["with_count"] else [r[s.id]])
    return out


# --- streaks (gaps and islands) ---------------------------------------------------------------

class Streaks(Question):
    name = "streaks"
    tier = 4

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"rule": rng.choice(["increasing", "non_decreasing", "equal"])}

    def text(self, p: dict[str, Any], s: Schema) -> str:
        rule = {"increasing": f"each row's {s.value} is strictly greater than the previous row's",
                "non_decreasing": f"each row's {s.value} is greater than or equal to the previous row's",
                "equal": f"every row has the same {s.value}"}[p["rule"]]
        return (f"Within each {s.group}, take its rows {_order(s)}. A streak is a maximal run of consecutive rows in "
                f"this order in which {rule} (a single row is a streak of length 1). Give each {s.group} and the "
                "length of its longest streak.")

    def columns(self, p: dict[str, Any], s: Schema) -> list[str]:
        return [s.group, "longest"]

    def answer(self, p: dict[str, Any], s: Schema, rows: list[Row]) -> list[list[Any]]:
        keep = {"increasing": lambda a, b: b > a, "non_decreasing": lambda a, b: b >= a,
                "equal": lambda a, b: b == a}[p["rule"]]
        out = []
        for part in partitions(rows, s, True):
            best = run = 1
            for before, row in zip(part, part[1:]):
                run = run + 1 if keep(before[s.value], row[s.value]) else 1
                best = max(best, run)
            out.append([part[0][s.group], best])
        return out

    def sql(self, p: dict[str, Any], s: Schema) -> str:
        breaks = {"increasing": "<=", "non_decreasing": "<", "equal": "<>"}[p["rule"]]
        return (f"WITH marked AS (\n  SELECT {s.group}, {s.id}, {s.time},\n"
                f"         CASE WHEN {s.value} {breaks} LAG({s.value}) OVER w THEN 1 ELSE 0 END AS breaks_run\n"
                f"  FROM {s.table}\n  WINDOW w AS (PARTITION BY {s.group} ORDER BY {s.time}, {s.id})\n),\n"
                f"islands AS (\n  SELECT {s.group}, SUM(breaks_run) OVER (PARTITION BY {s.group} ORDER BY {s.time}, "
                f"{s.id}) AS island\n  FROM marked\n)\nSELECT {s.group}, MAX(size) AS longest\n"
                f"FROM (SELECT {s.group}, island, COUNT(*) AS size FROM islands GROUP BY {s.group}, island)\n"
                f"GROUP BY {s.group}")


QUESTIONS: dict[str, Question] = {q.name: q for q in (Running(), Ranking(), Shift(), Moving(), FirstValue(), TopN(),
                                                      AboveAverage(), Streaks())}


def draw_rows(rng: random.Random, s: Schema, count: int, groups: int, spread: int) -> list[Row]:
    """Rows with repeated times and values inside groups, so every tie rule matters."""
    names = list(s.groups[:groups])
    ids = rng.sample(range(1, 10 * count + 10), count)
    return [{s.id: ident, s.group: rng.choice(names), s.time: rng.randint(1, max(3, count // 2)),
             s.value: rng.randint(0, spread)} for ident in ids]


def script(s: Schema, rows: list[Row]) -> str:
    """SQL that builds the table from nothing (run before the candidate's query).

    The rows go in by decreasing id, so a scan reads them against the tie order every question states (by id,
    increasing): a query that leaves ties to the storage order gets them reversed and fails.
    """
    by_decreasing_id = sorted(rows, key=lambda r: r[s.id], reverse=True)
    values = ", ".join(f"({r[s.id]}, '{r[s.group]}', {r[s.time]}, {r[s.value]})" for r in by_decreasing_id)
    return f"DROP TABLE IF EXISTS {s.table};\n{s.create()};\nINSERT INTO {s.table} VALUES {values};"


def table_text(s: Schema, rows: list[Row]) -> str:
    header = f"{s.id} | {s.group} | {s.time} | {s.value}"
    lines = [f"{r[s.id]} | {r[s.group]} | {r[s.time]} | {r[s.value]}" for r in sorted(rows, key=lambda r: r[s.id])]
    return "\n".join([header, *lines])


@register
class SqlWindow(PolyglotTask):
    id = "code/sql_window"
    description = "Write one SQL query with window functions (ranks, running totals, lags, top-N, streaks)."
    tags = ("code", "sql", "window-functions")
    version = 3  # v3: tables on which a slip of the tie rule gives every expected result are redrawn
    languages = ("sql",)
    toolchains = languages

    @dataclass(frozen=True)
    class Config:
        questions: tuple[str, ...]
        rows: tuple[int, int]
        groups: int
        databases: int

    presets = (
        Config(("running", "ranking", "shift"), rows=(6, 9), groups=2, databases=2),
        Config(("running", "ranking", "shift", "moving", "first_value"), rows=(8, 12), groups=2, databases=3),
        Config(("ranking", "shift", "moving", "first_value", "top_n"), rows=(10, 16), groups=3, databases=3),
        Config(("moving", "first_value", "top_n", "above_average", "streaks"), rows=(14, 22), groups=3,
                        databases=4),
        Config(("top_n", "above_average", "streaks"), rows=(18, 30), groups=4, databases=4),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            question = QUESTIONS[rng.choice(config.questions)]
            p = {"domain": rng.randrange(len(DOMAINS)), **question.params(rng)}
            s = schema_of(p)
            spread = rng.choice([3, 5, 9])
            tables = [draw_rows(rng, s, rng.randint(*config.rows), config.groups, spread)
                      for _ in range(config.databases + 1)]
            results = [question.answer(p, s, rows) for rows in tables]
            if len({_key(r) for r in results}) < 2 or any(not r for r in results):
                return None
            expected = [_key(r) for r in results]
            if any([_key(slip(p, s, rows)) for rows in tables] == expected for slip in question.slips(p)):
                return None  # a slip of the stated rule would pass every table
            example_rows = tables[0]
            columns = question.columns(p, s)
            shown = "\n".join(" | ".join("NULL" if v is None else str(v) for v in row)
                              for row in sorted(results[0], key=_sort_key))
            prompt = (
                f"A SQLite table:\n\n    {s.create()}\n\nExample contents:\n```\n{table_text(s, example_rows)}\n```\n\n"
                f"Question: {question.text(p, s)}\n\nThe result has exactly {len(columns)} column"
                f"{'s' if len(columns) > 1 else ''}, in this order: {', '.join(columns)} (any column names). Its rows "
                f"may come in any order. For the example contents, the rows are:\n```\n{shown}\n```\n\n"
                "Write one SQL query (a single SELECT statement; WITH ... SELECT is fine) that answers the question "
                "for any contents of the table: it runs on hidden tables with the same columns and other rows. "
                + convention(self.languages, shape=f"SELECT {s.id}, ...\nFROM {s.table}\n...")
            )
            data = {"question": question.name, "params": p, "tables": tables, "results": results,
                    "columns": len(columns), "languages": list(self.languages), "gold": "sql"}
            return Problem(prompt=prompt, answer=fence(("sql", question.sql(p, s))), data=data)

        return retry(draw, attempts=50, what="a window-function question with varied results")

    def sources(self, problem: Problem) -> dict[str, str]:
        p = problem.data["params"]
        return {"sql": QUESTIONS[problem.data["question"]].sql(p, schema_of(p))}

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        s = schema_of(data["params"])
        databases = [script(s, rows) for rows in data["tables"]]
        return polyglot.check_query(program.code, databases, data["results"], columns=data["columns"],
                                    budget=Budget(cpu_seconds=2.0))

    def difficulty(self, problem: Problem) -> float:
        """The question's tier plus the hidden rows / 20."""
        return QUESTIONS[problem.data["question"]].tier + sum(len(t) for t in problem.data["tables"]) / 20


def _sort_key(row: list[Any]) -> list[tuple[int, Any]]:
    """Rows in a readable order: numbers by value, then texts, NULL first."""
    return [(0, 0) if v is None else (1, v) if isinstance(v, int) else (2, str(v)) for v in row]


def _key(result: list[list[Any]]) -> str:
    return repr(sorted(repr(row) for row in result))
