"""Mastermind's rules, for both the game (``games/mastermind``) and the deduction (``deduction/mastermind_deduce``).

A guess is scored against the secret code as (exact, misplaced): exact counts positions holding
the same symbol; misplaced counts the further symbols the two share, each symbol of either code
matched at most once, exact matches first. In the game's words, black and white pegs.

Codes are any sequences of hashable symbols (strings of letters, tuples or lists of digits).

Example::

    >>> score("ABBC", "BBAD"), score([1, 1, 2], [1, 2, 2])
    ((1, 2), (2, 0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence


def score(guess: Sequence[Hashable], secret: Sequence[Hashable]) -> tuple[int, int]:
    """(exact, misplaced): symbols right in the right place, and further shared symbols in the wrong place."""
    exact = sum(g == s for g, s in zip(guess, secret))
    common = sum((Counter(guess) & Counter(secret)).values())
    return exact, common - exact

