"""Regular expressions for the language envs: random expressions, strings they match, and a bounded matcher.

Expressions are trees of nested lists (JSON-native): ``["lit", "a"]``, ``["class", "ab"]``
(one of the letters), ``["cat", x, y, ...]``, ``["alt", x, y, ...]``, ``["star", x]``,
``["plus", x]``, ``["opt", x]``. :func:`render` writes the usual syntax (which RE2 and every
regex dialect read the same way); :func:`sample` draws a string an expression matches;
:func:`parse` reads a rendered expression back; :func:`local_view` is what a reader who checks only a
string's first and last letters and neighbouring pairs knows of an expression.

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
LocalView = tuple[bool, set[str], set[str], set[str]]  # see local_view

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


# --- reading an expression back, and what a letter-by-letter reader sees of it ---------------------------------------

def parse(pattern: str) -> Node:
    """The tree of a pattern in :func:`render`'s syntax (letters, ``[ab]``, ``( )``, ``|``, ``*``, ``+``, ``?``).

    >>> parse("a(b|c)*") == ["cat", ["lit", "a"], ["star", ["alt", ["lit", "b"], ["lit", "c"]]]]
    True
    """
    node, end = _parse_alt(pattern, 0)
    if end != len(pattern):
        raise ValueError(f"unexpected {pattern[end]!r} at {end} in {pattern!r}")
    return node


def _parse_alt(text: str, at: int) -> tuple[Node, int]:
    parts = []
    while True:
        part, at = _parse_cat(text, at)
        parts.append(part)
        if at >= len(text) or text[at] != "|":
            return (parts[0] if len(parts) == 1 else ["alt", *parts]), at
        at += 1


def _parse_cat(text: str, at: int) -> tuple[Node, int]:
    parts: list[Node] = []
    while at < len(text) and text[at] not in "|)":
        if text[at] == "(":
            atom, at = _parse_alt(text, at + 1)
            if at >= len(text) or text[at] != ")":
                raise ValueError(f"unclosed group in {text!r}")
            at += 1
        elif text[at] == "[":
            close = text.index("]", at)
            atom, at = ["class", text[at + 1 : close]], close + 1
        else:
            atom, at = ["lit", text[at]], at + 1
        while at < len(text) and text[at] in "*+?":
            atom, at = [{"*": "star", "+": "plus", "?": "opt"}[text[at]], atom], at + 1
        parts.append(atom)
    if not parts:
        raise ValueError(f"empty alternative in {text!r}")
    return _flatten(["cat", *parts]) if len(parts) > 1 else parts[0], at


def local_view(node: Node) -> LocalView:
    """Whether ``node`` matches the empty string, the letters its strings can begin and end with, and the
    pairs of letters that can stand next to each other in them: the view of a reader who checks each string's
    ends and neighbours only. Every string ``node`` matches passes that check; a near miss may too.

    >>> local_view(parse("a(bc)*")) == (False, {"a"}, {"a", "c"}, {"ab", "bc", "cb"})
    True
    """
    kind = node[0]
    if kind in ("lit", "class"):
        letters = set(node[1])
        return False, letters, set(letters), set()
    if kind == "alt":
        views = [local_view(part) for part in node[1:]]
        return (any(v[0] for v in views), set().union(*(v[1] for v in views)),
                set().union(*(v[2] for v in views)), set().union(*(v[3] for v in views)))
    if kind == "cat":
        empty = True
        first: set[str] = set()
        last: set[str] = set()
        pairs: set[str] = set()
        for part in node[1:]:
            part_empty, part_first, part_last, part_pairs = local_view(part)
            pairs |= part_pairs | {x + y for x in last for y in part_first}
            if empty:
                first |= part_first
            last = last | part_last if part_empty else set(part_last)
            empty = empty and part_empty
        return empty, first, last, pairs
    inner_empty, first, last, pairs = local_view(node[1])
    if kind in ("star", "plus"):
        pairs = pairs | {x + y for x in last for y in first}
    return inner_empty or kind != "plus", first, last, pairs


def passes_local_view(view: LocalView, string: str) -> bool:
    """Whether ``string`` passes the ends-and-neighbours check of :func:`local_view`."""
    empty, first, last, pairs = view
    if not string:
        return empty
    return (string[0] in first and string[-1] in last
            and all(string[i : i + 2] in pairs for i in range(len(string) - 1)))
