"""The verdict cache of the code verifiers (#29): identical candidates on one problem are judged
once (also when they arrive at the same time), never reused across problems or env versions,
and a sandbox failure is not remembered; every single-turn code env runs all the tests of a
candidate in one sandbox job."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import palaestra
from palaestra import registry, sandbox
from palaestra.core import Problem
from palaestra.envs.code._polyglot import PolyglotTask
from palaestra.envs.code.common import FunctionTask
from palaestra.sandbox import ExecResult
from palaestra.verifiers import code, polyglot
from palaestra.verifiers.verdict_cache import ReportCache, key_of, problem_scope


def _problem(env_id: str, seed: int = 0) -> tuple[Any, Problem]:
    env = palaestra.make_source(env_id)
    return env, env.sample(0, seed)


def _wrapped(problem: Problem) -> list[str]:
    """The gold answer in three wrappings that extract to the same program."""
    gold = problem.answer or ""
    fenced = gold if gold.startswith("```") else f"```python\n{gold}\n```"
    return [gold, f"Here is my program.\n\n{fenced}", f"\n{gold}\n"]


# --- the cache itself (no sandbox) ------------------------------------------------------------


@pytest.mark.no_sandbox
def test_concurrent_identical_keys_are_computed_once() -> None:
    cache: ReportCache[str] = ReportCache(size=8)
    gate = threading.Event()
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        gate.wait(5)
        return "report"

    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(cache.judged, "k", compute, lambda r: True) for _ in range(8)]
        while not cache._running:  # the first caller is computing: the others find it in flight
            threading.Event().wait(0.001)
        gate.set()
        assert [f.result() for f in futures] == ["report"] * 8
    assert len(calls) == 1 and cache.computed == 1


@pytest.mark.no_sandbox
def test_reports_not_kept_are_computed_again_and_the_cache_is_bounded() -> None:
    cache: ReportCache[str] = ReportCache(size=2)
    results = iter(["error", "fine"])
    first = cache.judged("k", lambda: next(results), keep=lambda r: r != "error")
    assert first == "error" and cache.judged("k", lambda: next(results), keep=lambda r: r != "error") == "fine"
    assert cache.judged("k", lambda: "recomputed", keep=lambda r: True) == "fine"
    for key in ("a", "b"):
        cache.judged(key, lambda: key, keep=lambda r: True)
    assert cache.judged("k", lambda: "evicted", keep=lambda r: True) == "evicted"


@pytest.mark.no_sandbox
def test_the_key_holds_the_problem_identity() -> None:
    base = Problem("code/knapsack", 1, 7, version=3)
    keys = set()
    for problem in (base, dataclasses.replace(base, seed=8), dataclasses.replace(base, level=2),
                    dataclasses.replace(base, version=4), dataclasses.replace(base, env_id="code/subsequence")):
        with problem_scope(problem):
            keys.add(key_of("program", "print(1)"))
    assert len(keys) == 5
    assert key_of("program", "print(1)") not in keys  # outside any problem: the content alone
    with problem_scope(base):
        assert key_of("program", "print(1)") in keys and key_of("program", "print(2)") not in keys


# --- through the envs (the real sandbox) -------------------------------------------------------


@pytest.mark.parametrize("env_id", ["code/array_pipeline", "code/c_functions"])
def test_identical_candidates_on_one_problem_are_judged_once(jobs: list[str], env_id: str) -> None:
    env, problem = _problem(env_id)
    answers = _wrapped(problem) * 3
    with ThreadPoolExecutor(4) as pool:  # a GRPO group arrives at once
        verdicts = list(pool.map(lambda answer: env.verify(problem, answer), answers))
    assert all(v.correct for v in verdicts), verdicts
    assert len(jobs) == 1


@pytest.mark.parametrize("env_id", ["code/array_pipeline", "code/c_functions"])
def test_a_verdict_is_never_reused_across_problems_or_versions(jobs: list[str], env_id: str) -> None:
    """Even problems whose data are the same (so the content of the run is the same) are judged
    each on its own: the key holds the problem's identity."""
    env, problem = _problem(env_id)
    answer = problem.answer or ""
    for same_data in (problem, dataclasses.replace(problem, seed=problem.seed + 1000),
                      dataclasses.replace(problem, version=problem.version + 1)):
        before = len(jobs)
        assert env.verify(same_data, answer).correct
        assert len(jobs) == before + 1
    assert env.verify(problem, answer).correct and len(jobs) == 3
    other = next(p for seed in range(1, 20) if (p := env.sample(0, seed)).data != problem.data)
    assert not env.verify(other, answer).correct


def test_a_sandbox_failure_is_not_cached(monkeypatch: pytest.MonkeyPatch, jobs: list[str]) -> None:
    env, problem = _problem("code/c_functions")
    counting = sandbox.run
    monkeypatch.setattr(sandbox, "run", lambda *a, **k: ExecResult("", "", None, error="the sandbox server died"))
    assert env.verify(problem, problem.answer or "").error
    monkeypatch.setattr(sandbox, "run", counting)
    assert env.verify(problem, problem.answer or "").correct and len(jobs) == 1


def _single_turn_code_envs() -> list[str]:
    found = []
    for env_id in registry.ids():
        if env_id.startswith("code/") and isinstance(palaestra.make_source(env_id), (FunctionTask, PolyglotTask)):
            found.append(env_id)
    return found


def _available(env: Any) -> Callable[[], str | None]:
    def missing() -> str | None:
        for language in getattr(env, "toolchains", ()):
            chain = sandbox.get_backend().languages()[language]
            if not chain.available:
                return str(chain.reason)
        return None

    return missing


@pytest.mark.parametrize("env_id", _single_turn_code_envs())
def test_every_test_of_a_candidate_runs_in_one_sandbox_job(jobs: list[str], env_id: str) -> None:
    env, problem = _problem(env_id)
    if reason := _available(env)():
        pytest.skip(f"{env_id} needs a toolchain this host lacks: {reason}")
    assert env.verify(problem, problem.answer or "").correct
    assert len(jobs) == 1, f"{env_id}: {len(jobs)} sandbox jobs for one candidate"
    assert all(env.verify(problem, answer).correct for answer in _wrapped(problem)) and len(jobs) == 1


@pytest.mark.no_sandbox
def test_turning_the_caches_off_covers_caches_made_later() -> None:
    from palaestra.verifiers import verdict_cache

    verdict_cache.set_enabled(False)
    try:
        later: ReportCache[str] = ReportCache(size=4)
        results = iter(["first", "second"])
        assert later.judged("k", lambda: next(results), keep=lambda r: True) == "first"
        assert later.judged("k", lambda: next(results), keep=lambda r: True) == "second"
    finally:
        verdict_cache.set_enabled(True)
    assert code._cache.enabled and polyglot._cache.enabled
