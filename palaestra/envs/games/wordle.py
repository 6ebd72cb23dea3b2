"""Wordle: find a hidden five-letter English word from per-letter colour feedback.

The secret and every guess come from the word list shipped with the package
(``words.txt``, loaded once per process on first use). A random opening guess
is played for the model and shown in the prompt with its feedback; then each
turn the model writes one word (case and surrounding spaces ignored). The reply
marks every letter G (right letter, right place), Y (in the word, elsewhere) or
X (not in the word, or no more copies of it): greens are matched first, then
yellows left to right, so a repeated letter is marked Y only as many times as
the secret has unmatched copies. A missing, malformed or unknown word costs a
turn. Reward 1 on the turn the word is found, 0 otherwise.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry

WORD_LENGTH = 5
GREEN, YELLOW, GREY = "G", "Y", "X"


@register
class Wordle(MultiTurnTask):
    id = "games/wordle"
    family = "games"
    description = "Find a hidden five-letter word from green/yellow/grey letter feedback."
    tags = ("games", "multi-turn", "words", "deduction")

    @dataclass(frozen=True)
    class Config:
        turns: int  # guesses allowed after the opening

    def config(self, level: int) -> Config:
        return [self.Config(turns=t) for t in (10, 9, 8, 7, 6)][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        secret = rng.choice(words())
        opening = retry(lambda: rng.choice(openings()), lambda word: word != secret, what="an opening other than the secret")
        prompt = (
            "Let's play Wordle. I have chosen a secret five-letter English word. After each guess I mark every "
            f"letter of it: {GREEN} = right letter in the right place, {YELLOW} = the letter is in the word but in "
            f"another place, {GREY} = the letter is not in the word (or the guess has more copies of it than the "
            "word). Every guess must be a common five-letter English word from my word list; an unknown word "
            "costs a turn.\n\n"
            f"The first guess has been played for you:\n{opening} -> {feedback(opening, secret)}\n\n"
            f"You have {config.turns} more guesses to find the word. Make one guess per turn, written as the word "
            "alone, like the first guess above."
        )
        return Problem(
            prompt=prompt,
            answer=secret,
            data={"secret": secret, "opening": opening, "turns": config.turns},
        )

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        # Fewer guesses left for the same deduction: the tighter the budget, the harder.
        return float(11 - problem.data["turns"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        opening = problem.data["opening"]
        return {"history": [[opening, feedback(opening, problem.data["secret"])]]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        secret = problem.data["secret"]
        guess = move.strip().lower()
        if len(guess) != WORD_LENGTH or not guess.isascii() or not guess.isalpha():
            return Outcome(state, Verdict.unparsed("not a five-letter word"),
                           "Invalid guess: write a single five-letter word.")
        if guess not in word_index():
            return Outcome(state, Verdict.wrong(f"{guess} is not in the word list"), f"{guess} is not in the word list.")
        marks = feedback(guess, secret)
        state = {"history": [*state["history"], [guess, marks]]}
        if guess == secret:
            return Outcome(state, Verdict.right(), f"{guess} -> {marks}. You found the word!", True)
        return Outcome(state, Verdict.wrong(), f"{guess} -> {marks}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return best_guess(state["history"])


def feedback(guess: str, secret: str) -> str:
    """The G/Y/X marks of ``guess`` against ``secret`` (greens first, then yellows left to right)."""
    marks = [GREY] * len(guess)
    unmatched: Counter[str] = Counter()
    for i, (g, s) in enumerate(zip(guess, secret)):
        if g == s:
            marks[i] = GREEN
        else:
            unmatched[s] += 1
    for i, g in enumerate(guess):
        if marks[i] == GREY and unmatched[g] > 0:
            marks[i] = YELLOW
            unmatched[g] -= 1
    return "".join(marks)


def best_guess(history: list[list[str]]) -> str:
    """The word (any word of the list) that leaves the fewest candidates on average.

    Candidates are the words consistent with every ``[guess, marks]`` so far; a
    guess that is itself a candidate counts its winning outcome as zero left.
    """
    table, vocabulary = _pattern_table(), words()
    index = word_index()
    candidates = np.arange(len(vocabulary))
    for guess, marks in history:
        if guess in index:
            candidates = candidates[table[index[guess], candidates] == _pattern_code(marks)]
    if len(candidates) <= 2:
        return vocabulary[int(candidates[0])] if len(candidates) else vocabulary[0]
    outcomes = table[:, candidates].astype(np.int64) + 243 * np.arange(len(vocabulary))[:, None]
    bucket_sizes = np.bincount(outcomes.ravel(), minlength=243 * len(vocabulary)).reshape(len(vocabulary), 243)
    expected_left = (bucket_sizes.astype(np.int64) ** 2).sum(axis=1)
    expected_left[candidates] -= 1
    return vocabulary[int(np.argmin(expected_left))]


@functools.cache
def words() -> tuple[str, ...]:
    """The shipped word list, read once per process."""
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return tuple(sorted({w.strip() for w in text.split() if len(w.strip()) == WORD_LENGTH}))


@functools.cache
def word_index() -> dict[str, int]:
    return {w: i for i, w in enumerate(words())}


@functools.cache
def openings() -> tuple[str, ...]:
    """Words with five distinct letters: openings that always tell something."""
    return tuple(w for w in words() if len(set(w)) == WORD_LENGTH)


def _pattern_code(marks: str) -> int:
    return sum({GREY: 0, YELLOW: 1, GREEN: 2}[m] * 3**i for i, m in enumerate(marks))


@functools.cache
def _pattern_table() -> np.ndarray:
    """``table[g, s]`` = the base-3 code of ``feedback(words[g], words[s])``; built once, for the oracle."""
    letters = np.array([[ord(c) - 97 for c in w] for w in words()], dtype=np.int8)
    guess_at = [letters[:, i, None] for i in range(WORD_LENGTH)]  # column vectors: guesses along rows
    secret_at = [letters[None, :, i] for i in range(WORD_LENGTH)]  # row vectors: secrets along columns
    green = [guess_at[i] == secret_at[i] for i in range(WORD_LENGTH)]
    table = np.zeros((len(letters), len(letters)), dtype=np.uint8)
    for i in range(WORD_LENGTH):
        # Position i is yellow when the secret has more unmatched copies of its letter
        # than the guess spends on earlier non-green copies of that letter.
        available = sum(((guess_at[i] == secret_at[k]) & ~green[k]).astype(np.uint8) for k in range(WORD_LENGTH))
        consumed = sum(((guess_at[i] == guess_at[j]) & ~green[j]).astype(np.uint8) for j in range(i))
        yellow = ~green[i] & (consumed < available)
        table += (2 * green[i] + yellow).astype(np.uint8) * np.uint8(3**i)
    return table

