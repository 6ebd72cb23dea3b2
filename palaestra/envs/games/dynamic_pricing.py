"""Dynamic pricing: set a price each day for shoppers whose willingness to pay is hidden; learn the demand.

Every day ``shoppers`` people visit; each buys one unit when the price is at most their
willingness to pay, drawn uniformly from a hidden range ``[low, high]``. The unit cost is
stated. Each turn the model sets that day's price (a whole number of dollars, ``14``, ``$14``,
``price 14``) and sees the units sold (a binomial draw from the tape stored with the problem,
:func:`palaestra.envs.games.common.tape_rng`) and the day's profit. At the hardest level the
range shifts on a hidden day, so the model must notice and re-learn.

The reward is based on expected profit, not on luck, and normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`): on the last day the episode pays ``clip((sum
of profit(price) - sum of the mean profit of a uniformly random price from the unit cost to the
day's highest willingness to pay) / (sum of
profit(best price) - that mean))``, where ``profit(p) = (p - cost) * shoppers * P(willing to pay
p)`` and the best price is the whole-dollar price maximising it (for that day's range). Random
prices score about 0, the best price every day exactly 1 (the oracle does); a malformed price
counts as a day with no sales. A turn's verdict is correct when the price was the best one. The
honest player (:meth:`DynamicPricing.honest_move`) fits the linear demand to the sales it saw.

Levels lengthen the season but thin the shoppers (noisier sales), and add the shift. The
difficulty measure is the relative noise of a day's sales, ``100 / sqrt(shoppers)``, plus 10
when the range shifts.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.numeric import read_integer

MAX_PRICE = 2000
PREFIXES = ("set the price to", "set price to", "price:", "price", "set", "$")


@register
class DynamicPricing(MultiTurnTask):
    id = "games/dynamic_pricing"
    family = "games"
    description = "Set a daily price against hidden demand; scored by expected profit against the best price."
    tags = ("games", "multi-turn", "decision-making", "economics")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2
    hidden_information = True
    score_based = True
    public_keys = ("cost", "shoppers", "days")

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
        Config(30, 25, True),
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
            f"Each turn, set the price for one day, as a whole number of dollars from 1 to {MAX_PRICE}, for example: "
            "25. You then see how many units sold and the day's profit. Your score is based on the expected profit "
            "of your prices, not on luck, and compares it with prices picked at random between the unit cost and the "
            "most anyone is willing to pay: such random prices score 0 (or less, counted as 0), the most profitable "
            "price every day scores 1, and the score is paid after the last day. A malformed move counts as a day "
            "without sales."
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
        return {"day": 0, "achieved": 0.0}

    def _reward(self, problem: Problem, achieved: float, done: bool) -> float:
        if not done:
            return 0.0
        data = problem.data
        days = [_today(data, day) for day in range(data["days"])]
        best = sum(_profit(_best_price(data["cost"], *r), data["cost"], data["shoppers"], *r) for r in days)
        random_mean = sum(_random_profit(data["cost"], data["shoppers"], *r) for r in days)
        return regret_reward(achieved, random_mean, best)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        day = state["day"]
        done = day + 1 >= data["days"]
        price = read_price(move)
        if price is None:
            bad = Outcome.invalid({"day": day + 1, "achieved": state["achieved"]},
                          f"write one whole-dollar price from 1 to {MAX_PRICE}")
            reward = self._reward(problem, state["achieved"], done)
            return bad._replace(done=done, verdict=dataclasses.replace(bad.verdict, reward=reward) if reward else bad.verdict)
        low, high = _today(data, day)
        best = _best_price(data["cost"], low, high)
        achieved = state["achieved"] + _profit(price, data["cost"], data["shoppers"], low, high)
        reward = self._reward(problem, achieved, done)
        chance = _share(price, low, high)
        rng = tape_rng(DynamicPricing.id, data["tape"], "day", day, price)
        sold = sum(rng.random() < chance for _ in range(data["shoppers"]))
        said = f"Day {day + 1}: at ${price} you sold {sold} units, profit ${(price - data['cost']) * sold}."
        ending = f" That was the last day; your score is {reward:.2f}." if done else ""
        return Outcome({"day": day + 1, "achieved": achieved}, Verdict(reward, price == best, True, said),
                       said + ending, done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        return str(_best_price(data["cost"], *_today(data, state["day"])))


    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """The random baseline's prices: from the unit cost to the highest willingness to pay that day."""
        low, high = _today(problem.data, state["day"])
        return [str(p) for p in range(problem.data["cost"], high + 1)]

    def honest_move(self, view: View) -> str:
        return str(_fitted_price(view.public["cost"], view.public["shoppers"], _sales(view.history)))

    def heuristics(self) -> dict[str, Policy]:
        return {"twice the cost": lambda problem, state, history, rng: str(2 * problem.data["cost"]),
                "cost plus $30": lambda problem, state, history, rng: str(problem.data["cost"] + 30),
                "cost plus $100": lambda problem, state, history, rng: str(problem.data["cost"] + 100)}


_SOLD = re.compile(r"Day \d+: at \$(\d+) you sold (\d+) units")


def _sales(history: tuple[tuple[str, str], ...]) -> list[tuple[int, int]]:
    """(price, units sold) per past day, read from the observations."""
    out = []
    for _, observation in history:
        match = _SOLD.match(observation)
        if match:
            out.append((int(match.group(1)), int(match.group(2))))
    return out


def _fitted_price(cost: int, shoppers: int, sales: list[tuple[int, int]]) -> int:
    """The honest player's price: bracket the demand range by probing, then the best price for a straight
    demand line fitted to the recent days where some but not all shoppers bought.

    Only the last three days count, so a shift in demand is followed.
    """
    if not sales:
        return cost + 30
    recent = sales[-3:]
    inside = sorted({p: sold / shoppers for p, sold in recent if 0 < sold < shoppers}.items())
    if len(inside) >= 2:
        (p1, s1), (p2, s2) = inside[0], inside[-1]
        slope = (s2 - s1) / (p2 - p1)
        if slope < 0:
            high = p1 - s1 / slope  # where the share reaches 0
            return _clamp(round((high + cost) / 2), cost)
    all_bought = [p for p, sold in recent if sold == shoppers]
    none_bought = [p for p, sold in recent if sold == 0]
    if inside:
        price, share = inside[-1]
        return _clamp(round(cost + (price - cost) * (1.4 if share > 0.5 else 0.75)), cost)
    if all_bought and none_bought and min(none_bought) > max(all_bought):
        return _clamp((min(none_bought) + max(all_bought)) // 2, cost)
    if none_bought and not all_bought:
        return _clamp(cost + (min(none_bought) - cost) // 2, cost)
    return _clamp(cost + 2 * (max(all_bought) - cost), cost)


def _clamp(price: int, cost: int) -> int:
    return max(cost + 1, min(MAX_PRICE, price))


def _random_profit(cost: int, shoppers: int, low: int, high: int) -> float:
    """The expected profit of a price drawn uniformly from the unit cost to the highest willingness to pay."""
    return sum(_profit(p, cost, shoppers, low, high) for p in range(cost, high + 1)) / (high - cost + 1)


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
    """A willingness-to-pay range; its scale varies eightfold, so no fixed markup is right for most problems."""
    scale = rng.choice((1, 2, 4, 8))
    low = cost + scale * rng.randint(1, 40)
    return [low, low + scale * rng.randint(20, 120)]


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
