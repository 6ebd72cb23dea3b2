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
expected surplus ``(v - b) * P(every rival bids below b)``, measured in the round's own units
(:func:`_units`: 0 at the mean of uniformly random whole-dollar bids from 0 to v, 1 at the best
bid), so every round counts alike; on the last round the episode pays ``clip((sum of the units -
Z) / (rounds - Z))``, where ``Z`` is the best simple rule's sum (version 4, below; at least
:func:`random_zero_point`, one standard deviation of that sum under random bids), so random bids and
the simple rules score 0 and the best bid every round exactly 1 (the oracle does).
(Version 2 summed raw surplus, so the few rounds of large values decided the score, and drew values
where "bid half" and "bid n/(n+1)" did badly, which left the best bid near 90% of the value in most
rounds: the fixed rule "bid 90%" scored 0.93 at level 4.) Each round's value is drawn in one of
three bands of the best bid's share of the value (dealt out evenly over the rounds and shuffled), and a deal
is kept only if no fixed fraction from 30% to 99% of the value scores above the level's cap (0.3
at level 4): fixed fractions score at most about 0.2 there (60 problems), the honest player about 0.8. A malformed bid counts as no bid (surplus 0) and costs the round. A round's verdict is
correct when the bid was a best one. The honest player (:meth:`SealedBidAuction.honest_move`)
keeps a posterior over each hidden range from the bids each rival has made.

Version 4: the zero moved from random bids to the best simple rule. In version 3, "bid halfway from the highest
rival floor to the value" scored 0.68 / 0.66 / 0.69 at levels 0 / 2 / 4 and "the highest cap plus $1" 0.49-0.59
(30 seeds). Now the zero is the most summed units any rule of :func:`rule_bids` earns on the game's rounds: a fixed
fraction of the value (30%-99%, half, n/(n+1)), 0-95% of the way from the highest rival floor to the value or to the
highest cap, the highest cap plus $1. With the ranges stated every decision's value is computable, so the zero is
that best rule itself (:func:`rules_zero_point`, share 1). With hidden ranges the rules played knowing the ranges are
out of an honest player's reach, so the zero is the larger of half the way (:data:`HIDDEN_ZERO_SHARE`) from random
bids to the best of them and the best of the same rules played with each rival's lowest and highest bid seen so far
(:func:`estimated_rules_zero`, on this game's tape, as the declared heuristics play them). The honest player bids
the best response to its Bayesian posterior over each rival's floor and width (the generator's grid, uniform prior)
and scores about 0.44 / 0.60 at levels 3 / 4 (40 seeds); every rule scores 0.00 at levels 0-4.

The difficulty measure is the number of rivals, plus two when their ranges are hidden, plus a hundredth of the
rounds. Past the presets each level adds a rival (up to 8: with more, the bands of best shares narrow and drawing
values in them slows) and a round (with many more rounds, the fixed fractions' scores average out near the cap and
most deals would be redrawn).

Generation speed: about 13 ms a problem at level 4 on this 2-core machine. Each of the 9 rounds' values is drawn
until its best bid's share lies in the round's band (the rivals' win chances are tabled once per problem), and the
deal's score under every fixed fraction of the value is computed (the expected surplus of every whole-dollar bid up
to each value, hundreds of bids a round). The test is kept because it is what stops a fixed bidding rule from
earning reward.
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

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import tape_rng
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.numeric import read_integer

_LEAD = re.compile(r"^\s*(?:bid|offer)\s*:?\s*\$?|^\s*\$", re.IGNORECASE)
MAX_BID = 10_000


@register
class SealedBidAuction(MultiTurnTask):
    id = "games/sealed_bid_auction"
    family = "games"
    description = "Bid in first-price sealed-bid auctions against rival bidders; scored by expected surplus."
    tags = ("games", "multi-turn", "decision-making", "economics", "auctions")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 4
    hidden_information = True
    score_based = True

    @dataclass(frozen=True)
    class Config:
        rivals: int
        rounds: int
        hidden: bool  # the rivals' ranges are not stated
        fraction_cap: float  # a deal is kept only if bidding any fixed fraction of the value scores at most this

    presets = (
        Config(1, 3, False, 0.5),
        Config(2, 4, False, 0.45),
        Config(3, 6, False, 0.4),
        Config(2, 6, True, 0.35),
        Config(3, 9, True, 0.3),
    )
    growth = Growth(steps={"rivals": 1, "rounds": 1}, limits={"rivals": 8})  # see the module docstring

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[list[int]], list[int]] | None:
            floors = [rng.randint(10, 120) for _ in range(config.rivals)]
            caps = [[floor, floor + rng.randint(20, 120)] for floor in floors]
            values = _values(rng, caps, config.rounds, config.fraction_cap)
            return None if values is None else (caps, values)

        caps, values = retry(draw, what="rivals and values on which no fixed fraction of the value bids well")
        tape = rng.getrandbits(48)
        zero = rules_zero_point(values, caps, 1.0 if not config.hidden else HIDDEN_ZERO_SHARE)
        if config.hidden:
            zero = max(zero, estimated_rules_zero(values, caps, tape))
        data = {"caps": caps, "values": values, "hidden": config.hidden, "tape": tape, "zero": zero}
        zero_text = ("doing no better than the best such rule scores 0" if not config.hidden else
                     "doing no better than the best such rule played with each rival's lowest and highest bid seen "
                     "so far, or than halfway from random bids to the best such rule played knowing the rivals' "
                     "ranges, scores 0")
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
            "Your score is based on the expected surplus of your bids, not on luck; each round counts alike (its "
            "expected surplus measured from random bids' mean to the best bid's), and the score compares your bids "
            "with the best simple bidding rule for this game (a fixed fraction of your value, a fixed fraction of "
            "the way from the highest rival floor to your value or to the highest rival cap, or just above the "
            f"highest cap): {zero_text} (or less, counted as 0), the "
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
        data = problem.data
        return len(data["caps"]) + (2.0 if data["hidden"] else 0.0) + len(data["values"]) / 100

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"round": 0, "achieved": 0.0}

    def _reward(self, problem: Problem, achieved: float, done: bool) -> float:
        if not done:
            return 0.0
        data = problem.data
        return regret_reward(achieved, data["zero"], float(len(data["values"])))

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        t = state["round"]
        rounds = len(data["values"])
        done = t + 1 >= rounds
        following = "" if done else f" Round {t + 2}: your value for the item is ${data['values'][t + 1]}."
        bid = read_move_answer(move, lambda text: read_integer(_LEAD.sub("", text, count=1), max_digits=6))
        if bid is None or not 0 <= bid <= MAX_BID:
            achieved = state["achieved"] + _units(0, data["values"][t], data["caps"])  # no bid: surplus 0
            bad = Outcome.invalid({"round": t + 1, "achieved": achieved}, "write one bid as a whole number of dollars")
            reward = self._reward(problem, achieved, done)
            verdict = dataclasses.replace(bad.verdict, reward=reward) if reward else bad.verdict
            return bad._replace(observation=bad.observation + following, done=done, verdict=verdict)
        value, caps = data["values"][t], data["caps"]
        best = _best_bid(value, caps)
        achieved = state["achieved"] + _units(bid, value, caps)
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
        value = _current_value(view)
        if caps is not None:
            return str(_best_bid(value, caps))
        # hidden: Bayesian over each rival's (floor, width), uniform on the generator's grid, given its bids seen
        seen = _rival_bids(view.history)
        rivals = int(_RIVALS.search(view.prompt).group(1))  # type: ignore[union-attr]
        bids = np.arange(value + 1, dtype=float)
        chance = np.ones(value + 1)
        for rival in range(rivals):
            chance *= _posterior_win_chance(tuple(b[rival] for b in seen if len(b) > rival), value)
        return str(int(np.argmax((value - bids) * chance)))

    def heuristics(self) -> dict[str, Policy]:
        def equilibrium(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            rivals = len(problem.data["caps"])
            return str(problem.data["values"][state["round"]] * rivals // (rivals + 1))

        def fraction(share: float) -> Policy:
            return lambda problem, state, history, rng: str(int(problem.data["values"][state["round"]] * share))

        def family(name: str) -> Policy:
            """A rule of :func:`rule_bids` played with the stated ranges, or where they are hidden with each rival's
            lowest and highest bid seen so far (3/4 of the value before any are seen)."""
            def play(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                value, caps = problem.data["values"][state["round"]], problem.data["caps"]
                if problem.data["hidden"]:
                    seen = _rival_bids(history)
                    if not seen:
                        return str(value * 3 // 4)
                    caps = [[min(bids), max(bids)] for bids in zip(*seen)]
                return str(rule_bids(value, caps)[name])
            return play

        rules: dict[str, Policy] = {"bid half": fraction(0.5), "bid n/(n+1) of the value": equilibrium}
        rules.update((f"bid {share:.0%} of the value", fraction(share)) for share in FIXED_SHARES)
        rules.update((name, family(name)) for name in FAMILY_HEURISTICS)
        return rules


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


FIXED_SHARES = (0.3, 0.4, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99)  # declared as heuristics (with half and n/(n+1))
FAMILY_HEURISTICS = ("50% of the way from the highest floor to the value", "25% of the way from the highest floor to the value",
                     "75% of the way from the highest floor to the value", "50% of the way from the highest floor to the highest cap",
                     "the highest cap plus $1")  # rules of :func:`rule_bids` declared as heuristics
SHARE_GRID = tuple(share / 100 for share in range(30, 100))  # the fixed fractions a deal is tested against
BANDS = ((0.0, 0.2), (0.4, 0.6), (0.8, 1.01))  # where a round's best fraction lies between the lowest and highest


def _values(rng: random.Random, caps: list[list[int]], rounds: int, cap: float) -> list[int] | None:
    """The rounds' values, or None when some fixed fraction of the value would score above ``cap``.

    Values run from just above the highest floor (the best bid is most of the value) to three times the highest
    cap (about a third); each round's value is drawn in one of three bands of the best bid's share of the value
    (the low, middle and high end of its span over those values), the bands dealt out evenly and shuffled, so the
    best fraction differs from round to round and no one fraction bids well in most of them.
    """
    top_floor, top_cap = max(low for low, _ in caps), max(high for _, high in caps)
    low, high = top_floor + 5, 3 * top_cap
    table = _win_chances(tuple(tuple(c) for c in caps), high)
    least, most = _best_share(high, table), _best_share(low, table)
    if most - least < 0.2:
        return None
    bands = [BANDS[i % len(BANDS)] for i in range(rounds)]
    rng.shuffle(bands)
    values, stats = [], []
    for lo, hi in bands:
        for _ in range(50):
            value = rng.randint(low, high)
            if lo <= (_best_share(value, table) - least) / (most - least) < hi:
                values.append(value)
                break
        else:
            return None
        surpluses = list(map(operator.mul, range(value, -1, -1), table))  # as _round_stats, from the table
        mean, best = sum(surpluses) / len(surpluses), max(surpluses)
        if best <= mean:
            return None
        stats.append((surpluses, mean, best - mean, sum((x - mean) ** 2 for x in surpluses) / len(surpluses)))
    zero = math.sqrt(sum(variance / span**2 for _, _, span, variance in stats))
    for share in SHARE_GRID:
        units = sum((surpluses[int(value * share)] - mean) / span for value, (surpluses, mean, span, _) in zip(values, stats))
        if regret_reward(units, zero, float(rounds)) > cap:
            return None
    return values


def _best_share(value: int, table: Sequence[float]) -> float:
    """The best whole-dollar bid's share of ``value``, from a table of win chances per bid."""
    surpluses = list(map(operator.mul, range(value, -1, -1), table))
    return surpluses.index(max(surpluses)) / value


@functools.lru_cache(maxsize=4096)
def _round_stats(value: int, caps: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    """(mean, variance, best) of the expected surplus of the whole-dollar bids from 0 to ``value``."""
    surpluses = [_surplus(bid, value, caps) for bid in range(value + 1)]
    mean = sum(surpluses) / len(surpluses)
    return mean, sum((x - mean) ** 2 for x in surpluses) / len(surpluses), max(surpluses)


@functools.lru_cache(maxsize=256)
def _unit_table(value: int, caps: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    """:func:`_units` of every whole-dollar bid from 0 to ``value`` (win chances from the table :func:`_values`
    tested the deal with, when the value lies within it)."""
    high = 3 * max(cap for _, cap in caps)
    table = _win_chances(caps, high) if value <= high else _win_chances(caps, value)
    surpluses = list(map(operator.mul, range(value, -1, -1), table))
    mean, best = sum(surpluses) / len(surpluses), max(surpluses)
    if best <= mean:
        return (0.0,) * (value + 1)
    return tuple((x - mean) / (best - mean) for x in surpluses)


def _units(bid: int, value: int, caps: Sequence[Sequence[float]]) -> float:
    """A bid's expected surplus in the round's own units: 0 at random bids' mean, 1 at the best bid."""
    mean, _, best = _round_stats(value, tuple(tuple(c) for c in caps))
    return (_surplus(bid, value, caps) - mean) / (best - mean) if best > mean else 0.0


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


HIDDEN_ZERO_SHARE = 0.5  # hidden ranges: the zero's share of the way from random bids to the best rule (see docstring)
ANCHOR_SHARES = tuple(step / 20 for step in range(20))  # 0, 5%, ..., 95% of the way from an anchor to the target


def rule_bids(value: int, caps: Sequence[Sequence[float]]) -> dict[str, int]:
    """Every simple bidding rule's bid for an item worth ``value`` against rivals' ranges ``caps`` (the reward's zero).

    The family: a fixed fraction of the value (30%-99% by 1%, half, n/(n+1)); a fixed share of the way from the
    highest rival floor to the value, and from the highest floor to the highest cap (capped at the value); the
    highest cap plus one dollar when below the value. Bids are whole dollars from 0 to the value.
    """
    rivals = len(caps)
    floor, cap = max(low for low, _ in caps), max(high for _, high in caps)
    bids = {f"bid {share:.0%} of the value": int(value * share) for share in SHARE_GRID}
    bids["bid half"] = value // 2
    bids["bid n/(n+1) of the value"] = value * rivals // (rivals + 1)
    for share in ANCHOR_SHARES:
        bids[f"{share:.0%} of the way from the highest floor to the value"] = int(floor + share * (value - floor))
        bids[f"{share:.0%} of the way from the highest floor to the highest cap"] = int(floor + share * (cap - floor))
    bids["the highest cap plus $1"] = int(cap) + 1
    return {name: max(0, min(value, bid)) for name, bid in bids.items()}


def rules_zero_point(values: Sequence[int], caps: Sequence[Sequence[int]], share: float = 1.0) -> float:
    """The reward's zero: ``share`` of the way from :func:`random_zero_point` to the most summed :func:`_units` any
    one rule of :func:`rule_bids` earns over these rounds (played with the rivals' true ranges)."""
    totals: dict[str, float] = {}
    for value in values:
        units = _unit_table(value, tuple(tuple(c) for c in caps))
        for name, bid in rule_bids(value, caps).items():
            totals[name] = totals.get(name, 0.0) + units[bid]
    random_zero = random_zero_point(values, caps)
    return random_zero + share * max(0.0, max(totals.values()) - random_zero)


def _tape_rival_bids(tape: int, round_: int, caps: Sequence[Sequence[float]]) -> list[float]:
    """The rivals' bids of round ``round_`` (as :meth:`SealedBidAuction.play` draws them)."""
    rng = tape_rng(SealedBidAuction.id, tape, "round", round_)
    return [round(rng.uniform(low, high), 2) for low, high in caps]


def estimated_rules_zero(values: Sequence[int], caps: Sequence[Sequence[int]], tape: int) -> float:
    """Hidden ranges: the most summed :func:`_units` any rule of :func:`rule_bids` earns over these rounds when it
    reads each rival's range as its lowest and highest bid seen so far (3/4 of the value before any is seen), as the
    declared heuristics play it on this tape."""
    totals: dict[str, float] = {}
    seen: list[list[float]] = []
    for round_, value in enumerate(values):
        if seen:
            bids = rule_bids(value, [[min(b), max(b)] for b in zip(*seen)])
        else:
            bids = dict.fromkeys(rule_bids(value, caps), value * 3 // 4)
        units = _unit_table(value, tuple(tuple(c) for c in caps))
        for name, bid in bids.items():
            totals[name] = totals.get(name, 0.0) + units[bid]
        seen.append(_tape_rival_bids(tape, round_, caps))
    return max(totals.values())


FLOORS, WIDTHS = np.meshgrid(np.arange(10, 121, dtype=float), np.arange(20, 121, dtype=float), indexing="ij")


def _posterior_win_chance(bids: tuple[float, ...], value: int) -> np.ndarray:
    """P(a rival bids below b) for each whole-dollar b from 0 to ``value``, averaged over the rival's (floor, width)
    on the generator's grid (floor 10-120, width 20-120, uniform), weighted by the likelihood of its ``bids``."""
    weight = np.ones_like(FLOORS)
    if bids:
        inside = (FLOORS <= min(bids)) & (FLOORS + WIDTHS >= max(bids))
        weight = np.where(inside, WIDTHS ** -float(len(bids)), 0.0)
    if weight.sum() <= 0:  # bids outside the grid (cannot happen with the generator's ranges): a flat prior
        weight = np.ones_like(FLOORS)
    weight = (weight / weight.sum()).ravel()
    floors, widths = FLOORS.ravel()[weight > 0], WIDTHS.ravel()[weight > 0]
    weight = weight[weight > 0]
    grid = np.arange(value + 1, dtype=float)[:, None]
    return np.clip((grid - floors) / widths, 0.0, 1.0) @ weight


def random_zero_point(values: Sequence[int], caps: Sequence[Sequence[int]]) -> float:
    """The zero point of the summed :func:`_units` of uniformly random whole-dollar bids (0 to each value): their
    mean (0) plus one standard deviation (the rounds' bids are independent, so their variances add)."""
    variance = 0.0
    for value in values:
        _, round_variance, best = _round_stats(value, tuple(tuple(c) for c in caps))
        mean = _round_stats(value, tuple(tuple(c) for c in caps))[0]
        variance += round_variance / (best - mean) ** 2 if best > mean else 0.0
    return math.sqrt(variance)


def _surplus(bid: int, value: int, caps: Sequence[Sequence[float]]) -> float:
    return (value - bid) * _win_chance(bid, caps)


def _best_bid(value: int, caps: Sequence[Sequence[float]]) -> int:
    """The whole-dollar bid of highest expected surplus (the lowest on a tie)."""
    return max(range(value + 1), key=lambda b: (_surplus(b, value, caps), -b))
