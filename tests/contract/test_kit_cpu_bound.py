"""The kit's stall guard for one generation (``far_levels``) counts the generating thread's CPU, not the process's.

The guard is a profiling timer, which counts every thread of the process: a thread another test left running in
the same worker made it fire before the generation had used its bound (``puzzles/battleships`` level 40 "took
more than 4.0 s of CPU" in a full run, where it takes 0.5-1 s alone). When it fires early it is now set again for
what is left of the thread's own bound.
"""

from __future__ import annotations

import threading
import time

import pytest

from palaestra.kit.base import ContractError
from palaestra.kit.levels import _cpu_bound


def _spend(cpu_seconds: float) -> None:
    start = time.thread_time()
    while time.thread_time() - start < cpu_seconds:
        sum(range(1000))


def test_other_threads_cpu_does_not_trip_the_guard() -> None:
    done = threading.Event()
    spinner = threading.Thread(target=lambda: [sum(range(1000)) for _ in iter(done.is_set, True)], daemon=True)
    spinner.start()
    try:
        with _cpu_bound(0.6, "the block"):
            _spend(0.4)  # with the spinner, the process uses well over 0.6 s of CPU meanwhile
    finally:
        done.set()
        spinner.join()


def test_the_guarded_thread_running_past_its_bound_is_stopped() -> None:
    with pytest.raises(ContractError, match="took more than 0.3 s of CPU"), _cpu_bound(0.3, "the block"):
        _spend(5.0)
