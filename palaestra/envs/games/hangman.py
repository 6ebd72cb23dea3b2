"""Hangman: reveal a hidden phrase of common five-letter words by guessing letters before the lives run out.

The secret is one to three words from the shipped word list (``words.txt``), shown as blanks
with the word breaks visible. Each turn the model either guesses one letter (``e``, ``E``,
``letter e``, ``guess e``) or tries the whole phrase (``solve crane house``, or the words
alone). A letter in the phrase is revealed everywhere; a letter not in it, or a wrong solve,
costs a life. A letter already guessed, or anything unreadable (two letters, digits, a phrase
of the wrong shape) costs a turn but no life. Reward 1 when the whole phrase is revealed or
solved, 0 when the lives run out.

The secret is named in the prompt as words of the public list, so a player can reason about
which words fit. The oracle guesses the phrase's letters, so it never loses a life; the honest
player (:meth:`Hangman.honest_move`) reads only the masks: it guesses the letter most of the
fitting words hold and solves once each word has one candidate, and wins about 80-90% of games
at every level (version 2 gives more lives at levels 1-4 so that it does). Levels add words and
trade lives against letters. The turn budget is the phrase's letters (its length without spaces) plus the lives plus
three, all of which the player sees (version 3; version 2 counted the distinct letters, which the turns left told). The
difficulty measure is the number of distinct letters to find
per life.
"""

from __future__ import annotations

import functools
import random
import re
import string
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.core.task import Growth
from palaestra.envs.games._words import letter_arrays, public_list
from palaestra.envs.games._words import words as listed_words
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import squeeze_spaces, unify

BLANK = "_"
LETTER_PREFIXES = ("guess the letter ", "guess letter ", "the letter ", "letter ", "guess ")
SOLVE_PREFIXES = ("solve:", "solve ", "the phrase is ", "the word is ", "the answer is ")


@register
class Hangman(MultiTurnTask):
    id = "games/hangman"
    family = "games"
    description = "Guess the letters of a hidden phrase of common words before the lives run out."
    tags = ("games", "multi-turn", "words", "deduction")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 3  # v3: the turn budget no longer counts the secret's distinct letters (the turns left told it)
    hidden_information = True
    honest_win_share = 0.7  # a letter can miss whatever the player knows: the honest player wins about 80-90%

    @dataclass(frozen=True)
    class Config:
        words: int  # five-letter words in the phrase
        lives: int  # wrong guesses allowed

    presets = (
        Config(words=1, lives=8),
        Config(words=1, lives=6),
        Config(words=2, lives=7),
        Config(words=2, lives=6),
        Config(words=3, lives=6),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        phrase = " ".join(rng.choice(words()) for _ in range(config.words))
        what = f"a word of {public_list()}" if config.words == 1 else (
            f"a phrase of {config.words} words of {public_list()} (not necessarily a meaningful phrase)")
        prompt = (
            f"Let's play hangman. I have chosen {what}. You have {config.lives} lives.\n"
            f"Secret: {_mask(phrase, '')}\n\n"
            "Each turn, either guess one letter, written as the letter alone (for example: e), or try the whole "
            "secret, written as 'solve' and the words (for example: solve "
            f"{' '.join(['crane'] * config.words)}). A guessed letter is revealed everywhere it appears. A letter "
            "not in the secret, or a wrong solve, costs a life. Repeating a letter, or an unreadable guess, costs a "
            "turn but no life. You win when the whole secret is revealed or solved."
        )
        data = {"phrase": phrase, "lives": config.lives}
        return Problem(prompt=prompt, answer=phrase, data=data)

    def space_size(self, level: int) -> int | None:
        """A one-word level holds one problem per word of the list."""
        return len(words()) if self.level_config(level).words == 1 else None

    def max_turns(self, problem: Problem) -> int:
        # From what the player sees (the phrase's length, shown as blanks, and the lives): v2 counted the phrase's
        # distinct letters, and every observation's "(N turns left)" gave that count of the secret away.
        letters = len(problem.data["phrase"].replace(" ", ""))
        return letters + problem.data["lives"] + 3

    def difficulty(self, problem: Problem) -> float:
        return len(set(problem.data["phrase"]) - {" "}) / problem.data["lives"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"guessed": "", "lives": problem.data["lives"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        phrase = problem.data["phrase"]
        guess = read_guess(move, len(phrase.split()))
        if guess is None:
            return Outcome.invalid(state, "write one letter, or 'solve' followed by the whole secret")
        guessed, lives = state["guessed"], state["lives"]
        if len(guess) > 1:
            if guess == phrase:
                return Outcome({**state, "guessed": guessed}, Verdict.right(), f"Yes, the secret is {phrase}. You win!",
                               True)
            return self._wrong({"guessed": guessed, "lives": lives - 1}, phrase, f"No, the secret is not {guess}.")
        if guess in guessed:
            return Outcome(state, Verdict.unparsed("repeated letter"),
                           f"You already guessed {guess.upper()}. Secret: {_mask(phrase, guessed)}")
        guessed = "".join(sorted(guessed + guess))
        count = phrase.count(guess)
        if count == 0:
            return self._wrong({"guessed": guessed, "lives": lives - 1}, phrase, f"No {guess.upper()}.")
        state = {"guessed": guessed, "lives": lives}
        shown = _mask(phrase, guessed)
        if BLANK not in shown:
            return Outcome(state, Verdict.right(), f"Yes, {guess.upper()}! Secret: {shown}. You win!", True)
        times = "once" if count == 1 else f"{count} times"
        return Outcome(state, Verdict.wrong("not finished"),
                       f"Yes, {guess.upper()} appears {times}. Secret: {shown}. Lives: {lives}.")

    def _wrong(self, state: dict[str, Any], phrase: str, said: str) -> Outcome:
        if state["lives"] <= 0:
            return Outcome(state, Verdict.wrong("out of lives"), f"{said} No lives left: you lose. The secret was "
                                                                 f"{phrase}.", True)
        return Outcome(state, Verdict.wrong("wrong guess"),
                       f"{said} Secret: {_mask(phrase, state['guessed'])}. Lives: {state['lives']}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        missing = sorted(set(problem.data["phrase"]) - set(state["guessed"]) - {" "})
        return missing[0] if missing else problem.data["phrase"]


    def honest_move(self, view: View) -> str:
        """Solve once each word has one candidate in the public list; else the letter most candidates hold."""
        masks = _SECRET.findall("\n".join([view.prompt, *view.observations]))[-1].split("   ")
        guessed = {move.strip().lower() for move, _ in view.history if len(move.strip()) == 1}
        missed = {letter for letter in guessed if letter.upper() not in "".join(masks)}
        options = [_fitting(mask.replace(" ", ""), missed) for mask in masks]
        if all(len(found) == 1 for found in options) and not _SOLVED.search(" ".join(o for _, o in view.history)):
            return "solve " + " ".join(found[0] for found in options)
        counts: Counter[str] = Counter()
        for found in options:
            for word in found:
                counts.update(set(word) - guessed)
        return max(sorted(counts), key=lambda letter: counts[letter]) if counts else "solve " + " ".join(
            found[0] if found else "crane" for found in options)


_SECRET = re.compile(r"Secret: ([A-Z_][A-Z_ ]*[A-Z_])")
_SOLVED = re.compile(r"No, the secret is not")


def _fitting(mask: str, missed: set[str]) -> list[str]:
    """The list's words that fit a mask such as ``_R__E`` (revealed letters only where shown, no missed letter)."""
    letters, _ = letter_arrays()
    shown = {ch.lower() for ch in mask if ch != BLANK}
    banned = np.array([ord(ch) - 97 for ch in shown | missed], dtype=letters.dtype)
    fits = np.ones(len(letters), dtype=bool)
    for i, m in enumerate(mask):
        column = letters[:, i]
        fits &= (column == ord(m.lower()) - 97) if m != BLANK else ~np.isin(column, banned)
    return [listed_words()[i] for i in np.flatnonzero(fits)]


def read_guess(move: str, word_count: int) -> str | None:
    """One lower-case letter, or a solve attempt as ``word_count`` five-letter words joined by spaces, or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> str | None:
        s = squeeze_spaces(unify(text)).strip().lower().strip("\"'")
        for prefix in SOLVE_PREFIXES:
            if s.startswith(prefix):
                return _phrase(s[len(prefix):], word_count)
        for prefix in LETTER_PREFIXES:
            if s.startswith(prefix):
                s = s[len(prefix):].strip().strip("\"'")
                break
        if len(s) == 1:
            return s if s in string.ascii_lowercase else None
        return _phrase(s, word_count)

    return read_move_answer(move, read)


def _phrase(text: str, word_count: int) -> str | None:
    parts = text.strip().strip("\"'").split()
    if len(parts) != word_count or not all(len(p) == 5 and p.isascii() and p.isalpha() for p in parts):
        return None
    return " ".join(parts)


def _mask(phrase: str, guessed: str) -> str:
    return "   ".join(" ".join(ch.upper() if ch in guessed else BLANK for ch in word) for word in phrase.split())


@functools.cache
def words() -> tuple[str, ...]:
    """The shipped five-letter word list, read once per process."""
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return tuple(sorted({w.strip() for w in text.split() if len(w.strip()) == 5}))
