"""Composition and inverses of functions.

Level 0 evaluates a composition at a number (f(g(3))); level 1 asks for the formula of a
composition f(g(x)) of polynomial and rational functions; level 2 for the inverse of a
linear function; level 3 for the inverse of a fractional linear function
(ax + b)/(cx + d); level 4 for the inverse of an exponential, logarithmic, cubic or
square-root function on its natural domain.

Formulas are checked by value, not by form: a composition must equal f(g(x)) at several
points on both sides of its poles; an inverse g must be real and satisfy f(g(x)) = x at
several points of the inverse's domain (which pins down the inverse of a one-to-one f
there; a fractional linear inverse is checked on both sides of its pole), each to 25
significant digits. Any equivalent way of writing it is right (``(x - 3)/2``,
``x/2 - 3/2``, ``\\frac{x-3}{2}``, ``ln((x - 1)/4)/2``, ``(x + 5)^(1/3)``). A name left of
``=`` must name what is asked (``f^{-1}(x) =``, ``(f∘g)(x) =``, ``y =`` or a fresh ``h(x) =``):
``g(f(x)) = ...`` or ``f(x) = ...`` claims something else and is wrong.

An inverse may come with its domain stated after the formula (``(x - 3)/2 for all x``,
``ln(x - 2) for x > 2``, ``..., x ≥ 3``, ``... (x ≥ 3)``, ``... on [3, ∞)``, ``..., x ≠ 2/3``,
LaTeX ``\\geq``/``\\infty`` too): the statement must be the inverse's whole domain, the range of f
on its natural domain (all x; x > c for a e^(bx) + c; x ≥ c for sqrt(ax + b) + c; every x but
the pole for a fractional linear f). A wrong domain (``x > 3`` where it is ``x ≥ 3``) is wrong.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.expressions import Expr, evaluate_exact
from palaestra.verifiers.formulas import (
    CALCULUS_FUNCTIONS,
    agree,
    evaluate,
    linear_combination,
    points_in,
    read_formula,
    reference_tree,
)
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.polynomials import coefficients, degree, divide, format_polynomial, gcd, to_rational
from palaestra.verifiers.rationals import format_fraction, other_spellings

POINTS = 6

# f's formula, g's formula (when a composition is asked), the answer, the kind, interval for the checks
Drawn = tuple[str, str, str, str, Fraction, Fraction]


def _nonzero(rng: random.Random, top: int) -> int:
    return rng.choice([v for v in range(-top, top + 1) if v])


def _poly(rng: random.Random, degree: int) -> str:
    coefficients = [rng.randint(-6, 6) for _ in range(degree)] + [_nonzero(rng, 4)]
    return linear_combination([(c, {0: "1", 1: "x"}.get(k, f"x^{k}")) for k, c in enumerate(coefficients)][::-1])


def _minus(value: int) -> str:
    """``x - 3``, ``x + 3`` or ``x`` for subtracting ``value`` from x."""
    return "x" if value == 0 else f"x - {value}" if value > 0 else f"x + {-value}"


def _times_x(coefficient: int) -> str:
    """``3x``, ``-x`` or ``x``: an integer multiple of x."""
    return {1: "x", -1: "-x"}.get(coefficient, f"{coefficient}x")


def _plus(value: int) -> str:
    """`` + 3``, `` - 3`` or nothing: adding ``value`` at the end of a formula."""
    return f" + {value}" if value > 0 else f" - {-value}" if value < 0 else ""


def _substitute(formula: str, inner: str) -> str:
    """``formula`` with every x replaced by ``(inner)``."""
    return formula.replace("x", f"({inner})")


def _value(rng: random.Random) -> Drawn:
    f, g = _poly(rng, rng.randint(1, 2)), _poly(rng, rng.randint(1, 2))
    a = rng.randint(-5, 5)
    value = evaluate_exact(reference_tree(_substitute(f, g), ("x",)), {"x": Fraction(a)})
    assert value is not None
    return f, g, format_fraction(value), f"value:{a}", Fraction(0), Fraction(1)


def _composition(rng: random.Random) -> Drawn:
    f = _poly(rng, rng.randint(1, 2))
    if rng.random() < 0.5:
        g = _poly(rng, rng.randint(1, 2))
    else:
        p, q = _nonzero(rng, 5), rng.randint(-6, 6)
        g = f"{p}/(x {'+' if q >= 0 else '-'} {abs(q)})" if q else f"{p}/x"
    return f, g, _simplified(_substitute(f, g)), "composition", Fraction(1, 4) + 7, Fraction(1, 4) + 9


def _simplified(formula: str) -> str:
    """A rational formula in x written as one reduced fraction (or an expanded polynomial)."""
    top, bottom = to_rational(reference_tree(formula, ("x",)), ["x"])  # type: ignore[misc]
    common = gcd(top, bottom)
    top, bottom = divide(top, common)[0], divide(bottom, common)[0]
    lead = coefficients(bottom)[-1]
    top, bottom = ({m: c / lead for m, c in p.items()} for p in (top, bottom))
    if degree(bottom) == 0:
        return format_polynomial(top, ["x"])
    return f"({format_polynomial(top, ['x'])})/({format_polynomial(bottom, ['x'])})"


def _linear_inverse(rng: random.Random) -> Drawn:
    slope = Fraction(_nonzero(rng, 20), rng.randint(1, 6))
    intercept = Fraction(rng.randint(-40, 40), rng.randint(1, 6))
    f = linear_combination([(slope, "x"), (intercept, "1")])
    answer = linear_combination([(1 / slope, "x"), (-intercept / slope, "1")])
    return f, "", answer, "inverse", Fraction(-5), Fraction(5)


def _mobius_inverse(rng: random.Random) -> Drawn | None:
    a, b, c, d = rng.randint(-6, 6), rng.randint(-9, 9), _nonzero(rng, 5), rng.randint(-9, 9)
    if a * d - b * c == 0:
        return None  # constant, not invertible
    f = f"({linear_combination([(a, 'x'), (b, '1')])})/({linear_combination([(c, 'x'), (d, '1')])})"
    answer = f"({linear_combination([(d, 'x'), (-b, '1')])})/({linear_combination([(-c, 'x'), (a, '1')])})"
    pole = Fraction(a, c)  # the inverse is undefined at x = a/c; checked on intervals either side of it
    return f, "", answer, "inverse", pole + Fraction(1, 3), pole + 4


def _transcendental_inverse(rng: random.Random) -> Drawn:
    kind = rng.randrange(4)
    a, b, c = rng.randint(2, 15), _nonzero(rng, 6), rng.randint(-20, 20)
    if kind == 0:  # a e^(b x) + c -> ln((x - c)/a)/b, for x > c
        f = f"{a}e^({_times_x(b)}){_plus(c)}"
        logarithm = f"ln(({_minus(c)})/{a})"
        answer = {1: logarithm, -1: f"-{logarithm}"}.get(b, f"{logarithm}/{b}" if b > 0 else f"-{logarithm}/{-b}")
        return f, "", answer, "inverse", Fraction(c) + Fraction(1, 2), Fraction(c) + 20
    if kind == 1:  # ln(a x + c) + b -> (e^(x - b) - c)/a, all x
        f = f"ln({linear_combination([(a, 'x'), (c, '1')])}){_plus(b)}"
        answer = f"(e^({_minus(b)}){_plus(-c)})/{a}"
        return f, "", answer, "inverse", Fraction(-2), Fraction(2)
    if kind == 2:  # a (x + c)^3 + b -> ((x - b)/a)^(1/3) - c, checked where x > b (real cube roots)
        f = f"{a}({_minus(-c)})^3{_plus(b)}"
        answer = f"(({_minus(b)})/{a})^(1/3){_plus(-c)}"
        return f, "", answer, "inverse", Fraction(b) + Fraction(1, 2), Fraction(b) + 30
    # sqrt(a x + c) + |b| for x >= -c/a: inverse ((x - |b|)^2 - c)/a for x >= |b|
    shift = abs(b)
    f = f"sqrt({linear_combination([(a, 'x'), (c, '1')])}) + {shift}"
    answer = f"(({_minus(shift)})^2{_plus(-c)})/{a}"
    return f, "", answer, "inverse", Fraction(shift) + Fraction(1, 2), Fraction(shift) + 9


# what may stand left of "=" in an answer: the name of the asked function ("f^{-1}(x) = ...", "(f∘g)(x) = ..."),
# y, or a fresh function name; other names of the prompt's functions ("g(f(x))", "f(x)") change what is claimed
_LABEL_SHAPE = re.compile(r"[A-Za-z0-9()^∘'_\-]{1,16}")
_LABEL_SPELLINGS = (("\\left", ""), ("\\right", ""), ("\\circ", "∘"), ("⁻¹", "^-1"), ("^(-1)", "^-1"), ("{", ""),
                    ("}", ""), ("$", ""), (" ", ""), ("\\,", ""))
_ASKED_NAMES = {
    "value": ("f(g(@))", "(f∘g)(@)", "f∘g(@)", "y"),  # @: the number f(g(.)) is asked at
    "composition": ("f(g(x))", "(f∘g)(x)", "f∘g(x)", "fog(x)", "(fog)(x)", "y", "y(x)"),
    "inverse": ("f^-1(x)", "f^-1", "y", "y(x)"),
}


def _split_label(answer: str) -> tuple[str | None, str]:
    """``("f(g(x))", "2x + 1")`` for ``f(g(x)) = 2x + 1``; ``(None, answer)`` when no name stands left of ``=``."""
    text = strip_wrappers(answer)
    head, equals, rest = text.partition("=")
    if not equals or len(head) > 40:
        return None, answer
    label = head
    for spelling, plain in _LABEL_SPELLINGS:
        label = label.replace(spelling, plain)
    if not _LABEL_SHAPE.fullmatch(label):
        return None, answer
    return label, rest


def _names_the_question(label: str, kind: str, at: str) -> bool:
    """Whether ``label`` names what is asked (or a fresh function such as h(x)), not another function."""
    if kind == "value":
        return label in [name.replace("@", at) for name in _ASKED_NAMES["value"]]
    fresh = re.fullmatch(r"([A-Za-z])\(x\)", label)
    taken = "fgx" if kind == "composition" else "fx"  # the prompt's own functions, and the variable
    return label in _ASKED_NAMES[kind] or (fresh is not None and fresh.group(1) not in taken)


# A domain: ("all",) every real x, ("gt", c) x > c, ("ge", c) x >= c, ("ne", c) every x but c.
Domain = tuple
MAX_DOMAIN_ANSWER = 300  # longer answers are not searched for a domain clause
_CLAUSE_START = re.compile(r",|;|\((?= ?x\b)|\s(?=(?:for|where|when|if|on|with|defined)\b)", re.IGNORECASE)
_CLAUSE_WORD = re.compile(r"(?:for|where|when|if|on|with|defined|the|domain|is|:)(?:\b|(?<=:)) ?", re.IGNORECASE)
_TEXT_COMMAND = re.compile(r"\\(?:text|mathrm|textrm|mbox)\{([^{}]{0,40})\}")
_LATEX_SYMBOLS = (("\\left", ""), ("\\right", ""), ("\\geq", "≥"), ("\\geqslant", "≥"), ("\\ge", "≥"),
                  ("\\neq", "≠"), ("\\ne", "≠"), ("\\infty", "∞"), ("\\in", "∈"), ("\\mathbb{R}", "ℝ"),
                  ("\\mathbb R", "ℝ"), ("\\qquad", " "), ("\\quad", " "), ("\\,", " "), ("\\;", " "),
                  ("\\ ", " "), (">=", "≥"), ("!=", "≠"), ("=/=", "≠"), ("\\gt", ">"), ("+∞", "∞"),
                  ("inf", "∞"), ("∞inity", "∞"), ("\\{", "{"), ("\\}", "}"))
_ALL_REALS = frozenset(["all x", "all real x", "all real numbers x", "all real numbers", "all reals", "every x",
                        "every real x", "any x", "any real x", "x ∈ ℝ", "all x ∈ ℝ", "ℝ", "r", "x ∈ r", "all x ∈ r",
                        "(-∞, ∞)", "x ∈ (-∞, ∞)", "all x ∈ (-∞, ∞)", "x real", "real x", "all real values of x"])
_BOUND = re.compile(r"x ?(>|≥|≠) ?([^<>≥≤≠ ]{1,30})")
_BOUND_LEFT = re.compile(r"([^<>≥≤≠ ]{1,30}) ?(<|≤) ?x")
_RAY = re.compile(r"(?:x ?∈ ?)?([\[(]) ?([^,]{1,30}?) ?, ?∞ ?\)")


def _read_domain(clause: str) -> Domain | None:
    """The domain a clause after the formula states (``for x > 2``, ``, x ≥ 3``, ``(x ≠ 1)``, ``on [3, ∞)``), or None."""
    s = _TEXT_COMMAND.sub(r" \1 ", clause)
    for spelling, plain in _LATEX_SYMBOLS:
        s = s.replace(spelling, plain)
    s = " ".join(s.split()).strip().lower().lstrip(",;").strip().removesuffix(".").strip().replace(" in ", " ∈ ")
    if s.startswith("(x") and s.endswith(")") and s.count("(") == 1:  # "(x > 3)", not the ray "(3, ∞)"
        s = s[1:-1].strip()
    for _ in range(6):  # "for", "where", "on", "with domain", "defined for", "domain:"
        word = _CLAUSE_WORD.match(s)
        if not word or not word.group(0).strip():
            break
        s = s[word.end():].strip()
    if s in _ALL_REALS:
        return ("all",)
    bound, left, ray = _BOUND.fullmatch(s), _BOUND_LEFT.fullmatch(s), _RAY.fullmatch(s)
    if bound:
        relation, number = {">": "gt", "≥": "ge", "≠": "ne"}[bound.group(1)], bound.group(2)
    elif left:
        relation, number = {"<": "gt", "≤": "ge"}[left.group(2)], left.group(1)
    elif ray:
        relation, number = {"(": "gt", "[": "ge"}[ray.group(1)], ray.group(2)
    else:
        return None
    value = read_exact(number, max_digits=30)
    return None if value is None else (relation, value)


def _formula_with_domain(answer: str) -> tuple[Expr | None, Domain | None]:
    """The formula and the domain stated after it (``(x - 3)/2 for x > 3``), or ``(None, None)``."""
    text = strip_wrappers(answer)
    if len(text) > MAX_DOMAIN_ANSWER:
        return None, None
    for start in list(_CLAUSE_START.finditer(text))[:8]:
        domain = _read_domain(text[start.start():])
        if domain is not None:
            tree = read_formula(text[:start.start()].strip(), ["x"], functions=CALCULUS_FUNCTIONS)
            if tree is not None:
                return tree, domain
    return None, None


def inverse_domain(data: dict) -> Domain:
    """The inverse's domain: the range of f on its natural domain (see the kinds' generators)."""
    low, f = Fraction(data["low"]), data["f"]
    if data["level_kind"] == "mobius":
        return ("ne", low - Fraction(1, 3))  # every x but the pole a/c
    if data["level_kind"] == "transcendental" and "e^(" in f:
        return ("gt", low - Fraction(1, 2))  # a e^(bx) + c takes every value above c
    if data["level_kind"] == "transcendental" and f.startswith("sqrt("):
        return ("ge", low - Fraction(1, 2))  # sqrt(ax + c) + s takes every value from s up
    return ("all",)  # linear, logarithmic and cubic f take every real value


_KINDS: dict[str, Callable[[random.Random], Drawn | None]] = {
    "value": _value, "composition": _composition, "linear": _linear_inverse, "mobius": _mobius_inverse,
    "transcendental": _transcendental_inverse,
}


@register
class FunctionInverse(Task):
    id = "algebra/function_inverse"
    family = "algebra"
    description = "Evaluate and write compositions of functions, and find inverse functions (checked by value)."
    tags = ("math", "algebra", "functions")

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (
        Config(kind="value"),
        Config(kind="composition"),
        Config(kind="linear"),
        Config(kind="mobius"),
        Config(kind="transcendental"),
    )
    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        f, g, answer, kind, low, high = retry(lambda: _KINDS[config.kind](rng), what="an invertible function")
        if kind.startswith("value:"):
            a = kind.split(":")[1]
            prompt = (f"Let f(x) = {f} and g(x) = {g}. Compute f(g({a})).\n\nGive the exact value, e.g. -17.")
        elif kind == "composition":
            prompt = (f"Let f(x) = {f} and g(x) = {g}. Find a formula for f(g(x)).\n\nGive it as a formula in x "
                      "(any equivalent form), e.g. 2x^2 - 3/(x + 1).")
        else:
            prompt = (f"Find the inverse function f^(-1)(x) of f(x) = {f} (on its natural domain).\n\nGive f^(-1)(x) "
                      "as a formula in x (any equivalent form), e.g. (x - 3)/2.")
        return Problem(prompt=prompt, answer=answer, data={
            "f": f, "g": g, "kind": kind.split(":")[0], "answer": answer, "low": str(low), "high": str(high),
            "level_kind": config.kind, "at": kind.split(":")[1] if kind.startswith("value:") else "",
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        kind = problem.data["kind"]
        label, answer = _split_label(answer)
        if label is not None and not _names_the_question(label, kind, problem.data["at"]):
            return Verdict.wrong(f"the left side {label} names something other than the function asked for")
        if kind == "value":
            value = read_exact(answer, max_digits=60)
            if value is None:
                return Verdict.unparsed("not an exact number")
            return Verdict.judge(value == Fraction(problem.data["answer"]), "wrong value")
        tree = read_formula(answer, ["x"], functions=CALCULUS_FUNCTIONS)
        stated: Domain | None = None
        if tree is None and kind == "inverse":
            tree, stated = _formula_with_domain(answer)
        if tree is None:
            return Verdict.unparsed("not a formula in x")
        points = points_in(Fraction(problem.data["low"]), Fraction(problem.data["high"]), POINTS)
        if kind == "composition":
            want = reference_tree(problem.data["answer"], ("x",))
            # both sides of the poles (all in [-6, 6]): abs(x - 7) - (x - 7) is 0 only on the right
            low, high = Fraction(problem.data["low"]), Fraction(problem.data["high"])
            for point in [*points, *points_in(-high, -low, POINTS)]:
                if not agree(evaluate(tree, point), evaluate(want, point)):
                    return Verdict.wrong("not equal to f(g(x))")
            return Verdict.right()
        f = reference_tree(problem.data["f"], ("x",))
        if stated is not None and stated != inverse_domain(problem.data):
            return Verdict.wrong("the stated domain is not the inverse's domain (the range of f)")
        if problem.data["level_kind"] == "mobius":  # the inverse is defined on both sides of its pole low - 1/3
            pole = Fraction(problem.data["low"]) - Fraction(1, 3)
            points += points_in(2 * pole - Fraction(problem.data["high"]), 2 * pole - Fraction(problem.data["low"]), POINTS)
        for point in points:
            inner = evaluate(tree, point)
            # a complex value (ln(...) + 2*pi*sqrt(-1)) can satisfy f(g(x)) = x without being the real inverse
            if inner is None or not agree(inner.imag, 0) or not agree(evaluate(f, {"x": inner.real}), point["x"]):
                return Verdict.wrong("f of this formula is not x")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """The kind's steps (1 evaluate ... 5 transcendental inverse) plus the formulas' length / 10."""
        steps = {"value": 1, "composition": 2, "linear": 3, "mobius": 4, "transcendental": 5}
        return steps[problem.data["level_kind"]] + (len(problem.data["f"]) + len(problem.data["g"])) / 10

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        if problem.data["kind"] == "value":
            at = problem.data["at"]
            return [*super().spellings(problem), *other_spellings(Fraction(answer)), f"f(g({at})) = {answer}",
                    f"$(f \\circ g)({at}) = {answer}$"]
        names = ["f(g(x))", "(f \\circ g)(x)", "h(x)"] if problem.data["kind"] == "composition" else [
            "f^{-1}(x)", "f⁻¹(x)", "y"]
        return [*super().spellings(problem), *(f"{name} = {answer}" for name in names), answer.replace("^", "**"),
                f"\\boxed{{{answer}}}", f"{answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer
        if problem.data["kind"] == "value":
            value = Fraction(answer)
            at = int(problem.data["at"])
            return [format_fraction(value + 1), format_fraction(-value - 1), f"{answer} or 0",
                    f"g(f({at})) = {answer}", f"f(g({at + 1})) = {answer}"]
        wrong = [f"({answer}) + 1", f"2*({answer})", problem.data["f"], f"{answer} or x", f"{answer} + 2*pi*sqrt(-1)"]
        if problem.data["g"]:
            wrong.append(_substitute(problem.data["g"], problem.data["f"]))  # g(f(x)) instead of f(g(x))
            wrong += [f"g(f(x)) = {answer}", f"f(x) = {answer}", f"{answer} + abs(x - 7) - (x - 7)"]
        else:
            wrong += [f"f(x) = {answer}", f"x = {answer}"]
        return [w for w in wrong if not self.verify(problem, w).correct]
