"""Negotiation: sell an item to a scripted buyer with a hidden limit and a known kind of concession rule.

The model sells one item that cost it ``cost`` dollars; the buyer will pay at most a hidden
limit. The buyer's acceptance threshold rises over the rounds from its opening bid to its limit,
which it reaches exactly in the last round: in round ``t`` of ``rounds`` (counting the opening
as round 0) it accepts any price at most ``opening + (limit - opening) * (t / (rounds - 1)) ** k``,
with a hidden exponent ``k`` (``k = 1`` at the first level: a straight line). After each
rejected offer it bids its current threshold, rounded down to the level's step (to the
dollar, then to $5 and $10 at the hardest levels). Levels widen the range of ``k``, coarsen the
rounding and shorten the negotiation (fewer bids to learn from). The prompt states all of this except the
limit and ``k``.

Each turn the model either offers a price (``offer 120``, ``$120``, ``120``) or accepts the
buyer's last bid (``accept``). An accepted offer or an acceptance ends the episode with reward
``max(0, price - cost) / (limit - cost)``: selling at the buyer's limit earns 1, at cost or
below nothing. An offer the buyer rejects in the last round ends it with no deal (0). An
unreadable move costs the round. The oracle asks the limit every round, so only the last
round's offer is accepted, at exactly the limit.

The difficulty measure is how uncertain the limit still is when the last round comes: the
width of the range of limits consistent with every bid seen (for some exponent in the stated
range, up to the rounding), over ``limit - cost``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.moves import read_command


@register
class Negotiation(MultiTurnTask):
    id = "interactive/negotiation"
    family = "interactive"
    description = "Sell an item to a scripted buyer with a hidden limit and concession curve; scored by surplus."
    tags = ("interactive", "multi-turn", "negotiation", "economics")

    @dataclass(frozen=True)
    class Config:
        rounds: int  # the opening bid is round 0; the model speaks in rounds 1 .. rounds - 1
        exponent: tuple[float, float]  # range of the hidden concession exponent k
        step: int  # the buyer's bids are rounded down to a multiple of this

    presets = (
        Config(6, (1.0, 1.0), 1),
        Config(6, (0.5, 2.0), 1),
        Config(5, (0.3, 3.0), 1),
        Config(5, (0.3, 3.0), 5),
        Config(4, (0.25, 4.0), 10),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cost = rng.randint(20, 200)
        limit = round(cost * rng.uniform(1.3, 2.2))
        opening = round(cost * rng.uniform(0.5, 1.0))
        low, high = config.exponent
        exponent = round(math.exp(rng.uniform(math.log(low), math.log(high))), 2)
        data = {"cost": cost, "limit": limit, "opening": opening, "exponent": exponent, "rounds": config.rounds,
                "step": config.step}
        curve = ("a straight line from its opening bid to its limit" if low == high == 1.0 else
                 "opening + (limit - opening) * (t / last round) ** k, for a hidden k between "
                 f"{low:g} and {high:g}")
        rounding = "" if config.step == 1 else f", rounded down to a multiple of ${config.step}"
        prompt = (
            f"You are selling an item that cost you ${cost}. A buyer will pay at most a hidden limit. You have "
            f"{config.rounds - 1} rounds; in each, either offer a price or accept the buyer's last bid. The buyer "
            "accepts any offer at or below its current threshold, which rises over the rounds and reaches its limit "
            f"exactly in the last round; the threshold in round t follows {curve}. After rejecting an offer, the "
            f"buyer bids its current threshold{rounding}. If the last round passes without a deal, there is none.\n\n"
            f"Your score is (price - ${cost}) / (the buyer's limit - ${cost}), at least 0: selling at the limit "
            "scores 1.\n\n"
            f"The buyer opens with a bid of ${_bid(data, 0)}. Round 1 of {config.rounds - 1}: write offer PRICE "
            "(a whole number of dollars) or accept, for example: offer 150"
        )
        return Problem(prompt=prompt, answer=f"offer {limit}", data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["rounds"] - 1

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        low, high = _limit_range(data, self.level_config(problem.level).exponent)
        return (high - low) / (data["limit"] - data["cost"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"round": 1}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t = state["round"]
        last = t >= data["rounds"] - 1
        command = read_command(move, _parse)
        if command is None:
            outcome = self._reject(data, t, "Invalid move: write offer PRICE or accept.")
            return outcome._replace(verdict=Verdict.unparsed("write offer PRICE or accept"))
        if command == "accept":
            return self._deal(data, _bid(data, t - 1), "You accept the buyer's bid")
        price = command
        if price <= _threshold(data, t):
            return self._deal(data, price, "The buyer accepts your offer")
        if last:
            return Outcome({"round": t + 1}, Verdict.wrong("no deal"), f"The buyer rejects ${price}. That was the last "
                                                                        "round: no deal.", True)
        return self._reject(data, t, f"The buyer rejects ${price}.")

    def _reject(self, data: dict[str, Any], t: int, said: str) -> Outcome:
        if t >= data["rounds"] - 1:
            return Outcome({"round": t + 1}, Verdict.wrong("no deal"), f"{said} That was the last round: no deal.", True)
        return Outcome({"round": t + 1}, Verdict.wrong("rejected"),
                       f"{said} The buyer bids ${_bid(data, t)}. Round {t + 1} of {data['rounds'] - 1}.")

    def _deal(self, data: dict[str, Any], price: int, said: str) -> Outcome:
        share = max(0.0, (price - data["cost"]) / (data["limit"] - data["cost"]))
        verdict = Verdict(min(1.0, share), price >= data["limit"], True, f"deal at {price}")
        return Outcome({"round": -1}, verdict, f"{said}: deal at ${price}.", True)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return f"offer {problem.data['limit']}"


def _threshold(data: dict[str, Any], t: int) -> float:
    fraction = t / (data["rounds"] - 1)
    return data["opening"] + (data["limit"] - data["opening"]) * fraction ** data["exponent"]


def _bid(data: dict[str, Any], t: int) -> int:
    step = data["step"]
    return int(math.floor(_threshold(data, t) / step) * step)


def _limit_range(data: dict[str, Any], exponents: tuple[float, float]) -> tuple[float, float]:
    """The smallest and largest limits consistent with every bid before the last round, for some exponent in
    ``exponents`` (scanned on a fine grid; the opening is the first bid, up to the rounding step)."""
    step, last = data["step"], data["rounds"] - 1
    bids = [_bid(data, t) for t in range(last)]
    found: list[float] = []
    grid = 400 if exponents[0] < exponents[1] else 1
    for i in range(grid):
        k = exponents[0] * (exponents[1] / exponents[0]) ** (i / max(grid - 1, 1))
        for opening in (bids[0], bids[0] + step - 1e-9):
            for edge in (0.0, step - 1e-9):
                fraction = ((last - 1) / last) ** k
                limit = opening + (bids[-1] + edge - opening) / fraction
                consistent = all(bids[t] <= opening + (limit - opening) * (t / last) ** k < bids[t] + step + 1e-9
                                 for t in range(1, last))
                if consistent:
                    found.append(limit)
    return (min(found), max(found)) if found else (float(data["limit"]), float(data["limit"]))


def _parse(words: list[str]) -> int | str | None:
    if words in (["accept"], ["deal"], ["i", "accept"], ["accept", "bid"], ["accept", "offer"]):
        return "accept"
    rest = [w for w in words if w not in ("offer", "i", "ask", "price", "for", "of", "sell", "it", "dollars")]
    if len(rest) != 1:
        return None
    text = rest[0].lstrip("$")
    return int(text) if text.isdigit() and len(text) <= 6 and int(text) > 0 else None
