"""Reading one answer out of a fixed set: yes/no, true/false, lettered options, named classes.

The answer's head must be exactly one spelling of one option (any case, wrappers and
``Answer:`` lead-ins looked through, ``(A)``, ``A)``, ``[A]``, ``option A`` for labels).
A short trailing sentence is read past (the rule in
:mod:`palaestra.verifiers.normalize`) only when it names no other option and hedges
nothing: ``Yes, it is entailed.`` reads as yes; ``Yes, no wait, no``, ``yes or no``,
``A or B`` are unreadable. After a *yes* a tail with a negation (``Yes, it is not
entailed``) contradicts the head and is unreadable; after a *no* it agrees.

Example::

    >>> read_yes_no("Yes, it is entailed."), read_yes_no("No — the premises do not entail it"), read_yes_no("True")
    (True, False, True)
    >>> read_yes_no("Yes, no wait, no"), read_yes_no("yes or no"), read_yes_no("Yes, it is not entailed.")
    (None, None, None)
    >>> read_yes_no("invalid", yes=("yes", "valid"), no=("no", "invalid"))
    False
    >>> read_choice("(B)", "ABCD"), read_choice("option c.", "ABCD"), read_choice("A or B", "ABCD")
    ('B', 'C', None)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import TypeVar

from palaestra.verifiers.normalize import is_benign_tail, simplify_latex, strip_wrappers, tail_splits, unify

T = TypeVar("T")

MAX_CHOICE_CHARS = 600  # a head and a short remark; longer text is not a choice
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
    contradicting: Mapping[T, Collection[str]] | None = None,
) -> T | None:
    """The option whose spelling ``text`` gives, or ``None``.

    ``options`` maps each option to its spellings (any case); ``texts`` optionally maps
    options to their content, so ``B) 42`` or ``42`` reads as the option whose text is
    ``42``; ``contradicting`` maps an option to tail words that contradict it (after
    *yes*: negations). Digits may appear in a trailing remark; other options may not.

    >>> read_option("It is RED.", {"red": ["red", "it is red"], "blue": ["blue"]})
    'red'
    """
    if not isinstance(text, str) or len(text) > MAX_CHOICE_CHARS:
        return None
    table = _spelling_table(options)
    content = {_normal(t): option for option, t in (texts or {}).items()}
    spelled_by = {option: {_normal(s) for s in spellings} for option, spellings in options.items()}
    whole = strip_wrappers(text)
    option = _head(whole, table, content)
    if option is not None:
        return option
    for answer, tail in tail_splits(whole):
        option = _head(answer, table, content)
        if option is None:
            continue
        others = {s for other, spellings in spelled_by.items() if other != option for s in spellings}
        others |= {c for c, o in content.items() if o != option}
        forbidden = {w for w in others if len(w) > 1} | set((contradicting or {}).get(option, ()))
        letters = {w.upper() for w in others if len(w) == 1}  # "B" names option B; "a" is an article
        if is_benign_tail(tail, symbols=True, answer_words=forbidden, labels=letters):
            return option
        return None
    return None


def read_yes_no(text: str, *, yes: Iterable[str] = YES_WORDS, no: Iterable[str] = NO_WORDS) -> bool | None:
    """``True`` for a yes, ``False`` for a no, ``None`` otherwise.

    ``yes``/``no``: the spellings accepted (default ``yes``/``true`` and ``no``/``false``);
    pass synonyms the prompt invites, e.g. ``yes=("yes", "valid")``, ``no=("no", "invalid")``.

    >>> read_yes_no("**YES**"), read_yes_no("No."), read_yes_no("Yes, by premises 1 and 2."), read_yes_no("maybe")
    (True, False, True, None)
    """
    return read_option(text, {True: tuple(yes), False: tuple(no)}, contradicting={True: NEGATIONS})


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
