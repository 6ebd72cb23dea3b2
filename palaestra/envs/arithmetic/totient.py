"""Euler's totient function and counting (or adding up) integers coprime to n.

Level 0 asks for φ(n) with n below 1,000 (a finite space, sampled uniformly); level 1
for φ(n) with n below 100,000; level 2 for φ(n) of a larger number built from a few
prime powers, asked as how many fractions a/n with 1 <= a < n are already in lowest
terms; level 3 for how many integers from 1 to N are coprime to n, where N is not a
multiple of n (inclusion-exclusion over the primes of n); level 4 for how many integers
in a range [A, B] are coprime to n, or for the sum of the integers from 1 to n that are
coprime to n (n φ(n) / 2, since k and n - k pair up).

Every answer is one whole number, computed from the factorisation of n and checked
against a direct count in the tests.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.numeric import read_exact

_PHI_LEAD_IN = re.compile(r"^\$?(?:φ|\\phi|\\varphi|phi)\s*\(\s*\d{1,20}\s*\)\s*=\s*")
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
    version = 2
    family = "arithmetic"
    description = "Euler's totient, and counting or summing the integers coprime to n."
    tags = ("math", "number-theory")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # phi | reduced_fractions | coprime_count | coprime_range | coprime_sum
        limit: int

    presets = (
        Config(("phi",), 1_000),
        Config(("phi",), 100_000),
        Config(("reduced_fractions",), 10**9),
        Config(("coprime_count",), 10**6),
        Config(("coprime_range", "coprime_sum"), 10**7),
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
        elif kind == "coprime_count":
            n = _built(rng, 10**5)
            top = rng.randint(n + 1, config.limit)
            if top % n == 0:
                top += rng.randint(1, n - 1)
            question = f"How many integers k with 1 <= k <= {top} have no common factor with {n} other than 1?"
            value = _coprime_up_to(n, top)
        elif kind == "coprime_range":
            n = _built(rng, 10**5)
            low = rng.randint(2, config.limit // 2)
            high = rng.randint(low + n, config.limit)
            question = f"How many integers k with {low} <= k <= {high} have no common factor with {n} other than 1?"
            value = _coprime_up_to(n, high) - _coprime_up_to(n, low - 1)
        else:
            n = _built(rng, 10**6)
            question = f"What is the sum of all integers k with 1 <= k <= {n} that have no common factor with {n} " \
                       "other than 1?"
            value = n * totient(n) // 2
        example = 24  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the count as a whole number, e.g. {example}."
        size = max(int(t) for t in re.findall(r"\d+", question))
        return Problem(prompt=prompt, answer=str(value), data={"kind": kind, "value": value, "n": n, "size": size})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(_PHI_LEAD_IN.sub("", answer.strip(), count=1), max_digits=30)
        if value is None:
            return Verdict.unparsed("not a whole number")
        return Verdict.judge(value == problem.data["value"], "wrong count")

    def difficulty(self, problem: Problem) -> float:
        """Digits of the largest number in the question, plus the distinct primes of n, plus the steps beyond
        the product formula (counting up to N 4, a range 6, a sum 5)."""
        n = problem.data["n"]
        extra = {"phi": 0, "reduced_fractions": 1, "coprime_count": 4, "coprime_range": 6, "coprime_sum": 5}[
            problem.data["kind"]]
        return float(len(str(problem.data["size"])) + len(factor(n)) + extra)

    def spellings(self, problem: Problem) -> list[str]:
        v = problem.data["value"]
        out = [*super().spellings(problem), f"\\boxed{{{v}}}", f"{v}.0", f"{v}."]
        if problem.data["kind"] == "phi":
            out.append(f"φ({problem.data['n']}) = {v}")
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


def _coprime_up_to(n: int, top: int) -> int:
    """How many k in [1, top] are coprime to n: inclusion-exclusion over the squarefree divisors of n."""
    return sum((-1) ** len(factor(d)) * (top // d) if d > 1 else top for d in _squarefree_divisors(n))
