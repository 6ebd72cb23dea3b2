"""Red-team regressions, round 3 session 26 (second look): economics, arithmetic, probability.

Right answers a careful grader accepts that the verifiers rejected:

- ``economics/nash_mixed``: probabilities written as percentages (``T: 10%``) or as probabilities of the
  strategies (``P(T) = 1/10``, ``q(C) = 1/5``);
- ``economics/voting_rules`` (top level): the two winners as ``Ivo, then Kai`` or ``First Ivo, then Kai.``;
- ``economics/auction_outcomes``: the outcome as a bare pair, ``Avery, $196`` or ``Avery pays $196``;
- ``economics/consumer_choice`` (Slutsky level): the effects named in words, ``substitution effect = 441/52,
  income effect = 735/52``;
- ``economics/market_equilibrium``: quantities with their unit, ``Q = 651/5 units``.

Each test also checks that hedges and wrong values written the same way still score 0.
"""

from __future__ import annotations

import pytest

import palaestra


def _reward(env_id: str, level: int, seed: int, reply: str) -> float:
    task = palaestra.make(env_id, level=level).unwrapped.task
    problem = task.sample(level, seed)
    return task.check(problem, f"<answer>{reply}</answer>").reward


def _reference(env_id: str, level: int, seed: int) -> str:
    task = palaestra.make(env_id, level=level).unwrapped.task
    return task.sample(level, seed).answer or ""


def test_nash_mixed_reference_is_the_pinned_one():
    assert _reference("economics/nash_mixed", 4, 3) == "T: 1/10, B: 9/10, L: 0, C: 1/5, R: 4/5"


@pytest.mark.parametrize(
    "reply",
    [
        "T: 10%, B: 90%, L: 0%, C: 20%, R: 80%",
        "P(T) = 1/10, P(B) = 9/10, P(L) = 0, P(C) = 1/5, P(R) = 4/5",
        "p(T) = 1/10, p(B) = 9/10, q(L) = 0, q(C) = 1/5, q(R) = 4/5",
    ],
)
def test_nash_mixed_accepts_percentages_and_probability_names(reply: str):
    assert _reward("economics/nash_mixed", 4, 3, reply) == 1.0


@pytest.mark.parametrize(
    "reply",
    [
        "T: 10, B: 90, L: 0, C: 20, R: 80",  # bare percents without the sign are not probabilities
        "T: 10%, B: 90%, L: 0%, C: 20%, R: 80% or T: 1/2",
        "P(T) = 1/10, P(B) = 9/10, P(L) = 1/5, P(C) = 0, P(R) = 4/5",
    ],
)
def test_nash_mixed_still_rejects_wrong_and_hedged(reply: str):
    assert _reward("economics/nash_mixed", 4, 3, reply) == 0.0


def test_voting_rules_reference_is_the_pinned_one():
    assert _reference("economics/voting_rules", 4, 3) == "Ivo, Kai"


@pytest.mark.parametrize(
    "reply, reward",
    [
        ("Ivo, then Kai", 1.0),
        ("First Ivo, then Kai.", 1.0),
        ("Ivo then Kai", 1.0),
        ("Ivo, then Kai or Lena", 0.0),
        ("Kai, then Ivo", 0.0),
        ("Ivo, then Lena", 0.0),
        ("Ivo, Kai, then Lena", 0.0),
    ],
)
def test_voting_rules_reads_then_without_wins(reply: str, reward: float):
    assert _reward("economics/voting_rules", 4, 3, reply) == reward


def test_auction_reference_is_the_pinned_one():
    assert _reference("economics/auction_outcomes", 4, 3) == "winner: Avery, price: 196"


@pytest.mark.parametrize(
    "reply, reward",
    [
        ("Avery, $196", 1.0),
        ("Avery pays $196", 1.0),
        ("Avery; 196 dollars", 1.0),
        ("Avery, $196 or $198", 0.0),
        ("Avery, $198", 0.0),
        ("Avery, Blair, $196", 0.0),
        ("Avery or Blair, $196", 0.0),
    ],
)
def test_auction_reads_a_bare_winner_and_price(reply: str, reward: float):
    assert _reward("economics/auction_outcomes", 4, 3, reply) == reward


def test_consumer_choice_reference_is_the_pinned_one():
    assert _reference("economics/consumer_choice", 4, 3) == "S = 441/52, N = 735/52"


@pytest.mark.parametrize(
    "reply, reward",
    [
        ("substitution effect = 441/52, income effect = 735/52", 1.0),
        ("Income effect: 735/52, substitution effect: 441/52", 1.0),
        ("substitution effect (S) = 441/52, income effect (N) = 735/52", 1.0),
        ("substitution effect = 441/52, income effect = 441/52", 0.0),
        ("income effect = 441/52, substitution effect = 735/52", 0.0),
    ],
)
def test_consumer_choice_reads_the_effects_in_words(reply: str, reward: float):
    assert _reward("economics/consumer_choice", 4, 3, reply) == reward


def test_market_equilibrium_reference_is_the_pinned_one():
    assert _reference("economics/market_equilibrium", 4, 3) == "Q = 651/5, X = 1569/5"


@pytest.mark.parametrize(
    "reply, reward",
    [
        ("Q = 651/5 units, X = 1569/5 units", 1.0),
        ("Q = 130.2 units, X = 313.8 units", 1.0),
        ("Q = 651/5 units, X = 1569/5 units or 1", 0.0),
        ("Q = 652/5 units, X = 1569/5 units", 0.0),
    ],
)
def test_market_equilibrium_accepts_quantities_with_units(reply: str, reward: float):
    assert _reward("economics/market_equilibrium", 4, 3, reply) == reward


# probability: the value named by the quantity asked ("P(B | defective) = 5/16", "E[X] = 141/22") was unreadable
# in every env graded by probability.common.verdict_exact; expected steps with their unit ("17/5 steps") too.


def test_probability_references_are_the_pinned_ones():
    assert _reference("probability/bayes", 2, 0) == "5/16"
    assert _reference("probability/expected_value", 4, 0) == "141/22"
    assert _reference("probability/markov_absorption", 2, 1) == "17/5"


@pytest.mark.parametrize(
    "env_id, level, seed, reply, reward",
    [
        ("probability/bayes", 2, 0, "P(B | defective) = 5/16", 1.0),
        ("probability/bayes", 2, 0, "\\boxed{P(B \\mid D) = \\frac{5}{16}}", 1.0),
        ("probability/bayes", 2, 0, "P(B|D) = 31.25%", 1.0),
        ("probability/bayes", 2, 0, "Pr[B] = 0.3125", 1.0),
        ("probability/bayes", 2, 0, "P(B | defective) = 5/16 or 1/2", 0.0),
        ("probability/bayes", 2, 0, "P(B|D) = 1/2", 0.0),
        ("probability/bayes", 2, 0, "P(B|D) = 5/16. P(A|D) = 1/2", 0.0),
        ("probability/expected_value", 4, 0, "E[X] = 141/22", 1.0),
        ("probability/expected_value", 4, 0, "E(X) = 141/22", 1.0),
        ("probability/expected_value", 4, 0, "E[X] = 141/22 or 6", 0.0),
        ("probability/expected_value", 4, 0, "E[X] = 6", 0.0),
        ("probability/markov_absorption", 2, 1, "E[T] = 17/5", 1.0),
        ("probability/markov_absorption", 2, 1, "17/5 steps", 1.0),
        ("probability/markov_absorption", 2, 1, "17/5 steps or 4 steps", 0.0),
        ("probability/markov_absorption", 2, 1, "17/5 visits", 0.0),
    ],
)
def test_probability_reads_a_named_value(env_id: str, level: int, seed: int, reply: str, reward: float):
    assert _reward(env_id, level, seed, reply) == reward


def test_descriptive_statistics_reference_is_the_pinned_one():
    assert _reference("probability/descriptive_statistics", 2, 0) == "16"


@pytest.mark.parametrize(
    "reply, reward",
    [
        ("s^2 = 16", 1.0),
        ("\\sigma^2 = 16", 1.0),
        ("σ^2 = 16", 1.0),
        ("x̄ = 16", 1.0),
        ("s^2 = 16 or 17", 0.0),
        ("s^2 = 17", 0.0),
    ],
)
def test_descriptive_statistics_reads_past_a_symbol(reply: str, reward: float):
    assert _reward("probability/descriptive_statistics", 2, 0, reply) == reward
