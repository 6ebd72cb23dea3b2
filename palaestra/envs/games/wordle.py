"""Wordle: find a hidden five-letter English word from per-letter colour feedback.

The secret and every guess come from the word list shipped with the package
(``words.txt``, loaded once per process on first use). Each turn the model writes
one word (case, surrounding spaces, quotes and a short remark ignored). The reply
marks every letter G (right letter, right place), Y (in the word, elsewhere) or X
(not in the word, or no more copies of it): greens are matched first, then yellows
left to right, so a repeated letter is marked Y only as many times as the secret has
unmatched copies. A missing, malformed or unknown word costs a turn, and so does, in
hard mode, a guess that ignores a revealed hint (a G letter must stay in its place; a
letter marked G or Y must appear in the guess, as many times as it was so marked).
Reward 1 on the turn the word is found, 0 otherwise.

The levels restrict the player one step at a time: a free random opening guess and 8
guesses; a free opening and 5 guesses; no opening and 5 guesses; hard mode; hard mode
with 4 guesses. The oracle (the guess leaving the fewest candidates on average, among
the guesses the rules allow) is played at generation, and a secret it cannot find within
the budget is redrawn, so every game is winnable. The difficulty measure is the share of
the budget the oracle needs, plus one in hard mode.

Version 2: levels without the free opening, hard mode and fewer guesses (the turn budget
10 to 6 hardly mattered, the oracle needed at most 4); the oracle's game is checked at
generation; moves read through the shared wrappers.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.envs.games._words import (
    GREEN,
    GREY,
    LENGTH,
    YELLOW,
    code,
    hard_mode_allowed,
    hard_mode_violation,
    mark_table,
    marks,
    public_list,
    read_word,
    word_index,
    words,
)


@register
class Wordle(MultiTurnTask):
    id = "games/wordle"
    family = "games"
    description = "Find a hidden five-letter word from green/yellow/grey letter feedback."
    tags = ("games", "multi-turn", "words", "deduction")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 3
    hidden_information = True
    public_keys = ("hard",)  # the prompt states whether hard mode is on

    @dataclass(frozen=True)
    class Config:
        turns: int  # guesses the model makes
        opening: bool  # a random first guess is played for the model and shown in the prompt
        hard: bool  # every guess must use the hints revealed so far

    presets = (
        Config(turns=8, opening=True, hard=False),
        Config(turns=5, opening=True, hard=False),
        Config(turns=5, opening=False, hard=False),
        Config(turns=5, opening=False, hard=True),
        Config(turns=4, opening=False, hard=True),
    )
    bounded = "its levels are kinds of problem (the `opening` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, str | None, list[list[str]]] | None:
            secret = rng.choice(words())
            opening = rng.choice(openings()) if config.opening else None
            if opening == secret:
                return None  # the free opening must not win the game
            history = [[opening, marks(opening, secret)]] if opening else []
            game = oracle_game(secret, history, config.hard, config.turns)
            return None if game is None else (secret, opening, game)

        secret, opening, game = retry(draw, what="a secret the oracle finds within the turn budget")
        rules = (
            f"{GREEN} = right letter in the right place, {YELLOW} = the letter is in the word but in another "
            f"place, {GREY} = the letter is not in the word (or the guess has more copies of it than the word)."
        )
        hard = (
            " Hard mode: every guess must use the hints revealed so far. A letter marked G must stay in its "
            "place, and every letter marked G or Y must appear in the guess (at least as many times as it was "
            "marked G or Y in one guess); a guess that breaks this costs a turn."
        ) if config.hard else ""
        start = (f"The first guess has been played for you:\n{opening} -> {marks(opening, secret)}\n\n"
                 if opening else "")
        example = opening or "crane"  # a fixed format example, whatever the secret
        prompt = (
            "Let's play Wordle. I have chosen a secret five-letter English word. After each guess I mark every "
            f"letter of it: {rules} The secret and every guess are words of {public_list()}; a guess that "
            f"is not on it costs a turn.{hard}\n\n{start}"
            f"You have {config.turns} {'more ' if opening else ''}guesses to find the word. Make one guess per "
            f"turn, written as the word alone, for example: {example}"
        )
        data = {"secret": secret, "opening": opening, "turns": config.turns, "hard": config.hard,
                "oracle_guesses": len(game)}
        return Problem(prompt=prompt, answer=secret, data=data)

    def space_size(self, level: int) -> int | None:
        """Without a free opening a problem is its secret: the level holds the secrets the oracle can find."""
        config = self.level_config(level)
        return None if config.opening else solvable_secrets(config.turns, config.hard)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The share of the guess budget the oracle needs, plus one in hard mode.

        Hard mode is a rule change rather than a smaller budget (the oracle obeys it and needs
        about as many guesses), but it forbids most of the word list once a hint is out (about
        80% after the first guess), so it counts as one whole step up.
        """
        data = problem.data
        return data["oracle_guesses"] / data["turns"] + (1.0 if data["hard"] else 0.0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        opening = problem.data["opening"]
        return {"history": [[opening, marks(opening, problem.data["secret"])]] if opening else []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        secret = problem.data["secret"]
        guess = read_word(move)
        if guess is None:
            return Outcome(state, Verdict.unparsed("not a five-letter word"),
                           "Invalid guess: write a single five-letter word.")
        if guess not in word_index():
            unknown = f"{guess} is not in the word list"
            return Outcome(state, Verdict.wrong(unknown), f"{unknown}.")
        if problem.data["hard"]:
            broken = hard_mode_violation(guess, state["history"])
            if broken:
                return Outcome(state, Verdict.wrong(f"hard mode: {broken}"), f"{guess} breaks hard mode: {broken}.")
        answer = marks(guess, secret)
        state = {"history": [*state["history"], [guess, answer]]}
        if guess == secret:
            return Outcome(state, Verdict.right(), f"{guess} -> {answer}. You found the word!", True)
        return Outcome(state, Verdict.wrong(), f"{guess} -> {answer}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return best_guess(state["history"], problem.data["hard"])

    def honest_move(self, view: View) -> str:
        """The oracle's guess for the marks read from the prompt (the opening) and the observations."""
        history = [list(pair) for pair in _MARKED.findall("\n".join([view.prompt, *view.observations]))]
        return best_guess(history, view.public["hard"])


_MARKED = re.compile(r"\b([a-z]{5}) -> ([GYX]{5})\b")


def oracle_game(secret: str, history: list[list[str]], hard: bool, turns: int) -> list[str] | None:
    """The oracle's guesses from ``history`` until it finds ``secret``, or None if it needs more than ``turns``."""
    history = list(history)
    guesses: list[str] = []
    for _ in range(turns):
        guess = best_guess(history, hard)
        guesses.append(guess)
        if guess == secret:
            return guesses
        history.append([guess, marks(guess, secret)])
    return None


def best_guess(history: list[list[str]], hard: bool = False) -> str:
    """The allowed word that leaves the fewest candidates on average (any word of the list, or in hard
    mode any word that uses every hint so far).

    Candidates are the words consistent with every ``[guess, marks]`` so far; a
    guess that is itself a candidate counts its winning outcome as zero left.
    """
    return _best_guess(tuple((guess, answer) for guess, answer in history), hard)


@functools.lru_cache(maxsize=50_000)
def _best_guess(history: tuple[tuple[str, str], ...], hard: bool) -> str:
    """:func:`best_guess` on a hashable history, remembered: many games share their first hints."""
    if not history:
        return _best_opening()
    table, vocabulary, index = mark_table(), words(), word_index()
    candidates = np.arange(len(vocabulary))
    for guess, answer in history:
        if guess in index:
            candidates = candidates[table[index[guess], candidates] == code(answer)]
    if len(candidates) <= 2:
        return vocabulary[int(candidates[0])] if len(candidates) else vocabulary[0]
    by_secret = _marks_by_secret()
    if hard:
        pool = np.flatnonzero(hard_mode_allowed(history))
        outcomes = by_secret[np.ix_(candidates, pool)]
    else:
        pool, outcomes = np.arange(len(vocabulary)), by_secret[candidates]
    return vocabulary[int(pool[_fewest_left(outcomes, candidates, pool)])]


@functools.cache
def _marks_by_secret() -> np.ndarray:
    """The mark table transposed (``[secret, guess]``), contiguous: the candidates' rows are gathered whole rather
    than a column at a time from every guess's row."""
    return np.ascontiguousarray(mark_table().T)


@functools.cache
def solvable_secrets(turns: int, hard: bool) -> int:
    """How many secrets the oracle finds within ``turns`` guesses from no hint: the problems of a level without
    a free opening (each secret is one problem)."""
    return sum(oracle_game(secret, [], hard, turns) is not None for secret in words())


@functools.cache
def _best_opening() -> str:
    """The best first guess with no hint yet (the same in hard mode): computed once per process."""
    everything = np.arange(len(words()))
    return words()[int(_fewest_left(_marks_by_secret(), everything, everything))]


def _fewest_left(outcomes: np.ndarray, candidates: np.ndarray, pool: np.ndarray) -> int:
    """Column of ``outcomes`` (pattern codes of each candidate, a row, against each pooled guess, a column) leaving
    the fewest left: the least sum of squared bucket sizes (the first such column)."""
    # (pattern, guess) buckets; in place, as the arrays are large (a fresh temporary per step cost half the time)
    keys = outcomes.astype(np.intp)
    keys *= len(pool)
    keys += np.arange(len(pool))
    bucket_sizes = np.bincount(keys.ravel(), minlength=243 * len(pool)).astype(np.int64, copy=False)
    bucket_sizes *= bucket_sizes
    expected_left = bucket_sizes.reshape(243, len(pool)).sum(axis=0)
    expected_left[np.isin(pool, candidates)] -= 1
    return int(np.argmin(expected_left))


@functools.cache
def openings() -> tuple[str, ...]:
    """Words with five distinct letters: openings that always tell something."""
    return tuple(w for w in words() if len(set(w)) == LENGTH)
