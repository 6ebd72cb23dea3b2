"""Shared pieces of the data family: the word lists, CSV rendering, exact decimals and keyed answers.

Not registered. ``WORDS`` holds the family's small word lists (``words.json`` next to this module:
cities, regions, categories, names, products, services...), from which generators draw realistic-looking
tables. ``keyed_verdict`` grades an answer that gives each of several keys a value (``Lyon = 12, Oslo = 7``)
through the shared assignment reader and names the first key that is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from importlib import resources
from typing import Any

from palaestra.core import Verdict
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import format_decimal, format_number, read_exact

WORDS: dict[str, list[str]] = json.loads(resources.files(__package__).joinpath("words.json").read_text("utf-8"))

EXACT_NUMBER_RULE = "exact values: a decimal where it terminates (12.5), otherwise a fraction in lowest terms (37/3)"


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A CSV table: the header line, then one line per row (no value holds a comma or a quote)."""
    return "\n".join(",".join(str(cell) for cell in line) for line in [header, *rows])


def money(cents: int) -> str:
    """An amount in cents as a decimal with two places: 1250 -> ``12.50``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def exact_text(value: Fraction | int) -> str:
    """The canonical spelling of an exact value: a terminating decimal, else a fraction (``37/3``)."""
    value = Fraction(value)
    text = format_decimal(value)
    return text if "/" not in text else format_number(value)


def number_spellings(value: Fraction | int) -> list[str]:
    """Other ways to write an exact value (a decimal with trailing zeros, a fraction, a whole number as 12.0)."""
    value = Fraction(value)
    out = [format_number(value)]
    if value.denominator == 1:
        out.append(f"{value.numerator}.0")
    elif "/" not in format_decimal(value):
        out.append(format_decimal(value) + "0")
    return out


def keyed_verdict(answer: str, truth: Mapping[str, Any], names: Sequence[str],
                  read_value: Callable[[str], Any] = read_exact, *, what: str, example: str,
                  describe: Callable[[Any], str] = str) -> Verdict:
    """Grade ``name = value`` pairs against ``truth``: exactly its keys (from the readable ``names``) and values.

    ``names`` are every key the answer may mention (keys left out of ``truth`` are the ones that
    should not appear); ``what`` names a key in feedback ("group", "cell").
    """
    given = read_values(answer, list(names), read_value, partial=True)
    if not given:
        return Verdict.unparsed(f"expected {what} = value pairs such as {example}")
    extra = [name for name in names if name in given and name not in truth]
    if extra:
        return Verdict.wrong(f"{what} {extra[0]} should not be in the answer")
    missing = [name for name in truth if name not in given]
    if missing:
        return Verdict.wrong(f"{what} {missing[0]} is missing")
    for name in truth:
        if given[name] != truth[name]:
            return Verdict.wrong(f"the value for {what} {name} is wrong (not {describe(given[name])})")
    return Verdict.right()


def keyed_text(pairs: Mapping[str, Any], separator: str = ", ") -> str:
    """``key = value`` pairs joined, in the mapping's order."""
    return separator.join(f"{key} = {value}" for key, value in pairs.items())
