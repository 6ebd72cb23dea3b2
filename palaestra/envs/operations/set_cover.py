"""Weighted set cover: the cheapest collection of sets whose union is every element.

Candidate sets of the elements 1..n each have a cost; the answer names a collection covering every
element at the smallest total cost. The optimum comes from a branch-and-bound search at generation
(branch on an uncovered element lying in the fewest sets, over the sets containing it; prune on the
cost so far). From level 2 on, instances are redrawn until the textbook greedy (repeatedly take the
set with the lowest cost per newly covered element) is not optimal, and neither is the greedy cover
improved the textbook way: drop sets left redundant (dearest first), then, while one helps, swap a
chosen set for a cheaper unchosen one that keeps every element covered (this solved 63% of level-4
problems when only the plain greedy was beaten). The verifier accepts **any**
covering collection whose total cost equals the optimum.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.operations.common import read_sequence

Instance = tuple[list[list[int]], list[int]]  # the sets (sorted elements), their costs


@register
class SetCover(Task):
    id = "operations/set_cover"
    family = "operations"
    description = "Choose the cheapest collection of weighted sets that covers every element (any optimum)."
    tags = ("operations-research", "optimization", "np-hard")
    version = 3  # v3: level 0 has 6 sets

    @dataclass(frozen=True)
    class Config:
        elements: int
        sets: int
        beat_greedy: bool

    presets = (
        Config(elements=6, sets=6, beat_greedy=False),  # v3: 5 sets, one cover the reference of 10%
        Config(elements=8, sets=6, beat_greedy=False),
        Config(elements=10, sets=8, beat_greedy=True),
        Config(elements=12, sets=10, beat_greedy=True),
        Config(elements=15, sets=12, beat_greedy=True),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"elements": 2, "sets": 2}, limits={"elements": 59, "sets": 56})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, k = config.elements, config.sets

        def draw() -> Instance:
            sets = [set(rng.sample(range(1, n + 1), rng.randint(2, max(3, n // 2)))) for _ in range(k)]
            for element in range(1, n + 1):
                if not any(element in s for s in sets):
                    rng.choice(sets).add(element)
            costs = [max(1, len(s) * rng.randint(2, 6) + rng.randint(-4, 4)) for s in sets]
            return [sorted(s) for s in sets], costs

        def acceptable(instance: Instance) -> bool:
            sets, costs = instance
            if not config.beat_greedy:
                return True
            solved[:] = [instance, optimal_cover(sets, costs, n)]  # kept: the last instance weighed is accepted
            best = solved[1][1]
            return _cost(greedy_cover(sets, costs, n), costs) > best and _cost(improved_greedy_cover(sets, costs, n),
                                                                               costs) > best

        solved: list = []
        sets, costs = retry(draw, acceptable, attempts=400,
                            what="a set cover that greedy, even improved, does not solve")
        chosen, best, nodes = solved[1] if solved and solved[0] == (sets, costs) else optimal_cover(sets, costs, n)
        names = [f"S{i + 1}" for i in range(k)]
        rows = "\n".join(f"  {name} = {{{', '.join(map(str, s))}}}, cost {c}" for name, s, c in zip(names, sets, costs))
        example = ", ".join(sorted(rng.sample(names, 3), key=lambda s: int(s[1:])))  # independent of the answer
        prompt = (
            f"Candidate sets of the elements 1 to {n}, each with a cost:\n{rows}\n\nChoose some of the sets so that "
            f"every element from 1 to {n} lies in at least one chosen set, with the smallest possible total cost. "
            f"Give the names of the chosen sets, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=", ".join(names[i] for i in sorted(chosen)),
                       data={"n": n, "sets": sets, "costs": costs, "optimum": best, "nodes": nodes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        sets, costs, n = problem.data["sets"], problem.data["costs"], problem.data["n"]
        names = [f"S{i + 1}" for i in range(len(sets))]
        chosen = read_sequence(answer, names)
        if chosen is None:
            return Verdict.unparsed("expected the names of the chosen sets, e.g. S1, S4")
        if len(set(chosen)) != len(chosen):
            return Verdict.wrong("a set is named twice")
        covered = {e for name in chosen for e in sets[names.index(name)]}
        missing = [e for e in range(1, n + 1) if e not in covered]
        if missing:
            return Verdict.wrong(f"element {missing[0]} is not covered")
        total = sum(costs[names.index(name)] for name in chosen)
        return Verdict.judge(total == problem.data["optimum"], f"total cost {total} is not the smallest")

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def greedy(problem: Problem) -> str:
            data = problem.data
            return ", ".join(f"S{i + 1}" for i in sorted(greedy_cover(data["sets"], data["costs"], data["n"])))

        def improved(problem: Problem) -> str:
            data = problem.data
            return ", ".join(f"S{i + 1}" for i in improved_greedy_cover(data["sets"], data["costs"], data["n"]))

        return {"greedy (lowest cost per new element)": greedy,
                "greedy, redundant sets dropped, then cheaper swaps": improved}

    def difficulty(self, problem: Problem) -> float:
        """Elements plus sets, plus the log of the search nodes the optimum took to prove."""
        data = problem.data
        return data["n"] + len(data["sets"]) + math.log2(data["nodes"] + 1)

    def spellings(self, problem: Problem) -> list[str]:
        chosen = (problem.answer or "").split(", ")
        return [*super().spellings(problem), " ".join(reversed(chosen)), "{" + ", ".join(chosen) + "}",
                ", ".join(c.lower() for c in chosen) + "."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        chosen = (problem.answer or "").split(", ")
        names = [f"S{i + 1}" for i in range(len(problem.data["sets"]))]
        unused = [n for n in names if n not in chosen]
        wrong = [", ".join(chosen[1:]) if len(chosen) > 1 else unused[0], ", ".join([*chosen, chosen[0]]),
                 ", ".join(chosen) + " or " + ", ".join(names)]
        if unused:
            wrong.append(", ".join([*chosen, unused[0]]))  # covers, but costs more
        return wrong


def _cost(chosen: Sequence[int], costs: Sequence[int]) -> int:
    return sum(costs[i] for i in chosen)


def greedy_cover(sets: Sequence[Sequence[int]], costs: Sequence[int], n: int) -> list[int]:
    """Chvátal's greedy: take the set with the lowest cost per newly covered element (lowest index on ties)."""
    members = [set(s) for s in sets]
    uncovered = set(range(1, n + 1))
    chosen: list[int] = []
    while uncovered:  # bounded: each pass covers at least one element (every element lies in some set)
        best, best_cost, best_new = -1, 0, 0
        for i, covered in enumerate(members):
            new = len(uncovered & covered)
            # cost / new below the best so far, compared exactly by cross-multiplying (counts are positive);
            # strictly below, so the lowest index wins a tie
            if new and (best < 0 or costs[i] * best_new < best_cost * new):
                best, best_cost, best_new = i, costs[i], new
        chosen.append(best)
        uncovered -= members[best]
    return chosen


def improved_greedy_cover(sets: Sequence[Sequence[int]], costs: Sequence[int], n: int) -> list[int]:
    """The greedy cover without its redundant sets (dearest dropped first), then improved by swapping a chosen
    set for a cheaper unchosen one that keeps everything covered, while such a swap exists."""
    everything = set(range(1, n + 1))

    def covers(chosen: Sequence[int]) -> bool:
        return set().union(*(sets[i] for i in chosen)) == everything

    chosen = greedy_cover(sets, costs, n)
    for i in sorted(chosen, key=lambda i: (-costs[i], i)):
        if covers([j for j in chosen if j != i]):
            chosen = [j for j in chosen if j != i]
    for _ in range(sum(costs)):  # bounded: each swap lowers the integer total cost
        swap = next(((i, j) for i in chosen for j in range(len(sets)) if j not in chosen and costs[j] < costs[i]
                     and covers([*(k for k in chosen if k != i), j])), None)
        if swap is None:
            break
        chosen = [*(k for k in chosen if k != swap[0]), swap[1]]
    return sorted(chosen)


def optimal_cover(sets: Sequence[Sequence[int]], costs: Sequence[int], n: int) -> tuple[list[int], int, int]:
    """(a cheapest cover as set indices, its cost, search nodes), by branch and bound from the greedy cover."""
    containing = {e: [i for i, s in enumerate(sets) if e in s] for e in range(1, n + 1)}
    best_chosen = greedy_cover(sets, costs, n)
    best = [_cost(best_chosen, costs)]
    nodes = [0]
    chosen: list[int] = []

    def search(uncovered: frozenset[int], spent: int) -> None:
        nodes[0] += 1
        if spent >= best[0]:
            return
        if not uncovered:
            best[0] = spent
            best_chosen[:] = chosen
            return
        element = min(uncovered, key=lambda e: (len(containing[e]), e))
        for i in containing[element]:
            chosen.append(i)
            search(uncovered - frozenset(sets[i]), spent + costs[i])
            chosen.pop()

    search(frozenset(range(1, n + 1)), 0)
    return sorted(best_chosen), best[0], nodes[0]
