"""Red team r31: web/form_filling's age misreadings are each right in about half the draws (v2: reading "under 26" as
"26 or under" was right in 0.64-0.70, on its own or on top of the age from the birth year)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

from palaestra.core.registry import make_source
from palaestra.envs.web import form_filling as ff

FORMS = make_source("web/form_filling")


def _band(age: int, bound_inclusive: bool) -> str:
    """The band of ``age``; ``bound_inclusive``: each band's bound age misread into the band below ("under 26" as
    "26 or under", "65 or over" as "over 65")."""
    lift = 1 if bound_inclusive else 0
    return ff.BANDS[0] if age < 26 + lift else ff.BANDS[1] if age < 65 + lift else ff.BANDS[2]


def _exact_age(born: date) -> int:
    return ff.TODAY.year - born.year - ((ff.TODAY.month, ff.TODAY.day) < (born.month, born.day))


def _share(reading: Callable[[date], str], seeds: int = 160) -> float:
    """The share of level 1's applicants whose age band ``reading`` gets right."""
    right = 0
    for seed in range(seeds):
        prompt = FORMS.sample(1, seed).prompt
        born = datetime.strptime(re.search(r"born (\d+ \w+ \d{4})", prompt).group(1), "%d %B %Y").date()  # type: ignore[union-attr]
        right += reading(born) == _band(_exact_age(born), bound_inclusive=False)
    return right / seeds


def test_forms_r31_the_bound_read_inclusive_is_right_in_about_half() -> None:
    assert _share(lambda born: _band(_exact_age(born), bound_inclusive=True)) < 0.6


def test_forms_r31_both_misreadings_together_are_right_in_about_half() -> None:
    assert _share(lambda born: _band(ff.TODAY.year - born.year, bound_inclusive=True)) < 0.6


def test_forms_r31_the_age_from_the_birth_year_is_right_in_about_half() -> None:
    assert _share(lambda born: _band(ff.TODAY.year - born.year, bound_inclusive=False)) < 0.6
