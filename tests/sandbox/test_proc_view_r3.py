"""At the strict tier a job sees only its own processes in /proc (#23 hostile review, round 3).

Before: the job's /proc was the host's; Landlock refused listing and reading it but not ``stat``, so a job could
enumerate every host pid with its owner's uid (the root server, other jobs' slot uids, how many jobs ran)."""

from __future__ import annotations

import threading
import time

import pytest

from palaestra.sandbox import Limits, LocalBackend
from palaestra.sandbox.local.tiers import TIERS

ENUMERATE = """
import os
owners = {}
for pid in range(1, 1 << 16):
    try:
        owners[pid] = os.stat(f"/proc/{pid}").st_uid
    except OSError:
        pass
print(sorted(set(owners.values())), len(owners))
"""


def test_a_strict_job_cannot_enumerate_host_processes(strongest: LocalBackend) -> None:
    if "namespaces" not in TIERS[strongest.probe().tier]:
        pytest.skip("no PID namespace here: the host's process list is documented as visible (README)")
    other = threading.Thread(target=lambda: strongest.run("import time; time.sleep(1.5)", limits=Limits(wall_seconds=5)))
    other.start()
    time.sleep(0.3)
    r = strongest.run(ENUMERATE, limits=Limits(wall_seconds=20, cpu_seconds=20))
    other.join()
    assert r.ok, r
    uids, count = r.stdout.split("]")[0] + "]", int(r.stdout.split("]")[1])
    assert count <= 3, r  # its monitor and itself (and nothing of the host's thousands)
    assert "0" not in uids.strip("[]").split(", "), r  # not root's processes: the server, the host
