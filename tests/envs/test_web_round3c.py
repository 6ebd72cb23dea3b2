"""Web envs (round 3c): a form whose rules are spread over help pages, a comparison across shops, a month's spending
over a paginated history. Oracles solve every level and replay; random browsing scores about 0; careless
readings (the wrong help page, prices without shipping, a loose date bound) fail."""

from __future__ import annotations

import json
import random
from datetime import date, datetime

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.service.common import call, cents_of, dollars
from palaestra.envs.web import compare_sites as cs
from palaestra.envs.web import form_filling as ff

ENVS = ("web/form_filling", "web/compare_sites", "web/order_history", "web/faq_lookup")


def play(source, problem, replies: list[str]):
    state = source.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = source.advance(problem, state, source.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


def random_browsing(source, problem, rng: random.Random) -> float:
    """Open random pages of the site, follow random links, submit random forms, then answer a random amount or code."""
    paths = sorted(problem.data["records"]["site"]["pages"])
    replies = []
    for _ in range(problem.data["budget"]):
        roll = rng.random()
        if roll < 0.5:
            replies.append(call("open", url=rng.choice(paths)))
        elif roll < 0.8:
            replies.append(call("follow", link=rng.randint(1, 4)))
        elif "fill_and_submit" in source.tool_names:
            fields = {name: rng.choice(("A1", "x", "12.00", "SMITH, Ann")) for name in ff.FIELDS}
            replies.append(call("fill_and_submit", form_id="application", fields=fields))
    guess = rng.choice((f"${rng.randint(0, 900)}.{rng.randint(0, 99):02d}", "AB12CD34", "$0.00"))
    return palaestra.score(problem, [source.format_answer(r) for r in [*replies, guess]]).reward


@pytest.mark.parametrize("env_id", ENVS)
def test_oracle_solves_every_level_and_replays(env_id: str) -> None:
    source = make_source(env_id)
    for level in range(6):
        problem = source.sample(level, 4)
        assert play(source, problem, source.plan(problem)).verdict.correct, level
        replayed = palaestra.score(json.loads(problem.to_json()), [source.format_answer(r) for r in source.plan(problem)])
        assert replayed.correct, (level, replayed)


@pytest.mark.parametrize("env_id", ENVS)
def test_random_browsing_scores_about_zero(env_id: str) -> None:
    source = make_source(env_id)
    rng = random.Random(3)
    total = sum(random_browsing(source, source.sample(level, seed), rng) for level in (0, 2, 4) for seed in range(8))
    assert total <= 1.0, total


def test_form_filling_a_hand_checked_applicant() -> None:
    assert ff._band(date(1999, 3, 14)) == "26 to 64"  # 26 on today's date
    assert ff._band(date(1999, 3, 15)) == "under 26"  # 26 tomorrow
    assert ff._band(date(1960, 3, 14)) == "65 or over"
    assert ff._stored("category", " b4 ") == "B4" and ff._stored("applicant", "LEE,  Ann") == "LEE, Ann"


def test_form_filling_the_renewal_forms_date_format_fails_with_the_reason() -> None:
    source = make_source("web/form_filling")

    def renewal_page(problem):
        return next((p for p in problem.data["records"]["site"]["pages"].values()
                     if p["title"] == "Dates on the renewal form"), None)

    problem = next(p for p in (source.sample(4, seed) for seed in range(40)) if renewal_page(p) is not None)
    values = problem.data["values"]
    wrong_format = renewal_page(problem)["text"][0].split("write dates as ")[1].rstrip(".")
    right_format = next(f for f in ff.DATE_FORMATS.values() if _reads(values["birth_date"], f))
    born = datetime.strptime(values["birth_date"], right_format)
    fields = {**values, "birth_date": born.strftime(ff.DATE_FORMATS[wrong_format])}
    careless = [call("fill_and_submit", form_id="application", fields=fields) if '"fill_and_submit"' in r else r
                for r in source.plan(problem)]
    outcome = play(source, problem, careless)
    assert not outcome.verdict.correct and "applications[0].birth_date" in outcome.verdict.feedback


def _reads(text: str, fmt: str) -> bool:
    try:
        datetime.strptime(text, fmt)
    except ValueError:
        return False
    return True


def test_form_filling_submitting_twice_fails() -> None:
    source = make_source("web/form_filling")
    problem = source.sample(1, 2)
    plan = source.plan(problem)
    twice = [*plan[:-1], plan[-2], plan[-1]]
    outcome = play(source, problem, twice)
    assert not outcome.verdict.correct and "applications has 2 entries, it should have 1" in outcome.verdict.feedback


def test_form_filling_an_incomplete_form_is_refused_and_changes_nothing() -> None:
    source = make_source("web/form_filling")
    problem = source.sample(0, 3)
    form = problem.data["records"]["form"]
    outcome = play(source, problem, [call("open", url=form),
                                     call("fill_and_submit", form_id="application", fields={"applicant": "X"})])
    assert "missing field" in outcome.observation and outcome.state["records"]["applications"] == []


def test_compare_sites_hand_checked_totals() -> None:
    flat = {"kind": "flat", "fee": 500, "free_from": 10_000}
    assert cs._total(4_999, 2, flat, None) == 10_498  # under the threshold by a cent
    assert cs._total(5_000, 2, flat, None) == 10_000  # the threshold reached: free
    assert cs._total(5_000, 2, flat, (10, 10_000)) == 9_500  # the deal takes it under the threshold
    per_item = {"kind": "per item", "first": 700, "further": 250}
    assert cs._total(1_000, 3, per_item, None) == 4_200


def test_compare_sites_comparing_prices_alone_rarely_pays() -> None:
    source = make_source("web/compare_sites")
    price_only = 0
    for seed in range(20):
        problem = source.sample(2, seed)
        pages = problem.data["records"]["site"]["pages"]
        model = problem.prompt.split("model ")[1].split(",")[0]
        cheapest = min(cents_of(row[3]) for p in pages.values() for row in p["table"][1:]
                       if row[1] == model and row[2] == "new")
        price_only += source.judge(problem, dollars(cheapest * problem.data["units"])).correct
    assert price_only <= 2, price_only


def test_order_history_a_loose_month_bound_fails() -> None:
    source = make_source("web/order_history")
    for seed in range(10):
        problem = source.sample(1, seed)
        pages = problem.data["records"]["site"]["pages"]
        rows = [row for p in pages.values() if p["title"].startswith("Order history") for row in p["table"][1:]]
        month = problem.prompt.split("placed in ")[1].split(" that")[0]
        name, year = month.split()
        number = f"{int(year):04d}-{list(__import__('calendar').month_name).index(name):02d}"
        exact = sum(cents_of(r[3]) for r in rows if r[1].startswith(number) and r[2] == "delivered")
        assert dollars(exact) == problem.answer  # a general reading of the table gives the answer
        following = date.fromisoformat(f"{number}-01").replace(day=28)
        loose = exact + sum(cents_of(r[3]) for r in rows if r[2] == "delivered" and r[1] > number + "-31"
                            and r[1] <= (following.replace(month=following.month % 12 + 1, day=1,
                                                           year=following.year + (following.month == 12))).isoformat())
        every_status = sum(cents_of(r[3]) for r in rows if r[1].startswith(number))
        assert not source.judge(problem, dollars(every_status)).correct
        if loose != exact:
            assert not source.judge(problem, dollars(loose)).correct


def test_faq_lookup_the_archived_and_the_other_audiences_articles_mislead() -> None:
    source = make_source("web/faq_lookup")
    misled = tried = 0
    for seed in range(20):
        problem = source.sample(2, seed)
        pages = problem.data["records"]["site"]["pages"]
        topic_path, target = problem.data["route"]
        row = pages[target]["table"][1 + problem.data["position"]]
        assert row[-1] == problem.answer  # the current article's row for the customer holds the answer
        for anchor, path in pages[topic_path]["links"]:
            if path in (target, "/") or not path.startswith("/a/"):
                continue
            same_row = next(r for r in pages[path]["table"][1:] if r[:-1] == row[:-1]) if any(
                r[:-1] == row[:-1] for r in pages[path]["table"][1:]) else None
            if same_row is not None and same_row[-1] != problem.answer:
                tried += 1
                misled += not source.judge(problem, same_row[-1]).correct
    assert tried >= 20 and misled == tried


@pytest.mark.parametrize("env_id", ENVS)
def test_the_final_answer_is_read_by_the_grammar(env_id: str) -> None:
    """The kit's spelling check is single-turn only: other spellings, near misses and retractions are tried here at
    the end of the oracle's episode."""
    source = make_source(env_id)
    for seed in range(3):
        problem = source.sample(3, seed)
        browsing = source.plan(problem)[:-1]
        for spelled in source.spellings(problem):
            assert play(source, problem, [*browsing, spelled]).verdict.correct, spelled
        wrong = [*source.corruptions(problem, random.Random(0)), f"{problem.answer}. I take it back.",
                 f"{problem.answer}\nJust kidding, I do not know."]
        for answer in wrong:
            assert not play(source, problem, [*browsing, answer]).verdict.correct, answer


def test_judge_code_reads_a_code_closing_a_sentence_and_a_confirmation_label() -> None:
    from palaestra.envs.web.common import judge_code

    assert judge_code("ER3RKH.", "ER3RKH", "SKU").correct  # was rejected: the full stop was read as part of the code
    assert judge_code("The order number is 75707.", "75707", "order number").correct
    assert judge_code("Confirmation code BK42587", "BK42587", "confirmation code").correct
    assert not judge_code("ER3RKH. I take it back.", "ER3RKH", "SKU").correct
    assert not judge_code("ER3RKH..", "ER3RKH", "SKU").correct and not judge_code("ER3RK.", "ER3RKH", "SKU").correct
