"""Dynamic pricing: set a price each day for shoppers whose willingness to pay is hidden; learn the demand.

Every day ``shoppers`` people visit; each buys one unit when the price is at most their
willingness to pay, drawn uniformly from a hidden range ``[low, high]``. The unit cost is
stated. Each turn the model sets that day's price (a whole number of dollars, ``14``, ``$14``,
``price 14``) and sees the units sold (a binomial draw from the tape stored with the problem,
:func:`palaestra.envs.games.common.tape_rng`) and the day's profit. At the hardest level the
range shifts on a hidden day, so the model must notice and re-learn.

The reward is based on expected profit, not on luck, and normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`): on the last day the episode pays ``clip((sum of
profit(price) - zero) / (sum of profit(best price) - zero))``, where ``profit(p) = (p - cost) * shoppers *
P(willing to pay p)``, the best price is the whole-dollar price maximising it (for that day's range), and the
zero sits :data:`ZERO_SHARE` (30%) of the way from the mean profit of a uniformly random price (from the unit
cost to the day's highest willingness to pay) to the best price's, summed over the days. The best price every
day scores exactly 1 (the oracle does); a malformed price counts as a day with no sales. A turn's verdict is
correct when the price was the best one.

Version 3: in version 2 the zero was random prices' mean profit and the willingness-to-pay ranges had four
scales (1, 2, 4, 8), so the same price every day scored up to 0.33 on average (140 at level 0), "cost plus
$100" 0.32 and random prices 0.11. A zero at the best constant price of the game itself cannot work here: in
a game without a shift that is the best price. Instead the scale of the range is now log-uniform over 1-512
(:func:`_range`), so no price is near the best one in many games, and the zero is raised by
:data:`ZERO_SHARE`, because profit is flat near the best price and random prices are poor; together they hold
every constant price to about 0.11 on average (the best of 2,000 single-day games; the best of 270 prices on
200 games per level reads 0.14-0.16, most of it the pick of the luckiest price) and the declared markups to
0.16 or less. A larger share would cost the honest player more than the constants. The seasons are longer
(16-20 days before the shift level, 40 with 50 shoppers at it), so that learning the demand pays, and the
honest player (:meth:`DynamicPricing.honest_move`, :func:`_fitted_price`) opens near the middle of the
possible prices, searches by factors of 4 until some but not all shoppers buy, fits the linear demand to the
sales it saw and starts afresh after a surprising day (a shift). It scores 0.40-0.47 per level.

Levels thin the shoppers (noisier sales), and add the shift. The difficulty measure is the relative noise of
a day's sales, ``100 / sqrt(shoppers)``, plus 10 when the range shifts, plus the doublings that span the
widest price range (version 2: a fiftieth of its width).
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward
from palaestra.envs.games.common import tape_rng
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.numeric import read_integer

MAX_PRICE = 200_000
ZERO_SHARE = 0.3  # the zero's place from random prices' mean profit (0) to the best price's (1)
TOP_SCALE_OCTAVES = 9  # the willingness-to-pay range's scale is log-uniform from 1 to 2 ** this
OPENING_MARKUP = 1000  # the honest player's first markup, near the middle of the possible ones (log scale)
SEARCH_FACTOR = 4  # ... scaled by this until some but not all shoppers buy
FIT_DAYS = 6  # ... then the demand line is fitted to the last this many such days
FLOOR_STEP = 1.1  # the markup's step up from a price everyone paid
SURPRISE = 0.35  # a day's share bought this far off the fitted line starts the fit afresh (a shift)
PREFIXES = ("set the price to", "set price to", "price:", "price", "set", "$")


@register
class DynamicPricing(MultiTurnTask):
    id = "games/dynamic_pricing"
    family = "games"
    description = "Set a daily price against hidden demand; scored by expected profit against the best price."
    tags = ("games", "multi-turn", "decision-making", "economics")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 3
    hidden_information = True
    score_based = True
    public_keys = ("cost", "shoppers", "days")

    @dataclass(frozen=True)
    class Config:
        days: int
        shoppers: int
        shift: bool  # the willingness-to-pay range moves on a hidden day

    presets = (
        Config(16, 200, False),
        Config(16, 100, False),
        Config(18, 50, False),
        Config(20, 25, False),
        Config(40, 50, True),
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
            f"of your prices, not on luck: 0 up to a zero {ZERO_SHARE:.0%} of the way from the mean profit of prices picked at "
            "random between the unit cost and the most anyone is willing to pay to the profit of the most "
            "profitable price, rising evenly to 1 at the most profitable price every day; it is paid after the last "
            "day. A malformed move counts as a day without sales."
        )
        data = {"cost": cost, "ranges": ranges, "shift_day": shift_day, "shoppers": config.shoppers,
                "days": config.days, "tape": tape}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["days"]

    def difficulty(self, problem: Problem) -> float:
        """Noise (100 / sqrt(shoppers)) plus 10 for a demand shift, plus the doublings that span the widest
        price range to search."""
        data = problem.data
        width = max(high - low for low, high in data["ranges"])
        return 100 / math.sqrt(data["shoppers"]) + (10.0 if len(data["ranges"]) > 1 else 0.0) + math.log2(width)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"day": 0, "achieved": 0.0}

    def _reward(self, problem: Problem, achieved: float, done: bool) -> float:
        if not done:
            return 0.0
        data = problem.data
        days = [_today(data, day) for day in range(data["days"])]
        best = sum(_profit(_best_price(data["cost"], *r), data["cost"], data["shoppers"], *r) for r in days)
        random_mean = sum(_random_profit(data["cost"], data["shoppers"], *r) for r in days)
        return regret_reward(achieved, random_mean + ZERO_SHARE * (best - random_mean), best)

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
        return list(_prices(problem.data["cost"], high))

    def honest_move(self, view: View) -> str:
        return str(_fitted_price(view.public["cost"], view.public["shoppers"], _sales(view.history)))

    def heuristics(self) -> dict[str, Policy]:
        return {"twice the cost": lambda problem, state, history, rng: str(2 * problem.data["cost"]),
                "cost plus $30": lambda problem, state, history, rng: str(problem.data["cost"] + 30),
                "cost plus $100": lambda problem, state, history, rng: str(problem.data["cost"] + 100),
                "cost plus $1000": lambda problem, state, history, rng: str(problem.data["cost"] + OPENING_MARKUP)}


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
    """The honest player's price: search by factors of :data:`SEARCH_FACTOR` from the opening markup until some
    but not all shoppers buy, then the best price for a straight demand line fitted to the last
    :data:`FIT_DAYS` such days (one such day: a line through it from the unit cost), kept below the lowest
    price nobody paid and above the highest everyone paid. Only the days since the last surprise (:func:`_since_shift`) count."""
    sales = sales[_since_shift(shoppers, sales):]
    inside = [(price, sold / shoppers) for price, sold in sales if 0 < sold < shoppers][-FIT_DAYS:]
    floor, ceiling = _bounds(cost, shoppers, sales) or _bounds(cost, shoppers, sales[-1:]) or (cost, None)
    line = _demand_line(inside)
    guess = None
    if line is not None:
        mean_price, mean_share, slope = line
        high = mean_price - mean_share / slope  # where the fitted share reaches 0 ...
        low = high + 1 / slope  # ... and 1
        lowest, highest = min(p for p, _ in inside), max(p for p, _ in inside)
        # a noisy fit may extrapolate far: stay within a factor of 2 of the markups tried
        guess = min(max(low, (high + cost) / 2, cost + (lowest - cost) / 2), cost + 2 * (highest - cost))
    elif inside:
        price, share = inside[-1]
        high = (price - share * cost) / (1 - share)  # a range from the unit cost through the observation
        guess = min((high + cost) / 2, cost + SEARCH_FACTOR * (price - cost))
        if abs(guess - price) < 0.05 * (price - cost):  # step aside, to fit a line next
            guess = cost + (price - cost) * (1.25 if share > 0.5 else 0.8)
    elif ceiling is not None and floor > cost:
        guess = cost + math.sqrt((floor - cost) * (ceiling - cost))
    elif ceiling is not None:
        guess = cost + (ceiling - cost) / SEARCH_FACTOR
    else:
        guess = cost + (SEARCH_FACTOR * (floor - cost) if floor > cost else OPENING_MARKUP)
    if floor > cost:  # everyone paid the floor, so the best price is above it: probe upwards
        guess = max(guess, cost + FLOOR_STEP * (floor - cost))
    price = round(guess)
    if ceiling is not None and price >= ceiling:
        price = (max([floor, *(p for p, _ in inside)]) + ceiling) // 2
    return _clamp(price, cost)


def _demand_line(inside: list[tuple[int, float]]) -> tuple[float, float, float] | None:
    """The least-squares line through (price, share bought) points: (mean price, mean share, slope), or None
    when it does not fall (or the points hold fewer than two prices)."""
    if len({price for price, _ in inside}) < 2:
        return None
    mean_price = sum(p for p, _ in inside) / len(inside)
    mean_share = sum(share for _, share in inside) / len(inside)
    slope = (sum((p - mean_price) * (share - mean_share) for p, share in inside)
             / sum((p - mean_price) ** 2 for p, _ in inside))
    return (mean_price, mean_share, slope) if slope < 0 else None


def _since_shift(shoppers: int, sales: list[tuple[int, int]]) -> int:
    """The first day after which the sales fit one demand line: a day whose share bought is more than
    :data:`SURPRISE` off the line fitted to the days before it (since the last such day) starts afresh."""
    start = 0
    for day, (price, sold) in enumerate(sales):
        line = _demand_line([(p, n / shoppers) for p, n in sales[start:day] if 0 < n < shoppers][-FIT_DAYS:])
        if line is not None:
            mean_price, mean_share, slope = line
            expected = min(1.0, max(0.0, mean_share + slope * (price - mean_price)))
            if abs(expected - sold / shoppers) > SURPRISE:
                start = day
    return start


def _bounds(cost: int, shoppers: int, sales: list[tuple[int, int]]) -> tuple[int, int | None] | None:
    """The highest price everyone paid (or the cost) and the lowest nobody paid (or None); None when the sales
    contradict them (the demand shifted)."""
    floor = max((price for price, sold in sales if sold == shoppers), default=cost)
    ceiling = min((price for price, sold in sales if sold == 0), default=None)
    if ceiling is not None and (floor >= ceiling or any(not floor <= price <= ceiling
                                                        for price, sold in sales if 0 < sold < shoppers)):
        return None
    return floor, ceiling


def _clamp(price: int, cost: int) -> int:
    return max(cost + 1, min(MAX_PRICE, price))


@lru_cache(maxsize=256)
def _prices(cost: int, high: int) -> tuple[str, ...]:
    """Every whole price from the unit cost to ``high`` (tens of thousands at the largest scales: made once)."""
    return tuple(str(price) for price in range(cost, high + 1))


def _random_profit(cost: int, shoppers: int, low: int, high: int) -> float:
    """The expected profit of a price drawn uniformly from the unit cost to the highest willingness to pay.

    In closed form (the ranges reach tens of thousands of prices): everyone buys up to ``low``, a margin of
    ``0 .. low - cost``; above it ``q = 1 .. width`` dollars, the margin ``low - cost + q`` sells to
    ``(width - q) / width`` of them.
    """
    below, width = low - cost, high - low
    everyone = below * (below + 1) / 2
    sum_q, sum_q2 = width * (width + 1) / 2, width * (width + 1) * (2 * width + 1) / 6
    some = (width * sum_q - sum_q2 + below * width * width - below * sum_q) / width
    return shoppers * (everyone + some) / (high - cost + 1)


def read_price(move: str) -> int | None:
    """A whole-dollar price from 1 to ``MAX_PRICE`` (``25``, ``$25``, ``price 25``), or None."""

    def read(text: str) -> int | None:
        text = text.strip().lower()
        for prefix in PREFIXES:
            if text.startswith(prefix):
                text = text[len(prefix):].strip().lstrip("$").strip()
                break
        value = read_integer(text, max_digits=6, units={"dollars": 1, "dollar": 1, "usd": 1})
        return value if value is not None and 1 <= value <= MAX_PRICE else None

    return read_move_answer(move, read)


def _range(rng: random.Random, cost: int) -> list[int]:
    """A willingness-to-pay range; its scale is log-uniform over 512-fold, so no fixed price or markup is right for
    most problems."""
    scale = 2 ** rng.uniform(0, TOP_SCALE_OCTAVES)
    low = cost + max(1, round(scale * rng.randint(1, 40)))
    return [low, low + max(20, round(scale * rng.randint(20, 120)))]


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
