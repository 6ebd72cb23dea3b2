"""Kit checks: levels past the presets (unbounded envs) and grading options (score equals step).

- ``unbounded_levels``: an unbounded env (a ``growth`` rule or an ``extrapolate`` method) gives a
  valid problem at every level up to 9 (``Settings.checked_levels``; CI's settings stop at level 7, as
  levels 8 and 9 took half of the check's generation time, while ``far_levels`` still draws levels 20
  and 40): configs distinct; past the presets the reference, or for a game the oracle, is accepted
  (the first ``seeds`` problems of each level); the difficulty measure's mean grows from each level to
  the next (levels 0-4 are the ``difficulty`` check's, with the same seeds; this one goes on from the
  last preset); and no problem from the last preset on takes more than :data:`GENERATE_CPU_SECONDS`
  of CPU time to generate (CPU seconds, retimed once when over the bound: another thread's or a reaped
  child's CPU can land in the first timing, so a busy machine does not make it flake). A bounded env
  must say why in ``bounded``.
- ``far_levels``: an unbounded env generates ``far_seeds`` problems (CI: one) at level 20 and at level 40, each within
  :data:`GENERATE_CPU_SECONDS` of CPU (a profiling timer stops one that stalls), with a reference a
  single-turn env accepts: levels never end, so a parameter that cannot grow further (a word list's
  length, a grid the search cannot handle) must be capped by the rule's ``limits`` and the difficulty
  saturate, instead of generation raising or stalling. One problem per level keeps CI cheap; the full
  kit draws four, as a parameter near its limit often fails at one seed in a few (round 3's sweep of 8 seeds
  per far level found envs that raised or passed the bound where seed 0 had shown nothing).
- ``score_matches_step``: ``palaestra.score(problem, reply)`` gives the reward ``env.step`` gave, for
  the env built with its defaults and with every keyword set in ``option_variants``: on the reference,
  a corrupted answer, and (for a game) the oracle's episode and its first move alone. Every keyword
  ``__init__`` takes must be readable back as an attribute and tried by some variant.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from palaestra.core.env import MultiTurnEnv
from palaestra.core.registry import make_source
from palaestra.core.scoring import score
from palaestra.core.task import ProblemSource, Task, option_defaults
from palaestra.factory import make
from palaestra.kit.base import DIFFICULTY_SEED, ContractError, Settings, _require, _verify, generation_seconds, sample

GENERATE_CPU_SECONDS = 2.0  # CPU time one problem may take to generate at levels 4-9 (headroom for a busy CI host)
FAR_LEVELS = (20, 40)  # levels far past every preset: one problem each


def check_unbounded_levels(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    if not source.unbounded:
        _require(bool(source.bounded.strip()),
                 "a bounded env says why it cannot go past its presets in `bounded` (or declares a `growth` rule)")
        return f"bounded: {source.bounded}"
    configs = [source.level_config(level) for level in range(s.checked_levels)]
    for level in range(1, s.checked_levels):
        _require(isinstance(configs[level], source.Config), f"level {level}: the config is not a {source.Config.__name__}")
        _require(configs[level] != configs[level - 1], f"levels {level - 1} and {level} have the same config")
    # Levels 0-4 are the difficulty check's (with the same seeds); this one goes on from the last preset.
    first = source.levels() - 1
    means, slowest = {}, 0.0
    for level in range(first, s.checked_levels):
        values = []
        for seed in range(DIFFICULTY_SEED, DIFFICULTY_SEED + s.difficulty_seeds):
            problem = sample(env_id, level, seed)
            spent = generation_seconds(env_id, level, seed)
            if spent > GENERATE_CPU_SECONDS:  # CPU that is not the generation's may have landed in the first timing
                spent = generation_seconds(env_id, level, seed, retime=True)
            slowest = max(slowest, spent)
            _require(slowest <= GENERATE_CPU_SECONDS,
                     f"level {level} seed {seed}: generation took {slowest:.2f} s of CPU (bound {GENERATE_CPU_SECONDS} s)")
            values.append(float(source.difficulty(problem)))
        means[level] = sum(values) / len(values)
        if level > first:
            _require(means[level] > means[level - 1], f"difficulty mean does not grow from level {level - 1} to "
                                                      f"{level}: {means[level - 1]:.3g} -> {means[level]:.3g}")
    for level in range(source.levels(), s.checked_levels):
        for seed in range(DIFFICULTY_SEED, DIFFICULTY_SEED + min(s.seeds, s.difficulty_seeds)):  # drawn above: no new ones
            _require_valid(env_id, source, level, seed)
    return (f"levels 0-{s.checked_levels - 1}: difficulty means from level {first} " + " < ".join(f"{m:.3g}" for m in means.values())
            + f"; slowest generation {slowest * 1000:.0f} ms CPU")


def _require_valid(env_id: str, source: ProblemSource, level: int, seed: int) -> None:
    """The problem at ``(level, seed)`` is solvable: its reference is accepted, or the oracle wins the game."""
    if isinstance(source, Task):
        problem = sample(env_id, level, seed)
        _require(problem.answer is not None, f"level {level} seed {seed}: no reference answer")
        verdict = _verify(source, problem, problem.answer or "")
        _require(verdict.correct and verdict.reward == 1.0, f"level {level} seed {seed}: reference rejected: {verdict}")
        return
    env = make(env_id, level=level)
    assert isinstance(env, MultiTurnEnv)
    total, reward, _ = _oracle_episode(env, level, seed, moves=None)
    _require(reward > 0 and abs(total - 1.0) < 1e-9, f"level {level} seed {seed}: the oracle's episode earned {total}")


def _oracle_episode(env: MultiTurnEnv, level: int, seed: int, moves: int | None) -> tuple[float, float, list[str]]:
    """Play the oracle (all its moves, or the first ``moves``): total reward, last reward, the responses."""
    env.reset(seed=seed, options={"level": level})
    total, reward, done = 0.0, 0.0, False
    responses: list[str] = []
    while not done and (moves is None or len(responses) < moves):
        responses.append(env.oracle_action())
        _, reward, terminated, truncated, _ = env.step(responses[-1])
        total += reward
        done = terminated or truncated
    if moves is None:
        _require(done, f"level {level} seed {seed}: the oracle did not finish the game")
    return total, reward, responses


def check_score_matches_step(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    declared = {name for variant in source.option_variants for name in variant}
    for name in option_defaults(type(source)):
        _require(name in declared, f"__init__ takes {name!r} but no entry of `option_variants` tries it")
        _require(hasattr(source, name), f"__init__ takes {name!r} but the instance has no attribute {name!r}: "
                                        "keep it under the same name so problems can record it")
    variants: list[dict[str, Any]] = [{}, *source.option_variants]
    last = source.levels() - 1
    compared = 0
    for variant in variants:
        env = make(env_id, **variant)
        for level in sorted({0, last}):
            for seed in range(min(s.seeds, 2)):
                compared += _compare(env_id, env, variant, level, seed)
    return f"score equals step on {compared} replies under {len(variants)} option set(s)"


def _compare(env_id: str, env: Any, variant: dict[str, Any], level: int, seed: int) -> int:
    where = f"options {variant} level {level} seed {seed}"
    if isinstance(env, MultiTurnEnv):
        for moves in (None, 1):  # the whole episode, and its first move alone (a partial reward)
            total, _, responses = _oracle_episode(env, level, seed, moves)
            problem = env.problem
            assert problem is not None
            _require(problem.options == env.source.options(),
                     f"{where}: the problem records options {problem.options}, the env has {env.source.options()}")
            replayed = score(problem.to_json(), responses)
            _require(abs(replayed.reward - min(1.0, total)) < 1e-9,
                     f"{where}: step rewards add up to {total} over {len(responses)} move(s), score gives {replayed.reward}")
        return 2
    task = env.source
    assert isinstance(task, Task)
    _, info = env.reset(seed=seed, options={"level": level})
    problem = info["problem"]
    answers = [problem.answer or "", *task.corruptions(problem, random.Random(seed))[:1]]
    for answer in answers:
        env.reset(seed=seed, options={"level": level})
        response = task.format_answer(answer)
        _, reward, *_ = env.step(response)
        scored = score(problem.to_json(), response)
        _require(abs(scored.reward - reward) < 1e-9,
                 f"{where}: env.step gave {reward} and score gave {scored.reward} for {answer[:60]!r}")
    return len(answers)


@contextmanager
def _cpu_bound(seconds: float, what: str) -> Iterator[None]:
    """Raise :class:`ContractError` once ``seconds`` of this thread's CPU pass inside the block (main thread only:
    elsewhere the time is measured after the block by the caller). The profiling timer counts every thread's CPU:
    when it fires early because other threads ran (a thread another test left in the worker), it is set again for
    what is left of this thread's bound."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    start = time.thread_time()

    def stop(signum: int, frame: Any) -> None:
        spent = time.thread_time() - start
        if spent < seconds:
            signal.setitimer(signal.ITIMER_PROF, seconds - spent)
            return
        raise ContractError(f"{what} took more than {seconds} s of CPU")

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def check_far_levels(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    if not source.unbounded:
        return "n/a (bounded)"
    slowest: dict[int, float] = {}
    for level in FAR_LEVELS:
        for seed in range(s.far_seeds):
            slowest[level] = max(slowest.get(level, 0.0), _far_problem_seconds(env_id, source, level, seed))
    return ("slowest generation at levels " + ", ".join(f"{level}: {t * 1000:.0f} ms" for level, t in slowest.items())
            + f" of CPU ({s.far_seeds} seed(s) each)")


def _far_problem_seconds(env_id: str, source: ProblemSource, level: int, seed: int) -> float:
    """The CPU seconds ``(level, seed)`` took to generate; raises ContractError if it failed, stalled or has no
    accepted reference."""
    where = f"level {level} seed {seed}"
    try:
        with _cpu_bound(2 * GENERATE_CPU_SECONDS, f"{where}: generation"):  # the retimed bound is checked below
            problem = sample(env_id, level, seed)
    except ContractError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure to generate is the finding
        raise ContractError(f"{where}: generation raised {type(exc).__name__}: {str(exc)[:200]} (cap the "
                            "parameter that cannot grow with the growth rule's limits)") from exc
    spent = generation_seconds(env_id, level, seed)
    if spent > GENERATE_CPU_SECONDS:
        spent = generation_seconds(env_id, level, seed, retime=True)
    _require(spent <= GENERATE_CPU_SECONDS, f"{where}: generation took {spent:.2f} s of CPU "
                                            f"(bound {GENERATE_CPU_SECONDS} s)")
    if isinstance(source, Task):
        _require(problem.answer is not None, f"{where}: no reference answer")
        verdict = _verify(source, problem, problem.answer or "")
        _require(verdict.correct, f"{where}: reference rejected: {verdict}")
    return spent


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "unbounded_levels": check_unbounded_levels,
    "far_levels": check_far_levels,
    "score_matches_step": check_score_matches_step,
}
