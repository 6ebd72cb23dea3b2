"""Find the number from clues about its digits (digit sums, divisibility, comparisons, parity, order).

A target n-digit number is drawn; clues true of it are drawn from a grammar (its digit sum; its remainder on
division by k; one digit compared with another, or twice another; a digit's parity or primality; how many of
its digits are odd; all digits different or some repeated; the product of its digits; digits in increasing or
decreasing order; the number read backwards larger or smaller; a range it lies in) and added while each one
rules out more numbers, until the clues leave exactly one n-digit number. Uniqueness is proved by enumeration:
every n-digit number (leading digit non-zero) is checked against the clues with numpy. Then the clues are
pruned to a minimal set: each clue is dropped when the others still leave one number.

Version 2: every clue matters. Dropping any one clue leaves at least four numbers (``SPREAD``), and dropping a
range clue leaves some below and some above the target; a draw that fails this is drawn again. Before, a minimal
set often held a clue the others nearly implied, so a policy that skips one clue (the remainder, the product) and
picks one of the numbers the rest leave earned (per clue dropped, 40 seeds a level, levels 0-4): the smallest
0.31, 0.27, 0.28, 0.31, 0.24; the largest 0.18-0.24; the median 0.16-0.23; a random one 0.19-0.28 (a range
clue dropped left the target the smallest or largest 0.4 of the time). Now the smallest 0.11-0.15, the largest
0.05-0.21 (0.15 over 120 seeds at level 1), the median 0.07-0.18 and a random one 0.09-0.12, about the chance of a
guess among the nine to twelve numbers a dropped clue typically leaves.

The answer is that number. Levels grow the digits (3 to 5) and switch the clue grammar (the richer one needs
fewer clues); every n-digit number is
enumerated, so 5 digits (90,000 numbers) is the top. Difficulty: four per digit, plus the clues kept plus, for
each clue, how much it relates different digits (a comparison or a remainder counts more than a parity fact).

Generation speed: about 6 ms a problem at levels 3-4 (5 digits), 1 ms at levels 0-2, on this 2-core machine. A
draw takes about 25 candidate clues, each evaluated over every number of the level's length, keeping those that
narrow the numbers left until exactly one remains; then redundant clues are pruned with a count per removal (the
clues not yet tried combined once, from the end of the order), and the count each dropped clue would leave is
checked; one draw in six to eleven passes. The counting is what makes the answer unique and every clue needed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.numeric import read_integer

EXAMPLE = "4821"  # a fixed placeholder of the right shape: never derived from the answer
PLACE_NAMES = ("units", "tens", "hundreds", "thousands", "ten-thousands")
PRIMES = (2, 3, 5, 7)
CLUE_WEIGHT = {"sum": 2, "mod": 3, "compare": 2, "twice": 2, "parity": 1, "prime": 1, "odd_count": 2, "distinct": 1,
               "repeated": 1, "product": 3, "increasing": 2, "decreasing": 2, "reverse": 3, "range": 1}
# Dropping any one clue must leave at least this many numbers: a policy that skips a clue (the remainder, the product)
# and picks one of the numbers the others leave then guesses among several.
SPREAD = 4
BASIC = ("sum", "mod", "compare", "parity", "odd_count", "distinct", "range")
MORE = ("twice", "prime", "repeated", "product", "increasing", "decreasing", "reverse")

Clue = tuple[str, str, np.ndarray]  # (kind, text, mask over every n-digit number)


@dataclass(frozen=True)
class _Table:
    """Every n-digit number with the digit facts the clues test, computed once per n."""

    numbers: np.ndarray
    digits: np.ndarray  # column 0 is the units digit
    digit_sum: np.ndarray
    digit_product: np.ndarray
    odd_count: np.ndarray
    all_distinct: np.ndarray
    reversed_numbers: np.ndarray


@lru_cache(maxsize=4)
def _table(n: int) -> _Table:
    numbers = np.arange(10 ** (n - 1), 10**n, dtype=np.int64)
    digits = np.stack([(numbers // 10**i) % 10 for i in range(n)], axis=1)
    distinct = np.ones(len(numbers), dtype=bool)
    for i in range(n):
        for j in range(i + 1, n):
            distinct &= digits[:, i] != digits[:, j]
    # The facts are computed in 64 bits, then stored in the narrowest type that holds them (the clues compare
    # whole columns, and narrow ones compare faster); the digits column by column, as the clues read them.
    return _Table(numbers, np.asfortranarray(digits, dtype=np.int8), digits.sum(axis=1).astype(np.int8),
                  digits.prod(axis=1).astype(np.int32), (digits % 2).sum(axis=1).astype(np.int8), distinct,
                  (digits * (10 ** np.arange(n - 1, -1, -1))).sum(axis=1))


@lru_cache(maxsize=4)
def _digit_facts(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per n-digit number and digit place: the digit's parity, and whether it is prime (computed once per n)."""
    digits = _table(n).digits
    return np.asfortranarray(digits % 2), np.asfortranarray(np.isin(digits, PRIMES))


@lru_cache(maxsize=64)
def _remainders(n: int, k: int) -> np.ndarray:
    """Every n-digit number's remainder on division by ``k``, computed once per (n, k)."""
    return _table(n).numbers % k


def _place(i: int, n: int) -> str:
    if i == n - 1:
        return "the first (leading) digit"
    if i == 0:
        return "the last (units) digit"
    return f"the {PLACE_NAMES[i]} digit"


def _clue(kind: str, target: int, n: int, rng: random.Random) -> Clue | None:
    """A clue of ``kind`` true of ``target``, with its mask over every n-digit number; None if none fits."""
    table = _table(n)
    numbers, digits = table.numbers, table.digits
    t = [target // 10**i % 10 for i in range(n)]
    if kind == "sum":
        s = sum(t)
        return kind, f"Its digits add up to {s}.", table.digit_sum == s
    if kind == "mod":
        k = rng.randint(3, 13)
        r = target % k
        text = f"It is divisible by {k}." if r == 0 else f"Divided by {k}, it leaves remainder {r}."
        return kind, text, _remainders(n, k) == r
    if kind in ("compare", "twice"):
        i, j = rng.sample(range(n), 2)
        if kind == "twice":
            if t[i] != 2 * t[j] or t[j] == 0:
                return None
            return kind, f"{_place(i, n).capitalize()} is twice {_place(j, n)}.", digits[:, i] == 2 * digits[:, j]
        if t[i] == t[j]:
            return kind, f"{_place(i, n).capitalize()} equals {_place(j, n)}.", digits[:, i] == digits[:, j]
        if t[i] < t[j]:
            i, j = j, i
        return kind, f"{_place(i, n).capitalize()} is greater than {_place(j, n)}.", digits[:, i] > digits[:, j]
    if kind == "parity":
        i = rng.randrange(n)
        word = "even" if t[i] % 2 == 0 else "odd"
        return kind, f"{_place(i, n).capitalize()} is {word}.", _digit_facts(n)[0][:, i] == t[i] % 2
    if kind == "prime":
        i = rng.randrange(n)
        is_prime = t[i] in PRIMES
        mask = _digit_facts(n)[1][:, i].copy()  # a copy: the clue keeps its mask
        return kind, f"{_place(i, n).capitalize()} is {'a' if is_prime else 'not a'} prime number.", \
            mask if is_prime else ~mask
    if kind == "odd_count":
        c = sum(d % 2 for d in t)
        return kind, f"Exactly {c} of its digits {'is' if c == 1 else 'are'} odd.", table.odd_count == c
    if kind in ("distinct", "repeated"):
        distinct_mask = table.all_distinct
        if (len(set(t)) == n) != (kind == "distinct"):
            return None
        return (kind, "Its digits are all different.", distinct_mask) if kind == "distinct" else \
            (kind, "At least two of its digits are equal.", ~distinct_mask)
    if kind == "product":
        p = 1
        for d in t:
            p *= d
        text = "The product of its digits is 0 (it has a zero digit)." if p == 0 else \
            f"The product of its digits is {p}."
        return kind, text, table.digit_product == p
    if kind in ("increasing", "decreasing"):
        reading = t[::-1]  # from the leading digit
        pairs = list(zip(reading, reading[1:], strict=False))
        if kind == "increasing" and all(a < b for a, b in pairs):
            mask = np.all(digits[:, :-1] > digits[:, 1:], axis=1)
            return kind, "Read from left to right, its digits strictly increase.", mask
        if kind == "decreasing" and all(a > b for a, b in pairs):
            mask = np.all(digits[:, :-1] < digits[:, 1:], axis=1)
            return kind, "Read from left to right, its digits strictly decrease.", mask
        return None
    if kind == "reverse":
        reversed_numbers = table.reversed_numbers
        backwards = int(str(target)[::-1])
        if backwards == target:
            return kind, "It reads the same backwards (a palindrome).", reversed_numbers == numbers
        bigger = backwards > target
        text = f"Its digits read backwards make a {'larger' if bigger else 'smaller'} number."
        return kind, text, reversed_numbers > numbers if bigger else reversed_numbers < numbers
    # range
    low_end, high_end = 10 ** (n - 1), 10**n - 1
    width = rng.randint((high_end - low_end) // 5, (high_end - low_end) // 2)
    low = rng.randint(max(low_end, target - width), target)
    high = min(high_end, low + width)
    return kind, f"It lies between {low} and {high} (inclusive).", (numbers >= low) & (numbers <= high)


@register
class DigitPuzzle(Task):
    id = "sequences/digit_puzzle"
    family = "sequences"
    description = "Find the unique n-digit number that satisfies generated clues about its digits."
    tags = ("math", "logic", "puzzle")
    version = 2  # v2: dropping any clue leaves >= SPREAD numbers; a dropped range leaves some on both sides
    bounded = "uniqueness is proved by enumerating every n-digit number; 5 digits (90,000) is the largest kept fast"

    @dataclass(frozen=True)
    class Config:
        digits: int
        kinds: tuple[str, ...]

    # The richer grammar singles a number out with fewer clues, so each digit count comes first with it and then
    # with the basic clues alone (more clues to combine).
    presets = (Config(3, BASIC), Config(4, BASIC + MORE), Config(4, BASIC), Config(5, BASIC + MORE), Config(5, BASIC))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.digits
        numbers = _table(n).numbers

        def draw() -> tuple[int, list[Clue]] | None:
            target = rng.randint(10 ** (n - 1), 10**n - 1)
            alive = np.ones(len(numbers), dtype=bool)
            left = len(numbers)  # how many numbers the clues so far leave (counted, not summed: far faster)
            clues: list[Clue] = []
            for _ in range(60):
                clue = _clue(rng.choice(config.kinds), target, n, rng)
                if clue is None:
                    continue
                narrowed = alive & clue[2]
                narrowed_left = int(np.count_nonzero(narrowed))
                if narrowed_left < left:
                    clues.append(clue)
                    alive, left = narrowed, narrowed_left
                    if left == 1:
                        return target, _pruned(clues, rng)
            return None

        target, clues = retry(draw, lambda d: _every_clue_matters(d[1], d[0] - 10 ** (n - 1)), attempts=300,
                              what="clues that single out one number, each of them needed")
        listing = "\n".join(f"{i + 1}. {text}" for i, (_, text, _) in enumerate(clues))
        prompt = (f"Find the {n}-digit whole number (its first digit is not 0) that satisfies every one of these "
                  f"clues:\n\n{listing}\n\nExactly one {n}-digit number does. Give it in digits, for example: "
                  f"{EXAMPLE}")
        return Problem(prompt=prompt, answer=str(target),
                       data={"digits": n, "target": target, "clues": [[kind, text] for kind, text, _ in clues]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 200:
            return Verdict.unparsed("expected one whole number")
        found = read_integer(answer)
        if found is None:
            return Verdict.unparsed(f"expected one whole number in digits, such as {EXAMPLE}")
        if found != problem.data["target"]:
            return Verdict.wrong("that number breaks at least one clue" if 10 ** (problem.data["digits"] - 1) <= found
                                 < 10 ** problem.data["digits"] else f"not a {problem.data['digits']}-digit number")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Four per digit (the space searched grows tenfold), the clues, and each clue's weight (how many digits
        it ties together)."""
        clues = problem.data["clues"]
        return float(4 * problem.data["digits"] + len(clues) + sum(CLUE_WEIGHT[kind] for kind, _ in clues))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}",
                f"The number is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        target = problem.data["target"]
        return [str(target + 1), str(target - 1), str(target)[::-1] if str(target)[::-1] != str(target) else
                str(target + 10), f"{target} or {target + 1}"]


def _pruned(clues: list[Clue], rng: random.Random) -> list[Clue]:
    """A minimal subset of the clues that still leaves one number (each clue dropped when the rest suffice).

    The clues are tried in a random order; a clue is dropped when the clues kept so far and those not yet tried
    leave one number (the latter's combined mask is computed once, from the end of the order)."""
    order = list(range(len(clues)))
    rng.shuffle(order)
    untried = _suffixes([clues[i][2] for i in order])
    kept_mask = np.ones(len(clues[0][2]), dtype=bool)
    kept = set()
    for position, index in enumerate(order):
        if np.count_nonzero(kept_mask & untried[position + 1]) > 1:
            kept.add(index)
            kept_mask &= clues[index][2]
    return [clue for i, clue in enumerate(clues) if i in kept]


def _suffixes(masks: list[np.ndarray]) -> list[np.ndarray]:
    """``result[i]``: the numbers every mask from ``i`` on allows (``result[len(masks)]`` allows all)."""
    result = [np.ones(len(masks[0]), dtype=bool)]
    for mask in reversed(masks):
        result.append(result[-1] & mask)
    return result[::-1]


def _every_clue_matters(clues: list[Clue], at: int) -> bool:
    """Whether dropping any one clue leaves at least :data:`SPREAD` numbers, and dropping a range clue leaves some
    below and some above the target (number ``at`` in order; a range tends to cut off one side of the numbers the
    other clues leave, so without it the target would often be the smallest or the largest of them)."""
    after = _suffixes([mask for _, _, mask in clues])
    before = np.ones(len(clues[0][2]), dtype=bool)
    for i, (kind, _, mask) in enumerate(clues):
        others = before & after[i + 1]
        if kind == "range":
            left = np.flatnonzero(others)
            if len(left) < SPREAD or not left[0] < at < left[-1]:
                return False
        elif np.count_nonzero(others) < SPREAD:
            return False
        before &= mask
    return True
