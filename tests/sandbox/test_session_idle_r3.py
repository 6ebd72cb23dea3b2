"""Between cells a session uses no CPU, even with threads its cells left spinning (#23 hostile review, round 3).

Before: a cell started threads that slept 0.2 s and then spun, and returned; the threads ran on between cells
at the top CPU weight (only the processes a cell leaves were killed), taking CPU from every other run.
"""

from __future__ import annotations

import time

from palaestra.sandbox import Limits, LocalBackend

SPIN_LATER = """
import threading, time
def spin():
    time.sleep(0.2)
    while True:
        pass
for _ in range(2):
    threading.Thread(target=spin, daemon=True).start()
print(round(time.process_time(), 3))
"""


def test_threads_a_cell_leaves_do_not_run_between_cells(jail: LocalBackend) -> None:
    with jail.session(Limits(wall_seconds=10, cpu_seconds=30)) as session:
        started = session.run_cell(SPIN_LATER)
        assert started.ok, started
        time.sleep(1.5)  # idle: two spinning threads would use ~1.5-3 CPU-seconds here
        later = session.run_cell("import time; print(round(time.process_time(), 3))")
        assert later.ok, later
        assert float(later.stdout) - float(started.stdout) < 0.5, (started.stdout, later.stdout)
        # The threads run again while a cell runs: the interpreter was paused, not broken.
        # The assertion is on CPU; the wall clock only bounds the wait (8 s of the cell's 10, not a fixed 0.5 s: on a
        # busy host the jobs' low weight gives the threads less CPU a second).
        busy = session.run_cell("import time\nt, end = time.process_time(), time.monotonic() + 8\n"
                                "while time.process_time() - t <= 0.2 and time.monotonic() < end:\n"
                                "    time.sleep(0.05)\nprint(time.process_time() - t)")
        assert busy.ok and float(busy.stdout) > 0.2, busy
