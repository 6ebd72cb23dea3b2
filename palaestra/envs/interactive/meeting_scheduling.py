"""Meeting scheduling: find an hour that suits scripted colleagues whose calendars are hidden.

The week has five days (Monday to Friday) and one-hour slots starting at 9:00 to 17:00. The
model's own calendar is shown; each colleague's calendar (busy blocks) and rules (no meetings
before some hour, none from some hour on, or none on some day) are hidden. Each turn the model proposes one slot
(``Tuesday 14:00``, ``tue 14``, ``Tuesday at 2pm``, ``14:00-15:00 on Tuesday``; start hours 9 to 17). Every
colleague checks it: the proposal is accepted only when all are free and their rules allow it, which ends the
episode with reward 1. Otherwise every colleague answers: one who declines gives the rule it hit and all its busy
blocks of that day, one who could make it says so and names its busy blocks of that day, which is what the model
learns from. A slot where the model itself is busy, or an unreadable one, costs a turn.

Calendars are drawn around one slot kept free for everyone, then busy blocks are added to the
colleagues until the common free slots are few (at most the level's bound). The oracle proposes a
common free slot. The honest player (:meth:`MeetingScheduling.honest_move`) proposes the first
slot that neither its calendar nor any reply heard so far rules out.

Version 3 had a busy colleague name its whole day and set the turn budgets near that player's 95th
percentile, so that proposing the model's free slots blindly stopped winning (#21). It still won
0.45-0.64 at levels 0-1 and 0.29-0.47 at levels 2-4 (150 games per level; latest hour first did best at
the easy levels; red team, round 3 session 19): the honest player needed about as many proposals per day
as there were colleagues to hear from, and 31 own free slots over 10-12 turns left a blind enumeration a
third of the week. Version 4 lengthens the day to 17:00 starts, gives the model 2 busy blocks, not 5
(about 42 own free slots), adds a "from some hour on" rule (the "before" rule alone favoured late
slots), and has every colleague answer a failed proposal with its blocks of that day, so one proposal
shows that day of every calendar: the honest player needs about one proposal per day plus the rules it
trips, and the budgets are 5, 6, 7, 7, 7 turns. Proposing the own free slots blindly in any fixed order
(earliest or latest first, latest hour first, hour by hour, Friday first, shuffled), all declared
heuristics, wins 0.14-0.20 of the top level's games (2 x 200 games; the honest player 1.00) and at most
0.48 at level 0 (one colleague, three common slots; the honest player 0.97).
Levels add colleagues and shrink the number of
common free slots. The difficulty measure is the number of colleagues plus
``log2`` of the open slots of the model's week per common free slot.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.verifiers.normalize import read_answer, strip_wrappers

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
HOURS = tuple(range(9, 18))  # meeting start times
NAMES = ("Ana", "Ben", "Chloe", "Dev", "Elif", "Femi", "Greta", "Hiro")
_LEAD = r"^(?:(?:i\s+)?(?:propose|suggest)\s+|(?:how|what)\s+about\s+|(?:let's\s+)?meet(?:ing)?\s+)?(?:on\s+)?"
_HOUR = r"(?:at\s+)?(?P<hour>\d{1,2})(?:[:.]00)?\s*(?P<half>[ap]\.?m\.?)?(?:\s*(?:-|–|to)\s*(?P<end>\d{1,2})(?:[:.]00)?\s*(?P<end_half>[ap]\.?m\.?)?)?\s*h?"
_SLOT = re.compile(rf"{_LEAD}(?P<day>[a-z]+)\.?,?\s+{_HOUR}\s*\??$", re.IGNORECASE)
_SLOT_HOUR_FIRST = re.compile(rf"{_LEAD}{_HOUR}\s*,?\s+on\s+(?P<day>[a-z]+)\.?\s*\??$", re.IGNORECASE)


@register
class MeetingScheduling(MultiTurnTask):
    id = "interactive/meeting_scheduling"
    family = "interactive"
    description = "Find a meeting hour that suits colleagues with hidden calendars, learning from their refusals."
    tags = ("interactive", "multi-turn", "scheduling", "dialogue")
    hidden_information = True
    honest_win_share = 0.85  # the honest player (first slot no reply rules out): 0.97-1 of the games per level
    version = 4  # v4: a longer day, every colleague speaks on a failed proposal, shorter budgets (blind enumeration)

    @dataclass(frozen=True)
    class Config:
        colleagues: int
        common: int  # at most this many common free slots
        turns: int

    presets = (
        Config(1, 3, 5),
        Config(2, 2, 6),
        Config(2, 1, 7),
        Config(3, 1, 7),
        Config(4, 1, 7),
    )
    bounded = (
        "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"
    )

    def generate(self, rng: random.Random, config: Config) -> Problem:
        mine = _busy_blocks(rng, 2)
        target = rng.choice([slot for slot in _slots() if _free(mine, slot)])  # stays free for everyone
        people = []
        for name in rng.sample(NAMES, config.colleagues):
            rule = rng.choice(
                [None, ["before", rng.choice([10, 11])], ["after", rng.choice([16, 17])], ["day", rng.randrange(5)]]
            )
            person = {"name": name, "busy": [], "rule": rule}
            if _objection(person, target):
                person["rule"] = None
            person["busy"] = [b for b in _busy_blocks(rng, 5) if _free([b], target)]
            people.append(person)
        data = {"mine": mine, "people": people, "turns": config.turns}
        for _ in range(len(_slots())):  # each pass closes at least one common slot
            common = [slot for slot in _common(data) if slot != target]
            if len(common) < config.common:
                break
            day, hour = rng.choice(common)
            start = rng.randint(max(HOURS[0], hour - 2), hour)
            end = min(HOURS[-1] + 1, hour + rng.randint(1, 3))
            if day == target[0] and start <= target[1] < end:  # keep the target free: cut the block short
                start, end = (target[1] + 1, end) if hour > target[1] else (start, target[1])
            rng.choice(people)["busy"].append([day, start, end])
        day, start, _ = min(data["mine"])
        example = f"{DAYS[day]} {start}:00"
        busy = "\n".join(f"- {DAYS[day]} {start}:00-{end}:00" for day, start, end in sorted(data["mine"]))
        names = [p["name"] for p in data["people"]]
        prompt = (
            f"Schedule a one-hour meeting with {_join(names)} this week (Monday to Friday; a meeting may start at any "
            f"hour from {HOURS[0]}:00 to {HOURS[-1]}:00). Their calendars and personal rules are hidden from you. "
            f"Your own calendar is busy at:\n{busy}\n\n"
            f"Each turn, propose one slot as a day and a start hour, for example: {example} (that one shows the "
            "spelling only: you are busy then). If everyone can make "
            "it, the meeting is booked. Otherwise everyone who cannot says why, and everyone who could names its "
            "other busy hours of that day. A slot when you are busy yourself is "
            f"a wasted turn. You have {config.turns} turns."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        mine = [s for s in _slots() if _free(data["mine"], s)]
        return len(data["people"]) + math.log2(len(mine) / len(_common(data)))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        slot = read_slot(move)
        if slot is None:
            why = f"write a weekday and a start hour from {HOURS[0]} to {HOURS[-1]}, e.g. Tuesday 14:00"
            return Outcome.invalid(state, why)
        name = f"{DAYS[slot[0]]} {slot[1]}:00"
        if not _free(data["mine"], slot):
            return Outcome(state, Verdict.wrong("own calendar"), f"You are busy yourself on {name}.")
        if not any(_objection(p, slot) for p in data["people"]):
            return Outcome(state, Verdict.right(), f"Everyone accepts {name}: the meeting is booked!", True)
        replies = [f'{p["name"]}: "{_reply(p, slot)}"' for p in data["people"]]
        return Outcome(state, Verdict.wrong("declined"), f"{name} does not work. " + " ".join(replies))

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        day, hour = _common(data)[0]
        return f"{DAYS[day]} {hour}:00"

    def honest_move(self, view: View) -> str:
        """Propose the first slot of the week free in the own calendar that no reply heard so far rules out."""
        mine = [(DAYS.index(d), int(a), int(b)) for d, a, b in _MINE.findall(view.prompt)]
        ruled: set[tuple[int, int]] = set()
        for _, observation in view.history:
            for hour in _BEFORE.findall(observation):
                ruled |= {(d, h) for d in range(len(DAYS)) for h in HOURS if h < int(hour)}
            for hour in _AFTER.findall(observation):
                ruled |= {(d, h) for d in range(len(DAYS)) for h in HOURS if h >= int(hour)}
            for day in _DAY_OFF.findall(observation):
                ruled |= {(DAYS.index(day), h) for h in HOURS}
            for day, start, end in _BUSY.findall(observation):
                ruled |= {(DAYS.index(day), h) for h in range(int(start), int(end))}
            tried = _TRIED.match(observation)
            if tried:
                ruled.add((DAYS.index(tried.group(1)), int(tried.group(2))))
        options = [s for s in _slots() if _free([list(b) for b in mine], s) and s not in ruled]
        day, hour = options[0] if options else _slots()[0]
        return f"{DAYS[day]} {hour}:00"

    def heuristics(self) -> dict[str, Any]:
        def blind(arrange: Any) -> Any:
            def policy(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
                free = [slot for slot in _slots() if _free(problem.data["mine"], slot)]  # the own calendar only
                order = arrange(free, random.Random(repr(problem.data["mine"])))  # fixed per problem, replies unread
                day, hour = order[len(history) % len(order)]
                return f"{DAYS[day]} {hour}:00"

            return policy

        def shuffled(free: list[tuple[int, int]], rng: random.Random) -> list[tuple[int, int]]:
            rng.shuffle(free)
            return free

        return {
            "propose the own free slots in order, replies ignored": blind(lambda free, rng: free),  # earliest first
            "propose the own free slots latest first, replies ignored": blind(lambda free, rng: free[::-1]),
            "propose the own free slots latest hour first, replies ignored": blind(
                lambda free, rng: sorted(free, key=lambda slot: (-slot[1], slot[0]))
            ),
            "propose the own free slots hour by hour across the days, replies ignored": blind(
                lambda free, rng: sorted(free, key=lambda slot: (slot[1], slot[0]))
            ),
            "propose the own free slots Friday first, replies ignored": blind(
                lambda free, rng: sorted(free, key=lambda slot: (-slot[0], slot[1]))
            ),
            "propose the own free slots in a random order, replies ignored": blind(shuffled),
        }


_MINE = re.compile(r"^- (\w+day) (\d+):00-(\d+):00$", re.MULTILINE)
_BEFORE = re.compile(r"I never have meetings before (\d+):00")
_AFTER = re.compile(r"I never have meetings starting at (\d+):00 or later")
_DAY_OFF = re.compile(r"I do not take meetings on (\w+day)s")
_BUSY = re.compile(r"I am busy on (\w+day) from (\d+):00 to (\d+):00")
_TRIED = re.compile(r"(\w+day) (\d+):00 does not work")


def _common(data: dict[str, Any]) -> list[tuple[int, int]]:
    """The slots where the model is free and no colleague objects."""
    return [s for s in _slots() if _free(data["mine"], s) and not any(_objection(p, s) for p in data["people"])]


def _slots() -> list[tuple[int, int]]:
    return [(day, hour) for day in range(5) for hour in HOURS]


def _busy_blocks(rng: random.Random, count: int) -> list[list[int]]:
    """Busy blocks ``[day, start, end]`` (end exclusive), one to three hours each, possibly overlapping."""
    blocks = []
    for _ in range(count):
        day, length = rng.randrange(5), rng.randint(1, 3)
        start = rng.randint(HOURS[0], HOURS[-1] + 1 - length)
        blocks.append([day, start, start + length])
    return blocks


def _free(busy: list[list[int]], slot: tuple[int, int]) -> bool:
    day, hour = slot
    return not any(d == day and start <= hour < end for d, start, end in busy)


def _objection(person: dict[str, Any], slot: tuple[int, int]) -> str:
    """Why ``person`` declines ``slot`` ('' when it accepts): its rule first, else every busy block of that day."""
    day, hour = slot
    rule = person["rule"]
    if rule and rule[0] == "before" and hour < rule[1]:
        return f"I never have meetings before {rule[1]}:00."
    if rule and rule[0] == "after" and hour >= rule[1]:
        return f"I never have meetings starting at {rule[1]}:00 or later."
    if rule and rule[0] == "day" and day == rule[1]:
        return f"I do not take meetings on {DAYS[rule[1]]}s."
    if not _free(person["busy"], slot):  # all of that day's blocks, so a refusal teaches more than one slot (#21)
        return _day_blocks(person, day)
    return ""


def _reply(person: dict[str, Any], slot: tuple[int, int]) -> str:
    """What ``person`` says about ``slot`` when the meeting is not booked (v4): the rule it hits, if any, then all
    its busy blocks of that day, or that it could make it and its other blocks of that day."""
    day = slot[0]
    blocks = _day_blocks(person, day)
    objection = _objection(person, slot)
    if not objection:
        return "I could make it. " + (blocks or f"I have nothing else on {DAYS[day]}.")
    return objection if objection == blocks or not blocks else f"{objection} {blocks}"


def _day_blocks(person: dict[str, Any], day: int) -> str:
    return " ".join(
        f"I am busy on {DAYS[d]} from {start}:00 to {end}:00." for d, start, end in sorted(person["busy"]) if d == day
    )


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _clock(hour: int, half: str | None) -> int | None:
    """A 24-hour hour from ``2`` and ``pm`` (or no half: already 24-hour); None for an impossible time."""
    if half is None:
        return hour if 0 <= hour <= 23 else None
    if not 1 <= hour <= 12:
        return None
    return hour % 12 + (12 if half.lower().startswith("p") else 0)


def read_slot(move: str) -> tuple[int, int] | None:
    """(day index, start hour) from ``Tuesday 14:00``, ``tue 14``, ``Tuesday at 2pm``, ``Tuesday 14:00-15:00``,
    ``14:00 on Tuesday``, or None.

    >>> read_slot("Tue 2 pm"), read_slot("Tuesday 14:00 or Wednesday 10:00")
    ((1, 14), None)
    """
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, int] | None:
        text = strip_wrappers(text).strip()
        match = _SLOT.match(text) or _SLOT_HOUR_FIRST.match(text)
        if not match:
            return None
        word = match.group("day").lower()
        half = match.group("half") or match.group("end_half")  # "2-3pm": the half written once counts for both
        hour = _clock(int(match.group("hour")), half)
        days = [i for i, day in enumerate(DAYS) if len(word) >= 3 and day.lower().startswith(word)]
        if match.group("end") is not None:  # a range names the slot only when it is exactly one hour long
            end = _clock(int(match.group("end")), match.group("end_half") or half)
            if hour is None or end != hour + 1:
                return None
        return (days[0], hour) if len(days) == 1 and hour in HOURS else None

    return read_answer(move, read)
