"""Maclaurin series: one coefficient, or the whole Taylor polynomial, computed exactly.

Level 0 asks for the (non-zero) coefficient of x^k in the series of e^(ax), sin(ax), cos(ax), 1/(1 - ax)
or ln(1 + ax); level 1 in a sum of two such series or a binomial series (1 + ax)^r with a
fractional r; level 2 in a product of two series; level 3 in a composition (e^(x²),
sin(x - x³), ln(1 + x²), 1/(1 - x - x²)); level 4 asks for the whole Taylor polynomial of
degree n of a product or composition. Series are truncated power series with
:class:`fractions.Fraction` coefficients, multiplied and composed exactly.

A coefficient is an exact number (``-1/6``, ``\\frac{1}{120}``, ``0.5``) or the asked term itself (``-x^3/6``,
``the x^3 term is -\\frac{1}{6}x^3``; refused before), which must be one term of the asked power; the Taylor
polynomial is any formula in x equal, as a polynomial, to the series up to x^n and with no
term of higher degree (``x - x^3/6 + x^5/120``, ``1 + 2x + 2x^2``, in any order), optionally
as ``f(x) ≈ ... + O(x^m)`` when the series really has no terms of degree n+1 .. m-1.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.formulas import read_formula
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.polynomials import format_polynomial, from_coefficients, to_polynomial
from palaestra.verifiers.rationals import format_fraction, other_spellings

Series = list[Fraction]
TERMS = 10  # coefficients of x^0 .. x^9 are kept

# "f(x) ≈ ..." before a Taylor polynomial, "+ O(x^6)" after it
_APPROX_LEAD_IN = re.compile(r"(?:f ?\( ?x ?\) ?|y ?)(?:≈|\\approx) ?")
# a trailing "+ ..." marks the series going on: no claim about its next terms (unlike O(x^m))
_ELLIPSIS = re.compile(r" ?\+ ?(?:\.\.\.|…|\\[lc]?dots)$")
# "the x^3 term is" or "term:" before a coefficient written as its term ("-x^3/6"); a power named must be the asked one
_TERM_LEAD_IN = re.compile(r"(?:the )?(?:x ?\^ ?\{? ?(\d{1,2}) ?\}? |x )?term(?: is|:| =) ?", re.IGNORECASE)
MAX_TERM_CHARS = 200  # longer answers are not read as a term
_ORDER_TERM = re.compile(r" ?\+ ?(?:O|\\mathcal ?\{ ?O ?\}) ?\( ?x ?\^ ?(?:\{ ?(\d{1,2}) ?\}|(\d{1,2})) ?\)$")


def exp_series(a: Fraction) -> Series:
    return [a**n / math.factorial(n) for n in range(TERMS)]


def sin_series(a: Fraction) -> Series:
    return [(-1) ** (n // 2) * a**n / math.factorial(n) if n % 2 else Fraction(0) for n in range(TERMS)]


def cos_series(a: Fraction) -> Series:
    return [(-1) ** (n // 2) * a**n / math.factorial(n) if n % 2 == 0 else Fraction(0) for n in range(TERMS)]


def geometric_series(a: Fraction) -> Series:
    return [a**n for n in range(TERMS)]


def log_series(a: Fraction) -> Series:
    return [Fraction(0)] + [(-1) ** (n + 1) * a**n / n for n in range(1, TERMS)]


def binomial_series(r: Fraction, a: Fraction) -> Series:
    out, c = [], Fraction(1)
    for n in range(TERMS):
        out.append(c * a**n)
        c = c * (r - n) / (n + 1)
    return out


def add(s: Series, t: Series, k: Fraction = Fraction(1)) -> Series:
    return [x + k * y for x, y in zip(s, t)]


def multiply(s: Series, t: Series) -> Series:
    return [sum((s[i] * t[n - i] for i in range(n + 1)), Fraction(0)) for n in range(TERMS)]


def compose(outer: Series, inner: Series) -> Series:
    """outer(inner(x)) for an inner series without constant term (Horner's rule, truncated)."""
    if inner[0] != 0:
        raise ValueError("the inner series must vanish at 0")
    out = [Fraction(0)] * TERMS
    for c in reversed(outer):
        out = multiply(out, inner)
        out[0] += c
    return out


def _coefficient(rng: random.Random, top: int = 3) -> Fraction:
    return Fraction(rng.choice([v for v in range(-top, top + 1) if v]))


def _ax(a: Fraction) -> str:
    if a.denominator != 1:
        return f"({format_fraction(a)})x" if a > 0 else f"-({format_fraction(-a)})x"
    return "x" if a == 1 else "-x" if a == -1 else f"{format_fraction(a)}x"


def _basic(rng: random.Random) -> tuple[str, Series]:
    a = _coefficient(rng, 9) / rng.randint(1, 5)
    kind = rng.randrange(5)
    if kind == 0:
        return f"e^({_ax(a)})", exp_series(a)
    if kind == 1:
        return f"sin({_ax(abs(a))})", sin_series(abs(a))
    if kind == 2:
        return f"cos({_ax(abs(a))})", cos_series(abs(a))
    if kind == 3:
        return f"1/(1 - {_ax(a)})".replace("- -", "+ "), geometric_series(a)
    return f"ln(1 + {_ax(a)})".replace("+ -", "- "), log_series(a)


def _scaled_basic(rng: random.Random) -> tuple[str, Series]:
    """A basic series times a whole number."""
    text, series = _basic(rng)
    c = _coefficient(rng, 12)
    return _times(c, text), [c * v for v in series]


def _times(c: Fraction, text: str) -> str:
    """c times a function's text: ``3sin(x)``, ``-e^x``, ``3/(1 - x)`` (never ``31/(1 - x)``)."""
    if text.startswith("1/"):
        return f"{format_fraction(c)}/{text[2:]}"
    return text if c == 1 else f"-{text}" if c == -1 else f"{format_fraction(c)}{text}"


def _sum(rng: random.Random) -> tuple[str, Series]:
    if rng.random() < 0.3:
        r = Fraction(rng.choice([v for v in range(-9, 10) if v]), rng.randint(2, 4))
        if r.denominator == 1:
            r += Fraction(1, 2)
        a = _coefficient(rng, 5) / rng.randint(1, 2)
        c = _coefficient(rng, 6)
        text = f"(1 + {_ax(a)})^({format_fraction(r)})".replace("+ -", "- ")
        return _times(c, text), [c * v for v in binomial_series(r, a)]
    (f, s), (g, t) = _basic(rng), _basic(rng)
    k = _coefficient(rng, 4)
    joined = f"{f} + {g}" if k == 1 else f"{f} - {g}" if k == -1 else f"{f} + {format_fraction(k)}{g}" if k > 0 \
        else f"{f} - {format_fraction(-k)}{g}"
    return joined, add(s, t, k)


def _product(rng: random.Random) -> tuple[str, Series]:
    (f, s), (g, t) = _basic(rng), _basic(rng)
    if rng.random() < 0.3:
        n = rng.randint(1, 3)
        return f"x^{n}*{g}" if n > 1 else f"x*{g}", [Fraction(0)] * n + t[: TERMS - n]
    return (f"{f}/{g[2:]}" if g.startswith("1/") else f"{f}*{g}"), multiply(s, t)


def _composition(rng: random.Random) -> tuple[str, Series]:
    text, series = _composed(rng)
    c = _coefficient(rng, 15)
    return _times(c, text), [c * v for v in series]


def _composed(rng: random.Random) -> tuple[str, Series]:
    kind = rng.randrange(4)
    a, b = _coefficient(rng, 6), _coefficient(rng, 6)
    if kind == 0:  # e^(a x^2) or sin(a x^2)
        inner = [Fraction(0), Fraction(0), a] + [Fraction(0)] * (TERMS - 3)
        if rng.random() < 0.5:
            return f"e^({format_fraction(a)}x^2)".replace("e^(1x", "e^(x").replace("e^(-1x", "e^(-x"), \
                compose(exp_series(Fraction(1)), inner)
        return f"cos({format_fraction(a)}x^2)".replace("cos(1x", "cos(x").replace("cos(-1x", "cos(-x"), \
            compose(cos_series(Fraction(1)), inner)
    if kind == 1:  # sin(x + b x^3)
        inner = [Fraction(0), Fraction(1), Fraction(0), b] + [Fraction(0)] * (TERMS - 4)
        return f"sin(x {'+' if b > 0 else '-'} {format_fraction(abs(b))}x^3)".replace(" 1x^3", " x^3"), \
            compose(sin_series(Fraction(1)), inner)
    if kind == 2:  # ln(1 + a x + b x^2)
        inner = [Fraction(0), a, b] + [Fraction(0)] * (TERMS - 3)
        text = format_polynomial(from_coefficients([1, a, b]), ["x"])
        return f"ln({text})", compose(log_series(Fraction(1)), inner)
    # 1/(1 - a x - b x^2): a linear recurrence's generating function
    inner = [Fraction(0), a, b] + [Fraction(0)] * (TERMS - 3)
    text = format_polynomial(from_coefficients([1, -a, -b]), ["x"])
    return f"1/({text})", compose(geometric_series(Fraction(1)), inner)


def _without_order_term(answer: str) -> tuple[str, int | None]:
    """``answer`` without a lead-in ``f(x) ≈`` and a trailing ``+ O(x^m)`` or ``+ ...``, and that m (None without
    one)."""
    text = strip_wrappers(answer)
    lead_in = _APPROX_LEAD_IN.match(text)
    if lead_in:
        text = text[lead_in.end() :]
    ellipsis = _ELLIPSIS.search(text[-20:])
    if ellipsis:
        return text[: len(text) - len(ellipsis.group())], None
    order = _ORDER_TERM.search(text[-40:])
    if order is None:
        return (text if lead_in else answer), None
    return text[: len(text) - len(order.group())], int(order.group(1) or order.group(2))


def _order_term_holds(problem: Problem, order: int) -> bool:
    """Whether f = (the Taylor polynomial) + O(x^order): every coefficient from the degree + 1 up to
    order - 1 is zero (O(x^7) after a degree-5 polynomial of an odd function is right)."""
    known = problem.data["power"] + 1 + len(problem.data["beyond"])
    if not problem.data["power"] < order <= known:
        return False
    return all(Fraction(c) == 0 for c in problem.data["beyond"][: order - problem.data["power"] - 1])


_LEVELS: dict[str, Callable[[random.Random], tuple[str, Series]]] = {
    "basic": _scaled_basic, "sum": _sum, "product": _product, "composition": _composition,
}


@register
class TaylorCoefficients(Task):
    id = "calculus/taylor_coefficients"
    version = 2
    family = "calculus"
    description = "A coefficient, or the Taylor polynomial, of a Maclaurin series, exactly."
    tags = ("math", "calculus", "series")

    @dataclass(frozen=True)
    class Config:
        family: str
        polynomial: bool  # ask for the whole Taylor polynomial
        max_power: int

    presets = (
        Config("basic", False, 6),
        Config("sum", False, 6),
        Config("product", False, 7),
        Config("composition", False, 8),
        Config("product", True, 5),
    )
    bounded = "its levels are kinds of problem (the `family` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, Series] | None:
            maker = _composition if config.polynomial and rng.random() < 0.5 else _LEVELS[config.family]
            function, series = maker(rng)
            useful = [k for k in range(2, config.max_power + 1) if series[k] != 0]
            return (function, series) if len(useful) >= 2 else None

        function, series = retry(draw, what="a series with non-zero coefficients to ask about")
        if config.polynomial:
            n = rng.randint(3, config.max_power)
            coefficients = series[: n + 1]
            answer = format_polynomial(from_coefficients(coefficients), ["x"])
            prompt = (f"Find the Taylor polynomial of degree {n} of f(x) = {function} about x = 0 (all terms up to and "
                      f"including x^{n}).\n\nGive it as a polynomial in x with exact coefficients, e.g. "
                      "1 - x^2/2 + x^4/24.")
            return Problem(prompt=prompt, answer=answer, data={
                "coefficients": [str(c) for c in coefficients], "function": function, "power": n,
                "family": config.family, "beyond": [str(c) for c in series[n + 1 :]]})
        k = rng.choice([k for k in range(2, config.max_power + 1) if series[k] != 0])  # never a trivial 0
        value = series[k]
        example = "-1/6"  # a fixed placeholder: independent of the answer
        prompt = (f"What is the coefficient of x^{k} in the Maclaurin series (Taylor series about x = 0) of "
                  f"f(x) = {function}?\n\nGive it as an exact fraction (or a terminating decimal, if it equals one), "
                  f"e.g. {example}.")
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "value": format_fraction(value), "function": function, "power": k, "family": config.family})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if "value" in problem.data:
            value = read_exact(answer, max_digits=80, mixed=True)
            if value is None:
                value = _term_coefficient(answer, problem.data["power"])
            if value is None:
                return Verdict.unparsed("not an exact number")
            return Verdict.judge(value == Fraction(problem.data["value"]), "wrong coefficient")
        answer, order = _without_order_term(answer)
        if order is not None and not _order_term_holds(problem, order):
            return Verdict.wrong(f"O(x^{order}) claims more terms than the series has")
        poly = to_polynomial(read_formula(answer, ["x"]), ["x"])
        if poly is None:
            return Verdict.unparsed("not a polynomial in x")
        want = from_coefficients(Fraction(c) for c in problem.data["coefficients"])
        return Verdict.judge(poly == want, "not the Taylor polynomial of that degree")

    def difficulty(self, problem: Problem) -> float:
        """The power asked plus the length of the function's formula / 5, plus 2 for a product, 4 for a
        composition and 4 for a whole polynomial."""
        weight = {"basic": 0, "sum": 1, "product": 2, "composition": 4}[problem.data["family"]]
        return problem.data["power"] + len(problem.data["function"]) / 5 + weight + 4 * ("coefficients" in problem.data)

    def spellings(self, problem: Problem) -> list[str]:
        if "value" in problem.data:
            value, power = problem.data["value"], problem.data["power"]
            return [*super().spellings(problem), *other_spellings(Fraction(value)), f"({value})x^{power}",
                    f"The x^{power} term is ({value})*x^{{{power}}}."]
        coefficients = [Fraction(c) for c in problem.data["coefficients"]]
        poly = from_coefficients(coefficients)
        ascending = format_polynomial(poly, ["x"], order=sorted(poly))
        return [*super().spellings(problem), ascending, problem.answer.replace("^", "**"),
                f"P(x) = {problem.answer}", f"{problem.answer}.",
                f"f(x) \\approx {problem.answer} + O(x^{{{problem.data['power'] + 1}}})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if "value" in problem.data:
            value = Fraction(problem.data["value"])
            return [format_fraction(value + 1), format_fraction(-value) if value else "1",
                    format_fraction(value * 2) if value else "1/2", f"{problem.answer} or 0",
                    f"({problem.answer})x^{problem.data['power'] + 1}"]
        coefficients = [Fraction(c) for c in problem.data["coefficients"]]
        n = len(coefficients) - 1
        extra = format_polynomial(from_coefficients([*coefficients, Fraction(1, 7)]), ["x"])  # one term too many
        bumped = format_polynomial(from_coefficients([coefficients[0] + 1, *coefficients[1:]]), ["x"])
        shorter = format_polynomial(from_coefficients(coefficients[:n]), ["x"]) if n > 0 else "0"
        wrong = [extra, bumped, shorter, f"{problem.answer} + O(x^{len(coefficients) + 4})"]
        return [w for w in wrong if not self.verify(problem, w).correct]


def _term_coefficient(answer: str, power: int) -> Fraction | None:
    """The coefficient of an answer that writes the asked term itself (``-\\frac{1}{6}x^3``, ``the x^3 term is
    -x^3/6``): one term, of exactly the asked power; else None (a term of another power, or a sum, is no coefficient)."""
    text = strip_wrappers(answer)
    if len(text) > MAX_TERM_CHARS:
        return None
    lead_in = _TERM_LEAD_IN.match(text)
    if lead_in:
        if lead_in.group(1) is not None and int(lead_in.group(1)) != power:
            return None
        text = text[lead_in.end():]
    poly = to_polynomial(read_formula(text, ["x"]), ["x"])
    if poly is None or len(poly) != 1:
        return None
    ((monomial, value),) = poly.items()
    return value if monomial == (power,) else None
