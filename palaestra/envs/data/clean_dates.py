"""Normalise dates written in several source conventions to ISO 8601 (YYYY-MM-DD).

Records arrive from several systems, each with a stated date convention: DD/MM/YYYY, MM/DD/YYYY,
DD.MM.YYYY, YYYYMMDD, "5 March 2021", "March 5, 2021", "05-Mar-21" (two-digit years 00-69 in the 2000s,
70-99 in the 1900s). Numeric dates are drawn with the day at most 12 half the time, so 03/04/2021 can only
be read through its system's convention. The answer gives every record's ISO date as ``id = date``
pairs in any order (the shared assignment reader); the verifier names the first record whose date is wrong.

Version 2: every problem decides the conventions' traps. With legacy dates in play (level 3 on), one is in the
1900s and one in the 2000s (v1 drew the years freely: reading every two-digit year as 20yy answered 0.35 of level 3
and 0.34 of level 4, as 19yy 0.21); the first crm date's day is at most 12 and not its month, so reading it as
DD/MM is wrong (v1: 0.10-0.19).

Difficulty: the records, plus the conventions in play, plus the numeric dates whose day and month could be
swapped, plus the two-digit years.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, timedelta

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.data.common import keyed_text, keyed_verdict
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "R98 = 1999-12-31, R99 = 2000-01-01"  # a fixed placeholder: never derived from the answer
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
# system name -> (convention shown in the prompt, whether day and month are both numbers)
CONVENTIONS = {
    "billing": ("DD/MM/YYYY", True),
    "crm": ("MM/DD/YYYY", True),
    "warehouse": ("DD.MM.YYYY", True),
    "export": ("YYYYMMDD", False),
    "webshop": ("D Month YYYY, e.g. 5 March 2021", False),
    "support": ("Month D, YYYY, e.g. March 5, 2021", False),
    "legacy": ("DD-Mon-YY, e.g. 05-Mar-21; years 00-69 are 2000-2069 and 70-99 are 1970-1999", False),
}
ORDER = ("billing", "crm", "webshop", "warehouse", "legacy", "export", "support")
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")


def written(day: date, system: str) -> str:
    """``day`` as the ``system`` writes it."""
    if system == "billing":
        return day.strftime("%d/%m/%Y")
    if system == "crm":
        return day.strftime("%m/%d/%Y")
    if system == "warehouse":
        return day.strftime("%d.%m.%Y")
    if system == "export":
        return day.strftime("%Y%m%d")
    if system == "webshop":
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    if system == "support":
        return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    return f"{day.day:02d}-{MONTHS[day.month - 1][:3]}-{day.year % 100:02d}"


def read_iso(text: str) -> date | None:
    match = _ISO.fullmatch(text.strip())
    if not match:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None


@register
class CleanDates(Task):
    id = "data/clean_dates"
    family = "data"
    description = "Normalise dates written in several stated source conventions (DD/MM vs MM/DD, names) to ISO."
    tags = ("data", "cleaning", "dates")
    version = 2  # v2: legacy years in both centuries, a crm date that DD/MM misreads (v1: 20yy paid 0.35 of level 3)

    @dataclass(frozen=True)
    class Config:
        records: int
        systems: int  # conventions in play (the first ones of ORDER)

    presets = (Config(4, 2), Config(6, 3), Config(8, 4), Config(11, 5), Config(15, 7))
    growth = Growth(steps={"records": 5, "systems": 0})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        systems = list(ORDER[: config.systems])
        numbers = rng.sample(range(1, max(100, 4 * config.records)), config.records)
        # each system once, a second legacy date (one in each century), then systems at random
        plan = systems + (["legacy"] if "legacy" in systems else [])
        plan += [rng.choice(systems) for _ in range(config.records - len(plan))]
        records = []
        legacy_seen = 0
        for index, (number, system) in enumerate(zip(numbers, plan, strict=True)):
            low_year, high_year = (1970, 2035) if system == "legacy" else (1990, 2035)
            if system == "legacy" and legacy_seen < 2:  # one two-digit year of each century
                low_year, high_year = ((1970, 1999), (2000, 2035))[legacy_seen]
                legacy_seen += 1
            day = date(low_year, 1, 1) + timedelta(days=rng.randrange((date(high_year, 12, 31) - date(low_year, 1, 1)).days))
            if system == "crm" and index < len(systems):  # the first crm date: DD/MM would read another day
                day = day.replace(day=rng.choice([d for d in range(1, 13) if d != day.month]))
            elif CONVENTIONS[system][1] and rng.random() < 0.5:  # a day that could be a month
                day = day.replace(day=rng.randint(1, 12))
            records.append({"id": f"R{number}", "system": system, "date": day.isoformat()})
        rng.shuffle(records)
        legend = "\n".join(f"- {name}: {CONVENTIONS[name][0]}" for name in systems)
        table = "\n".join(f"{r['id']},{r['system']},{written(date.fromisoformat(r['date']), r['system'])}"
                          for r in records)
        prompt = (
            f"Records were collected from several systems, each writing dates its own way:\n\n{legend}\n\n"
            f"The records (id, system, date as written):\n\n{table}\n\n"
            "Rewrite every record's date in ISO 8601 form, YYYY-MM-DD. Answer with one id = date pair per record, "
            f"separated by commas, in any order, for example: {EXAMPLE}"
        )
        result = {r["id"]: r["date"] for r in records}
        ambiguous = sum(1 for r in records if CONVENTIONS[r["system"]][1] and date.fromisoformat(r["date"]).day <= 12)
        data = {"records": records, "result": result, "systems": systems, "ambiguous": ambiguous,
                "short_years": sum(1 for r in records if r["system"] == "legacy")}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        truth = {key: date.fromisoformat(value) for key, value in problem.data["result"].items()}
        return keyed_verdict(answer, truth, list(truth), read_iso, what="record", example=EXAMPLE,
                             describe=lambda d: d.isoformat())

    def difficulty(self, problem: Problem) -> float:
        """Records + conventions + numeric dates with a swappable day and month + two-digit years."""
        data = problem.data
        return float(len(data["records"]) + len(data["systems"]) + data["ambiguous"] + data["short_years"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k}: {v}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = dict(problem.data["result"])
        records = problem.data["records"]
        wrong = []
        swappable = [r for r in records if CONVENTIONS[r["system"]][1]
                     and date.fromisoformat(r["date"]).day <= 12 and date.fromisoformat(r["date"]).day
                     != date.fromisoformat(r["date"]).month]
        if swappable:
            victim = swappable[0]
            day = date.fromisoformat(victim["date"])
            wrong.append(keyed_text({**result, victim["id"]: date(day.year, day.day, day.month).isoformat()}))
        victim = rng.choice(records)
        wrong.append(keyed_text({**result, victim["id"]: (date.fromisoformat(victim["date"]) + timedelta(days=1))
                                .isoformat()}))
        wrong.append(keyed_text({k: v for k, v in result.items() if k != victim["id"]}))
        return wrong
