"""Reading structured answers: lists of integers or tokens, grids, key/value mappings.

All readers are linear-time, size-bounded and return ``None`` on malformed input.

Example::

    >>> parse_int_list("[3, 1, 2]"), parse_tokens("A -> B -> C", separators="->")
    ([3, 1, 2], ['A', 'B', 'C'])
    >>> parse_grid("12\\n34")
    [[1, 2], [3, 4]]
    >>> parse_mapping("A: knight, B: knave")
    {'A': 'knight', 'B': 'knave'}
"""

from __future__ import annotations

import re

MAX_ITEMS = 10_000
_INT = re.compile(r"^[+-]?\d{1,18}$")
_SPLIT = re.compile(r"[\s,;]+")


def parse_int_list(text: str, max_items: int = MAX_ITEMS) -> list[int] | None:
    """Integers separated by spaces, commas or semicolons, optionally in brackets."""
    tokens = parse_tokens(text, max_items=max_items)
    if tokens is None or not all(_INT.match(t) for t in tokens):
        return None
    return [int(t) for t in tokens]


def parse_tokens(text: str, separators: str = "", max_items: int = MAX_ITEMS) -> list[str] | None:
    """Tokens split on whitespace, commas, semicolons and the extra ``separators`` string; quotes
    around a token (``['d2d3', 'd2d4']``) are dropped.

    New code should prefer :func:`palaestra.verifiers.sets.read_list` / ``read_set``, which also
    read ``S = {…}``, ``a and b`` and trailing remarks.
    """
    if not isinstance(text, str):
        return None
    s = text.strip().strip("[](){}").strip()
    if separators:
        s = s.replace(separators, " ")
    tokens = [t for t in (_unquote(t) for t in _SPLIT.split(s)) if t]
    if not tokens or len(tokens) > max_items:
        return None
    return tokens


def _unquote(token: str) -> str:
    """A token without the quotes of a Python-style list item: ``'d2d3'`` -> ``d2d3``."""
    for quote in ("'", '"', "`"):
        if len(token) >= 2 and token[0] == quote and token[-1] == quote:
            return token[1:-1]
    return token


def parse_grid(text: str, max_cells: int = MAX_ITEMS) -> list[list[int]] | None:
    """A grid of single digits, one row per line; spaces, commas and ``|`` between cells ignored."""
    if not isinstance(text, str) or len(text) > 4 * max_cells:
        return None
    rows = []
    for line in text.strip().splitlines():
        cells = re.sub(r"[\s,|]", "", line)
        if not cells or set(cells) <= set("-+"):  # separator lines such as "------+------"
            continue
        if not cells.isdigit() or not cells.isascii():
            return None
        rows.append([int(c) for c in cells])
    return rows or None


def parse_mapping(text: str, max_items: int = 1_000) -> dict[str, str] | None:
    """``key: value`` or ``key = value`` pairs separated by commas, semicolons or new lines.

    A key given twice makes the whole answer unreadable: a hedged answer is no answer.
    """
    if not isinstance(text, str):
        return None
    result: dict[str, str] = {}
    for part in re.split(r"[,;\n]+", text.strip()):
        if not part.strip():
            continue
        match = re.match(r"^\s*([^:=]+?)\s*(?:[:=]|\bis\b)\s*(.+?)\s*$", part)
        if not match or len(result) >= max_items or match.group(1) in result:
            return None
        result[match.group(1)] = match.group(2)
    return result or None
