"""Dynamic lot sizing: when to produce, and how much, to meet known demands at the least setup and holding cost.

A workshop knows its demand in each of T periods. Producing in a period costs that period's setup
cost (any quantity); every unit held in stock at the end of a period costs the holding cost; demand
must be met on time from production and stock (no backorders), starting with an empty store. The
answer is the quantity made in each period. The optimum comes from the Wagner-Whitin dynamic
program (an optimal plan produces only when stock runs out, each batch covering whole periods). From
level 2 on, instances are redrawn until the textbook Silver-Meal heuristic (extend a batch while the
cost per period keeps falling), lot-for-lot production and the one-line incremental rule (extend a
batch into the next period while holding that period's demand from the batch's period costs less than
its own setup; it solved 68% of level-4 problems when only the first two were beaten) are all not
optimal, and neither are the least-unit-cost rule (extend a batch while its cost per unit falls) and the period
order quantity (a batch every round(EOQ / mean demand) periods), which version 2 left optimal in 17% and 16% of
the problems at level 2 (150 seeds), 11% and 9% at level 3. The verifier accepts
**any** plan of whole units that meets every demand on time and costs the optimum.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_list

# A label naming the plan before its quantities: "Quantities: 55 0 50 95 0", "Production plan: ...", "Lot sizes: ..."
# (bold too: "**Quantities:** 55 0 ...", "**Quantities**: ..."; closing stars only where opening ones were)
_LABEL = re.compile(r"(?P<bold>\*\*)?(?:(?:the )?(?:production |order )?(?:quantities|plan|lot sizes|lots|production)"
                    r"(?: produced| per period| by period)?|produce)(?(bold)(?:\*\*)?) ?[:=] ?(?(bold)(?:\*\*)?) ?",
                    re.IGNORECASE)


@register
class LotSizing(Task):
    id = "operations/lot_sizing"
    family = "operations"
    description = "Production quantities per period meeting demands at least setup plus holding cost (Wagner-Whitin)."
    tags = ("operations-research", "inventory", "optimization", "dynamic-programming")
    version = 3  # v3: from level 2 on, the least-unit-cost rule and the period order quantity are not optimal either

    @dataclass(frozen=True)
    class Config:
        periods: int
        beat_heuristics: bool

    presets = (
        Config(periods=4, beat_heuristics=False),
        Config(periods=5, beat_heuristics=False),
        Config(periods=6, beat_heuristics=True),
        Config(periods=8, beat_heuristics=True),
        Config(periods=10, beat_heuristics=True),
    )
    growth = Growth(steps={"periods": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        t = config.periods

        def draw() -> tuple[list[int], list[int], int]:
            demand = [rng.choice([0, *range(5, 81, 5)]) for _ in range(t)]
            demand[0] = demand[0] or 5 * rng.randint(1, 16)
            setup = [rng.randint(4, 30) * 5 for _ in range(t)]
            return demand, setup, rng.randint(1, 4)

        def acceptable(instance: tuple[list[int], list[int], int]) -> bool:
            demand, setup, holding = instance
            if not config.beat_heuristics:
                return True
            best = optimal_plan(demand, setup, holding)[1]
            return min(plan_cost(demand, setup, holding, rule(demand, setup, holding)) for rule in RULES.values()) > best

        demand, setup, holding = retry(draw, acceptable, what="a lot-sizing problem the heuristics do not solve")
        plan, best = optimal_plan(demand, setup, holding)
        header = "period " + " ".join(f"{p + 1:>4}" for p in range(t))
        prompt = (
            f"A workshop must meet these demands over {t} periods:\n{header}\ndemand " +
            " ".join(f"{d:>4}" for d in demand) + "\nsetup  " + " ".join(f"{s:>4}" for s in setup) + "\n\n"
            "Producing in a period costs that period's setup cost, whatever the quantity; each unit still in stock at "
            f"the end of a period costs {holding} to hold. Demand must be met in its period from that period's "
            "production and earlier stock; the store starts empty. Choose how many units to produce in each period "
            f"to make the total setup and holding cost as small as possible. Give the {t} quantities in period order, "
            f"separated by spaces, e.g. {' '.join(str(40 * (p % 2)) for p in range(t))}."
        )
        return Problem(prompt=prompt, answer=" ".join(map(str, plan)),
                       data={"demand": demand, "setup": setup, "holding": holding, "optimum": best})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        demand, setup, holding = problem.data["demand"], problem.data["setup"], problem.data["holding"]
        plan = read_list(answer, read_integer, space_separated=True) if len(answer) < 2_000 else None
        if plan is None and len(answer) < 2_000:
            plan = read_answer(answer, _labelled)
        if plan is None or len(plan) != len(demand):
            return Verdict.unparsed(f"expected {len(demand)} whole quantities, one per period")
        if any(q < 0 for q in plan):
            return Verdict.wrong("a quantity is negative")
        stock = 0
        for period, (made, needed) in enumerate(zip(plan, demand), 1):
            stock += made - needed
            if stock < 0:
                return Verdict.wrong(f"the demand of period {period} is not met")
        total = plan_cost(demand, setup, holding, plan)
        return Verdict.judge(total == problem.data["optimum"], f"the plan costs {total}, which is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def applying(rule: Callable[[Sequence[int], Sequence[int], int], list[int]]) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                data = problem.data
                return " ".join(map(str, rule(data["demand"], data["setup"], data["holding"])))
            return answer

        return {name: applying(rule) for name, rule in RULES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Periods, plus the batches the optimum makes (each a choice of how far to cover)."""
        return len(problem.data["demand"]) + sum(q != "0" for q in (problem.answer or "").split())

    def spellings(self, problem: Problem) -> list[str]:
        quantities = (problem.answer or "").split()
        return [*super().spellings(problem), ", ".join(quantities), f"[{', '.join(quantities)}]",
                "\n".join(quantities)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        quantities = [int(q) for q in (problem.answer or "").split()]
        late = quantities[:]
        late[0] -= 5  # the first demand is never met
        extra = quantities[:]
        extra[-1] += 5  # five units too many: more stock to hold (or a setup the plan did not need)
        wrong = [" ".join(map(str, late)), " ".join(map(str, quantities[:-1])),
                 " ".join(map(str, quantities)) + " or " + " ".join(map(str, problem.data["demand"]))]
        data = problem.data
        if plan_cost(data["demand"], data["setup"], data["holding"], extra) != data["optimum"]:
            wrong.append(" ".join(map(str, extra)))
        return wrong


def _labelled(text: str) -> list[int] | None:
    """The quantities after a label naming them (``_LABEL``), else None."""
    label = _LABEL.match(text)
    return None if label is None else read_list(text[label.end():], read_integer, space_separated=True)


def plan_cost(demand: Sequence[int], setup: Sequence[int], holding: int, plan: Sequence[int]) -> int:
    """Setup costs of the producing periods plus holding cost on each period's closing stock."""
    stock, total = 0, 0
    for made, needed, cost in zip(plan, demand, setup):
        stock += made - needed
        total += (cost if made > 0 else 0) + holding * stock
    return total


def optimal_plan(demand: Sequence[int], setup: Sequence[int], holding: int) -> tuple[list[int], int]:
    """Wagner-Whitin: best[t] is the least cost of the first t periods; a batch in period j covers j .. t - 1."""
    t = len(demand)
    best = [0] + [-1] * t
    start = [0] * (t + 1)
    for end in range(1, t + 1):
        for j in range(end):
            if sum(demand[j:end]) == 0 and j < end - 1:
                continue  # an empty batch is covered by the shorter option
            batch = sum(demand[j:end])
            carrying = sum(holding * (k - j) * demand[k] for k in range(j, end))
            cost = best[j] + (setup[j] if batch > 0 else 0) + carrying
            if best[end] < 0 or cost < best[end]:
                best[end], start[end] = cost, j
    plan = [0] * t
    end = t
    while end > 0:
        j = start[end]
        plan[j] = sum(demand[j:end])
        end = j
    return plan, best[t]


def incremental_plan(demand: Sequence[int], setup: Sequence[int], holding: int) -> list[int]:
    """From each batch's first period j, cover the next period e too while holding its demand from j
    (``holding * (e - j) * demand[e]``) costs less than setting up in e."""
    t = len(demand)
    plan = [0] * t
    j = 0
    while j < t:  # bounded: each batch covers at least one period
        end = j + 1
        while end < t and holding * (end - j) * demand[end] < setup[end]:
            end += 1
        plan[j] = sum(demand[j:end])
        j = end
    return plan


def silver_meal(demand: Sequence[int], setup: Sequence[int], holding: int) -> list[int]:
    """Silver-Meal: from each batch's first period, cover further periods while the cost per period falls."""
    t = len(demand)
    plan = [0] * t
    j = 0
    while j < t:  # bounded: each batch covers at least one period
        if demand[j] == 0:
            j += 1
            continue
        end, carrying = j + 1, 0
        previous = Fraction(setup[j])
        while end < t:
            extra = carrying + holding * (end - j) * demand[end]
            average = Fraction(setup[j] + extra, end - j + 1)
            if average > previous:
                break
            carrying, previous, end = extra, average, end + 1
        plan[j] = sum(demand[j:end])
        j = end
    return plan


def least_unit_cost(demand: Sequence[int], setup: Sequence[int], holding: int) -> list[int]:
    """Least unit cost: from each batch's first period, cover further periods while the cost per unit falls."""
    t = len(demand)
    plan = [0] * t
    j = 0
    while j < t:  # bounded: each batch covers at least one period
        if demand[j] == 0:
            j += 1
            continue
        end, carrying, units = j + 1, 0, demand[j]
        previous = Fraction(setup[j], units)
        while end < t:
            extra = carrying + holding * (end - j) * demand[end]
            per_unit = Fraction(setup[j] + extra, units + demand[end])
            if per_unit > previous:
                break
            carrying, units, previous, end = extra, units + demand[end], per_unit, end + 1
        plan[j] = sum(demand[j:end])
        j = end
    return plan


def period_order_quantity(demand: Sequence[int], setup: Sequence[int], holding: int) -> list[int]:
    """Period order quantity: a batch every k periods, k = EOQ / mean demand = sqrt(2 mean setup / (holding mean
    demand)) rounded (at least 1), each covering its k periods."""
    t = len(demand)
    k = max(1, round(math.sqrt(2 * sum(setup) / (holding * sum(demand)))))
    plan = [0] * t
    for j in range(0, t, k):
        plan[j] = sum(demand[j:j + k])
    return plan


# The textbook rules the drawn problems defeat from level 2 on (version 3 added the last two).
RULES: dict[str, Callable[[Sequence[int], Sequence[int], int], list[int]]] = {
    "Silver-Meal": silver_meal,
    "lot-for-lot": lambda demand, setup, holding: list(demand),
    "extend a batch while holding the next demand costs less than its setup": incremental_plan,
    "least unit cost": least_unit_cost,
    "period order quantity": period_order_quantity,
}
