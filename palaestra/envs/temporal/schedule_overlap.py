"""The free time several people share within a working day, as a set of time intervals (any order).

Each person's busy meetings are listed (they may overlap each other and run past the working day's edges).
The answer is every maximal interval inside the working day in which nobody is busy, written ``HH:MM-HH:MM``
and separated by commas; the intervals may be listed in any order. Intervals are half-open (a meeting ending at
10:00 leaves 10:00 free), so the set of free minutes and hence its maximal intervals are unique. Problems are
redrawn until the shared free time is neither empty nor the whole day. The verifier reads the intervals,
rejects overlapping or touching ones (not maximal), and names the first minute where the answer and the truth
differ, with who is busy then.

Difficulty: the meetings the sweep processes plus the free intervals it reports, on the drawn problem.

Version 2: the overlaps and the edges matter. Few meetings crossed the day's edges or lay over another one where
it counted, so misreadings answered much: a sweep that moves its cursor to each meeting's end (not the latest end
so far) 0.93 of level 0, 0.45 of level 1, 0.38 of level 2 and 0.15 of level 3; dropping the meetings that run
past the working day 0.60, 0.43, 0.23 and 0.12; a sweep that skips a meeting starting while another is on 0.63
and 0.35 of levels 0-1; each person's first meeting alone 0.25 of level 0 (40 seeds a level). Schedules are now
redrawn until each of those, and taking the minute a meeting ends as busy, gives another answer: 0 at every level.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.temporal.common import minute_of_day
from palaestra.verifiers.sets import read_list

EXAMPLE = "08:05-08:50, 16:20-16:35"  # a fixed placeholder of the right shape: never derived from the answer
DAY_START, DAY_END = 9 * 60, 17 * 60
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu", "Mo", "Ned", "Oz", "Pia")
_RANGE = re.compile(r"(\d{1,2})[:.h](\d{2})\s*(?:-|–|—|to)\s*(\d{1,2})[:.h](\d{2})")  # 12:20-12:30, 12.20-12.30
_CLOCK_TIME = r"\d{1,2}:\d{2}(?: ?[AaPp]\.? ?[Mm]\.?)?"
_TWELVE_HOUR_RANGE = re.compile(rf"({_CLOCK_TIME}) ?(?:-|–|—|to) ?({_CLOCK_TIME})")


def hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def free_intervals(busy: list[list[int]]) -> list[tuple[int, int]]:
    """Maximal intervals of the working day that no busy interval ``[start, end)`` covers."""
    free, cursor = [], DAY_START
    for start, end in sorted(busy):
        if start > cursor and cursor < DAY_END:
            free.append((cursor, min(start, DAY_END)))
        cursor = max(cursor, end)
    if cursor < DAY_END:
        free.append((cursor, DAY_END))
    return [(a, b) for a, b in free if a < b]


def _buggy_sweep(busy: list[list[int]], bug: str) -> list[tuple[int, int]]:
    """:func:`free_intervals` with a usual sweep bug: ``jump`` moves the cursor to each meeting's end (not the latest
    end so far), ``skip`` ignores a meeting that starts while an earlier one is still on."""
    free, cursor = [], -1
    for start, end in sorted(busy):
        if start < cursor and bug == "skip":
            continue
        if start > cursor:
            free.append((cursor, start))
        cursor = end
    free.append((cursor, 24 * 60))
    clipped = [(max(a, DAY_START), min(b, DAY_END)) for a, b in free]
    return [(a, b) for a, b in clipped if a < b]


def _read_range(text: str) -> tuple[int, int] | None:
    match = _RANGE.fullmatch(text.strip())
    if not match:
        twelve = _TWELVE_HOUR_RANGE.fullmatch(text.strip())  # "12:20pm-12:30pm", "9:00 AM - 2:30 PM"
        if not twelve:
            return None
        start, end = minute_of_day(twelve.group(1)), minute_of_day(twelve.group(2))
        return (start, end) if start is not None and end is not None and start < end else None
    h1, m1, h2, m2 = map(int, match.groups())
    if h1 > 24 or h2 > 24 or m1 > 59 or m2 > 59:
        return None
    start, end = h1 * 60 + m1, h2 * 60 + m2
    return (start, end) if start < end else None


@register
class ScheduleOverlap(Task):
    id = "temporal/schedule_overlap"
    family = "temporal"
    description = "All maximal intervals of a working day in which several people are all free (any order)."
    tags = ("temporal", "scheduling", "intervals")
    version = 2  # v2: dropping edge-crossing meetings, a sweep losing overlaps, first meetings alone all go wrong

    @dataclass(frozen=True)
    class Config:
        people: int
        meetings: int  # the most meetings per person (at least one)
        grain: int  # meeting times are multiples of this many minutes

    presets = (Config(2, 2, 30), Config(3, 3, 15), Config(3, 4, 5), Config(4, 5, 5), Config(5, 6, 5))
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"people": 1, "meetings": 1}, limits={"people": 11, "meetings": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> list[list[list[int]]]:
            schedules = []
            for _ in range(config.people):
                meetings = []
                for _ in range(rng.randint(1, config.meetings)):
                    start = rng.randrange(DAY_START - 60, DAY_END, config.grain)
                    length = rng.randrange(config.grain, 150 + config.grain, config.grain)
                    meetings.append([start, start + length])
                schedules.append(sorted(meetings))
            return schedules

        def shared_gaps(schedules: list[list[list[int]]]) -> bool:
            busy = [m for person in schedules for m in person]
            free = free_intervals(busy)
            return bool(free) and free != [(DAY_START, DAY_END)] and all(free != wrong for wrong in (
                free_intervals([m for m in busy if DAY_START <= m[0] and m[1] <= DAY_END]),  # edge crossers dropped
                _buggy_sweep(busy, "jump"), _buggy_sweep(busy, "skip"),  # overlapping meetings mishandled
                free_intervals([person[0] for person in schedules]),  # each person's first meeting alone
                free_intervals([[a, b + 1] for a, b in busy]),  # a meeting's last minute taken as busy too
            ))

        # At the capped sizes ~140 draws are needed (the 99th percentile ~900): 1,000 failed at ~0.5% of seeds.
        # Seeds that found schedules before find the same ones.
        schedules = retry(draw, shared_gaps, attempts=5_000, what="schedules with some, but not all, of the day free")
        free = free_intervals([m for person in schedules for m in person])
        names = NAMES[: config.people] if config.people <= len(NAMES) else [f"P{i + 1}" for i in range(config.people)]
        listing = "\n".join(f"{name}: " + ", ".join(f"{hhmm(a)}-{hhmm(b)}" for a, b in person)
                            for name, person in zip(names, schedules, strict=True))
        prompt = (
            f"The working day runs from {hhmm(DAY_START)} to {hhmm(DAY_END)}. Each person below is busy during the "
            "listed meetings; an interval a-b includes its start and not its end (a meeting ending at 10:00 leaves "
            f"10:00 free), and meetings may overlap or run outside the working day.\n\n{listing}\n\n"
            "List every maximal interval within the working day when all of them are free, as HH:MM-HH:MM "
            f"separated by commas, in any order. For example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=", ".join(f"{hhmm(a)}-{hhmm(b)}" for a, b in free), data={
            "names": list(names), "schedules": schedules, "free": [list(piece) for piece in free]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        pieces = read_list(answer, _read_range, max_items=200)
        if not pieces:
            return Verdict.unparsed(f"expected intervals such as {EXAMPLE}")
        ordered = sorted(pieces)
        if any(b[0] <= a[1] for a, b in zip(ordered, ordered[1:], strict=False)):
            return Verdict.wrong("the intervals overlap or touch; give each maximal interval once")
        truth = [tuple(piece) for piece in problem.data["free"]]
        if ordered == truth:
            return Verdict.right()
        claimed = {m for a, b in ordered for m in range(max(a, DAY_START - 1), min(b, DAY_END + 1))}
        actual = {m for a, b in truth for m in range(a, b)}
        minute = min(claimed ^ actual)
        if minute in actual:
            return Verdict.wrong(f"everyone is free at {hhmm(minute)}, which the answer leaves out")
        busy = [name for name, person in zip(problem.data["names"], problem.data["schedules"], strict=True)
                if any(a <= minute < b for a, b in person)]
        who = f"{busy[0]} is busy" if busy else "it is outside the working day"
        return Verdict.wrong(f"the answer includes {hhmm(minute)}, but {who} then")

    def difficulty(self, problem: Problem) -> float:
        """Meetings swept plus free intervals reported."""
        return float(sum(len(person) for person in problem.data["schedules"]) + len(problem.data["free"]))

    def spellings(self, problem: Problem) -> list[str]:
        pieces = (problem.answer or "").split(", ")
        return [*super().spellings(problem), ", ".join(reversed(pieces)), "; ".join(pieces),
                "\n".join(p.replace("-", " to ") for p in pieces), f"[{', '.join(pieces)}]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        free = [tuple(piece) for piece in problem.data["free"]]
        shrunk = [(a, b - 5) if b - 5 > a else (a, b) for a, b in free]
        grown = [(a - 5, b) if a > DAY_START else (a, b + 5) for a, b in free]
        whole = [(DAY_START, DAY_END)]
        candidates = [free[:-1], shrunk, grown, whole]
        out = [", ".join(f"{hhmm(a)}-{hhmm(b)}" for a, b in c) for c in candidates if c and sorted(c) != free]
        return [*out, f"{problem.answer} or {hhmm(DAY_START)}-{hhmm(DAY_END)}"]
