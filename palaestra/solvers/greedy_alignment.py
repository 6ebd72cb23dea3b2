"""Greedy scans that align two strings without the dynamic-programming table: the cheap rules a policy could learn
instead of the table. Alignment and edit-script envs redraw their pairs until none of these scans is optimal, and
declare them as heuristics so the contract kit keeps measuring them.

A scan walks both strings left to right: a matching pair of letters becomes a column; else, if skipping up to
``look`` letters of one string brings a match, those letters are set against gaps; else the two letters are paired
(a mismatch). With ``guard`` a skip is only taken in the string with the longer remainder.

Example::

    >>> greedy_columns("GATTACA", "GTTAC", look=1, guard=True)[:3]
    [('G', 'G'), ('A', ''), ('T', 'T')]
"""

from __future__ import annotations

from collections.abc import Iterator

Column = tuple[str, str]  # a letter of each string, "" for a gap

SCANS = tuple((look, guard) for look in (1, 2, 3) for guard in (True, False))
"""The ``(look, guard)`` variants every env declares, in this order."""


def greedy_columns(a: str, b: str, look: int, guard: bool) -> list[Column]:
    """The columns of one left-to-right greedy scan of ``a`` against ``b``. Not optimal in general."""
    i = j = 0
    columns: list[Column] = []
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and a[i] == b[j]:
            columns.append((a[i], b[j]))
            i, j = i + 1, j + 1
            continue
        moved = False
        for k in range(1, look + 1):
            if i + k < len(a) and j < len(b) and a[i + k] == b[j] and (not guard or len(a) - i > len(b) - j):
                columns.extend((letter, "") for letter in a[i:i + k])
                i, moved = i + k, True
                break
            if j + k < len(b) and i < len(a) and b[j + k] == a[i] and (not guard or len(b) - j > len(a) - i):
                columns.extend(("", letter) for letter in b[j:j + k])
                j, moved = j + k, True
                break
        if not moved:
            columns.append((a[i] if i < len(a) else "", b[j] if j < len(b) else ""))
            i, j = min(i + 1, len(a)), min(j + 1, len(b))
    return columns


def greedy_scans(a: str, b: str) -> Iterator[list[Column]]:
    """Every variant of :data:`SCANS` left to right, then each right to left, one at a time (the commonest winner
    first, so a check that stops at the first optimal one is quick)."""
    for look, guard in SCANS:
        yield greedy_columns(a, b, look, guard)
    for look, guard in SCANS:
        yield greedy_columns(a[::-1], b[::-1], look, guard)[::-1]
