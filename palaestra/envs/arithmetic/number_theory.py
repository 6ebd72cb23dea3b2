"""Mixed number-theory questions with an integer answer.

Kinds: ``a^b mod m``, a modular inverse, the gcd or lcm of several numbers,
the number or sum of divisors of ``n``, and a system of congruences (Chinese
remainder theorem). Higher levels use bigger numbers, more numbers and more kinds.
The gcd/lcm operands are built as multiples of a chosen common factor, so the
answer is rarely 1 and a constant guess scores little.

The verifier accepts any numeral equal to the integer answer (``42``, ``42.0``,
``84/2``) but never an expression, so a restated question earns nothing.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.numeric import parse_number

_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31)


@register
class NumberTheory(Task):
    id = "arithmetic/number_theory"
    family = "arithmetic"
    description = "Modular powers and inverses, gcd/lcm, divisor counts and sums, congruence systems."
    tags = ("math", "arithmetic", "number-theory")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # question kinds drawn uniformly
        max_value: int  # bound on the numbers in the question
        count: int  # operands of gcd/lcm; congruences of a CRT system (at least 2)
        max_exponent: int  # bound on b in a^b mod m
        max_modulus: int  # bound on the moduli of a CRT system

    def config(self, level: int) -> Config:
        basic = ("gcd", "lcm", "power_mod")
        more = basic + ("inverse", "divisors")
        every = more + ("divisor_sum", "crt")
        return [
            self.Config(kinds=basic, max_value=60, count=2, max_exponent=8, max_modulus=0),
            self.Config(kinds=more, max_value=300, count=2, max_exponent=40, max_modulus=0),
            self.Config(kinds=every, max_value=3_000, count=3, max_exponent=500, max_modulus=12),
            self.Config(kinds=every, max_value=50_000, count=3, max_exponent=10**5, max_modulus=40),
            self.Config(kinds=every, max_value=10**7, count=4, max_exponent=10**12, max_modulus=120),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value = _QUESTIONS[kind](rng, config)
        return Problem(
            prompt=f"{question}\n\nGive the answer as a single integer.",
            answer=str(value),
            data={"kind": kind, "value": str(value)},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = parse_number(answer)
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        return Verdict.judge(value == Fraction(int(problem.data["value"])), "wrong value")


def _multiples(rng: random.Random, config: NumberTheory.Config) -> tuple[list[int], int]:
    """``count`` distinct numbers <= max_value sharing a common factor chosen log-uniformly."""
    top = max(2, config.max_value // 4)
    factor = int(math.exp(rng.uniform(0, math.log(top))))
    limit = max(config.count + 1, config.max_value // factor)
    cofactors = rng.sample(range(1, limit + 1), config.count)
    return sorted(factor * c for c in cofactors), factor


def _gcd(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    numbers, _ = _multiples(rng, config)
    return f"Find the greatest common divisor of {_listing(numbers)}.", math.gcd(*numbers)


def _lcm(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    numbers, _ = _multiples(rng, config)
    return f"Find the least common multiple of {_listing(numbers)}.", math.lcm(*numbers)


def _power_mod(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    base = rng.randint(2, config.max_value)
    exponent = rng.randint(2, config.max_exponent)
    modulus = rng.randint(3, config.max_value)
    question = (
        f"Compute {base}^{exponent} mod {modulus}, the remainder when {base}^{exponent} is divided "
        f"by {modulus} (an integer from 0 to {modulus - 1})."
    )
    return question, pow(base, exponent, modulus)


def _inverse(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    modulus = rng.randint(5, config.max_value)
    base = modulus - 1  # always invertible; replaced by a random unit when one turns up quickly
    for _ in range(50):
        candidate = rng.randint(2, modulus - 2)
        if math.gcd(candidate, modulus) == 1:
            base = candidate
            break
    question = (
        f"Find the inverse of {base} modulo {modulus}: the integer x with 0 <= x < {modulus} "
        f"such that {base}*x leaves remainder 1 when divided by {modulus}."
    )
    return question, pow(base, -1, modulus)


def _factored(rng: random.Random, config: NumberTheory.Config) -> tuple[int, dict[int, int]]:
    """A number <= max_value built from small primes (so it has many divisors), with its factorisation."""
    n, exponents = 1, {}
    for _ in range(rng.randint(2, 12)):
        prime = rng.choice([p for p in _SMALL_PRIMES if p * p <= config.max_value * 4])
        if n * prime > config.max_value:
            break
        n *= prime
        exponents[prime] = exponents.get(prime, 0) + 1
    return n, exponents


def _divisors(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    n, exponents = _factored(rng, config)
    return f"How many positive divisors does {n} have?", math.prod(e + 1 for e in exponents.values())


def _divisor_sum(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    n, exponents = _factored(rng, config)
    total = math.prod((p ** (e + 1) - 1) // (p - 1) for p, e in sorted(exponents.items()))
    return f"What is the sum of all positive divisors of {n}, including 1 and {n} itself?", total


def _crt(rng: random.Random, config: NumberTheory.Config) -> tuple[str, int]:
    moduli: list[int] = []
    while len(moduli) < config.count:  # pairwise coprime, so the solution is unique modulo the product
        candidate = rng.randint(3, config.max_modulus)
        if all(math.gcd(candidate, m) == 1 for m in moduli):
            moduli.append(candidate)
    product = math.prod(moduli)
    x = rng.randrange(product)
    congruences = [f"x ≡ {x % m} (mod {m})" for m in moduli]
    question = (
        "Find the smallest non-negative integer x that satisfies all of these congruences "
        "(x ≡ r (mod m) means x leaves remainder r when divided by m):\n" + "\n".join(congruences)
    )
    return question, x


def _listing(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


_QUESTIONS = {
    "gcd": _gcd,
    "lcm": _lcm,
    "power_mod": _power_mod,
    "inverse": _inverse,
    "divisors": _divisors,
    "divisor_sum": _divisor_sum,
    "crt": _crt,
}
