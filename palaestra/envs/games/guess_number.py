"""Guess the number: find a secret integer in a range from higher/lower feedback.

The range holds ``size`` consecutive integers starting at a random lower bound
(stated in the prompt). Each turn the model writes one integer (digits, an
optional sign, commas as thousands separators allowed); the reply says whether
the secret is higher or lower. A missing, unreadable or out-of-range guess
costs a turn. The turn limit is the worst case of binary search plus a slack
that shrinks with the level, so the hardest level demands exact bisection.
Reward 1 on the turn the number is found, 0 otherwise.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnEnv, Problem, Turn, register

MAX_MOVE_CHARS = 100
_INTEGER = re.compile(r"^[+-]?\d{1,18}$")


@register
class GuessNumber(MultiTurnEnv):
    id = "games/guess_number"
    family = "games"
    description = "Find a secret integer in a range from higher/lower feedback."
    tags = ("games", "multi-turn", "search")

    @dataclass(frozen=True)
    class Config:
        size: int  # integers in the range
        slack: int  # guesses allowed beyond binary search's worst case

    def config(self, level: int) -> Config:
        return [
            self.Config(size=100, slack=3),
            self.Config(size=1_000, slack=2),
            self.Config(size=10_000, slack=2),
            self.Config(size=100_000, slack=1),
            self.Config(size=1_000_000, slack=0),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        low = rng.randint(1, 9 * config.size)
        high = low + config.size - 1
        secret = rng.randint(low, high)
        # Binary search over n integers needs at most n.bit_length() guesses.
        turns = config.size.bit_length() + config.slack
        prompt = (
            f"I am thinking of a secret integer between {low} and {high} (inclusive). "
            f"You have {turns} guesses to find it. Make one guess per turn, written as an integer; "
            "after each guess I tell you whether the secret number is higher or lower."
        )
        return Problem(
            prompt=prompt,
            answer=str(secret),
            data={"secret": secret, "low": low, "high": high, "turns": turns},
        )

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def new_state(self, problem: Problem) -> dict[str, Any]:
        # The interval that can still hold the secret, narrowed by every answer.
        return {"low": problem.data["low"], "high": problem.data["high"], "played": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str | None) -> Turn:
        data = problem.data
        state["played"] += 1
        left = _guesses_left(data["turns"] - state["played"])
        guess = _read_integer(move)
        if guess is None:
            return Turn(f"Invalid guess: write a single integer. {left}", parsed=False)
        if not data["low"] <= guess <= data["high"]:
            return Turn(f"{guess} is outside the range {data['low']} to {data['high']}. {left}")
        if guess == data["secret"]:
            return Turn(f"{guess} is correct!", reward=1.0, done=True, correct=True)
        if guess < data["secret"]:
            state["low"] = max(state["low"], guess + 1)
            return Turn(f"The secret number is higher than {guess}. {left}")
        state["high"] = min(state["high"], guess - 1)
        return Turn(f"The secret number is lower than {guess}. {left}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return str((state["low"] + state["high"]) // 2)


def _read_integer(move: str | None) -> int | None:
    if move is None or len(move) > MAX_MOVE_CHARS:
        return None
    text = move.strip().rstrip(".").replace(",", "")
    return int(text) if _INTEGER.match(text) else None


def _guesses_left(left: int) -> str:
    if left <= 0:
        return "No guesses left: the game is over."
    return f"{left} guess{'es' if left != 1 else ''} left."
