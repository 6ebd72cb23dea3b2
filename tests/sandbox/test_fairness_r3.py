"""Fairness under abuse (#23 finding 8): a short job neither queues behind CPU hogs nor shares
the CPU evenly with them."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from palaestra.sandbox import Limits, LocalBackend

HOG = """
import threading
def spin():
    while True:
        pass
for _ in range(4):
    threading.Thread(target=spin, daemon=True).start()
spin()
"""
BENIGN = "print(sum(i * i for i in range(100000)))"


def test_a_short_job_is_not_held_up_by_cpu_hogs() -> None:
    backend = LocalBackend(min_tier="none", max_jobs=2)
    try:
        backend.run("pass")
        with ThreadPoolExecutor(8) as pool:
            hogs = [pool.submit(backend.run, HOG, limits=Limits(wall_seconds=6, cpu_seconds=60)) for _ in range(4)]
            time.sleep(0.5)
            start = time.monotonic()
            benign = backend.run(BENIGN)
            took = time.monotonic() - start
            assert all(h.result().timed_out for h in hogs)
        assert benign.ok and benign.stdout == f"{sum(i * i for i in range(100000))}\n", benign
        # Before: it waited in the queue until two hogs had used their whole 6 s.
        assert took < 3.0, f"the short job took {took:.2f} s beside the hogs"
    finally:
        backend.close()
