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

import random
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction
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


def random_packing_program(rng: random.Random, n: int, m: int) -> tuple[list[int], list[list[int]], list[int]]:
    """``(c, A, b)`` of a packing program ``max c.x, A x <= b, x >= 0`` over ``n`` variables and ``m`` constraints,
    with small coefficients, 30% of them zero; see :func:`well_posed`."""
    a = [[rng.randint(1, 9) if rng.random() < 0.7 else 0 for _ in range(n)] for _ in range(m)]
    b = [rng.randint(10, 15 * n) for _ in range(m)]
    c = [rng.randint(1, 12) for _ in range(n)]
    return c, a, b


def well_posed(a: Sequence[Sequence[int]]) -> bool:
    """Every variable has a positive coefficient in some constraint (the program is bounded) and every constraint
    has a variable."""
    return all(any(row[j] for row in a) for j in range(len(a[0]))) and all(any(row) for row in a)


def named_values_text(names: Sequence[str], values: Sequence[Fraction], total_name: str, total: Fraction) -> str:
    """``x1 = 3/2, x2 = 4, P = 18``."""
    return ", ".join(f"{name} = {format_fraction(v)}" for name, v in zip(names, values)) + \
        f", {total_name} = {format_fraction(total)}"


def named_values_spellings(answer: str) -> list[str]:
    """Other spellings of a :func:`named_values_text` answer: the total first, one value a line, semicolons with a
    closing full stop, boxed."""
    pairs = answer.split(", ")
    return [", ".join([pairs[-1], *pairs[:-1]]), "\n".join(pairs), "; ".join(pairs) + ".",
            "\\boxed{" + ", ".join(pairs) + "}"]


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
    found = read_list(text, one_of(labels), space_separated=True)
    if found is None:  # "Sets: S1, S4", "Open W2 and W5.", "The optimal order is J2, J1, J3."
        found = read_answer(text, lambda s: read_list(_NAMING.sub("", s, count=1), one_of(labels),
                                                      space_separated=True))
    return found


# A naming phrase before a list of labels (our pattern, anchored, no nested repetition): "Chosen sets:", "Open",
# "The optimal order is", "Warehouses to open:".
_NAMING = re.compile(
    r"^(?:the\s+|my\s+)?(?:(?:optimal|best|chosen|minimum|cheapest|processing)\s+)?(?:open\s+)?"
    r"(?:sets?|cover|warehouses?(?:\s+to\s+open)?|order|sequence|job\s+order|jobs?)?\s*(?:(?:is|are)\s+)?:?\s*",
    re.IGNORECASE,
)


def read_labelled_sequences(text: str, heads: Sequence[str], labels: Sequence[str],
                            aliases: Mapping[str, str] | None = None) -> dict[str, list[str]] | None:
    """``{head: labels in order}`` from one ``head: sequence`` per line or per ``;`` (``M1: J2, J1; M2: J1, J2``),
    a line may start with a bullet (``- M1: J2, J1``); every head exactly once, in its own case or in another spelling
    ``aliases`` maps to it (``{"machine 1": "M1"}``: lower case, single spaces), else None. Input is bounded before it
    is split."""
    if not isinstance(text, str) or len(text) > (20 * len(labels) + 40) * len(heads) + 400:
        return None
    known = {h.lower(): h for h in heads} | {" ".join(a.lower().split()): h for a, h in (aliases or {}).items()}
    return read_answer(text, lambda s: _labelled_core(s, known, labels))


def _labelled_core(text: str, heads: dict[str, str], labels: Sequence[str]) -> dict[str, list[str]] | None:
    found: dict[str, list[str]] = {}
    for part in text.strip().strip("`").replace(";", "\n").splitlines():
        part = part.strip().strip("*").strip()
        if part[:1] in ("-", "•") and part[1:2].isspace():  # a bullet
            part = part[2:].strip().strip("*").strip()
        if not part:
            continue
        for mark in (":", "="):
            head, sep, rest = part.partition(mark)
            if sep and " ".join(head.strip().strip("*").strip().lower().split()) in heads:
                break
        else:
            return None
        name = heads[" ".join(head.strip().strip("*").strip().lower().split())]
        sequence = read_sequence(rest.strip().rstrip(",.").strip(), labels) if rest.strip() else []
        if sequence is None or name in found:
            return None
        found[name] = sequence
    return found if len(found) == len(set(heads.values())) else None
