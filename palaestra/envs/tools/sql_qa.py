"""Question answering over a generated SQLite database: query it with the sql tool, answer with the value.

Each problem has its own database (retail, school or library domain; 2-8 tables linked by foreign
keys, NULLs in nullable columns) whose schema the prompt shows; the rows are only reachable
through the read-only ``sql`` tool. Questions have one-value answers: filtered counts, aggregates,
the row with the highest value, counts through one or two joins, anti-joins, comparisons with an
average. The answer is the value: an exact integer for counts, a number rounded to 2 decimal
places for aggregates (answers within half a cent of the rounded reference are accepted), or the
text of a name or title (case, spacing and punctuation ignored). Where every question of a level counts
(level 0's filtered counts, level 3's counts above an average), the count is drawn first, uniformly (2-19 at
level 0, 2-30 at level 3), and questions are drawn until one has it (after 8 databases a neighbour within 1 is
taken, after 16 within 2, ...): v3 thinned small counts only, and "2" and "9" each answered an eighth of level 0.
Elsewhere counts below 2 are redrawn and counts below 8 thinned (kept with probability count / 8), so no
template answers mostly 0 or 1 and no count is a good constant guess.
Levels grow the database and the query (tier 0-4). The difficulty is twice the query tier plus the number of tables.

Generation speed: about 300 problems/s at level 4 on this 2-core machine (about 35/s at level 3, whose drawn
count takes about 7 databases of 12 questions each: a database holds few counts above an average). Each problem
draws its own database (8 tables of about 60 rows, by the shared database generator) and writes it to a SQLite file to
run the reference query, so that no answer can be memorised across problems; generating the rows and the
file is nearly all the time, and small counts are redrawn so that guessing 0, 1 or 2 does not pay.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import GenerationError, Problem, Verdict, register, retry
from palaestra.envs.tools import _sqldata as sqldata
from palaestra.envs.tools.common import ToolTask, counted_units, tool_call
from palaestra.generators import database as dbgen
from palaestra.generators.database import DatabaseParams
from palaestra.generators.knowledge import normalize
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import Tolerance, grade_number

# Question kinds with a one-value answer, by tier.
SINGLE_VALUE_KINDS = {0: ("count_where",), 1: ("aggregate", "argmax"), 2: ("count_join", "count_without"),
                      3: ("above_average",), 4: ("count_join2",)}
MAX_ANSWER_CHARS = 400
MIN_COUNT = 2  # counts below it are redrawn
COUNT_SCALE = 8  # counts below it are thinned (see generate)
QUESTIONS_PER_DATABASE = 12  # where the count is drawn first: questions tried on one database before another is drawn
EXACT_DATABASES = 8  # databases tried for the drawn count exactly; then for it +-1, 8 more for +-2, ...
EXAMPLES = {"integer": "17", "number": "412.5", "text": "Vela Dorn"}  # the prompt's example, whatever the answer


@register
class SqlQa(ToolTask):
    id = "tools/sql_qa"
    family = "tools"
    description = "Answer a question about a generated SQLite database by querying it with a read-only sql tool."
    tags = ("tools", "multi-turn", "sql", "databases")
    tool_names = ("sql",)
    version = 4  # v4: levels 0 and 3 draw the count first (v3: "9" paid 0.115 at level 0)

    @dataclass(frozen=True)
    class Config:
        tier: int
        database: DatabaseParams
        budget: int
        counts: tuple[int, int] | None = None  # a tier whose questions all count: the count, drawn uniformly first

    presets = (
        Config(0, DatabaseParams(tables=2, rows=20), 4, (2, 19)),  # v4: 18 counts (v3: "9" paid 0.115, "2" 0.12)
        Config(1, DatabaseParams(tables=3, rows=30), 5),
        Config(2, DatabaseParams(tables=4, rows=40), 6),
        Config(3, DatabaseParams(tables=6, rows=50), 7, (2, 30)),  # v4: 29 counts (v3: "20" paid 0.08)
        Config(4, DatabaseParams(tables=8, rows=60), 8),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # Where every question of the tier counts, the count is drawn first, uniformly, and questions are drawn
        # (several on one database: a question costs a fraction of a database) until one has it: the counts a
        # template gives pile up (v3: "2" and "9" each answered an eighth of level 0).
        target = rng.randint(*config.counts) if config.counts else None
        tried = [0]

        def draw() -> tuple[int, dbgen.Database, dbgen.SqlQuestion] | None:
            seed, db = sqldata.draw_database(rng, config.database)
            slack = tried[0] // EXACT_DATABASES  # a rare count (19 of level 0's 20-row tables) settles for a neighbour
            tried[0] += 1
            for _ in range(1 if target is None else QUESTIONS_PER_DATABASE):
                try:  # a kind the drawn tables cannot support fails: draw another question, or database
                    kind = rng.choice(SINGLE_VALUE_KINDS[config.tier])
                    question = dbgen.sql_question(db, rng, config.tier, kind=kind)
                except (GenerationError, ValueError, IndexError):
                    continue
                value = question.rows[0][0]
                counted = question.sql.startswith("SELECT COUNT") and isinstance(value, int)
                if target is not None:
                    if counted and abs(value - target) <= slack and value >= MIN_COUNT:
                        return seed, db, question
                    continue
                # Some templates count at most one row (a unique column, every parent referenced), and small
                # tables give small counts: a constant 0, 1 or 2 would earn reward. Counts below 2 are asked
                # again, counts below COUNT_SCALE kept with probability count / COUNT_SCALE.
                if counted and value < COUNT_SCALE and (value < MIN_COUNT or rng.random() >= value / COUNT_SCALE):
                    return None
                return seed, db, question
            return None

        seed, db, question = retry(draw, what="a database with a one-value question", attempts=60)
        value = question.rows[0][0]
        kind = "integer" if isinstance(value, int) else "number" if isinstance(value, float) else "text"
        example = EXAMPLES[kind]
        form = {"integer": "an integer", "number": "a number rounded to 2 decimal places",
                "text": "the text value exactly as stored"}[kind]
        prompt = (
            f"{sqldata.schema_block(db)}\n\nQuestion: {question.text}\n\n"
            f"Find the answer by querying the database. Answer with {form} only, e.g. <answer>{example}</answer>.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"database": dbgen.database_spec(seed, config.database), "sql": question.sql, "kind": kind,
                "value": value, "tier": config.tier, "budget": config.budget}
        return Problem(prompt=prompt, answer=str(value), data=data)

    def difficulty(self, problem: Problem) -> float:
        """Twice the query's tier plus the tables, plus a fiftieth of the reference query's characters."""
        data = problem.data
        return 2 * data["tier"] + data["database"]["params"]["tables"] + len(data["sql"]) / 50

    def judge(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > MAX_ANSWER_CHARS:
            return Verdict.wrong("answer too long")
        kind, value = problem.data["kind"], problem.data["value"]
        if kind == "text":
            key = normalize(str(value))
            ok = read_answer(answer, lambda s: True if normalize(s) == key else None)
            return Verdict.judge(bool(ok))
        tolerance = Tolerance.decimals(2) if kind == "number" else None
        verdict = grade_number(answer, value, tolerance=tolerance, units=counted_units(problem.prompt))
        if verdict is None:
            return Verdict.unparsed("not a number")
        return Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        return [tool_call("sql", query=problem.data["sql"]), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        kind, value = problem.data["kind"], problem.data["value"]
        if kind == "text":
            return [str(value).upper(), f"'{value}'", f"{value}."]
        if kind == "integer":
            return [f"{value:,}", f"{value}.0", f"**{value}**"]
        return [f"{value:.2f}", f"{value:.3f}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        kind, value = problem.data["kind"], problem.data["value"]
        if kind == "text":
            return [str(value)[:-1], f"{value} or {value}x", "NULL"]
        if kind == "integer":
            return [str(value + 1), str(value - 1), f"{value} or {value + 1}"]
        return [f"{value + 0.01:.2f}", f"{value - 0.02:.2f}", f"{round(value)}" if abs(value - round(value)) > 0.01
                else f"{value + 1:.2f}"]

