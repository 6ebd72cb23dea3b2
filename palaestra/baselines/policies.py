"""Reference policies that need no model: the oracle and a random guesser.

A policy maps ``(env, observation, info)`` to a full response text. The oracle
answers with the reference answer (single-turn) or the env's own strategy
(multi-turn); the random policy answers with the reference answer of another
random problem of the same env and level, i.e. a well-formed guess, so its score
is the chance level of the task.

Example::

    >>> import palaestra
    >>> env = palaestra.make("arithmetic/expression")
    >>> obs, info = env.reset(seed=0)
    >>> _, reward, *_ = env.step(OraclePolicy()(env, obs, info))
    >>> reward
    1.0
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from palaestra.core.env import MultiTurnEnv, SingleTurnEnv, TextEnv
from palaestra.core.extract import wrap


class Policy(Protocol):
    name: str

    def __call__(self, env: TextEnv, observation: str, info: dict[str, Any]) -> str: ...


class OraclePolicy:
    name = "oracle"

    def __call__(self, env: TextEnv, observation: str, info: dict[str, Any]) -> str:
        if isinstance(env, MultiTurnEnv):
            return env.oracle_action()
        assert isinstance(env, SingleTurnEnv) and env.problem is not None and env.problem.answer is not None
        return env.task.format_answer(env.problem.answer)


class RandomPolicy:
    """Answers with the reference answer of a random other problem (same env, same level)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, env: TextEnv, observation: str, info: dict[str, Any]) -> str:
        assert env.problem is not None
        other = env.source.sample(env.problem.level, self.rng.randrange(2**31))
        return wrap(other.answer or "", env.answer_format)  # type: ignore[attr-defined]
