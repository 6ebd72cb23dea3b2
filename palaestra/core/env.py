"""Text environments: ``gymnasium.Env[str, str]`` over procedurally generated problems.

:class:`TextEnv` holds what every palaestra env shares (text spaces, level, seeding,
the episode guard); :class:`SingleTurnEnv` serves every :class:`~palaestra.core.task.Task`
(one prompt, one answer) and :class:`MultiTurnEnv` every
:class:`~palaestra.core.multiturn.MultiTurnTask` (turns until the game ends or the budget
runs out). Every step's info holds the step's :class:`~palaestra.core.problem.Verdict`
under ``"verdict"`` and, when no verdict could be reached, the reason under ``"error"``.

Example::

    >>> import palaestra
    >>> env = palaestra.make("arithmetic/expression", level=1)
    >>> prompt, info = env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.step(f"<answer>{info['problem'].answer}</answer>")
    >>> reward, terminated, info["verdict"].correct
    (1.0, True, True)
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.error import ResetNeeded

from palaestra.core.multiturn import MultiTurnTask
from palaestra.core.problem import Problem, Verdict
from palaestra.core.spaces import FreeText
from palaestra.core.task import ProblemSource, Task

SEED_RANGE = 2**31 - 1
RESET_OPTIONS = frozenset({"level", "problem_seed", "prepared"})  # what reset(options=...) reads
# What a multi-turn observation ends with while the game goes on, by turns left (formatted once, not per step).
_TURNS_LEFT = tuple(f" ({left} turn{'s' if left != 1 else ''} left)" for left in range(64))


class TextEnv(gym.Env[str, str]):
    """Base of every palaestra env: text spaces, a difficulty level and problem seeding.

    ``reset(seed=s)`` generates problem ``s``; ``reset()`` without a seed draws the
    next problem seed from the env's own ``np_random``. ``options={"level": L}``
    changes the level from then on; ``options={"problem_seed": s}`` generates
    problem ``s`` without reseeding ``np_random`` (for callers that own seeding,
    such as vector envs, and skip the cost of a new NumPy generator per episode); with it,
    ``"prepared"`` may hold that very problem generated ahead (a vector env's worker does so while
    it waits; a problem of another identity is ignored and generated afresh).
    Stepping before ``reset`` or after the episode ended raises
    ``gymnasium.error.ResetNeeded``; an action that is not a ``str`` raises ``TypeError``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, source: ProblemSource, level: int = 0, render_mode: str | None = None) -> None:
        self.observation_space = FreeText()
        self.action_space = FreeText()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.source = source
        source.level_config(level)  # fail fast on a bad level
        self.level = level
        self.problem: Problem | None = None
        self._active = False
        self._identity: dict[str, Any] = {}
        self._transcript: list[str] = []  # kept only for render_mode="ansi" (the only reader)

    @property
    def answer_format(self) -> str:
        return self.source.answer_format

    def _next_problem(self, seed: int | None, options: dict[str, Any] | None) -> Problem:
        if options and not RESET_OPTIONS.issuperset(options):  # a misspelt "level" would be ignored without a word
            unknown = sorted(str(key) for key in options if key not in RESET_OPTIONS)
            raise ValueError(f"unsupported reset options {unknown}: use {{'level': N}} ('problem_seed' and 'prepared' "
                             "are a vector env's)")
        super().reset(seed=seed)
        level = options.get("level", self.level) if options else self.level
        if options and "problem_seed" in options:  # chosen by a caller that owns seeding (vector envs)
            problem_seed = options["problem_seed"]
        else:
            problem_seed = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
        prepared = options.get("prepared") if options else None
        if isinstance(prepared, Problem) and (prepared.env_id, prepared.level, prepared.seed, prepared.version) == (
                self.source.id, level, problem_seed, self.source.version):
            self.problem = prepared  # generated ahead by a vector env's worker while it waited: the same problem
        else:
            self.problem = self.source.sample(level, problem_seed)  # validates the level first
        self.level = level
        self._identity = {"env_id": self.problem.env_id, "level": level, "seed": problem_seed}
        self._active = True
        if self.render_mode == "ansi":
            self._transcript = [self.problem.prompt]
        return self.problem

    def _start_step(self, action: Any) -> Problem:
        if not isinstance(action, str):
            raise TypeError(f"an action must be a str (the model's text), got {type(action).__name__}")
        if not self._active or self.problem is None:
            raise ResetNeeded("call reset() before step(), and again after the episode ended")
        return self.problem

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, verdict = self.play_turn(action)
        return observation, reward, terminated, truncated, self.step_info(verdict)

    def play_turn(self, action: str) -> tuple[str, float, bool, bool, Verdict]:
        """``step`` without its info dict: ``(observation, reward, terminated, truncated, verdict)``.

        ``step`` is this plus :meth:`step_info`; a vector env stepping many envs in-process calls it and
        builds the batched info arrays from the verdicts directly (the info dicts are the costliest part
        of a cheap game's step), reading :meth:`step_info` only for the episodes that ended.
        """
        raise NotImplementedError

    def step_info(self, verdict: Verdict) -> dict[str, Any]:
        """The info dict ``step`` returns with ``verdict``: the episode's identity, the verdict and its flags."""
        info = {**self._identity, "verdict": verdict, "correct": verdict.correct, "parsed": verdict.parsed}
        if verdict.error is not None:
            info["error"] = verdict.error
        return info

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return "\n\n".join(self._transcript)
        return None


class SingleTurnEnv(TextEnv):
    """One prompt, one answer: ``step`` verifies the response and terminates."""

    source: Task

    def __init__(self, task: Task, level: int = 0, render_mode: str | None = None) -> None:
        super().__init__(task, level=level, render_mode=render_mode)

    @property
    def task(self) -> Task:
        return self.source

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        problem = self._next_problem(seed, options)
        return problem.prompt, {**self._identity, "problem": problem}

    def play_turn(self, action: str) -> tuple[str, float, bool, bool, Verdict]:
        problem = self._start_step(action)
        verdict = self.source.check(problem, action)
        self._active = False
        if self.render_mode == "ansi":
            self._transcript += [action, verdict.feedback]
        # An unjudged answer (error) truncates: the episode ended without a verdict.
        errored = verdict.error is not None
        return verdict.feedback, float(verdict.reward), not errored, errored, verdict


class MultiTurnEnv(TextEnv):
    """Turns until the game ends (terminated) or the turn budget runs out (truncated).

    Each step extracts the move from the model's text and plays it; a reply without
    an extractable move costs a turn and the observation says what was missing.
    A verdict with an error ends the episode (truncated) with ``info["error"]``.
    """

    source: MultiTurnTask

    def __init__(self, task: MultiTurnTask, level: int = 0, render_mode: str | None = None) -> None:
        super().__init__(task, level=level, render_mode=render_mode)
        self.state: Any = None
        self.turn = 0
        self._max_turns = 0  # the episode's turn budget, read once per episode

    @property
    def task(self) -> MultiTurnTask:
        return self.source

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        problem = self._next_problem(seed, options)
        self.state = self.source.initial_state(problem)
        self.turn = 0
        self._max_turns = self.source.max_turns(problem)
        tools = self.source.tool_schemas()
        return problem.prompt, {**self._identity, "problem": problem, "turn": 0, **({"tools": tools} if tools else {})}

    def play_turn(self, action: str) -> tuple[str, float, bool, bool, Verdict]:
        problem = self._start_step(action)
        self.state, verdict, observation, done = self.source.advance(problem, self.state, action)
        self.turn = turn = self.turn + 1
        errored = verdict.error is not None
        terminated = done and not errored
        left = self._max_turns - turn
        truncated = errored or (not done and left <= 0)
        if not (terminated or truncated):
            observation += _TURNS_LEFT[left] if left < len(_TURNS_LEFT) else f" ({left} turns left)"
        else:
            self._active = False
            if truncated and not errored:
                observation += " (no turns left: the episode is over)"
        if self.render_mode == "ansi":
            self._transcript += [action, observation]
        return observation, float(verdict.reward), terminated, truncated, verdict

    def step_info(self, verdict: Verdict) -> dict[str, Any]:
        info = {**self._identity, "turn": self.turn, "verdict": verdict, "correct": verdict.correct,
                "parsed": verdict.parsed}
        if verdict.error is not None:
            info["error"] = verdict.error
        return info

    def oracle_action(self) -> str:
        """The oracle's move for the current state, as a full response."""
        if self.problem is None:
            raise ResetNeeded("call reset() first")
        if not self._active:
            raise ResetNeeded("the episode has ended: call reset() first")
        return self.source.format_answer(self.source.oracle(self.problem, self.state))
