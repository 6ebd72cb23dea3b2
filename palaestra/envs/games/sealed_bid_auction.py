"""Sealed-bid auctions: bid for items against scripted rival bidders; scored by expected surplus.

Each round one item is sold by a first-price sealed-bid auction: the model learns its own value
for the item (a whole number of dollars), writes a bid (``42``, ``bid 42``, ``$42``), and the
highest bid wins and pays what it bid. Each rival bids a random amount spread evenly between 0
and its own cap; the caps are stated at the first levels and hidden (to be estimated from the
rivals' bids, which are revealed after every round) at the last two. Rival bids come from a tape
stored with the problem (:func:`palaestra.envs.games.common.tape_rng`).

The reward does not depend on luck: a bid ``b`` for an item worth ``v`` has expected surplus
``(v - b) * P(every rival bids below b)``, and a round pays ``max(0, that) / (rounds * the best
whole-dollar bid's expected surplus)``; bidding the best amount every round earns exactly 1, and
the oracle does. A malformed bid counts as no bid (surplus 0) and costs the round. A round's
verdict is correct when the bid was a best one.

The difficulty measure is the number of rivals, plus two when their caps are hidden.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS, invalid, tape_rng
from palaestra.verifiers.numeric import read_integer

_LEAD = re.compile(r"^\s*(?:i\s+)?(?:bid|offer)\s*:?\s*\$?|^\s*\$", re.IGNORECASE)
MAX_BID = 10_000


@register
class SealedBidAuction(MultiTurnTask):
    id = "games/sealed_bid_auction"
    family = "games"
    description = "Bid in first-price sealed-bid auctions against rival bidders; scored by expected surplus."
    tags = ("games", "multi-turn", "decision-making", "economics", "auctions")

    @dataclass(frozen=True)
    class Config:
        rivals: int
        rounds: int
        hidden: bool  # the rivals' caps are not stated

    presets = (Config(1, 3, False), Config(2, 4, False), Config(3, 5, False), Config(2, 6, True), Config(3, 8, True))
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        caps = [rng.randint(40, 160) for _ in range(config.rivals)]
        values = [rng.randint(30, 200) for _ in range(config.rounds)]
        data = {"caps": caps, "values": values, "hidden": config.hidden, "tape": rng.getrandbits(48)}
        if config.hidden:
            rivals = (f"{config.rivals} rival bidders each bid a random amount spread evenly between $0 and their "
                      "own cap, which you do not know (each rival keeps its cap all game)")
        else:
            listing = ", ".join(f"${cap}" for cap in caps)
            rivals = (f"{config.rivals} rival bidder{'s' if config.rivals > 1 else ''} each bid a random amount "
                      f"spread evenly between $0 and their cap (caps: {listing})")
        prompt = (
            f"You take part in {config.rounds} first-price sealed-bid auctions, one item each. Each round you learn "
            f"your value for the item and bid; {rivals}. The highest bid wins the item and pays its bid; your "
            "surplus is your value minus your bid if you win, 0 otherwise. After each round all bids are shown.\n\n"
            "Your score is based on the expected surplus of your bids, not on luck: a bid scores by how close its "
            "expected surplus comes to that of the best whole-dollar bid.\n\n"
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
        return {"round": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t = state["round"]
        rounds = len(data["values"])
        done = t + 1 >= rounds
        following = "" if done else f" Round {t + 2}: your value for the item is ${data['values'][t + 1]}."
        bid = read_integer(_LEAD.sub("", move, count=1), max_digits=6) if len(move) <= MAX_MOVE_CHARS else None
        if bid is None or not 0 <= bid <= MAX_BID:
            bad = invalid({"round": t + 1}, "write one bid as a whole number of dollars")
            return bad._replace(observation=bad.observation + following, done=done)
        value, caps = data["values"][t], data["caps"]
        best = _best_bid(value, caps)
        reward = max(0.0, _surplus(bid, value, caps)) / (rounds * _surplus(best, value, caps))
        rng = tape_rng(SealedBidAuction.id, data["tape"], "round", t)
        rival_bids = [round(rng.uniform(0, cap), 2) for cap in caps]
        top = max(rival_bids)
        result = (f"you win and gain ${value - bid}" if bid > top else "a rival wins")
        said = f"You bid ${bid}; rival bids: {', '.join(f'${b:.2f}' for b in rival_bids)}: {result}."
        verdict = Verdict(min(1.0, reward), _surplus(bid, value, caps) >= _surplus(best, value, caps), True, said)
        return Outcome({"round": t + 1}, verdict, said + (" That was the last auction." if done else following), done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        return str(_best_bid(data["values"][state["round"]], data["caps"]))


def _win_chance(bid: float, caps: list[int]) -> float:
    chance = 1.0
    for cap in caps:
        chance *= min(1.0, max(0.0, bid / cap))
    return chance


def _surplus(bid: int, value: int, caps: list[int]) -> float:
    return (value - bid) * _win_chance(bid, caps)


def _best_bid(value: int, caps: list[int]) -> int:
    """The whole-dollar bid of highest expected surplus (the lowest on a tie)."""
    return max(range(value + 1), key=lambda b: (_surplus(b, value, caps), -b))
