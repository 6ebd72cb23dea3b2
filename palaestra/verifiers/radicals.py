r"""Exact answers that may contain square roots: reading, canonical text and other spellings.

:func:`read_radical` reads a number that is a rational or a sum of rational multiples of
square roots (:class:`palaestra.verifiers.expressions.Surd`) from any spelling a careful
grader accepts: a numeral (``7/2``, ``3.5``), ``3*sqrt(2)/2``, ``\frac{3\sqrt{2}}{2}``,
``(3/2)√2``, ``1.5√2``, ``sqrt(9/2)``, ``2 + √3``. The number of numbers written is
bounded (``max_numbers``), so the question's own computation typed back
(``sqrt((1 + 4 + 9)/3)``) is not an answer; :func:`work_left` tells a shorter one
(``47 - 12``, ``sqrt(91^2 - 77^2)``) from a worked-out value for envs that ask for one. Values compare exactly: a rounded decimal
(``2.1213``) is never equal to ``3√2/2``.

Example::

    >>> read_radical(r"\frac{3\sqrt{2}}{2}") == read_radical("sqrt(9/2)") == read_radical("1.5√2")
    True
    >>> read_radical("2.1213") == read_radical("3*sqrt(2)/2"), read_radical("sqrt((1 + 4 + 9)/3 - 1)")
    (False, None)
    >>> format_radical(read_radical("2 - 3sqrt(5)/4")), radical_spellings(read_radical("sqrt(8)"))[:3]
    ('2 - 3*sqrt(5)/4', ['2√2', '2\\sqrt{2}', '\\sqrt{8}'])
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from palaestra.verifiers.expressions import Surd, evaluate_surd, leaves, normalise, parse_expression
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import decimal_agrees, read_exact, split_exact_and_decimal, strip_name

MAX_CHARS = 300


def _read(text: str, max_numbers: int) -> Surd | None:
    value = read_exact(text, max_digits=60)
    if value is not None:
        return Surd.rational(value)
    s = text.strip()
    for prefix in ("=",):
        s = s.removeprefix(prefix).strip()
    tree = parse_expression(s, constants=False, functions=("sqrt",))
    if tree is None or sum(1 for leaf in leaves(tree) if leaf[0] == "num") > max_numbers:
        return None
    return evaluate_surd(tree)


def read_radical(text: str, *, max_numbers: int = 4) -> Surd | None:
    """The exact value of ``text`` as a :class:`Surd`, or ``None`` (see the module docstring).

    A lead-in such as ``x =`` or ``Answer:`` and a short trailing sentence are read past.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    return read_answer(text, lambda s: _read_with_decimal(s, max_numbers))


def _read_with_decimal(text: str, max_numbers: int) -> Surd | None:
    """The value alone, or followed by ``≈`` and its decimal (rounded or truncated: ``3*sqrt(2) ≈ 4.243``); a
    decimal that is not the value makes the answer a second one, unreadable."""
    text = _drop_name(text)
    pair = split_exact_and_decimal(text)
    if pair is None:
        return _read(text, max_numbers)
    value, decimal = _read(pair[0], max_numbers), read_exact(pair[1])
    if value is None or decimal is None:
        return None
    approximately = sum(float(q) * math.sqrt(d) for d, q in value.terms.items())
    return value if decimal_agrees(Fraction(approximately), decimal, pair[1]) else None


def _drop_name(text: str) -> str:
    """``x = ...``, ``AB = ...``, ``\\sigma = ...``, ``s^2 = ...``: the part after a short name and ``=``."""
    if (named := strip_name(text)) is not text:
        return named.strip()
    head, sep, tail = text.partition("=")
    name = head.strip().lstrip("\\").replace("_", "").replace("{", "").replace("}", "")
    if sep and tail.strip() and 0 < len(name) <= 12 and name.isalnum():
        return tail.strip()
    return text


def _fraction_text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _term(q: Fraction, d: int) -> str:
    """``|q|*sqrt(d)`` without its sign: ``sqrt(2)``, ``3*sqrt(2)``, ``sqrt(2)/2``, ``3*sqrt(2)/2``."""
    size = abs(q)
    if d == 1:
        return _fraction_text(size)
    root = f"sqrt({d})"
    top = root if size.numerator == 1 else f"{size.numerator}*{root}"
    return top if size.denominator == 1 else f"{top}/{size.denominator}"


def format_radical(value: Surd) -> str:
    """Canonical text: the rational part first, then roots by increasing radicand (``2 - 3*sqrt(5)/4``)."""
    terms = sorted(value.terms.items())
    if not terms:
        return "0"
    out = []
    for d, q in terms:
        text = _term(q, d)
        if not out:
            out.append(("-" if q < 0 else "") + text)
        else:
            out.append((" - " if q < 0 else " + ") + text)
    return "".join(out)


def radical_spellings(value: Surd) -> list[str]:
    """Other spellings of ``value`` that :func:`read_radical` reads to the same number."""
    terms = sorted(value.terms.items())
    if value.is_rational():
        q = value.rational_part()
        out = [_fraction_text(q), f"{_fraction_text(q)}.", f"\\boxed{{{_fraction_text(q)}}}"]
        if q.denominator != 1:
            out.append(f"\\frac{{{q.numerator}}}{{{q.denominator}}}")
        return out
    out: list[str] = []
    if len(terms) == 1:
        d, q = terms[0]
        size = abs(q)
        sign = "-" if q < 0 else ""
        coefficient = "" if size.numerator == 1 else str(size.numerator)
        if size.denominator == 1:
            out += [f"{sign}{coefficient}√{d}", f"{sign}{coefficient}\\sqrt{{{d}}}",
                    f"{sign}\\sqrt{{{d * size.numerator ** 2}}}"]
        else:
            out += [f"{sign}{coefficient}√{d}/{size.denominator}",
                    f"{sign}\\frac{{{coefficient}\\sqrt{{{d}}}}}{{{size.denominator}}}",
                    f"{sign}({_fraction_text(size)})√{d}"]
            inside = size * size * d
            if inside.numerator * inside.denominator <= 10**8:  # within the reader's radicand bound
                out.append(f"{sign}sqrt({_fraction_text(inside)})")
    text = format_radical(value)
    out += [text.replace("sqrt(", "√(").replace("*", ""), text.replace("*", " * "), f"{text}."]
    return out


_POWER = re.compile(r"[\w)}]\s*\*\*\s*[\w({]")  # 91**2 (and not Markdown's **bold**)
_SIDES = re.compile(r"=|≈|\\approx")
_ROOT_POWER = re.compile(r"(\d{1,12})\s*\^\s*\(\s*1\s*/\s*2\s*\)")  # 10^(1/2): a square root, not a power


def work_left(answer: str) -> bool:
    r"""Whether ``answer`` leaves arithmetic of the question undone, for envs that ask for a worked-out value (the
    question's own formula typed back is not one): a power (``91^2``), a square root of anything but one number or one
    fraction (``sqrt(91^2 - 77^2)``, ``sqrt(8281 - 5929)``), or numbers without roots combined (``31*27/4``,
    ``47 - 12``, ``10 + 36 + 2*sqrt(349)``). ``sqrt(75)``, ``sqrt(9/2)``, ``\sqrt{\frac{9}{2}}``, ``(3/2)√2``,
    ``46 + 2*sqrt(349)``, ``(√6 + √2)/4``, ``2 - 10^(1/2)`` and ``s^2 = 9/2`` (a name, then the value) are values.

    >>> work_left("sqrt(91^2 - 77^2)"), work_left("(7 + 8)/2"), work_left("15/2"), work_left("s^2 = 3√2/2")
    (True, True, False, False)
    """
    if not isinstance(answer, str) or len(answer) > MAX_CHARS:
        return False
    bare = _drop_name(strip_wrappers(answer))  # "The answer is **2*sqrt(1594)**." as read_radical reads it
    bare = _ROOT_POWER.sub(r"sqrt(\1)", bare)
    if "^" in bare or _POWER.search(bare):
        return True
    text = normalise(bare)
    start = text.find("sqrt(")
    for _ in range(len(text)):  # one square root a pass; the text is short (read_radical takes 300 characters)
        if start < 0:
            break
        depth, end = 0, len(text)
        for i in range(start + 4, len(text)):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                end = i
                break
        radicand = parse_expression(text[start + 5 : end], constants=False, functions=())
        if radicand is None or not (radicand[0] == "num" or (
                radicand[0] == "/" and radicand[1][0] == "num" and radicand[2][0] == "num")):
            return True
        start = text.find("sqrt(", start + 5)
    for part in _SIDES.split(bare)[:8]:  # "x = ...", "... ≈ 4.24": each side that is an expression
        tree = parse_expression(part, constants=False, functions=("sqrt",))
        if tree is not None and _arithmetic_left(tree):
            return True
    return False


def _has_root(tree: tuple) -> bool:
    return tree[0] == "call" or any(isinstance(child, tuple) and _has_root(child) for child in tree[1:])


def _arithmetic_left(tree: tuple) -> bool:
    """Whether ``tree`` leaves numbers without roots to combine: two root-free terms of one sum, or two root-free
    factors above (or below) the line of one product, in any order (``31*sqrt(3)*27/4``). The reader's trees are
    small (at most 300 characters)."""
    if tree[0] == "neg":
        return _arithmetic_left(tree[1])
    if tree[0] in ("+", "-"):
        parts, kinds = _chain(tree, ("+", "-"), False), 1
    elif tree[0] in ("*", "/"):
        parts, kinds = _chain(tree, ("*", "/"), False), 2
    else:
        return False
    for below in range(kinds):
        if sum(1 for part, under in parts if under == bool(below) and not _has_root(part)) > 1:
            return True
    return any(_arithmetic_left(part) for part, _ in parts)


def _chain(tree: tuple, operators: tuple[str, str], under: bool) -> list[tuple[tuple, bool]]:
    """The terms of a sum (or the factors of a product, each marked whether it divides), unary minus read past."""
    while tree[0] == "neg":
        tree = tree[1]
    if tree[0] not in operators:
        return [(tree, under)]
    below = under != (tree[0] == "/")
    return _chain(tree[1], operators, under) + _chain(tree[2], operators, below if tree[0] == "/" else under)
