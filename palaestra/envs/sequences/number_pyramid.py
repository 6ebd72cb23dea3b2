"""Number pyramids: each brick is the sum of the two bricks under it; from a few given bricks, find the base.

A pyramid with n bricks in its bottom row has n - 1 in the next, and so on up to one brick at the top; the
brick above two neighbours holds their sum, so the brick k rows up at position i holds
sum_j C(k, j) * base[i + j]. The generator draws the base and then n of the bricks to give, keeping them only
when they determine the base (the linear map from the base to the given bricks has rank n, found exactly with
fractions) and at least two bottom bricks are hidden (so the answer is not printed and some given brick lies
above the bottom row). The base is unique because the rank is n; it is whole because it was drawn whole.

The answer is the bottom row, left to right. Difficulty: the bottom row's length, the given bricks above the
bottom row (each one an equation to untangle), and the digits of the top brick.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_list

BLANK = "?"
EXAMPLE = "3, 8, 1, 6"  # a fixed placeholder of the right shape: never derived from the answer


def bricks(base: list[int]) -> list[list[int]]:
    """The pyramid's rows from the bottom (the base) to the top."""
    rows = [list(base)]
    while len(rows[-1]) > 1:  # bounded: each row is one brick shorter
        below = rows[-1]
        rows.append([below[i] + below[i + 1] for i in range(len(below) - 1)])
    return rows


def _coefficients(n: int, row: int, position: int) -> list[int]:
    """The brick's value as a combination of the base bricks."""
    return [math.comb(row, j - position) if 0 <= j - position <= row else 0 for j in range(n)]


def _rank(vectors: list[list[int]], n: int) -> int:
    matrix = [[Fraction(x) for x in v] for v in vectors]
    rank = 0
    for column in range(n):
        pivot = next((i for i in range(rank, len(matrix)) if matrix[i][column] != 0), None)
        if pivot is None:
            continue
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        for i in range(rank + 1, len(matrix)):
            if matrix[i][column] != 0:
                factor = matrix[i][column] / matrix[rank][column]
                matrix[i] = [a - factor * b for a, b in zip(matrix[i], matrix[rank], strict=True)]
        rank += 1
    return rank


def _show(rows: list[list[int]], given: set[tuple[int, int]]) -> str:
    width = max(len(str(v)) for row in rows for v in row) + 1
    lines = []
    for r in range(len(rows) - 1, -1, -1):
        cells = [(str(v) if (r, i) in given else BLANK).center(width) for i, v in enumerate(rows[r])]
        lines.append(" " * (width * r // 2) + "".join(f"[{c}]" for c in cells))
    return "\n".join(lines)


LEADS = ("the bottom row is", "bottom row is", "the bottom row:", "bottom row:", "bottom row =", "bottom:", "base:")


def _bottom_row_text(answer: str) -> str:
    """The row without a naming lead-in (``Bottom row: 3, 8``) and with bricks (``[3][8]``, ``| 3 | 8 |``) as a list."""
    text = strip_wrappers(answer)
    body = text.lstrip("*")  # a bold lead-in: **Bottom row:** 3, 8
    for lead in LEADS:
        if body.lower().startswith(lead):
            text = strip_wrappers(body[len(lead):].lstrip("*"))
            break
    if "][" in text:
        text = text.replace("][", ", ")
    if "|" in text:
        text = text.strip().strip("|").replace("|", ",")
    return text


@register
class NumberPyramid(Task):
    id = "sequences/number_pyramid"
    family = "sequences"
    description = "Addition pyramid: from a few given bricks, find the bottom row (unique by rank)."
    tags = ("math", "puzzle", "linear_algebra")
    version = 2  # v2: level 0 base values 1..12 (was 1..9: 6,561 problems, 94% distinct in 1,000 draws)

    @dataclass(frozen=True)
    class Config:
        base: int  # bricks in the bottom row
        largest: int  # the largest base value
        negative: bool  # whether base values may be negative

    presets = (Config(3, 12, False), Config(4, 12, False), Config(5, 15, False), Config(6, 20, True),
               Config(7, 25, True))
    growth = Growth(steps={"base": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.base
        low = -config.largest if config.negative else 1

        def draw() -> tuple[list[int], set[tuple[int, int]]] | None:
            base = [rng.randint(low, config.largest) for _ in range(n)]
            cells = [(r, i) for r in range(n) for i in range(n - r)]
            given = set(rng.sample(cells, n))  # n bricks: the fewest that can fix n unknowns
            bottom_given = sum(1 for r, _ in given if r == 0)
            if bottom_given > n - 2 or _rank([_coefficients(n, r, i) for r, i in given], n) < n:
                return None
            return base, given

        base, given = retry(draw, lambda d: d is not None, attempts=100, what="givens that hide the base")
        rows = bricks(base)
        prompt = (
            f"In this number pyramid each brick holds the sum of the two bricks directly below it. The bottom row "
            f"has {n} bricks; {BLANK} marks an unknown brick:\n\n{_show(rows, given)}\n\n"
            "The given bricks determine every other brick. What numbers are in the bottom row, from left to right? "
            f"Give them separated by commas, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, base)),
                       data={"base": base, "given": sorted([r, i] for r, i in given)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        base = problem.data["base"]
        if not isinstance(answer, str) or len(answer) > 600:
            return Verdict.unparsed("expected the bottom row")
        found = read_list(_bottom_row_text(answer), read_integer, space_separated=True)
        if found is None or len(found) != len(base):
            return Verdict.unparsed(f"expected {len(base)} whole numbers separated by commas, such as {EXAMPLE}")
        rows = bricks(found)
        wanted = bricks(base)
        broken = [(r, i) for r, i in problem.data["given"] if rows[r][i] != wanted[r][i]]
        if broken:
            r, i = broken[0]
            return Verdict.wrong(f"that bottom row gives {rows[r][i]} where the pyramid shows {wanted[r][i]}")
        return Verdict.right()  # the givens fix the base (rank n), so matching them is the answer

    def difficulty(self, problem: Problem) -> float:
        """Bottom-row length, given bricks above the bottom row, and the digits of the top brick."""
        data = problem.data
        above = sum(1 for r, _ in data["given"] if r > 0)
        return float(2 * len(data["base"]) + above + len(str(abs(bricks(data["base"])[-1][0]))))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", gold.replace(", ", " "),
                f"[{gold}]", f"Answer: {gold}", f"Bottom row: {gold}",
                "".join(f"[{x}]" for x in gold.split(", ")), " | ".join(gold.split(", "))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        base = problem.data["base"]
        nudged = list(base)
        nudged[rng.randrange(len(base))] += 1
        wrong = [", ".join(map(str, nudged)), ", ".join(map(str, base[:-1])),
                 f"{problem.answer} or {', '.join(map(str, nudged))}"]
        if base[::-1] != base:
            wrong.append(", ".join(map(str, base[::-1])))
        return wrong
