"""Negotiation: sell an item to a scripted buyer with a hidden limit and a known kind of concession rule.

The model sells one item that cost it ``cost`` dollars; the buyer will pay at most a hidden
limit. The buyer's acceptance threshold rises over the rounds from its opening bid to its limit,
which it reaches exactly in the last round: in round ``t`` of ``rounds`` (counting the opening
as round 0) it accepts any price at most ``opening + (limit - opening) * (t / (rounds - 1)) ** k``,
with a hidden exponent ``k`` (``k = 1`` at the first level: a straight line). After each
rejected offer it bids halfway between its opening bid and its current threshold (it holds back
half of its concession, :data:`BID_SHARE`), rounded down to the level's step (to the dollar,
then to $5 at the hardest levels). Levels widen the range of ``k``, coarsen the
rounding and shorten the negotiation (fewer bids to learn from). The prompt states all of this except the
limit and ``k``.

Each turn the model either offers a price (``offer 120``, ``$120``, ``120``) or accepts the
buyer's last bid (``accept``); one move per turn (a reply holding several is refused). An
accepted offer or an acceptance ends the episode with a deal; an offer the buyer rejects in the
last round ends it with no deal. An unreadable move costs the round. The limit is ``cost * (1 + surplus)``
with the surplus drawn log-uniformly from 0.4 to 15 (:data:`SURPLUS_RANGE`); the prompt states that the limit
lies above the cost and at most 16 times it (:data:`ASK`). The deal's share ``max(0, price - cost) / (limit -
cost)`` (selling at the limit: 1, at cost or below: 0) is normalised to regret
(:func:`palaestra.core.multiturn.regret_reward`) against a floor: the reward is ``clip((share - floor) / (1 -
floor), 0, 1)`` with ``floor = max(random, 0.6)`` (:data:`SCORE_FLOOR`, stated), where ``random`` is the expected
share of a player that picks uniformly among accepting and offering one of 16 prices spread evenly up to sixteen
times the cost (:meth:`Negotiation.legal_moves`), computed exactly by backward induction over the rounds (0.01-0.05,
below the floor); no deal pays 0. So random play scores about 0, a price chosen without reading the bids at most
about 0.1 and selling at the limit 1. The oracle asks the limit every round, so only the last round's offer is
accepted, at exactly the limit. The honest player (:meth:`Negotiation.honest_move`), which sees only the prompt
and the bids, asks sixteen times the cost until the last round, then offers the smallest limit consistent with every
bid it saw (for some exponent in the stated range, up to the rounding), which the buyer always accepts.

Version 2: reward normalised to regret (was the raw share, which random play earned ~0.5 of);
one move per turn; an honest player.

Version 3 (red team, round 3): the limit was ``cost * uniform(1.3, 2.2)``, so a player that ignored every bid,
waited and asked 1.4-1.5 times the cost in the last round scored 0.45-0.48 at every level (the honest player:
0.97 at level 0, 0.59 at level 4). The limit is now log-uniform over 1.15 to 2.9 times the cost
(version 3's ``LIMIT_RANGE``), which puts that rule at 0.30-0.34 and leaves the honest player's scores as they were. Both
cheap rules are declared heuristics. Waiting and accepting the buyer's last bid still scored 0.69, 0.58 and 0.37
at levels 0, 2 and 4 (200 games per level; red team, round 3 session 19), as the buyer bid its threshold, which
lies near its limit by the last round; so the buyer now bids only half of its concession (halfway between its
opening bid and its threshold), which puts that rule at 0.16, 0.11 and 0.06 (random play 0.03-0.06). A player
who reads the stated rule doubles the rise of the last bid back (offers ``2 * last bid - opening bid``, the
previous round's threshold) and scores what accepting did before (0.69, 0.58, 0.41); the honest player, which
also extrapolates the curve, scores 0.97, 0.91 and 0.55 (it scored 0.98, 0.96 and 0.58), the top level's
rounding step being $5, not $10, as a halved bid carries twice the rounding. The 1.5-times-the-cost rule is
unchanged at 0.34-0.38. These changes were made within version 3, which had not been released.

Version 4 (red team, round 3 session 40): the limit's narrow prior (1.15 to 2.9 times the cost) let a player that
ignored every bid, waited and asked one fixed multiple of the cost (1.5 to 1.6) in the last round score 0.34-0.35 at
every level (300 games per level). The surplus over the cost is now drawn log-uniformly over a 37.5-fold range and the
reward counts only the share above 0.6, so a fixed multiple seldom lands in the paying band: the best of 26
multiples from 1.1 to 10 scores 0.09-0.10 per level, any one of them at most that, accepting the last bid 0 (was
0.06-0.15), the prompt's example price 0.02-0.04 (was 0.09-0.12), random play 0.02-0.03; the honest player scores
0.96, 0.92, 0.91, 0.72 and 0.59 at levels 0-4 (was 0.96, 0.93, 0.92, 0.69, 0.58) and the oracle 1.

The difficulty measure is how uncertain the limit still is when the last round comes: the
width of the range of limits consistent with every bid seen (for some exponent in the stated
range, up to the rounding) plus the rounding step, over ``limit - cost``, as ``log1p``, plus one over
the number of bids seen before the last round (round 3 session 27: the plain ratio's heavy tail made the
kit's level means fall from level 1 to 2 and from 4 to 5), plus a tenth of the log of the stated exponent range's
ratio and a fifth of the log of the rounding step (version 4: with the wider limit prior the realised width alone
no longer rose from level 0 to 1, nor past the presets, where the step grew by $1 a level; it now doubles a level).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, regret_reward
from palaestra.core.task import Growth
from palaestra.verifiers.moves import read_command


@register
class Negotiation(MultiTurnTask):
    id = "interactive/negotiation"
    family = "interactive"
    description = "Sell an item to a scripted buyer with a hidden limit and concession curve; scored by surplus."
    tags = ("interactive", "multi-turn", "negotiation", "economics")
    version = 4  # v2: regret-normalised reward, one move per turn, an honest player; v3: a wider limit prior,
    # bids halfway to the threshold; v4: a 37.5-fold surplus prior, shares above 0.6 scored
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True  # the limit and the exponent
    score_based = True
    public_keys = ("cost", "rounds", "step")  # all stated in the prompt

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
        Config(4, (0.25, 4.0), 5),
    )
    growth = Growth(factors={"step": 2})  # v4: the rounding step doubles a level past the presets (it grew by $1)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cost = rng.randint(20, 200)
        least, most = SURPLUS_RANGE
        limit = round(cost * (1 + most * (least / most) ** rng.random()))  # the surplus over the cost: log-uniform
        opening = round(cost * rng.uniform(0.5, 1.0))
        low, high = config.exponent
        exponent = round(math.exp(rng.uniform(math.log(low), math.log(high))), 2)
        data = {
            "cost": cost,
            "limit": limit,
            "opening": opening,
            "exponent": exponent,
            "rounds": config.rounds,
            "step": config.step,
        }
        curve = (
            "a straight line from its opening bid to its limit"
            if low == high == 1.0
            else f"opening + (limit - opening) * (t / last round) ** k, for a hidden k between {low:g} and {high:g}"
        )
        rounding = "" if config.step == 1 else f", rounded down to a multiple of ${config.step}"
        prompt = (
            f"You are selling an item that cost you ${cost}. A buyer will pay at most a hidden limit. You have "
            f"{config.rounds - 1} rounds; in each, either offer a price or accept the buyer's last bid. The buyer "
            "accepts any offer at or below its current threshold, which rises over the rounds and reaches its limit "
            f"exactly in the last round; the threshold in round t follows {curve}. After rejecting an offer, the "
            "buyer holds back half of its concession: it bids halfway between its opening bid and its current "
            f"threshold{rounding}. If the last round passes without a deal, there is none.\n\n"
            f"Its limit is above ${cost} and at most ${ASK * cost}. Your share is (price - ${cost}) / (the buyer's "
            f"limit - ${cost}), at least 0 (no deal: 0). Your score is 0 for a share of {SCORE_FLOOR:g} or less and rises "
            "evenly to 1 for selling at the limit.\n\n"
            f"The buyer opens with a bid of ${_bid(data, 0)}. Round 1 of {config.rounds - 1}: write offer PRICE "
            "(a whole number of dollars) or accept, for example: offer 150"
        )
        return Problem(prompt=prompt, answer=f"offer {limit}", data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["rounds"] - 1

    def difficulty(self, problem: Problem) -> float:
        """How uncertain the limit still is at the last round: the width of the consistent limits plus the rounding
        step, over ``limit - cost``, taken as ``log1p`` (the plain ratio has a heavy tail: 40 seeds per level put
        level 2's mean below level 1's and level 5's below level 4's), plus one over the bids seen before it, plus
        the stated uncertainty before any bid: the exponent range and the rounding step, on log scales."""
        data = problem.data
        low_k, high_k = self.level_config(problem.level).exponent
        low, high = _limit_range(data, (low_k, high_k))
        realised = math.log1p((high - low + data["step"]) / (data["limit"] - data["cost"])) + 1 / (data["rounds"] - 1)
        return realised + math.log(high_k / low_k) / 10 + math.log(data["step"]) / 5

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
            return Outcome(
                {"round": t + 1},
                Verdict.wrong("no deal"),
                f"The buyer rejects ${price}. That was the last round: no deal.",
                True,
            )
        return self._reject(data, t, f"The buyer rejects ${price}.")

    def _reject(self, data: dict[str, Any], t: int, said: str) -> Outcome:
        if t >= data["rounds"] - 1:
            return Outcome(
                {"round": t + 1}, Verdict.wrong("no deal"), f"{said} That was the last round: no deal.", True
            )
        return Outcome(
            {"round": t + 1},
            Verdict.wrong("rejected"),
            f"{said} The buyer bids ${_bid(data, t)}. Round {t + 1} of {data['rounds'] - 1}.",
        )

    def _deal(self, data: dict[str, Any], price: int, said: str) -> Outcome:
        # random play's share (0.01-0.05) lies below the floor, which bids-blind prices reach; the larger is the zero
        reward = regret_reward(_share(data, price), max(_random_share(data), SCORE_FLOOR), 1.0)
        verdict = Verdict(reward, price >= data["limit"], True, f"deal at {price}")
        return Outcome({"round": -1}, verdict, f"{said}: deal at ${price}.", True)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return f"offer {problem.data['limit']}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """The random player's moves: accept, or offer one of 16 prices spread evenly up to sixteen times the cost."""
        return ["accept", *(f"offer {price}" for price in _offer_grid(problem.data["cost"]))]

    def heuristics(self) -> dict[str, Any]:
        def wait(problem: Problem, state: Any, history: Any) -> str | None:
            last = state["round"] >= problem.data["rounds"] - 1
            return None if last else f"offer {ASK * problem.data['cost']}"

        def blind_offer(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
            return wait(problem, state, history) or f"offer {round(1.5 * problem.data['cost'])}"

        def accept_at_the_end(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
            return wait(problem, state, history) or "accept"

        return {
            "wait, then ask 1.5 times the cost (bids ignored)": blind_offer,
            "wait, then accept the last bid": accept_at_the_end,
        }

    def honest_move(self, view: View) -> str:
        """Ask sixteen times the cost (above any limit) until the last round, then the smallest limit consistent
        with the bids seen, for some exponent in the stated range."""
        cost, rounds, step = view.public["cost"], view.public["rounds"], view.public["step"]
        bids = [int(bid) for bid in _BID.findall("\n".join([view.prompt, *view.observations]))]
        if len(bids) < rounds - 1:
            return f"offer {ASK * cost}"
        exponents = _EXPONENTS.search(view.prompt)
        span = (float(exponents.group(1)), float(exponents.group(2))) if exponents else (1.0, 1.0)
        found = _consistent_limits(bids[: rounds - 1], step, rounds - 1, span)
        low = found[0] if found else bids[-1]  # the last bid is below the limit
        return f"offer {max(1, math.floor(low + 1e-6))}"


def _threshold(data: dict[str, Any], t: int) -> float:
    fraction = t / (data["rounds"] - 1)
    return data["opening"] + (data["limit"] - data["opening"]) * fraction ** data["exponent"]


def _bid(data: dict[str, Any], t: int) -> int:
    """The buyer's bid after round ``t``: only a share (:data:`BID_SHARE`) of its concession so far, rounded down."""
    step = data["step"]
    bid = data["opening"] + BID_SHARE * (_threshold(data, t) - data["opening"])
    return int(math.floor(bid / step + 1e-9) * step)


_BID = re.compile(r"(?:opens with a bid of|The buyer bids) \$(\d+)")
_EXPONENTS = re.compile(r"hidden k between ([\d.]+) and ([\d.]+)")
BID_SHARE = 0.5  # the buyer bids halfway between its opening bid and its threshold (holds back half its concession)
# The limit is cost * (1 + surplus) with the surplus over the cost drawn log-uniformly from SURPLUS_RANGE (version 4;
# version 3 drew limit / cost log-uniformly from 1.15 to 2.9): a fixed price lands within a given ratio below the
# limit with a chance of about log(1 / ratio) / log(37.5), too seldom to pay once SCORE_FLOOR is taken off.
SURPLUS_RANGE = (0.4, 15.0)
ASK = 16  # the limit is at most this many times the cost (stated): the honest player's waiting price
SCORE_FLOOR = 0.6  # shares up to this score 0 (stated): a price chosen without reading the bids seldom gets closer
OFFERS = 16  # prices the random baseline picks from, besides accepting


def _share(data: dict[str, Any], price: int) -> float:
    return max(0.0, (price - data["cost"]) / (data["limit"] - data["cost"]))


def _offer_grid(cost: int) -> list[int]:
    return sorted({round(ASK * cost * i / OFFERS) for i in range(1, OFFERS + 1)})


def _random_share(data: dict[str, Any]) -> float:
    """The expected share of the uniformly random player of :meth:`Negotiation.legal_moves`, by backward
    induction: in each round every move is equally likely; a rejected offer leads to the next round."""
    last = data["rounds"] - 1
    grid = _offer_grid(data["cost"])
    later = 0.0  # the expected share from the round after this one
    for t in range(last, 0, -1):
        outcomes = [_share(data, _bid(data, t - 1))]  # accept the buyer's last bid
        outcomes += [
            _share(data, price) if price <= _threshold(data, t) else (0.0 if t == last else later) for price in grid
        ]
        later = sum(outcomes) / len(outcomes)
    return later


def _limit_range(data: dict[str, Any], exponents: tuple[float, float]) -> tuple[float, float]:
    """The smallest and largest limits consistent with every bid before the last round (see :func:`_consistent_limits`)."""
    last = data["rounds"] - 1
    found = _consistent_limits([_bid(data, t) for t in range(last)], data["step"], last, exponents)
    return found if found else (float(data["limit"]), float(data["limit"]))


def _consistent_limits(
    bids: list[int], step: int, last: int, exponents: tuple[float, float]
) -> tuple[float, float] | None:
    """The smallest and largest limits consistent with ``bids`` (rounds ``0 .. last - 1``), for some exponent in
    ``exponents`` (scanned on a fine grid), or None.

    For an exponent ``k`` and an unrounded opening ``o`` (the first bid up to the rounding step), bid ``t`` says
    ``bids[t] <= o + (limit - o) * f <= bids[t] + step`` with ``f = (t / last) ** k``: an interval of limits per
    bid, whose intersection is the limits that bid sequence allows. The ends of the range come from the ends of
    the opening's interval (each bound is monotone in ``o``).
    """
    found: list[float] = []
    grid = 400 if exponents[0] < exponents[1] else 1
    for i in range(grid):
        k = exponents[0] * (exponents[1] / exponents[0]) ** (i / max(grid - 1, 1))
        fractions = [BID_SHARE * (t / last) ** k for t in range(1, last)]  # the bids show this share of the rise
        for opening in (bids[0], bids[0] + step):
            low = max((bid - opening) / f + opening for bid, f in zip(bids[1:], fractions))
            high = min((bid + step - opening) / f + opening for bid, f in zip(bids[1:], fractions))
            if low <= high:
                found += [low, high]
    return (min(found), max(found)) if found else None


_WHOLE_DOLLARS = re.compile(r"^\$?(\d{1,3}(?:,\d{3})+|\d{1,6})(?:\.00?)?$")


def _parse(words: list[str]) -> int | str | None:
    if words in (["accept"], ["deal"], ["i", "accept"], ["accept", "bid"], ["accept", "offer"]):
        return "accept"
    rest = [w for w in words if w not in ("offer", "i", "ask", "price", "for", "of", "sell", "it", "dollars", "usd")]
    if len(rest) != 1:
        return None
    amount = _WHOLE_DOLLARS.match(rest[0])  # 120, $120, $120.00, 1,200
    if amount is None:
        return None
    value = int(amount.group(1).replace(",", ""))
    return value if value > 0 else None
