"""Guess the number: find a secret integer in a range from higher/lower feedback.

The range holds ``size`` consecutive integers starting at a random lower bound
(stated in the prompt). Each turn the model writes one integer (read by the shared
number reader: an optional sign, comma thousands separators, ``481.0``, ``\\boxed{481}``
are fine; ``2.5``, ``480 or 481`` and several guesses in one reply, ``353, 328`` or
``353 328``, are not: digits set apart by spaces are read as guesses, never as one
number); the reply
says whether the secret is higher or lower. A missing, unreadable or out-of-range guess
costs a turn. The turn limit is the worst case of binary search plus a slack
that shrinks with the level, so the hardest level demands exact bisection.
Reward 1 on the turn the number is found, 0 otherwise.

Version 2: the prompt shows an example guess; guesses read with the shared reader.
Version 3: the example guess is fixed (it no longer depends on the secret); an honest player
(:meth:`GuessNumber.honest_move`, bisection on the answers) wins within the budget.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.core.task import Growth
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.numeric import read_integer

MAX_DIGITS = 30  # far more than any range here; longer numerals are refused unread


@register
class GuessNumber(MultiTurnTask):
    id = "games/guess_number"
    family = "games"
    description = "Find a secret integer in a range from higher/lower feedback."
    tags = ("games", "multi-turn", "search")
    version = 4
    one_move_per_turn = True  # a reply holding several guesses is refused (checked by the kit)
    hidden_information = True
    public_keys = ("low", "high")  # the prompt states the range

    @dataclass(frozen=True)
    class Config:
        size: int  # integers in the range
        slack: int  # guesses allowed beyond binary search's worst case

    presets = (
        Config(size=100, slack=3),
        Config(size=1_000, slack=2),
        Config(size=10_000, slack=2),
        Config(size=100_000, slack=1),
        Config(size=1_000_000, slack=0),
    )
    # The range stops at 10**24 integers (level 22; version 4): guesses are read up to MAX_DIGITS digits, and
    # version 3's ranges kept growing past them, so from level ~28 every guess, the oracle's too, went unread.
    growth = Growth(factors={"size": 10}, limits={"size": 10**24})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        low = rng.randint(1, 9 * config.size)
        high = low + config.size - 1
        secret = rng.randint(low, high)
        # Binary search over n integers needs at most n.bit_length() guesses.
        turns = config.size.bit_length() + config.slack
        example = 42  # a fixed format example, whatever the secret
        prompt = (
            f"I am thinking of a secret integer between {low} and {high} (inclusive). "
            f"You have {turns} guesses to find it. Make one guess per turn, written as an integer in digits "
            f"(for example: {example}); after each guess I tell you whether the secret number is higher or lower."
        )
        return Problem(
            prompt=prompt,
            answer=str(secret),
            data={"secret": secret, "low": low, "high": high, "turns": turns},
        )

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    constant_difficulty = "bisection over a range of the level's size takes the same guesses wherever the secret lies"

    def difficulty(self, problem: Problem) -> float:
        # Guesses a perfect player may need: the bisection depth of the range.
        return float((problem.data["high"] - problem.data["low"] + 1).bit_length())

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        # The interval that can still hold the secret, narrowed by every answer.
        return {"low": problem.data["low"], "high": problem.data["high"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        guess = read_move_answer(move, _read_integer)
        if guess is None:
            return Outcome(state, Verdict.unparsed("not an integer"), "Invalid guess: write a single integer.")
        if not data["low"] <= guess <= data["high"]:
            return Outcome(state, Verdict.wrong(), f"{guess} is outside the range {data['low']} to {data['high']}.")
        if guess == data["secret"]:
            return Outcome(state, Verdict.right(), f"{guess} is correct!", True)
        if guess < data["secret"]:
            state = {**state, "low": max(state["low"], guess + 1)}
            return Outcome(state, Verdict.wrong(), f"The secret number is higher than {guess}.")
        state = {**state, "high": min(state["high"], guess - 1)}
        return Outcome(state, Verdict.wrong(), f"The secret number is lower than {guess}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return str((state["low"] + state["high"]) // 2)

    def honest_move(self, view: View) -> str:
        low, high = view.public["low"], view.public["high"]
        for observation in view.observations:
            match = _ANSWER.match(observation)
            if match:
                guess = int(match.group(2))
                low, high = (max(low, guess + 1), high) if match.group(1) == "higher" else (low, min(high, guess - 1))
        return str((low + high) // 2)


_ANSWER = re.compile(r"The secret number is (higher|lower) than (-?\d+)\.")


_SPACED_DIGITS = re.compile(r"\d\s+\d")  # "353 328": two guesses (a plan), not a number grouped by spaces


def _read_integer(move: str) -> int | None:
    if move.isdigit() and move.isascii():  # the common reply, read without the patterns below
        return int(move) if len(move) <= MAX_DIGITS else None
    if len(move) > MAX_MOVE_CHARS or _SPACED_DIGITS.search(move):
        return None
    return read_integer(move, max_digits=MAX_DIGITS)

