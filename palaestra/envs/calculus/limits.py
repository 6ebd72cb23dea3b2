"""Limits: removable singularities, limits at infinity, standard limits, and limits needing series.

Level 0 cancels a common factor of a rational function (x → a); level 1 takes a rational
function to ±∞ (a ratio of leading coefficients, 0, or ±∞: the degrees are equal for about
three problems in four, so none of 0, ∞ and -∞ answers more than about one in ten; version 2
drew a lower top degree a quarter of the time, and "0" alone scored 0.24 there); level 2 uses the standard
limits of sin(ax)/(bx), (e^(ax) - 1)/(bx), ln(1 + ax)/(bx), (1 - cos(ax))/x²; level 3 the
limits behind e (``(1 + a/x)^(bx)``), conjugates of square roots, and a one-sided limit
of (x - e)|x - a|/(x - a) (or the two-sided one, which does not exist); level 4 limits that need
the second or third term of a Taylor series (``(sin(ax) - ax)/x³``, ``(e^(ax) - 1 - ax)/x²``).
The value of each family is written down from its parameters; the tests check a sample
numerically.

The answer is the exact value in any exact form (``3/2``, ``e^6``, ``\\frac{1}{4}``,
``sqrt(3)/6``; evaluated to 40 digits, matched to 25, decimals of more than 12 places
refused), ``∞`` / ``-∞`` (``infinity``, ``+oo``, ``-\\infty``), or ``does not exist``
(``DNE``) when the prompt's limit does not exist, alone or with the one reason a grader reads as part of it
(``does not exist (the one-sided limits differ)``); any other remark after it stays unread.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.calculus.common import x_parts
from palaestra.verifiers.expressions import Expr
from palaestra.verifiers.formulas import CALCULUS_FUNCTIONS, agree, evaluate, read_formula
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.polynomials import format_polynomial, from_coefficients, multiply

Question = tuple[str, str, int]  # limit text, answer, steps
# An exact value never holds a part this much farther from 1 than the limit itself is (10^30, 1/10^30): such a part
# is a point near the limit put into the expression (x = 10^30 in a ratio of polynomials as x → ∞, x = 10^-30 in
# sin(7x)/sin(-10x)), whose value matches the limit to 25 digits without the limit being taken.
FAR = 10 ** 12
_POSITIVE = re.compile(r"^\+?\s*(?:∞|\\infty|infinity|inf|oo)$", re.IGNORECASE)
_NEGATIVE = re.compile(r"^-\s*(?:∞|\\infty|infinity|inf|oo)$", re.IGNORECASE)
_NONE_WORDS = r"(?:does not exist|doesn't exist|dne|the limit does not exist|no limit|undefined)"
_NONE = re.compile(rf"^{_NONE_WORDS}$", re.IGNORECASE)
# 'does not exist' with the reason a grader reads as part of it, in brackets or after a comma, a colon or "because":
# "does not exist (the one-sided limits differ)", "DNE, because the left and right limits are not equal". Only these
# fixed reasons: any other remark stays unread, as a retraction would ("does not exist (no, that is wrong)").
_REASON = (r"(?:the )?(?:one-sided|one sided|left and right(?:-hand)?|left- and right-hand|left-hand and right-hand"
           r"|left and right hand) limits (?:differ|are different|are not equal|are unequal|disagree|do not agree"
           r"|don't agree|do not match|don't match)")
_NONE_WITH_REASON = re.compile(
    rf"^{_NONE_WORDS}(?: ?\((?:because |since |as )?{_REASON}\)| ?[,;:—–] ?(?:because |since |as )?{_REASON}"
    rf"| (?:because|since|as) {_REASON})$",
    re.IGNORECASE,
)


def _q(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _nonzero(rng: random.Random, top: int) -> int:
    return rng.choice([v for v in range(-top, top + 1) if v])


def _kx(k: int) -> str:
    return "x" if k == 1 else "-x" if k == -1 else f"{k}x"


def _removable(rng: random.Random) -> Question:
    a = rng.randint(-9, 9)
    p, q, r, s = rng.randint(1, 5), rng.randint(-12, 12), rng.randint(1, 5), rng.randint(-12, 12)
    if r * a + s == 0:
        s += 1
    common = from_coefficients([-a, 1])
    top = multiply(common, from_coefficients([q, p]))
    bottom = multiply(common, from_coefficients([s, r]))
    text = f"({format_polynomial(top, ['x'])})/({format_polynomial(bottom, ['x'])}) as x → {a}"
    return text, _q(Fraction(p * a + q, r * a + s)), 1


_EQUAL_DEGREES, _HIGHER_DEGREE = 0.78, 0.14  # the rest (0.08): a lower top degree, the limit 0


def _at_infinity(rng: random.Random) -> Question:
    n = rng.randint(1, 4)
    draw = rng.random()  # 0 for a lower top degree and ±∞ for a higher one stay under 0.10 each as constants
    m = n if draw < _EQUAL_DEGREES else n + rng.randint(1, 2) if draw < _EQUAL_DEGREES + _HIGHER_DEGREE \
        else max(0, n - rng.randint(1, 2))
    top = from_coefficients([rng.randint(-9, 9) for _ in range(m)] + [_nonzero(rng, 9)])
    bottom = from_coefficients([rng.randint(-9, 9) for _ in range(n)] + [_nonzero(rng, 9)])
    direction = rng.choice(["∞", "-∞"])
    lead_top, lead_bottom = top[(m,)], bottom[(n,)]
    if m < n:
        answer = "0"
    elif m == n:
        answer = _q(lead_top / lead_bottom)
    else:
        sign = (1 if lead_top / lead_bottom > 0 else -1) * (-1 if direction == "-∞" and (m - n) % 2 else 1)
        answer = "∞" if sign > 0 else "-∞"
    text = f"({format_polynomial(top, ['x'])})/({format_polynomial(bottom, ['x'])}) as x → {direction}"
    return text, answer, 2


def _times(c: int, text: str) -> str:
    return text if c == 1 else f"-{text}" if c == -1 else f"{c}{text}"


def _standard(rng: random.Random) -> Question:
    a, b, c = _nonzero(rng, 12), _nonzero(rng, 12), _nonzero(rng, 6)
    kind = rng.randrange(6)
    if kind == 0:
        return f"{_times(c, f'sin({_kx(a)})')}/({_kx(b)}) as x → 0", _q(Fraction(c * a, b)), 3
    if kind == 1:
        return f"{_times(c, f'(e^({_kx(a)}) - 1)')}/({_kx(b)}) as x → 0", _q(Fraction(c * a, b)), 3
    if kind == 2:
        return f"{_times(c, f'ln(1 + {_kx(abs(a))})')}/({_kx(b)}) as x → 0", _q(Fraction(c * abs(a), b)), 3
    if kind == 3:
        return f"{_times(c, f'(1 - cos({_kx(a)}))')}/({b}x^2) as x → 0", _q(Fraction(c * a * a, 2 * b)), 3
    if kind == 4:
        return f"{_times(c, f'tan({_kx(a)})')}/sin({_kx(b)}) as x → 0", _q(Fraction(c * a, b)), 3
    if a == b:
        b += 1
    return f"(e^({_kx(a)}) - e^({_kx(b)}))/({_kx(c)}) as x → 0", _q(Fraction(a - b, c)), 3


def _special(rng: random.Random) -> Question:
    kind = rng.randrange(4)
    a, b, c = _nonzero(rng, 12), _nonzero(rng, 12), rng.randint(1, 9)
    if kind == 0:  # (1 + a/(c x))^(b x) -> e^(ab/c)
        inner = f"{a}/x" if c == 1 else f"{a}/({c}x)"
        return f"(1 + {inner})^({_kx(b)}) as x → ∞".replace("+ -", "- "), f"e^({_q(Fraction(a * b, c))})", 4
    if kind == 1:  # sqrt(c^2 x^2 + a x + d) - c x -> a/(2c)
        d = rng.randint(-20, 20)
        radicand = format_polynomial(from_coefficients([d, a, c * c]), ["x"])
        return f"sqrt({radicand}) - {_kx(c)} as x → ∞", _q(Fraction(a, 2 * c)), 4
    if kind == 2:  # (sqrt(p x + q) - sqrt(q))/(r x) -> p/(2 r sqrt q)
        p, q, r = _nonzero(rng, 9), rng.choice([2, 3, 5, 6, 7, 10, 11, 13, 4, 9, 16, 25]), _nonzero(rng, 6)
        return (f"(sqrt({_kx(p)} + {q}) - sqrt({q}))/({_kx(r)}) as x → 0",
                f"{_q(Fraction(p, 2 * r))}/sqrt({q})", 4)
    # (x - e)|p x - p c|/(q x - q c): one-sided limits ±|p|(c - e)/q, the two-sided one does not exist. The factor
    # x - e keeps the function from being constant on each side (version 3: |p x - p c|/(q x - q c) alone, which any
    # point on the asked side gave exactly: 0.195 of level 3 answered without a limit).
    p, q, centre = _nonzero(rng, 6), _nonzero(rng, 6), rng.randint(-9, 9)
    offset = rng.choice([k for k in range(-9, 10) if k != centre])
    top = format_polynomial(from_coefficients([-p * centre, p]), ["x"])
    bottom = format_polynomial(from_coefficients([-q * centre, q]), ["x"])
    factor = format_polynomial(from_coefficients([-offset, 1]), ["x"])
    side = rng.choice(["+", "-", ""])
    value = Fraction(abs(p) * (centre - offset), q)
    answer = _q(value) if side == "+" else _q(-value) if side == "-" else "does not exist"
    approach = f"{centre}" + {"+": " from above", "-": " from below", "": ""}[side]
    factor = factor if factor == "x" else f"({factor})"
    return f"{factor}|{top}|/({bottom}) as x → {approach}", answer, 4


def _series(rng: random.Random) -> Question:
    a, b, c = _nonzero(rng, 9), _nonzero(rng, 9), _nonzero(rng, 6)
    kind = rng.randrange(6)
    ax = _kx(a)
    if kind == 0:
        top, value, steps = f"(sin({ax}) - {ax})", Fraction(-a**3, 6 * b), 6
        bottom = f"{b}x^3"
    elif kind == 1:
        top, value, steps = f"(e^({ax}) - 1 - {ax})", Fraction(a * a, 2 * b), 5
        bottom = f"{b}x^2"
    elif kind == 2:
        top, value, steps = f"(cos({ax}) - 1 + {_q(Fraction(a * a, 2))}x^2)", Fraction(a**4, 24 * b), 6
        bottom = f"{b}x^4"
    elif kind == 3:
        k = abs(a)
        top, value, steps = f"(ln(1 + {_kx(k)}) - {_kx(k)})", Fraction(-k * k, 2 * b), 5
        bottom = f"{b}x^2"
    elif kind == 4:
        top, value, steps = f"(tan({ax}) - {ax})", Fraction(a**3, 3 * b), 6
        bottom = f"{b}x^3"
    else:
        if abs(a) == abs(b):
            b += 1
        top, value, steps = f"(cos({ax}) - cos({_kx(b)}))", Fraction(b * b - a * a, 2), 5
        bottom = "x^2"
    text = f"{_times(c, top)}/({bottom}) as x → 0".replace("- -", "+ ").replace("(1x", "(x").replace("(-1x", "(-x")
    return text, _q(c * value), steps


_FAMILIES: dict[str, Callable[[random.Random], Question]] = {
    "removable": _removable, "infinity": _at_infinity, "standard": _standard, "special": _special,
    "series": _series,
}


def _bare(s: str) -> str:
    """An answer without its wrappers, a final full stop and a leading ``lim ... =`` or ``L =``."""
    s = strip_wrappers(s).strip().rstrip(".")
    return re.sub(r"^(?:\\lim[^=]{0,60}|lim[^=]{0,60}|L)\s*=\s*", "", s).strip()


def _read(text: str) -> str | object | None:
    """'+inf', '-inf', 'none', or the computed value of an exact expression (None if unreadable)."""
    def read(s: str) -> object | None:
        s = _bare(s)
        if _POSITIVE.match(s):
            return "+inf"
        if _NEGATIVE.match(s):
            return "-inf"
        if _NONE.match(s) or (len(s) <= 200 and _NONE_WITH_REASON.match(re.sub(r"\s+", " ", s))):
            return "none"
        return evaluate(read_formula(s, [], functions=CALCULUS_FUNCTIONS), {})

    if not isinstance(text, str) or len(text) > 2_000:
        return None
    return read_answer(text, read)


def _near_point(text: str, want: object) -> bool:
    """Whether the exact answer ``text`` holds a part (any subexpression) whose size is more than FAR times
    beyond both 1 and the limit ``want`` (or its reciprocal): the limit's expression evaluated at a point
    very near the limit (or very far out), not an exact value. A right answer's parts stay near the value's
    own scale (``e^(144)`` is the value itself, ``1/e^(144)`` its reciprocal)."""
    trees: list[Expr] = []

    def read(s: str) -> object | None:
        tree = read_formula(_bare(s), [], functions=CALCULUS_FUNCTIONS)
        if tree is not None:
            trees.append(tree)
        return tree

    read_answer(text, read)
    scale = abs(want) if want else 1  # type: ignore[arg-type]
    low, high = min(1, scale, 1 / scale) / FAR, max(1, scale, 1 / scale) * FAR
    parts: dict[Expr, None] = {}
    for tree in trees:
        x_parts(tree, parts, constants=True)
    for part in parts:
        value = evaluate(part, {})
        if value is not None and value != 0 and not low <= abs(value) <= high:
            return True
    return False


@register
class Limits(Task):
    id = "calculus/limits"
    version = 4  # v4: level 3's one-sided limits carry a factor (x - e); v3: level 1 draws equal degrees 78% of the time ("0" paid 0.24 there, "∞" and "-∞" 0.12 each)
    family = "calculus"
    description = "Evaluate limits exactly (removable points, infinity, standard limits, Taylor series)."
    tags = ("math", "calculus", "limits")

    @dataclass(frozen=True)
    class Config:
        family: str

    presets = (
        Config(family="removable"),
        Config(family="infinity"),
        Config(family="standard"),
        Config(family="special"),
        Config(family="series"),
    )
    bounded = "its levels are kinds of problem (the `family` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, answer, steps = _FAMILIES[config.family](rng)
        shown = text.replace("sqrt", "√")
        example = "-3/4"  # a fixed placeholder: independent of the answer
        prompt = (f"Find the limit of {shown}.\n\nGive the exact value (e.g. {example}), ∞ or -∞ if it grows without "
                  "bound, or 'does not exist'.")
        return Problem(prompt=prompt, answer=answer, data={"family": config.family, "answer": answer, "steps": steps,
                                                           "limit": text})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        got = _read(answer)
        if got is None:
            return Verdict.unparsed("not an exact value, ∞, -∞ or 'does not exist'")
        want = _read(problem.data["answer"])
        if isinstance(want, str) or isinstance(got, str):
            return Verdict.judge(got == want, "wrong limit")
        if not agree(got, want):
            return Verdict.wrong("wrong value")
        return Verdict.judge(not _near_point(answer, want), "the expression evaluated at a point near the limit, "
                             "not the limit's exact value")

    def difficulty(self, problem: Problem) -> float:
        """Steps (1 cancel a factor ... 6 for a third-order Taylor term) plus the digits of the answer."""
        return problem.data["steps"] + len(problem.data["answer"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        if answer in ("∞", "-∞"):
            return [*super().spellings(problem), answer.replace("∞", "\\infty"), answer.replace("∞", "infinity"),
                    answer.replace("∞", "oo")]
        if answer == "does not exist":
            return [*super().spellings(problem), "DNE", "The limit does not exist."]
        return [*super().spellings(problem), answer.replace("sqrt", "√"), f"L = {answer}", f"({answer})",
                f"{answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer
        if answer in ("∞", "-∞", "does not exist"):
            return [w for w in ("∞", "-∞", "0", "does not exist", "1") if w != answer]
        wrong = [f"2*({answer})", f"({answer}) + 1", "∞", "does not exist", f"-({answer})" if answer != "0" else "1"]
        return [w for w in wrong if not self.verify(problem, w).correct]

