"""Multi-turn tasks: games, dialogues, code with feedback, as pure rules.

A :class:`MultiTurnTask` generates its problem like a :class:`~palaestra.core.task.Task`
(``Config``, ``config(level)``, ``generate(rng, config)``) and then defines the game as
pure functions of the problem and a JSON-native state:

- ``initial_state(problem)``: the state before the first move;
- ``play(problem, state, move) -> Outcome(state, verdict, observation, done)``: judge one
  extracted move; must not mutate ``state`` (return a new one). ``verdict.reward`` is this
  turn's reward (an episode's rewards add up to at most 1);
- ``oracle(problem, state)``: the move a perfect player makes now (the kit checks it wins);
- ``max_turns(problem)``: the turn budget (the episode is truncated after it).

Randomness during play (an opponent's move, a slippery floor) must come from
:func:`palaestra.core.seeding.event_rng`, keyed by the problem and the state, so that a
replay of the same moves gives the same episode. One generic env
(:class:`palaestra.core.env.MultiTurnEnv`) serves every multi-turn task: it extracts the
move from the model's text (a reply without one costs a turn and says what was missing),
counts turns and fills the step info.

Example::

    >>> import palaestra
    >>> env = palaestra.make("games/guess_number")
    >>> obs, info = env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.step(env.oracle_action())
    >>> info["verdict"].parsed
    True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from palaestra.core import extract as extraction
from palaestra.core.problem import Problem, Verdict
from palaestra.core.task import MAX_ANSWER_CHARS, ProblemSource


class Outcome(NamedTuple):
    """What one move did: the next state, its verdict (this turn's reward), the observation, and whether the game ended."""

    state: Any
    verdict: Verdict
    observation: str
    done: bool = False


@dataclass(frozen=True)
class Episode:
    """A finished (or abandoned) replay: total reward, the verdict of every move, and how it ended."""

    reward: float
    verdicts: tuple[Verdict, ...]
    done: bool
    truncated: bool
    error: str | None = None

    @property
    def verdict(self) -> Verdict:
        """The whole episode as one verdict (reward = the sum of the turns' rewards)."""
        if self.error is not None:
            return Verdict.failed(self.error)
        correct = self.done and bool(self.verdicts) and self.verdicts[-1].correct
        parsed = any(v.parsed for v in self.verdicts)
        last = self.verdicts[-1].feedback if self.verdicts else "no moves"
        return Verdict(min(1.0, self.reward), correct, parsed, last)


class MultiTurnTask(ProblemSource):
    """A multi-turn environment as pure rules; see the module docstring."""

    turns: ClassVar[str] = "multi"
    max_move_chars: ClassVar[int] = MAX_ANSWER_CHARS

    def max_turns(self, problem: Problem) -> int:
        raise NotImplementedError

    def initial_state(self, problem: Problem) -> Any:
        """The state before the first move (JSON-native: dicts, lists, numbers, strings)."""
        return {}

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        """Judge one extracted move; return the new state without mutating ``state``."""
        raise NotImplementedError

    def oracle(self, problem: Problem, state: Any) -> str:
        """The move (bare, not yet wrapped in the answer format) a perfect player makes now."""
        raise NotImplementedError

    def format_instruction(self) -> str:
        return extraction.MOVE_INSTRUCTIONS[self.answer_format]

    def advance(self, problem: Problem, state: Any, response: str) -> Outcome:
        """One turn from a full response: extract the move, then ``play`` it. Never raises.

        A response with no extractable move leaves the state as it was and says what was
        missing; a ``play`` that raises ends the episode with an error (not judged).
        """
        move = extraction.extract(response, problem.answer_format)
        if move is None:
            return Outcome(state, Verdict.unparsed(extraction.MISSING[problem.answer_format]),
                           f"Invalid move: {extraction.MISSING[problem.answer_format]}.")
        if len(move) > self.max_move_chars:
            return Outcome(state, Verdict.unparsed("move too long"),
                           f"Invalid move: longer than {self.max_move_chars} characters.")
        try:
            return self.play(problem, state, move)
        except Exception as exc:  # a rules bug must not crash a training run, nor count as a wrong move
            error = f"play raised {type(exc).__name__}: {str(exc)[:200]}"
            return Outcome(state, Verdict.failed(error), f"The move could not be judged ({error}).", True)

    def replay(self, problem: Problem, responses: list[str]) -> Episode:
        """Judge a finished episode from its list of full responses (deterministic replay)."""
        state, verdicts, total = self.initial_state(problem), [], 0.0
        limit = self.max_turns(problem)
        for turn, response in enumerate(responses[:limit], start=1):
            outcome = self.advance(problem, state, response)
            state = outcome.state
            verdicts.append(outcome.verdict)
            total += outcome.verdict.reward
            if outcome.verdict.error is not None:
                return Episode(total, tuple(verdicts), False, True, outcome.verdict.error)
            if outcome.done:
                return Episode(total, tuple(verdicts), True, False)
            if turn >= limit:
                return Episode(total, tuple(verdicts), False, True)
        return Episode(total, tuple(verdicts), False, False)


def snapshot(state: Any) -> str:
    """A canonical text of a JSON-native state (the kit uses it to check that ``play`` is pure)."""
    return json.dumps(state, sort_keys=True, default=repr)
