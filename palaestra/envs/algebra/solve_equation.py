"""Solve one equation in x over the reals: linear, quadratic, or rational.

Level 0 is a linear equation with an integer root, level 1 a linear equation
with brackets and a rational root, level 2 a quadratic with rational roots,
level 3 a quadratic whose roots may be surds (or may not exist), level 4 an
equation ``A/(x - p) + B/(x - q) = C`` that reduces to such a quadratic. The
equations are built from their roots with exact integer arithmetic, so the
solution set is known without calling a solver.

The answer is the set of real solutions, in any order, each at most once, in any
exact form: ``x = 3, x = -1/2``, ``-0.5, 3``, ``x ∈ {3, -1/2}``, ``3 or -1/2``,
``(1 + sqrt(5))/2, (1 - sqrt(5))/2``, ``x_{1,2} = (1 ± √5)/2``, ``\\frac{1 \\pm \\sqrt{5}}{2}``;
``none`` when there is none. Values are compared exactly as surds
(:func:`palaestra.verifiers.expressions.evaluate_surd`), so a rounded decimal such as
``1.6180339887`` or ``2.000000001`` is wrong: the prompt asks for exact values.

"No real solution" carries its short proof: the discriminant ``b^2 - 4ac`` of the equation
written as ``ax^2 + bx + c = 0`` with integer coefficients (``none (discriminant -23)``,
``No real solutions: D = -92 < 0``). Multiplying that equation by a whole number m multiplies the
discriminant by m^2, so any such value is right: the one of the coefficients without a common
factor times a square. Up to rational squares the discriminants fall into a dozen classes, so a
rational rescaling is not accepted (a constant guess would hit a class a time in four). A bare
``none`` is wrong (version 3 paid it 0.10 at level 3, where one quadratic in ten has no real root).
Problems drawn before version 4 (no ``discriminant`` in their data) still take a bare ``none``.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.expressions import Surd, evaluate_surd, parse_expression
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import format_decimal, format_number, read_exact
from palaestra.verifiers.radicals import work_left
from palaestra.verifiers.sets import read_items

MAX_VALUES = 8
_SQUAREFREE = (2, 3, 5, 6, 7, 10, 11, 13, 14, 15, 17, 19, 21)
_PLUS_MINUS = re.compile(r"±|∓|\\mp|\+/-|\+-")
_TERM = re.compile(r"\d*x(?:\^\d)?|\d+")  # a term of the equation as printed: 3x^2, x, 12
# Example solutions for the prompt, the same whatever the answer (an example chosen to avoid the answer
# would tell something about it); 23 is never a radicand here.
_EXAMPLES = (("4", "-2/3"), ("-7", "5/2"))
_DISCRIMINANT_EXAMPLE = -7  # a fixed placeholder, as the examples above
_SURD_EXAMPLE = "x = (3 + sqrt(23))/2, x = (3 - sqrt(23))/2"


@register
class SolveEquation(Task):
    id = "algebra/solve_equation"
    family = "algebra"
    description = "Find every real solution of a linear, quadratic or rational equation in x."
    tags = ("math", "algebra", "equations")
    max_answer_chars = 2_000
    version = 4  # v4: "none" comes with the discriminant that proves it (a bare "none" paid 0.10 at level 3)
    bare_verdicts = ("none",)

    @dataclass(frozen=True)
    class Config:
        form: str  # linear | brackets | quadratic | rational
        max_root: int  # bound on numerators of the roots
        max_denominator: int  # bound on denominators of the roots
        surd_share: float  # share of quadratics with irrational roots
        no_root_share: float  # share of quadratics with no real root

    presets = (
        Config(form="linear", max_root=15, max_denominator=1, surd_share=0.0, no_root_share=0.0),
        Config(form="brackets", max_root=12, max_denominator=6, surd_share=0.0, no_root_share=0.0),
        Config(form="quadratic", max_root=9, max_denominator=3, surd_share=0.0, no_root_share=0.0),
        Config(form="quadratic", max_root=8, max_denominator=4, surd_share=0.6, no_root_share=0.1),
        Config(form="rational", max_root=6, max_denominator=3, surd_share=0.4, no_root_share=0.07),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 5 to 6)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        equation, roots, discriminant = _EQUATIONS[config.form](rng, config)
        roots = sorted(set(roots), key=lambda r: r.value)
        answer = ", ".join(r.text for r in roots) or f"none (discriminant {discriminant})"
        rational_example = _EXAMPLES[0]  # a fixed placeholder: independent of the answer
        if discriminant is None:  # a linear equation: it always has its one root
            no_root = "If there is no real solution, answer none."
        else:
            no_root = ("If there is no real solution, answer none with the discriminant b^2 - 4ac of the equation "
                       "rewritten as ax^2 + bx + c = 0 with integer coefficients, e.g. "
                       f"none (discriminant {_DISCRIMINANT_EXAMPLE}).")
        prompt = (
            f"Solve the equation for the real number x:\n\n{equation}\n\n"
            "Give every real solution exactly once, separated by commas, as exact values (integers, fractions "
            "or square roots; rounded decimals are wrong), e.g. "
            f"x = {rational_example[0]}, x = {rational_example[1]} or {_SURD_EXAMPLE}. {no_root}"
        )
        data: dict[str, Any] = {"form": config.form, "equation": equation, "roots": [r.text for r in roots]}
        if not roots and discriminant is not None:
            data["discriminant"] = discriminant
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        claimed = _read_none_certificate(answer)
        if claimed is not None:
            if problem.data["roots"]:
                return Verdict.wrong("the equation has real solutions")
            if "discriminant" not in problem.data:  # a version 3 problem: its prompt asked for a bare none
                return Verdict.right()
            return Verdict.judge(_square_multiple(claimed, int(problem.data["discriminant"])),
                                 "that is not the discriminant of the equation as ax^2 + bx + c = 0 (integers a, b, c)")
        values = _read_solutions(answer)
        if values is None:
            return Verdict.unparsed(
                "could not read the solutions as exact real numbers, e.g. x = 2, x = (1 + sqrt(5))/2")
        if _left_undone(answer):  # (-15 + 31)/(4 + 4), (-b + sqrt(b^2 - 4ac))/(2a): the equation's numbers typed back
            return Verdict.wrong("arithmetic left undone: work each solution out to a simplified exact value")
        roots = [_surd_of(text) for text in problem.data["roots"]]
        expected = list(roots)
        for value in values:
            if value in expected:
                expected.remove(value)
            elif value in roots:
                return Verdict.wrong("a solution is listed twice")
            elif any(math.isclose(float(value), float(r), rel_tol=1e-6, abs_tol=1e-9) for r in roots):
                return Verdict.wrong("a value is a rounded approximation; exact values are asked")
            else:
                return Verdict.wrong("a value is not a solution")
        if expected:
            return Verdict.wrong("a solution is missing")
        if not values and "discriminant" in problem.data:
            return Verdict.wrong("no real solution: give the discriminant that proves it, e.g. none (discriminant -7)")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Solution steps: the terms to collect, plus the work the form needs (expanding brackets,
        the quadratic formula, simplifying a surd, clearing denominators)."""
        equation = problem.data["equation"]
        terms = len(_TERM.findall(equation))
        form_work = {"linear": 1, "brackets": 2, "quadratic": 4, "rational": 7}[problem.data["form"]]
        surds = any("sqrt" in root for root in problem.data["roots"])
        no_roots = not problem.data["roots"] and problem.data["form"] != "linear"
        return float(terms + form_work + 2 * surds + no_roots)

    def spellings(self, problem: Problem) -> list[str]:
        roots = [_surd_of(text) for text in problem.data["roots"]]
        if not roots:
            d = Fraction(problem.data["discriminant"])
            return [*super().spellings(problem), f"None (discriminant {d})", f"none, discriminant = {d}",
                    f"No real solutions: the discriminant is {d} < 0.", f"none; D = {4 * d}",
                    rf"\boxed{{\text{{none}}}} (discriminant {d})", f"There is no real solution (Δ = {d}).",
                    f"∅, discriminant {9 * d}"]
        plain = [_spell(r, "plain") for r in roots]
        latex = [_spell(r, "latex") for r in roots]
        spellings = [
            *super().spellings(problem),
            ", ".join(f"x = {t}" for t in reversed(plain)),
            "x ∈ {" + ", ".join(plain) + "}",
            r"x \in \left\{" + ", ".join(latex) + r"\right\}",
            r" \text{ or } ".join(latex),
            r"\boxed{" + ", ".join(latex) + "}",
            "; ".join(_spell(r, "unicode") for r in roots),
            ", ".join(plain) + ".",
            "; ".join(f"x_{i + 1} = {t}" for i, t in enumerate(plain)),
        ]
        if len(roots) == 2:
            spellings.append(f"x = {plain[0]} or x = {plain[1]}")
            spellings.append(" and ".join(plain))
            pair = _plus_minus(roots)
            if pair is not None:
                spellings += [f"x_{{1,2}} = {pair}", f"x = {pair}", _plus_minus(roots, latex=True)]
        decimals = [format_decimal(r.rational_part()) for r in roots if r.is_rational()]
        if len(decimals) == len(roots) and any("." in d for d in decimals):
            spellings.append(", ".join(decimals))
        return spellings

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        roots = [_surd_of(text) for text in problem.data["roots"]]
        outsider = next(k for k in range(-50, 50) if Surd.rational(k) not in roots)
        gold = problem.answer or ""
        if not roots:
            d = Fraction(problem.data["discriminant"])
            return [str(outsider), "0", "x = 1", "none", "no real solutions", "∅", f"none (discriminant {-d})",
                    f"none (discriminant {2 * d})", f"none (discriminant {d / 4})", f"none (discriminant {d}), {outsider}",
                    f"none (discriminant {d}) or x = {outsider}"]
        first = float(roots[0])
        wrong = [
            "none",
            f"{gold}, {outsider}",
            str(outsider),
            f"{first:.10f}" if not roots[0].is_rational() else f"{first + 1e-9:.10f}",  # rounded, not exact
            ", ".join(f"{float(r):.12g}" for r in roots) if not all(r.is_rational() for r in roots)
            else ", ".join(f"{float(r) + 1e-9:.12g}" for r in roots),
            ", ".join(f"x = {_spell(r, 'plain')}" for r in roots) + f", x = {outsider}",
        ]
        if len(roots) > 1:
            wrong.append(problem.data["roots"][0])  # one solution missing
            wrong.append(f"{problem.data['roots'][0]}, {problem.data['roots'][0]}")  # one repeated, one missing
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
    def surd(self) -> Surd:
        return Surd.rational(self.rational) + Surd.sqrt(Fraction(self.radicand)) * self.coefficient

    @property
    def text(self) -> str:
        return _spell(self.surd, "plain")


def _surd_of(text: str) -> Surd:
    """The exact value of a reference root's text (always readable: the generator wrote it)."""
    value = evaluate_surd(parse_expression(text, functions=("sqrt",), constants=False))
    assert value is not None, text
    return value


def _read_value(text: str) -> Surd | None:
    if len(text) > 200:
        return None
    return evaluate_surd(parse_expression(text, functions=("sqrt",), constants=False))


def _expand_plus_minus(item: str) -> list[str] | None:
    """``(1 ± sqrt(5))/2`` (or ∓) -> both values; an item with more than one ± is unreadable."""
    pieces = _PLUS_MINUS.split(item)
    if len(pieces) == 1:
        return [item]
    if len(pieces) == 2:
        return [f"{pieces[0]}+{pieces[1]}", f"{pieces[0]}-{pieces[1]}"]
    return None


def _read_solutions(answer: str) -> list[Surd] | None:
    """The exact real values listed in ``answer`` (empty for "none"), or ``None`` if any part is unreadable."""
    if len(answer) > SolveEquation.max_answer_chars:
        return None
    return read_items(answer, _read_value, allow_empty=True, allow_or=True, expand=_expand_plus_minus,
                      max_items=MAX_VALUES)




def _left_undone(answer: str) -> bool:
    """Whether a listed value leaves arithmetic undone (:func:`palaestra.verifiers.radicals.work_left`): a sum of
    numbers (``(-15 + 31)/8``), a power (``8^2``) or a sum under a root (``sqrt(64 + 36)``); ``48/8``,
    ``(4 + sqrt(40))/2`` and ``10^(1/2)`` are values."""
    flags = read_items(answer, lambda text: work_left(text)
                       if _read_value(text) is not None else None,
                       allow_empty=True, allow_or=True, expand=_expand_plus_minus, max_items=MAX_VALUES)
    return flags is not None and any(flags)


def _parts(value: Surd) -> tuple[int, int, int, int]:
    """``(constant, scale, radicand, denominator)`` with ``value = (constant + scale*sqrt(radicand))/denominator``."""
    irrational = [d for d in value.terms if d != 1]
    radicand = irrational[0] if irrational else 1
    rational, coefficient = value.rational_part(), value.terms.get(radicand, Fraction(0)) if irrational else Fraction(0)
    denominator = math.lcm(rational.denominator, coefficient.denominator)
    return int(rational * denominator), int(coefficient * denominator), radicand, denominator


def _spell(value: Surd, style: str, sign: str = "") -> str:
    """A root as text: ``plain`` (``(1 + sqrt(5))/2``), ``latex`` (``\\frac{1 + \\sqrt{5}}{2}``) or
    ``unicode`` (``(1 + √5)/2``). ``sign="±"`` writes the conjugate pair of an irrational value."""
    constant, scale, radicand, denominator = _parts(value)
    minus = "−" if style == "unicode" else "-"
    if scale == 0:
        if style == "latex" and denominator != 1:
            return f"{'-' if constant < 0 else ''}\\frac{{{abs(constant)}}}{{{denominator}}}"
        text = format_number(Fraction(constant, denominator))
        return text.replace("-", minus)
    root = {"plain": f"sqrt({radicand})", "latex": f"\\sqrt{{{radicand}}}", "unicode": f"√{radicand}"}[style]
    surd = root if abs(scale) == 1 else f"{abs(scale)}{'*' if style == 'plain' else ''}{root}"
    operator = ("\\pm" if style == "latex" else sign) if sign else ("-" if scale < 0 else "+")
    if constant:
        numerator = f"{str(constant).replace('-', minus)} {operator.replace('-', minus)} {surd}"
    else:
        numerator = (sign or ("" if scale > 0 else minus)) + surd
    if denominator == 1:
        return numerator
    if style == "latex":
        return f"\\frac{{{numerator}}}{{{denominator}}}"
    return f"({numerator})/{denominator}" if constant or sign else f"{numerator}/{denominator}"


def _plus_minus(roots: list[Surd], latex: bool = False) -> str | None:
    """Two conjugate irrational roots as one ``(a ± b*sqrt(d))/c`` expression, else None."""
    low, high = roots
    if low.is_rational() or low.rational_part() != high.rational_part() or low + high != 2 * Surd.rational(
            low.rational_part()):
        return None
    return _spell(high, "latex" if latex else "plain", sign="±")


def _rational(rng: random.Random, config: SolveEquation.Config) -> Fraction:
    return Fraction(rng.randint(-config.max_root, config.max_root), rng.randint(1, config.max_denominator))


def _linear(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root], int | None]:
    root = rng.randint(-config.max_root, config.max_root)
    slope = rng.choice([-1, 1]) * rng.randint(2, 9)
    # move a random linear polynomial to both sides so x may appear on the right too
    right = [rng.choice([0, 0, rng.randint(-6, 6)]), rng.randint(-30, 30)]
    left = [slope + right[0], -slope * root + right[1]]
    if left[0] == 0:
        left, right = [slope, -slope * root], [0, 0]
    return f"{_poly_text(left)} = {_poly_text(right)}", [_Root(Fraction(root))], None


def _brackets(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root], int | None]:
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
    return f"{left} = {_poly_text([d, e])}", [_Root(root)], None


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


def _discriminant(coefficients: list[int]) -> int:
    c2, c1, c0 = coefficients
    return c1 * c1 - 4 * c2 * c0


def _quadratic(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root], int | None]:
    coefficients, roots = _quadratic_roots(rng, config)
    if rng.random() < 0.25:
        return f"{_poly_text(coefficients)} = 0", roots, _discriminant(coefficients)
    right = [rng.randint(-3, 3), rng.randint(-9, 9), rng.randint(-20, 20)]
    left = [c + r for c, r in zip(coefficients, right)]
    return f"{_poly_text(left)} = {_poly_text(right)}", roots, _discriminant(coefficients)


def _rational_equation(rng: random.Random, config: SolveEquation.Config) -> tuple[str, list[_Root], int | None]:
    """``A/(x - p) + B/(x - q) = C``; clearing denominators gives ``C * f(x) = 0`` for the chosen quadratic f.

    With f monic, A = C f(p)/(q - p) and B = C f(q)/(p - q); C is the smallest
    multiplier that makes A and B integers, and f(p), f(q) != 0 keeps the poles
    away from the roots.
    """
    def draw() -> tuple[int, int, int, int, int, list[_Root], list[int]] | None:
        coefficients, roots = _quadratic_roots(rng, config)
        p, q = rng.sample(range(-6, 7), 2)
        f_p, f_q = _monic_value(coefficients, p), _monic_value(coefficients, q)
        if f_p == 0 or f_q == 0:
            return None
        ratio_a, ratio_b = f_p / (q - p), f_q / (p - q)
        c = math.lcm(ratio_a.denominator, ratio_b.denominator) * rng.choice([-2, -1, 1, 2])
        a, b = int(c * ratio_a), int(c * ratio_b)
        return (a, b, c, p, q, roots, coefficients) if max(abs(a), abs(b), abs(c)) <= 99 else None

    # about half of the draws give small enough integers
    a, b, c, p, q, roots, coefficients = retry(draw, what="a rational equation with small coefficients")
    equation = f"{a}/{_shifted_x(p)} {'+' if b > 0 else '-'} {abs(b)}/{_shifted_x(q)} = {c}"
    return equation, roots, _discriminant(coefficients)  # clearing denominators gives c/c2 times this quadratic


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


_EQUATIONS = {"linear": _linear, "brackets": _brackets, "quadratic": _quadratic, "rational": _rational_equation}


# --- "none" and its proof: "none (discriminant -23)" ----------------------------------------------------------------

MAX_CERTIFICATE_CHARS = 200
_NONE = re.compile(r"(?:none|no real (?:solutions?|roots?)|there (?:is|are) no real (?:solutions?|roots?)|∅|\\emptyset|"
                   r"\\text\{none\}|\{\})", re.IGNORECASE)
_CERTIFICATE = re.compile(
    r"\s*(?:[,;:(]|\\quad|\s)\s*(?:since\s+|because\s+|as\s+)?(?:the\s+)?(?:discriminant|d|δ|Δ)"
    r"\s*(?:is|=|:)?\s*([-−+]?[0-9][0-9/.,]{0,40}?)\s*(?:<\s*0)?\s*\)?\s*\.?", re.IGNORECASE)


def _read_none_certificate(answer: str) -> Fraction | None:
    """The discriminant an answer "none (discriminant D)" states, ``None`` when the answer is not of that form."""
    text = strip_wrappers(answer).replace("\\boxed{\\text{none}}", "none").replace("\\Delta", "Δ")
    if len(text) > MAX_CERTIFICATE_CHARS:
        return None
    head = _NONE.match(text)
    if head is None:
        return None
    tail = _CERTIFICATE.fullmatch(text[head.end():])
    if tail is None:
        return None
    return read_exact(tail.group(1).replace("−", "-").rstrip(".,"), max_digits=40)


def _square_multiple(claimed: Fraction, discriminant: int) -> bool:
    """Whether ``claimed`` is ``discriminant`` times a whole square m^2 (the equation multiplied by m)."""
    if not discriminant or claimed.denominator != 1 or claimed.numerator % discriminant:
        return False
    ratio = claimed.numerator // discriminant
    return ratio > 0 and math.isqrt(ratio) ** 2 == ratio
