"""Expected values of random quantities, exactly.

Level 0 asks for the mean of a random variable given by a probability table, or of the
sum of two dice; level 1 for the expected maximum, minimum or absolute difference of two
dice and the expected winnings of a simple paid game; level 2 for the expected number
of distinct faces in k rolls, the expected number of draws until the first red ball
(without replacement) and a variance from a table; level 3 for waiting times (until the
first success, until two successes in a row, until every face of a die has appeared);
level 4 for the expected maximum of three dice, a roll-again strategy, and the expected
total of rolls made before the first 1.

Finite cases are computed by enumerating every outcome; waiting times from their
first-step equations (solved exactly), and the tests check them against direct sums. The
answer is the exact value in any exact spelling (``161/36``, ``4.5``, ``\\frac{7}{2}``); a
rounded decimal is wrong.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.probability.common import exact_corruptions, exact_spellings, verdict_exact
from palaestra.generators.wording import ordinal
from palaestra.verifiers.rationals import format_fraction

DOLLARS = ("dollars", "dollar", "USD")  # spellings of the unit a money question asks for

Question = tuple[str, Fraction, int]  # text, value, steps


def _dice(rng: random.Random, low: int = 4, high: int = 12) -> int:
    return rng.randint(low, high)


def _expectation(outcomes: list[tuple[int, ...]], f: Callable[[tuple[int, ...]], Fraction | int]) -> Fraction:
    return Fraction(sum(f(o) for o in outcomes), len(outcomes))


def _table(rng: random.Random) -> tuple[list[int], list[Fraction], str]:
    k = rng.randint(3, 5)
    values = sorted(rng.sample(range(-10, 21), k))
    denominator = rng.choice([10, 12, 20, 8])
    cuts = sorted(rng.sample(range(1, denominator), k - 1))
    probabilities = [Fraction(b - a, denominator) for a, b in zip([0, *cuts], [*cuts, denominator])]
    table = ", ".join(f"P(X = {v}) = {format_fraction(p)}" for v, p in zip(values, probabilities))
    return values, probabilities, table


def _table_mean(rng: random.Random) -> Question:
    values, probabilities, table = _table(rng)
    return f"A random variable X takes these values: {table}. What is E[X]?", \
        sum((v * p for v, p in zip(values, probabilities)), Fraction(0)), 1


def _dice_sum(rng: random.Random) -> Question:
    sides = [_dice(rng, 4, 20) for _ in range(rng.randint(2, 3))]
    weights = [rng.randint(1, 5) for _ in sides]
    listing = " and ".join(f"a fair {s}-sided die" for s in sides)
    score = " + ".join(f"{w} × (die {i + 1})" if w > 1 else f"(die {i + 1})" for i, w in enumerate(weights))
    return (f"You roll {listing} (faces numbered from 1). Your score is {score}. What is the expected score?"), \
        sum((w * Fraction(s + 1, 2) for s, w in zip(sides, weights)), Fraction(0)), 1


def _linear_table(rng: random.Random) -> Question:
    values, probabilities, table = _table(rng)
    a, b = rng.choice([v for v in range(-6, 7) if v not in (0, 1)]), rng.randint(-20, 20)
    mean = sum((v * p for v, p in zip(values, probabilities)), Fraction(0))
    return f"A random variable X takes these values: {table}. What is E[{a}X + {b}]?".replace("+ -", "- "), \
        a * mean + b, 2


def _extreme(rng: random.Random) -> Question:
    a, b = _dice(rng, 3, 40), _dice(rng, 3, 40)
    outcomes = list(itertools.product(range(1, a + 1), range(1, b + 1)))
    kind = rng.choice(("larger", "smaller", "difference"))
    what = {"larger": "the larger of the two numbers", "smaller": "the smaller of the two numbers",
            "difference": "the absolute difference of the two numbers"}[kind]
    f = {"larger": max, "smaller": min, "difference": lambda o: abs(o[0] - o[1])}[kind]
    return (f"You roll a fair {a}-sided die and a fair {b}-sided die (faces numbered from 1). What is the expected "
            f"value of {what}?"), _expectation(outcomes, f), 2


def _game(rng: random.Random) -> Question:
    sides, fee, threshold = _dice(rng, 6, 20), rng.randint(1, 12), rng.randint(2, 6)
    prize = rng.randint(2, 10)
    value = Fraction(sum(prize * face if face >= threshold else 0 for face in range(1, sides + 1)), sides) - fee
    return (f"A game costs ${fee} to play. You roll a fair {sides}-sided die; if it shows {threshold} or more you win "
            f"${prize} times the number shown, otherwise nothing. What is your expected net gain in dollars "
            "(negative if you expect to lose)?"), value, 2


def _distinct_faces(rng: random.Random) -> Question:
    sides, k = _dice(rng, 4, 20), rng.randint(2, 6)
    win, fee = rng.randint(1, 20), rng.randint(0, 30)
    # each face is missed by all k rolls with probability ((s-1)/s)^k
    value = win * sides * (1 - Fraction(sides - 1, sides) ** k) - fee
    return (f"You pay ${fee} to roll a fair {sides}-sided die {k} times, and win ${win} for each different face that "
            "comes up. What is your expected net gain in dollars?"), value, 3


def _first_red(rng: random.Random) -> Question:
    red, other = rng.randint(1, 30), rng.randint(1, 40)
    # draws until the first red, without replacement: (N + 1)/(r + 1), of which b/(r + 1) are blue
    if rng.random() < 0.5:
        return (f"A bag holds {red} red and {other} blue balls. You draw balls one at a time without replacement until "
                "you draw a red one. What is the expected number of draws (including the red one)?"), \
            Fraction(red + other + 1, red + 1), 3
    return (f"A bag holds {red} red and {other} blue balls. You draw balls one at a time without replacement until "
            "you draw a red one. What is the expected number of blue balls drawn before it?"), \
        Fraction(other, red + 1), 3


def _table_variance(rng: random.Random) -> Question:
    values, probabilities, table = _table(rng)
    mean = sum((v * p for v, p in zip(values, probabilities)), Fraction(0))
    return (f"A random variable X takes these values: {table}. What is its variance, E[(X - E[X])^2]?",
            sum(((v - mean) ** 2 * p for v, p in zip(values, probabilities)), Fraction(0)), 3)


def _red_count(rng: random.Random) -> Question:
    red, other = rng.randint(1, 40), rng.randint(1, 40)
    k = rng.randint(2, min(8, red + other - 1))
    return (f"A bag holds {red} red and {other} blue balls. You draw {k} balls without replacement. What is the "
            "expected number of red balls drawn?"), Fraction(k * red, red + other), 2


def _cost(rng: random.Random, attempts: Fraction, unit: str) -> tuple[str, Fraction]:
    """A price per attempt and a fixed fee: the question asks for the expected total cost (linearity)."""
    price, fee = rng.randint(1, 20), rng.randint(0, 50)
    text = f" Each {unit} costs ${price}" + (f", plus a one-off fee of ${fee}" if fee else "") + \
        ". What is the expected total cost in dollars?"
    return text, price * attempts + fee


def _probability(rng: random.Random) -> Fraction:
    denominator = rng.randint(2, 10)
    return Fraction(rng.randint(1, denominator - 1), denominator)


def _until_success(rng: random.Random) -> Question:
    p, k = _probability(rng), rng.randint(1, 6)
    target = "the first success" if k == 1 else f"the {ordinal(k)} success"
    ask, value = _cost(rng, k / p, "attempt")
    return (f"Each attempt succeeds with probability {format_fraction(p)}, independently. You keep trying until "
            f"{target}.{ask}"), value, 4


def _two_in_a_row(rng: random.Random) -> Question:
    p = _probability(rng)
    # E = (1 + p) / p^2, from the first-step equations of the chain "no success yet / one success"
    ask, value = _cost(rng, (1 + p) / (p * p), "toss")
    return (f"A coin lands heads with probability {format_fraction(p)}. You toss it until you get two heads in a "
            f"row.{ask}"), value, 5


def _coupons(rng: random.Random) -> Question:
    sides = rng.randint(2, 9)
    ask, value = _cost(rng, sum((Fraction(sides, sides - k) for k in range(sides)), Fraction(0)), "roll")
    return f"You roll a fair {sides}-sided die until every face has appeared at least once.{ask}", value, 5


def _max_three(rng: random.Random) -> Question:
    a, b, c = _dice(rng, 3, 20), _dice(rng, 3, 20), _dice(rng, 3, 20)
    outcomes = list(itertools.product(range(1, a + 1), range(1, b + 1), range(1, c + 1)))
    return (f"You roll three fair dice with {a}, {b} and {c} faces (each numbered from 1). What is the expected "
            "value of the largest number shown?"), _expectation(outcomes, max), 6


def _reroll(rng: random.Random) -> Question:
    sides, threshold, second = _dice(rng, 6, 30), rng.randint(2, 10), _dice(rng, 4, 30)
    # keep the first roll if it is at least the threshold, else roll the second die and keep that
    keep = Fraction(sum(range(threshold, sides + 1)), sides)
    value = keep + Fraction(threshold - 1, sides) * Fraction(second + 1, 2)
    return (f"You roll a fair {sides}-sided die. If it shows less than {threshold}, you roll a fair {second}-sided die "
            "instead and keep that number; otherwise you keep the first. What is the expected value of the number "
            "you keep?"), value, 6


def _total_before_one(rng: random.Random) -> Question:
    sides = _dice(rng, 4, 30)
    stop = rng.randint(1, sides)
    # rolls before the first `stop`: geometric with mean (s - 1); each such roll averages the other faces
    others = Fraction(sum(range(1, sides + 1)) - stop, sides - 1)
    pay = rng.randint(1, 12)
    value = pay * (sides - 1) * others
    return (f"You roll a fair {sides}-sided die repeatedly until it shows {stop}. For every roll before that {stop} "
            f"you are paid ${pay} times the number shown. What is your expected total pay in dollars?"), value, 6


_QUESTIONS: dict[str, Callable[[random.Random], Question]] = {
    "table_mean": _table_mean, "dice_sum": _dice_sum, "linear_table": _linear_table, "red_count": _red_count, "extreme": _extreme, "game": _game,
    "distinct_faces": _distinct_faces, "first_red": _first_red, "table_variance": _table_variance,
    "until_success": _until_success, "two_in_a_row": _two_in_a_row, "coupons": _coupons, "max_three": _max_three,
    "reroll": _reroll, "total_before_one": _total_before_one,
}


@register
class ExpectedValue(Task):
    id = "probability/expected_value"
    version = 3  # v3: "the 2nd success", not "the 2th"
    family = "probability"
    description = "Exact expected values: dice, games, draws without replacement, waiting times."
    tags = ("math", "probability")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("table_mean", "dice_sum", "linear_table")),
        Config(("extreme", "game", "red_count")),
        Config(("distinct_faces", "first_red", "table_variance")),
        Config(("until_success", "two_in_a_row", "coupons")),
        Config(("max_three", "reroll", "total_before_one")),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value, steps = _QUESTIONS[kind](rng)
        example = "161/36"  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the exact value as a fraction (or a whole number), e.g. {example}."
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "kind": kind, "value": format_fraction(value), "steps": steps,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str):
            return Verdict.unparsed("expected an exact number")
        units = DOLLARS if "in dollars" in problem.prompt else None  # "-7/2 dollars" where dollars are asked
        return verdict_exact(answer, Fraction(problem.data["value"]), units)

    def difficulty(self, problem: Problem) -> float:
        """Reasoning steps (1 for a weighted mean ... 6 for strategies and three dice) plus the answer's
        denominator digits."""
        return problem.data["steps"] + len(str(Fraction(problem.data["value"]).denominator)) / 2

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *exact_spellings(Fraction(problem.data["value"])),
                f"E = {problem.answer}"] + ([f"{problem.answer} dollars"] if "in dollars" in problem.prompt else [])

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return [*super().corruptions(problem, rng), *exact_corruptions(Fraction(problem.data["value"]), rng)]
