"""Evaluate policies on a suite of environments at fixed levels and seeds.

Every episode goes through the public Gymnasium API (``make``, ``reset``,
``step``), so an evaluation also exercises generation and verification for
real.

Example::

    >>> from palaestra.baselines.evaluate import evaluate
    >>> from palaestra.baselines.policies import OraclePolicy
    >>> rows = evaluate(["arithmetic/expression"], [OraclePolicy()], levels=[0, 1], seeds=range(3))
    >>> rows[0].accuracy
    1.0
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from palaestra.baselines.policies import Policy
from palaestra.core.registry import make, registry


@dataclass(frozen=True)
class EvalRow:
    env_id: str
    policy: str
    episodes: int
    solved: int
    mean_reward: float
    mean_turns: float
    seconds: float  # wall time of the env side (reset + step), excluding the policy

    @property
    def accuracy(self) -> float:
        return self.solved / self.episodes if self.episodes else 0.0


MAX_TURNS_GUARD = 1_000


def run_episodes(env_id: str, policy: Policy, levels: Iterable[int], seeds: Iterable[int]) -> EvalRow:
    env = make(env_id)
    episodes = solved = turns = 0
    total_reward = env_seconds = 0.0
    seeds = list(seeds)
    for level in levels:
        for seed in seeds:
            t0 = time.perf_counter()
            obs, info = env.reset(seed=seed, options={"level": level})
            env_seconds += time.perf_counter() - t0
            episode_reward, done, correct = 0.0, False, False
            for _ in range(MAX_TURNS_GUARD):
                action = policy(env, obs, info)
                t0 = time.perf_counter()
                obs, reward, terminated, truncated, info = env.step(action)
                env_seconds += time.perf_counter() - t0
                episode_reward += reward
                turns += 1
                correct = bool(info.get("correct"))
                if terminated or truncated:
                    done = True
                    break
            episodes += 1
            solved += int(done and correct)
            total_reward += episode_reward
    return EvalRow(env_id, policy.name, episodes, solved, total_reward / max(episodes, 1), turns / max(episodes, 1), env_seconds)


def evaluate(
    env_ids: Sequence[str] | None, policies: Sequence[Policy], levels: Iterable[int], seeds: Iterable[int]
) -> list[EvalRow]:
    """One row per (env, policy); levels beyond an env's range are skipped."""
    rows = []
    seeds = list(seeds)
    for env_id in env_ids or registry.ids():
        env_levels = [lv for lv in levels if lv < registry[env_id].levels]
        rows += [run_episodes(env_id, policy, env_levels, seeds) for policy in policies]
    return rows
