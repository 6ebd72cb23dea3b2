"""Adaptive curricula: move each env's level up when the model is good at it, down when it struggles.

A :class:`Curriculum` keeps, per env id, the current level and the outcomes of recent episodes at
that level. After ``window`` episodes at a level it raises the level when the accuracy reached
``raise_at`` and lowers it when the accuracy fell to ``lower_at`` (RLVE-style curricula only raise;
lowering keeps a model that regressed from staring at problems it cannot solve). The top level is
each env's own: its last named preset for a bounded env, none for an unbounded one (its levels past
the presets are computed by a rule, so the curriculum keeps raising while the model keeps up);
``max_level`` caps every env at once. Episodes that hit
an infrastructure error are not counted. Its state is a small JSON-native dict, saved and restored
with the trainer's checkpoint.

Use it with a single env (:class:`CurriculumWrapper`), a vector env
(:class:`CurriculumVectorWrapper`) or a trainer's dataset builder (ask ``curriculum.level(env_id)``
when making the next problems, and feed results back with ``curriculum.record``).

Example::

    >>> curriculum = Curriculum(window=4, raise_at=0.75, lower_at=0.25, max_level=4)
    >>> for correct in (True, True, True, False):
    ...     _ = curriculum.record("arithmetic/expression", correct)
    >>> curriculum.level("arithmetic/expression")
    1
    >>> Curriculum.from_state(curriculum.state()).level("arithmetic/expression")
    1
    >>> Curriculum(max_level=6).top_level("graphs/bridges")  # without max_level: None when the env is unbounded
    6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import VectorWrapper


@dataclass
class Curriculum:
    """Per-env-id levels moved by windowed accuracy (see the module docstring)."""

    window: int = 64
    raise_at: float = 0.8
    lower_at: float = 0.3
    min_level: int = 0
    max_level: int | None = None  # None: each env's own top level (none for an unbounded env)
    start_level: int = 0
    levels: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, list[bool]] = field(default_factory=dict)
    history: list[tuple[str, int, int]] = field(default_factory=list)  # (env id, episode count, new level)
    episodes: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.lower_at < self.raise_at <= 1.0:
            raise ValueError("need 0 <= lower_at < raise_at <= 1")
        if self.window < 1 or self.start_level < self.min_level or (
                self.max_level is not None and self.start_level > self.max_level):
            raise ValueError("need window >= 1 and min_level <= start_level <= max_level")

    def level(self, env_id: str) -> int:
        return self.levels.get(env_id, self.start_level)

    def top_level(self, env_id: str) -> int | None:
        """The highest level ``env_id`` may reach: ``max_level`` if set, else the env's last preset (None: unbounded)."""
        if self.max_level is not None:
            return self.max_level
        from palaestra.core.registry import registry

        spec = registry[env_id]
        return None if spec.unbounded else spec.levels - 1

    def record(self, env_id: str, correct: bool, error: bool = False) -> int:
        """Count one finished episode at the env's current level; returns the (possibly new) level."""
        if error:
            return self.level(env_id)
        self.episodes += 1
        recent = self.outcomes.setdefault(env_id, [])
        recent.append(bool(correct))
        if len(recent) < self.window:
            return self.level(env_id)
        accuracy = sum(recent) / len(recent)
        current = self.level(env_id)
        new = current
        top = self.top_level(env_id)
        if accuracy >= self.raise_at:
            new = current + 1 if top is None else min(current + 1, top)
        elif accuracy <= self.lower_at:
            new = max(current - 1, self.min_level)
        recent.clear()  # a fresh window at the (possibly same) level
        if new != current:
            self.levels[env_id] = new
            self.history.append((env_id, self.episodes, new))
        return new

    def state(self) -> dict[str, Any]:
        """JSON-native state for a checkpoint."""
        return {"window": self.window, "raise_at": self.raise_at, "lower_at": self.lower_at,
                "min_level": self.min_level, "max_level": self.max_level, "start_level": self.start_level,
                "levels": dict(self.levels), "outcomes": {k: list(v) for k, v in self.outcomes.items()},
                "history": [list(h) for h in self.history], "episodes": self.episodes}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Curriculum:
        fields = dict(state)
        fields["history"] = [tuple(h) for h in fields.get("history", [])]
        return cls(**fields)


class CurriculumWrapper(gym.Wrapper[str, str, str, str]):
    """A single env whose every reset uses the curriculum's level for its env id.

    >>> import palaestra
    >>> env = CurriculumWrapper(palaestra.make("arithmetic/expression"), Curriculum(window=2, max_level=4))
    >>> _ = env.reset(seed=0)
    """

    def __init__(self, env: gym.Env, curriculum: Curriculum) -> None:
        super().__init__(env)
        self.curriculum = curriculum

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        env_id = self.env.unwrapped.source.id
        options = {**(options or {}), "level": self.curriculum.level(env_id)}
        return self.env.reset(seed=seed, options=options)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            self.curriculum.record(info["env_id"], bool(info.get("correct")), "error" in info)
        return obs, reward, terminated, truncated, info


class CurriculumVectorWrapper(VectorWrapper):
    """A palaestra vector env whose sub-envs start each new episode at the curriculum's level for their id."""

    def __init__(self, env: Any, curriculum: Curriculum) -> None:
        super().__init__(env)
        self.curriculum = curriculum
        self._apply_levels()

    def _apply_levels(self) -> None:
        self.env.set_levels({i: self.curriculum.level(env_id) for i, env_id in enumerate(self.env.env_ids)})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self._apply_levels()
        return self.env.reset(seed=seed, options=options)

    def step(self, actions: Sequence[str] | Mapping[int, str]) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        final = infos.get("final_info", infos)
        for i in np.flatnonzero(terminated | truncated):
            correct = bool(final["correct"][i]) if "correct" in final and final["_correct"][i] else False
            error = "error" in final and bool(final["_error"][i])
            self.curriculum.record(self.env.env_ids[i], correct, error)
        self._apply_levels()  # takes effect at each sub-env's next reset
        return obs, rewards, terminated, truncated, infos
