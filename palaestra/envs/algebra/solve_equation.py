"""Solve one equation in x over the reals: linear, quadratic, or rational.

Level 0 is a linear equation with an integer root, level 1 a linear equation
with brackets and a rational root, level 2 a quadratic with rational roots,
level 3 a quadratic whose roots may be surds (or may not exist), level 4 an
equation ``A/(x - p) + B/(x - q) = C`` that reduces to such a quadratic. The
equations are built from their roots with exact integer arithmetic, so the
solution set is known without calling a solver.

The answer is the set of real solutions separated by commas, in any order,
each at most once, in any equivalent exact form: ``x = 3, x = -1/2``,
``-0.5, 3``, ``(1 + sqrt(5))/2, (1 - sqrt(5))/2``, ``x = (1 ± √5)/2``; ``none``
when there is no real solution. Each value is read by the whitelisting
expression reader and compared numerically with a tight tolerance.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.expressions import close, evaluate_float, parse_expression
from palaestra.verifiers.numeric import format_number

MAX_ANSWER_CHARS = 2_000
MAX_VALUES = 8
_SQUAREFREE = (2, 3, 5, 6, 7, 10, 11, 13, 14, 15, 17, 19, 21)
_EMPTY_SET = {"none", "no solution", "no solutions", "no real solution", "no real solutions", "empty set",
              "∅", "{}", "[]"}
_PREFIX = re.compile(r"^\s*x\s*(?:_?\{?\d\}?)?\s*=\s*")
_SEPARATORS = re.compile(r"\s*(?:,|;|\bor\b|\band\b)\s*")
_PLUS_MINUS = re.compile(r"±|\+/-|\+-|\\pm")
_ROOT_SIGN = re.compile(r"√\s*(\d+)")


@register
class SolveEquation(Task):
    id = "algebra/solve_equation"
    family = "algebra"
    description = "Find every real solution of a linear, quadratic or rational equation in x."
    tags = ("math", "algebra", "equations")

    @dataclass(frozen=True)
    class Config:
        form: str  # linear | brackets | quadratic | rational
        max_root: int  # bound on numerators of the roots
        max_denominator: int  # bound on denominators of the roots
        surd_share: float  # share of quadratics with irrational roots
        no_root_share: float  # share of quadratics with no real root

    def config(self, level: int) -> Config:
        return [
            self.Config(form="linear", max_root=15, max_denominator=1, surd_share=0.0, no_root_share=0.0),
            self.Config(form="brackets", max_root=12, max_denominator=6, surd_share=0.0, no_root_share=0.0),
            self.Config(form="quadratic", max_root=9, max_denominator=3, surd_share=0.0, no_root_share=0.0),
            self.Config(form="quadratic", max_root=8, max_denominator=4, surd_share=0.6, no_root_share=0.1),
            self.Config(form="rational", max_root=6, max_denominator=3, surd_share=0.4, no_root_share=0.07),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        equation, roots = _EQUATIONS[config.form](rng, config)
        roots = sorted(set(roots), key=lambda r: r.value)
        answer = ", ".join(r.text for r in roots) or "none"
        prompt = (
            f"Solve the equation for the real number x:\n\n{equation}\n\n"
            "Give every real solution exactly once, separated by commas, as exact values: integers, "
            "fractions or square roots, e.g. x = 3, x = -1/2 or x = (1 + sqrt(5))/2, x = (1 - sqrt(5))/2. "
            "If there is no real solution, answer none."
        )
        return Problem(prompt=prompt, answer=answer, data={"equation": equation, "roots": [r.value for r in roots]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = _read_solutions(answer)
        if values is None:
            return Verdict.unparsed("could not read the solutions as exact real numbers")
        expected = list(problem.data["roots"])
        for value in values:
            match = next((r for r in expected if close(value, r, rel=1e-9, abs_tol=1e-9)), None)
            if match is None:
                feedback = "a solution is listed twice" if _is_root(value, problem) else "a value is not a solution"
                return Verdict.wrong(feedback)
            expected.remove(match)
        if expected:
            return Verdict.wrong("a solution is missing")
        return Verdict.right()

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        roots = problem.data["roots"]
        outsider = next(k for k in range(-50, 50) if not any(abs(k - r) < 1e-6 for r in roots))
        gold = problem.answer or ""
        if not roots:
            return [str(outsider)]
        wrong = ["none", f"{gold}, {outsider}", str(outsider)]
        if len(roots) > 1:
            wrong.append(gold.split(", ")[0])  # one solution missing
        return wrong


@dataclass(frozen=True)
class _Root:
    """The number ``rational + coefficient * sqrt(radicand)``."""

    rational: Fraction
    coefficient: Fraction = Fraction(0)
    radicand: int = 1

    @property
    def value(self) -> float:
        return float(self.rational) + float(self.coefficient) * math.sqrt(self.radicand)

    @property
    def text(self) -> str:
        if self.coefficient == 0:
            return format_number(self.rational)
        denominator = math.lcm(self.rational.denominator, self.coefficient.denominator)
        constant, scale = int(self.rational * denominator), int(abs(self.coefficient) * denominator)
        surd = f"sqrt({self.radicand})" if scale == 1 else f"{scale}*sqrt({self.radicand})"
        sign = "-" if self.coefficient < 0 else "+"
        numerator = f"{constant} {sign} {surd}" if constant else ("-" if sign == "-" else "") + surd
        if denominator == 1:
            return numerator
        return f"({numerator})/{denominator}" if constant else f"{numerator}/{denominator}"


def _rational(rng: random.Random, config: SolveEquation.Config) -> Fraction:
    return Fraction(rng.randint(-config.max_root, config.max_root), rng.randint(1, config.max_denominator))


def _linear(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root]]:
    root = rng.randint(-config.max_root, config.max_root)
    slope = rng.choice([-1, 1]) * rng.randint(2, 9)
    # move a random linear polynomial to both sides so x may appear on the right too
    right = [rng.choice([0, 0, rng.randint(-6, 6)]), rng.randint(-30, 30)]
    left = [slope + right[0], -slope * root + right[1]]
    if left[0] == 0:
        left, right = [slope, -slope * root], [0, 0]
    return f"{_poly_text(left)} = {_poly_text(right)}", [_Root(Fraction(root))]


def _brackets(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root]]:
    """``a(x + b) + c = dx + e`` with a - d a multiple of the root's denominator, so e is an integer."""
    root = _rational(rng, config)
    d = rng.randint(-6, 6)
    a = d + rng.choice([-2, -1, 1, 2]) * root.denominator
    if a == 0:
        a = d + 2 * root.denominator
    b, c = rng.choice([-1, 1]) * rng.randint(1, 9), rng.randint(-15, 15)
    e = int((a - d) * root) + a * b + c
    factor = {1: "", -1: "-"}.get(a, str(a))
    left = f"{factor}(x {'+' if b > 0 else '-'} {abs(b)})" + (f" {'+' if c > 0 else '-'} {abs(c)}" if c else "")
    return f"{left} = {_poly_text([d, e])}", [_Root(root)]


def _quadratic_roots(rng: random.Random, config: SolveEquation.Config) -> tuple[list[int], list[_Root]]:
    """Integer coefficients ``[c2, c1, c0]`` (coprime) of a quadratic and its real roots."""
    draw = rng.random()
    if draw < config.no_root_share:
        p, q = rng.randint(-config.max_root, config.max_root), rng.randint(1, config.max_denominator)
        coefficients, roots = [q * q, -2 * p * q, p * p + rng.randint(1, 12)], []
    elif draw < config.no_root_share + config.surd_share:
        p, q = rng.randint(-config.max_root, config.max_root), rng.randint(1, config.max_denominator)
        r, s = rng.randint(1, 3), rng.choice(_SQUAREFREE)
        coefficients = [q * q, -2 * p * q, p * p - r * r * s]
        roots = [_Root(Fraction(p, q), Fraction(sign * r, q), s) for sign in (-1, 1)]
    else:
        first, second = _rational(rng, config), _rational(rng, config)
        if rng.random() < 0.1:
            second = first  # a double root, to be listed once
        coefficients = [
            first.denominator * second.denominator,
            -(first.numerator * second.denominator + second.numerator * first.denominator),
            first.numerator * second.numerator,
        ]
        roots = [_Root(first), _Root(second)]
    divisor = math.gcd(*coefficients) * rng.choice([-1, 1])
    return [c // divisor for c in coefficients], roots


def _quadratic(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root]]:
    coefficients, roots = _quadratic_roots(rng, config)
    if rng.random() < 0.5:
        return f"{_poly_text(coefficients)} = 0", roots
    right = [rng.randint(-3, 3), rng.randint(-9, 9), rng.randint(-20, 20)]
    left = [c + r for c, r in zip(coefficients, right)]
    return f"{_poly_text(left)} = {_poly_text(right)}", roots


def _rational_equation(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root]]:
    """``A/(x - p) + B/(x - q) = C``; clearing denominators gives ``C * f(x) = 0`` for the chosen quadratic f.

    With f monic, A = C f(p)/(q - p) and B = C f(q)/(p - q); C is the smallest
    multiplier that makes A and B integers, and f(p), f(q) != 0 keeps the poles
    away from the roots.
    """
    while True:  # about half of the draws give small enough integers
        coefficients, roots = _quadratic_roots(rng, config)
        p, q = rng.sample(range(-6, 7), 2)
        f_p, f_q = _monic_value(coefficients, p), _monic_value(coefficients, q)
        if f_p == 0 or f_q == 0:
            continue
        ratio_a, ratio_b = f_p / (q - p), f_q / (p - q)
        c = math.lcm(ratio_a.denominator, ratio_b.denominator) * rng.choice([-2, -1, 1, 2])
        a, b = int(c * ratio_a), int(c * ratio_b)
        if max(abs(a), abs(b), abs(c)) <= 99:
            break
    equation = f"{a}/{_shifted_x(p)} {'+' if b > 0 else '-'} {abs(b)}/{_shifted_x(q)} = {c}"
    return equation, roots


def _monic_value(coefficients: list[int], x: int) -> Fraction:
    """The value at ``x`` of the quadratic with these coefficients divided by its leading one."""
    c2, c1, c0 = coefficients
    return Fraction(c2 * x * x + c1 * x + c0, c2)


def _shifted_x(pole: int) -> str:
    return "x" if pole == 0 else f"(x {'-' if pole > 0 else '+'} {abs(pole)})"


def _poly_text(coefficients: list[int]) -> str:
    """``[3, -1, 0]`` -> ``3x^2 - x`` (highest power first)."""
    degree = len(coefficients) - 1
    terms = []
    for power, c in zip(range(degree, -1, -1), coefficients):
        if c == 0:
            continue
        variable = {0: "", 1: "x"}.get(power, f"x^{power}")
        magnitude = str(abs(c)) if abs(c) != 1 or not variable else ""
        sign = "-" if c < 0 else "+"
        terms.append((sign, magnitude + variable))
    if not terms:
        return "0"
    first_sign, first = terms[0]
    return ("-" if first_sign == "-" else "") + first + "".join(f" {s} {t}" for s, t in terms[1:])


def _read_solutions(answer: str) -> list[float] | None:
    """The real values listed in ``answer`` (empty for "none"), or ``None`` if any part is unreadable."""
    text = answer.strip().rstrip(".").strip()
    if len(text) > MAX_ANSWER_CHARS:
        return None
    if text.lower().strip("$ ") in _EMPTY_SET:
        return []
    if text[:1] + text[-1:] in ("{}", "[]"):
        text = text[1:-1]
    text = _ROOT_SIGN.sub(r"sqrt(\1)", text).replace("√", "sqrt")
    parts = [_PREFIX.sub("", part) for part in _SEPARATORS.split(text)]
    expressions = [e for part in parts for e in _expand_plus_minus(part)]
    if not expressions or len(expressions) > MAX_VALUES:
        return None
    values = []
    for expression in expressions:
        value = evaluate_float(parse_expression(expression))
        if value is None or abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
            return None
        values.append(value.real)
    return values


def _expand_plus_minus(part: str) -> list[str]:
    """``(1 ± sqrt(5))/2`` -> both values; a part with more than one ± is left unreadable."""
    pieces = _PLUS_MINUS.split(part)
    if len(pieces) == 2:
        return [f"{pieces[0]}+{pieces[1]}", f"{pieces[0]}-{pieces[1]}"]
    return [part] if len(pieces) == 1 else ["?"]


def _is_root(value: float, problem: Problem) -> bool:
    return any(close(value, r, rel=1e-9, abs_tol=1e-9) for r in problem.data["roots"])


_EQUATIONS = {"linear": _linear, "brackets": _brackets, "quadratic": _quadratic, "rational": _rational_equation}
