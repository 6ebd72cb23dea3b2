"""Fairness under abuse, the memory side (#23 finding 8): beyond max_jobs, runs wait until the
memory that running runs hold fits the budget. CPU hogs (demoted long runners) hold only what
their cgroup is charged, so they no longer keep short jobs waiting; memory-hungry jobs are still
held back, and the kernel bounds all jobs together by the budget whatever admission let in.

Every assertion is an order of events or a count, never a wall-clock figure."""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor

from sandbox_support import BENIGN, HOG, require

from palaestra.sandbox import ExecResult, Limits, LocalBackend

MB = 2**20
# Holds HOLD_MB (every page touched) while spinning CPU_BEFORE then CPU_AFTER CPU seconds; prints
# the monotonic clock (shared with the host: no time namespace) when it starts and ends.
HUNGRY = """
import time
def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
print(time.monotonic())
spin({cpu_before})
held = bytearray(b"\\x01") * ({hold_mb} << 20)
spin({cpu_after})
print(time.monotonic(), len(held))
"""


def _backend(admission: str, budget_mb: int, max_jobs: int, rerun_budget_kills: bool = True) -> LocalBackend:
    backend = LocalBackend(
        min_tier="none",
        max_jobs=max_jobs,
        memory_budget=budget_mb * MB,
        memory_admission=admission,
        rerun_budget_kills=rerun_budget_kills,
    )
    backend.run("pass")
    require(backend.probe(), "cgroups")  # without cgroups every run holds its whole limit (as before)
    return backend


def _short_job_amid_hogs(admission: str) -> tuple[ExecResult, bool, list[ExecResult]]:
    """Eight CPU hogs of the default 256 MB limit against a budget that holds four such limits,
    then one short job: (its result, whether every hog was still running when it was answered,
    the hogs' results)."""
    backend = _backend(admission, budget_mb=4 * 256 + 64, max_jobs=2)
    try:
        with ThreadPoolExecutor(9) as pool:
            # 6 s of wall clock each: on a busy full run (the other test worker compiling) the short job once took
            # more than the 2 s a 3 s limit left it, and the hogs ended first.
            hogs = [pool.submit(backend.run, HOG, limits=Limits(wall_seconds=6, cpu_seconds=60)) for _ in range(8)]
            time.sleep(1.0)  # the hogs reach the server first
            benign = backend.run(BENIGN)
            all_running = not any(h.done() for h in hogs)
            return benign, all_running, [h.result() for h in hogs]
    finally:
        backend.close()


def test_a_short_job_submitted_after_hogs_filling_the_memory_budget_runs_while_they_all_run() -> None:
    benign, all_running, hogs = _short_job_amid_hogs("usage")
    assert benign.ok and benign.stdout == f"{sum(i * i for i in range(100000))}\n", benign
    assert all(h.timed_out and not h.memory_exceeded and h.error is None for h in hogs), hogs
    assert all_running, "the short job was answered only after a hog had used its whole wall clock"


def test_counting_every_run_by_its_limit_keeps_the_short_job_behind_the_hogs() -> None:
    """The same scenario under the former admission (every run holds its whole limit): the
    short job waits until hogs end. This is what the test above would see without the fix."""
    benign, all_running, hogs = _short_job_amid_hogs("limits")
    assert benign.ok, benign
    assert all(h.timed_out for h in hogs), hogs
    assert not all_running, "under admission by limits the short job did not wait: the scenario tests nothing"


def _hungry_jobs(backend: LocalBackend, count: int, hold_mb: int, cpu_before: float, cpu_after: float) -> list[ExecResult]:
    source = HUNGRY.format(hold_mb=hold_mb, cpu_before=cpu_before, cpu_after=cpu_after)
    limits = Limits(wall_seconds=60, cpu_seconds=30, memory_bytes=(hold_mb + 32) * MB)
    with ThreadPoolExecutor(count) as pool:
        futures: list[Future[ExecResult]] = [pool.submit(backend.run, source, limits=limits) for _ in range(count)]
        return [f.result() for f in futures]


def _most_at_once(results: list[ExecResult]) -> int:
    """The most jobs whose [start, end] stamps overlap at one instant."""
    events = []
    for r in results:
        start, end = float(r.stdout.split()[0]), float(r.stdout.split()[1])
        events += [(start, 1), (end, -1)]
    most = now = 0
    for _, step in sorted(events):
        now += step
        most = max(most, now)
    return most


def test_memory_hungry_jobs_are_still_held_back() -> None:
    """Eight jobs that each hold 64 MB at once, against a 256 MB budget: they wait for one
    another (never more than four at once) and none is killed."""
    backend = _backend("usage", budget_mb=256, max_jobs=1)
    try:
        results = _hungry_jobs(backend, count=8, hold_mb=64, cpu_before=0.0, cpu_after=0.4)
    finally:
        backend.close()
    assert all(r.ok for r in results), [r for r in results if not r.ok]
    assert 8 * 64 > 256
    assert _most_at_once(results) <= 256 // 64


def test_the_kernel_bounds_all_jobs_together_when_they_grow_after_admission() -> None:
    """Jobs that look small when admitted (they spin first, so they are demoted and held by
    their small charge) then each take 64 MB: more than the 256 MB budget holds. The cgroup over
    all slots stops them; a job killed for it is told so as the sandbox's error (it stayed within
    its own limit), never as its own memory_exceeded, and the rest finish. (Without reruns: by
    default such a job runs again, see test_budget_reruns.py.)"""
    backend = _backend("usage", budget_mb=256, max_jobs=2, rerun_budget_kills=False)
    try:
        results = _hungry_jobs(backend, count=8, hold_mb=64, cpu_before=0.6, cpu_after=0.6)
    finally:
        backend.close()
    budget_errors = [r for r in results if r.error and "memory budget of all sandbox jobs" in r.error]
    assert budget_errors, "all eight held 64 MB within a 256 MB budget: the scenario tests nothing"
    assert not any(r.memory_exceeded for r in results), results
    assert all(r.ok or r in budget_errors for r in results), results
    assert any(r.ok for r in results)
