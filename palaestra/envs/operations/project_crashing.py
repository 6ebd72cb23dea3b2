"""Project crashing: shorten a project to a deadline at the least cost by buying days off its activities.

Activities have whole-day normal durations, predecessors, a limit on the days each can be shortened
(crashed) and a cost per day crashed. The project finishes when its longest path of activities
does (the critical path method). The answer gives the days crashed for every activity; the
verifier checks that each is a whole number within its limit, that the crashed project finishes
by the deadline, and that the cost is the minimum. That minimum is computed exactly at generation
by a depth-first branch and bound over the crash days of the activities on paths longer than the
deadline (see :func:`optimal_crash`; a test checks it against brute force). The deadline cuts at least two days,
and the activities' letters are dealt at random (version 2: a one-day cut, a third of level 0, made one activity's
single day the whole answer, and "A", always a start of the network, was that activity most often).
From level 2 on, problems are redrawn until the textbook greedy (crash the cheapest critical
activity by a day, again and again) pays more than the minimum. At every level the limits bind (version 3):
with every activity allowed to crash down to one day the minimum would be cheaper, so a plan that ignores the
max crash is never within them (that limit-blind optimum answered 0.18, 0.18 and 0.23 of levels 0 to 2 before).

Generation speed: about 650 problems/s at level 4. About 7 in 8 drawn projects are redrawn because the textbook
greedy (crash the cheapest critical activity, again and again) already pays the minimum, and each draw runs that
greedy and the exact branch and bound over crash days; the redraws are kept so that the greedy does not earn
reward.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import read_integer

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DAYS = {"days": 1, "day": 1, "d": 1}


def _read_days(text: str) -> int | None:
    """Whole days crashed, bare (``2``) or with the unit (``2 days``, ``1 day``)."""
    return read_integer(text, units=DAYS)


@dataclass(frozen=True)
class Network:
    duration: list[int]
    limit: list[int]  # days each activity may be crashed
    cost: list[int]  # cost per day crashed
    preds: list[list[int]]


@register
class ProjectCrashing(Task):
    id = "operations/project_crashing"
    family = "operations"
    description = "Crash a project's activities (limits, cost per day) to meet a deadline at least cost (CPM)."
    tags = ("operations-research", "scheduling", "optimization", "project-management")
    version = 3  # v2: letters dealt at random (A was always a start of the network); v3: the max crash binds

    @dataclass(frozen=True)
    class Config:
        activities: int
        beat_greedy: bool

    presets = (
        Config(activities=4, beat_greedy=False),
        Config(activities=5, beat_greedy=False),
        Config(activities=6, beat_greedy=True),
        Config(activities=7, beat_greedy=True),
        Config(activities=8, beat_greedy=True),
    )
    growth = Growth(steps={"activities": 1}, limits={"activities": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.activities

        def draw() -> tuple[Network, int]:
            duration = [rng.randint(2, 9) for _ in range(n)]
            limit = [rng.randint(0, min(3, d - 1)) for d in duration]
            cost = [rng.randint(1, 20) for _ in range(n)]
            preds = [sorted(rng.sample(range(b), min(b, rng.randint(1, 2)))) if b else [] for b in range(n)]
            network = Network(duration, limit, cost, preds)
            normal, fastest = finish_time(network, [0] * n), finish_time(network, limit)
            return network, rng.randint(fastest, max(fastest, normal - 2))

        def acceptable(drawn: tuple[Network, int]) -> bool:
            network, deadline = drawn
            if finish_time(network, [0] * n) - deadline < 2:
                return False
            best = optimal_crash(network, deadline)[1]
            if config.beat_greedy:
                greedy = greedy_crash(network, deadline)
                if greedy is not None and plan_cost(network, greedy) == best:
                    return False
            # v3: the limits must bind: crashing any activity down to one day must make a cheaper plan, so an
            # answer that ignores the max crash is never within the limits
            unlimited = Network(network.duration, [d - 1 for d in network.duration], network.cost, network.preds)
            return optimal_crash(unlimited, deadline)[1] < best

        network, deadline = retry(draw, acceptable, what="a crashing problem the greedy does not solve")
        plan, best, nodes = optimal_crash(network, deadline)
        # Letters are dealt at random (version 2): the activities are drawn in an order where each one's predecessors
        # come first, so in version 1 "A" was always a start of the network, on most long paths, and "A = 1, the
        # rest 0" was the reference of 11% of level 0. The table lists the activities alphabetically.
        names = [LETTERS[i] for i in rng.sample(range(n), n)]
        rows = "\n".join(
            f"  {names[a]:<3} {network.duration[a]:>4}   {', '.join(sorted(names[p] for p in network.preds[a])) or '-':<8} "
            f"{network.limit[a]:>5}   {network.cost[a]:>4}" for a in sorted(range(n), key=lambda a: names[a]))
        normal = finish_time(network, [0] * n)
        example = ", ".join(f"{LETTERS[a]} = {(1, 0, 2, 0)[a % 4]}" for a in range(min(3, n))) + ", ..."
        prompt = (
            "A project consists of these activities (durations in days; an activity starts once all its predecessors "
            "have finished; the project ends when every activity has):\n"
            f"  act  days   after    max crash  cost/day\n{rows}\n\nAt normal durations the project takes {normal} "
            f"days. An activity can be shortened (crashed) by whole days, at most by its max crash, at the given cost "
            f"per day. The project must finish within {deadline} days. Choose the crash days of every activity so that "
            f"this deadline is met at the least total cost. Give the days crashed for every activity (0 allowed), "
            f"e.g. {example}"
        )
        return Problem(prompt=prompt, answer=_spelled(names, plan), data={
            "duration": network.duration, "limit": network.limit, "cost": network.cost, "preds": network.preds,
            "names": names, "deadline": deadline, "optimum": best, "nodes": nodes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        network = _network(problem)
        names = _names(problem)
        values = read_values(answer, sorted(names), _read_days)
        if values is None:
            return Verdict.unparsed("expected the whole days crashed for every activity, e.g. A = 1, B = 0, ...")
        plan = [values[name] for name in names]
        for name, days, most in zip(names, plan, network.limit):
            if not 0 <= days <= most:
                return Verdict.wrong(f"{name} can be crashed by 0 to {most} days, not {days}")
        finish = finish_time(network, plan)
        if finish > problem.data["deadline"]:
            return Verdict.wrong(f"the project still takes {finish} days, past the deadline of {problem.data['deadline']}")
        spent = plan_cost(network, plan)
        return Verdict.judge(spent == problem.data["optimum"], f"this plan costs {spent}, which is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def greedy(problem: Problem) -> str:
            network = _network(problem)
            plan = greedy_crash(network, problem.data["deadline"])
            if plan is None:
                plan = list(network.limit)
            return _spelled(_names(problem), plan)

        return {"greedy: crash the cheapest critical activity by a day, repeatedly": greedy}

    def difficulty(self, problem: Problem) -> float:
        """Activities plus precedence arcs, plus the days to cut and the log of the search nodes the optimum took."""
        data = problem.data
        network = _network(problem)
        return (len(data["duration"]) + sum(map(len, data["preds"])) / 2
                + finish_time(network, [0] * len(data["duration"])) - data["deadline"] + math.log2(data["nodes"] + 1))

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), "\n".join(pairs), "; ".join(reversed(pairs)) + ".",
                ", ".join(p.replace(" = ", ": ") for p in pairs), "\\boxed{" + ", ".join(pairs) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        network = _network(problem)
        n = len(network.duration)
        names = _names(problem)
        given = dict(p.split(" = ") for p in (problem.answer or "").split(", "))
        plan = [int(given[name]) for name in names]

        def spelled(values: Sequence[int]) -> str:
            return _spelled(names, values)

        wrong = [spelled([0] * n), spelled(network.limit) if plan_cost(network, network.limit) > problem.data["optimum"]
                 else spelled(plan[:-1]), spelled(plan[:-1]), spelled(plan) + " or " + spelled(network.limit)]
        crashed = max(range(n), key=lambda a: plan[a])
        wrong.append(spelled([v - 1 if a == crashed else v for a, v in enumerate(plan)]))  # a day short, or -1
        return wrong


def _names(problem: Problem) -> list[str]:
    """Each activity's letter, in the network's (topological) order; version 1 lettered them in that order."""
    return list(problem.data.get("names") or LETTERS[:len(problem.data["duration"])])


def _spelled(names: Sequence[str], days: Sequence[int]) -> str:
    """``A = 1, B = 0, ...``: the days of every activity, alphabetically."""
    return ", ".join(f"{name} = {d}" for name, d in sorted(zip(names, days)))


def _network(problem: Problem) -> Network:
    data = problem.data
    return Network(data["duration"], data["limit"], data["cost"], data["preds"])


def finish_time(network: Network, crash: Sequence[int]) -> int:
    """When the project ends with the activities crashed by ``crash`` days (activities are in topological order)."""
    finish: list[int] = []
    for b, duration in enumerate(network.duration):
        finish.append(max((finish[a] for a in network.preds[b]), default=0) + duration - crash[b])
    return max(finish)


def plan_cost(network: Network, crash: Sequence[int]) -> int:
    return sum(c * days for c, days in zip(network.cost, crash))


def _critical(network: Network, crash: Sequence[int]) -> set[int]:
    """The activities on some longest path."""
    n = len(network.duration)
    length = [d - c for d, c in zip(network.duration, crash)]
    early: list[int] = []
    for b in range(n):
        early.append(max((early[a] + length[a] for a in network.preds[b]), default=0))
    end = max(e + d for e, d in zip(early, length))
    late = [end - length[a] for a in range(n)]
    for a in reversed(range(n)):
        successors = [b for b in range(n) if a in network.preds[b]]
        if successors:
            late[a] = min(late[b] for b in successors) - length[a]
    return {a for a in range(n) if early[a] == late[a]}


def greedy_crash(network: Network, deadline: int) -> list[int] | None:
    """Crash the cheapest critical activity with days left by one day until the deadline is met; None when the
    critical activities run out of days first."""
    crash = [0] * len(network.duration)
    for _ in range(sum(network.limit) + 1):
        if finish_time(network, crash) <= deadline:
            return crash
        open_ = [a for a in _critical(network, crash) if crash[a] < network.limit[a]]
        if not open_:
            return None
        crash[min(open_, key=lambda a: (network.cost[a], a))] += 1
    return None


def _paths(network: Network) -> list[list[int]]:
    """Every path from an activity without predecessors to one without successors."""
    n = len(network.duration)
    successors = [[b for b in range(n) if a in network.preds[b]] for a in range(n)]
    found: list[list[int]] = []

    def walk(a: int, path: list[int]) -> None:
        path.append(a)
        if not successors[a]:
            found.append(list(path))
        for b in successors[a]:
            walk(b, path)
        path.pop()

    for a in range(n):
        if not network.preds[a]:
            walk(a, [])
    return found


def optimal_crash(network: Network, deadline: int) -> tuple[list[int], int, int]:
    """(crash days, their cost, search nodes), optimal.

    Every path longer than the deadline must lose its excess: a covering program over the crash days, searched
    depth first (activities on the most long paths first, each from its limit down). The bound: for each long
    path, the cheapest way to cover what it still lacks with the activities not yet set (cheapest per day first,
    exact for one path); the largest of these is added to the cost so far."""
    n = len(network.duration)
    lacking: list[int] = []
    members: list[set[int]] = []
    for path in _paths(network):
        length = sum(network.duration[a] for a in path)
        if length > deadline:
            lacking.append(length - deadline)
            members.append(set(path))
    order = sorted({a for m in members for a in m if network.limit[a] > 0},
                   key=lambda a: (-sum(a in m for m in members), network.cost[a], a))
    # for each depth and long path, the (cost, limit) of the path's activities still to set, cheapest first
    later = [[sorted((network.cost[a], network.limit[a]) for a in order[i:] if a in m) for m in members]
             for i in range(len(order) + 1)]
    best: list = [None, None]
    crash = [0] * n
    nodes = [0]

    def lower(depth: int, covered: list[int]) -> int | None:
        bound = 0
        for p, short in enumerate(lacking):
            left, cost = short - covered[p], 0
            for price, most in later[depth][p]:
                if left <= 0:
                    break
                take = min(most, left)
                cost, left = cost + price * take, left - take
            if left > 0:
                return None  # this path cannot be shortened enough any more
            bound = max(bound, cost)
        return bound

    def search(depth: int, spent: int, covered: list[int]) -> None:
        nodes[0] += 1
        bound = lower(depth, covered)
        if bound is None or (best[0] is not None and spent + bound >= best[0]):
            return
        if all(c >= short for c, short in zip(covered, lacking)):
            best[0], best[1] = spent, list(crash)
            return
        if depth == len(order):
            return
        a = order[depth]
        inside = [p for p, m in enumerate(members) if a in m]
        for days in range(network.limit[a], -1, -1):
            crash[a] = days
            for p in inside:
                covered[p] += days
            search(depth + 1, spent + days * network.cost[a], covered)
            for p in inside:
                covered[p] -= days
        crash[a] = 0

    search(0, 0, [0] * len(lacking))
    assert best[1] is not None  # the deadline is at least the fully crashed project's length
    return best[1], best[0], nodes[0]
