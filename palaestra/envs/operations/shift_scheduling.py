"""Cyclic shift scheduling: how many workers start their working block on each day, covering demand with fewest workers.

A service runs on a repeating cycle of n days (day n is followed by day 1); every worker works k
consecutive days of the cycle (k = n - 2: two consecutive days off), starting on a day of their
choice, and day j needs at least d_j workers on duty. The answer gives, for every day, how many
workers start their block that day; the verifier checks that every count is a whole number >= 0,
that every day's demand is covered and that the total is the minimum. That minimum (an integer
program whose cyclic coverage rows make rounding the LP unreliable) is found at generation by
trying totals upwards, each tested exactly by a dynamic program over the days-off pairs round the
cycle (see :func:`optimal_starts`). From level 2 on, problems are redrawn until each textbook rule
needs more workers than the minimum: the greedy (add a worker on the start day that covers the most
unmet demand, repeatedly) and rounding the LP relaxation (up; or down, then repaired greedily and
stripped of spare workers). The minimum always equals the LP bound rounded up, so the roundings of
the relaxation's vertex were optimal in most problems of version 1. Version 3 applies that LP filter at
every level (version 2 stopped at the presets' 8 days, where the exact LP in fractions got too slow; solvers.lp
now pivots in whole numbers, about twenty times faster; so
the roundings solved 72-99% of the problems from level 5 on) and, past 8 days, draws the demands from a
band near the top (a wide band leaves the largest demand as the bound: the LP is integral and rounding
it exact).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.solvers.lp import maximise
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import read_integer


@register
class ShiftScheduling(Task):
    id = "operations/shift_scheduling"
    family = "operations"
    description = "Cyclic staffing: workers starting each day (k consecutive days on) to cover daily demand with fewest workers."
    tags = ("operations-research", "scheduling", "optimization", "integer-programming")
    version = 3  # v2: from level 2 on, rounding the LP relaxation (up, or down and repaired) is not optimal either;
    # v3: that holds past the presets too (version 2 stopped the LP filter at 8 days), demands drawn near the top there

    @dataclass(frozen=True)
    class Config:
        days: int
        max_demand: int
        beat_greedy: bool

    presets = (
        Config(days=5, max_demand=7, beat_greedy=False),
        Config(days=6, max_demand=8, beat_greedy=False),
        Config(days=7, max_demand=10, beat_greedy=True),
        Config(days=7, max_demand=14, beat_greedy=True),
        Config(days=8, max_demand=16, beat_greedy=True),
    )
    growth = Growth(steps={"days": 1, "max_demand": 2}, limits={"days": 14})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, k = config.days, config.days - 2

        floor = demand_floor(n, config.max_demand)

        def draw() -> list[int]:
            return [rng.randint(floor, config.max_demand) for _ in range(n)]

        def acceptable(demand: list[int]) -> bool:
            if not config.beat_greedy:
                return True
            best = optimal_starts(demand, k)[1]
            if sum(greedy_starts(demand, k)) == best:  # the cheap rule first
                return False
            relaxed = relaxed_starts(demand, k)
            up, down = [math.ceil(v) for v in relaxed], [math.floor(v) for v in relaxed]
            return sum(up) > best and sum(_repaired(demand, k, down)) > best

        demand = retry(draw, acceptable, what="a staffing problem the greedy does not solve")
        starts, total, tries = optimal_starts(demand, k)
        days = [f"D{j + 1}" for j in range(n)]
        table = "\n".join(f"  {day}: {need}" for day, need in zip(days, demand))
        example = ", ".join(f"{day} = {(3, 0, 1, 5)[j % 4]}" for j, day in enumerate(days))
        prompt = (
            f"A service runs on a repeating cycle of {n} days, D1 to D{n} (after D{n} comes D1 again). Every worker "
            f"works {k} consecutive days of the cycle and then has 2 consecutive days off; each worker's block may "
            f"start on any day (a block starting on D{n} continues with D1, D2, ...). The number of workers needed "
            f"on duty each day:\n{table}\n\nEvery day must have at least the number needed on duty. Use as few workers "
            "as possible: give, for every day, the number of workers whose block starts that day (whole numbers, 0 "
            f"allowed), e.g. {example}."
        )
        answer = ", ".join(f"{day} = {count}" for day, count in zip(days, starts))
        return Problem(prompt=prompt, answer=answer, data={"demand": demand, "workers": total, "tries": tries})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        demand = problem.data["demand"]
        n = len(demand)
        days = [f"D{j + 1}" for j in range(n)]
        values = read_values(answer, days, read_integer)
        if values is None:
            return Verdict.unparsed("expected a whole number of starting workers for every day, e.g. D1 = 2, D2 = 0, ...")
        starts = [values[day] for day in days]
        if any(v < 0 for v in starts):
            return Verdict.wrong("a count of workers is negative")
        on_duty = coverage(starts, n - 2)
        for day, need, have in zip(days, demand, on_duty):
            if have < need:
                return Verdict.wrong(f"{day} has {have} workers on duty but needs {need}")
        total = sum(starts)
        return Verdict.judge(total == problem.data["workers"], f"these starts use {total} workers, which is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def spelled(rule: Callable[[Sequence[int], int], list[int]]) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                demand = problem.data["demand"]
                return ", ".join(f"D{j + 1} = {v}" for j, v in enumerate(rule(demand, len(demand) - 2)))
            return answer

        return {name: spelled(rule) for name, rule in RULES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Twice the days plus half the workers needed, plus the totals tried above the simple lower bound (how far
        the cyclic coverage pushes the answer past max(max d, ceil(sum d / k))). The days count twice since version
        2, whose LP filter of levels 2-4 selected problems further above that bound than level 5's."""
        return 2 * len(problem.data["demand"]) + problem.data["workers"] / 2 + 2 * (problem.data["tries"] - 1)

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), "\n".join(pairs), "; ".join(pairs) + ".",
                ", ".join(p.replace(" = ", ": ") for p in reversed(pairs)), "\\boxed{" + ", ".join(pairs) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        demand = problem.data["demand"]
        n = len(demand)
        starts = [int(p.split(" = ")[1]) for p in (problem.answer or "").split(", ")]

        def spelled(values: Sequence[int]) -> str:
            return ", ".join(f"D{j + 1} = {v}" for j, v in enumerate(values))

        busiest = max(range(n), key=lambda j: starts[j])
        fewer = [v - 1 if j == busiest else v for j, v in enumerate(starts)]  # one worker short somewhere
        more = [v + 1 if j == 0 else v for j, v in enumerate(starts)]  # covered, but one worker too many
        return [spelled(fewer), spelled(more), spelled(starts[:-1]),
                spelled(starts) + " or " + spelled(more), spelled([-v if j == 0 else v for j, v in enumerate(more)])]


def coverage(starts: Sequence[int], k: int) -> list[int]:
    """Workers on duty each day when ``starts[s]`` workers begin a k-day block on day s (cyclically)."""
    n = len(starts)
    return [sum(starts[(j - i) % n] for i in range(k)) for j in range(n)]


def greedy_starts(demand: Sequence[int], k: int) -> list[int]:
    """Add one worker at a time on the start day covering the most still-unmet demand (first such day on ties)."""
    n = len(demand)
    starts = [0] * n
    for _ in range(n * max(demand) + 1):  # each pass adds a worker who covers at least one unmet day
        missing = [max(0, d - h) for d, h in zip(demand, coverage(starts, k))]
        if not any(missing):
            break
        gain = [sum(missing[(s + i) % n] > 0 for i in range(k)) for s in range(n)]
        starts[max(range(n), key=lambda s: (gain[s], -s))] += 1
    return starts


def relaxed_starts(demand: Sequence[int], k: int) -> list[Fraction]:
    """An optimal solution of the LP relaxation (fractional start counts), exactly: the prices of the dual packing
    program max d.y subject to, for every start day, the days its block covers summing to at most 1."""
    n = len(demand)
    blocks = [[1 if (j - s) % n < k else 0 for j in range(n)] for s in range(n)]
    solution = maximise(list(demand), blocks, [1] * n)
    assert solution is not None  # bounded: every day lies in some block
    return solution.duals


def _repaired(demand: Sequence[int], k: int, starts: list[int]) -> list[int]:
    """``starts`` completed by the greedy (a worker where the most unmet demand is covered, first such day on ties),
    then stripped of every worker whose removal leaves the demand covered (day by day, one worker at a time)."""
    n = len(demand)
    starts = list(starts)
    for _ in range(n * max(demand) + 1):
        missing = [max(0, d - h) for d, h in zip(demand, coverage(starts, k))]
        if not any(missing):
            break
        gain = [sum(missing[(s + i) % n] > 0 for i in range(k)) for s in range(n)]
        starts[max(range(n), key=lambda s: (gain[s], -s))] += 1
    for s in range(n):
        while starts[s] > 0:
            starts[s] -= 1
            if any(h < d for d, h in zip(demand, coverage(starts, k))):
                starts[s] += 1
                break
    return starts


def rounded_up_starts(demand: Sequence[int], k: int) -> list[int]:
    """The LP relaxation's start counts rounded up (always covers the demand)."""
    return [math.ceil(v) for v in relaxed_starts(demand, k)]


def rounded_down_starts(demand: Sequence[int], k: int) -> list[int]:
    """The LP relaxation's start counts rounded down, completed greedily and stripped of spare workers."""
    return _repaired(demand, k, [math.floor(v) for v in relaxed_starts(demand, k)])


def demand_floor(days: int, max_demand: int) -> int:
    """The smallest daily demand drawn. Up to 8 days a quarter of the largest; past them a band of about 4/days of
    the largest below it: with the wide band the largest demand alone was the bound, the LP relaxation mostly
    integral and rounding it exact (99% of version 2's problems at 14 days), while near the top the demands'
    sum sets a fractional bound and 40-60% of the draws defeat every rule."""
    return max_demand // 4 if days <= 8 else max_demand - 4 * max_demand // days


# The textbook rules the drawn problems defeat from level 2 on. Version 2 added the two LP roundings: in version 1
# rounding the relaxation up was optimal in 60-68% of the problems at levels 2-4, rounding down and repairing in 78-88%;
# version 2's levels 5 and up (no LP filter) left them optimal in 72-99%, 79-100%.
RULES: dict[str, Callable[[Sequence[int], int], list[int]]] = {
    "greedy: start a worker where the most unmet demand is covered": lambda demand, k: greedy_starts(demand, k),
    "round the LP relaxation up": rounded_up_starts,
    "round the LP relaxation down, repair greedily, drop spare workers": rounded_down_starts,
}


def optimal_starts(demand: Sequence[int], k: int) -> tuple[list[int], int, int]:
    """(start counts, the minimum number of workers, totals tried).

    With k = n - 2 every worker has two consecutive days off; let y_s count the workers whose days off are s and
    s + 1. N workers cover day j iff y_j + y_(j-1) <= N - d_j, so N is enough iff the most workers these pair
    limits allow, max sum(y), reaches N (fewer can then be dropped). That maximum is a dynamic program round the
    cycle: fix y_0, then carry the best partial sum for each value of the last y. Totals are tried upwards from the
    lower bound max(max d, ceil(sum d / k)); a worker off on s, s + 1 starts work on s + 2."""
    assert k == len(demand) - 2, "the dynamic program assumes two days off"
    n = len(demand)
    lower = max(max(demand), -(-sum(demand) // k))
    for total in range(lower, sum(demand) + 1):
        offs = _most_days_off(demand, total)
        if offs is not None:
            starts = [0] * n
            for s, count in enumerate(offs):
                starts[(s + 2) % n] += count
            return starts, total, total - lower + 1
    raise AssertionError("every demand is covered by starting each day's need")


def _most_days_off(demand: Sequence[int], total: int) -> list[int] | None:
    """Counts y_s of workers off on days s, s + 1 (cyclically) with y_j + y_(j-1) <= total - d_j for every day j and
    sum(y) = total, or None when no such counts exist."""
    n = len(demand)
    room = [total - d for d in demand]  # how many may be off on each day
    for first in range(room[0] + 1):
        # best[y]: the largest y_0 + ... + y_j with y_j = y (None: impossible); back[j][y]: the y_(j-1) used
        best: list[int | None] = [first if y == first else None for y in range(total + 1)]
        back: list[list[int]] = []
        for j in range(1, n):
            prefix_value: list[int | None] = []
            prefix_arg: list[int] = []
            running: int | None = None
            arg = 0
            for y, value in enumerate(best):
                if value is not None and (running is None or value > running):
                    running, arg = value, y
                prefix_value.append(running)
                prefix_arg.append(arg)
            new: list[int | None] = [None] * (total + 1)
            choice = [0] * (total + 1)
            for y in range(min(total, room[j]) + 1):
                limit = room[j] - y  # y_(j-1) + y_j <= room[j]
                if prefix_value[min(limit, total)] is not None:
                    new[y] = y + prefix_value[min(limit, total)]  # type: ignore[operator]
                    choice[y] = prefix_arg[min(limit, total)]
            best = new
            back.append(choice)
        candidates = [y for y in range(min(total, room[0] - first) + 1) if best[y] is not None]
        if not candidates:
            continue
        last = max(candidates, key=lambda y: (best[y], -y))
        if (best[last] or 0) < total:
            continue
        offs = [0] * n
        offs[n - 1] = last
        for j in range(n - 1, 0, -1):
            offs[j - 1] = back[j - 1][offs[j]]
        assert offs[0] == first
        surplus = sum(offs) - total  # drop the extra workers: fewer off-pairs only loosen the limits
        for j in range(n):
            cut = min(surplus, offs[j])
            offs[j] -= cut
            surplus -= cut
        return offs
    return None
