"""The inverse of an invertible matrix, with exact rational entries.

Level 0 is a 2x2 integer matrix; level 1 a 3x3 matrix with determinant ±1 (an integer
inverse, built from row operations on the identity); levels 2-4 are 3x3 and 4x4
integer matrices with a small non-zero determinant, so the inverse has fractions.

The answer is checked, not compared: any matrix M with A·M = I (exactly, with
fractions) is the inverse. It may be written as nested lists (``[[2, -1], [-3/2, 1/2]]``),
one row per line, a LaTeX ``pmatrix``/``bmatrix``, or a scalar times a matrix
(``\\frac{1}{2}\\begin{pmatrix} 4 & -2 \\\\ -3 & 1 \\end{pmatrix}``), with entries such as ``-3/2``,
``\\frac{1}{2}`` or ``0.5`` (:mod:`palaestra.verifiers.matrices`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.linalg.common import cell, identity, multiply, nested, render, unimodular
from palaestra.solvers.linalg import determinant, inverse
from palaestra.verifiers.matrices import read_matrix


@register
class MatrixInverse(Task):
    id = "linalg/matrix_inverse"
    family = "linalg"
    description = "Invert a square matrix exactly (any notation; checked by multiplying back)."
    tags = ("math", "linear-algebra")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        top: int  # entries in [-top, top]
        max_determinant: int  # |det| at most this (1: unimodular, integer inverse)

    presets = (
        Config(size=2, top=9, max_determinant=12),
        Config(size=3, top=3, max_determinant=1),
        Config(size=3, top=4, max_determinant=6),
        Config(size=3, top=7, max_determinant=12),
        Config(size=4, top=4, max_determinant=6),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        matrix = retry(lambda: _matrix(rng, config), what="a matrix with a small non-zero determinant")
        result = inverse(matrix)
        assert result is not None
        example = "[[1, -1/2], [0, 3]]" if config.size == 2 else "[[1, 0, -1/2], [2, 1, 0], [0, 3, 1]]"
        prompt = (
            f"Find the inverse of the {config.size}x{config.size} matrix\n\n{render(matrix)}\n\n"
            f"Give the inverse with exact entries (fractions where needed), as a list of rows such as {example}."
        )
        return Problem(prompt=prompt, answer=nested(result), data={
            "matrix": [[int(v) for v in row] for row in matrix], "determinant": int(determinant(matrix)),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        matrix = problem.data["matrix"]
        n = len(matrix)
        candidate = read_matrix(answer, shape=(n, n))
        if candidate is None:
            return Verdict.unparsed(f"not a {n}x{n} matrix of exact numbers")
        return Verdict.judge(multiply(matrix, candidate) == identity(n), "A times this matrix is not the identity")

    def difficulty(self, problem: Problem) -> float:
        """Entries of the matrix plus the digits of its determinant, plus one when the inverse has fractions,
        plus a tenth of the digits of the inverse's entries."""
        size, det = len(problem.data["matrix"]), abs(problem.data["determinant"])
        return float(size**2 + len(str(det)) + (det > 1)) + sum(c.isdigit() for c in problem.answer or "") / 10

    def spellings(self, problem: Problem) -> list[str]:
        matrix = problem.data["matrix"]
        result = inverse(matrix)
        assert result is not None
        det = problem.data["determinant"]
        lines = "\n".join(" ".join(cell(v) for v in row) for row in result)
        latex = "\\begin{pmatrix} " + " \\\\ ".join(" & ".join(_latex(v) for v in row) for row in result) + \
            " \\end{pmatrix}"
        adjugate = [[v * det for v in row] for row in result]
        scaled = f"(1/{det}) * {nested(adjugate)}" if det != 1 else nested(adjugate)
        return [*super().spellings(problem), lines, latex, f"A^{{-1}} = {latex}", scaled,
                f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        matrix = problem.data["matrix"]
        result = inverse(matrix)
        assert result is not None
        det = problem.data["determinant"]
        bumped = [row[:] for row in result]
        bumped[0][0] += 1
        wrong = [nested(bumped), nested([[-v for v in row] for row in result]), nested(matrix),
                 nested([[v * det * 2 for v in row] for row in result])]
        transposed = [list(col) for col in zip(*result)]
        if transposed != result:
            wrong.append(nested(transposed))
        return [w for w in wrong if not self.verify(problem, w).correct]


def _latex(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _matrix(rng: random.Random, config: MatrixInverse.Config) -> list[list[int]] | None:
    n = config.size
    if config.max_determinant == 1:
        m = unimodular(rng, n, steps=rng.randint(n + 2, 2 * n + 3), top=2)
        if max(abs(v) for row in m for v in row) > 9 or sum(1 for row in m for v in row if v == 0) > n + 1:
            return None
        return [[int(v) for v in row] for row in m]
    drawn = [[rng.randint(-config.top, config.top) for _ in range(n)] for _ in range(n)]
    det = _integer_determinant(drawn)
    if det == 0 or abs(det) > config.max_determinant:
        return None
    return drawn


def _integer_determinant(m: list[list[int]]) -> int:
    """The determinant of an integer matrix by fraction-free (Bareiss) elimination: every division is exact, so
    it stays in Python integers; it screens the many drawn matrices far faster than fraction elimination."""
    a = [list(row) for row in m]
    n, sign, previous = len(a), 1, 1
    for k in range(n - 1):
        if a[k][k] == 0:
            swap = next((i for i in range(k + 1, n) if a[i][k] != 0), None)
            if swap is None:
                return 0
            a[k], a[swap] = a[swap], a[k]
            sign = -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                a[i][j] = (a[i][j] * a[k][k] - a[i][k] * a[k][j]) // previous
        previous = a[k][k]
    return sign * a[n - 1][n - 1]
