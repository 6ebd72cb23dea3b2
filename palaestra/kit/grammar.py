"""Kit checks: grammar (round 3 reward integrity). See :mod:`palaestra.kit.base` for the shapes a check takes.

- ``retraction``: an answer the env accepts stops being accepted when a retraction follows it. Every gold
  spelling of a single-turn env (the reference and ``spellings(problem)``) followed by one of
  :data:`RETRACTIONS` is not correct; in a multi-turn env the oracle's move followed by one is not played
  as that move (the state after it differs from the state after the bare move). The answer grammar of
  :mod:`palaestra.verifiers.normalize` is what makes this hold: text it cannot account for is unparsed.
- ``hostile_cpu``: inputs built to be slow (1 MB of text, long space runs inside and around a right
  answer, deep nesting) cost at most :data:`CPU_BOUND_SECONDS` of CPU time each in ``verify`` and, for
  multi-turn envs, in ``advance`` (extraction and ``play``). CPU time of the calling thread (``time.thread_time``)
  is measured, not wall time, so a busy machine (or a thread another test left running) does not fail it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from palaestra.core.multiturn import MultiTurnTask, snapshot
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.core.task import Task
from palaestra.kit.base import Settings, _require, sample

# Ways a writer takes back or contradicts what came before; each is appended to an accepted answer.
RETRACTIONS = (
    ". That is not the answer.",
    ". This is false.",
    "\nJust kidding, I do not know.",
    ". I take it back.",
    ". Or maybe not.",
    " (no, that is wrong)",
)

OPEN_CALL = "<tool_call>"  # how a tool call opens (palaestra.tools.calls, which the kit may not import)
CPU_BOUND_SECONDS = 0.05
MEGABYTE = 1_000_000
SPACE_RUN = 19_000  # under the answer cap (20,000 characters), so the reader sees it

NESTING = 5_000


def retracted(answer: str, retraction: str) -> str:
    """``answer`` followed by ``retraction``, punctuated as a writer would (no ``..`` after a full stop).

    >>> retracted("4", ". That is not the answer."), retracted("Yes.", ". I take it back.")
    ('4. That is not the answer.', 'Yes. I take it back.')
    """
    body = answer.rstrip()
    if "#" in body.rsplit("\n", 1)[-1] and not retraction.startswith("\n"):
        return body + "\n" + retraction.lstrip(". ")  # after a code comment, a retraction would be part of it
    if retraction.startswith(".") and body.endswith((".", "!")):
        return body + retraction[1:]
    return body + retraction


def _levels(source: object, settings: Settings) -> list[int]:
    count = source.levels()  # type: ignore[attr-defined]
    return sorted({0, count // 2, count - 1}) if settings.seeds < 12 else list(range(count))


def check_retraction(env_id: str, s: Settings) -> str:
    """Gold answers (or the oracle's move) followed by a retraction are not accepted."""
    source = make_source(env_id)
    if isinstance(source, MultiTurnTask):
        return _check_move_retraction(env_id, source, s)
    assert isinstance(source, Task)
    tried = 0
    for level in _levels(source, s):
        for seed in range(min(s.seeds, 2)):
            problem = sample(env_id, level, seed)
            golds = [problem.answer or "", *source.spellings(problem)]
            for gold in dict.fromkeys(g for g in golds if g.strip()):
                for retraction in RETRACTIONS:
                    text = retracted(gold, retraction)
                    verdict = source.check(problem, source.format_answer(text))
                    _require(not verdict.correct, f"level {level} seed {seed}: {text[-120:]!r} was accepted")
                    tried += 1
    return f"{tried} retracted answers rejected"


def _check_move_retraction(env_id: str, source: MultiTurnTask, s: Settings) -> str:
    tried = 0
    for level in _levels(source, s):
        for seed in range(min(s.seeds, 2)):
            problem = sample(env_id, level, seed)
            state, move = _first_answer_move(source, problem)
            if move is None:
                continue
            played = source.advance(problem, state, source.format_answer(move))
            for retraction in RETRACTIONS:
                text = retracted(move, retraction)
                outcome = source.advance(problem, state, source.format_answer(text))
                same = snapshot(outcome.state) == snapshot(played.state) and outcome.verdict == played.verdict
                _require(not same, f"level {level} seed {seed}: the move {text[-120:]!r} was played as {move!r}")
                tried += 1
    return f"{tried} retracted moves refused"


def _first_answer_move(source: MultiTurnTask, problem: Problem) -> tuple[object, str | None]:
    """The state before the oracle's first move that is an answer, not a tool call, and that move.

    A tool call is a request in the tool protocol, not an answer: text after it is not read as part of an
    answer, so the probe plays the oracle's tool calls and retracts its first answer instead.
    """
    state = source.initial_state(problem)
    for _ in range(source.max_turns(problem)):
        move = source.oracle(problem, state)
        if OPEN_CALL not in move:
            return state, move
        outcome = source.advance(problem, state, source.format_answer(move))
        if outcome.done:
            break
        state = outcome.state
    return state, None


def hostile_variants(answer: str) -> list[str]:
    """Inputs built to be slow for a reader, from a right answer: long runs, a megabyte, deep nesting."""
    middle = len(answer) // 2
    cut = answer.rfind(" ", 0, middle + 1)
    cut = middle if cut <= 0 else cut
    return [
        answer[:cut] + " " * SPACE_RUN + answer[cut:],
        " " * SPACE_RUN + answer,
        answer + " " * SPACE_RUN + "x",
        "\n" * SPACE_RUN + answer,
        ("The answer is " + answer + ". ") * (MEGABYTE // (len(answer) + 16) + 1),
        "a " * (MEGABYTE // 2),
        "(" * NESTING + answer + ")" * NESTING,
        "[" * NESTING + answer + "]" * NESTING,
        "{" * NESTING + answer + "}" * NESTING,
        "\\boxed{" * (NESTING // 5) + answer + "}" * (NESTING // 5),
        "**" * NESTING + answer + "**" * NESTING,
    ]


def move_variants(move: str) -> list[str]:
    """Moves built to be slow for ``play``: space runs under the move cap, nesting."""
    middle = len(move) // 2
    return [
        move[:middle] + " " * SPACE_RUN + move[middle:],
        " " * SPACE_RUN + move,
        move + " " * SPACE_RUN + move,
        "(" * NESTING + move + ")" * NESTING,
        "a " * (MEGABYTE // 2),
    ]


def _cpu_seconds(call: Callable[[], object]) -> float:
    """The CPU time of ``call`` in the calling thread (see :func:`palaestra.kit.base.cpu_seconds`), the smaller of two
    runs (a garbage collection can land in either)."""
    best = float("inf")
    for _ in range(2):
        start = time.thread_time()
        call()
        best = min(best, time.thread_time() - start)
        if best <= CPU_BOUND_SECONDS:
            break
    return best


def check_hostile_cpu(env_id: str, s: Settings) -> str:
    """Slow-by-design inputs cost at most 50 ms of CPU in ``verify`` (single-turn) or ``advance`` (multi-turn)."""
    source = make_source(env_id)
    levels = {"first": 0, "last": source.levels() - 1}
    slowest, worst = 0.0, ""
    for level in sorted({levels[name] for name in s.hostile_levels}):
        problem = sample(env_id, level, 1)
        for text, call in _hostile_calls(source, problem):
            seconds = _cpu_seconds(call)
            if seconds > slowest:
                slowest, worst = seconds, text
    _require(slowest <= CPU_BOUND_SECONDS, f"{slowest * 1000:.0f} ms CPU on {worst[:60]!r}... ({len(worst)} chars; "
                                           f"bound {CPU_BOUND_SECONDS * 1000:.0f} ms)")
    return f"slowest {slowest * 1000:.1f} ms CPU"


def _hostile_calls(source: object, problem: Problem) -> list[tuple[str, Callable[[], object]]]:
    if isinstance(source, MultiTurnTask):
        state = source.initial_state(problem)
        move = source.oracle(problem, state)
        source.advance(problem, state, source.format_answer(move))  # warm caches: a first call's costs are not the input's
        return [(text, lambda text=text: source.advance(problem, state, source.format_answer(text)))
                for text in move_variants(move)]
    assert isinstance(source, Task)
    gold = problem.answer or ""
    source.verify(problem, gold)
    return [(text, lambda text=text: source.verify(problem, text)) for text in hostile_variants(gold)]


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "retraction": check_retraction,
    "hostile_cpu": check_hostile_cpu,
}
