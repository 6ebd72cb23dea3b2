"""What the poker games (Kuhn, Leduc hold'em) share (no environment here): the score ledger, the end of the
game and the prompt's scoring rules.

A game keeps three running sums of expected chips, ``[achieved, random, best]``: each hand dealt adds its
best-response value to ``achieved`` and ``best`` and its value under random decisions to ``random``
(:func:`add_hand`); each decision takes from ``achieved`` what it gave up against the best one
(:func:`add_loss`). The score is :func:`palaestra.core.multiturn.regret_reward` of the three, paid when the
last hand ends (:func:`game_over`), so it rewards decisions, not the luck of the cards.

Example::

    >>> totals = add_hand([0.0, 0.0, 0.0], best=1.0, random_value=-0.5)
    >>> add_loss(totals, best=1.0, chosen=0.25)
    [0.25, -0.5, 1.0]
"""

from __future__ import annotations

from typing import Any

from palaestra.core import Outcome, Verdict, regret_reward

EPSILON = 1e-9  # expected values this close count as equal

SCORE_RULES_AGAINST_RULES = (
    "Your score rewards good decisions, not luck: each decision is valued by its expected chips against the "
    "opponent's strategy, and the score compares your decisions with simple fixed rules that ignore the opponent "
    "(always raising, always calling, betting with a pair or the top half of the ranks, and the like): playing as "
    "well as the best such rule would have on this game's cards scores 0 (or less, counted as 0), always taking "
    "the decision of highest expected value scores 1."
)
"""The prompt's sentences on scoring for a game whose zero is the best of simple fixed rules (Leduc hold'em)."""

KUHN_SCORE_RULES = (
    "Your score rewards good decisions, not luck: each decision is valued by its expected chips against the "
    "opponent's strategy. Always taking the decision of highest expected value scores 1. The score is 0 (or "
    "less, counted as 0) a little below what the best fixed threshold rule for this opponent earns (bet with a "
    "card of at least some value, perhaps also bluffing with the lowest card, and call a bet with a card of at "
    "least some value; or so only when acting second, always checking first): such rules, and random "
    "decisions, score about 0."
)
"""Kuhn poker's sentences on scoring: its zero is set from the best threshold rule (kuhn_poker ``_rules``)."""


def add_hand(totals: list[float], best: float, random_value: float) -> list[float]:
    """The running ``[achieved, random, best]`` sums after a hand is dealt whose best-response value is ``best``
    and whose value under uniformly random decisions is ``random_value``."""
    return [totals[0] + best, totals[1] + random_value, totals[2] + best]


def add_loss(totals: list[float], best: float, chosen: float) -> list[float]:
    """The running sums after one decision: the achieved sum loses what the decision gave up against the best."""
    return [totals[0] - (best - chosen), totals[1], totals[2]]


def hand_report(said: list[str], result: str) -> str:
    """What the model is told when a hand ends: the last actions and the result. Not how many of its decisions were
    the best: against a hidden strategy that tally tells the model which choice was right, so it could learn the
    opponent's strategy from it instead of from the cards shown."""
    return f"{' '.join(said)} {result}"


def game_over(state: dict[str, Any], report: str) -> Outcome:
    """The outcome of the last hand's end: the whole game's score from the sums in ``state["values"]``, and the
    chips in ``state["chips"]`` told."""
    reward = regret_reward(*state["values"])
    verdict = Verdict(reward, reward >= 1.0 - EPSILON, True, report)
    return Outcome(state, verdict,
                   f"{report} That was the last hand; your chips: {state['chips']:+d}; your score is {reward:.2f}.", True)
