"""The determinant of an integer matrix.

The size grows from 2x2 (level 0) to 6x6 (level 4); entries are small integers, with
more zeros in the larger matrices (so cofactor expansion along a sparse row pays off),
and at the top levels a hidden structure (a block-triangular matrix whose rows were
then mixed by adding multiples of one row to others, which keeps the determinant).
The determinant is computed exactly with fractions; singular matrices are kept rare.

The answer is one integer (``-42``, ``−42``, ``\\boxed{-42}``, ``det(A) = -42``); an
expression or another number is wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.linalg.common import render
from palaestra.solvers.linalg import determinant
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_exact

_EXAMPLE = -42
# the share of singular draws kept: the block-structured top levels draw singular matrices more often than not,
# so 1 in 20 (v2) made "0" the answer to 7.5% of level-3 problems; 1 in 100 keeps it near 2%
SINGULAR_KEPT = 0.01
_DET_LEAD_IN = re.compile(r"^(?:\\?det\s*\(?\s*[A-Za-z]?\s*\)?|\|\s*[A-Za-z]\s*\|)\s*=\s*")


@register
class Determinant(Task):
    id = "linalg/determinant"
    version = 3  # v3: singular matrices kept at 1 in 100 draws, not 1 in 20 ("0" earned 7.5% at level 3 in v2)
    family = "linalg"
    description = "Compute the determinant of an integer matrix."
    tags = ("math", "linear-algebra")

    @dataclass(frozen=True)
    class Config:
        size: int
        top: int  # entries in [-top, top]
        zeros: float  # share of entries set to zero
        mixed_blocks: bool  # block-triangular, then rows mixed

    presets = (
        Config(size=2, top=12, zeros=0.0, mixed_blocks=False),
        Config(size=3, top=6, zeros=0.1, mixed_blocks=False),
        Config(size=4, top=5, zeros=0.25, mixed_blocks=False),
        Config(size=5, top=4, zeros=0.3, mixed_blocks=True),
        Config(size=6, top=4, zeros=0.3, mixed_blocks=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        matrix = retry(lambda: _matrix(rng, config), lambda m: determinant(m) != 0 or rng.random() < SINGULAR_KEPT,
                       what="a (usually) non-singular matrix")
        value = int(determinant(matrix))
        example = _EXAMPLE  # a fixed placeholder: independent of the answer
        prompt = (
            f"Compute the determinant of the {config.size}x{config.size} matrix\n\n{render(matrix)}\n\n"
            f"Give the determinant as a single integer, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=str(value),
                       data={"matrix": [[int(v) for v in row] for row in matrix], "value": value})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(_DET_LEAD_IN.sub("", answer.strip().strip("$"), count=1), max_digits=100)
        if value is None:  # the lead-in inside a wrapper: \boxed{\det(A) = -42}
            value = read_answer(answer, lambda s: read_exact(_DET_LEAD_IN.sub("", s.strip().strip("$"), count=1),
                                                             max_digits=100))
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong determinant")

    def difficulty(self, problem: Problem) -> float:
        """Entries of the matrix that are not zero plus the digits of the determinant."""
        nonzero = sum(1 for row in problem.data["matrix"] for v in row if v)
        return float(nonzero + len(str(abs(problem.data["value"]))))

    def spellings(self, problem: Problem) -> list[str]:
        v = problem.data["value"]
        return [*super().spellings(problem), f"det(A) = {v}", f"\\boxed{{{v}}}", f"{v}.0", f"$\\det A = {v}$",
                f"{v}.", str(v).replace("-", "−")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        v = problem.data["value"]
        return [*super().corruptions(problem, rng), str(v + 1), str(-v) if v else "1", f"{v} or {v + 2}",
                f"{v}.5"]


def _matrix(rng: random.Random, config: Determinant.Config) -> list[list[int]]:
    n = config.size

    def entry() -> int:
        return 0 if rng.random() < config.zeros else rng.randint(-config.top, config.top)

    if not config.mixed_blocks:
        return [[entry() for _ in range(n)] for _ in range(n)]
    split = rng.randint(2, n - 2)
    rows = [[entry() if (i < split) == (j < split) or j >= split else 0 for j in range(n)] for i in range(n)]
    for _ in range(2):  # adding a multiple of one row to another keeps the determinant
        i, j = rng.sample(range(n), 2)
        factor = rng.choice([-1, 1])
        rows[i] = [a + factor * b for a, b in zip(rows[i], rows[j])]
    perm = list(range(n))
    rng.shuffle(perm)
    return [[rows[i][perm[j]] for j in range(n)] for i in range(n)]
