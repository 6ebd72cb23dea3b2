"""Definite integrals with exact values (fractions, logarithms, π, powers of e, square roots).

Each level draws from integral families whose exact value the generator writes down
from the antiderivative at the bounds: polynomials on integer bounds (level 0);
``1/x``, ``e^(kx)``, ``√x`` and ``1/√x`` (level 1); sines and cosines between multiples of
π/6 and π/4, and ``1/(1 + x²)`` up to 1 or √3 (level 2); integration by parts and
substitution, ``x e^(kx)``, ``ln x``, ``x sin x``, ``x (x² + q)^n``, ``x/(x² + q)`` (level 3);
partial fractions, ``|x - c|`` over an interval around c, and sums of two families
(level 4).

The answer is any exact expression of the value (``ln(3/2)``, ``ln 3 - ln 2``, ``π/4``,
``\\frac{e^4 - 1}{2}``, ``2√2 - 2``, ``(e^2 + 1)/4``): it is read by the formula reader and
evaluated to 40 significant digits, and must match the exact value to 25. A decimal with
more than 12 digits after the point is refused as a rounded value, and a shorter one
cannot match an irrational value; so only exact forms pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.formulas import CALCULUS_FUNCTIONS, agree, evaluate, linear_combination, read_formula

Terms = list[tuple[Fraction, str]]  # the value as sum of coefficient * basis ("1", "pi", "ln(3/2)", "e^(4)", ...)
Family = tuple[str, str, str, Terms, int]  # integrand, lower bound, upper bound, value, weight


def _q(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _coefficient(rng: random.Random, top: int = 9) -> Fraction:
    return Fraction(rng.choice([v for v in range(-top, top + 1) if v]))


def _polynomial(rng: random.Random) -> Family:
    a = rng.randint(-4, 3)
    b = rng.randint(a + 1, a + 5)
    powers = rng.sample(range(0, 5), rng.randint(2, 3))
    terms = [(_coefficient(rng), n) for n in sorted(powers, reverse=True)]
    integrand = linear_combination([(c, {0: "1", 1: "x"}.get(n, f"x^{n}")) for c, n in terms])
    value = sum((c * Fraction(b ** (n + 1) - a ** (n + 1), n + 1) for c, n in terms), Fraction(0))
    return integrand, str(a), str(b), [(value, "1")], 1


def _reciprocal(rng: random.Random) -> Family:
    a, b = sorted(rng.sample(range(1, 31), 2))
    c = _coefficient(rng)
    return linear_combination([(c, "1/x")]), str(a), str(b), [(c, f"ln({_q(Fraction(b, a))})")], 2


def _exponential(rng: random.Random) -> Family:
    k, c = rng.choice([1, 2, 3, -1, -2, -3]), _coefficient(rng)
    a = rng.randint(-2, 1)
    b = rng.randint(a + 1, a + 3)
    body = "e^x" if k == 1 else f"e^({k}x)" if k > 0 else f"e^(-{-k}x)" if k != -1 else "e^(-x)"
    return linear_combination([(c, body)]), str(a), str(b), [(c / k, f"e^({k * b})"), (-c / k, f"e^({k * a})")], 2


def _root(rng: random.Random) -> Family:
    c = _coefficient(rng)
    if rng.random() < 0.5:  # √x on [0, b]: (2/3) b^(3/2)
        a, b = sorted(rng.sample(range(0, 26), 2))  # √x on [a, b]: (2/3)(b√b - a√a)
        return linear_combination([(c, "sqrt(x)")]), str(a), str(b), [
            (c * Fraction(2, 3) * b, f"sqrt({b})"), (-c * Fraction(2, 3) * a, f"sqrt({a})")], 2
    a, b = sorted(rng.sample(range(1, 26), 2))  # 1/√x on [a, b]: 2(√b - √a)
    return linear_combination([(c, "1/sqrt(x)")]), str(a), str(b), [(2 * c, f"sqrt({b})"), (-2 * c, f"sqrt({a})")], 2


_FIRST_QUADRANT = {0: [], 30: [(Fraction(1, 2), "1")], 45: [(Fraction(1, 2), "sqrt(2)")],
                   60: [(Fraction(1, 2), "sqrt(3)")], 90: [(Fraction(1), "1")]}


def _sine(degrees: int) -> Terms:
    """sin of a multiple of 30 or 45 degrees in [0, 360], exactly."""
    reduced = degrees if degrees <= 180 else degrees - 180
    terms = _FIRST_QUADRANT[reduced if reduced <= 90 else 180 - reduced]
    return terms if degrees <= 180 else [(-q, b) for q, b in terms]


_SIN = {d: _sine(d) for d in range(0, 361) if d % 30 == 0 or d % 45 == 0}


def _cos_terms(degrees: int) -> Terms:
    return _sine((degrees + 90) % 360)


def _pi_text(degrees: Fraction) -> str:
    """An angle given in degrees as a multiple of pi: 30 -> pi/6, 270 -> 3pi/2."""
    q = degrees / 180
    if q == 0:
        return "0"
    top = "pi" if q.numerator == 1 else f"{q.numerator}pi"
    return top if q.denominator == 1 else f"{top}/{q.denominator}"


def _trig(rng: random.Random) -> Family:
    """c sin(kx) or c cos(kx) between bounds where kx is a multiple of 30 or 45 degrees."""
    a, b = sorted(rng.sample(sorted(_SIN), 2))
    k, c = rng.randint(1, 3), _coefficient(rng)
    body = "x" if k == 1 else f"{k}x"
    low, high = _pi_text(Fraction(a, k)), _pi_text(Fraction(b, k))
    if rng.random() < 0.5:  # ∫ c sin(kx) = -(c/k) cos(kx)
        value = [(-c / k * q, basis) for q, basis in _cos_terms(b)] + [(c / k * q, basis) for q, basis in _cos_terms(a)]
        return linear_combination([(c, f"sin({body})")]), low, high, value, 3
    value = [(c / k * q, basis) for q, basis in _SIN[b]] + [(-c / k * q, basis) for q, basis in _SIN[a]]
    return linear_combination([(c, f"cos({body})")]), low, high, value, 3


def _arctangent(rng: random.Random) -> Family:
    q = rng.randint(1, 20)
    c = _coefficient(rng)
    ends = [("0", Fraction(0)), (f"{q}", Fraction(1, 4)), (f"{q}*sqrt(3)", Fraction(1, 3)),
            (f"{q}/sqrt(3)", Fraction(1, 6)), (f"-{q}", Fraction(-1, 4)), (f"-{q}/sqrt(3)", Fraction(-1, 6))]
    (low, a), (high, b) = sorted(rng.sample(ends, 2), key=lambda e: e[1])
    # ∫ c/(x^2 + q^2) dx = (c/q) atan(x/q), and atan of 0, ±1/√3, ±1, √3 is 0, ±π/6, ±π/4, π/3
    return linear_combination([(c, f"1/(x^2 + {q * q})")]), low, high, [(c / q * (b - a), "pi")], 3


def _by_parts(rng: random.Random) -> Family:
    c = _coefficient(rng, 12)
    kind = rng.randrange(3)
    if kind == 0:  # x e^(kx) on [a, b]: F = e^(kx) (x/k - 1/k^2)
        k = rng.choice([1, 2, 3, -1, -2])
        a = rng.randint(-2, 1)
        b = rng.randint(a + 1, a + 3)
        body = "x*e^x" if k == 1 else f"x*e^({k}x)" if k > 0 else "x*e^(-x)" if k == -1 else f"x*e^(-{-k}x)"
        value = [(c * (Fraction(b, k) - Fraction(1, k * k)), f"e^({k * b})"),
                 (-c * (Fraction(a, k) - Fraction(1, k * k)), f"e^({k * a})")]
        return linear_combination([(c, body)]), str(a), str(b), value, 4
    if kind == 1:  # ln x on [a, b]: F = x ln x - x
        a, b = sorted(rng.sample(range(1, 21), 2))
        return linear_combination([(c, "ln(x)")]), str(a), str(b), [
            (c * b, f"ln({b})"), (-c * a, f"ln({a})"), (c * (a - b), "1")], 4
    k, quarter_turns = rng.randint(1, 3), rng.randint(1, 4)  # x sin(kx) or x cos(kx) on [0, h/k], h a multiple of π/2
    h = Fraction(quarter_turns, 2)  # in units of π
    sin_h, cos_h = [(0, 1), (1, 0), (0, -1), (-1, 0)][quarter_turns % 4]
    body = "x" if k == 1 else f"{k}x"
    scale = c / (k * k)
    if rng.random() < 0.5:  # ∫ x sin(kx) = (sin(kx) - kx cos(kx)) / k^2
        value = [(scale * sin_h, "1"), (-scale * h * cos_h, "pi")]
        shown = f"x*sin({body})"
    else:  # ∫ x cos(kx) = (cos(kx) + kx sin(kx)) / k^2
        value = [(scale * (cos_h - 1), "1"), (scale * h * sin_h, "pi")]
        shown = f"x*cos({body})"
    if all(q == 0 for q, _ in value):
        return _by_parts(rng)
    return linear_combination([(c, shown)]), "0", _pi_text(h * 180 / k), value, 4


def _substitution(rng: random.Random) -> Family:
    c, q = _coefficient(rng, 12), rng.randint(1, 12)
    a = rng.randint(-2, 2)
    b = rng.randint(a + 1, a + 3)
    if rng.random() < 0.5:  # x (x^2 + q)^n: F = (x^2 + q)^(n+1) / (2(n+1))
        n = rng.randint(1, 3)
        value = c * Fraction((b * b + q) ** (n + 1) - (a * a + q) ** (n + 1), 2 * (n + 1))
        return linear_combination([(c, f"x*(x^2 + {q})^{n}")]), str(a), str(b), [(value, "1")], 4
    ratio = Fraction(b * b + q, a * a + q)  # x/(x^2 + q): F = ln(x^2 + q) / 2
    return linear_combination([(c, f"x/(x^2 + {q})")]), str(a), str(b), [(c / 2, f"ln({_q(ratio)})")], 4


def _partial_fractions(rng: random.Random) -> Family:
    r, s = sorted(rng.sample(range(-4, 5), 2))
    low = s + rng.randint(1, 3)
    high = low + rng.randint(1, 4)
    c = _coefficient(rng, 6)
    # c/((x - r)(x - s)) = c/(r - s) [1/(x - r) - 1/(x - s)]
    factor = c / (r - s)
    ratio_r = Fraction(high - r, low - r)
    ratio_s = Fraction(high - s, low - s)
    shown = f"{_q(c)}/((x {'-' if r >= 0 else '+'} {abs(r)})(x {'-' if s >= 0 else '+'} {abs(s)}))"
    return shown, str(low), str(high), [(factor, f"ln({_q(ratio_r)})"), (-factor, f"ln({_q(ratio_s)})")], 6


def _absolute(rng: random.Random) -> Family:
    centre = rng.randint(-4, 4)
    low, high = centre - rng.randint(1, 8), centre + rng.randint(1, 8)
    c = Fraction(rng.randint(1, 12))
    # ∫ |x - m| over [low, high] with low < m < high: ((m - low)^2 + (high - m)^2) / 2
    value = c * Fraction((centre - low) ** 2 + (high - centre) ** 2, 2)
    inner = "x" if centre == 0 else f"x {'-' if centre > 0 else '+'} {abs(centre)}"
    shown = f"|{inner}|" if c == 1 else f"{_q(c)}|{inner}|"
    return shown, str(low), str(high), [(value, "1")], 5


def _sum(rng: random.Random) -> Family:
    """A non-polynomial family plus a polynomial term on the same (rational) bounds."""
    integrand, a, b, value, weight = rng.choice([_reciprocal, _exponential, _root, _substitution])(rng)
    low, high = Fraction(a), Fraction(b)
    k, n = _coefficient(rng), rng.randint(1, 3)
    term = linear_combination([(k, "x" if n == 1 else f"x^{n}")])
    joined = f"{integrand} + {term}" if not term.startswith("-") else f"{integrand} - {term[1:]}"
    return joined, a, b, [*value, (k * (high ** (n + 1) - low ** (n + 1)) / (n + 1), "1")], weight + 2


_FAMILIES: dict[str, Callable[[random.Random], Family]] = {
    "polynomial": _polynomial, "reciprocal": _reciprocal, "exponential": _exponential, "root": _root,
    "trig": _trig, "arctangent": _arctangent, "by_parts": _by_parts, "substitution": _substitution,
    "partial_fractions": _partial_fractions, "absolute": _absolute, "sum": _sum,
}


@register
class DefiniteIntegral(Task):
    id = "calculus/definite_integral"
    version = 2
    family = "calculus"
    description = "Exact value of a definite integral (fractions, logarithms, π, e, square roots)."
    tags = ("math", "calculus", "integration")

    @dataclass(frozen=True)
    class Config:
        families: tuple[str, ...]

    presets = (
        Config(("polynomial",)),
        Config(("reciprocal", "exponential", "root")),
        Config(("trig", "arctangent")),
        Config(("by_parts", "substitution")),
        Config(("partial_fractions", "absolute", "sum")),
    )
    bounded = "its levels are kinds of problem (the `families` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        family = rng.choice(config.families)
        integrand, low, high, value, weight = _FAMILIES[family](rng)
        answer = _combine(value)
        example = "3/2 + ln(2)"  # a fixed placeholder: independent of the answer
        shown_low, shown_high = low.replace("pi", "π"), high.replace("pi", "π")
        prompt = (
            f"Compute the exact value of the definite integral of f(x) = {integrand} from x = {shown_low} to "
            f"x = {shown_high}.\n\nGive an exact expression (fractions, π, e, ln and square roots allowed; no "
            f"rounded decimals), e.g. {example}."
        )
        return Problem(prompt=prompt, answer=answer, data={"family": family, "value": answer, "weight": weight,
                                                           "integrand": integrand, "bounds": [low, high]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        tree = read_formula(answer, [], functions=CALCULUS_FUNCTIONS)
        if tree is None:
            return Verdict.unparsed("not an exact expression (fractions, π, e, ln, sqrt)")
        want = evaluate(read_formula(problem.data["value"], [], functions=CALCULUS_FUNCTIONS), {})
        return Verdict.judge(agree(evaluate(tree, {}), want), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """The technique's weight (1 polynomial ... 6 partial fractions; 2 more for a sum) plus the
        distinct constants (logarithms, roots, π, e) in the value, plus a tenth of the value's digits."""
        value = problem.data["value"]
        constants = sum(1 for part in ("ln", "sqrt", "pi", "e^") if part in value)
        return float(problem.data["weight"] + constants) + sum(c.isdigit() for c in value) / 10

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        latex = answer.replace("pi", "\\pi").replace("sqrt(", "\\sqrt(").replace("ln(", "\\ln(")
        return [*super().spellings(problem), latex, answer.replace("pi", "π"), f"({answer})",
                f"{answer}.", answer.replace("ln(", "log(")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer
        value = evaluate(read_formula(answer, [], functions=CALCULUS_FUNCTIONS), {})
        wrong = [f"2*({answer})", f"({answer}) + 1", f"-({answer})" if value else "1", f"{float(value.real):.9f}"]
        return [w for w in wrong if not self.verify(problem, w).correct]


def _combine(terms: Terms) -> str:
    """The value written as a short exact expression: like bases merged, the constant last."""
    merged: dict[str, Fraction] = {}
    for q, basis in terms:
        if basis in ("ln(1)", "e^(0)"):
            basis = "1"
        merged[basis] = merged.get(basis, Fraction(0)) + q
    constant = merged.pop("1", Fraction(0))
    ordered = sorted(merged.items(), key=lambda kv: kv[0])
    text = linear_combination([(q, b) for b, q in ordered] + [(constant, "1")])
    return text
