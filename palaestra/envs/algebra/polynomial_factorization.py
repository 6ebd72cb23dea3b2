"""Factor a polynomial completely over the integers.

The polynomial is built as a product of factors that are irreducible over the
rationals (primitive linear factors, quadratics whose discriminant is not a square,
linear forms in two variables) times a whole number, then shown expanded. Level 0 is
a quadratic with a numeric factor; the levels add cubics, repeated factors,
irreducible quadratics, quartics, a second variable and degree up to six.

Any complete factorisation is accepted, in any order and notation the formula reader
takes (``3(x - 2)^2(2x + 1)``, ``-3(2 - x)(x - 2)(2x + 1)``, ``3*(x-2)*(x-2)*(2*x+1)``): the
answer must be a product whose non-constant factors have integer coefficients with no
common divisor, whose value is the polynomial, and which has as many non-constant
factors (counted with repetition) as the polynomial's factorisation into irreducibles.
By unique factorisation, that count can only be reached when every factor is
irreducible, so ``(x^2 - 4)(x + 1)`` or ``(2x - 4)(x + 1)`` are incomplete and rejected.

Version 4: the factorisation may follow the polynomial and an equals sign (``6x^2 + 7x + 2 = (2x + 1)(3x + 2)``),
as a grader reads it; before, that right answer was refused. Only a left side worth the polynomial itself is
passed over, so a wrong factorisation on either side of the sign still fails.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.formulas import read_formula
from palaestra.verifiers.polynomials import (
    Polynomial,
    format_polynomial,
    is_primitive,
    multiply,
    power,
    product_factors,
    to_polynomial,
)

_EXAMPLES = ("3(x - 4)(2x + 1)^2", "-2(x + 5)(x^2 + 3)")


@register
class PolynomialFactorization(Task):
    id = "algebra/polynomial_factorization"
    version = 4  # v4: the polynomial restated before an equals sign is passed over
    family = "algebra"
    description = "Factor a polynomial completely over the integers (checked by unique factorisation)."
    tags = ("math", "algebra", "polynomials")

    @dataclass(frozen=True)
    class Config:
        variables: tuple[str, ...]
        linear: tuple[int, int]  # linear factors (with repetition)
        quadratic: tuple[int, int]  # irreducible quadratic factors
        repeat: float  # chance that a linear factor is squared
        leading: int  # leading coefficients of linear factors up to this
        content: int  # the numeric factor up to this

    presets = (
        Config(("x",), linear=(2, 2), quadratic=(0, 0), repeat=0.0, leading=4, content=9),
        Config(("x",), linear=(2, 3), quadratic=(0, 1), repeat=0.2, leading=3, content=6),
        Config(("x",), linear=(2, 4), quadratic=(0, 1), repeat=0.3, leading=3, content=6),
        Config(("x", "y"), linear=(2, 3), quadratic=(0, 1), repeat=0.3, leading=3, content=6),
        Config(("x", "y"), linear=(3, 4), quadratic=(0, 1), repeat=0.3, leading=3, content=8),
    )
    # The factors are drawn until all are distinct: at level 15's counts (14-15 linear, up to 12 quadratic) that
    # took ~200 draws on average and failed after 1,000 at 2 seeds in 60 at level 20 (version 2). From level 11 on
    # the counts stay at 10-11 linear and up to 8 quadratic (~15 draws) and the difficulty saturates there.
    growth = Growth(limits={"linear": 11, "quadratic": 8})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        factors, content = retry(lambda: _factors(rng, config), what="distinct irreducible factors")
        n = len(config.variables)
        product: Polynomial = {(0,) * n: Fraction(content)}
        for factor, multiplicity in factors:
            product = multiply(product, power(factor, multiplicity))
        answer = _factored_text(content, factors, config.variables)
        example = _EXAMPLES[0]  # a fixed placeholder: independent of the answer
        prompt = (
            f"Factor completely over the integers: {format_polynomial(product, config.variables)}\n\n"
            "Write it as a whole number times factors with integer coefficients that cannot be factored further "
            f"(take out any common numeric factor), e.g. {example}."
        )
        return Problem(prompt=prompt, answer=answer, data={
            "variables": list(config.variables),
            "terms": [[list(m), str(c)] for m, c in sorted(product.items())],
            "irreducible": sum(k for _, k in factors),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        variables = problem.data["variables"]
        polynomial = {tuple(m): Fraction(c) for m, c in problem.data["terms"]}
        if isinstance(answer, str) and answer.count("=") == 1:  # "6x^2 + 7x + 2 = (2x + 1)(3x + 2)"
            restated, factored = answer.split("=")
            if to_polynomial(read_formula(restated, variables), variables) == polynomial:
                answer = factored
        tree = read_formula(answer, variables)
        if tree is None:
            return Verdict.unparsed("not a polynomial expression in " + ", ".join(variables))
        split = product_factors(tree, variables)
        if split is None:
            return Verdict.wrong("not written as a product of polynomial factors")
        constant, factors = split
        n = len(variables)
        value: Polynomial = {(0,) * n: constant} if constant else {}
        for factor, multiplicity in factors:
            value = multiply(value, power(factor, multiplicity))
        if value != polynomial:
            return Verdict.wrong("the product is not the polynomial")
        if not all(is_primitive(factor) for factor, _ in factors):
            return Verdict.wrong("a factor still has a common numeric factor or non-integer coefficients")
        count = sum(k for _, k in factors)
        return Verdict.judge(count == problem.data["irreducible"], "not factored completely")

    def difficulty(self, problem: Problem) -> float:
        """Irreducible factors (with repetition) plus the terms of the expanded polynomial, plus 4 for a second
        variable."""
        data = problem.data
        return float(data["irreducible"] + len(data["terms"]) + 4 * (len(data["variables"]) - 1))

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        starred = answer.replace(")(", ")*(").replace("^", "**")
        return [*super().spellings(problem), starred, f"${answer}$", f"{answer}.",
                _expand_powers(answer)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        variables = problem.data["variables"]
        expanded = format_polynomial({tuple(m): Fraction(c) for m, c in problem.data["terms"]}, variables)
        answer = problem.answer
        return [expanded, f"2{answer}" if not answer.startswith("-") else answer[1:], f"({answer})^2",
                _drop_last_factor(answer), f"{answer} or {expanded}"]


def _linear_factor(rng: random.Random, config: PolynomialFactorization.Config) -> Polynomial:
    n = len(config.variables)
    a = rng.randint(1, config.leading)
    if n == 2:  # a x + b y: the polynomial stays homogeneous
        b = rng.choice([v for v in range(-7, 8) if v])
        poly = {(1, 0): Fraction(a), (0, 1): Fraction(b)}
    else:
        b = rng.choice([v for v in range(-12, 13) if v])
        poly = {(1,) + (0,) * (n - 1): Fraction(a), (0,) * n: Fraction(b)}
    return _primitive(poly)


def _quadratic_factor(rng: random.Random, config: PolynomialFactorization.Config) -> Polynomial | None:
    n = len(config.variables)
    a, b, c = rng.randint(1, 2), rng.randint(-6, 6), rng.choice([v for v in range(-9, 10) if v])
    discriminant = b * b - 4 * a * c
    if discriminant >= 0 and math.isqrt(discriminant) ** 2 == discriminant:
        return None  # it would factor over the rationals
    if n == 1:
        poly = {(2,): Fraction(a), (1,): Fraction(b), (0,): Fraction(c)}
    else:  # a x^2 + b x y + c y^2, irreducible for the same reason
        poly = {(2, 0): Fraction(a), (1, 1): Fraction(b), (0, 2): Fraction(c)}
    return _primitive({m: v for m, v in poly.items() if v})


def _primitive(poly: Polynomial) -> Polynomial:
    g = math.gcd(*(int(v) for v in poly.values()))
    return {m: v / g for m, v in poly.items()}


Factors = list[tuple[Polynomial, int]]


def _factors(rng: random.Random, config: PolynomialFactorization.Config) -> tuple[Factors, int] | None:
    factors: Factors = []
    for _ in range(rng.randint(*config.linear)):
        factors.append((_linear_factor(rng, config), 2 if rng.random() < config.repeat else 1))
    for _ in range(rng.randint(*config.quadratic)):
        quadratic = _quadratic_factor(rng, config)
        if quadratic is None:
            return None
        factors.append((quadratic, 1))
    keys = [tuple(sorted(f.items())) for f, _ in factors]
    negatives = [tuple(sorted((m, -v) for m, v in f.items())) for f, _ in factors]
    if len(set(keys)) < len(keys) or set(keys) & set(negatives):
        return None  # equal factors are written as a power; keep the reference unambiguous
    if any(len(f) < 2 for f, _ in factors):
        return None
    content = rng.choice([v for v in range(-config.content, config.content + 1) if v])
    return factors, content


def _factored_text(content: int, factors: list[tuple[Polynomial, int]], variables: tuple[str, ...]) -> str:
    ordered = sorted(factors, key=lambda f: (-max(sum(m) for m in f[0]), format_polynomial(f[0], variables)))
    body = "".join(f"({format_polynomial(f, variables)})" + (f"^{k}" if k > 1 else "") for f, k in ordered)
    lead = "" if content == 1 else "-" if content == -1 else str(content)
    return lead + body


def _expand_powers(answer: str) -> str:
    """``(x - 2)^2`` written as ``(x - 2)(x - 2)``."""
    out, i = [], 0
    while i < len(answer):  # bounded: i grows every pass
        if answer[i] == "(":
            end = answer.index(")", i)
            group = answer[i:end + 1]
            if answer[end + 1:end + 2] == "^":
                times = int(answer[end + 2])
                out.append(group * times)
                i = end + 3
                continue
            out.append(group)
            i = end + 1
            continue
        out.append(answer[i])
        i += 1
    return "".join(out)


def _drop_last_factor(answer: str) -> str:
    """The answer without its last bracketed factor (a product that is no longer the polynomial)."""
    cut = answer.rfind("(")
    return answer[:cut] or "1"
