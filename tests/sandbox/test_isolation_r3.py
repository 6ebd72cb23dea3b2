"""Hostile review, round 3: what a job must not find of other jobs, and what must not outlive it.

Each job is forked from a clean zygote that never held another job's data, so no byte of
another job's source, stdin, files or output is anywhere in a job's address space; the
checks here scan the whole address space of live jobs from outside (``/proc/PID/mem``),
with a positive control, and replay the reward hack that read a sibling's output."""

from __future__ import annotations

import os
import threading
import time
import uuid
from pathlib import Path

import pytest
from sandbox_support import sandbox_processes

from palaestra.sandbox import Limits, LocalBackend

MAX_REGION = 1 << 30


def _memory(pid: int) -> bytes:
    """Every readable mapping of a live process, concatenated (unreadable ones skipped)."""
    chunks = []
    try:
        maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
        mem = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
    except OSError:
        return b""
    try:
        for line in maps:
            span, perms = line.split()[:2]
            lo, hi = (int(x, 16) for x in span.split("-"))
            if "r" not in perms or hi - lo > MAX_REGION or line.endswith("[vvar]"):
                continue
            try:
                chunks.append(os.pread(mem, hi - lo, lo))
            except OSError:
                pass
    finally:
        os.close(mem)
    return b"\0".join(chunks)


def _job_pids(backend: LocalBackend, count: int, within: float = 10.0) -> dict[int, list[int]]:
    """Wait for ``count`` jobs (sandbox uids) to be running; {uid: pids}."""
    uids = backend.probe().uids
    if uids is None:
        pytest.skip("the sandbox runs jobs as the caller here (not root): no per-job uid to find them by")
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        by_uid: dict[int, list[int]] = {}
        for pid, uid, _ in sandbox_processes(uids):
            by_uid.setdefault(uid, []).append(pid)
        if len(by_uid) >= count:
            time.sleep(0.5)  # time to read their stdin and fall asleep
            return by_uid
        time.sleep(0.05)
    pytest.fail(f"{count} sandbox jobs did not start within {within} s")


HOLDER = """
import sys, time
held = sys.stdin.read()  # this job's own data: the positive control
time.sleep(4)
"""


def test_no_job_holds_another_jobs_bytes(jail: LocalBackend) -> None:
    marker = "MARK" + uuid.uuid4().hex
    # An earlier job: its source, stdin, input file and output all carry the marker.
    earlier = jail.run(
        f"import sys\nsecret = '{marker}-SOURCE'\nprint('{marker}-OUTPUT', sys.stdin.read(), open('in.txt').read())",
        stdin=f"{marker}-STDIN",
        files={"in.txt": f"{marker}-FILE"},
    )
    assert earlier.ok and f"{marker}-OUTPUT" in earlier.stdout, earlier
    # A job running alongside, holding its own marked stdin, and a plain job next to it.
    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(jail.run(HOLDER, stdin=f"{marker}-LIVE"))),
        threading.Thread(target=lambda: results.append(jail.run("import time\ntime.sleep(4)"))),
    ]
    for t in threads:
        t.start()
        time.sleep(0.3)
    try:
        by_uid = _job_pids(jail, 2)
        found: dict[int, set[str]] = {}
        for uid, pids in by_uid.items():
            for pid in pids:
                memory = _memory(pid)
                for part in ("SOURCE", "STDIN", "FILE", "OUTPUT", "LIVE"):
                    if f"{marker}-{part}".encode() in memory:
                        found.setdefault(uid, set()).add(part)
    finally:
        for t in threads:
            t.join()
    # The holder has its own stdin in memory (the scan works); nobody has anything else.
    assert sorted(found.values(), key=sorted) == [{"LIVE"}], found


REPLAY = r'''
import ctypes, os, re, sys

# No solution logic: find, in the memory this process was forked with, an earlier job that had
# the same stdin, and print that job's output (the sandbox's request and reply frames).
stdin = sys.stdin.buffer.read()
libc = ctypes.CDLL(None, use_errno=True)
libc.write.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
libc.sbrk.restype = ctypes.c_void_p
r, w = os.pipe()

def readable(addr):  # write(2) from an unmapped address fails with EFAULT instead of crashing
    if libc.write(w, ctypes.c_void_p(addr), 1) == 1:
        os.read(r, 1)
        return True
    return False

def region(addr):
    page = lo = hi = addr & ~0xFFF
    while lo > 4096 and readable(lo - 4096) and page - lo < (256 << 20):
        lo -= 4096
    while readable(hi) and hi - page < (256 << 20):
        hi += 4096
    return ctypes.string_at(lo, hi - lo) if hi > lo else b""

buffer = ctypes.create_string_buffer(1 << 20)
seeds = [id(stdin), id(sys), id(re), ctypes.addressof(buffer), libc.sbrk(0) - 64]
memory = b"\0".join(region(seed) for seed in seeds)
f = sys._getframe()
while f is not None:  # the server's frames, if this process was forked from it
    for value in list(f.f_locals.values()):
        for job in list(getattr(value, "jobs", {}).values()) if isinstance(getattr(value, "jobs", None), dict) else ():
            if getattr(job, "spec", {}).get("stdin") == stdin and job.out:
                sys.stdout.buffer.write(bytes(job.out))
                sys.exit(0)
    f = f.f_back
ids = set()
for m in re.finditer(b"stdin[\x73\xf3]" + re.escape(len(stdin).to_bytes(4, "little") + stdin), memory):
    k = memory.find(b"\x02id", m.end(), m.end() + 4096)
    if k >= 0:
        ids.add(memory[k + 4 : k + 8])
found = []
for rid in ids:
    for m in re.finditer(b"\x02id[\x69\xe9]" + re.escape(rid), memory):
        k = memory.find(b"stdout", m.end(), m.end() + 200)
        if k >= 0 and memory[k + 6] in (0x73, 0xF3):
            n = int.from_bytes(memory[k + 7 : k + 11], "little")
            found.append(memory[k + 11 : k + 11 + n])
found.sort(key=lambda out: out.count(b"\n"))
sys.stdout.buffer.write(found[-1] if found else b"0\n")
'''


def test_a_replayed_sibling_output_scores_nothing(backend: LocalBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reward hack of the review: on ``code/dp_programs`` a program with no solution logic
    scored 1.0 by printing the output of an earlier, correct job on the same stdin."""
    from palaestra import sandbox
    from palaestra.core.registry import make_source
    from palaestra.verifiers.polyglot import Program

    monkeypatch.setattr(sandbox, "get_backend", lambda: backend)
    env = make_source("code/dp_programs")
    problem = env.sample(level=2, seed=7)
    alone = env.judge(problem, Program("python", REPLAY))  # type: ignore[attr-defined]
    assert alone.error is None and alone.passed == 0, alone
    sibling = env.judge(problem, Program("python", env.sources(problem)["python"]))  # type: ignore[attr-defined]
    assert sibling.passed == sibling.total, sibling
    replayed = env.judge(problem, Program("python", REPLAY + "\n# a second attempt\n"))  # type: ignore[attr-defined]
    assert replayed.error is None and replayed.passed == 0, replayed


def test_a_job_sees_no_server_frames(jail: LocalBackend) -> None:
    """The frames a job inherits from the zygote reach no object holding jobs or requests."""
    source = """
import sys
f, holders = sys._getframe(), []
while f is not None:
    for name, value in list(f.f_locals.items()):
        if any(hasattr(value, a) for a in ("jobs", "pending", "decoder", "sessions")):
            holders.append((f.f_code.co_name, name))
    f = f.f_back
print(holders)
"""
    r = jail.run(source, limits=Limits(wall_seconds=5))
    assert r.ok and r.stdout == "[]\n", r
