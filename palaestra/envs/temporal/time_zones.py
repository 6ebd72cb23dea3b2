"""Convert times across fixed UTC offsets, and follow a trip of flights and layovers to its local arrival time.

Places are fictional and each has a fixed offset from UTC stated in the prompt (no daylight saving, no real
time-zone data): whole hours at level 0, quarter hours from level 1, from UTC−12:00 to UTC+14:00. Level 0 and 1
convert one weekday-and-time from one place to another; from level 2 a trip leaves the first place at a local
time and takes one or more flights (durations given) with layovers between them, and the local arrival time at
the last place is asked. The answer is a weekday and a 24-hour time, unique because every step is a fixed
addition; the places' offsets always differ, so ignoring them is wrong. The verifier reads one weekday and one
time and says by how much a wrong answer is off (an offset applied with the wrong sign shows as such). The time
may end by naming the asked place (``Friday 12:14 local time at Port N``, ``... (Port N time)``; refused before);
naming another place leaves the answer unreadable.

Difficulty: the additions the answer needs (each flight and layover, each conversion between offsets), plus
the offsets that are not whole hours and the days between the local start and the local arrival, on the drawn
problem.

Version 2: every part of the offsets and the date line matter. Offsets off the whole hour often shared their
minutes (both ``:45``), so flooring the offsets to whole hours answered 0.18, 0.26, 0.29 and 0.20 of levels 1-4
(100 seeds a level); and most answers fell on the start's weekday, so that weekday with the right time
answered 0.58, 0.67 and 0.57 of levels 0-2. Now, from level 1, the first and last places' offsets differ in
their minutes (0 for that rule), and whether the answer falls on the start's weekday is a coin where the start's
time of day can decide it (keeping the weekday: 0.50, 0.53 and 0.44 of levels 0-2, the coin's half; 0.26 and 0.16 of
levels 3-4, whose long trips mostly cross midnight).
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.temporal.common import offset_text, read_week_time, week_time
from palaestra.verifiers.normalize import strip_wrappers

EXAMPLE = "Thursday 06:40"  # a fixed placeholder of the right shape: never derived from the answer
WEEK = 7 * 1440


MAX_PLACE_ANSWER = 200  # longer answers are not searched for a place named after the time
# the question names the place whose local time is asked; an answer may end by naming it again
_ASKED = re.compile(r"What is the local time at (Port [A-Z])")


def _asked(prompt: str) -> str:
    asked = _ASKED.search(prompt)
    return asked.group(1) if asked else "the place asked"


def _without_place(answer: str, prompt: str) -> str:
    """The answer without a closing naming of the asked place (``Friday 12:14 local time at Port N``, ``... in
    Port N``, ``... (Port N time)``). Another place named stays, and leaves the answer unreadable."""
    text = strip_wrappers(answer) if isinstance(answer, str) and len(answer) <= MAX_PLACE_ANSWER else ""
    if not text:
        return answer
    place = _asked(prompt).lower()
    body = text.rstrip(" .")
    for suffix in (f"local time at {place}", f"local time in {place}", f"at {place}", f"in {place}",
                   f"(local time at {place})", f"(local time in {place})",
                   f"({place} local time)", f"({place} time)", f"{place} local time", f"{place} time", f"({place})"):
        if body.lower().endswith(" " + suffix):
            return body[: -len(suffix)].rstrip(" ,")
    return answer


def span(minutes: int) -> str:
    return f"{minutes // 60} h {minutes % 60:02d} min"


@register
class TimeZones(Task):
    id = "temporal/time_zones"
    family = "temporal"
    description = "Local times across stated fixed UTC offsets: a conversion, or a trip's local arrival time."
    tags = ("temporal", "time-zones", "arithmetic")
    version = 2  # v2: the ends' offsets differ in minutes; the answer's day is the start's with chance one half

    @dataclass(frozen=True)
    class Config:
        flights: int  # 0: a plain conversion between two places
        quarter_hours: bool  # offsets in quarter hours (else whole hours)

    presets = (Config(0, False), Config(0, True), Config(1, True), Config(2, True), Config(3, True))
    # Capped at level 24's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"flights": 1}, limits={"flights": 23})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        unit = 15 if config.quarter_hours else 60
        places = config.flights + 1 if config.flights else 2
        names = [f"Port {letter}" for letter in rng.sample(string.ascii_uppercase, places)]

        def draw() -> list[int]:
            return [rng.randrange(-12 * 60, 14 * 60 + 1, unit) for _ in range(places)]

        def differ(o: list[int]) -> bool:  # the ends' minutes differ too, so whole-hour offsets are wrong
            return (o[0] != o[-1] and all(a != b for a, b in zip(o, o[1:], strict=False))
                    and (unit == 60 or o[0] % 60 != o[-1] % 60))

        offsets = retry(draw, differ, what="offsets that differ place to place")
        legs = [(rng.randint(40, 14 * 60) // 5 * 5, rng.randint(45, 6 * 60) // 5 * 5) for _ in range(config.flights)]
        shift = offsets[-1] - offsets[0] + sum(f for f, _ in legs) + sum(lay for _, lay in legs[:-1])
        same_day = rng.random() < 0.5  # whether the answer keeps the start's weekday, where the start's time decides
        times = [t for t in range(1440) if (0 <= t + shift < 1440) == same_day] or list(range(1440))
        start = rng.randrange(7) * 1440 + rng.choice(times)  # local minute of the week at the first place
        moment = start - offsets[0]  # in UTC
        steps = 1 if not config.flights else 0
        for index, (flight, layover) in enumerate(legs):
            moment += flight
            steps += 2  # the flight's duration, and the conversion at its end
            if index < len(legs) - 1:
                moment += layover
                steps += 1
        arrival = moment + offsets[-1]
        lines = "\n".join(f"{name}: {offset_text(offset)}" for name, offset in zip(names, offsets, strict=True))
        if config.flights:
            trip = [f"A traveller leaves {names[0]} on {week_time(start)} local time."]
            for i, (flight, layover) in enumerate(legs):
                trip.append(f"The flight to {names[i + 1]} takes {span(flight)}.")
                if i < len(legs) - 1:
                    trip.append(f"After a layover of {span(layover)} there, the next flight leaves.")
            question = " ".join(trip) + f" What is the local time at {names[-1]} on arrival?"
        else:
            question = (f"A call starts on {week_time(start)} local time at {names[0]}. What is the local time at "
                        f"{names[1]} when it starts?")
        quarter = sum(offset % 60 != 0 for offset in offsets)
        crossed = (arrival // 1440) - (start // 1440)
        prompt = (
            "Each place keeps a fixed offset from UTC all year (local time = UTC + offset):\n"
            f"{lines}\n\n{question} Answer with the weekday and the 24-hour time, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=week_time(arrival), data={
            "offsets": offsets, "start": start, "legs": [list(leg) for leg in legs], "arrival": arrival % WEEK,
            "work": steps + quarter + abs(crossed)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_week_time(_without_place(answer, problem.prompt))
        if given is None:
            return Verdict.unparsed("expected one weekday and a 24-hour time, such as Thursday 06:40")
        off = (given - problem.data["arrival"]) % WEEK
        if off == 0:
            return Verdict.right()
        off = off - WEEK if off > WEEK // 2 else off
        offsets = problem.data["offsets"]
        if abs(off) == 2 * abs(offsets[-1] - offsets[0]):
            return Verdict.wrong("the answer is off by twice the offset difference: an offset applied the wrong way")
        return Verdict.wrong(f"the answer is {span(abs(off))} too {'late' if off > 0 else 'early'}")

    def difficulty(self, problem: Problem) -> float:
        """Additions and conversions, offsets off the whole hour, and midnights crossed."""
        return float(problem.data["work"])

    def spellings(self, problem: Problem) -> list[str]:
        day, time = week_time(problem.data["arrival"]).split()
        return [*super().spellings(problem), f"{time} on {day}", f"{day[:3]}, {time}", f"\\boxed{{{day} {time}}}",
                f"Answer: {day} at {time} local time.", f"{day} {time} local time at {_asked(problem.prompt)}",
                f"{day}, {time} (local time in {_asked(problem.prompt)})."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        arrival, offsets = problem.data["arrival"], problem.data["offsets"]
        near = {arrival + 60, arrival - 15, arrival + 1440, arrival - (offsets[-1] - offsets[0]),
                arrival - 2 * (offsets[-1] - offsets[0])}
        wrong = [week_time(m) for m in sorted(near) if (m - arrival) % WEEK]
        elsewhere = "Port A" if _asked(problem.prompt) != "Port A" else "Port B"
        return [*wrong, f"{week_time(arrival)} or {week_time(arrival + 60)}",
                f"{week_time(arrival)} local time at {elsewhere}", f"{week_time(arrival + 60)} at {_asked(problem.prompt)}"]
