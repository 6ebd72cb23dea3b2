"""Fairness under abuse, the CPU side (#23 finding 8): a run's CPU weight falls in levels as the
CPU it has used grows (least attained service first), and a session's cell starts again at the top.

Before, a run kept the full weight until it had used 0.1 s of CPU, then dropped to the lowest: 50
hogs each took 0.1-0.2 CPU seconds at full weight, many times what the short jobs among them needed
(bench/fairness.py measures the latency). Every assertion here is on the weights a job's cgroup is
seen to take, in order, never on a wall-clock figure."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sandbox_support import cpu_group_dir, require_language

from palaestra.sandbox import Limits, LocalBackend
from palaestra.sandbox.local.server import COMPILE_FLOOR, CPU_POLICIES

SPIN = """
import time
end = time.process_time() + {cpu}
while time.process_time() < end:
    pass
print("done")
"""
LEVELS = [level.shares for level in CPU_POLICIES["levels"]]
KERNEL_DEFAULT_SHARES = 1024  # what a new cgroup holds until the server writes the run's weight


def _slots(parent: str) -> list[str]:
    """The names of the slot cgroups (directories) under the server's."""
    try:
        return [entry.name for entry in os.scandir(parent) if entry.is_dir()]
    except OSError:
        return []


def _shares(path: str) -> int | None:
    try:
        with open(os.path.join(path, "cpu.shares")) as f:
            return int(f.read())
    except OSError:
        return None


@contextmanager
def _watch(parent: str) -> Iterator[dict[str, list[int]]]:
    """Record, per slot, the successive distinct weights its cgroup takes while the block runs."""
    seen: dict[str, list[int]] = {}
    done = threading.Event()

    def poll() -> None:
        while not done.wait(0.001):
            for name in _slots(parent):
                value = _shares(os.path.join(parent, name))
                history = seen.setdefault(name, [])
                if value is None or (not history and value == KERNEL_DEFAULT_SHARES):
                    continue  # a slot cgroup seen between its creation and its first weight
                if not history or history[-1] != value:
                    history.append(value)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        done.set()
        thread.join()


def test_a_runs_weight_falls_level_by_level_as_it_uses_cpu() -> None:
    backend = LocalBackend(min_tier="none")
    try:
        parent = cpu_group_dir(backend)
        with _watch(parent) as seen:
            result = backend.run(SPIN.format(cpu=0.8), limits=Limits(wall_seconds=60, cpu_seconds=10))
        assert result.ok and result.stdout == "done\n", result
        # The spinner's slot: the one that went through the most weights (another slot can end low too: one seen
        # only at the lowest weight once made a full run pick it and fail).
        history = max(seen.values(), key=lambda values: (len(set(values)), -values[-1]))
        assert history[-1] <= LEVELS[3], history  # past 0.5 s of CPU: the fourth level or below
        assert history == sorted(history, reverse=True), history  # never back up within a run
        assert set(history) <= set(LEVELS) and len(set(history)) >= 3, history  # several levels, not one step
    finally:
        backend.close()


def test_each_session_cell_starts_at_the_top_weight() -> None:
    backend = LocalBackend(min_tier="none")
    try:
        parent = cpu_group_dir(backend)
        with backend.session(Limits(wall_seconds=60, cpu_seconds=30)) as session:
            spun = session.run_cell(SPIN.format(cpu=0.3))
            assert spun.stdout == "done\n", spun
            slots = [os.path.join(parent, name) for name in _slots(parent)]
            # The session's slot: the one whose processes (its interpreter) outlive the cell.
            (slot,) = [path for path in slots if Path(path, "cgroup.procs").read_text().strip()]
            after_spin = _shares(slot)
            assert after_spin is not None and after_spin <= LEVELS[2], after_spin  # 0.3 s: the third level
            during: list[int | None] = []
            watcher = threading.Timer(0.3, lambda: during.append(_shares(slot)))
            watcher.start()
            assert session.run_cell("import time; time.sleep(0.8); print(1)").stdout == "1\n"
            watcher.join()
            assert during == [LEVELS[0]]  # a new cell is a new request: from the top
            assert _shares(slot) == LEVELS[-1]  # and between cells the session holds the lowest weight
    finally:
        backend.close()


CPP_SPIN = """
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <vector>
int main() {
    std::map<std::string, std::vector<int>> names{{"spun", {1}}};
    std::clock_t end = std::clock() + CLOCKS_PER_SEC * 3 / 10;
    volatile unsigned long spins = 0;
    while (std::clock() < end) ++spins;
    std::printf("done %zu\\n", names.size());
}
"""


def test_a_compile_keeps_a_floor_and_its_program_starts_again_at_the_top() -> None:
    """A compile stage drops no lower than its floor (a hog that has used as much CPU goes on down);
    the compiled program is then weighed by its own CPU, from the top."""
    backend = LocalBackend(min_tier="none")
    try:
        parent = cpu_group_dir(backend)
        require_language(backend, "cpp")
        with _watch(parent) as seen:
            result = backend.run(CPP_SPIN, language="cpp", limits=Limits(wall_seconds=60, cpu_seconds=10))
        assert result.ok and result.stdout == "done 1\n", result
        histories = [h for h in seen.values() if any(a < b for a, b in zip(h, h[1:]))]
        assert len(histories) == 1, seen  # the job's slot: the one whose weight went back up
        (history,) = histories
        back_up = next(i for i in range(1, len(history)) if history[i] > history[i - 1])
        compiling, running = history[:back_up], history[back_up:]
        assert min(compiling) >= LEVELS[COMPILE_FLOOR["levels"]], history
        assert running[0] == LEVELS[0] and running == sorted(running, reverse=True), history
        assert running[-1] <= LEVELS[2], history  # the program's own 0.3 s: the third level
    finally:
        backend.close()
