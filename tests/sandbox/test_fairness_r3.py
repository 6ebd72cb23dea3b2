"""Fairness under abuse (#23 finding 8): a short job neither queues behind CPU hogs nor shares
the CPU evenly with them."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from sandbox_support import BENIGN, HOG

from palaestra.sandbox import Limits, LocalBackend


def test_a_short_job_is_not_held_up_by_cpu_hogs() -> None:
    backend = LocalBackend(min_tier="none", max_jobs=2)
    try:
        backend.run("pass")
        with ThreadPoolExecutor(8) as pool:
            hogs = [pool.submit(backend.run, HOG, limits=Limits(wall_seconds=6, cpu_seconds=60)) for _ in range(4)]
            time.sleep(0.5)
            benign = backend.run(BENIGN)
            # Before: it waited in the queue until two hogs had used their whole 6 s (an order of events, not a
            # wall-clock figure: a busy machine slows both sides alike).
            hogs_running_when_answered = not any(h.done() for h in hogs)
            assert all(h.result().timed_out for h in hogs)
        assert benign.ok and benign.stdout == f"{sum(i * i for i in range(100000))}\n", benign
        assert hogs_running_when_answered, "the short job was answered only after a hog had used its whole 6 s"
    finally:
        backend.close()
