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


# -- what must not outlive a job: System V IPC, memory outside the job's limit, scratch ---------


def _ipc_of(uids: tuple[int, int] | None) -> list[str]:
    """Rows of the host's System V IPC tables owned or created by a sandbox uid."""
    if uids is None:
        return []
    rows = []
    for kind, uid_col, cuid_col in (("shm", 7, 9), ("msg", 7, 9), ("sem", 4, 6)):
        for row in Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]:
            cols = row.split()
            if any(uids[0] <= int(cols[c]) <= uids[1] for c in (uid_col, cuid_col)):
                rows.append(f"{kind}: {row}")
    return rows


IPC = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000
made = []
for name, args in (("shmget", (0, 64 << 20, IPC_CREAT | 0o666)), ("msgget", (0, IPC_CREAT | 0o666)),
                   ("semget", (0, 4, IPC_CREAT | 0o666))):
    ident = getattr(libc, name)(*args)
    made.append(f"{name}={'denied' if ident < 0 else 'made'}")
if "shmget=made" in made:  # touch its pages: 64 MB the job's limits must account for
    shm = libc.shmget(0, 64 << 20, IPC_CREAT | 0o666)
    libc.shmat.restype = ctypes.c_void_p
    addr = libc.shmat(shm, None, 0)
    if addr not in (None, ctypes.c_void_p(-1).value):
        ctypes.memset(addr, 7, 64 << 20)
print(" ".join(made))
"""


@pytest.mark.parametrize("tier", ["strict", "standard", "minimal"])
def test_sysv_ipc_objects_die_with_the_job(tier: str, report: object) -> None:
    from sandbox_support import backend_for, require

    from palaestra.sandbox.local.tiers import TIERS

    require(report, *sorted(TIERS[tier]))  # type: ignore[arg-type]
    backend = backend_for(tier)
    uids = backend.probe().uids
    r = backend.run(IPC, limits=Limits(wall_seconds=10, memory_bytes=256 << 20))
    assert r.error is None and r.stdout.strip(), r
    if "seccomp" in TIERS[tier]:
        assert r.stdout.split() == ["shmget=denied", "msgget=denied", "semget=denied"], r
    assert _ipc_of(uids) == []


MEMFD = """
import os
total, fds = 0, []
try:
    for _ in range(64):
        fd = os.memfd_create("x")
        fds.append(fd)
        for _ in range(4):
            os.write(fd, b"x" * (4 << 20))
            total += 4 << 20
except OSError as exc:
    print("stopped:", type(exc).__name__, flush=True)
print(total >> 20, flush=True)
"""


def test_memfd_memory_is_bounded_by_the_job_limit(jail: LocalBackend) -> None:
    """640 MB of memfd pages against a 256 MB limit: refused, or counted against the limit."""
    r = jail.run(MEMFD, limits=Limits(wall_seconds=10, memory_bytes=256 << 20))
    assert r.error is None, r
    written = int(r.stdout.split()[-1]) if r.stdout.strip() and r.stdout.split()[-1].isdigit() else None
    assert r.memory_exceeded or r.signal is not None or (written is not None and written <= 256 + 16), r


SCRATCH_FILES = """
import os
n = 0
try:
    for n in range(1, 5001):
        with open(f"f{n}", "w") as f:
            f.write("x")
except OSError as exc:
    print("stopped:", type(exc).__name__)
print(n, flush=True)
"""


def test_scratch_file_count_is_bounded(jail: LocalBackend) -> None:
    r = jail.run(SCRATCH_FILES, limits=Limits(wall_seconds=10, files=64))
    assert r.error is None, r
    last = r.stdout.split()[-1] if r.stdout.strip() else ""
    assert r.memory_exceeded or (last.isdigit() and int(last) < 5000 and "stopped" in r.stdout), r


SCRATCH_BYTES = """
n = 0
with open("big", "wb") as f:
    pass
try:
    for n in range(1, 200):
        with open(f"part{n}", "wb") as f:
            f.write(b"x" * (8 << 20))
except OSError as exc:
    print("stopped:", type(exc).__name__)
print(n * 8, flush=True)
"""


def test_scratch_disk_is_bounded(jail: LocalBackend) -> None:
    """1.6 GB in 8 MB files (each under the file-size limit) against a 128 MB job."""
    r = jail.run(SCRATCH_BYTES, limits=Limits(wall_seconds=20, memory_bytes=128 << 20, files=500))
    assert r.error is None, r
    last = r.stdout.split()[-1] if r.stdout.strip() else ""
    assert r.memory_exceeded or (last.isdigit() and int(last) <= 128 + 8), r


# -- metadata writes and information the other layers do not cover -----------------------------

METADATA = """
import ctypes, json, os, sys
target = json.loads(sys.stdin.read())
out = {}
def attempt(name, fn):
    try:
        fn()
        out[name] = "done"
    except OSError as exc:
        out[name] = exc.errno
attempt("utime", lambda: os.utime(target, (1, 1)))
attempt("setxattr", lambda: os.setxattr(target, "user.palaestra", b"1"))
attempt("removexattr", lambda: os.removexattr(target, "user.palaestra"))
libc = ctypes.CDLL(None, use_errno=True)
def raw(name, nr, *args):
    ctypes.set_errno(0)
    out[name] = "done" if libc.syscall(nr, *args) >= 0 else ctypes.get_errno()
raw("inotify_init1", {"x86_64": 294, "aarch64": 26}[os.uname().machine], 0)
raw("listmount", 458, 0, 0, 0, 0)
raw("statmount", 457, 0, 0, 0, 0)
with open("mine", "w") as f:
    os.utime(f.fileno(), (1, 1))  # its own file, by fd: allowed
out["own"] = os.stat("mine").st_mtime
print(json.dumps(out))
"""


def test_no_metadata_writes_or_host_watch(jail: LocalBackend, victim: object) -> None:
    import errno
    import json

    target = str(victim.writable)  # type: ignore[attr-defined]
    before = os.stat(target)
    r = jail.run(METADATA, stdin=json.dumps(target), limits=Limits(wall_seconds=5))
    assert r.ok, r
    out = json.loads(r.stdout)
    for name in ("utime", "setxattr", "removexattr", "inotify_init1"):
        assert out[name] == errno.EPERM, (name, out)
    for name in ("listmount", "statmount"):
        assert out[name] in (errno.EPERM, errno.ENOSYS), (name, out)
    assert out["own"] == 1.0
    after = os.stat(target)
    assert (after.st_mtime_ns, after.st_atime_ns) == (before.st_mtime_ns, before.st_atime_ns)


VERILOG_HOG = """module main;
  reg [63:0] mem [0:200000000];
  integer i;
  initial begin
    for (i = 0; i < 200000000; i = i + 1) mem[i] = i;
    $display("done");
  end
endmodule
"""


def test_a_verilog_program_out_of_memory_is_reported_as_such(jail: LocalBackend) -> None:
    from sandbox_support import require_language

    require_language(jail, "verilog")
    r = jail.run(VERILOG_HOG, language="verilog", limits=Limits(wall_seconds=10, memory_bytes=256 << 20))
    assert r.error is None and not r.compile_failed, r
    assert r.memory_exceeded and r.exit_code is None and "done" not in r.stdout, r


def test_the_hosts_temporary_file_names_are_hidden_where_the_job_has_a_mount_namespace(
    jail: LocalBackend, report: object
) -> None:
    """A private, empty /tmp and /dev/shm (the job's scratch dir carried over): not even the name
    of a host temporary file can be stat'ed. Without a mount namespace (standard) Landlock only
    keeps their contents from being read."""
    name = f"/tmp/palaestra-host-{uuid.uuid4().hex}"
    Path(name).write_text("host")
    try:
        probe = f"import os\nprint(os.path.exists({name!r}), os.path.isdir('/tmp'), os.getcwd().startswith('/tmp'))"
        r = jail.run(probe, limits=Limits(wall_seconds=5))
        assert r.ok, r
        private = "tmpfs" in jail.probe().layers
        assert r.stdout.split() == [str(not private), "True", "True"], r
    finally:
        os.unlink(name)
