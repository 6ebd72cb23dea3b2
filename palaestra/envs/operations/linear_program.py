"""Linear programming: an optimal point and the maximum of a small linear program, exactly.

Maximise P = c·x subject to constraints sum_j a_ij x_j <= b_i with small non-negative integer
coefficients (every variable appears in some constraint, so the program is bounded) and x >= 0,
x real. The optimum comes from an exact simplex method (:mod:`palaestra.solvers.lp`, fractions,
Bland's rule). The verifier accepts **any** optimal point: every variable given, none negative,
every constraint met, the stated P equal to c·x at that point and equal to the optimum. From level
2 on, programs are redrawn until the textbook greedy (raise one variable as far as the constraints
allow, then the next, ...) is not optimal in any of three orders: largest objective coefficient,
largest stand-alone value, largest coefficient per unit of resource used (version 2 added the last
two).

Generation speed: about 1,050 problems/s at level 4. Each drawn program is solved by the exact fraction simplex of
solvers.lp, and about half are redrawn because the textbook greedy is already optimal; exact fractions make the
optimum exact, and the redraws keep the greedy from earning reward.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.operations.common import (
    linear_text,
    named_values_spellings,
    named_values_text,
    random_packing_program,
    read_named_numbers,
    well_posed,
)
from palaestra.solvers.lp import maximise
from palaestra.verifiers.rationals import format_fraction

_EXAMPLE_VALUES = ("5/2", "0", "7", "1/3")  # a fixed placeholder shape, independent of the answer


@register
class LinearProgram(Task):
    id = "operations/linear_program"
    family = "operations"
    description = "An optimal point and the maximum of a small linear program (any optimal point), exactly."
    tags = ("operations-research", "optimization", "math")
    version = 2  # v2: from level 2 on, two more greedy orders are not optimal either (see ORDERS)

    @dataclass(frozen=True)
    class Config:
        variables: int
        constraints: int
        beat_greedy: bool

    presets = (
        Config(variables=2, constraints=3, beat_greedy=False),
        Config(variables=2, constraints=4, beat_greedy=False),
        Config(variables=3, constraints=4, beat_greedy=True),
        Config(variables=3, constraints=5, beat_greedy=True),
        Config(variables=4, constraints=6, beat_greedy=True),
    )
    growth = Growth(steps={"variables": 1, "constraints": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, m = config.variables, config.constraints

        def acceptable(program: tuple[list[int], list[list[int]], list[int]]) -> bool:
            c, a, b = program
            if not well_posed(a):
                return False
            solution = maximise(c, a, b)
            assert solution is not None  # bounded: every variable sits in a constraint with positive coefficients
            solved[:] = [program, solution]  # kept: the last program weighed is the one accepted
            return not config.beat_greedy or all(greedy_value(c, a, b, order) < solution.value for order in ORDERS)

        solved: list = []
        c, a, b = retry(lambda: random_packing_program(rng, n, m), acceptable, what="a linear program the greedy rule does not solve")
        solution = solved[1] if solved and solved[0] == (c, a, b) else maximise(c, a, b)
        assert solution is not None
        names = [f"x{j + 1}" for j in range(n)]
        rows = "\n".join(f"  {linear_text(row, names)} <= {bound}" for row, bound in zip(a, b))
        example = ", ".join(f"{name} = {_EXAMPLE_VALUES[j % 4]}" for j, name in enumerate(names)) + ", P = 40"
        prompt = (
            f"Maximise P = {linear_text(c, names)}\nsubject to\n{rows}\n  {', '.join(names)} >= 0 (real numbers, "
            "not necessarily integers).\n\nGive an optimal solution and the maximum: the value of every variable "
            f"and of P, exact (fractions where needed), e.g. {example}."
        )
        answer = named_values_text(names, solution.point, "P", solution.value)
        return Problem(prompt=prompt, answer=answer, data={
            "c": c, "a": a, "b": b, "optimum": format_fraction(solution.value), "pivots": solution.pivots,
            "point": [format_fraction(v) for v in solution.point],
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
        names = [f"x{j + 1}" for j in range(len(c))]
        values = read_named_numbers(answer, [*names, "P"])
        if values is None:
            return Verdict.unparsed(f"expected {', '.join(names)} and P, each as name = exact value")
        point = [values[name] for name in names]
        for name, v in zip(names, point):
            if v < 0:
                return Verdict.wrong(f"{name} is negative")
        for i, (row, bound) in enumerate(zip(a, b), 1):
            lhs = sum((coef * v for coef, v in zip(row, point)), Fraction(0))
            if lhs > bound:
                return Verdict.wrong(f"constraint {i} is violated: {format_fraction(lhs)} > {bound}")
        objective = sum((coef * v for coef, v in zip(c, point)), Fraction(0))
        if values["P"] != objective:
            return Verdict.wrong(f"P at this point is {format_fraction(objective)}, not {format_fraction(values['P'])}")
        return Verdict.judge(objective == Fraction(problem.data["optimum"]), "feasible but not optimal")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def greedy(order: str) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                c, a, b = problem.data["c"], problem.data["a"], problem.data["b"]
                point = greedy_point(c, a, b, order)
                value = sum((coef * v for coef, v in zip(c, point)), Fraction(0))
                return named_values_text([f"x{j + 1}" for j in range(len(c))], point, "P", value)
            return answer

        return {ORDER_NAMES[order]: greedy(order) for order in ORDERS}

    def difficulty(self, problem: Problem) -> float:
        """Variables plus constraints, plus the simplex pivots the optimum took and the optimal point's non-zero
        coordinates."""
        data = problem.data
        return (len(data["c"]) + len(data["a"]) + data["pivots"]
                + sum(v != "0" for v in data["point"]) / 2)

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *named_values_spellings(problem.answer or "")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = [f"x{j + 1}" for j in range(len(problem.data["c"]))]
        point = [Fraction(v) for v in problem.data["point"]]
        optimum = Fraction(problem.data["optimum"])

        def spelled(xs: list[Fraction], value: Fraction) -> str:
            return named_values_text(names, xs, "P", value)

        nudged = [point[0] + 1, *point[1:]]
        return [spelled(point, optimum + 1), spelled(nudged, optimum), spelled([Fraction(0)] * len(names), Fraction(0)),
                spelled(point, optimum) + f" or P = {format_fraction(optimum + 1)}",
                ", ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, point))]


def greedy_point(c: list[int], a: list[list[int]], b: list[int], order: str = "coefficient") -> list[Fraction]:
    """Raise the variables one at a time, each as far as the slack allows, in the ``order`` of :data:`ORDERS`
    (by default the largest objective coefficient first)."""
    slack = [Fraction(v) for v in b]
    point = [Fraction(0)] * len(c)
    for j in sorted(range(len(c)), key=lambda j: (ORDERS[order](c, a, b, j), j)):
        limits = [slack[i] / a[i][j] for i in range(len(a)) if a[i][j] > 0]
        point[j] = min(limits)
        slack = [s - a[i][j] * point[j] for i, s in enumerate(slack)]
    return point


def _alone(a: list[list[int]], b: list[int], j: int) -> Fraction:
    """How far variable j can rise with every other variable at 0."""
    return min(Fraction(b[i], a[i][j]) for i in range(len(a)) if a[i][j] > 0)


# Textbook orders for the greedy, smallest key first. Version 2 added the last two: in version 1 (which beat the
# coefficient order only) raising the variable of largest stand-alone value first was optimal in 37% of the problems
# at level 4, the best ratio of profit to resource use first in 23%.
ORDERS: dict[str, Callable[[list[int], list[list[int]], list[int], int], Fraction]] = {
    "coefficient": lambda c, a, b, j: Fraction(-c[j]),
    "stand-alone value": lambda c, a, b, j: -c[j] * _alone(a, b, j),
    "profit per unit of resource": lambda c, a, b, j: Fraction(-c[j], sum(row[j] for row in a)),
}
ORDER_NAMES = {"coefficient": "largest objective coefficient first",
               "stand-alone value": "largest stand-alone value (coefficient times its own limit) first",
               "profit per unit of resource": "largest coefficient per unit of resource used (column sum) first"}


def greedy_value(c: list[int], a: list[list[int]], b: list[int], order: str = "coefficient") -> Fraction:
    return sum((coef * v for coef, v in zip(c, greedy_point(c, a, b, order))), Fraction(0))
