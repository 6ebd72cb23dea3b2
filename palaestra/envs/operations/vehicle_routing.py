"""Capacitated vehicle routing: delivery routes from a depot that serve every customer at the least total distance.

Customers on a street grid (distances are Manhattan: blocks east-west plus blocks north-south) each
need a number of crates; every route starts and ends at the depot and carries at most the van's
capacity; any number of routes may be used. The answer lists the routes, one per line (or separated by semicolons), customers in
visiting order. The optimum comes from exact dynamic programming at generation: the shortest tour of
every set of customers one van can carry (Held-Karp), then the cheapest partition of all customers
into such sets. From level 2 on, instances are redrawn until the textbook Clarke-Wright savings
method is not optimal. At every level (version 3) instances are redrawn until the routes that are optimal for
straight-line distances are not optimal on the streets: ignoring the Manhattan metric answered 0.96, 0.84, 0.84
and 0.80 of levels 0 to 3 before, now 0. The verifier accepts **any** set of routes that visits every customer once,
respects the capacity, and has the optimal total distance.

Generation speed: about 500 problems/s at level 4. Each draw's optimum comes from exact dynamic programming (Held-
Karp over every set of customers one van can carry, then the cheapest partition), and about 3 in 4 draws are
redrawn because the Clarke-Wright savings method is already optimal; both are kept so that the answer is the true
optimum and the textbook method does not earn reward. Version 3 redraws most of the rest (a second Held-Karp, on
straight-line distances): about 50 ms of CPU per problem from level 6 on.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

MAX_CHARS = 4_000
_LABEL = r"(?:(?:route|van|vehicle)\s*\d{0,3}\s*[:.)-]?|\d{1,3}[:.)])"
# a line's label: "Route 2:", "2.", a bullet ("- ", "* ", "• ") with or without one
_ROUTE_LABEL = re.compile(rf"^\s*(?:[-*•]\s*{_LABEL}?|{_LABEL})\s*", re.IGNORECASE)
_SEPARATORS = re.compile(r"->|→|—|,|\s+-\s+|\s+")
_DEPOT_WORDS = {"d", "depot", "0"}  # the depot named at a route's ends: "Depot C2 C5 depot", "D C2 D", "0 C2 C5 0"


@register
class VehicleRouting(Task):
    id = "operations/vehicle_routing"
    family = "operations"
    description = "Capacitated delivery routes from a depot serving every customer at least total distance (any optimum)."
    tags = ("operations-research", "routing", "optimization", "np-hard")
    multiline = True
    version = 3  # v2: level 0 has 5 customers; v3: straight-line distances give a wrong answer

    @dataclass(frozen=True)
    class Config:
        customers: int
        grid: int
        beat_savings: bool

    presets = (
        Config(customers=5, grid=8, beat_savings=False),  # v2: 4 customers, one set of routes paid 15%
        Config(customers=5, grid=10, beat_savings=False),
        Config(customers=6, grid=10, beat_savings=True),
        Config(customers=7, grid=12, beat_savings=True),
        Config(customers=8, grid=12, beat_savings=True),
    )
    growth = Growth(steps={"customers": 1, "grid": 2}, limits={"customers": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, g = config.customers, config.grid

        def draw() -> tuple[list[tuple[int, int]], list[int], int]:
            cells = rng.sample([(x, y) for x in range(g + 1) for y in range(g + 1) if (x, y) != (g // 2, g // 2)], n)
            demand = [rng.randint(1, 6) for _ in range(n)]
            capacity = max(max(demand), -(-sum(demand) * rng.randint(30, 55) // 100))  # two to four vans' worth
            return [(g // 2, g // 2), *cells], demand, capacity

        def acceptable(instance: tuple[list[tuple[int, int]], list[int], int]) -> bool:
            points, demand, capacity = instance
            distance = _distances(points)
            solved[:] = [instance, optimal_routes(distance, demand, capacity)]  # kept: the last one is accepted
            if config.beat_savings and total_distance(distance, savings_routes(distance, demand, capacity)) == solved[1][1]:
                return False
            # v3: the street metric must matter: the routes that are shortest in straight lines are not optimal
            straight = [[round(1000 * math.dist(a, b)) for b in points] for a in points]  # in thousandths of a block
            return total_distance(distance, optimal_routes(straight, demand, capacity)[0]) > solved[1][1]

        solved: list = []
        points, demand, capacity = retry(draw, acceptable,
                                         what="a routing problem neither the savings method nor straight lines solve")
        routes, best = solved[1]  # the accepted instance's optimum, found in ``acceptable``
        names = [f"C{i + 1}" for i in range(n)]
        rows = "\n".join(f"  {name} at ({x}, {y}), needs {d} crates" for name, (x, y), d in zip(names, points[1:], demand))
        example = "\n".join(" ".join(rng.sample(names, min(2, n))) for _ in range(2))  # independent of the answer
        prompt = (
            f"A depot at ({points[0][0]}, {points[0][1]}) delivers crates to customers on a street grid:\n{rows}\n\n"
            "Distances are along the streets: |x1 - x2| + |y1 - y2| blocks. Vans each carry at most "
            f"{capacity} crates; each route leaves the depot, visits some customers and returns to the depot, and "
            "any number of routes may be used. Serve every customer exactly once with the smallest possible total "
            "distance. Give one route per line, the customers in visiting order (the depot at both ends is implied), "
            f"for example:\n{example}"
        )
        answer = "\n".join(" ".join(names[c - 1] for c in route) for route in routes)
        return Problem(prompt=prompt, answer=answer, data={
            "points": [list(p) for p in points], "demand": demand, "capacity": capacity, "optimum": best})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        points, demand, capacity = problem.data["points"], problem.data["demand"], problem.data["capacity"]
        names = [f"C{i + 1}" for i in range(len(demand))]
        routes = read_routes(answer, names)
        if routes is None:
            return Verdict.unparsed("expected one route per line: customer names in visiting order, e.g. C2 C5")
        seen: set[int] = set()
        for route in routes:
            for c in route:
                if c in seen:
                    return Verdict.wrong(f"{names[c - 1]} is visited twice")
                seen.add(c)
            load = sum(demand[c - 1] for c in route)
            if load > capacity:
                return Verdict.wrong(f"the route {' '.join(names[c - 1] for c in route)} carries {load} crates, "
                                     f"more than {capacity}")
        missing = [names[i] for i in range(len(names)) if i + 1 not in seen]
        if missing:
            return Verdict.wrong(f"{missing[0]} is not visited")
        total = total_distance(_distances([tuple(p) for p in points]), routes)
        return Verdict.judge(total == problem.data["optimum"], f"total distance {total} is not the smallest")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def savings(problem: Problem) -> str:
            data = problem.data
            routes = savings_routes(_distances([tuple(p) for p in data["points"]]), data["demand"], data["capacity"])
            return "\n".join(" ".join(f"C{c}" for c in route) for route in routes)

        return {"Clarke-Wright savings": savings}

    def difficulty(self, problem: Problem) -> float:
        """Customers, plus the routes the optimum uses, plus a tenth of its total distance (longer streets, more
        combinations close in length)."""
        data = problem.data
        return len(data["demand"]) + len((problem.answer or "").splitlines()) + data["optimum"] / 10

    def spellings(self, problem: Problem) -> list[str]:
        routes = [line.split() for line in (problem.answer or "").splitlines()]
        return [*super().spellings(problem), "\n".join(" ".join(reversed(r)) for r in reversed(routes)),
                "\n".join(f"Route {i}: depot -> {' -> '.join(r)} -> depot" for i, r in enumerate(routes, 1)),
                "\n".join(", ".join(r) for r in routes)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        routes = [line.split() for line in (problem.answer or "").splitlines()]
        wrong = ["\n".join(" ".join(r) for r in routes[:-1]) if len(routes) > 1 else " ".join(routes[0][:-1]),
                 "\n".join([*(" ".join(r) for r in routes), routes[0][0]])]
        merged = [r for route in routes for r in route]
        if sum(problem.data["demand"]) > problem.data["capacity"]:
            wrong.append(" ".join(merged))  # one van cannot carry everything
        return [w for w in wrong if w.strip()]


def read_routes(text: str, names: Sequence[str]) -> list[list[int]] | None:
    """Routes as lists of customer numbers (1-based), one a line (or separated by semicolons), else None."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    return read_answer(text, lambda s: _routes_core(s, names))


def _routes_core(text: str, names: Sequence[str]) -> list[list[int]] | None:
    lookup = {name.lower(): i + 1 for i, name in enumerate(names)}
    routes = []
    for line in text.strip().strip("`").replace(";", "\n").splitlines():  # "C2 C5; C1; C3 C4": one route per part
        if not line.strip():
            continue
        tokens = [t for t in _SEPARATORS.split(_ROUTE_LABEL.sub("", line, count=1).strip()) if t]
        while tokens and tokens[0].lower() in _DEPOT_WORDS:
            tokens = tokens[1:]
        while tokens and tokens[-1].lower() in _DEPOT_WORDS:
            tokens = tokens[:-1]
        if not tokens or any(t.lower() not in lookup for t in tokens):
            return None
        routes.append([lookup[t.lower()] for t in tokens])
    return routes or None


def _distances(points: Sequence[tuple[int, int]]) -> list[list[int]]:
    return [[abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in points] for a in points]


def total_distance(distance: Sequence[Sequence[int]], routes: Sequence[Sequence[int]]) -> int:
    return sum(distance[0][r[0]] + sum(distance[a][b] for a, b in zip(r, r[1:])) + distance[r[-1]][0]
               for r in routes if r)


def savings_routes(distance: Sequence[Sequence[int]], demand: Sequence[int], capacity: int) -> list[list[int]]:
    """Clarke-Wright (parallel): start with one route per customer, merge route ends in order of decreasing
    savings d(0,i) + d(0,j) - d(i,j) while the load fits (ties by customer numbers)."""
    n = len(demand)
    routes: dict[int, list[int]] = {i: [i] for i in range(1, n + 1)}  # keyed by a route id
    where = {i: i for i in range(1, n + 1)}
    pairs = sorted(((distance[0][i] + distance[0][j] - distance[i][j], i, j) for i in range(1, n + 1)
                    for j in range(i + 1, n + 1)), key=lambda t: (-t[0], t[1], t[2]))
    for saving, i, j in pairs:
        if saving <= 0:
            break
        ri, rj = where[i], where[j]
        if ri == rj:
            continue
        a, b = routes[ri], routes[rj]
        if sum(demand[c - 1] for c in a + b) > capacity:
            continue
        if a[-1] == i and b[0] == j:
            merged = a + b
        elif a[0] == i and b[-1] == j:
            merged = b + a
        elif a[-1] == i and b[-1] == j:
            merged = a + b[::-1]
        elif a[0] == i and b[0] == j:
            merged = a[::-1] + b
        else:
            continue  # i or j is inside its route: no merge at the ends
        routes[ri] = merged
        del routes[rj]
        for c in merged:
            where[c] = ri
    return list(routes.values())


def optimal_routes(distance: Sequence[Sequence[int]], demand: Sequence[int], capacity: int) -> tuple[list[list[int]], int]:
    """(optimal routes, total distance): Held-Karp tours of every van-load of customers, then the cheapest partition."""
    n = len(demand)
    full = (1 << n) - 1
    load = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        load[mask] = load[mask & (mask - 1)] + demand[low]
    infinity = 1 << 40
    members = [[i for i in range(n) if mask >> i & 1] for mask in range(full + 1)]
    arriving = [[distance[before + 1][last + 1] for before in range(n)] for last in range(n)]
    # tour[mask][last]: the shortest path from the depot through mask ending at customer `last` (0-based)
    tour: dict[int, list[int]] = {}
    came: dict[int, list[int]] = {}
    route_cost = [infinity] * (full + 1)
    route_end = [-1] * (full + 1)
    for mask in range(1, full + 1):
        if load[mask] > capacity:
            continue
        costs, parents = [infinity] * n, [-1] * n
        for last in members[mask]:  # only customers in the mask: the others stay at infinity
            rest = mask & ~(1 << last)
            if rest == 0:
                costs[last] = distance[0][last + 1]
                continue
            previous, into = tour[rest], arriving[last]
            for before in members[rest]:  # ascending, so the first of equal costs is kept, as before
                if previous[before] + into[before] < costs[last]:
                    costs[last], parents[last] = previous[before] + into[before], before
        tour[mask], came[mask] = costs, parents
        for last in members[mask]:
            if costs[last] + distance[last + 1][0] < route_cost[mask]:
                route_cost[mask], route_end[mask] = costs[last] + distance[last + 1][0], last
    best = [0] + [infinity] * full
    choice = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        others = mask ^ low
        part = others
        while True:  # every sub-mask holding the lowest customer (the route that serves it), largest first
            sub = part | low
            if route_cost[sub] < infinity and best[mask ^ sub] + route_cost[sub] < best[mask]:
                best[mask], choice[mask] = best[mask ^ sub] + route_cost[sub], sub
            if not part:
                break
            part = (part - 1) & others
    routes, mask = [], full
    while mask:
        sub = choice[mask]
        order, last, rest = [], route_end[sub], sub
        while last >= 0:
            order.append(last + 1)
            last, rest = came[rest][last], rest & ~(1 << last)
        routes.append(order[::-1])
        mask ^= sub
    return sorted(routes), best[full]
