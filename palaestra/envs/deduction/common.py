"""Shared blocks of the deduction family: names, yes/no reading with synonyms, and verdict helpers.
No environment is registered here.

Example::

    >>> read_verdict("Valid.", yes=("valid",), no=("invalid",)), read_verdict("not valid", yes=("valid",), no=("invalid",))
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.choices import read_yes_no
from palaestra.verifiers.normalize import strip_wrappers, unify

# fmt: off
PEOPLE = (
    "Alice", "Bruno", "Chloe", "Diego", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jonas", "Karin", "Liam",
    "Maya", "Nadia", "Oscar", "Paula", "Quentin", "Rosa", "Simon", "Tara", "Umar", "Vera", "Walter", "Yasmin",
    "Zane", "Amber", "Boris", "Clara", "Dmitri", "Elena",
)
# fmt: on
MAX_VERDICT_CHARS = 600


def read_verdict(text: str, *, yes: Iterable[str], no: Iterable[str]) -> bool | None:
    """A two-way verdict: True for a ``yes`` spelling, False for a ``no`` spelling, None otherwise.

    The whole answer may also be "not <yes word>" (``not valid``) for a no. Spellings are
    matched in any case, wrappers and a short non-contradicting remark looked through (the
    shared yes/no reader's rules).
    """
    if not isinstance(text, str) or len(text) > MAX_VERDICT_CHARS:
        return None
    yes, no = tuple(yes), tuple(no)
    bare = strip_wrappers(unify(text)).strip().rstrip(".!").strip().lower()
    if bare.startswith("not ") and bare[4:] in {w.lower() for w in yes}:
        return False
    return read_yes_no(text, yes=yes, no=no)

def without_label(text: str, label: re.Pattern[str]) -> str:
    r"""``text`` without the leading name of its answer that ``label`` matches (``True sentences: 1, 4``,
    ``The derived propositions are ...``; wrappers looked through); ``text`` itself when there is none, or when
    nothing follows the name.

    >>> without_label("**True sentences:** 1, 4", re.compile(r"true sentences\s*:\s*", re.IGNORECASE))
    '1, 4'
    """
    if not isinstance(text, str) or len(text) > 20_000:
        return text
    bare = strip_wrappers(unify(text))
    plain = bare[2:].replace("**", "", 1) if bare.startswith("**") else bare  # "**True sentences:** 1, 4"
    named = label.match(plain)
    if named is None or not plain[named.end():].strip():
        return text
    return strip_wrappers(plain[named.end():])


_TRUE_WORDS = frozenset({"true", "t", "1", "yes", "on", "⊤"})
_FALSE_WORDS = frozenset({"false", "f", "0", "no", "off", "⊥"})


def read_truth(text: str) -> bool | None:
    """A truth value: ``true``/``T``/``1``/``⊤`` or ``false``/``F``/``0``/``⊥`` (any case), else None.

    >>> read_truth("True"), read_truth(" 0 "), read_truth("maybe")
    (True, False, None)
    """
    word = text.strip().strip("*$`'\".").strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return None


def read_truth_assignment(text: str, names: list[str], *, partial: bool = False) -> dict[str, bool] | None:
    """Truth values for ``names``: ``x1 = true, x2 = 0``, ``x1: T; x2: F``, one per line, ...; or a list
    of literals ``x1, ¬x2, x3`` (``¬``, ``~``, ``!``, ``-`` or ``not`` for false). None when unreadable
    or hedged (a name given two values, an unknown name, a name left out unless ``partial``)."""
    found = read_values(text, names, read_truth, partial=partial)
    return found if found is not None else _read_literals(text, names, partial)


_NEGATION_PREFIXES = ("¬", "~", "!", "-", "not ", "NOT ", "Not ")


def _read_literals(text: str, names: list[str], partial: bool) -> dict[str, bool] | None:
    if not isinstance(text, str) or len(text) > 20 * len(names) + 200:
        return None
    lookup = {name.lower(): name for name in names}
    body = strip_wrappers(unify(text)).strip().strip("{}[]()").strip()
    values: dict[str, bool] = {}
    for piece in body.replace(";", ",").replace("∧", ",").replace("\n", ",").split(","):
        piece = piece.strip()
        if not piece:
            continue
        value = True
        for prefix in _NEGATION_PREFIXES:
            if piece.startswith(prefix):
                piece, value = piece[len(prefix):].strip(), False
                break
        name = lookup.get(piece.lower())
        if name is None or values.get(name, value) != value:
            return None
        values[name] = value
    if not values or (not partial and len(values) < len(names)):
        return None
    return values


_NOBODY = frozenset({"", "none", "nobody", "no one", "-", "—"})


def role_groups_as_sentences(text: str, role_words: Iterable[str]) -> str | None:
    """Role-first groups (``Knights: Ada, Cy`` and ``Knaves: Ben`` on lines or separated by ``;``, ``The knights
    are Ada and Cy.``) rewritten as the sentences :func:`~palaestra.verifiers.assignments.read_roles` reads
    (``Ada, Cy are knights; Ben are knaves``); None unless every piece is such a group. ``none`` empties a group.

    >>> role_groups_as_sentences("Knights: Ada, Cy\\nKnaves: none", ["knight", "knave"])
    'Ada, Cy are knights'
    """
    if not isinstance(text, str) or len(text) > 2_000:
        return None
    words = "|".join(re.escape(word) for word in sorted(role_words, key=len, reverse=True))
    # The members run to the end of the piece; its closing dots and spaces go by rstrip, not by the pattern (a lazy
    # group before "[.\s]*$" was quadratic: 37 ms on 2,000 characters of ". . .").
    group = re.compile(rf"^[-*•\s]*(?:the\s+)?({words})s?\s*(?::|=|\bare\b|\bis\b)\s*(.*)$", re.IGNORECASE)
    pieces = [piece for piece in re.split(r"[\n;]+|(?<=\w)\.\s+", strip_wrappers(unify(text))) if piece.strip()]
    sentences = []
    for piece in pieces:
        match = group.match(piece.strip().strip("*").strip())
        if match is None:
            return None
        members = match.group(2).rstrip(". \t\r\f\v").strip().strip("*").strip()
        if members.lower() not in _NOBODY:
            sentences.append(f"{members} are {match.group(1).lower()}s")
    return "; ".join(sentences) if sentences else None
