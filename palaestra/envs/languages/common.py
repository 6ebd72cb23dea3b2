"""Reading chains of strings (``S => aSb => ab``, ``abc -> bac -> bc``) for the language envs.

A chain is written as strings separated by arrows (``=>``, ``->``, ``⇒``, ``→``, ``⟶``, ``⟹``), commas
or new lines, optionally numbered, each optionally in quotes or backticks (``"ab" -> "ba"``, as the prompts quote
strings); spaces inside a string are ignored (``a S b`` is ``aSb``). A label may name the chain
(``Derivation: S => ab``, ``Chain: ...``, ``The derivation is S => ab``). A string
longer than ``max_length``, more than ``max_items`` strings, or a string holding anything but
ASCII letters makes the chain unreadable, which bounds the work on any text. A short trailing
sentence is read past (the rule in :mod:`palaestra.verifiers.normalize`). A candidate for
``palaestra/verifiers/`` if another family needs chains. No env registers here.

Example::

    >>> read_chain("S => a S b\\n=> ab", max_items=10, max_length=5)
    ['S', 'aSb', 'ab']
    >>> read_chain("ab -> ba or ab -> b", max_items=10, max_length=5) is None
    True
"""

from __future__ import annotations

import re

from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

_ARROW = re.compile(r"\s*(?:=+>|⇒|->|→|⟶|⟹|\n|,|;)\s*")
_QUOTES = "\"'`“”‘’"  # a string quoted as the prompt quotes it: "ab" -> "ba"
# "Derivation: S => ab", "**Chain:** ...", "The derivation is S => ab": a label before the chain, taken off before the
# chain is read (read whole, "The derivation is abc" would be one string, which a long max_length lets through)
_LABEL = re.compile(r"^(?:\*\*)?(?:(?:the|a)\s+)?(?:derivation|chain|sequence)\s*(?:\*\*)?\s*(?:is\b|:)\s*(?:\*\*)?\s*",
                    re.IGNORECASE)
_NUMBERING = re.compile(r"^(?:step\s*)?\d{1,3}\s*[.):]\s*", re.IGNORECASE)


def _chain_core(text: str, max_items: int, max_length: int) -> list[str] | None:
    label = _LABEL.match(text)
    pieces = _ARROW.split(strip_wrappers(text[label.end():]) if label else text.strip())
    if len(pieces) > max_items:
        return None
    chain = []
    for piece in pieces:
        item = re.sub(r"\s+", "", _NUMBERING.sub("", piece.strip()))
        if len(item) > 2 and item[0] in _QUOTES and item[-1] in _QUOTES:
            item = item[1:-1]
        if not item:
            continue
        if len(item) > max_length or not item.isascii() or not item.isalpha():
            return None
        chain.append(item)
    return chain or None


def read_chain(text: str, *, max_items: int, max_length: int) -> list[str] | None:
    """The strings of a written chain, in order, or None (see the module docstring)."""
    if not isinstance(text, str) or len(text) > max_items * (2 * max_length + 12) + 400:
        return None
    return read_answer(strip_wrappers(unify(text)), lambda s: _chain_core(s, max_items, max_length))
