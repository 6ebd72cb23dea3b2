"""Answer a customer's question from a generated help centre's FAQ articles, minding audience, archive and conditions.

The site (:mod:`palaestra.envs.web.common`) is a help centre: the start page links to topic pages (refunds,
delivery, returns, warranty, ...), each listing its articles; the site search looks through article titles.
A topic has an article per audience (personal accounts, business accounts) and, from level 1, archived
articles of an old policy (marked so in their text, with other figures); each article holds a table of a
figure by a condition (payment method, region, product class) and, from level 3, by a second condition.
The prompt is a customer's question naming their audience and conditions; the answer is the figure in the
current article's row for them (a whole number). Near misses in every draw: the other audience's article
and the archived one give other figures for the same row, and the neighbouring rows differ. The difficulty
is the articles of the topic plus half the table's rows plus half the topics plus a quarter of the rows above
the customer's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.service.common import call
from palaestra.envs.web.common import WebTask, new_path, page, site_records
from palaestra.verifiers.numeric import grade_number

# topic -> (figure asked, its unit, the question, conditions: name -> values)
TOPICS: dict[str, tuple[str, str, str, dict[str, tuple[str, ...]]]] = {
    "Refunds": ("Business days until the refund arrives", "business days",
                "how many business days will my refund take",
                {"payment": ("card", "bank transfer", "wallet", "gift card", "invoice", "cash on delivery", "cheque", "voucher",
                             "instalments", "crypto", "store credit", "direct debit"),
                 "region": ("north", "south", "east", "west")}),
    "Delivery": ("Delivery time in days", "days", "how many days does delivery take",
                 {"service": ("economy", "standard", "express", "same-day", "freight", "pickup point", "locker", "courier",
                             "night", "weekend", "drone", "bulk"),
                  "zone": ("zone A", "zone B", "zone C", "islands")}),
    "Returns": ("Days to return an item", "days", "how many days do I have to return it",
                {"product": ("clothing", "shoes", "electronics", "furniture", "books", "toys", "jewellery", "cosmetics",
                             "sports gear", "music", "software", "food"),
                 "channel": ("online", "in store", "by phone", "marketplace")}),
    "Warranty": ("Warranty in months", "months", "how many months of warranty do I get",
                 {"product": ("laptops", "phones", "appliances", "tools", "bikes", "watches", "cameras", "printers",
                             "tablets", "lamps", "heaters", "speakers"),
                  "plan": ("basic", "plus", "premium", "none")}),
    "Loyalty points": ("Points per 10 dollars spent", "points", "how many points do I earn per 10 dollars",
                       {"tier": ("bronze", "silver", "gold", "platinum", "starter", "family", "student", "senior", "staff",
                          "partner", "trial", "legacy"),
                        "channel": ("app", "web", "store", "phone")}),
    "Price matching": ("Days a price match is honoured", "days", "for how many days is a price match honoured",
                       {"retailer": ("local shops", "online shops", "outlets", "warehouses", "markets", "kiosks", "pharmacies",
                                      "bookshops", "garages", "florists", "bakeries", "boutiques"),
                        "product": ("groceries", "electronics", "clothing", "garden")}),
}
AUDIENCES = ("personal accounts", "business accounts")
EXAMPLE = "17"
# What may follow the number: each topic's unit, as the table's header or the question words it
UNITS = ("days", "business days", "working days", "months", "points", "points per 10 dollars",
         "points per 10 dollars spent", "points per $10")


@register
class FaqLookup(WebTask):
    id = "web/faq_lookup"
    family = "web"
    description = "Answer a customer's question from a help centre's FAQ tables, picking the current article for their account type."
    tags = ("web", "navigation", "search", "reading", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow", "search")

    @dataclass(frozen=True)
    class Config:
        topics: int
        rows: int  # values of the first condition
        archived: bool
        second: bool  # the figure also depends on a second condition
        slack: int

    presets = (
        Config(2, 3, False, False, 3),
        Config(3, 4, True, False, 3),
        Config(4, 5, True, False, 3),
        Config(5, 5, True, True, 4),
        Config(6, 6, True, True, 4),
    )
    growth = Growth(limits={"topics": 6, "rows": 12, "slack": 12}, steps={"rows": 1, "slack": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        topics = rng.sample(sorted(TOPICS), config.topics)
        asked_topic, audience = topics[0], rng.choice(AUDIENCES)
        pages: dict[str, dict[str, Any]] = {"/": page("Help centre", ["Browse a topic or search the articles."])}
        target = route = answer = question = None
        position = 0
        articles_of_topic = 0
        for topic in topics:
            figure, unit, ask, conditions = TOPICS[topic]
            names = list(conditions)
            first = rng.sample(conditions[names[0]], config.rows)
            second = rng.sample(conditions[names[1]], 2 + (config.rows > 4)) if config.second else [None]
            topic_path = new_path(rng, "t", pages)
            pages[topic_path] = page(f"{topic}", [f"Articles about {topic.lower()}."], [["Help centre", "/"]])
            pages["/"]["links"].append([topic, topic_path])
            versions = [(a, False) for a in AUDIENCES] + ([(rng.choice(AUDIENCES), True)] if config.archived else [])
            rng.shuffle(versions)
            for who, archived in versions:
                values = {(x, y): rng.randint(2, 60) for x in first for y in second}
                header = [names[0].capitalize(), *([names[1].capitalize()] if config.second else []), figure]
                rows = [[x, *([y] if y is not None else []), str(v)] for (x, y), v in values.items()]
                title = f"{topic}: {who}" + (" (archived)" if archived else "")
                text = [f"{figure} for {who}, by {' and '.join(names if config.second else names[:1])}."]
                if archived:
                    text.insert(0, "ARCHIVED: this article describes the old policy, which no longer applies.")
                path = new_path(rng, "a", pages)
                pages[path] = page(title, text, [[topic, topic_path], ["Help centre", "/"]], [header, *rows])
                pages[topic_path]["links"].append([title, path])
                if topic == asked_topic:
                    articles_of_topic += 1
                    if who == audience and not archived:
                        key = (rng.choice(first), rng.choice(second))
                        target, route, answer = path, [topic_path, path], values[key]
                        position = list(values).index(key)  # rows above the customer's in the table
                        condition = f"{names[0]} {key[0]}" + (f" and {names[1]} {key[1]}" if config.second else "")
                        question = f"I have one of your {audience} ({condition}): {ask}?"
        rng.shuffle(pages["/"]["links"])
        assert target is not None and route is not None and question is not None and answer is not None
        budget = 2 + config.slack
        prompt = (
            f"A customer asks: \"{question}\" Find the answer on the help centre website, whose start page is /, "
            f"using the tools, and answer with the number only, e.g. <answer>{EXAMPLE}</answer>.\n\n"
            + self.tools_prompt(budget)
        )
        data = {"records": site_records(pages), "route": route, "rows": config.rows * len(second),
                "articles": articles_of_topic, "topics": config.topics, "position": position, "budget": budget}
        return Problem(prompt=prompt, answer=str(answer), data=data)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["articles"] + data["rows"] / 2 + data["topics"] / 2 + data["position"] / 4

    def judge(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(answer, int(problem.answer or "0"), units=UNITS)
        return Verdict.unparsed("not a number") if verdict is None else Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        return [call("open", url="/"), *(call("open", url=path) for path in problem.data["route"]),
                problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [f"{answer}.", f"The answer is {answer}.", f"Answer: {answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.answer or "0")
        return [str(value + 1), str(value - 1), f"{value} or {value + 2}"]
