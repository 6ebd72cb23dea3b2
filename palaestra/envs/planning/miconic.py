"""Miconic in PDDL: an elevator picks passengers up at their floors and drops them at their destinations.

The STRIPS Miconic domain of the planning competitions: ``board`` and ``depart`` at the
elevator's floor, ``up`` and ``down`` to any floor above or below (one action whatever the
distance); ``(above f1 f2)`` holds when ``f2`` is above ``f1``. Every passenger has a random
origin and a different destination; the elevator starts on a random floor. The prompt shows the
domain and the problem as PDDL; the plan is replayed by the STRIPS simulator of
:mod:`palaestra.envs.planning._strips` (any valid plan scores at levels 0-1; from level 2 it
must also be as short as possible).

Shortest plans come from A* over (elevator floor, each passenger waiting, aboard or served) with
an admissible heuristic: a waiting passenger needs a board and a depart, one aboard a depart, and
every floor other than the elevator's where someone waits or must get off needs a move there.

The textbook greedy (serve everyone who can board or leave at the elevator's floor, then go to the
floor where the most passengers can board or leave) found a shortest plan for 48% of level-4
problems. So from level 2 a draw is kept only when that greedy, breaking ties at random, reaches the
fewest floor visits with chance at most ``GREEDY_OPTIMAL_CHANCE`` (computed exactly over its ties).
Version 4 (red team, round 3 session 39): the nearest-floor greedy (the same, but going to the nearest floor
where someone can board or leave) was not filtered and found a shortest plan for 0.20, 0.20 and 0.18 of levels
2-4 (40 seeds a level, ties at random); draws are now kept only when both greedies are shortest with chance at
most ``GREEDY_OPTIMAL_CHANCE``: 0.03, 0.00, 0.00 (the textbook greedy 0.03, 0.03, 0.00).

Generation speed: about 55 problems/s at level 4 on this 2-core machine (70 before version 4). Each draw is
solved by A* over elevator floor and passenger states (about 80% of the time, the heuristic evaluated on every
pushed state), and the two tie-breaking greedies' chances of an optimal plan are computed exactly over all their
ties; about 7 draws in 10 at level 2 and 1 in 2 at level 4 are redrawn because a greedy is optimal too often (2 in 5
before version 4). The search proves the shortest length that levels 2-4 grade against, and the redraw keeps the
greedies from earning reward.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from palaestra.core import Problem, register, retry
from palaestra.envs.planning._strips import Action, Domain, Instance, PlanTask, Schema
from palaestra.solvers.simulate import Rules, SearchBudgetExceeded, shortest_plan

SEARCH_BUDGET = 30_000
GREEDY_OPTIMAL_CHANCE = Fraction(1, 4)  # the most chance the greedy may have of a shortest plan where one is asked
WAITING, ABOARD, SERVED = 0, 1, 2

State = tuple[int, tuple[int, ...]]  # (elevator floor, each passenger's status)
Move = tuple[str, int]  # ("go", floor), ("board", passenger), ("depart", passenger)


@cache
def miconic_domain() -> Domain:
    f, p = ("?f", "floor"), ("?p", "passenger")
    f1, f2 = ("?f1", "floor"), ("?f2", "floor")
    return Domain(
        "miconic",
        (("passenger", "object"), ("floor", "object")),
        (("origin", (p, f)), ("destin", (p, f)), ("above", (f1, f2)), ("boarded", (p,)), ("served", (p,)),
         ("lift-at", (f,))),
        (
            Schema("board", (f, p), (("lift-at", "?f"), ("origin", "?p", "?f")), (("boarded", "?p"),), ()),
            Schema("depart", (f, p), (("lift-at", "?f"), ("destin", "?p", "?f"), ("boarded", "?p")),
                   (("served", "?p"),), (("boarded", "?p"),)),
            Schema("up", (f1, f2), (("lift-at", "?f1"), ("above", "?f1", "?f2")), (("lift-at", "?f2"),),
                   (("lift-at", "?f1"),)),
            Schema("down", (f1, f2), (("lift-at", "?f1"), ("above", "?f2", "?f1")), (("lift-at", "?f2"),),
                   (("lift-at", "?f1"),)),
        ),
    )


@register
class Miconic(PlanTask):
    id = "planning/miconic"
    version = 4  # v4: the shortest-plan levels also redraw problems the nearest-floor greedy solves too often
    family = "planning"
    description = "Find a (shortest) plan for an elevator (Miconic) problem given in PDDL."
    tags = ("planning", "pddl", "strips")
    domain = miconic_domain()
    example = (("up", ("f8", "f9")), ("board", ("f9", "p9")))

    @dataclass(frozen=True)
    class Config:
        floors: int
        passengers: int
        optimal: bool

    presets = (
        Config(floors=5, passengers=3, optimal=False),
        Config(floors=6, passengers=4, optimal=False),
        Config(floors=7, passengers=5, optimal=True),
        Config(floors=8, passengers=6, optimal=True),
        Config(floors=9, passengers=7, optimal=True),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        floors = [f"f{i}" for i in range(config.floors)]
        people = [f"p{i + 1}" for i in range(config.passengers)]

        def draw() -> tuple[int, list[tuple[int, int]], list[Move]] | None:
            trips = [(start, end) for start, end in (rng.sample(range(config.floors), 2) for _ in people)]
            lift = rng.randrange(config.floors)
            greedy = _either_greedy(lift, trips) if config.optimal else {}
            stops = len({f for trip in trips for f in trip} - {lift})  # each needs a visit: a lower bound
            if greedy.get(stops, 0) > GREEDY_OPTIMAL_CHANCE:
                return None  # the greedy meets the lower bound too often: rejected before any search
            try:
                moves = shortest_plan(Elevator(lift, trips), max_nodes=SEARCH_BUDGET)
            except SearchBudgetExceeded:
                return None
            if moves is None or greedy.get(sum(kind == "go" for kind, _ in moves), 0) > GREEDY_OPTIMAL_CHANCE:
                return None
            return lift, trips, moves

        lift, trips, moves = retry(draw, attempts=1_000,
                                   what="an elevator problem solved within the search budget"
                                   + (" that the greedy rule rarely solves" if config.optimal else ""))
        init = {("lift-at", floors[lift])}
        init |= {("above", floors[i], floors[j]) for i in range(config.floors) for j in range(i + 1, config.floors)}
        for person, (origin, destination) in zip(people, trips):
            init |= {("origin", person, floors[origin]), ("destin", person, floors[destination])}
        instance = Instance(f"elevator-{config.floors}-{config.passengers}", self.domain,
                            tuple((p, "passenger") for p in people) + tuple((f, "floor") for f in floors),
                            frozenset(init), tuple(("served", p) for p in people))
        plan = _actions(lift, moves, floors, people)
        preamble = (f"An elevator serves {config.passengers} passengers in a building with {config.floors} floors "
                    f"(f0 is the lowest). Here is the planning task in PDDL.")
        return self.problem_for(instance, plan, config.optimal, preamble)


class Elevator(Rules[State, Move]):
    """The abstract Miconic puzzle: the elevator's floor and each passenger's status."""

    def __init__(self, lift: int, trips: list[tuple[int, int]]) -> None:
        self.lift, self.trips = lift, trips
        self.floors = sorted({f for trip in trips for f in trip})

    def initial(self) -> State:
        return self.lift, (WAITING,) * len(self.trips)

    def moves(self, state: State) -> list[Move]:
        lift, status = state
        moves: list[Move] = []
        for person, ((origin, destination), now) in enumerate(zip(self.trips, status)):
            if now == WAITING and origin == lift:
                moves.append(("board", person))
            elif now == ABOARD and destination == lift:
                moves.append(("depart", person))
        return moves + [("go", f) for f in self.floors if f != lift]

    def check(self, state: State, move: Move) -> str | None:
        return None  # moves() yields legal moves only

    def apply(self, state: State, move: Move) -> State:
        lift, status = state
        kind, arg = move
        if kind == "go":
            return arg, status
        return lift, status[:arg] + (ABOARD if kind == "board" else SERVED,) + status[arg + 1 :]

    def goal(self, state: State) -> bool:
        return all(s == SERVED for s in state[1])

    def heuristic(self, state: State) -> int:
        lift, status = state
        actions, stops = 0, set()
        for (origin, destination), now in zip(self.trips, status):
            if now == WAITING:
                actions += 2
                stops.update((origin, destination))
            elif now == ABOARD:
                actions += 1
                stops.add(destination)
        stops.discard(lift)
        return actions + len(stops)


def _either_greedy(lift: int, trips: list[tuple[int, int]]) -> dict[int, Fraction]:
    """For each number of floor moves, the larger chance that the textbook greedy or the nearest-floor greedy makes
    that many (version 4: the nearest-floor one was shortest on 0.20, 0.20 and 0.18 of levels 2-4)."""
    most, nearest = greedy_visits(lift, trips), greedy_visits(lift, trips, nearest=True)
    return {count: max(most.get(count, Fraction(0)), nearest.get(count, Fraction(0))) for count in most | nearest}


def greedy_visits(lift: int, trips: list[tuple[int, int]], nearest: bool = False) -> dict[int, Fraction]:
    """How many floor moves the textbook greedy makes, with the chance of each: at each floor everyone who can
    board or leave does, then the elevator goes to a floor where the most passengers can board or leave (with
    ``nearest``: the nearest floor where someone can board or leave), ties broken uniformly at random."""

    @cache
    def visits(floor: int, status: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...]]:
        """(denominator, each (moves, chance's numerator)): chances as ints over one denominator, exact and cheaper
        than fractions (the greedy's tie tree is most of a rejected draw's cost)."""
        status = tuple(SERVED if now == ABOARD and destination == floor else now
                       for (_, destination), now in zip(trips, status))
        status = tuple(ABOARD if now == WAITING and origin == floor else now for (origin, _), now in zip(trips, status))
        if all(now == SERVED for now in status):
            return 1, ((0, 1),)
        pending: dict[int, int] = {}
        for (origin, destination), now in zip(trips, status):
            if now != SERVED:
                stop = origin if now == WAITING else destination
                pending[stop] = pending.get(stop, 0) + 1
        if nearest:
            closest = min(abs(f - floor) for f in pending)
            chosen = [f for f in pending if abs(f - floor) == closest]
        else:
            most = max(pending.values())
            chosen = [f for f, count in pending.items() if count == most]
        branches = [visits(f, status) for f in chosen]
        common = math.lcm(*(denominator for denominator, _ in branches))
        total: dict[int, int] = {}
        for denominator, chances in branches:
            for count, numerator in chances:
                total[count + 1] = total.get(count + 1, 0) + numerator * (common // denominator)
        return common * len(branches), tuple(total.items())

    denominator, chances = visits(lift, (WAITING,) * len(trips))
    return {count: Fraction(numerator, denominator) for count, numerator in chances}


def _actions(lift: int, moves: list[Move], floors: list[str], people: list[str]) -> list[Action]:
    plan: list[Action] = []
    for kind, arg in moves:
        if kind == "go":
            plan.append(("up" if arg > lift else "down", (floors[lift], floors[arg])))
            lift = arg
        else:
            plan.append((kind, (floors[lift], people[arg])))
    return plan
