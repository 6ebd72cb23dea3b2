"""The shipped five-letter word list and Wordle-style marks, for the word games (no environment here).

- :func:`words`: the list (``words.txt``), read once per process;
- :func:`marks`: the G/Y/X marks of a guess against a secret (greens first, then yellows left
  to right, as many as the secret has unmatched copies);
- :func:`mark_block`: some guesses against some words as base-3 codes (numpy, a table filled on demand),
  :func:`mark_table` the whole table;
- :func:`code` / :func:`marks_from_code`: between ``"GYXXG"`` and its code;
- :func:`read_word`: a guessed word out of a move;
- :func:`hard_mode_allowed` / :func:`hard_mode_violation`: hard mode's rule, over the list or for one guess;
- :func:`public_list`: how a prompt names the list (public: shipped with the package, so a
  model can know it; the word games accept exactly the words of it).

These are the rules of ``games/wordle`` and ``games/absurdle`` (and the list of ``games/hangman`` and
``games/word_ladder``): one copy, so the games cannot drift apart.

Example::

    >>> marks("speed", "abide"), marks("lolly", "hello")
    ('XXYXY', 'XYGGX')
    >>> marks_from_code(code("GYXXG"))
    'GYXXG'
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib import resources

import numpy as np

from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import named

LENGTH = 5
GREEN, YELLOW, GREY = "G", "Y", "X"
ALL_GREEN = 3**LENGTH - 1


@functools.cache
def words() -> tuple[str, ...]:
    """The shipped list of common five-letter words, sorted."""
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return tuple(sorted({w.strip() for w in text.split() if len(w.strip()) == LENGTH}))


def public_list() -> str:
    """The list as prompts name it: where it is published and how many words it holds."""
    return (f"the public palaestra word list (palaestra/envs/games/words.txt in the palaestra package: {len(words()):,} "
            "common five-letter English words)")


@functools.cache
def word_index() -> dict[str, int]:
    return {w: i for i, w in enumerate(words())}


def marks(guess: str, secret: str) -> str:
    out = [GREY] * LENGTH
    unmatched: Counter[str] = Counter()
    for i, (g, s) in enumerate(zip(guess, secret)):
        if g == s:
            out[i] = GREEN
        else:
            unmatched[s] += 1
    for i, g in enumerate(guess):
        if out[i] == GREY and unmatched[g]:
            out[i] = YELLOW
            unmatched[g] -= 1
    return "".join(out)


def code(text: str) -> int:
    """``"XYG.."`` -> base-3 code, X = 0, Y = 1, G = 2, the first letter least significant."""
    return sum({GREY: 0, YELLOW: 1, GREEN: 2}[m] * 3**i for i, m in enumerate(text))


def marks_from_code(value: int) -> str:
    out = []
    for _ in range(LENGTH):
        value, digit = divmod(value, 3)
        out.append((GREY, YELLOW, GREEN)[digit])
    return "".join(out)


def mark_block(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """``block[a, b]`` = the code of ``marks(words[guesses[a]], words[secrets[b]])``.

    The table of every word against every secret is filled a secret (column) at a time, the
    first time a secret is asked for: a process pays only for the secrets its games meet, the
    first games no more than their own blocks, and later games mostly read what is there.

    >>> i = word_index()
    >>> marks_from_code(int(mark_block(np.array([i["speed"]]), np.array([i["abide"]]))[0, 0]))
    'XXYXY'
    """
    table, filled = _table()
    secrets = np.asarray(secrets)
    missing = np.unique(secrets[~filled[secrets]])
    if len(missing):
        table[:, missing] = _compute_block(np.arange(len(table)), missing)
        filled[missing] = True
    return table[np.ix_(np.asarray(guesses), secrets)]


def mark_table() -> np.ndarray:
    """``table[g, s]`` = the code of ``marks(words[g], words[s])`` for every pair (filled now where it is not yet).

    Read only: the array is the cache :func:`mark_block` reads too.
    """
    table, filled = _table()
    if not filled.all():
        mark_block(np.arange(0), np.flatnonzero(~filled))
    return table


@functools.cache
def _table() -> tuple[np.ndarray, np.ndarray]:
    """The table of marks being filled by :func:`mark_block`, and which of its columns are filled."""
    n = len(words())
    return np.zeros((n, n), dtype=np.uint8), np.zeros(n, dtype=bool)


def _compute_block(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """The marks of ``guesses`` against ``secrets`` as codes, with array operations.

    A letter is yellow when it is not green and the secret has more copies of it than the guess
    spends before it (earlier copies in the guess, and later copies that are green).
    """
    letters, copies = letter_arrays()
    guess, secret = letters[np.asarray(guesses)], letters[np.asarray(secrets)]
    secret_copies = copies[np.asarray(secrets)].T  # letter -> copies in each secret
    green = [guess[:, i, None] == secret[None, :, i] for i in range(LENGTH)]
    block = np.zeros((len(guess), len(secret)), dtype=np.uint8)
    for i in range(LENGTH):
        spent = (guess[:, :i] == guess[:, i, None]).sum(axis=1, dtype=np.int8)[:, None]
        for k in range(i + 1, LENGTH):
            same = guess[:, k] == guess[:, i]
            if same.any():
                spent = spent + (green[k] & same[:, None])
        yellow = ~green[i] & (spent < secret_copies[guess[:, i]])
        block += np.uint8(3**i) * (2 * green[i].astype(np.uint8) + yellow)
    return block


def read_word(move: str) -> str | None:
    """The word of a move in lower case (five ASCII letters, maybe quoted, or named: ``Next word: crane``,
    ``I play crane.``), or None.

    >>> read_word('"Crane"'), read_word("Next word: crane"), read_word("crane or crate")
    ('crane', 'crane', None)
    """
    if len(move) > MAX_MOVE_CHARS:
        return None

    def word(text: str) -> str | None:
        text = text.strip().strip("\"'")
        return text.lower() if len(text) == LENGTH and text.isascii() and text.isalpha() else None

    return read_move_answer(move, named(word, "word|guess"))


@functools.cache
def letter_arrays() -> tuple[np.ndarray, np.ndarray]:
    """The word list as letter codes (words x 5) and letter counts (words x 26)."""
    letters = np.array([[ord(c) - 97 for c in w] for w in words()], dtype=np.int8)
    counts = np.zeros((len(letters), 26), dtype=np.int8)
    for i in range(LENGTH):
        np.add.at(counts, (np.arange(len(letters)), letters[:, i]), 1)
    return letters, counts


def hard_mode_allowed(history: Iterable[Sequence[str]]) -> np.ndarray:
    """A mask over the word list: the guesses hard mode allows after ``history`` (pairs of guess and marks):
    every green letter kept in place, every revealed letter used at least as often as it was shown."""
    letters, counts = letter_arrays()
    allowed = np.ones(len(letters), dtype=bool)
    for earlier, answer in history:
        shown: Counter[str] = Counter()
        for i, (letter, mark) in enumerate(zip(earlier, answer)):
            if mark == GREEN:
                allowed &= letters[:, i] == ord(letter) - 97
            if mark != GREY:
                shown[letter] += 1
        for letter, count in shown.items():
            allowed &= counts[:, ord(letter) - 97] >= count
    return allowed


def hard_mode_violation(guess: str, history: Iterable[Sequence[str]]) -> str:
    """Why ``guess`` ignores a hint of ``history`` (pairs of guess and marks) in hard mode ('' when it uses them all).

    >>> hard_mode_violation("crane", [("carts", "GXXGY")]), hard_mode_violation("coats", [("carts", "GXXGY")])
    ('letter 4 must be T', '')
    """
    for earlier, answer in history:
        for i, (letter, mark) in enumerate(zip(earlier, answer)):
            if mark == GREEN and guess[i] != letter:
                return f"letter {i + 1} must be {letter.upper()}"
        shown = Counter(letter for letter, mark in zip(earlier, answer) if mark != GREY)
        for letter, count in sorted(shown.items()):
            if guess.count(letter) < count:
                return f"the guess must contain {letter.upper()}" + (f" {count} times" if count > 1 else "")
    return ""
