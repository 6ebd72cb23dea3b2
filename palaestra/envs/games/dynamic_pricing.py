"""Dynamic pricing: set a price each day for shoppers whose willingness to pay is hidden; learn the demand.

Every day ``shoppers`` people visit; each buys one unit when the price is at most their
willingness to pay, drawn uniformly from a hidden range ``[low, high]``. The unit cost is
stated. Each turn the model sets that day's price (a whole number of dollars, ``14``, ``$14``,
``price 14``) and sees the units sold (a binomial draw from the tape stored with the problem,
:func:`palaestra.envs.games.common.tape_rng`) and the day's profit. At the hardest level the
range shifts on a hidden day, so the model must notice and re-learn.

The reward is per day and based on expected profit, not on luck: a day priced at ``p`` earns
``max(0, profit(p)) / (days * profit(best price))``, where ``profit(p) = (p - cost) *
shoppers * P(willing to pay p)`` and the best price is the whole-dollar price maximising it
(for that day's range). Pricing every day at the best price earns exactly 1; the oracle does.
A malformed price earns 0 and costs the day. A turn's verdict is correct when the price was
the best one.

Levels lengthen the season but thin the shoppers (noisier sales), and add the shift. The
difficulty measure is the relative noise of a day's sales, ``100 / sqrt(shoppers)``, plus 10
when the range shifts.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.envs.games.common import MAX_MOVE_CHARS, invalid, tape_rng
from palaestra.verifiers.numeric import read_integer

MAX_PRICE = 500
PREFIXES = ("set the price to", "set price to", "price:", "price", "set", "$")


@register
class DynamicPricing(MultiTurnTask):
    id = "games/dynamic_pricing"
    family = "games"
    description = "Set a daily price against hidden demand; scored by expected profit against the best price."
    tags = ("games", "multi-turn", "decision-making", "economics")

    @dataclass(frozen=True)
    class Config:
        days: int
        shoppers: int
        shift: bool  # the willingness-to-pay range moves on a hidden day

    presets = (
        Config(8, 200, False),
        Config(10, 100, False),
        Config(12, 50, False),
        Config(15, 25, False),
        Config(20, 25, True),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 4 to 5)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cost = rng.randint(2, 20)
        ranges = [_range(rng, cost)]
        shift_day = config.days
        if config.shift:
            shift_day = rng.randint(config.days // 3, 2 * config.days // 3)
            ranges.append(_shifted_range(rng, cost, ranges[0]))
        tape = rng.getrandbits(48)
        prompt = (
            f"You sell a product for {config.days} days. Each unit costs you ${cost}. Every day {config.shoppers} "
            "shoppers visit; each buys one unit if your price is at most what they are willing to pay. Willingness "
            "to pay differs from shopper to shopper, spread evenly over a range you do not know"
            f"{' (and the range may change once during the season)' if config.shift else ''}.\n\n"
            "Each turn, set the price for one day, as a whole number of dollars, for example: 25. You then see how "
            "many units sold and the day's profit. Your score is based on the expected profit of your prices, not on "
            "luck: every day priced at the most profitable price earns the most, a price that loses money (or a "
            "malformed move, which costs the day) earns nothing."
        )
        data = {"cost": cost, "ranges": ranges, "shift_day": shift_day, "shoppers": config.shoppers,
                "days": config.days, "tape": tape}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["days"]

    def difficulty(self, problem: Problem) -> float:
        """Noise (100 / sqrt(shoppers)) plus 10 for a demand shift, plus a fiftieth of the width of the price
        range to search."""
        data = problem.data
        width = max(high - low for low, high in data["ranges"])
        return 100 / math.sqrt(data["shoppers"]) + (10.0 if len(data["ranges"]) > 1 else 0.0) + width / 50

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"day": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        day = state["day"]
        done = day + 1 >= data["days"]
        price = read_price(move)
        if price is None:
            return invalid({"day": day + 1}, f"write one whole-dollar price from 1 to {MAX_PRICE}")._replace(done=done)
        low, high = _today(data, day)
        best = _best_price(data["cost"], low, high)
        expected = _profit(price, data["cost"], data["shoppers"], low, high)
        reward = max(0.0, expected) / (data["days"] * _profit(best, data["cost"], data["shoppers"], low, high))
        chance = _share(price, low, high)
        rng = tape_rng(DynamicPricing.id, data["tape"], "day", day, price)
        sold = sum(rng.random() < chance for _ in range(data["shoppers"]))
        said = f"Day {day + 1}: at ${price} you sold {sold} units, profit ${(price - data['cost']) * sold}."
        ending = " That was the last day." if done else ""
        return Outcome({"day": day + 1}, Verdict(min(1.0, reward), price == best, True, said), said + ending, done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        return str(_best_price(data["cost"], *_today(data, state["day"])))


def read_price(move: str) -> int | None:
    """A whole-dollar price from 1 to ``MAX_PRICE`` (``25``, ``$25``, ``price 25``), or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None
    text = move.strip().lower()
    for prefix in PREFIXES:
        if text.startswith(prefix):
            text = text[len(prefix):].strip().lstrip("$").strip()
            break
    value = read_integer(text, max_digits=6, units={"dollars": 1, "dollar": 1, "usd": 1})
    return value if value is not None and 1 <= value <= MAX_PRICE else None


def _range(rng: random.Random, cost: int) -> list[int]:
    low = rng.randint(cost + 1, cost + 40)
    return [low, low + rng.randint(20, 120)]


def _shifted_range(rng: random.Random, cost: int, before: list[int]) -> list[int]:
    """A new range whose best price differs from the old one's by at least 15%."""
    old = _best_price(cost, *before)
    candidates = [_range(rng, cost) for _ in range(50)]
    far = [r for r in candidates if abs(_best_price(cost, *r) - old) >= 0.15 * old]
    return far[0] if far else [before[0] * 2, before[1] * 2]


def _today(data: dict[str, Any], day: int) -> tuple[int, int]:
    low, high = data["ranges"][0 if day < data["shift_day"] else 1]
    return low, high


def _share(price: int, low: int, high: int) -> float:
    """The share of shoppers willing to pay ``price``."""
    return min(1.0, max(0.0, (high - price) / (high - low)))


def _profit(price: int, cost: int, shoppers: int, low: int, high: int) -> float:
    return (price - cost) * shoppers * _share(price, low, high)


def _best_price(cost: int, low: int, high: int) -> int:
    """The whole-dollar price of highest expected profit (the lowest one on a tie).

    Below ``low`` everyone buys, so profit grows with the price; on ``[low, high]`` it is a
    parabola peaking at ``(high + cost) / 2``: the best whole price is next to that peak or ``low``.
    """
    peak = (high + cost) / 2
    candidates = {low, math.floor(peak), math.ceil(peak)}
    return max(sorted(p for p in candidates if low <= p <= high), key=lambda p: (_profit(p, cost, 1, low, high), -p))
