"""Divide indivisible items among agents with additive values so that the division is proportional or
envy-free; any division meeting the stated criterion is right.

Every item must go to exactly one agent. Proportional: each agent values their own bundle at least at a
1/n share of their value for all the items. Envy-free: each agent values their own bundle at least as much as
any other agent's bundle. The verifier reads an owner for every item and checks the criterion with each
agent's values (integers, so the checks are exact); the feedback names an agent who falls short or envies.

A division meeting the criterion always exists: one is planted (a random division, then each agent's values
for their own items raised just enough). Instances where giving each item to the agent who values it most,
or a round-robin draft (each agent in turn takes their favourite remaining item; the turn orders below), already
meets the criterion are redrawn, so those textbook rules never earn reward; so are instances where any of 40
random divisions meets it, so a guessed division (or another problem's answer) rarely does. Version 1 redrew
only the draft in name order, and the draft in another fixed order (reverse name order) met the criterion in
50% of level 2 and 25% of level 4. Envy-free problems with up to five agents now defeat the draft in every
turn order; the others (proportional ones, which drafts meet far more often, and six agents) defeat name order
and its reverse, so at level 2 the best fixed order still meets proportionality in about 40% of problems.

Difficulty: agents times items, plus the items again for envy-freeness (every pair of bundles compared).
"""

from __future__ import annotations

import itertools
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.sets import one_of

AGENTS = ("Ann", "Bob", "Cy", "Dee", "Eli", "Flo")
EXAMPLE = "Q: Zed, R: Yan, S: Zed"  # a fixed placeholder of the right shape: never derived from the answer

ALL_ORDERS_UP_TO = 5  # agents up to which every draft order is tried (5! = 120 drafts per drawn problem)
RANDOM_TRIES = 40  # random divisions that must all fail the criterion, so that guessing rarely succeeds
Values = list[list[int]]  # values[agent][item]


def shortfall(values: Values, owners: list[int], criterion: str) -> str | None:
    """Why the division fails the criterion (an agent and the numbers), or ``None`` when it meets it."""
    agents = len(values)
    for i in range(agents):
        bundles = [sum(v for v, owner in zip(values[i], owners, strict=True) if owner == j) for j in range(agents)]
        if criterion == "proportional":
            if bundles[i] * agents < sum(values[i]):
                return (f"{AGENTS[i]} values their bundle at {bundles[i]}, less than a 1/{agents} share of "
                        f"{sum(values[i])}")
        else:
            j = max(range(agents), key=bundles.__getitem__)
            if bundles[j] > bundles[i]:
                return f"{AGENTS[i]} envies {AGENTS[j]}: values {AGENTS[j]}'s bundle at {bundles[j]}, own at {bundles[i]}"
    return None


def greedy_owners(values: Values) -> list[int]:
    """Each item to the agent who values it most (the first such agent on a tie)."""
    return [max(range(len(values)), key=lambda i: values[i][item]) for item in range(len(values[0]))]


def round_robin_owners(values: Values, order: list[int] | tuple[int, ...] | None = None) -> list[int]:
    """Agents take turns in ``order`` (name order by default), each picking their most valued remaining item
    (the first on a tie)."""
    turns = list(order) if order is not None else list(range(len(values)))
    owners = [-1] * len(values[0])
    preferences = [sorted(range(len(owners)), key=lambda k: (-line[k], k)) for line in values]
    next_pick = [0] * len(values)
    for turn in range(len(owners)):
        agent = turns[turn % len(turns)]
        while owners[preferences[agent][next_pick[agent]]] >= 0:
            next_pick[agent] += 1
        owners[preferences[agent][next_pick[agent]]] = agent
    return owners


def draft_orders(agents: int, every: bool) -> list[tuple[int, ...]]:
    """The turn orders of round-robin drafts a generated problem must defeat: every order when ``every`` and
    there are at most ``ALL_ORDERS_UP_TO`` agents, else name order and its reverse."""
    names = tuple(range(agents))
    if every and agents <= ALL_ORDERS_UP_TO:
        return list(itertools.permutations(names))
    return [names, names[::-1]]


@register
class FairDivision(Task):
    id = "economics/fair_division"
    family = "economics"
    description = "Give every item to an agent so the division is proportional or envy-free (any such is right)."
    tags = ("economics", "fair-division", "constraint-satisfaction")
    version = 2

    @dataclass(frozen=True)
    class Config:
        agents: int
        items: int
        criterion: str  # "proportional" or "envy-free"

    presets = (Config(3, 5, "proportional"), Config(3, 6, "envy-free"), Config(4, 8, "proportional"),
               Config(4, 9, "envy-free"), Config(5, 11, "envy-free"))
    # Capped: one name per agent; past 25 items the allocation search raises (difficulty saturates at level 11).
    growth = Growth(steps={"items": 2, "agents": 1}, limits={"agents": len(AGENTS), "items": 25})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, m = config.agents, rng.randint(config.items - 1, config.items)

        def draw() -> tuple[Values, list[int]] | None:
            owners = [i % n for i in range(m)]
            rng.shuffle(owners)
            values = [[rng.randint(1, 12) for _ in range(m)] for _ in range(n)]
            for i in range(n):
                own = [k for k in range(m) if owners[k] == i]
                bundles = [sum(values[i][k] for k in range(m) if owners[k] == j) for j in range(n)]
                if config.criterion == "proportional":
                    deficit = -(-sum(values[i]) // n) - bundles[i]  # grows the total too: recomputed below
                    while deficit > 0:
                        values[i][rng.choice(own)] += deficit
                        deficit = -(-sum(values[i]) // n) - sum(values[i][k] for k in own)
                else:
                    deficit = max(bundles) - bundles[i]
                    if deficit > 0:
                        values[i][rng.choice(own)] += deficit + rng.randint(0, 1)
            if shortfall(values, owners, config.criterion) is not None:
                return None
            if shortfall(values, greedy_owners(values), config.criterion) is None:
                return None
            if any(shortfall(values, round_robin_owners(values, order), config.criterion) is None
                   for order in draft_orders(n, config.criterion == "envy-free")):
                return None
            lucky = sum(shortfall(values, [rng.randrange(n) for _ in range(m)], config.criterion) is None
                        for _ in range(RANDOM_TRIES))
            return None if lucky > 0 else (values, owners)

        # about 1 draw in 90 passes at six agents and 25 items (the growth limit), hence the attempts
        values, owners = retry(draw, attempts=3_000, what="a division problem the textbook rules do not solve")
        items = list(string.ascii_uppercase[:m])
        agents = list(AGENTS[:n])
        header = "       " + " ".join(f"{item:>3}" for item in items)
        rows = "\n".join(f"{agent:<6} " + " ".join(f"{v:>3}" for v in line) for agent, line in zip(agents, values, strict=True))
        rule = ("proportional: every agent values their own items, added up, at least at 1/"
                f"{n} of their value for all the items" if config.criterion == "proportional" else
                "envy-free: every agent values their own items, added up, at least as much as the items given to "
                "any other agent")
        prompt = (
            f"Items {', '.join(items)} are to be divided among {', '.join(agents)}; each item goes to exactly one of "
            f"them. Each agent's value for each item is:\n\n{header}\n{rows}\n\n"
            f"An agent's value for a set of items is the sum of their values for its items. Give a division that is "
            f"{rule}. Such a division exists; if there are several, give any one. Answer with the owner of every "
            f"item, for example: {EXAMPLE}"
        )
        answer = ", ".join(f"{item}: {agents[o]}" for item, o in zip(items, owners, strict=True))
        return Problem(prompt=prompt, answer=answer,
                       data={"values": values, "criterion": config.criterion, "owners": owners})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = problem.data["values"]
        items, agents = list(string.ascii_uppercase[: len(values[0])]), list(AGENTS[: len(values)])
        written = read_assignment(answer, items, one_of(agents))
        if written is None:
            return Verdict.unparsed(f"expected an owner for every item, such as A: {agents[0]}, B: {agents[1]}")
        owners = [agents.index(written[item]) for item in items]
        problem_found = shortfall(values, owners, problem.data["criterion"])
        return Verdict.wrong(problem_found) if problem_found else Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def division(owners: list[int], problem: Problem) -> str:
            agents = AGENTS[: len(problem.data["values"])]
            return ", ".join(f"{string.ascii_uppercase[k]}: {agents[o]}" for k, o in enumerate(owners))

        def reverse_draft(problem: Problem) -> str:
            values = problem.data["values"]
            return division(round_robin_owners(values, list(reversed(range(len(values))))), problem)

        return {"each item to the agent who values it most": lambda p: division(greedy_owners(p.data["values"]), p),
                "a round-robin draft in name order": lambda p: division(round_robin_owners(p.data["values"]), p),
                "a round-robin draft in reverse name order": reverse_draft}

    def difficulty(self, problem: Problem) -> float:
        """Agents times items, plus the items again for envy-freeness."""
        values = problem.data["values"]
        extra = len(values[0]) if problem.data["criterion"] == "envy-free" else 0
        return float(len(values) * len(values[0]) + extra)

    def spellings(self, problem: Problem) -> list[str]:
        agents = AGENTS[: len(problem.data["values"])]
        pairs = [(string.ascii_uppercase[k], agents[o]) for k, o in enumerate(problem.data["owners"])]
        equals = ", ".join(f"{item} = {agent}" for item, agent in pairs)
        lines = "\n".join(f"{item}: {agent}" for item, agent in pairs)
        backwards = ", ".join(f"{item}: {agent}" for item, agent in reversed(pairs))
        return [*super().spellings(problem), equals, lines, backwards, f"Answer: {equals}.", f"\\boxed{{{equals}}}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values, criterion = problem.data["values"], problem.data["criterion"]
        agents = AGENTS[: len(values)]
        candidates = [greedy_owners(values), round_robin_owners(values), [0] * len(values[0])]
        wrong = [", ".join(f"{string.ascii_uppercase[k]}: {agents[o]}" for k, o in enumerate(c)) for c in candidates
                 if shortfall(values, c, criterion) is not None]
        return [*wrong, f"{problem.answer} or {wrong[0]}"]
