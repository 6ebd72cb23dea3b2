r"""Reading answers that are several items: sets (order free) and lists (order kept).

Spellings read as the same items ``2, 3``:

- brackets ``{2, 3}``, ``\{2, 3\}``, ``[2, 3]``, ``(2, 3)`` (unless ``parens=False``), none;
- separators ``,`` ``;`` new lines, ``and``, ``, and`` (and spaces where the caller says items
  hold none: ``space_separated=True``); bullets (``- a`` or ``1. a`` on every line);
- a lead-in ``S = {…}``, ``x ∈ {…}``, ``x_{1,2} = …``, ``Solutions: …``, ``The roots are …``,
  and per item ``x = 2, x = 3`` or ``x_1 = 2, x_2 = 3``;
- quoted items ``'a'``, ``"a"`` (``['d2d3', 'd2d4']``);
- ``2 or 3`` (``2 \text{ or } 3``) only with ``allow_or=True``, for a question that asks for
  all solutions; otherwise an ``or`` is a hedge and the answer is unreadable;
- the empty set (``∅``, ``\emptyset``, ``{}``, ``none``, ``no solutions``, ...) only with
  ``allow_empty=True``; ``empty_words`` adds spellings (e.g. ``"0"`` for "no moves").

Items are read by a caller-given ``read_item`` (text -> value or ``None``); one
unreadable item makes the whole answer unreadable. A short trailing sentence is read
past by the rule in :mod:`palaestra.verifiers.normalize`.

Example::

    >>> from palaestra.verifiers.numeric import read_exact
    >>> read_set("x ∈ {3, -1}", read_exact) == {3, -1}, read_set(r"2 \text{ or } 3", read_exact, allow_or=True)
    (True, frozenset({Fraction(2, 1), Fraction(3, 1)}))
    >>> read_set("2 or 3", read_exact), read_set("no solutions", read_exact, allow_empty=True)
    (None, frozenset())
    >>> read_set("S = {A3, H3}") == read_set("A3 and H3") == {"A3", "H3"}, read_list("['d2d3', 'd2d4']")
    (True, ['d2d3', 'd2d4'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from palaestra.verifiers.normalize import (
    enclosed,
    read_answer,
    simplify_latex,
    split_top_level,
    squeeze_spaces,
    strip_wrappers,
    unify,
)

T = TypeVar("T")

MAX_ITEMS = 1_000
MAX_SET_CHARS = 20_000
MAX_ITEM_CHARS = 200
EMPTY_WORDS = (
    "∅", "{}", "[]", "()", "{ }", "[ ]", "none", "nothing", "empty", "empty set", "the empty set", "no solution",
    "no solutions", "no real solution", "no real solutions", "there is no solution", "there are no solutions",
    "there are no real solutions", "there is no real solution",
)

_NAME = r"[A-Za-z][A-Za-z0-9]{0,15}(?:_\{?[A-Za-z0-9, ]{1,12}\}?)?"
_VARIABLE = r"[A-Za-z](?:_\{?[A-Za-z0-9, ]{1,12}\}?)?"
# "S = …", "x ∈ …", "x_{1,2} = …", "x: …" (one letter: "lambda: 1" is no lead-in), "The roots are …"; not a chess
# promotion ("d8=Q": the square is no name, the piece letter no value)
_LEAD_IN = re.compile(
    rf"^(?:(?P<name>{_NAME}) ?(?P<op>=(?![QRBNqrbn](?![A-Za-z0-9]))|∈)|{_VARIABLE} ?:"
    rf"|(?:the )?(?:solutions?|roots?|answers?|values?|elements?|items?|set|moves?)(?: of {_NAME})?"
    rf" ?(?:(?:is|are)\b ?:?|:)) ?",
    re.IGNORECASE,
)
_ITEM_NAME = re.compile(r"^[A-Za-z](?:_\{?[A-Za-z0-9]{1,3}\}?)? ?(?:=|∈) ?")
_BULLET = re.compile(r"^(?:([-*•])|(\d{1,4})[.)]) ")
_OR = re.compile(r"\bor\b", re.IGNORECASE)
_QUOTES = (('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("`", "`"))


def _separators(allow_space: bool) -> re.Pattern[str]:
    space = "| " if allow_space else ""
    return re.compile(rf" ?[,;] ?(?:(?:and|or) )?| ?\n ?| (?:and|or|&) {space}", re.IGNORECASE)


_SEPARATORS = {flag: _separators(flag) for flag in (False, True)}


def read_token(text: str) -> str | None:
    """The default item reader: one word-like token (no spaces or brackets, no sentence
    punctuation at its ends, at most 200 characters).

    >>> read_token("H3"), read_token("two words"), read_token("f(x)"), read_token("H3.")
    ('H3', None, None, None)
    """
    s = text.strip()
    if not s or len(s) > MAX_ITEM_CHARS or any(char.isspace() or char in ",;()[]{}" for char in s):
        return None
    return None if s[0] in ".:!?" or s[-1] in ".:!?" else s


def one_of(vocabulary: Iterable[str], *, case_sensitive: bool = False) -> Callable[[str], str | None]:
    """An item reader accepting only the words of ``vocabulary`` (returned as spelled there).

    >>> read_set("a3 and h3", one_of(["A3", "H3", "B1"])) == {"A3", "H3"}, read_set("A3, Q9", one_of(["A3"]))
    (True, None)
    """
    canonical = {(word if case_sensitive else word.lower()): word for word in vocabulary}

    def read(text: str) -> str | None:
        token = read_token(_unquote(text))
        return None if token is None else canonical.get(token if case_sensitive else token.lower())

    return read


def numbered(count: int, nouns: Iterable[str] = ()) -> Callable[[str], int | None]:
    """A reader of one item number ``1..count`` for answers that pick numbered things: ``4``, ``#4``, ``(4)``,
    ``"4"``, or one of ``nouns`` before it in any case (``sentence 4``, ``S4``, ``claim #4``, ``No. 4``).

    >>> read = numbered(5, nouns=("sentence", "s"))
    >>> read("Sentence 4"), read("S2"), read("(3)"), read("#1"), read("6"), read("4)"), read("four")
    (4, 2, 3, 1, None, None, None)
    """
    ordered = sorted((noun.lower() for noun in nouns), key=len, reverse=True)  # "sentence" before "s"

    def read(item: str) -> int | None:
        text = item.strip().strip("\"'").strip()
        if text.startswith("(") and text.endswith(")"):
            text = text[1:-1].strip()
        lower = text.lower()
        for noun in ordered:
            if lower.startswith(noun):
                text = text[len(noun):].strip()
                break
        text = text.removeprefix("#").strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 3:
            return None
        number = int(text)
        return number if 1 <= number <= count else None

    return read


def _unquote(item: str) -> str:
    s = strip_wrappers(item)
    for left, right in _QUOTES:
        if len(s) >= 2 and s[0] == left and s[-1] == right and left not in s[1:-1]:
            return s[1:-1].strip()
    return s


def _strip_bullets(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Bullets or 1., 2., ... numbering removed when every line carries them (and nothing else separates)."""
    if len(pieces) < 2 or any(before.strip() != "" for before, _ in pieces[1:]):
        return pieces
    marks = [_BULLET.match(piece) for _, piece in pieces]
    if not all(marks):
        return pieces
    bullets = {m.group(1) for m in marks if m}
    numbers = [m.group(2) for m in marks if m]
    if bullets == {None} and numbers != [str(i) for i in range(1, len(pieces) + 1)]:
        return pieces
    if bullets != {None} and len(bullets) != 1:
        return pieces
    return [(before, piece[m.end() :]) for (before, piece), m in zip(pieces, marks) if m]


def _read_core(
    text: str,
    read_item: Callable[[str], Any],
    allow_empty: bool,
    empty_words: frozenset[str],
    allow_or: bool,
    space_separated: bool,
    parens: bool,
    prefix: bool,
    expand: Callable[[str], Sequence[str] | None] | None,
    max_items: int,
) -> list[Any] | None:
    s = strip_wrappers(squeeze_spaces(simplify_latex(unify(text))))
    variables = set()  # the unknown the items are values of: "x = 2, x = 3", never "x = 2, y = 3"
    if prefix:
        lead_in = _LEAD_IN.match(s)
        if lead_in and lead_in.end() < len(s):
            s = strip_wrappers(s[lead_in.end() :])
            if lead_in.group("op") == "=" and _ITEM_NAME.match(lead_in.group()):
                variables.add(lead_in.group()[0])
    if s.lower().rstrip(".") in empty_words:
        return [] if allow_empty else None
    if not s:
        return None  # no answer is not the empty set
    if enclosed(s, "{[(" if parens else "{["):
        s = s[1:-1].strip()
        if not s:
            return [] if allow_empty else None
    pieces = split_top_level(s, _SEPARATORS[space_separated], limit=max_items + 1)
    if len(pieces) > 1 and not pieces[-1][1].strip():
        pieces = pieces[:-1]  # a trailing comma, as in Python's [1, 2,]
    if len(pieces) > max_items:
        return None
    if not allow_or and any(_OR.search(before) for before, _ in pieces):
        return None
    pieces = _strip_bullets(pieces)
    if any(piece.rstrip().endswith((".", "!", "?")) for _, piece in pieces[:-1]):
        return None  # a sentence ends inside the list: "2, 3. Or 4."
    items: list[Any] = []
    for _, piece in pieces:
        item = _unquote(piece)
        if prefix:
            named = _ITEM_NAME.match(item)
            if named and named.end() < len(item):
                item = item[named.end() :]
                variables.add(named.group()[0])
                if len(variables) > 1:
                    return None  # "x = 2, y = 3" names two unknowns: not a set of values of one
        for part in [item] if expand is None else (expand(item) or [None]):
            value = None if part is None or not part.strip() else read_item(part.strip())
            if value is None:
                return None
            items.append(value)
            if len(items) > max_items:
                return None
    return items


def read_items(
    text: str,
    read_item: Callable[[str], T | None] = read_token,  # type: ignore[assignment]
    *,
    allow_empty: bool = False,
    empty_words: Iterable[str] = (),
    allow_or: bool = False,
    space_separated: bool = False,
    parens: bool = True,
    prefix: bool = True,
    expand: Callable[[str], Sequence[str] | None] | None = None,
    duplicates: str = "keep",
    max_items: int = MAX_ITEMS,
    max_chars: int = MAX_SET_CHARS,
) -> list[T] | None:
    """The items of ``text`` in written order, or ``None`` (see the module docstring for spellings).

    ``read_item``: text -> value or ``None`` (default :func:`read_token`). ``expand``: splits
    one item's text into several (e.g. ``1 ± √2`` into two), ``None`` if it cannot.
    ``duplicates``: ``"keep"``, ``"merge"`` (keep the first) or ``"reject"`` (unreadable).
    ``prefix=False`` keeps ``x = …`` in items, for items that are equations.
    Never raises on any ``text``; ``None`` past ``max_items`` items or ``max_chars`` characters.

    >>> read_items("1. up\\n2. left\\n3. up", duplicates="keep"), read_items("a, a", duplicates="reject")
    (['up', 'left', 'up'], None)
    """
    if not isinstance(text, str) or len(text) > max_chars:
        return None
    if duplicates not in ("keep", "merge", "reject"):
        raise ValueError("duplicates must be 'keep', 'merge' or 'reject'")
    empty = frozenset(w.lower() for w in (*EMPTY_WORDS, *empty_words))
    items = read_answer(
        text,
        lambda s: _read_core(s, read_item, allow_empty, empty, allow_or, space_separated, parens, prefix, expand,
                             max_items),
    )
    if items is None or duplicates == "keep":
        return items
    unique: list[T] = []
    seen: set[Any] = set()
    for item in items:
        try:
            repeated = item in seen
            seen.add(item)
        except TypeError:  # unhashable items: compare one by one (at most max_items of them)
            repeated = item in unique
        if repeated:
            if duplicates == "reject":
                return None
            continue
        unique.append(item)
    return unique


def read_list(
    text: str,
    read_item: Callable[[str], T | None] = read_token,  # type: ignore[assignment]
    **options: Any,
) -> list[T] | None:
    """The items of ``text`` in written order, duplicates kept (see :func:`read_items` for options).

    >>> from palaestra.verifiers.numeric import read_exact
    >>> read_list("3, 1, and 2", read_exact)
    [Fraction(3, 1), Fraction(1, 1), Fraction(2, 1)]
    """
    return read_items(text, read_item, **options)


def read_set(
    text: str,
    read_item: Callable[[str], Hashable | None] = read_token,
    *,
    duplicates: str = "reject",
    **options: Any,
) -> frozenset[Any] | None:
    """The items of ``text`` as a set of hashable values; an item given twice is unreadable unless
    ``duplicates="merge"`` (see :func:`read_items` for the other options).

    >>> read_set("{b, a}") == read_set("a and b"), read_set("a, a"), read_set("a, a", duplicates="merge")
    (True, None, frozenset({'a'}))
    """
    items = read_items(text, read_item, duplicates=duplicates, **options)
    return None if items is None else frozenset(items)
