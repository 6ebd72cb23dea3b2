r"""Reading answers that give each of several names a value: ``x = 2, y = 3``, ``Ada: knight``.

:func:`read_assignment` reads values for known names. Spellings read as ``{x: 2, y: 3}``:
``x = 2, y = 3``, ``x=2; y=3``, ``x: 2, y: 3``, ``x = 2 and y = 3``, ``x is 2``, one per
line (bulleted or not), ``(x, y) = (2, 3)``, ``x, y = 2, 3``, ``\{x=2, y=3\}``, ``$x = 2$, $y = 3$``,
``\begin{cases} x = 2 \\ y = 3 \end{cases}``, with LaTeX values (``x = \frac{1}{2}``)
read by the caller's value reader (exact numbers by default). Names match in any case,
with or without braces in subscripts (``x_{1}`` is ``x_1``), subscript digits as digits (``O₂`` is ``O2``). A name the caller did not
list, a listed name left out (unless ``partial=True``) or one name given two different
values makes the answer unreadable: a hedged answer is no answer.

:func:`read_roles` reads a role per name from sentences: ``Ada is a knight and Ben is a
knave``, ``Ada and Cy are knights; Ben is a knave``, ``Ada: knight, Ben: knave``.

Both follow the answer grammar of :mod:`palaestra.verifiers.normalize`: a closing full stop, nothing after.

Example::

    >>> read_assignment("(x, y) = (-6, 5)", ["x", "y"]) == {"x": -6, "y": 5}
    True
    >>> read_assignment(r"x = \frac{1}{2}; y = 3.", ["x", "y"]) == {"x": Fraction(1, 2), "y": 3}
    True
    >>> read_assignment("x = 1, y = 3. These satisfy both.", ["x", "y"]) is None
    True
    >>> read_assignment("x = 2, y = 3, z = 4", ["x", "y"]), read_assignment("x = 2 (or 3), y = 1", ["x", "y"])
    (None, None)
    >>> read_roles("Ada is a knight and Ben is a knave", ["Ada", "Ben"], ["knight", "knave"])
    {'Ada': 'knight', 'Ben': 'knave'}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from palaestra.verifiers.normalize import (
    enclosed,
    read_answer,
    simplify_latex,
    split_top_level,
    squeeze_spaces,
    strip_wrappers,
    unify,
    without_bullets,
)
from palaestra.verifiers.numeric import read_exact

T = TypeVar("T")

MAX_ASSIGNMENT_CHARS = 20_000
MAX_PAIRS = 1_000

_KEY = r"\\?[A-Za-z][A-Za-z0-9]*(?:_\{?[A-Za-z0-9]{1,8}\}?)?'?"
# a key may be quoted as JSON and Python write it ({"B": 7, 'M': 5}); the closing quote matches the opening one
_PAIR = re.compile(rf"^\s*(?:and\s+)?\**\$?(?P<quote>[\"'])?({_KEY})(?(quote)(?P=quote))\$?\**\s*(?:=|:=|:|\bis\b)\s*(.*)$",
                   re.DOTALL)
_TUPLE = re.compile(rf"[(\[]?\s*({_KEY}(?:\s*,\s*{_KEY})+)\s*[)\]]?\s*=\s*([(\[]?)(.*?)([)\]]?)", re.DOTALL)
_SEPARATOR = re.compile(r" ?[,;] ?(?:and )?| ?\n ?| and ", re.IGNORECASE)
_COMMA = re.compile(r" ?, ?")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_SUBSCRIPT_RUN = re.compile(r"(?<=[A-Za-z)\]])[₀₁₂₃₄₅₆₇₈₉]+")  # subscript digits in a name (after a letter or bracket)
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{[A-Za-z*]{1,20}\}(?:\{[^{}]{0,20}\})?|&")


class _Names:
    """Match written names to the caller's names: exactly, else ignoring case, braces and underscores."""

    def __init__(self, names: Iterable[str]) -> None:
        self.exact: dict[str, str] = {}
        self.loose: dict[str, set[str]] = {}
        for name in names:
            self.exact[self._normal(name)] = name
            self.loose.setdefault(self._loose(name), set()).add(name)

    @staticmethod
    def _normal(name: str) -> str:
        return re.sub(r"[\s{}$*\"'`]", "", name)

    @classmethod
    def _loose(cls, name: str) -> str:
        return cls._normal(name).replace("_", "").lower()

    def find(self, written: str) -> str | None:
        name = self.exact.get(self._normal(written))
        if name is not None:
            return name
        candidates = self.loose.get(self._loose(written), set())
        return next(iter(candidates)) if len(candidates) == 1 else None

    def words(self) -> set[str]:
        return {n.lower() for n in self.exact.values()}


def _pairs(s: str) -> list[tuple[str, str]] | None:
    """``(written name, value text)`` pairs, or ``None`` when the text is not a list of assignments."""
    tuple_form = _TUPLE.fullmatch(s)
    if tuple_form and (tuple_form.group(3) or "") and bool(tuple_form.group(2)) == bool(tuple_form.group(4)):
        keys = _COMMA.split(tuple_form.group(1))
        values = [piece for _, piece in split_top_level(tuple_form.group(3), _COMMA)]
        return list(zip(keys, values)) if len(keys) == len(values) else None
    if enclosed(s):
        s = s[1:-1].strip()
    pairs: list[list[str]] = []
    for before, piece in split_top_level(s, _SEPARATOR, limit=MAX_PAIRS + 1):
        match = _PAIR.match(piece)
        if match:
            pairs.append([match.group(2), match.group(3)])
        elif pairs:
            pairs[-1][1] += before + piece  # a separator inside a value: "x = 1,234"
        else:
            return None
        if len(pairs) > MAX_PAIRS:
            return None
    return [(key, value) for key, value in pairs]


_WRAPPED_LINE = re.compile(r"(?m)^([ \t]*)(\*\*|\$\$)([^*$\n]{1,200})\2([ \t]*[,;.]?)[ \t]*$")


def _read_core(
    text: str, names: _Names, read_value: Callable[[str], Any], partial: bool
) -> dict[str, Any] | None:
    s = strip_wrappers(squeeze_spaces(_ENVIRONMENT.sub(" ", simplify_latex(unify(text)))))
    s = s.replace("\\(", "").replace("\\)", "")  # inline math around each pair: \(x = 2\), \(y = 3\)
    s = _SUBSCRIPT_RUN.sub(lambda m: m.group().translate(_SUBSCRIPTS), s)  # O₂, x₁: the names O2, x1
    s = without_bullets(s)  # "- x = 2\n- y = 3": one bulleted pair a line
    s = _WRAPPED_LINE.sub(r"\1\3\4", s)  # "**x = 2**" or "$$x = 2$$" on each line
    pairs = _pairs(s)
    if not pairs:
        return None
    values: dict[str, Any] = {}
    for written, value_text in pairs:
        name = names.find(written)
        value = None if name is None or not value_text.strip() else read_value(value_text.strip())
        if name is None or value is None or values.get(name, value) != value:
            return None
        values[name] = value
    if not partial and len(values) < len(names.exact):
        return None
    return values


def read_assignment(
    text: str,
    names: Iterable[str],
    read_value: Callable[[str], T | None] = read_exact,  # type: ignore[assignment]
    *,
    partial: bool = False,
    max_chars: int = MAX_ASSIGNMENT_CHARS,
) -> dict[str, T] | None:
    """``{name: value}`` for the caller's ``names`` written in ``text``, or ``None``.

    ``read_value``: value text -> value or ``None`` (default :func:`~palaestra.verifiers.numeric.read_exact`).
    ``partial``: names may be left out. Keys of the result are spelled as in ``names``.
    Never raises; ``None`` past ``max_chars`` characters.

    >>> read_assignment("X: 2\\nY: 3", ["x", "y"]) == {"x": 2, "y": 3}, read_assignment("x = 2, x = 3, y = 1", "xy")
    (True, None)
    """
    if not isinstance(text, str) or len(text) > max_chars:
        return None
    index = _Names(names)
    return read_answer(text, lambda s: _read_core(s, index, read_value, partial))


_ROLE_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|->|[→:=,;.()\n–—-]|\S")
_ROLE_FILLERS = frozenset(["is", "are", "a", "an", "both", "also", "and", "the", ":", "=", ",", ";", ".", "(", ")",
                           "-", "–", "—", "->", "→", "\n"])


def _read_roles_core(
    text: str, names: Mapping[str, str], roles: Mapping[str, str], partial: bool, count: int
) -> dict[str, str] | None:
    s = simplify_latex(unify(text)).translate(str.maketrans("", "", "*$\"'`“”‘’"))
    result: dict[str, str] = {}
    pending: list[str] = []
    for token in _ROLE_TOKEN.findall(s.lower()):
        if token in _ROLE_FILLERS:
            continue
        if token in names:
            pending.append(names[token])
        elif token in roles and pending:
            for name in pending:
                if result.setdefault(name, roles[token]) != roles[token]:
                    return None
            pending = []
        else:
            return None
    if pending or not result or (not partial and len(result) < count):
        return None
    return result


def read_roles(
    text: str,
    names: Iterable[str],
    roles: Mapping[str, Iterable[str]] | Iterable[str],
    *,
    partial: bool = False,
    max_chars: int = MAX_ASSIGNMENT_CHARS,
) -> dict[str, str] | None:
    """``{name: role}`` from sentences or ``name: role`` pairs, or ``None``.

    ``roles``: the role words (``["knight", "knave"]``), or a mapping from each role to its
    one-word spellings (``{"knight": ["knight", "truth-teller"], "knave": ["knave", "liar"]}``);
    plurals (``knights``) are read too. Names and roles match in any case. A name with two
    different roles, an unknown word (``not``, ``or``), a name with no role or a name
    left out (unless ``partial=True``) makes the answer unreadable.

    >>> read_roles("Ada and Cy are knights; Ben is a knave.", ["Ada", "Ben", "Cy"], ["knight", "knave"])
    {'Ada': 'knight', 'Cy': 'knight', 'Ben': 'knave'}
    >>> read_roles("Ada is not a knight, Ben is a knave", ["Ada", "Ben"], ["knight", "knave"])
    """
    if not isinstance(text, str) or len(text) > max_chars:
        return None
    spellings = roles.items() if isinstance(roles, Mapping) else ((role, (role,)) for role in roles)
    role_words: dict[str, str] = {}
    for role, words in spellings:
        for word in words:
            role_words[word.lower()] = role
            role_words.setdefault(word.lower() + "s", role)
    name_words = {name.lower(): name for name in names}
    return read_answer(text, lambda s: _read_roles_core(s, name_words, role_words, partial, len(name_words)))


_ARROWS = ("->", "→", "=>", "⇒", "↦")
# | A | 6 |, | R92 | 2004-02-14 |: a row is rewritten as "name = value" only when it names an asked name (a header
# row such as | Letter | Digit | is then left for _TABLE_HEADER to drop)
_TABLE_ROW = re.compile(r"(?m)^[ \t]*(?:\|[ \t]*)?([A-Za-z]\w{0,15})[ \t]*\|[ \t]*([^|\n]{1,40})\|?[ \t]*$")
_TABLE_HEADER = re.compile(r"^[ \t]*\|[^=]*\|[ \t]*$")  # | Letter | Digit | and |---|---| (what is left of the table)
_SPACED_PAIR = re.compile(r"([A-Za-z]\w{0,15})\s*[=:]\s*([^\s,;=:]{1,10})")


def read_values(text: str, names: Sequence[str], read_value: Callable[[str], object | None], *,
                partial: bool = False) -> dict | None:
    """``{name: value}`` as :func:`read_assignment` reads it, also from pairs separated by spaces
    only (``A=1 B=7``), which that reader takes for one value, with arrows (``A -> 1``) or as a
    two-column Markdown table (``| A | 1 |`` rows, any value a cell holds). None when unreadable or hedged.

    >>> from palaestra.verifiers.numeric import read_integer
    >>> read_values("A=1 B=7", ["A", "B"], read_integer)
    {'A': 1, 'B': 7}
    """
    if isinstance(text, str) and len(text) <= 40 * len(names) + 200:
        for arrow in _ARROWS:
            text = text.replace(arrow, " = ")
        asked = {name.lower() for name in names}
        text = _TABLE_ROW.sub(
            lambda row: f"{row.group(1)} = {row.group(2).strip()}" if row.group(1).lower() in asked else row.group(0),
            text)
        text = "\n".join(line for line in text.splitlines() if not _TABLE_HEADER.match(line))
    found = read_assignment(text, names, read_value, partial=partial)
    if found is None and isinstance(text, str) and len(text) <= 40 * len(names) + 200:
        pairs = _SPACED_PAIR.findall(text)
        if pairs and not _SPACED_PAIR.sub("", text).strip(" \t\n,;."):
            found = read_assignment(", ".join(f"{k} = {v}" for k, v in pairs), names, read_value, partial=partial)
    return found


Units = Mapping[str, "Fraction | int"]
"""Accepted unit spellings and their factors to the asked unit (``{"cm": 1, "m": 100}``); empty: a bare number."""


def read_quantity(text: str, units: Units, max_digits: int = 60, *, sentence: bool = False) -> Fraction | None:
    """The exact number written, converted to the asked unit (a unit of ``units``, or none), else None; with
    ``sentence`` also in a naming sentence (``The charge is 5 µC``, see :func:`~palaestra.verifiers.numeric.read_number`).

    >>> read_quantity("12.5 cm", {"cm": 1, "m": 100}), read_quantity("0.125 m", {"cm": 1, "m": 100})
    (Fraction(25, 2), Fraction(25, 2))
    """
    return read_exact(text, units=dict(units) or None, mixed=True, max_digits=max_digits, sentence=sentence)


def read_quantities(text: str, units: Mapping[str, Units], max_digits: int = 60) -> dict[str, Fraction] | None:
    """``{name: value}`` for every name of ``units``, each read in its own accepted units, else None.

    >>> read_quantities("v = 30 cm, m = -2", {"v": {"cm": 1}, "m": {}})
    {'v': Fraction(30, 1), 'm': Fraction(-2, 1)}
    """
    raw = read_values(text, list(units), lambda s: s.strip() or None)
    if raw is None:
        return None
    values = {name: read_quantity(str(raw[name]), units[name], max_digits) for name in units}
    return None if any(v is None for v in values.values()) else values  # type: ignore[return-value]
