"""Text-to-SQL: write one SQLite query answering a question about a generated database.

The prompt shows the schema and the question; the model may try queries with the read-only
``sql`` tool, then gives its final query. It is judged by execution, read-only, with the sql
tool's limits: its result must hold the same rows as the reference query's result (as multisets;
in order only when the question asks for an order; columns may come in another order; numbers
compare by value), on the database and on a thinned twin of it (the same tables with about
30% of the rows dropped), so a query that hard-codes the result it saw (``SELECT 17``,
``VALUES ...``) is rejected. Questions go from filtered counts (tier 0) through aggregates and
arg-max, joins and anti-joins, grouping, top-n and nested averages, to HAVING and two-step joins
(tier 4), on databases of 2 to 8 tables. A count per row ("0 when none") has a row counting 0 on the
database or the twin, so the inner join, which drops such rows, fails (it passed 7 of 9 such problems at
level 3 in version 1). The difficulty is twice the tier plus the number of tables.

Generation speed: about 170 problems/s at level 4 on this 2-core machine. Each problem draws its own
database (8 tables of about 60 rows, by the shared database generator), writes it to a SQLite file and
runs the reference query on it and on up to a few thinned twins until one gives a different non-empty
result without ties; row generation and the SQLite files are nearly all the time, and the twin is what
stops a query that hard-codes the rows from earning reward.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from typing import Any

from palaestra.core import GenerationError, Problem, Verdict, register, retry
from palaestra.envs.tools import _sqldata as sqldata
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.generators import database as dbgen
from palaestra.generators.database import Database, DatabaseParams
from palaestra.tools.sql import results_match
from palaestra.verifiers.normalize import strip_wrappers

THIN_SALTS = 8  # thinned twins tried per problem


@register
class TextToSql(ToolTask):
    id = "tools/text_to_sql"
    family = "tools"
    description = "Write a SQLite query for a question; judged by executing it against the reference query."
    tags = ("tools", "multi-turn", "sql", "text-to-sql", "databases")
    tool_names = ("sql",)
    version = 2  # v2: a count per row has a row counting 0 (an inner join in place of the LEFT JOIN passed 5 of 6)

    @dataclass(frozen=True)
    class Config:
        tier: int
        database: DatabaseParams
        budget: int

    presets = (
        Config(0, DatabaseParams(tables=2, rows=20), 4),
        Config(1, DatabaseParams(tables=3, rows=30), 5),
        Config(2, DatabaseParams(tables=4, rows=40), 6),
        Config(3, DatabaseParams(tables=6, rows=50), 7),
        Config(4, DatabaseParams(tables=8, rows=60), 8),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[int, Database, dbgen.SqlQuestion, int] | None:
            seed, db = sqldata.draw_database(rng, config.database)
            try:
                question = dbgen.sql_question(db, rng, config.tier)
            except (GenerationError, ValueError, IndexError):
                return None
            salt = _thin_salt(db, question)
            return None if salt is None else (seed, db, question, salt)

        seed, db, question, salt = retry(draw, what="a database with a question and a thinned twin", attempts=30)
        order = ("Row order matters: the question asks for it." if question.ordered
                 else "Row order does not matter.")
        prompt = (
            f"{sqldata.schema_block(db)}\n\nWrite one SQLite query that answers: {question.text}\n\n"
            f"Your query is run on the database and its result rows compared with the expected ones. {order} "
            "It must compute the answer from the tables (it is also run on another instance of the same schema) "
            f"within {sqldata.JUDGE_SECONDS:g} s. "
            "You may try queries with the sql tool first. Give the final query alone, e.g. "
            "<answer>SELECT name FROM some_table WHERE some_column > 3</answer>.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"database": dbgen.database_spec(seed, config.database), "sql": question.sql,
                "ordered": question.ordered, "thin_salt": salt, "tier": config.tier, "budget": config.budget}
        return Problem(prompt=prompt, answer=question.sql, data=data)

    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "tools/sql_qa": ("the answer is the SQL query itself, judged by executing it on the database and a "
                    "thinned twin; sql_qa's answer is the value a question asks for, found by "
                    "querying"),
        "tools/sql_statistics": ("the answer is the SQL query itself; sql_statistics fetches values with SQL and "
                    "computes a statistic SQLite cannot (median, correlation) in Python"),
    }

    def difficulty(self, problem: Problem) -> float:
        """Twice the query's tier plus the tables, plus a tenth of the words of the reference query."""
        data = problem.data
        return 2 * data["tier"] + data["database"]["params"]["tables"] + len(data["sql"].split()) / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        query = _query_text(answer)
        try:
            db = dbgen.database_from_spec(problem.data["database"])
            for number, instance in enumerate((db, sqldata.thinned(db, problem.data["thin_salt"]))):
                expected = sqldata.execute(instance, problem.data["sql"])
                if expected.error is not None:
                    return Verdict.failed(f"the reference query failed: {expected.error}")
                got = sqldata.execute_untrusted(instance, query)
                if got.error is not None:
                    return Verdict.wrong(f"the query failed: {got.error[:200]}")
                if got.truncated or not results_match(expected.rows, got.rows, problem.data["ordered"]):
                    where = "the database" if number == 0 else "another instance of the schema"
                    return Verdict.wrong(f"the query's result on {where} differs from the expected result")
        except (OSError, sqlite3.Error) as exc:  # the database file could not be written or opened
            return Verdict.failed(f"database unavailable: {exc}")
        return Verdict.right()

    def plan(self, problem: Problem) -> list[str]:
        return [tool_call("sql", query=problem.data["sql"]), problem.data["sql"]]

    def spellings(self, problem: Problem) -> list[str]:
        sql = problem.data["sql"]
        spelled = [f"{sql};", f"-- the query\n{sql}", f"```sql\n{sql}\n```"]
        if not problem.data["ordered"]:
            spelled.append(f"SELECT * FROM ({sql})")
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        db = dbgen.database_from_spec(problem.data["database"])
        sql = problem.data["sql"]
        table = db.tables[0].name
        wrong = [f"DELETE FROM {table}", "SELECT 1"]
        if sql.startswith("SELECT COUNT(*) FROM") and " WHERE " in sql and " JOIN " not in sql:
            wrong.append(sql.split(" WHERE ")[0])  # the filter dropped (the generator keeps only filters that filter)
        wrong.append(_literal_query(sqldata.execute(db, sql).rows))
        return wrong


def _query_text(answer: str) -> str:
    """The query inside the answer: wrappers and a ```sql fence looked through, a trailing ``;`` dropped."""
    text = strip_wrappers(answer).strip()
    return text[:-1].rstrip() if text.endswith(";") else text


def _thin_salt(db: Database, question: dbgen.SqlQuestion) -> int | None:
    """A thinned twin on which the reference result is non-empty, differs from the full database's,
    and has no tie at a LIMIT (so every equivalent query agrees on it), and, for a count per row, where
    the database or the twin has a row counting 0; None if none of a few does (the problem is then
    drawn again)."""
    for salt in range(THIN_SALTS):
        twin = sqldata.thinned(db, salt)
        result = sqldata.execute(twin, question.sql)
        if result.error is not None or not result.rows or results_match(question.rows, result.rows, False):
            continue
        if question.spec["kind"] == "group_count" and not any(row[-1] == 0 for row in [*question.rows, *result.rows]):
            continue  # no row counts 0: an inner join, which drops those rows, would pass
        if _tie_free(twin, question.spec):
            return salt
    return None


def _tie_free(db: Database, spec: dict[str, Any]) -> bool:
    """Whether the top values a LIMIT cuts (arg-max, top-n) are distinct on ``db``."""
    if spec["kind"] not in ("argmax", "top_n"):
        return True
    values = sorted((v for v in db.table(spec["table"]).values(spec["column"]) if v is not None),
                    reverse=spec.get("highest", True))
    n = spec.get("n", 1)
    return len(values) > n and len(set(values[: n + 1])) == n + 1


def _literal_query(rows: list[tuple] | tuple) -> str:
    """``VALUES (...), (...)``: the result stated, not computed (must be rejected)."""
    def literal(value: Any) -> str:
        if value is None:
            return "NULL"
        if isinstance(value, str):
            return "'" + value.replace("'", "''") + "'"
        return repr(value)

    return "VALUES " + ", ".join("(" + ", ".join(literal(v) for v in row) + ")" for row in rows)
