"""Rules of move-sequence puzzles: replay a plan move by move, and search for an optimal plan.

An environment whose answer is a sequence of moves (a route through a maze, disk moves, sliding
tiles) describes its rules once as a :class:`Rules` subclass: the start state, why a move is
illegal in a state (or None), the state a move leads to, and the goal test. :meth:`Rules.run`
replays a plan and stops at the first illegal move, reporting its index and the reason, so a
verifier can say exactly what went wrong; :func:`shortest_plan` finds an optimal plan by A*
(breadth-first search when moves cost 1 and no heuristic is given) within a node budget, and
raises :class:`SearchBudgetExceeded` rather than run away.

States must be hashable (tuples, frozensets, ints, strings) and are never mutated.

Example (a counter that may add 1 or double, from 1 to 10)::

    >>> class Counter(Rules[int, str]):
    ...     def initial(self): return 1
    ...     def moves(self, state): return ("+1", "x2")
    ...     def check(self, state, move): return None if move in ("+1", "x2") else f"unknown move {move!r}"
    ...     def apply(self, state, move): return state + 1 if move == "+1" else state * 2
    ...     def goal(self, state): return state == 10
    >>> Counter().run(["+1", "x2", "+1", "x2"]).solved
    True
    >>> Counter().run(["x2", "-1"]).illegal
    Illegal(index=1, move='-1', reason="unknown move '-1'")
    >>> len(shortest_plan(Counter()))
    4
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S", bound=Hashable)
M = TypeVar("M")

DEFAULT_MAX_NODES = 200_000


class SearchBudgetExceeded(RuntimeError):
    """The search expanded ``max_nodes`` states without settling the optimum."""


@dataclass(frozen=True)
class Illegal(Generic[M]):
    """The first illegal move of a plan: its 0-based position, the move, and why it is illegal."""

    index: int
    move: M
    reason: str


@dataclass(frozen=True)
class Run(Generic[S, M]):
    """The outcome of replaying a plan.

    ``state`` is the state after the last legal move; ``moves`` how many moves were applied;
    ``cost`` their total cost; ``illegal`` the first illegal move (None when every move was legal);
    ``solved`` whether every move was legal and the final state is a goal.
    """

    state: S
    moves: int
    cost: int
    illegal: Illegal[M] | None
    solved: bool


class Rules(Generic[S, M]):
    """The rules of one puzzle instance. Subclasses define ``initial``, ``moves``, ``check``,
    ``apply`` and ``goal``; ``cost`` (default 1 per move) and ``heuristic`` (default 0; it must
    never overestimate the remaining cost) are optional."""

    def initial(self) -> S:
        """The start state."""
        raise NotImplementedError

    def moves(self, state: S) -> Iterable[M]:
        """Candidate moves in ``state`` for search (illegal ones are filtered through ``check``)."""
        raise NotImplementedError

    def check(self, state: S, move: M) -> str | None:
        """Why ``move`` is illegal in ``state``, or None when it is legal."""
        raise NotImplementedError

    def apply(self, state: S, move: M) -> S:
        """The state a legal ``move`` leads to (a new state; never mutate ``state``)."""
        raise NotImplementedError

    def goal(self, state: S) -> bool:
        raise NotImplementedError

    def cost(self, state: S, move: M) -> int:
        return 1

    def heuristic(self, state: S) -> int:
        return 0

    def legal(self, state: S, move: M) -> bool:
        return self.check(state, move) is None

    def run(self, plan: Iterable[M], state: S | None = None) -> Run[S, M]:
        """Replay ``plan`` from ``state`` (default: the start), stopping at the first illegal move."""
        current = self.initial() if state is None else state
        cost = 0
        applied = 0
        for index, move in enumerate(plan):
            reason = self.check(current, move)
            if reason is not None:
                return Run(current, applied, cost, Illegal(index, move, reason), False)
            cost += self.cost(current, move)
            current = self.apply(current, move)
            applied += 1
        return Run(current, applied, cost, None, self.goal(current))


def shortest_plan(rules: Rules[S, M], start: S | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> list[M] | None:
    """A cheapest plan from ``start`` (default: the start state) to a goal, or None if none exists.

    A* with the rules' heuristic (admissible heuristics give optimal plans; the default 0 gives
    uniform-cost search, i.e. breadth-first order for unit costs). Ties break by insertion order,
    so the plan found is deterministic. Raises :class:`SearchBudgetExceeded` after expanding
    ``max_nodes`` states.
    """
    origin = rules.initial() if start is None else start
    best = {origin: 0}
    parent: dict[S, tuple[S, M]] = {}
    frontier = [(rules.heuristic(origin), 0, 0, origin)]
    pushed = 1
    expanded = 0
    while frontier:
        _, cost, _, state = heapq.heappop(frontier)
        if cost > best[state]:
            continue  # a stale entry: a cheaper way to this state was found after it was queued
        if rules.goal(state):
            plan: list[M] = []
            while state != origin:
                state, move = parent[state]
                plan.append(move)
            return plan[::-1]
        expanded += 1
        if expanded > max_nodes:
            raise SearchBudgetExceeded(f"no optimal plan settled within {max_nodes} expanded states")
        for move in rules.moves(state):
            if rules.check(state, move) is not None:
                continue
            nxt = rules.apply(state, move)
            nxt_cost = cost + rules.cost(state, move)
            if nxt_cost < best.get(nxt, nxt_cost + 1):
                best[nxt] = nxt_cost
                parent[nxt] = (state, move)
                heapq.heappush(frontier, (nxt_cost + rules.heuristic(nxt), nxt_cost, pushed, nxt))
                pushed += 1
    return None


def optimal_cost(rules: Rules[S, M], start: S | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> int | None:
    """The cost of a cheapest plan to a goal, or None when no goal is reachable."""
    origin = rules.initial() if start is None else start
    plan = shortest_plan(rules, origin, max_nodes)
    if plan is None:
        return None
    return rules.run(plan, origin).cost
