"""Sequences: next terms, polynomial rules, linear recurrences and their closed forms.

Level 0 gives the first terms of a sequence that adds or multiplies by a constant and
asks for the next term; level 1 gives the first terms of a sequence whose n-th term is a
polynomial of degree 2 or 3 in n (as the prompt says) and asks for a later term; level 2
asks for a_6 to a_10 of a second-order linear recurrence a_n = p a_(n-1) + q a_(n-2); level 3 for
a closed form of a_n = r a_(n-1) + c; level 4 for a closed form of a second-order
recurrence (distinct integer roots, or a repeated root, of the characteristic equation).
Each rule class named in the prompt determines the answer uniquely from the terms given.

Values are exact numbers. A closed form is any formula in n (``3*2^n - 1``,
``(5*4^n - (-1)^n)/2``, ``(n + 2)3^n``): it is evaluated for n = 0, 1, ..., 40 and must give
every term of the sequence there. A closing note that n runs from 0 (``for n ≥ 0``, ``(n \\geq 0)``,
``where n is a non-negative integer``) may follow it; any other text leaves it unread.

Version 3: level 2 draws no periodic rule (a_n = -a_(n-1) - a_(n-2) repeats every 3 terms, a_n = a_(n-1) - a_(n-2)
every 6) and no sequence whose asked term is 0, a_0 or a_1 (all zeros from a_0 = a_1 = 0, a constant rule):
answering a_0 or a_1 by the index's parity paid 0.07 of level 2 in version 2, a_0 0.055, a_1 0.05 (400 seeds);
now 0.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.formulas import agree, evaluate, linear_combination, read_formula
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction, other_spellings

CHECKED_TERMS = 41  # a closed form must match a_0 .. a_40
PERIODIC = ((-1, -1), (1, -1))  # (p, q) whose characteristic roots are roots of unity: the sequence repeats
# A closing note on the domain of n, as a closed form is often written: "for n ≥ 0", ", n >= 0", "(n \geq 0)",
# "for all integers n ≥ 0", "where n is a non-negative integer", "for n = 0, 1, 2, ...". Only a note that covers
# every n from 0 is cut (the closed form must give a_0 too), so any other text after the formula still leaves it
# unread. The pattern is ours (never the model's) and runs on the answer with its whitespace collapsed to single
# spaces, which it matches one at a time (" ?"), so no two parts compete for the same characters.
_FROM_ZERO = (
    r"(?:(?:for|where|with) )?(?:all |every |each |any )?(?:integers? )?n ?(?:≥|>=|⩾|\\geq|\\ge) ?0"
    r"|(?:for|where|with) (?:all |every |each |any )?(?:n (?:is )?(?:an? |any )?)?non-?negative "
    r"(?:integers?|whole numbers?)(?: n)?"
    r"|for n = 0 ?, ?1 ?, ?2 ?, ?(?:\.\.\.|…|\\ldots|\\dots)"
)
_DOMAIN_NOTE = re.compile(rf" ?(?:[,;] ?)?\(? ?(?:{_FROM_ZERO}) ?\)? ?\.? ?$", re.IGNORECASE)
_DOMAIN_MAX = 600


def _without_domain_note(answer: str) -> str:
    """``answer`` without a closing note that n runs over 0, 1, 2, ... (unchanged when there is none)."""
    if not isinstance(answer, str) or len(answer) > _DOMAIN_MAX:
        return answer
    collapsed = " ".join(answer.split())
    note = _DOMAIN_NOTE.search(collapsed)
    return answer if note is None or note.start() == 0 else collapsed[: note.start()]


def _terms(first: list[Fraction], p: int, q: int, c: int, count: int) -> list[Fraction]:
    """a_n = p a_(n-1) + q a_(n-2) + c from the first terms (q may be 0 for first order)."""
    out = list(first)
    while len(out) < count:  # bounded by count
        out.append(p * out[-1] + (q * out[-2] if len(out) >= 2 else 0) + c)
    return out


def _power(base: int, name: str = "n") -> str:
    return f"({base})^{name}" if base < 0 else f"{base}^{name}"


@register
class Recurrences(Task):
    id = "algebra/recurrences"
    version = 3  # v3: level 2 has no periodic rule and no asked term equal to 0, a_0 or a_1 (paid up to 0.07)
    family = "algebra"
    description = "Next terms, polynomial rules, linear recurrences and closed forms of sequences."
    tags = ("math", "algebra", "sequences")

    @dataclass(frozen=True)
    class Config:
        kind: str  # next | polynomial | value | affine | second_order

    presets = (
        Config(kind="next"),
        Config(kind="polynomial"),
        Config(kind="value"),
        Config(kind="affine"),
        Config(kind="second_order"),
    )
    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = config.kind
        if kind == "next":
            question, value, steps = _next(rng)
        elif kind == "polynomial":
            question, value, steps = _polynomial(rng)
        elif kind == "value":
            question, value, steps = _value(rng)
        else:
            question, formula, terms, steps = retry(lambda: (_affine if kind == "affine" else _second)(rng),
                                                    what="a recurrence")
            prompt = f"{question}\n\nGive a closed-form formula for a_n in terms of n, e.g. 2*5^n + (-1)^n."
            return Problem(prompt=prompt, answer=formula, data={
                "kind": kind, "terms": [str(t) for t in terms], "steps": steps})
        example = "-13"  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the exact value, e.g. {example}."
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "kind": kind, "value": format_fraction(value), "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if "value" in problem.data:
            value = read_exact(answer, max_digits=80)
            if value is None:
                return Verdict.unparsed("not an exact number")
            return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")
        tree = read_formula(answer, ["n"])
        if tree is None:
            tree = read_formula(_without_domain_note(answer), ["n"])
        if tree is None:
            return Verdict.unparsed("not a formula in n")
        for n, term in enumerate(problem.data["terms"]):
            if not agree(evaluate(tree, {"n": n}), Fraction(term)):
                return Verdict.wrong(f"the formula gives a wrong a_{n}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Steps of the rule (1 for a common difference ... 8 for a second-order closed form), plus a tenth of
        the answer's digits (the arithmetic carried to the asked term, or the closed form's constants)."""
        return float(problem.data["steps"]) + sum(c.isdigit() for c in problem.answer or "") / 10

    def spellings(self, problem: Problem) -> list[str]:
        if "value" in problem.data:
            return [*super().spellings(problem), *other_spellings(Fraction(problem.data["value"])),
                    f"a = {problem.answer}"]
        answer = problem.answer
        return [*super().spellings(problem), f"a_n = {answer}", answer.replace("^", "**"),
                answer.replace("*", " \\cdot "), f"{answer}.", f"a_n = {answer} for n ≥ 0",
                f"a_n = {answer}, n \\geq 0"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if "value" in problem.data:
            value = Fraction(problem.data["value"])
            return [format_fraction(value + 1), format_fraction(value * 2 + 3), f"{problem.answer} or 0"]
        answer = problem.answer
        wrong = [f"{answer} + 1", f"2*({answer})", answer.replace("^n", "^(n+1)", 1),
                 f"({answer})*(1 + n*(n-1)*(n-2)*(n-3))"]
        return [w for w in wrong if not self.verify(problem, w).correct]


def _listing(terms: list[Fraction]) -> str:
    return ", ".join(format_fraction(t) for t in terms)


def _next(rng: random.Random) -> tuple[str, Fraction, int]:
    count = rng.randint(4, 5)
    if rng.random() < 0.5:
        start, step = rng.randint(-200, 200), rng.choice([v for v in range(-40, 41) if v])
        terms = [Fraction(start + step * k) for k in range(count + 1)]
    else:
        start = rng.choice([v for v in range(-200, 201) if v])
        ratio = rng.choice([-4, -3, -2, 2, 3, 4, 5, 6, Fraction(1, 2), Fraction(-1, 2), Fraction(3, 2), Fraction(1, 3)])
        start *= Fraction(ratio).denominator ** count  # fractional ratios keep the shown terms whole
        terms = [Fraction(start) * Fraction(ratio) ** k for k in range(count + 1)]
    return (f"A sequence either adds the same number each time or multiplies by the same number each time. Its first "
            f"terms are {_listing(terms[:-1])}. What is the next term?"), terms[-1], 1


def _polynomial(rng: random.Random) -> tuple[str, Fraction, int]:
    degree = rng.choice([2, 2, 3])
    coefficients = [rng.randint(-9, 9) for _ in range(degree)] + [rng.choice([v for v in range(-4, 5) if v])]
    target = rng.randint(degree + 4, 15)

    def term(n: int) -> Fraction:
        return Fraction(sum(c * n**k for k, c in enumerate(coefficients)))

    shown = [term(n) for n in range(1, degree + 3)]
    return (f"The n-th term of a sequence is a polynomial in n of degree {degree}. Its first terms (n = 1, 2, ...) are "
            f"{_listing(shown)}. What is term number {target}?"), term(target), 2 + degree


def _value(rng: random.Random) -> tuple[str, Fraction, int]:
    # a_n = -a_(n-1) - a_(n-2) and a_n = a_(n-1) - a_(n-2) repeat with period 3 and 6, so a far term is a near one
    p, q = rng.choice([(p, q) for p in range(-3, 4) for q in range(-3, 4) if p and q and (p, q) not in PERIODIC])
    target = rng.randint(6, 10)

    def draw() -> tuple[int, int, list[Fraction]]:
        a0, a1 = rng.randint(-5, 5), rng.randint(-5, 5)
        return a0, a1, _terms([Fraction(a0), Fraction(a1)], p, q, 0, target + 1)

    # the asked term is none of the printed values (0 throughout when a_0 = a_1 = 0; a_0 again for a constant rule)
    a0, a1, terms = retry(draw, lambda d: d[2][target] not in (0, d[0], d[1]), what="a term that is not printed")
    rule = "a_n = " + linear_combination([(p, "a_(n-1)"), (q, "a_(n-2)")])
    return (f"A sequence has a_0 = {a0}, a_1 = {a1} and {rule} for n >= 2. What is a_{target}?"), terms[target], 5


def _affine(rng: random.Random) -> tuple[str, str, list[Fraction], int] | None:
    r = rng.choice([-5, -4, -3, -2, 2, 3, 4, 5, 6, 7])
    c, s = rng.choice([v for v in range(-40, 41) if v]), rng.randint(-30, 30)
    fixed = Fraction(-c, r - 1)  # a_n = (s - fixed) r^n + fixed
    scale = s - fixed
    if scale == 0:
        return None
    terms = _terms([Fraction(s)], r, 0, c, CHECKED_TERMS)
    formula = f"{format_fraction(scale)}*{_power(r)}" if scale.denominator == 1 else \
        f"({format_fraction(scale)})*{_power(r)}"
    if fixed:
        formula += f" {'+' if fixed > 0 else '-'} {format_fraction(abs(fixed))}"
    rule = "a_n = " + linear_combination([(r, "a_(n-1)"), (c, "1")])
    return f"A sequence has a_0 = {s} and {rule} for n >= 1.", formula, terms, 6


def _second(rng: random.Random) -> tuple[str, str, list[Fraction], int] | None:
    if rng.random() < 0.25:  # a repeated root r: a_n = (A + B n) r^n
        r = rng.choice([-3, -2, 2, 3, 4])
        a, b = rng.randint(-10, 10), rng.choice([v for v in range(-9, 10) if v])
        terms = [Fraction((a + b * n) * r**n) for n in range(CHECKED_TERMS)]
        p, q = 2 * r, -r * r
        formula = f"({a} + {b}n)*{_power(r)}".replace("+ -", "- ")
    else:
        r1, r2 = rng.sample([-3, -2, -1, 2, 3, 4, 5], 2)
        a, b = rng.choice([v for v in range(-9, 10) if v]), rng.choice([v for v in range(-9, 10) if v])
        terms = [Fraction(a * r1**n + b * r2**n) for n in range(CHECKED_TERMS)]
        p, q = r1 + r2, -r1 * r2
        formula = f"{a}*{_power(r1)} + {b}*{_power(r2)}".replace("+ -", "- ")
    rule = "a_n = " + linear_combination([(p, "a_(n-1)"), (q, "a_(n-2)")])
    return (f"A sequence has a_0 = {format_fraction(terms[0])}, a_1 = {format_fraction(terms[1])} and {rule} for "
            "n >= 2."), formula, terms, 8
