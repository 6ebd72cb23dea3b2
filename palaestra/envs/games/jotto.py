"""Jotto: find a secret five-letter word when each guess is answered only by its count of common letters.

The secret has five different letters, and no other word of the shipped list (``words.txt``, the
public palaestra word list of :mod:`palaestra.envs.games._words`) is an anagram of it, so its letters
name it. At levels 0 to 3 the prompt lists the candidates the secret was drawn from (30 to 250 such
words, drawn at random); at the top level it is any such word of the list (1,437 of them). Each turn
the model writes one word of the list (any five-letter word of it, repeated letters allowed) and is
told how many of the secret's letters appear in the guess, position ignored (each letter of the
secret counts once: ``geese`` against ``grape`` scores 2). Unlike Wordle (a colour per position) and
Bulls and Cows (right-place and wrong-place counts apart), the reply is one number from 0 to 5 and
never says which letters or where. A word outside the list, or an unreadable move, costs a turn.
Reward 1 on the turn the secret is guessed, 0 otherwise.

The honest player (:meth:`Jotto.honest_move`) reads the candidates from the prompt, keeps those
consistent with every reply, and guesses the word that leaves the fewest candidates on average
(among the candidates and a fixed set of good splitting words; a candidate on a tie). It is
deterministic, so it is played at generation and a secret it cannot find within the turn budget is
redrawn; the budgets (5 to 7 guesses) are the most it needed over 300 draws per level plus one (the
last listed level: the most, 6 of 250 candidates, plus one), and at the top level (10 guesses) the
most it needs for any secret of the pool, so no top-level secret is redrawn. Random guesses almost never win. The
difficulty measure is log2 of the number of candidates plus the guesses the honest player needs.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.core.multiturn import History
from palaestra.envs.games._words import LENGTH, public_list, read_word, word_index, words

PROBES = 150  # splitting words the honest player tries besides the candidates (the best on the whole pool)


@register
class Jotto(MultiTurnTask):
    id = "games/jotto"
    family = "games"
    description = "Find a secret word when each guess is answered only by the number of letters it shares with it."
    tags = ("games", "multi-turn", "words", "deduction")
    one_move_per_turn = True  # a reply holding several guesses is refused (checked by the kit)
    hidden_information = True
    public_keys = ("candidates",)  # the prompt lists them (None: the whole pool, which the prompt describes)
    version = 1
    distinct_from = {
        "games/bulls_and_cows": "Jotto answers one count of shared letters, position ignored; Bulls and Cows "
                                "reports right-place and wrong-place letters apart, so the deduction differs",
    }

    @dataclass(frozen=True)
    class Config:
        candidates: int  # words listed in the prompt; 0: the whole pool of possible secrets
        turns: int  # guesses allowed

    presets = (
        Config(candidates=30, turns=5),
        Config(candidates=60, turns=6),
        Config(candidates=120, turns=7),
        Config(candidates=250, turns=7),
        Config(candidates=0, turns=10),
    )
    bounded = "the top level's secret is any word of the whole pool; there is no larger list to draw from"

    def space_size(self, level: int) -> int | None:
        """At the top level the problem is the secret alone, any word of the pool (an upper bound: the few the
        honest player cannot find within the budget are redrawn); below it, lists of candidates (no small space)."""
        return None if self.level_config(level).candidates else len(secret_pool())

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pool = secret_pool()

        def draw() -> tuple[list[str] | None, str, int] | None:
            listed = sorted(rng.sample(pool, config.candidates)) if config.candidates else None
            secret = rng.choice(listed or pool)
            guesses = honest_game(listed, secret, config.turns)
            return None if guesses is None else (listed, secret, guesses)

        listed, secret, guesses = retry(draw, what="a secret the honest player finds within the turn budget")
        if listed is None:
            where = (f"The secret is a word of {public_list()} that has five different letters and shares its set "
                     f"of letters with no other word of the list ({len(pool):,} such words).")
        else:
            where = f"The secret is one of these {len(listed)} words:\n{', '.join(listed)}\n"
        prompt = (
            "Let's play Jotto. I have chosen a secret five-letter English word whose five letters are all "
            f"different. {where}\n"
            f"Each guess must be a word of {public_list()} (repeated letters allowed); a guess that is not on it "
            "costs a turn. After each guess I tell you how many letters of the secret appear in your guess, "
            "wherever they are (each letter of the secret counts once), and nothing else.\n\n"
            f"You have {config.turns} guesses to find the word. Make one guess per turn, written as the word "
            "alone, for example: crane"
        )
        candidates = len(listed) if listed else len(pool)
        data = {"secret": secret, "candidates": listed, "turns": config.turns, "honest_guesses": guesses,
                "candidate_count": candidates}
        return Problem(prompt=prompt, answer=secret, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(np.log2(problem.data["candidate_count"]) + problem.data["honest_guesses"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"history": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        guess = read_word(move)
        if guess is None:
            return Outcome.invalid(state, "write a single five-letter word", "guess")
        if guess not in word_index():
            unknown = f"{guess} is not in the word list"
            return Outcome(state, Verdict.wrong(unknown), f"{unknown}.")
        secret = problem.data["secret"]
        state = {"history": [*state["history"], [guess, common_letters(guess, secret)]]}
        if guess == secret:
            return Outcome(state, Verdict.right(), f"{guess} is the secret word. You found it!", True)
        count = common_letters(guess, secret)
        return Outcome(state, Verdict.wrong(), f"{guess}: {count} {'letter' if count == 1 else 'letters'} in common.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return best_guess(_key(problem.data["candidates"]), tuple((g, c) for g, c in state["history"]))

    def honest_move(self, view: View) -> str:
        """The honest player's guess from the listed candidates and the counts read from the observations."""
        history = tuple((guess, int(count)) for guess, count in _COUNTED.findall("\n".join(view.observations)))
        return best_guess(_key(view.public["candidates"]), history)

    def heuristics(self) -> dict[str, Any]:
        def listed_in_order(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            words_in_order = problem.data["candidates"] or secret_pool()
            return words_in_order[len(state["history"]) % len(words_in_order)]

        def random_candidate(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            return rng.choice(problem.data["candidates"] or secret_pool())

        return {"the candidates in order": listed_in_order, "a random candidate": random_candidate}


_COUNTED = re.compile(r"\b([a-z]{5}): ([0-5]) letters? in common")


def common_letters(guess: str, secret: str) -> int:
    """How many letters of ``secret`` (five different letters) appear in ``guess``, position ignored.

    >>> common_letters("geese", "grape"), common_letters("crane", "react")
    (2, 4)
    """
    return len(set(guess) & set(secret))


@functools.cache
def secret_pool() -> tuple[str, ...]:
    """The possible secrets: list words with five different letters and no anagram in the list."""
    distinct = [w for w in words() if len(set(w)) == LENGTH]
    spellings = Counter("".join(sorted(w)) for w in distinct)
    return tuple(w for w in distinct if spellings["".join(sorted(w))] == 1)


@functools.cache
def _pool_index() -> dict[str, int]:
    return {w: i for i, w in enumerate(secret_pool())}


@functools.cache
def _common_table() -> np.ndarray:
    """``table[g, s]`` = common letters of list word ``g`` and pool word ``s`` (one matrix product)."""
    presence = np.zeros((len(words()), 26), dtype=np.float32)
    for i, word in enumerate(words()):
        presence[i, [ord(c) - 97 for c in set(word)]] = 1
    pool_rows = presence[[word_index()[w] for w in secret_pool()]]
    return np.rint(presence @ pool_rows.T).astype(np.uint8)


@functools.cache
def _probes() -> np.ndarray:
    """The :data:`PROBES` list words that split the whole pool best (fewest left on average), in list order."""
    return np.sort(np.argsort(_expected_left(_common_table()), kind="stable")[:PROBES])


def _expected_left(outcomes: np.ndarray) -> np.ndarray:
    """Per row of counts (0-5) against the candidates: the sum of squared bucket sizes."""
    keys = outcomes.astype(np.int64) + 6 * np.arange(len(outcomes))[:, None]
    buckets = np.bincount(keys.ravel(), minlength=6 * len(outcomes)).reshape(len(outcomes), 6)
    return (buckets.astype(np.int64) ** 2).sum(axis=1)


def _key(candidates: list[str] | None) -> tuple[int, ...] | None:
    """The candidates as pool positions (hashable), or None for the whole pool."""
    return None if candidates is None else tuple(_pool_index()[w] for w in candidates)


@functools.lru_cache(maxsize=100_000)
def best_guess(candidates: tuple[int, ...] | None, history: tuple[tuple[str, int], ...]) -> str:
    """The honest player's guess: the candidate or probe word leaving the fewest candidates on average
    (a candidate on a tie, then list order) after ``history`` (pairs of guess and count)."""
    table, index, vocabulary = _common_table(), word_index(), words()
    remaining = np.arange(len(secret_pool())) if candidates is None else np.array(candidates)
    for guess, count in history:
        if guess in index:
            remaining = remaining[table[index[guess], remaining] == count]
    pool = secret_pool()
    if len(remaining) <= 2:
        return pool[int(remaining[0])] if len(remaining) else pool[0]
    candidate_rows = np.array([index[pool[int(s)]] for s in remaining])
    rows = np.union1d(candidate_rows, _probes())
    score = 2 * _expected_left(table[np.ix_(rows, remaining)]) - np.isin(rows, candidate_rows)
    return vocabulary[int(rows[int(np.argmin(score))])]


def honest_game(candidates: list[str] | None, secret: str, turns: int) -> int | None:
    """How many guesses the honest player needs to find ``secret``, or None if more than ``turns``."""
    key = _key(candidates)
    history: tuple[tuple[str, int], ...] = ()
    for turn in range(1, turns + 1):
        guess = best_guess(key, history)
        if guess == secret:
            return turn
        history = (*history, (guess, common_letters(guess, secret)))
    return None
