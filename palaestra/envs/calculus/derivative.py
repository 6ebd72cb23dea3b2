"""Differentiate a function of x.

The function is a sum of pieces drawn by level: powers and roots (level 0); sines,
exponentials, logarithms and reciprocals (level 1); a product that needs the product
rule (level 2); a quotient or a composition that needs the chain rule (level 3); and
nested compositions or triple products (level 4). The reference derivative is the
exact symbolic derivative (:func:`palaestra.verifiers.formulas.differentiate`).

Any equivalent formula is right, simplified or not (``2x*cos(x^2)``,
``\\cos(x^{2}) \\cdot 2x``, ``e^{2x}(2\\sin x + \\cos x)``): the answer is compared with the
derivative of the function, computed independently of the reference by automatic
differentiation at 40 digits, at several points of an interval where the function is
defined and at points spread over (-5, 5), both signs, wherever the function is real
there; rounded coefficients (``0.333``) do not pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.calculus.common import coefficient, linear, moved_parts, x_parts
from palaestra.verifiers.expressions import Expr
from palaestra.verifiers.formulas import (
    CALCULUS_FUNCTIONS,
    agree,
    derivative_at,
    differentiate,
    evaluate,
    format_expr,
    linear_combination,
    points_in,
    read_formula,
    reference_tree,
    simplify,
)

POINTS = 6
LOW, HIGH = Fraction(1, 2), Fraction(3, 2)  # every generated function is defined on this interval
# ...and is checked wherever else it is real on (-5, 5), both signs: an answer right only for 1/2 < x < 3/2
# (``... + x - abs(x)``) is caught.
NEAR = 1e-3  # a part of the answer this close to a part of f, but not equal, is a nudged copy
SPREAD = [*points_in(Fraction(-5), Fraction(0), 4), *points_in(Fraction(0), Fraction(5), 4)]
_EXAMPLE = "6x^2 - 2sin(2x) + e^x/x"


def _k(rng: random.Random) -> int:
    return rng.randint(2, 7)


def _power(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.6:
        n = rng.randint(2, 8)
        return f"x^{n}"
    if kind < 0.8:
        n = rng.randint(1, 4)
        return "1/x" if n == 1 else f"1/x^{n}"
    return rng.choice(["sqrt(x)", "x^(3/2)", "x^(1/3)", "1/sqrt(x)"])


def _basic(rng: random.Random) -> str:
    k = _k(rng)
    return rng.choice([f"sin({k}x)", f"cos({k}x)", f"e^({k}x)", f"e^(-{k}x)", "ln(x)", f"ln({k}x)", "tan(x)",
                       f"1/x^{rng.randint(2, 3)}", _power(rng)])


def _product(rng: random.Random) -> str:
    n, k, m = rng.randint(1, 5), _k(rng), rng.randint(1, 6)
    xn = "x" if n == 1 else f"x^{n}"
    return rng.choice([f"{xn}*sin({k}x)", f"{xn}*cos({k}x)", f"{xn}*e^({k}x)", f"{xn}*e^(-{k}x)", f"{xn}*ln(x)",
                       f"e^({k}x)*sin({m}x)", f"e^(-{k}x)*cos({m}x)", f"sin({k}x)*cos({m}x)", f"sqrt(x)*e^({m}x)"])


def _quotient_or_chain(rng: random.Random) -> str:
    a, b, n, q = rng.randint(1, 5), rng.randint(1, 9), rng.randint(2, 5), rng.randint(1, 9)
    c = rng.choice([-3, -2, -1, 3, 4, 5])
    return rng.choice([
        f"sin({a}x^2 + {b})", f"cos({a}x^2 - {b}x)", f"e^({a}x^2)", f"e^(-x^2 + {b}x)", f"ln(x^2 + {q})",
        f"sqrt({a}x^2 + {b})", f"({a}x^2 + {b})^{n}", f"({linear(a, b)})^{n}", f"sin(x)^{n}", f"cos({a}x)^{n}",
        f"({linear(a, b)})/({linear(1, -c)})", f"x^{n}/(x^2 + {q})", "sin(x)/x", f"e^x/(x + {b})",
        f"ln(x)/x^{rng.randint(1, 3)}", f"1/({a}x^2 + {b})",
    ])


def _nested(rng: random.Random) -> str:
    a, b, k, n = rng.randint(1, 4), rng.randint(1, 9), _k(rng), rng.randint(2, 3)
    return rng.choice([
        f"e^(sin({k}x))", f"sin(e^({a}x))", f"ln(1 + e^({a}x))", f"ln(x^2 + {b})*cos({k}x)",
        f"x^{n}*e^(-x)*sin({k}x)", f"sqrt(x^2 + {b})/x", "e^(x^2)*ln(x)", f"sin({k}x)^{n}*cos(x)",
        f"(x^2 + {b})^{n}*e^({a}x)", f"atan({a}x)", "x*atan(x^2)", f"ln(sin(x) + {b})", "sqrt(1 + sin(x)^2)",
        f"e^({a}x)/(x^2 + {b})", f"ln(ln(x + {b}))",
    ])


_RULES = {"power": 1, "basic": 2, "product": 5, "quotient_or_chain": 6, "nested": 9}
_PIECES: dict[str, Callable[[random.Random], str]] = {
    "power": _power, "basic": _basic, "product": _product, "quotient_or_chain": _quotient_or_chain, "nested": _nested,
}


@register
class Derivative(Task):
    id = "calculus/derivative"
    family = "calculus"
    description = "Differentiate a function of x (any equivalent formula is accepted)."
    tags = ("math", "calculus", "differentiation")

    @dataclass(frozen=True)
    class Config:
        pieces: tuple[str, ...]  # one piece of each kind, plus...
        extra: tuple[str, ...]  # ...one more drawn from these (sometimes none)

    presets = (
        Config(pieces=("power", "power"), extra=("power",)),
        Config(pieces=("basic", "basic"), extra=("power", "basic")),
        Config(pieces=("product",), extra=("power", "basic")),
        Config(pieces=("quotient_or_chain",), extra=("power", "basic", "product")),
        Config(pieces=("nested",), extra=("product", "quotient_or_chain")),
    )
    bounded = "its levels are kinds of problem (the `pieces` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kinds = list(config.pieces) + ([rng.choice(config.extra)] if rng.random() < 0.75 else [])
        bodies: list[str] = []
        for kind in kinds:
            body = _PIECES[kind](rng)
            if body not in bodies:
                bodies.append(body)
        function = linear_combination([(coefficient(rng, 7), body) for body in bodies])
        tree = reference_tree(function, ("x",))
        derivative = format_expr(simplify(differentiate(tree, "x")))
        prompt = (
            f"Differentiate f(x) = {function} with respect to x.\n\n"
            f"Give f'(x) as a formula in x (write products with *, use exact numbers), e.g. {_EXAMPLE}."
        )
        return Problem(prompt=prompt, answer=derivative, data={
            "function": function, "rules": sum(_RULES[k] for k in kinds), "nodes": _size(tree)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        tree = read_formula(answer, ["x"], functions=CALCULUS_FUNCTIONS)
        if tree is None:
            return Verdict.unparsed("not a formula in x")
        function = reference_tree(problem.data["function"], ("x",))
        checked = 0
        for point in [*points_in(LOW, HIGH, POINTS), *SPREAD]:
            want = derivative_at(function, "x", point)
            if want is None or any(getattr(v, "imag", 0) != 0 for v in want):  # f is not real there
                continue
            if not agree(evaluate(tree, point), want[1]):
                return Verdict.wrong("not the derivative")
            checked += 1
        if checked >= 3 and _shifted_copy(tree, function):
            return Verdict.wrong("a difference quotient of f at nearby points, not its derivative")
        if checked >= 3 and _moved_copies(tree, function):
            return Verdict.wrong("a difference quotient of f at moved points (f(x + 1), f(x - 1), ...), not its "
                                 "derivative")
        return Verdict.judge(checked >= 3, "not the derivative")

    def difficulty(self, problem: Problem) -> float:
        """Rules to combine (1 per power, 2 per basic function, 5 per product, 6 per quotient or chain,
        9 per nested piece) plus a tenth of the function's expression-tree nodes."""
        return problem.data["rules"] + problem.data["nodes"] / 10

    def spellings(self, problem: Problem) -> list[str]:
        function = reference_tree(problem.data["function"], ("x",))
        raw = format_expr(differentiate(function, "x"))  # the rules applied, nothing simplified
        answer = problem.answer
        return [*super().spellings(problem), raw, f"f'(x) = {answer}", f"\\frac{{d}}{{dx}} f(x) = {answer}",
                f"{answer}.", answer.replace("*", " \\cdot ")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer
        return [problem.data["function"], f"2*({answer})", f"{answer} + 1", f"-({answer})", f"{answer} + x",
                f"({answer})*1.0000001"]


def _shifted_copy(tree: Expr, function: Expr) -> bool:
    """Whether the answer holds a part of f (x itself, 2x, x^2 + 5, ...) moved by a tiny amount: x + 1/10^6,
    x*(1 + 1/10^5), x + sqrt(-1)/10^20. A difference quotient of f at such points, (f(x + h) - f(x - h))/(2h)
    or a higher-order stencil, matches f' to 25 digits at every point without differentiating anything; a
    derivative never holds such a near copy (its parts equal f's or differ from them by far more)."""
    inner: dict[Expr, None] = {}
    x_parts(function, inner)
    mine: dict[Expr, None] = {}
    x_parts(tree, mine)
    points = points_in(LOW, HIGH, 3)
    reference = [values for part in inner if (values := _values(part, points)) is not None]
    for part in mine:
        if part in inner:
            continue
        values = _values(part, points)
        if values is None:
            continue
        for want in reference:
            if all(abs(v - w) <= NEAR * max(abs(v), abs(w)) for v, w in zip(values, want, strict=True)) and not all(
                    agree(v, w) for v, w in zip(values, want, strict=True)):
                return True
    return False


def _moved_copies(tree: Expr, function: Expr) -> bool:
    """Whether the answer holds one part of f at two or more moved arguments x + b: the difference formula
    sum of w_k (f(x + k) - f(x - k)) over k = 1..4 is f' itself for every f of degree 8 or less, yet no
    derivative was taken. A derivative keeps f's inner arguments or rescales them (sin(7x) -> cos(7x)), never
    moves them."""
    points = [{"x": Fraction(v)} for v in (0, 1, 2)]
    return moved_parts(tree, function, lambda part: _values(part, points),
                       lambda slope, intercept: abs(slope - 1) < 1e-20 and abs(intercept) > 1e-20)


def _values(part: Expr, points: list[dict[str, Fraction]]) -> list[Any] | None:
    values = [evaluate(part, point) for point in points]
    return None if any(v is None for v in values) else values


def _size(tree: tuple) -> int:
    if tree[0] in ("num", "var", "const"):
        return 1
    children = tree[2:] if tree[0] == "call" else tree[1:]
    return 1 + sum(_size(c) for c in children)
