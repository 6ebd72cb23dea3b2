"""Hostile review, round 41: host metadata a job could still mark, disk and memory a job could hold
unseen, and a scratch tree the server could not remove.

- ``futimens`` needs no writable fd, only write permission on the inode: with any fd of a world-writable
  device node (``/dev/null``), a job set the host node's times at both tiers (a host write, and a channel
  between jobs: another job reads them with ``stat``). Now every host mount is read-only in the job's mount
  namespace (``EROFS``), while ``futimens`` on the job's own files still works: at strict, and at standard
  wherever the kernel gives the job a mount namespace all the same (as it may an IPC namespace; where it
  does not, this stays open: seccomp cannot tell a device's fd from a scratch file's).
- At standard the scratch dir is on the host's disk and the server measured it by walking it, so files a job
  deleted (or made with ``O_TMPFILE``) but kept open took disk that no walk saw: 1.1 GiB held against a
  256 MiB job until its wall limit. The server now counts what the job's processes hold open or mapped.
- Without a cgroup (standard) memory was capped per process only: a job of n processes used n times its
  limit, and what it queued in socket pairs (kernel memory) counted nowhere. The server now measures the
  job's processes together (statm, then PSS) plus the buffers of the slot uid's UNIX sockets (sock_diag).
- A job that filled its scratch dir between two 50 ms looks and ended was reported within its limits: the
  scratch dir is measured once more at the end.
- UNIX sockets a job leaves in flight (each end of a pair sent inside the other, then both closed) outlive it
  until the kernel collects them, their buffers still charged to the slot's memory cgroup: at strict the next
  job in that slot failed to start ("Device or resource busy" setting its lower memory limit). A slot whose
  group holds more than a little page cache when a job starts now gets a fresh group (the old one's charges
  go to the group over all jobs, so they still count against the budget until freed).
- ``shutil.rmtree`` recurses once per level (Python 3.11: RecursionError past ~1,000, which
  ``ignore_errors`` does not catch, in the server's main loop): the server removes a scratch dir with a
  loop of its own.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

import pytest

from palaestra.sandbox import Limits, LocalBackend, ProbeReport
from palaestra.sandbox.local.jail import DEVICES
from palaestra.sandbox.local.server import remove_tree

TOUCH_DEVICES = f"""
import os, time
for path in {list(DEVICES)!r}:
    fd = os.open(path, os.O_RDONLY)
    before = os.stat(path).st_mtime_ns
    time.sleep(0.02)  # past a coarse clock tick
    try:
        os.utime(fd)
    except OSError as exc:
        print("refused", path, exc.errno)
    else:
        print("TOUCHED" if os.stat(path).st_mtime_ns != before else "unchanged", path)
    os.close(fd)
"""


def test_a_job_cannot_set_the_times_of_host_device_nodes(jail: LocalBackend, report: ProbeReport) -> None:
    if report.available["namespaces"] is not None:
        pytest.skip("no mount namespace for a job on this host: futimens on /dev/null is not isolated (README)")
    before = {path: os.stat(path).st_mtime_ns for path in DEVICES if os.path.exists(path)}
    r = jail.run(TOUCH_DEVICES)
    assert r.exit_code == 0, r
    assert "TOUCHED" not in r.stdout, r
    assert r.stdout.count("refused") + r.stdout.count("unchanged") == len(before), r
    after = {path: os.stat(path).st_mtime_ns for path in before}
    assert after == before, "a job changed the times of the host's device nodes"


def test_touch_still_works_in_a_shell_job(jail: LocalBackend) -> None:
    if not jail.languages()["bash"].available:
        pytest.skip("no bash toolchain here")
    r = jail.run("touch a && cp -p a b && echo ok; ls", language="bash")
    assert r.exit_code == 0 and r.stdout == "ok\na\nb\nmain.sh\n", r


def test_a_job_still_sets_the_times_of_its_own_files(jail: LocalBackend) -> None:
    r = jail.run("import os\nfd = os.open('f', os.O_CREAT | os.O_WRONLY)\nos.utime(fd, (1, 1))\nprint(os.stat('f').st_mtime)")
    assert r.exit_code == 0 and r.stdout == "1.0\n", r


HOLD = """
import os, time
chunk = b"x" * (1 << 20)
held = []
try:
    for i in range(40):
        if {tmpfile}:
            fd = os.open(".", os.O_TMPFILE | os.O_RDWR, 0o600)
        else:
            fd = os.open(f"u{{i}}", os.O_RDWR | os.O_CREAT, 0o600)
            os.unlink(f"u{{i}}")
        held.append(fd)
        for _ in range(16):
            os.write(fd, chunk)
except OSError as exc:
    print("refused", exc.errno)
print("held MiB", 16 * len(held), flush=True)
time.sleep(1.5)
print("alive")
"""


@pytest.mark.parametrize("tmpfile", [False, True], ids=["unlinked", "tmpfile"])
def test_files_a_job_holds_unnamed_count_against_its_scratch(jail: LocalBackend, tmpfile: bool) -> None:
    limits = Limits(wall_seconds=4, cpu_seconds=4, memory_bytes=128 << 20)
    r = jail.run(HOLD.format(tmpfile=tmpfile), limits=limits)
    stopped = r.exit_code is None and r.memory_exceeded
    refused = "refused" in r.stdout  # a tmpfs of its own is full
    assert stopped or refused, r
    assert "held MiB 640" not in r.stdout, r


def test_a_scratch_tree_of_any_depth_is_removed() -> None:
    root = tempfile.mkdtemp(prefix="palaestra-deep-")
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        for _ in range(max(1500, sys.getrecursionlimit() + 100)):
            os.mkdir("d", dir_fd=fd)
            with open(os.open("f", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=fd), "w") as f:
                f.write("x")
            os.symlink("/etc", "l", dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        os.close(fd)
        remove_tree(root)
        assert not os.path.exists(root)
        assert os.path.exists("/etc/passwd") or os.path.isdir("/etc")  # a symlink is removed, not followed
    finally:
        if os.path.exists(root):
            shutil.rmtree(root, ignore_errors=True)


SPREAD = """
import os, time
for k in range(8):
    if os.fork() == 0:
        try:
            block = bytearray(100 << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            print("child has 100 MiB", flush=True)
        except MemoryError:
            pass
        time.sleep(2)
        os._exit(0)
time.sleep(2.5)
print("parent done")
"""

FORKS_AND_ONE_BLOCK = """
import os
pids = []
for k in range(12):
    pid = os.fork()
    if pid == 0:
        os._exit(sum(range(100000)) % 7)
    pids.append(pid)
codes = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]
block = bytearray(150 << 20)
for i in range(0, len(block), 4096):
    block[i] = 1
print(len(codes), len(block) >> 20)
"""


def test_memory_spread_over_processes_is_bounded_per_job(jail: LocalBackend) -> None:
    """Without a cgroup (standard) each process had its own RLIMIT_AS: 12 children of 200 MiB used 2.36 GiB
    of RSS against a 256 MiB job, unreported. The server now measures the job's processes together (PSS)."""
    r = jail.run(SPREAD, limits=Limits(wall_seconds=5, cpu_seconds=5, memory_bytes=128 << 20))
    assert r.memory_exceeded, r


def test_a_job_within_its_memory_is_left_alone(jail: LocalBackend) -> None:
    r = jail.run(FORKS_AND_ONE_BLOCK, limits=Limits(wall_seconds=5, cpu_seconds=5, memory_bytes=256 << 20))
    assert r.exit_code == 0 and r.stdout == "12 150\n" and not r.memory_exceeded, r


MANY_FILES_QUICKLY = """
for i in {count}:
    open(f"f{{i}}", "w").close()
print("made them")
"""


def test_a_job_that_fills_its_scratch_between_two_looks_is_reported(jail: LocalBackend) -> None:
    """Without a tmpfs (standard) the scratch dir is measured every 50 ms: a job that made 120 files (against
    64) and ended before the next look was reported as within its limits. It is measured once more at its end."""
    r = jail.run(MANY_FILES_QUICKLY.format(count="range(120)"), limits=Limits(files=64))
    # A tmpfs of its own runs out of inodes (the job fails); on the host's disk the excess is reported.
    assert r.memory_exceeded or (r.exit_code != 0 and "made them" not in r.stdout), r
    ok = jail.run(MANY_FILES_QUICKLY.format(count="range(20)"), limits=Limits(files=64))
    assert ok.exit_code == 0 and ok.stdout == "made them\n" and not ok.memory_exceeded, ok


SOCKET_BUFFERS = """
import os, socket, time
for k in range(3):
    if os.fork() == 0:
        break
pairs, total = [], 0
chunk = b"x" * 65536
try:
    while len(pairs) < 120 and total < 300 << 20:
        a, b = socket.socketpair()
        for s in (a, b):
            s.setblocking(False)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 24)  # the kernel caps it at 2 x wmem_max
            while total < 300 << 20:
                try:
                    total += s.send(chunk)
                except BlockingIOError:
                    break
        pairs.append((a, b))
except OSError as exc:
    print("refused", exc.errno, flush=True)
print("queued MiB", total >> 20, flush=True)
time.sleep(2)
"""


def test_what_a_job_queues_in_socket_pairs_counts_as_its_memory(jail: LocalBackend) -> None:
    """Socket buffers are kernel memory in no process's RSS: without a cgroup (standard) one process queued
    1.9 GiB in 120 socket pairs (wmem_max 4 MiB here) against a 256 MiB job, until its wall limit. The server
    now adds what the slot uid's UNIX sockets hold (sock_diag) to the job's memory."""
    r = jail.run(SOCKET_BUFFERS, limits=Limits(wall_seconds=4, cpu_seconds=4, memory_bytes=128 << 20))
    assert r.memory_exceeded and r.exit_code is None, r


CYCLES_IN_FLIGHT = """
import array, socket
chunk = b"x" * 65536
for i in range(8):
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    for x, y in ((a, b), (b, a)):  # each end in flight inside the other: garbage once both are closed
        x.sendmsg([b"z"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [y.fileno()]))])
    for s in (a, b):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 24)
        try:
            while True:
                s.send(chunk)
        except BlockingIOError:
            pass
    a.close()
    b.close()
print("left them")
"""


def test_sockets_a_job_left_in_flight_do_not_count_against_the_next(jail: LocalBackend) -> None:
    """The kernel collects UNIX sockets left in flight some time after the job that made them ended, and they
    keep its uid until then: the next job in the slot starts from what they hold."""
    for _ in range(3):
        jail.run(CYCLES_IN_FLIGHT)
        r = jail.run("import socket\na, b = socket.socketpair()\nprint('ok')", limits=Limits(memory_bytes=64 << 20))
        assert r.stdout == "ok\n" and not r.memory_exceeded, r
