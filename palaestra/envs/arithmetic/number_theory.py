"""Mixed number-theory questions with an integer answer.

Kinds: ``a^b mod m``, a modular inverse, the gcd or lcm of several numbers,
the number or sum of divisors of ``n``, and a system of congruences (Chinese
remainder theorem). Higher levels use bigger numbers, more numbers and more kinds.
The gcd/lcm operands are built as multiples of a chosen common factor, so the
answer is rarely 1 and a constant guess scores little (version 4 drew the factor
log-uniformly from 1 up, which made it 1 for a quarter of the gcd questions at level 0:
"1" then answered 12% of that level; version 5 draws it from 2 up, and 1 only for one
gcd question in twenty). Version 6 draws the factor uniformly where it is at most 100
(log-uniform from 2 to 15 made it 2 in a fifth of level 0's gcd questions) and the cofactors from 2, so
the gcd is never the smallest number nor the lcm the largest (13-17% at levels 0-1); draws a divisor
count first, uniformly among those many numbers up to the level's bound have, then a number with it
("8" answered a third of level 1's divisor questions); and keeps a power's remainder of 0 or 1 in a
quarter of the draws ("0" and "1" answered 24% of level 0's powers).

The verifier accepts any numeral equal to the integer answer (``42``, ``42.0``,
``84/2``, ``(42)``, ``\\boxed{42}``, ``x = 42``, ``42. Done.``; a divisor count also as
``12 divisors``) but never an expression, so a restated question earns nothing, and never another
member of the residue class
(``42 + m`` where the remainder modulo m is asked).
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.arithmetic.common import is_prime, primes_below
from palaestra.verifiers.numeric import read_exact

_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31)
COPRIME_SHARE = 0.05  # gcd/lcm questions whose numbers are coprime (gcd 1)
UNIFORM_FACTORS_UP_TO = 100  # gcds up to it are drawn uniformly, larger ones log-uniformly
MIN_COFACTORS = 25  # gcd/lcm cofactors range over at least this many values, so small levels have many problems
RARE_RESIDUE_KEEP = 0.25  # a^b mod m drawn as 0 or 1 is kept with this probability (v5: "0" answered 14% at level 0)
DIVISOR_SLACK = 16  # a divisor count is asked only where its smallest number is at most the bound / DIVISOR_SLACK
MIN_PRIME_POWERS = 19  # ... and, where only a prime power has it (p^4: 5), where p can exceed this (so many numbers do)
MAX_DIVISOR_COUNT = 1024
SMALL_PRIMES_BELOW = 1000  # primes below it are listed; above it a random number is tested (Miller-Rabin)
# effort beyond the arithmetic on the numbers themselves: a CRT system needs several steps, a gcd one algorithm
_KIND_STEPS = {"gcd": 1, "lcm": 2, "divisors": 2, "power_mod": 3, "inverse": 3, "divisor_sum": 3, "crt": 4}


@register
class NumberTheory(Task):
    id = "arithmetic/number_theory"
    family = "arithmetic"
    description = "Modular powers and inverses, gcd/lcm, divisor counts and sums, congruence systems."
    tags = ("math", "arithmetic", "number-theory")
    version = 6  # v6: divisor counts drawn first; powers' remainders 0 and 1 thinned; gcd/lcm cofactors from 2,
    # small gcds uniform
    # v5: the gcd is 1 for 5% of gcd/lcm questions, not up to 26% ("1" paid 12% at level 0)

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
    # Operands, values and moduli stop at level 20's (version 4): an lcm of 40 operands (level 40) ran to 281
    # digits, past what the answer reader takes (200), and the reference itself was refused at 12 seeds in 200.
    growth = Growth(limits={"count": 20, "max_value": 169_200_000, "max_modulus": 1_400})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value, numbers, modulus = _QUESTIONS[kind](rng, config)
        example = 12  # a fixed placeholder: independent of the answer
        return Problem(
            prompt=f"{question}\n\nGive the answer as a single integer in digits, e.g. {example}.",
            answer=str(value),
            data={"kind": kind, "value": str(value), "numbers": numbers, "modulus": modulus},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        # a divisor count may name its unit ("12 divisors", "There are 12 positive divisors."), as a grader lets it
        units = ("divisors", "positive divisors") if problem.data["kind"] == "divisors" else None
        value = read_exact(answer, units=units, max_digits=200)
        if value is None:
            return Verdict.unparsed("the answer is not a number")
        return Verdict.judge(value == Fraction(int(problem.data["value"])), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Digits of the numbers the question works on plus the steps its kind needs."""
        digits = sum(len(str(n)) for n in problem.data["numbers"])
        return float(digits + _KIND_STEPS[problem.data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        value = int(problem.data["value"])
        spellings = [*super().spellings(problem), f"({value})", f"\\boxed{{{value}}}", f"{value}.0", f"${value}$",
                     f"x = {value}", f"{value}.", f"The answer is {value}.", f"{3 * value}/3"]
        if value >= 1000:
            spellings.append(f"{value:,}")
        return spellings

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.data["value"])
        wrong = [*super().corruptions(problem, rng), f"{value}.001", f"{value} or {value + 1}", f"{value + 1}"]
        if problem.data["modulus"]:  # the same residue class, but not the remainder asked for
            wrong.append(str(value + problem.data["modulus"]))
        return wrong


Question = tuple[str, int, list[int], int]  # text, answer, the numbers it works on, modulus of the answer (0: none)


def _multiples(rng: random.Random, config: NumberTheory.Config) -> list[int]:
    """``count`` distinct numbers whose gcd is a factor chosen log-uniformly from 2 up (uniformly where it is at
    most UNIFORM_FACTORS_UP_TO: log-uniform from 2 to 15, level 0's, made it 2 in a fifth of the gcd questions),
    1 in a share :data:`COPRIME_SHARE` of draws, so a guess of 1 rarely pays.

    The cofactors are coprime and range from 2 up to ``max_value // factor`` (at least
    ``MIN_COFACTORS``, and at least ``count``: far levels ask for more operands than that), so
    different draws rarely give the same numbers.
    """
    top = max(2, config.max_value // 4)
    coprime = rng.random() < COPRIME_SHARE
    if coprime:
        factor = 1
    elif top <= UNIFORM_FACTORS_UP_TO:
        factor = rng.randint(2, top)
    else:
        factor = min(top, int(math.exp(rng.uniform(math.log(2), math.log(top + 1)))))
    limit = max(MIN_COFACTORS, config.count, config.max_value // factor)
    # cofactors from 2 (v5: from 1, and the gcd was the smallest number, the lcm the largest, in 13-17% at levels 0-1)
    cofactors = retry(lambda: rng.sample(range(2, limit + 2), config.count), lambda c: math.gcd(*c) == 1,
                      what="coprime cofactors")
    return sorted(factor * c for c in cofactors)


def _gcd(rng: random.Random, config: NumberTheory.Config) -> Question:
    numbers = _multiples(rng, config)
    return f"Find the greatest common divisor of {_listing(numbers)}.", math.gcd(*numbers), numbers, 0


def _lcm(rng: random.Random, config: NumberTheory.Config) -> Question:
    numbers = _multiples(rng, config)
    return f"Find the least common multiple of {_listing(numbers)}.", math.lcm(*numbers), numbers, 0


def _power_mod(rng: random.Random, config: NumberTheory.Config) -> Question:
    def draw() -> tuple[int, int, int] | None:
        base, exponent = rng.randint(2, config.max_value), rng.randint(2, config.max_exponent)
        modulus = rng.randint(3, config.max_value)
        # a remainder of 0 or 1 is kept in a share RARE_RESIDUE_KEEP of draws (v5 kept all: "0" answered 14% of level
        # 0's powers, a small modulus dividing a power of a small base)
        if pow(base, exponent, modulus) in (0, 1) and rng.random() >= RARE_RESIDUE_KEEP:
            return None
        return base, exponent, modulus

    base, exponent, modulus = retry(draw, what="a power with a remainder other than 0 or 1", attempts=60)
    question = (
        f"Compute {base}^{exponent} mod {modulus}, the remainder when {base}^{exponent} is divided "
        f"by {modulus} (an integer from 0 to {modulus - 1})."
    )
    return question, pow(base, exponent, modulus), [base, exponent, modulus], modulus


def _inverse(rng: random.Random, config: NumberTheory.Config) -> Question:
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
    return question, pow(base, -1, modulus), [base, modulus], modulus


def _factored(rng: random.Random, config: NumberTheory.Config) -> tuple[int, dict[int, int]]:
    """A number <= 10 * max_value with its factorisation: a product of small primes (so it has many
    divisors) times a random cofactor (so there are many such numbers)."""
    smooth = 1
    for _ in range(rng.randint(2, 12)):
        prime = rng.choice([p for p in _SMALL_PRIMES if p * p <= config.max_value * 4])
        if smooth * prime > config.max_value:
            break
        smooth *= prime
    n = smooth * rng.randint(1, max(2, 10 * config.max_value // smooth))
    return n, _factorisation(n)


def _factorisation(n: int) -> dict[int, int]:
    """``{prime: exponent}`` by trial division (n is at most 10^8 here)."""
    exponents: dict[int, int] = {}
    divisor = 2
    while divisor * divisor <= n:
        while n % divisor == 0:
            exponents[divisor] = exponents.get(divisor, 0) + 1
            n //= divisor
        divisor += 1
    if n > 1:
        exponents[n] = exponents.get(n, 0) + 1
    return exponents


def _divisors(rng: random.Random, config: NumberTheory.Config) -> Question:
    n, exponents = _with_divisor_count(rng, 10 * config.max_value)
    return f"How many positive divisors does {n} have?", math.prod(e + 1 for e in exponents.values()), [n], 0


@functools.cache
def _exponent_patterns(count: int, largest: int) -> tuple[tuple[int, ...], ...]:
    """The exponent tuples (non-increasing) of the numbers with ``count`` divisors: count = prod(e + 1)."""
    if count == 1:
        return ((),)
    return tuple((factor - 1, *rest) for factor in range(min(count, largest), 1, -1) if count % factor == 0
            for rest in _exponent_patterns(count // factor, factor))


@functools.cache
def _divisor_counts(bound: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The divisor counts asked for numbers up to ``bound``, each with its exponent patterns: those whose smallest
    number (the smallest primes, the largest exponent on 2) is at most bound / DIVISOR_SLACK, and, for a lone prime
    power, whose prime can exceed MIN_PRIME_POWERS, so that every count has many numbers."""
    counts = {}
    for count in range(2, MAX_DIVISOR_COUNT + 1):
        patterns = tuple(pattern for pattern in _exponent_patterns(count, count)
                         if len(pattern) <= len(_SMALL_PRIMES)
                         and math.prod(p ** e for p, e in zip(_SMALL_PRIMES, pattern)) * DIVISOR_SLACK <= bound
                         and (len(pattern) > 1 or MIN_PRIME_POWERS ** pattern[0] <= bound))
        if patterns:
            counts[count] = patterns
    return counts


def _random_prime(rng: random.Random, cap: int, used: list[int]) -> int | None:
    """A prime from 2 to ``cap`` not in ``used``, about uniformly; None where none turns up."""
    if cap < SMALL_PRIMES_BELOW:
        free = [p for p in primes_below(cap + 1) if p not in used]
        return rng.choice(free) if free else None
    for _ in range(400):  # primes near 2 * 10^9 are one number in 21: 400 draws miss with odds 10^-8
        candidate = rng.randint(2, cap)
        if candidate not in used and is_prime(candidate):
            return candidate
    return None


def _with_divisor_count(rng: random.Random, bound: int) -> tuple[int, dict[int, int]]:
    """A number <= ``bound`` with its factorisation, drawn by its divisor count first (uniformly among
    :func:`_divisor_counts`), then an exponent pattern with that count, then distinct primes for it: v5 drew the
    number first, and "8" answered a third of level 1's divisor questions."""
    counts = _divisor_counts(bound)
    pattern = list(rng.choice(counts[rng.choice(sorted(counts))]))

    def draw() -> tuple[int, dict[int, int]] | None:
        rng.shuffle(pattern)
        n = 1
        exponents: dict[int, int] = {}
        for index, exponent in enumerate(pattern):
            spare = [p for p in _SMALL_PRIMES if p not in exponents]
            rest = math.prod(p ** e for p, e in zip(spare, sorted(pattern[index + 1:], reverse=True)))
            cap = int((bound / (n * rest)) ** (1 / exponent))
            prime = _random_prime(rng, cap, list(exponents)) if cap >= 2 else None
            if prime is None:
                return None
            exponents[prime] = exponent
            n *= prime ** exponent
        return (n, exponents) if n <= bound else None

    return retry(draw, what="a number with the drawn divisor count", attempts=50)


def _divisor_sum(rng: random.Random, config: NumberTheory.Config) -> Question:
    n, exponents = _factored(rng, config)
    total = math.prod((p ** (e + 1) - 1) // (p - 1) for p, e in sorted(exponents.items()))
    return f"What is the sum of all positive divisors of {n}, including 1 and {n} itself?", total, [n], 0


def _crt(rng: random.Random, config: NumberTheory.Config) -> Question:
    moduli: list[int] = []
    for _ in range(config.count):  # pairwise coprime, so the solution is unique modulo the product
        moduli.append(retry(lambda: rng.randint(3, config.max_modulus),
                            lambda m: all(math.gcd(m, other) == 1 for other in moduli), what="a coprime modulus"))
    product = math.prod(moduli)
    x = rng.randrange(product)
    congruences = [f"x ≡ {x % m} (mod {m})" for m in moduli]
    question = (
        "Find the smallest non-negative integer x that satisfies all of these congruences "
        "(x ≡ r (mod m) means x leaves remainder r when divided by m):\n" + "\n".join(congruences)
    )
    return question, x, [*(x % m for m in moduli), *moduli], product


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
