"""Confinement of one job, in the process the server's zygote forks for it.

That process starts as root (when the server is): it keeps only the fds the job needs, joins
the slot's cgroups, enters new mount, IPC and UTS namespaces and the empty network namespace,
and mounts the scratch tmpfs. Then it drops to the slot's uid, writes the input files and
``main.py``, sets rlimits and applies Landlock and seccomp, so that everything it does from
then on is confined too.

With a PID namespace that process is the namespace's PID 1 and stays as the job's *monitor*:
it forks the program (which adds a Landlock scope so that it cannot signal its monitor),
reaps orphans, reports the program's status and output files on the status pipe, and by
exiting makes the kernel kill whatever is left of the job. Without, that process becomes the
program, and the server (a child subreaper) finds and kills anything the job left behind::

    zygote ─fork─> monitor (PID 1 of the job's pid ns; uid 60000+n; rlimits, Landlock, seccomp)
                     └─fork─> program (+ a nested Landlock scope) ─> its children
    zygote ─fork─> program (uid 60000+n; rlimits, Landlock, seccomp) ─> its children

The program process runs Python code (``runner``), SQL (``sql``), or, for languages that exec
host tools, the stage driver (``stages``): it forks the compiler, then narrows its own limits,
Landlock domain and seccomp filter to the program's and execs it in place (same pid, so the
monitor's or the server's wait status is the program's)::

    monitor ─fork─> driver ─fork─> compiler (gcc ─> cc1, as, collect2 ─> ld)
                      └─ exec ─> ./main (or node main.js, vvp main.vvp)

Example (inside the server, in the forked child)::

    jail.start(host, slot, spec, pipes)       # never returns
"""

from __future__ import annotations

import atexit
import fcntl
import math
import os
import resource
import signal
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from . import landlock, runner, seccomp, sql, stages, syscalls
from .cgroups import SlotCgroup
from .languages import LANGUAGES
from .protocol import encode_status

# Read-only, world-readable places the interpreter and extension modules need besides the
# standard library: the dynamic loader's cache and the system library directories.
SYSTEM_READ = stages.SYSTEM_READ
DEVICES = stages.DEVICES
NOFILE = 256
SESSION_CPU_CELLS = 20  # a session's lifetime CPU budget, in cells' worth of cpu_seconds
STATUS_ERROR = stages.STATUS_ERROR  # exit status of a job whose jail could not be set up


@dataclass
class Host:
    """What the server prepares once; every job inherits it through fork."""

    layers: frozenset[str]
    server_pid: int
    stdlib_fds: list[int]  # O_PATH fds of the sys.path roots, for Landlock and the fd-path trick
    job_paths: list[str]  # sys.path as the program sees it (real paths, views or /proc/self/fd/N)
    path_map: list[tuple[str, str]]  # (real root, as the program sees it) where the two differ
    packages: list[str]  # pre-imported packages whose __path__ lies under a path_map root
    unload: list[str]  # the server's own modules, removed from the program's sys.modules
    fd_paths: bool  # job_paths go through the inherited stdlib fds (they stay open in the program)
    read_fds: list[int] = field(default_factory=list)
    device_fds: list[int] = field(default_factory=list)
    netns_fd: int | None = None
    seccomp_program: bytes = b""  # for jobs that exec nothing (Python, SQL): execve denied too
    seccomp_exec_program: bytes = b""  # for jobs that exec their toolchain
    landlock_abi: int = 0
    baseline_vsz: int = 0  # address space of the pre-loaded server: added to RLIMIT_AS
    views: list[str] = field(default_factory=list)  # the server's read-only views of sys.path roots


@dataclass
class Slot:
    """One concurrent job's identity: its uid, scratch path and cgroup."""

    index: int
    uid: int | None
    scratch: str
    cgroup: SlotCgroup | None = None


@dataclass
class Pipes:
    """The job's ends of its pipes (the server keeps the other ends)."""

    stdout: int
    stderr: int
    status: int
    cells: int | None = None  # sessions only: cells to run
    results: int | None = None  # sessions only: the interpreter's report after each cell (never the status pipe:
    # the cells run in the reporting process, so the model's code can write on it)
    control: int | None = None  # compiled languages only: the server's go after the compile


def _arrange(wanted: list[int]) -> list[int]:
    """Close every fd above 2 except ``wanted``, renumbered 3, 4, ... in that order."""
    top = max([*wanted, 2 + len(wanted)]) + 1
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, top) for fd in wanted]
    os.closerange(3, top)
    for fd in set(range(top, max(high))) - set(high):  # an fd already open there was skipped over
        try:
            os.close(fd)
        except OSError:
            pass
    os.closerange(max(high) + 1, 1 << 20)
    out = []
    for i, fd in enumerate(high):
        os.dup2(fd, 3 + i)
        os.close(fd)
        out.append(3 + i)
    return out


def _write_files(scratch: str, files: Mapping[str, bytes]) -> None:
    for name, data in files.items():
        path = os.path.join(scratch, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)


def _stdin_fd(data: bytes | None) -> int:
    if data is None:
        return os.open("/dev/null", os.O_RDONLY)
    fd = os.memfd_create("stdin")
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _set_rlimits(
    host: Host, limits: Mapping[str, Any], *, session: bool, tasks: int | None, language: str = "python"
) -> None:
    """The job's rlimits. A job that compiles gets the larger of its two stages' limits here;
    each stage lowers them to its own (rlimits only ever go down) before it execs."""

    def cap(res: int, soft: int, hard: int | None = None) -> None:
        resource.setrlimit(res, (soft, soft if hard is None else hard))

    lang = LANGUAGES[language]
    memory = host.baseline_vsz + int(limits["memory_bytes"])
    cpu = max(1, math.ceil(limits["cpu_seconds"]))
    if lang.execs:
        memory = max(memory, int(limits["memory_bytes"]) + lang.address_space)
    if lang.compiled:
        memory = max(memory, int(limits["compile_memory_bytes"]) + lang.address_space)
        cpu = max(cpu, math.ceil(limits["compile_seconds"]))
        tasks = None if tasks is None else max(tasks, stages.COMPILE_TASKS)
    cap(resource.RLIMIT_AS, memory)
    cap(resource.RLIMIT_FSIZE, int(limits["file_bytes"]))
    cap(resource.RLIMIT_NOFILE, NOFILE)
    cap(resource.RLIMIT_CORE, 0)
    cap(resource.RLIMIT_MEMLOCK, 0)
    cap(resource.RLIMIT_MSGQUEUE, 0)
    if session:  # each cell is bounded by its wall clock; the whole session by this many cells' CPU
        cpu *= SESSION_CPU_CELLS
    cap(resource.RLIMIT_CPU, cpu, cpu + 1)  # SIGXCPU at the limit, SIGKILL a second later
    if tasks is not None:  # RLIMIT_NPROC counts every process of the uid: only a dedicated uid's
        cap(resource.RLIMIT_NPROC, tasks)


def _landlock(host: Host, scratch_fd: int, spec: Mapping[str, Any]) -> None:
    """The job's Landlock domain: the standard library, the system libraries, the devices and
    the scratch dir; plus, for a language that execs its toolchain, the toolchain's read-only
    directories and the very files it executes (the run stage narrows this further)."""
    abi = host.landlock_abi
    ruleset = landlock.create_ruleset(abi)
    lang = LANGUAGES[spec.get("language", "python")]
    chain = spec.get("toolchain") or {}
    read, run = [], []
    for stage in ("compile", "run"):
        part = chain.get(stage) or {}
        read += part.get("read", [])
        run += part.get("exec", [])
    read_fds = [os.open(p, os.O_PATH | os.O_CLOEXEC) for p in dict.fromkeys(read)]
    run_fds = [os.open(p, os.O_PATH | os.O_CLOEXEC) for p in dict.fromkeys(run)]
    try:
        for fds, access in (
            (host.stdlib_fds, landlock.READ),
            (host.read_fds, landlock.READ),
            (host.device_fds, landlock.DEVICE),
            (read_fds, landlock.READ),
            (run_fds, landlock.RUN),
        ):
            for fd in fds:
                landlock.allow(ruleset, fd, access, abi)
    finally:
        for fd in read_fds + run_fds:
            os.close(fd)
    # A compiled C/C++ program is executed from the scratch dir: allow it here; the run stage's
    # nested domain then allows that one file only.
    scratch = landlock.SCRATCH | (landlock.EXECUTE if lang.native else 0)
    landlock.allow(ruleset, scratch_fd, scratch, abi)
    landlock.enforce(ruleset)


def read_outputs(scratch: str, names: list[str], limit: int) -> dict[str, bytes]:
    """The requested files under ``scratch``, never following a symlink or a hard link out of it
    (the server may call this as root, once every process of the job is dead)."""
    out = {}
    for name in names:
        *dirs, base = name.split("/")
        opened: list[int] = []
        try:
            opened.append(os.open(scratch, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW))
            for d in dirs:
                opened.append(os.open(d, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=opened[-1]))
            fd = os.open(base, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=opened[-1])
            opened.append(fd)
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
                chunks, size = [], 0
                while size < limit and (chunk := os.read(fd, limit - size)):
                    chunks.append(chunk)
                    size += len(chunk)
                out[name] = b"".join(chunks)
        except OSError:
            pass
        finally:
            for fd in opened:
                os.close(fd)
    return out


def start(host: Host, slot: Slot, spec: Mapping[str, Any], pipes: Pipes) -> NoReturn:
    """Run the job in the zygote's freshly forked child. Never returns.

    It isolates the job (cgroups, namespaces, scratch) as root, then confines itself (uid,
    files, rlimits, Landlock, seccomp). With a PID namespace it is the namespace's PID 1 and
    forks the program as the job's monitor; without, it becomes the program.
    """
    syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)  # first: the server's death ends the job
    try:
        host, fds, setup = _arrange_fds(host, pipes)
    except BaseException:  # noqa: BLE001 - nowhere to report it; the server sees the exit status
        os._exit(STATUS_ERROR)
    try:
        _isolate(host, slot, spec)
        _confine(host, slot, spec, setup)
        if "namespaces" in host.layers:
            _monitor(host, slot, spec, fds)
        _program(host, slot, spec, fds, nested=False)
    except BaseException as exc:  # noqa: BLE001 - a setup failure is the sandbox's, not the program's
        try:
            os.write(fds.status, encode_status({"error": f"sandbox setup failed: {type(exc).__name__}: {exc}"}))
        finally:
            os._exit(STATUS_ERROR)


@dataclass
class _Fds:
    """The job's fds once renumbered: the stdlib roots first, then the job's pipes."""

    stdlib: list[int]
    status: int
    cells: int | None
    results: int | None
    control: int | None


def _arrange_fds(host: Host, pipes: Pipes) -> tuple[Host, _Fds, list[int]]:
    """Put the job's pipes on 1, 2 and after the stdlib fds; close everything else of the
    server's. Returns the host with its fds renumbered, the job's fds, the set-up-only fds."""
    os.dup2(pipes.stdout, 1)
    os.dup2(pipes.stderr, 2)
    setup = [*host.read_fds, *host.device_fds, *([host.netns_fd] if host.netns_fd is not None else [])]
    optional = [pipes.cells, pipes.results, pipes.control]
    job = [pipes.status, *(fd for fd in optional if fd is not None)]
    renumbered = _arrange([*host.stdlib_fds, *job, *setup])
    n, m = len(host.stdlib_fds), len(job)
    given = iter(renumbered[n + 1 : n + m])
    cells, results, control = (next(given) if fd is not None else None for fd in optional)
    fds = _Fds(renumbered[:n], renumbered[n], cells, results, control)
    setup = renumbered[n + m :]
    nr, nd = len(host.read_fds), len(host.device_fds)
    host = replace(
        host,
        stdlib_fds=fds.stdlib,
        read_fds=setup[:nr],
        device_fds=setup[nr : nr + nd],
        netns_fd=setup[nr + nd] if host.netns_fd is not None else None,
    )
    return host, fds, setup


def _isolate(host: Host, slot: Slot, spec: Mapping[str, Any]) -> None:
    """As root: the job's cgroups, namespaces and scratch directory."""
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    os.setpgid(0, 0)  # without a uid of its own, the server kills the job by process group
    layers, uid = host.layers, slot.uid
    if "cgroups" in layers and slot.cgroup is not None:
        slot.cgroup.join()
    if "namespaces" in layers:
        syscalls.unshare(syscalls.CLONE_NEWNS | syscalls.CLONE_NEWIPC | syscalls.CLONE_NEWUTS)
        _read_only_host()
    elif uid is not None:
        try:  # System V IPC objects die with the job's own IPC namespace, at any tier that can have one
            syscalls.unshare(syscalls.CLONE_NEWIPC)
        except OSError:
            pass  # seccomp denies them where it is in use; the server removes the uid's anyway
    if host.netns_fd is not None:
        syscalls.setns(host.netns_fd, syscalls.CLONE_NEWNET)
    if "tmpfs" in layers:
        lang = LANGUAGES[spec.get("language", "python")]
        dirs = {os.path.dirname(n) for n in spec["files"]} - {""}
        inodes = int(spec["limits"]["files"]) + len(spec["files"]) + len(dirs) + 2  # + the root and the source
        if lang.compiled:
            inodes += stages.COMPILE_INODES
        owner = f",uid={uid},gid={uid}" if uid is not None else ""
        options = f"size={int(spec['limits']['memory_bytes'])},nr_inodes={inodes},mode=700{owner}"
        # noexec, but where the job runs the machine code it compiled (Landlock still allows
        # only that one file to be executed, and only the compiler may write it before).
        flags = syscalls.MS_NOSUID | syscalls.MS_NODEV | (0 if lang.native else syscalls.MS_NOEXEC)
        syscalls.mount("tmpfs", slot.scratch, "tmpfs", flags, options)
        compile_reads = ((spec.get("toolchain") or {}).get("compile") or {}).get("read", [])
        _private_tmp([slot.scratch, *host.views, *compile_reads])  # e.g. precompiled headers under /tmp
    else:
        os.mkdir(slot.scratch, 0o700)
        if uid is not None:
            os.chown(slot.scratch, uid, uid)
            if "namespaces" not in layers:
                _read_only_host_if_allowed(slot.scratch)
    if "namespaces" in layers:
        # A procfs of the job's own PID namespace over the host's (last: the mounts above go through
        # /proc/self/fd): it holds only the job's processes, so a job cannot even stat the host's pids and owners.
        syscalls.mount("proc", "/proc", "proc", syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC, None)


def _read_only_host() -> None:
    """Make every host mount read-only in the job's (private) mount namespace, before its own scratch,
    ``/tmp`` and ``/proc`` are mounted: no inode outside them can change, whatever its mode or whoever
    owns it. Landlock already denies writing files there, but not the metadata calls it does not govern:
    a job could set the times of any world-writable inode it can open (``futimens`` on ``/dev/null``
    marks the host's device node, a channel between jobs). A read-only mount refuses them (``EROFS``)
    and still lets a program read and write the device itself. Without ``mount_setattr`` (Linux < 5.12),
    at least the devices a job may open are bound read-only over themselves."""
    try:
        syscalls.read_only_tree("/")
        return
    except OSError:
        pass
    for device in DEVICES:
        if os.path.exists(device):
            syscalls.mount(device, device, None, syscalls.MS_BIND)
            flags = syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_RDONLY | syscalls.MS_NOSUID | syscalls.MS_NOEXEC
            syscalls.mount("none", device, None, flags)


def _read_only_host_if_allowed(scratch: str) -> None:
    """Without the namespaces layer (standard), where the kernel still gives the job a mount namespace of
    its own (as it may an IPC namespace): every host mount read-only there too (see :func:`_read_only_host`),
    but the scratch dir, bound over itself writable. Where it does not, nothing changes: a job can then set the
    times of the host's world-writable device nodes (README, threat model)."""
    try:
        syscalls.unshare(syscalls.CLONE_NEWNS)
        syscalls.mount("none", "/", None, syscalls.MS_REC | syscalls.MS_PRIVATE)  # nothing done here reaches the host
        syscalls.mount(scratch, scratch, None, syscalls.MS_BIND)
        _read_only_host()
    except OSError:
        return  # no mount namespace, or no mounting in it (e.g. an LSM's policy): the job runs as before
    flags = syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_NOSUID | syscalls.MS_NODEV
    syscalls.mount("none", scratch, None, flags)  # writable again: the job's own files only


PRIVATE = ("/tmp", "/dev/shm")  # host directories whose file names a job could stat, replaced in its mount namespace


def _private_tmp(carried: list[str]) -> None:
    """Give the job an empty, read-only ``/tmp`` and ``/dev/shm`` of its own (its mount namespace
    only), carrying over the mounts it needs that lie under them (its scratch dir, the server's
    views), so that it cannot even stat the names of the host's temporary files."""
    for top in PRIVATE:
        if not os.path.isdir(top):
            continue
        inside = [p for p in carried if p.startswith(top + "/")]
        held = [(p, os.open(p, os.O_PATH | os.O_CLOEXEC)) for p in inside]
        try:
            flags = syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC
            syscalls.mount("tmpfs", top, "tmpfs", flags, "size=1m,nr_inodes=256,mode=755")
            for path, fd in held:
                if stat.S_ISDIR(os.fstat(fd).st_mode):
                    os.makedirs(path, 0o755, exist_ok=True)
                else:
                    os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
                    open(path, "x").close()
                syscalls.mount(f"/proc/self/fd/{fd}", path, None, syscalls.MS_BIND | syscalls.MS_REC)
            remount = syscalls.MS_REMOUNT | syscalls.MS_RDONLY | flags
            syscalls.mount("none", top, None, remount)  # the mounts carried over keep their own flags
        finally:
            for _, fd in held:
                os.close(fd)


def _drop_to(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)  # a uid change clears it


def _confine(host: Host, slot: Slot, spec: Mapping[str, Any], setup: list[int]) -> None:
    """Drop root, lay out the scratch dir, then lock this process (and its future children) down."""
    layers, uid = host.layers, slot.uid
    session = spec["kind"] == "session"
    if uid is not None:
        _drop_to(uid)
    if "namespaces" not in layers and os.getppid() != host.server_pid:
        os._exit(STATUS_ERROR)  # the server died before PDEATHSIG was armed
    language = spec.get("language", "python")
    files = dict(spec["files"])
    if not session:
        files[LANGUAGES[language].source] = spec["source"].encode("utf-8", "surrogatepass")
    _write_files(slot.scratch, files)
    stdin = _stdin_fd(None if session else spec["stdin"])
    os.dup2(stdin, 0)
    os.close(stdin)
    monitor = 1 if "namespaces" in layers else 0  # the monitor runs as the same uid
    tasks = int(spec["limits"]["processes"]) + monitor if uid is not None else None
    _set_rlimits(host, spec["limits"], session=session, tasks=tasks, language=language)
    if "landlock" in layers:
        scratch_fd = os.open(slot.scratch, os.O_PATH | os.O_DIRECTORY)
        _landlock(host, scratch_fd, spec)
        os.close(scratch_fd)
    if "seccomp" in layers:
        seccomp.install(host.seccomp_exec_program if LANGUAGES[language].execs else host.seccomp_program)
    for fd in setup:
        os.close(fd)
    atexit._clear()  # the server's handlers are not the program's


def _monitor(host: Host, slot: Slot, spec: Mapping[str, Any], fds: _Fds) -> NoReturn:
    """PID 1 of the job's namespace: runs the program, reaps orphans, reports, and by
    exiting makes the kernel kill whatever is left of the job."""
    program = os.fork()
    if program == 0:
        _program(host, slot, spec, fds, nested=True)
    for fd in (fds.cells, fds.results, fds.control):  # the program's, not the monitor's
        if fd is not None:
            os.close(fd)
    while True:
        pid, wait_status, usage = os.wait4(-1, 0)
        if pid == program:
            break
    report = {
        "wait_status": wait_status,
        "cpu": usage.ru_utime + usage.ru_stime,
        "files": read_outputs(slot.scratch, list(spec["output_files"]), int(spec["limits"]["file_bytes"])),
    }
    os.write(fds.status, encode_status(report))
    os._exit(0)


def _program(host: Host, slot: Slot, spec: Mapping[str, Any], fds: _Fds, *, nested: bool) -> NoReturn:
    """Become the program: drop what it must not hold, then run its code (or its cells)."""
    if nested:
        syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)  # a fork clears it
        if "landlock" in host.layers and host.landlock_abi >= 6:  # it may not signal its monitor
            landlock.enforce(landlock.create_ruleset(host.landlock_abi, fs=False))
    session = spec["kind"] == "session"
    language = spec.get("language", "python")
    staged = LANGUAGES[language].execs
    keep = set(fds.stdlib) if host.fd_paths and not staged else set()
    if session:  # not the status pipe: what the cells write there must not pass for the sandbox's word
        assert fds.cells is not None and fds.results is not None
        keep |= {fds.cells, fds.results}
    if staged:  # the stage driver reports its compile on the status pipe and waits for a go
        keep |= {fds.status, fds.control}
    for fd in [*fds.stdlib, fds.status, *(fd for fd in (fds.cells, fds.results, fds.control) if fd is not None)]:
        if fd not in keep:
            os.close(fd)
    if staged:
        tasks = int(spec["limits"]["processes"]) + (1 if "namespaces" in host.layers else 0)
        stages.run(
            stages.Job(
                language=language,
                chain=spec["toolchain"],
                spec=spec,
                scratch=slot.scratch,
                status_fd=fds.status,
                control_fd=fds.control,
                layers=host.layers,
                landlock_abi=host.landlock_abi,
                run_tasks=tasks if slot.uid is not None else None,
            )
        )
    runner.reset_runtime(slot.scratch, host.job_paths, host.path_map, host.packages, host.unload)
    if session:
        assert fds.cells is not None and fds.results is not None
        runner.run_session(fds.cells, fds.results)
    if language == "sql":
        sql.run_main(spec["source"])
    runner.run_main(spec["source"])
