"""A Nash equilibrium in mixed strategies of a 2×2 or 2×3 game that has no pure-strategy equilibrium.

The answer gives each strategy's probability as an exact number (a percentage such as ``T: 10%`` too, and a
strategy may be written as its probability, ``P(T) = 1/10``). Any equilibrium is accepted: the verifier
checks the best-response conditions, exactly in fractions: each player's probabilities are non-negative and
sum to 1, and every strategy played with positive probability earns the player's best expected payoff
against the other player's mix (so the strategies in the support are indifferent, and nothing outside the
support does better). A game with a pure equilibrium is redrawn, so a pure profile is never right and the
row player must mix.

The reference is found by support enumeration (the column player's supports of two or three columns, solving
the indifference equations exactly).

Difficulty: the strategies of the drawn game (four per column) plus the bits of the reference's denominators.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.economics.common import pure_equilibria, random_matrix
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

ROWS = ("T", "B")
COLUMNS = ("L", "C", "R")
EXAMPLE = "T: 1/5, B: 4/5, L: 0.1, C: 0, R: 9/10"  # a fixed placeholder of the right shape
PERCENT = {"%": Fraction(1, 100), "percent": Fraction(1, 100)}  # "T: 10%" is the probability 1/10
# A strategy's probability written as a probability of it, "P(T) = 1/10", "Pr(L) = 0", "q(C) = 1/5": read as "T = 1/10".
_PROBABILITY_OF = re.compile(r"\b(?:P|p|Pr|pr|Prob|prob|q|σ)\s*\(\s*([A-Z])\s*\)")


def read_probability(text: str) -> Fraction | None:
    return read_exact(text, units=PERCENT)


def expected(payoffs: list[list[int]], row_mix: list[Fraction], column_mix: list[Fraction]) -> Fraction:
    return sum((p * q * payoffs[i][j] for i, p in enumerate(row_mix) for j, q in enumerate(column_mix)),
               Fraction(0))


def judge(a: list[list[int]], b: list[list[int]], row_mix: list[Fraction], column_mix: list[Fraction]) -> str | None:
    """Why the mixes are not an equilibrium, or ``None`` when they are."""
    for who, mix in (("row", row_mix), ("column", column_mix)):
        if any(p < 0 for p in mix):
            return f"a probability of the {who} player is negative"
        if sum(mix) != 1:
            return f"the {who} player's probabilities sum to {format_fraction(sum(mix, Fraction(0)))}, not 1"
    row_values = [sum((q * a[i][j] for j, q in enumerate(column_mix)), Fraction(0)) for i in range(len(a))]
    column_values = [sum((p * b[i][j] for i, p in enumerate(row_mix)), Fraction(0)) for j in range(len(a[0]))]
    for who, names, mix, values in (("row", ROWS, row_mix, row_values),
                                    ("column", COLUMNS, column_mix, column_values)):
        best = max(values)
        for name, p, value in zip(names, mix, values, strict=False):
            if p > 0 and value < best:
                return (f"the {who} player plays {name} with positive probability, but it earns "
                        f"{format_fraction(value)} against the other's mix while the best strategy earns "
                        f"{format_fraction(best)}")
    return None


def an_equilibrium(a: list[list[int]], b: list[list[int]]) -> tuple[list[Fraction], list[Fraction]] | None:
    """An equilibrium with the row player mixing both rows, by enumerating the column player's supports."""
    columns = len(a[0])
    for support in [s for size in (2, 3) for s in itertools.combinations(range(columns), size)]:
        # the row mix (p, 1 - p) makes the column player indifferent between the support's first two columns
        j, k = support[0], support[1]
        slope = (b[0][j] - b[1][j]) - (b[0][k] - b[1][k])
        if slope == 0:
            continue
        p = Fraction(b[1][k] - b[1][j], slope)
        if not 0 < p < 1:
            continue
        row_mix = [p, 1 - p]
        # the column mix over (j, k) makes the row player indifferent between the rows
        gap_j, gap_k = a[0][j] - a[1][j], a[0][k] - a[1][k]
        if gap_j == gap_k:
            continue
        q = Fraction(-gap_k, gap_j - gap_k)
        if not 0 <= q <= 1:
            continue
        column_mix = [Fraction(0)] * columns
        column_mix[j], column_mix[k] = q, 1 - q
        if judge(a, b, row_mix, column_mix) is None:
            return row_mix, column_mix
    return None


@register
class NashMixed(Task):
    id = "economics/nash_mixed"
    family = "economics"
    description = "A mixed-strategy Nash equilibrium of a small two-player game without a pure one (any one)."
    tags = ("economics", "game-theory", "math", "probability")

    @dataclass(frozen=True)
    class Config:
        columns: int  # the column player's strategies (2 or 3)
        high: int  # payoffs are drawn from 0 to this

    presets = (Config(2, 4), Config(2, 9), Config(3, 6), Config(3, 12), Config(3, 24))
    growth = Growth(factors={"high": 2}, limits={"columns": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[list[int]], list[list[int]], tuple[list[Fraction], list[Fraction]]] | None:
            a = random_matrix(rng, 2, config.columns, config.high)
            b = random_matrix(rng, 2, config.columns, config.high)
            if pure_equilibria(a, b):
                return None
            found = an_equilibrium(a, b)
            return None if found is None else (a, b, found)

        a, b, (row_mix, column_mix) = retry(draw, what="a game with only mixed equilibria")
        names = ROWS + COLUMNS[: config.columns]
        table = self._table(a, b)
        prompt = (
            "Two players choose at the same time: the row player picks T or B, the column player picks "
            f"{' or '.join(COLUMNS[: config.columns])}. Each cell shows (row player's payoff, column player's "
            f"payoff):\n\n{table}\n\n"
            "This game has no pure-strategy Nash equilibrium. Find a Nash equilibrium in mixed strategies: the "
            "probability with which each player plays each of their strategies. If there are several, give any "
            "one. Give every probability exactly (a fraction, or a decimal only if it is exact), for every "
            f"strategy of both players ({', '.join(names)}), for example: {EXAMPLE}"
        )
        mix = row_mix + column_mix
        answer = ", ".join(f"{n}: {format_fraction(p)}" for n, p in zip(names, mix, strict=True))
        return Problem(prompt=prompt, answer=answer,
                       data={"row_payoffs": a, "column_payoffs": b, "names": list(names),
                             "mix": [format_fraction(p) for p in mix]})

    @staticmethod
    def _table(a: list[list[int]], b: list[list[int]]) -> str:
        cells = [[f"({x}, {y})" for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)]
        width = max(len(c) for line in cells for c in line)
        header = "   " + " ".join(n.center(width) for n in COLUMNS[: len(a[0])])
        return "\n".join([header, *(f"{r}  " + " ".join(c.center(width) for c in line)
                                    for r, line in zip(ROWS, cells, strict=True))])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        if isinstance(answer, str) and len(answer) <= 2_000:
            answer = _PROBABILITY_OF.sub(lambda m: m.group(1) if m.group(1) in names else m.group(0), answer)
        written = read_assignment(answer, names, read_probability)
        if written is None:
            return Verdict.unparsed(f"expected a probability for each of {', '.join(names)}, such as T: 1/2, ...")
        row_mix = [written[n] for n in ROWS]
        column_mix = [written[n] for n in names[2:]]
        problem_found = judge(problem.data["row_payoffs"], problem.data["column_payoffs"], row_mix, column_mix)
        return Verdict.wrong(problem_found) if problem_found else Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Four per strategy of the column player plus the bits of the reference mix's denominators."""
        mix = [Fraction(p) for p in problem.data["mix"]]
        return 4.0 * (len(problem.data["names"]) - 2) + sum(math.log2(p.denominator) for p in mix)

    def spellings(self, problem: Problem) -> list[str]:
        names, mix = problem.data["names"], [Fraction(p) for p in problem.data["mix"]]
        equals = ", ".join(f"{n} = {format_fraction(p)}" for n, p in zip(names, mix, strict=True))
        lines = "\n".join(f"{n}: {format_fraction(p)}" for n, p in zip(names, mix, strict=True))
        latex = ", ".join(f"{n} = \\frac{{{p.numerator}}}{{{p.denominator}}}" for n, p in zip(names, mix, strict=True))
        backwards = ", ".join(f"{n}: {format_fraction(p)}" for n, p in reversed(list(zip(names, mix, strict=True))))
        spelled = [*super().spellings(problem), equals, lines, backwards, f"\\boxed{{{latex}}}", f"Answer: {equals}."]
        if all(2 ** 10 * 5 ** 10 % p.denominator == 0 for p in mix):  # every probability a finite decimal
            spelled.append(", ".join(f"{n}: {float(p)!r}" for n, p in zip(names, mix, strict=True)))
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names, mix = problem.data["names"], [Fraction(p) for p in problem.data["mix"]]
        a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
        columns = len(names) - 2
        candidates = [
            [mix[1], mix[0], *mix[2:]],  # the row player's probabilities swapped
            [*mix[:2], *reversed(mix[2:])],  # the column player's reversed
            [Fraction(1, 2), Fraction(1, 2), *[Fraction(1, columns)] * columns],  # everyone uniform
            [Fraction(1), Fraction(0), Fraction(1), *[Fraction(0)] * (columns - 1)],  # a pure profile
            [mix[0] + Fraction(1, 10), mix[1], *mix[2:]],  # not summing to 1
        ]
        wrong = [", ".join(f"{n}: {format_fraction(p)}" for n, p in zip(names, c, strict=True)) for c in candidates
                 if judge(a, b, c[:2], c[2:]) is not None]
        return [*wrong, f"{problem.answer} or {wrong[0]}"] if wrong else wrong
