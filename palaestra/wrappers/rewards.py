"""Reward wrappers: a format reward for well-formed answers, and noisy rewards for noisy-verifier studies.

Both keep the env's own verdict in ``info["verdict"]`` and record what they changed, and both leave
unjudged steps (``info["error"]``) alone: an infrastructure error earns nothing and flips nothing.

Example::

    >>> import palaestra
    >>> env = FormatReward(palaestra.make("arithmetic/expression"), weight=0.1)
    >>> _ = env.reset(seed=0)
    >>> env.step("<answer>-1</answer>")[1]      # wrong but well-formed: the format share only
    0.1
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from palaestra.core.seeding import derive_seed


class FormatReward(gym.Wrapper[str, str, str, str]):
    """``reward' = (1 - weight) * reward + weight * [an answer could be extracted and read]``.

    The result stays in [0, 1]; ``info["format_reward"]`` is the format part (0 or ``weight``).
    """

    def __init__(self, env: gym.Env, weight: float = 0.1) -> None:
        super().__init__(env)
        if not 0.0 <= weight <= 1.0:
            raise ValueError("weight must be in [0, 1]")
        self.weight = weight

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if "error" in info:
            return obs, reward, terminated, truncated, info
        bonus = self.weight if info.get("parsed") else 0.0
        shaped = (1.0 - self.weight) * reward + bonus
        return obs, shaped, terminated, truncated, {**info, "format_reward": bonus}


class NoisyReward(gym.Wrapper[str, str, str, str]):
    """Flip a judged step's reward (``r -> 1 - r``) with probability ``p``, deterministically per (seed, step).

    ``info["clean_reward"]`` keeps the true reward and ``info["flipped"]`` says whether it was flipped;
    the noise depends only on ``noise_seed``, the episode's identity and the turn, so runs reproduce.
    """

    def __init__(self, env: gym.Env, p: float, noise_seed: int = 0) -> None:
        super().__init__(env)
        if not 0.0 <= p <= 1.0:
            raise ValueError("p must be in [0, 1]")
        self.p = p
        self.noise_seed = noise_seed
        self._turn = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        self._turn = 0
        return self.env.reset(seed=seed, options=options)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._turn += 1
        if "error" in info:
            return obs, reward, terminated, truncated, info
        key = derive_seed("noise", self.noise_seed, info.get("env_id"), info.get("level"), info.get("seed"), self._turn)
        flipped = (key % 1_000_000) / 1_000_000 < self.p
        noisy = 1.0 - reward if flipped else reward
        return obs, noisy, terminated, truncated, {**info, "clean_reward": reward, "flipped": flipped}
