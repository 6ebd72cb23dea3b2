"""Shapley values of a small cooperative game, exactly, one per player.

Two kinds of game: at the lower levels the worth of every coalition is listed (three or four players); above
them the game is a weighted voting game (a coalition is worth 1 when its members' weights reach the quota,
else 0), whose Shapley values are the Shapley-Shubik power indices. The Shapley value is unique, so the
answer is compared exactly (fractions or exact decimals); the feedback says whether the values fail
efficiency (they must sum to the grand coalition's worth) or which player's value is wrong.

Games whose Shapley value is the equal split are redrawn, so splitting the grand coalition's worth equally
never earns reward; sharing a voting game's worth in proportion to the weights rarely does.

Difficulty: the coalitions of the drawn game (2 to the number of players) plus the bits of the reference
values' denominators.
"""

from __future__ import annotations

import math
import random
import re
import string
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

# A player's value written with the Shapley symbol: "φ_A", "φ(A)", "\\phi_{A}", "phi_A", "φA", read as the name "A"
_PHI = re.compile(r"(?:φ|ϕ|\\varphi|\\phi|\bphi|\bPhi)\s?(?:_\s?\{\s?([A-Z])\s?\}|_\s?([A-Z])|\(\s?([A-Z])\s?\)|([A-Z]))"
                  r"(?![A-Za-z0-9])")
MAX_ANSWER_CHARS = 4_000

EXAMPLE = "X: 3/2, Y: 0.75, Z: 2"  # a fixed placeholder of the right shape: never derived from the answer


def shapley(worth: list[Fraction], players: int) -> list[Fraction]:
    """Shapley values of the game whose coalition ``S`` (a bit mask) is worth ``worth[S]``."""
    factorial = [math.factorial(k) for k in range(players + 1)]
    if all(Fraction(w).denominator == 1 for w in worth):
        # Whole-number worths (every game drawn here): the weighted sums are whole numbers over players!, so they
        # are added as integers and divided once, the same values without a fraction per term.
        whole = [int(w) for w in worth]
        totals = [0] * players
        for mask in range(1 << players):
            size = mask.bit_count()
            coefficient = factorial[size] * factorial[players - size - 1]
            for i in range(players):
                if not mask >> i & 1:
                    totals[i] += coefficient * (whole[mask | 1 << i] - whole[mask])
        return [Fraction(total, factorial[players]) for total in totals]
    values = [Fraction(0)] * players
    for mask in range(1 << players):
        size = mask.bit_count()
        for i in range(players):
            if not mask >> i & 1:
                weight = Fraction(factorial[size] * factorial[players - size - 1], factorial[players])
                values[i] += weight * (worth[mask | 1 << i] - worth[mask])
    return values


def members(mask: int, players: int) -> str:
    return "{" + ", ".join(string.ascii_uppercase[i] for i in range(players) if mask >> i & 1) + "}"


@register
class ShapleyValue(Task):
    id = "economics/shapley_value"
    family = "economics"
    description = "Exact Shapley values of a small cooperative game (listed worths or weighted voting)."
    tags = ("economics", "game-theory", "math", "cooperative-games")

    @dataclass(frozen=True)
    class Config:
        players: int
        voting: bool  # a weighted voting game rather than a listed characteristic function
        high: int  # the largest weight (voting) or synergy per extra member (listed)

    presets = (Config(3, False, 6), Config(4, False, 6), Config(5, True, 6), Config(6, True, 9), Config(7, True, 12))
    growth = Growth(steps={"players": 1, "high": 3}, limits={"players": 14})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.players
        full = (1 << n) - 1

        def draw() -> tuple[list[Fraction], list[int], int, list[Fraction]] | None:
            if config.voting:
                weights = [rng.randint(1, config.high) for _ in range(n)]
                quota = rng.randint(sum(weights) // 2 + 1, max(sum(weights) // 2 + 1, sum(weights) * 3 // 4))
                worth = [Fraction(int(sum(w for i, w in enumerate(weights) if mask >> i & 1) >= quota))
                         for mask in range(1 << n)]
            else:
                weights, quota = [rng.randint(0, 5) for _ in range(n)], 0
                worth = [Fraction(0)] * (1 << n)
                for mask in range(1, 1 << n):
                    alone = sum(w for i, w in enumerate(weights) if mask >> i & 1)
                    worth[mask] = Fraction(alone + rng.randint(0, config.high * (mask.bit_count() - 1)))
            values = shapley(worth, n)
            return None if len(set(values)) == 1 else (worth, weights, quota, values)

        worth, weights, quota, values = retry(draw, what="a game whose Shapley value is not the equal split")
        names = list(string.ascii_uppercase[:n])
        if config.voting:
            listing = ", ".join(f"{name}: {w}" for name, w in zip(names, weights, strict=True))
            game = (f"Players {', '.join(names)} vote with these weights: {listing}. A coalition wins (is worth 1) "
                    f"if the total weight of its members is at least {quota}; otherwise it is worth 0.")
        else:
            lines = "\n".join(f"v({members(mask, n)}) = {worth[mask]}" for mask in range(1, 1 << n))
            game = f"Players {', '.join(names)} form a cooperative game with these coalition worths:\n\n{lines}\n\n" \
                   f"(the empty coalition is worth 0)."
        prompt = (
            f"{game}\n\nFind the Shapley value of every player: each player's average marginal contribution over "
            "all orders in which the players can join. Give each value exactly (a fraction, or a decimal only if it "
            f"is exact), for example: {EXAMPLE}"
        )
        answer = ", ".join(f"{name}: {format_fraction(v)}" for name, v in zip(names, values, strict=True))
        return Problem(prompt=prompt, answer=answer,
                       data={"names": names, "values": [format_fraction(v) for v in values],
                             "grand": format_fraction(worth[full]), "weights": weights, "voting": config.voting})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        written = read_assignment(answer, names, read_exact)
        if written is None and isinstance(answer, str) and len(answer) <= MAX_ANSWER_CHARS:
            written = read_assignment(_PHI.sub(lambda m: next(g for g in m.groups() if g), answer), names, read_exact)
        if written is None:
            return Verdict.unparsed(f"expected a value for each of the players {', '.join(names)}, such as A: 1/2")
        grand = Fraction(problem.data["grand"])
        if sum(written.values()) != grand:
            return Verdict.wrong(f"the values must sum to the grand coalition's worth {format_fraction(grand)}")
        for name, value in zip(names, problem.data["values"], strict=True):
            if written[name] != Fraction(value):
                return Verdict.wrong(f"the values sum correctly, but player {name}'s value is wrong")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Coalitions of the drawn game plus the bits of the reference values' denominators."""
        values = [Fraction(v) for v in problem.data["values"]]
        return float(2 ** len(values)) + sum(math.log2(v.denominator) for v in values)

    def spellings(self, problem: Problem) -> list[str]:
        pairs = list(zip(problem.data["names"], [Fraction(v) for v in problem.data["values"]], strict=True))
        equals = ", ".join(f"{n} = {format_fraction(v)}" for n, v in pairs)
        lines = "\n".join(f"{n}: {format_fraction(v)}" for n, v in pairs)
        backwards = ", ".join(f"{n}: {format_fraction(v)}" for n, v in reversed(pairs))
        latex = ", ".join(f"{n} = \\frac{{{v.numerator}}}{{{v.denominator}}}" for n, v in pairs)
        spelled = [*super().spellings(problem), equals, lines, backwards, f"\\boxed{{{latex}}}", f"Answer: {equals}."]
        if all(2 ** 20 * 5 ** 20 % v.denominator == 0 for _, v in pairs):
            spelled.append(", ".join(f"{n}: {float(v)!r}" for n, v in pairs))
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names, values = problem.data["names"], [Fraction(v) for v in problem.data["values"]]
        grand, weights = Fraction(problem.data["grand"]), problem.data["weights"]
        candidates = [[grand / len(names)] * len(names)]  # the equal split
        if sum(weights) and problem.data["voting"]:  # shares in proportion to the weights
            candidates.append([grand * w / sum(weights) for w in weights])
        i, j = rng.sample(range(len(names)), 2)
        shifted = list(values)
        shifted[i] += Fraction(1, 2)
        shifted[j] -= Fraction(1, 2)  # still efficient, but wrong
        candidates.append(shifted)
        wrong = [", ".join(f"{n}: {format_fraction(v)}" for n, v in zip(names, c, strict=True)) for c in candidates
                 if c != values]
        return [*wrong, f"{problem.answer} or {wrong[0]}"]
