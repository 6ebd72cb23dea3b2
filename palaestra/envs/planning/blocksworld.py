"""Blocksworld in PDDL: restack towers of blocks with a one-handed robot arm.

The domain is the classic four-operator one (``pick-up``, ``put-down``, ``stack``, ``unstack``);
the start and the goal are two different random arrangements of the blocks into towers, the goal
giving every block's support. The prompt shows the domain and the problem as PDDL; the answer is
a plan in PDDL plan syntax, replayed by the STRIPS simulator of
:mod:`palaestra.envs.planning._strips` (any valid plan scores at levels 0-1; from level 2 the plan
must also be as short as possible).

Shortest plans come from A* over *block moves* (a block taken from its support and put on the
table or on a clear block), with the admissible heuristic "blocks not yet on a correct tower
base, each must move at least once, twice if it already sits on its goal support". A
four-operator plan alternates picking a block up and putting it down, and a pick-up followed
by putting the block back where it was is wasted, so
the shortest plan has exactly two actions per block move of a shortest move plan (the tests
check it against breadth-first search over the ground STRIPS actions).

The textbook greedy (Gupta and Nau's GN1: move a block onto its final place while one can go, else put
some clear misplaced block on the table) is optimal whenever no deadlock forces a choice, and it found
a shortest plan for 87% of level-4 problems. So from level 2 (where plans must be shortest) a draw is
kept only when the greedy, choosing the block for the table at random, finds a shortest plan with chance
at most ``GREEDY_OPTIMAL_CHANCE`` (computed exactly over its choices): the choice matters and most
choices are wrong. Its shortest outcome is the optimum (moving a block onto its final place is never a
mistake, and a block that must move elsewhere first is best put on the table), so the chance is read
off its choices before any search.

Generation speed: about 220 problems/s at level 4 on this 2-core machine. About 9 of 10 draws are redrawn
because the textbook greedy (GN1) would find a shortest plan too often (its chance is computed exactly over
its choices, cheaply), and each kept draw is solved by A* over block moves (about 70% of the time) for the
shortest length that levels 2-4 grade against.
"""

from __future__ import annotations

import math
import random
import string
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from palaestra.core import Problem, register, retry
from palaestra.envs.planning._strips import Action, Domain, Instance, PlanTask, Schema
from palaestra.solvers.simulate import Rules, SearchBudgetExceeded, shortest_plan

SEARCH_BUDGET = 20_000  # expanded states; the largest level needs a few hundred on average
GREEDY_OPTIMAL_CHANCE = Fraction(1, 4)  # the most chance the textbook greedy, choosing at random, may have of a
# shortest plan at the levels that ask for one
TABLE = -1

Arrangement = tuple[int, ...]  # below[i]: the block under block i, or TABLE


@cache
def blocksworld_domain() -> Domain:
    x, y = ("?x", "block"), ("?y", "block")
    return Domain(
        "blocksworld",
        (("block", "object"),),
        (("on", (x, y)), ("ontable", (x,)), ("clear", (x,)), ("handempty", ()), ("holding", (x,))),
        (
            Schema("pick-up", (x,), (("clear", "?x"), ("ontable", "?x"), ("handempty",)),
                   (("holding", "?x"),), (("ontable", "?x"), ("clear", "?x"), ("handempty",))),
            Schema("put-down", (x,), (("holding", "?x"),),
                   (("clear", "?x"), ("handempty",), ("ontable", "?x")), (("holding", "?x"),)),
            Schema("stack", (x, y), (("holding", "?x"), ("clear", "?y")),
                   (("clear", "?x"), ("handempty",), ("on", "?x", "?y")), (("holding", "?x"), ("clear", "?y"))),
            Schema("unstack", (x, y), (("on", "?x", "?y"), ("clear", "?x"), ("handempty",)),
                   (("holding", "?x"), ("clear", "?y")), (("on", "?x", "?y"), ("clear", "?x"), ("handempty",))),
        ),
    )


@register
class Blocksworld(PlanTask):
    id = "planning/blocksworld"
    version = 3
    family = "planning"
    description = "Find a (shortest) plan for a Blocksworld problem given in PDDL."
    tags = ("planning", "pddl", "strips")
    domain = blocksworld_domain()
    example = (("unstack", ("b", "a")), ("put-down", ("b",)))

    @dataclass(frozen=True)
    class Config:
        blocks: int
        optimal: bool  # the plan must have the minimum number of actions

    presets = (
        Config(blocks=4, optimal=False),
        Config(blocks=5, optimal=False),
        Config(blocks=6, optimal=True),
        Config(blocks=7, optimal=True),
        Config(blocks=8, optimal=True),
    )
    bounded = "past the presets generation gets too slow (over 1 s of CPU at level 8)"

    def space_size(self, level: int) -> int | None:
        """Level 0: every ordered pair of different arrangements of 4 blocks (73 of them)."""
        return 73 * 72 if level == 0 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.blocks

        def draw() -> tuple[Arrangement, Arrangement, list[tuple[int, int]]] | None:
            start, goal = _arrangement(rng, n), _arrangement(rng, n)
            if start == goal:
                return None
            greedy = greedy_lengths(start, goal) if config.optimal else {}
            if greedy and greedy[min(greedy)] > GREEDY_OPTIMAL_CHANCE:
                return None  # its best choices are optimal (see the module docstring): no search needed to reject
            try:
                moves = shortest_plan(BlockMoves(start, goal), max_nodes=SEARCH_BUDGET)
            except SearchBudgetExceeded:
                return None
            if moves is None or (greedy and greedy.get(len(moves), 0) > GREEDY_OPTIMAL_CHANCE):
                return None  # a safeguard: the search is the reference
            return start, goal, moves

        start, goal, moves = retry(draw, attempts=2_000,
                                   what="two arrangements with a plan found within the search budget"
                                   + (" that the greedy rule rarely solves" if config.optimal else ""))
        names = string.ascii_lowercase[:n]
        instance = Instance(f"blocks-{n}", self.domain, tuple((b, "block") for b in names),
                            frozenset(_atoms(start, names) | {("handempty",)}), tuple(sorted(_goal_atoms(goal, names))))
        plan = _actions(start, moves, names)
        preamble = f"A robot arm restacks {n} blocks. Here is the planning task in PDDL."
        return self.problem_for(instance, plan, config.optimal, preamble)


class BlockMoves(Rules[Arrangement, tuple[int, int]]):
    """Block moves between arrangements: a clear block goes to the table or onto another clear block."""

    def __init__(self, start: Arrangement, goal: Arrangement) -> None:
        self.start, self.target = start, goal
        self.well = [False] * len(goal)  # scratch space of the heuristic
        height = [0] * len(goal)
        for block in range(len(goal)):
            below = goal[block]
            for _ in range(len(goal)):
                if below == TABLE:
                    break
                height[block] += 1
                below = goal[below]
        self.bottom_up = sorted(range(len(goal)), key=height.__getitem__)

    def initial(self) -> Arrangement:
        return self.start

    def moves(self, state: Arrangement) -> list[tuple[int, int]]:
        covered = set(state)
        clear = [b for b in range(len(state)) if b not in covered]
        moves = [(b, TABLE) for b in clear if state[b] != TABLE]
        moves += [(b, c) for b in clear for c in clear if c != b and state[b] != c]
        return moves

    def check(self, state: Arrangement, move: tuple[int, int]) -> str | None:
        return None  # moves() yields legal moves only

    def apply(self, state: Arrangement, move: tuple[int, int]) -> Arrangement:
        block, support = move
        return state[:block] + (support,) + state[block + 1 :]

    def goal(self, state: Arrangement) -> bool:
        return state == self.target

    def heuristic(self, state: Arrangement) -> int:
        """Each block not on a correct tower base must move: once, or twice when it already sits on its goal
        support (that support must move, so the block must leave it and come back)."""
        well = self.well
        total = 0
        for block in self.bottom_up:  # goal supports before the blocks on them
            support = state[block]
            if support == self.target[block]:
                well[block] = support == TABLE or well[support]
                total += 0 if well[block] else 2
            else:
                well[block] = False
                total += 1
        return total


def greedy_lengths(start: Arrangement, goal: Arrangement) -> dict[int, Fraction]:
    """How many block moves the textbook greedy makes (Gupta and Nau's GN1), with the chance of each: move a
    block onto its final place (the table, or a clear block on its final tower base) while one can go (the first
    such block: these moves are always safe); otherwise put a clear misplaced block that is not on the table onto
    the table, chosen uniformly at random (the choice that makes blocksworld hard)."""
    n = len(goal)

    def well_placed(state: Arrangement, block: int) -> bool:
        for _ in range(n):
            if state[block] != goal[block]:
                return False
            if state[block] == TABLE:
                return True
            block = state[block]
        return False

    @cache
    def lengths(state: Arrangement) -> tuple[tuple[int, Fraction], ...]:
        if state == goal:
            return ((0, Fraction(1)),)
        covered = set(state)
        clear = [b for b in range(n) if b not in covered and not well_placed(state, b)]
        final = [b for b in clear if goal[b] == TABLE or (goal[b] not in covered and well_placed(state, goal[b]))]
        choices = [(final[0], goal[final[0]])] if final else [(b, TABLE) for b in clear if state[b] != TABLE]
        total: dict[int, Fraction] = {}
        for block, support in choices:
            for length, chance in lengths(state[:block] + (support,) + state[block + 1:]):
                total[length + 1] = total.get(length + 1, Fraction(0)) + chance / len(choices)
        return tuple(sorted(total.items()))

    return dict(lengths(start))


def _arrangement(rng: random.Random, n: int) -> Arrangement:
    """A uniformly random arrangement of ``n`` blocks into towers.

    Arrangements into ``k`` towers number ``C(n-1, k-1) * n! / k!`` (Lah numbers); drawing ``k``
    with that weight, then a random order of the blocks cut at ``k - 1`` random places, reaches
    each of them through exactly ``k!`` equally likely draws.
    """
    weights = [math.comb(n - 1, k - 1) * math.factorial(n) // math.factorial(k) for k in range(1, n + 1)]
    towers = rng.choices(range(1, n + 1), weights)[0]
    order = rng.sample(range(n), n)
    cuts = set(rng.sample(range(1, n), towers - 1))
    below = [TABLE] * n
    for i in range(1, n):
        if i not in cuts:
            below[order[i]] = order[i - 1]
    return tuple(below)


def _atoms(below: Arrangement, names: str) -> set[tuple[str, ...]]:
    covered = set(below)
    atoms = {("clear", names[b]) for b in range(len(below)) if b not in covered}
    for b, support in enumerate(below):
        atoms.add(("ontable", names[b]) if support == TABLE else ("on", names[b], names[support]))
    return atoms


def _goal_atoms(below: Arrangement, names: str) -> set[tuple[str, ...]]:
    return {("ontable", names[b]) if s == TABLE else ("on", names[b], names[s]) for b, s in enumerate(below)}


def _actions(start: Arrangement, moves: list[tuple[int, int]], names: str) -> list[Action]:
    """The four-operator plan doing ``moves``: each move is a pick-up or unstack, then a put-down or stack."""
    plan: list[Action] = []
    state = start
    for block, support in moves:
        below = state[block]
        plan.append(("pick-up", (names[block],)) if below == TABLE else ("unstack", (names[block], names[below])))
        plan.append(("put-down", (names[block],)) if support == TABLE else ("stack", (names[block], names[support])))
        state = state[:block] + (support,) + state[block + 1 :]
    return plan
