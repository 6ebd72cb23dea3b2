"""Reading one answer out of a fixed set: yes/no, true/false, lettered options, named classes.

The answer must be exactly one spelling of one option (any case, wrappers and
``Answer:`` lead-ins looked through, ``(A)``, ``A)``, ``[A]``, ``option A`` for labels),
under the answer grammar of :mod:`palaestra.verifiers.normalize`: a closing full stop
is fine, any further text is not read past. ``Yes.`` reads as yes; ``Yes, it is
entailed.``, ``yes. I take it back.``, ``Yes, no wait, no``, ``yes or no`` and
``A or B`` are unreadable.

Example::

    >>> read_yes_no("**Yes**."), read_yes_no("Answer: no"), read_yes_no("True")
    (True, False, True)
    >>> read_yes_no("Yes, no wait, no"), read_yes_no("yes or no"), read_yes_no("yes. I take it back.")
    (None, None, None)
    >>> read_yes_no("invalid", yes=("yes", "valid"), no=("no", "invalid"))
    False
    >>> read_choice("(B)", "ABCD"), read_choice("option c.", "ABCD"), read_choice("A or B", "ABCD")
    ('B', 'C', None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TypeVar

from palaestra.verifiers.normalize import read_answer, simplify_latex, strip_wrappers, unify

T = TypeVar("T")

MAX_CHOICE_CHARS = 600  # an option with its lead-in and markup; longer text is not a choice
YES_WORDS = ("yes", "true")
NO_WORDS = ("no", "false")
NEGATIONS = frozenset(
    """not no never neither nor cannot can't isn't aren't doesn't don't didn't wasn't weren't won't wouldn't
    shouldn't couldn't hasn't haven't fails false""".split()
)

_DECORATION = re.compile(r"^(?:(?:option|choice|answer)\s*)?[(\[]?\s*(.*?)\s*[)\]]?[.:]?$", re.IGNORECASE | re.DOTALL)
_LABELLED_TEXT = re.compile(r"^[(\[]?\s*([^\s()\[\].:]{1,8})\s*(?:[)\]]|[.:])\s*(.+)$", re.DOTALL)
_SPACE = re.compile(r"\s+")


def _normal(spelling: str) -> str:
    s = simplify_latex(unify(spelling)).replace("*", "").strip().strip("\"'“”‘’`").strip()
    return _SPACE.sub(" ", s).lower()


def _spelling_table(options: Mapping[T, Iterable[str]]) -> dict[str, T]:
    table: dict[str, T] = {}
    for option, spellings in options.items():
        for spelling in spellings:
            key = _normal(spelling)
            if table.get(key, option) != option:
                raise ValueError(f"spelling {spelling!r} names two options")
            table[key] = option
    return table


def _head(text: str, table: Mapping[str, T], texts: Mapping[str, T]) -> T | None:
    s = _normal(strip_wrappers(text))
    if s in table:
        return table[s]
    decorated = _DECORATION.match(s)
    if decorated and decorated.group(1) in table:
        return table[decorated.group(1)]
    if s in texts:
        return texts[s]
    labelled = _LABELLED_TEXT.match(s)
    if labelled and labelled.group(1) in table:
        option = table[labelled.group(1)]
        if texts.get(_normal(labelled.group(2)).rstrip(".")) == option:
            return option
    return None


def read_option(
    text: str,
    options: Mapping[T, Iterable[str]],
    *,
    texts: Mapping[T, str] | None = None,
) -> T | None:
    """The option whose spelling ``text`` gives, or ``None``.

    ``options`` maps each option to its spellings (any case); ``texts`` optionally maps
    options to their content, so ``B) 42`` or ``42`` reads as the option whose text is
    ``42``. Nothing but a closing full stop may follow the option.

    >>> read_option("It is RED.", {"red": ["red", "it is red"], "blue": ["blue"]})
    'red'
    """
    if not isinstance(text, str) or len(text) > MAX_CHOICE_CHARS:
        return None
    table = _spelling_table(options)
    content = {_normal(t): option for option, t in (texts or {}).items()}
    return read_answer(text, lambda s: _head(s, table, content))


def read_yes_no(text: str, *, yes: Iterable[str] = YES_WORDS, no: Iterable[str] = NO_WORDS) -> bool | None:
    """``True`` for a yes, ``False`` for a no, ``None`` otherwise.

    ``yes``/``no``: the spellings accepted (default ``yes``/``true`` and ``no``/``false``);
    pass synonyms the prompt invites, e.g. ``yes=("yes", "valid")``, ``no=("no", "invalid")``.

    >>> read_yes_no("**YES**"), read_yes_no("No."), read_yes_no("Yes, by premises 1 and 2."), read_yes_no("maybe")
    (True, False, None, None)
    """
    return read_option(text, {True: tuple(yes), False: tuple(no)})


def read_choice(
    text: str,
    labels: Iterable[str],
    *,
    texts: Mapping[str, str] | None = None,
    synonyms: Mapping[str, Iterable[str]] | None = None,
) -> str | None:
    """The label of the option chosen (``A``, ``(A)``, ``A)``, ``option A``, ``a``), or ``None``.

    ``texts``: each label's content, so the content itself or ``B) 42`` also reads;
    ``synonyms``: more spellings per label.

    >>> texts = {"A": "3", "B": "7", "C": "12", "D": "15"}
    >>> read_choice("Answer: (C) 12", "ABCD", texts=texts), read_choice("7", "ABCD", texts=texts), read_choice("E", "A")
    ('C', 'B', None)
    """
    options = {label: (label, *(synonyms or {}).get(label, ())) for label in labels}
    return read_option(text, options, texts=texts)
