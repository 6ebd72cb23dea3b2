"""What every kit check shares: settings, results, the failure type, and one cache of generated problems.

Checks live in the modules of this package, each exporting ``CHECKS`` (name -> check function taking
``(env_id, settings)`` and returning a one-line detail, raising :class:`ContractError` on failure).
A check asks :func:`sample` for ``(env_id, level, seed)`` instead of calling ``sample`` itself, so
each problem is generated once per process however many checks look at it. Checks draw their seeds
from the front of one of two ranges, so they look at the same problems: the checks of single answers
(reference, corruptions, spellings, round trips, golden hashes) from seed 0 on, the statistics over
many problems (distinctness, balance, generation time, examples) from :func:`statistics_seeds`, whose
first seeds are the difficulty check's (which the heuristics and the levels past the presets use too).

Time bounds are on CPU seconds (:func:`cpu_seconds`), never on the wall clock: a busy machine must
not fail a check that an idle one passes.
"""

from __future__ import annotations

import os
import resource
import time
from collections import OrderedDict
from dataclasses import dataclass

from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import make_source
from palaestra.core.task import Task

# env id -> (level, seed) -> (problem, CPU seconds its generation took). The test suite runs an env's checks
# one after another (collection order), so a few envs are enough to keep (memory stays bounded).
_PROBLEMS: OrderedDict[str, dict[tuple[int, int], tuple[Problem, float]]] = OrderedDict()
_ENVS_KEPT = 4
STATISTICS_SEED = 50_000
DIFFICULTY_SEED = 300_000  # the difficulty check's seeds (its sample in CI: SHARED_SEEDS of them)
SHARED_SEEDS = 16  # the statistics checks' first seeds are these difficulty seeds: generated once for both


def cpu_seconds() -> float:
    """CPU seconds used so far by the calling thread and this process's finished children (a sandboxed compiler,
    say). Not the process's other threads: what a generation or a verdict costs runs in the calling thread, and a
    thread another test left running in the same worker (a server, an executor) is not its cost."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.thread_time() + children.ru_utime + children.ru_stime


def _generated(env_id: str, level: int, seed: int) -> tuple[Problem, float]:
    problems = _PROBLEMS.get(env_id)
    if problems is None:
        problems = _PROBLEMS[env_id] = {}
        while len(_PROBLEMS) > _ENVS_KEPT:
            _PROBLEMS.popitem(last=False)
    else:
        _PROBLEMS.move_to_end(env_id)
    found = problems.get((level, seed))
    if found is None:
        source = make_source(env_id)
        start = cpu_seconds()
        problem = source.sample(level, seed)
        found = problems[(level, seed)] = (problem, cpu_seconds() - start)
    return found


def statistics_seeds(count: int) -> list[int]:
    """The first ``count`` seeds the statistics checks share: the difficulty check's first SHARED_SEEDS
    (one draw of problems serves both), then the balance check's range (since round 1)."""
    shared = min(count, SHARED_SEEDS)
    return [*range(DIFFICULTY_SEED, DIFFICULTY_SEED + shared), *range(STATISTICS_SEED, STATISTICS_SEED + count - shared)]


def sample(env_id: str, level: int, seed: int) -> Problem:
    """The problem ``(env_id, level, seed)`` in its default answer format, generated once per process."""
    return _generated(env_id, level, seed)[0]


def generation_seconds(env_id: str, level: int, seed: int, *, retime: bool = False) -> float:
    """The CPU seconds :func:`sample` spent generating ``(env_id, level, seed)`` (generating it now if needed).

    With ``retime``, the smaller of that and a fresh generation's time: CPU that is not the
    generation's can land in one timing (a background thread's, or a finished child's that
    the process reaped meanwhile: ``RUSAGE_CHILDREN`` counts it when it is reaped).
    """
    first = _generated(env_id, level, seed)[1]
    if not retime:
        return first
    source = make_source(env_id)
    start = cpu_seconds()
    source.sample(level, seed)
    return min(first, cpu_seconds() - start)


@dataclass(frozen=True)
class Settings:
    """How hard the kit looks. ``Settings.full()`` for ``palaestra check --full``; ``Settings.ci()`` in the test suite."""

    seeds: int = 12  # seeds per level for the reference-answer checks
    fingerprint_seeds: int = 4
    distinct_seeds: int = 1_000  # per level 0-1: at least 95% distinct problems
    distinct_upper_seeds: int = 1_000  # per level >= 2
    balance_seeds: int = 1_000  # per level, for classification-style envs
    difficulty_seeds: int = 40  # per level, for the difficulty measure's means
    far_seeds: int = 4  # per far level (20 and 40), for the far_levels check
    checked_levels: int = 10  # levels 0 .. checked_levels - 1 for the unbounded_levels check (growth and validity)
    hostile_levels: tuple[str, ...] = ("first", "last")
    repeated_reply_levels: tuple[str, ...] = ("all",)  # or "first"/"last": the levels repeated replies are played at
    verify_seconds: float = 1.0  # bound on one verification of a hostile answer, in CPU seconds
    generate_seconds: float = 2.0  # bound on one generation, in CPU seconds
    generate_mean_seconds: float = 0.1  # bound on a level's mean generation, in CPU seconds
    generate_timed_seeds: int = 10  # per level, for the generation-time bounds
    random_play_steps: int = 500
    other_answer_tolerance: float = 0.05  # share of other problems' answers that may also be right
    distinct_share: float = 0.95
    balance_margin: float = 0.10  # the best answer or surface rule may beat chance by this much at most

    @classmethod
    def full(cls) -> Settings:
        return cls()

    @classmethod
    def ci(cls) -> Settings:
        """Cheaper settings for CI (hundreds of envs); the same checks, fewer samples."""
        # 60 problems for distinctness at levels 0-1 and 200 for balance (100 and 300 until round 3's thirty-eighth
        # session): the statistics checks' generations were ~60% of the kit's CPU; every env passed at these sizes.
        return cls(seeds=3, fingerprint_seeds=2, distinct_seeds=60, distinct_upper_seeds=24,
                   balance_seeds=200, difficulty_seeds=16, far_seeds=1, checked_levels=8,
                   hostile_levels=("last",), repeated_reply_levels=("first", "last"))

    @classmethod
    def from_environment(cls) -> Settings:
        """``PALAESTRA_KIT=full`` or ``ci`` (the default when ``CI`` is set), else the full settings."""
        mode = os.environ.get("PALAESTRA_KIT") or ("ci" if os.environ.get("CI") else "full")
        return cls.ci() if mode == "ci" else cls.full()


@dataclass(frozen=True)
class CheckResult:
    env_id: str
    check: str
    ok: bool
    detail: str = ""
    seconds: float = 0.0


class ContractError(AssertionError):
    pass


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ContractError(message)


def _verify(task: Task, problem: Problem, answer: str) -> Verdict:
    v = task.verify(problem, answer)
    _require(isinstance(v, Verdict), f"verify returned {type(v).__name__}, not a Verdict")
    return v
