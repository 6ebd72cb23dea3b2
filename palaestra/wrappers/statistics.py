"""Per-env statistics of a (mixed) vector env: episodes, accuracy, mean reward and turns, errors.

Example::

    >>> import palaestra
    >>> envs = EnvStatistics(palaestra.make_vec(["arithmetic/expression", "games/guess_number"], num_envs=4))
    >>> _ = envs.reset(seed=0)
    >>> _ = envs.step(["<answer>0</answer>"] * 4)
    >>> envs.summary()["arithmetic/expression"]["episodes"]
    2
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import VectorWrapper


class EnvStatistics(VectorWrapper):
    """Counts finished episodes per env id (errors apart: they are not judged)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self._turns = np.zeros(env.num_envs, dtype=np.int64)
        self._returns = np.zeros(env.num_envs, dtype=np.float64)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self._turns[:] = 0
        self._returns[:] = 0.0
        return self.env.reset(seed=seed, options=options)

    def step(self, actions: Sequence[str] | Mapping[int, str]) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        stepped = infos.get("stepped", np.ones(self.num_envs, dtype=bool))
        self._turns += stepped
        self._returns += rewards
        final = infos.get("final_info", infos)
        for i in np.flatnonzero(terminated | truncated):
            totals = self._totals[self.env.env_ids[i]]
            if "error" in final and final["_error"][i]:
                totals["errors"] += 1
            else:
                totals["episodes"] += 1
                totals["correct"] += bool("correct" in final and final["_correct"][i] and final["correct"][i])
                totals["reward"] += self._returns[i]
                totals["turns"] += self._turns[i]
            self._turns[i], self._returns[i] = 0, 0.0
        return obs, rewards, terminated, truncated, infos

    def summary(self) -> dict[str, dict[str, float]]:
        """Per env id: episodes, errors, accuracy, mean reward, mean turns."""
        out = {}
        for env_id, t in sorted(self._totals.items()):
            n = t["episodes"]
            out[env_id] = {"episodes": int(n), "errors": int(t["errors"]),
                           "accuracy": t["correct"] / n if n else 0.0, "mean_reward": t["reward"] / n if n else 0.0,
                           "mean_turns": t["turns"] / n if n else 0.0}
        return out
