"""Multi-turn text environments: games, dialogues, code with feedback.

A :class:`MultiTurnEnv` generates its problem like a task (``Config``,
``config(level)``, ``generate(rng, config)``) and then plays it out turn by
turn: ``play`` judges one action against the episode state and returns the
next observation. Episodes end when ``play`` says so or after ``max_turns``
(truncated).

Example::

    >>> import palaestra
    >>> env = palaestra.make("games/mastermind")
    >>> obs, info = env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.step(env.oracle_action())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core.env import TextEnv
from palaestra.core.problem import Problem
from palaestra.core.task import ProblemSource
from palaestra.verifiers import extract as extraction


@dataclass(frozen=True)
class Turn:
    """The outcome of one action."""

    observation: str
    reward: float = 0.0
    done: bool = False
    correct: bool = False
    parsed: bool = True


class MultiTurnEnv(TextEnv, ProblemSource):
    """Base of multi-turn envs. Subclasses implement ``config``, ``generate``,
    ``new_state``, ``play`` and ``oracle`` (the move a perfect player makes)."""

    turns: ClassVar[str] = "multi"

    def __init__(self, level: int = 0, render_mode: str | None = None, answer_format: str | None = None) -> None:
        super().__init__(level=level, render_mode=render_mode)
        if answer_format is not None:
            self.answer_format = extraction.check_format(answer_format)
        self.level_config(level)
        self.state: Any = None
        self.turn_count = 0

    @property
    def source(self) -> ProblemSource:
        return self

    # --- what subclasses write -------------------------------------------------
    def max_turns(self, problem: Problem) -> int:
        raise NotImplementedError

    def new_state(self, problem: Problem) -> Any:
        """The mutable per-episode state (e.g. guesses so far)."""
        return {}

    def play(self, problem: Problem, state: Any, move: str | None) -> Turn:
        """Apply one extracted move (``None`` when none could be extracted)."""
        raise NotImplementedError

    def oracle(self, problem: Problem, state: Any) -> str:
        """The move (bare, not yet wrapped in the answer format) a perfect player makes now."""
        raise NotImplementedError

    def format_instruction(self) -> str:
        return extraction.MOVE_INSTRUCTIONS[self.answer_format]

    # --- the Gymnasium API -----------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        problem = self._next_problem(seed, options)
        self.state = self.new_state(problem)
        self.turn_count = 0
        self._transcript = [problem.prompt]
        return problem.prompt, {**self._identity_info(), "problem": problem, "turn": 0}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.problem is None:
            raise RuntimeError("call reset() before step()")
        text = action if isinstance(action, str) else str(action)
        move = extraction.extract(text, self.answer_format)
        self.turn_count += 1
        turn = self.play(self.problem, self.state, move)
        truncated = not turn.done and self.turn_count >= self.max_turns(self.problem)
        self._transcript += [text, turn.observation]
        info = {
            **self._identity_info(),
            "turn": self.turn_count,
            "correct": turn.correct,
            "parsed": turn.parsed,
        }
        return turn.observation, float(turn.reward), turn.done, truncated, info

    def oracle_action(self) -> str:
        """The oracle's move for the current state, as a full response."""
        assert self.problem is not None, "call reset() first"
        return extraction.wrap(self.oracle(self.problem, self.state), self.answer_format)
