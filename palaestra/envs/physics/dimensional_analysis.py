"""Dimensional analysis: the exponents that make a product of powers of quantities have a given dimension.

Given quantities with their dimensions in the base dimensions M (mass), L (length), T (time), I
(current) and Θ (temperature), find exponents a, b, c, ... such that q1^a q2^b q3^c ... has the
dimensions of a named target quantity (the pendulum's period from its length, g and the bob's mass;
the Planck length from h, G and c). The exponents solve the linear system "dimension matrix times
exponents = target's dimension vector" exactly (fractions); the given quantities are drawn with
independent dimension vectors and the target is a product of their powers (exponents drawn in
halves from -3 to 3, the target's own exponents whole), so the solution exists and is unique. Levels add quantities and base dimensions (I from level 3, Θ at level 4).

The answer names every exponent, ``a = 1/2, b = -1/2, c = 0``, exact, in any exact spelling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

BASES = ("M", "L", "T", "I", "Θ")
# name, symbol, dimension exponents of (M, L, T, I, Θ)
QUANTITIES: tuple[tuple[str, str, tuple[int, int, int, int, int]], ...] = (
    ("mass", "m", (1, 0, 0, 0, 0)), ("length", "l", (0, 1, 0, 0, 0)), ("time", "t", (0, 0, 1, 0, 0)),
    ("speed", "v", (0, 1, -1, 0, 0)), ("acceleration due to gravity", "g", (0, 1, -2, 0, 0)),
    ("force", "F", (1, 1, -2, 0, 0)), ("energy", "E", (1, 2, -2, 0, 0)), ("power", "P", (1, 2, -3, 0, 0)),
    ("pressure", "p", (1, -1, -2, 0, 0)), ("density", "ρ", (1, -3, 0, 0, 0)),
    ("dynamic viscosity", "η", (1, -1, -1, 0, 0)), ("surface tension", "γ", (1, 0, -2, 0, 0)),
    ("gravitational constant", "G", (-1, 3, -2, 0, 0)), ("Planck constant", "h", (1, 2, -1, 0, 0)),
    ("speed of light", "c", (0, 1, -1, 0, 0)), ("spring constant", "k", (1, 0, -2, 0, 0)),
    ("frequency", "f", (0, 0, -1, 0, 0)), ("momentum", "p_m", (1, 1, -1, 0, 0)), ("area", "A", (0, 2, 0, 0, 0)),
    ("volume flow rate", "Q", (0, 3, -1, 0, 0)), ("kinematic viscosity", "ν", (0, 2, -1, 0, 0)),
    ("electric charge", "q", (0, 0, 1, 1, 0)), ("electric current", "I", (0, 0, 0, 1, 0)),
    ("voltage", "V", (1, 2, -3, -1, 0)), ("resistance", "R", (1, 2, -3, -2, 0)),
    ("capacitance", "C", (-1, -2, 4, 2, 0)), ("inductance", "L_i", (1, 2, -2, -2, 0)),
    ("magnetic flux density", "B", (1, 0, -2, -1, 0)), ("vacuum permittivity", "ε0", (-1, -3, 4, 2, 0)),
    ("vacuum permeability", "μ0", (1, 1, -2, -2, 0)), ("temperature", "θ", (0, 0, 0, 0, 1)),
    ("Boltzmann constant", "k_B", (1, 2, -2, 0, -1)), ("thermal conductivity", "κ", (1, 1, -3, 0, -1)),
    ("specific heat capacity", "c_p", (0, 2, -2, 0, -1)), ("heat flux", "φ", (1, 0, -3, 0, 0)),
)
EXPONENT_NAMES = ("a", "b", "c", "d", "e")
EXPONENTS = tuple(Fraction(k, 2) for k in range(-6, 7) if k)  # -3 .. 3 in halves, never 0
Vector = tuple[int, ...]


@register
class DimensionalAnalysis(Task):
    id = "physics/dimensional_analysis"
    family = "physics"
    description = "Exponents that give a product of powers of quantities a target dimension (unique by linear algebra)."
    tags = ("physics", "math", "linear-algebra")
    version = 1

    @dataclass(frozen=True)
    class Config:
        quantities: int
        bases: int  # base dimensions in play: 3 (M, L, T), 4 (+ I) or 5 (+ Θ)

    presets = (
        Config(quantities=2, bases=3),
        Config(quantities=3, bases=3),
        Config(quantities=3, bases=4),
        Config(quantities=4, bases=4),
        Config(quantities=5, bases=5),
    )
    bounded = "five base dimensions: more than five quantities cannot have independent dimensions (no unique answer)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pool = [q for q in QUANTITIES if not any(q[2][config.bases:])]

        def draw() -> tuple[list[tuple[str, str, Vector]], Vector, list[Fraction]] | None:
            given: list[tuple[str, str, Vector]] = rng.sample(pool, config.quantities)
            if config.bases >= 4 and not any(q[2][3] for q in given) or config.bases == 5 and not any(
                    q[2][4] for q in given):
                return None  # the new base dimension must take part
            columns = [q[2][:config.bases] for q in given]
            if not _independent(columns):
                return None  # dependent dimensions: the exponents would not be unique
            exponents = [Fraction(0) if config.quantities >= 3 and rng.random() < 0.15 else rng.choice(EXPONENTS)
                         for _ in given]
            # Twice the target's dimension vector, in integers (every exponent is a whole number of halves).
            doubled = [sum(int(2 * x) * column[i] for x, column in zip(exponents, columns))
                       for i in range(config.bases)]
            if any(v % 2 for v in doubled) or not any(doubled) or sum(x != 0 for x in exponents) < 2:
                return None  # a physical dimension has whole exponents; a single power is no question
            return given, tuple(v // 2 for v in doubled), exponents

        given, target_vector, exponents = retry(draw, lambda d: d is not None,
                                                what="independent quantities with a target")
        named = [q[0] for q in QUANTITIES if q[2][:config.bases] == target_vector and not any(q[2][config.bases:])]
        target_text = f"{named[0]}, [{_dimension(target_vector)}]" if named else f"[{_dimension(target_vector)}]"
        names = EXPONENT_NAMES[:config.quantities]
        rows = "\n".join(f"  {q[0]} {q[1]}: [{_dimension(q[2][:config.bases])}]" for q in given)
        product = " · ".join(f"{q[1]}^{name}" for q, name in zip(given, names))
        example = ", ".join(f"{name} = {v}" for name, v in zip(names, ("1/2", "-1", "0", "2", "-3/2")))
        prompt = (
            f"Dimensions are written in the base dimensions {', '.join(BASES[:config.bases])} "
            f"({', '.join(('mass', 'length', 'time', 'electric current', 'temperature')[:config.bases])}). These "
            f"quantities have the dimensions shown:\n{rows}\n\nFind the exponents {', '.join(names)} such that "
            f"{product} has the dimensions {target_text}. Give exact "
            f"values (fractions where needed), e.g. {example}."
        )
        answer = ", ".join(f"{name} = {format_fraction(v)}" for name, v in zip(names, exponents))
        return Problem(prompt=prompt, answer=answer, data={
            "given": [q[1] for q in given], "target": list(target_vector), "exponents": [format_fraction(v) for v in exponents],
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = EXPONENT_NAMES[:len(problem.data["exponents"])]
        values = read_values(answer, names, lambda s: read_exact(s, max_digits=40))
        if values is None:
            return Verdict.unparsed(f"expected {', '.join(names)}, each as name = exact value")
        for name, expected in zip(names, problem.data["exponents"]):
            if values[name] != Fraction(expected):
                return Verdict.wrong(f"{name} does not give the target's dimensions")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Unknown exponents times base dimensions in play (the linear system), plus one for each fractional or
        negative exponent."""
        exponents = [Fraction(e) for e in problem.data["exponents"]]
        bases = len(problem.data["target"])
        return len(exponents) * bases / 2 + sum(e.denominator != 1 for e in exponents) + sum(e < 0 for e in exponents) / 2

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), ", ".join(reversed(pairs)), "\n".join(pairs), "; ".join(pairs) + ".",
                " ".join(p.replace(" = ", "=") for p in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = EXPONENT_NAMES[:len(problem.data["exponents"])]
        values = [Fraction(e) for e in problem.data["exponents"]]

        def spelled(xs: list[Fraction]) -> str:
            return ", ".join(f"{n} = {format_fraction(v)}" for n, v in zip(names, xs))

        return [spelled([-v for v in values]), spelled([values[0] + 1, *values[1:]]), spelled(values[::-1])
                if values != values[::-1] else spelled([v * 2 for v in values]), ", ".join((problem.answer or "").split(", ")[1:]),
                (problem.answer or "") + f" or {names[0]} = {format_fraction(values[0] + 1)}"]


def _dimension(vector: Vector) -> str:
    parts = [base if e == 1 else f"{base}^{e}" for base, e in zip(BASES, vector) if e]
    return " ".join(parts) or "1"


def _independent(columns: list[Vector]) -> bool:
    """Whether the integer vectors are linearly independent (so ``_solve`` finds unique exponents): fraction-free
    elimination in Python integers, a cheap screen for the many drawn sets of quantities."""
    rows = [[column[i] for column in columns] for i in range(len(columns[0]))]
    for col in range(len(columns)):
        pivot = next((row for row in rows if row[col] != 0), None)
        if pivot is None:
            return False  # no pivot in this column: it depends on the ones before
        rows.remove(pivot)
        rows = [[v * pivot[col] - row[col] * w for v, w in zip(row, pivot)] for row in rows]
    return True


def _solve(columns: list[Vector], target: Vector) -> list[Fraction] | None:
    """The unique x with sum_j x_j columns[j] = target, or None (dependent columns, or target outside their span)."""
    rows, n = len(target), len(columns)
    matrix = [[Fraction(columns[j][i]) for j in range(n)] + [Fraction(target[i])] for i in range(rows)]
    pivot_row = 0
    for col in range(n):
        pivot = next((r for r in range(pivot_row, rows) if matrix[r][col] != 0), None)
        if pivot is None:
            return None  # a free exponent: the columns are dependent
        matrix[pivot_row], matrix[pivot] = matrix[pivot], matrix[pivot_row]
        lead = matrix[pivot_row][col]
        matrix[pivot_row] = [v / lead for v in matrix[pivot_row]]
        for r in range(rows):
            if r != pivot_row and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [v - factor * w for v, w in zip(matrix[r], matrix[pivot_row])]
        pivot_row += 1
    if any(matrix[r][n] != 0 for r in range(pivot_row, rows)):
        return None  # inconsistent: the target is not a product of powers of the given quantities
    return [matrix[j][n] for j in range(n)]
