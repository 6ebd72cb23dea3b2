"""Euler's totient function and counting (or adding up) integers coprime to n.

Level 0 asks for φ(n) with n below 1,000 (a finite space, sampled uniformly); level 1
for φ(n) with n below 100,000; level 2 for φ(n) of a larger number built from a few
prime powers, asked as how many fractions a/n with 1 <= a < n are already in lowest
terms; level 3 for the sum of the integers from 1 to N that are coprime to n, where N is
not a multiple of n (inclusion-exclusion over the primes of n, each term a sum of
multiples); level 4 for that sum over a range [A, B], or for the sum of the integers from
1 to n that are coprime to n (n φ(n) / 2, since k and n - k pair up).

v3 (round-3 red team): levels 3-4 asked how many integers up to N (or in [A, B]) are
coprime to n, and rounding the density estimate N φ(n) / n, skipping the inclusion-exclusion,
gave the exact count in 53% of level 3 and half of level 4's range questions. They now ask for
sums, whose estimate (the sum of all the integers times φ(n) / n, or exact whole periods of n
plus the estimate on the rest) is off by far more than one, and questions whose answer is within
one of either estimate are redrawn. The estimate is declared to the kit (it solves levels 0-2,
where it is the product formula itself, and none of levels 3-4).

Every answer is one whole number, computed from the factorisation of n and checked
against a direct count in the tests.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.numeric import read_exact

_PHI_LEAD_IN = re.compile(r"^\$?(?:φ|\\phi|\\varphi|phi)\s*\(\s*\d{1,20}\s*\)\s*=\s*")
_COUNTED = ("fractions", "such fractions", "integers", "such integers", "numbers", "such numbers")
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103,
           107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199)


def factor(n: int) -> dict[int, int]:
    out: dict[int, int] = {}
    d = 2
    while d * d <= n:  # bounded: d grows to sqrt(n)
        while n % d == 0:
            out[d] = out.get(d, 0) + 1
            n //= d
        d += 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def totient(n: int) -> int:
    result = n
    for p in factor(n):
        result = result // p * (p - 1)
    return result


@register
class Totient(Task):
    id = "arithmetic/totient"
    version = 3
    family = "arithmetic"
    description = "Euler's totient, and counting or summing the integers coprime to n."
    tags = ("math", "number-theory")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # phi | reduced_fractions | coprime_sum_to | coprime_range_sum | coprime_sum
        limit: int

    presets = (
        Config(("phi",), 1_000),
        Config(("phi",), 100_000),
        Config(("reduced_fractions",), 10**9),
        Config(("coprime_sum_to",), 10**6),
        Config(("coprime_range_sum", "coprime_sum"), 10**7),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 5 to 6)"

    def space_size(self, level: int) -> int | None:
        return self.level_config(0).limit - 2 if level == 0 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        if kind == "phi":
            n = rng.randint(2, config.limit - 1)
            question = f"Compute φ({n}), Euler's totient of {n}: how many integers from 1 to {n} are coprime to {n}?"
            value = totient(n)
        elif kind == "reduced_fractions":
            n = _built(rng, config.limit)
            question = (f"How many fractions a/{n} with 1 <= a < {n} are already in lowest terms (a and {n} have "
                        "no common factor other than 1)?")
            value = totient(n)
        elif kind == "coprime_sum_to":
            def draw_to() -> tuple[int, int, int] | None:
                n = _built(rng, 10**5)
                top = rng.randint(n + 1, config.limit)
                if top % n == 0:
                    top += rng.randint(1, n - 1)
                value = _coprime_sum_up_to(n, top)
                return None if _near_estimate(n, 1, top, value) else (n, top, value)

            n, top, value = retry(draw_to, what="a sum the density estimate misses")
            question = f"What is the sum of all integers k with 1 <= k <= {top} that have no common factor with {n} " \
                       "other than 1?"
        elif kind == "coprime_range_sum":
            def draw_range() -> tuple[int, int, int, int] | None:
                n = _built(rng, 10**5)
                low = rng.randint(2, config.limit // 2)
                high = rng.randint(low + n, config.limit)
                value = _coprime_sum_up_to(n, high) - _coprime_sum_up_to(n, low - 1)
                return None if _near_estimate(n, low, high, value) else (n, low, high, value)

            n, low, high, value = retry(draw_range, what="a sum the density estimate misses")
            question = f"What is the sum of all integers k with {low} <= k <= {high} that have no common factor " \
                       f"with {n} other than 1?"
        else:
            n = _built(rng, 10**6)
            question = f"What is the sum of all integers k with 1 <= k <= {n} that have no common factor with {n} " \
                       "other than 1?"
            value = n * totient(n) // 2
        example = 24  # a fixed placeholder: independent of the answer
        what = "sum" if "sum" in kind else "count"
        prompt = f"{question}\n\nGive the {what} as a whole number, e.g. {example}."
        size = max(int(t) for t in re.findall(r"\d+", question))
        return Problem(prompt=prompt, answer=str(value), data={"kind": kind, "value": value, "n": n, "size": size})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        # a count may name what it counts ("12 fractions", "There are 12 such integers."), as a grader lets it
        units = None if "sum" in problem.data["kind"] else _COUNTED
        value = read_exact(_PHI_LEAD_IN.sub("", answer.strip(), count=1), units=units, max_digits=30)
        if value is None:
            return Verdict.unparsed("not a whole number")
        return Verdict.judge(value == problem.data["value"], "wrong count")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        return {"density estimate (no inclusion-exclusion)": lambda problem: str(density_estimate(problem))}

    def difficulty(self, problem: Problem) -> float:
        """Digits of the largest number in the question, plus the distinct primes of n, plus the steps beyond
        the product formula (a sum up to N 5, over a range 7, up to n 5)."""
        n = problem.data["n"]
        extra = {"phi": 0, "reduced_fractions": 1, "coprime_sum_to": 5, "coprime_range_sum": 7, "coprime_sum": 5}[
            problem.data["kind"]]
        return float(len(str(problem.data["size"])) + len(factor(n)) + extra)

    def spellings(self, problem: Problem) -> list[str]:
        v = problem.data["value"]
        out = [*super().spellings(problem), f"\\boxed{{{v}}}", f"{v}.0", f"{v}."]
        if problem.data["kind"] == "phi":
            out.append(f"φ({problem.data['n']}) = {v}")
        if problem.data["kind"] == "reduced_fractions":
            out.append(f"There are {v} such fractions.")
        if v >= 1000:
            out.append(f"{v:,}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        v = problem.data["value"]
        n = problem.data["n"]
        return [*super().corruptions(problem, rng), str(v + 1), str(n - 1) if n - 1 != v else str(v + 2),
                f"{v} or {v + 1}"]


def _built(rng: random.Random, limit: int) -> int:
    """A product of 2-4 small prime powers below ``limit``."""
    def draw() -> int:
        primes = rng.sample(_PRIMES, rng.randint(2, 4))
        return math.prod(p ** rng.randint(1, 3 if p < 20 else 1) for p in primes)

    return retry(draw, lambda n: n < limit, what="a number below the limit")


def _squarefree_divisors(n: int) -> list[int]:
    primes = list(factor(n))
    out = [1]
    for p in primes:
        out += [d * p for d in out]
    return out


def _coprime_sum_up_to(n: int, top: int) -> int:
    """The sum of the k in [1, top] coprime to n: inclusion-exclusion over the squarefree divisors d of n, each
    adding (or taking away) the multiples of d up to top, d (1 + 2 + ... + top // d)."""
    return sum((-1) ** len(factor(d)) * d * (top // d) * (top // d + 1) // 2 for d in _squarefree_divisors(n))


def _estimates(n: int, low: int, high: int) -> list[Fraction]:
    """The density estimates of the sum of the k in [low, high] coprime to n: the sum of all of them times
    φ(n) / n, and the same with the whole periods of n counted exactly (each period [jn + 1, jn + n] adds
    j n φ(n) + n φ(n) / 2) and only the rest estimated."""
    share = Fraction(totient(n), n)

    def periods(top: int) -> Fraction:
        q, r = divmod(top, n)
        exact = q * n * totient(n) * q // 2 if q else 0  # sum over j < q of (j n phi + n phi / 2) = n phi q^2 / 2
        rest = Fraction(r * (r + 1), 2) + q * n * r  # the integers q n + 1 .. q n + r
        return exact + rest * share

    return [Fraction(high * (high + 1) - low * (low - 1), 2) * share, periods(high) - periods(low - 1)]


def _near_estimate(n: int, low: int, high: int, value: int) -> bool:
    return any(abs(value - e) <= 2 for e in _estimates(n, low, high))


def density_estimate(problem: Problem) -> int:
    """The cheap answer that skips inclusion-exclusion: φ(n) for the totient questions, else the rounded
    density estimate of the sum (all the integers asked about times φ(n) / n)."""
    n, kind = problem.data["n"], problem.data["kind"]
    if kind in ("phi", "reduced_fractions"):
        return totient(n)
    numbers = [int(t) for t in re.findall(r"\d+", problem.prompt.split("\n")[0])]
    low, high = (1, n) if kind == "coprime_sum" else (numbers[0], numbers[1])
    return round(_estimates(n, low, high)[0])
