"""Solve an inequality in x over the reals; the answer is a union of intervals.

Level 0 is linear (``3x - 5 <= 7x + 2``, with the flip when dividing by a negative);
level 1 quadratic with integer roots; level 2 polynomial of degree 3-4 with rational
roots, some repeated (so sign changes are skipped), shown factored or expanded, and
perfect squares whose solution is empty, one point, or all reals but one; level 3
rational (``(x - 2)/(x + 3) >= 1``, poles excluded); level 4 quadratics with irrational
roots (endpoints ``(5 - √13)/2``) and absolute values (``|2x - 3| > 5``).

The generator knows every critical point exactly (built from chosen roots) and finds the
sign between them by evaluating at midpoints, so the solution set is exact. Any
spelling of the same set is right (:mod:`palaestra.verifiers.intervals`): interval
notation with ``∪``, ``U`` or ``\\cup``, inequalities joined by ``or``, ``ℝ``/``all real
numbers``, ``ℝ \\ {2}``, ``∅``/``no solution``; endpoints must be exact and brackets right.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.intervals import (
    Interval,
    canonical,
    format_inequalities,
    format_intervals,
    read_intervals,
)
from palaestra.verifiers.polynomials import Polynomial, coefficients, format_polynomial, from_coefficients, multiply
from palaestra.verifiers.radicals import work_left

# what separates the endpoints of a set written as intervals or inequalities (a bracket is trimmed off each piece)
_PIECE_BREAK = re.compile(r",|;|∪|\\cup|<|>|≤|≥|=|≠|\\le|\\ge|\\ne|\[|\]|\{|\}|\||\b(?:or|and|U)\b")
MAX_PIECES = 40


def _trim(piece: str) -> str:
    """``piece`` without the brackets of the interval around it: ``((-1 + sqrt(5))/2`` -> ``(-1 + sqrt(5))/2``."""
    text = piece.strip()
    for _ in range(len(text)):
        if text.count("(") > text.count(")") and text.startswith("("):
            text = text[1:].strip()
        elif text.count(")") > text.count("(") and text.endswith(")"):
            text = text[:-1].strip()
        else:
            break
    return text


def _left_undone(answer: str) -> bool:
    """Whether an endpoint leaves arithmetic undone (:func:`palaestra.verifiers.radicals.work_left`): a sum of numbers
    (``(-15 + 31)/8``), a power (``2^2``) or a sum under a root (``sqrt(1 + 64)``); ``-1/2 - sqrt(65)/2`` and
    ``(-1 + √65)/2`` are values."""
    pieces = _PIECE_BREAK.split(answer.replace("\\left", "").replace("\\right", ""))
    return any(work_left(_trim(piece)) for piece in pieces[:MAX_PIECES] if any(c.isdigit() for c in piece))


_RELATIONS = ("<", "<=", ">", ">=")
_SHOWN = {"<": "<", "<=": "≤", ">": ">", ">=": "≥"}
_EXAMPLES = ("(-∞, -4) ∪ [1/2, 3]", "[-1, 5/3) ∪ (7, ∞)")


@register
class Inequalities(Task):
    id = "algebra/inequalities"
    version = 2
    family = "algebra"
    description = "Solve a linear, polynomial, rational or absolute-value inequality; answer as a union of intervals."
    tags = ("math", "algebra", "inequalities")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("linear",)),
        Config(("quadratic",)),
        Config(("polynomial", "polynomial", "square")),
        Config(("rational",)),
        Config(("irrational", "absolute")),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        shown, numerator, denominator, critical, relation = retry(lambda: _KINDS[kind](rng), what="an inequality")
        solution = solve(numerator, denominator, critical, relation)
        answer = format_intervals(solution)
        example = _EXAMPLES[0]  # a fixed placeholder: independent of the answer
        prompt = (
            f"Solve the inequality {shown} for real x.\n\n"
            f"Give the solution set in interval notation, e.g. {example} (exact endpoints; ∅ if there is none)."
        )
        return Problem(prompt=prompt, answer=answer, data={
            "kind": kind, "solution": answer, "degree": len(coefficients(numerator)) - 1 +
            len(coefficients(denominator)) - 1, "critical": len(critical),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        got = read_intervals(answer, allow_empty=True)
        if got is None:
            return Verdict.unparsed("not a set of real numbers (write intervals such as (-∞, 2] ∪ (3, 5))")
        if _left_undone(answer):  # ((-15 + 31)/8, ∞), x > (-1 + sqrt(1 + 64))/2: the inequality's numbers typed back
            return Verdict.wrong("arithmetic left undone: work each endpoint out to a simplified exact value")
        return Verdict.judge(got == read_intervals(problem.data["solution"], allow_empty=True), "wrong solution set")

    def difficulty(self, problem: Problem) -> float:
        """Degree of the polynomials involved plus the critical points, plus 1-4 for repeated roots, poles,
        irrational roots and absolute values, plus the pieces of the solution set and a tenth of its digits."""
        extra = {"linear": 0, "quadratic": 0, "polynomial": 1, "square": 1, "rational": 2, "irrational": 4,
                 "absolute": 4}[problem.data["kind"]]
        solution = problem.data["solution"]
        pieces = solution.count("∪") + 1
        digits = sum(c.isdigit() for c in solution)
        return float(problem.data["degree"] + problem.data["critical"] + extra) + pieces / 2 + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        solution = read_intervals(problem.data["solution"], allow_empty=True)
        assert solution is not None
        ascii_form = problem.answer.replace("∞", "inf").replace(" ∪ ", " U ")
        latex = problem.answer.replace("∞", "\\infty").replace("∪", "\\cup")
        return [*super().spellings(problem), format_inequalities(solution), ascii_form, latex,
                f"x ∈ {problem.answer}", f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        solution = read_intervals(problem.data["solution"], allow_empty=True)
        assert solution is not None
        wrong = []
        if solution:
            first = solution[0]
            flipped = Interval(first.low, not first.low_closed if first.low is not None else False, first.high,
                               not first.high_closed if first.high is not None else False)
            wrong.append(format_intervals(canonical([flipped, *solution[1:]])))
            wrong.append(format_intervals(_complement(solution)))
            wrong.append(f"{problem.answer} or {format_intervals((first,))}")  # a hedge: a piece inside the answer
        else:
            wrong.append("(-∞, ∞)")
        wrong.append(f"{problem.answer} or maybe ∅" if solution else "{0}")
        return [w for w in wrong if read_intervals(w, allow_empty=True) != solution or " or " in w]


def _complement(solution: tuple[Interval, ...]) -> tuple[Interval, ...]:
    pieces, low, low_closed = [], None, False
    for p in solution:
        if not (low is None and p.low is None):
            pieces.append(Interval(low, low_closed, p.low, not p.low_closed))
        low, low_closed = p.high, not p.high_closed
    if low is not None:
        pieces.append(Interval(low, low_closed, None, False))
    return canonical(pieces)


def _value(poly: Polynomial, x: float) -> float:
    return sum(float(c) * x**k for k, c in enumerate(coefficients(poly)))


def solve(numerator: Polynomial, denominator: Polynomial, critical: list[Surd], relation: str) -> tuple[Interval, ...]:
    """The solution set of ``numerator/denominator  relation  0`` from the exact critical points (every real root
    of either polynomial), by the sign at midpoints; a root of the numerator is included for ``<=``/``>=``."""
    points = sorted(set(critical), key=float)

    def holds(x: float) -> bool:
        value = _value(numerator, x) / _value(denominator, x)
        return {"<": value < 0, "<=": value <= 0, ">": value > 0, ">=": value >= 0}[relation]

    floats = [float(p) for p in points]
    tests = [floats[0] - 1] if floats else [0.0]
    tests += [(a + b) / 2 for a, b in zip(floats, floats[1:])] + ([floats[-1] + 1] if floats else [])
    bounds = [None, *points, None]
    pieces = [Interval(bounds[i], False, bounds[i + 1], False) for i, x in enumerate(tests) if holds(x)]
    if relation in ("<=", ">="):
        for p in points:
            if _exact_sign(numerator, p) == 0 and _exact_sign(denominator, p) != 0:
                pieces.append(Interval(p, True, p, True))
    return canonical(pieces)


def _exact_sign(poly: Polynomial, point: Surd) -> int:
    total = Surd.rational(0)
    power = Surd.rational(1)
    for c in coefficients(poly):
        total = total + power * c
        power = power * point
    if not total.terms:
        return 0
    return 1 if float(total) > 0 else -1


# --- problem kinds --------------------------------------------------------------------

Drawn = tuple[str, Polynomial, Polynomial, list[Surd], str]
ONE = from_coefficients([1])


def _linear_poly(a: Fraction | int, b: Fraction | int) -> Polynomial:
    return from_coefficients([b, a])


def _side(a: int, b: int) -> str:
    return format_polynomial(_linear_poly(a, b), ["x"])


def _linear(rng: random.Random) -> Drawn:
    a, c = rng.sample([v for v in range(-9, 10) if v], 2)
    b, d = rng.randint(-15, 15), rng.randint(-15, 15)
    relation = rng.choice(_RELATIONS)
    root = Fraction(d - b, a - c)
    shown = f"{_side(a, b)} {_SHOWN[relation]} {_side(c, d)}"
    return shown, _linear_poly(a - c, b - d), ONE, [Surd.rational(root)], relation


def _product(roots: list[Fraction], lead: int) -> Polynomial:
    poly = from_coefficients([lead])
    for r in roots:
        poly = multiply(poly, from_coefficients([-r.numerator, r.denominator]))
    return poly


def _quadratic(rng: random.Random) -> Drawn | None:
    r1, r2 = rng.sample(range(-12, 13), 2)
    lead = rng.choice([1, 1, 2, -1, 3, -2, -3, 4])
    poly = _product([Fraction(r1), Fraction(r2)], lead)
    relation = rng.choice(_RELATIONS)
    shift = rng.choice([0, rng.randint(-20, 20)])  # sometimes a constant on the right-hand side
    left = {k: v for k, v in poly.items()}
    left[(0,)] = left.get((0,), Fraction(0)) + shift
    left = {k: v for k, v in left.items() if v}
    shown = f"{format_polynomial(left, ['x'])} {_SHOWN[relation]} {shift}"
    return shown, poly, ONE, [Surd.rational(r1), Surd.rational(r2)], relation


def _polynomial(rng: random.Random) -> Drawn | None:
    count = rng.randint(3, 4)
    roots = [Fraction(rng.randint(-6, 6), rng.choice([1, 1, 2, 3])) for _ in range(count)]
    if len(set(roots)) == count and rng.random() < 0.5:
        roots[-1] = roots[0]  # a repeated root: no sign change there
    lead = rng.choice([1, -1, 2])
    poly = _product(roots, lead)
    relation = rng.choice(_RELATIONS)
    if rng.random() < 0.5:
        shown_poly = format_polynomial(poly, ["x"])
    else:
        factors = "".join(f"({format_polynomial(from_coefficients([-r.numerator, r.denominator]), ['x'])})"
                          for r in roots)
        shown_poly = ("-" if lead == -1 else "" if lead == 1 else str(lead)) + factors
    return f"{shown_poly} {_SHOWN[relation]} 0", poly, ONE, [Surd.rational(r) for r in set(roots)], relation


def _square(rng: random.Random) -> Drawn:
    r = Fraction(rng.randint(-15, 15), rng.choice([1, 2, 3]))
    k = rng.randint(1, 5)
    poly = _product([r, r], k * rng.choice([1, -1]))
    relation = rng.choice(_RELATIONS)
    return f"{format_polynomial(poly, ['x'])} {_SHOWN[relation]} 0", poly, ONE, [Surd.rational(r)], relation


def _rational(rng: random.Random) -> Drawn | None:
    a, b = rng.sample(range(-8, 9), 2)
    relation = rng.choice(_RELATIONS)
    if rng.random() < 0.5:  # (x - a)/(x - b) rel c  ->  ((x - a) - c(x - b))/(x - b) rel 0
        c = rng.choice([v for v in range(-3, 4) if v != 1])
        numerator = from_coefficients([-a + c * b, 1 - c])
        roots = [Surd.rational(Fraction(a - c * b, 1 - c)), Surd.rational(b)]
        shown = f"({_side(1, -a)})/({_side(1, -b)}) {_SHOWN[relation]} {c}"
        if Fraction(a - c * b, 1 - c) == b:
            return None
        return shown, numerator, from_coefficients([-b, 1]), roots, relation
    c = rng.choice([v for v in range(-8, 9) if v not in (a, b)])
    numerator = _product([Fraction(a), Fraction(c)], 1)
    denominator = from_coefficients([-b, 1])
    shown = f"({format_polynomial(numerator, ['x'])})/({_side(1, -b)}) {_SHOWN[relation]} 0"
    return shown, numerator, denominator, [Surd.rational(v) for v in (a, b, c)], relation


def _irrational(rng: random.Random) -> Drawn | None:
    a, b, c = rng.choice([1, 1, 2, 3, -1]), rng.randint(-15, 15), rng.randint(-20, 20)
    discriminant = b * b - 4 * a * c
    if discriminant <= 0 or math.isqrt(discriminant) ** 2 == discriminant:
        return None
    root = Surd.sqrt(Fraction(discriminant)) * Fraction(1, 2 * abs(a))
    roots = [Surd.rational(Fraction(-b, 2 * a)) - root, Surd.rational(Fraction(-b, 2 * a)) + root]
    poly = from_coefficients([c, b, a])
    relation = rng.choice(_RELATIONS)
    return f"{format_polynomial(poly, ['x'])} {_SHOWN[relation]} 0", poly, ONE, roots, relation


def _absolute(rng: random.Random) -> Drawn:
    p, q, c = rng.choice([1, 2, 3, 4, -1, -2, -3]), rng.randint(-15, 15), rng.randint(1, 20)
    relation = rng.choice(_RELATIONS)
    inner = _linear_poly(p, q)
    square = multiply(inner, inner)
    square[(0,)] = square.get((0,), Fraction(0)) - c * c  # |u| rel c  <=>  u^2 - c^2 rel 0 (c > 0)
    roots = [Surd.rational(Fraction(c - q, p)), Surd.rational(Fraction(-c - q, p))]
    shown = f"|{_side(p, q)}| {_SHOWN[relation]} {c}"
    return shown, {k: v for k, v in square.items() if v}, ONE, roots, relation


_KINDS = {"linear": _linear, "quadratic": _quadratic, "polynomial": _polynomial, "square": _square,
          "rational": _rational, "irrational": _irrational, "absolute": _absolute}
