"""The eigenvalues of an integer matrix, with their algebraic multiplicities.

The matrix is built as ``P D P^(-1)`` with P an integer matrix of determinant ±1 (so the
matrix has integer entries) and D diagonal with chosen integer eigenvalues; level 3 repeats
an eigenvalue and level 4 uses a Jordan block, so the matrix is not diagonalisable there.
A matrix whose diagonal entries are its eigenvalues (a triangular one, which a few row operations
often give) is drawn again: reading the diagonal off scored 0.55, 0.28 and 0.23 at levels 0-2.
Sizes grow from 2x2 to 4x4. The characteristic polynomial's roots are exactly the chosen
eigenvalues, whatever P is.

The answer lists every eigenvalue as often as its algebraic multiplicity, in any order:
``-1, 2, 2``, ``{2, 2, -1}``, ``λ = 2, 2, -1``, ``λ_1 = -1, λ_2 = 2, λ_3 = 2``. A missing repeat,
an extra value or a wrong value is wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.linalg.common import multiply, render, unimodular
from palaestra.solvers.linalg import inverse
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.sets import read_list

_NAMES = re.compile(r"(?:λ|\\lambda)\s*(?:_\s*\{?\s*\d+\s*\}?|[₀-₉]+|\d+)?\s*=\s*")
# "-2 (multiplicity 2)", "-2 (algebraic multiplicity 2)", "3 (twice)", "1 (double)": the value written out that often
_MULTIPLICITY = re.compile(
    r"(-?\s*\d+(?:\s*/\s*\d+)?)\s*\(\s*(?:with\s+)?(?:algebraic\s+)?"
    r"(?:multiplicity\s*(?:=\s*|of\s+)?([1-9])|(twice|double)|(three times|triple))\s*\)",
    re.IGNORECASE,
)


def _expand_multiplicities(answer: str) -> str:
    """``-2 (multiplicity 2), 0`` as ``-2, -2, 0`` (bounded: one digit of multiplicity per value)."""

    def repeat(match: re.Match[str]) -> str:
        count = int(match.group(2)) if match.group(2) else 2 if match.group(3) else 3
        return ", ".join([match.group(1).replace(" ", "")] * count)

    return _MULTIPLICITY.sub(repeat, answer)


@register
class Eigenvalues(Task):
    id = "linalg/eigenvalues"
    version = 4
    family = "linalg"
    description = "List the eigenvalues of an integer matrix with algebraic multiplicity."
    tags = ("math", "linear-algebra")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        size: int
        repeated: bool  # one eigenvalue appears twice
        jordan: bool  # ... in a Jordan block (not diagonalisable)
        top: int  # eigenvalues in [-top, top]
        shear: int  # the change of basis P is row operations on I adding up to this many times another row
        extra_steps: int = 0  # row operations beyond n to 2n + 1

    # Level 0's 2x2 matrices take more varied eigenvalues and bases than the larger ones: with eigenvalues in
    # [-9, 9] and two-fold shears they repeated (947 distinct problems in 1,000 seeds; the kit asks 950).
    presets = (
        Config(size=2, repeated=False, jordan=False, top=15, shear=3, extra_steps=4),
        Config(size=3, repeated=False, jordan=False, top=6, shear=2),
        Config(size=3, repeated=True, jordan=False, top=6, shear=2),
        Config(size=4, repeated=False, jordan=False, top=6, shear=1),
        Config(size=4, repeated=True, jordan=True, top=5, shear=1),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        matrix, values = retry(lambda: _matrix(rng, config), what="a small integer matrix")
        n = config.size
        example = "-1, 2, 2"  # a fixed placeholder: independent of the answer
        prompt = (
            f"Find all eigenvalues of the {n}x{n} matrix\n\n{render(matrix)}\n\n"
            f"List each eigenvalue as many times as its algebraic multiplicity (n values in all), in any order, "
            f"e.g. {example}."
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, sorted(values))), data={
            "matrix": matrix, "values": sorted(values), "jordan": config.jordan,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 2_000:
            return Verdict.unparsed("not a list of numbers")
        items = read_list(_NAMES.sub("", _expand_multiplicities(answer)), lambda s: read_exact(s, max_digits=30))
        if items is None:
            return Verdict.unparsed("not a list of numbers")
        want = problem.data["values"]
        if len(items) != len(want):
            return Verdict.wrong(f"there are {len(want)} eigenvalues counted with multiplicity")
        return Verdict.judge(sorted(items) == sorted(Fraction(v) for v in want), "wrong eigenvalues")

    def difficulty(self, problem: Problem) -> float:
        """Entries of the matrix, plus 2 for a repeated eigenvalue and 2 more for a Jordan block, plus a tenth
        of the digits of the entries (the arithmetic of the characteristic polynomial)."""
        values = problem.data["values"]
        n = len(values)
        digits = sum(len(str(abs(v))) for row in problem.data["matrix"] for v in row)
        return float(n * n + 2 * (len(set(values)) < n) + 2 * problem.data["jordan"]) + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        values = problem.data["values"]
        return [*super().spellings(problem), ", ".join(map(str, reversed(values))),
                "{" + ", ".join(map(str, values)) + "}", "λ = " + ", ".join(map(str, values)),
                ", ".join(f"λ_{i + 1} = {v}" for i, v in enumerate(values)),
                ", ".join(f"\\lambda_{{{i + 1}}} = {v}" for i, v in enumerate(values)),
                " and ".join(map(str, values)), ", ".join(f"λ{'₁₂₃₄₅₆'[i]} = {v}" for i, v in enumerate(values[:6])),
                _with_multiplicities(values)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = problem.data["values"]
        distinct = sorted(set(values))
        wrong = [", ".join(map(str, [values[0] + 1, *values[1:]])), ", ".join(map(str, [-v for v in values])),
                 ", ".join(map(str, values[:-1])), ", ".join(map(str, [*values, values[0]]))]
        if len(distinct) < len(values):
            wrong.append(", ".join(map(str, distinct)))  # multiplicity dropped
        return [w for w in wrong if not self.verify(problem, w).correct]


def _with_multiplicities(values: list[int]) -> str:
    """``-2 (multiplicity 2), 0``: each distinct value once, its multiplicity in brackets where it repeats."""
    distinct = sorted(set(values))
    return ", ".join(f"{v} (multiplicity {values.count(v)})" if values.count(v) > 1 else str(v) for v in distinct)


def _matrix(rng: random.Random, config: Eigenvalues.Config) -> tuple[list[list[int]], list[int]] | None:
    n = config.size
    values = rng.sample(range(-config.top, config.top + 1), n)
    if config.repeated:
        values[1] = values[0]
    diagonal = [[Fraction(values[i]) if i == j else Fraction(0) for j in range(n)] for i in range(n)]
    if config.jordan:
        diagonal[0][1] = Fraction(1)  # a Jordan block for the repeated eigenvalue
    p = unimodular(rng, n, steps=rng.randint(n, 2 * n + 1) + config.extra_steps, top=config.shear)
    p_inverse = inverse(p)
    assert p_inverse is not None
    matrix = multiply(multiply(p, diagonal), p_inverse)
    if max(abs(v) for row in matrix for v in row) > 40 or sum(1 for row in matrix for v in row if v == 0) > n:
        return None
    if sorted(matrix[i][i] for i in range(n)) == sorted(values):
        return None  # a (near-)triangular matrix shows its eigenvalues on its diagonal: reading them off is no work
    return [[int(v) for v in row] for row in matrix], values
