"""Shared helpers of the temporal family: clock times and durations written as h:mm:ss."""

from __future__ import annotations

from fractions import Fraction

from palaestra.verifiers.numeric import format_number

DEGREES = {"°": 1, "degrees": 1, "degree": 1, "deg": 1, "^\\circ": 1, "^{\\circ}": 1}


def clock_time(seconds: int, with_seconds: bool) -> str:
    """A time of day on a 12-hour dial (1:00 .. 12:59), from seconds after 12:00."""
    hours, rest = divmod(seconds % (12 * 3600), 3600)
    minutes, secs = divmod(rest, 60)
    shown = hours or 12
    return f"{shown}:{minutes:02d}:{secs:02d}" if with_seconds else f"{shown}:{minutes:02d}"


def rational_spellings(value: Fraction) -> list[str]:
    """A rational written as a fraction, and as a mixed number or a finite decimal where it has one."""
    out = [format_number(value)]
    if value.denominator != 1:
        out.append(f"{value.numerator}/{value.denominator}")
        whole, rest = divmod(value.numerator, value.denominator)
        if whole:
            out.append(f"{whole} {rest}/{value.denominator}")
        denominator = value.denominator
        for prime in (2, 5):
            while denominator % prime == 0:
                denominator //= prime
        if denominator == 1:
            out.append(f"{float(value):.10f}".rstrip("0"))
    return out
