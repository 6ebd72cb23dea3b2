"""Add up a month's spending from a generated shop account's paginated order history.

The site (:mod:`palaestra.envs.web.common`) is a customer's account: the start page links to the order
history, a table over several pages sorted newest first (order number, date, status: delivered, cancelled
or returned, total), each order linking to its page, which lists its lines (product, category, price,
quantity, and from level 3 lines returned on their own). The prompt asks what was spent in one month: on
delivered orders (levels 0-1), or on one category's lines of delivered orders not returned (from level 2),
which only the order pages show.

The answer is that amount in dollars and cents (exact, from integer cents). The asked month sits in the
older third of the history (so deeper histories mean more pages to read), with orders on its first and last
days and just outside it, cancelled and returned orders, and (from level 2) the category's lines in other months and other categories' lines in the month, so a careless
date bound, status or category filter fails. Since version 3 each near miss is planted where its slip counts it
(session-30 red team; in version 2 they were left to chance): delivered lines of the category on the days just
before and after the month (a sum that took in the day after the month was right in 35-71% of problems, the day
before in 73-87%), on its first and last days, a cancelled and a returned order inside it (counting returned
orders was right in 24-53%), and from level 3 a delivered line of the category returned on its own (keeping
returned lines was right in 64-69%). Sorted newest first, the history can be read until the month
is passed. The difficulty is a quarter of the history rows up to the month's end plus the orders to open plus half
the lines to add.

Generation speed: about 1,100 problems/s at level 4 on this 2-core machine, near the 1,000 floor. Each
problem builds a whole shop site for the model to browse: 9 months of orders (3-6 a month, up to 4 lines
each, invented brand names), paged order lists and a page per order, and about 1 site in 4 is redrawn
because the asked month has nothing to count or no cancelled or returned order that must be left out;
building those pages is nearly all the time, and they are what the model navigates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import call, cents_of, dollars, judge_dollars
from palaestra.envs.web.common import WebTask, new_path, page, site_records
from palaestra.generators.knowledge import NameForge

TODAY = date(2025, 1, 20)
CATEGORIES = {"books": ("novel", "atlas", "diary"), "kitchen": ("pan", "whisk", "kettle"),
              "garden": ("hose", "rake", "planter"), "toys": ("kite", "puzzle", "robot")}
CATEGORY_NAMES = tuple(sorted(CATEGORIES))  # drawn from for every order line
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


@register
class OrderHistory(WebTask):
    id = "web/order_history"
    family = "web"
    description = "Add up one month's spending (by status, category and returns) across a shop account's paginated order history."
    tags = ("web", "navigation", "aggregation", "arithmetic", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow")
    version = 3  # v2: the asked month in the history's older third; levels past 4 add 4 months each; v3: planted near misses

    @dataclass(frozen=True)
    class Config:
        months: int  # months of history
        per_month: tuple[int, int]
        per_page: int
        by_category: bool
        line_returns: bool
        slack: int

    presets = (
        Config(3, (2, 3), 5, False, False, 3),
        Config(5, (2, 4), 5, False, False, 3),
        Config(5, (2, 4), 6, True, False, 4),
        Config(7, (3, 5), 6, True, True, 5),
        Config(9, (3, 6), 8, True, True, 6),
    )
    growth = Growth(steps={"months": 4, "slack": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a history with near misses", attempts=60)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        forge = NameForge(rng)
        first = _month_start(TODAY, config.months - 1)
        # The asked month is in the older third, so the rows to read grow with the history (level after level).
        asked_back = rng.randint(max(1, min(2 * config.months // 3, config.months - 2)), config.months - 1)
        asked = _month_start(TODAY, asked_back)
        after = _month_start(TODAY, asked_back - 1)
        category = rng.choice(CATEGORY_NAMES)
        days: list[date] = [asked, after - timedelta(days=1), asked - timedelta(days=1), after]  # the edges
        span = (TODAY - first).days
        days += [first + timedelta(days=rng.randint(0, span)) for _ in range(
            sum(rng.randint(*config.per_month) for _ in range(config.months)))]
        inner = [asked + timedelta(days=n) for n in rng.sample(range(1, (after - asked).days - 1), 3)]
        days += inner
        days = sorted((d for d in days if first <= d <= TODAY or d == asked - timedelta(days=1)), reverse=True)
        numbers = rng.sample(range(100_000, 999_999), len(days))
        brands = [forge.word(2) for _ in range(8)]  # product names need not be unique: a few brands serve
        orders: list[dict[str, Any]] = []
        for day, number in zip(days, numbers):
            status = rng.choice(("delivered", "delivered", "delivered", "cancelled", "returned"))
            lines: list[dict[str, Any]] = []
            for _ in range(rng.randint(1, 4) if config.by_category else 1):
                kind = rng.choice(CATEGORY_NAMES)
                lines.append({"name": f"{rng.choice(brands)} {rng.choice(CATEGORIES[kind])}", "category": kind,
                              "price": rng.randint(3, 120) * 100 + rng.choice((0, 49, 99)),
                              "quantity": rng.randint(1, 3),
                              "returned": config.line_returns and status == "delivered" and rng.random() < 0.2})
            orders.append({"number": f"#{number}", "date": day.isoformat(), "status": status, "lines": lines})
        # Every near miss counts where a slip would count it: the days just outside the month hold delivered
        # lines of the category, the month's first and last days too (so a slip at either bound, inward or
        # outward, changes the sum), and three orders inside it are cancelled, returned, and (with line returns)
        # delivered with a line of the category returned on its own.
        plants: dict[str, tuple[str, bool]] = {day.isoformat(): ("delivered", False) for day in (
            asked - timedelta(days=1), asked, after - timedelta(days=1), after)}
        plants |= {day.isoformat(): plant for day, plant in zip(
            inner, [("cancelled", False), ("returned", False)] + ([("delivered", True)] if config.line_returns else []))}
        for order in orders:
            if order["date"] in plants:
                order["status"], returned = plants.pop(order["date"])
                line = order["lines"][0]
                if config.by_category and line["category"] != category:
                    line.update(category=category, name=f"{rng.choice(brands)} {rng.choice(CATEGORIES[category])}")
                line["returned"] = returned
        in_month = [o for o in orders if asked.isoformat() <= o["date"] < after.isoformat()]
        in_month_numbers = {o["number"] for o in in_month}

        def counted(order: dict[str, Any], line: dict[str, Any]) -> bool:
            return (order["status"] == "delivered" and not line["returned"]
                    and (not config.by_category or line["category"] == category))

        amount = sum(line["price"] * line["quantity"] for o in in_month for line in o["lines"] if counted(o, line))
        refused = [o for o in in_month if o["status"] != "delivered"]
        if amount == 0 or not refused:
            return None
        if config.by_category and not any(line["category"] == category and o["status"] == "delivered"
                                          for o in orders if o["number"] not in in_month_numbers for line in o["lines"]):
            return None
        pages: dict[str, dict[str, Any]] = {"/": page("Your account", ["Welcome back."])}
        chunks = [orders[i:i + config.per_page] for i in range(0, len(orders), config.per_page)]
        paths = [new_path(rng, "h", pages) for _ in chunks]
        taken = {*pages, *paths}
        for number, (path, chunk) in enumerate(zip(paths, chunks)):
            links = []
            for order in chunk:
                order["path"] = new_path(rng, "o", taken)
                taken.add(order["path"])
                total = sum(line["price"] * line["quantity"] for line in order["lines"])
                links.append([f"Order {order['number']}", order["path"]])
                rows = [["Product", "Category", "Price", "Quantity", "Note"],
                        *[[line["name"], line["category"], dollars(line["price"]), str(line["quantity"]),
                           "returned" if line["returned"] else ""] for line in order["lines"]]]
                pages[order["path"]] = page(f"Order {order['number']}", [
                    f"Placed {order['date']}, status {order['status']}, total {dollars(total)}."],
                    [["Order history", paths[0]]], rows)
                order["total"] = total
            if number + 1 < len(paths):
                links.append(["Older orders", paths[number + 1]])
            if number:
                links.append(["Newer orders", paths[number - 1]])
            table = [["Order", "Date", "Status", "Total"],
                     *[[o["number"], o["date"], o["status"], dollars(o["total"])] for o in chunk]]
            pages[path] = page(f"Order history (page {number + 1} of {len(paths)})", [], links, table)
        pages["/"]["links"] = [["Order history", paths[0]]]
        older = next((i for i, o in enumerate(orders) if o["date"] < asked.isoformat()), len(orders) - 1)
        reading = paths[:older // config.per_page + 1]  # up to the first order older than the month
        opened = [o["path"] for o in in_month if o["status"] == "delivered"] if config.by_category else []
        budget = 1 + len(reading) + len(opened) + config.slack
        month = f"{MONTHS[asked.month - 1]} {asked.year}"
        what = (f"on {category} items in orders placed in {month} that were delivered, leaving out lines returned"
                if config.by_category else f"on orders placed in {month} that were delivered")
        prompt = (
            f"You are looking at your account on a shop's website, whose start page is /. Today is "
            f"{TODAY.isoformat()}. Using the tools, find how much you spent {what} (cancelled and returned orders do "
            f"not count), and answer in dollars, e.g. <answer>$12.34</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"records": site_records(pages), "reading": reading, "rows_read": older + 1, "opened": opened,
                "counted_lines": sum(
            1 for o in in_month for line in o["lines"] if counted(o, line)), "budget": budget}
        return Problem(prompt=prompt, answer=dollars(amount), data=data)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["rows_read"] / 4 + len(data["opened"]) + data["counted_lines"] / 2

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        moves = [call("open", url="/"), call("follow", link=1), *(call("open", url=p) for p in data["reading"][1:])]
        moves += [call("open", url=path) for path in data["opened"]]
        return [*moves, problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The total is {answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 100), dollars(cents + 1), f"{problem.answer} or {dollars(cents + 500)}"]


def _month_start(day: date, back: int) -> date:
    """The first day of the month ``back`` months before ``day``'s."""
    index = day.year * 12 + day.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)
