"""Playing cards shared by the card games (no environment here): a 52-card deck, card names, a card reader.

A card is an integer ``suit * 13 + rank - 1`` with ranks 1 (ace) to 13 (king) and suits clubs,
diamonds, hearts, spades (0-3). Games that rank the ace high map the rank themselves
(:func:`ace_high`). Names are rank then suit letter (``AC``, ``10H``, ``QS``).

:func:`read_card_name` reads one card in the spellings a careful reader accepts (``QS``, ``q s``,
``10h``, ``Th``, ``queen of spades``, ``Q♠``); games wrap it in their own move grammar
(``discard 7H``) through :data:`CARD_PATTERN`.

    >>> card_name(card(12, 3)), read_card_name("queen of spades") == card(12, 3)
    ('QS', True)
    >>> cards_text([card(1, 0), card(10, 2), card(2, 0)])
    'AC 2C 10H'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # index = rank - 1
_RANK_WORDS = {"ace": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
               "nine": 9, "ten": 10, "t": 10, "jack": 11, "j": 11, "queen": 12, "q": 12, "king": 13, "k": 13}
_SUIT_WORDS = {**{name: i for i, name in enumerate(SUIT_NAMES)}, **{name[:-1]: i for i, name in enumerate(SUIT_NAMES)},
               **{s.lower(): i for i, s in enumerate(SUITS)}, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
# One card name, lower case, as a pattern with two groups (rank, suit), for embedding in a game's move grammar.
CARD_PATTERN = (r"(10|[2-9]|[atjqk]|ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
                r" ?(?:of )?(clubs?|diamonds?|hearts?|spades?|[cdhs♣♦♥♠])")
_CARD = re.compile(rf"^{CARD_PATTERN}$")
_NAME = re.compile(r"(10|[2-9AJQK])([CDHS])")


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1 = ace .. 13 = king) and ``suit`` (0-3: clubs, diamonds, hearts, spades)."""
    return suit * 13 + rank - 1


def rank_of(c: int) -> int:
    return c % 13 + 1


def suit_of(c: int) -> int:
    return c // 13


def ace_high(c: int) -> int:
    """The rank with the ace above the king (2 .. 14)."""
    return 14 if c % 13 == 0 else c % 13 + 1


def card_name(c: int) -> str:
    """``QS`` for the queen of spades (rank, then suit letter)."""
    return f"{RANK_NAMES[c % 13]}{SUITS[c // 13]}"


def deck(ranks: int = 13) -> list[int]:
    """The cards of ranks 1..``ranks`` in all four suits (a short deck keeps the low ranks)."""
    return [card(rank, suit) for suit in range(4) for rank in range(1, ranks + 1)]


def cards_text(cards: Iterable[int]) -> str:
    """Cards by suit (clubs first), then rank, as names separated by spaces."""
    return " ".join(card_name(c) for c in sorted(cards))


def card_from_groups(rank_text: str, suit_text: str) -> int:
    """The card named by the two groups :data:`CARD_PATTERN` matched."""
    rank = _RANK_WORDS[rank_text] if rank_text in _RANK_WORDS else int(rank_text)
    return card(rank, _SUIT_WORDS[suit_text])


def read_card_name(text: str) -> int | None:
    """The one card ``text`` names, or None: no lead-in words, any case, spaces squeezed."""
    match = _CARD.match(" ".join(text.lower().split()))
    return card_from_groups(*match.groups()) if match else None


def parse_names(text: str) -> list[int]:
    """The cards written as canonical names (``7H 10C``) in a text the game wrote (an observation), in order."""
    return [card(RANK_NAMES.index(rank) + 1, SUITS.index(suit)) for rank, suit in _NAME.findall(text)]
