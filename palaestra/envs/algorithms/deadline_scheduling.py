"""Single-machine scheduling with deadlines: earn the most profit from jobs finished on time.

Jobs labelled with letters (a random set per problem) have a duration, a deadline and a profit. One
machine runs the chosen jobs one after another from time 0 without overlap; a job earns its profit
only if it finishes by its deadline, so the answer lists the jobs to run, in order. Deadlines are
tight enough that not every job fits. At every level, jobs are redrawn until no textbook greedy
rule is optimal (take jobs by largest profit, by profit per unit of time, or by earliest deadline,
each while the chosen set still runs on time): by profit or by profit rate found the optimum in
0.52-0.74 of levels 2-6 before. Version 3 also redraws against each rule's set improved by hill climbing (while
adding a job, or swapping one in for one out, keeps the set on time and gains profit, the best such move is made):
from profit per unit of time or earliest deadline it found the optimum in 0.65/0.43 of levels 2/4 of version 2.
Version 4 redraws level 0 as well, where taking jobs by profit found the optimum in 0.90, by profit rate
in 0.77 and by earliest deadline in 0.50 (none now). The optimum comes from a dynamic programme over finishing
times with jobs in deadline order (an on-time set can always run in deadline order), at generation.
The verifier accepts **any** optimal schedule: it runs the listed jobs back to back and checks every
one meets its deadline and the profit equals the optimum.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.algorithms.common import read_labels, sample_letters


@register
class DeadlineScheduling(Task):
    id = "algorithms/deadline_scheduling"
    family = "algorithms"
    description = "Order jobs on one machine to earn the most profit from jobs finished by their deadlines."
    tags = ("algorithms", "scheduling", "dynamic-programming", "optimization")
    version = 4  # v4: level 0 is redrawn against the greedy rules too

    @dataclass(frozen=True)
    class Config:
        jobs: int
        longest: int
        max_profit: int

    presets = (
        Config(jobs=5, longest=4, max_profit=9),  # v4: 5 jobs, not 4: few 4-job sets beat every greedy rule
        Config(jobs=6, longest=5, max_profit=15),
        Config(jobs=8, longest=6, max_profit=20),
        Config(jobs=10, longest=7, max_profit=30),
        Config(jobs=13, longest=8, max_profit=40),
    )
    growth = Growth(steps={"jobs": 1, "longest": 1, "max_profit": 5}, limits={"jobs": 23})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names, spare = sample_letters(rng, config.jobs)

        def draw() -> tuple[list[list[int]], list[int], int] | None:
            durations = [rng.randint(1, config.longest) for _ in names]
            total = sum(durations)
            jobs = [[d, rng.randint(d, max(d, round(total * 0.6))), rng.randint(1, config.max_profit)]
                    for d in durations]
            order, profit = best_schedule(jobs)
            if any(_on_time_profit(jobs, rule(jobs)) == profit for rule in _RULES.values()):
                return None
            return jobs, order, profit

        jobs, order, profit = retry(draw, what="jobs that no greedy rule schedules best", attempts=4000)
        listing = "\n".join(f"{name}: duration {d}, deadline {t}, profit {w}" for name, (d, t, w) in zip(names, jobs))
        prompt = (
            f"Jobs:\n{listing}\n\nOne machine runs jobs one at a time, starting at time 0, each job right after the "
            "previous one. A job earns its profit only if it finishes by its deadline; jobs you leave out earn "
            "nothing. Choose which jobs to run and in what order to earn the largest total profit, with every job "
            "you list finishing by its deadline. Give the jobs in the order they run, separated by spaces, for "
            f"example: {spare[2]} {spare[0]} {spare[1]}"
        )
        return Problem(prompt=prompt, answer=" ".join(names[i] for i in order),
                       data={"names": names, "jobs": jobs, "profit": profit})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def policy(rule: Callable[[list[list[int]]], list[int]]) -> Callable[[Problem], str]:
            def heuristic(problem: Problem) -> str:
                return " ".join(problem.data["names"][i] for i in rule(problem.data["jobs"]))

            return heuristic

        return {name: policy(rule) for name, rule in _RULES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Number of jobs times the longest deadline (the dynamic programme's table)."""
        jobs = problem.data["jobs"]
        return float(len(jobs) * max(t for _, t, _ in jobs))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names, jobs = problem.data["names"], problem.data["jobs"]
        order = read_labels(answer, names)
        if order is None:
            return Verdict.unparsed("expected job labels separated by spaces")
        if len(set(order)) != len(order):
            return Verdict.wrong("a job is listed twice")
        time = profit = 0
        for label in order:
            duration, deadline, gain = jobs[names.index(label)]
            time += duration
            if time > deadline:
                return Verdict.wrong(f"job {label} finishes at {time}, after its deadline {deadline}")
            profit += gain
        return Verdict.judge(profit == problem.data["profit"], f"a profit of {profit} is not the largest possible")

    def spellings(self, problem: Problem) -> list[str]:
        order = (problem.answer or "").split()
        return [*super().spellings(problem), ", ".join(order), " -> ".join(order).lower()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        order = (problem.answer or "").split()
        names = problem.data["names"]
        wrong = [" ".join(order[1:]) or names[0], " ".join(names)]  # every job, alphabetically: some is late
        left = [n for n in names if n not in order]
        if left:  # an optimal set cannot take one more job on time: profits are positive
            wrong.append(" ".join([*order, rng.choice(left)]))
        return [w for w in wrong if w != problem.answer]


def best_schedule(jobs: list[list[int]]) -> tuple[list[int], int]:
    """An optimal schedule (job indices in running order) and its profit.

    Jobs are taken in deadline order; ``best[k][t]`` is the largest profit of an on-time set of the
    first ``k`` jobs whose durations add up to at most ``t``.

    >>> best_schedule([[2, 2, 5], [1, 2, 4], [2, 4, 3]])
    ([0, 2], 8)
    """
    order = sorted(range(len(jobs)), key=lambda i: (jobs[i][1], i))
    horizon = max(t for _, t, _ in jobs)
    best = [[0] * (horizon + 1) for _ in range(len(order) + 1)]
    for k, i in enumerate(order, 1):
        duration, deadline, profit = jobs[i]
        for t in range(horizon + 1):
            best[k][t] = best[k - 1][t]
            if duration <= t <= deadline and best[k - 1][t - duration] + profit > best[k][t]:
                best[k][t] = best[k - 1][t - duration] + profit
    t = max(range(horizon + 1), key=lambda t: (best[-1][t], -t))
    profit = best[-1][t]
    chosen = []
    for k in range(len(order), 0, -1):
        if best[k][t] != best[k - 1][t]:
            i = order[k - 1]
            chosen.append(i)
            t -= jobs[i][0]
    return chosen[::-1], profit


# Textbook greedy rules: consider jobs in this order (smallest key first), keeping each that still fits on time.
_GREEDY_ORDERS: dict[str, Callable[[list[int]], float]] = {
    "profit": lambda job: -job[2],
    "profit per unit of time": lambda job: -job[2] / job[0],
    "earliest deadline": lambda job: job[1],
}


def _greedy(jobs: list[list[int]], key: Callable[[list[int]], float]) -> list[int]:
    """The jobs a greedy rule keeps, in deadline order (the order that runs an on-time set on time)."""
    chosen: list[int] = []
    for i in sorted(range(len(jobs)), key=lambda i: (key(jobs[i]), i)):
        trial = sorted([*chosen, i], key=lambda j: (jobs[j][1], j))
        if _on_time_profit(jobs, trial) is not None:
            chosen = trial
    return chosen


def _climb(jobs: list[list[int]], start: list[int]) -> list[int]:
    """``start`` improved while a move (one job added, or one in for one out) keeps the set on time and gains profit:
    the best such move each time (the first in index order among equals); the set in deadline order."""
    chosen = sorted(start, key=lambda j: (jobs[j][1], j))
    for _ in range(4 * len(jobs)):  # every move gains profit; a generous cap
        profit = _on_time_profit(jobs, chosen) or 0
        best: tuple[int, list[int]] | None = None
        for out in (None, *chosen):
            kept = [j for j in chosen if j != out]
            for i in range(len(jobs)):
                if i in chosen:
                    continue
                trial = sorted([*kept, i], key=lambda j: (jobs[j][1], j))
                gained = _on_time_profit(jobs, trial)
                if gained is not None and gained > profit and (best is None or gained > best[0]):
                    best = (gained, trial)
        if best is None:
            break
        chosen = best[1]
    return chosen


def _on_time_profit(jobs: list[list[int]], order: list[int]) -> int | None:
    """The profit of running ``order`` back to back, or None if some job finishes late."""
    time = profit = 0
    for i in order:
        time += jobs[i][0]
        if time > jobs[i][1]:
            return None
        profit += jobs[i][2]
    return profit


def _climbing(key: Callable[[list[int]], float]) -> Callable[[list[list[int]]], list[int]]:
    return lambda jobs: _climb(jobs, _greedy(jobs, key))


def _plain(key: Callable[[list[int]], float]) -> Callable[[list[list[int]]], list[int]]:
    return lambda jobs: _greedy(jobs, key)


# The rules a drawn instance must beat (from level 1 on), by the name the kit shows.
_RULES: dict[str, Callable[[list[list[int]]], list[int]]] = {
    **{f"greedy by {name}": _plain(key) for name, key in _GREEDY_ORDERS.items()},
    **{f"greedy by {name}, then the best swap while it gains": _climbing(key) for name, key in _GREEDY_ORDERS.items()},
}
