"""Both sides of a decision: a verdict without a proof, and a hedge that gives both sides.

Envs whose answer is either a certificate (a cycle, an assignment, a split) or a claim that none
exists (``acyclic``, ``unsatisfiable``, ``impossible``) use these two tests so that appending the
other side's word to a guess (``1 2 7 5. Acyclic.``, ``impossible; 5, 7``) is never read as an
answer. Words are compared as whole lowercase tokens (letters and digits), so ``unsatisfiable``
does not contain ``satisfiable`` and no pattern is built from model text.

>>> mentions("1 2 7 5. Acyclic.", ["acyclic", "no cycle"]), mentions("0 1 2", ["acyclic"])
(True, False)
>>> mentions("They are not equivalent: p = true", ["equivalent"], unless_after=["not"])
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_CLAIM_CHARS = 20_000
_TOKEN = re.compile(r"[a-z0-9]+|[≡⇔]")


def tokens(text: str) -> list[str]:
    """The lowercase word and number tokens of ``text`` (the first ``MAX_CLAIM_CHARS`` characters)."""
    return _TOKEN.findall(text[:MAX_CLAIM_CHARS].lower()) if isinstance(text, str) else []


def mentions(text: str, phrases: Iterable[str], *, unless_after: Iterable[str] = ()) -> bool:
    """Whether ``text`` contains one of ``phrases`` as whole tokens (``unless_after``: not counting an
    occurrence right after one of these words, e.g. ``not equivalent`` does not mention *equivalent*)."""
    words = tokens(text)
    negations = set(unless_after)
    for phrase in phrases:
        wanted = tokens(phrase)
        if not wanted:
            continue
        size = len(wanted)
        for i in range(len(words) - size + 1):
            if words[i:i + size] == wanted and not (i and words[i - 1] in negations):
                return True
    return False


def has_digit(text: str) -> bool:
    """Whether ``text`` contains a digit: a bare verdict (``impossible``) carries none, a certificate does."""
    return isinstance(text, str) and any(c.isdigit() for c in text[:MAX_CLAIM_CHARS])
