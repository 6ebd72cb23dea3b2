"""A run that the memory budget of all jobs together killed, within its own limit, runs again.

Admission by usage lets a run in on what long runners are charged now; one of them may grow
later, and the cgroup over all slots then OOM-kills a job that did nothing wrong. Such a run is
started again, held by its whole limit (so it waits until that fits), and its owner gets
the rerun's result (a rerun killed again runs again, up to three times; a run whose own limit is
beyond the budget only once); without reruns it comes back with the budget's error (the test in
test_fairness_memory.py). Every assertion is an order of events or a count, never a wall-clock
figure.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from sandbox_support import require

from palaestra.sandbox import ExecResult, Limits, LocalBackend

MB = 2**20
# Spins CPU first (so it is demoted and held by its small charge), then takes 100 MB and keeps
# it a while; prints the monotonic clock (the host's: no time namespace) at its start and end.
GROWS_LATE = """
import time
def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
print(time.monotonic(), flush=True)
spin(0.3)
held = bytearray(b"\\x01") * (100 << 20)
time.sleep(1.0)
print(time.monotonic(), len(held))
"""
LIMITS = Limits(wall_seconds=30, cpu_seconds=20, memory_bytes=140 * MB)


def _two_that_grow_late(rerun: bool) -> list[ExecResult]:
    """Two such runs, sent together, against a budget that holds one of them (160 MB)."""
    backend = LocalBackend(min_tier="none", max_jobs=1, memory_budget=160 * MB, rerun_budget_kills=rerun)
    try:
        backend.run("pass")
        require(backend.probe(), "cgroups")
        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(backend.run, GROWS_LATE, limits=LIMITS) for _ in range(2)]
            return [f.result() for f in futures]
    finally:
        backend.close()


def _stamps(result: ExecResult) -> tuple[float, float]:
    start, end, _ = result.stdout.split()
    return float(start), float(end)


def test_without_reruns_one_of_two_late_growers_is_killed_by_the_budget() -> None:
    """The scenario works: both are admitted on their small charges and one is killed."""
    results = _two_that_grow_late(rerun=False)
    killed = [r for r in results if r.error and "memory budget of all sandbox jobs" in r.error]
    assert len(killed) == 1, results
    assert not killed[0].memory_exceeded
    assert sum(r.ok for r in results) == 1, results


def test_the_run_the_budget_killed_runs_again_after_the_other_and_succeeds() -> None:
    results = _two_that_grow_late(rerun=True)
    assert all(r.ok and r.error is None and not r.memory_exceeded for r in results), results
    (first_start, first_end), (second_start, second_end) = sorted(_stamps(r) for r in results)
    # The rerun is held by its whole limit (140 MB): next to the survivor's 100 MB charge that
    # does not fit in 160 MB, so it starts only once the survivor has ended.
    assert second_start >= first_end, (first_start, first_end, second_start, second_end)


def test_a_run_killed_again_on_its_rerun_gets_the_budget_error() -> None:
    """Its own limit (200 MB) allows 150 MB, the budget (128 MB) never does: killed on the first
    run and on the rerun (only one), then told so; its stdout is the rerun's, started after the
    first run had spun 0.3 s of CPU."""
    backend = LocalBackend(min_tier="none", max_jobs=1, memory_budget=128 * MB)
    try:
        backend.run("pass")
        require(backend.probe(), "cgroups")
        sent = time.monotonic()
        result = backend.run(
            GROWS_LATE.replace("100 << 20", "150 << 20"),
            limits=Limits(wall_seconds=30, cpu_seconds=20, memory_bytes=200 * MB),
        )
    finally:
        backend.close()
    assert result.error and "memory budget of all sandbox jobs" in result.error, result
    assert not result.memory_exceeded
    assert float(result.stdout.split()[0]) >= sent + 0.3, (sent, result.stdout)
