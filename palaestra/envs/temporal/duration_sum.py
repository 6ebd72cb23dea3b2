"""Add and subtract durations written as h:mm:ss, carrying and borrowing across seconds, minutes and hours.

A running total starts at the first duration; each further term is added or (from level 2) subtracted; from
level 3 some terms are written as a plain number of minutes or seconds (``135 min``, ``4000 s``) instead. The
result is never negative and hours are not wrapped at 24 (a duration, not a time of day), so the total is a
function of the terms and unique. The answer is written ``h:mm:ss`` (hours any number of digits, minutes and
seconds two digits each); the verifier also reads ``5 h 3 min 2 s`` and ``5 hours, 3 minutes and 2 seconds``,
refuses minutes or seconds of 60 or more (not the normal form asked), and says by how much a wrong total is off.

Difficulty: the carries and borrows of the column-by-column sum (seconds into minutes, minutes into hours) over
all the terms, plus the terms, on the drawn problem.

Version 2: the carries matter. A column sum that drops a carry or borrow often gave the total: carrying only out
of the seconds answered 0.47, 0.20, 0.37, 0.19 and 0.25 of levels 0-4, only out of the minutes 0.53, 0.19, 0.39,
0.38 and 0.25, no carry at all 0.30, 0.03, 0.17, 0.10 and 0.08 (100 seeds a level; carries and borrows cancel).
Terms are now redrawn until each of those sums gives another total: 0 at every level.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

EXAMPLE = "27:04:09"  # a fixed placeholder of the right shape: never derived from the answer
_COLON = re.compile(r"(\d{1,9}) ?: ?(\d{2}) ?: ?(\d{2})")  # 1:44:30, also spaced "1 : 44 : 30"
_WORDS = re.compile(
    r"(?:(\d{1,9})\s*(?:h|hr|hrs|hours?))?,?\s*(?:(\d{1,2})\s*(?:m|min|mins|minutes?))?,?\s*(?:and\s+)?"
    r"(?:(\d{1,2})\s*(?:s|sec|secs|seconds?))?",
    re.IGNORECASE,
)


def clock(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def read_duration(text: str) -> int | None:
    """Seconds of a duration in normal form (minutes and seconds below 60), ``h:mm:ss`` or in words; else None."""

    def read(s: str) -> int | None:
        s = s.strip()
        if len(s) > 80:
            return None
        match = _COLON.fullmatch(s) or (_WORDS.fullmatch(s) if s else None)
        if not match or not any(match.groups()):
            return None
        hours, minutes, seconds = (int(part) if part else 0 for part in match.groups())
        if minutes >= 60 or seconds >= 60:
            return None
        return hours * 3600 + minutes * 60 + seconds

    return read_answer(text, read)


def column_carries(terms: list[int]) -> int:
    """Carries and borrows when the signed terms are summed in h:mm:ss columns, one term at a time."""
    carries, total = 0, 0
    for term in terms:
        sign, size = (1 if term >= 0 else -1), abs(term)
        low = total % 60 + sign * (size % 60)
        middle = total // 60 % 60 + sign * (size // 60 % 60) + (low >= 60) - (low < 0)
        carries += (not 0 <= low < 60) + (not 0 <= middle < 60)
        total += term
    return carries


def _dropping_carries(terms: list[int], seconds: bool, minutes: bool) -> int:
    """The total in seconds when each h:mm:ss column is summed, carrying (or borrowing) out of the seconds and out
    of the minutes only where asked, and otherwise keeping the column modulo 60."""
    columns = [0, 0, 0]  # hours, minutes, seconds
    for term in terms:
        sign, size = (1 if term >= 0 else -1), abs(term)
        for i, part in enumerate((size // 3600, size // 60 % 60, size % 60)):
            columns[i] += sign * part
    hours, mins, secs = columns
    mins += secs // 60 if seconds else 0
    hours += mins // 60 if minutes else 0
    return hours * 3600 + mins % 60 * 60 + secs % 60


@register
class DurationSum(Task):
    id = "temporal/duration_sum"
    family = "temporal"
    description = "Add and subtract durations in h:mm:ss with carries and borrows; answer in h:mm:ss."
    tags = ("temporal", "arithmetic", "units")
    version = 2  # v2: column sums that drop a carry or borrow never give the total

    @dataclass(frozen=True)
    class Config:
        terms: int  # durations in the sum
        hours: int  # the most hours in one duration
        subtract: bool  # terms after the first may be subtracted
        plain_units: bool  # some terms are a plain number of minutes or seconds

    presets = (Config(2, 9, False, False), Config(3, 12, False, False), Config(4, 24, True, False),
               Config(5, 36, True, True), Config(7, 48, True, True))
    growth = Growth(steps={"terms": 2, "hours": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> list[tuple[int, str]] | None:
            written, partial = [], 0
            for index in range(config.terms):
                size = rng.randint(60, config.hours * 3600 + 3599)
                sign = rng.choice((1, -1)) if config.subtract and index else 1
                if config.plain_units and rng.random() < 0.3:
                    in_seconds = rng.random() < 0.5
                    size = size if in_seconds else size // 60 * 60
                    text = f"{size} s" if in_seconds else f"{size // 60} min"
                else:
                    text = clock(size)
                partial += sign * size
                if partial <= 0:
                    return None
                written.append((sign * size, text))
            values = [value for value, _ in written]
            if any(_dropping_carries(values, seconds, minutes) == partial
                   for seconds, minutes in ((False, False), (True, False), (False, True))):
                return None  # a column sum that loses a carry or borrow would give the total
            return written

        written = retry(draw, what="durations whose running total stays positive and needs its carries")
        terms = [value for value, _ in written]
        expression = written[0][1] + "".join(f" {'+' if v > 0 else '-'} {text}" for v, text in written[1:])
        prompt = (
            "Work out this sum of durations (h:mm:ss means hours, minutes and seconds; 'min' is minutes and 's' is "
            f"seconds):\n\n{expression}\n\nAnswer with the total as h:mm:ss, with minutes and seconds below 60 "
            f"written with two digits each and the hours not wrapped at 24, for example: {EXAMPLE}"
        )
        total = sum(terms)
        return Problem(prompt=prompt, answer=clock(total), data={
            "terms": terms, "total": total, "carries": column_carries(terms)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_duration(answer)
        if value is None:
            return Verdict.unparsed("expected a duration as h:mm:ss with minutes and seconds below 60, such as 27:04:09")
        off = value - problem.data["total"]
        if off == 0:
            return Verdict.right()
        return Verdict.wrong(f"the total is {clock(abs(off))} too {'long' if off > 0 else 'short'}")

    def difficulty(self, problem: Problem) -> float:
        """Carries and borrows over the column sum, plus the terms."""
        return float(problem.data["carries"] + len(problem.data["terms"]))

    def spellings(self, problem: Problem) -> list[str]:
        total = problem.data["total"]
        hours, minutes, seconds = total // 3600, total // 60 % 60, total % 60
        return [*super().spellings(problem), f"{hours} h {minutes} min {seconds} s",
                f"{hours} hours, {minutes} minutes and {seconds} seconds", f"\\boxed{{{clock(total)}}}",
                f"Answer: {clock(total)}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        total, terms = problem.data["total"], problem.data["terms"]
        unsigned = sum(abs(t) for t in terms)
        near = {total + 60, total - 1, total + 3600, unsigned} - {total}
        hours, minutes, seconds = total // 3600, total // 60 % 60, total % 60
        return [*(clock(n) for n in sorted(near) if n >= 0), f"{hours}:{minutes}:{seconds + 60}",
                f"{clock(total)} or {clock(total + 60)}"]
