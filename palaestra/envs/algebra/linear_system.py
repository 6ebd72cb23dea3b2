"""Solve a system of n linear equations in n unknowns with a unique rational solution.

The solution is drawn first (integers at the low levels, fractions with a
common denominator above), then an integer coefficient matrix with non-zero
determinant; each equation is scaled to integer coefficients. n grows from 2
to 5 with the level.

The answer maps every variable to its value, ``x = 1, y = -2/3, z = 4``, in
any order, separated by commas, semicolons or new lines (``:`` works as well as
``=``). Values must be exact: integers, fractions or decimals equal to them
(``1/2``, ``0.5``, ``2/4``, ``\\frac{1}{2}``). Every variable must appear
exactly once and nothing else may.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.expressions import evaluate_exact, parse_expression
from palaestra.verifiers.numeric import format_number

MAX_ANSWER_CHARS = 2_000
_NAMES = {2: "xy", 3: "xyz", 4: "wxyz", 5: "vwxyz"}
_SEPARATOR = re.compile(r"[,;\n]|\band\b|\s+(?=[A-Za-z]\s*[=:])")
_PAIR = re.compile(r"^\s*\$?\s*([A-Za-z])\s*(?:=|:)\s*(.+?)\s*$")


@register
class LinearSystem(Task):
    id = "algebra/linear_system"
    family = "algebra"
    description = "Solve a square system of linear equations with a unique rational solution."
    tags = ("math", "algebra", "linear-algebra")

    @dataclass(frozen=True)
    class Config:
        unknowns: int
        max_coefficient: int
        max_value: int  # bound on numerators of the solution
        max_denominator: int  # bound on the common denominator of the solution (1: integers)
        zero_share: float  # share of zero coefficients (unknowns missing from an equation)

    def config(self, level: int) -> Config:
        return [
            self.Config(unknowns=2, max_coefficient=6, max_value=10, max_denominator=1, zero_share=0.0),
            self.Config(unknowns=3, max_coefficient=5, max_value=8, max_denominator=1, zero_share=0.2),
            self.Config(unknowns=3, max_coefficient=7, max_value=9, max_denominator=4, zero_share=0.1),
            self.Config(unknowns=4, max_coefficient=7, max_value=9, max_denominator=5, zero_share=0.15),
            self.Config(unknowns=5, max_coefficient=9, max_value=12, max_denominator=6, zero_share=0.1),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = _NAMES[config.unknowns]
        # one denominator for the whole solution keeps the scaled coefficients small
        denominator = rng.randint(1, config.max_denominator)
        solution = [Fraction(rng.randint(-config.max_value, config.max_value), denominator) for _ in names]
        matrix = _invertible_matrix(rng, config)
        equations = [_equation_text(row, solution, names) for row in matrix]
        answer = ", ".join(f"{n} = {format_number(v)}" for n, v in zip(names, solution))
        prompt = (
            f"Solve the system of linear equations for {', '.join(names[:-1])} and {names[-1]}:\n\n"
            + "\n".join(equations)
            + "\n\nGive the value of every unknown as an exact integer or fraction, written as "
            + ", ".join(f"{n} = ..." for n in names)
        )
        return Problem(
            prompt=prompt,
            answer=answer,
            data={"equations": equations, "solution": {n: format_number(v) for n, v in zip(names, solution)}},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = _read_assignment(answer)
        if values is None:
            return Verdict.unparsed("expected name = value pairs with exact numbers, e.g. x = 1, y = -2/3")
        expected = problem.data["solution"]
        for name in sorted(values):
            if name not in expected:
                return Verdict.wrong(f"{name} is not an unknown of this system")
        for name in sorted(expected):
            if name not in values:
                return Verdict.wrong(f"no value given for {name}")
            if values[name] == "twice":
                return Verdict.wrong(f"{name} is given more than once")
        wrong = [n for n in sorted(expected) if values[n] != Fraction(expected[n])]
        return Verdict.judge(not wrong, f"wrong value for {', '.join(wrong)}")


def _invertible_matrix(rng: random.Random, config: LinearSystem.Config) -> list[list[int]]:
    """A random integer matrix with non-zero determinant and no all-zero row."""
    size = config.unknowns
    while True:  # random integer matrices are almost always invertible
        matrix = [[_coefficient(rng, config) for _ in range(size)] for _ in range(size)]
        if all(any(row) for row in matrix) and _determinant(matrix) != 0:
            return matrix


def _coefficient(rng: random.Random, config: LinearSystem.Config) -> int:
    if rng.random() < config.zero_share:
        return 0
    return rng.choice([-1, 1]) * rng.randint(1, config.max_coefficient)


def _determinant(matrix: list[list[int]]) -> Fraction:
    """Exact determinant by Gaussian elimination over the rationals."""
    rows = [[Fraction(v) for v in row] for row in matrix]
    determinant = Fraction(1)
    for col in range(len(rows)):
        pivot = next((r for r in range(col, len(rows)) if rows[r][col] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != col:
            rows[col], rows[pivot] = rows[pivot], rows[col]
            determinant = -determinant
        determinant *= rows[col][col]
        for r in range(col + 1, len(rows)):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return determinant


def _equation_text(row: list[int], solution: list[Fraction], names: str) -> str:
    """``2x - y + 3z = 7``, scaled so the right-hand side is an integer too."""
    right = sum((c * v for c, v in zip(row, solution)), Fraction(0))
    scaled = [c * right.denominator for c in row] + [right.numerator]
    common = math.gcd(*scaled)
    *coefficients, constant = (v // common for v in scaled)
    terms = [(c, n) for c, n in zip(coefficients, names) if c]
    first_coefficient, first_name = terms[0]
    text = _term(first_coefficient, first_name, leading=True)
    text += "".join(" " + _term(c, n, leading=False) for c, n in terms[1:])
    return f"{text} = {constant}"


def _term(coefficient: int, name: str, leading: bool) -> str:
    magnitude = "" if abs(coefficient) == 1 else str(abs(coefficient))
    if leading:
        return ("-" if coefficient < 0 else "") + magnitude + name
    return f"{'-' if coefficient < 0 else '+'} {magnitude}{name}"


def _read_assignment(answer: str) -> dict[str, Fraction | str] | None:
    """``{name: value}``; a name given twice maps to ``"twice"``. ``None`` if any part is unreadable."""
    text = answer.strip().strip(".").strip()
    if len(text) > MAX_ANSWER_CHARS:
        return None
    if text[:1] + text[-1:] in ("()", "{}", "[]"):
        text = text[1:-1]
    values: dict[str, Fraction | str] = {}
    for part in _SEPARATOR.split(text):
        if not part.strip():
            continue
        match = _PAIR.match(part.strip().strip("$"))
        if match is None:
            return None
        value = evaluate_exact(parse_expression(match.group(2), functions=(), constants=False))
        if value is None:
            return None
        name = match.group(1).lower()
        values[name] = "twice" if name in values else value
    return values or None
