"""The sandbox server: a lean pre-loaded interpreter that runs one jailed monitor per job.

Jobs are forked from the server's *zygote* (:mod:`.zygote`), a copy of the server made at
start-up before any request was read, so that no job inherits another job's data.

Started by :class:`~palaestra.sandbox.local.backend.LocalBackend` as ``python -I -S`` with an
empty environment (see :data:`BOOT`); it imports nothing outside the standard library and
this directory. At start-up it claims a block of sandbox uids (a lock file, so several
servers on one host never share a uid), probes the host's isolation layers, makes an empty
network namespace and, when the interpreter is not world-readable, read-only views of it,
pre-imports common modules and says hello. Then a single-threaded ``selectors`` loop serves
framed requests on stdin, collects each job's output, enforces wall clocks (SIGCHLD and
deadlines wake it within milliseconds) and answers on stdout.

Example (what the client does)::

    subprocess.Popen([sys.executable, "-I", "-S", "-c", BOOT, package_root, json.dumps(config)], env={}, ...)
"""

from __future__ import annotations

import collections
import fcntl
import gc
import json
import os
import selectors
import shutil
import signal
import socket
import stat
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import jail, landlock, languages, probe, seccomp, syscalls
from .cgroups import SlotCgroup, limit_total, v1_roots, weigh_total
from .protocol import Decoder, StatusDecoder, StatusViolation, encode
from .stages import COMPILE_INODES, COMPILE_TASKS
from .tiers import TIERS, best_tier
from .zygote import Zygote, kill_as

BOOT = """\
import os, sys, types
for name in ("palaestra", "palaestra.sandbox", "palaestra.sandbox.local"):
    module = types.ModuleType(name)
    module.__path__ = [os.path.join(sys.argv[1], *name.split("."))]
    sys.modules[name] = module
from palaestra.sandbox.local.server import main
main(sys.argv[2])
"""
PRELOAD = (  # cheap to keep, costly to import per job; not hashlib (OpenSSL: +4 MB to every fork)
    "unittest", "json", "math", "cmath", "collections", "itertools", "functools", "operator", "re",
    "string", "random", "heapq", "bisect", "fractions", "decimal", "statistics", "typing",
    "dataclasses", "datetime", "copy", "textwrap", "array", "enum", "contextlib", "struct", "time",
)  # fmt: skip
BLOCK = 128  # uids (and so concurrent jobs plus sessions) per server
BLOCK_LOCKS = "/tmp/palaestra-sandbox-blocks-{euid}"  # the block locks of every server of a euid on this host
MAX_BLOCKS = 40
PIPE_GRACE = 0.5  # seconds to wait for EOF on output pipes once the monitor is gone
READ_CHUNK = 1 << 16
SCRATCH_CHECK = 0.05  # seconds between measurements of a scratch dir on the host's disk
LEFT_CHARGED = 16 << 20  # bytes a finished job may leave charged to its slot's group (page cache it read)
MEMORY_CHECK = 0.05  # seconds between measurements of the memory of a job without a cgroup
# A measurement of a job without a tmpfs or a cgroup reads /proc (its processes' fds, mappings, page tables),
# which the job can make long (many mappings): the next one waits this many times as long beyond its interval,
# so one job's measurements take at most about a tenth of the server's time.
CHECK_COST_RATIO = 9
COMPILE_SLACK = 1.0
# Fairness: a run's CPU weight falls as the CPU it has used grows (least attained service, in
# levels: CPU_POLICIES), so a short job, which starts at the top, outweighs the CPU hogs (which
# have all used more). The weight is its cgroup's cpu.shares (else the nice value of its uid);
# each level says how often the server looks at the CPU time of a run in it (a run may overshoot
# a level by that long times the cores). A session's cell is weighed the same way, by the CPU the
# cell has used (from the top at every cell); a compile, see COMPILE_FLOOR. A run that has left
# the top level ("demoted") or has run for ADMIT_WINDOW seconds stops counting against max_jobs,
# so short jobs do not queue behind long ones either.
# Beyond max_jobs, runs start only while the memory that running runs hold fits in the memory budget
# (MEMORY_SHARE of the host's memory): a run holds its whole limit until it is a long runner, then
# what its cgroup is charged now, so CPU hogs do not keep short jobs waiting for memory they never
# use. A long runner has used LONG_RUNNER_AFTER seconds of CPU, or has been demoted and then used
# SETTLE_CPU more without its charge growing by SETTLE_GROWTH (a job that allocates as it starts is
# held by its whole limit until it has allocated; a demoted hog gets little CPU while short jobs
# run, and would hold its whole limit long before reaching LONG_RUNNER_AFTER; the window is short
# for the same reason: 2 ms of CPU at the next level's weight, while a job filling a large block
# grows by SETTLE_GROWTH in well under 1 ms; a slow grower passes for settled at any window, and is
# the kernel's and the rerun's case). With cgroups, one cgroup over all slots bounds their memory
# together by the budget (the kernel's guarantee that the host is never exhausted, whatever a long
# runner allocates later). A run that its own limit allowed but the budget did not (its charge
# looked settled before it allocated, or another long runner grew) is run again, from the front of
# the queue and held by its whole limit, when it was received less than RETRY_WITHIN ago; else it is
# told so as an error. A rerun held by its whole limit can still be the kernel's victim when a long
# runner beside it grows, so it may run again up to MOST_RERUNS times; a run whose own limit is
# beyond the budget, only once (it may be its own allocation that the budget stops). Without cgroups, every run holds its whole limit (nothing else would bound
# the total).


@dataclass(frozen=True)
class CpuLevel:
    below: float  # CPU seconds used: a run at or beyond it moves to the next level (the last: never)
    shares: int  # its cgroup's cpu.shares (the kernel's range: 2 to 262144)
    nice: int  # without the cpu controller: its uid's nice value
    check: float  # seconds between two looks at the CPU time of a run in this level


CPU_POLICIES = {
    # A short job (a Python one takes about 10 ms of CPU: the interpreter is forked ready) ends in
    # the top level or the next; each level weighs 32 times the next (at the bottom 16 and 8
    # times), so a run outweighs up to 32 runs a level below it (runs that have used more CPU).
    # The top level is narrow: every hog takes its width at full weight before the server can
    # tell it from a short job, so each hog among as many short jobs costs a short job's CPU.
    "levels": (
        CpuLevel(0.01, 262144, 0, 0.005),
        CpuLevel(0.1, 8192, 3, 0.02),
        CpuLevel(0.5, 256, 8, 0.1),
        CpuLevel(2.0, 16, 14, 0.25),
        CpuLevel(float("inf"), 2, 19, 0.0),
    ),
    # The policy before (kept for comparison, see bench/fairness.py): full weight until 0.1 s of
    # CPU, then the lowest. Hogs each took 0.1-0.2 CPU seconds at full weight, together many
    # times what the short jobs among them needed.
    "demote-once": (
        CpuLevel(0.1, 1024, 0, 0.05),
        CpuLevel(float("inf"), 2, 19, 0.0),
    ),
}
# A compile stage (the trusted toolchain's work, bounded by compile_seconds of wall clock) drops no
# lower than this level of the policy (the second: above every run that has used 0.1 s of CPU, 32
# times below a fresh one), and the compiled program then starts again at the top, weighed by its
# own CPU: a compile takes 0.3-2 s of CPU, as much as a hog has used, and least attained service
# alone cannot tell them apart. Policies not named here weigh a compile like any other run.
COMPILE_FLOOR = {"levels": 1}
# The CPU weight of all slots together (their parent cgroup's cpu.shares) against what runs beside
# them: the server itself (it starts, watches and answers every job, one at a time), its callers and
# the host's own processes, each a nice-0 process or session at 1024. A quarter: when both want a
# CPU, the trusted side gets four fifths of it; when it does not, the jobs get every cycle it leaves.
# At the kernel's default (1024, as before) the server had half a CPU among hogs, and the short
# jobs' tail waited on it (bench/fairness.py --jobs-weight, README "Sandbox fairness").
JOBS_SHARES = 256
ADMIT_WINDOW = 0.2
LONG_RUNNER_AFTER = 0.1
SETTLE_CPU = 0.002
SETTLE_GROWTH = 1 << 20
MEMORY_SHARE = 0.5
# A run killed by the budget of all runs together is run again only this soon after it was
# received: the client waits its wall limit plus 30 s (backend.REPLY_SLACK) from sending it.
RETRY_WITHIN = 10.0
MOST_RERUNS = 3
_TICKS = os.sysconf("SC_CLK_TCK")
STATUS_SLACK = 1 << 16  # a status frame's room beyond the output files and compiler output it may carry
INTERPRETER_NSPID = 2  # a session's interpreter: the first process its monitor (PID 1) forks
IDLE_CPU_CHECK = 0.25  # seconds between looks at the CPU a session held between cells uses
IDLE_CPU_ALLOWED = 0.02  # CPU seconds a held session may use (a signal it arranged can wake it)
HELD_CPU_SHARE = 0.02  # of one CPU, the cap on a held session's cgroup (until it is seen and stopped)
WOKEN_NOTE = (b"[sandbox] this session ran between cells (something it left woke its interpreter) and was "
              b"stopped: its variables are gone\n")
EVICTED_NOTE = (b"[sandbox] this session was idle and was closed to make room for others "
                b"(least recently used first): its variables are gone\n")  # seconds the server gives a job beyond its compile limit before stopping it


def _now() -> float:
    return time.monotonic()


@dataclass(frozen=True)
class Queued:
    """A run waiting for a slot (and for room in the memory budget)."""

    rid: int
    spec: dict[str, Any]
    received: float
    reruns: int = 0  # see Job.reruns


@dataclass
class Job:
    """One run, or one session (a job that outlives its cells)."""

    rid: int | None  # request id of a run; None for a session
    spec: dict[str, Any]
    slot: jail.Slot
    pid: int = 0  # the job's first process: its monitor (PID namespace) or the program itself
    start: float = 0.0
    deadline: float | None = None
    stopping: bool = False
    timed_out: bool = False
    truncated: bool = False
    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    fds: dict[int, str] = field(default_factory=dict)  # open read ends: "out", "err", "status", "results"
    status: StatusDecoder = field(default_factory=lambda: StatusDecoder(STATUS_SLACK))  # sized by _spawn
    results: StatusDecoder = field(default_factory=lambda: StatusDecoder(STATUS_SLACK))  # a session's cell reports
    report: dict[str, Any] | None = None
    error: str | None = None
    violation: str | None = None  # how the job broke its status pipe's protocol (it was stopped for it)
    exited_at: float | None = None
    cpu: float = 0.0  # of the first process and everything it reaped
    pidfd: int | None = None  # signals the first process safely even after the zygote reaped it
    # compiled languages only
    control_fd: int | None = None  # the job waits on it for its go after the compile
    compile: dict[str, Any] | None = None  # the compile stage's report
    run_start: float | None = None  # when the compiled program got its go
    # sessions only
    sid: str | None = None
    last_used: float = 0.0  # when its last cell ended (eviction order)
    note: bytes = b""  # told to the owner before its next cell's stderr
    cells_fd: int | None = None
    cell: dict[str, Any] | None = None  # the cell in flight
    interpreter: int | None = None  # the interpreter's host pid, once looked up (see Server._hold)
    held: tuple[float, float] | None = None  # held between cells: (CPU seconds then, when last looked at)
    cells_out: bytearray = field(default_factory=bytearray)  # cells not yet written to the interpreter's pipe
    waiting: collections.deque[dict[str, Any]] = field(default_factory=collections.deque)
    after_loss: bool = False  # replaces a session that died between cells
    level: int = 0  # its CPU level (see CPU_POLICIES), by the CPU it (a session: its cell) has used
    demoted: bool = False  # a run that has left the top level: out of max_jobs (see the note on fairness)
    long_runner: bool = False  # held by its memory use (see the note on fairness)
    settle: tuple[float, int] | None = None  # (CPU seconds, bytes charged) when its memory was last seen to grow
    received: float = 0.0  # a run: when its request arrived
    reruns: int = 0  # how often it was started again after the budget of all runs killed it (then held by its whole limit)
    cpu_checked: float = 0.0
    cpu_base: float = 0.0  # CPU seconds before a session's cell in flight, or before a compiled program
    scratch_checked: float = 0.0  # without a tmpfs, when its scratch dir was last measured
    scratch_exceeded: bool = False
    memory_checked: float = 0.0  # without a cgroup, when the memory of its processes was last measured
    memory_over: bool = False  # stopped for that memory
    socket_base: int = 0  # what the slot uid's UNIX sockets held when it started (the last job's, until the
    # kernel collects sockets it left in flight: not this job's)

    @property
    def limits(self) -> dict[str, Any]:
        return self.spec["limits"]

    @property
    def language(self) -> languages.Language:
        return languages.LANGUAGES[self.spec.get("language", "python")]


def _world_readable(path: str) -> bool:
    """Whether any uid can reach and read ``path`` (ignoring ACLs)."""
    st = os.stat(path)
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(st.st_mode) else 0)
    if st.st_mode & need != need:
        return False
    parent = os.path.dirname(path)
    while parent != path:
        if not os.stat(parent).st_mode & stat.S_IXOTH:
            return False
        path, parent = parent, os.path.dirname(parent)
    return True


def _private_dir(path: str) -> None:
    """Make ``path`` a directory (if it is not one) and check that no other uid can change it."""
    os.makedirs(path, mode=0o711, exist_ok=True)
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise RuntimeError(f"{path} must be a directory owned by uid {os.geteuid()} and not writable by others")


def _try_lock(path: str) -> int | None:
    """An fd holding an exclusive lock on ``path`` (created if need be), or None if another holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _owner(pid: str) -> tuple[int | None, bool]:
    """(real uid, is a zombie) of a process, or (None, False) once it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        return None, False
    uid, zombie = None, False
    for line in lines:
        if line.startswith(b"Uid:"):
            uid = int(line.split()[1])
        elif line.startswith(b"State:"):
            zombie = line.split()[1] == b"Z"
    return uid, zombie


def _children(pid: int) -> list[int]:
    """The children of every thread of ``pid`` (none once it is gone)."""
    found: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found += [int(child) for child in f.read().split()]
        except OSError:
            pass
    return found


def _unlinked_files(pids: list[int], dev: int) -> dict[tuple[int, int], int]:
    """{(dev, inode): bytes on disk} of the regular files on device ``dev`` that ``pids`` hold open or
    mapped but that no directory names any more (deleted, or made with ``O_TMPFILE``): disk that a walk of
    the scratch dir does not see, and that stays taken as long as one of them holds the file."""
    found: dict[tuple[int, int], int] = {}

    def count(path: str) -> None:
        try:
            st = os.stat(path)  # through the magic link: the file itself, named or not
        except OSError:
            return
        if st.st_nlink == 0 and st.st_dev == dev and stat.S_ISREG(st.st_mode):
            found[(st.st_dev, st.st_ino)] = st.st_blocks * 512

    for pid in pids:
        try:
            with os.scandir(f"/proc/{pid}/fd") as listing:
                for entry in listing:
                    count(entry.path)
        except OSError:
            pass
        try:  # a mapping keeps a file after its fd is closed
            with open(f"/proc/{pid}/maps", "rb") as f:
                maps = f.read()
        except OSError:
            continue
        for line in maps.splitlines():
            if line.endswith(b" (deleted)"):
                count(f"/proc/{pid}/map_files/{line.split(b' ', 1)[0].decode()}")
    return found


def remove_tree(path: str) -> None:
    """Remove the directory ``path`` and everything in it, errors ignored, at any depth: a job can nest
    directories deeper than ``shutil.rmtree`` recurses (Python 3.11 raises RecursionError past about a thousand
    levels, which ``ignore_errors`` does not cover). One directory fd at a time (depth costs no fds), names
    relative to it (no path grows past PATH_MAX), never following a symlink. Only for a tree no process
    changes any more (a finished job's scratch dir)."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError:
        return
    names: list[str] = []  # the directories entered below ``path``, by name
    try:
        while True:
            sub = None
            with os.scandir(fd) as listing:
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        sub = entry.name
                        break
                    try:
                        os.unlink(entry.name, dir_fd=fd)
                    except OSError:
                        pass
            if sub is not None:
                child = os.open(sub, flags, dir_fd=fd)
                os.close(fd)
                fd, child = child, -1
                names.append(sub)
                continue
            if not names:
                break
            parent = os.open("..", flags, dir_fd=fd)
            os.close(fd)
            fd, parent = parent, -1
            os.rmdir(names.pop(), dir_fd=fd)  # fails only if something stays in it: then leave the rest
    except OSError:
        pass
    finally:
        os.close(fd)
    try:
        os.rmdir(path)
    except OSError:
        pass


def _resident_anonymous(pids: list[int]) -> int:
    """An upper bound on the memory ``pids`` use together, from counters the kernel keeps (cheap): the sum of
    their resident anonymous pages, counting a page that processes share copy-on-write in each of them."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                resident, shared = (int(x) for x in f.read().split()[1:3])
        except (OSError, ValueError):
            continue
        total += max(0, resident - shared) * page
    return total


_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST_DUMP = 0x1 | 0x300
_NLMSG_DONE, _NLMSG_ERROR = 3, 2
_UDIAG_SHOW_MEMINFO, _UDIAG_SHOW_UID = 0x20, 0x40
_UNIX_DIAG_MEMINFO, _UNIX_DIAG_UID = 5, 7
_NLMSG = struct.Struct("=IHHII")
_UNIX_DIAG_REQ = struct.Struct("=BBHIII8x")
_NLA = struct.Struct("=HH")


def unix_socket_memory() -> dict[int, int]:
    """{uid: bytes} the kernel holds in the buffers of every UNIX socket of this network namespace, by the uid
    that made the socket (sock_diag, Linux 5.3): what a job queues in its socket pairs (up to wmem_max per
    socket, 8 MiB on some hosts) counts in no process's memory, and, without a cgroup, in no limit. Sockets in
    flight (sent over another socket, then closed) count too: they keep their owner. Empty if the kernel will
    not say."""
    found: dict[int, int] = {}
    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW | socket.SOCK_CLOEXEC, _NETLINK_SOCK_DIAG)
    except OSError:
        return found
    with sock:
        request = _UNIX_DIAG_REQ.pack(socket.AF_UNIX, 0, 0, 0xFFFFFFFF, 0, _UDIAG_SHOW_MEMINFO | _UDIAG_SHOW_UID)
        try:
            sock.send(_NLMSG.pack(_NLMSG.size + len(request), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST_DUMP, 1, 0) + request)
            while True:
                data = sock.recv(1 << 16)
                if not data:
                    return found
                at = 0
                while at + _NLMSG.size <= len(data):
                    length, kind = _NLMSG.unpack_from(data, at)[:2]
                    if kind in (_NLMSG_DONE, _NLMSG_ERROR) or length < _NLMSG.size:
                        return found
                    uid, held = None, 0
                    attr = at + _NLMSG.size + 16  # struct unix_diag_msg
                    while attr + _NLA.size <= at + length:
                        size, name = _NLA.unpack_from(data, attr)
                        if size < _NLA.size:
                            break
                        if name == _UNIX_DIAG_UID and size >= 8:
                            uid = struct.unpack_from("=I", data, attr + 4)[0]
                        elif name == _UNIX_DIAG_MEMINFO and size >= 4 + 12:
                            rmem, _, wmem = struct.unpack_from("=III", data, attr + 4)  # RMEM_ALLOC, RCVBUF, WMEM_ALLOC
                            held = rmem + wmem
                        attr += (size + 3) & ~3
                    if uid is not None and held:
                        found[uid] = found.get(uid, 0) + held
                    at += (length + 3) & ~3
        except OSError:
            return found


def _proportional_memory(pids: list[int]) -> int:
    """The memory ``pids`` use together: the sum of their proportional set sizes (a page shared by n
    processes counts 1/n in each, so pages a fork shares copy-on-write count once)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except (OSError, ValueError):
            pass
    return total


def _status_limit(job: Job) -> int:
    """The largest frame a job's status pipe may carry: its output files and its compiler's output (base64,
    4/3 of their size) and room for the rest. A session reports only a few numbers per cell."""
    limits = job.limits
    payload = len(job.spec["output_files"]) * int(limits["file_bytes"])
    if job.language.compiled:
        payload += int(limits["output_bytes"])
    return STATUS_SLACK + payload * 4 // 3 + 4


def _status_problem(job: Job, message: dict[str, Any], pipe: str) -> str | None:
    """What is wrong with a message on a job's status or results pipe (None when it is one that pipe carries
    for the job's kind, well formed). The status pipe's writers are the jail (a setup failure), its monitor (the
    final report) and the compile stage; the results pipe's, a session's interpreter, after each cell."""
    keys = set(message)
    if pipe == "results" or "cell" in message:
        if pipe != "results" or job.sid is None or keys != {"cell", "exit_code", "cpu"}:
            return "only a cell report, on a session's results pipe"
        code, cpu = message["exit_code"], message["cpu"]
        if not (_is_int(message["cell"]) and _is_int(code) and -(2**31) <= code < 2**31 and _is_seconds(cpu)):
            return "a cell report with fields of the wrong type"
        if job.cell is None or message["cell"] != job.cell["rid"]:  # one report per cell: a flood stops here
            return "a cell report for no cell in flight"
        return None
    if "compile" in message:
        report = message["compile"]
        if job.sid is not None or not job.language.compiled or keys != {"compile"} or not isinstance(report, dict):
            return "a compile report from a job that does not compile"
        if not isinstance(report.get("failed"), bool) or not isinstance(report.get("output", b""), bytes):
            return "a compile report with fields of the wrong type"
        return None
    if "error" in message:
        return None if keys == {"error"} and isinstance(message["error"], str) else "an error report that is not text"
    if not keys <= {"wait_status", "cpu", "files"}:
        return f"unknown fields {sorted(keys - {'wait_status', 'cpu', 'files'})[:3]}"
    files = message.get("files", {})
    if not (_is_int(message.get("wait_status", 0)) and _is_seconds(message.get("cpu", 0.0)) and isinstance(files, dict)
            and all(isinstance(k, str) and isinstance(v, bytes) for k, v in files.items())):
        return "a final report with fields of the wrong type"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e9


def _pids_of(uid: int) -> list[int]:
    """The live (not zombie) processes of ``uid``."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and _owner(name) == (uid, False)]


def _ns_pid(pid: int) -> int | None:
    """The pid of a process in its own (innermost) PID namespace."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"NSpid:"):
                    return int(line.split()[-1])
    except OSError:
        pass
    return None


def _uids_present(uids: range | set[int], *, zombies: bool) -> set[int]:
    """Which of ``uids`` own a process (counting zombies or not)."""
    found = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            uid, zombie = _owner(name)
            if uid in uids and (zombies or not zombie):
                found.add(uid)
    return found


def kill_uids(uids: range | set[int], within: float = 2.0, kill_as: Callable[[int], None] = kill_as) -> None:
    """Kill every process of ``uids`` and wait until none is left alive (zombies aside).

    A uid with any process, even a zombie (which may have just forked the last survivor), is
    killed as a whole; after that its processes are doomed and can fork no more. Once jobs
    have run, ``kill_as`` is the zygote's: a helper forked from the server would carry its heap."""
    give_up = _now() + within
    for uid in _uids_present(uids, zombies=True):
        kill_as(uid)
    while (live := _uids_present(uids, zombies=False)) and _now() < give_up:
        for uid in live:
            kill_as(uid)
        time.sleep(0.001)


class Server:
    def __init__(self, config: dict[str, Any]):
        # Keep the protocol pipes away from fds 0 and 1, which jobs get their own versions of.
        self.requests, self.replies = os.dup(0), os.dup(1)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        self.max_jobs = int(config["max_jobs"])
        if config.get("tool_dirs") is not None:
            languages.SEARCH = tuple(config["tool_dirs"])
        self.sel = selectors.DefaultSelector()
        self.jobs: dict[int, Job] = {}  # by monitor pid
        self.fds: dict[int, Job] = {}
        self.writers: dict[int, Job] = {}  # sessions' cells pipes with cells still to write
        self.sessions: dict[str, Job] = {}
        self.lost: set[str] = set()  # sessions that died between cells
        self.evicted: dict[str, bytes] = {}  # sessions stopped between cells, with what their owners are told
        self.cell_backlog: collections.deque[tuple[int, dict[str, Any]]] = collections.deque()
        self.pending: collections.deque[Queued] = collections.deque()
        self.running = 0
        host_memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        self.memory_budget = int(config.get("memory_budget") or host_memory * MEMORY_SHARE)
        self.admit_by_usage = config.get("memory_admission", "usage") == "usage"  # else by limits (see above)
        self.rerun_budget_kills = bool(config.get("rerun_budget_kills", True))
        self.cpu_levels = CPU_POLICIES[config.get("cpu_policy") or "levels"]
        self.compile_floor = COMPILE_FLOOR.get(config.get("cpu_policy") or "levels")
        self.stopping = False
        self.decoder = Decoder()
        self.toolchains: dict[str, dict[str, Any]] = {}  # discovered on first use
        self.pch: dict[str, str] = {}  # language -> its precompiled headers' directory, once built
        self.pch_builds: dict[int, dict[str, Any]] = {}  # compiler pid -> its build (see _start_pch)
        self.pch_wanted = bool(config.get("precompiled_headers", True))
        syscalls.prctl(syscalls.PR_SET_CHILD_SUBREAPER, 1)  # orphans of jobs come back here
        syscalls.malloc_single_arena()
        self._claim_block(config)
        self._prepare(config)

    # -- start-up --------------------------------------------------------------------------

    def _claim_block(self, config: dict[str, Any]) -> None:
        """Claim a block of uids, and with it a name for the cgroups and for the scratch dirs. The
        uids and cgroup names are the host's, so the block is locked under BLOCK_LOCKS, shared by
        every server of this euid whatever its base dir; and under the base dir as well, where
        servers of earlier versions (which locked only there) look."""
        base = self.base_dir = config["base_dir"]
        lock_dirs = list(dict.fromkeys([BLOCK_LOCKS.format(euid=os.geteuid()), base]))
        for path in lock_dirs:
            _private_dir(path)
        uid_base, root = int(config["uid_base"]), os.geteuid() == 0
        # Prefer a block none of whose uids has a process: a crashed server's jobs may linger
        # as zombies until init reaps them, and they count against RLIMIT_NPROC.
        in_use = _uids_present(range(uid_base, uid_base + MAX_BLOCKS * BLOCK), zombies=True) if root else set()
        busy = {(uid - uid_base) // BLOCK for uid in in_use}
        for block in sorted(range(MAX_BLOCKS), key=lambda b: b in busy):
            locks = [fd for path in lock_dirs if (fd := _try_lock(os.path.join(path, f"b{block}.lock"))) is not None]
            if len(locks) == len(lock_dirs):
                self.lock_fds, self.block = locks, block
                break
            for fd in locks:
                os.close(fd)
        else:
            raise RuntimeError(f"all {MAX_BLOCKS} sandbox uid blocks are in use (locks under {' and '.join(lock_dirs)})")
        first = uid_base + block * BLOCK
        self.uids = range(first, first + BLOCK) if root else range(0)
        self.dir = os.path.join(base, f"b{block}")
        self.cgroup_name = f"palaestra-b{block}"
        if self.uids:
            kill_uids(self.uids)  # leftovers of a server that died holding this block
        shutil.rmtree(self.dir, ignore_errors=True)
        os.mkdir(self.dir, 0o711)

    def _make_netns(self) -> str | None:
        """An empty network namespace (only a downed loopback) for every job to join."""
        self.netns: int | None = None
        try:
            own = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            syscalls.unshare(syscalls.CLONE_NEWNET)
            self.netns = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            syscalls.setns(own, syscalls.CLONE_NEWNET)
            os.close(own)
        except OSError as exc:
            return str(exc)
        return None

    def _prepare(self, config: dict[str, Any]) -> None:
        probe_dir = os.path.join(self.dir, "probe")
        os.mkdir(probe_dir)
        self.report = probe.detect(
            test_uid=self.uids[0] if self.uids else 0,
            scratch=probe_dir,
            netns_error=self._make_netns(),
            cgroup_name=f"{self.cgroup_name}-probe",
        )
        shutil.rmtree(probe_dir)
        available = frozenset(k for k, v in self.report.items() if v is None)
        wanted = TIERS[config["tier"]] if config["tier"] else available
        if self.uids:  # never run a job as root, whatever tier was asked for
            wanted |= {"uid"}
        self.missing = sorted(wanted - available)
        self.layers = wanted & available
        if "netns" not in self.layers and self.netns is not None:
            os.close(self.netns)
            self.netns = None
        if "namespaces" in self.layers:
            self.own_pidns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
            syscalls.unshare(syscalls.CLONE_NEWNS)  # a private mount table, for the views
            syscalls.mount("none", "/", None, syscalls.MS_REC | syscalls.MS_PRIVATE)
        self.cgroup_roots = v1_roots() if "cgroups" in self.layers else None
        if self.cgroup_roots is not None:
            limit_total(self.cgroup_roots, self.cgroup_name, self.memory_budget)
            weigh_total(self.cgroup_roots, self.cgroup_name, int(config.get("jobs_shares") or JOBS_SHARES))
        else:
            self.admit_by_usage = False  # nothing would bound what long runners allocate later
        self.slots: dict[int, jail.Slot] = {}
        self.cgroup_generation = 0  # fresh groups made for slots (see _fresh_cgroup)
        self.stale_cgroups: list[SlotCgroup] = []
        slots = min(BLOCK, int(config.get("slots") or BLOCK))  # concurrent runs plus open sessions
        self.free = list(range(slots - 1, -1, -1))
        self.views: list[str] = []
        for name in PRELOAD:
            __import__(name)
        self.host = self._host()
        gc.collect()
        gc.freeze()  # keep the collector in jobs from touching (and so copying) the server's pages
        page = os.sysconf("SC_PAGE_SIZE")
        with open("/proc/self/statm") as f:
            vsz, rss = (int(x) * page for x in f.read().split()[:2])
        self.host.baseline_vsz = vsz
        self.baseline_rss = rss
        # Every job is forked from the zygote, made now, before any request was read.
        self.zygote = Zygote.start(
            self.host,
            new_pidns="namespaces" in self.layers,
            own_pidns=getattr(self, "own_pidns", None),
            keep=self._zygote_keeps,
        )

    def _kill_as(self, uid: int, sig: int = signal.SIGKILL) -> None:
        try:
            self.zygote.kill_uid(uid, sig)
        except (OSError, EOFError):  # the zygote is gone (the server is stopping): do it here
            kill_as(uid, sig)

    def _zygote_keeps(self) -> None:
        """In the zygote: close what only the server may hold, and forget the server object
        (the zygote's own frames still reach it, and every job inherits those frames)."""
        for fd in (self.requests, self.replies, *self.lock_fds):
            os.close(fd)
        self.__dict__.clear()

    def _host(self) -> jail.Host:
        """sys.path as jobs will see it, and the fds the jail needs, opened once."""
        entries = [p for p in sys.path if os.path.exists(p)]
        roots: list[str] = []
        for entry in sorted(entries, key=len):
            if not any(_under(entry, r) for r in roots):
                roots.append(entry)
        fds, job_roots, fd_paths = [], [], False
        for i, root in enumerate(roots):
            fds.append(os.open(root, os.O_PATH | os.O_CLOEXEC))
            if _world_readable(root):
                job_roots.append(root)
            elif "namespaces" in self.layers:  # a read-only bind mount the job's uid can reach
                view = os.path.join(self.dir, f"view{i}")
                if os.path.isdir(root):
                    os.mkdir(view, 0o755)
                else:
                    open(view, "x").close()
                syscalls.mount(root, view, None, syscalls.MS_BIND | syscalls.MS_REC)
                flags = (
                    syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_RDONLY | syscalls.MS_NOSUID | syscalls.MS_NODEV
                )
                syscalls.mount("none", view, None, flags)
                self.views.append(view)
                job_roots.append(view)
            else:  # reach it through the fd, which the jail renumbers to 3 + i
                job_roots.append(f"/proc/self/fd/{3 + i}")
                fd_paths = True
        path_map = [(r, j) for r, j in zip(roots, job_roots) if r != j]
        job_paths = []
        for entry in entries:
            i = next(i for i, r in enumerate(roots) if _under(entry, r))
            job_paths.append(job_roots[i] + entry[len(roots[i]) :])

        def opened(paths: tuple[str, ...]) -> list[int]:
            return [os.open(p, os.O_PATH | os.O_CLOEXEC) for p in paths if os.path.exists(p)]

        landlocked = "landlock" in self.layers
        secure = "seccomp" in self.layers
        charged = "cgroups" in self.layers  # a memfd's pages count against the job's memory only there
        return jail.Host(
            layers=self.layers,
            server_pid=os.getpid(),
            stdlib_fds=fds,
            job_paths=job_paths,
            path_map=path_map,
            packages=[
                name
                for name, module in sys.modules.items()
                if isinstance(getattr(module, "__path__", None), list)
                and any(_under(entry, real) for entry in module.__path__ for real, _ in path_map)
            ],
            unload=[name for name in sys.modules if name.split(".")[0] == "palaestra"],
            fd_paths=fd_paths,
            read_fds=opened(jail.SYSTEM_READ) if landlocked else [],
            device_fds=opened(jail.DEVICES) if landlocked else [],
            netns_fd=self.netns,
            seccomp_program=seccomp.build(exec_allowed=False, memfd_allowed=charged) if secure else b"",
            seccomp_exec_program=seccomp.build(memfd_allowed=charged) if secure else b"",
            landlock_abi=landlock.abi_version() if landlocked else 0,
            views=list(self.views),
        )

    def hello(self) -> dict[str, Any]:
        return {
            "report": self.report,
            "layers": sorted(self.layers),
            "missing": self.missing,
            "tier": best_tier(self.layers),
            "uids": [self.uids[0], self.uids[-1]] if self.uids else None,
            "landlock_abi": self.host.landlock_abi,
            "stdlib_via_fds": self.host.fd_paths,
            "pid": os.getpid(),
            "block_dir": self.dir,
        }

    # -- slots -----------------------------------------------------------------------------

    def _slot(self) -> jail.Slot | None:
        if not self.free:
            return None
        index = self.free.pop()
        slot = self.slots.get(index)
        if slot is None:
            cgroup = None
            if self.cgroup_roots is not None:
                cgroup = SlotCgroup.create(self.cgroup_roots, f"{self.cgroup_name}/s{index}")
            scratch = os.path.join(self.dir, f"s{index}")
            if "tmpfs" in self.layers:
                os.mkdir(scratch, 0o755)  # the mount point; each job mounts its own tmpfs on it
            uid = self.uids[index] if self.uids else None
            slot = self.slots[index] = jail.Slot(index, uid, scratch, cgroup)
        return slot

    @staticmethod
    def _cgroup_left_charged(cgroup: SlotCgroup) -> bool:
        """Whether the last job left memory charged to its slot's group beyond a little page cache: kernel memory
        that outlives its processes (UNIX sockets it left in flight, which the kernel collects later, keep their
        buffers charged there), which would count against the next job's limit, or keep it from being set."""
        try:
            return cgroup.memory_in_use() > LEFT_CHARGED
        except (OSError, ValueError):
            return False

    def _fresh_cgroup(self, slot: jail.Slot) -> None:
        """Give ``slot`` a new, empty group; the old one (no task left in it) is removed, its charges go to the
        group over all jobs until the kernel frees them (so they still count against the memory budget)."""
        assert slot.cgroup is not None and self.cgroup_roots is not None
        old = slot.cgroup
        self.cgroup_generation += 1
        slot.cgroup = SlotCgroup.create(self.cgroup_roots, f"{self.cgroup_name}/s{slot.index}.{self.cgroup_generation}")
        old.remove()
        if any(os.path.isdir(d) for d in old.dirs.values()):
            self.stale_cgroups.append(old)

    def _release(self, slot: jail.Slot) -> None:
        if "tmpfs" not in self.layers:  # every process of the uid is dead by now: nothing races this
            remove_tree(slot.scratch)
        if slot.uid is not None:  # System V IPC objects it left in the host's namespace, if it could
            syscalls.remove_ipc_of(slot.uid)
        self.free.append(slot.index)

    # -- jobs ------------------------------------------------------------------------------

    def _spawn(self, job: Job) -> None:
        limits = job.limits
        if job.slot.cgroup is not None:
            memory, tasks = int(limits["memory_bytes"]), int(limits["processes"])
            if job.language.compiled:  # lowered to the program's own limits once it compiled
                memory = max(memory, int(limits["compile_memory_bytes"]))
                tasks = max(tasks, COMPILE_TASKS)
            if self._cgroup_left_charged(job.slot.cgroup):
                self._fresh_cgroup(job.slot)
            try:
                job.slot.cgroup.configure(
                    memory_bytes=memory + self.baseline_rss, tasks=tasks + 1, shares=self.cpu_levels[0].shares
                )
            except OSError:  # still above the new limit: a fresh group starts from nothing
                self._fresh_cgroup(job.slot)
                job.slot.cgroup.configure(
                    memory_bytes=memory + self.baseline_rss, tasks=tasks + 1, shares=self.cpu_levels[0].shares
                )
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        status_r, status_w = os.pipe()
        cells_r = results_r = results_w = control_r = None
        if job.sid is not None:
            cells_r, job.cells_fd = os.pipe()
            os.set_blocking(job.cells_fd, False)  # a cell that stops reading must not block the server
            results_r, results_w = os.pipe()
        if job.language.compiled:
            control_r, job.control_fd = os.pipe2(os.O_CLOEXEC)
        pipes = jail.Pipes(out_w, err_w, status_w, cells_r, results_w, control_r)
        if "cgroups" not in self.layers and job.slot.uid is not None:
            job.socket_base = unix_socket_memory().get(job.slot.uid, 0)
        theirs = [out_w, err_w, status_w, *(fd for fd in (cells_r, results_w, control_r) if fd is not None)]
        try:
            pid, job.pidfd = self.zygote.spawn(job.slot, job.spec, pipes)
        except OSError:
            for fd in (
                *theirs,
                out_r,
                err_r,
                status_r,
                *(fd for fd in (results_r, job.cells_fd, job.control_fd) if fd is not None),
            ):
                os.close(fd)
            job.cells_fd = job.control_fd = None
            raise
        job.pid, job.start = pid, _now()
        job.status = StatusDecoder(_status_limit(job))
        if job.rid is not None:
            job.deadline = job.start + float(limits["wall_seconds"])
            if job.language.compiled:  # a backstop: the job kills its own compiler at compile_seconds
                job.deadline += float(limits["compile_seconds"]) + COMPILE_SLACK
        for fd in theirs:
            os.close(fd)
        reads = [(out_r, "out"), (err_r, "err"), (status_r, "status")]
        if results_r is not None:
            reads.append((results_r, "results"))
        for fd, kind in reads:
            os.set_blocking(fd, False)
            self.sel.register(fd, selectors.EVENT_READ)
            self.fds[fd] = job
            job.fds[fd] = kind
        self.jobs[pid] = job

    def _stop(self, job: Job) -> None:
        """SIGKILL the job's first process: PID 1 of its namespace takes every process of the
        job with it; without a namespace, the rest are found when it is reaped."""
        job.stopping = True
        if job.exited_at is not None:
            return  # reaped: its pid may be anyone's now
        try:
            if job.pidfd is not None:
                signal.pidfd_send_signal(job.pidfd, signal.SIGKILL)
            else:
                os.kill(job.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:  # its group too: without a PID namespace, its children (it may not have made the group yet)
            os.killpg(job.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _read(self, fd: int) -> int:
        """Read once from one of a job's pipes; the number of bytes read (0: EOF or none ready)."""
        job = self.fds[fd]
        try:
            data = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return 0
        if not data:
            self._close(fd)
            return 0
        kind = job.fds[fd]
        if kind in ("status", "results"):
            try:
                for message in (job.status if kind == "status" else job.results).feed(data):
                    problem = _status_problem(job, message, kind)
                    if problem is not None:
                        raise StatusViolation(problem)
                    self._status(job, message)
            except StatusViolation as exc:  # a session's cell wrote nonsense on its results pipe
                self._violated(job, fd, str(exc))
            return len(data)
        buf = job.out if kind == "out" else job.err
        limit = int((job.cell or job.spec)["limits"]["output_bytes"])
        if len(buf) + len(data) > limit:
            job.truncated = True
            buf += data[: max(0, limit - len(buf))]
            if job.rid is not None:
                self._stop(job)  # a run flooding its output is stopped; a session cell goes on
        else:
            buf += data
        return len(data)

    def _drain(self, job: Job) -> None:
        """Read all the output already in the job's pipes."""
        for fd, kind in list(job.fds.items()):
            if kind in ("out", "err"):
                while fd in job.fds and self._read(fd):
                    pass

    def _close(self, fd: int) -> None:
        job = self.fds.pop(fd)
        self.sel.unregister(fd)
        os.close(fd)
        del job.fds[fd]

    def _violated(self, job: Job, fd: int, problem: str) -> None:
        """Stop a job whose status or results pipe broke the protocol, and read that pipe no more. Only a
        session's own code can write on its results pipe (it runs in the reporting process): its cell is told,
        as the cell's failure, never as the sandbox's error."""
        job.violation = problem
        if fd in job.fds:
            self._close(fd)
        self._stop(job)

    def _status(self, job: Job, message: dict[str, Any]) -> None:
        if "cell" in message:
            if job.stopping:  # stopped meanwhile (its deadline, a close): the cell is answered as lost, by its exit
                return
            self._drain(job)
            self._finish_cell(job, message)
        elif "compile" in message:
            self._compiled(job, message["compile"])
        elif "error" in message:
            job.error = message["error"]
        else:
            job.report = message

    def _compiled(self, job: Job, report: dict[str, Any]) -> None:
        """The compile stage is over: on success, put the job under its program's own limits
        (cgroup memory and tasks, wall clock from now) and give it its go."""
        job.compile = report
        if report["failed"] or job.stopping or job.control_fd is None:
            return
        limits = job.limits
        cgroup = job.slot.cgroup
        try:
            if cgroup is not None:
                cgroup.set_limits(
                    memory_bytes=int(limits["memory_bytes"]) + self.baseline_rss, tasks=int(limits["processes"]) + 1
                )
        except OSError:  # the compile left more memory in use than the program may have
            job.compile["memory_after"] = True
            self._stop(job)
            return
        try:
            os.write(job.control_fd, b"g")
        except BrokenPipeError:
            return  # the job is already gone; its exit reports it
        job.run_start = _now()
        job.deadline = job.run_start + float(limits["wall_seconds"])
        if self.compile_floor is not None:  # the program is weighed by its own CPU, from the top
            job.cpu_base, job.cpu_checked, job.settle = self._cpu_so_far(job), job.run_start, None
            if job.level:
                self._set_level(job, 0)

    def _exited(self, job: Job, wait_status: int, cpu: float) -> None:
        job.exited_at = _now()
        job.cpu = cpu
        if "namespaces" in self.layers:
            return  # its monitor reports; the kernel killed the rest of the PID namespace
        job.report = {"wait_status": wait_status, "cpu": job.cpu}
        if job.slot.uid is not None and self._left_behind(job.slot.uid):
            kill_uids({job.slot.uid}, kill_as=self._kill_as)
        if job.rid is not None and job.spec["output_files"]:
            limit = int(job.limits["file_bytes"])
            job.report["files"] = jail.read_outputs(job.slot.scratch, list(job.spec["output_files"]), limit)

    def _cpu_so_far(self, job: Job) -> float:
        """CPU seconds a running job has used: its cgroup's, else its first process's and its
        reaped children's (what a survivor still running has used is not counted yet)."""
        if job.slot.cgroup is not None:
            try:
                return job.slot.cgroup.cpu_seconds()
            except OSError:
                return 0.0
        try:
            with open(f"/proc/{job.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            return 0.0
        return sum(int(x) for x in fields[11:15]) / _TICKS  # utime, stime, cutime, cstime

    def _fresh_runs(self) -> int:
        """Runs that count against max_jobs: neither demoted nor older than ADMIT_WINDOW."""
        now = _now()
        return sum(
            1
            for job in self.jobs.values()
            if job.rid is not None and not job.demoted and job.exited_at is None and now < job.start + ADMIT_WINDOW
        )

    @staticmethod
    def _memory_of(spec: dict[str, Any]) -> int:
        limits = spec["limits"]
        compiled = languages.LANGUAGES[spec.get("language", "python")].compiled
        return max(int(limits["memory_bytes"]), int(limits["compile_memory_bytes"]) if compiled else 0)

    def _memory_held(self) -> int:
        """What the running runs hold against the memory budget (see the note on fairness)."""
        held = 0
        for job in self.jobs.values():
            if job.rid is None:
                continue
            cgroup = job.slot.cgroup
            if self.admit_by_usage and job.long_runner and cgroup is not None:
                try:
                    held += cgroup.memory_in_use()
                    continue
                except OSError:
                    pass
            held += self._memory_of(job.spec)
        return held

    def _weigh(self, job: Job, used: float) -> None:
        """Put a job in the CPU level of the CPU seconds it has used (see CPU_POLICIES); a run
        that leaves the top level is demoted (out of max_jobs); a long runner is held by its memory
        use (see the note on fairness)."""
        if job.rid is not None and not job.long_runner and not job.reruns:
            job.long_runner = used >= LONG_RUNNER_AFTER or (job.demoted and self._settled(job, used))
        level = job.level
        while level + 1 < len(self.cpu_levels) and used >= self.cpu_levels[level].below:
            level += 1
        if self.compile_floor is not None and job.language.compiled and job.compile is None:
            level = min(level, self.compile_floor)  # still compiling
        if level == job.level:
            return
        job.demoted = job.demoted or job.rid is not None
        self._set_level(job, level)

    def _settled(self, job: Job, used: float) -> bool:
        """Whether a demoted run's memory charge has stopped growing: it grew by at most
        SETTLE_GROWTH while the run used SETTLE_CPU more CPU seconds (measured from its demotion,
        the window starting again while it grows)."""
        cgroup = job.slot.cgroup
        if cgroup is None or not self.admit_by_usage:
            return False
        try:
            charged = cgroup.memory_in_use()
        except OSError:
            return False
        if job.settle is not None and used >= job.settle[0] + SETTLE_CPU:
            if charged <= job.settle[1] + SETTLE_GROWTH:
                return True
            job.settle = None
        if job.settle is None:
            job.settle = (used, charged)
        return False

    def _set_level(self, job: Job, level: int) -> None:
        job.level = level
        weight = self.cpu_levels[level]
        cgroup = job.slot.cgroup
        try:
            if cgroup is not None and cgroup.set_shares(weight.shares):
                return
            if job.slot.uid is not None:
                os.setpriority(os.PRIO_USER, job.slot.uid, weight.nice)
            else:
                os.setpriority(os.PRIO_PGRP, job.pid, weight.nice)
        except OSError:
            pass  # it may be gone already (or, unprivileged, a session's nice cannot go back up)

    def _job_pids(self, job: Job) -> list[int]:
        """The live processes of a job without a PID namespace: its first process and its descendants, and the
        orphans among them (which this subreaper adopted: its children of the slot's uid that are not jobs)."""
        roots = [job.pid]
        if job.slot.uid is not None:
            roots += [pid for pid in _children(os.getpid()) if pid not in self.jobs and _owner(str(pid))[0] == job.slot.uid]
        seen: list[int] = []
        while roots:
            pid = roots.pop()
            if pid not in seen:
                seen.append(pid)
                roots += _children(pid)
        return seen

    def _memory_within(self, job: Job) -> bool:
        """Without a cgroup, each process is capped by its RLIMIT_AS alone, so a job of n processes could use n
        times its memory: measure them together against what its cgroup would allow (its program's limit, or
        the compiler's until the program got its go), with what its UNIX sockets hold (with a uid of its own).
        The kernel's counters first (an upper bound: a page shared copy-on-write counts in each process); only
        past the limit by those, the exact measure (the proportional set sizes, which walk every page table:
        the caller spaces the next look by its cost)."""
        most = int(job.limits["memory_bytes"]) + self.baseline_rss
        if job.language.compiled and job.run_start is None and job.sid is None:
            most = max(most, int(job.limits["compile_memory_bytes"]) + self.baseline_rss)
        pids = self._job_pids(job)
        sockets = 0
        if job.slot.uid is not None:
            sockets = max(0, unix_socket_memory().get(job.slot.uid, 0) - job.socket_base)
        if _resident_anonymous(pids) + sockets <= most:
            return True
        return (_proportional_memory(pids) if len(pids) > 1 else _resident_anonymous(pids)) + sockets <= most

    def _scratch_within(self, job: Job) -> bool:
        """Without a tmpfs of its own, a job's scratch dir is on the host's disk: measure it
        (bytes and entries) against what its tmpfs would allow, counting the files its processes
        still hold that no directory names (a tmpfs counts those too)."""
        limits = job.limits
        most_bytes = int(limits["memory_bytes"])
        most_entries = int(limits["files"]) + len(job.spec["files"]) + 2
        if job.language.compiled:
            most_entries += COMPILE_INODES
        try:
            dev = os.stat(job.slot.scratch).st_dev
        except OSError:
            dev = None
        held = _unlinked_files(self._job_pids(job), dev) if dev is not None else {}
        used, entries = sum(held.values()), len(held)
        if used > most_bytes or entries > most_entries:
            return False
        stack = [job.slot.scratch]
        while stack:
            try:
                with os.scandir(stack.pop()) as listing:
                    for entry in listing:
                        entries += 1
                        if entries > most_entries:
                            return False
                        st = entry.stat(follow_symlinks=False)
                        used += st.st_blocks * 512
                        if used > most_bytes:
                            return False
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
            except OSError:
                continue
        return True

    def _left_behind(self, uid: int) -> bool:
        """Whether a job left processes behind. All of them descend from its first process, so
        once that is reaped, any survivor's ancestry ends at a child of this subreaper."""
        try:
            with open(f"/proc/self/task/{os.getpid()}/children") as f:
                children = f.read().split()
        except OSError:
            return True  # no CONFIG_PROC_CHILDREN: assume the worst, kill_uids finds out
        return any(int(pid) not in self.jobs and _owner(pid)[0] == uid for pid in children)

    def _finalize(self, job: Job) -> None:
        self._drain(job)
        for fd in list(job.fds):
            while fd in job.fds and self._read(fd):
                pass
            if fd in job.fds:
                self._close(fd)
        if job.cells_fd in self.writers:
            del self.writers[job.cells_fd]
            self.sel.unregister(job.cells_fd)
        for fd in (job.cells_fd, job.control_fd, job.pidfd):
            if fd is not None:
                os.close(fd)
        job.cells_fd = job.control_fd = job.pidfd = None
        del self.jobs[job.pid]
        if job.rid is None:
            self._end_session(job)
            return
        rerun = (
            self.rerun_budget_kills
            and self._killed_by_budget(job)
            and job.reruns < (MOST_RERUNS if self._memory_of(job.spec) <= self.memory_budget else 1)
            and not job.stopping
            and _now() - job.received < RETRY_WITHIN
        )
        if not rerun and "tmpfs" not in self.layers and not job.scratch_exceeded and not self._scratch_within(job):
            job.scratch_exceeded = True  # it filled its scratch dir between two looks, and ended before the next
        result = None if rerun else self._result(job)  # before the slot (and its cgroup counters) is reused
        self._release(job.slot)
        self.running -= 1
        if rerun:  # see the note on fairness; _start_pending runs next in the loop
            self.pending.appendleft(Queued(job.rid, job.spec, job.received, reruns=job.reruns + 1))
        else:
            self._reply(job.rid, result)

    def _killed_by_budget(self, job: Job) -> bool:
        """Whether the budget of all runs together, not the run's own limit, OOM-killed it."""
        cgroup = job.slot.cgroup
        return cgroup is not None and cgroup.oom_kills() > 0 and not cgroup.hit_own_limit()

    def _result(self, job: Job) -> dict[str, Any]:
        """The ExecResult fields of a finished job (or of a session's fatal cell)."""
        report = job.report or {}
        error = None if job.stopping else job.error
        compiled = job.compile or {}
        if error is None and compiled.get("error"):
            error = compiled["error"]  # the compiler could not even start: the sandbox's failure
        cgroup = job.slot.cgroup
        if error is None and self._killed_by_budget(job):
            error = "the memory budget of all sandbox jobs together ran out (not this job's limit): run it again"
        # A compiled language whose compile never reported success never ran its program.
        compile_failed = job.language.compiled and job.sid is None and (not compiled or compiled["failed"])
        wait_status = None if error or compile_failed else report.get("wait_status")
        exit_code = sig = None
        if wait_status is not None:
            if os.WIFSIGNALED(wait_status):
                sig = os.WTERMSIG(wait_status)  # a plain int: marshal knows no enums
            else:
                exit_code = os.WEXITSTATUS(wait_status)
        elif error is None and not compile_failed:
            sig = int(signal.SIGKILL)  # the monitor itself was killed, and the program with it
        cpu = cgroup.cpu_seconds() if cgroup is not None else job.cpu
        cpu_limit = float(job.limits["cpu_seconds"])
        cpu_rlimit = max(1, -(-cpu_limit // 1))
        program_cpu = report.get("cpu", 0.0) - compiled.get("cpu", 0.0)  # wait4 counts the compiler too
        # RLIMIT_CPU counts whole seconds, so a fractional limit (0.5 s) would be a whole one (1 s): a program that
        # used more than its limit timed out, whatever stopped it (the kernel stops it at the next whole second).
        over_cpu = job.sid is None and (
            sig == signal.SIGXCPU
            or (sig == signal.SIGKILL and program_cpu >= cpu_rlimit - 0.05)
            or (wait_status is not None and program_cpu > cpu_limit)
        )
        oom = error is None and cgroup is not None and cgroup.oom_kills() > 0
        start = job.run_start if job.run_start is not None else job.start
        ended = job.exited_at or _now()
        stderr = bytes(job.err)
        if job.violation is not None:
            stderr += f"\n[sandbox] stopped: the program wrote on the sandbox's results pipe ({job.violation})\n".encode()
        return {
            "stdout": bytes(job.out),
            "stderr": stderr,
            "exit_code": exit_code,
            "signal": sig,
            "timed_out": job.timed_out or over_cpu or bool(compiled.get("timed_out")),
            "memory_exceeded": oom
            or job.scratch_exceeded
            or job.memory_over
            or bool(compiled.get("memory") or compiled.get("memory_after"))
            or self._out_of_memory(job, sig),
            "output_truncated": job.truncated or bool(compiled.get("truncated")),
            "wall_seconds": max(0.0, ended - start) if not compile_failed else 0.0,
            "cpu_seconds": cpu,
            "error": error,
            "files": report.get("files", {}) if not compile_failed else {},
            "compile_output": compiled.get("output", b""),
            "compile_failed": bool(compile_failed) and error is None,
            "compile_seconds": compiled.get("seconds", 0.0),
        }

    @staticmethod
    def _out_of_memory(job: Job, sig: int | None) -> bool:
        """What the runtime prints when an allocation fails (the program could print it too:
        this is a hint, the cgroup's OOM count is the proof)."""
        tail = bytes(job.err[-512:]).rstrip()
        last_line = tail.rsplit(b"\n", 1)[-1]
        name = job.language.name
        if name in ("python", "sql"):
            return last_line == b"MemoryError" or last_line.startswith(b"MemoryError:")
        if name == "javascript":  # V8's fatal error comes first, then a native stack trace
            head = bytes(job.err[:4096])
            return b"JavaScript heap out of memory" in head or b"Fatal process out of memory" in head
        if name in ("cpp", "verilog"):  # vvp, Icarus Verilog's runtime, is C++ too
            return sig == signal.SIGABRT and b"std::bad_alloc" in tail
        if name == "lua":
            return last_line.endswith(b"not enough memory")
        if name == "go":  # the runtime's fatal error comes first, then every goroutine's stack
            head = bytes(job.err[:4096])
            return b"fatal error: runtime: out of memory" in head or b"runtime: out of memory: cannot allocate" in head
        if name == "prolog":  # the stack limit (set to the memory budget) or a failed allocation
            head = bytes(job.err[:4096])
            return b"Stack limit (" in head or b"resource_error(memory)" in head or b"Could not allocate" in head
        return False

    # -- sessions --------------------------------------------------------------------------

    def _cell(self, rid: int, message: dict[str, Any]) -> None:
        sid = message["session"]
        job = self.sessions.get(sid)
        if job is None:
            slot = self._slot()
            if slot is None:
                if self._evict_idle_session():  # its slot is free once it is reaped: try again then
                    self.cell_backlog.append((rid, message))
                else:
                    self._reply(rid, error="no free sandbox slot for a session (all busy running)")
                return
            spec = {"kind": "session", "limits": message["session_limits"], "files": {}, "output_files": ()}
            job = Job(rid=None, spec=spec, slot=slot, sid=sid, after_loss=sid in self.lost or sid in self.evicted)
            job.note = self.evicted.get(sid, b"")
            self.lost.discard(sid)
            self.evicted.pop(sid, None)
            try:
                self._spawn(job)
            except OSError as exc:
                self._release(slot)
                self._reply(rid, error=f"sandbox could not start the session: {exc}")
                return
            self.sessions[sid] = job
        job.waiting.append({"rid": rid, "source": message["source"], "limits": message["limits"]})
        self._next_cell(job)

    def _next_cell(self, job: Job) -> None:
        if job.cell is not None or not job.waiting or job.stopping:
            return
        if job.held is not None and self._stop_if_it_ran(job):
            return  # its waiting cells go to a fresh interpreter once it has exited (_end_session)
        job.cell = cell = job.waiting.popleft()
        job.out.clear()
        job.err.clear()
        job.truncated = False
        cell["start"] = _now()
        job.deadline = cell["start"] + float(cell["limits"]["wall_seconds"])
        job.cpu_base, job.cpu_checked = self._cpu_so_far(job), cell["start"]
        if job.level:  # each cell starts at the top, like a run
            self._set_level(job, 0)
        self._release_hold(job)
        job.cells_out += encode({"id": cell["rid"], "source": cell["source"]})
        self._send_cells(job)

    def _send_cells(self, job: Job) -> None:
        """Write what the pipe takes of the cells waiting for the interpreter; the rest when it is writable
        again (the cell's own deadline stops an interpreter that never reads)."""
        fd = job.cells_fd
        if fd is None:
            return
        try:
            del job.cells_out[: os.write(fd, job.cells_out)]
        except BlockingIOError:
            pass
        except BrokenPipeError:
            job.cells_out.clear()  # the session is dying; its exit answers the cell
        if job.cells_out and fd not in self.writers:
            self.writers[fd] = job
            self.sel.register(fd, selectors.EVENT_WRITE)
        elif not job.cells_out and fd in self.writers:
            del self.writers[fd]
            self.sel.unregister(fd)

    def _evict_idle_session(self) -> bool:
        """Stop the least recently used session with no cell running or queued; whether there was one.
        Its owner's next cell starts a fresh interpreter and is told why."""
        if any(job.sid is not None and job.stopping for job in self.jobs.values()):
            return True  # a slot is being freed already: wait for it
        idle = [job for job in self.sessions.values() if job.cell is None and not job.waiting and not job.stopping]
        if not idle:
            return False
        victim = min(idle, key=lambda job: job.last_used)
        assert victim.sid is not None
        del self.sessions[victim.sid]
        self.evicted[victim.sid] = EVICTED_NOTE
        self._stop(victim)
        return True

    def _hold(self, job: Job) -> None:
        """When a cell returns: kill what it left running and stop the interpreter until the next cell, so that
        between cells a session uses no CPU. With a uid of its own, every process of the uid is stopped at once
        (kill(-1, SIGSTOP) as that uid: a process forking at that moment cannot slip a child through, see
        zygote.kill_as), so the leftovers are listed with none able to fork, and killed. A job can arrange to be
        woken (its own timer sending it SIGCONT): then its CPU between cells is capped at HELD_CPU_SHARE (cgroup),
        runs at the lowest weight, and a session seen using CPU between cells is stopped (:meth:`_watch_held`)."""
        if job.exited_at is not None:
            return
        if job.slot.uid is not None:
            self._kill_as(job.slot.uid, signal.SIGSTOP)
            self._signal(self._leftovers(job), signal.SIGKILL)
        else:
            self._signal([pid] if (pid := self._interpreter(job)) is not None else [], signal.SIGSTOP)
            self._kill_leftovers(job)
        cgroup = job.slot.cgroup
        try:
            if cgroup is not None:
                cgroup.cap_cpu(HELD_CPU_SHARE)
        except OSError:
            pass  # it is ending: its exit answers
        self._set_level(job, len(self.cpu_levels) - 1)
        job.held = (self._cpu_so_far(job), _now())

    def _release_hold(self, job: Job) -> None:
        """Let the interpreter (and, stopped with it, its monitor) run the next cell (see :meth:`_hold`)."""
        if job.held is None or job.exited_at is not None:
            return
        job.held = None
        cgroup = job.slot.cgroup
        try:
            if cgroup is not None:
                cgroup.cap_cpu(None)
        except OSError:
            pass
        self._signal([pid for pid in {job.pid, self._interpreter(job)} if pid is not None], signal.SIGCONT)

    def _watch_held(self, job: Job, now: float) -> float:
        """A held session that runs all the same (its own timer sent it SIGCONT) is stopped, its owner told at
        the next cell: seen using CPU, or with a process besides its interpreter and monitor (a child's CPU
        shows in its parent's only once it is reaped, and without a cgroup nothing else counts it); when to look
        again."""
        assert job.held is not None
        cpu, looked = job.held
        if now >= looked + IDLE_CPU_CHECK:
            self._stop_if_it_ran(job)
            job.held = (cpu, now)
        return job.held[1] + IDLE_CPU_CHECK

    def _stop_if_it_ran(self, job: Job) -> bool:
        """Stop a held session that ran (see :meth:`_watch_held`), its owner told at the next cell; whether it did.
        Also asked just before the next cell lets it go, so a run between the last look and that cell is caught."""
        assert job.held is not None
        if job.sid is None or not (self._cpu_so_far(job) - job.held[0] > IDLE_CPU_ALLOWED or self._leftovers(job)):
            return False
        if self.sessions.get(job.sid) is job:
            del self.sessions[job.sid]
        self.evicted[job.sid] = WOKEN_NOTE
        self._stop(job)
        return True

    def _interpreter(self, job: Job) -> int | None:
        """A session's interpreter's host pid (None once the job is reaped)."""
        if job.interpreter is None and job.exited_at is None:
            if "namespaces" not in self.layers:
                job.interpreter = job.pid  # no monitor: the job's first process is the interpreter
            elif job.slot.uid is not None:
                job.interpreter = next(
                    (pid for pid in _pids_of(job.slot.uid) if _ns_pid(pid) == INTERPRETER_NSPID), None)
        return job.interpreter if job.exited_at is None else None

    @staticmethod
    def _signal(pids: list[int], sig: int) -> None:
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def _leftovers(self, job: Job) -> list[int]:
        """The live processes of a session's uid but its monitor and its interpreter."""
        uid = job.slot.uid
        if uid is None:
            return []  # no uid of its own to find them by
        spare = {job.pid, self._interpreter(job)}
        return [pid for pid in _pids_of(uid) if pid not in spare]

    def _kill_leftovers(self, job: Job) -> None:
        """Kill what a session's cell left running, round after round (a forking survivor is found in the next
        one; without a uid of its own, the only way); see :meth:`_hold` for the way no fork can outrun."""
        for _ in range(100):
            leftovers = self._leftovers(job)
            if not leftovers:
                return
            self._signal(leftovers, signal.SIGKILL)

    def _finish_cell(self, job: Job, message: dict[str, Any]) -> None:
        cell, job.cell, job.deadline = job.cell, None, None
        if cell is None:
            return
        self._hold(job)
        job.last_used = _now()
        result = self._result(job)
        if job.note:
            result["stderr"], job.note = job.note + result["stderr"], b""
        result.update(
            exit_code=message["exit_code"],
            signal=None,
            cpu_seconds=message["cpu"],
            wall_seconds=_now() - cell["start"],
            state_lost=job.after_loss,
        )
        job.after_loss = False
        self._reply(cell["rid"], result)
        self._next_cell(job)

    def _end_session(self, job: Job) -> None:
        assert job.sid is not None
        if self.sessions.get(job.sid) is job:
            del self.sessions[job.sid]
        if job.cell is not None:
            result = self._result(job)
            result.update(wall_seconds=_now() - job.cell["start"], state_lost=True, files={})
            self._reply(job.cell["rid"], result)
        elif not job.stopping:
            self.lost.add(job.sid)  # it died between cells: tell the next one
        self._release(job.slot)
        for cell in job.waiting:  # queued behind the fatal cell: run them in a fresh interpreter
            message = {"session": job.sid, "session_limits": job.limits, **cell}
            self._cell(cell["rid"], message)

    # -- protocol --------------------------------------------------------------------------

    def _reply(
        self, rid: int, result: dict[str, Any] | None = None, error: str | None = None, unavailable: bool = False
    ) -> None:
        view = memoryview(encode({"id": rid, "result": result, "error": error, "unavailable": unavailable}))
        while view:
            view = view[os.write(self.replies, view) :]

    def _request(self, message: dict[str, Any]) -> None:
        rid, op = message["id"], message["op"]
        if op == "run":
            spec = {k: message[k] for k in ("source", "stdin", "files", "output_files", "limits")}
            language = message.get("language", "python")
            chain = self._toolchain(language)
            if not chain["available"]:
                self._reply(rid, error=chain["reason"], unavailable=True)
                return
            self.pending.append(Queued(rid, {**spec, "kind": "run", "language": language, "toolchain": chain}, _now()))
            self._start_pending()
        elif op == "languages":
            self._reply(rid, {name: self._toolchain(name) for name in languages.LANGUAGES})
        elif op == "cell":
            self._cell(rid, message)
        elif op == "close":
            job = self.sessions.pop(message["session"], None)
            self.lost.discard(message["session"])
            if job is not None:
                job.waiting.clear()
                self._stop(job)
            self._reply(rid, {})
        else:
            self._reply(rid, error=f"unknown op {op!r}")

    def _toolchain(self, language: str) -> dict[str, Any]:
        """The language's toolchain, discovered once per server (tens of milliseconds, once), with
        its precompiled headers once they are built."""
        if language not in self.toolchains:
            self.toolchains[language] = chain = languages.discover(language)
            if language in languages.PCH_HEADERS and chain["available"]:
                self._start_pch(chain)
        if language in self.pch and not os.path.isdir(self.pch[language]):
            del self.pch[language]  # removed meanwhile (a cleaned /tmp): compile without them
        if language in self.pch:
            return languages.with_pch(self.toolchains[language], self.pch[language])
        return self.toolchains[language]

    def _start_pch(self, chain: dict[str, Any]) -> None:
        """Precompile the language's common headers (once per compiler and flags, kept under the
        base dir for later servers), at the lowest priority while jobs compile without them. Only where
        jobs run as uids of their own: a job of the server's uid could rewrite them for the next."""
        if not self.uids or not self.pch_wanted:
            return
        final = languages.pch_dir(self.base_dir, chain)
        if os.path.isdir(final):
            self.pch[chain["language"]] = final
            return
        try:
            os.makedirs(os.path.dirname(final), 0o755, exist_ok=True)
            os.chmod(os.path.dirname(final), 0o755)  # whatever the umask: every job's uid must reach it
            work = os.path.join(os.path.dirname(final), f".build-{os.getpid()}-{chain['language']}")
            shutil.rmtree(work, ignore_errors=True)
            os.mkdir(work, 0o755)
            build = {"language": chain["language"], "work": work, "final": final, "pids": set(), "ok": True}
            # The compiler's temporary files go inside the build's folder, which goes whole: a build killed at close
            # left its assembler files in the host's /tmp (the driver deletes them only when it exits by itself).
            os.mkdir(os.path.join(work, "tmp"), 0o700)
            env = {"PATH": chain["compile"].get("env", {}).get("PATH", "/usr/bin:/bin"), "TMPDIR": os.path.join(work, "tmp")}
            for argv in languages.pch_commands(chain, work):
                # a process group of its own: the driver's cc1plus and as die with it at close, not run on orphaned
                pid = os.posix_spawn(argv[0], argv, env, setpgroup=0)
                self.pch_builds[pid] = build
                build["pids"].add(pid)
                os.setpriority(os.PRIO_PROCESS, pid, 19)  # (SCHED_IDLE would starve on a busy host)
        except (OSError, ValueError):
            return  # no precompiled headers: programs compile as before

    def _pch_built(self, pid: int, wait_status: int) -> None:
        build = self.pch_builds.pop(pid)
        build["pids"].discard(pid)
        build["ok"] = build["ok"] and os.WIFEXITED(wait_status) and os.WEXITSTATUS(wait_status) == 0
        if build["pids"]:
            return
        try:
            if not build["ok"]:
                raise OSError("a header did not precompile")
            shutil.rmtree(os.path.join(build["work"], "src"))
            shutil.rmtree(os.path.join(build["work"], "tmp"))
            for root, dirs, names in os.walk(build["work"]):
                for name in dirs:
                    os.chmod(os.path.join(root, name), 0o755)
                for name in names:
                    os.chmod(os.path.join(root, name), 0o644)
            os.rename(build["work"], build["final"])  # whole, or not at all
            self.pch[build["language"]] = build["final"]
        except OSError:
            shutil.rmtree(build["work"], ignore_errors=True)
            if os.path.isdir(build["final"]):  # another server finished first
                self.pch[build["language"]] = build["final"]

    def _start_pending(self) -> None:
        while self.cell_backlog and self.free:
            rid, message = self.cell_backlog.popleft()
            self._cell(rid, message)
        while (
            self.pending
            and self._fresh_runs() < self.max_jobs
            and (self.running < self.max_jobs or self._memory_held() + self._memory_of(self.pending[0].spec) <= self.memory_budget)
        ):
            slot = self._slot()
            if slot is None:
                if not self.cell_backlog:
                    self._evict_idle_session()  # a run never waits behind idle sessions
                return
            queued = self.pending.popleft()
            job = Job(rid=queued.rid, spec=queued.spec, slot=slot, received=queued.received, reruns=queued.reruns)
            self.running += 1
            try:
                self._spawn(job)
            except OSError as exc:
                self.running -= 1
                self._release(slot)
                self._reply(queued.rid, error=f"sandbox could not start the job: {exc}")

    # -- loop ------------------------------------------------------------------------------

    def _reap(self) -> None:
        """Take the zygote's reports of its jobs' exits, and reap the orphans of jobs that were
        reparented to this subreaper (and the zygote, once it is gone)."""
        for pid, wait_status, cpu in self.zygote.exits():
            job = self.jobs.get(pid)
            if job is not None:
                self._exited(job, wait_status, cpu)
        self._reap_orphans()

    def _reap_orphans(self) -> None:
        while True:
            try:
                pid, wait_status, _ = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid in self.pch_builds:
                self._pch_built(pid, wait_status)

    def _timers(self) -> float | None:
        """Act on due deadlines; the seconds until the next one."""
        now = _now()
        due: list[float] = []
        for job in list(self.jobs.values()):
            if job.exited_at is not None:
                if not job.fds or now >= job.exited_at + PIPE_GRACE:
                    self._finalize(job)
                else:
                    due.append(job.exited_at + PIPE_GRACE)
                continue
            if job.deadline is not None and now >= job.deadline and not job.stopping:
                job.timed_out = True
                self._stop(job)
            elif job.deadline is not None and not job.stopping:
                due.append(job.deadline)
            if (job.rid is not None or job.cell is not None) and not job.stopping:
                below = len(self.cpu_levels) - 1  # the last level's runs are not looked at again
                if job.level < below and now >= job.cpu_checked + self.cpu_levels[job.level].check:
                    job.cpu_checked = now
                    self._weigh(job, self._cpu_so_far(job) - job.cpu_base)
                if job.level < below:
                    due.append(job.cpu_checked + self.cpu_levels[job.level].check)
                if job.rid is not None and not job.demoted and self.pending and now < job.start + ADMIT_WINDOW:
                    due.append(job.start + ADMIT_WINDOW)  # it then makes room for a pending run
            if job.held is not None and not job.stopping:
                due.append(self._watch_held(job, now))
            if "tmpfs" not in self.layers and not job.stopping:
                if now >= job.scratch_checked + SCRATCH_CHECK:
                    started = _now()
                    if not self._scratch_within(job):
                        job.scratch_exceeded = True
                        self._stop(job)
                    job.scratch_checked = _now() + CHECK_COST_RATIO * (_now() - started)  # see CHECK_COST_RATIO
                due.append(job.scratch_checked + SCRATCH_CHECK)
            if "cgroups" not in self.layers and not job.stopping:
                if now >= job.memory_checked + MEMORY_CHECK:
                    started = _now()
                    if not self._memory_within(job):
                        job.memory_over = True
                        self._stop(job)
                    job.memory_checked = _now() + CHECK_COST_RATIO * (_now() - started)
                due.append(job.memory_checked + MEMORY_CHECK)
        return max(0.0, min(due) - _now()) if due else None

    def serve(self) -> None:
        wake_r, wake_w = os.pipe()
        for fd in (wake_r, wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: self._shutdown())
        self.sel.register(wake_r, selectors.EVENT_READ)
        self.sel.register(self.requests, selectors.EVENT_READ)
        self.sel.register(self.zygote.events, selectors.EVENT_READ)
        while True:
            self._timers()  # may finish jobs, and so free slots
            self._start_pending()
            timeout = self._timers()  # and the deadlines of what just started
            if self.stopping and not self.jobs:
                break
            for key, _ in self.sel.select(timeout):
                if key.fd == wake_r:
                    try:
                        while os.read(wake_r, 4096):
                            pass
                    except BlockingIOError:
                        pass
                elif key.fd == self.requests:
                    data = os.read(self.requests, READ_CHUNK)
                    if not data:  # the client is gone
                        self._shutdown()
                    for message in self.decoder.feed(data):
                        self._request(message)
                elif key.fd in self.fds:
                    self._read(key.fd)
                elif key.fd in self.writers:
                    self._send_cells(self.writers[key.fd])
            try:
                self._reap()
            except EOFError:  # the zygote died, and every job with it: start afresh
                break
            self._start_pending()
        self._cleanup()

    def _shutdown(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        self.pending.clear()
        self.sel.unregister(self.requests)
        for job in self.jobs.values():
            self._stop(job)

    def _cleanup(self) -> None:
        if self.uids:
            kill_uids(self.uids, kill_as=self._kill_as)
        self.zygote.close()  # it exits on the EOF
        try:
            os.waitpid(self.zygote.pid, 0)
        except ChildProcessError:
            pass
        for pid, build in list(self.pch_builds.items()):  # unfinished header builds: never renamed into place
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            shutil.rmtree(build["work"], ignore_errors=True)
        self._reap_orphans()  # the killed orphans are this subreaper's children: leave no zombie to init
        for slot in self.slots.values():
            if slot.cgroup is not None:
                slot.cgroup.remove()
        for cgroup in self.stale_cgroups:
            cgroup.remove()
        for root in (self.cgroup_roots or {}).values():
            try:
                os.rmdir(os.path.join(root, self.cgroup_name))
            except OSError:
                pass
        for view in self.views:  # never let rmtree walk into the interpreter's files
            syscalls.umount(view)
        shutil.rmtree(self.dir, ignore_errors=True)


def main(config: str) -> None:
    try:
        server = Server(json.loads(config))
    except Exception as exc:  # tell the client why, then exit
        os.write(1, encode({"id": 0, "result": None, "error": f"sandbox server failed to start: {exc}"}))
        raise SystemExit(1) from exc
    server._reply(0, server.hello())
    server.serve()
