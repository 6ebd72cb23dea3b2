"""Write a whole number as a product of primes.

Level 0 draws any composite number below 1,000 (a finite space, sampled uniformly);
higher levels multiply more primes drawn from larger pools (up to 8 primes below
10,000 at level 4, two of them above 1,000), so the last factors need real primality
checks.

The answer is any product equal to the number whose bases are all prime: prime powers
in any order and notation (``2^3 × 3^2 × 5``, ``2**3 * 3**2 * 5``, ``2^{3} \\cdot 3^{2} \\cdot 5``,
``2³·3²·5``, bracketed factors side by side ``(2^3)(3^2)(5)``), repeated primes (``2 × 2 × 2 × 3 × 3 × 5``), the
number named before or after (``360 = ...``, ``... = 360``; another number there is unreadable), or the primes as a
list with repetition (``2, 2, 2, 3, 3, 5``). A composite base (``4 × 90``), a factor ``1``, or a product that misses
the number is wrong.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.arithmetic.common import is_prime, primes_below
from palaestra.verifiers.normalize import enclosed, read_answer, simplify_latex, split_top_level, unify

MAX_FACTORS = 200
MAX_EXPONENT = 200
_TIMES = re.compile(r"\s*(?:×|(?<!\*)\*(?!\*)|·|⋅|\\cdot|\\times|(?<=\s)x(?=\s))\s*")
_COMMA = re.compile(r"\s*,\s*")
_POWER = re.compile(r"(\d{1,40})\s*(?:\^|\*\*)\s*(?:\{\s*(\d{1,4})\s*\}|\(\s*(\d{1,4})\s*\)|(\d{1,4}))")
_SUPERSCRIPT_POWER = re.compile("(\\d{1,40})([⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4})")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_LEAD_IN = re.compile(r"^(\d{1,40}|n|N)\s*=\s*")
_SIDE_BY_SIDE = re.compile(r"\)\s*(?=\()")  # (3^3)(37): brackets side by side multiply
_EXAMPLE = "2^2 × 3 × 7"


@cache
def _composites_below(limit: int) -> tuple[int, ...]:
    return tuple(n for n in range(4, limit) if not is_prime(n))


@register
class PrimeFactorization(Task):
    id = "arithmetic/prime_factorization"
    version = 2
    family = "arithmetic"
    description = "Write a whole number as a product of prime powers."
    tags = ("math", "arithmetic", "number-theory")

    @dataclass(frozen=True)
    class Config:
        below: int  # level 0: any composite below this; otherwise unused (0)
        factors: tuple[int, int]  # how many prime factors, with repetition
        pool: int  # primes are drawn below this
        large: tuple[int, int]  # at least large[0] of them at or above large[1]
        max_value: int

    presets = (
        Config(below=1_000, factors=(2, 9), pool=0, large=(0, 0), max_value=999),
        Config(below=0, factors=(4, 6), pool=100, large=(0, 0), max_value=10**7),
        Config(below=0, factors=(4, 6), pool=300, large=(1, 50), max_value=10**8),
        Config(below=0, factors=(4, 7), pool=1_000, large=(1, 100), max_value=10**10),
        Config(below=0, factors=(5, 8), pool=10_000, large=(2, 1_000), max_value=10**14),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def space_size(self, level: int) -> int | None:
        below = self.level_config(level).below
        return len(_composites_below(below)) if below else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if config.below:
            n = rng.choice(_composites_below(config.below))
            primes = _factor(n)
        else:
            primes = retry(lambda: _draw(rng, config), lambda ps: math.prod(ps) <= config.max_value,
                           what="primes with a small enough product")
            n = math.prod(primes)
        exponents = {p: primes.count(p) for p in sorted(set(primes))}
        example = _EXAMPLE  # a fixed placeholder: independent of the answer
        prompt = (
            f"Write the prime factorization of {n}.\n\n"
            f"Give it as a product of primes, using powers for repeated primes, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=_product(exponents),
                       data={"n": n, "factors": {str(p): k for p, k in exponents.items()}})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        factors = read_answer(answer, lambda text: _read_factors(text, problem.data["n"]))
        if factors is None:
            return Verdict.unparsed("not a product of numbers (write it like 2^3 × 3 × 5)")
        product = 1
        for base, exponent in factors:
            if product > problem.data["n"]:
                return Verdict.wrong("the product is larger than the number")
            product *= base**exponent
        if product != problem.data["n"]:
            return Verdict.wrong("the product is not the number")
        composite = [base for base, _ in factors if not is_prime(base)]
        return Verdict.judge(not composite, f"{composite[:1]} is not prime" if composite else "")

    def difficulty(self, problem: Problem) -> float:
        """Prime factors counted with repetition, plus the digits of each distinct prime (trial division work)."""
        factors = problem.data["factors"]
        return float(sum(factors.values()) + sum(len(p) for p in factors))

    def spellings(self, problem: Problem) -> list[str]:
        exponents = {int(p): k for p, k in problem.data["factors"].items()}
        n = problem.data["n"]
        flat = [p for p, k in exponents.items() for _ in range(k)]
        items = list(exponents.items())
        latex = " \\times ".join(f"{p}^{k}" if k > 1 else str(p) for p, k in items)
        return [
            *super().spellings(problem),
            " * ".join(f"{p}**{k}" if k > 1 else str(p) for p, k in items),
            " \\cdot ".join(f"{p}^{{{k}}}" if k > 1 else str(p) for p, k in reversed(items)),
            f"{n} = {problem.answer}",
            " × ".join(map(str, flat)),
            ", ".join(map(str, flat)),
            f"${latex}$",
            "·".join(f"{p}{str(k).translate(str.maketrans('0123456789', '⁰¹²³⁴⁵⁶⁷⁸⁹'))}" if k > 1 else str(p)
                     for p, k in items),
            f"{problem.answer}.",
            f"({problem.answer})",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        exponents = {int(p): k for p, k in problem.data["factors"].items()}
        items = list(exponents.items())
        p, k = items[0]
        bumped = [(p, k + 1), *items[1:]]
        wrong = [_product(dict(bumped)), " × ".join(str(q) for q, _ in items)]
        if len(items) > 1:
            wrong.append(f"{p ** k * items[1][0]} × " + _product(dict([(items[1][0], items[1][1] - 1), *items[2:]])))
        if k > 1 or len(items) > 1:
            wrong.append(_product(dict(items[1:] if k == 1 else [(p, k - 1), *items[1:]])) + f" × {p * p}")
        wrong.append(f"1 × {problem.answer}")
        wrong.append(f"{problem.answer} × {_next_prime(max(exponents))}")
        return [w for w in wrong if w.strip() and w != problem.answer]


def _factor(n: int) -> list[int]:
    primes, d = [], 2
    while d * d <= n:
        while n % d == 0:
            primes.append(d)
            n //= d
        d += 1
    return primes + ([n] if n > 1 else [])


@cache
def _pools(config: PrimeFactorization.Config) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(primes at or above the large bound, the others) of the config's pool."""
    pool = primes_below(config.pool)
    return tuple(p for p in pool if p >= config.large[1]), tuple(p for p in pool if p < config.large[1])


def _draw(rng: random.Random, config: PrimeFactorization.Config) -> list[int]:
    """The required large primes, then the rest from the primes below the large bound (all of the pool
    when there is none): products of several large primes would mostly overshoot the bound."""
    large, small = _pools(config)
    count = config.large[0]
    k = rng.randint(*config.factors)
    primes = [rng.choice(large) for _ in range(count)]
    primes += [rng.choice(small or large) for _ in range(k - count)]
    return sorted(primes)


def _next_prime(n: int) -> int:
    candidate = n + 1
    while not is_prime(candidate):  # bounded: a prime lies between n and 2n
        candidate += 1
    return candidate


def _product(exponents: dict[int, int]) -> str:
    return " × ".join(f"{p}^{k}" if k > 1 else str(p) for p, k in sorted(exponents.items()) if k > 0)


def _read_factor(text: str) -> tuple[int, int] | None:
    s = text.strip().strip("()").strip()
    if s.isascii() and s.isdigit() and len(s) <= 40:
        return int(s), 1
    match = _POWER.fullmatch(s)
    if match:
        exponent = int(next(g for g in match.groups()[1:] if g is not None))
        return (int(match.group(1)), exponent) if 1 <= exponent <= MAX_EXPONENT else None
    match = _SUPERSCRIPT_POWER.fullmatch(s)
    if match:
        exponent = int(match.group(2).translate(_SUPERSCRIPTS))
        return (int(match.group(1)), exponent) if 1 <= exponent <= MAX_EXPONENT else None
    return None


def _read_factors(text: str, n: int) -> list[tuple[int, int]] | None:
    if len(text) > 4_000:
        return None
    s = simplify_latex(unify(text)).replace("$", "").strip()
    named = (str(n), "n", "N")  # the number may be named before or after the product, never another number
    lead = _LEAD_IN.match(s)
    if lead is not None and lead.group(1) in named:
        s = s[lead.end():]
    product, equals, stated = s.rpartition("=")
    if equals and stated.strip() in named:
        s = product.strip()
    s = _SIDE_BY_SIDE.sub(") × ", s)
    if enclosed(s, "(["):
        s = s[1:-1].strip()
    separator = _TIMES if _TIMES.search(s) or "," not in s else _COMMA
    pieces = split_top_level(s, separator, limit=MAX_FACTORS)
    if len(pieces) > MAX_FACTORS:
        return None
    factors = [_read_factor(piece) for _, piece in pieces]
    if any(f is None for f in factors):
        return None
    return factors  # type: ignore[return-value]
