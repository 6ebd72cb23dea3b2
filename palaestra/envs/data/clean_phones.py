"""Normalise phone numbers written in national and international styles to E.164 (``+`` and digits).

Each record has a customer's country and a phone number as typed: national forms with a trunk prefix
(``020 7946 0018``, ``(02) 9374 4000``, ``1-415-555-0134``), international forms (``+44 (0)20 ...``,
``0044 20 ...``, ``011 49 30 ...``) and punctuation (spaces, dots, dashes, brackets). The prompt's table
gives each country's calling code and trunk prefix, and the rules: a number starting with ``+``, the
international prefix ``00`` or (from the United States) ``011`` already carries its country code, whatever
the customer's country; a ``(0)`` after a country code is dropped; otherwise the trunk prefix is removed
and the customer's calling code put in front. Italy has no trunk prefix (its leading 0 stays), so the
rule cannot be applied blindly. The answer gives every record's number as ``id = +digits`` pairs in any
order (the shared assignment reader); the verifier names the first wrong record.

Version 2: an Italian number no longer starts 00 (v1 drew its second digit freely, so one Italian number in ten
was typed like 005-997-3757: by the prompt's own rule that carries the international prefix 00, and the reader
who followed it was marked wrong on 8% of the problems at level 2 and 17% at the top level).

Version 3: every rule is used in every problem. v2 drew each style freely, so a reader that skipped a rule was
often right: keeping the 0 of ``(0)`` answered 0.82 of level 0 and 0.29 of level 4, not knowing the US prefix 011
0.73-0.82 at every level, removing Italy's leading 0 as a trunk prefix 0.30 of level 2. Now each problem has a
number typed with 011 from the United States, one with 00 from elsewhere, one with ``(0)`` after a calling code,
one typed nationally with a trunk prefix, a foreign one (always using the customer's calling code
answered 0.39 of level 0) and, once Italy is in play, an Italian one typed nationally; level 0
has five records (three before).

Difficulty: the records plus the countries in play plus the records written in an international form.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.data.common import keyed_text, keyed_verdict
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "P98 = +15550000000, P99 = +445550000000"  # a fixed placeholder: never derived from the answer
# country -> (calling code, trunk prefix or "" for none, national significant number length)
COUNTRIES = {
    "United Kingdom": ("44", "0", 10),
    "United States": ("1", "1", 10),
    "France": ("33", "0", 9),
    "Australia": ("61", "0", 9),
    "Germany": ("49", "0", 10),
    "Italy": ("39", "", 10),
}
GROUPS = {  # how each country's national number is usually grouped (the first group is the area code)
    "United Kingdom": ((2, 4, 4), (4, 6)),
    "France": ((1, 2, 2, 2, 2),),
    "Australia": ((1, 4, 4),),
    "Germany": ((2, 8), (3, 7), (3, 3, 4)),
    "Italy": ((2, 4, 4), (3, 3, 4)),
}
ORDER = ("United Kingdom", "United States", "France", "Italy", "Australia", "Germany")
_E164 = re.compile(r"\+\d{6,15}")


def _national(rng: random.Random, country: str) -> str:
    """A national significant number (Italy's keeps its leading 0, and its next digit is never 0: an Italian
    number typed 00... would read as one with the international prefix under the prompt's rule)."""
    _, _, length = COUNTRIES[country]
    first = f"0{rng.randint(1, 9)}" if country == "Italy" else str(rng.randint(2, 9))
    return first + "".join(str(rng.randint(0, 9)) for _ in range(length - len(first)))


def _grouped(digits: str, sizes: tuple[int, ...], joiner: str) -> str:
    parts, start = [], 0
    for size in sizes:
        parts.append(digits[start : start + size])
        start += size
    if start < len(digits):
        parts.append(digits[start:])
    return joiner.join(p for p in parts if p)


def written(rng: random.Random, country: str, number: str, international: bool, home: str,
            style: str | None = None) -> str:
    """``number`` (national significant digits of ``country``) as a customer in ``home`` might type it (an
    international ``style``, plus, plus_zero or exit, drawn unless given)."""
    code, trunk, _ = COUNTRIES[country]
    if country == "United States":
        area, rest = number[:3], number[3:]
        body = rng.choice(
            (f"({area}) {rest[:3]}-{rest[3:]}", f"{area}.{rest[:3]}.{rest[3:]}", f"{area}-{rest[:3]}-{rest[3:]}")
        )
    else:
        sizes = rng.choice(GROUPS[country])
        joiner = rng.choice((" ", " ", "-"))
        body = _grouped(number, sizes, joiner)
    if not international:
        if country == "United States":
            return rng.choice((body, f"1-{number[:3]}-{number[3:6]}-{number[6:]}"))
        if trunk and rng.random() < 0.3:  # the area code in brackets with the trunk prefix: (020) 7946 0018
            return f"({trunk}{number[: sizes[0]]}) {_grouped(number[sizes[0] :], sizes[1:], joiner)}"
        return f"{trunk}{body}"
    style = style or rng.choice(("plus", "plus_zero", "exit"))
    if style == "plus_zero" and trunk == "0":
        return f"+{code} (0){body}"
    if style == "exit":
        exit_code = "011" if home == "United States" else "00"
        return f"{exit_code} {code} {body}"
    return f"+{code} {body}"


def _read_e164(text: str) -> str | None:
    value = text.strip()
    return value if _E164.fullmatch(value) else None


@register
class CleanPhones(Task):
    id = "data/clean_phones"
    family = "data"
    description = "Normalise phone numbers typed in national or international styles to E.164 by country rules."
    tags = ("data", "cleaning", "phone-numbers")
    version = 3  # v3: every rule used in every problem (v2: skipping one paid up to 0.82 of level 0)

    @dataclass(frozen=True)
    class Config:
        records: int
        countries: int
        foreign: bool  # international numbers of another country than the customer's

    presets = (Config(5, 2, False), Config(6, 3, False), Config(8, 4, True), Config(10, 5, True), Config(14, 6, True))
    growth = Growth(steps={"records": 4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        countries = list(ORDER[: config.countries])
        numbers = rng.sample(range(1, max(100, 4 * config.records)), config.records)
        with_zero = [c for c in countries if COUNTRIES[c][1] == "0"]
        # (home, country or None to draw, style): a record that uses each rule (v2 drew them freely, and a reader
        # that skipped one, such as (0) or 011, was right in up to 0.82 of the problems)
        zero_country = rng.choice(with_zero)
        plans: list[tuple[str, str | None, str]] = [
            ("United States", None, "exit"),  # 011 from the United States
            (rng.choice(with_zero), None, "exit"),  # 00 from elsewhere
            # +44 (0)20 ... typed by a customer of another country: the number's own calling code counts
            (rng.choice([c for c in countries if c != zero_country]), zero_country, "plus_zero"),
            (rng.choice(with_zero), "", "national"),  # a trunk prefix to remove
        ]
        if "Italy" in countries:
            plans.append(("Italy", "", "national"))  # no trunk prefix: the leading 0 stays
        unplanned = [c for c in countries if c not in {home for home, _, _ in plans}]
        plans += [(home, None, "") for home in unplanned]
        plans += [(rng.choice(countries), None, "") for _ in range(config.records - len(plans))]
        records, international = [], 0
        for number, (home, planned, style) in zip(numbers, plans, strict=True):
            abroad = style in ("exit", "plus_zero") or (not style and rng.random() < 0.4)
            if planned:
                country = planned
            elif planned is None and abroad and config.foreign:
                country = rng.choice(countries)
            else:
                country = home
            national = _national(rng, country)
            typed = written(rng, country, national, abroad or country != home, home, style if abroad else None)
            international += abroad or country != home
            records.append(
                {"id": f"P{number}", "home": home, "typed": typed, "e164": f"+{COUNTRIES[country][0]}{national}"}
            )
        rng.shuffle(records)
        legend = "\n".join(
            f"- {name}: calling code {COUNTRIES[name][0]}, trunk prefix "
            + (COUNTRIES[name][1] if COUNTRIES[name][1] else "none (a leading 0 is part of the number)")
            for name in countries
        )
        table = "\n".join(f"{r['id']} | {r['home']} | {r['typed']}" for r in records)
        prompt = (
            f"Customers typed their phone numbers in many styles. The countries involved:\n\n{legend}\n\n"
            f"The records (id | customer's country | number as typed):\n\n{table}\n\n"
            "Rewrite every number in E.164 form: + then the calling code and the national number, digits only. "
            "A number typed with +, with the international prefix 00 or (from the United States) 011 already "
            "carries its calling code, whatever the customer's country; drop a (0) written after a calling code. "
            "Otherwise remove the country's trunk prefix from the start and put the customer's calling code in "
            "front. Spaces, dots, dashes and brackets are not part of a number.\n\n"
            f"Answer with one id = number pair per record, separated by commas, in any order, for example: {EXAMPLE}"
        )
        result = {r["id"]: r["e164"] for r in records}
        data = {"records": records, "result": result, "countries": countries, "international": international}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        truth = problem.data["result"]
        return keyed_verdict(answer, truth, list(truth), _read_e164, what="record", example=EXAMPLE)

    def difficulty(self, problem: Problem) -> float:
        """Records + countries + records typed in an international form."""
        data = problem.data
        return float(len(data["records"]) + len(data["countries"]) + data["international"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [
            *markup_spellings(problem.answer or ""),
            keyed_text(dict(reversed(list(result.items()))), "\n"),
            ", ".join(f"{k}: {v}" for k, v in result.items()),
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        victim = rng.choice(list(result))
        with_trunk = {**result, victim: result[victim][:3] + "0" + result[victim][3:]}
        no_plus = {k: v[1:] for k, v in result.items()}
        return [
            keyed_text(with_trunk),
            keyed_text({k: v for k, v in result.items() if k != victim}),
            keyed_text(no_plus),
        ]
