r"""Sets of real numbers written as unions of intervals or as inequalities, compared exactly.

:func:`read_intervals` reads a subset of the real line from any of these spellings and
returns it in a canonical form (sorted, disjoint, touching pieces merged), so two
spellings of one set compare equal:

- interval notation: ``(-∞, -2] ∪ (3, 5)``, ``(-inf, -2] U (3, 5)``, ``\left(-\infty, -2\right] \cup (3, 5)``,
  pieces joined by ``∪``, ``U``, ``\cup``, ``or`` or a comma; ``[3, 3]`` and ``{3}`` for a point; the French
  brackets for open ends, ``]-∞, -2] ∪ ]3, 5[`` (``]3 ; 5[`` too);
- inequalities: ``x <= -2 or 3 < x < 5``, ``x ≤ -2, 3 < x < 5``, ``-2 >= x``, ``x ≠ 2``, ``x > 3 and x < 5``;
- a lead-in ``x ∈ ...``, set-builder braces ``{x | ...}``, ``{x : ...}``;
- every real number (``ℝ``, ``\mathbb{R}``, ``all real numbers``, ``(-∞, ∞)``), ``ℝ \ {2}``, and the
  empty set (``∅``, ``no solution``) — the latter only where the caller allows it.

Endpoints are exact (:func:`palaestra.verifiers.radicals.read_radical`: ``1/2``,
``(1 - √5)/2``, ``\frac{3}{2}``) or infinite; a closed bracket at infinity, a reversed
interval, or a hedge (``x < 2 or maybe x > 3``) is unreadable.

Example::

    >>> read_intervals("(-∞, -2] ∪ (3, 5)") == read_intervals("x <= -2 or 3 < x < 5")
    True
    >>> format_intervals(read_intervals("x > 1/2, x < -3")), format_intervals(read_intervals("x != 2"))
    ('(-∞, -3) ∪ (1/2, ∞)', '(-∞, 2) ∪ (2, ∞)')
    >>> read_intervals("[1, 2) ∪ [2, 4]") == read_intervals("[1, 4]"), read_intervals("[-∞, 2]")
    (True, None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.normalize import read_answer, simplify_latex, strip_wrappers, unify
from palaestra.verifiers.radicals import format_radical, read_radical

MAX_CHARS = 2_000
MAX_PIECES = 40
INFINITY_WORDS = ("∞", "inf", "infinity", "+∞", "+inf", "+infinity", "oo")


@dataclass(frozen=True)
class Interval:
    """An interval of the real line; ``None`` endpoints are infinite (and always open)."""

    low: Surd | None
    low_closed: bool
    high: Surd | None
    high_closed: bool

    def contains_point(self, value: float) -> bool:
        above = self.low is None or value > float(self.low) or (self.low_closed and value == float(self.low))
        below = self.high is None or value < float(self.high) or (self.high_closed and value == float(self.high))
        return above and below


Set = tuple[Interval, ...]
EVERYTHING: Set = (Interval(None, False, None, False),)


def _less(a: Surd | None, b: Surd | None, a_is_low: bool, b_is_low: bool) -> bool:
    """a < b for endpoints, where None is -∞ for a low endpoint and +∞ for a high one."""
    if a is None:
        return a_is_low and not (b is None and b_is_low)
    if b is None:
        return not b_is_low
    return a != b and float(a) < float(b)


def canonical(pieces: list[Interval]) -> Set:
    """Sorted, non-empty, disjoint intervals with touching pieces merged."""
    live = [p for p in pieces if not _empty(p)]
    live.sort(key=lambda p: (float("-inf") if p.low is None else float(p.low), not p.low_closed))
    merged: list[Interval] = []
    for piece in live:
        if merged:
            last = merged[-1]
            touching = (last.high is None or piece.low is None or _less(piece.low, last.high, True, False)
                        or (piece.low == last.high and (piece.low_closed or last.high_closed)))
            if touching:
                if last.high is None or (piece.high is not None and _less(piece.high, last.high, False, False)):
                    high, closed = last.high, last.high_closed
                elif piece.high is None or _less(last.high, piece.high, False, False):
                    high, closed = piece.high, piece.high_closed
                else:
                    high, closed = last.high, last.high_closed or piece.high_closed
                merged[-1] = Interval(last.low, last.low_closed, high, closed)
                continue
        merged.append(piece)
    return tuple(merged)


def _overlapping(pieces: list[Interval]) -> bool:
    """Whether two written pieces share a point: ``A or B`` with one inside the other is a hedge, not a union."""
    live = sorted((p for p in pieces if not _empty(p)),
                  key=lambda p: (float("-inf") if p.low is None else float(p.low), not p.low_closed))
    reach: Interval | None = None  # the piece reaching furthest right so far
    for piece in live:
        if reach is not None and (reach.high is None or piece.low is None or _less(piece.low, reach.high, True, False)
                                  or (piece.low == reach.high and piece.low_closed and reach.high_closed)):
            return True
        if reach is None or piece.high is None or (reach.high is not None and _less(reach.high, piece.high, False, False)):
            reach = piece
    return False


def _empty(p: Interval) -> bool:
    if p.low is None or p.high is None:
        return False
    if p.low == p.high:
        return not (p.low_closed and p.high_closed)
    return float(p.low) > float(p.high)


def complement_of_points(points: list[Surd]) -> Set:
    """Every real number except the given points."""
    ordered = sorted(set(points), key=float)
    pieces, low = [], None
    for point in ordered:
        pieces.append(Interval(low, False, point, False))
        low = point
    pieces.append(Interval(low, False, None, False))
    return canonical(pieces)


# --- reading ----------------------------------------------------------------------

_REALS = re.compile(r"^(?:ℝ|R|\\mathbb\{R\}|\\R|\\reals|all real numbers|all reals|every real number|"
                    r"all real x|x is any real number|x ∈ ℝ|x ∈ R)$", re.IGNORECASE)
_EMPTY = re.compile(r"^(?:∅|\\emptyset|\\varnothing|\{\s*\}|none|no solutions?|no real solutions?|"
                    r"there (?:is|are) no (?:real )?solutions?|the empty set|empty set|empty)$", re.IGNORECASE)
_LEAD_IN = re.compile(r"^(?:x\s*∈\s*|x\s*\\in\s*|s\s*=\s*|the solution set is\s*:?\s*|solution\s*:\s*)",
                      re.IGNORECASE)
_SET_BUILDER = re.compile(r"^\{\s*x\s*(?:∈\s*(?:ℝ|R|\\mathbb\{R\})\s*)?[|:]\s*(.*)\}$", re.DOTALL)
_EXCEPT = re.compile(r"^(?:ℝ|R|\\mathbb\{R\})\s*(?:\\|\\setminus|−|-)\s*\{(.*)\}$")
_UNION = re.compile(r"(?:∪|U(?=\s*[\[\(\{\]])|[Oo][Rr]\b)")
_COMPARISON = re.compile(r"(<=|>=|≤|≥|=<|=>|<|>|≠|!=|=)")
_RELATION = {"<": "<", ">": ">", "<=": "<=", "≤": "<=", "=<": "<=", ">=": ">=", "≥": ">=", "=>": ">=",
             "≠": "!=", "!=": "!=", "=": "="}


def _clean(text: str) -> str:
    s = re.sub(r"(?<![A-Za-z])\\\s+(?=\\?\{)", r"\\setminus ", unify(text))  # "ℝ \ {2}": a set difference, not a space
    s = simplify_latex(s).replace("$", "")
    for old, new in (("\\leqslant", "≤"), ("\\geqslant", "≥"), ("\\infty", "∞"), ("\\lt", "<"), ("\\gt", ">"),
                     ("\\ne", "≠"), ("\\cup", "∪"), ("\\left", ""), ("\\right", "")):
        s = s.replace(old, new)
    return re.sub(r"\s+", " ", s).strip()


def _endpoint(text: str, is_low: bool) -> tuple[bool, Surd | None] | None:
    """(is infinite, value) of an endpoint; None if unreadable or infinite on the wrong side."""
    s = text.strip().replace(" ", "")
    lowered = s.lower()
    if lowered in INFINITY_WORDS:
        return (True, None) if not is_low else None
    if lowered.startswith("-") and lowered[1:] in INFINITY_WORDS:
        return (True, None) if is_low else None
    value = read_radical(s, max_numbers=6)
    return None if value is None else (False, value)


def _interval_at(s: str, i: int) -> tuple[Interval, int] | None:
    """The interval whose opening bracket is at ``s[i]`` and the index after its closing bracket.

    Besides ``(a, b]``, the French notation with outward brackets for open ends: ``]a, b[`` is ``(a, b)``,
    ``]a, b]`` is ``(a, b]``, ``[a, b[`` is ``[a, b)``, its endpoints also separated by ``;`` (``[a ; b]``, not
    with a round bracket). A piece mixes no notations: ``]a, b)`` and ``(a, b[`` are unreadable."""
    french_open = s[i] == "]"
    depth, comma, j = 0, -1, i + 1
    while j < len(s):  # bounded by the text's length
        char = s[j]
        if char == "[" and depth == 0 and comma >= 0 and s[i] in "[]":
            break  # a French open right end: "[a, b["
        if char in "({[":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif char in ",;" and depth == 0:
            if comma >= 0:
                return None
            comma = j
        j += 1
    if j >= len(s) or comma < 0 or s[j] not in ")][":
        return None
    french = french_open or s[j] == "["
    round_bracket = s[i] == "(" or s[j] == ")"
    if (french and round_bracket) or (s[comma] == ";" and round_bracket):
        return None
    low, high = _endpoint(s[i + 1 : comma], True), _endpoint(s[comma + 1 : j], False)
    if low is None or high is None:
        return None
    low_closed, high_closed = s[i] == "[", s[j] == "]"
    if (low[0] and low_closed) or (high[0] and high_closed):
        return None  # a closed bracket at infinity
    piece = Interval(low[1], low_closed, high[1], high_closed)
    if low[1] is not None and high[1] is not None and (float(low[1]) > float(high[1]) or _empty(piece)):
        return None  # reversed or empty: not a way to write an interval
    return piece, j + 1


def _points(text: str) -> list[Surd] | None:
    values = [read_radical(p.strip(), max_numbers=6) for p in text.split(",")]
    return None if any(v is None for v in values) or not values else values  # type: ignore[return-value]


def _intervals(s: str) -> list[Interval] | None:
    """Interval notation: bracketed pieces (and braced point sets) joined by union signs or commas."""
    pieces: list[Interval] = []
    i = 0
    while i < len(s):  # bounded: i always moves forward
        char = s[i]
        if char in " ,;":
            i += 1
            continue
        union = _UNION.match(s, i)
        if union and union.end() > i:
            i = union.end()
            continue
        if char in "([]":
            found = _interval_at(s, i)
            if found is None:
                return None
            pieces.append(found[0])
            i = found[1]
        elif char == "{":
            end = s.find("}", i)
            points = _points(s[i + 1 : end]) if end > 0 else None
            if points is None:
                return None
            pieces += [Interval(p, True, p, True) for p in points]
            i = end + 1
        else:
            return None
        if len(pieces) > MAX_PIECES:
            return None
    return pieces or None


def _chain(text: str, variable: str) -> list[Interval] | None:
    """One inequality or a chain such as ``-2 < x <= 3``, ``x >= 1``, ``5 > x``, ``x ≠ 2``, ``x = 3``."""
    parts = _COMPARISON.split(text)
    if len(parts) not in (3, 5):
        return None
    terms = [p.strip() for p in parts[::2]]
    relations = [_RELATION[r] for r in parts[1::2]]
    if terms.count(variable) != 1:
        return None
    at = terms.index(variable)
    bounds: list[Interval] = []
    for k, relation in enumerate(relations):
        left, right = terms[k], terms[k + 1]
        if left == variable:
            other, relation = right, relation
        elif right == variable:
            other = left
            relation = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!=", "=": "="}[relation]
        else:
            return None
        value = read_radical(other, max_numbers=6)
        if value is None:
            return None
        if relation == "!=":
            if len(relations) > 1:
                return None
            return list(complement_of_points([value]))
        bounds.append({
            "<": Interval(None, False, value, False), "<=": Interval(None, False, value, True),
            ">": Interval(value, False, None, False), ">=": Interval(value, True, None, False),
            "=": Interval(value, True, value, True),
        }[relation])
    if len(bounds) == 2 and at != 1:
        return None
    if len(bounds) == 1:
        return bounds
    lows = [b for b in bounds if b.low is not None and b.high is None]
    highs = [b for b in bounds if b.high is not None and b.low is None]
    if len(lows) != 1 or len(highs) != 1:
        return None  # "x < 2 < 3" or "1 < x > 0"
    piece = Interval(lows[0].low, lows[0].low_closed, highs[0].high, highs[0].high_closed)
    return None if _empty(piece) else [piece]


def _inequalities(s: str, variable: str) -> list[Interval] | None:
    pieces: list[Interval] = []
    parts = re.split(r"\s*(?:\bor\b|∪|,|;)\s*", s)
    if len(parts) > MAX_PIECES:
        return None
    for part in parts:
        if not part:
            continue
        conjuncts = _AND.split(part)
        chain = _chain(part, variable) if len(conjuncts) == 1 else _both(conjuncts, variable)
        if chain is None:
            return None
        pieces += chain
    return pieces or None


_AND = re.compile(r"\s+and\s+|\s*(?:∧|&&|\\land|\\wedge)\s*")


def _both(conjuncts: list[str], variable: str) -> list[Interval] | None:
    """The interval ``x > -9 and x < 5`` writes (two bounds, one on each side; ``∧`` too); None for any other
    conjunction (two bounds on one side, a chain and a bound, or an empty intersection are not ways to write one)."""
    if len(conjuncts) != 2:
        return None
    bounds = [_chain(c, variable) for c in conjuncts]
    if any(b is None or len(b) != 1 for b in bounds):
        return None
    lows = [b[0] for b in bounds if b is not None and b[0].low is not None and b[0].high is None]
    highs = [b[0] for b in bounds if b is not None and b[0].high is not None and b[0].low is None]
    if len(lows) != 1 or len(highs) != 1:
        return None
    piece = Interval(lows[0].low, lows[0].low_closed, highs[0].high, highs[0].high_closed)
    return None if _empty(piece) else [piece]


def _read(text: str, variable: str, allow_empty: bool) -> Set | None:
    s = _LEAD_IN.sub("", strip_wrappers(_clean(text)), count=1).strip()
    builder = _SET_BUILDER.match(s)
    if builder:
        s = builder.group(1).strip()
    if _REALS.match(s):
        return EVERYTHING
    if _EMPTY.match(s):
        return () if allow_empty else None
    excluded = _EXCEPT.match(s)
    if excluded:
        points = _points(excluded.group(1))
        return None if points is None else complement_of_points(points)
    if variable in s and _COMPARISON.search(s):
        pieces = _inequalities(s, variable)
    else:
        pieces = _intervals(s)
    if pieces is None or _overlapping(pieces):
        return None
    result = canonical(pieces)
    return result if result or allow_empty else None


def read_intervals(text: str, *, variable: str = "x", allow_empty: bool = False) -> Set | None:
    """The set of reals written in ``text``, canonical (see the module docstring), or ``None``.

    ``allow_empty``: the empty set is an answer (``∅``, ``no solution``). Never raises.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    def read(s: str) -> Set | None:
        try:
            return _read(s, variable, allow_empty)
        except (RecursionError, ValueError, ZeroDivisionError, OverflowError):
            return None

    return read_answer(text, read)


# --- writing ----------------------------------------------------------------------


def _end(value: Surd | None, low: bool) -> str:
    return ("-∞" if low else "∞") if value is None else format_radical(value)


def format_intervals(intervals: Set) -> str:
    """Interval notation with ``∪`` (``∅`` for the empty set)."""
    if not intervals:
        return "∅"
    out = []
    for p in intervals:
        if p.low is not None and p.low == p.high:
            out.append("{" + format_radical(p.low) + "}")
            continue
        out.append(f"{'[' if p.low_closed else '('}{_end(p.low, True)}, {_end(p.high, False)}"
                   f"{']' if p.high_closed else ')'}")
    return " ∪ ".join(out)


def format_inequalities(intervals: Set, variable: str = "x") -> str:
    """The same set as inequalities joined by ``or`` (``all real numbers`` / ``no solution`` at the extremes)."""
    if not intervals:
        return "no solution"
    if intervals == EVERYTHING:
        return "all real numbers"
    out = []
    for p in intervals:
        if p.low is not None and p.low == p.high:
            out.append(f"{variable} = {format_radical(p.low)}")
        elif p.low is None:
            out.append(f"{variable} {'<=' if p.high_closed else '<'} {format_radical(p.high)}")  # type: ignore[arg-type]
        elif p.high is None:
            out.append(f"{variable} {'>=' if p.low_closed else '>'} {format_radical(p.low)}")
        else:
            out.append(f"{format_radical(p.low)} {'<=' if p.low_closed else '<'} {variable} "
                       f"{'<=' if p.high_closed else '<'} {format_radical(p.high)}")
    return " or ".join(out)
