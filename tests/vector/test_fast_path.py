"""The in-process fast path of ``TextVectorEnv.step`` against the general path: the same episodes.

A sync vector env stepped with a list of actions takes the fast path (each env plays its turn
directly, info arrays built from the verdicts); the same actions as a dict ``{index: action}``
take the general path (commands to the shard, one info dict per env, batched key by key). Two
vector envs built alike and fed the same actions must return the same observations, rewards,
flags and infos, key by key, dtype by dtype, value by value -- through wins, losses, unreadable
moves, errors, a step that raises, autoresets and a change of level.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import palaestra
from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.registry import registry

sys.path.insert(0, str(Path(__file__).parent))
import faulty_envs  # noqa: E402,F401  (registers faulty/echo: "raise" makes its verifier raise)


class _Exploding(MultiTurnTask):
    """Counts to three; the reply "explode" makes the env's step itself raise (not the rules' play)."""

    id = "faulty/explode"
    family = "faulty"
    description = "Say 'next' three times; 'explode' raises outside the rules."
    Config = faulty_envs.Cfg

    def config(self, level: int) -> faulty_envs.Cfg:
        return faulty_envs.Cfg(level + 3)

    def generate(self, rng: random.Random, config: faulty_envs.Cfg) -> Problem:
        return Problem(prompt=f"Say next {config.size} times.", answer="next", data={"size": config.size})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["size"] + 1

    def initial_state(self, problem: Problem) -> dict[str, int]:
        return {"said": 0}

    def advance(self, problem: Problem, state: Any, response: str) -> Outcome:
        if "explode" in response:
            raise RuntimeError("the env itself failed")
        return super().advance(problem, state, response)

    def play(self, problem: Problem, state: dict[str, int], move: str) -> Outcome:
        if move != "next":
            return Outcome.invalid(state, "say next")
        said = state["said"] + 1
        if said == problem.data["size"]:
            return Outcome({"said": said}, Verdict.right(), "Done!", True)
        return Outcome.goes_on({"said": said}, f"{said} said.")

    def oracle(self, problem: Problem, state: dict[str, int]) -> str:
        return "next"


if "faulty/explode" not in registry:
    register(_Exploding)

SUITES = {
    "single-turn": ["arithmetic/expression", "graphs/shortest_path"],
    "multi-turn": ["games/guess_number", "games/mastermind", "games/tic_tac_toe", "faulty/explode"],
    "mixed": ["games/guess_number", "arithmetic/expression", "games/nim", "faulty/echo", "faulty/explode"],
    "guess_number": ["games/guess_number"],
}


def assert_same(fast: Any, general: Any, where: str) -> None:
    if isinstance(fast, dict):
        assert isinstance(general, dict) and sorted(fast) == sorted(general), f"{where}: keys differ"
        for key in fast:
            assert_same(fast[key], general[key], f"{where}[{key!r}]")
    elif isinstance(fast, tuple):
        assert isinstance(general, tuple) and len(fast) == len(general), f"{where}: lengths differ"
        for k, (a, b) in enumerate(zip(fast, general)):
            assert_same(a, b, f"{where}[{k}]")
    elif isinstance(fast, np.ndarray):
        assert isinstance(general, np.ndarray) and fast.dtype == general.dtype, f"{where}: dtype differs"
        assert fast.shape == general.shape and fast.tolist() == general.tolist(), f"{where}: values differ"
    else:
        assert type(fast) is type(general) and fast == general, f"{where}: differs"


def action_for(env: Any, rng: random.Random) -> str:
    """A reply drawn at random among the oracle's move, a wrong or unreadable one, and the failure triggers."""
    kind = rng.random()
    if kind < 0.4 and getattr(env, "_active", False) and hasattr(env, "oracle_action"):
        return env.oracle_action()
    if kind < 0.55 and env.problem is not None and env.problem.answer is not None:
        return f"<answer>{env.problem.answer}</answer>"
    if kind < 0.6:
        return "<answer>raise</answer>" if env.problem.env_id == "faulty/echo" else "explode"
    if kind < 0.8:
        return f"<answer>{rng.randrange(1, 1000)}</answer>"
    return rng.choice(["no tags here", "<answer></answer>", "<answer>a1 and b2</answer>", "<answer>next</answer>"])


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_fast_path_plays_the_same_episodes_as_the_general_path(suite: str) -> None:
    ids, num_envs = SUITES[suite], 12
    fast, general = (palaestra.make_vec(ids, num_envs=num_envs, mode="sync") for _ in range(2))
    try:
        assert fast._local_envs is not None
        rng = random.Random(suite)
        for seed, level in ((5, 0), (6, 1)):
            observed = fast.reset(seed=seed, options={"level": level}), general.reset(seed=seed, options={"level": level})
            assert_same(observed[0], observed[1], "reset")
            ended = 0
            for step in range(40):
                actions = [action_for(env, rng) for env in fast._local_envs]
                out_fast = fast.step(actions)
                out_general = general.step(dict(enumerate(actions)))
                assert_same(out_fast, out_general, f"{suite} seed {seed} step {step}")
                ended += int((out_fast[2] | out_fast[3]).sum())
            assert ended > 0  # autoresets happened
    finally:
        fast.close()
        general.close()


def test_fast_path_covers_errors_and_raising_steps() -> None:
    """The failure branches the comparison above relies on are really taken."""
    envs = palaestra.make_vec(["faulty/echo", "faulty/explode"], num_envs=2, mode="sync")
    try:
        envs.reset(seed=0)
        _, rewards, terminated, truncated, infos = envs.step(["<answer>raise</answer>", "explode"])
        assert truncated.tolist() == [True, True] and terminated.tolist() == [False, False]
        assert "verifier raised RuntimeError" in infos["final_info"]["error"][0]
        assert infos["final_info"]["error"][1] == "env raised RuntimeError: the env itself failed"
        assert infos["final_info"]["verdict"][1].error == infos["final_info"]["error"][1]
        assert infos["_problem"].tolist() == [True, True]  # both reset in the same step
    finally:
        envs.close()


def test_wrapped_or_tool_envs_take_the_general_path() -> None:
    from palaestra.wrappers import FormatReward  # any wrapper: the fast path needs the plain env

    wrapped = palaestra.make_vec("arithmetic/expression", num_envs=2, wrappers=[FormatReward])
    plain = palaestra.make_vec("arithmetic/expression", num_envs=2)
    try:
        assert wrapped._local_envs is None and plain._local_envs is not None
    finally:
        wrapped.close()
        plain.close()
