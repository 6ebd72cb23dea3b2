"""Red team r32 (knap), two envs.

algorithms/knapsack: the generator redrew until six greedy packings missed the optimum, but the instances rewarded
packing the capacity well: the fullest fill (an exact subset-sum search, the best value among the heaviest sets) was
optimal in 0.99/0.97/0.87/0.72/0.71 of levels 0-4 of version 5, the best within one unit of the fullest in
1.00/0.99/1.00/0.93/0.89 (150 seeds). Version 6 draws the capacity where a lighter set beats every set within one
unit of the fullest: both now score 0.00 at levels 0-4, the six greedy packings still 0.00.

web/form_filling: the two misreadings of an age (the band's bound age read into the band below;
the age from the birth year alone) were each right in about half the draws with one applicant (version 3: 0.43-0.57
of levels 1-4, 100 seeds). Version 4 adds a co-applicant whose band also keys the category, drawn so that the two
misreadings err on different people: each, alone or together, is now right in 0.00 of levels 1-4 (the correct
reading 1.00), as is copying one person's (correct) band to the other, since the two never share a band. The test reads the category table and the ages from the site and the prompt, not from the generator."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

from palaestra.core.registry import make_source
from palaestra.envs.web import form_filling as ff

FORMS = make_source("web/form_filling")
KNAPSACK = make_source("algorithms/knapsack")


def _fullest_fill_value(items: list[list[int]], capacity: int, near: int) -> int:
    """The best value among the item sets weighing at most ``near`` less than the heaviest set within the capacity
    (an exact subset-sum search over reachable weights)."""
    best_by_weight = {0: 0}
    for weight, value in items:
        for total, worth in list(best_by_weight.items()):
            if total + weight <= capacity and best_by_weight.get(total + weight, -1) < worth + value:
                best_by_weight[total + weight] = worth + value
    fullest = max(best_by_weight)
    return max(worth for total, worth in best_by_weight.items() if total >= fullest - near)


def test_knapsack_r32_the_fullest_fill_misses_the_optimum() -> None:
    # Since version 7 (r38) half the instances are filled exactly by the optimum, where the fullest fill is right by
    # necessity; on the light ones, whose lightest optimum weighs less than the capacity, it must miss.
    for level in (0, 1, 2):
        for near in (0, 1):
            hits = light = 0
            for seed in range(30):
                problem = KNAPSACK.sample(level, seed)
                data = problem.data
                chosen = [data["names"].index(label) for label in (problem.answer or "").split(", ")]
                if sum(data["items"][i][0] for i in chosen) < data["capacity"]:
                    light += 1
                    hits += _fullest_fill_value(data["items"], data["capacity"], near) == data["value"]
            assert light >= 5 and hits / light < 0.1, (level, near, hits, light)  # v5: 0.87-1.00


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


def _category(problem: object, reading: Callable[[date], str], copy_applicant: bool = False) -> str | None:
    """The category code the site's table gives for the ages as ``reading`` bands them (None: no such row);
    ``copy_applicant``: the applicant's band taken for the co-applicant too."""
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
    co_band = reading(borns[0] if copy_applicant else borns[1])
    key = (" not a resident" not in prompt, reading(borns[0]), co_band if by_pair else None)
    return table.get(key)


def _share(reading: Callable[[date], str], level: int, seeds: int = 40, copy_applicant: bool = False) -> float:
    return sum(_category(FORMS.sample(level, seed), reading, copy_applicant)
               == FORMS.sample(level, seed).data["values"]["category"] for seed in range(seeds)) / seeds


def test_forms_r32_the_correct_reading_gets_the_category() -> None:
    assert _share(lambda born: _band(_exact_age(born), bound_inclusive=False), level=1) == 1.0


def test_forms_r32_each_misreading_of_an_age_misses_the_category() -> None:
    for level in (1, 3):
        shares = {name: _share(reading, level) for name, reading in READINGS.items()}
        assert all(share < 0.15 for share in shares.values()), (level, shares)


def test_forms_r32_copying_the_applicants_band_misses_the_category() -> None:
    assert _share(lambda born: _band(_exact_age(born), bound_inclusive=False), level=2, copy_applicant=True) < 0.1
