"""Sessions against hostile cells (#23 finding 6): nothing a cell starts runs on after it, and
idle sessions make room for others instead of blocking them."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from sandbox_support import sandbox_processes

from palaestra.sandbox import Limits, LocalBackend

SPINNER = """
import os
for _ in range(3):
    if os.fork() == 0:
        os.setsid()  # out of its parent's group, as a daemon would
        while True:
            pass
print("forked")
"""


def test_a_cells_leftover_processes_are_killed_when_it_returns(jail: LocalBackend) -> None:
    uids = jail.probe().uids
    with jail.session(Limits(wall_seconds=5)) as session:
        assert session.run_cell("x = 41").ok
        before = len(sandbox_processes(uids))
        r = session.run_cell(SPINNER)
        assert r.ok and r.stdout == "forked\n", r
        time.sleep(0.3)
        after = [p for p in sandbox_processes(uids) if p[2][0] != "Z"]
        if uids is not None:
            assert len(after) == before, f"processes left running between cells: {after}"
        assert session.run_cell("x + 1").stdout == "42\n"  # the interpreter itself was spared


def test_idle_sessions_are_evicted_least_recently_used_first() -> None:
    backend = LocalBackend(min_tier="none", slots=4)
    try:
        sessions = [backend.session(Limits(wall_seconds=5)) for _ in range(4)]
        for i, s in enumerate(sessions):
            assert s.run_cell(f"x = {i}").ok
        # Not held until a session ends (none would: that run would never return; the wait is only a hang guard,
        # no figure): the least recently used idle session makes room for it, as its owner is told below.
        with ThreadPoolExecutor(1) as pool:
            run = pool.submit(backend.run, "print('a run is not held up')").result(timeout=120)
        assert run.ok, run
        newcomer = backend.session(Limits(wall_seconds=5))
        assert newcomer.run_cell("y = 1").ok
        # The least recently used made room for the run; its owner is told (and takes the next one's slot).
        for evicted in sessions[:1]:
            r = evicted.run_cell("x")
            assert r.state_lost and "closed to make room" in r.stderr and "NameError" in r.stderr, r
        for kept, i in ((sessions[2], 2), (sessions[3], 3)):
            r = kept.run_cell("x")
            assert r.stdout == f"{i}\n" and not r.state_lost, r
    finally:
        backend.close()
