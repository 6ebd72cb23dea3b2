"""Red team, round 3 session 38: interactive/equation_steps's process reward.

Version 2 paid half of the reward along the way for shrinking lines (nodes in their expression trees), which tops
out before the last step (``-6x = 9`` is no bigger than ``x = -3/2``): a policy that made one or two valid steps
and stopped earned 0.44 / 0.41 / 0.45 / 0.33 / 0.42 at levels 0-4 (40 seeds), one subtraction alone 0.44 at level 0.
Version 3 pays a quarter along the way, measured in the oracle's steps still needed and only for a new best: the
same stopping policies earn 0.13 / 0.13 / 0.17 / 0.14 / 0.17, and a clean solution still earns exactly 1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.interactive import equation_steps

ENV = "interactive/equation_steps"
SEEDS = 15


def _sides(equation: str):
    left, right = equation_steps._read_line(equation)
    return equation_steps._affine(left), equation_steps._affine(right)


def _isolate(state) -> str:
    """One subtraction straight to ``k x = m`` (a single step by the env's rules)."""
    (a, b), (c, d) = _sides(state["equation"])
    return f"{equation_steps._affine_text(a - c, Fraction(0))} = {equation_steps._number_text(d - b)}"


def _play(source, problem, choose) -> float:
    """The total reward of ``choose(state, turn) -> move or None (stop)`` played from the start."""
    state, total = source.initial_state(problem), 0.0
    for turn in range(source.max_turns(problem)):
        move = choose(state, turn)
        if move is None:
            break
        outcome = source.play(problem, state, move)
        total, state = total + outcome.verdict.reward, outcome.state
        if outcome.done:
            break
    return total


def _oracle_until_one_step_left(source, problem):
    def choose(state, turn):
        move = source.oracle(problem, state)
        return None if equation_steps._solved(*equation_steps._read_line(move)) else move
    return choose


@pytest.mark.parametrize("policy", ["oracle until one step is left", "isolate x once"])
def test_stopping_before_the_solution_earns_little(policy):
    source = make_source(ENV)
    for level in range(5):
        totals = []
        for seed in range(SEEDS):
            problem = source.sample(level, seed)
            choose = (_oracle_until_one_step_left(source, problem) if policy.startswith("oracle")
                      else lambda state, turn: _isolate(state) if turn == 0 else None)
            totals.append(_play(source, problem, choose))
        assert max(totals) <= 0.17 and (level > 1 or max(totals) <= 0.125 + 1e-9), (level, max(totals))


def test_going_back_and_forth_pays_progress_once():
    """Alternately double both sides (written unexpanded) and collect them halved back: only the first collection
    can pay, however many turns the back and forth lasts."""
    source = make_source(ENV)
    for level in range(5):
        for seed in range(SEEDS):
            problem = source.sample(level, seed)

            def choose(state, turn):
                (a, b), (c, d) = _sides(state["equation"])
                text = equation_steps._affine_text
                if turn % 2 == 0:
                    return f"2*({text(a, b)}) + 0 = 2*({text(c, d)})"
                return f"{text(a / 2, b / 2)} = {text(c / 2, d / 2)}"

            first = _play(source, problem, lambda state, turn: choose(state, turn) if turn < 2 else None)
            assert _play(source, problem, choose) == first <= 0.25 / 3 + 1e-9


def test_a_clean_solution_earns_one_and_a_mistake_still_costs():
    source = make_source(ENV)
    for level in range(5):
        for seed in range(SEEDS):
            problem = source.sample(level, seed)
            clean = _play(source, problem, lambda state, turn: source.oracle(problem, state))
            assert clean == pytest.approx(1.0), (level, seed)
            slipped = _play(source, problem,
                            lambda state, turn: "x = 123456" if turn == 0 else source.oracle(problem, state))
            assert slipped == pytest.approx(0.75), (level, seed)
