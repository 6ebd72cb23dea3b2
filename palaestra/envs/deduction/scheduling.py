"""Calendar scheduling: find start times for meetings that respect everyone's calendar and the rules.

A working day is cut into slots (hours, or half hours at the upper levels). Meetings have a
length and participants; people have busy blocks; some meetings must come after others, start
no earlier than or end by a given time, or fall on the same side of lunch. A hidden schedule is
built first (meetings placed one by one where their participants are free), then busy blocks
and rules true of it are added, so at least one valid schedule exists. A SAT solver (one start
slot per meeting, no participant in two meetings at once, the rules as clauses) enumerates the
valid schedules up to the level's cap; while there are more, a time rule that the hidden
schedule keeps and one of the others breaks is added. The difficulty measure is
log2(start-time combinations / valid schedules).

The answer gives every meeting's start time, one per line (``Budget: 10:30``; ``10:30am``,
``1:30 pm`` and ``13:30`` are all read); **any** schedule that satisfies every rule is accepted.

Version 2: no problem is solved by a textbook greedy placement (:func:`_greedy_orders`: each meeting in turn at its
earliest start keeping the rules among those placed, as listed or earliest deadline first, or at its latest start,
as listed or latest release first); such instances are redrawn. Earliest deadline first solved 0.73, 0.73, 0.43,
0.63, 0.33 of levels 0-4 and the listed order 0.65-0.23 (40 seeds a level), now 0; greedy placements in orders
not rejected (longest or most constrained first, reversed) solve 0.10-0.17 of levels 3-4 (0.15-0.53 before).

Generation speed: about 60 problems/s at level 4 (250 before version 2, which redraws the instances a greedy
placement solves). After each added rule a SAT solver enumerates the valid schedules up to the level's cap, and
about one drawn problem in three is redrawn; the enumeration is what bounds the number of valid schedules (the
difficulty) and drives the rules added.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import PEOPLE
from palaestra.solvers.sat import CNF, Budget, BudgetExhausted, SatSolver
from palaestra.verifiers.blocks import read_block
from palaestra.verifiers.normalize import is_closing, strip_wrappers

# fmt: off
_MEETINGS = ("Budget", "Design", "Hiring", "Launch", "Review", "Standup", "Training", "Planning", "Retro", "Sales",
             "Audit", "Roadmap")
# fmt: on
_START, _END = 9 * 60, 17 * 60  # the working day, in minutes
_TIGHTENINGS = 20  # rules added to cut remaining schedules before a new instance is drawn
_CUT_CHOICES = 4  # candidate cutting rules compared each time
_BUDGET = Budget(conflicts=50_000)
_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$", re.IGNORECASE)
_RANGE = re.compile(r"\s*(?:-|–|—|to|until)\s*")
_LINE = re.compile(r"^\s*[-*•]?\s*\**([A-Za-z]+)\**\s*(?::|=|-|–|at|starts at)\s*(.+?)\s*$", re.IGNORECASE)


@register
class Scheduling(Task):
    id = "deduction/scheduling"
    family = "deduction"
    description = "Schedule meetings around people's busy times, order rules and time limits (any valid schedule)."
    tags = ("planning", "scheduling", "constraint-satisfaction")
    max_answer_chars = 2_000
    multiline = True
    version = 2  # v2: no problem is solved by placing the meetings one by one at their earliest possible start

    @dataclass(frozen=True)
    class Config:
        meetings: int
        people: int
        slot: int  # minutes per slot
        rules: int  # order and time rules drawn at random...
        max_schedules: int  # ...then rules that cut a remaining schedule are added until at most this many remain

    presets = (
        Config(meetings=3, people=3, slot=60, rules=2, max_schedules=32),
        Config(meetings=4, people=4, slot=60, rules=3, max_schedules=24),
        Config(meetings=5, people=4, slot=30, rules=4, max_schedules=24),
        Config(meetings=6, people=5, slot=30, rules=5, max_schedules=16),
        Config(meetings=7, people=6, slot=30, rules=6, max_schedules=16),
    )
    # Capped at level 9's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"meetings": 12, "people": 11, "rules": 11})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def greedy_fails(found: tuple) -> bool:
            names, lengths, members, busy, rules = found[:5]
            return not any(_greedy(names, lengths, members, busy, rules, config.slot, order, latest)
                           for order, latest in _greedy_orders(lengths, rules))

        instance = retry(lambda: _draw(rng, config), accept=greedy_fails,
                         what="a schedule with few alternatives that no greedy placement finds")
        names, lengths, members, busy, rules, hidden, count = instance
        people = sorted({p for group in members for p in group})
        lines = [f"- {names[m]}: {lengths[m]} minutes, with {', '.join(members[m])}" for m in range(len(names))]
        busy_lines = [f"- {p}: busy " + ", ".join(f"{_clock(a)}-{_clock(b)}" for a, b in busy[p]) for p in people
                      if busy[p]]
        prompt = (
            f"Schedule these meetings on one working day from {_clock(_START)} to {_clock(_END)}. Every meeting "
            f"starts on a multiple of {config.slot} minutes after {_clock(_START)}, ends by {_clock(_END)}, and "
            "nobody can be in two meetings at once or in a meeting while busy.\n\nMeetings:\n" + "\n".join(lines)
            + ("\n\nBusy times:\n" + "\n".join(busy_lines) if busy_lines else "")
            + "\n\nRules:\n" + "\n".join(f"- {_rule_text(r, names)}" for r in rules)
            + "\n\nGive a start time for every meeting, one per line, for example:\n"
            + "\n".join(f"{names[m]}: {_clock(_START + 60 * ((m * 3) % 8))}" for m in range(min(2, len(names))))
            + "\n..."
        )
        answer = "\n".join(f"{names[m]}: {_clock(t)}" for m, t in enumerate(hidden))
        data = {"names": names, "lengths": lengths, "members": members, "busy": busy, "rules": rules,
                "slot": config.slot, "schedules": count}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """log2 of start-time combinations per valid schedule (valid schedules counted up to a cap)."""
        slots = (_END - _START) // problem.data["slot"]
        return len(problem.data["names"]) * math.log2(slots) - math.log2(problem.data["schedules"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        names = data["names"]
        read = _read_schedule(strip_wrappers(answer), names)
        if isinstance(read, str):
            return Verdict.unparsed(read)
        starts, ends = read
        for name, end in ends.items():
            length = data["lengths"][names.index(name)]
            if end != starts[name] + length:
                return Verdict.wrong(f"{name} lasts {length} minutes, not from {_clock(starts[name])} to {_clock(end)}")
        problem_text = _violation(starts, data)
        return Verdict.right() if problem_text is None else Verdict.wrong(problem_text)

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Each meeting in turn at its earliest (or latest) start that keeps every rule among the meetings placed so
        far, in the orders of :func:`_greedy_orders`."""
        def greedy(which: int) -> Callable[[Problem], str]:
            def policy(problem: Problem) -> str:
                data = problem.data
                order, latest = _greedy_orders(data["lengths"], data["rules"])[which]
                starts = _greedy(data["names"], data["lengths"], data["members"], data["busy"], data["rules"],
                                 data["slot"], order, latest)
                return "\n".join(f"{name}: {_clock(t)}" for name, t in zip(data["names"], starts or []))
            return policy

        names = ("earliest start, in the listed order", "earliest start, earliest deadline first",
                 "latest start, in the listed order", "latest start, latest release first")
        return {name: greedy(which) for which, name in enumerate(names)}

    def spellings(self, problem: Problem) -> list[str]:
        gold = (problem.answer or "").splitlines()
        twelve = [f"{line.split(': ')[0]}: {_twelve(line.split(': ')[1])}" for line in gold]
        return [*super().spellings(problem), "\n".join(reversed(gold)), "\n".join(twelve),
                "\n".join(f"- {line}" for line in gold), "\n".join(line.replace(": ", " at ") for line in gold),
                "```text\n" + "\n".join(gold) + "\n```", "\n".join(gold) + ".",
                "\n".join(f"{line}-{_clock(_minutes(line.split(': ')[1]) + length)}"
                          for line, length in zip(gold, problem.data["lengths"]))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        gold = (problem.answer or "").splitlines()
        starts = {line.split(": ")[0]: _minutes(line.split(": ")[1]) for line in gold}
        wrong = ["\n".join(gold[:-1])]
        for _ in range(40):  # find a shifted schedule that breaks a rule
            name = rng.choice(data["names"])
            shifted = dict(starts)
            shifted[name] = _START + data["slot"] * rng.randrange((_END - _START) // data["slot"])
            if _violation(shifted, data) is not None:
                wrong.append("\n".join(f"{n}: {_clock(t)}" for n, t in shifted.items()))
                break
        wrong.append("\n".join(f"{n}: {_clock(_END)}" for n in data["names"]))
        first = gold[0].split(": ")
        wrong.append("\n".join(gold) + f"\nNo wait, {first[0]} starts later.")
        wrong.append("\n".join([f"{first[0]}: {first[1]}-{_clock(_minutes(first[1]) + data['lengths'][0] + 30)}",
                                *gold[1:]]))
        return wrong


def _clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def _twelve(text: str) -> str:
    minutes = _minutes(text) or 0
    h, m = divmod(minutes, 60)
    return f"{(h - 1) % 12 + 1}:{m:02d} {'pm' if h >= 12 else 'am'}"


def _minutes(text: str) -> int | None:
    match = _TIME.match(text.strip().rstrip(".").strip())
    if not match:
        return None
    h, m, half = int(match.group(1)), int(match.group(2) or 0), (match.group(3) or "").lower().replace(".", "")
    if m >= 60 or h > 23 or (half and not 1 <= h <= 12):
        return None
    if half == "pm" and h != 12:
        h += 12
    if half == "am" and h == 12:
        h = 0
    return 60 * h + m


def _read_schedule(answer: str, names: list[str]) -> tuple[dict[str, int], dict[str, int]] | str:
    """Each meeting's start time (and the end time where the answer gives a range such as
    ``10:00-11:30``), or a message saying why the answer is unreadable."""
    lookup = {n.lower(): n for n in names}
    # "*" is only markdown emphasis or a bullet here (no name or time holds one): **Budget:** 10:00 reads as Budget: 10:00
    lines = read_block(answer.replace("*", "").replace(";", "\n").replace(",", "\n"), leading="strip")
    if lines is None:
        return "empty or unreadable answer"
    lines = [line for line in lines if line.strip()]
    if lines and not _LINE.match(lines[-1]) and is_closing("\n" + lines[-1]):
        lines = lines[:-1]  # a closing remark such as "This schedule keeps every rule."
    starts: dict[str, int] = {}
    ends: dict[str, int] = {}
    for line in lines:
        match = _LINE.match(line)
        if not match or match.group(1).lower() not in lookup:
            return f"could not read {line.strip()[:40]!r} as Meeting: start time"
        name = lookup[match.group(1).lower()]
        times = _RANGE.split(match.group(2), maxsplit=1)
        minutes = [_minutes(text) for text in times]
        if None in minutes:
            return f"could not read the time {match.group(2)[:20]!r}"
        if name in starts:
            return f"{name} is given twice"
        starts[name] = minutes[0]
        if len(minutes) == 2:
            ends[name] = minutes[1]
    if set(starts) != set(names):
        return "give a start time for every meeting"
    return starts, ends


def _violation(starts: dict[str, int], data: dict) -> str | None:
    """Why the schedule breaks a rule, or None when it is valid."""
    names, lengths, members, slot = data["names"], data["lengths"], data["members"], data["slot"]
    for m, name in enumerate(names):
        t = starts[name]
        if (t - _START) % slot or t < _START or t + lengths[m] > _END:
            return f"{name} must start on the {slot}-minute grid and fit in the day"
        for person in members[m]:
            for a, b in data["busy"].get(person, []):
                if t < b and a < t + lengths[m]:
                    return f"{person} is busy during {name}"
    for m1, m2 in itertools.combinations(range(len(names)), 2):
        if set(members[m1]) & set(members[m2]):
            t1, t2 = starts[names[m1]], starts[names[m2]]
            if t1 < t2 + lengths[m2] and t2 < t1 + lengths[m1]:
                return f"{names[m1]} and {names[m2]} overlap and share a participant"
    for rule in data["rules"]:
        if not _rule_holds(rule, [starts[n] for n in names], lengths):
            return f"rule broken: {_rule_text(rule, names)}"
    return None


def _rule_holds(rule: list, starts: list[int], lengths: list[int]) -> bool:
    kind = rule[0]
    if kind == "before":
        return starts[rule[1]] + lengths[rule[1]] <= starts[rule[2]]
    if kind == "not_before":
        return starts[rule[1]] >= rule[2]
    if kind == "end_by":
        return starts[rule[1]] + lengths[rule[1]] <= rule[2]
    return (starts[rule[1]] < 12 * 60) == (starts[rule[2]] < 12 * 60)  # same half of the day


def _rule_text(rule: list, names: list[str]) -> str:
    kind = rule[0]
    if kind == "before":
        return f"{names[rule[1]]} must end before {names[rule[2]]} starts."
    if kind == "not_before":
        return f"{names[rule[1]]} cannot start before {_clock(rule[2])}."
    if kind == "end_by":
        return f"{names[rule[1]]} must end by {_clock(rule[2])}."
    return f"{names[rule[1]]} and {names[rule[2]]} must both start before noon or both start at noon or later."


def _draw(rng: random.Random, config: Scheduling.Config) -> tuple | None:
    slot, k = config.slot, config.meetings
    names = rng.sample(_MEETINGS, k)
    people = rng.sample(PEOPLE, config.people)
    lengths = [rng.choice((30, 60, 60, 90, 120)) if slot == 30 else rng.choice((60, 60, 120)) for _ in range(k)]
    members = [sorted(rng.sample(people, rng.randint(2, min(3, len(people))))) for _ in range(k)]
    slots = (_END - _START) // slot
    hidden: list[int] = []
    for m in range(k):  # place each meeting where its participants are free
        options = [_START + slot * i for i in range(slots) if _START + slot * i + lengths[m] <= _END and all(
            not (set(members[m]) & set(members[j]) and _START + slot * i < hidden[j] + lengths[j]
                 and hidden[j] < _START + slot * i + lengths[m]) for j in range(m))]
        if not options:
            return None
        hidden.append(rng.choice(options))
    busy: dict[str, list[list[int]]] = {p: [] for p in people}
    for p in people:  # a busy block or two in each person's free time
        mine = [(hidden[m], hidden[m] + lengths[m]) for m in range(k) if p in members[m]]
        for _ in range(rng.randint(0, 2)):
            a = _START + slot * rng.randrange(slots)
            b = min(_END, a + rng.choice((60, 90, 120)) if slot == 30 else a + rng.choice((60, 120)))
            if all(b <= s or e <= a for s, e in mine + [tuple(x) for x in busy[p]]):
                busy[p].append([a, b])
        busy[p].sort()
    rules: list[list] = []
    for _ in range(10 * config.rules):
        if len(rules) == config.rules:
            break
        rule = _random_rule(rng, k, hidden, lengths)
        if rule is not None and rule not in rules:
            rules.append(rule)
    cnf, start = _encode(k, lengths, members, busy, rules, slot)
    added = 0
    try:
        with SatSolver(cnf, _BUDGET) as solver:  # one solver: each cutting rule only forbids some starts
            for _ in range(_TIGHTENINGS):
                schedules = _schedules(solver, start, config.max_schedules + 1)
                if len(schedules) <= config.max_schedules:
                    return names, lengths, members, busy, rules, hidden, len(schedules)
                # Cut the schedules found (in Python) well below the cap, each time with the best of a few
                # rules (the one ruling out most of them), then count again with the solver.
                while len(schedules) > config.max_schedules // 2 and added < _TIGHTENINGS:
                    others = [found for found in schedules if found != hidden]
                    candidates = [rule for rule in (_cutting_rule(rng, hidden, rng.choice(others), lengths, slot)
                                                    for _ in range(_CUT_CHOICES)) if rule is not None]
                    if not candidates:
                        return None
                    rule = max(candidates, key=lambda r: sum(not _rule_holds(r, found, lengths) for found in schedules))
                    # A time rule on the same meeting is now implied (the schedules found kept it): replace it.
                    rules = [r for r in rules if r[:2] != rule[:2]] + [rule]
                    added += 1
                    schedules = [found for found in schedules if _rule_holds(rule, found, lengths)]
                    for t, var in start[rule[1]].items():
                        if not _rule_holds(rule, [t] * k, lengths):
                            solver.add([-var])
                rng.shuffle(rules)
    except BudgetExhausted:
        return None
    return None


def _greedy_orders(lengths: list[int], rules: list[list]) -> list[tuple[list[int], bool]]:
    """The textbook greedy placements: (the order the meetings are taken in, whether each goes at its latest start
    rather than its earliest). Forwards: as listed, and earliest deadline (the "must end by" time) first; backwards,
    the mirror images: as listed, and latest release (the "cannot start before" time) first. Ties as listed."""
    deadline = {r[1]: r[2] for r in rules if r[0] == "end_by"}
    release = {r[1]: r[2] for r in rules if r[0] == "not_before"}
    listed = list(range(len(lengths)))
    return [(listed, False), (sorted(listed, key=lambda m: deadline.get(m, _END)), False),
            (listed, True), (sorted(listed, key=lambda m: -release.get(m, _START)), True)]


def _greedy(names: list[str], lengths: list[int], members: list[list[str]], busy: dict, rules: list[list],
            slot: int, order: list[int], latest: bool = False) -> list[int] | None:
    """The schedule found by placing the meetings one by one in ``order``, each at its earliest (``latest``: its
    latest) start where its participants are free and every rule among the meetings placed so far holds; None when
    one finds no start."""
    starts: list[int | None] = [None] * len(names)
    for m in order:
        times = range(_START, _END - lengths[m] + 1, slot)
        for t in reversed(times) if latest else times:
            if any(t < b and a < t + lengths[m] for p in members[m] for a, b in busy[p]):
                continue
            if any(u is not None and set(members[m]) & set(members[j]) and t < u + lengths[j] and u < t + lengths[m]
                   for j, u in enumerate(starts)):
                continue
            trial = [*starts[:m], t, *starts[m + 1:]]
            placed = [u if u is not None else _START for u in trial]
            if all(_rule_holds(r, placed, lengths) for r in rules
                   if trial[r[1]] is not None and (r[0] not in ("before", "same_half") or trial[r[2]] is not None)):
                starts[m] = t
                break
        else:
            return None
    return [t for t in starts if t is not None]


def _cutting_rule(rng: random.Random, hidden: list[int], other: list[int], lengths: list[int],
                  slot: int) -> list | None:
    """A time rule the hidden schedule keeps and the ``other`` schedule breaks."""
    moved = [m for m in range(len(hidden)) if other[m] != hidden[m]]
    if not moved:
        return None
    m = rng.choice(moved)
    tight = rng.random() < 0.5  # a bound at the hidden time itself cuts the most schedules
    if other[m] < hidden[m]:  # it starts too early in the other schedule
        return ["not_before", m, hidden[m] if tight else rng.choice(range(other[m] + slot, hidden[m] + 1, slot))]
    end = hidden[m] + lengths[m]
    return ["end_by", m, end if tight else rng.choice(range(end, other[m] + lengths[m], slot))]


def _random_rule(rng: random.Random, k: int, hidden: list[int], lengths: list[int]) -> list | None:
    kind = rng.choice(("before", "before", "not_before", "end_by", "same_half"))
    m1, m2 = rng.sample(range(k), 2)
    if kind == "before":
        return ["before", m1, m2] if hidden[m1] + lengths[m1] <= hidden[m2] else None
    if kind == "not_before":
        return ["not_before", m1, hidden[m1] - 60 * rng.randint(0, 1)] if hidden[m1] > _START else None
    if kind == "end_by":
        end = hidden[m1] + lengths[m1] + 60 * rng.randint(0, 1)
        return ["end_by", m1, end] if end < _END else None
    return ["same_half", *sorted((m1, m2))] if (hidden[m1] < 720) == (hidden[m2] < 720) else None


def _encode(k: int, lengths: list[int], members: list[list[str]], busy: dict, rules: list[list],
            slot: int) -> tuple[CNF, list[dict[int, int]]]:
    """The valid schedules as CNF: one start per meeting (``start[m][t]`` is its variable), no shared
    participant in two meetings at once, nobody busy, every rule kept."""
    slots = (_END - _START) // slot
    cnf = CNF()
    start: list[dict[int, int]] = []
    for m in range(k):
        options = {}
        for i in range(slots):
            t = _START + slot * i
            if t + lengths[m] > _END:
                continue
            if any(t < b and a < t + lengths[m] for p in members[m] for a, b in busy[p]):
                continue
            if not all(_rule_holds(r, [t] * k, lengths) for r in rules
                       if r[0] in ("not_before", "end_by") and r[1] == m):
                continue
            options[t] = cnf.var((m, t))
        cnf.exactly_one(list(options.values()))
        start.append(options)
    for m1, m2 in itertools.combinations(range(k), 2):
        clash = bool(set(members[m1]) & set(members[m2]))
        paired = [r for r in rules if r[0] in ("before", "same_half") and {r[1], r[2]} == {m1, m2}]
        if not clash and not paired:
            continue
        for t1, v1 in start[m1].items():
            for t2, v2 in start[m2].items():
                overlap = t1 < t2 + lengths[m2] and t2 < t1 + lengths[m1]
                if (clash and overlap) or any(not _rule_holds(r, _two(k, m1, t1, m2, t2), lengths) for r in paired):
                    cnf.add([-v1, -v2])
    return cnf, start


def _schedules(solver: SatSolver, start: list[dict[int, int]], limit: int) -> list[list[int]]:
    """Up to ``limit`` valid schedules (each meeting's start). Raises BudgetExhausted when the solver gives up."""
    return [[next(t for t in options if model[(m, t)]) for m, options in enumerate(start)]
            for model in solver.models(limit)]


def _two(k: int, m1: int, t1: int, m2: int, t2: int) -> list[int]:
    starts = [_START] * k
    starts[m1], starts[m2] = t1, t2
    return starts
