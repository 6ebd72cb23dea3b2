"""Hidden function: find a hidden integer polynomial by querying its values, then write it down.

The hidden ``f`` is a polynomial of a stated degree ``d`` with integer coefficients from -9 to
9 (-99 to 99 at the first level, -20 to 20 at the second). Each turn the model either queries a value, ``f(3)`` (or just ``3``; arguments
from -10 to 10), and is told ``f(3) = 42``, or answers with the polynomial, ``f(x) = 2x^2 - 3x +
1`` (``^`` or ``**``, implicit multiplication, any order of terms, ``y =`` or no prefix). The
answer ends the episode: reward 1 when it is the same polynomial, checked exactly by reducing
it (with the shared whitelisting expression reader, never ``eval``) to coefficients over the
rationals; 0 otherwise. An unreadable move or an argument out of range costs a turn.

A polynomial of degree ``d`` needs ``d + 1`` values in general; the turn budget allows those
and the answer, plus the level's spare turns. The oracle knows ``f`` and answers at once.
Levels raise the degree and remove the spare turns. The difficulty measure is the degree.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.expressions import Expr, parse_expression
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_integer

MAX_DEGREE = 12  # an answer of higher degree is wrong anyway; the cap bounds the arithmetic
_QUERY = re.compile(r"^\s*(?:query\s+|ask\s+)?f\s*\(\s*([-+]?\d{1,3})\s*\)\s*\??\s*$", re.IGNORECASE)
_ANSWER_PREFIX = re.compile(r"^\s*(?:f\s*\(\s*x\s*\)|y)\s*=\s*", re.IGNORECASE)
ARGUMENT_RANGE = 10


@register
class HiddenFunction(MultiTurnTask):
    id = "games/hidden_function"
    family = "games"
    description = "Identify a hidden integer polynomial by querying its values with a limited budget."
    tags = ("games", "multi-turn", "math", "active-learning")
    hidden_information = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        degree: int
        spare: int  # turns beyond degree + 1 queries and the answer
        largest: int = 9  # coefficients lie in -largest..largest

    presets = (Config(1, 2, largest=99), Config(2, 1, largest=20), Config(3, 1), Config(4, 0), Config(5, 0))
    # Degrees stop at MAX_DEGREE (level 11; version 2): the answer reader refuses higher degrees, so from level 12
    # on no answer, the right one included, could be read.
    growth = Growth(limits={"degree": MAX_DEGREE})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        bound = config.largest
        leading = rng.choice([v for v in range(-bound, bound + 1) if v])
        coefficients = [rng.randint(-bound, bound) for _ in range(config.degree)] + [leading]
        turns = config.degree + 2 + config.spare
        prompt = (
            f"I have a hidden polynomial f(x) of degree {config.degree} with integer coefficients from -{bound} to "
            f"{bound}. "
            f"Each turn, either ask for one value, written like f(3) (x must be an integer from -{ARGUMENT_RANGE} to "
            f"{ARGUMENT_RANGE}), or give your final answer, written like f(x) = 2x^2 - 3x + 1. The answer ends the "
            f"game and scores 1 only if it is exactly my polynomial. You have {turns} turns; an unreadable move "
            "costs a turn."
        )
        data = {"coefficients": coefficients, "turns": turns}
        return Problem(prompt=prompt, answer=f"f(x) = {_polynomial_text(coefficients)}", data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The degree, plus a quarter of the negative coefficients (signs to pin down besides sizes)."""
        coefficients = problem.data["coefficients"]
        return float(len(coefficients) - 1) + sum(c < 0 for c in coefficients) / 4

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        coefficients = problem.data["coefficients"]
        if len(move) > MAX_MOVE_CHARS:
            return Outcome.invalid(state, "too long")
        argument = read_move_answer(move, _read_query)
        if argument is not None:
            if abs(argument) > ARGUMENT_RANGE:
                return Outcome(state, Verdict.wrong("out of range"),
                               f"x must be an integer from -{ARGUMENT_RANGE} to {ARGUMENT_RANGE}.")
            value = sum(c * argument**k for k, c in enumerate(coefficients))
            return Outcome(state, Verdict.wrong("queried"), f"f({argument}) = {value}")
        answer = read_move_answer(move, _read_polynomial)
        if answer is None:
            why = "ask f(INTEGER) or answer f(x) = POLYNOMIAL"
            return Outcome.invalid(state, why)
        wanted = [Fraction(c) for c in coefficients]
        if _trim(answer) == _trim(wanted):
            return Outcome(state, Verdict.right(), "Correct, that is my polynomial!", True)
        return Outcome(state, Verdict.wrong("wrong polynomial"), f"Wrong: my polynomial was "
                                                                 f"f(x) = {_polynomial_text(coefficients)}.", True)

    def honest_move(self, view: View) -> str:
        """Query f at 0, 1, -1, 2, -2, ... until degree + 1 values are known, then interpolate exactly."""
        degree = int(_DEGREE.search(view.prompt).group(1))  # type: ignore[union-attr]
        values = {int(x): int(y) for x, y in _VALUE.findall("\n".join(view.observations))}
        if len(values) <= degree:
            return f"f({next(x for x in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6) if x not in values)})"
        points = sorted(values.items())[: degree + 1]
        coefficients = [Fraction(0)] * (degree + 1)
        for i, (xi, yi) in enumerate(points):  # Lagrange: yi times the basis polynomial of xi
            basis, scale = [Fraction(1)], Fraction(1)
            for j, (xj, _) in enumerate(points):
                if j != i:
                    basis = [Fraction(0)] + basis  # times x
                    for k in range(len(basis) - 1):
                        basis[k] -= xj * basis[k + 1]
                    scale *= xi - xj
            for k, c in enumerate(basis):
                coefficients[k] += yi * c / scale
        terms = [f"({c})*x^{k}" for k, c in enumerate(coefficients) if c]
        return "f(x) = " + (" + ".join(terms) or "0")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""


_DEGREE = re.compile(r"of degree (\d+)")
_VALUE = re.compile(r"f\((-?\d+)\) = (-?\d+)")


def _read_query(move: str) -> int | None:
    text = strip_wrappers(move)
    match = _QUERY.match(text)
    if match:
        return int(match.group(1))
    return read_integer(text, max_digits=4) if re.fullmatch(r"\s*[-+]?\d{1,4}\s*", text) else None


def _read_polynomial(text: str) -> list[Fraction] | None:
    text = _ANSWER_PREFIX.sub("", text.strip(), count=1)
    tree = parse_expression(text, variables={"x"}, functions=(), constants=False)
    return None if tree is None else _coefficients(tree)


def _coefficients(expr: Expr) -> list[Fraction] | None:
    """The polynomial ``expr`` as coefficients (constant first), or None if it is not a polynomial in x."""
    kind = expr[0]
    if kind == "num":
        return [expr[1]]
    if kind == "var":
        return [Fraction(0), Fraction(1)]
    if kind == "neg":
        inner = _coefficients(expr[1])
        return None if inner is None else [-c for c in inner]
    if kind not in ("+", "-", "*", "/", "**"):
        return None
    left, right = _coefficients(expr[1]), _coefficients(expr[2])
    if left is None or right is None:
        return None
    if kind in ("+", "-"):
        sign = 1 if kind == "+" else -1
        size = max(len(left), len(right))
        return [(left[k] if k < len(left) else 0) + sign * (right[k] if k < len(right) else 0) for k in range(size)]
    if kind == "*":
        return _multiply(left, right)
    divisor = _trim(right)
    if kind == "/":
        return [c / divisor[0] for c in left] if len(divisor) == 1 and divisor[0] != 0 else None
    if len(divisor) != 1 or divisor[0].denominator != 1 or not 0 <= divisor[0] <= MAX_DEGREE:
        return None
    power: list[Fraction] | None = [Fraction(1)]
    for _ in range(int(divisor[0])):
        power = _multiply(power, left) if power is not None else None
    return power


def _multiply(a: list[Fraction], b: list[Fraction]) -> list[Fraction] | None:
    """The product of two coefficient lists, or None past ``MAX_DEGREE``."""
    a, b = _trim(a), _trim(b)
    if len(_trim(a)) + len(_trim(b)) - 2 > MAX_DEGREE:
        return None
    product = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            product[i + j] += x * y
    return product


def _trim(coefficients: list[Fraction]) -> list[Fraction]:
    """Without the zero coefficients of the highest powers (at least the constant stays)."""
    end = len(coefficients)
    while end > 1 and coefficients[end - 1] == 0:
        end -= 1
    return list(coefficients[:end])


def _polynomial_text(coefficients: list[int]) -> str:
    """``2x^2 - 3x + 1`` (highest power first, zero terms left out)."""
    terms = []
    for power in range(len(coefficients) - 1, -1, -1):
        c = coefficients[power]
        if c == 0:
            continue
        magnitude = abs(c)
        body = "x" if power == 1 else f"x^{power}" if power > 1 else ""
        text = (str(magnitude) if magnitude != 1 or not body else "") + body
        terms.append((c < 0, text))
    if not terms:
        return "0"
    first_negative, first = terms[0]
    out = ("-" if first_negative else "") + first
    for negative, text in terms[1:]:
        out += f" {'-' if negative else '+'} {text}"
    return out
