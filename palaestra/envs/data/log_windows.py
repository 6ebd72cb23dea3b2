"""Count the log lines that match a filter in consecutive fixed time windows.

A generated service log (ISO timestamps, a level DEBUG/INFO/WARN/ERROR, a service name and a message) is
followed by a question: count the lines of a given level (or "WARN or worse", or one service's errors) in
each window of 5, 10 or 15 minutes from a start time to an end time, windows half-open (a line stamped
exactly at a window's end belongs to the next window). Harder levels merge logs from several hosts, so the
lines are out of order; put lines before and after the span in the log; and stamp some lines with a UTC
offset (``+02:00``), to be converted before counting. The answer is the list of counts in window order,
zeros included; the verifier reads a list of integers and names the first window that is wrong.
Problems are redrawn until the counts are not all equal.

Version 2: problems are also redrawn until a line on a window's end decides a count, so reading the
windows as closed (a line at a window's end kept in it) no longer gives the answer (it gave 0.57 of level 0
and 0.25 of level 4). Version 3: the filter counts a line at or after the span's end, and from level 2 one just
before its start, so neither counting a line at the span's end in the last window (0.62-0.85 of levels 0-1, 40
seeds a level) nor counting the lines outside the span in the nearest window (0.45-0.60 of levels 2-5: often no
counted line fell outside) gives the answer any more.

Difficulty: the log's lines plus the windows plus the lines stamped with an offset plus 5 if out of order.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS
from palaestra.verifiers.normalize import markup_spellings, named, read_answer
from palaestra.verifiers.sets import read_list

EXAMPLE = "2, 0, 7"  # a fixed placeholder: never derived from the answer
LEVELS = ("DEBUG", "INFO", "WARN", "ERROR")
MESSAGES = {
    "DEBUG": ("cache lookup", "retrying connection", "parsed request headers"),
    "INFO": ("request served", "user signed in", "job finished", "config reloaded"),
    "WARN": ("slow response", "retry budget low", "disk usage high"),
    "ERROR": ("upstream timeout", "database unavailable", "payment declined", "unhandled exception"),
}
_COUNT = re.compile(r"\d{1,6}")


def _read_count(text: str) -> int | None:
    return int(text) if _COUNT.fullmatch(text) else None


def window_counts(seconds: list[int], width: int, windows: int, *, end_inclusive: bool = False) -> list[int]:
    """Lines per window for lines at ``seconds`` after the start: windows include their start and exclude
    their end (or, with ``end_inclusive``, the misreading where a window keeps a line stamped at its end)."""
    counts = [0] * windows
    for second in seconds:
        position = second - 1 if end_inclusive and second > 0 else second  # whole seconds: the end moves in
        if 0 <= position < width * windows:
            counts[position // width] += 1
    return counts


def _stamp(moment: datetime, offset_minutes: int) -> str:
    local = moment + timedelta(minutes=offset_minutes)
    if offset_minutes == 0:
        return local.strftime("%Y-%m-%dT%H:%M:%SZ")
    sign = "+" if offset_minutes > 0 else "-"
    hours, minutes = divmod(abs(offset_minutes), 60)
    return local.strftime("%Y-%m-%dT%H:%M:%S") + f"{sign}{hours:02d}:{minutes:02d}"


@register
class LogWindows(Task):
    id = "data/log_windows"
    family = "data"
    description = "Count the log lines matching a filter per fixed time window (zeros included), in window order."
    tags = ("data", "logs", "aggregation", "temporal")
    version = 3  # v3: the filter counts a line at or after the span's end, from level 2 one before it too

    @dataclass(frozen=True)
    class Config:
        lines: int
        windows: int
        shuffled: bool  # lines merged from several hosts: out of time order
        offsets: bool  # some lines stamped in a local time with a UTC offset

    presets = (Config(14, 4, False, False), Config(18, 5, False, False), Config(24, 6, True, False),
               Config(34, 8, True, True), Config(46, 10, True, True))
    growth = Growth(steps={"lines": 12, "windows": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        width = 5 if not config.shuffled else rng.choice((5, 10, 15))
        day = datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 20), rng.randrange(0, 60, 5),
                       tzinfo=timezone.utc)
        span = width * config.windows * 60
        services = rng.sample(WORDS["services"], 3)
        kind = rng.choice(("level", "at_least_warn", "service_errors"))
        level = rng.choice(("ERROR", "WARN"))
        service = services[0]

        def matches(line: dict) -> bool:
            if kind == "level":
                return bool(line["level"] == level)
            if kind == "at_least_warn":
                return line["level"] in ("WARN", "ERROR")
            return line["level"] == "ERROR" and line["service"] == service

        def counted_outside(second: int) -> dict[str, Any]:
            """A line the filter counts, at ``second`` outside the span."""
            chosen = {"level": level, "at_least_warn": rng.choice(("WARN", "ERROR")), "service_errors": "ERROR"}[kind]
            return {"second": second, "level": chosen,
                    "service": service if kind == "service_errors" else rng.choice(services),
                    "offset": rng.choice((0, 0, 60, 120, -300, 330)) if config.offsets else 0}

        def draw() -> tuple[list[dict], list[int]]:
            lines: list[dict[str, Any]] = []
            margin = 120 if config.shuffled else 0  # lines before and after the span
            # the span must matter: a counted line at or after its end, and one just before it where lines fall
            # outside (counting a line at the end in the last window answered 0.62-0.85 of levels 0-1, counting
            # the lines outside in the nearest window 0.45-0.60 of levels 2-5: often none was counted)
            lines.append(counted_outside(span + rng.randrange(margin + 1)))
            if margin:
                lines.append(counted_outside(-rng.randint(1, margin)))
            while len(lines) < config.lines:
                second = rng.randrange(-margin, span + margin)
                if rng.random() < 0.15:  # a line on a window boundary
                    second = width * 60 * rng.randrange(config.windows + 1)
                weights = (2, 4, 2, 3)
                lines.append({"second": second, "level": rng.choices(LEVELS, weights)[0],
                              "service": rng.choice([service, *services]),  # the asked one a bit more often
                              "offset": rng.choice((0, 0, 60, 120, -300, 330)) if config.offsets else 0})
            return lines, window_counts([line["second"] for line in lines if matches(line)], width * 60,
                                        config.windows)

        def varied(drawn: tuple[list[dict], list[int]]) -> bool:
            lines, counts = drawn
            if counts == window_counts([line["second"] for line in lines if matches(line)], width * 60,
                                       config.windows, end_inclusive=True):
                return False  # the half-open rule must matter: closed windows answered 0.57 of level 0
            return len(set(counts)) > 1 and sum(c > 0 for c in counts) >= 2 and 2 * sum(counts) >= len(counts)

        lines, counts = retry(draw, varied, attempts=300, what="counts that vary by window")
        if config.shuffled:
            rng.shuffle(lines)  # those outside the span were drawn first
        else:
            lines.sort(key=lambda line: line["second"])
        text = "\n".join(
            f"{_stamp(day + timedelta(seconds=line['second']), line['offset'])} {line['level']:<5} "
            f"[{line['service']}] {rng.choice(MESSAGES[line['level']])}" for line in lines)
        what = {"level": f"lines of level {level}", "at_least_warn": "lines of level WARN or ERROR",
                "service_errors": f"ERROR lines of the {service} service"}[kind]
        end = day + timedelta(seconds=span)
        notes = []
        if config.shuffled:
            notes.append("The log merges several hosts, so its lines are not in time order.")
        if config.offsets:
            notes.append("Timestamps ending in Z are UTC; the others carry their UTC offset (local time minus UTC).")
        prompt = (
            f"Here is a service log:\n\n```\n{text}\n```\n\n{' '.join(notes)}{' ' if notes else ''}"
            f"Split the time from {day:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M} UTC into consecutive {width}-minute "
            f"windows (each includes its start and excludes its end). Count the {what} in each window, counting "
            "windows with no such line as 0.\n\nAnswer with the counts in window order, separated by commas, "
            f"for example: {EXAMPLE}"
        )
        data = {"counts": counts, "lines": len(lines), "offsets": sum(1 for line in lines if line["offset"]),
                "shuffled": config.shuffled, "width": width}
        return Problem(prompt=prompt, answer=", ".join(map(str, counts)), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_answer(answer, named(lambda text: read_list(text, _read_count, space_separated=True, max_items=500),
                                          "counts?|windows?|numbers?"))
        if given is None:
            return Verdict.unparsed(f"expected counts separated by commas, such as {EXAMPLE}")
        truth = problem.data["counts"]
        if len(given) != len(truth):
            return Verdict.wrong(f"there are {len(truth)} windows, the answer gives {len(given)} counts")
        wrong = [i for i, (a, b) in enumerate(zip(given, truth, strict=True)) if a != b]
        return Verdict.judge(not wrong, f"the count of window {wrong[0] + 1 if wrong else 0} is wrong")

    def difficulty(self, problem: Problem) -> float:
        """Lines + windows + lines counted + lines stamped with an offset + 5 when out of order."""
        data = problem.data
        return float(data["lines"] + len(data["counts"]) + sum(data["counts"]) + data["offsets"] + 5 * data["shuffled"])

    def spellings(self, problem: Problem) -> list[str]:
        counts = problem.data["counts"]
        return [*markup_spellings(problem.answer or ""), "[" + ", ".join(map(str, counts)) + "]",
                " ".join(map(str, counts)), "\n".join(map(str, counts))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        counts = problem.data["counts"]
        index = rng.randrange(len(counts))
        bumped = [c + (1 if i == index else 0) for i, c in enumerate(counts)]
        return [", ".join(map(str, bumped)), ", ".join(map(str, counts[:-1])),
                ", ".join(map(str, counts[1:] + counts[:1])) if len(set(counts)) > 1 else "0",
                ", ".join("0" for _ in counts)]
