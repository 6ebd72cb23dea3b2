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

Optional hooks the kit (:mod:`palaestra.kit.play`) checks:

- ``one_move_per_turn = True``: the game is played one move (step, line, push) per turn; a reply
  holding several moves (a whole plan: ``e2e4, then d2d4``, ``L R U``, ``1. b4 2. c4``) must be
  refused like an unreadable move (``verdict.parsed`` False; the state as an unreadable move leaves
  it: unchanged, or a turn spent where time passes). ``play`` refuses it by reading exactly one move;
  :meth:`MultiTurnTask.advance` then recognises the plan (its first two pieces are each a move
  ``play`` reads) and says in the feedback that the game takes one move per turn.
- ``hidden_information = True``: the game hides something the player must find out (a code, a
  word, the mines). Such a game implements ``honest_move(view)``: a player that reads only a
  :class:`View` -- the prompt, the problem's ``public_keys`` of ``problem.data`` (facts the prompt
  states, e.g. the board size or the word list) and the ``(move, observation)`` pairs so far --
  never the secret. The kit plays it and requires a win within ``max_turns`` at every level, so the
  turn budget is tested by a player who cannot peek. A game where even the best honest play can
  lose to luck (a hangman letter can miss whatever the player knows) declares
  ``honest_win_share``, the share of games its honest player must win per level.
- ``score_based = True``: the reward measures how good the play was rather than win/lose; it is
  normalised to regret (see :func:`regret_reward`: uniformly random legal play scores about 0, the
  best play 1). Such a game implements ``legal_moves(problem, state)`` (the moves a uniformly random
  player picks from; the kit requires that player to score about 0).
- ``heuristics()``: cheap rule policies (a textbook rule, greedy, "bid half") as
  ``name -> policy(problem, state, history, rng) -> move`` (``history``: the ``(move, observation)``
  pairs so far); the kit plays each at every level, prints the scores and fails when one scores 0.5
  or more at the top level (the top level must need more than the rule). A policy may read the
  visible game state in ``state`` but not a secret.

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

import dataclasses
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from palaestra.core import extract as extraction
from palaestra.core.problem import Problem, Verdict
from palaestra.core.task import MAX_ANSWER_CHARS, ProblemSource

# What a move reader of a board game or a dialogue reads at most (a cell, a word, a command, a time slot): a longer
# reply is refused before any parsing, which keeps every reader's cost bounded on hostile text.
MAX_MOVE_CHARS = 300


class Outcome(NamedTuple):
    """What one move did: the next state, its verdict (this turn's reward), the observation, and whether the game ended.

    Two outcomes every game has are named here, so games say them one way:

    >>> Outcome.invalid({"n": 1}, "write one cell, e.g. b3")
    Outcome(state={'n': 1}, verdict=Verdict(reward=0.0, correct=False, parsed=False, feedback='write one cell, e.g. b3', error=None), observation='Invalid move: write one cell, e.g. b3.', done=False)
    >>> Outcome.goes_on({"n": 2}, "You moved. Your turn.").verdict.feedback
    'game goes on'
    """

    state: Any
    verdict: Verdict
    observation: str
    done: bool = False

    @classmethod
    def invalid(cls, state: Any, why: str, what: str = "move") -> Outcome:
        """A move that could not be read or is not allowed: the state unchanged, an unparsed verdict
        (the turn is spent), and ``Invalid <what>: <why>.`` as the observation."""
        return cls(state, Verdict.unparsed(why), f"Invalid {what}: {why}.")

    @classmethod
    def goes_on(cls, state: Any, observation: str, note: str = "game goes on") -> Outcome:
        """A legal move after which the game continues: no reward yet, not done (:meth:`Verdict.ongoing`)."""
        return cls(state, Verdict.ongoing(note), observation)


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


History = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class View:
    """What an honest player sees: the prompt, public facts the prompt states, and the turns so far.

    ``history`` holds ``(move, observation)`` pairs, oldest first; ``public`` the problem's
    ``public_keys`` (never the secret).
    """

    prompt: str
    public: dict[str, Any]
    history: History = ()

    @property
    def observations(self) -> list[str]:
        return [observation for _, observation in self.history]


Policy = Callable[[Problem, Any, History, random.Random], str]


def regret_reward(achieved: float, random_baseline: float, best: float) -> float:
    """``clip((achieved - random) / (best - random), 0, 1)``: 0 for play no better than random, 1 for the best.

    ``achieved``, ``random_baseline`` and ``best`` are expected values of the same game (summed over its
    turns): what the moves made earn, what a uniformly random legal player earns on average, and what
    the best player earns. Where the best play earns no more than random play, matching it scores 1.

    >>> regret_reward(7.0, 5.0, 9.0), regret_reward(4.0, 5.0, 9.0), regret_reward(9.0, 5.0, 9.0)
    (0.5, 0.0, 1.0)
    """
    span = best - random_baseline
    if span <= 1e-12:
        return 1.0 if achieved >= best - 1e-9 else 0.0
    return min(1.0, max(0.0, (achieved - random_baseline) / span))


class MultiTurnTask(ProblemSource):
    """A multi-turn environment as pure rules; see the module docstring."""

    turns: ClassVar[str] = "multi"
    max_move_chars: ClassVar[int] = MAX_ANSWER_CHARS
    one_move_per_turn: ClassVar[bool] = False
    hidden_information: ClassVar[bool] = False
    score_based: ClassVar[bool] = False
    public_keys: ClassVar[tuple[str, ...]] = ()  # keys of problem.data an honest player may read
    honest_win_share: ClassVar[float] = 1.0  # share of games the honest player must win per level

    def honest_move(self, view: View) -> str:
        """The move of a player who sees only ``view`` (hidden-information games; see the module docstring)."""
        raise NotImplementedError

    def view(self, problem: Problem, history: tuple[tuple[str, str], ...] = ()) -> View:
        """The :class:`View` of ``problem`` after ``history``: the prompt and the ``public_keys`` only."""
        return View(problem.prompt, {key: problem.data[key] for key in self.public_keys}, history)

    def honest_turns(self, problem: Problem, limit: int) -> int | None:
        """The turns the honest player (:meth:`honest_move`, reading only :meth:`view`) takes to win ``problem``, or
        None when it has not won within ``limit`` turns. A generator whose turn budget is fixed by the level (not by
        the hidden state, which the turns left would then tell) redraws a problem this does not fit."""
        state: Any = self.initial_state(problem)
        history: tuple[tuple[str, str], ...] = ()
        for turn in range(1, limit + 1):
            move = self.honest_move(self.view(problem, history))
            outcome = self.play(problem, state, move)
            if outcome.done:
                return turn if outcome.verdict.correct else None
            state, history = outcome.state, (*history, (move, outcome.observation))
        return None

    def legal_moves(self, problem: Problem, state: Any) -> list[str]:
        """The moves a uniformly random legal player picks from (score-based games must list them; a
        win/loss game that does is held by the kit to random play winning at most a quarter of its games)."""
        raise NotImplementedError

    def heuristics(self) -> dict[str, Policy]:
        """Cheap rule policies, ``name -> policy(problem, state, history, rng) -> move`` (none by default)."""
        return {}

    def max_turns(self, problem: Problem) -> int:
        raise NotImplementedError

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The tools this env carries, as OpenAI-style function schemas (for a chat template's ``tools=``;
        ``reset``'s info holds them as ``"tools"``); none for an env whose moves are plain text."""
        return []

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
        move = extraction.EXTRACTORS[problem.answer_format](response)
        if move is None:
            return Outcome.invalid(state, extraction.MISSING[problem.answer_format])
        if len(move) > self.max_move_chars:
            return Outcome(state, Verdict.unparsed("move too long"),
                           f"Invalid move: longer than {self.max_move_chars} characters.")
        try:
            outcome = self.play(problem, state, move)
        except Exception as exc:  # a rules bug must not crash a training run, nor count as a wrong move
            error = f"play raised {type(exc).__name__}: {str(exc)[:200]}"
            return Outcome(state, Verdict.failed(error), f"The move could not be judged ({error}).", True)
        if self.one_move_per_turn and not outcome.verdict.parsed and outcome.verdict.error is None \
                and ONE_MOVE_PER_TURN not in outcome.observation and self._is_plan(problem, state, move):
            note = f"{ONE_MOVE_PER_TURN[0].upper()}{ONE_MOVE_PER_TURN[1:]}: the reply holds several moves (a plan)"
            outcome = outcome._replace(verdict=dataclasses.replace(outcome.verdict, feedback=f"{ONE_MOVE_PER_TURN}, "
                                       "and the reply holds several moves"),
                                       observation=f"{note}; write only the next move. {outcome.observation}")
        return outcome

    def _is_plan(self, problem: Problem, state: Any, move: str) -> bool:
        """Whether a refused ``move`` is a plan: its first two pieces, at some cut (:func:`plan_cuts`), are each a
        move ``play`` reads (a plan whose last move holds a weaker cut's mark, such as a solution written with
        ``;``, is cut at the mark between its moves)."""

        def is_move(piece: str) -> bool:
            unnumbered = _NUMBERING.sub("", piece, count=1)  # "1. b4"
            return self.reads_as_move(problem, state, piece) or (
                unnumbered != piece and self.reads_as_move(problem, state, unnumbered))

        try:
            return any(all(is_move(piece) for piece in pieces) for pieces in plan_cuts(move))
        except Exception:  # a piece the rules cannot judge is no move
            return False

    def reads_as_move(self, problem: Problem, state: Any, piece: str) -> bool:
        """Whether ``piece`` is written as one move of this game (a refused reply made of two such
        pieces is a plan). By default: ``play`` accepts it in ``state``. Games whose later moves are
        illegal in the current state (``bet`` then ``call``) override it with their move reader."""
        return self.play(problem, state, piece).verdict.parsed

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


ONE_MOVE_PER_TURN = "one move per turn"
MAX_PLAN_CHARS = 2_000  # longer refused replies are not split into moves (the feedback stays the game's own)
_THEN = r"(?:(?:and )?then )?"
# Where a plan is cut, strongest first: the first that cuts a reply gives its pieces.
_PLAN_CUTS = tuple(re.compile(pattern, re.IGNORECASE) for pattern in (
    rf" ?\n ?{_THEN}", rf" ?; ?{_THEN}", rf" ?(?:,|->|→|=>) ?{_THEN}", r" (?:and )?then ", r" and ", r" "))
_NUMBERING = re.compile(r"^(?:(?:step|move) ?)?\d{1,3} ?[.):] ?", re.IGNORECASE)


def plan_pieces(move: str) -> list[str]:
    r"""The first two pieces of ``move`` read as a plan, or none when it cannot be cut.

    A reply is cut at new lines, else at ``;``, else at commas or arrows, else at ``then``, else
    at ``and``, else at spaces (``L R U``); runs of spaces are squeezed first, so the cutting is linear.

    >>> plan_pieces("e2e4, then d2d4"), plan_pieces("1. b4\n2. c4\n3. d4"), plan_pieces("L R U"), plan_pieces("B")
    (['e2e4', 'd2d4'], ['1. b4', '2. c4'], ['L', 'R'], [])
    """
    cuts = plan_cuts(move)
    return cuts[0] if cuts else []


def plan_cuts(move: str) -> list[list[str]]:
    """The first two pieces of ``move`` at every cut that splits it, strongest cut first (see :func:`plan_pieces`).

    >>> plan_cuts("ask a, solve: x; y")
    [['ask a, solve: x', 'y'], ['ask a', 'solve: x; y'], ['ask', 'a,']]
    """
    if len(move) > MAX_PLAN_CHARS:
        return []
    text = "\n".join(" ".join(line.split()) for line in move.strip().splitlines() if line.strip())
    cuts = []
    for cut in _PLAN_CUTS:
        pieces = cut.split(text, maxsplit=2)
        if len(pieces) > 1 and all(pieces[:2]):
            cuts.append(pieces[:2])
    return cuts


def snapshot(state: Any) -> str:
    """A canonical text of a JSON-native state (the kit uses it to check that ``play`` is pure)."""
    return json.dumps(state, sort_keys=True, default=repr)
