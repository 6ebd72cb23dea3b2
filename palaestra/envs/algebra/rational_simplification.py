"""Simplify a rational expression in x to a single fraction in lowest terms.

Level 0 cancels one common linear factor from a quadratic over a linear polynomial
(the result is a polynomial); level 1 a quadratic over a quadratic; level 2 cubics and
quadratics with numeric factors to cancel too; level 3 combines a sum or difference of
two fractions over different denominators; level 4 simplifies a quotient of such
combinations. The expressions are built from chosen factors, so the reduced form is
known exactly (:mod:`palaestra.verifiers.polynomials`).

The answer is checked, not compared: it must be one fraction P/Q of polynomials (or a
polynomial), equal to the expression as a rational function, with P and Q sharing no
factor (their greatest common divisor a constant). Any arrangement is right —
expanded or factored, ``(x + 3)/(x + 2)``, ``\\frac{x+3}{x+2}``, ``-(x - 1)/(2x + 4)``,
``(1 - x)/(2x + 4)``; an unreduced fraction, a sum of fractions or a different
function is wrong. The answer may name the values the original expression excludes
(``x - 14, x ≠ 9/2``, ``(x - 8)^2/(x - 4) for x ≠ 5, -1``, ``... (x \\neq 5)``); each value named must
be one where the original is undefined, or the statement is wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.formulas import read_formula
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.polynomials import (
    Polynomial,
    add,
    coefficients,
    content,
    degree,
    divide,
    format_polynomial,
    from_coefficients,
    gcd,
    multiply,
    same_rational,
    to_polynomial,
    to_rational,
)
from palaestra.verifiers.rationals import format_fraction

X = ["x"]
_EXAMPLES = ("(2x + 1)/(x - 3)", "(x^2 - 5)/(3x + 4)")


def _linear(rng: random.Random, lead: int = 1, spread: int = 9) -> Polynomial:
    a = rng.randint(1, lead)
    b = rng.choice([v for v in range(-spread, spread + 1) if v])
    return from_coefficients([b, a])


def _product(*factors: Polynomial) -> Polynomial:
    out = from_coefficients([1])
    for f in factors:
        out = multiply(out, f)
    return out


def _text(p: Polynomial) -> str:
    return format_polynomial(p, X)


def _fraction_text(top: Polynomial, bottom: Polynomial) -> str:
    return f"({_text(top)})/({_text(bottom)})"


def _reduce(top: Polynomial, bottom: Polynomial) -> tuple[Polynomial, Polynomial]:
    """Cancel the gcd and make the denominator monic-integer (integer coefficients, positive leading)."""
    g = gcd(top, bottom)
    top, bottom = divide(top, g)[0], divide(bottom, g)[0]
    scale = 1 / content(bottom)
    if coefficients(bottom)[-1] < 0:
        scale = -scale
    top = {m: c * scale for m, c in top.items()}
    bottom = {m: c * scale for m, c in bottom.items()}
    top_scale = content(top)
    if top_scale.denominator != 1:  # clear fractions from the numerator into the denominator
        factor = top_scale.denominator
        top = {m: c * factor for m, c in top.items()}
        bottom = {m: c * factor for m, c in bottom.items()}
    return top, bottom


def _answer_text(top: Polynomial, bottom: Polynomial) -> str:
    if degree(bottom) == 0:
        only = coefficients(bottom)[0]
        return _text({m: c / only for m, c in top.items()})
    return _fraction_text(top, bottom)


Drawn = tuple[str, Polynomial, Polynomial]  # shown expression, unreduced numerator, unreduced denominator


def _cancel_one(rng: random.Random, top_degree: int, bottom_degree: int, lead: int, numeric: bool) -> Drawn | None:
    common = _linear(rng, lead + 1, 20)
    top = _product(common, *(_linear(rng, lead + 3, 30) for _ in range(top_degree - 1)))
    bottom = _product(common, *(_linear(rng, lead + 1, 15) for _ in range(bottom_degree - 1)))
    if numeric:
        k, extra = rng.randint(2, 6), rng.randint(1, 3)
        top = {m: c * k * extra for m, c in top.items()}
        bottom = {m: c * k for m, c in bottom.items()}
    return _fraction_text(top, bottom), top, bottom


def _sum(rng: random.Random) -> Drawn | None:
    p, q = _linear(rng), _linear(rng)
    if p == q:
        return None
    a, b = rng.choice([v for v in range(-6, 7) if v]), rng.choice([v for v in range(-6, 7) if v])
    shared = rng.random() < 0.5  # denominators p*q and p*r share a factor
    first_bottom = multiply(p, q) if shared else p
    second_bottom = multiply(p, _linear(rng)) if shared else q
    top = add(multiply(from_coefficients([a]), second_bottom), multiply(from_coefficients([b]), first_bottom))
    bottom = multiply(first_bottom, second_bottom)
    sign = "+" if b > 0 else "-"
    shown = f"{a}/({_text(first_bottom)}) {sign} {abs(b)}/({_text(second_bottom)})"
    return shown, top, bottom


def _quotient(rng: random.Random) -> Drawn | None:
    p, q, r = _linear(rng), _linear(rng), _linear(rng)
    if len({tuple(sorted(f.items())) for f in (p, q, r)}) < 3:
        return None
    # (p/q) / (r/(p*q)) style with cancellations: ((x-a)/(x-b)) ÷ ((x-c)/(x^2 - ...))
    left_top, left_bottom = multiply(p, r), q
    right_top, right_bottom = multiply(r, _linear(rng)), multiply(q, p)
    top = multiply(left_top, right_bottom)
    bottom = multiply(left_bottom, right_top)
    shown = f"[{_fraction_text(left_top, left_bottom)}] ÷ [{_fraction_text(right_top, right_bottom)}]"
    return shown, top, bottom


@register
class RationalSimplification(Task):
    id = "algebra/rational_simplification"
    version = 2
    family = "algebra"
    description = "Simplify a rational expression in x to one fraction in lowest terms (checked, any arrangement)."
    tags = ("math", "algebra")

    @dataclass(frozen=True)
    class Config:
        kind: str  # cancel | sum | quotient
        degrees: tuple[int, int]
        lead: int
        numeric: bool

    presets = (
        Config("cancel", (2, 1), 1, False),
        Config("cancel", (2, 2), 1, False),
        Config("cancel", (3, 2), 3, True),
        Config("sum", (0, 0), 1, False),
        Config("quotient", (0, 0), 1, False),
    )
    bounded = "its levels are kinds of rational expression (cancel, sum, quotient...), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Drawn | None:
            if config.kind == "cancel":
                return _cancel_one(rng, *config.degrees, config.lead, config.numeric)
            return _sum(rng) if config.kind == "sum" else _quotient(rng)

        shown, top, bottom = retry(draw, lambda d: _reduce(d[1], d[2])[1] != d[2], what="an expression that reduces")
        reduced_top, reduced_bottom = _reduce(top, bottom)
        answer = _answer_text(reduced_top, reduced_bottom)
        example = _EXAMPLES[0]  # a fixed placeholder: independent of the answer
        prompt = (
            f"Simplify {shown}\n\nWrite the result as a single fraction in lowest terms (or a polynomial if the "
            f"denominator cancels completely), valid wherever the original is defined, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=answer, data={
            "kind": config.kind, "top": [str(c) for c in coefficients(reduced_top)],
            "bottom": [str(c) for c in coefficients(reduced_bottom)], "shown": shown,
            "degree": degree(top) + degree(bottom),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        split = _split_restriction(answer)
        if split is None:
            return Verdict.unparsed("not a rational expression in x (a restriction reads like x ≠ 2, -1/3)")
        formula, excluded = split
        tree = read_formula(formula, X)
        if tree is None:
            return Verdict.unparsed("not a rational expression in x")
        want = (from_coefficients(Fraction(c) for c in problem.data["top"]),
                from_coefficients(Fraction(c) for c in problem.data["bottom"]))
        got = to_rational(tree, X)
        if got is None or not same_rational(got, want):
            return Verdict.wrong("not equal to the expression")
        form = _single_fraction(tree)
        if form is None:
            return Verdict.wrong("not written as a single fraction P/Q")
        top, bottom = form
        if degree(gcd(top, bottom)) != 0:
            return Verdict.wrong("not in lowest terms: numerator and denominator share a factor")
        original = _original_tree(problem.data["shown"])
        return Verdict.judge(all(_value_at(original, v) is None for v in excluded),
                             "the restriction excludes a value where the original expression is defined")

    def difficulty(self, problem: Problem) -> float:
        """Total degree of the unreduced numerator and denominator, plus 2 for combining fractions and 4 for
        a quotient of fractions, plus a tenth of the digits of the coefficients shown (the factoring work)."""
        digits = sum(c.isdigit() for c in problem.data["shown"])
        return float(problem.data["degree"] + {"cancel": 0, "sum": 2, "quotient": 4}[problem.data["kind"]]) + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        top = from_coefficients(Fraction(c) for c in problem.data["top"])
        bottom = from_coefficients(Fraction(c) for c in problem.data["bottom"])
        out = [*super().spellings(problem), answer.replace("^", "**"), f"{answer}."]
        if degree(bottom) > 0:
            negated = f"({_text({m: -c for m, c in top.items()})})/({_text({m: -c for m, c in bottom.items()})})"
            latex = f"\\frac{{{_text(top)}}}{{{_text(bottom)}}}"
            doubled = f"({_text({m: 2 * c for m, c in top.items()})})/({_text({m: 2 * c for m, c in bottom.items()})})"
            out += [negated, latex, doubled]
        poles = _poles(problem.data["shown"])
        if poles:
            out += [f"{answer}, x ≠ {format_fraction(poles[0])}",
                    f"{answer} \\quad (x \\neq {', '.join(format_fraction(p) for p in poles)})"]
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        top = from_coefficients(Fraction(c) for c in problem.data["top"])
        bottom = from_coefficients(Fraction(c) for c in problem.data["bottom"])
        extra = from_coefficients([-7, 1])
        unreduced = _fraction_text(multiply(top, extra), multiply(bottom, extra))
        wrong = [unreduced, problem.data["shown"], _fraction_text(bottom, top) if top else "1",
                 f"{problem.answer}, x ≠ 1000/7",  # a value where the original is defined
                 _answer_text({m: c + (1 if m == (0,) else 0) for m, c in top.items()} | (
                     {} if (0,) in top else {(0,): Fraction(1)}), bottom)]
        return [w for w in wrong if not self.verify(problem, w).correct]


def _single_fraction(tree: tuple) -> tuple[Polynomial, Polynomial] | None:
    """(P, Q) when the tree is ±P/Q (or ±P) with P and Q polynomials in any arrangement, else None."""
    sign = 1
    node = tree
    while node[0] == "neg":
        sign, node = -sign, node[1]
    if node[0] == "/":
        top, bottom = to_polynomial(node[1], X), to_polynomial(node[2], X)
        if top is None or bottom is None or not bottom:
            return None
        return {m: sign * c for m, c in top.items()}, bottom
    whole = to_polynomial(node, X)
    return None if whole is None else ({m: sign * c for m, c in whole.items()}, from_coefficients([1]))


# --- a stated restriction: "x - 14, x ≠ 9/2" -----------------------------------------------------------------------

MAX_RESTRICTED_ANSWER = 300  # longer answers are not searched for a restriction
MAX_EXCLUDED = 8
_NOT_EQUAL = (("\\neq", "≠"), ("\\ne", "≠"), ("!=", "≠"), ("=/=", "≠"), ("\\left(", "("), ("\\right)", ")"),
              ("\\qquad", " "), ("\\quad", " "), ("\\,", " "), ("\\;", " "), ("\\ ", " "))
_TEXT_COMMAND = re.compile(r"\\(?:text|mathrm|textrm|mbox)\{([A-Za-z ,]{0,40})\}")
_NOT_EQUAL_X = re.compile(r"\bx\s*≠\s*")
_LEAD_WORDS = ("for", "where", "when", "with", "if", "provided", "that", "and", "all", "valid")
_VALUE_SEPARATOR = re.compile(r"\s*(?:,|;|\band\b)\s*(?:x\s*≠\s*)?")


def _split_restriction(answer: str) -> tuple[str, tuple[Fraction, ...]] | None:
    """The formula and the values a clause after it excludes (``x - 14, x ≠ 9/2``: ``("x - 14", (9/2,))``);
    the whole answer and no values when there is no ``≠``; ``None`` when a restriction cannot be read."""
    text = strip_wrappers(answer)
    for latex, plain in _NOT_EQUAL:
        text = text.replace(latex, plain)
    if "≠" not in text:
        return answer, ()
    if len(text) > MAX_RESTRICTED_ANSWER:
        return None
    text = _TEXT_COMMAND.sub(r" \1 ", text)
    found = _NOT_EQUAL_X.search(text)
    if found is None:
        return None
    head, clause = text[:found.start()], text[found.end():]
    opened = False
    for _ in range(12):  # the clause's lead-in, from its end: ", (for", "; where", " for all", "\\quad ("
        head = head.rstrip()
        word = next((w for w in _LEAD_WORDS if head.lower().endswith(w)
                     and not head[:len(head) - len(w)][-1:].isalnum()), None)
        if word:
            head = head[:len(head) - len(word)]
        elif head.endswith(("(", "[")):
            head, opened = head[:-1], True
        elif head.endswith((",", ";")):
            head = head[:-1]
        else:
            break
    clause = clause.strip().removesuffix(".").strip()
    if opened:
        if not clause.endswith((")", "]")):
            return None
        clause = clause[:-1].strip()
    pieces = _VALUE_SEPARATOR.split(clause)
    if not head.strip() or not 1 <= len(pieces) <= MAX_EXCLUDED:
        return None
    values = [read_exact(piece, max_digits=30) for piece in pieces]
    if any(v is None for v in values):
        return None
    return head.strip(), tuple(v for v in values if v is not None)


def _original_tree(shown: str) -> tuple:
    """The expression the prompt shows (``[A/B] ÷ [C/D]``) as a tree of the formula reader."""
    text = shown.replace("[", "(").replace("]", ")").replace("÷", "/").replace("×", "*").replace("−", "-")
    tree = read_formula(text, X)
    if tree is None:
        raise ValueError(f"unreadable expression {shown!r}")  # a generator bug, never model text
    return tree


def _value_at(tree: tuple, x: Fraction) -> Fraction | None:
    """The exact value of the (generator's) expression at ``x``, or ``None`` where a denominator vanishes."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "var":
        return x
    if kind == "neg":
        inner = _value_at(tree[1], x)
        return None if inner is None else -inner
    a, b = _value_at(tree[1], x), _value_at(tree[2], x)
    if a is None or b is None:
        return None
    if kind == "/":
        return None if b == 0 else a / b
    if kind == "**":
        return None if a == 0 and b < 0 else a ** int(b)
    return {"+": a + b, "-": a - b, "*": a * b}[kind]


def _poles(shown: str) -> list[Fraction]:
    """The rational points (small denominators) where the shown expression is undefined, in increasing order."""
    tree = _original_tree(shown)
    points = {Fraction(n, d) for d in range(1, 7) for n in range(-60 * d, 60 * d + 1)}
    return sorted(v for v in points if _value_at(tree, v) is None)
