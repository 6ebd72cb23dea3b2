"""Find the root of an increasing function to a stated precision with a sandboxed Python interpreter.

``f(x)`` is a sum of increasing terms on an interval ``[a, b]`` with ``a >= 1`` (positive multiples
of ``x^k``, ``exp(x)``, ``ln(x + 1)``, ``sqrt(x)``, ``-exp(-x)``, ``-1/(x + 1)``) minus a constant,
with a sign change on the interval: the root is unique there and has no closed form. The model
computes it numerically (bisection, Newton) with the python tool and answers rounded to 4-10
decimal places; an answer is accepted when it is within half a unit of the last asked decimal of
the exact root (computed with 40-digit decimals). The difficulty is the number of decimals asked
plus the number of terms.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.verifiers.numeric import Tolerance, format_decimal, grade_number

TERMS = ("power", "exp", "ln", "sqrt", "neg_exp", "neg_reciprocal")
PRECISION = 40


@register
class RootFinding(ToolTask):
    id = "tools/root_finding"
    family = "tools"
    description = "Find the unique root of an increasing non-polynomial function to many decimals with Python."
    tags = ("tools", "multi-turn", "python", "numerical-methods")
    tool_names = ("python",)
    version = 2

    @dataclass(frozen=True)
    class Config:
        terms: int
        kinds: tuple[str, ...]
        places: int

    presets = (
        Config(2, ("power",), 4),
        Config(3, ("power",), 6),
        Config(3, TERMS, 7),
        Config(4, TERMS, 8),
        Config(5, TERMS, 10),
    )
    growth = Growth(steps={"places": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            terms = []
            for _ in range(config.terms):
                kind = rng.choice(config.kinds)
                power = rng.randint(1, 7) if kind == "power" else 0
                terms.append([kind, str(Fraction(rng.randint(1, 40), 4)), power])
            if len({(k, p) for k, _, p in terms}) < len(terms):
                return None  # a repeated term would just add its coefficients
            low = rng.randint(1, 6)
            high = low + rng.randint(1, 3)
            target = rng.uniform(low + 0.05, high - 0.05)
            constant = Fraction(round(_value(terms, target) * 1000), 1000)
            if not _value(terms, low) < constant < _value(terms, high):
                return None
            return {"terms": terms, "constant": str(constant), "interval": [low, high]}

        task = retry(draw, what="an increasing function with a root in the interval", attempts=100)
        root = _root(task["terms"], Fraction(task["constant"]), *task["interval"])
        answer = _rounded(root, config.places)
        low, high = task["interval"]
        example = "1." + "2345678901"[: config.places]  # the shape only, whatever the answer
        prompt = (
            f"Let f(x) = {_formula(task['terms'], task['constant'])}, where exp is the exponential function and ln "
            f"the natural logarithm. On the interval [{low}, {high}] f is increasing and changes sign, so it has "
            f"exactly one root there. Find it with the python tool and give it rounded to {config.places} decimal "
            f"places, e.g. <answer>{example}</answer>.\n\n{self.tools_prompt(5)}"
        )
        data = {**task, "places": config.places, "root": str(root), "budget": 5}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Decimal places plus terms, plus a tenth of the digits of the constant (the arithmetic per
        evaluation)."""
        data = problem.data
        return data["places"] + len(data["terms"]) + sum(c.isdigit() for c in data["constant"]) / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        tolerance = Tolerance.decimals(problem.data["places"])
        verdict = grade_number(answer, Fraction(problem.data["root"]), tolerance=tolerance)
        if verdict is None:
            return Verdict.unparsed("not a number")
        return Verdict.judge(verdict, "not within the stated rounding of the root")

    def plan(self, problem: Problem) -> list[str]:
        low, high = problem.data["interval"]
        code = (f"from math import exp, log, sqrt\ndef f(x):\n    return {_python(problem.data['terms'])} - "
                f"({_number(problem.data['constant'])})\nlow, high = {low}.0, {high}.0\nfor _ in range(200):\n"
                "    middle = (low + high) / 2\n    if f(middle) < 0:\n        low = middle\n    else:\n"
                f"        high = middle\nprint(f'{{low:.{problem.data['places'] + 2}f}}')")
        return [tool_call("python", code=code), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        places = problem.data["places"]
        root = Fraction(problem.data["root"])
        return [_rounded(root, places + 3), f"x = {problem.answer}", f"≈ {problem.answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        places = problem.data["places"]
        root = Fraction(problem.data["root"])
        unit = Fraction(1, 10**places)
        coarse = _rounded(root, places - 2)  # too few decimals, unless the root happens to be that close
        wrong = [_rounded(root + 2 * unit, places), f"{problem.answer} or {problem.answer}1"]
        return wrong + ([coarse] if abs(Fraction(coarse) - root) > unit / 2 else [])


def _value(terms: list[list[Any]], x: float) -> float:
    """g(x), the sum of the terms, in floating point (for drawing the constant)."""
    return _float_value(_float_terms(terms), x)


def _float_terms(terms: list[list[Any]]) -> list[tuple[str, float, Any]]:
    """The terms with their coefficients (fraction strings) read once as floats, for repeated evaluation."""
    return [(kind, float(Fraction(coefficient)), power) for kind, coefficient, power in terms]


def _float_value(terms: list[tuple[str, float, Any]], x: float) -> float:
    total = 0.0
    for kind, coefficient, power in terms:
        if kind == "power":
            term = x**power
        elif kind == "exp":
            term = math.exp(x)
        elif kind == "ln":
            term = math.log(x + 1)
        elif kind == "sqrt":
            term = math.sqrt(x)
        elif kind == "neg_exp":
            term = -math.exp(-x)
        else:
            term = -1 / (x + 1)
        total += coefficient * term
    return total


def _decimal_value(terms: list[list[Any]], x: Decimal, derivative: bool = False) -> Decimal:
    total = Decimal(0)
    for kind, coefficient, power in terms:
        fraction = Fraction(coefficient)
        c = Decimal(fraction.numerator) / Decimal(fraction.denominator)
        if kind == "power":
            term = power * x ** (power - 1) if derivative else x**power
        elif kind == "exp":
            term = x.exp()
        elif kind == "ln":
            term = 1 / (x + 1) if derivative else (x + 1).ln()
        elif kind == "sqrt":
            term = 1 / (2 * x.sqrt()) if derivative else x.sqrt()
        elif kind == "neg_exp":
            term = (-x).exp() if derivative else -(-x).exp()
        else:
            term = 1 / (x + 1) ** 2 if derivative else -1 / (x + 1)
        total += c * term
    return total


def _root(terms: list[list[Any]], constant: Fraction, low: int, high: int) -> Fraction:
    """The root of g(x) - constant on [low, high]: float bisection, then Newton steps in 40-digit decimals."""
    target = float(constant)
    a, b = float(low), float(high)
    numeric = _float_terms(terms)
    for _ in range(100):
        middle = (a + b) / 2
        a, b = (middle, b) if _float_value(numeric, middle) < target else (a, middle)
    with localcontext() as context:
        context.prec = PRECISION
        x = Decimal(a)
        c = Decimal(constant.numerator) / Decimal(constant.denominator)
        for _ in range(3):  # quadratic convergence from ~1e-15: far past 40 digits
            x -= (_decimal_value(terms, x) - c) / _decimal_value(terms, x, derivative=True)
        return Fraction(x)


def _rounded(value: Fraction, places: int) -> str:
    scaled = round(value * 10**places)
    digits = str(abs(scaled)).rjust(places + 1, "0")
    return f"{'-' if scaled < 0 else ''}{digits[:-places]}.{digits[-places:]}"


def _number(value: str) -> str:
    """An exact decimal spelling (coefficients are quarters, constants thousandths)."""
    return format_decimal(Fraction(value))


def _formula(terms: list[list[Any]], constant: str) -> str:
    parts = []
    for kind, coefficient, power in terms:
        c = _number(coefficient)
        text = {"power": f"x^{power}" if power > 1 else "x", "exp": "exp(x)", "ln": "ln(x + 1)", "sqrt": "sqrt(x)",
                "neg_exp": "exp(-x)", "neg_reciprocal": "1/(x + 1)"}[kind]
        sign = "-" if kind.startswith("neg") else "+"
        parts.append(f"{sign} {c}*{text}" if c != "1" else f"{sign} {text}")
    formula = " ".join(parts)
    formula = formula[2:] if formula.startswith("+ ") else "-" + formula[2:]
    value = Fraction(constant)
    return f"{formula} {'-' if value >= 0 else '+'} {_number(str(abs(value)))}"


def _python(terms: list[list[Any]]) -> str:
    parts = []
    for kind, coefficient, power in terms:
        c = f"{float(Fraction(coefficient))!r}"
        text = {"power": f"x**{power}", "exp": "exp(x)", "ln": "log(x + 1)", "sqrt": "sqrt(x)",
                "neg_exp": "-exp(-x)", "neg_reciprocal": "-1 / (x + 1)"}[kind]
        parts.append(f"{c} * ({text})")
    return " + ".join(parts)
