"""Solve a system of n linear equations in n unknowns with a unique rational solution.

The solution is drawn first (integers at the low levels, fractions with a
common denominator above), then an integer coefficient matrix with non-zero
determinant; each equation is scaled to integer coefficients. n grows from 2
to 5 with the level.

The answer gives every variable its value, in any order and in any notation the
shared assignment reader takes (:mod:`palaestra.verifiers.assignments`):
``x = 1, y = -2/3``, ``(x, y) = (1, -2/3)``, ``x: 1; y: -2/3``, one per line,
LaTeX (``y = -\\frac{2}{3}``), with a short trailing sentence. Values must be exact:
integers, fractions or decimals equal to them (``0.5`` for 1/2, never ``-0.6667``
for -2/3). Every variable must appear, none twice with different values, and no other name.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.solvers.linalg import determinant
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.normalize import enclosed, read_answer
from palaestra.verifiers.numeric import format_decimal, format_number, read_exact
from palaestra.verifiers.sets import read_list

_NAMES = {2: "xy", 3: "xyz", 4: "wxyz", 5: "vwxyz"}
_EXAMPLE_VALUES = ("3", "-1/2", "4", "2/5", "-7")
# "x=1 y=2": pairs separated by spaces only (the shared reader wants , ; "and" or new lines)
_SPACE_BEFORE_NAME = re.compile(r"(?<=[\d}])\s+(?=[A-Za-z]\s*(?:=|:))")
_INTEGER = re.compile(r"\d+")


@register
class LinearSystem(Task):
    id = "algebra/linear_system"
    family = "algebra"
    description = "Solve a square system of linear equations with a unique rational solution."
    tags = ("math", "algebra", "linear-algebra")
    max_answer_chars = 2_000
    version = 3  # v3: a fixed example (v2 reversed it when it was the answer)

    @dataclass(frozen=True)
    class Config:
        unknowns: int
        max_coefficient: int
        max_value: int  # bound on numerators of the solution
        max_denominator: int  # bound on the common denominator of the solution (1: integers)
        zero_share: float  # share of zero coefficients (unknowns missing from an equation)

    presets = (
        Config(unknowns=2, max_coefficient=6, max_value=10, max_denominator=1, zero_share=0.0),
        Config(unknowns=3, max_coefficient=5, max_value=8, max_denominator=1, zero_share=0.2),
        Config(unknowns=3, max_coefficient=7, max_value=9, max_denominator=4, zero_share=0.1),
        Config(unknowns=4, max_coefficient=7, max_value=9, max_denominator=5, zero_share=0.15),
        Config(unknowns=5, max_coefficient=9, max_value=12, max_denominator=6, zero_share=0.1),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = _NAMES[config.unknowns]
        # one denominator for the whole solution keeps the scaled coefficients small
        denominator = rng.randint(1, config.max_denominator)
        solution = [Fraction(rng.randint(-config.max_value, config.max_value), denominator) for _ in names]
        matrix = _invertible_matrix(rng, config)
        equations = [_equation_text(row, solution, names) for row in matrix]
        answer = ", ".join(f"{n} = {format_number(v)}" for n, v in zip(names, solution))
        example_values = list(_EXAMPLE_VALUES[: len(names)])
        # a fixed placeholder (v2 reversed it exactly when it was the answer, which told the answer)
        example = ", ".join(f"{n} = {v}" for n, v in zip(names, example_values))
        prompt = (
            f"Solve the system of linear equations for {', '.join(names[:-1])} and {names[-1]}:\n\n"
            + "\n".join(equations)
            + "\n\nGive the value of every unknown exactly, as an integer or a fraction (no rounded decimals), "
            + f"written like {example}"
        )
        return Problem(
            prompt=prompt,
            answer=answer,
            data={"equations": equations, "solution": {n: format_number(v) for n, v in zip(names, solution)}},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected = problem.data["solution"]
        values = _read_values(answer, sorted(expected))
        if values is None:
            return Verdict.unparsed("expected every unknown with an exact value, e.g. x = 1, y = -2/3 "
                                    "(each once, no other names)")
        missing = [n for n in sorted(expected) if n not in values]
        if missing:
            return Verdict.wrong(f"no value given for {', '.join(missing)}")
        wrong = [n for n in sorted(expected) if values[n] != Fraction(expected[n])]
        return Verdict.judge(not wrong, f"wrong value for {', '.join(wrong)}")

    def difficulty(self, problem: Problem) -> float:
        """Elimination work: about n^3/3 multiply-adds, each costlier with bigger coefficients and
        fractional values (digits of the largest coefficient and of the solution's denominator)."""
        n = len(problem.data["solution"])
        largest = max(int(c) for text in problem.data["equations"] for c in _INTEGER.findall(text.split("=")[0]) or [1])
        denominator = max(Fraction(v).denominator for v in problem.data["solution"].values())
        return n**3 / 3 * (1 + math.log10(largest) + math.log10(denominator))

    def spellings(self, problem: Problem) -> list[str]:
        solution = {n: Fraction(v) for n, v in problem.data["solution"].items()}
        names = list(solution)
        plain = [f"{n} = {format_number(v)}" for n, v in solution.items()]
        latex = [f"{n} = {_latex(v)}" for n, v in solution.items()]
        spellings = [
            *super().spellings(problem),
            ", ".join(reversed(plain)),
            f"({', '.join(names)}) = ({', '.join(format_number(v) for v in solution.values())})",
            "; ".join(p.replace(" = ", ": ") for p in plain),
            " and ".join(plain) if len(plain) == 2 else ", ".join(plain[:-1]) + f" and {plain[-1]}",
            "\n".join(plain),
            ", ".join(latex),
            "\\boxed{" + ", ".join(latex) + "}",
            "\\begin{cases} " + " \\\\ ".join(latex) + " \\end{cases}",
            ", ".join(f"${p}$" for p in latex),
            ", ".join(plain) + ".",
            " ".join(p.replace(" ", "") for p in plain),
            "(" + ", ".join(format_number(solution[n]) for n in sorted(solution)) + ")",
        ]
        if all(format_decimal(v) != format_number(v) or v.denominator == 1 for v in solution.values()):
            spellings.append(", ".join(f"{n} = {format_decimal(v)}" for n, v in solution.items()))
        return spellings

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        solution = {n: Fraction(v) for n, v in problem.data["solution"].items()}
        names = list(solution)
        first, last = names[0], names[-1]

        def written(values: dict[str, Fraction]) -> str:
            return ", ".join(f"{n} = {format_number(v)}" for n, v in values.items())

        wrong = [
            written({**solution, first: solution[first] + rng.choice([-1, 1])}),  # one value off
            written({n: v for n, v in solution.items() if n != last}),  # one unknown missing
            written(solution) + ", q = 0",  # a name that is not an unknown
            written(solution) + f", {first} = {format_number(solution[first] + 1)}",  # a second value: hedged
            ", ".join(format_number(v) for v in solution.values()) + ", 0",  # values without names, one too many
        ]
        if solution[first] != solution[last]:
            wrong.append(written({**solution, first: solution[last], last: solution[first]}))  # swapped
        fractional = [n for n, v in solution.items() if v.denominator not in (1, 2, 4, 5, 8)]
        if fractional:  # a rounded decimal is not the exact value asked for
            wrong.append(", ".join(f"{n} = {float(v):.4f}" if n in fractional else f"{n} = {format_number(v)}"
                                   for n, v in solution.items()))
        return wrong


def _read_mixed(text: str) -> Fraction | None:
    """One exact value, a mixed number too (``-2 2/3``)."""
    return read_exact(text, mixed=True)


def _read_values(answer: str, names: list[str]) -> dict[str, Fraction] | None:
    """The values given, or None when unreadable (an unknown name, a name with two values)."""
    if len(answer) > LinearSystem.max_answer_chars:
        return None
    values = read_assignment(answer, names, _read_mixed, partial=True)
    if values is None:
        values = read_assignment(_SPACE_BEFORE_NAME.sub(", ", answer), names, _read_mixed, partial=True)
    if values is None:  # a bare tuple in the unknowns' alphabetical order, as the prompt lists them: (-6, 5)
        values = read_answer(answer, lambda s: _tuple(s, names))
    return values


def _tuple(text: str, names: list[str]) -> dict[str, Fraction] | None:
    s = text.strip()
    if not enclosed(s, "("):
        return None
    entries = read_list(s[1:-1], read_exact, max_items=len(names) + 1)
    return None if entries is None or len(entries) != len(names) else dict(zip(names, entries))


def _latex(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{'-' if value < 0 else ''}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _invertible_matrix(rng: random.Random, config: LinearSystem.Config) -> list[list[int]]:
    """A random integer matrix with non-zero determinant and no all-zero row."""
    size = config.unknowns
    # random integer matrices are almost always invertible
    return retry(lambda: [[_coefficient(rng, config) for _ in range(size)] for _ in range(size)],
                 lambda matrix: all(any(row) for row in matrix) and determinant(matrix) != 0,
                 what="an invertible coefficient matrix")


def _coefficient(rng: random.Random, config: LinearSystem.Config) -> int:
    if rng.random() < config.zero_share:
        return 0
    return rng.choice([-1, 1]) * rng.randint(1, config.max_coefficient)


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
