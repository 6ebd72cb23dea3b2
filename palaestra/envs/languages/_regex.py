"""Regular expressions for the language envs: random expressions, strings they match, and a bounded matcher.

Expressions are trees of nested lists (JSON-native): ``["lit", "a"]``, ``["class", "ab"]``
(one of the letters), ``["cat", x, y, ...]``, ``["alt", x, y, ...]``, ``["star", x]``,
``["plus", x]``, ``["opt", x]``. :func:`render` writes the usual syntax (which RE2 and every
regex dialect read the same way); :func:`sample` draws a string an expression matches.

:func:`compile_untrusted` is the only way model-written patterns are run: Google's RE2 (linear
time, no backtracking, no back-references), a cap on the pattern's length, a memory cap for the
compiled program, and no log noise. Python's backtracking ``re`` never sees model text.

This is a family helper (no env registers here).

Example::

    >>> tree = ["cat", ["lit", "a"], ["star", ["alt", ["lit", "b"], ["lit", "c"]]]]
    >>> render(tree)
    'a(b|c)*'
    >>> matcher = compile_untrusted(render(tree), max_length=20)
    >>> bool(matcher.fullmatch("abcb")), bool(matcher.fullmatch("ba"))
    (True, False)
    >>> compile_untrusted("(a)\\\\1", max_length=20) is None  # RE2 has no back-references
    True
"""

from __future__ import annotations

import random
from typing import Any

import re2

Node = list[Any]

MAX_PATTERN_CHARS = 300
PROGRAM_MEMORY = 1 << 22  # bytes RE2 may use for one compiled pattern
_OPTIONS = re2.Options()
_OPTIONS.max_mem = PROGRAM_MEMORY
_OPTIONS.log_errors = False
_OPTIONS.never_capture = True


def compile_untrusted(pattern: str, max_length: int = MAX_PATTERN_CHARS) -> Any | None:
    """RE2's compiled ``pattern``, or None when it is too long, not ASCII-printable, or not valid RE2."""
    if not isinstance(pattern, str) or not pattern or len(pattern) > min(max_length, MAX_PATTERN_CHARS):
        return None
    if not all(" " <= ch <= "~" for ch in pattern):
        return None
    try:
        return re2.compile(pattern, _OPTIONS)
    except Exception:  # RE2 reports every unsupported or malformed pattern as an error
        return None


def compile_trusted(pattern: str) -> Any:
    """RE2's compiled form of a pattern this package generated."""
    return re2.compile(pattern, _OPTIONS)


def matches(pattern: str, string: str) -> bool:
    return compile_trusted(pattern).fullmatch(string) is not None


# --- random expressions ------------------------------------------------------------------------------------------

def random_regex(rng: random.Random, size: int, alphabet: str) -> Node:
    """A random expression with about ``size`` leaves over ``alphabet``; no quantifier directly on another."""
    if size <= 1:
        if len(alphabet) > 2 and rng.random() < 0.2:
            return ["class", "".join(sorted(rng.sample(alphabet, 2)))]
        return ["lit", rng.choice(alphabet)]
    roll = rng.random()
    if roll < 0.45:
        left = rng.randint(1, size - 1)
        node = ["cat", random_regex(rng, left, alphabet), random_regex(rng, size - left, alphabet)]
    elif roll < 0.7:
        left = rng.randint(1, size - 1)
        first, second = random_regex(rng, left, alphabet), random_regex(rng, size - left, alphabet)
        node = ["alt", first, second] if render(first) != render(second) else ["cat", first, second]
    else:
        inner = random_regex(rng, size - 1, alphabet) if size > 2 else random_regex(rng, 1, alphabet)
        if inner[0] in ("star", "plus", "opt"):
            inner = inner[1]
        node = [rng.choice(["star", "star", "plus", "opt"]), inner]
    return _flatten(node)


def _flatten(node: Node) -> Node:
    """``cat`` inside ``cat`` (and ``alt`` inside ``alt``) merged into one list of parts."""
    if node[0] in ("cat", "alt"):
        parts: list[Node] = []
        for part in node[1:]:
            parts.extend(part[1:] if part[0] == node[0] else [part])
        return [node[0], *parts]
    return node


def render(node: Node) -> str:
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "class":
        return f"[{node[1]}]"
    if kind == "cat":
        return "".join(f"({render(p)})" if p[0] == "alt" else render(p) for p in node[1:])
    if kind == "alt":
        return "|".join(render(p) for p in node[1:])
    inner = node[1]
    text = render(inner)
    if inner[0] in ("cat", "alt") or (inner[0] == "lit" and len(text) > 1):
        text = f"({text})"
    return text + {"star": "*", "plus": "+", "opt": "?"}[kind]


def size(node: Node) -> int:
    """Leaves and operators in the expression."""
    if node[0] in ("lit", "class"):
        return 1
    return 1 + sum(size(p) for p in node[1:])


def sample(rng: random.Random, node: Node, max_repeat: int = 3) -> str:
    """A string ``node`` matches (each star or plus repeats at most ``max_repeat`` times)."""
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "class":
        return rng.choice(node[1])
    if kind == "cat":
        return "".join(sample(rng, p, max_repeat) for p in node[1:])
    if kind == "alt":
        return sample(rng, rng.choice(node[1:]), max_repeat)
    low = {"star": 0, "plus": 1, "opt": 0}[kind]
    high = 1 if kind == "opt" else max_repeat
    return "".join(sample(rng, node[1], max_repeat) for _ in range(rng.randint(low, high)))


def mutate(rng: random.Random, string: str, alphabet: str) -> str:
    """``string`` with one letter changed, inserted, deleted, or two neighbours swapped."""
    chars = list(string)
    roll = rng.random()
    if not chars or roll < 0.25:
        chars.insert(rng.randint(0, len(chars)), rng.choice(alphabet))
    elif roll < 0.5 and len(chars) > 1:
        del chars[rng.randrange(len(chars))]
    elif roll < 0.75 and len(chars) > 1:
        i = rng.randrange(len(chars) - 1)
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    else:
        i = rng.randrange(len(chars))
        chars[i] = rng.choice([c for c in alphabet if c != chars[i]] or alphabet)
    return "".join(chars)
