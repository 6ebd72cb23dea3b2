"""Job shop scheduling: the order of the jobs on every machine that finishes all the work as early as possible.

Each job visits every machine once, in its own route (J2 may go M3, M1, M2 while J1 goes M1, M2, M3),
with a whole-number processing time per operation; a machine runs one operation at a time and an
operation starts once the job's previous operation is done and its machine is free, without
interruption. The answer gives, for every machine, the order in which it processes the jobs; the
verifier builds the earliest schedule those orders allow (each operation as early as its job and
its machine permit), refuses orders that deadlock (a machine waiting for a job that waits behind
it), and accepts **any** orders whose makespan equals the optimum. The optimum comes at generation
from a depth-first branch and bound over active schedules (Giffler-Thompson branching on the
machine that can finish an operation first; bound: every job's and every machine's remaining work
after its earliest start), which contain an optimal schedule. From level 2 on, problems are redrawn
until no textbook dispatching rule is optimal: shortest processing time, most work remaining, most
operations remaining, and the non-delay schedule by most work remaining (version 2 added the last two).

Generation speed: about 100 problems/s at level 4 (360 in version 1, which redrew fewer problems). Nearly all the time is the depth-first branch and bound over
active schedules that proves each drawn problem's optimal makespan; the proof is kept because the
verifier accepts any orders of that makespan and must know it exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.operations.common import read_labelled_sequences

Route = list[tuple[int, int]]  # one job's operations in order: (machine index, processing time)
MAX_NODES = 200_000  # a search budget far above what the drawn sizes take; a draw that needs more is redrawn


@register
class JobShop(Task):
    id = "operations/job_shop"
    family = "operations"
    description = "Order the jobs on every machine of a job shop (own route per job) to minimise the makespan."
    tags = ("operations-research", "scheduling", "optimization", "np-hard")
    # v2: from level 2 on, two more dispatching rules are not optimal either (see RULES)
    version = 3  # v3: level 0 has 4 jobs

    @dataclass(frozen=True)
    class Config:
        jobs: int
        machines: int
        beat_rules: bool
        max_time: int = 9

    presets = (
        Config(jobs=4, machines=2, beat_rules=False),  # v3: 3 jobs had 36 answers, one optimal in 12%
        Config(jobs=3, machines=3, beat_rules=False),
        Config(jobs=4, machines=3, beat_rules=True),
        Config(jobs=4, machines=4, beat_rules=True),
        Config(jobs=5, machines=4, beat_rules=True),
    )
    # the exact search grows exponentially with the shop, so the shop stops at 5 x 4 (about 3 ms a solve) and the
    # processing times keep growing instead (longer arithmetic, more distinct start times)
    growth = Growth(steps={"jobs": 1, "machines": 1}, limits={"jobs": 5, "machines": 4}, factors={"max_time": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> list[Route]:
            return [[(k, rng.randint(1, config.max_time)) for k in rng.sample(range(config.machines), config.machines)]
                    for _ in range(config.jobs)]

        last: list = [None, None]  # the latest draw searched and its solution, so the accepted one is not re-solved

        def acceptable(routes: list[Route]) -> bool:
            if config.beat_rules:  # a rule that meets the simple lower bound is optimal: skip the search
                spans = [makespan(routes, rule(routes)) or 0 for rule in RULES.values()]
                floor = max(max(sum(t for _, t in route) for route in routes),
                            max(sum(t for route in routes for k, t in route if k == m) for m in range(config.machines)))
                if min(spans) == floor:
                    return False
            solved = optimal_schedule(routes)
            if solved is None:
                return False
            last[:] = [routes, solved]
            # a dispatching rule never deadlocks (it always has a next operation), so its makespan exists
            return not config.beat_rules or all((makespan(routes, rule(routes)) or 0) > solved[1] for rule in RULES.values())

        routes = retry(draw, acceptable, what="a job shop the dispatching rules do not solve")
        assert last[0] is routes
        orders, best, nodes = last[1]
        jobs = [f"J{j + 1}" for j in range(config.jobs)]
        lines = "\n".join(f"  {jobs[j]}: " + ", ".join(f"M{k + 1} ({t} min)" for k, t in route)
                          for j, route in enumerate(routes))
        example = "; ".join(f"M{k + 1}: " + ", ".join(rng.sample(jobs, len(jobs))) for k in range(min(2, config.machines)))
        prompt = (
            f"A workshop has machines M1 to M{config.machines} and jobs J1 to J{config.jobs}. Each job visits the "
            f"machines in its own order (its route), with these processing times:\n{lines}\n\nA machine processes one "
            "job at a time, without interruption; a job's operation can start only once its previous operation has "
            "finished and the machine is free. Choose, for every machine, the order in which it processes the jobs, "
            "so that all the work is finished as early as possible (minimum makespan). Give one line per machine "
            f"with the jobs in processing order, e.g. {example}{'; ...' if config.machines > 2 else ''}"
        )
        answer = "\n".join(f"M{k + 1}: " + ", ".join(jobs[j] for j in order) for k, order in enumerate(orders))
        return Problem(prompt=prompt, answer=answer, data={
            "routes": [[list(op) for op in route] for route in routes], "makespan": best, "nodes": nodes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        routes = _routes(problem)
        machines = len(routes[0])
        jobs = [f"J{j + 1}" for j in range(len(routes))]
        heads = [f"M{k + 1}" for k in range(machines)]
        aliases = {f"{word} {k + 1}": head for k, head in enumerate(heads) for word in ("machine", "m")}
        found = read_labelled_sequences(answer, heads, jobs, aliases)  # "Machine 2: J1, J3, J2" too
        if found is None:
            return Verdict.unparsed("expected one line per machine, e.g. M1: J2, J1, J3")
        orders = []
        for head in heads:
            sequence = found[head]
            if sorted(sequence) != sorted(jobs):
                return Verdict.wrong(f"{head} must process every job exactly once")
            orders.append([jobs.index(s) for s in sequence])
        span = makespan(routes, orders)
        if span is None:
            return Verdict.wrong("these machine orders deadlock: some machine waits for a job that waits behind it")
        return Verdict.judge(span == problem.data["makespan"], f"these orders finish at {span}, which is not the minimum")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def spelled(rule: Callable[[list[Route]], list[list[int]]]) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                orders = rule(_routes(problem))
                return "\n".join(f"M{k + 1}: " + ", ".join(f"J{j + 1}" for j in order) for k, order in enumerate(orders))
            return answer

        return {name: spelled(rule) for name, rule in RULES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Operations to place, plus the log of the search nodes the optimum took to prove and of the longest
        processing time (the size of the numbers to add)."""
        routes = problem.data["routes"]
        longest = max(t for route in routes for _, t in route)
        return len(routes) * len(routes[0]) + math.log2(problem.data["nodes"] + 1) / 2 + math.log2(longest)

    def spellings(self, problem: Problem) -> list[str]:
        lines = (problem.answer or "").splitlines()
        return [*super().spellings(problem), "; ".join(lines), "\n".join(reversed(lines)),
                "\n".join(line.replace(", ", " -> ") for line in lines) + ".",
                "\n".join(line.replace(":", " =") for line in lines)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        routes = _routes(problem)
        lines = (problem.answer or "").splitlines()
        orders = [[int(j[1:]) - 1 for j in line.split(": ")[1].split(", ")] for line in lines]
        wrong = ["\n".join(lines[:-1]), "\n".join([*lines, lines[0]]), lines[0] + ", J1\n" + "\n".join(lines[1:]),
                 "\n".join(lines) + " or M1: " + ", ".join(reversed(lines[0].split(": ")[1].split(", ")))]
        for _ in range(30):  # orders with a longer makespan, or a deadlock, found by shuffling one machine
            k = rng.randrange(len(orders))
            changed = [list(o) for o in orders]
            rng.shuffle(changed[k])
            span = makespan(routes, changed)
            if span is None or span > problem.data["makespan"]:
                wrong.append("\n".join(f"M{m + 1}: " + ", ".join(f"J{j + 1}" for j in o) for m, o in enumerate(changed)))
                break
        return wrong


def _routes(problem: Problem) -> list[Route]:
    return [[(k, t) for k, t in route] for route in problem.data["routes"]]


def makespan(routes: Sequence[Route], orders: Sequence[Sequence[int]]) -> int | None:
    """The makespan of the earliest schedule the machine orders allow, or None when they deadlock."""
    jobs, machines = len(routes), len(orders)
    next_op = [0] * jobs
    position = [0] * machines
    job_free = [0] * jobs
    machine_free = [0] * machines
    for _ in range(jobs * machines):  # one operation is placed per pass, or the orders deadlock
        for k in range(machines):
            if position[k] < len(orders[k]):
                j = orders[k][position[k]]
                if next_op[j] < len(routes[j]) and routes[j][next_op[j]][0] == k:
                    break
        else:
            return None
        end = max(job_free[j], machine_free[k]) + routes[j][next_op[j]][1]
        job_free[j] = machine_free[k] = end
        next_op[j] += 1
        position[k] += 1
    return max(job_free)


def _dispatch(routes: Sequence[Route], priority: Callable[[int, int, int], tuple[int, ...]]) -> list[list[int]]:
    """Giffler-Thompson active schedule, choosing within each conflict set by ``priority(job, op, time)`` (smallest
    first); returns the machine orders."""
    jobs, machines = len(routes), len(routes[0])
    next_op, job_free, machine_free = [0] * jobs, [0] * jobs, [0] * machines
    orders: list[list[int]] = [[] for _ in range(machines)]
    for _ in range(jobs * machines):
        ready = [j for j in range(jobs) if next_op[j] < machines]
        finish = {j: max(job_free[j], machine_free[routes[j][next_op[j]][0]]) + routes[j][next_op[j]][1] for j in ready}
        first = min(ready, key=lambda j: (finish[j], j))
        machine = routes[first][next_op[first]][0]
        conflict = [j for j in ready if routes[j][next_op[j]][0] == machine
                    and max(job_free[j], machine_free[machine]) < finish[first]]
        chosen = min(conflict, key=lambda j: priority(j, next_op[j], routes[j][next_op[j]][1]))
        end = max(job_free[chosen], machine_free[machine]) + routes[chosen][next_op[chosen]][1]
        job_free[chosen] = machine_free[machine] = end
        next_op[chosen] += 1
        orders[machine].append(chosen)
    return orders


def spt_orders(routes: Sequence[Route]) -> list[list[int]]:
    """Shortest processing time first among the operations competing for a machine."""
    return _dispatch(routes, lambda j, op, time: (time, j))


def mwkr_orders(routes: Sequence[Route]) -> list[list[int]]:
    """Most work remaining (the job's unfinished processing time) first."""
    return _dispatch(routes, lambda j, op, time: (-sum(t for _, t in routes[j][op:]), j))


def mopnr_orders(routes: Sequence[Route]) -> list[list[int]]:
    """Most operations remaining first (then most work remaining)."""
    return _dispatch(routes, lambda j, op, time: (op - len(routes[j]), -sum(t for _, t in routes[j][op:]), j))


def nondelay_mwkr_orders(routes: Sequence[Route]) -> list[list[int]]:
    """Non-delay schedule: always start the operation that can start earliest (most work remaining on ties)."""
    jobs, machines = len(routes), len(routes[0])
    next_op, job_free, machine_free = [0] * jobs, [0] * jobs, [0] * machines
    orders: list[list[int]] = [[] for _ in range(machines)]
    for _ in range(jobs * machines):
        ready = [j for j in range(jobs) if next_op[j] < machines]
        start = {j: max(job_free[j], machine_free[routes[j][next_op[j]][0]]) for j in ready}
        j = min(ready, key=lambda j: (start[j], -sum(t for _, t in routes[j][next_op[j]:]), j))
        machine, time = routes[j][next_op[j]]
        job_free[j] = machine_free[machine] = start[j] + time
        next_op[j] += 1
        orders[machine].append(j)
    return orders


# Version 2 added the last two rules: in version 1 (which beat SPT and MWKR only) most operations remaining was
# optimal in 15% of the level-2 problems and 11% at level 4, the non-delay schedule by most work remaining in 17%
# and 9%.
RULES: dict[str, Callable[[list[Route]], list[list[int]]]] = {
    "shortest processing time (SPT) dispatching": spt_orders,
    "most work remaining (MWKR) dispatching": mwkr_orders,
    "most operations remaining (MOPNR) dispatching": mopnr_orders,
    "non-delay schedule, most work remaining first": nondelay_mwkr_orders,
}


def optimal_schedule(routes: Sequence[Route]) -> tuple[list[list[int]], int, int] | None:
    """(optimal machine orders, the makespan, search nodes) by branch and bound over active schedules, or None when
    the search budget runs out."""
    jobs, machines = len(routes), len(routes[0])
    incumbent = min((rule(list(routes)) for rule in RULES.values()), key=lambda o: makespan(routes, o) or 0)
    best = [makespan(routes, incumbent) or 0]
    best_orders = [list(o) for o in incumbent]
    next_op, job_free, machine_free = [0] * jobs, [0] * jobs, [0] * machines
    job_left = [sum(t for _, t in route) for route in routes]
    machine_left = [sum(t for route in routes for k, t in route if k == m) for m in range(machines)]
    orders: list[list[int]] = [[] for _ in range(machines)]
    nodes = [0]

    step_of = [{k: i for i, (k, _) in enumerate(route)} for route in routes]  # route position of each machine
    before = [[sum(t for _, t in route[:i]) for i in range(machines + 1)] for route in routes]

    def bound() -> int:
        """Each job's remaining work from its earliest start; each machine's remaining work from the earliest any
        of its remaining jobs can reach it, plus the shortest of those jobs' work after it."""
        value = max(job_free[j] + job_left[j] for j in range(jobs))
        for m in range(machines):
            if not machine_left[m]:
                continue
            head = tail = None
            for j in range(jobs):
                i = step_of[j][m]
                if i >= next_op[j]:
                    arrive = job_free[j] + before[j][i] - before[j][next_op[j]]
                    after = before[j][machines] - before[j][i + 1]
                    head = arrive if head is None or arrive < head else head
                    tail = after if tail is None or after < tail else tail
            assert head is not None and tail is not None
            value = max(value, max(machine_free[m], head) + machine_left[m] + tail)
        return value

    def search(placed: int) -> None:
        nodes[0] += 1
        if nodes[0] > MAX_NODES:
            return
        if placed == jobs * machines:
            span = max(job_free)
            if span < best[0]:
                best[0] = span
                best_orders[:] = [list(o) for o in orders]
            return
        if bound() >= best[0]:
            return
        ready = [j for j in range(jobs) if next_op[j] < machines]
        finish = {j: max(job_free[j], machine_free[routes[j][next_op[j]][0]]) + routes[j][next_op[j]][1] for j in ready}
        first = min(ready, key=lambda j: (finish[j], j))
        machine = routes[first][next_op[first]][0]
        conflict = [j for j in ready if routes[j][next_op[j]][0] == machine
                    and max(job_free[j], machine_free[machine]) < finish[first]]
        for j in sorted(conflict, key=lambda j: (finish[j], j)):
            time = routes[j][next_op[j]][1]
            saved = (job_free[j], machine_free[machine])
            job_free[j] = machine_free[machine] = max(saved) + time
            next_op[j] += 1
            job_left[j] -= time
            machine_left[machine] -= time
            orders[machine].append(j)
            search(placed + 1)
            orders[machine].pop()
            machine_left[machine] += time
            job_left[j] += time
            next_op[j] -= 1
            job_free[j], machine_free[machine] = saved

    search(0)
    if nodes[0] > MAX_NODES:
        return None
    return best_orders, best[0], nodes[0]
