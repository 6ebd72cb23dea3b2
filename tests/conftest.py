"""Suite-wide hooks: how many test workers ``pytest -n auto`` starts.

xdist's own ``auto`` is one worker per CPU. Here it is one more than the CPUs this process may use: a third of the
suite's test time (the sandbox's jobs, the servers, the Ray cluster, the trainers' subprocesses) is spent waiting on
other processes, and on two CPUs those tests left about half of the CPU idle (the sandbox, integration, vector and
ui tests: 234 CPU-s in 248 s with two workers, 206 s with three, round 3's forty-second session), which the extra
worker fills; the kit's CPU-bound checks lose nothing to it. Each worker imports every env and keeps the kit's
generated problems, so on a host with many CPUs and little memory that many workers would swap: the count is at
most the workers the available memory holds (:data:`WORKER_BYTES` each), but at least two where there are two CPUs
(what ``-n 2`` always ran).
"""

from __future__ import annotations

import os

import pytest

# Peak resident memory of one test worker over the whole suite: 2.4 and 3.1 GB for the two workers of a full run
# with `-n 2` (VmHWM, round 3's twenty-fourth session); the rest of 4 GB leaves room for the sandbox's jobs, the
# Ray tests' cluster and the page cache.
WORKER_BYTES = 4_000_000_000


def available_memory_bytes() -> int | None:
    """MemAvailable from /proc/meminfo, or None where there is none (not Linux)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def worker_count(cpus: int, memory: int | None) -> int:
    """Workers for ``-n auto``: one per CPU and one more, as far as ``memory`` bytes hold them, and never fewer than
    the two the suite ran with before (``-n 2``, sized for a 2-CPU host) where there are two CPUs.

    >>> worker_count(2, 24 * 2**30), worker_count(64, 16 * 2**30), worker_count(4, None), worker_count(8, 0)
    (3, 4, 5, 2)
    """
    wanted = cpus + 1
    by_memory = wanted if memory is None else memory // WORKER_BYTES
    return max(min(cpus, 2), min(wanted, by_memory))


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return worker_count(len(os.sched_getaffinity(0)), available_memory_bytes())
