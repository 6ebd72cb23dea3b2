"""Validate the rows of a table against numbered rules and report each bad row's first broken rule.

An employee table (row label, id, email, age, department, start date, manager id) is given with six
numbered rules: ids unique (a row repeating an earlier row's id breaks it), a well-formed email, an integer
age from 18 to 70, a department from a list, a real start date no later than a cut-off, and a manager id
that is empty or the id of some row (a foreign key into the same table). Rows are drawn valid and then
one to several are broken, some in two ways at once, so "first rule in the listed order" matters. The
answer names every bad row with the number of the first rule it breaks (``r3 = 2``), rows that pass left
out; the verifier reads the pairs with the shared assignment reader and names a row wrongly included,
left out or given the wrong rule.

Version 2: every problem has a row that breaks two rules (half of level 0 had none, so reporting any broken
rule, the last say, was right there).

Version 3: every rule decides. v2 broke rows by rules drawn freely, so a check that skipped one rule (the foreign
key, the department list, the cut-off...) was right in 0.50-0.88 of level 0 and 0.31-0.47 of level 4, and one
that compared the start date as text without checking it names a real day in 0.79-0.92. Now the bad rows' first
broken rules are drawn from the seven checks (the six rules, with rule 5 both as a date after the cut-off and
as a day that does not exist) without repetition until all are used, and a table is redrawn until skipping each
drawn check changes the answer; levels have more bad rows (6 of 8 rows at level 0) so that at least six of the
seven checks decide every problem.

Difficulty: the rows plus the bad rows plus the rows broken twice plus the manager references to check.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text, keyed_text, keyed_verdict
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "r98 = 1, r99 = 6"  # a fixed placeholder: never derived from the answer
DEPARTMENTS = ("sales", "finance", "support", "research", "legal")
CUTOFF = date(2024, 12, 31)
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_INTEGER = re.compile(r"\d+")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
RULES = (
    "id is unique: a row whose id already appeared on an earlier row breaks this rule",
    "email is some text, one @, then text containing a dot, with no spaces",
    "age is a whole number from 18 to 70",
    f"department is one of {', '.join(DEPARTMENTS)}",
    f"start_date is a real date written YYYY-MM-DD, no later than {CUTOFF.isoformat()}",
    "manager_id is empty or the id of some row of the table",
)


def _real_date(text: str) -> date | None:
    match = _DATE.fullmatch(text)
    if not match:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None


# The checks a lazy validator can skip: each rule, and rule 5's "real date" read as a text comparison
CHECKS: tuple[int | str, ...] = (1, 2, 3, 4, 5, "5-real", 6)
# How rule 5 is broken: a real date after the cut-off, or a day that does not exist (well formed, before the cut-off)
LATE_DATES = ("2025-01-15", "2026-03-10")
UNREAL_DATES = ("2023-02-29", "2022-13-02", "2021-04-31")


def first_broken(rows: list[dict], skip: int | str | None = None) -> dict[str, int]:
    """Each bad row's label -> the number (1-6) of the first rule it breaks (or, with ``skip``, under the
    misreading that skips that check: a rule's number, or ``"5-real"`` for a start date compared as text)."""
    return {label: rules[0] for label, rules in broken_rules(rows, skip).items()}


def _start_ok(text: str, skip: int | str | None) -> bool:
    if skip == "5-real":  # the lazy reading: any YYYY-MM-DD text sorting before the cut-off passes
        return bool(_DATE.fullmatch(text)) and text <= CUTOFF.isoformat()
    return (_real_date(text) or date.max) <= CUTOFF


def broken_rules(rows: list[dict], skip: int | str | None = None) -> dict[str, list[int]]:
    """Each bad row's label -> the numbers of all the rules it breaks, in order (``skip``: see first_broken)."""
    ids = {row["id"] for row in rows}
    seen: set[str] = set()
    result = {}
    for row in rows:
        checks = (
            skip == 1 or row["id"] not in seen,
            skip == 2 or bool(_EMAIL.fullmatch(row["email"])),
            skip == 3 or bool(_INTEGER.fullmatch(row["age"])) and 18 <= int(row["age"]) <= 70,
            skip == 4 or row["department"] in DEPARTMENTS,
            skip == 5 or _start_ok(row["start"], skip),
            skip == 6 or row["manager"] == "" or row["manager"] in ids,
        )
        seen.add(row["id"])
        broken = [number for number, ok in enumerate(checks, start=1) if not ok]
        if broken:
            result[row["label"]] = broken
    return result


def _break(rng: random.Random, row: dict, rule: int | str, rows: list[dict]) -> None:
    """Break ``rule`` (a number, or ``"5-real"``: a start date naming no real day) on ``row``."""
    if rule == 1:  # an earlier row's id, so that this row is the repeat
        row["id"] = rng.choice([r["id"] for r in rows[: rows.index(row)]])
    elif rule == 2:
        local, _, domain = row["email"].partition("@")
        row["email"] = rng.choice((f"{local}{domain}", f"{local}@{domain.split('.')[0]}", f"{local} @{domain}",
                                   f"{local}@@{domain}"))
    elif rule == 3:
        row["age"] = rng.choice(("17", "71", "4O", "35.5", "-30", "120"))
    elif rule == 4:
        row["department"] = rng.choice(("Sales", "marketing", "hr", "Finance", "R&D"))
    elif rule == 5:
        row["start"] = rng.choice((*LATE_DATES, "2021/06/01"))
    elif rule == "5-real":
        row["start"] = rng.choice(UNREAL_DATES)
    else:
        row["manager"] = f"E{rng.randrange(100, 1000)}"


@register
class Validate(Task):
    id = "data/validate"
    family = "data"
    description = "Check table rows against numbered rules (unique key, formats, ranges, foreign key); first rule broken."
    tags = ("data", "tables", "validation")
    version = 3  # v3: every check decides (v2: skipping one rule paid 0.50-0.88 of level 0, 0.31-0.47 of level 4)

    @dataclass(frozen=True)
    class Config:
        rows: int
        bad: int  # the most bad rows (from 6 on, at least 6)

    presets = (Config(8, 6), Config(10, 7), Config(13, 8), Config(16, 9), Config(20, 10))
    growth = Growth(steps={"rows": 6, "bad": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[dict], int]:
            ids = [f"E{n}" for n in rng.sample(range(100, 1000), config.rows)]
            rows = []
            for index, employee in enumerate(ids):
                first, last = rng.choice(WORDS["first_names"]), rng.choice(WORDS["surnames"])
                start = date(2010, 1, 1).toordinal() + rng.randrange(5400)
                manager = rng.choice(ids[:index]) if index and rng.random() < 0.7 else ""
                rows.append({"label": f"r{index + 1}", "id": employee,
                             "email": f"{first.lower()}.{last.lower()}@corp.example",
                             "age": str(rng.randint(18, 70)), "department": rng.choice(DEPARTMENTS),
                             "start": date.fromordinal(start).isoformat(), "manager": manager})
            most = min(config.bad, config.rows - 1)
            bad = sorted(rng.sample(range(1, config.rows), rng.randint(min(6, most), most)))
            # each bad row's first broken check, the seven checks without repetition while they last
            firsts: list[int | str] = [*rng.sample(CHECKS, min(len(bad), len(CHECKS))),
                      *(rng.choice(CHECKS) for _ in range(len(bad) - len(CHECKS)))]
            twice = 0
            for index, first_check in zip(bad, firsts, strict=True):
                number = 5 if first_check == "5-real" else int(first_check)
                rules: list[int | str] = [first_check]
                if number < 6 and rng.random() < 0.35:  # a later rule broken too: the first one is asked
                    rules.append(rng.randint(number + 1, 6))
                twice += len(rules) == 2
                for rule in rules:
                    _break(rng, rows[index], rule, rows)
            return rows, twice

        def decided(drawn: tuple[list[dict], int]) -> bool:
            rows = drawn[0]
            truth = broken_rules(rows)
            if not any(len(r) >= 2 for r in truth.values()):
                return False  # "the first rule" must decide (with no row broken twice, any broken rule paid 0.5)
            # every check must decide (as many as there are bad rows): skipping one rule paid 0.31-0.88 in v2
            answer = {label: rules[0] for label, rules in truth.items()}
            deciding = sum(first_broken(rows, skip) != answer for skip in CHECKS)
            return deciding >= min(len(truth), len(CHECKS))

        rows, twice = retry(draw, decided, what="a table whose every check decides a row")
        result = first_broken(rows)
        table = csv_text(["row", "id", "email", "age", "department", "start_date", "manager_id"],
                         [[r["label"], r["id"], r["email"], r["age"], r["department"], r["start"], r["manager"]]
                          for r in rows])
        rules_text = "\n".join(f"{number}. {text}" for number, text in enumerate(RULES, start=1))
        prompt = (
            f"Here is an employee table:\n\n{table}\n\nEach row must satisfy these rules:\n\n{rules_text}\n\n"
            "List every row that breaks at least one rule, each with the number of the first rule (in the order "
            "above) that it breaks, as row = rule pairs separated by commas, in any order; leave out the rows that "
            f"pass. For example: {EXAMPLE}"
        )
        references = sum(1 for r in rows if r["manager"])
        data = {"rows": [r["label"] for r in rows], "result": result, "twice": twice, "references": references}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return keyed_verdict(answer, problem.data["result"], problem.data["rows"], what="row", example=EXAMPLE)

    def difficulty(self, problem: Problem) -> float:
        """Rows + bad rows + rows broken twice + manager references."""
        data = problem.data
        return float(len(data["rows"]) + len(data["result"]) + data["twice"] + data["references"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k.upper()}: {v}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        victim = rng.choice(list(result))
        other_rule = {**result, victim: result[victim] % 6 + 1}
        passing = [r for r in problem.data["rows"] if r not in result]
        wrong = [keyed_text(other_rule)]
        if passing:
            wrong.append(keyed_text({**result, passing[0]: 2}))
        if len(result) > 1:
            wrong.append(keyed_text({k: v for k, v in result.items() if k != victim}))
        return wrong
