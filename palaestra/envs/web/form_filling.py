"""Fill in a permit application form whose rules are spread over a site's help pages; report the confirmation.

The site (:mod:`palaestra.envs.web.common`) is a permits office: the start page links to the application form and to
the help index, which (from level 2 through sub-indexes) leads to one help page per rule: how to write the
applicant's name (family name in capitals, a comma, the given names), the date format (drawn per problem), the
category code (a table by residency and the applicant's and co-applicant's ages on today's date), the fee (a per-
year table by category, times the years applied for, written with two decimals), the district (a table by postcode
prefix), the reference (membership number, a hyphen, the year's last two digits) and the phone number
(international, drawn country code, no leading zero, no spaces). A level uses the first 3 to 7 of these fields.
Distractor pages give other rules for other forms (a renewal form's date format, a business permit's categories), so
reading the wrong page misleads.

The prompt describes the applicant (and a co-applicant) in plain words. The site accepts any complete submission
(the office checks it against the rules later) and says a confirmation number; the episode is judged on the answer
(that number) and on the final records: exactly one application, every field as the rules make it (codes in any
case; the name as the rule writes it). The difficulty is the fields plus the distractor pages plus half the help
pages on the way plus the draw's twists (given names, a birthday at an age band's edge, years).

The category guards against misread ages (versions 2-4). From level 1 it is the code for the residency and the age
bands of both the applicant and a co-applicant on today's date; one of the two is exactly 26 (or 65), so reading "under
26" as "26 or under" misplaces that one, and the other's 26th (or 65th) birthday is still to come this year, so the age
from the birth year alone misplaces the other. Each misreading, alone or both together, gets the category wrong in
every draw, and as the two never share a band, so does copying one person's band to the other (version 3, one applicant at even odds between the two edge cases: each was right in about half, 0.43-0.57
of levels 1-4 over 100 seeds). When the fee counts (from level 2) the years applied for are 2 to 5.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.problem import copy_data
from palaestra.core.task import Growth
from palaestra.envs.service.common import Records, call
from palaestra.envs.web.common import TOKEN_LETTERS, WebTask, judge_code, new_path, page, site_records
from palaestra.generators.knowledge import NameForge

TODAY = date(2025, 3, 14)
FIELDS = ("applicant", "birth_date", "reference", "category", "fee", "district", "phone")
DATE_FORMATS = {"DD.MM.YYYY": "%d.%m.%Y", "YYYY/MM/DD": "%Y/%m/%d", "MM-DD-YYYY": "%m-%d-%Y",
                "DD/MM/YYYY": "%d/%m/%Y"}
BANDS = ("under 26", "26 to 64", "65 or over")
COUNTRY_CODES = ("31", "44", "49", "33", "46")
SUBMISSIONS = 5  # confirmation numbers the office hands out in an episode
EXAMPLE = "Q1W2E3R4"


@register
class FormFilling(WebTask):
    id = "web/form_filling"
    family = "web"
    description = "Fill in an application form by rules spread over a site's help pages (formats, tables, fees); report the confirmation."
    tags = ("web", "navigation", "forms", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow", "fill_and_submit")
    version = 4  # v4: a co-applicant whose age band also keys the category (each misreading of an age always wrong)

    @dataclass(frozen=True)
    class Config:
        fields: int
        distractors: int
        nested: bool  # the help index splits into sub-indexes
        slack: int

    presets = (
        Config(3, 0, False, 3),
        Config(4, 1, False, 3),
        Config(5, 2, True, 4),
        Config(6, 3, True, 4),
        Config(7, 4, True, 5),
    )
    growth = Growth(limits={"fields": 7, "distractors": 12, "slack": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        forge = NameForge(rng)
        family, given = forge.word(2), " ".join(forge.word(rng.randint(1, 2)) for _ in range(rng.randint(1, 2)))
        co_family, co_given = forge.word(2), forge.word(rng.randint(1, 2))
        born, co_born = (TODAY - timedelta(days=rng.randint(17 * 365, 80 * 365)) for _ in range(2))
        edge = rng.random() < 0.3
        if config.fields > FIELDS.index("category"):  # the category counts: both ages on today's date decide it
            # One of the two is exactly 26 (or 65), the birthday today or passed this year, so reading "under 26"
            # as "26 or under" misplaces that one; the other's birthday of the 26th (or 65th) year is still to
            # come, so the age from the birth year alone misplaces the other: each misreading errs in every draw.
            # The two never share a band (the one exactly 26 and the other turning 65 would), so copying one
            # person's band to the other never helps.
            edge = True
            exact_age, turning = rng.choice(((26, 26), (65, 65), (65, 26)))
            exact = _years_before(TODAY, exact_age) - timedelta(days=rng.randint(0, 60))
            younger = _years_before(TODAY, turning) + timedelta(days=rng.randint(1, 200))
            born, co_born = (exact, younger) if rng.random() < 0.5 else (younger, exact)
        elif edge:  # a birthday next to a band's edge: the age on today's date decides
            born = _years_before(TODAY, rng.choice((26, 65))) + timedelta(days=rng.choice((-1, 0, 1)))
        resident = rng.random() < 0.6
        member = str(rng.randint(10_000, 99_999))
        years = rng.randint(2 if config.fields > FIELDS.index("fee") else 1, 5)  # with the fee: several years
        postcode = f"{rng.randint(10, 99)}{rng.randint(0, 999):03d}"
        local = f"{rng.randint(10, 99)}{rng.randint(1_000_000, 9_999_999)}"
        date_format = rng.choice(sorted(DATE_FORMATS))
        country = rng.choice(COUNTRY_CODES)
        keys = [(res, band, co_band) for res in (True, False) for band in BANDS for co_band in BANDS]
        codes = rng.sample([f"{letter}{digit}" for letter in "ABCDEFGHKMNPRSTV" for digit in range(1, 10)],
                           len(keys) + 3)
        categories = dict(zip(keys, codes))
        fees = {code: rng.randint(12, 90) * 100 + rng.choice((0, 50)) for code in categories.values()}
        prefixes = sorted({postcode[:2], *(f"{rng.randint(10, 99)}" for _ in range(6))})
        districts = {prefix: f"{rng.choice(('N', 'S', 'E', 'W', 'C'))}{rng.randint(10, 99)}" for prefix in prefixes}
        category = categories[(resident, _band(born), _band(co_born))]
        values = {
            "applicant": f"{family.upper()}, {given}",
            "birth_date": born.strftime(DATE_FORMATS[date_format]),
            "reference": f"{member}-{TODAY.year % 100:02d}",
            "category": category,
            "fee": f"{fees[category] * years // 100}.{fees[category] * years % 100:02d}",
            "district": districts[postcode[:2]],
            "phone": f"+{country}{local}",
        }
        fields = FIELDS[:config.fields]
        pages: dict[str, dict[str, Any]] = {"/": page("City permits office", ["Apply for a permit online."])}
        form = new_path(rng, "f", pages)
        pages[form] = page("Permit application", ["Fill in every field as the help pages say, then submit."],
                           [["Home", "/"]], forms={"application": list(fields)})
        topics = {name: page(title, lines) for name, (title, lines) in _help(
            date_format, country, categories, fees, districts).items() if name in fields}
        decoys = _distractors(rng, date_format, country, codes[len(categories):])[:config.distractors]
        help_pages = [*topics.items(), *((f"decoy {i}", record) for i, record in enumerate(decoys))]
        rng.shuffle(help_pages)
        index = new_path(rng, "h", pages)
        pages[index] = page("Help index", ["Help for our forms, by topic."], [["Home", "/"]])
        groups = [help_pages[0::2], help_pages[1::2]] if config.nested and len(help_pages) > 1 else [help_pages]
        routes: dict[str, list[str]] = {}
        for number, group in enumerate(groups):
            parent = index
            if len(groups) > 1:
                parent = new_path(rng, "h", pages)
                pages[parent] = page(f"Help topics, part {number + 1}", [], [["Help index", index]])
                pages[index]["links"].append([f"Topics, part {number + 1}", parent])
            for name, record in group:
                path = new_path(rng, "h", pages)
                pages[path] = {**record, "links": [["Help index", index]]}
                pages[parent]["links"].append([record["title"], path])
                if name in topics:
                    routes[name] = [index, *([parent] if parent != index else []), path]
        pages["/"]["links"] = rng.sample([["Permit application form", form], ["Help", index]], 2)
        numbers = ["".join(rng.choice(TOKEN_LETTERS.upper()) for _ in range(8)) for _ in range(SUBMISSIONS)]
        records = site_records(pages, applications=[], numbers=numbers, form=form)
        hops = len({path for route in routes.values() for path in route})
        budget = 3 + hops + config.slack
        prompt = (
            "You are applying for a permit on a website whose start page is /. The applicant: "
            f"{given} {family} (given names {given}, family name {family}), born {born.day} "
            f"{born.strftime('%B')} {born.year}, {'a resident' if resident else 'not a resident'} of the city, "
            f"membership number {member}, applying for {years} year{'s' if years > 1 else ''}, postcode {postcode}, "
            f"phone 0{local[:2]} {local[2:5]} {local[5:]}; the co-applicant: {co_given} {co_family}, born "
            f"{co_born.day} {co_born.strftime('%B')} {co_born.year}. Today is {TODAY.isoformat()}. Find the rules for each "
            "field of the application form on the site's help pages, fill the form in once, submit it, and answer "
            f"with the confirmation number the site gives, e.g. <answer>{EXAMPLE}</answer>.\n\n"
            + self.tools_prompt(budget)
        )
        # What makes this draw harder than another of its level: more given names to place, a birthday at a band's
        # edge (when the category counts), more years to multiply (when the fee counts).
        twists = len(given.split()) / 2 + ("category" in fields and edge) + ("fee" in fields) * years / 4
        data = {"records": records, "values": {name: values[name] for name in fields}, "routes": routes,
                "twists": twists, "budget": budget}
        return Problem(prompt=prompt, answer=numbers[0], data=data)

    def submit(self, records: Records, form_id: str, fields: dict[str, str]) -> tuple[str, Records | None]:
        wanted = records["site"]["pages"][records["form"]]["forms"][form_id]
        missing = [name for name in wanted if not fields.get(name, "").strip()]
        unknown = [name for name in fields if name not in wanted]
        if missing or unknown:
            return (f"error: {'missing field ' + missing[0] if missing else 'no field ' + repr(unknown[0])}; "
                    "nothing was submitted"), None
        if len(records["applications"]) >= SUBMISSIONS:
            return "error: too many applications from this session; nothing was submitted", None
        records["applications"].append({name: _stored(name, fields[name]) for name in wanted})
        number = records["numbers"][len(records["applications"]) - 1]
        return f"Application received. Your confirmation number is {number}.", records

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy_data(problem.data["records"])
        records["applications"].append({name: _stored(name, value) for name, value in problem.data["values"].items()})
        return records

    def difficulty(self, problem: Problem) -> float:
        pages = problem.data["records"]["site"]["pages"]
        help_pages = sum(path.startswith("/h/") for path in pages)
        routes = problem.data["routes"]
        return (len(routes) + (help_pages - len(routes)) + len({p for r in routes.values() for p in r}) / 2
                + problem.data["twists"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_code(answer, problem.answer or "", "confirmation number")

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        seen: list[str] = []
        for route in data["routes"].values():
            seen += [path for path in route if path not in seen]
        moves = [call("open", url="/"), *(call("open", url=path) for path in seen)]
        moves += [call("open", url=data["records"]["form"]),
                  call("fill_and_submit", form_id="application", fields=dict(data["values"]))]
        return [*moves, problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [answer.lower(), f"Confirmation number {answer}", f"{answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        later = problem.data["records"]["numbers"][1]
        return [later, answer[:-1], f"{answer} or {later}"]


def _years_before(day: date, years: int) -> date:
    return day.replace(year=day.year - years) if not (day.month == 2 and day.day == 29) else \
        day.replace(year=day.year - years, day=28)


def _band(born: date) -> str:
    age = TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))
    return BANDS[0] if age < 26 else BANDS[1] if age < 65 else BANDS[2]


def _stored(name: str, value: str) -> str:
    """A field as the office files it: spaces squeezed, codes in capitals (the name as written)."""
    value = " ".join(value.split())
    return value if name == "applicant" else value.upper()


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _help(date_format: str, country: str, categories: dict[tuple[bool, str, str], str], fees: dict[str, int],
          districts: dict[str, str]) -> dict[str, tuple[str, list[str]]]:
    """The help pages of the application form's fields: field -> (title, lines)."""
    return {
        "applicant": ("Writing the applicant's name", [
            "Permit application, field applicant: write the family name in capital letters, then a comma and a "
            "space, then the given names as usual (e.g. Ann Lee Wong is written WONG, Ann Lee)."]),
        "birth_date": ("Dates on the permit application", [
            f"Permit application, field birth_date: write dates as {date_format}, with leading zeros."]),
        "reference": ("Your reference", [
            "Permit application, field reference: your membership number, a hyphen, and the last two digits of "
            "the current year (e.g. 12345-07 in 2007)."]),
        "phone": ("Phone numbers", [
            f"Permit application, field phone: international format: +{country}, then the number without its "
            "leading 0, with no spaces or other signs."]),
    } | _tables(categories, fees, districts)


def _tables(categories: dict[tuple[bool, str, str], str], fees: dict[str, int], districts: dict[str, str]
            ) -> dict[str, tuple[str, list[str]]]:
    category_rows = [f"{'Resident' if res else 'Non-resident'}, applicant {band}, co-applicant {co_band}: {code}"
                     for (res, band, co_band), code in categories.items()]
    fee_rows = [f"Category {code}: {_money(cents)} a year" for code, cents in fees.items()]
    district_rows = [f"Postcodes {prefix}xxx: district {code}" for prefix, code in districts.items()]
    return {
        "category": ("Permit categories", [
            "Permit application, field category: the code for the applicant's residency and the ages of the "
            "applicant and the co-applicant on the day of the application.", *category_rows]),
        "fee": ("Permit fees", ["Permit application, field fee: the yearly fee of the applicant's category times "
                                "the number of years applied for, written with two decimals and no currency sign "
                                "(e.g. 70.00).", *fee_rows]),
        "district": ("Districts", ["Permit application, field district: the code of the district of the first two "
                                   "digits of the applicant's postcode.", *district_rows]),
    }


def _distractors(rng: random.Random, date_format: str, country: str, codes: list[str]) -> list[dict[str, Any]]:
    """Help pages of other forms, whose rules differ from the application's."""
    other_format = rng.choice([f for f in DATE_FORMATS if f != date_format])
    other_country = rng.choice([c for c in COUNTRY_CODES if c != country])
    pages = [
        page("Dates on the renewal form", [f"Renewal form, field birth_date: write dates as {other_format}."]),
        page("Business permit categories", ["Business permit form, field category: by the firm's size.",
                                            *(f"{size} firms: {code}" for size, code in
                                              zip(("Small", "Medium", "Large"), codes))]),
        page("Phone numbers for visitors", [f"Visitor pass form, field phone: write +{other_country} and the "
                                            "number with spaces."]),
        page("Writing names on the renewal form", ["Renewal form, field applicant: given names first, then the "
                                                   "family name, as usual."]),
    ]
    rng.shuffle(pages)
    extra = [page(f"Opening hours, office {n}", [f"Office {n} is open on weekdays."]) for n in range(1, 13)]
    return pages + extra
