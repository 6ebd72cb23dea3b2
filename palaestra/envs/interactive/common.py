"""Shared pieces of the interactive tasks (no environment here): reading one command of a stated grammar.

:func:`read_command` lower-cases the move, drops articles, quotes and a trailing full stop, and
hands the words to a task's own parser; a short trailing remark is read past by the shared rule
of :mod:`palaestra.verifiers.normalize` (``go north. The hall looks empty.`` reads as ``go north``).

Example::

    >>> read_command("Take the red key.", lambda words: words)
    ['take', 'red', 'key']
    >>> read_command("go north, or maybe south", lambda words: words if len(words) == 2 else None) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from palaestra.verifiers.normalize import read_answer, squeeze_spaces, unify

T = TypeVar("T")

MAX_COMMAND_CHARS = 300
ARTICLES = frozenset(["the", "a", "an"])
_SPLIT = re.compile(r"[\s,;:]+")


def command_words(text: str, articles: bool = False) -> list[str]:
    """The lower-case words of a command, without quotes, a final full stop or (unless ``articles``) articles.

    Keep the articles where a one-letter label ``A`` could be taken for one.
    """
    s = squeeze_spaces(unify(text)).strip().lower().rstrip(".!").strip().strip("\"'`").strip()
    return [w for w in _SPLIT.split(s) if w and (articles or w not in ARTICLES)]


def read_command(move: str, parse: Callable[[list[str]], T | None], articles: bool = False) -> T | None:
    """``parse`` applied to the words of ``move`` (see :func:`command_words`), a benign trailing remark allowed."""
    if not isinstance(move, str) or len(move) > MAX_COMMAND_CHARS:
        return None
    return read_answer(move, lambda text: parse(command_words(text, articles)))
