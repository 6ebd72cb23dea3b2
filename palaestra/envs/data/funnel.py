"""Count how many users reach each step of an ordered conversion funnel in an event log.

An event log (time, user, event; from level 2 out of time order) and a funnel of three or four event names
are given. A user reaches step k when some event of step 1 is followed, strictly later in time, by an event
of step 2, then of step 3, and so on up to step k; from level 3 all of them must also fall within W minutes
of that step-1 event. Events out of sequence (a cart before any view) and noise events (search, help) do
not count. The answer is the number of users reaching each step, in funnel order; the verifier reads a
list of integers with the shared reader and names the first wrong step. For each user the reference
tries every step-1 event and follows the earliest next events after it (the earliest choice is optimal
for a fixed start), so it is exact.

Version 2: every problem has a user whom the order of events keeps from a step, and from level 3 one whom
the time limit keeps from a step, so counting users by which events they have (0.72 of level 0) or ignoring
the time limit (0.72 of level 4) no longer gives the answer.

Version 3: from level 3 every problem also has a user with a step exactly W minutes after their step-1 event
(inclusive), one whose steps each follow the one before within W minutes but not the step-1 event, and one whose
first step-1 event is followed too late but a later one in time, each deciding a count: reading the limit as
exclusive (0.99-1.00 of levels 3-4), as a gap between consecutive steps (0.81) or trying only each user's first
step-1 event (1.00) no longer gives the answer.

Difficulty: the events plus the users plus the funnel's steps plus 5 for a time limit plus 5 when the log
is out of order.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.sets import read_list

EXAMPLE = "9, 5, 2"  # a fixed placeholder: never derived from the answer
STEPS = ("view", "cart", "checkout", "pay")
NOISE = ("search", "help", "wishlist")
_COUNT = re.compile(r"\d{1,6}")


def depth(stamps: list[tuple[int, str]], steps: list[str], window: int | None, misread: str = "") -> int:
    """How many funnel steps a user's ``(second, event)`` stamps reach (0 when no step-1 event).

    ``misread`` names a misreading of the time limit, for the generator's checks: ``exclusive`` (an event exactly
    W minutes after the step-1 event is too late), ``gap`` (W minutes between consecutive steps, not from step 1)
    or ``first`` (only the user's first step-1 event is tried).
    """
    ordered = sorted(stamps)
    best = 0
    for index, (start, event) in enumerate(ordered):
        if event != steps[0]:
            continue
        reached, last = 1, start
        for second, name in ordered[index + 1 :]:
            if reached == len(steps):
                break
            if window is not None and misread != "gap" and second - start >= window * 60 + (misread != "exclusive"):
                break
            if name == steps[reached] and second > last and (misread != "gap" or window is None or second - last <= window * 60):
                reached, last = reached + 1, second
        best = max(best, reached)
        if misread == "first":
            break
    return best


def funnel_counts(events: list[list[Any]], steps: list[str], window: int | None, misread: str = "") -> list[int]:
    per_user: dict[str, list[tuple[int, str]]] = {}
    for second, user, name in events:
        per_user.setdefault(user, []).append((second, name))
    depths = [depth(stamps, steps, window, misread) for stamps in per_user.values()]
    return [sum(1 for d in depths if d > k) for k in range(len(steps))]


def order_blind_counts(events: list[list[Any]], steps: list[str]) -> list[int]:
    """The counts of a lazy reading that ignores time: a user "reaches" step k when they have events of
    steps 1 to k in any order."""
    names: dict[str, set[str]] = {}
    for _, user, name in events:
        names.setdefault(user, set()).add(name)
    return [sum(1 for seen in names.values() if set(steps[: k + 1]) <= seen) for k in range(len(steps))]


def _read_count(text: str) -> int | None:
    return int(text) if _COUNT.fullmatch(text) else None


def clock(second: int) -> str:
    return f"{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"


def _read_counts(answer: str, steps: list[str]) -> list[int] | None:
    """The counts in funnel order: a list (``9, 5, 2``; arrows ``9 -> 5 -> 2`` too) or every step named
    (``view: 9, cart: 5, pay: 2``)."""
    given = read_list(answer.replace("->", ",").replace("→", ","), _read_count, space_separated=True, max_items=100)
    if given is not None:
        return given
    named = read_values(answer, steps, _read_count, partial=True)
    return [named[step] for step in steps] if named and all(step in named for step in steps) else None


@register
class Funnel(Task):
    id = "data/funnel"
    family = "data"
    description = "Count the users reaching each step of an ordered conversion funnel (optionally within a time limit)."
    tags = ("data", "logs", "sequences")
    version = 3  # v3: the time limit's inclusive end, its start at step 1 and every step-1 event matter

    @dataclass(frozen=True)
    class Config:
        users: int
        steps: int
        shuffled: bool
        windowed: bool
        noise: int  # the most noise events per user

    presets = (Config(6, 3, False, False, 2), Config(8, 3, False, False, 2), Config(10, 4, True, False, 2),
               Config(12, 4, True, True, 3), Config(16, 4, True, True, 3))
    growth = Growth(steps={"users": 4, "noise": 1}, limits={"users": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        steps = list(STEPS[: config.steps])
        window = rng.choice((10, 15, 20)) if config.windowed else None
        users = rng.sample(WORDS["first_names"], config.users)

        def planted(user: str, shape: str, limit: int) -> list[list[Any]]:
            """A user whose depth one misreading of the time limit changes: a step exactly ``limit`` minutes
            after the step-1 event (``exclusive``), steps each within the limit of the one before but not of the
            step-1 event (``gap``), or a first step-1 event followed too late, then a second one in time (``first``)."""
            second = rng.randrange(9 * 3600, 11 * 3600)
            reach = rng.randint(2, len(steps))
            if shape == "first":
                out = [[second, user, steps[0]]]
                second += rng.randint(limit * 60 + 60, (limit + 15) * 60)
            else:
                out = []
            start = second
            for k in range(reach):
                out.append([second, user, steps[k]])
                if k + 1 < reach:
                    if shape == "gap":
                        second += rng.randint(limit * 60 // 2 + 30, limit * 60 - 30)
                    else:
                        second += rng.randint(30, (limit * 60 - (second - start)) // (reach - k))
            if shape == "exclusive":
                out[-1][0] = start + limit * 60
            return out

        def draw() -> list[list[Any]]:
            events: list[list[Any]] = []
            special = dict(zip(rng.sample(users, 3), ("exclusive", "gap", "first"), strict=True)) if window else {}
            for user in users:
                if window and user in special:
                    events.extend(planted(user, special[user], window))
                    continue
                second = rng.randrange(9 * 3600, 11 * 3600)
                planned = rng.randint(0, len(steps))  # how far the user means to go (0: browsing only)
                sequence = steps[:planned] or [rng.choice(NOISE)]
                if rng.random() < 0.35:  # an event out of sequence
                    sequence.insert(rng.randrange(len(sequence) + 1), rng.choice(steps[1:]))
                for _ in range(rng.randint(0, config.noise)):
                    sequence.insert(rng.randrange(len(sequence) + 1), rng.choice(NOISE))
                # with a time limit, some users pause once for longer than it, so the limit decides
                pause = rng.randrange(len(sequence)) if window and rng.random() < 0.4 else None
                for position, name in enumerate(sequence):
                    events.append([second, user, name])
                    second += rng.randint(30, (4 if window else 9) * 60)
                    if position == pause and window:  # pause is drawn only with a time limit
                        second += rng.randint(window * 60, (window + 10) * 60)
            return events

        def varied(events: list[list[Any]]) -> bool:
            counts = funnel_counts(events, steps, window)
            if counts == order_blind_counts(events, steps):
                return False  # the order must matter (ignoring it answered 0.72 of level 0)
            if window is not None and counts == funnel_counts(events, steps, None):
                return False  # and the time limit where there is one (ignoring it answered 0.72 of level 4)
            if window is not None and any(counts == funnel_counts(events, steps, window, misread)
                                          for misread in ("exclusive", "gap", "first")):
                return False  # and its exact reading (v2: each misreading answered 0.81-1.00 of levels 3-4)
            return counts[0] > counts[-1] and len(set(counts)) >= min(3, len(steps))

        events = retry(draw, varied, attempts=300, what="a funnel whose counts fall step by step")
        counts = funnel_counts(events, steps, window)
        if config.shuffled:
            rng.shuffle(events)
        else:
            events.sort()
        log = "\n".join(f"{clock(s)} {user} {name}" for s, user, name in events)
        limit = (f", all within {window} minutes after that {steps[0]} event (inclusive)" if window else "")
        order = "The log is not in time order. " if config.shuffled else ""
        prompt = (
            f"Here is an event log (time, user, event) from one day:\n\n```\n{log}\n```\n\n{order}The funnel is "
            f"{' -> '.join(steps)}. A user reaches step k when some {steps[0]} event of theirs is followed, each "
            f"strictly later than the one before, by their events of steps 2 to k in funnel order{limit}. Other "
            "events do not matter.\n\nHow many users reach each step? Answer with the counts in funnel order, "
            f"separated by commas, for example: {EXAMPLE}"
        )
        data = {"counts": counts, "events": len(events), "users": len(users), "steps": steps, "window": window,
                "shuffled": config.shuffled}
        return Problem(prompt=prompt, answer=", ".join(map(str, counts)), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = _read_counts(answer, problem.data["steps"])
        if given is None:
            return Verdict.unparsed(f"expected counts separated by commas, such as {EXAMPLE}")
        truth = problem.data["counts"]
        if len(given) != len(truth):
            return Verdict.wrong(f"the funnel has {len(truth)} steps, the answer {len(given)} counts")
        wrong = [i for i, (a, b) in enumerate(zip(given, truth, strict=True)) if a != b]
        step = problem.data["steps"][wrong[0]] if wrong else ""
        return Verdict.judge(not wrong, f"the count for step {wrong[0] + 1 if wrong else 0} ({step}) is wrong")

    def difficulty(self, problem: Problem) -> float:
        """Events + users + steps + 5 for a time limit + 5 when out of order."""
        data = problem.data
        return float(data["events"] + data["users"] + len(data["steps"]) + 5 * (data["window"] is not None)
                     + 5 * data["shuffled"])

    def spellings(self, problem: Problem) -> list[str]:
        counts = problem.data["counts"]
        return [*markup_spellings(problem.answer or ""), "[" + ", ".join(map(str, counts)) + "]",
                " ".join(map(str, counts)), "\n".join(map(str, counts)), " -> ".join(map(str, counts)),
                ", ".join(f"{step}: {count}" for step, count in zip(problem.data["steps"], counts, strict=True))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        counts = problem.data["counts"]
        index = rng.randrange(len(counts))
        return [", ".join(str(c + (i == index)) for i, c in enumerate(counts)), ", ".join(map(str, counts[:-1])),
                ", ".join(str(counts[0]) for _ in counts)]
