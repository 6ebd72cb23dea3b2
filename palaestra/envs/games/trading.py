"""Barter with several scripted traders whose private valuations show only in their yes/no replies.

The model holds some units of a few goods (wheat, wool, ...), each worth a stated number of points to
it, and must obtain a target number of units of ore. Traders A, B, ... each hold some ore (stated) and
value every good and ore by private whole numbers from 1 to 9. Each turn the model offers one trader a
swap of one good for ore (``offer B 3 wheat for 2 ore``); the trader accepts exactly when what it
receives is worth at least what it gives by its own values (``3 * v(wheat) >= 2 * v(ore)``), and the
swap happens; otherwise it refuses. The game ends once the model holds the target ore; the score is
then the points of the goods it has left (reaching no target within the turn budget scores 0).

The reward is regret-normalised (:func:`palaestra.core.multiturn.regret_reward`): ``best`` is the
most points any set of accepted swaps can leave, found exactly by enumerating how many ore to take
from each trader for each good (one swap per trader and good, paying the least that trader accepts,
``ceil(ore * v(ore) / v(good))``: merging two swaps of one pair never costs more), and the zero is the
larger of the most points any rule of :func:`rule_family` keeps in this market (traders are deterministic, so
each rule is played out exactly at generation: pay in one good, the cheapest to the model or a fixed one, for one
ore or all the ore a trader can give, at the first trader with ore, the one with most or each in turn, the price
per ore rising by one after each refusal) and the score set from 32 seeded games of uniformly random legal offers
(:func:`palaestra.envs.games._social.random_zero`). The generator keeps markets where ``best`` beats the zero by at
least four points and where the honest player (:meth:`Trading.honest_move`) keeps more than the zero. Reading only the replies,
it probes the per-ore price (``k good for 1 ore``) that would cost it least among the pairs not yet
refused at that price, and once a pair accepts it buys the rest there at that price.

Offers naming an unknown trader or good, more ore than the trader holds or than the model still
needs, or more of a good than the model holds are refused as illegal (the turn is spent). Traders
are deterministic; valuations are drawn with the problem. Levels add traders, goods and target ore
(past the presets one target ore more per level, at most 10: the exact programme grows with it).
The difficulty measure is the number of (trader, good) pairs plus the target plus the zero's share of
``best``.

Version 2: version 1's zero was random play's alone, so "raise the price at the first trader in the cheapest
good" scored 0.59 / 0.58 / 0.33 at levels 0 / 2 / 4, "each trader in turn" 0.62 / 0.73 / 0.55 and "all the ore at
once" 0.59 / 0.51 / 0.37 (40 seeds). With the zero at the best of the 48 rules every one of them scores 0.00 at
levels 0, 2 and 4 and random offers at most 0.06; the honest player, which probes the cheapest per-ore price among
all pairs, scores 0.73 / 0.62 / 0.53. Six rules are declared as heuristics.

Generation speed: about 30 ms of CPU a problem at level 4 on this 2-core machine (version 1: 8 ms). About one market
in ten is kept: the honest player's game and the 48 rules' games come first (a market where a rule keeps as much as
the honest player is dropped before the costlier step), then the dynamic programme over the traders for the most
points left, then 32 random games. They are kept because the reward is normalised to them.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._social import random_zero, read_command

GOODS = ("wheat", "wool", "brick", "wood", "salt")
TRADERS = "ABCDEFGH"
RANDOM_GAMES = 32
SLIPS = 2
_OFFER = re.compile(r"^(?:offer|propose|trade|give)(?: to)?(?: trader)? ([a-h]):? (\d{1,3}) ([a-z]+) "
                    r"(?:for|in exchange for|to get) (\d{1,2}) ores?$")
_LINE = re.compile(r"^You hold: (.*)\. Ore: (\d+) of (\d+)\. Traders' ore: (.*)\.$", re.MULTILINE)
_REPLY = re.compile(r"^Trader ([A-H]) (accepts|refuses) (\d+) (\w+) for (\d+) ore", re.MULTILINE)

Offer = tuple[int, int, int, int]  # trader, good, units of the good paid, ore received


@register
class Trading(MultiTurnTask):
    id = "games/trading"
    family = "games"
    description = "Barter goods for a target of ore with traders whose private values show only in accept/refuse."
    tags = ("games", "multi-turn", "social", "bargaining", "imperfect-information", "planning")
    one_move_per_turn = True
    hidden_information = True  # the traders' values
    score_based = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        traders: int
        goods: int
        target: int

    presets = (Config(2, 2, 2), Config(2, 3, 3), Config(3, 3, 3), Config(3, 3, 4), Config(4, 3, 5))
    growth = Growth(steps={"target": 1}, limits={"target": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            stocks = [rng.randint(1, config.target) for _ in range(config.traders)]
            if sum(stocks) < config.target + 1:
                return None
            data: dict[str, Any] = {
                "goods": list(GOODS[:config.goods]), "points": [rng.randint(1, 5) for _ in range(config.goods)],
                "holding": [rng.randint(6, 12) for _ in range(config.goods)], "target": config.target,
                "stocks": stocks, "turns": 2 * config.traders * config.goods + config.target + SLIPS,
                "values": [[rng.randint(1, 9) for _ in range(config.goods)] for _ in range(config.traders)],
                "ore_values": [rng.randint(1, 9) for _ in range(config.traders)]}
            # the best simple rule must leave the honest player room (checked before the costlier exact programme)
            honest, zero = _honest_game(data), 0
            for rule in rule_family(config.goods):
                zero = max(zero, _rule_game(data, rule))
                if honest <= zero:
                    return None
            best = _best_left(_market(data), tuple(data["holding"]), config.target, tuple(stocks))
            if best is None or best - zero < 4:
                return None
            scores = [_random_game(data, random.Random(rng.random())) for _ in range(RANDOM_GAMES)]
            zero = max(random_zero(scores, best), zero)
            if best - zero < 4 or honest <= zero:
                return None
            return {**data, "best": best, "zero": zero, "random": round(sum(scores) / len(scores), 4)}

        data = retry(draw, what="a market where trading well matters")
        names = ", ".join(TRADERS[:config.traders])
        prompt = (
            "Let's trade. You need ore and pay for it in goods. Each good is worth some points to you (below). "
            f"Traders {names} each hold some ore and value every good and ore by private whole numbers from 1 to "
            "9. Each turn offer one trader a swap of one of your goods for some of its ore, for example: offer "
            "B 3 wheat for 2 ore. The trader accepts exactly when what it receives is worth at least what it gives "
            "by its own values (here: 3 times its value of wheat at least 2 times its value of ore), and the swap "
            "happens; otherwise it refuses. Offer no more ore than the trader holds or than you still need. The "
            f"game ends once you hold {config.target} ore; your score is then the points of the goods you have "
            f"left; not reaching {config.target} ore within {data['turns']} turns scores 0. Your reward is 0 up to "
            "a zero set at the most points any simple rule keeps in this market (paying in one good, at one "
            "trader or each in turn, the price rising by one after each refusal) and at least so that uniformly "
            "random legal offers average at most 0.05, rising evenly to 1 at the most points any accepted swaps "
            "can leave.\n\n"
            f"Your points per unit: {', '.join(f'{g} {p}' for g, p in zip(data['goods'], data['points']))}.\n"
            f"{_situation(data, _start(data))}\n\n"
            "Each turn write one offer, for example: offer A 4 wool for 1 ore"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    public_keys = ("goods", "points", "target")

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["stocks"]) * len(data["goods"]) + data["target"] + data["zero"] / data["best"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        offer = read_offer(move, data["goods"], len(data["stocks"]))
        if offer is None:
            return Outcome.invalid(state, "write one offer: offer TRADER N GOOD for M ore, such as offer A 4 wool "
                                          "for 1 ore")
        why = _illegal(data, state, offer)
        if why:
            return Outcome.invalid(state, why)
        accepted, after = _apply(data, state, offer)
        trader, good, paid, ore = offer
        said = (f"Trader {TRADERS[trader]} {'accepts' if accepted else 'refuses'} {paid} {data['goods'][good]} "
                f"for {ore} ore.")
        if after["ore"] >= data["target"]:
            left = _points(data, after)
            reward = regret_reward(left, data["zero"], data["best"])
            verdict = Verdict(reward, left >= data["best"], True, f"{left} points left, best {data['best']}")
            return Outcome(after, verdict, f"{said} You hold {data['target']} ore: the game is over with {left} "
                                           f"points of goods left (the best is {data['best']}; the score's zero "
                                           f"is {data['zero']}).", True)
        return Outcome.goes_on(after, f"{said}\n{_situation(data, after)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        plan = _best_plan(_market(data), tuple(state["holding"]), data["target"] - state["ore"], tuple(state["stocks"]))
        trader, good, paid, ore = plan[0] if plan else (0, 0, 1, 1)
        return f"offer {TRADERS[trader]} {paid} {data['goods'][good]} for {ore} ore"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        data = problem.data
        return [f"offer {TRADERS[t]} {paid} {data['goods'][g]} for {ore} ore" for t, g, paid, ore in _legal(data, state)]

    def heuristics(self) -> dict[str, Policy]:
        def cheapest_good_first_trader(problem: Problem, state: dict[str, Any], history: Any,
                                       rng: random.Random) -> str:
            """Raise the price per ore at the first trader with ore, in the good worth least to the model."""
            data = problem.data
            trader = next(t for t, stock in enumerate(state["stocks"]) if stock)
            good = min(range(len(data["goods"])), key=lambda g: (data["points"][g], g))
            refused = sum(1 for move, text in history if "refuses" in text)
            price = min(refused + 1, state["holding"][good])
            return f"offer {TRADERS[trader]} {price} {data['goods'][good]} for 1 ore"

        def generous(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            """Pay nine of the cheapest good per ore (every trader accepts): sure but costly."""
            data = problem.data
            trader = next(t for t, stock in enumerate(state["stocks"]) if stock)
            good = max(range(len(data["goods"])), key=lambda g: (state["holding"][g] >= 9, -data["points"][g]))
            return f"offer {TRADERS[trader]} {min(9, state['holding'][good])} {data['goods'][good]} for 1 ore"

        def family(rule: Rule) -> Policy:
            def play(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
                data = problem.data
                replies = [(TRADERS.index(t), data["goods"].index(g), verb == "accepts")
                           for _, text in history for t, verb, _, g, _ in _REPLY.findall(text)]
                trader, good, paid, ore = _rule_offer(rule, data, state, replies, len(history))
                return f"offer {TRADERS[trader]} {paid} {data['goods'][good]} for {ore} ore"
            return play

        rules: dict[str, Policy] = {"raise the price at the first trader in the cheapest good": cheapest_good_first_trader,
                 "pay nine of a good per ore": generous}
        rules.update((_rule_name(rule), family(rule)) for rule in (
            ("cheapest", "most", "pair", "one"), (0, "first", "pair", "one"), ("cheapest", "cycle", "all", "one"),
            ("cheapest", "first", "all", "all")))
        return rules

    def honest_move(self, view: View) -> str:
        """Probe the cheapest untried per-ore price among (trader, good) pairs; buy where a pair accepted."""
        texts = [view.prompt, *view.observations]
        holding_text, ore, _, stocks_text = _LINE.findall(texts[-1])[-1]
        goods = view.public["goods"]
        holding = [int(part.split()[0]) for part in holding_text.split(", ")]
        stocks = [int(part.split()[1]) for part in stocks_text.split(", ")]
        replies = [(TRADERS.index(t), goods.index(g), int(paid), int(got), verb == "accepts")
                   for text in view.observations for t, verb, paid, g, got in _REPLY.findall(text)]
        trader, good, paid, got = _honest_offer(view.public["points"], holding, stocks,
                                                view.public["target"] - int(ore), replies)
        return f"offer {TRADERS[trader]} {paid} {goods[good]} for {got} ore"


def read_offer(move: str, goods: list[str], traders: int) -> Offer | None:
    """``(trader, good, paid, ore)`` from ``offer B 3 wheat for 2 ore`` and close spellings, or None.

    >>> read_offer("Offer B: 3 wheat for 2 ore.", ["wheat", "wool"], 2), read_offer("offer C 1 wool for 1 ore", ["wheat", "wool"], 2)
    ((1, 0, 3, 2), None)
    """
    groups = read_command(move, _OFFER)
    if groups is None:
        return None
    trader, paid, good, ore = groups
    index = TRADERS.index(trader.upper())
    if index >= traders or good not in goods or int(paid) < 1 or int(ore) < 1:
        return None
    return index, goods.index(good), int(paid), int(ore)


Market = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]  # values, ore values, points


def _market(data: dict[str, Any]) -> Market:
    return tuple(tuple(v) for v in data["values"]), tuple(data["ore_values"]), tuple(data["points"])


def _start(data: dict[str, Any]) -> dict[str, Any]:
    return {"holding": list(data["holding"]), "stocks": list(data["stocks"]), "ore": 0}


def _points(data: dict[str, Any], state: dict[str, Any]) -> int:
    return sum(p * h for p, h in zip(data["points"], state["holding"]))


def _illegal(data: dict[str, Any], state: dict[str, Any], offer: Offer) -> str:
    trader, good, paid, ore = offer
    if ore > state["stocks"][trader]:
        return f"trader {TRADERS[trader]} holds only {state['stocks'][trader]} ore"
    if ore > data["target"] - state["ore"]:
        return f"you need only {data['target'] - state['ore']} more ore"
    if paid > state["holding"][good]:
        return f"you hold only {state['holding'][good]} {data['goods'][good]}"
    return ""


def _apply(data: dict[str, Any], state: dict[str, Any], offer: Offer) -> tuple[bool, dict[str, Any]]:
    trader, good, paid, ore = offer
    if paid * data["values"][trader][good] < ore * data["ore_values"][trader]:
        return False, state
    holding, stocks = list(state["holding"]), list(state["stocks"])
    holding[good] -= paid
    stocks[trader] -= ore
    return True, {"holding": holding, "stocks": stocks, "ore": state["ore"] + ore}


def _legal(data: dict[str, Any], state: dict[str, Any]) -> list[Offer]:
    need = data["target"] - state["ore"]
    return [(t, g, paid, ore) for t, stock in enumerate(state["stocks"]) for g, held in enumerate(state["holding"])
            for paid in range(1, held + 1) for ore in range(1, min(stock, need) + 1)]


def _price(market: Market, trader: int, good: int, ore: int) -> int:
    """The fewest units of ``good`` trader accepts for ``ore`` ore."""
    values, ore_values, _ = market
    return -(-ore * ore_values[trader] // values[trader][good])


@functools.lru_cache(maxsize=4096)
def _best_plan(market: Market, holding: tuple[int, ...], need: int, stocks: tuple[int, ...]) -> tuple[Offer, ...]:
    """The swaps leaving the most points that bring ``need`` more ore (one per trader and good), or () if none do.

    A dynamic programme over the traders: the states are (ore taken, units paid per good); of two states with
    the same ore, one paying at least as much of every good is dropped."""
    points, goods = market[2], len(holding)
    states: dict[tuple[int, tuple[int, ...]], tuple[Offer, ...]] = {(0, (0,) * goods): ()}
    for trader, stock in enumerate(stocks):
        grown = dict(states)
        for (taken, paid), swaps in states.items():
            for split in _allocations(min(stock, need - taken), goods):
                cost = [_price(market, trader, g, ore) if ore else 0 for g, ore in enumerate(split)]
                after = tuple(p + c for p, c in zip(paid, cost))
                if any(a > h for a, h in zip(after, holding)):
                    continue
                key = (taken + sum(split), after)
                if key not in grown:
                    grown[key] = swaps + tuple((trader, g, c, ore) for g, (c, ore) in enumerate(zip(cost, split)) if ore)
        states = _undominated(grown)
    done = [(sum(pt * (h - p) for pt, h, p in zip(points, holding, paid)), swaps)
            for (taken, paid), swaps in states.items() if taken == need]
    return max(done, key=lambda pair: pair[0])[1] if done else ()


def _undominated(states: dict[tuple[int, tuple[int, ...]], tuple[Offer, ...]]
                 ) -> dict[tuple[int, tuple[int, ...]], tuple[Offer, ...]]:
    kept: dict[tuple[int, tuple[int, ...]], tuple[Offer, ...]] = {}
    by_ore: dict[int, list[tuple[int, ...]]] = {}
    for taken, paid in sorted(states, key=lambda key: (key[0], sum(key[1]))):
        frontier = by_ore.setdefault(taken, [])
        if any(all(o <= p for o, p in zip(other, paid)) for other in frontier):
            continue
        frontier.append(paid)
        kept[(taken, paid)] = states[(taken, paid)]
    return kept


def _best_left(market: Market, holding: tuple[int, ...], need: int, stocks: tuple[int, ...]) -> int | None:
    plan = _best_plan(market, holding, need, stocks)
    if not plan:
        return None
    paid = [0] * len(holding)
    for _, g, cost, _ in plan:
        paid[g] += cost
    return sum(pt * (h - p) for pt, h, p in zip(market[2], holding, paid))


@functools.lru_cache(maxsize=256)
def _allocations(most: int, goods: int) -> tuple[tuple[int, ...], ...]:
    """Every way to take from 1 to ``most`` ore from one trader, split over ``goods`` goods."""
    return tuple(split for split in itertools.product(range(most + 1), repeat=goods) if 0 < sum(split) <= most)


Rule = tuple[Any, str, str, str]  # good ("cheapest" or an index), trader ("first", "most", "cycle"), refusals
# counted ("all", "pair"), ore per offer ("one", "all": as much as the trader holds and the model still needs)


def rule_family(goods: int) -> list[Rule]:
    """The simple rules the reward's zero is set by: pay in one good (the good worth least to the model, or a fixed
    good) for one ore at a time or for all the ore the trader can give, at the first trader holding ore, the one
    holding most, or each trader with ore in turn, the price per ore rising by one unit after each refusal (counted
    over the game, or per trader and good; in turn: after each round of refusals)."""
    return [(good, trader, count, ore) for good in ("cheapest", *range(goods)) for trader in ("first", "most", "cycle")
            for count in ("all", "pair") for ore in ("one", "all")]


def _rule_name(rule: Rule) -> str:
    good, trader, count, ore = rule
    what = "the cheapest good" if good == "cheapest" else f"good {good + 1}"
    where = {"first": "the first trader with ore", "most": "the trader with most ore",
             "cycle": "each trader with ore in turn"}[trader]
    return (f"raise the price by one per refusal ({'per trader and good' if count == 'pair' else 'overall'}) in {what}"
            f" at {where}, {'one ore' if ore == 'one' else 'all the ore it can'} per offer")


def _rule_offer(rule: Rule, data: dict[str, Any], state: dict[str, Any], replies: list[tuple[int, int, bool]],
                turn: int) -> Offer:
    """A rule of :func:`rule_family`'s offer on turn ``turn`` (from 0), given the (trader, good, accepted) replies."""
    good_rule, trader_rule, count, ore_rule = rule
    stocks = state["stocks"]
    with_ore = [t for t, stock in enumerate(stocks) if stock] or [0]
    if trader_rule == "cycle":
        trader = with_ore[turn % len(with_ore)]
    elif trader_rule == "first":
        trader = next((t for t, stock in enumerate(stocks) if stock), 0)
    else:
        trader = max(range(len(stocks)), key=lambda t: (stocks[t], -t))
    good = (min(range(len(data["goods"])), key=lambda g: (data["points"][g], g)) if good_rule == "cheapest"
            else good_rule)
    refused = sum(1 for t, g, accepted in replies if not accepted and (count == "all" or (t, g) == (trader, good)))
    if trader_rule == "cycle" and count == "all":
        refused //= len(with_ore)
    ore = 1 if ore_rule == "one" else max(1, min(stocks[trader], data["target"] - state["ore"]))
    return trader, good, max(1, min(ore * (refused + 1), state["holding"][good])), ore


def _rule_game(data: dict[str, Any], rule: Rule) -> int:
    """The points a rule of :func:`rule_family` keeps in this market (0 when the turns run out first); an illegal
    offer spends the turn."""
    state = _start(data)
    replies: list[tuple[int, int, bool]] = []
    for turn in range(data["turns"]):
        offer = _rule_offer(rule, data, state, replies, turn)
        if _illegal(data, state, offer):
            continue
        accepted, state = _apply(data, state, offer)
        replies.append((offer[0], offer[1], accepted))
        if state["ore"] >= data["target"]:
            return _points(data, state)
    return 0


def _random_game(data: dict[str, Any], rng: random.Random) -> int:
    """The points a uniformly random legal offerer keeps (0 when the turns run out first)."""
    state = _start(data)
    for _ in range(data["turns"]):
        need = data["target"] - state["ore"]
        weights, pairs = [], []
        for t, stock in enumerate(state["stocks"]):
            for g, held in enumerate(state["holding"]):
                if stock and held:
                    pairs.append((t, g))
                    weights.append(held * min(stock, need))
        if not pairs:
            return 0
        t, g = rng.choices(pairs, weights)[0]
        offer = (t, g, rng.randint(1, state["holding"][g]), rng.randint(1, min(state["stocks"][t], need)))
        _, state = _apply(data, state, offer)
        if state["ore"] >= data["target"]:
            return _points(data, state)
    return 0


def _honest_offer(points: list[int], holding: list[int], stocks: list[int], need: int,
                  replies: list[tuple[int, int, int, int, bool]]) -> Offer:
    """The honest player's offer from the replies so far ``(trader, good, paid, ore, accepted)``: where a pair has
    accepted a per-ore price, buy what it can at that price; else probe the cheapest per-ore price not yet refused."""
    refused: dict[tuple[int, int], float] = {}
    accepted: dict[tuple[int, int], float] = {}
    for t, g, paid, ore, yes in replies:
        rate = paid / ore
        if yes:
            accepted[(t, g)] = min(accepted.get((t, g), rate), rate)
        else:
            refused[(t, g)] = max(refused.get((t, g), 0.0), rate)
    options = []
    for t, stock in enumerate(stocks):
        for g, held in enumerate(holding):
            if not stock or not held:
                continue
            if (t, g) in accepted:
                price = int(accepted[(t, g)])
                ore = min(stock, need, held // price)
                if ore:
                    options.append((price * points[g], 0, t, g, price * ore, ore))
                continue
            price = int(refused.get((t, g), 0.0)) + 1
            if price <= held:
                options.append((price * points[g], 1, t, g, price, 1))
    if not options:  # nothing affordable is left untried: the first legal offer
        t = next(t for t, stock in enumerate(stocks) if stock)
        g = next(g for g, held in enumerate(holding) if held)
        return t, g, 1, 1
    _, _, t, g, paid, ore = min(options)
    return t, g, paid, ore


def _honest_game(data: dict[str, Any]) -> int:
    """The points the honest player keeps in this market (0 when the turns run out first)."""
    state = _start(data)
    replies: list[tuple[int, int, int, int, bool]] = []
    for _ in range(data["turns"]):
        offer = _honest_offer(data["points"], state["holding"], state["stocks"], data["target"] - state["ore"],
                              replies)
        if _illegal(data, state, offer):
            return 0
        accepted, state = _apply(data, state, offer)
        replies.append((*offer, accepted))
        if state["ore"] >= data["target"]:
            return _points(data, state)
    return 0


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    held = ", ".join(f"{h} {g}" for g, h in zip(data["goods"], state["holding"]))
    stocks = ", ".join(f"{TRADERS[t]} {s}" for t, s in enumerate(state["stocks"]))
    return f"You hold: {held}. Ore: {state['ore']} of {data['target']}. Traders' ore: {stocks}."
