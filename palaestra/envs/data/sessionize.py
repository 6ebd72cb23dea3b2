"""Split each user's click events into sessions by an inactivity gap; report sessions and the longest one.

A clickstream (time, user, page; from level 2 merged from several servers, so out of time order) is given
with the rule: a user's session is a maximal run of that user's events in which consecutive events are
at most G minutes apart; a longer gap starts a new session (a gap of exactly G does not). The answer gives,
per user, the number of sessions and the duration of the longest session in seconds (its last event's time
minus its first's; a one-event session lasts 0), as ``user: sessions, seconds`` lines in any order. The
verifier reads the pairs with the shared assignment reader and names the first wrong user and figure.
Event times are drawn so that many gaps fall within a minute of G and, in most problems, one falls on it
exactly, so the boundary rule matters.

Version 2: every problem has a gap of exactly G between two of a user's events (the old draw sometimes
put it after a user's last event, or not at all), so splitting at a gap of exactly G (0.46 of level 0)
never gives the answer. Version 3: nor do two other misreadings of the rule, on 40 seeds a level: a session
as a window of G minutes from its first event (0.53 of level 0, 0.12 of level 1) and one session per user
from their first event to their last (0.23 of level 0); now 0.

Difficulty: the events plus the users plus the sessions plus 5 when the events are out of order.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "Xena: 2, 340\nYuri: 1, 0"  # a fixed placeholder (names no log uses)
PAGES = ("/home", "/search", "/cart", "/checkout", "/item", "/help", "/account", "/orders")
_PAIR = re.compile(r"\(?\s*(\d{1,4})\s*(?:sessions?)?\s*[,;/]\s*(\d{1,7})\s*(?:s|seconds)?\s*\)?", re.IGNORECASE)


def _read_figures(text: str) -> tuple[int, int] | None:
    match = _PAIR.fullmatch(text.strip())
    return (int(match.group(1)), int(match.group(2))) if match else None


def clock(second: int) -> str:
    return f"{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"


def sessions(events: list[list], gap_minutes: int, *, exact_gap_splits: bool = False,
             from_first: bool = False) -> dict[str, tuple[int, int]]:
    """Per user: (number of sessions, longest session in seconds) under the inactivity rule (or under a misreading:
    with ``exact_gap_splits`` a gap of exactly the limit starts a new session, with ``from_first`` an event more
    than the limit after its session's first event does, as if sessions were fixed windows)."""
    limit = gap_minutes * 60 - exact_gap_splits
    times: dict[str, list[int]] = {}
    for second, user, _ in events:
        times.setdefault(user, []).append(second)
    result = {}
    for user, stamps in times.items():
        stamps.sort()
        count, start, longest = 1, stamps[0], 0
        for previous, current in zip(stamps, stamps[1:], strict=False):
            if current - (start if from_first else previous) > limit:
                longest = max(longest, previous - start)
                count, start = count + 1, current
        result[user] = (count, max(longest, stamps[-1] - start))
    return result


@register
class Sessionize(Task):
    id = "data/sessionize"
    family = "data"
    description = "Split users' click events into sessions by an inactivity gap; count them and give the longest."
    tags = ("data", "logs", "sessions", "temporal")
    version = 3  # v3: sessions as windows from their first event, or one per user, never give the answer

    @dataclass(frozen=True)
    class Config:
        users: int
        events: int  # the most events per user
        shuffled: bool

    presets = (Config(2, 4, False), Config(3, 5, False), Config(3, 6, True), Config(4, 8, True), Config(5, 10, True))
    growth = Growth(steps={"users": 1, "events": 2}, limits={"users": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        gap = rng.choice((10, 15, 20, 30))
        users = rng.sample(WORDS["first_names"], config.users)

        def draw() -> list[list]:
            events: list[list] = []
            exact_gap_placed = False
            for user in users:
                second = rng.randrange(8 * 3600, 12 * 3600)
                for _ in range(rng.randint(max(2, config.events - 2), config.events)):
                    events.append([second, user, rng.choice(PAGES)])
                    kind = rng.random()
                    if not exact_gap_placed and kind < 0.2:
                        step = gap * 60  # exactly the gap: the session goes on
                        exact_gap_placed = True
                    elif kind < 0.5:
                        step = gap * 60 + rng.choice((-1, 1)) * rng.randint(1, 59)  # within a minute of the gap
                    elif kind < 0.8:
                        step = rng.randint(20, gap * 60 // 2)
                    else:
                        step = rng.randint(gap * 60 + 60, gap * 120)
                    second += max(1, step)
            return events

        # the boundary rule must decide: splitting at a gap of exactly the limit answered 0.46 of level 0; and so
        # must the rule itself: sessions as windows from their first event answered 0.53 of level 0, one session
        # per user (a gap of a whole day) 0.23
        def decisive(drawn: list[list]) -> bool:
            result = sessions(drawn, gap)
            return result not in (sessions(drawn, gap, exact_gap_splits=True), sessions(drawn, gap, from_first=True),
                                  sessions(drawn, 24 * 60))

        events = retry(draw, decisive, attempts=400, what="a clickstream whose rule and gap of exactly the limit matter")
        if config.shuffled:
            rng.shuffle(events)
        else:
            events.sort()
        result = sessions(events, gap)
        log = "\n".join(f"{clock(s)} {user} {page}" for s, user, page in events)
        order = "The log merges several servers, so it is not in time order. " if config.shuffled else ""
        prompt = (
            f"Here is a clickstream (time, user, page) from one day:\n\n```\n{log}\n```\n\n{order}A user's session is a "
            f"maximal run of that user's events in which consecutive events are at most {gap} minutes apart; a longer "
            f"gap starts a new session (a gap of exactly {gap} minutes does not). A session lasts from its first "
            "event to its last (a single event lasts 0 seconds).\n\nFor each user give the number of sessions and "
            "the duration of their longest session in seconds, one user per line as user: sessions, seconds. "
            f"For example:\n{EXAMPLE}"
        )
        answer = "\n".join(f"{user}: {count}, {longest}" for user, (count, longest) in result.items())
        data = {"users": users, "result": {u: list(v) for u, v in result.items()}, "events": len(events),
                "shuffled": config.shuffled, "gap": gap}
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        users = problem.data["users"]
        given = read_values(answer, users, _read_figures, partial=True)
        if not given:
            return Verdict.unparsed(f"expected one line per user such as {EXAMPLE.splitlines()[0]}")
        for user in users:
            if user not in given:
                return Verdict.wrong(f"{user} is missing")
            count, longest = problem.data["result"][user]
            if given[user][0] != count:
                return Verdict.wrong(f"{user}'s number of sessions is wrong")
            if given[user][1] != longest:
                return Verdict.wrong(f"{user}'s longest session is wrong")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Events + users + sessions + 5 when out of order."""
        data = problem.data
        total_sessions = sum(count for count, _ in data["result"].values())
        return float(data["events"] + len(data["users"]) + total_sessions + 5 * data["shuffled"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""),
                "\n".join(f"{u} = {c}, {s}" for u, (c, s) in reversed(list(result.items()))),
                "; ".join(f"{u}: ({c}, {s})" for u, (c, s) in result.items()),
                "\n".join(f"{u}: {c} sessions, {s} seconds" for u, (c, s) in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        user = rng.choice(list(result))
        more = {u: (c + (u == user), s) for u, (c, s) in result.items()}
        longer = {u: (c, s + 60 * (u == user)) for u, (c, s) in result.items()}

        def text(table: dict) -> str:
            return "\n".join(f"{u}: {c}, {s}" for u, (c, s) in table.items())

        return [text(more), text(longer), text({u: v for u, v in result.items() if u != user})]
