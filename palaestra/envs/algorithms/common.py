"""What the algorithm environments share: reading lists of integers, labels and intervals.

Not an environment (nothing here is registered). The readers follow the shared grading rules
(wrappers and a short trailing remark looked through by
:func:`palaestra.verifiers.normalize.read_answer`, hedges unreadable), never raise, and bound
their work by the answer's length.

Example::

    >>> read_ints("[3, -1, 4]"), read_ints("3 1 4."), read_ints("3 1 4. Done."), read_ints("3, 1 or 4")
    ([3, -1, 4], [3, 1, 4], None, None)
    >>> read_labels("B, d, A", ["A", "B", "C", "D"]), read_labels("B, E", ["A", "B"])
    (['B', 'D', 'A'], None)
    >>> read_intervals("[1, 5], [7, 9]"), read_intervals("(1,5) (7,9)"), read_intervals("1-5, 7-9")
    ([(1, 5), (7, 9)], [(1, 5), (7, 9)], [(1, 5), (7, 9)])
    >>> differencing_split([8, 7, 6, 5, 4])  # sizes 5 + 4 + 7 against 6 + 8
    ([1, 3, 4], [0, 2])
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Sequence

from palaestra.core.task import MAX_ANSWER_CHARS  # the readers' cap: the tasks' own
from palaestra.envs.graphs.common import strip_numbering
from palaestra.verifiers.normalize import read_answer, simplify_latex, squeeze_spaces, unify
from palaestra.verifiers.sets import read_list

_INT = re.compile(r"^[+-]?\d{1,12}$")
_ARROWS = re.compile(r" ?(?:->|→|⟶|=>) ?")
_INTERVAL = re.compile(r" ?[\[(] ?(-?\d{1,9}) ?[,;] ?(-?\d{1,9}) ?[\])] ?(?:[,;\n]|\band\b)? ?")
_PLAIN_INTERVAL = re.compile(r"^(-?\d{1,9}) ?(?:-|–|—|to|\.\.) ?(-?\d{1,9})$")


def _bounded(text: object) -> bool:
    return isinstance(text, str) and len(text) <= MAX_ANSWER_CHARS


def _int(text: str) -> int | None:
    s = text.strip()
    return int(s) if _INT.match(s) else None


def read_ints(text: str, *, allow_empty: bool = False) -> list[int] | None:
    """Integers in written order, separated by spaces, commas or arrows; None if unreadable."""
    if not _bounded(text):
        return None
    cleaned = _ARROWS.sub(", ", strip_numbering(squeeze_spaces(simplify_latex(unify(text))).strip()))
    return read_list(cleaned, _int, space_separated=True, allow_empty=allow_empty)


def read_labels(text: str, labels: Sequence[str], *, allow_empty: bool = False) -> list[str] | None:
    """Labels from ``labels`` (any case) in written order, separated by spaces, commas or arrows."""
    if not _bounded(text):
        return None
    table = {label.lower(): label for label in labels}

    def read(item: str) -> str | None:
        return table.get(item.strip().strip("'\"").lower())

    cleaned = _ARROWS.sub(", ", strip_numbering(squeeze_spaces(simplify_latex(unify(text))).strip()))
    return read_list(cleaned, read, space_separated=True, allow_empty=allow_empty)


def read_intervals(text: str) -> list[tuple[int, int]] | None:
    """Integer pairs ``[a, b]`` (or ``(a, b)``, ``a-b``, ``a to b``) in written order; None if unreadable."""
    if not _bounded(text):
        return None

    def core(s: str) -> list[tuple[int, int]] | None:
        s = squeeze_spaces(simplify_latex(unify(s))).strip()
        if s[:1] == "[" and s[1:2] in "[(" and s.endswith("]"):
            s = s[1:-1].strip()
        pairs: list[tuple[int, int]] = []
        if "[" in s or "(" in s:
            position = 0
            for _ in range(len(s) + 1):
                if position >= len(s):
                    break
                match = _INTERVAL.match(s, position)
                if not match:
                    return None
                pairs.append((int(match.group(1)), int(match.group(2))))
                position = match.end()
        else:
            for piece in re.split(r" ?(?:[,;\n]|\band\b) ?", s):
                match = _PLAIN_INTERVAL.match(piece.strip())
                if not match:
                    return None
                pairs.append((int(match.group(1)), int(match.group(2))))
        return pairs or None

    return read_answer(text, core)


_GROUP_LABEL = re.compile(r"^(?:[A-Za-z][A-Za-z ]{0,16}?)? ?\d{1,4} ?[:=] ?")
_BRACKETED = re.compile(
    r" ?(?:[A-Za-z][A-Za-z ]{0,16}?)? ?\d{0,4} ?[:=]? ?[\[{(]([^\[\]{}()]*)[\]})] ?(?:[,;|\n]|\band\b)? ?")


def read_label_groups(text: str, labels: Sequence[str]) -> list[list[str]] | None:
    """Groups of labels: one group per line (``A C`` / ``B D``, optionally ``Bin 1: A, C``), groups
    split by ``;`` or ``|``, or bracketed (``{A, C}, {B, D}``). None if unreadable.

    >>> read_label_groups("Bin 1: A, C\\nBin 2: B", "ABC"), read_label_groups("{A, C}, {B}", "ABC")
    ([['A', 'C'], ['B']], [['A', 'C'], ['B']])
    """
    if not _bounded(text):
        return None

    def core(s: str) -> list[list[str]] | None:
        s = squeeze_spaces(simplify_latex(unify(s))).strip()
        if s[:1] == "[" and s[1:2] in "[({" and s.endswith("]"):
            s = s[1:-1].strip()
        if any(c in s for c in "[{("):
            parts, position = [], 0
            for _ in range(len(s) + 1):
                if position >= len(s):
                    break
                match = _BRACKETED.match(s, position)
                if not match:
                    return None
                parts.append(match.group(1))
                position = match.end()
        elif "\n" in s:
            parts = [_GROUP_LABEL.sub("", line.strip()) for line in s.split("\n")]
        else:
            parts = [_GROUP_LABEL.sub("", part.strip()) for part in re.split(r"[;|]", s)]
        groups = []
        for part in parts:
            group = read_labels(part, labels) if part.strip() else None
            if group is None:
                return None
            groups.append(group)
        return groups or None

    return read_answer(text, core)


def sample_letters(rng: random.Random, count: int) -> tuple[list[str], list[str]]:
    """``count`` distinct capital letters in alphabetical order (labels that differ from problem to
    problem, so one problem's answer is no answer to another) and the letters left unused (for
    prompt examples that can never be the answer). ``count`` is at most 23, leaving 3 spare.

    >>> labels, spare = sample_letters(random.Random(1), 5)
    >>> len(labels), labels == sorted(labels), set(labels) & set(spare)
    (5, True, set())
    """
    if not 0 <= count <= 23:
        raise ValueError("between 0 and 23 letters")
    chosen = sorted(rng.sample(string.ascii_uppercase, count))
    return chosen, [c for c in string.ascii_uppercase if c not in chosen]


def differencing_split(sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Karmarkar-Karp differencing over items: repeatedly set the two largest (remaining) totals against each other,
    replacing them by their difference, then undo the replacements into two groups of item indices (the textbook
    two-way split heuristic; not optimal in general)."""
    # (total, tie-break, indices kept with the total, indices opposite it), largest first
    items: list[tuple[int, int, list[int], list[int]]] = sorted(
        ((size, -i, [i], []) for i, size in enumerate(sizes)), reverse=True)
    count = 0
    for _ in range(len(sizes) - 1):  # each step merges two entries into one
        big, small = items[0], items[1]
        count += 1
        merged = (big[0] - small[0], len(sizes) + count, big[2] + small[3], big[3] + small[2])
        items = sorted([merged, *items[2:]], reverse=True)
    return (sorted(items[0][2]), sorted(items[0][3])) if items else ([], [])
