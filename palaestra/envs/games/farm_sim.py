"""Farm sim: plant, water, harvest and sell crops against a printed market, one action per day; regret-scored.

A small farm has a few plots and a season of a few days. Each crop has a seed cost, a number of waterings
it needs and a yield; the market's price of each crop on each day is printed in the prompt (drawn per
problem: a base price with a day-to-day swing). Each turn is one day, and the farmer does one thing that
day: ``plant CROP`` (in the first empty plot; the seed cost is paid), ``water`` (every planted plot that is
not yet ripe gets one watering), ``harvest plot N`` (a ripe plot: its yield goes to the barn and the plot is
empty again), ``sell CROP`` (every unit of it in the barn, at today's price) or ``wait``. A crop planted
today can be watered from tomorrow; it is ripe the day after its last watering. Seeds are bought on credit;
what is left in the barn or the field after the last day is worth nothing. The score is the profit: sales
minus seed costs.

Everything is stated, so the best play is found exactly: a memoised search over (day, plots, barn), plots
sorted since they are alike, gives ``best``, the most profit any play makes. The reward, paid after the last
day, is regret-normalised (:func:`palaestra.core.multiturn.regret_reward`): ``clip((profit - baseline) /
(best - baseline))``, where ``baseline`` is the lowest whole profit, at least the mean of 200 seeded
playouts of uniformly random legal actions and at least 0 (the profit of waiting every day; version 2), at which those
playouts average a reward of at most 0.05. The
generator keeps seasons where ``best - baseline`` is at least 6 coins and, from level 2, where the rule
"harvest when ripe, sell at once, water when anything grows, else plant the crop with the best yield x
average price - cost" scores at most 0.75, 0.6, 0.5 (levels 2, 3, 4). A move that cannot be read or
cannot be done is refused without using up the day (the budget allows two such slips).

Levels lengthen the season, add plots and crops and widen the price swings. The difficulty measure is
the season's days times the plots, plus the crops, plus the share of ``best`` the greedy rule misses.

Generation speed: about 120 problems/s at level 4 on this 2-core machine (it varies with the seeds). Each drawn
season is solved by an exact memoised search over the days (the oracle's profit), and 200 random playouts plus a
greedy game set the reward's zero and cap; about 1 in 4 seasons is redrawn because planning pays too little over the
greedy rule. The exact best profit is the reward's top, so it cannot be estimated.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, regret_reward, retry
from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer

CROPS = ("wheat", "corn", "carrot", "pumpkin", "tomato", "melon", "potato", "bean")
RANDOM_REWARD = 0.05  # the reward's zero is set so that random legal playouts average at most this
PLAYOUTS = 200
SLIPS = 2
MIN_SPAN = 6
WAIT = "wait"
WATER = "water"

Crop = tuple[int, int, int]  # seed cost, waterings, yield
Plot = tuple[int, int]  # (crop index or -1 for empty, waterings still needed)
State = tuple[int, tuple[Plot, ...], tuple[int, ...], int]  # day (0-based), plots, barn, profit so far
Game = tuple[tuple[Crop, ...], tuple[tuple[int, ...], ...], int]  # crops, prices[day][crop], days
_MOVE = re.compile(r"^(?:(plant|sow|sell)\s+(?:the\s+|some\s+|all\s+(?:the\s+)?)?([a-z]+)(?:\s+seeds?)?"
                   r"|(harvest)\s+(?:the\s+)?(?:plot\s+)?#?(\d{1,2})|(water)(?:\s+(?:the\s+|all\s+(?:the\s+)?)?"
                   r"(?:plots|crops|field|farm))?|(wait|rest|do nothing|skip|sleep))$")


@register
class FarmSim(MultiTurnTask):
    id = "games/farm_sim"
    family = "games"
    description = "Run a small farm for a season: plant, water, harvest and sell against printed prices; regret-scored."
    tags = ("games", "multi-turn", "single-player", "planning", "economics", "scheduling")
    one_move_per_turn = True  # a reply holding several actions is refused (checked by the kit)
    score_based = True
    version = 2  # v2: the reward's zero is at least the profit of doing nothing (waiting every day)

    @dataclass(frozen=True)
    class Config:
        days: int
        plots: int
        crops: int
        swing: int  # prices move by up to this much from a crop's base price
        greedy_cap: float  # keep only seasons where the greedy rule scores at most this

    presets = (Config(6, 2, 2, 2, 1.0), Config(7, 2, 3, 3, 1.0), Config(8, 2, 3, 3, 0.75), Config(9, 3, 3, 4, 0.6),
               Config(10, 3, 3, 5, 0.5))
    bounded = "the exact search over plots and barn contents grows steeply with the season and the plots"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            names = rng.sample(CROPS, config.crops)
            crops = []
            for _ in names:
                waterings = rng.randint(1, 3)
                crops.append([rng.randint(2, 6), waterings, rng.randint(2, 3 + waterings)])
            prices = []
            for cost, waterings, crop_yield in crops:
                base = max(1, round((cost + 2 + 2 * waterings) / crop_yield + rng.randint(0, 2)))
                prices.append([max(1, base + rng.randint(-config.swing, config.swing)) for _ in range(config.days)])
            data: dict[str, Any] = {"names": names, "crops": crops, "days": config.days, "plots": config.plots,
                                    "prices": [[prices[c][d] for c in range(len(crops))] for d in range(config.days)]}
            game = _game(data)
            best = _best(game, _start(data))
            playouts = _random_profits(game, _start(data), random.Random(rng.getrandbits(64)))
            # Never below 0: waiting every day makes a profit of 0, and doing nothing must not score (v1's baseline
            # went negative where random play loses money, so "wait" every day scored about 0.28 at level 0).
            baseline = max(0, _baseline(playouts, best))
            greedy = _final(game, _start(data), _greedy_move)
            if best - baseline < MIN_SPAN or regret_reward(greedy, baseline, best) > config.greedy_cap:
                return None
            return {**data, "best": best, "baseline": baseline, "random": round(sum(playouts) / len(playouts), 3),
                    "greedy": greedy}

        data = retry(draw, what="a season where planning pays")
        lines = [f"- {name}: seed {cost} coins, needs {waterings} watering{'s' if waterings > 1 else ''}, "
                 f"yields {crop_yield}" for name, (cost, waterings, crop_yield) in zip(data["names"], data["crops"])]
        header = "day  " + "  ".join(f"{name:>7}" for name in data["names"])
        table = [header] + [f"{d + 1:>3}  " + "  ".join(f"{p:>7}" for p in row) for d, row in enumerate(data["prices"])]
        prompt = (
            f"You run a farm with {data['plots']} plots for a season of {data['days']} days. Each day you do one "
            "thing: plant CROP (in the first empty plot; you pay the seed cost), water (every planted plot that "
            "is not yet ripe gets one watering), harvest plot N (a ripe plot's yield goes to your barn and the plot "
            "is empty again), sell CROP (every unit of it in your barn, at today's price per unit) or wait. A crop "
            "planted today can be watered from tomorrow and is ripe the day after its last watering. Seeds are "
            "bought on credit; whatever is unsold after the last day is worth nothing. You score by profit (sales "
            "minus seed costs): 0 up to a baseline, set so that uniformly random actions average a score of at "
            "most 0.05 and doing nothing scores 0, rising evenly to 1 for the most profit any play of this season makes.\n\n"
            "Crops:\n" + "\n".join(lines) + "\n\nMarket price per unit:\n" + "\n".join(table) + "\n\n"
            f"{_situation(data, _thawed(_start(data)))}\n\n"
            "Each day, write one action, for example: plant CROP, water, harvest plot 1, sell CROP or wait"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["days"] + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        missed = (data["best"] - data["greedy"]) / data["best"] if data["best"] > 0 else 0.0
        return data["days"] * data["plots"] + len(data["crops"]) + missed

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _thawed(_start(problem.data))

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        action = read_action(move, data["names"], data["plots"])
        if action is None:
            return Outcome.invalid(state, "write one action: plant CROP, water, harvest plot N, sell CROP or wait "
                                          f"(crops: {', '.join(data['names'])})")
        game, frozen = _game(data), _frozen(state)
        if action not in _legal(game, frozen):
            return Outcome(state, Verdict.unparsed("not possible today"), f"Not possible: {_why(data, frozen, action)}. "
                                                                          "The day is not used up.")
        after = _apply(game, frozen, action)
        said = _said(data, frozen, action)
        if after[0] >= data["days"]:
            profit = after[3]
            reward = regret_reward(profit, data["baseline"], data["best"])
            verdict = Verdict(reward, profit >= data["best"], True, f"profit {profit} of best {data['best']}")
            return Outcome(_thawed(after), verdict, f"{said} The season is over: your profit is {profit} coins (the "
                                                    f"best play makes {data['best']}; the score's zero is "
                                                    f"{data['baseline']}).", True)
        return Outcome.goes_on(_thawed(after), f"{said}\n{_situation(data, _thawed(after))}")

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        """A piece of a refused reply is an action when it reads as one, possible today or not (``plant corn,
        then water`` is a plan although nothing needs water yet)."""
        return read_action(piece, problem.data["names"], problem.data["plots"]) is not None

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        game, frozen = _game(problem.data), _frozen(state)
        move = max(_legal(game, frozen), key=lambda action: _best(game, _apply(game, frozen, action)))
        return _spelled(problem.data, move)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [_spelled(problem.data, action) for action in _legal(_game(problem.data), _frozen(state))]

    def heuristics(self) -> dict[str, Policy]:
        return {"harvest when ripe, sell at once, water, else plant the best-margin crop":
                lambda problem, state, history, rng: _spelled(problem.data, _greedy_move(_game(problem.data),
                                                                                         _frozen(state)))}


def read_action(move: str, names: list[str], plots: int) -> str | None:
    """A canonical action (``plant 0``, ``sell 1``, ``harvest 2``, ``water``, ``wait``; crops by index, plots from
    0) from ``plant corn``, ``sell all the corn``, ``harvest plot 2``, ``water the plots``, ``wait``; or None.

    >>> read_action("Harvest plot 2.", ["corn"], 3), read_action("sell corn", ["wheat", "corn"], 2)
    ('harvest 1', 'sell 1')
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> str | None:
        match = _MOVE.match(" ".join(text.lower().split()))
        if not match:
            return None
        verb, crop, _, plot, water, wait = match.groups()
        if verb:
            if crop not in names:
                return None
            return f"{'sell' if verb == 'sell' else 'plant'} {names.index(crop)}"
        if plot:
            return f"harvest {int(plot) - 1}" if 1 <= int(plot) <= plots else None
        return WATER if water else WAIT if wait else None

    return read_move_answer(move, read)


def _game(data: dict[str, Any]) -> Game:
    return tuple(tuple(c) for c in data["crops"]), tuple(tuple(row) for row in data["prices"]), data["days"]


def _start(data: dict[str, Any]) -> State:
    return 0, tuple((-1, 0) for _ in range(data["plots"])), tuple(0 for _ in data["crops"]), 0


def _frozen(state: dict[str, Any]) -> State:
    return state["day"], tuple(tuple(p) for p in state["plots"]), tuple(state["barn"]), state["profit"]  # type: ignore[misc]


def _thawed(state: State) -> dict[str, Any]:
    day, plots, barn, profit = state
    return {"day": day, "plots": [list(p) for p in plots], "barn": list(barn), "profit": profit}


def _legal(game: Game, state: State) -> tuple[str, ...]:
    """The distinct actions possible today (planting always goes to the first empty plot)."""
    crops = game[0]
    _, plots, barn, _ = state
    moves = []
    if any(crop < 0 for crop, _ in plots):
        moves += [f"plant {c}" for c in range(len(crops))]
    if any(crop >= 0 and need > 0 for crop, need in plots):
        moves.append(WATER)
    moves += [f"harvest {i}" for i, (crop, need) in enumerate(plots) if crop >= 0 and need == 0]
    moves += [f"sell {c}" for c, units in enumerate(barn) if units]
    return (*moves, WAIT)


def _apply(game: Game, state: State, action: str) -> State:
    crops, prices, _ = game
    day, plots, barn, profit = state
    verb, _, arg = action.partition(" ")
    if verb == "plant":
        c = int(arg)
        i = next(i for i, (crop, _) in enumerate(plots) if crop < 0)
        plots = plots[:i] + ((c, crops[c][1]),) + plots[i + 1:]
        profit -= crops[c][0]
    elif verb == WATER:
        plots = tuple((crop, need - 1) if crop >= 0 and need > 0 else (crop, need) for crop, need in plots)
    elif verb == "harvest":
        i = int(arg)
        crop = plots[i][0]
        barn = barn[:crop] + (barn[crop] + crops[crop][2],) + barn[crop + 1:]
        plots = plots[:i] + ((-1, 0),) + plots[i + 1:]
    elif verb == "sell":
        c = int(arg)
        profit += barn[c] * prices[day][c]
        barn = barn[:c] + (0,) + barn[c + 1:]
    return day + 1, plots, barn, profit


EMPTY_PLOT = -4  # a plot packed for the search: crop * 4 + waterings still needed (at most 3), or this when empty


@functools.lru_cache(maxsize=64)
def _searches(game: Game) -> Any:
    """The most profit still to make from (day, sorted packed plots, barn), memoised per season (plots are alike).

    The moves are :func:`_legal`'s, written out for speed (the search is the generator's cost) on plots packed as
    ints that sort like the (crop, need) pairs. Watering keeps sorted plots sorted and a harvested plot is the
    smallest, so only planting sorts."""
    crops, prices, days = game
    kinds = range(len(crops))
    fastest = min(waterings for _, waterings, _ in crops)
    # plantable[left]: the crops (packed plot, cost) that, planted with ``left`` days after today, can still be
    # watered, harvested and sold in time
    plantable = [[(4 * c + waterings, cost) for c, (cost, waterings, _) in enumerate(crops) if waterings + 2 <= left]
                 for left in range(days)]

    @functools.lru_cache(maxsize=None)
    def gain(day: int, plots: tuple[int, ...], barn: tuple[int, ...]) -> int:
        if day >= days:
            return 0
        left = days - 1 - day  # days after this one
        ripens = waterable = False  # something in the field can still ripen in time; something can be watered
        for plot in plots:
            if plot >= 0 and plot & 3 < left:
                ripens = True
                if plot & 3:
                    waterable = True
                    break
        if left == 0 or not ripens and fastest + 2 > left:
            # Nothing in the field or planted now can still be sold: the rest is selling the barn at the best prices.
            return sell_off(day, barn)
        after = day + 1
        best = gain(after, plots, barn)  # wait
        if plots[0] < 0:  # sorted: an empty plot comes first
            rest = plots[1:]
            for planted, cost in plantable[left]:
                value = gain(after, tuple(sorted(rest + (planted,))), barn) - cost
                if value > best:
                    best = value
        if waterable:
            value = gain(after, tuple(plot - 1 if plot >= 0 and plot & 3 else plot for plot in plots), barn)
            if value > best:
                best = value
        for i, plot in enumerate(plots):
            if plot >= 0 and not plot & 3 and (i == 0 or plots[i - 1] != plot):
                crop = plot >> 2
                stored = barn[:crop] + (barn[crop] + crops[crop][2],) + barn[crop + 1:]
                value = gain(after, (EMPTY_PLOT,) + plots[:i] + plots[i + 1:], stored)
                if value > best:
                    best = value
        for c in kinds:
            if barn[c]:
                value = barn[c] * prices[day][c] + gain(after, plots, barn[:c] + (0,) + barn[c + 1:])
                if value > best:
                    best = value
        return best

    @functools.lru_cache(maxsize=None)
    def sell_off(day: int, barn: tuple[int, ...]) -> int:
        """The most the barn fetches from ``day`` on when each day sells at most one crop."""
        if day >= days or not any(barn):
            return 0
        return max([sell_off(day + 1, barn)] + [barn[c] * prices[day][c] + sell_off(day + 1, barn[:c] + (0,) + barn[c + 1:])
                                                for c in kinds if barn[c]])
    return gain


def _best(game: Game, state: State) -> int:
    """The most profit by the season's end from ``state`` (counting the profit made already)."""
    day, plots, barn, profit = state
    packed = sorted(EMPTY_PLOT if crop < 0 else 4 * crop + need for crop, need in plots)
    return profit + _searches(game)(day, tuple(packed), barn)


def _final(game: Game, state: State, policy: Any) -> int:
    while state[0] < game[2]:
        state = _apply(game, state, policy(game, state))
    return state[3]


def _random_profits(game: Game, state: State, rng: random.Random) -> list[int]:
    """The profits of PLAYOUTS games of uniformly random legal actions (``rng.choice(_legal(...))`` each day).

    Written out on mutable lists with (verb, argument) pairs for speed (the playouts are most of the generator's cost):
    the legal actions come in :func:`_legal`'s order and number, so ``rng`` draws exactly what that loop drew."""
    crops, prices, days = game
    start_day, start_plots, start_barn, start_profit = state
    kinds, fields = range(len(crops)), range(len(start_plots))
    plants = [("plant", c) for c in kinds]
    harvests = [("harvest", i) for i in fields]
    sells = [("sell", c) for c in kinds]
    water, wait = (WATER, 0), (WAIT, 0)
    choice = rng.choice
    profits = []
    for _ in range(PLAYOUTS):
        planted = [crop for crop, _ in start_plots]
        needs = [need for _, need in start_plots]
        barn = list(start_barn)
        profit = start_profit
        for day in range(start_day, days):
            legal = plants[:] if -1 in planted else []
            ripe = []
            growing = False
            for i in fields:
                if planted[i] >= 0:
                    if needs[i]:
                        growing = True
                    else:
                        ripe.append(harvests[i])
            if growing:
                legal.append(water)
            legal += ripe
            legal += [sells[c] for c in kinds if barn[c]]
            legal.append(wait)
            verb, arg = choice(legal)
            if verb == "plant":
                i = planted.index(-1)
                planted[i], needs[i] = arg, crops[arg][1]
                profit -= crops[arg][0]
            elif verb == WATER:
                for i in fields:
                    if planted[i] >= 0 and needs[i]:
                        needs[i] -= 1
            elif verb == "harvest":
                barn[planted[arg]] += crops[planted[arg]][2]
                planted[arg], needs[arg] = -1, 0
            elif verb == "sell":
                profit += barn[arg] * prices[day][arg]
                barn[arg] = 0
        profits.append(profit)
    return profits


def _baseline(profits: list[int], best: int) -> int:
    """The lowest whole profit, at least the playouts' mean, at which they average a reward of at most RANDOM_REWARD."""
    baseline = -(-sum(profits) // len(profits))
    while baseline < best and sum(regret_reward(p, baseline, best) for p in profits) / len(profits) > RANDOM_REWARD:
        baseline += 1
    return baseline


def _greedy_move(game: Game, state: State) -> str:
    """Harvest a ripe plot, else sell what the barn holds, else water, else plant the best-margin crop, else wait."""
    crops, prices, days = game
    legal = _legal(game, state)
    for action in legal:
        if action.startswith("harvest") or action.startswith("sell"):
            return action
    if WATER in legal:
        return WATER
    if legal[0].startswith("plant"):
        margins = [crop_yield * sum(row[c] for row in prices) / days - cost
                   for c, (cost, _, crop_yield) in enumerate(crops)]
        return f"plant {max(range(len(crops)), key=lambda c: margins[c])}"
    return WAIT


def _spelled(data: dict[str, Any], action: str) -> str:
    verb, _, arg = action.partition(" ")
    if verb in ("plant", "sell"):
        return f"{verb} {data['names'][int(arg)]}"
    return f"harvest plot {int(arg) + 1}" if verb == "harvest" else action


def _said(data: dict[str, Any], state: State, action: str) -> str:
    day, plots, barn, _ = state
    verb, _, arg = action.partition(" ")
    names, crops = data["names"], data["crops"]
    if verb == "plant":
        i = next(i for i, (crop, _) in enumerate(plots) if crop < 0)
        return f"Day {day + 1}: you plant {names[int(arg)]} in plot {i + 1} for {crops[int(arg)][0]} coins."
    if verb == WATER:
        return f"Day {day + 1}: you water the plots."
    if verb == "harvest":
        crop = plots[int(arg)][0]
        return f"Day {day + 1}: you harvest {crops[crop][2]} {names[crop]} from plot {int(arg) + 1}."
    if verb == "sell":
        c = int(arg)
        return (f"Day {day + 1}: you sell {barn[c]} {names[c]} at {data['prices'][day][c]} coins each for "
                f"{barn[c] * data['prices'][day][c]} coins.")
    return f"Day {day + 1}: you wait."


def _why(data: dict[str, Any], state: State, action: str) -> str:
    _, plots, _, _ = state
    verb, _, arg = action.partition(" ")
    if verb == "plant":
        return "every plot is planted"
    if verb == WATER:
        return "nothing planted needs water"
    if verb == "harvest":
        crop, need = plots[int(arg)]
        return (f"plot {int(arg) + 1} is empty" if crop < 0 else
                f"the {data['names'][crop]} in plot {int(arg) + 1} needs {need} more watering{'s' if need > 1 else ''}")
    return f"your barn holds no {data['names'][int(arg)]}"


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    names = data["names"]
    plots = []
    for i, (crop, need) in enumerate(state["plots"]):
        if crop < 0:
            plots.append(f"plot {i + 1} empty")
        elif need:
            plots.append(f"plot {i + 1} {names[crop]} (needs {need} more watering{'s' if need > 1 else ''})")
        else:
            plots.append(f"plot {i + 1} {names[crop]} (ripe)")
    barn = ", ".join(f"{units} {names[c]}" for c, units in enumerate(state["barn"]) if units) or "nothing"
    return (f"Day {state['day'] + 1} of {data['days']}. Fields: {'; '.join(plots)}. Barn: {barn}. "
            f"Profit so far: {state['profit']} coins.")
