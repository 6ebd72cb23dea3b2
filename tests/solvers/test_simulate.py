"""The plan replayer and the bounded optimal-plan search of palaestra.solvers.simulate."""

from __future__ import annotations

from collections import deque

import pytest

from palaestra.solvers.simulate import Illegal, Rules, SearchBudgetExceeded, optimal_cost, shortest_plan


class Jugs(Rules[tuple[int, int], str]):
    """Two jugs of 3 and 5 litres: fill, empty or pour one into the other until one holds 4."""

    capacity = (3, 5)
    MOVES = ("fill A", "fill B", "empty A", "empty B", "pour A B", "pour B A")

    def initial(self) -> tuple[int, int]:
        return (0, 0)

    def moves(self, state):
        return self.MOVES

    def check(self, state, move):
        if move not in self.MOVES:
            return f"unknown move {move!r}"
        a, b = state
        if move == "fill A" and a == 3 or move == "fill B" and b == 5:
            return "that jug is already full"
        if move == "empty A" and a == 0 or move == "empty B" and b == 0:
            return "that jug is already empty"
        if move == "pour A B" and (a == 0 or b == 5) or move == "pour B A" and (b == 0 or a == 3):
            return "nothing can be poured"
        return None

    def apply(self, state, move):
        a, b = state
        if move.startswith("fill"):
            return (3, b) if move.endswith("A") else (a, 5)
        if move.startswith("empty"):
            return (0, b) if move.endswith("A") else (a, 0)
        if move == "pour A B":
            poured = min(a, 5 - b)
            return (a - poured, b + poured)
        poured = min(b, 3 - a)
        return (a + poured, b - poured)

    def goal(self, state):
        return 4 in state


def brute_force_length(rules: Rules) -> int | None:
    """Plain breadth-first search over apply/check, independent of shortest_plan."""
    start = rules.initial()
    seen, queue = {start: 0}, deque([start])
    while queue:
        state = queue.popleft()
        if rules.goal(state):
            return seen[state]
        for move in rules.moves(state):
            if rules.check(state, move) is None:
                nxt = rules.apply(state, move)
                if nxt not in seen:
                    seen[nxt] = seen[state] + 1
                    queue.append(nxt)
    return None


def test_run_replays_a_plan_and_reports_the_first_illegal_move():
    rules = Jugs()
    plan = ["fill B", "pour B A", "empty A", "pour B A", "fill B", "pour B A"]
    run = rules.run(plan)
    assert run.solved and run.illegal is None and run.state == (3, 4) and run.moves == 6
    bad = rules.run(["fill B", "fill B", "empty A"])
    assert bad.illegal == Illegal(1, "fill B", "that jug is already full")
    assert bad.state == (0, 5) and bad.moves == 1 and not bad.solved
    assert rules.run(["fill A", "jump"]).illegal.reason == "unknown move 'jump'"
    assert not rules.run(["fill A"]).solved  # legal but not at a goal
    assert rules.run([], state=(4, 0)).solved


def test_shortest_plan_is_optimal_and_replays():
    rules = Jugs()
    plan = shortest_plan(rules)
    assert len(plan) == brute_force_length(rules) == 6
    assert rules.run(plan).solved
    assert optimal_cost(rules) == 6
    assert shortest_plan(rules, start=(3, 1)) == ["pour A B"]


class Line(Rules[int, int]):
    """Walk on 0..size-1 with steps of +1 (cost 1) or +3 (cost ``jump_cost``); goal: the last cell."""

    def __init__(self, size: int, jump_cost: int, guide: bool = False):
        self.size, self.jump_cost, self.guide = size, jump_cost, guide

    def initial(self):
        return 0

    def moves(self, state):
        return (1, 3)

    def check(self, state, move):
        return None if state + move < self.size else "off the end"

    def apply(self, state, move):
        return state + move

    def goal(self, state):
        return state == self.size - 1

    def cost(self, state, move):
        return 1 if move == 1 else self.jump_cost

    def heuristic(self, state):  # admissible: each cost unit covers at most one cell (jumps cost >= 3)
        return self.size - 1 - state if self.guide else 0


# the heuristic is admissible only when a jump costs at least 3
@pytest.mark.parametrize(("jump_cost", "guide"), [(1, False), (2, False), (3, False), (5, False), (3, True), (5, True)])
def test_weighted_moves_give_the_cheapest_plan_with_or_without_a_heuristic(jump_cost, guide):
    rules = Line(11, jump_cost, guide)
    best = min(ones + jump_cost * jumps for jumps in range(4) for ones in [10 - 3 * jumps] if ones >= 0)
    assert optimal_cost(rules) == best


def test_search_budget_and_unreachable_goals():
    with pytest.raises(SearchBudgetExceeded):
        shortest_plan(Line(100_000, 1), max_nodes=50)

    class Stuck(Line):
        def goal(self, state):
            return False

    assert shortest_plan(Stuck(20, 1)) is None
