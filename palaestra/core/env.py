"""Text environments: ``gymnasium.Env[str, str]`` over procedurally generated problems.

:class:`TextEnv` holds what every palaestra env shares (text spaces, level,
seeding); :class:`SingleTurnEnv` turns any :class:`~palaestra.core.task.Task`
into an environment whose episode is one prompt and one answer.

Example::

    >>> import palaestra
    >>> env = palaestra.make("arithmetic/expression", level=1)
    >>> prompt, info = env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.step(f"<answer>{info['problem'].answer}</answer>")
    >>> reward, terminated
    (1.0, True)
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from palaestra.core.problem import Problem, Verdict
from palaestra.core.spaces import FreeText
from palaestra.core.task import ProblemSource, Task

SEED_RANGE = 2**31 - 1


class TextEnv(gym.Env[str, str]):
    """Base of every palaestra env: text spaces, a difficulty level and problem seeding.

    ``reset(seed=s)`` generates problem ``s``; ``reset()`` without a seed draws the
    next problem seed from the env's own ``np_random``. ``options={"level": L}``
    changes the level from then on; ``options={"problem_seed": s}`` generates
    problem ``s`` without reseeding ``np_random`` (for callers that own seeding,
    such as vector envs, and skip the cost of a new NumPy generator per episode).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, level: int = 0, render_mode: str | None = None) -> None:
        self.observation_space = FreeText()
        self.action_space = FreeText()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.level = level
        self.problem: Problem | None = None
        self._transcript: list[str] = []

    @property
    def source(self) -> ProblemSource:
        raise NotImplementedError

    def _next_problem(self, seed: int | None, options: dict[str, Any] | None) -> Problem:
        super().reset(seed=seed)
        level = options.get("level", self.level) if options else self.level
        if options and "problem_seed" in options:  # chosen by a caller that owns seeding (vector envs)
            problem_seed = options["problem_seed"]
        else:
            problem_seed = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
        self.problem = self.source.sample(level, problem_seed)  # validates the level first
        self.level = level
        self._identity = {"env_id": self.problem.env_id, "level": level, "seed": problem_seed}
        return self.problem

    def _identity_info(self) -> dict[str, Any]:
        return dict(self._identity)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return "\n\n".join(self._transcript)
        return None


class SingleTurnEnv(TextEnv):
    """One prompt, one answer: ``step`` verifies the response and terminates."""

    def __init__(self, task: Task, level: int = 0, render_mode: str | None = None) -> None:
        super().__init__(level=level, render_mode=render_mode)
        self.task = task
        task.level_config(level)  # fail fast on a bad level

    @property
    def source(self) -> Task:
        return self.task

    @property
    def answer_format(self) -> str:
        return self.task.answer_format

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        problem = self._next_problem(seed, options)
        self._transcript = [problem.prompt]
        return problem.prompt, {**self._identity_info(), "problem": problem}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.problem is None:
            raise RuntimeError("call reset() before step()")
        text = action if isinstance(action, str) else str(action)
        verdict: Verdict = self.task.check(self.problem, text)
        self._transcript += [text, verdict.feedback]
        info = {**self._identity_info(), "verdict": verdict, "correct": verdict.correct, "parsed": verdict.parsed}
        return verdict.feedback, float(verdict.reward), True, False, info
