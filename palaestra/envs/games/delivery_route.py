"""Delivery route: deliver every parcel inside its time window without running out of fuel, one command a turn.

A van starts at the depot at hour 0 with a full tank. The prompt gives the driving time between every
two towns (hours; a drive burns one unit of fuel per hour), the tank's capacity, the towns with a fuel
station, and the parcels: one per town, each with a delivery window ``[open, close]``. Each turn the
model writes one command: ``drive to TOWN`` (any town; refused when the tank holds less fuel than the
drive needs), ``refuel`` (at a station: fills the tank, takes 1 hour) or ``wait`` (until the window of
the parcel in this town opens, else 1 hour). A parcel is delivered the moment the van is in its town
inside its window (on arrival or after waiting). The game is lost when a window closes on an
undelivered parcel; reward 1 when every parcel is delivered within the turn budget.

The reference is a breadth-first search over states (town, hour, fuel, parcels delivered) by number
of commands, so its plan is the fewest commands that deliver everything; the budget is that plus a
spare turn. Instances are built around a random feasible route, but the windows do not retrace it: half
end within ``slack`` hours of its arrival and half up to ``late`` hours after it (so the deadlines come in
another order than the route's), and most open at hour 0 (a deadline only). An instance is kept only when
no cheap order wins it even with the best refuel and wait plan for that order (a search, order fixed): the
windows sorted by opening hour, by end or by midpoint (ties in any order), and the orders the nearest-town,
nearest-town-still-reachable-in-time and least-slack rules visit; nor the declared rules refuelling as they
go. So the order must be planned (a kept instance has a median of one to five winning orders out of the
parcels' factorial). The oracle replans from the current state with the same search. Levels add parcels (3 to
6), and the top level a second station and the tightest tank. The difficulty measure is the reference plan's
length plus a tenth of the towns.

Generation speed: about 80-100 problems/s at levels 1-4 (40 at level 0) on this 2-core machine. About 120
instances are drawn per problem (250 at level 0, whose three parcels leave the cheap orders few to miss), almost
all dropped because a cheap order or the route's fuel fails; each test is a small search over one order's refuel
plans, and the kept one is solved by an iterative-deepening search for the fewest commands that deliver every
parcel in its window. The filter is the point of the env and the search sets the budget and the oracle's plan.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.multiturn import History, Policy
from palaestra.verifiers.moves import read_command

TOWNS = ("Ashford", "Brampton", "Colby", "Dunmore", "Elgin", "Farley", "Glenrock", "Harrow", "Ivybridge", "Jarrow",
         "Kendal", "Ludlow", "Marlow", "Newbury", "Oakham", "Penrith")
TOWN_BY_NAME = {name.lower(): name for name in TOWNS}
SIDE = 9  # towns lie on a SIDE x SIDE grid; driving time is the Manhattan distance


@register
class DeliveryRoute(MultiTurnTask):
    id = "games/delivery_route"
    family = "games"
    description = "Deliver parcels inside their time windows with a van whose fuel must be planned, one command a turn."
    tags = ("games", "multi-turn", "planning", "scheduling", "routing")
    one_move_per_turn = True  # a reply holding several commands is refused (checked by the kit)

    version = 2

    @dataclass(frozen=True)
    class Config:
        parcels: int
        stations: int  # fuel stations besides the depot's
        slack: int  # a tight window ends (or opens) at most this many hours after (before) the drawn route's arrival
        late: int  # a loose window ends up to this many hours after the drawn route's arrival
        tank: int  # the tank's capacity beyond the grid's side plus 3
        spare: int  # turns beyond the reference plan

    presets = (Config(3, 1, 2, 12, 6, 1), Config(4, 1, 2, 12, 4, 1), Config(5, 1, 2, 10, 3, 1),
               Config(6, 1, 2, 10, 4, 1), Config(6, 2, 2, 10, 0, 1))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        data = retry(lambda: _draw(rng, config), what="a delivery instance the order rules lose", attempts=6000)
        data["budget"] = data["plan"] + config.spare
        towns = data["towns"]
        header = "        " + " ".join(f"{t[:3]:>4}" for t in towns)
        rows = [f"{t:<8}" + " ".join(f"{_distance(data, a, b):>4}" for b in range(len(towns)))
                for a, t in enumerate(towns)]
        parcels = "\n".join(f"- {towns[town]}: window {low} to {high}" for town, low, high in data["parcels"])
        stations = ", ".join(towns[s] for s in data["stations"])
        prompt = (
            f"You drive a delivery van. It starts at the depot in {towns[0]} at hour 0 with a full tank of "
            f"{data['tank']} units of fuel. Driving between two towns takes the hours in this table and burns one "
            f"unit of fuel per hour:\n\n{header}\n" + "\n".join(rows) + "\n\n"
            f"Fuel stations: {stations}.\nParcels (deliver each inside its window, in hours; it is delivered the "
            f"moment the van is in its town inside the window):\n{parcels}\n\n"
            "Commands: drive to TOWN (refused if the tank holds too little fuel), refuel (at a station: fills the "
            "tank, takes 1 hour), wait (until the window of the parcel here opens, else 1 hour). If a window closes "
            f"before its parcel is delivered, the game is lost. You have {data['budget']} turns; only delivering "
            f"every parcel scores.\nEach turn, write one command, for example: drive to {towns[0]}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return problem.data["plan"] + len(problem.data["towns"]) / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"town": 0, "hour": 0, "fuel": problem.data["tank"], "delivered": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        command = read_command(move, _parse)
        if command is None:
            return Outcome.invalid(state, "write one command: drive to TOWN, refuel or wait")
        town, hour, fuel = state["town"], state["hour"], state["fuel"]
        if command[0] == "drive":
            target = data["towns"].index(command[1]) if command[1] in data["towns"] else -1
            if target < 0:
                return _fail(state, f"{command[1]} is not on this map")
            if target == town:
                return _fail(state, f"you are already in {command[1]}")
            need = _distance(data, town, target)
            if need > fuel:
                return _fail(state, f"the drive to {command[1]} takes {need} fuel and the tank holds {fuel}")
            town, hour, fuel = target, hour + need, fuel - need
            said = f"You drive to {command[1]}."
        elif command[0] == "refuel":
            if town not in data["stations"]:
                return _fail(state, f"there is no fuel station in {data['towns'][town]}")
            hour, fuel = hour + 1, data["tank"]
            said = "You refuel (1 hour)."
        else:
            hour = _waited(data, state)
            said = f"You wait until hour {hour}."
        delivered = _deliver(data, town, hour, state["delivered"])
        after = {"town": town, "hour": hour, "fuel": fuel, "delivered": delivered}
        if len(delivered) > len(state["delivered"]):
            said += f" Parcel delivered in {data['towns'][town]}."
        status = f" Hour {hour}, fuel {fuel}/{data['tank']}, {len(delivered)} of {len(data['parcels'])} delivered."
        if len(delivered) == len(data["parcels"]):
            return Outcome(after, Verdict.right(), f"{said} Every parcel is delivered!", True)
        missed = [data["towns"][p] for p, _, high in data["parcels"] if p not in delivered and high < hour]
        if missed:
            return Outcome(after, Verdict.wrong("missed"), f"{said}{status} The window for {missed[0]} has closed: "
                                                           "game lost.", True)
        return Outcome.goes_on(after, said + status)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        plan = _plan(problem.data, _key(problem.data, state), problem.data["budget"])
        return plan[0] if plan else "wait"

    def heuristics(self) -> dict[str, Policy]:
        return {"earliest deadline first": _rule_policy(_earliest_deadline),
                "nearest town first": _rule_policy(_nearest),
                "nearest town still reachable in time first": _rule_policy(_nearest_in_time)}


def _fail(state: dict[str, Any], why: str) -> Outcome:
    return Outcome(state, Verdict.wrong("no progress"), f"Cannot do that: {why}.")


def _parse(words: list[str]) -> tuple[str, ...] | None:
    if words in (["refuel"], ["refill"], ["fill", "up"], ["fill", "tank"]):
        return ("refuel",)
    if words in (["wait"],):
        return ("wait",)
    rest = words[1:] if words and words[0] in ("drive", "go", "travel", "head") else None
    if rest and rest[0] == "to":
        rest = rest[1:]
    if rest and len(rest) == 1 and rest[0] in TOWN_BY_NAME:
        return ("drive", TOWN_BY_NAME[rest[0]])
    return None


def _distance(data: dict[str, Any], a: int, b: int) -> int:
    (ax, ay), (bx, by) = data["points"][a], data["points"][b]
    return abs(ax - bx) + abs(ay - by)


def _window(data: dict[str, Any], town: int) -> tuple[int, int] | None:
    for place, low, high in data["parcels"]:
        if place == town:
            return low, high
    return None


def _waited(data: dict[str, Any], state: dict[str, Any]) -> int:
    window = _window(data, state["town"])
    if window and state["town"] not in state["delivered"] and state["hour"] < window[0]:
        return window[0]
    return state["hour"] + 1


def _deliver(data: dict[str, Any], town: int, hour: int, delivered: list[int]) -> list[int]:
    window = _window(data, town)
    if window and town not in delivered and window[0] <= hour <= window[1]:
        return sorted([*delivered, town])
    return delivered


Key = tuple[int, int, int, int]  # town, hour, fuel, bit mask of the parcels delivered (bit i: parcels[i])


def _key(data: dict[str, Any], state: dict[str, Any]) -> Key:
    mask = sum(1 << i for i, (town, _, _) in enumerate(data["parcels"]) if town in state["delivered"])
    return state["town"], state["hour"], state["fuel"], mask


class _Map:
    """The instance as arrays for the search: distances, the parcel (index) of each town, stations, windows."""

    def __init__(self, data: dict[str, Any]) -> None:
        count = len(data["towns"])
        self.names = data["towns"]
        self.distance = [[_distance(data, a, b) for b in range(count)] for a in range(count)]
        self.parcel_at = [-1] * count
        for index, (town, _, _) in enumerate(data["parcels"]):
            self.parcel_at[town] = index
        self.parcels = [(town, low, high) for town, low, high in data["parcels"]]
        self.stations = data["stations"]
        self.is_station = [town in data["stations"] for town in range(count)]
        self.tank = data["tank"]
        self.full = (1 << len(self.parcels)) - 1

    def arrive(self, town: int, hour: int, fuel: int, mask: int) -> Key | None:
        """The state after being in ``town`` at ``hour`` (delivering its parcel if its window is open), or None
        when some window has closed on an undelivered parcel."""
        index = self.parcel_at[town]
        if index >= 0 and not mask >> index & 1 and self.parcels[index][1] <= hour <= self.parcels[index][2]:
            mask |= 1 << index
        for i, (_, _, high) in enumerate(self.parcels):
            if high < hour and not mask >> i & 1:
                return None
        return town, hour, fuel, mask

    def successors(self, key: Key) -> list[tuple[str, Key]]:
        """The commands that change something from ``key`` and lose nothing yet, with the states they lead to."""
        town, hour, fuel, mask = key
        out = []
        row = self.distance[town]
        targets = [t for i, (t, _, _) in enumerate(self.parcels) if not mask >> i & 1] + self.stations
        for target in dict.fromkeys(targets):
            need = row[target]
            if target != town and need <= fuel:
                nxt = self.arrive(target, hour + need, fuel - need, mask)
                if nxt is not None:
                    out.append((f"drive to {self.names[target]}", nxt))
        if self.is_station[town] and fuel < self.tank:
            nxt = self.arrive(town, hour + 1, self.tank, mask)
            if nxt is not None:
                out.append(("refuel", nxt))
        index = self.parcel_at[town]
        if index >= 0 and not mask >> index & 1 and hour < self.parcels[index][1]:
            nxt = self.arrive(town, self.parcels[index][1], fuel, mask)
            if nxt is not None:
                out.append(("wait", nxt))
        return out


def _plan(data: dict[str, Any], start: Key, limit: int = 40) -> list[str] | None:
    """The fewest commands from ``start`` that deliver every parcel, or None within ``limit``.

    Iterative deepening on the number of commands (so the first plan found is a shortest one), pruned by
    the parcels still to deliver (each needs a command of its own) and by a table of states already shown
    to fail with as many commands left.
    """
    world = _Map(data)
    failed: dict[Key, int] = {}
    path: list[str] = []

    def search(key: Key, left: int) -> bool:
        if key[3] == world.full:
            return True
        if bin(world.full & ~key[3]).count("1") > left or failed.get(key, -1) >= left:
            return False
        for command, nxt in world.successors(key):
            path.append(command)
            if search(nxt, left - 1):
                return True
            path.pop()
        failed[key] = left
        return False

    for bound in range(bin(world.full & ~start[3]).count("1"), limit + 1):
        if search(start, bound):
            return path
    return None


def _rule_move(data: dict[str, Any], state: dict[str, Any], pick: Any) -> str:
    """A rule's next command: wait for an open window here, else drive to ``pick``'s town, via the nearest station
    (refuelling) when the tank cannot make the drive."""
    town, fuel = state["town"], state["fuel"]
    window = _window(data, town)
    if window and town not in state["delivered"] and state["hour"] < window[0]:
        return "wait"
    left = [p for p, _, _ in data["parcels"] if p not in state["delivered"]]
    if not left:
        return "wait"
    target = pick(data, state, left)
    if _distance(data, town, target) <= fuel:
        return f"drive to {data['towns'][target]}"
    if town in data["stations"] and fuel < data["tank"]:
        return "refuel"
    reachable = [s for s in data["stations"] if s != town and _distance(data, town, s) <= fuel]
    if not reachable:
        return f"drive to {data['towns'][target]}"
    station = min(reachable, key=lambda s: (_distance(data, town, s), s))
    return f"drive to {data['towns'][station]}"


def _earliest_deadline(data: dict[str, Any], state: dict[str, Any], left: list[int]) -> int:
    return min(left, key=lambda p: (_window(data, p)[1], p))  # type: ignore[index]


def _nearest(data: dict[str, Any], state: dict[str, Any], left: list[int]) -> int:
    return min(left, key=lambda p: (_distance(data, state["town"], p), p))


def _nearest_in_time(data: dict[str, Any], state: dict[str, Any], left: list[int]) -> int:
    """The town reached (and delivered) soonest among those whose window the van can still make, fuel aside."""
    town, hour = state["town"], state["hour"]
    windows = {p: _window(data, p) or (0, 0) for p in left}
    timely = [p for p in left if hour + _distance(data, town, p) <= windows[p][1]] or left
    return min(timely, key=lambda p: (max(hour + _distance(data, town, p), windows[p][0]), p))


def _rule_policy(pick: Any) -> Policy:
    def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
        return _rule_move(problem.data, state, pick)
    return policy


def _rule_wins(data: dict[str, Any], pick: Any, budget: int) -> bool:
    """Whether the rule delivers everything within ``budget`` commands (simulated on the rules of :meth:`play`)."""
    world = _Map(data)
    state: dict[str, Any] = {"town": 0, "hour": 0, "fuel": data["tank"], "delivered": []}
    for _ in range(budget):
        command = _rule_move(data, state, pick)
        moves = dict(world.successors(_key(data, state)))
        if command not in moves:
            return False
        town, hour, fuel, mask = moves[command]
        if mask == world.full:
            return True
        state = {"town": town, "hour": hour, "fuel": fuel,
                 "delivered": sorted(p for i, (p, _, _) in enumerate(data["parcels"]) if mask >> i & 1)}
    return False


def _order_wins(world: _Map, order: list[int]) -> bool:
    """Whether visiting the parcel towns in ``order`` delivers every parcel in time with the best refuel and wait
    plan: for each next town, the earliest hour (for each fuel level kept) at which it can be reached directly or
    through a chain of refuelling stations, waiting there for its window to open."""
    distance, stations, tank = world.distance, world.stations, world.tank
    front = [(0, 0, tank)]  # Pareto states after the last delivery: town, hour, fuel (earlier and fuller is better)
    for target in order:
        _, low, high = world.parcels[world.parcel_at[target]]
        arrivals = []
        for town, hour, fuel in front:
            full = {town: hour + 1} if world.is_station[town] else {}  # earliest hour with a full tank at a station
            for station in stations:
                if station != town and distance[town][station] <= fuel:
                    full[station] = min(full.get(station, hour + 999), hour + distance[town][station] + 1)
            for _ in range(len(stations)):
                for a, when in list(full.items()):
                    for b in stations:
                        if b != a and distance[a][b] <= tank and when + distance[a][b] + 1 < full.get(b, when + 999):
                            full[b] = when + distance[a][b] + 1
            if distance[town][target] <= fuel:
                arrivals.append((max(hour + distance[town][target], low), fuel - distance[town][target]))
            arrivals += [(max(when + distance[s][target], low), tank - distance[s][target])
                         for s, when in full.items() if distance[s][target] <= tank]
        front = []
        for hour, fuel in sorted(arrivals, key=lambda a: (a[0], -a[1])):
            if hour <= high and (not front or fuel > front[-1][2]):
                front.append((target, hour, fuel))
        if not front:
            return False
    return True


def _sorted_orders(data: dict[str, Any], key: Any, cap: int = 24) -> list[list[int]]:
    """The parcel towns sorted by ``key`` of their window, ties in every order (at most ``cap`` orders)."""
    groups: dict[Any, list[int]] = {}
    for town, low, high in sorted(data["parcels"], key=lambda p: key(p[1], p[2])):
        groups.setdefault(key(low, high), []).append(town)
    return [[t for part in parts for t in part]
            for parts in itertools.islice(itertools.product(*map(itertools.permutations, groups.values())), cap)]


def _greedy_order(data: dict[str, Any], pick: Any) -> list[int]:
    """The order in which ``pick`` visits the parcel towns, driving straight from one to the next (fuel aside)."""
    state: dict[str, Any] = {"town": 0, "hour": 0, "delivered": []}
    order: list[int] = []
    for _ in data["parcels"]:
        target = pick(data, state, [p for p, _, _ in data["parcels"] if p not in order])
        low, _ = _window(data, target) or (0, 0)
        state = {"town": target, "hour": max(state["hour"] + _distance(data, state["town"], target), low)}
        order.append(target)
    return order


def _shortcut_wins(data: dict[str, Any]) -> bool:
    """Whether a cheap order wins with the best refuel and wait plan for it: the windows sorted by opening hour, by
    end or by midpoint (ties in any order), or the order a greedy rule (nearest town, nearest town still reachable
    in time, least slack) visits them in; or whether a declared rule, refuelling as it goes, wins."""
    world = _Map(data)
    orders = [*_sorted_orders(data, lambda low, high: (low, high)), *_sorted_orders(data, lambda low, high: high),
              *_sorted_orders(data, lambda low, high: low + high),
              *(_greedy_order(data, pick) for pick in (_nearest, _nearest_in_time, _least_slack))]
    return (any(_order_wins(world, order) for order in orders)
            or any(_rule_wins(data, pick, 40) for pick in (_earliest_deadline, _nearest, _nearest_in_time)))


def _least_slack(data: dict[str, Any], state: dict[str, Any], left: list[int]) -> int:
    return min(left, key=lambda p: ((_window(data, p) or (0, 0))[1] - _distance(data, state["town"], p), p))


def _draw(rng: random.Random, config: DeliveryRoute.Config) -> dict[str, Any] | None:
    count = config.parcels + config.stations + 1
    cells = rng.sample(range(SIDE * SIDE), count)
    points = [[c // SIDE, c % SIDE] for c in cells]
    names = rng.sample(TOWNS, count)
    towns = list(range(count))
    stations = [0, *towns[1:1 + config.stations]]
    stops = towns[1 + config.stations:]
    order = rng.sample(stops, len(stops))
    data: dict[str, Any] = {"towns": names, "points": points, "stations": stations}
    # Drive the drawn route with the tank: through a station (refuelling) when the next drive is too long for
    # the fuel left, and now and then anyway; its length bounds the search.
    tank = SIDE + 3 + config.tank
    town, hour, fuel, commands, arrivals = 0, 0, tank, 0, {}
    for stop in order:
        need = _distance(data, town, stop)
        if need > fuel or rng.random() < 0.3:
            choices = [s for s in stations if _distance(data, town, s) <= fuel and _distance(data, s, stop) <= tank]
            if not choices:
                return None
            station = rng.choice(choices)
            if station != town:
                hour, commands = hour + _distance(data, town, station), commands + 1
                town = station
            hour, fuel, commands = hour + 1, tank, commands + 1
            need = _distance(data, town, stop)
        hour, fuel, commands = hour + need, fuel - need, commands + 1
        arrivals[stop] = hour
        town = stop
    data["tank"] = tank
    # Windows do not retrace the route: half end within ``slack`` hours of its arrival, half up to ``late`` hours
    # after it (so the ends come in another order than the route's), and most open at hour 0 (a deadline only).
    parcels = []
    for stop in stops:
        arrival = arrivals[stop]
        tight = rng.random() < 0.5
        high = arrival + (rng.randint(0, config.slack) if tight else rng.randint(config.slack, config.late))
        low = max(0, arrival - rng.randint(0, config.slack)) if rng.random() < 0.3 else 0
        parcels.append([stop, low, high])
    data["parcels"] = parcels
    # The cheap orders are tested first (and the search is not cheap): an instance one of them wins is dropped.
    if _shortcut_wins(data):
        return None
    plan = _plan(data, (0, 0, data["tank"], 0), commands)
    if plan is None:
        return None
    data["plan"] = len(plan)
    return data
