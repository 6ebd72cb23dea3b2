"""Integer programming: the best whole-number solution of a small linear program with integer variables.

Maximise P = c·x subject to sum_j a_ij x_j <= b_i with small non-negative integer coefficients and x
whole numbers >= 0. The optimum comes from a depth-first branch and bound at generation (each
variable from its largest feasible value down; the bound on what the remaining variables can add is
the smaller of the best value-per-unit of every constraint they all use and their own upper bounds;
the last variable is set to its largest feasible value directly). From level 2 on, programs are
redrawn until rounding the linear-programming optimum down (the textbook shortcut, computed exactly
with :mod:`palaestra.solvers.lp`) is not optimal, and neither are its textbook repairs: raising
variables one unit at a time, largest objective coefficient first, while the point stays feasible
(it solved 56% of level-4 problems when only plain rounding was beaten), nor the same after moving to
the best feasible point within one unit of the rounded point in every coordinate (80%), nor the greedy from zero
that raises each variable as far as it goes in a textbook order (largest objective coefficient, largest stand-alone
value, or largest coefficient per unit of resource first: version 3 left them optimal in 30-50% of the problems at
levels 2-4, version 4 in none). The verifier accepts **any** optimal integer point:
every variable a whole number >= 0, every constraint met, the stated P equal to c·x and to the optimum.

Generation speed: about 100 problems/s at level 4. About 23 in 24 drawn programs are redrawn because a greedy fill,
rounding the linear-programming optimum or one of its textbook repairs is already optimal. Each draw is solved by the
fraction simplex of solvers.lp; a shortcut that reaches the LP value rounded down rejects it at once, and only the
rest are solved by branch and bound; the redraws are kept so that the greedy and rounding shortcuts earn no reward.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.operations.common import linear_text, read_named_numbers
from palaestra.solvers.lp import maximise

_EXAMPLE_VALUES = ("3", "0", "5", "1")  # a fixed placeholder shape, independent of the answer


@register
class IntegerProgram(Task):
    id = "operations/integer_program"
    family = "operations"
    description = "The best whole-number point of a small integer program, where rounding the LP optimum fails."
    tags = ("operations-research", "optimization", "math", "np-hard")
    version = 4  # v4: from level 2 on, the greedy fills from zero in the three textbook orders are not optimal either
    distinct_from = {"operations/linear_program": "integrality makes it a search (branch and bound), not a vertex "
                                                  "of the polytope: the LP optimum rounded down is drawn to fail"}

    @dataclass(frozen=True)
    class Config:
        variables: int
        constraints: int
        beat_rounding: bool

    presets = (
        Config(variables=2, constraints=2, beat_rounding=False),
        Config(variables=2, constraints=3, beat_rounding=False),
        Config(variables=3, constraints=3, beat_rounding=True),
        Config(variables=3, constraints=4, beat_rounding=True),
        Config(variables=4, constraints=4, beat_rounding=True),
    )
    # Constraints stop at level 15's 15 (version 3): the exact solve grows with them, and at level 40 (40
    # constraints) one problem took 2.8 s of CPU, past the kit's 2 s bound.
    growth = Growth(steps={"variables": 1, "constraints": 1}, limits={"variables": 7, "constraints": 15})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, m = config.variables, config.constraints

        def draw() -> tuple[list[int], list[list[int]], list[int]]:
            a = [[rng.randint(1, 9) if rng.random() < 0.8 else 0 for _ in range(n)] for _ in range(m)]
            b = [rng.randint(10, 12 * n) for _ in range(m)]
            c = [rng.randint(1, 15) for _ in range(n)]
            return c, a, b

        def acceptable(program: tuple[list[int], list[list[int]], list[int]]) -> bool:
            c, a, b = program
            if any(all(row[j] == 0 for row in a) for j in range(n)) or any(not any(row) for row in a):
                return False
            if not config.beat_rounding:
                return True
            rounded, bound = _lp_rounded_and_bound(c, a, b)
            # A shortcut at the LP bound is optimal: most draws are rejected so, the cheap fills checked first,
            # before the repairs' neighbourhood search and the branch and bound.
            shortcut = max(_value(c, greedy_fill(c, a, b, order)) for order in ORDERS)
            if shortcut >= bound:
                return False
            shortcut = max(shortcut, *(_value(c, point) for point in rounding_repairs(c, a, b, rounded)))
            return shortcut < bound and shortcut < optimal_integer(c, a, b, rounded)[1]

        c, a, b = retry(draw, acceptable, attempts=400,
                        what="an integer program that LP rounding, its repairs and the greedy fills do not solve")
        point, best, nodes = optimal_integer(c, a, b)
        names = [f"x{j + 1}" for j in range(n)]
        rows = "\n".join(f"  {linear_text(row, names)} <= {bound}" for row, bound in zip(a, b))
        example = ", ".join(f"{name} = {_EXAMPLE_VALUES[j % 4]}" for j, name in enumerate(names)) + ", P = 40"
        prompt = (
            f"Maximise P = {linear_text(c, names)}\nsubject to\n{rows}\n  {', '.join(names)} whole numbers >= 0.\n\n"
            f"Give an optimal solution in whole numbers and the maximum: the value of every variable and of P, "
            f"e.g. {example}."
        )
        answer = ", ".join(f"{name} = {v}" for name, v in zip(names, point)) + f", P = {best}"
        return Problem(prompt=prompt, answer=answer, data={"c": c, "a": a, "b": b, "optimum": best, "nodes": nodes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
        names = [f"x{j + 1}" for j in range(len(c))]
        values = read_named_numbers(answer, [*names, "P"])
        if values is None:
            return Verdict.unparsed(f"expected {', '.join(names)} and P, each as name = whole number")
        point = [values[name] for name in names]
        for name, v in zip(names, point):
            if v < 0 or v.denominator != 1:
                return Verdict.wrong(f"{name} is not a whole number >= 0")
        for i, (row, bound) in enumerate(zip(a, b), 1):
            lhs = sum(coef * v for coef, v in zip(row, point))
            if lhs > bound:
                return Verdict.wrong(f"constraint {i} is violated: {lhs} > {bound}")
        objective = sum(coef * v for coef, v in zip(c, point))
        if values["P"] != objective:
            return Verdict.wrong(f"P at this point is {objective}, not {values['P']}")
        return Verdict.judge(objective == problem.data["optimum"], "feasible but not optimal")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def spelled(point: Sequence[int], c: Sequence[int]) -> str:
            return ", ".join(f"x{j + 1} = {v}" for j, v in enumerate(point)) + f", P = {_value(c, point)}"

        def rounding(problem: Problem) -> str:
            c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
            return spelled(rounded_lp_point(c, a, b), c)

        def repaired(which: int) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
                return spelled(rounding_repairs(c, a, b)[which], c)
            return answer

        def filled(order: str) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
                return spelled(greedy_fill(c, a, b, order), c)
            return answer

        return {"LP optimum rounded down": rounding, "rounded down, then raised greedily": repaired(0),
                "best point within one unit of the rounded one, then raised greedily": repaired(1),
                **{f"from zero, each variable as far as it goes, {name}": filled(order)
                   for order, name in ORDER_NAMES.items()}}

    def difficulty(self, problem: Problem) -> float:
        """Variables plus constraints, plus the log of the branch-and-bound nodes the optimum took."""
        data = problem.data
        return len(data["c"]) + len(data["a"]) + math.log2(data["nodes"] + 1) / 2

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), ", ".join([pairs[-1], *pairs[:-1]]), "\n".join(pairs),
                "; ".join(pairs) + "."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        names = [p.split(" = ")[0] for p in pairs[:-1]]
        point = [int(p.split(" = ")[1]) for p in pairs[:-1]]
        best = problem.data["optimum"]

        def spelled(xs: Sequence[int | Fraction], value: int | Fraction) -> str:
            return ", ".join(f"{n} = {v}" for n, v in zip(names, xs)) + f", P = {value}"

        return [spelled(point, best + 1), spelled([point[0] + 1, *point[1:]], best), spelled([0] * len(names), 0),
                spelled([Fraction(1, 2), *point[1:]], best), ", ".join(pairs[:-1])]


def _value(c: Sequence[int], point: Sequence[int]) -> int:
    return sum(coef * v for coef, v in zip(c, point))


def rounded_lp_point(c: Sequence[int], a: Sequence[Sequence[int]], b: Sequence[int]) -> list[int]:
    """The linear-programming optimum with every coordinate rounded down (always feasible here: a >= 0)."""
    return _lp_rounded_and_bound(c, a, b)[0]


def _lp_rounded_and_bound(c: Sequence[int], a: Sequence[Sequence[int]], b: Sequence[int]) -> tuple[list[int], int]:
    """The rounded-down LP optimum and the LP value rounded down (no integer point is worth more)."""
    solution = maximise(list(c), [list(row) for row in a], list(b))
    assert solution is not None
    return [math.floor(v) for v in solution.point], math.floor(solution.value)


def _feasible(a: Sequence[Sequence[int]], b: Sequence[int], point: Sequence[int]) -> bool:
    return min(point) >= 0 and all(sum(x * v for x, v in zip(row, point)) <= bound for row, bound in zip(a, b))


def _raised(c: Sequence[int], a: Sequence[Sequence[int]], b: Sequence[int], point: Sequence[int]) -> list[int]:
    """``point`` with variables raised one unit at a time, largest objective coefficient first, while feasible."""
    raised = list(point)
    for _ in range(sum(b) + 1):  # bounded: each raise uses up at least one unit of some constraint
        room = [j for j in range(len(c)) if _feasible(a, b, [*raised[:j], raised[j] + 1, *raised[j + 1:]])]
        if not room:
            break
        raised[max(room, key=lambda j: (c[j], -j))] += 1
    return raised


def rounding_repairs(c: Sequence[int], a: Sequence[Sequence[int]], b: Sequence[int],
                     rounded: Sequence[int] | None = None) -> list[list[int]]:
    """The textbook repairs of the rounded LP point: raise variables greedily while feasible; or first move to
    the best feasible point within one unit of it in every coordinate, then raise greedily."""
    rounded = rounded_lp_point(c, a, b) if rounded is None else rounded
    nearby = (([v + d for v, d in zip(rounded, step)]) for step in itertools.product((-1, 0, 1), repeat=len(c)))
    best_near = max((point for point in nearby if _feasible(a, b, point)), key=lambda point: _value(c, point))
    return [_raised(c, a, b, rounded), _raised(c, a, b, best_near)]


def _alone(a: Sequence[Sequence[int]], b: Sequence[int], j: int) -> Fraction:
    """How far variable j can rise with every other variable at 0."""
    return min(Fraction(b[i], row[j]) for i, row in enumerate(a) if row[j] > 0)


# Textbook orders for the greedy fill, smallest key first (ties: the lower index).
ORDERS: dict[str, Callable[[Sequence[int], Sequence[Sequence[int]], Sequence[int], int], Fraction]] = {
    "coefficient": lambda c, a, b, j: Fraction(-c[j]),
    "stand-alone value": lambda c, a, b, j: -c[j] * _alone(a, b, j),
    "profit per unit of resource": lambda c, a, b, j: Fraction(-c[j], sum(row[j] for row in a)),
}
ORDER_NAMES = {"coefficient": "largest objective coefficient first",
               "stand-alone value": "largest stand-alone value (coefficient times its own limit) first",
               "profit per unit of resource": "largest coefficient per unit of resource used (column sum) first"}


def greedy_fill(c: Sequence[int], a: Sequence[Sequence[int]], b: Sequence[int], order: str) -> list[int]:
    """From zero, each variable in the ``order`` of :data:`ORDERS` raised as far as the slack allows, in whole units."""
    slack = list(b)
    point = [0] * len(c)
    for j in sorted(range(len(c)), key=lambda j: (ORDERS[order](c, a, b, j), j)):
        point[j] = min(slack[i] // row[j] for i, row in enumerate(a) if row[j] > 0)
        slack = [s - row[j] * point[j] for s, row in zip(slack, a)]
    return point


def optimal_integer(c: Sequence[int], a: Sequence[Sequence[int]], b: Sequence[int],
                    rounded: Sequence[int] | None = None) -> tuple[list[int], int, int]:
    """(an optimal integer point, its value, search nodes) by depth-first branch and bound, from the rounded LP
    point (``rounded`` when the caller has it)."""
    n, m = len(c), len(a)
    best_point = rounded_lp_point(c, a, b) if rounded is None else list(rounded)
    best = [_value(c, best_point)]
    nodes = [0]
    point = [0] * n

    def largest(j: int, residual: list[int]) -> int:
        return min(residual[i] // a[i][j] for i in range(m) if a[i][j] > 0)

    # Per first variable j: the constraints every remaining variable uses, each with the best value per unit
    # among those variables (a fraction p / q), fixed for the whole search.
    rates = [[(i, max(Fraction(c[k], a[i][k]) for k in range(j, n))) for i in range(m)
              if all(a[i][k] > 0 for k in range(j, n))] for j in range(n)]

    def pruned(j: int, residual: list[int], value: int) -> bool:
        """Whether value + the bound (the smaller of the remaining variables' own upper bounds and, per shared
        constraint, its residual times the best rate) is at most the best found; in integers, q > 0."""
        room = best[0] - value
        if sum(c[k] * largest(k, residual) for k in range(j, n)) <= room:
            return True
        return any(residual[i] * rate.numerator <= room * rate.denominator for i, rate in rates[j])

    def search(j: int, residual: list[int], value: int) -> None:
        nodes[0] += 1
        if j == n - 1:
            last = largest(j, residual)
            if value + c[j] * last > best[0]:
                point[j] = last
                best[0] = value + c[j] * last
                best_point[:] = point
            return
        if pruned(j, residual, value):
            return
        for x in range(largest(j, residual), -1, -1):
            point[j] = x
            search(j + 1, [r - a[i][j] * x for i, r in enumerate(residual)], value + c[j] * x)
        point[j] = 0

    search(0, list(b), 0)
    return list(best_point), best[0], nodes[0]
