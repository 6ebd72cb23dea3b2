"""Find an antiderivative (indefinite integral), judged by differentiating the answer.

The integrand is a sum of pieces with known antiderivatives
(:mod:`palaestra.envs.calculus.common`): powers of x at level 0; reciprocals, roots,
exponentials and sines at level 1; linear substitutions at level 2; integration by
parts, the chain rule in reverse and arctangents at level 3; partial fractions,
parts twice, ``e^(px) sin(qx)`` and squared sines at level 4.

Any antiderivative is right, with or without a constant of integration (``+ C``): the
answer is read by the formula reader (:mod:`palaestra.verifiers.formulas`; ``ln|x|``,
``\\frac{x^3}{3}``, ``\\arctan(x/2)``, ``x e^{2x}``...), differentiated exactly (automatic
differentiation at 40 digits) and compared with the integrand at several points of an
interval where the integrand is continuous (the prompt names it when it is not all of
the reals), and its values must stay one constant apart from the reference antiderivative's at all those points
(a step added inside the interval, ``+ |x - 1|/(x - 1)``, has the right derivative at each point but is no
antiderivative on the interval). Rounded coefficients (``0.333x^3``) do not pass. A closing clause that only says
what the constant is (``+ C, where C is a constant``, ``+ C, C ∈ ℝ``, ``+ C (C arbitrary)``) is
dropped; any other text after the formula leaves it unreadable. The integral may be restated before the formula,
named or not (``∫ f(x) dx =``, ``F(x) = \\int (...)\\,dx =``, ``\\int ... \\mathrm{d}x = F(x) =``; refused before).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.calculus.common import HARD, PARTS, SIMPLE, SUBSTITUTION, TEMPLATES, Piece, moved_parts
from palaestra.verifiers.expressions import Expr
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
from palaestra.verifiers.normalize import strip_wrappers

POINTS = 6
_EXAMPLE = "x^4/4 - 3x*cos(x) + 2ln|x| + C"


@register
class Antiderivative(Task):
    id = "calculus/antiderivative"
    family = "calculus"
    description = "Find any antiderivative of a function (checked by differentiating the answer)."
    tags = ("math", "calculus", "integration")

    @dataclass(frozen=True)
    class Config:
        groups: tuple[tuple[str, ...], ...]  # one template drawn from each group
        extra: float  # chance of one more simple term
        top: int  # coefficients up to this size

    def config(self, level: int) -> Config:
        powers = ("power",)
        return [
            self.Config(groups=(powers, powers), extra=0.7, top=9),
            self.Config(groups=(SIMPLE, SIMPLE), extra=0.5, top=9),
            self.Config(groups=(SUBSTITUTION, SIMPLE), extra=0.3, top=6),
            self.Config(groups=(PARTS,), extra=1.0, top=6),
            self.Config(groups=(HARD,), extra=1.0, top=6),
        ][level]
    bounded = "its levels are kinds of problem (the `groups` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pieces = retry(lambda: _draw(rng, config), _compatible, what="pieces with a common interval")
        low, high = max(p.low for p in pieces), min(p.high for p in pieces)
        integrand = linear_combination([t for p in pieces for t in p.integrand])
        antiderivative = linear_combination([t for p in pieces for t in p.antiderivative])
        interval = "" if (low, high) == (Fraction(-3), Fraction(3)) else f" on the interval {_interval(low, high)}"
        prompt = (
            f"Find an antiderivative of f(x) = {integrand}{interval}.\n\n"
            "Any antiderivative is accepted, with or without a constant of integration. Give a formula in x "
            f"(write products with *, exact coefficients), e.g. {_EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=antiderivative + " + C", data={
            "integrand": integrand, "antiderivative": antiderivative, "low": str(low), "high": str(high),
            "weight": sum(p.weight for p in pieces), "terms": sum(len(p.integrand) for p in pieces),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        tree = read_formula(_formula_text(answer), ["x"], functions=CALCULUS_FUNCTIONS, constant=True)
        if tree is None:
            return Verdict.unparsed("not a formula in x")
        integrand = reference_tree(problem.data["integrand"], ("x",))
        reference = reference_tree(problem.data["antiderivative"], ("x",))
        checked, offset = 0, None
        for point in _points(problem):
            want = evaluate(integrand, point)
            got = derivative_at(tree, "x", point)
            if want is None:
                continue
            if got is None or not agree(got[1], want):
                return Verdict.wrong("its derivative is not the integrand")
            # one constant apart from the reference across the whole interval: a step added between two points
            # (+ |x - 1|/(x - 1)) has the right derivative at each point but is no antiderivative on the interval
            base = evaluate(reference, point)
            gap = None if base is None else got[0] - base
            if offset is None:
                offset = gap
            elif gap is not None and not agree(gap, offset):
                return Verdict.wrong("it jumps inside the interval: not an antiderivative on all of it")
            checked += 1
        if checked >= 3 and _quadrature(tree, integrand):
            return Verdict.wrong("a quadrature of the integrand (its values at x/2, x, ...), not an antiderivative")
        return Verdict.judge(checked >= 3, "its derivative is not the integrand")

    def difficulty(self, problem: Problem) -> float:
        """Techniques needed (1 per power, 2 per other simple term, 4 per substitution, 6 by parts, 8 for the
        hardest) plus the integrand's terms."""
        return float(problem.data["weight"] + problem.data["terms"])

    def spellings(self, problem: Problem) -> list[str]:
        f = problem.data["antiderivative"]
        latex = f.replace("ln|", "\\ln|").replace("e^(", "e^{").replace("sin(", "\\sin(").replace("cos(", "\\cos(")
        latex = _close_braces(latex)
        return [*super().spellings(problem), f, f"F(x) = {f} + C", f"{f} + 7", f"{f} - 5/2",
                f"{latex} + C", f"∫f(x) dx = {f} + C", f"F(x) = \\int f(x)\\,dx = {f} + C",
                f"\\int ({problem.data['integrand']}) \\mathrm{{d}}x = F(x) = {f} + C", f"{f} + C.",
                f"{f} + C, where C is a constant", f"{f} + C, \\quad C \\in \\mathbb{{R}}",
                f"{f} + C (C an arbitrary constant)."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        f = problem.data["antiderivative"]
        integrand = problem.data["integrand"]
        return [integrand, f"{f} + x", f"2*({f})", f"-({f})", f"({f})*x", f"{f} + C or {integrand}",
                f"{f} + 0.0000001x", f"{f} + C, where C = x", f"{integrand} + C, where C is a constant"]


MAX_CLAUSE_ANSWER = 600  # longer answers are not searched for a restated integral or a clause about the constant
# The integral restated before the answer, named or not: "∫ f(x) dx =", "F(x) = \int (3x^2 + 1)\,dx =",
# "\int ... \mathrm{d}x = F(x) =". No "=" inside, so the formula read is the one after the last "="
# of this prefix; the integrand written there is not judged (the answer is)
_RESTATED = re.compile(
    r"(?:[A-Za-z] ?\( ?x ?\) ?= ?)?(?:\\int|∫)[^=]{0,400}?(?:\\(?:mathrm|text|operatorname) ?\{ ?d ?\}|d) ?x ?= ?"
    r"(?:[A-Za-z] ?\( ?x ?\) ?= ?)?"
)
# What a closing clause may say about the constant, after "," ";" "(" or a space: "where C is an arbitrary real
# constant", "C ∈ ℝ", "for any constant C", "C constant". Applied to the text after the last separator only.
_CONSTANT_CLAUSE = re.compile(
    r"(?:(?:where|with|for|and)\s+)?(?:"
    r"(?:the\s+)?[Cc]\s+(?:is\s+)?(?:(?:an?|any|some|the)\s+)?(?:(?:arbitrary|real|integration)\s+)*"
    r"(?:constant|real number|number)(?:\s+of integration)?"
    r"|[Cc]\s*(?:∈|\\in)\s*(?:ℝ|\\mathbb\{R\}|\\mathbb R|\\R|R)"
    r"|(?:(?:an?|any|some)\s+)?(?:(?:arbitrary|real)\s+)*constants?\s+[Cc]"
    r"|[Cc]\s+(?:an?\s+)?(?:arbitrary|real)(?:\s+constant)?"
    r")"
)


def _formula_text(answer: str) -> str:
    """The answer without a restated integral before it or a clause about the constant after it."""
    text = strip_wrappers(answer)
    restated = _RESTATED.match(text) if len(text) <= MAX_CLAUSE_ANSWER else None
    if restated is None or restated.end() == len(text):
        return _without_constant_clause(answer)
    return _without_constant_clause(text[restated.end():])


def _without_constant_clause(answer: str) -> str:
    """The answer without a closing clause about the constant of integration (``..., where C is a constant``)."""
    text = strip_wrappers(answer)
    if len(text) > MAX_CLAUSE_ANSWER:
        return answer
    for latex, plain in (("\\quad", " "), ("\\qquad", " "), ("\\,", " "), ("\\;", " "), ("\\text{", "{")):
        text = text.replace(latex, plain)
    body = text.strip().removesuffix(".").strip()
    closed = body.endswith(")")
    cut = max(body.rfind(","), body.rfind(";"), body.rfind("(") if closed else -1)
    if cut <= 0:
        cut = max(body.rfind(" where "), body.rfind(" with "), body.rfind(" for "))
    if cut <= 0:
        return answer
    clause = body[cut:].lstrip(",;( ").removesuffix(")").strip().replace("{", " ").replace("}", " ")
    if not _CONSTANT_CLAUSE.fullmatch(" ".join(clause.split())):
        return answer
    return body[:cut].rstrip()


def _draw(rng: random.Random, config: Antiderivative.Config) -> list[Piece]:
    pieces = [TEMPLATES[rng.choice(group)](rng, config.top) for group in config.groups]
    if rng.random() < config.extra:
        pieces.append(TEMPLATES[rng.choice(SIMPLE if config.groups[0] != ("power",) else ("power",))](rng, config.top))
    return pieces


def _compatible(pieces: list[Piece]) -> bool:
    """A common interval of length at least 1, and no two pieces with the same first term (they would merge)."""
    low, high = max(p.low for p in pieces), min(p.high for p in pieces)
    bodies = [t for p in pieces for _, t in p.integrand]
    return high - low >= 1 and len(set(bodies)) == len(bodies)


def _points(problem: Problem) -> list[dict[str, Fraction]]:
    return points_in(Fraction(problem.data["low"]), Fraction(problem.data["high"]), POINTS)


def _interval(low: Fraction, high: Fraction) -> str:
    def show(v: Fraction) -> str:
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"

    return f"{show(low)} < x < {show(high)}"


def _close_braces(text: str) -> str:
    """``e^{...)`` made ``e^{...}``: the bracket that closes an opened ``{`` becomes ``}``."""
    out, stack = [], []
    for char in text:
        if char in "({":
            stack.append(char)
        elif char == ")" and stack:
            char = "}" if stack.pop() == "{" else ")"
        out.append(char)
    return "".join(out)


def _quadrature(tree: Expr, integrand: Expr) -> bool:
    """Whether the answer holds a part of the integrand at two or more arguments a*x + b other than x: Boole's
    rule on [0, x], x*(7f(0) + 32f(x/4) + 12f(x/2) + 32f(3x/4) + 7f(x))/90, is an antiderivative of every
    polynomial of degree 5 or less, found without integrating. The nodes of such a rule move x by a slope
    under 1 (0, x/4, x/2); an antiderivative holds the integrand's parts at x or at steeper arguments
    (sin(x)^2 -> sin(2x))."""
    points = [{"x": Fraction(v)} for v in (0, 1, 2)]

    def values(part: Expr) -> list[Any] | None:
        seen = [evaluate(part, point) for point in points]
        return None if any(v is None for v in seen) else seen

    # a node of a rule on [0, x] is t*x with 0 <= t < 1 (t = 1 is x itself); of one on [c, x], t*x + (1 - t)*c.
    # A number other than 0 is no node: 5/x holds 5/2 "at x = 2"
    return moved_parts(tree, integrand, values, lambda slope, intercept: 1e-20 < abs(slope) < 1 - 1e-20
                       or (abs(slope) <= 1e-20 and abs(intercept) <= 1e-20))
