"""Red team r32 (knap): web/form_filling's two misreadings of an age (the band's bound age read into the band below;
the age from the birth year alone) were each right in about half the draws with one applicant (version 3: 0.43-0.57
of levels 1-4, 100 seeds). Version 4 adds a co-applicant whose band also keys the category, drawn so that the two
misreadings err on different people: each, alone or together, is now right in 0.00 of levels 1-4 (the correct
reading 1.00). The test reads the category table and the ages from the site and the prompt, not from the generator.

(algorithms/knapsack, the brief's other env, is unchanged: see the lead's report.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

from palaestra.core.registry import make_source
from palaestra.envs.web import form_filling as ff

FORMS = make_source("web/form_filling")


def _band(age: int, bound_inclusive: bool) -> str:
    lift = 1 if bound_inclusive else 0
    return ff.BANDS[0] if age < 26 + lift else ff.BANDS[1] if age < 65 + lift else ff.BANDS[2]


def _exact_age(born: date) -> int:
    return ff.TODAY.year - born.year - ((ff.TODAY.month, ff.TODAY.day) < (born.month, born.day))


READINGS: dict[str, Callable[[date], str]] = {
    "bound read inclusive": lambda born: _band(_exact_age(born), bound_inclusive=True),
    "age from the birth year": lambda born: _band(ff.TODAY.year - born.year, bound_inclusive=False),
    "both misreadings": lambda born: _band(ff.TODAY.year - born.year, bound_inclusive=True),
}


def _category(problem: object, reading: Callable[[date], str]) -> str | None:
    """The category code the site's table gives for the ages as ``reading`` bands them (None: no such row)."""
    pages = problem.data["records"]["site"]["pages"].values()  # type: ignore[attr-defined]
    text = next(record["text"] for record in pages if record["title"] == "Permit categories")
    table = {}
    for line in text[1:]:
        match = re.match(r"(Resident|Non-resident), (?:applicant )?(.+?)(?:, co-applicant (.+))?: (\w+)$", line)
        assert match, line
        table[(match.group(1) == "Resident", match.group(2), match.group(3))] = match.group(4)
    prompt: str = problem.prompt  # type: ignore[attr-defined]
    borns = [datetime.strptime(day, "%d %B %Y").date() for day in re.findall(r"born (\d+ \w+ \d{4})", prompt)]
    by_pair = any(co_band for _, _, co_band in table)
    key = (" not a resident" not in prompt, reading(borns[0]), reading(borns[1]) if by_pair else None)
    return table.get(key)


def _share(reading: Callable[[date], str], level: int, seeds: int = 40) -> float:
    return sum(_category(FORMS.sample(level, seed), reading) == FORMS.sample(level, seed).data["values"]["category"]
               for seed in range(seeds)) / seeds


def test_forms_r32_the_correct_reading_gets_the_category() -> None:
    assert _share(lambda born: _band(_exact_age(born), bound_inclusive=False), level=1) == 1.0


def test_forms_r32_each_misreading_of_an_age_misses_the_category() -> None:
    for level in (1, 3):
        shares = {name: _share(reading, level) for name, reading in READINGS.items()}
        assert all(share < 0.15 for share in shares.values()), (level, shares)
