"""interactive/equation_steps keeps the equation as read, not the move's raw text: a move in ``\\boxed{}``, bold
with "Move:", or with a closing full stop leaves the same state as the bare equation (the raw text was shown back
as "The equation is still: \\boxed{...}" and the oracle could not read it)."""

from __future__ import annotations

from palaestra.core.multiturn import snapshot
from palaestra.core.registry import make_source


def test_a_wrapped_move_leaves_the_state_the_bare_move_leaves() -> None:
    env = make_source("interactive/equation_steps")
    for seed in range(4):
        problem = env.sample(1, seed)
        move = env.oracle(problem, env.initial_state(problem))
        bare = env.advance(problem, env.initial_state(problem), env.format_answer(move))
        for spelling in (f"{move}.", f"\\boxed{{{move}}}", f"**Move: {move}**"):
            wrapped = env.advance(problem, env.initial_state(problem), env.format_answer(spelling))
            assert snapshot(wrapped.state) == snapshot(bare.state), spelling
            assert wrapped.verdict.reward == bare.verdict.reward
            if not wrapped.done:  # the oracle goes on from the state as it would from the bare move's
                assert env.oracle(problem, wrapped.state) == env.oracle(problem, bare.state)
