"""The shipped five-letter word list and Wordle-style marks, for the word games (no environment here).

- :func:`words`: the list (``words.txt``), read once per process;
- :func:`marks`: the G/Y/X marks of a guess against a secret (greens first, then yellows left
  to right, as many as the secret has unmatched copies);
- :func:`mark_table`: every guess against every word as base-3 codes (numpy, built once);
- :func:`code` / :func:`marks_from_code`: between ``"GYXXG"`` and its code;
- :func:`read_word`: a guessed word out of a move.

``games/wordle`` keeps its own copy of these rules; it could move onto this module.

Example::

    >>> marks("speed", "abide"), marks("lolly", "hello")
    ('XXYXY', 'XYGGX')
    >>> marks_from_code(code("GYXXG"))
    'GYXXG'
"""

from __future__ import annotations

import functools
from collections import Counter
from importlib import resources

import numpy as np

from palaestra.verifiers.normalize import read_with_tail

LENGTH = 5
MAX_MOVE_CHARS = 300
GREEN, YELLOW, GREY = "G", "Y", "X"
ALL_GREEN = 3**LENGTH - 1


@functools.cache
def words() -> tuple[str, ...]:
    """The shipped list of common five-letter words, sorted."""
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return tuple(sorted({w.strip() for w in text.split() if len(w.strip()) == LENGTH}))


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


@functools.cache
def mark_table() -> np.ndarray:
    """``table[g, s]`` = the code of ``marks(words[g], words[s])``, built once with array operations.

    A letter is yellow when it is not green and the secret has more copies of it than the
    guess spends before it (earlier copies in the guess, and later copies that are green).
    """
    vocabulary = words()
    letters = np.array([[ord(c) - 97 for c in w] for w in vocabulary], dtype=np.int8)
    n = len(vocabulary)
    copies = np.zeros((n, 26), dtype=np.int8)
    for i in range(LENGTH):
        np.add.at(copies, (np.arange(n), letters[:, i]), 1)
    secret_copies = copies.T  # letter -> copies in each secret
    green = [letters[:, i, None] == letters[None, :, i] for i in range(LENGTH)]
    table = np.zeros((n, n), dtype=np.uint8)
    for i in range(LENGTH):
        spent = np.repeat((letters[:, :i] == letters[:, i, None]).sum(axis=1)[:, None], n, axis=1)
        for k in range(i + 1, LENGTH):
            same = letters[:, k] == letters[:, i]
            if same.any():
                spent = spent + (green[k] & same[:, None])
        yellow = ~green[i] & (spent < secret_copies[letters[:, i]])
        table += np.uint8(3**i) * (2 * green[i].astype(np.uint8) + yellow)
    return table


def read_word(move: str) -> str | None:
    """The word of a move in lower case (five ASCII letters, maybe quoted or followed by a short remark), or None.

    >>> read_word('"Crane". A good start.'), read_word("crane or crate")
    ('crane', None)
    """
    if len(move) > MAX_MOVE_CHARS:
        return None

    def word(text: str) -> str | None:
        text = text.strip().strip("\"'")
        return text.lower() if len(text) == LENGTH and text.isascii() and text.isalpha() else None

    return read_with_tail(move, word)
