"""What the operations-research environments share: writing linear expressions and reading named values.

Not an environment (nothing here is registered). Answers name their values (``x1 = 3/2, x2 = 4, P = 18``),
read by :func:`palaestra.verifiers.assignments.read_values` with exact numbers, so wrappers, ``Answer:``
lead-ins, LaTeX fractions and a closing full stop are accepted and hedges are not.

Example::

    >>> linear_text([3, -1, 0, 2], ["x1", "x2", "x3", "x4"])
    '3x1 - x2 + 2x4'
    >>> read_named_numbers("x1 = 3/2, x2 = 4, P = 18", ["x1", "x2", "P"])
    {'x1': Fraction(3, 2), 'x2': Fraction(4, 1), 'P': Fraction(18, 1)}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.sets import one_of, read_list


def linear_text(coefficients: Sequence[int | Fraction], names: Sequence[str]) -> str:
    """``3x1 - x2 + 2x4``: the non-zero terms, signs written between them."""
    terms: list[str] = []
    for coefficient, name in zip(coefficients, names):
        if coefficient == 0:
            continue
        size = abs(coefficient)
        body = f"{'' if size == 1 else size}{name}"
        if not terms:
            terms.append(body if coefficient > 0 else f"-{body}")
        else:
            terms.append(f"{'+' if coefficient > 0 else '-'} {body}")
    return " ".join(terms) or "0"


def read_named_numbers(text: str, names: Sequence[str]) -> dict[str, Fraction] | None:
    """``{name: exact value}`` for every name, else None (unreadable, a name missing or given twice)."""
    return read_values(text, names, lambda s: read_exact(s, mixed=True, max_digits=60))


_ARROWS = ("->", "→", "⇒", "=>", "—>")


def read_sequence(text: str, labels: Sequence[str]) -> list[str] | None:
    """The labels in written order (``J3, J1, J2``, ``J3 J1 J2``, ``J3 -> J1 -> J2``), in the labels' own case,
    else None (an unknown label, a hedge)."""
    if not isinstance(text, str) or len(text) > 20 * len(labels) + 400:
        return None
    for arrow in _ARROWS:
        text = text.replace(arrow, ",")
    return read_list(text, one_of(labels), space_separated=True)


Units = Mapping[str, Fraction | int]


def read_quantity(text: str, units: Units) -> Fraction | None:
    """The exact number written, converted to the asked unit (one of ``units``, or none), else None."""
    return read_exact(text, units=dict(units) or None, mixed=True, max_digits=60)


def read_quantities(text: str, units: Mapping[str, Units]) -> dict[str, Fraction] | None:
    """``{name: value}`` for every name of ``units`` (each read in its own accepted units), else None."""
    raw = read_values(text, list(units), lambda s: s.strip() or None)
    if raw is None:
        return None
    values = {name: read_quantity(str(raw[name]), units[name]) for name in units}
    return None if any(v is None for v in values.values()) else values  # type: ignore[return-value]


def read_labelled_sequences(text: str, heads: Sequence[str], labels: Sequence[str]) -> dict[str, list[str]] | None:
    """``{head: labels in order}`` from one ``head: sequence`` per line or per ``;`` (``M1: J2, J1; M2: J1, J2``),
    every head exactly once and in its own case, else None. Input is bounded before it is split."""
    if not isinstance(text, str) or len(text) > (20 * len(labels) + 40) * len(heads) + 400:
        return None
    return read_answer(text, lambda s: _labelled_core(s, {h.lower(): h for h in heads}, labels))


def _labelled_core(text: str, heads: dict[str, str], labels: Sequence[str]) -> dict[str, list[str]] | None:
    found: dict[str, list[str]] = {}
    for part in text.strip().strip("`").replace(";", "\n").splitlines():
        part = part.strip().strip("*").strip()
        if not part:
            continue
        for mark in (":", "="):
            head, sep, rest = part.partition(mark)
            if sep and head.strip().strip("*").strip().lower() in heads:
                break
        else:
            return None
        name = heads[head.strip().strip("*").strip().lower()]
        sequence = read_sequence(rest.strip().rstrip(",.").strip(), labels) if rest.strip() else []
        if sequence is None or name in found:
            return None
        found[name] = sequence
    return found if len(found) == len(heads) else None
