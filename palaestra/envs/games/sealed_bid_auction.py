"""Sealed-bid auctions: bid for items against scripted rival bidders; scored by expected surplus.

Each round one item is sold by a first-price sealed-bid auction: the model learns its own value
for the item (a whole number of dollars), writes a bid (``42``, ``bid 42``, ``$42``), and the
highest bid wins and pays what it bid. Each rival bids a random amount spread evenly between its
own floor and cap (so a bid below every floor never wins, and a rule such as "bid half your value"
is often far from the best bid); the ranges are stated at the first levels and hidden (to be
estimated from the rivals' bids, which are revealed after every round) at the last two. Rival bids come from a tape
stored with the problem (:func:`palaestra.envs.games.common.tape_rng`).

The reward does not depend on luck and is normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`): a bid ``b`` for an item worth ``v`` has
expected surplus ``(v - b) * P(every rival bids below b)``; on the last round the episode pays
``clip((sum of the bids' expected surplus - Z) / (sum of the best whole-dollar bids' expected
surplus - Z))``, where ``Z`` (:func:`random_zero_point`) is the mean of that sum for uniformly random
whole-dollar bids from 0 to v plus one standard deviation of it: with the mean alone, the clip at 0
paid random bids about 0.4 standard deviations (0.16-0.18 at the first levels), so random bids score
about 0 (0.03-0.08) and the best bid every round exactly 1 (the oracle does). A malformed bid counts as no bid (surplus 0) and costs the round. A round's verdict is
correct when the bid was a best one. The honest player (:meth:`SealedBidAuction.honest_move`)
estimates a hidden range from the smallest and largest bid each rival has made.

The difficulty measure is the number of rivals, plus two when their ranges are hidden.

Generation speed: about 950 problems/s at level 4 on this 2-core machine. Each of the 8 rounds' values is drawn
until both simple bidding rules earn at most the level's share of the best bid's edge, which needs the expected surplus
of every whole-dollar bid up to the value (hundreds of bids; the rivals' win chances are tabled once per problem);
about 8 values are drawn per round. The test is kept because it is what stops a textbook bidding rule from earning
reward.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_rng
from palaestra.verifiers.numeric import read_integer

_LEAD = re.compile(r"^\s*(?:i\s+)?(?:bid|offer)\s*:?\s*\$?|^\s*\$", re.IGNORECASE)
MAX_BID = 10_000


@register
class SealedBidAuction(MultiTurnTask):
    id = "games/sealed_bid_auction"
    family = "games"
    description = "Bid in first-price sealed-bid auctions against rival bidders; scored by expected surplus."
    tags = ("games", "multi-turn", "decision-making", "economics", "auctions")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2
    hidden_information = True
    score_based = True

    @dataclass(frozen=True)
    class Config:
        rivals: int
        rounds: int
        hidden: bool  # the rivals' ranges are not stated
        rule_share: float  # a value is kept only if "bid half" and "bid n/(n+1)" earn at most this share of its span

    presets = (
        Config(1, 3, False, 1.0),
        Config(2, 4, False, 0.7),
        Config(3, 5, False, 0.5),
        Config(2, 6, True, 0.4),
        Config(3, 8, True, 0.3),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        floors = [rng.randint(10, 120) for _ in range(config.rivals)]
        caps = [[floor, floor + rng.randint(20, 120)] for floor in floors]
        # Values from just above the highest floor to twice the highest cap: every round can be won.
        top_floor, top_cap = max(low for low, _ in caps), max(high for _, high in caps)
        values = [retry(lambda: _value_for_rules(rng, caps, top_floor + 10, 2 * top_cap, config.rule_share),
                        what="a value where the simple bidding rules are poor") for _ in range(config.rounds)]
        data = {"caps": caps, "values": values, "hidden": config.hidden, "tape": rng.getrandbits(48)}
        if config.hidden:
            rivals = (f"{config.rivals} rival bidders each bid a random amount spread evenly between their own floor "
                      "and cap, which you do not know (each rival keeps its floor and cap all game)")
        else:
            listing = ", ".join(f"${low} to ${high}" for low, high in caps)
            rivals = (f"{config.rivals} rival bidder{'s' if config.rivals > 1 else ''} each bid a random amount "
                      f"spread evenly between their floor and cap (ranges: {listing})")
        prompt = (
            f"You take part in {config.rounds} first-price sealed-bid auctions, one item each. Each round you learn "
            f"your value for the item and bid; {rivals}. The highest bid wins the item and pays its bid; your "
            "surplus is your value minus your bid if you win, 0 otherwise. After each round all bids are shown.\n\n"
            "Your score is based on the expected surplus of your bids, not on luck, and compares it with random "
            "bids: bidding a random whole-dollar amount up to your value scores 0 (or less, counted as 0), the "
            "whole-dollar bid of highest expected surplus every round scores 1, and the score is paid after the "
            "last round.\n\n"
            f"Round 1: your value for the item is ${values[0]}. Each turn, write your bid in whole dollars, for "
            "example: 25"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["values"])

    constant_difficulty = "auctions against the level's number of rivals: the same decisions whatever the drawn values"

    def difficulty(self, problem: Problem) -> float:
        return len(problem.data["caps"]) + (2.0 if problem.data["hidden"] else 0.0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"round": 0, "achieved": 0.0}

    def _reward(self, problem: Problem, achieved: float, done: bool) -> float:
        if not done:
            return 0.0
        values, caps = problem.data["values"], problem.data["caps"]
        best = sum(_surplus(_best_bid(v, caps), v, caps) for v in values)
        return regret_reward(achieved, random_zero_point(values, caps), best)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t = state["round"]
        rounds = len(data["values"])
        done = t + 1 >= rounds
        following = "" if done else f" Round {t + 2}: your value for the item is ${data['values'][t + 1]}."
        bid = read_integer(_LEAD.sub("", move, count=1), max_digits=6) if len(move) <= MAX_MOVE_CHARS else None
        if bid is None or not 0 <= bid <= MAX_BID:
            bad = Outcome.invalid({"round": t + 1, "achieved": state["achieved"]}, "write one bid as a whole number of dollars")
            reward = self._reward(problem, state["achieved"], done)
            verdict = dataclasses.replace(bad.verdict, reward=reward) if reward else bad.verdict
            return bad._replace(observation=bad.observation + following, done=done, verdict=verdict)
        value, caps = data["values"][t], data["caps"]
        best = _best_bid(value, caps)
        achieved = state["achieved"] + _surplus(bid, value, caps)
        reward = self._reward(problem, achieved, done)
        rng = tape_rng(SealedBidAuction.id, data["tape"], "round", t)
        rival_bids = [round(rng.uniform(low, high), 2) for low, high in caps]
        top = max(rival_bids)
        result = (f"you win and gain ${value - bid}" if bid > top else "a rival wins")
        said = f"You bid ${bid}; rival bids: {', '.join(f'${b:.2f}' for b in rival_bids)}: {result}."
        verdict = Verdict(reward, _surplus(bid, value, caps) >= _surplus(best, value, caps), True, said)
        ending = f" That was the last auction; your score is {reward:.2f}." if done else following
        return Outcome({"round": t + 1, "achieved": achieved}, verdict, said + ending, done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        return str(_best_bid(data["values"][state["round"]], data["caps"]))


    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """The random baseline's bids: every whole-dollar amount from 0 to this round's value."""
        return [str(b) for b in range(problem.data["values"][state["round"]] + 1)]

    def honest_move(self, view: View) -> str:
        caps = _stated_caps(view.prompt)
        if caps is None:  # hidden: k bids spread evenly leave about 1/(k + 1) of the range beyond each extreme
            seen = _rival_bids(view.history)
            rivals = int(_RIVALS.search(view.prompt).group(1))  # type: ignore[union-attr]
            caps = []
            for rival in range(rivals):
                bids = [round_bids[rival] for round_bids in seen if len(round_bids) > rival]
                if not bids:
                    caps.append([60.0, 140.0])
                    continue
                low, high = min(bids), max(bids)
                margin = max(high - low, 40.0) / (len(bids) + 1) if len(bids) > 1 else 40.0
                caps.append([max(0.0, low - margin), high + margin])
        return str(_best_bid(_current_value(view), caps))

    def heuristics(self) -> dict[str, Policy]:
        def equilibrium(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            rivals = len(problem.data["caps"])
            return str(problem.data["values"][state["round"]] * rivals // (rivals + 1))

        return {"bid half": lambda problem, state, history, rng: str(problem.data["values"][state["round"]] // 2),
                "bid n/(n+1) of the value": equilibrium}


_VALUE = re.compile(r"Round \d+: your value for the item is \$(\d+)")
_RIVALS = re.compile(r"(\d+) rival bidder")
_RANGES = re.compile(r"\(ranges: ([^)]*)\)")
_RANGE = re.compile(r"\$(\d+) to \$(\d+)")
_BIDS = re.compile(r"rival bids: ([^:]*):")


def _current_value(view: View) -> int:
    texts = [view.prompt] + view.observations
    return int(_VALUE.findall(texts[-1])[-1])


def _stated_caps(prompt: str) -> list[list[float]] | None:
    """The rivals' ranges as the prompt states them (None when they are hidden)."""
    match = _RANGES.search(prompt)
    return [[float(low), float(high)] for low, high in _RANGE.findall(match.group(1))] if match else None


def _rival_bids(history: tuple[tuple[str, str], ...]) -> list[list[float]]:
    out = []
    for _, observation in history:
        match = _BIDS.search(observation)
        if match:
            out.append([float(b.strip().lstrip("$")) for b in match.group(1).split(",")])
    return out


def _value_for_rules(rng: random.Random, caps: list[list[int]], low: int, high: int, share: float) -> int | None:
    """A value in ``[low, high]`` on which both simple rules earn at most ``share`` of (best - random mean)."""
    value = rng.randint(low, high)
    if share >= 1.0:
        return value
    chances = _win_chances(tuple(tuple(cap) for cap in caps), high)
    surpluses = list(map(operator.mul, range(value, -1, -1), chances))  # bid b's (value - b) * chance, as _surplus
    mean = sum(surpluses) / (value + 1)
    best = surpluses.index(max(surpluses))  # as _best_bid: the lowest bid of the highest surplus
    span = surpluses[best] - mean
    rules = (value // 2, value * len(caps) // (len(caps) + 1))
    return value if all(surpluses[b] - mean <= share * span for b in rules) else None


# Cached per problem: every value drawn for the rounds is tested against the same rivals' ranges.
@functools.lru_cache(maxsize=16)
def _win_chances(caps: tuple[tuple[int, ...], ...], high: int) -> tuple[float, ...]:
    """:func:`_win_chance` of each whole-dollar bid from 0 to ``high``."""
    return tuple(_win_chance(bid, caps) for bid in range(high + 1))


def _win_chance(bid: float, caps: Sequence[Sequence[float]]) -> float:
    """The chance that every rival bids below ``bid`` (each uniform on its ``[floor, cap]``)."""
    chance = 1.0
    for low, high in caps:
        chance *= min(1.0, max(0.0, (bid - low) / (high - low)))
    return chance


def random_zero_point(values: Sequence[int], caps: Sequence[Sequence[int]]) -> float:
    """The summed expected surplus of uniformly random whole-dollar bids (0 to each value), its mean plus one
    standard deviation (the rounds' bids are independent, so their variances add)."""
    mean = variance = 0.0
    for value in values:
        surpluses = [_surplus(bid, value, caps) for bid in range(value + 1)]
        round_mean = sum(surpluses) / len(surpluses)
        mean += round_mean
        variance += sum((x - round_mean) ** 2 for x in surpluses) / len(surpluses)
    return mean + math.sqrt(variance)


def _surplus(bid: int, value: int, caps: Sequence[Sequence[float]]) -> float:
    return (value - bid) * _win_chance(bid, caps)


def _best_bid(value: int, caps: Sequence[Sequence[float]]) -> int:
    """The whole-dollar bid of highest expected surplus (the lowest on a tie)."""
    return max(range(value + 1), key=lambda b: (_surplus(b, value, caps), -b))
