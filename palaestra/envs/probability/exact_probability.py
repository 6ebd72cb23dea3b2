"""Exact probabilities of events with dice, coins, urns and playing cards.

Four settings, mixed at every level: fair dice (sums, maxima, all different, at least
one of a value, an even product), coins (possibly biased: exactly or at least k heads,
no two heads in a row, more heads than tails), urns with coloured balls drawn with or
without replacement (exactly k of a colour, all one colour, one of each colour, an
ordered pair of colours), and cards from a standard 52-card deck (exactly k of a suit,
at least one ace, all one suit, all ranks different). More dice, coins, draws and
colours, biased coins and harder events come with the levels.

Dice and coin probabilities are counted by enumerating every outcome at generation;
urn and card probabilities by summing exact multivariate hypergeometric (or
multinomial) terms over the count vectors. The answer is the exact probability in any
exact spelling (``5/36``, ``10/72``, ``\\frac{5}{36}``, ``0.25`` when it terminates);
a rounded decimal is wrong.

Version 3: the three-ticket question "that two of the numbers drawn are consecutive integers" also reads as
"exactly two of them" (a run of three not counting), which changes the answer (13 tickets 14-26: 11/26 counting
runs of three, 5/13 without); it now asks that some two of the three are consecutive, a run of three counting
too, and the two-ticket question that the two numbers drawn are. Such questions were 2.2-2.8% of problems at
levels 2-4 (400 seeds a level); nothing else a seed draws changes.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.probability.common import exact_corruptions, exact_spellings, example_for, verdict_exact
from palaestra.verifiers.rationals import format_fraction

_COLOURS = ("red", "blue", "green", "white", "black")
_SUITS = ("hearts", "diamonds", "clubs", "spades", "stars", "moons")
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

Scenario = tuple[str, Fraction, int, int]  # question, probability, outcomes considered, event weight


@register
class ExactProbability(Task):
    id = "probability/exact_probability"
    version = 3  # v3: the three-ticket "consecutive" question says that any two count (v2 also read as exactly two)
    family = "probability"
    description = "Exact probability of an event with dice, coins, urns or cards."
    tags = ("math", "probability", "combinatorics")

    @dataclass(frozen=True)
    class Config:
        settings: tuple[str, ...]  # drawn uniformly
        dice: tuple[int, int]  # how many dice
        coins: tuple[int, int]  # how many coin tosses
        biased: bool  # coins may be biased
        urn_colours: tuple[int, int]
        draws: tuple[int, int]  # balls or cards drawn
        hard_events: bool  # the harder event kinds too

    def config(self, level: int) -> Config:
        basic, every = ("dice", "urn", "tickets"), ("dice", "urn", "tickets", "coins", "cards")
        return [
            self.Config(basic, dice=(2, 2), coins=(0, 0), biased=False, urn_colours=(2, 3), draws=(1, 2),
                        hard_events=False),
            self.Config(every, dice=(2, 3), coins=(4, 7), biased=True, urn_colours=(2, 3), draws=(2, 3),
                        hard_events=False),
            self.Config(every, dice=(3, 3), coins=(5, 8), biased=True, urn_colours=(3, 3), draws=(2, 4),
                        hard_events=True),
            self.Config(every, dice=(3, 4), coins=(6, 10), biased=True, urn_colours=(3, 4), draws=(3, 5),
                        hard_events=True),
            self.Config(every, dice=(4, 4), coins=(8, 12), biased=True, urn_colours=(4, 5), draws=(4, 6),
                        hard_events=True),
        ][level]
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 4 to 5)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        setting = rng.choice(config.settings)
        question, value, outcomes, weight = retry(lambda: _SETTINGS[setting](rng, config), lambda s: 0 < s[1] < 1,
                                                  what="an event that is neither certain nor impossible")
        prompt = (
            f"{question}\n\nGive the probability as an exact fraction, e.g. {example_for(value)}."
        )
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "setting": setting, "value": format_fraction(value), "outcomes": outcomes, "weight": weight,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return verdict_exact(answer, Fraction(problem.data["value"]))

    def difficulty(self, problem: Problem) -> float:
        """Bits of the outcome space considered plus the event's weight (1 simple, 2 compound, 3 hardest)."""
        return math.log2(problem.data["outcomes"]) + 2 * problem.data["weight"]

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *exact_spellings(Fraction(problem.data["value"]))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return [*super().corruptions(problem, rng), *exact_corruptions(Fraction(problem.data["value"]), rng)]


def _count(outcomes: list[tuple[int, ...]], event: Callable[[tuple[int, ...]], bool]) -> Fraction:
    return Fraction(sum(1 for o in outcomes if event(o)), len(outcomes))


def _dice(rng: random.Random, config: ExactProbability.Config) -> Scenario:
    k = rng.randint(*config.dice)
    top = {2: 20, 3: 12, 4: 9, 5: 6}[k]
    sides = [rng.randint(4, top) for _ in range(k)]
    if rng.random() < 0.3:
        sides = [sides[0]] * k
    outcomes = list(itertools.product(*(range(1, s + 1) for s in sides)))
    kinds = ["sum", "at_least_sum", "one_value", "all_at_most"] + (["difference", "first_larger"] if k == 2 else [])
    if config.hard_events:
        kinds += ["max", "distinct", "product_multiple", "sum_multiple"]
    kind = rng.choice(kinds)
    if len(set(sides)) == 1:
        dice = f"{_NUMBER_WORDS[k]} fair {sides[0]}-sided dice (faces numbered 1 to {sides[0]})"
    else:
        dice = f"{_NUMBER_WORDS[k]} fair dice with {_listing([str(s) for s in sides])} faces (each numbered from 1)"
    lead = f"You roll {dice}."
    smallest, total = min(sides), sum(sides)
    if kind == "sum":
        t = rng.randint(k + 1, total - 1)
        return f"{lead} What is the probability that the sum is exactly {t}?", \
            _count(outcomes, lambda o: sum(o) == t), len(outcomes), 1
    if kind == "at_least_sum":
        t = rng.randint(k + 1, total - 1)
        return f"{lead} What is the probability that the sum is at least {t}?", \
            _count(outcomes, lambda o: sum(o) >= t), len(outcomes), 1
    if kind == "one_value":
        v = rng.randint(1, smallest)
        return f"{lead} What is the probability that at least one die shows {v}?", \
            _count(outcomes, lambda o: v in o), len(outcomes), 1
    if kind == "all_at_most":
        m = rng.randint(2, max(sides) - 1)
        return f"{lead} What is the probability that every die shows {m} or less?", \
            _count(outcomes, lambda o: max(o) <= m), len(outcomes), 1
    if kind == "difference":
        d = rng.randint(1, max(sides) - 2)
        return f"{lead} What is the probability that the two numbers differ by exactly {d}?", \
            _count(outcomes, lambda o: abs(o[0] - o[1]) == d), len(outcomes), 1
    if kind == "first_larger":
        return (f"You roll {dice}, the first ({sides[0]} faces) red and the second ({sides[1]} faces) blue. What "
                "is the probability that the red die shows a larger number than the blue one?"), \
            _count(outcomes, lambda o: o[0] > o[1]), len(outcomes), 1
    if kind == "max":
        m = rng.randint(2, max(sides))
        return f"{lead} What is the probability that the largest number shown is exactly {m}?", \
            _count(outcomes, lambda o: max(o) == m), len(outcomes), 2
    if kind == "distinct":
        j = rng.randint(2, k)
        what = "all the dice show different numbers" if j == k else f"exactly {j} different numbers come up"
        return f"{lead} What is the probability that {what}?", \
            _count(outcomes, lambda o: len(set(o)) == j), len(outcomes), 2
    if kind == "product_multiple":
        m = rng.randint(2, 6)
        return f"{lead} What is the probability that the product of the numbers shown is a multiple of {m}?", \
            _count(outcomes, lambda o: math.prod(o) % m == 0), len(outcomes), 2
    m = rng.randint(3, 7)
    return f"{lead} What is the probability that the sum is a multiple of {m}?", \
        _count(outcomes, lambda o: sum(o) % m == 0), len(outcomes), 2


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def _coins(rng: random.Random, config: ExactProbability.Config) -> Scenario:
    n = rng.randint(*config.coins)
    p = Fraction(1, 2)
    if config.biased:
        denominator = rng.randint(2, 12)
        p = Fraction(rng.randint(1, denominator - 1), denominator)
    coin = "a fair coin" if p == Fraction(1, 2) else \
        f"a biased coin (heads with probability {format_fraction(p)})"
    kinds = ["exactly", "at_least", "at_most"] + (["no_run", "more_heads", "run"] if config.hard_events else [])
    kind = rng.choice(kinds)
    outcomes = list(itertools.product((0, 1), repeat=n))
    # an outcome with h heads has probability a^h (b - a)^(n - h) / b^n for p = a/b: integer weights
    # summed exactly, divided once (Fraction arithmetic per outcome dominated generation)
    a, b = p.numerator, p.denominator
    weights = [a**heads * (b - a) ** (n - heads) for heads in range(n + 1)]

    def prob(event: Callable[[tuple[int, ...]], bool]) -> Fraction:
        return Fraction(sum(weights[sum(o)] for o in outcomes if event(o)), b**n)

    lead = f"You toss {coin} {n} times."
    if kind == "exactly":
        k = rng.randint(1, n - 1)
        return f"{lead} What is the probability of exactly {k} heads?", prob(lambda o: sum(o) == k), 2**n, 1
    if kind == "at_least":
        k = rng.randint(1, n - 1)
        return f"{lead} What is the probability of at least {k} heads?", prob(lambda o: sum(o) >= k), 2**n, 1
    if kind == "at_most":
        k = rng.randint(1, n - 1)
        return f"{lead} What is the probability of at most {k} heads?", prob(lambda o: sum(o) <= k), 2**n, 1
    if kind == "no_run":
        r = rng.randint(2, 4)
        return f"{lead} What is the probability that heads never come up {r} times in a row?", \
            prob(lambda o: "1" * r not in "".join(map(str, o))), 2**n, 3
    if kind == "more_heads":
        d = rng.randint(1, 4)
        return f"{lead} What is the probability that the heads outnumber the tails by at least {d}?", \
            prob(lambda o: 2 * sum(o) - n >= d), 2**n, 2
    r = rng.randint(3, max(3, n // 2))
    return f"{lead} What is the probability of a run of at least {r} heads in a row somewhere?", \
        prob(lambda o: "1" * r in "".join(map(str, o))), 2**n, 3


def _count_vectors(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)]
    return [(first, *rest) for first in range(total + 1) for rest in _count_vectors(total - first, parts - 1)]


def _urn(rng: random.Random, config: ExactProbability.Config) -> Scenario:
    colours = _COLOURS[: rng.randint(*config.urn_colours)]
    counts = [rng.randint(1, 15) for _ in colours]
    n = rng.randint(*config.draws)
    replace = n > 1 and rng.random() < 0.35
    total = sum(counts)
    vectors = _count_vectors(n, len(colours))

    def prob(event: Callable[[tuple[int, ...]], bool]) -> Fraction:
        value = Fraction(0)
        for v in vectors:
            if not event(v):
                continue
            if replace:
                value += Fraction(math.factorial(n), math.prod(math.factorial(x) for x in v)) * math.prod(
                    Fraction(c, total) ** x for c, x in zip(counts, v))
            else:
                value += Fraction(math.prod(math.comb(c, x) for c, x in zip(counts, v)), math.comb(total, n))
        return value

    contents = ", ".join(f"{c} {colour}" for c, colour in zip(counts, colours))
    how = "with replacement (each ball is put back before the next draw)" if replace else "without replacement"
    lead = f"An urn holds {contents} balls. You draw {n} ball{'s' if n > 1 else ''} at random {how}."
    kinds = ["exactly", "at_least_one"] + (["same", "each", "ordered"] if config.hard_events else [])
    if n == 1:
        kinds = ["exactly"]
    kind = rng.choice(kinds)
    space = total**n if replace else math.perm(total, n)
    c = rng.randrange(len(colours))
    if kind == "exactly":
        k = rng.randint(1, n)
        balls = "ball" if k == 1 else "balls"
        return f"{lead} What is the probability of drawing exactly {k} {colours[c]} {balls}?", \
            prob(lambda v: v[c] == k), space, 1
    if kind == "at_least_one":
        return f"{lead} What is the probability of drawing at least one {colours[c]} ball?", \
            prob(lambda v: v[c] >= 1), space, 1
    if kind == "same":
        return f"{lead} What is the probability that all the balls drawn have the same colour?", \
            prob(lambda v: max(v) == n), space, 2
    if kind == "each" and n >= len(colours):
        return f"{lead} What is the probability that every colour is drawn at least once?", \
            prob(lambda v: min(v) >= 1), space, 3
    d = rng.choice([i for i in range(len(colours)) if i != c])
    first, second = Fraction(counts[c], total), Fraction(counts[d], total if replace else total - 1)
    return f"{lead} What is the probability that the first ball is {colours[c]} and the second is {colours[d]}?", \
        first * second, space, 2


def _cards(rng: random.Random, config: ExactProbability.Config) -> Scenario:
    suits, ranks = rng.randint(2, 6), rng.randint(5, 13)
    total = suits * ranks
    n = max(2, min(rng.randint(*config.draws), ranks))
    names = _SUITS[:suits]
    deck = "a standard 52-card deck (13 ranks in each of 4 suits)" if (suits, ranks) == (4, 13) else \
        f"a deck of {total} cards: {suits} suits ({_listing(list(names))}), each with cards numbered 1 to {ranks}"
    lead = f"You draw {n} cards at random, without replacement, from {deck}."
    space = math.comb(total, n)
    kinds = ["exactly_suit", "one_rank"] + (["same_suit", "different_ranks", "pair"] if config.hard_events else [])
    kind = rng.choice(kinds)
    if kind == "exactly_suit":
        k, suit = rng.randint(1, n), rng.choice(names)
        return f"{lead} What is the probability that exactly {k} of them are {suit}?", \
            Fraction(math.comb(ranks, k) * math.comb(total - ranks, n - k), space), space, 1
    if kind == "one_rank":
        rank = "an ace" if (suits, ranks) == (4, 13) else f"a card numbered {rng.randint(1, ranks)}"
        return f"{lead} What is the probability that at least one of them is {rank}?", \
            1 - Fraction(math.comb(total - suits, n), space), space, 1
    if kind == "same_suit":
        return f"{lead} What is the probability that they are all of the same suit?", \
            Fraction(suits * math.comb(ranks, n), space), space, 2
    if kind == "different_ranks":
        return f"{lead} What is the probability that no two of them have the same number (rank)?", \
            Fraction(math.comb(ranks, n) * suits**n, space), space, 2
    # exactly one pair: one rank twice, the other n - 2 cards of distinct other ranks
    pairs = ranks * math.comb(suits, 2) * math.comb(ranks - 1, n - 2) * suits ** (n - 2)
    return (f"{lead} What is the probability that exactly two of them share a number (rank) and all the others have "
            "different numbers (exactly one pair)?"), Fraction(pairs, space), space, 3


def _tickets(rng: random.Random, config: ExactProbability.Config) -> Scenario:
    first = rng.randint(1, 20)
    n = rng.randint(6, 40)
    k = 2 if not config.hard_events else rng.randint(2, 3)
    pairs = list(itertools.combinations(range(first, first + n), k))
    lead = (f"A bag holds {n} tickets numbered {first} to {first + n - 1}. You draw {_NUMBER_WORDS[k]} tickets at "
            "random without replacement.")
    kinds = ["sum_even", "all_above", "product_multiple", "sum_at_most"] + (
        ["consecutive", "sum_equals"] if config.hard_events else [])
    kind = rng.choice(kinds)
    if kind == "sum_even":
        parity = rng.choice(("even", "odd"))
        return f"{lead} What is the probability that the sum of the numbers drawn is {parity}?", \
            _count(pairs, lambda o: sum(o) % 2 == (parity == "odd")), len(pairs), 1
    if kind == "all_above":
        m = rng.randint(first + 1, first + n - 3)
        return f"{lead} What is the probability that every number drawn is greater than {m}?", \
            _count(pairs, lambda o: min(o) > m), len(pairs), 1
    if kind == "product_multiple":
        m = rng.randint(3, 9)
        return f"{lead} What is the probability that the product of the numbers drawn is a multiple of {m}?", \
            _count(pairs, lambda o: math.prod(o) % m == 0), len(pairs), 1
    low, high = sum(range(first, first + k)), sum(range(first + n - k, first + n))
    if kind == "sum_at_most":
        t = rng.randint(low + 1, high - 1)
        return f"{lead} What is the probability that the sum of the numbers drawn is at most {t}?", \
            _count(pairs, lambda o: sum(o) <= t), len(pairs), 1
    if kind == "consecutive":  # v3: three tickets say "some two" and that a run of three counts (see the docstring)
        which = ("the two numbers drawn are consecutive integers" if k == 2 else
                 "some two of the three numbers drawn are consecutive integers (three in a row counts too)")
        return f"{lead} What is the probability that {which}?", \
            _count(pairs, lambda o: any(b - a == 1 for a, b in zip(o, o[1:]))), len(pairs), 2
    t = rng.randint(low + 1, high - 1)
    return f"{lead} What is the probability that the numbers drawn add up to exactly {t}?", \
        _count(pairs, lambda o: sum(o) == t), len(pairs), 2


_SETTINGS: dict[str, Callable[[random.Random, ExactProbability.Config], Scenario]] = {
    "dice": _dice, "coins": _coins, "urn": _urn, "cards": _cards, "tickets": _tickets,
}
