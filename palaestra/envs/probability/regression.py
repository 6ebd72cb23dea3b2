"""Least-squares regression and correlation of a small data set, exactly.

Level 0 asks for the slope of the least-squares line of y on x; level 1 for the whole
line; level 2 for a prediction from the line or for r² (the coefficient of
determination); level 3 for the correlation coefficient r (a square root) or a
residual; level 4 for the slope of the regression of x on y, the line through the origin,
or r on larger data sets. Every statistic is computed with exact fractions from sums of
squares and products; data sets where x (or y) is constant are redrawn.

A number may be written in any exact spelling (``37/14``, ``-0.5``, ``3*sqrt(7)/14``); a line
as a formula in x (``y = 3/2 x + 1/4``, ``0.25 + 1.5x``), checked as a linear function, so
``y = 1.5x + 0.25`` and ``y = (6x + 1)/4`` are the same line. Rounded decimals are wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.formulas import read_formula
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.polynomials import to_polynomial
from palaestra.verifiers.radicals import format_radical, radical_spellings, read_radical
from palaestra.verifiers.rationals import format_fraction

MAX_RADICAND = 10**9  # the exact surd arithmetic's bound on a square root's argument
# The fitted line is often written with a hat on y (the predicted value): "ŷ = 2x + 1", "\hat{y} = 2x + 1".
_HAT_Y = re.compile(r"\s*(?:ŷ|y\u0302|\\(?:wide)?hat\s*\{\s*y\s*\}|\\hat\s+y|y[-_ ]?hat)\s*=", re.IGNORECASE)
_STEPS = {"slope": 1, "line": 2, "predict": 3, "r_squared": 3, "r": 4, "residual": 4, "x_on_y": 4,
          "through_origin": 3}


@register
class Regression(Task):
    id = "probability/regression"
    family = "probability"
    seed_id = "statistics/regression"  # moved from statistics/ in round 3; same problems
    aliases = {"statistics/regression": {"version": 1}}
    description = "Least-squares slope, intercept, predictions, residuals and correlation of data, exactly."
    tags = ("math", "statistics", "regression")
    version = 2  # levels past 14 capped (see growth)

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]
        points: tuple[int, int]
        top: int  # coordinates in [0, top]

    presets = (
        Config(("slope",), points=(4, 5), top=12),
        Config(("line",), points=(4, 6), top=15),
        Config(("predict", "r_squared"), points=(5, 6), top=20),
        Config(("r", "residual"), points=(5, 7), top=20),
        Config(("x_on_y", "through_origin", "r"), points=(7, 9), top=30),
    )
    # r is exact only while the radicand n*Sxx * n*Syy stays within the surd arithmetic's 10**9, and it grows
    # like n**4 times the coordinates' spread squared: a draw qualified for r at 0.0367 of level 14 (27-29
    # points, coordinates to 130), 0.006 of level 20 and none of level 30, so 1,000 attempts failed at 3 seeds
    # in 8 at level 40; the data's size is capped at level 14, where they fail at about 1e-16
    growth = Growth(limits={"points": (27, 29), "top": 130})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        n = rng.randint(*config.points)
        xs, ys, (kind_text, value, form), line = retry(lambda: _draw(rng, n, config, kind), what="usable data")
        table = "\n".join(f"  ({x}, {y})" for x, y in zip(xs, ys))
        example = "y = 3/2 x - 1/4" if form == "line" else "-7/12 or 3*sqrt(5)/10"
        prompt = (
            f"Data points (x, y):\n{table}\n\n{kind_text}\n\n"
            f"Give the exact {'equation' if form == 'line' else 'value'}, e.g. {example}."
        )
        answer = line if form == "line" else format_radical(value)
        return Problem(prompt=prompt, answer=answer, data={
            "kind": kind, "form": form, "points": n, "value": answer,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if problem.data["form"] == "line":
            return _verify_line(problem.data["value"], answer)
        value = read_radical(answer, max_numbers=6)
        if value is None:
            return Verdict.unparsed("not an exact number")
        return Verdict.judge(value == read_radical(problem.data["value"], max_numbers=6), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Data points plus the steps from the sums of squares to the statistic asked."""
        return float(problem.data["points"] + 2 * _STEPS[problem.data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["form"] == "line":
            slope, intercept = _line_parts(problem.data["value"])
            gold = problem.answer or ""
            return [*super().spellings(problem), gold.replace("y = ", ""),
                    f"y = {_number(intercept)} + ({_number(slope)})x", f"f(x) = {gold[4:]}",
                    f"{gold}.", "ŷ" + gold[1:], "\\hat{y}" + gold[1:]]
        value = read_radical(problem.data["value"], max_numbers=6)
        assert value is not None
        return [*super().spellings(problem), *radical_spellings(value)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if problem.data["form"] == "line":
            slope, intercept = _line_parts(problem.data["value"])
            wrong = [_line_text(slope + 1, intercept), _line_text(slope, intercept + Fraction(1, 2)),
                     _line_text(intercept, slope) if slope != intercept else _line_text(slope, -intercept - 1),
                     f"y = {float(slope):.3f}x + {float(intercept):.3f}"]
            return [w for w in wrong if not _verify_line(problem.data["value"], w).correct]
        value = read_radical(problem.data["value"], max_numbers=6)
        assert value is not None
        wrong = [format_radical(value + Surd.rational(Fraction(1, 3))), format_radical(-value - Surd.rational(1)),
                 f"{float(value):.4f}", f"{problem.answer} or {format_radical(value * 2)}"]
        return [w for w in wrong if read_radical(w, max_numbers=6) != value]


def _draw(rng: random.Random, n: int, config: Regression.Config, kind: str) -> tuple | None:
    """Data where x and y both vary, with the question and its exact answer (None: a root too large to keep)."""
    xs, ys = _data(rng, n, config.top)
    if not _varies(xs) or not _varies(ys):
        return None
    sxx, syy, sxy = _sums(xs, ys)
    slope = sxy / sxx
    intercept = Fraction(sum(ys), n) - slope * Fraction(sum(xs), n)
    if kind == "r" and (sxx * syy * n * n).numerator > MAX_RADICAND:
        return None  # r would need the root of a number too large for exact surd arithmetic
    question = _question(kind, rng, xs, ys, slope, intercept, sxx, syy, sxy)
    return xs, ys, question, _line_text(slope, intercept)


def _data(rng: random.Random, n: int, top: int) -> tuple[list[int], list[int]]:
    slope = Fraction(rng.randint(-4, 4), rng.randint(1, 3))
    base = rng.randint(0, top // 2)
    xs = sorted(rng.sample(range(top + 1), n))
    ys = [max(0, min(top, round(base + slope * x + rng.randint(-3, 3)))) for x in xs]
    return xs, ys


def _varies(values: list[int]) -> bool:
    return len(set(values)) > 1


def _sums(xs: list[int], ys: list[int]) -> tuple[Fraction, Fraction, Fraction]:
    n = len(xs)
    mx, my = Fraction(sum(xs), n), Fraction(sum(ys), n)
    sxx = sum(((x - mx) ** 2 for x in xs), Fraction(0))
    syy = sum(((y - my) ** 2 for y in ys), Fraction(0))
    sxy = sum(((x - mx) * (y - my) for x, y in zip(xs, ys)), Fraction(0))
    return sxx, syy, sxy


def _question(kind: str, rng: random.Random, xs: list[int], ys: list[int], slope: Fraction, intercept: Fraction,
              sxx: Fraction, syy: Fraction, sxy: Fraction) -> tuple[str, Surd, str]:
    least = "the least-squares regression line of y on x"
    if kind == "slope":
        return f"What is the slope of {least}?", Surd.rational(slope), "number"
    if kind == "line":
        return f"Find {least}, as y = (slope) x + (intercept).", Surd.rational(0), "line"
    if kind == "predict":
        x0 = rng.randint(0, max(xs) + 5)
        return f"Using {least}, what y does it predict at x = {x0}?", Surd.rational(intercept + slope * x0), "number"
    if kind == "r_squared":
        return ("What is r², the square of the correlation coefficient between x and y?",
                Surd.rational(sxy * sxy / (sxx * syy)), "number")
    if kind == "r":
        n = len(xs)  # r = n*sxy * sqrt(D) / D with D = (n*sxx) * (n*syy), a whole number
        product = sxx * syy * n * n
        return ("What is the (Pearson) correlation coefficient r between x and y?",
                Surd.sqrt(product) * (sxy * n / product), "number")
    if kind == "residual":
        i = rng.randrange(len(xs))
        return (f"What is the residual of the point ({xs[i]}, {ys[i]}) from {least} (observed y minus predicted "
                "y)?"), Surd.rational(ys[i] - intercept - slope * xs[i]), "number"
    if kind == "x_on_y":
        return ("What is the slope of the least-squares regression line of x on y (x = a + b y: the value of b)?",
                Surd.rational(sxy / syy), "number")
    through = Fraction(sum(x * y for x, y in zip(xs, ys)), sum(x * x for x in xs))
    return ("What is the slope of the least-squares line through the origin, y = b x (the value of b that "
            "minimises the sum of squared vertical distances)?"), Surd.rational(through), "number"


def _number(value: Fraction) -> str:
    return format_fraction(value)


def _line_text(slope: Fraction, intercept: Fraction) -> str:
    if intercept == 0:
        return f"y = {_number(slope)}x" if slope.denominator == 1 else f"y = ({_number(slope)})x"
    sign = "+" if intercept > 0 else "-"
    body = f"{_number(slope)}x" if slope.denominator == 1 else f"({_number(slope)})x"
    return f"y = {body} {sign} {_number(abs(intercept))}"


def _line_parts(text: str) -> tuple[Fraction, Fraction]:
    poly = to_polynomial(read_formula(text, ["x"]), ["x"])
    assert poly is not None
    return poly.get((1,), Fraction(0)), poly.get((0,), Fraction(0))


def _verify_line(reference: str, answer: str) -> Verdict:
    unwrapped = strip_wrappers(answer) if isinstance(answer, str) and len(answer) <= 1_000 else None
    hat = _HAT_Y.match(unwrapped) if unwrapped else None
    if unwrapped and hat:
        answer = "y =" + unwrapped[hat.end() :]  # the hat names the same y
    tree = read_formula(answer, ["x"])
    if tree is None:
        return Verdict.unparsed("not a line y = (slope) x + (intercept)")
    poly = to_polynomial(tree, ["x"])
    if poly is None or any(m[0] > 1 for m in poly):
        return Verdict.wrong("not a straight line in x")
    slope, intercept = _line_parts(reference)
    got_slope, got_intercept = poly.get((1,), Fraction(0)), poly.get((0,), Fraction(0))
    if got_slope != slope:
        return Verdict.wrong("wrong slope")
    return Verdict.judge(got_intercept == intercept, "wrong intercept")
