"""What every kit check shares: settings, results, the failure type, and one cache of generated problems.

Checks live in the modules of this package, each exporting ``CHECKS`` (name -> check function taking
``(env_id, settings)`` and returning a one-line detail, raising :class:`ContractError` on failure).
A check asks :func:`sample` for ``(env_id, level, seed)`` instead of calling ``sample`` itself, so
each problem is generated once per process however many checks look at it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import make_source
from palaestra.core.task import Task

_PROBLEMS: dict[tuple[str, int, int], Problem] = {}
_CACHE_LIMIT = 200_000


def sample(env_id: str, level: int, seed: int) -> Problem:
    """The problem ``(env_id, level, seed)`` in its default answer format, generated once per process."""
    key = (env_id, level, seed)
    found = _PROBLEMS.get(key)
    if found is None:
        if len(_PROBLEMS) >= _CACHE_LIMIT:
            _PROBLEMS.clear()
        found = _PROBLEMS[key] = make_source(env_id).sample(level, seed)
    return found


@dataclass(frozen=True)
class Settings:
    """How hard the kit looks. ``Settings.full()`` for ``palaestra check --full``; ``Settings.ci()`` in the test suite."""

    seeds: int = 12  # seeds per level for the reference-answer checks
    fingerprint_seeds: int = 4
    distinct_seeds: int = 1_000  # per level: at least 95% distinct problems
    balance_seeds: int = 1_000  # per level, for classification-style envs
    difficulty_seeds: int = 40  # per level, for the difficulty measure's means
    hostile_levels: tuple[str, ...] = ("first", "last")
    verify_seconds: float = 1.0  # bound on one verification of a hostile answer
    generate_seconds: float = 2.0  # bound on one generation
    generate_mean_seconds: float = 0.1
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
        return cls(seeds=3, fingerprint_seeds=2, distinct_seeds=200, balance_seeds=300, difficulty_seeds=16,
                   hostile_levels=("last",))

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
