"""Conditional probability and Bayes' rule, exactly.

Level 0: a diagnostic test (prevalence, sensitivity, specificity) and the chance of the
condition after a positive or a negative result; level 1: one of two urns is picked (with
stated chances) and a ball drawn, and the question is which urn it came from; level 2:
three machines with different shares of production and defect rates; level 3: two pieces
of evidence (two independent tests, or two draws with replacement from the unknown urn);
level 4: two draws without replacement from the unknown urn, or the chance that the next
draw is red given what was drawn (the posterior predictive). Each answer is the ratio of
exact sums over the hypotheses (P(evidence and H) / P(evidence)).

The urns are never all picked with the same chance: equal chances cancel from Bayes' rule, so neglecting the
prior (the base-rate slip: the urns' likelihoods normalised) was exact on one two-urn problem in six; in version 2
that slip scored 0.23, 0.05 and 0.07 at levels 1, 3 and 4 (100 seeds each), now 0 at each.

The answer is the exact probability in any exact spelling (``95/113``, ``\\frac{95}{113}``,
an equal decimal, an equal percentage ``57.5%``); a rounded decimal or a percentage rounded
off is wrong.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.probability.common import (
    exact_corruptions,
    exact_spellings,
    example_for,
    verdict_exact,
)
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import format_decimal, strip_name
from palaestra.verifiers.rationals import format_fraction

_PERCENT = re.compile(r"\s*([0-9][0-9.]{0,40})\s*(?:%|\\%|percent)\s*\.?\s*")
Question = tuple[str, Fraction, int]  # text, answer, hypotheses x pieces of evidence


def _percent(value: Fraction) -> str:
    text = f"{float(value * 100):g}"
    return f"{text}%"


def _rate(rng: random.Random, low: int, high: int) -> Fraction:
    """A rate in whole or half percents."""
    return Fraction(rng.randint(2 * low, 2 * high), 200)


def _test(rng: random.Random) -> Question:
    prevalence, sensitivity, specificity = _rate(rng, 1, 30), _rate(rng, 70, 99), _rate(rng, 70, 99)
    positive = rng.random() < 0.7
    if positive:
        hit = prevalence * sensitivity
        value = hit / (hit + (1 - prevalence) * (1 - specificity))
        result, ask = "positive", "has the condition"
    else:
        miss = prevalence * (1 - sensitivity)
        value = miss / (miss + (1 - prevalence) * specificity)
        result, ask = "negative", "has the condition anyway"
    return (f"A condition affects {_percent(prevalence)} of a population. A test detects it in "
            f"{_percent(sensitivity)} of people who have it (sensitivity) and correctly clears {_percent(specificity)} "
            f"of people who do not (specificity). A randomly chosen person tests {result}. What is the probability that "
            f"this person {ask}?"), value, 1


def _urn(rng: random.Random, count: int) -> tuple[list[Fraction], list[tuple[int, int]], str]:
    weights_raw = [rng.randint(1, 6) for _ in range(count - 1)]
    # never all the same: equal picking chances cancel from Bayes' rule, and then neglecting them (the classic
    # base-rate slip) gives the exact answer
    weights_raw.append(rng.choice([w for w in range(1, 7) if len(set(weights_raw)) > 1 or w != weights_raw[0]]))
    total = sum(weights_raw)
    weights = [Fraction(w, total) for w in weights_raw]
    contents = [(rng.randint(1, 12), rng.randint(1, 12)) for _ in range(count)]
    lines = "; ".join(f"urn {i + 1} is picked with probability {format_fraction(w)} and holds {r} red and {b} blue "
                      "balls" for i, (w, (r, b)) in enumerate(zip(weights, contents)))
    return weights, contents, lines


def _two_urns(rng: random.Random) -> Question:
    weights, contents, lines = _urn(rng, 2)
    colour = rng.choice(("red", "blue"))
    likelihood = [Fraction(r if colour == "red" else b, r + b) for r, b in contents]
    which = rng.randrange(2)
    value = weights[which] * likelihood[which] / sum(w * lk for w, lk in zip(weights, likelihood))
    return (f"One of two urns is picked at random: {lines}. A ball drawn from the picked urn is {colour}. What is the "
            f"probability that urn {which + 1} was picked?"), value, 2


def _machines(rng: random.Random) -> Question:
    shares_raw = [rng.randint(1, 9) for _ in range(3)]
    shares = [Fraction(s, sum(shares_raw)) for s in shares_raw]
    defects = [_rate(rng, 1, 12) for _ in range(3)]
    which = rng.randrange(3)
    value = shares[which] * defects[which] / sum(s * d for s, d in zip(shares, defects))
    listing = "; ".join(f"machine {'ABC'[i]} makes {format_fraction(s)} of the items, {_percent(d)} of them "
                        "defective" for i, (s, d) in enumerate(zip(shares, defects)))
    return (f"A factory has three machines: {listing}. An item picked at random is defective. What is the "
            f"probability that machine {'ABC'[which]} made it?"), value, 3


def _two_pieces(rng: random.Random) -> Question:
    if rng.random() < 0.5:  # two independent tests, both positive
        prevalence, sensitivity, specificity = _rate(rng, 1, 20), _rate(rng, 70, 99), _rate(rng, 70, 99)
        hit = prevalence * sensitivity**2
        value = hit / (hit + (1 - prevalence) * (1 - specificity) ** 2)
        return (f"A condition affects {_percent(prevalence)} of a population. A test detects it in "
                f"{_percent(sensitivity)} of people who have it and correctly clears {_percent(specificity)} of people "
                "who do not; repeated tests on one person are independent given whether they have it. A random person "
                "tests positive twice. What is the probability that they have the condition?"), value, 4
    weights, contents, lines = _urn(rng, rng.randint(2, 3))
    which = rng.randrange(len(weights))
    likelihood = [Fraction(r, r + b) ** 2 for r, b in contents]
    value = weights[which] * likelihood[which] / sum(w * lk for w, lk in zip(weights, likelihood))
    return (f"One urn is picked at random: {lines}. Two balls are drawn from the picked urn with replacement, and "
            f"both are red. What is the probability that urn {which + 1} was picked?"), value, 2 * len(weights)


def _without_replacement(rng: random.Random) -> Question:
    weights, contents, lines = _urn(rng, rng.randint(2, 3))
    contents = [(r + 1, b) for r, b in contents]  # at least two red balls in every urn
    lines = "; ".join(f"urn {i + 1} is picked with probability {format_fraction(w)} and holds {r} red and {b} blue "
                      "balls" for i, (w, (r, b)) in enumerate(zip(weights, contents)))
    both_red = [Fraction(r * (r - 1), (r + b) * (r + b - 1)) for r, b in contents]
    evidence = sum(w * lk for w, lk in zip(weights, both_red))
    if rng.random() < 0.5:
        which = rng.randrange(len(weights))
        value = weights[which] * both_red[which] / evidence
        ask = f"What is the probability that urn {which + 1} was picked?"
    else:  # posterior predictive: a third ball is red too
        third = [Fraction(r * (r - 1) * (r - 2), (r + b) * (r + b - 1) * (r + b - 2)) if r + b > 2 else Fraction(0)
                 for r, b in contents]
        value = sum(w * t for w, t in zip(weights, third)) / evidence
        ask = "A third ball is then drawn from the same urn. What is the probability that it is red too?"
    return (f"One urn is picked at random: {lines}. Two balls are drawn from the picked urn without replacement, and "
            f"both are red. {ask}"), value, 3 * len(weights)


_LEVELS: list[Callable[[random.Random], Question]] = [_test, _two_urns, _machines, _two_pieces, _without_replacement]


@register
class Bayes(Task):
    id = "probability/bayes"
    version = 3  # v3: the urns are never picked with equal chances (the prior would cancel)
    family = "probability"
    description = "Conditional probabilities by Bayes' rule: tests, urns, machines, repeated evidence, exactly."
    tags = ("math", "probability", "bayes")

    @dataclass(frozen=True)
    class Config:
        stage: int

    presets = (Config(stage=0), Config(stage=1), Config(stage=2), Config(stage=3), Config(stage=4))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, value, weight = _LEVELS[config.stage](rng)
        prompt = (f"{question}\n\nGive the exact probability as a fraction (an equal terminating decimal or percentage "
                  f"is fine too), e.g. {example_for(value)}.")
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "value": format_fraction(value), "weight": weight})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = Fraction(problem.data["value"])
        written = strip_name(strip_wrappers(answer)) if isinstance(answer, str) else answer  # "P(B | D) = 31.25%"
        percent = _PERCENT.fullmatch(strip_wrappers(written)) if isinstance(written, str) and len(written) < 200 else None
        if percent is not None:  # "57.5%": exact when it equals the probability to the digit
            return verdict_exact(percent.group(1), value * 100)
        return verdict_exact(answer, value)

    def difficulty(self, problem: Problem) -> float:
        """Hypotheses times pieces of evidence to combine (a single test counts one), plus a tenth of the digits
        of the answer's denominator."""
        return problem.data["weight"] + len(str(Fraction(problem.data["value"]).denominator)) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        percent = [f"{format_decimal(value * 100)}%"] if (value * 100).denominator in (1, 2, 4, 5, 8, 10) else []
        return [*super().spellings(problem), *exact_spellings(value), *percent]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        return [*super().corruptions(problem, rng), *exact_corruptions(value, rng),
                f"{float(value * 100):.1f}%" if (value * 1000).denominator != 1 else f"{format_decimal(value * 100 + 1)}%"]
