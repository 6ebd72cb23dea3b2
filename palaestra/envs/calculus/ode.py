"""Solve a first-order initial value problem; the answer is judged by substitution.

Level 0: y' = k y or y' = a polynomial; level 1: y' = a y + b; level 2: y' + p y = q x + r
(an integrating factor); level 3: separable equations (y' = k x^m y, y' = a y², y' = (ax + b)/y,
the logistic y' = r y (1 - y/M)); level 4: y' + (a/x) y = b x^m with y(1) given, y' = y + c e^x, and
y' = -2xy + c x. The right-hand side satisfies a Lipschitz condition near the initial
point, so the solution is unique there, and any formula that satisfies both the
equation and the initial condition is that solution.

The answer is a formula in x (``y = 3e^(2x) - 1``, ``\\frac{1}{2 - x}``, ``tan(x + pi/4)``,
``sqrt(x^2 + 9)``). It is checked by substitution: y(x0) must equal the initial value, and
y'(x) (by automatic differentiation) must equal the right-hand side at several points of
an interval around the initial point where the solution exists, to 25 significant
digits. Rounded coefficients fail.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.formulas import (
    CALCULUS_FUNCTIONS,
    agree,
    derivative_at,
    evaluate,
    linear_combination,
    points_in,
    read_formula,
    reference_tree,
)

# equation's right-hand side F(x, y), initial point, initial value, solution, interval (low, high), steps
Family = tuple[str, Fraction, Fraction, str, Fraction, Fraction, int]


def _q(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _nonzero(rng: random.Random, top: int) -> int:
    return rng.choice([v for v in range(-top, top + 1) if v])


def _e(k: Fraction | int, body: str = "x") -> str:
    k = Fraction(k)
    if k == 1:
        return f"e^({body})" if body != "x" else "e^x"
    inner = f"{_q(k)}{body}" if k.denominator == 1 else f"({_q(k)}){body}"
    return f"e^({'-' + body if k == -1 else inner})"


def _growth(rng: random.Random) -> Family:
    if rng.random() < 0.5:  # y' = k y, y(x0) = y0 -> y0 e^(k (x - x0))
        k = Fraction(_nonzero(rng, 6), rng.choice([1, 1, 2]))
        x0, y0 = rng.randint(-2, 2), _nonzero(rng, 20)
        shifted = "x" if x0 == 0 else f"(x {'-' if x0 > 0 else '+'} {abs(x0)})"
        solution = linear_combination([(y0, _e(k, shifted))])
        return linear_combination([(k, "y")]), Fraction(x0), Fraction(y0), solution, Fraction(x0 - 1), \
            Fraction(x0 + 1), 1
    coefficients = [rng.randint(-9, 9) for _ in range(rng.randint(2, 4))]  # y' = polynomial in x
    y0 = rng.randint(-20, 20)
    rhs = linear_combination([(c, {0: "1", 1: "x"}.get(k, f"x^{k}")) for k, c in enumerate(coefficients)][::-1])
    solution = linear_combination([(Fraction(c, k + 1), "x" if k == 0 else f"x^{k + 1}")
                                   for k, c in enumerate(coefficients)][::-1] + [(y0, "1")])
    return rhs if rhs != "0" else "0*x", Fraction(0), Fraction(y0), solution, Fraction(-2), Fraction(2), 1


def _affine(rng: random.Random) -> Family:
    a, b = _nonzero(rng, 6), _nonzero(rng, 20)
    x0, y0 = rng.randint(-2, 2), rng.randint(-20, 20)
    fixed = Fraction(-b, a)
    shifted = "x" if x0 == 0 else f"(x {'-' if x0 > 0 else '+'} {abs(x0)})"
    solution = linear_combination([(y0 - fixed, _e(a, shifted)), (fixed, "1")])
    rhs = linear_combination([(a, "y"), (b, "1")])
    return rhs, Fraction(x0), Fraction(y0), solution, Fraction(x0 - 1), Fraction(x0 + 1), 2


def _integrating_factor(rng: random.Random) -> Family:
    p, q, r, y0 = _nonzero(rng, 4), _nonzero(rng, 9), rng.randint(-9, 9), rng.randint(-9, 9)
    # y' + p y = q x + r: particular y = A x + B with p A = q, A + p B = r
    a = Fraction(q, p)
    b = (r - a) / p
    solution = linear_combination([(a, "x"), (b, "1"), (y0 - b, _e(-p))])
    rhs = linear_combination([(q, "x"), (r, "1"), (-p, "y")])
    return rhs, Fraction(0), Fraction(y0), solution, Fraction(-1), Fraction(1), 3


def _separable(rng: random.Random) -> Family:
    kind = rng.randrange(4)
    if kind == 0:  # y' = k x^m y -> y0 e^(k x^(m+1)/(m+1))
        k, m, y0 = _nonzero(rng, 6), rng.randint(1, 4), _nonzero(rng, 40)
        rhs = linear_combination([(k, f"x^{m}*y" if m > 1 else "x*y")])
        return rhs, Fraction(0), Fraction(y0), linear_combination([(y0, _e(Fraction(k, m + 1), f"x^{m + 1}"))]), \
            Fraction(-1), Fraction(1), 4
    if kind == 1:  # y' = a y^2, y(x0) = y0 -> y = 1/(1/y0 - a (x - x0)), up to the pole at x0 + 1/(a y0)
        a, y0, x0 = _nonzero(rng, 12), _nonzero(rng, 30), rng.randint(-2, 2)
        reach = Fraction(1, 2 * abs(a * y0))  # half the distance to the pole
        solution = f"1/({linear_combination([(Fraction(1, y0) + a * x0, '1'), (-a, 'x')])})"
        return linear_combination([(a, "y^2")]), Fraction(x0), Fraction(y0), solution, x0 - reach, x0 + reach, 4
    if kind == 2:  # y' = (a x + b)/y, y(0) = c > 0 -> sqrt(a x^2 + 2 b x + c^2), near 0 where it stays positive
        a, b, c = rng.randint(1, 9), rng.randint(-9, 9), rng.randint(1, 15)
        radicand = linear_combination([(a, "x^2"), (2 * b, "x"), (c * c, "1")])
        reach = Fraction(c, 2 * (abs(b) + a + 1))
        rhs = f"({linear_combination([(a, 'x'), (b, '1')])})/y"
        return rhs, Fraction(0), Fraction(c), f"sqrt({radicand})", -reach, reach, 4
    # y' = r y (1 - y/M), 0 < y0 < M -> M/(1 + ((M - y0)/y0) e^(-r x))
    r, big = rng.randint(1, 8), rng.randint(2, 30)
    y0 = rng.randint(1, big - 1)
    rhs = f"{r}*y*(1 - y/{big})" if r > 1 else f"y*(1 - y/{big})"
    solution = f"{big}/(1 + ({_q(Fraction(big - y0, y0))})*{_e(-r)})"
    return rhs, Fraction(0), Fraction(y0), solution, Fraction(-1), Fraction(1), 5


def _variable(rng: random.Random) -> Family:
    kind = rng.randrange(3)
    if kind == 0:  # y' + (a/x) y = b x^m, y(1) = y0 -> (b/(m+a+1)) x^(m+1) + C x^(-a)
        a, b, m, y0 = rng.randint(1, 6), _nonzero(rng, 9), rng.randint(0, 4), rng.randint(-15, 15)
        coefficient = Fraction(b, m + a + 1)
        constant = y0 - coefficient
        solution = linear_combination([(coefficient, "x" if m == 0 else f"x^{m + 1}"), (constant, f"1/x^{a}"
                                                                                         if a > 1 else "1/x")])
        rhs = linear_combination([(b, "1" if m == 0 else "x" if m == 1 else f"x^{m}"), (-a, "y/x")])
        return rhs, Fraction(1), Fraction(y0), solution, Fraction(1, 2), Fraction(3), 5
    if kind == 1:  # y' = y + c e^x -> (y0 + c x) e^x
        c, y0 = _nonzero(rng, 30), rng.randint(-30, 30)
        return linear_combination([(1, "y"), (c, "e^x")]), Fraction(0), Fraction(y0), \
            f"({y0} + {c}x)*e^x".replace("+ -", "- "), Fraction(-1), Fraction(1), 5
    c, y0 = _nonzero(rng, 30), rng.randint(-30, 30)  # y' = -2 x y + c x -> c/2 + (y0 - c/2) e^(-x^2)
    half = Fraction(c, 2)
    return linear_combination([(-2, "x*y"), (c, "x")]), Fraction(0), Fraction(y0), \
        linear_combination([(half, "1"), (y0 - half, "e^(-x^2)")]), Fraction(-1), Fraction(1), 5


_FAMILIES: dict[str, Callable[[random.Random], Family]] = {
    "growth": _growth, "affine": _affine, "integrating_factor": _integrating_factor, "separable": _separable,
    "variable": _variable,
}


@register
class Ode(Task):
    id = "calculus/ode"
    family = "calculus"
    description = "Solve a first-order initial value problem (checked by substituting the answer)."
    tags = ("math", "calculus", "differential-equations")

    @dataclass(frozen=True)
    class Config:
        family: str

    presets = (
        Config(family="growth"),
        Config(family="affine"),
        Config(family="integrating_factor"),
        Config(family="separable"),
        Config(family="variable"),
    )
    bounded = "its levels are kinds of problem (the `family` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rhs, x0, y0, solution, low, high, steps = _FAMILIES[config.family](rng)
        prompt = (
            f"Solve the initial value problem y' = {rhs}, y({_q(x0)}) = {_q(y0)}.\n\n"
            "Give the solution y as an explicit formula in x (exact numbers; write products with *), "
            "e.g. y = 3e^(2x) - x^2."
        )
        return Problem(prompt=prompt, answer=f"y = {solution}", data={
            "rhs": rhs, "x0": str(x0), "y0": str(y0), "solution": solution, "low": str(low), "high": str(high),
            "steps": steps,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        tree = read_formula(answer, ["x"], functions=CALCULUS_FUNCTIONS)
        if tree is None:
            return Verdict.unparsed("not a formula in x")
        if not agree(evaluate(tree, {"x": Fraction(problem.data["x0"])}), Fraction(problem.data["y0"])):
            return Verdict.wrong("the initial condition fails")
        rhs = reference_tree(problem.data["rhs"], ("x", "y"))
        for point in points_in(Fraction(problem.data["low"]), Fraction(problem.data["high"]), 5):
            dual = derivative_at(tree, "x", point)
            if dual is None:
                return Verdict.wrong("the formula is undefined where the solution exists")
            value, slope = dual
            if not agree(slope, evaluate(rhs, {"x": point["x"], "y": value})):
                return Verdict.wrong("y' does not equal the right-hand side")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Method steps (1 direct integration ... 5 variable coefficients) plus the right-hand side's length/10."""
        return problem.data["steps"] + len(problem.data["rhs"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        solution = problem.data["solution"]
        return [*super().spellings(problem), solution, f"y(x) = {solution}", solution.replace("^", "**"),
                f"y = {solution}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        solution = problem.data["solution"]
        wrong = [f"{solution} + 1", f"2*({solution})", f"({solution})*e^x", problem.data["rhs"].replace("y", "x"),
                 f"{solution} + C"]
        return [w for w in wrong if not self.verify(problem, w).correct]
