"""Sort records by several keys (some ascending, some descending, some derived), stably.

Records have a distinct name, an age, a city and a score drawn from small ranges so that ties are
common. The sort order is a random list of keys, each ascending or descending; from level 3 on a
key can be derived (the name's length, its last letter, the score's last digit). Records that tie
on every key keep their original order (a stable sort), so the order is unique; the verifier
compares the list of names exactly.

Records are redrawn until each stated rule changes the answer: some records tie on every key in an
order other than their names' (breaking full ties by name instead of keeping the original order was
right for 0.41/0.62 of levels 0/2 before version 2), and, with several keys, dropping the last key
gives another order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.algorithms.common import read_labels

NAMES = ("Ada", "Bea", "Cy", "Dov", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lev", "Mia", "Ned", "Oz",
         "Pia", "Quin", "Rex", "Sol", "Tam", "Uma", "Vic", "Wes", "Xan", "Yul", "Zoe", "Alma", "Bruno", "Clara",
         "Dante", "Edith", "Felix", "Greta", "Hugo", "Irene", "Jonas", "Karin", "Lorenz", "Marta", "Nils")
CITIES = ("Oslo", "Lima", "Kyiv", "Rome", "Pune", "Bern", "Cork", "Kobe")
BASIC = {
    "age": ("age", lambda r: r["age"]),
    "city": ("city (alphabetically)", lambda r: r["city"]),
    "score": ("score", lambda r: r["score"]),
    "name": ("name (alphabetically)", lambda r: r["name"]),
}
DERIVED = {
    "name_length": ("number of letters in the name", lambda r: len(r["name"])),
    "last_letter": ("last letter of the name (alphabetically)", lambda r: r["name"][-1]),
    "score_digit": ("last digit of the score", lambda r: r["score"] % 10),
}


@register
class MultiKeySort(Task):
    id = "algorithms/multi_key_sort"
    family = "algorithms"
    description = "Sort records stably by several ascending/descending (and derived) keys."
    tags = ("algorithms", "sorting")
    version = 2

    @dataclass(frozen=True)
    class Config:
        records: int
        keys: int
        derived: bool

    presets = (
        Config(records=5, keys=1, derived=False),
        Config(records=7, keys=2, derived=False),
        Config(records=9, keys=2, derived=False),
        Config(records=12, keys=3, derived=True),
        Config(records=16, keys=3, derived=True),
    )
    growth = Growth(steps={"records": 4}, limits={"records": len(NAMES)})  # one distinct name per record

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.records

        def draw() -> tuple[list[dict], list[list[str]], list[str]] | None:
            records = [{"name": name, "age": rng.randint(20, 20 + n // 2),
                        "city": rng.choice(CITIES[: max(3, n // 3)]), "score": rng.randint(50, 50 + 2 * n)}
                       for name in rng.sample(NAMES, n)]
            pool = [k for k in BASIC if k != "name"] + (list(DERIVED) if config.derived else [])
            keys = [[k, rng.choice(["ascending", "descending"])] for k in rng.sample(pool, config.keys)]
            order = sort_records(records, keys)
            by_name = sort_records(sorted(records, key=lambda r: r["name"]), keys)
            if by_name == order or (len(keys) > 1 and sort_records(records, keys[:-1]) == order):
                return None  # the stable order of full ties, or the last key, would not matter
            return records, keys, order

        records, keys, order = retry(draw, what="records on which every sorting rule matters")
        rows = "\n".join(f"{r['name']}: age {r['age']}, city {r['city']}, score {r['score']}" for r in records)
        rules = "; then ".join(f"by {_KEYS[k][0]}, {direction}" for k, direction in keys)
        prompt = (
            f"Records, in their original order:\n{rows}\n\nSort the records {rules}. Records that tie on all of "
            "these keep their original order (a stable sort). Give the names in sorted order, separated by commas, "
            "for example: Zed, Amy, Lou"
        )
        return Problem(prompt=prompt, answer=", ".join(order),
                       data={"records": [[r["name"], r["age"], r["city"], r["score"]] for r in records],
                             "keys": keys})

    def difficulty(self, problem: Problem) -> float:
        """Records times keys, plus the records whose first key ties with another (the later keys decide)."""
        records, keys = problem.data["records"], problem.data["keys"]
        rows = [dict(zip(("name", "age", "city", "score"), r)) for r in records]
        key = {**BASIC, **DERIVED}[keys[0][0]][1]
        first = [str(key(r)) for r in rows]
        tied = sum(first.count(v) > 1 for v in first)
        return float(len(records) * len(keys) + tied / 2)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = [r[0] for r in problem.data["records"]]
        got = read_labels(answer, names)
        if got is None:
            return Verdict.unparsed("expected the names separated by commas")
        truth = (problem.answer or "").split(", ")
        if len(got) != len(truth) or sorted(got) != sorted(truth):
            return Verdict.wrong("every name must appear exactly once")
        for i, (a, b) in enumerate(zip(got, truth), 1):
            if a != b:
                return Verdict.wrong(f"position {i} should not be {a}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        names = (problem.answer or "").split(", ")
        return [*super().spellings(problem), " ".join(names), "\n".join(f"{i}. {n}" for i, n in enumerate(names, 1)),
                ", ".join(n.lower() for n in names)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = (problem.answer or "").split(", ")
        swapped = names[:]
        swapped[0], swapped[1] = swapped[1], swapped[0]
        original = [r[0] for r in problem.data["records"]]
        wrong = [", ".join(swapped), ", ".join(names[:-1]), ", ".join(reversed(names))]
        if original != names:
            wrong.append(", ".join(original))
        return wrong


_KEYS = {**BASIC, **DERIVED}


def sort_records(records: list[dict], keys: list[list[str]]) -> list[str]:
    """Names in stable multi-key order: sort by the last key first, each pass stable."""
    ordered = list(records)
    for key, direction in reversed(keys):
        ordered.sort(key=_KEYS[key][1], reverse=direction == "descending")
    return [r["name"] for r in ordered]
