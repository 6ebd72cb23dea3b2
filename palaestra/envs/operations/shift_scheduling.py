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

Version 4: Baker's rule for two consecutive days off (for the fewest workers the bounds allow, then one more at a time,
give each worker the two days off whose larger remaining need is lowest) is exact for the fewest workers and solved
98-100% of version 3's problems at every level. From level 2 on, each day now has its own pay ($100-$200 per worker on
duty) and the goal is the lowest pay bill, which Baker's rule does not see. The cheapest staffing is exact at generation:
the blocks cover circularly consecutive days, so with the number of workers fixed the LP relaxation has whole vertices
and its value is convex in that number (Bartholdi, Orlin and Ratliff, 1980), and the cheapest whole staffing is the
fixed-count relaxation at the free relaxation's worker count rounded down or up (see :func:`cheapest_starts`). The pays
are redrawn (a few per demand, about 1 in 3 kept) until every rule misses the cheapest bill: the head-count rules,
Baker's, Baker's with the dearer days off first on ties (which alone found the cheapest bill for 50-80% of the pays at
levels 2-4) and the cheapest relaxation rounded up and stripped of its dearest spare workers (60-90%): 0% now.
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
from palaestra.solvers.lp import LpSolution, maximise
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import read_integer


@register
class ShiftScheduling(Task):
    id = "operations/shift_scheduling"
    family = "operations"
    description = ("Cyclic staffing: workers starting each day (k consecutive days on) to cover daily demand with fewest "
                   "workers or the lowest pay bill.")
    tags = ("operations-research", "scheduling", "optimization", "integer-programming")
    version = 4  # v2: from level 2 on, rounding the LP relaxation (up, or down and repaired) is not optimal either;
    # v3: that holds past the presets too (version 2 stopped the LP filter at 8 days), demands drawn near the top there
    # v4: from level 2 on, each day has its own pay and the goal is the lowest pay bill (Baker's rule solved all levels)

    @dataclass(frozen=True)
    class Config:
        days: int
        max_demand: int
        beat_greedy: bool
        paid: bool  # each day has its own pay; the goal is the lowest pay bill, not the fewest workers

    presets = (
        Config(days=5, max_demand=7, beat_greedy=False, paid=False),
        Config(days=6, max_demand=8, beat_greedy=False, paid=False),
        Config(days=7, max_demand=10, beat_greedy=True, paid=True),
        Config(days=7, max_demand=14, beat_greedy=True, paid=True),
        Config(days=8, max_demand=16, beat_greedy=True, paid=True),
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

        def draw_paid() -> tuple[list[int], tuple[list[int], list[int], int] | None]:
            """Demands the head-count rules fail on, and the first of a few day pays every paid rule fails on with
            the cheapest staffing and its bill (None if none does: some demands leave the cheapest staffing to a rule
            whatever the pays)."""
            demand = retry(draw, acceptable, what="a staffing problem the greedy does not solve")
            if not config.paid:
                return demand, None
            blind = [rule(demand, k) for rule in PAY_BLIND_RULES.values()]  # the same staffing whatever the pays
            fewest = optimal_starts(demand, k)[1]
            for _ in range(PAY_DRAWS):
                pay = [rng.randint(100, 200) for _ in range(n)]  # any dollar: fewer ties, rules miss more often
                relaxed = relaxed_starts(demand, k, pay)
                ruled = min([bill(starts, pay, k) for starts in blind] + [
                    bill(baker_starts(demand, k, pay), pay, k),
                    bill(_stripped(demand, k, pay, [math.ceil(v) for v in relaxed]), pay, k)])
                # No bill is below the relaxation's: a rule that meets it rounded up is cheapest (the cheap test).
                if ruled > math.ceil(_relaxed_bill(relaxed, pay, k)):
                    cheapest, cost = cheapest_starts(demand, k, pay, relaxed, fewest)
                    if ruled > cost:
                        return demand, (pay, cheapest, cost)
            return demand, None

        demand, paid = retry(draw_paid, lambda drawn: drawn[1] is not None or not config.paid, attempts=200,
                             what="day pays no textbook rule staffs cheapest")
        starts, total, tries = optimal_starts(demand, k)
        data: dict[str, object] = {"demand": demand, "workers": total, "tries": tries}
        days = [f"D{j + 1}" for j in range(n)]
        if paid is not None:
            pay, starts, data["bill"] = paid
            data["pay"] = pay
            table = "\n".join(f"  {day}: {need} needed, ${wage} per worker on duty"
                              for day, need, wage in zip(days, demand, pay))
            goal = ("Every day must have at least the number needed on duty, and every worker on duty is paid that "
                    "day's pay. Make the total pay over the cycle as small as possible")
        else:
            table = "\n".join(f"  {day}: {need}" for day, need in zip(days, demand))
            goal = "Every day must have at least the number needed on duty. Use as few workers as possible"
        example = ", ".join(f"{day} = {(3, 0, 1, 5)[j % 4]}" for j, day in enumerate(days))
        prompt = (
            f"A service runs on a repeating cycle of {n} days, D1 to D{n} (after D{n} comes D1 again). Every worker "
            f"works {k} consecutive days of the cycle and then has 2 consecutive days off; each worker's block may "
            f"start on any day (a block starting on D{n} continues with D1, D2, ...). The number of workers needed "
            f"on duty each day:\n{table}\n\n{goal}: give, for every day, the number of workers whose block starts "
            f"that day (whole numbers, 0 allowed), e.g. {example}."
        )
        answer = ", ".join(f"{day} = {count}" for day, count in zip(days, starts))
        return Problem(prompt=prompt, answer=answer, data=data)

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
        if "pay" in problem.data:
            cost = bill(starts, problem.data["pay"], n - 2)
            return Verdict.judge(cost == problem.data["bill"], f"these starts cost ${cost}, which is not the minimum")
        total = sum(starts)
        return Verdict.judge(total == problem.data["workers"], f"these starts use {total} workers, which is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def spelled(rule: Callable[[Sequence[int], int, Sequence[int]], list[int]]) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                demand = problem.data["demand"]
                pay = problem.data.get("pay", [1] * len(demand))  # without pays every worker costs the same
                return ", ".join(f"D{j + 1} = {v}" for j, v in enumerate(rule(demand, len(demand) - 2, pay)))
            return answer

        blind = {name: lambda demand, k, pay, rule=rule: rule(demand, k) for name, rule in PAY_BLIND_RULES.items()}
        return {name: spelled(rule) for name, rule in {**blind, **PAY_RULES}.items()}

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


def relaxed_starts(demand: Sequence[int], k: int, pay: Sequence[int] | None = None) -> list[Fraction]:
    """An optimal solution of the LP relaxation (fractional start counts; the fewest workers, or with ``pay`` the
    lowest bill), exactly: the prices of its dual packing program (see :func:`_relaxation`)."""
    solution = _relaxation(demand, k, pay or [1] * len(demand))
    assert solution is not None  # bounded: every day lies in some block
    return solution.duals


def _relaxation(demand: Sequence[int], k: int, pay: Sequence[int], workers: int | None = None) -> LpSolution | None:
    """The dual of the LP relaxation: max d.y (+ workers.z) subject to, for every start day, the days its block covers
    summing (with z) to at most the block's pay; its prices are the fractional start counts of the cheapest staffing
    (with exactly ``workers`` workers: z is that equation's free price, split in two). None: no such staffing."""
    n = len(demand)
    blocks = [[1 if (j - s) % n < k else 0 for j in range(n)] for s in range(n)]
    block_pay = [sum(pay[(s + i) % n] for i in range(k)) for s in range(n)]
    if workers is None:
        return maximise(list(demand), blocks, block_pay)
    return maximise([*demand, workers, -workers], [[*row, 1, -1] for row in blocks], block_pay)


def bill(starts: Sequence[int], pay: Sequence[int], k: int) -> int:
    """The pay over one cycle: every worker on duty on day j earns that day's pay."""
    return sum(wage * on for wage, on in zip(pay, coverage(starts, k)))


def _relaxed_bill(relaxed: Sequence[Fraction], pay: Sequence[int], k: int) -> Fraction:
    """The bill of fractional start counts (a lower bound on every whole staffing's, at the relaxation's optimum)."""
    n = len(relaxed)
    return Fraction(sum(wage * sum(relaxed[(j - i) % n] for i in range(k)) for j, wage in enumerate(pay)))


def cheapest_starts(demand: Sequence[int], k: int, pay: Sequence[int], relaxed: Sequence[Fraction] | None = None,
                    fewest: int = 0) -> tuple[list[int], int]:
    """(start counts, their bill) of the cheapest staffing. Every block covers circularly consecutive days, so with the
    number of workers fixed the LP relaxation's vertices are whole (Bartholdi, Orlin and Ratliff, 1980) and its value
    is convex in that number: the cheapest whole staffing has the relaxation's worker count rounded down or up.
    ``relaxed``: the relaxation's start counts, when already found; ``fewest``: the fewest workers that cover the
    demand, when known (a count below it is not tried: its program is infeasible, half the counts tried)."""
    fractional = sum(relaxed if relaxed is not None else relaxed_starts(demand, k, pay))
    found: list[tuple[int, list[int]]] = []
    for workers in sorted({max(fewest, math.floor(fractional)), math.ceil(fractional)}):
        solution = _relaxation(demand, k, pay, workers)
        if solution is not None:  # None: too few workers to cover the demand
            starts = [int(v) for v in solution.duals]
            assert starts == solution.duals and all(h >= d for h, d in zip(coverage(starts, k), demand))
            found.append((bill(starts, pay, k), starts))
    cost, starts = min(found)
    return starts, cost


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
    return _stripped(demand, k, [1] * n, starts)  # every block costs the same: stripped day by day


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


def baker_starts(demand: Sequence[int], k: int, pay: Sequence[int] | None = None) -> list[int]:
    """Baker's rule (1974) for two consecutive days off: for the fewest workers the bounds allow, then one more at a
    time, give each worker in turn the two days off whose larger remaining need is lowest (with ``pay`` the dearer
    pair first on ties), lowering the need of every other day; the first count that covers every day. Exact for the
    fewest workers (it solved 98-100% of version 3's problems), blind to the pays but for those ties."""
    n = len(demand)
    pair_pay = [pay[s] + pay[(s + 1) % n] if pay else 0 for s in range(n)]
    for workers in range(max(max(demand), -(-sum(demand) // k)), sum(demand) + 1):
        need, starts = list(demand), [0] * n
        for _ in range(workers):
            off = min(range(n), key=lambda s: (max(need[s], need[(s + 1) % n]), -pair_pay[s],
                                               need[s] + need[(s + 1) % n], s))
            starts[(off + 2) % n] += 1
            need = [v if j in (off, (off + 1) % n) else v - 1 for j, v in enumerate(need)]
        if max(need) <= 0:
            return starts
    return list(demand)  # not reached: each day's need starting on every day covers everything


def _stripped_up(demand: Sequence[int], k: int, pay: Sequence[int]) -> list[int]:
    """The cheapest LP relaxation rounded up, then stripped of spare workers."""
    return _stripped(demand, k, pay, [math.ceil(v) for v in relaxed_starts(demand, k, pay)])


def _stripped(demand: Sequence[int], k: int, pay: Sequence[int], starts: list[int]) -> list[int]:
    """``starts`` less every worker whose removal leaves the demand covered (the dearest blocks first, ties day by day,
    one worker at a time)."""
    n = len(demand)
    starts = list(starts)
    for s in sorted(range(n), key=lambda s: -sum(pay[(s + i) % n] for i in range(k))):
        while starts[s] > 0:
            starts[s] -= 1
            if any(h < d for d, h in zip(demand, coverage(starts, k))):
                starts[s] += 1
                break
    return starts


PAY_DRAWS = 6  # day pays tried on each drawn demand; about 1 in 3 is kept


# The rules the paid levels (2 and up) defeat: version 3's head-count rules, Baker's (which solved 98-100% of
# version 3's problems at every level), the same with the dearer days off first on ties and the cheapest relaxation
# rounded up and stripped (50-80% and 60-90% of the pays at levels 2-4 before the pays were redrawn against them).
PAY_BLIND_RULES: dict[str, Callable[[Sequence[int], int], list[int]]] = {
    **RULES, "Baker: days off where the remaining need is lowest": baker_starts}
PAY_RULES: dict[str, Callable[[Sequence[int], int, Sequence[int]], list[int]]] = {
    "Baker, the dearer days off first on ties": baker_starts,
    "round the cheapest LP relaxation up, drop the dearest spare workers": _stripped_up,
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
