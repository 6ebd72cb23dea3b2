"""Group duplicate customer records by a stated matching rule (transitively) and name each group's first id.

Customer records (id, name, email, phone) come from several sign-ups. Two records are the same customer
when their emails are equal ignoring letter case and surrounding spaces, or their phone numbers have the
same digits (spaces, dots, dashes and brackets ignored); sameness is transitive, so a record can join a
group through a third record (one sharing its email, that one sharing a phone with another). Names are
not compared: people change how they write their names, and two customers share one; since v3 every
problem is redrawn until matching records whose names are written alike (ignoring case) changes the answer,
so any looser name match does too (v2: matching equal names answered 0.80 of level 0, 0.55 of level 2 and
0.41 of level 4). The answer gives, for every record, the smallest id of its group (``R7 = R2``; a record alone
names itself); the verifier reads the pairs with the shared assignment reader and names the first wrong
record. The reference comes from a union-find over the rule, so it is unique.

Version 2: every problem has a record joined to its group's first id only through another record, so
matching records directly (not transitively) never gives the answer (it gave 0.77 of level 0).

Difficulty: the records plus the records in groups of two or more plus the records joined only through
another record.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, keyed_text, keyed_verdict
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "R98 = R98, R99 = R98"  # a fixed placeholder: never derived from the answer
DOMAINS = ("mail.test", "post.example", "inbox.example", "web.test")
_ID = re.compile(r"R\d{1,4}", re.IGNORECASE)


def _read_id(text: str) -> str | None:
    value = text.strip().strip("`*\"'")
    return value.upper() if _ID.fullmatch(value) else None


def _digits(phone: str) -> str:
    return "".join(c for c in phone if c.isdigit())


def groups(records: list[dict], *, names: bool = False) -> dict[str, str]:
    """Each record's group representative (the smallest id) under the matching rule, found by union-find.

    ``names`` misreads the rule: records whose names are written alike (ignoring case) match too. Any looser
    name match (initials, "Last, First") joins at least these records, so it changes the grouping whenever
    this one does.
    """
    parent = {r["id"]: r["id"] for r in records}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def number(record_id: str) -> int:
        return int(record_id[1:])

    seen: dict[tuple[str, str], str] = {}
    for record in records:
        keys = [("email", record["email"].strip().lower()), ("phone", _digits(record["phone"]))]
        for key in keys + ([("name", record["name"].strip().lower())] if names else []):
            if key in seen:
                a, b = find(seen[key]), find(record["id"])
                if a != b:
                    low, high = sorted((a, b), key=number)
                    parent[high] = low
            else:
                seen[key] = record["id"]
    return {r["id"]: find(r["id"]) for r in records}


def _phone_style(rng: random.Random, digits: str) -> str:
    a, b, c = digits[:3], digits[3:6], digits[6:]
    return rng.choice((f"{a}-{b}-{c}", f"({a}) {b} {c}", f"{a}.{b}.{c}", f"{a} {b}{c}", digits))


def _email_style(rng: random.Random, email: str) -> str:
    local, _, domain = email.partition("@")
    return rng.choice((email, email.upper(), local.capitalize() + "@" + domain, f" {email}", email.title()))


@register
class Dedupe(Task):
    id = "data/dedupe"
    family = "data"
    description = "Group duplicate customer records by email or phone digits, transitively; name each group's first id."
    tags = ("data", "cleaning", "entity-resolution")
    version = 3

    @dataclass(frozen=True)
    class Config:
        records: int
        people: int

    presets = (Config(5, 3), Config(7, 4), Config(10, 5), Config(14, 7), Config(20, 9))
    growth = Growth(steps={"records": 6, "people": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> list[dict]:
            people: list[dict[str, Any]] = []
            for _ in range(config.people):
                first, last = rng.choice(WORDS["first_names"]), rng.choice(WORDS["surnames"])
                emails = [f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@{rng.choice(DOMAINS)}"]
                emails.append(f"{first[0].lower()}{last.lower()}{rng.randint(1, 99)}@{rng.choice(DOMAINS)}")
                phones = [str(rng.randint(200, 999)) + str(rng.randrange(10**6, 10**7)) for _ in range(2)]
                people.append({"first": first, "last": last, "emails": emails, "phones": phones})
            # two customers with one name: names must not decide
            people[1]["first"], people[1]["last"] = people[0]["first"], people[0]["last"]
            ids = sorted(rng.sample(range(1, max(100, 5 * config.records)), config.records))
            records = []
            for number in ids:
                person = rng.choice(people)
                name = rng.choice((f"{person['first']} {person['last']}", f"{person['first'][0]}. {person['last']}",
                                   f"{person['last']}, {person['first']}", f"{person['first'].lower()} {person['last']}"))
                records.append({"id": f"R{number}", "name": name,
                                "email": _email_style(rng, rng.choice(person["emails"])),
                                "phone": _phone_style(rng, rng.choice(person["phones"]))})
            return records

        def interesting(records: list[dict]) -> bool:
            found = groups(records)
            sizes = [list(found.values()).count(rep) for rep in set(found.values())]
            # transitivity must matter: a record that matches its group's first id only through another one
            # (matching directly only answered 0.77 of level 0 and 0.53 of level 2)
            joined_through = any(found[r["id"]] != r["id"] and not _matches_directly(records, r["id"], found[r["id"]])
                                 for r in records)
            # names must not decide: matching records by name too gives another grouping (v2 paid that 0.41 of level 4)
            by_name = groups(records, names=True) != found
            return any(s >= 2 for s in sizes) and len(sizes) >= 2 and joined_through and by_name

        records = retry(draw, interesting, attempts=400, what="records with a duplicate group and two customers")  # level 0 keeps ~8%
        found = groups(records)
        table = "\n".join(f"{r['id']} | {r['name']} | {r['email']} | {r['phone']}" for r in records)
        prompt = (
            f"A customer list (id | name | email | phone):\n\n{table}\n\nTwo records belong to the same customer when "
            "their emails are equal ignoring letter case and surrounding spaces, or their phone numbers have the same "
            "digits (ignoring spaces, dots, dashes and brackets). This is transitive: if A matches B and B matches C, "
            "then A, B and C are one customer. Names are not compared.\n\nFor every record, give the smallest id of "
            "its customer's records (a record with no match gives its own id), as id = id pairs separated by commas, "
            f"in any order, for example: {EXAMPLE}"
        )
        grouped = [r["id"] for r in records if list(found.values()).count(found[r["id"]]) >= 2]
        indirect = [rid for rid in grouped if found[rid] != rid and not _matches_directly(records, rid, found[rid])]
        data = {"records": records, "result": found, "grouped": len(grouped), "indirect": len(indirect)}
        return Problem(prompt=prompt, answer=keyed_text(found), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        truth = problem.data["result"]
        return keyed_verdict(answer, truth, list(truth), _read_id, what="record", example=EXAMPLE)

    def difficulty(self, problem: Problem) -> float:
        """Records + records in groups of two or more + records joined to their group's first only indirectly."""
        data = problem.data
        return float(len(data["records"]) + data["grouped"] + 2 * data["indirect"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k.lower()}: {v.lower()}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        alone = {k: k for k in result}
        merged_rep = min(result, key=lambda k: int(k[1:]))
        everyone = {k: merged_rep for k in result}
        wrong = [keyed_text(everyone)]
        if alone != result:
            wrong.append(keyed_text(alone))
        victim = rng.choice(list(result))
        wrong.append(keyed_text({k: v for k, v in result.items() if k != victim}))
        return wrong


def _matches_directly(records: list[dict], record_id: str, other_id: str) -> bool:
    by_id = {r["id"]: r for r in records}
    a, b = by_id[record_id], by_id[other_id]
    return a["email"].strip().lower() == b["email"].strip().lower() or _digits(a["phone"]) == _digits(b["phone"])
