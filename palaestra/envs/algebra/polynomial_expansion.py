"""Expand a product of polynomials and combine like terms.

Level 0 multiplies two linear factors; the levels add a quadratic factor, three factors
and cubes, a second variable, and at level 4 rational coefficients and powers of
trinomials. Factors have small integer coefficients drawn at random; the product is
computed exactly (:mod:`palaestra.verifiers.polynomials`).

The answer must be the expanded polynomial: a sum of monomials, each variable power at
most once per term, no two terms alike, in any order and notation the formula reader
takes (``6x^3 - 5x^2 + 2``, ``2 - 5x**2 + 6*x^3``, ``6x^{3} - 5x^{2} + 2``, ``x^2y`` or ``x^2*y``).
An equal but unexpanded form (``(2x+1)(3x^2-4x+2)``), like terms left uncombined, or a
wrong coefficient is rejected.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.formulas import Expr, read_formula
from palaestra.verifiers.polynomials import (
    Polynomial,
    expanded_terms,
    format_polynomial,
    multiply,
    power,
    to_polynomial,
)

_EXAMPLES = ("4x^3 - 2x^2 + 7x - 5", "-3x^2 + x + 8")


@register
class PolynomialExpansion(Task):
    id = "algebra/polynomial_expansion"
    version = 2
    family = "algebra"
    description = "Expand a product of polynomials and combine like terms."
    tags = ("math", "algebra", "polynomials")

    @dataclass(frozen=True)
    class Config:
        variables: tuple[str, ...]
        shapes: tuple[tuple[tuple[int, int], ...], ...]  # candidate products: (factor degree, power) pairs
        max_coefficient: int
        halves: bool  # coefficients may be halves

    presets = (
        Config(("x",), (((1, 1), (1, 1)),), 9, False),
        Config(("x",), (((1, 1), (2, 1)), ((2, 1), (2, 1)), ((1, 1), (1, 1), (1, 1))), 9, False),
        Config(("x",), (((1, 1), (1, 1), (2, 1)), ((1, 3), (1, 1)), ((0, 1), (1, 1), (2, 1)), ((1, 2), (2, 1))),
                        7, False),
        Config(("x", "y"), (((1, 1), (1, 1), (1, 1)), ((1, 2), (1, 1)), ((1, 1), (2, 1))), 6, False),
        Config(("x", "y"), (((2, 1), (2, 1), (1, 1)), ((2, 3),), ((1, 2), (1, 2)), ((1, 3), (1, 1))), 5,
                        True),
    )
    bounded = "its levels are kinds of problem (the `variables` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        shape = rng.choice(config.shapes)
        factors = [(_factor(rng, config, degree), exponent) for degree, exponent in shape]
        product: Polynomial = {(0,) * len(config.variables): Fraction(1)}
        for factor, exponent in factors:
            product = multiply(product, power(factor, exponent))
        written = "".join(_written_factor(f, k, config.variables) for f, k in factors)
        answer = format_polynomial(product, config.variables)
        example = _EXAMPLES[0]  # a fixed placeholder: independent of the answer
        prompt = (
            f"Expand and simplify {written}.\n\n"
            f"Give the result in expanded form, a sum of terms with like terms combined, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=answer, data={
            "variables": list(config.variables),
            "terms": [[list(m), str(c)] for m, c in sorted(product.items())],
            "factors": written,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        variables = problem.data["variables"]
        tree = read_formula(answer, variables)
        if tree is None:
            return Verdict.unparsed("not a polynomial in " + ", ".join(variables))
        expected = {tuple(m): Fraction(c) for m, c in problem.data["terms"]}
        written = expanded_terms(tree, variables)
        if written is None:
            value = to_polynomial(tree, variables)
            if value == expected:
                return Verdict.wrong("equal, but not expanded with like terms combined")
            return Verdict.wrong("not the expanded product")
        if written != expected:
            return Verdict.wrong("wrong coefficients")
        return Verdict.judge(_plain_coefficients(tree), "a coefficient is left as arithmetic (write 24x^2, not 2*12x^2)")

    def difficulty(self, problem: Problem) -> float:
        """Terms of the expanded product plus its total degree plus the number of variables."""
        terms = problem.data["terms"]
        return float(len(terms) + max(sum(m) for m, _ in terms) + len(problem.data["variables"]))

    def spellings(self, problem: Problem) -> list[str]:
        variables = problem.data["variables"]
        poly = {tuple(m): Fraction(c) for m, c in problem.data["terms"]}
        ascending = format_polynomial(poly, variables, order=sorted(poly, key=sum))
        starred = problem.answer.replace("^", "**")
        latex = problem.answer
        for k in range(9, 1, -1):
            latex = latex.replace(f"^{k}", f"^{{{k}}}")
        return [*super().spellings(problem), ascending, starred, latex, f"${latex}$",
                f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        variables = problem.data["variables"]
        poly = {tuple(m): Fraction(c) for m, c in problem.data["terms"]}
        monomials = sorted(poly)
        bumped = dict(poly)
        target = rng.choice(monomials)
        bumped[target] += 1
        bumped = {m: c for m, c in bumped.items() if c}
        dropped = {m: c for m, c in poly.items() if m != target} or {target: poly[target] * 2}
        negated = {m: -c for m, c in poly.items()}
        split = problem.answer + f" + {variables[0]}^2 - {variables[0]}^2"
        return [format_polynomial(bumped, variables), format_polynomial(dropped, variables),
                format_polynomial(negated, variables), problem.data["factors"], split]


def _plain_coefficients(tree: Expr) -> bool:
    """Whether every term of an expanded tree writes its coefficient as one number, or one fraction in lowest
    terms (``24x^2``, ``-3/4x``, ``x^2/2``, ``0.5y``): ``2*12x^2``, ``7*8`` or ``48/2 x^2`` leave arithmetic undone
    (the shared ``expanded_terms`` multiplies such numbers out)."""
    terms: list[Expr] = []

    def split(e: Expr) -> None:  # the signed terms, as expanded_terms splits them
        if e[0] in ("+", "-"):
            split(e[1])
            split(e[2])
        elif e[0] == "neg":
            split(e[1])
        else:
            terms.append(e)

    def numbers(e: Expr, below: bool, tops: list[Fraction], bottoms: list[Fraction]) -> None:
        kind = e[0]
        if kind == "num":
            (bottoms if below else tops).append(e[1])
        elif kind == "neg":
            numbers(e[1], below, tops, bottoms)
        elif kind == "*":
            numbers(e[1], below, tops, bottoms)
            numbers(e[2], below, tops, bottoms)
        elif kind == "/":
            numbers(e[1], below, tops, bottoms)
            numbers(e[2], not below, tops, bottoms)
        # a variable or a variable's power: no coefficient there

    try:
        split(tree)
        for term in terms:
            tops: list[Fraction] = []
            bottoms: list[Fraction] = []
            numbers(term, False, tops, bottoms)
            if len(tops) > 1 or len(bottoms) > 1:
                return False
            if bottoms:
                top, bottom = (tops[0] if tops else Fraction(1)), bottoms[0]
                if top.denominator != 1 or bottom.denominator != 1 or abs(bottom) == 1 \
                        or math.gcd(top.numerator, bottom.numerator) != 1:
                    return False
        return True
    except RecursionError:
        return False


def _factor(rng: random.Random, config: PolynomialExpansion.Config, degree: int) -> Polynomial:
    """A factor of the given total degree with small non-zero leading coefficients."""
    n = len(config.variables)

    def coefficient(nonzero: bool) -> Fraction:
        top = config.max_coefficient
        value = rng.choice([v for v in range(-top, top + 1) if v or not nonzero])
        if config.halves and rng.random() < 0.3:
            return Fraction(value, 2)
        return Fraction(value)

    def draw() -> Polynomial:
        if degree == 0:  # a monomial factor such as 3x or -2y
            m = [0] * n
            m[rng.randrange(n)] = 1
            return {tuple(m): coefficient(True)}
        monomials = _monomials(n, degree)
        poly: Polynomial = {}
        for m in monomials:
            c = coefficient(sum(m) == degree and m == monomials[0])
            if c and (sum(m) == degree or rng.random() < 0.8):
                poly[m] = c
        return poly

    return retry(draw, lambda p: len(p) >= 2 or degree == 0, what="a factor with two terms")


def _monomials(n: int, degree: int) -> list[tuple[int, ...]]:
    """Monomials of total degree <= ``degree`` in ``n`` variables, highest degree first."""
    if n == 1:
        return [(k,) for k in range(degree, -1, -1)]
    return [(a, total - a) for total in range(degree, -1, -1) for a in range(total, -1, -1)]


def _written_factor(factor: Polynomial, exponent: int, variables: list[str] | tuple[str, ...]) -> str:
    text = format_polynomial(factor, variables)
    single = len(factor) == 1
    if single and exponent == 1:
        return text
    return f"({text})" + (f"^{exponent}" if exponent > 1 else "")
