"""Shared helpers of the temporal family: clock times and durations written as h:mm:ss."""

from __future__ import annotations

import re
from fractions import Fraction

from palaestra.verifiers.normalize import read_answer, restated
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


# The proleptic Gregorian calendar as day numbers (day 0 is 1970-01-01), valid for any year, with no tables.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_length(year: int, month: int) -> int:
    return (31, 29 if is_leap(year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def day_number(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to the date: whole 400-year eras (146097 days), then years counted from March."""
    shifted = year - (month <= 2)
    era = shifted // 400
    year_of_era = shifted - era * 400
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1  # March is month 0: leap days fall at year end
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def civil_date(number: int) -> tuple[int, int, int]:
    """The ``(year, month, day)`` of a day number (the inverse of :func:`day_number`)."""
    number += 719468
    era = number // 146097
    day_of_era = number - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + 3 if month_index < 10 else month_index - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def weekday(number: int) -> str:
    return WEEKDAYS[(number + 3) % 7]  # 1970-01-01 was a Thursday


def iso(number: int) -> str:
    year, month, day = civil_date(number)
    return f"{year:04d}-{month:02d}-{day:02d}"


_MONTH_NAMES = {name.lower(): i for i, name in enumerate(MONTHS, 1)} | {
    name[:3].lower(): i for i, name in enumerate(MONTHS, 1)} | {"sept": 9}
_WEEKDAY_NAMES = {name.lower(): name for name in WEEKDAYS} | {name[:3].lower(): name for name in WEEKDAYS} | {
    "tues": "Tuesday", "thur": "Thursday", "thurs": "Thursday"}
_WEEKDAY = re.compile(r"\b(" + "|".join(sorted(_WEEKDAY_NAMES, key=len, reverse=True)) + r")\b\.?", re.IGNORECASE)
_ISO = re.compile(r"(\d{1,4})-(\d{1,2})-(\d{1,2})")
_ISO_SLASH = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})")  # 2031/03/14: year first, so never day-month ambiguous
_DAY_FIRST = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3,9})\.?,?\s+(\d{1,4})")
_MONTH_FIRST = re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{1,4})")
_FILLER = {"a", "is", "which", "on", "it", "falls", "that", "and", "the", "date"}


def read_date(text: str) -> int | None:
    """The day number of one date written ``2031-03-14``, ``2031/03/14``, ``14 March 2031`` or ``March 14, 2031``;
    else None."""
    text = text.strip()
    for pattern, order in ((_ISO, "ymd"), (_ISO_SLASH, "ymd"), (_DAY_FIRST, "dmy"), (_MONTH_FIRST, "mdy")):
        match = pattern.fullmatch(text)
        if not match:
            continue
        parts = dict(zip(order, match.groups(), strict=True))
        month = _MONTH_NAMES.get(parts["m"].lower()) if not parts["m"].isdigit() else int(parts["m"])
        year, day = int(parts["y"]), int(parts["d"])
        if month is None or not 1 <= month <= 12 or year < 1 or not 1 <= day <= month_length(year, month):
            return None
        return day_number(year, month, day)
    return None


def read_dated(text: str) -> tuple[int, str | None] | None:
    """A date and, if named once, its weekday (``2031-03-14, Friday``, ``Friday, 14 March 2031``), written once or
    restated alike (``2031-03-14. Answer: 2031-03-14``, :func:`~palaestra.verifiers.normalize.restated`); else None."""

    def read(s: str) -> tuple[int, str | None] | None:
        if len(s) > 120:
            return None
        named = list(_WEEKDAY.finditer(s))
        if len(named) > 1:
            return None
        day_name = None
        if named:
            day_name = _WEEKDAY_NAMES[named[0].group(1).lower()]
            s = s[: named[0].start()] + " " + s[named[0].end():]
        tokens = s.replace("(", " ").replace(")", " ").strip(" ,;:-–—").split()
        while tokens and tokens[-1].strip(",").lower() in _FILLER:
            tokens.pop()
        while tokens and tokens[0].strip(",").lower() in _FILLER:
            tokens.pop(0)
        date = read_date(" ".join(tokens).strip(" ,;:"))
        return None if date is None else (date, day_name)

    once = read_answer(text, read)
    return once if once is not None else restated(text, lambda part: read_answer(part, read))


def long_date(number: int) -> str:
    year, month, day = civil_date(number)
    return f"{day} {MONTHS[month - 1]} {year}"


def offset_text(minutes: int) -> str:
    """A fixed UTC offset such as ``UTC+05:30`` or ``UTC−03:00`` (the sign is a real minus)."""
    sign = "+" if minutes >= 0 else "−"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def week_time(minute: int) -> str:
    """A minute of the week (0 is Monday 00:00) as ``Monday 07:45``."""
    minute %= 7 * 1440
    return f"{WEEKDAYS[minute // 1440]} {minute % 1440 // 60:02d}:{minute % 60:02d}"


_CLOCK = re.compile(r"(\d{1,2})[:h.](\d{2})(?:\s*h)?")  # 14:54, 14h54, 14.54
_TWELVE_HOUR = re.compile(r"(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?", re.IGNORECASE)  # 2:54 PM, 12:05 a.m.
_TIME_FILLER = _FILLER | {"at", "local", "time", "hrs"}


def minute_of_day(clock: str) -> int | None:
    """The minute of the day of one clock time, 24-hour (``14:54``) or 12-hour (``2:54 PM``, ``12:05 a.m.``: hours
    1-12), else None; spaces around it are ignored.

    >>> minute_of_day("2:54 PM"), minute_of_day("12:05am"), minute_of_day("14:54"), minute_of_day("13:00 PM")
    (894, 5, 894, None)
    >>> minute_of_day("14h54"), minute_of_day("14.54"), minute_of_day("14.5")
    (894, 894, None)
    """
    clock = clock.strip()
    twelve = _TWELVE_HOUR.fullmatch(clock)
    if twelve:
        hour, minute = int(twelve.group(1)), int(twelve.group(2))
        if not 1 <= hour <= 12 or minute > 59:
            return None
        return (hour % 12 + (12 if twelve.group(3).lower() == "p" else 0)) * 60 + minute
    match = _CLOCK.fullmatch(clock)
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        return None
    return int(match.group(1)) * 60 + int(match.group(2))


def read_week_time(text: str) -> int | None:
    """A minute of the week from one weekday and one time (``Wednesday 07:45``, ``07:45 on Wed``, ``Wed 7:45 AM``),
    written once or restated alike (``Wed 07:45. Answer: Wednesday 07:45``); else None."""

    def read(s: str) -> int | None:
        if len(s) > 80:
            return None
        named = list(_WEEKDAY.finditer(s))
        if len(named) != 1:
            return None
        day = WEEKDAYS.index(_WEEKDAY_NAMES[named[0].group(1).lower()])
        rest = (s[: named[0].start()] + " " + s[named[0].end():]).replace(",", " ").split()
        rest = [word for word in rest if word.lower() not in _TIME_FILLER]
        minute = minute_of_day(" ".join(rest))
        return None if minute is None else day * 1440 + minute

    once = read_answer(text, read)
    return once if once is not None else restated(text, lambda part: read_answer(part, read))
