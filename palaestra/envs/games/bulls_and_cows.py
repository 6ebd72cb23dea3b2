"""Bulls and Cows with words: find a hidden five-letter word from counts of bulls and cows.

The secret is a five-letter word with no repeated letter. At the lower levels the prompt lists
the candidates it was drawn from (20 to 600 words of the shipped list); at the top level it is
any such word of the public palaestra word list. Each turn the model guesses one word of that list
(any five-letter word of it, repeated letters allowed) and is told its *bulls* (letters in the
right place) and *cows* (letters of the secret in the wrong place; each letter of the secret
counts once). Unlike Wordle, the reply does not say which letters scored. A word outside the
list, or an unreadable move, costs a turn. Reward 1 on the turn the secret is guessed, 0
otherwise.

The honest player (:meth:`BullsAndCows.honest_move`) keeps the candidates consistent with every
reply and guesses the word (a candidate first, any list word when that splits the candidates
better) whose worst reply leaves the fewest candidates; the turn budgets (4 to 8 guesses) are
the most it needed over 300 secrets per level plus one (two at the top level). The oracle plays like the honest player and
guesses the secret on its last turn. Random
guesses almost never win. The difficulty measure is the number of candidates over the turns.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.envs.games._words import letter_arrays, public_list, read_word, word_index, words

FULL = 0  # Config.candidates value meaning every word with no repeated letter
ROW_BLOCK = 256  # guesses scored at once (bounds the memory of the reply table)
SMALL_POOL = 300  # below this many candidates the honest player also tries every list word as its guess


@register
class BullsAndCows(MultiTurnTask):
    id = "games/bulls_and_cows"
    family = "games"
    description = "Find a hidden five-letter word from the bulls and cows each guessed word scores."
    tags = ("games", "multi-turn", "deduction", "words")
    one_move_per_turn = True
    hidden_information = True
    public_keys = ("candidates", "turns")

    @dataclass(frozen=True)
    class Config:
        candidates: int  # words the secret is drawn from (listed in the prompt); FULL: every isogram of the list
        turns: int

    presets = (Config(20, 4), Config(60, 5), Config(200, 6), Config(600, 7), Config(FULL, 8))
    bounded = "the top level already draws the secret from every word of the shipped list with no repeated letter"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pool = isograms()
        if config.candidates == FULL:
            listed: list[str] = []
            secret = rng.choice(pool)
            where = (f"The secret is a word of {public_list()} that has five different letters "
                     f"({len(pool):,} such words).")
        else:
            listed = sorted(rng.sample(pool, config.candidates))
            secret = rng.choice(listed)
            where = (f"The secret is one of these {len(listed)} words:\n{', '.join(listed)}\n\n"
                     f"Your guesses may be any word of {public_list()}.")
        prompt = (
            "Let's play Bulls and Cows with words. I have chosen a secret five-letter word with no repeated letter. "
            f"{where}\n\n"
            "After each guess I tell you its bulls (letters in the right place) and cows (letters of the secret "
            "that your guess has in another place; each letter of the secret counts at most once). You win by "
            f"guessing the secret; you have {config.turns} guesses. Write one word per turn, for example: crane"
        )
        data = {"secret": secret, "candidates": listed, "turns": config.turns}
        return Problem(prompt=prompt, answer=secret, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Candidates per guess allowed, plus the secret's share of letters common in the candidates (a word of
        common letters is harder to isolate)."""
        candidates = problem.data["candidates"] or isograms()
        common = sum(_letter_share(tuple(candidates))[ord(c) - 97] for c in problem.data["secret"]) / 5
        return len(candidates) / problem.data["turns"] + common

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"guesses": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        guess = read_word(move)
        if guess is None:
            return Outcome(state, Verdict.unparsed("write one five-letter word"),
                           "Invalid move: write one five-letter word, such as crane.")
        if guess not in word_index():
            return Outcome(state, Verdict.wrong("not in the list"), f"{guess.upper()} is not in the word list.")
        state = {"guesses": [*state["guesses"], guess]}
        bulls, cows = score(guess, problem.data["secret"])
        if bulls == 5:
            return Outcome(state, Verdict.right(), f"{guess.upper()}: 5 bulls, 0 cows. You found the word!", True)
        return Outcome(state, Verdict.wrong(), f"{guess.upper()}: {_count(bulls, 'bull')}, {_count(cows, 'cow')}.")

    def space_size(self, level: int) -> int | None:
        """The top level's problems are its secrets (every isogram); lower levels also draw the candidate list."""
        return len(isograms()) if self.level_config(level).candidates == FULL else None

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        """The honest player's guess (replies recomputed from the secret), and the secret itself on the last turn."""
        secret, guesses = problem.data["secret"], state["guesses"]
        if len(guesses) + 1 >= problem.data["turns"]:
            return secret
        replies = tuple((g, *score(g, secret)) for g in guesses)
        return best_guess(tuple(problem.data["candidates"]), replies)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return list(words())

    def honest_move(self, view: View) -> str:
        """The guess whose worst reply leaves the fewest candidates consistent with the replies so far."""
        replies = tuple((g.lower(), int(b), int(c)) for g, b, c in _REPLY.findall("\n".join(view.observations)))
        return best_guess(tuple(view.public["candidates"]), replies)


_REPLY = re.compile(r"^([A-Z]{5}): (\d) bulls?, (\d) cows?\.", re.MULTILINE)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def score(guess: str, secret: str) -> tuple[int, int]:
    """(bulls, cows) of ``guess`` against a ``secret`` with no repeated letter.

    >>> score("crane", "nacre"), score("llama", "plane")
    ((1, 4), (2, 0))
    """
    bulls = sum(g == s for g, s in zip(guess, secret))
    return bulls, len(set(guess) & set(secret)) - bulls


@functools.cache
def isograms() -> list[str]:
    """The words of the shipped list with five different letters, sorted."""
    return [w for w in words() if len(set(w)) == 5]


@functools.cache
def _letter_share(candidates: tuple[str, ...]) -> tuple[float, ...]:
    """Per letter a-z, the share of ``candidates`` holding it."""
    return tuple(sum(chr(97 + i) in w for w in candidates) / len(candidates) for i in range(26))


@functools.cache
def _letter_masks() -> np.ndarray:
    """Per word of the list, the set of its letters as a 26-bit mask."""
    return np.array([sum(1 << (ord(c) - 97) for c in set(w)) for w in words()], dtype=np.int32)


def _reply_codes(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """``bulls * 6 + cows`` for every guess (rows) against every secret with no repeated letter (columns).

    Both are indices into the word list. Against such a secret, bulls plus cows is the number of
    the guess's distinct letters the secret holds. Rows go in blocks to bound the memory.
    """
    letters, masks = letter_arrays()[0], _letter_masks()
    out = np.empty((len(guesses), len(secrets)), dtype=np.int16)
    for start in range(0, len(guesses), ROW_BLOCK):
        rows = guesses[start:start + ROW_BLOCK]
        bulls = (letters[rows][:, None, :] == letters[secrets][None, :, :]).sum(axis=2)
        shared = np.bitwise_count(masks[rows][:, None] & masks[secrets][None, :])
        out[start:start + ROW_BLOCK] = bulls * 5 + shared
    return out


def _worst_left(codes: np.ndarray) -> np.ndarray:
    """Per guess (row): the most candidates one reply can leave."""
    worst = np.zeros(len(codes), dtype=np.int32)
    for value in np.unique(codes):
        worst = np.maximum(worst, (codes == value).sum(axis=1))
    return worst


@functools.lru_cache(maxsize=4096)
def best_guess(listed: tuple[str, ...], replies: tuple[tuple[str, int, int], ...]) -> str:
    """The honest guess for candidates ``listed`` (empty: every isogram) after ``replies`` (guess, bulls, cows).

    Candidates are the words consistent with every reply; the guess minimises the most candidates a
    reply can leave, preferring a candidate (it may win at once), then the earlier word.
    """
    index = word_index()
    pool = np.array([index[w] for w in (listed or isograms())], dtype=np.int32)
    for guess, bulls, cows in replies:
        pool = pool[_reply_codes(np.array([index[guess]]), pool)[0] == bulls * 6 + cows]
    if len(pool) <= 2:
        return words()[int(pool[0])] if len(pool) else (listed or isograms())[0]
    tries = np.arange(len(words()), dtype=np.int32) if len(pool) <= SMALL_POOL else pool
    worst = _worst_left(_reply_codes(tries, pool)).astype(np.int64)
    is_candidate = np.isin(tries, pool)
    order = np.lexsort((tries, ~is_candidate, worst))
    return words()[int(tries[order[0]])]
