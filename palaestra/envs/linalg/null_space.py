"""A basis of the null space of an integer matrix (any basis is accepted).

The matrix is built as ``U · [R; 0]`` with R in reduced row echelon form with integer
entries (pivots in random columns) and U an integer matrix of determinant ±1: so its
rank and null space are known and small integer bases exist; zero rows and columns,
which would give the answer away, are redrawn. Sizes grow from 2x3 (level 0)
to 5x6 (level 4), with the null space from one to three dimensions.

Version 2: a matrix whose null space is spanned by vectors read off pairs of proportional columns (columns i and
j with a·col_i + b·col_j = 0 give the null vector with a at i and b at j) is redrawn. That shortcut is no
elimination, yet in version 1 it answered 62% of level 0 (a 2x3 matrix with a pivot-free middle column always has
two proportional columns) and 2-5% of levels 1-4; now it answers none.

The answer is a list of vectors, checked rather than compared: every vector v must
satisfy A v = 0 exactly, the vectors must be linearly independent, and there must be as
many as the null space's dimension (n minus the rank). Vectors may be written as
tuples, brackets, LaTeX column vectors, ``v1 = (...)`` or one per line, with exact
entries (``1/2``, ``-3``) (:func:`palaestra.verifiers.matrices.read_vectors`).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.linalg.common import cell, multiply, render, unimodular
from palaestra.solvers.linalg import nullspace, rank
from palaestra.verifiers.matrices import read_vectors
from palaestra.verifiers.normalize import unparsed_feedback


@register
class NullSpace(Task):
    id = "linalg/null_space"
    family = "linalg"
    description = "Find a basis of the null space of an integer matrix (checked: A v = 0, independent, complete)."
    tags = ("math", "linear-algebra")
    multiline = True
    version = 2  # v2: null spaces spanned by proportional column pairs redrawn (they paid 0.62 at level 0)

    @dataclass(frozen=True)
    class Config:
        rows: int
        columns: int
        ranks: tuple[int, ...]
        top: int  # free-column entries of R in [-top, top]

    presets = (
        Config(rows=2, columns=3, ranks=(2,), top=4),
        Config(rows=3, columns=4, ranks=(2,), top=4),
        Config(rows=3, columns=5, ranks=(2, 3), top=4),
        Config(rows=4, columns=5, ranks=(3,), top=5),
        Config(rows=5, columns=6, ranks=(3, 4), top=5),
    )
    # Capped at level 9's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"rows": 1}, limits={"rows": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        matrix = retry(lambda: _matrix(rng, config), what="a matrix with the planned rank")
        basis = null_basis(matrix)
        n = config.columns
        example = ", ".join("(" + ", ".join(str((i + 2 * j) % 5 - 2) for i in range(n)) + ")" for j in range(2))
        prompt = (
            f"Find a basis for the null space of the {config.rows}x{n} matrix\n\n{render(matrix)}\n\n"
            f"that is, of all vectors v with A v = 0. Give the basis vectors as a list, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=", ".join(_vector(v) for v in basis), data={
            "matrix": [[int(x) for x in row] for row in matrix], "dimension": len(basis),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        matrix = problem.data["matrix"]
        n = len(matrix[0])
        vectors = read_vectors(answer, n)
        if vectors is None:
            return Verdict.unparsed(unparsed_feedback(answer, f"a list of vectors with {n} exact entries each"))
        if any(all(x == 0 for x in v) for v in vectors):
            return Verdict.wrong("the zero vector is in no basis")
        if any(any(x != 0 for x in row) for row in multiply(matrix, [list(col) for col in zip(*vectors)])):
            return Verdict.wrong("A times some vector is not zero")
        if rank(vectors) != len(vectors):
            return Verdict.wrong("the vectors are linearly dependent")
        return Verdict.judge(len(vectors) == problem.data["dimension"],
                             f"the null space has dimension {problem.data['dimension']}")

    def difficulty(self, problem: Problem) -> float:
        """Entries of the matrix plus twice the dimension of the null space, plus a tenth of the digits of the
        entries and of a basis (the elimination's arithmetic)."""
        matrix = problem.data["matrix"]
        digits = sum(c.isdigit() for c in problem.answer or "") + sum(len(str(abs(v))) for row in matrix for v in row)
        return float(len(matrix) * len(matrix[0]) + 2 * problem.data["dimension"]) + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        basis = [[Fraction(x) for x in v.strip("()").split(",")] for v in problem.answer.split("), (")]
        scaled = [[x * (k + 2) for x in v] for k, v in enumerate(basis)]
        combined = [basis[0]] + [[a + b for a, b in zip(v, basis[0])] for v in basis[1:]]
        columns = "\\left\\{ " + ", ".join("\\begin{pmatrix} " + " \\\\ ".join(cell(x) for x in v) +
                                          " \\end{pmatrix}" for v in basis) + " \\right\\}"
        return [*super().spellings(problem), ", ".join(_vector(v) for v in scaled),
                ", ".join(_vector(v) for v in combined), columns,
                "\n".join(f"v{i + 1} = {_vector(v)}" for i, v in enumerate(reversed(basis))),
                "{" + ", ".join("[" + ", ".join(cell(x) for x in v) + "]" for v in basis) + "}",
                problem.answer + ".", "span{" + problem.answer + "}", f"N(A) = \\operatorname{{span}}\\{{{problem.answer}\\}}",
                f"A basis is {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        basis = [[Fraction(x) for x in v.strip("()").split(",")] for v in problem.answer.split("), (")]
        bumped = [row[:] for row in basis]
        bumped[0][0] += 1
        wrong = [", ".join(_vector(v) for v in bumped), _vector([Fraction(0)] * len(basis[0]))]
        if len(basis) > 1:
            wrong.append(", ".join(_vector(v) for v in basis[:-1]))  # too few
            wrong.append(", ".join(_vector(v) for v in [*basis[:-1], basis[0]]))  # dependent
        else:
            wrong.append(", ".join(_vector(v) for v in [basis[0], [2 * x for x in basis[0]]]))
        return wrong


def _vector(v: list[Fraction]) -> str:
    return "(" + ", ".join(cell(x) for x in v) + ")"


def null_basis(matrix: list[list[int]]) -> list[list[Fraction]]:
    """One basis of the null space from the reduced row echelon form (one vector per free column),
    scaled to coprime integers."""
    return [[x * math.lcm(*(y.denominator for y in v)) for x in v] for v in nullspace(matrix)]


def _matrix(rng: random.Random, config: NullSpace.Config) -> list[list[int]] | None:
    r, n, m = rng.choice(config.ranks), config.columns, config.rows
    pivots = sorted(rng.sample(range(n), r))
    echelon = [[0] * n for _ in range(r)]
    for i, p in enumerate(pivots):
        echelon[i][p] = 1
        for c in range(p + 1, n):
            if c not in pivots:
                echelon[i][c] = rng.randint(-config.top, config.top)
    mixer = unimodular(rng, m, steps=rng.randint(m + 1, 2 * m + 2), top=2)
    padded = echelon + [[0] * n for _ in range(m - r)]
    matrix = [[int(x) for x in row] for row in multiply(mixer, padded)]
    if max(abs(x) for row in matrix for x in row) > 30 or rank(matrix) != r:
        return None
    if any(all(x == 0 for x in row) for row in matrix) or any(all(row[c] == 0 for row in matrix) for c in range(n)):
        return None  # a zero row or column gives the answer away
    pairs = pair_vectors(matrix)
    if len(pairs) >= n - r and rank(pairs) == n - r:
        return None  # proportional columns alone give a basis, with no elimination
    return matrix


def pair_vectors(matrix: list[list[int]]) -> list[list[int]]:
    """The null vectors read off pairs of proportional columns: a·col_i + b·col_j = 0 gives a at i, b at j."""
    columns = list(zip(*matrix))
    out = []
    for i, j in itertools.combinations(range(len(columns)), 2):
        a, b = next((cj, -ci) for ci, cj in zip(columns[i], columns[j]) if ci or cj)  # no zero columns here
        if all(a * x + b * y == 0 for x, y in zip(columns[i], columns[j])):
            out.append([a if k == i else b if k == j else 0 for k in range(len(columns))])
    return out
