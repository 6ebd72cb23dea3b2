"""Red team, round 3 session 40 (languages, physics and temporal envs whose last red-team look was old).

- languages/regex_synthesis v3: every negative often had a letter no positive has, or began, ended or was sized
  unlike every positive, so a pattern read off those surface features (``[ab]*`` over the positives' letters,
  ``a[ab]*``, ``[ab]*b``, ``a([ab]*b)?``, ``[ab]{3,9}``) fitted 0.30 of level 0, 0.28 of level 1, 0.12 of level 2,
  0.20 of level 3 and 0.08 of level 4 (40 seeds a level). Now a negative always lies inside the positives' letters,
  ends and lengths, so each of those patterns matches it: 0 at every level.
- physics/ac_impedance v3: series and parallel splits were drawn apart, so adding every impedance as if all were in
  series (ignoring the nodes) answered about half of level 0 (two components), 0.25 of level 1, 0.18 of level 2 and
  0.10 of level 3, all in parallel about half of level 0 and 0.03-0.07 of levels 1-3 (60 seeds a level). Now every
  network has three components or more with at least one series and one parallel split: 0 at every level.
- temporal/schedule_overlap v2: a sweep moving its cursor to each meeting's end (not the latest end so far)
  answered 0.93/0.45/0.38/0.15 of levels 0-3, dropping the meetings that run past the working day
  0.60/0.43/0.23/0.12, a sweep skipping a meeting that starts while another is on 0.63/0.35 of levels 0-1, each
  person's first meeting alone 0.25 of level 0 (40 seeds a level). Schedules are redrawn until each misreading
  (and taking a meeting's end minute as busy) gives another answer: 0 at every level.
- temporal/duration_sum v2: summing the h:mm:ss columns and carrying only out of the seconds answered
  0.47/0.20/0.37/0.19/0.25 of levels 0-4, only out of the minutes 0.53/0.19/0.39/0.38/0.25, with no carry at all
  0.30/0.03/0.17/0.10/0.08 (100 seeds a level). Terms are redrawn until each gives another total: 0 at every level.
- temporal/time_zones v2: flooring the offsets to whole hours answered 0.18/0.26/0.29/0.20 of levels 1-4 (the ends'
  offsets shared their minutes), the start's weekday with the right time 0.58/0.67/0.57 of levels 0-2 (100 seeds a
  level). The ends' offsets now differ in their minutes (0), and the answer keeps the start's weekday by a coin
  where the start's time decides it (0.50/0.53/0.44).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.temporal.common import week_time

WEEK = 7 * 1440

LEVELS = range(5)


def _cls(letters: str) -> str:
    return letters if len(letters) == 1 else f"[{letters}]"


def _surface_patterns(positives: list[str]) -> list[str]:
    """Patterns built only from the positives' letters, first and last letters and lengths."""
    letters = _cls("".join(sorted(set("".join(positives)))))
    firsts = _cls("".join(sorted({s[0] for s in positives})))
    lasts = _cls("".join(sorted({s[-1] for s in positives})))
    lo, hi = min(map(len, positives)), max(map(len, positives))
    return [f"{letters}*", f"{letters}+", f"{firsts}{letters}*", f"{letters}*{lasts}", f"{firsts}({letters}*{lasts})?",
            f"{letters}{{{lo},{hi}}}", f".{{{lo},{hi}}}"]


@pytest.mark.parametrize("level", LEVELS)
def test_regex_synthesis_surface_patterns_fit_nothing(level: int) -> None:
    src = make_source("languages/regex_synthesis")
    fitted = 0
    for seed in range(25):
        problem = src.sample(level, 40_000 + seed)
        assert src.verify(problem, problem.answer).reward == 1.0
        fitted += any(src.verify(problem, pattern).reward == 1.0 for pattern in _surface_patterns(problem.data["positives"]))
    assert fitted == 0


def _impedance(kind: str, value: int, omega: int) -> complex:
    if kind == "R":
        return complex(value, 0)
    return complex(0, omega * value / 1000) if kind == "L" else complex(0, -1e6 / (omega * value))


@pytest.mark.parametrize("level", LEVELS)
def test_ac_impedance_ignoring_the_wiring_answers_nothing(level: int) -> None:
    src = make_source("physics/ac_impedance")
    solved = 0
    for seed in range(30):
        problem = src.sample(level, 41_000 + seed)
        assert src.verify(problem, problem.answer).reward == 1.0
        omega = problem.data["omega"]
        parts = [_impedance(kind, value, omega) for _, _, kind, value in problem.data["parts"]]
        total = Fraction(problem.data["R"]), Fraction(problem.data["X"])
        all_parallel = 1 / sum(1 / z for z in parts) if all(parts) and sum(1 / z for z in parts) else None
        for z in (sum(parts), all_parallel):
            solved += z is not None and abs(z.real - float(total[0])) < 1e-9 and abs(z.imag - float(total[1])) < 1e-9
    assert solved == 0


DAY = (9 * 60, 17 * 60)


def _free(busy: list[list[int]], *, jump: bool = False, skip: bool = False) -> str:
    """The shared free time by a sweep, right or with a usual bug; as the answer's text."""
    free, cursor = [], -1
    for start, end in sorted(busy):
        if skip and start < cursor:
            continue
        if start > cursor:
            free.append((cursor, start))
        cursor = end if jump or skip else max(cursor, end)
    free.append((cursor, 24 * 60))
    pieces = [(max(a, DAY[0]), min(b, DAY[1])) for a, b in free]
    return ", ".join(f"{a // 60:02d}:{a % 60:02d}-{b // 60:02d}:{b % 60:02d}" for a, b in pieces if a < b) or "none"


@pytest.mark.parametrize("level", LEVELS)
def test_schedule_overlap_misreadings_answer_nothing(level: int) -> None:
    src = make_source("temporal/schedule_overlap")
    solved = 0
    for seed in range(30):
        problem = src.sample(level, 42_000 + seed)
        schedules = problem.data["schedules"]
        busy = [m for person in schedules for m in person]
        assert src.verify(problem, _free(busy)).reward == 1.0
        for answer in (_free(busy, jump=True), _free(busy, skip=True), _free([person[0] for person in schedules]),
                       _free([m for m in busy if DAY[0] <= m[0] and m[1] <= DAY[1]]),
                       _free([[a, b + 1] for a, b in busy])):
            solved += src.verify(problem, answer).reward == 1.0
    assert solved == 0


@pytest.mark.parametrize("level", LEVELS)
def test_duration_sum_dropped_carries_answer_nothing(level: int) -> None:
    src = make_source("temporal/duration_sum")
    solved = 0
    for seed in range(30):
        problem = src.sample(level, 43_000 + seed)
        assert src.verify(problem, problem.answer).reward == 1.0
        columns = [0, 0, 0]
        for term in problem.data["terms"]:
            sign, size = (1 if term >= 0 else -1), abs(term)
            for i, part in enumerate((size // 3600, size // 60 % 60, size % 60)):
                columns[i] += sign * part
        hours, minutes, seconds = columns
        for carry_seconds, carry_minutes in ((False, False), (True, False), (False, True)):
            m = minutes + (seconds // 60 if carry_seconds else 0)
            h = hours + (m // 60 if carry_minutes else 0)
            solved += src.verify(problem, f"{h}:{m % 60:02d}:{seconds % 60:02d}").reward == 1.0
    assert solved == 0


@pytest.mark.parametrize("level", LEVELS)
def test_time_zones_whole_hour_offsets_and_the_start_weekday(level: int) -> None:
    src = make_source("temporal/time_zones")
    floored = kept_day = 0
    for seed in range(30):
        problem = src.sample(level, 44_000 + seed)
        data = problem.data
        offsets, legs = data["offsets"], data["legs"]
        travel = sum(flight for flight, _ in legs) + sum(layover for _, layover in legs[:-1])
        local = data["start"] + travel - offsets[0] + offsets[-1]
        assert src.verify(problem, week_time(local % WEEK)).reward == 1.0
        floor = data["start"] + travel - offsets[0] // 60 * 60 + offsets[-1] // 60 * 60
        floored += src.verify(problem, week_time(floor % WEEK)).reward == 1.0
        same_day = data["start"] // 1440 * 1440 + local % 1440
        kept_day += src.verify(problem, week_time(same_day % WEEK)).reward == 1.0
    assert floored == (30 if level == 0 else 0)  # level 0's offsets are whole hours
    assert kept_day <= 20
