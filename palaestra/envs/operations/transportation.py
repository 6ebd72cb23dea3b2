"""The transportation problem: ship goods from plants to markets at the smallest total cost.

Plants have supplies, markets have demands (the totals are equal), and each plant-market route has
a cost per unit. The answer is a shipment plan, one line per plant with the amount sent to each
market, that uses up every supply, meets every demand exactly, and costs as little as possible.
The optimum comes from a minimum-cost flow (successive shortest paths with Bellman-Ford on the
residual network, integers throughout; transportation problems have integral optima). From level
2 on, instances are redrawn until the textbook least-cost-cell method (fill the cheapest route as
far as it goes, then the next cheapest) is not optimal, and neither is Vogel's approximation (serve
first the row or column whose two cheapest open routes differ most, on its cheapest route; it solved
48% of level-4 problems when only the least-cost method was beaten), nor Russell's approximation (ship on
the open route whose cost minus its row's and its column's largest open costs is the most negative; version 2
left it optimal in 47%, 47% and 28% of the problems at levels 2-4, version 3 in none). The verifier accepts
**any** feasible plan of whole units whose cost equals the optimum.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

MAX_CHARS = 4_000
_ROW_LABEL = re.compile(r"^\s*(?:P\d{1,3}\s*[:|]?)?\s*")
_CELL = re.compile(r"\d{1,7}")


@register
class Transportation(Task):
    id = "operations/transportation"
    family = "operations"
    description = "Ship goods from plants to markets meeting supplies and demands at minimum cost (any optimal plan)."
    tags = ("operations-research", "optimization", "network-flow")
    multiline = True
    version = 3  # v3: from level 2 on, Russell's approximation is not optimal either

    @dataclass(frozen=True)
    class Config:
        plants: int
        markets: int
        beat_greedy: bool

    presets = (
        Config(plants=2, markets=3, beat_greedy=False),
        Config(plants=3, markets=3, beat_greedy=False),
        Config(plants=3, markets=4, beat_greedy=True),
        Config(plants=4, markets=4, beat_greedy=True),
        Config(plants=4, markets=5, beat_greedy=True),
    )
    growth = Growth(steps={"plants": 1, "markets": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        m, n = config.plants, config.markets

        def draw() -> tuple[list[int], list[int], list[list[int]]]:
            demand = [rng.randrange(10, 61, 5) for _ in range(n)]
            total = sum(demand)
            cuts = sorted(rng.sample(range(1, total // 5), m - 1))
            supply = [5 * (b - a) for a, b in zip([0, *cuts], [*cuts, total // 5])]
            cost = [[rng.randint(1, 20) for _ in range(n)] for _ in range(m)]
            return supply, demand, cost

        def acceptable(instance: tuple[list[int], list[int], list[list[int]]]) -> bool:
            supply, demand, cost = instance
            if not config.beat_greedy:
                return True
            best = plan_cost(cost, optimal_plan(supply, demand, cost))
            return all(plan_cost(cost, rule(supply, demand, cost)) > best for rule in (least_cost_plan, vogel_plan,
                                                                                      russell_plan))

        supply, demand, cost = retry(draw, acceptable, attempts=400,
                                     what="a transportation problem the least-cost, Vogel and Russell methods miss")
        plan = optimal_plan(supply, demand, cost)
        header = "      " + " ".join(f"{f'M{j + 1}':>4}" for j in range(n)) + "  supply"
        rows = "\n".join(f"P{i + 1:<4} " + " ".join(f"{c:>4}" for c in cost[i]) + f"  {supply[i]:>6}" for i in range(m))
        example = "\n".join(" ".join(str(5 * ((i + j) % 3)) for j in range(n)) for i in range(m))  # a fixed shape
        prompt = (
            f"Plants P1 to P{m} ship a product to markets M1 to M{n}. Cost per unit on each route, and each plant's "
            f"supply:\n{header}\n{rows}\ndemand " + " ".join(f"{d:>4}" for d in demand) + "\n\n"
            "Ship every plant's whole supply and meet every market's demand exactly, in whole units, at the smallest "
            f"possible total cost. Give the plan as {m} lines, one per plant in order, each with the amounts shipped to "
            f"M1 to M{n} separated by spaces, for example:\n{example}"
        )
        answer = "\n".join(" ".join(map(str, row)) for row in plan)
        return Problem(prompt=prompt, answer=answer, data={
            "supply": supply, "demand": demand, "cost": cost, "optimum": plan_cost(cost, plan)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        supply, demand, cost = problem.data["supply"], problem.data["demand"], problem.data["cost"]
        plan = read_plan(answer, len(supply), len(demand))
        if plan is None:
            return Verdict.unparsed(f"expected {len(supply)} lines of {len(demand)} whole amounts each")
        for i, row in enumerate(plan):
            if sum(row) != supply[i]:
                return Verdict.wrong(f"P{i + 1} ships {sum(row)}, not its supply {supply[i]}")
        for j in range(len(demand)):
            received = sum(row[j] for row in plan)
            if received != demand[j]:
                return Verdict.wrong(f"M{j + 1} receives {received}, not its demand {demand[j]}")
        total = plan_cost(cost, plan)
        return Verdict.judge(total == problem.data["optimum"], f"the plan costs {total}, which is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def least_cost(problem: Problem) -> str:
            data = problem.data
            return "\n".join(" ".join(map(str, row)) for row in least_cost_plan(data["supply"], data["demand"],
                                                                                data["cost"]))

        def vogel(problem: Problem) -> str:
            data = problem.data
            return "\n".join(" ".join(map(str, row)) for row in vogel_plan(data["supply"], data["demand"], data["cost"]))

        def russell(problem: Problem) -> str:
            data = problem.data
            return "\n".join(" ".join(map(str, row)) for row in russell_plan(data["supply"], data["demand"],
                                                                             data["cost"]))

        return {"least-cost cell first": least_cost, "Vogel's approximation": vogel, "Russell's approximation": russell}

    def difficulty(self, problem: Problem) -> float:
        """Routes (plants times markets), plus half the routes the optimal plan uses, plus a quarter of the routes
        whose amounts differ between Vogel's plan and the optimal one (the improvement work left from the textbook
        start; from level 2 on every optimal plan uses m + n - 1 routes, so that count alone hardly varies)."""
        data = problem.data
        cells = (problem.answer or "").split()
        used = sum(cell != "0" for cell in cells)
        vogel = [amount for row in vogel_plan(data["supply"], data["demand"], data["cost"]) for amount in row]
        differing = sum(str(a) != b for a, b in zip(vogel, cells))
        return len(data["supply"]) * len(data["demand"]) + used / 2 + differing / 4

    def spellings(self, problem: Problem) -> list[str]:
        rows = (problem.answer or "").splitlines()
        return [*super().spellings(problem), "\n".join(", ".join(r.split()) for r in rows),
                "\n".join(f"P{i + 1}: {r}" for i, r in enumerate(rows)), "```\n" + (problem.answer or "") + "\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        plan = [[int(c) for c in r.split()] for r in (problem.answer or "").splitlines()]
        moved = [row[:] for row in plan]
        moved[0][0] += 5  # supply and demand broken
        swapped = [row[::-1] for row in plan]
        wrong = ["\n".join(" ".join(map(str, r)) for r in moved), "\n".join((problem.answer or "").splitlines()[:-1])]
        if plan_cost(problem.data["cost"], swapped) != problem.data["optimum"] or \
                any(sum(r) != s for r, s in zip(swapped, problem.data["supply"])):
            wrong.append("\n".join(" ".join(map(str, r)) for r in swapped))
        return wrong


def read_plan(text: str, plants: int, markets: int) -> list[list[int]] | None:
    """``plants`` lines of ``markets`` whole amounts (spaces or commas; an optional ``P1:`` label), else None."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    return read_answer(text, lambda s: _plan_core(s, plants, markets))


def _plan_core(text: str, plants: int, markets: int) -> list[list[int]] | None:
    lines = [line for line in text.strip().strip("`").splitlines() if line.strip()]
    if len(lines) != plants:
        return None
    plan = []
    for line in lines:
        body = _ROW_LABEL.sub("", line, count=1).replace(",", " ").strip()
        cells = body.split()
        if len(cells) != markets or not all(_CELL.fullmatch(c) for c in cells):
            return None
        plan.append([int(c) for c in cells])
    return plan


def plan_cost(cost: Sequence[Sequence[int]], plan: Sequence[Sequence[int]]) -> int:
    return sum(c * x for cost_row, plan_row in zip(cost, plan) for c, x in zip(cost_row, plan_row))


def least_cost_plan(supply: Sequence[int], demand: Sequence[int], cost: Sequence[Sequence[int]]) -> list[list[int]]:
    """The least-cost-cell method: the cheapest route first (lowest plant, then market, on ties), as much as fits."""
    left, wanted = list(supply), list(demand)
    plan = [[0] * len(demand) for _ in supply]
    for c, i, j in sorted((cost[i][j], i, j) for i in range(len(supply)) for j in range(len(demand))):
        amount = min(left[i], wanted[j])
        plan[i][j] += amount
        left[i] -= amount
        wanted[j] -= amount
    return plan


def _ship(plan: list[list[int]], left: list[int], wanted: list[int], rows: set[int], columns: set[int], i: int,
          j: int) -> None:
    """Ship as much as fits from plant ``i`` to market ``j``; close the plant or market that is done."""
    amount = min(left[i], wanted[j])
    plan[i][j] += amount
    left[i] -= amount
    wanted[j] -= amount
    if left[i] == 0:
        rows.discard(i)
    if wanted[j] == 0:
        columns.discard(j)


def vogel_plan(supply: Sequence[int], demand: Sequence[int], cost: Sequence[Sequence[int]]) -> list[list[int]]:
    """Vogel's approximation: among the open rows and columns, the one whose two cheapest open routes differ
    most (its only route's cost when one is left; ties: the cheaper route, then rows before columns, lower
    index) ships as much as fits on its cheapest open route; a plant or market that is done closes."""
    left, wanted = list(supply), list(demand)
    plan = [[0] * len(demand) for _ in supply]
    rows, columns = set(range(len(supply))), set(range(len(demand)))

    def penalty(costs: list[int]) -> int:
        ordered = sorted(costs)
        return ordered[1] - ordered[0] if len(ordered) > 1 else ordered[0]

    for _ in range(len(supply) + len(demand)):  # bounded: each step closes a row or a column
        if not rows or not columns:
            break
        candidates = [(-penalty([cost[i][j] for j in columns]), min(cost[i][j] for j in columns), 0, i) for i in rows]
        candidates += [(-penalty([cost[i][j] for i in rows]), min(cost[i][j] for i in rows), 1, j) for j in columns]
        _, _, is_column, index = min(candidates)
        if is_column:
            i, j = min(rows, key=lambda r: (cost[r][index], r)), index
        else:
            i, j = index, min(columns, key=lambda c: (cost[index][c], c))
        _ship(plan, left, wanted, rows, columns, i, j)
    return plan


def russell_plan(supply: Sequence[int], demand: Sequence[int], cost: Sequence[Sequence[int]]) -> list[list[int]]:
    """Russell's approximation: with u_i the largest open cost in row i and v_j in column j, the open route of the
    most negative cost - u_i - v_j (ties: lower plant, then market) ships as much as fits; a plant or market that
    is done closes."""
    left, wanted = list(supply), list(demand)
    plan = [[0] * len(demand) for _ in supply]
    rows, columns = set(range(len(supply))), set(range(len(demand)))
    for _ in range(len(supply) + len(demand)):  # bounded: each step closes a row or a column
        if not rows or not columns:
            break
        u = {i: max(cost[i][j] for j in columns) for i in rows}
        v = {j: max(cost[i][j] for i in rows) for j in columns}
        _, i, j = min((cost[i][j] - u[i] - v[j], i, j) for i in rows for j in columns)
        _ship(plan, left, wanted, rows, columns, i, j)
    return plan


def optimal_plan(supply: Sequence[int], demand: Sequence[int], cost: Sequence[Sequence[int]]) -> list[list[int]]:
    """A minimum-cost plan by successive shortest paths: source -> plants -> markets -> sink, residual costs."""
    m, n = len(supply), len(demand)
    source, sink = m + n, m + n + 1
    size = m + n + 2
    capacity: dict[tuple[int, int], int] = {}
    weight: dict[tuple[int, int], int] = {}

    def arc(a: int, b: int, cap: int, w: int) -> None:
        capacity[a, b], weight[a, b] = cap, w
        capacity.setdefault((b, a), 0)
        weight[b, a] = -w

    unlimited = sum(supply)
    for i in range(m):
        arc(source, i, supply[i], 0)
        for j in range(n):
            arc(i, m + j, unlimited, cost[i][j])
    for j in range(n):
        arc(m + j, sink, demand[j], 0)
    arcs = list(capacity)
    for _ in range(unlimited):  # each augmentation moves at least one unit
        distance: list[int | None] = [None] * size
        parent: list[int | None] = [None] * size
        distance[source] = 0
        for _ in range(size - 1):  # Bellman-Ford: residual costs may be negative
            changed = False
            for a, b in arcs:
                da, db = distance[a], distance[b]
                if capacity[a, b] > 0 and da is not None and (db is None or da + weight[a, b] < db):
                    distance[b], parent[b] = da + weight[a, b], a
                    changed = True
            if not changed:
                break
        if distance[sink] is None:
            break
        path, node = [], sink
        while node != source:
            previous = parent[node]
            assert previous is not None
            path.append((previous, node))
            node = previous
        push = min(capacity[e] for e in path)
        for a, b in path:
            capacity[a, b] -= push
            capacity[b, a] += push
    return [[capacity[m + j, i] for j in range(n)] for i in range(m)]
