"""Per-slot cgroup (v1) limits: memory of the whole job, its number of tasks, its CPU time.

rlimits bound each process separately; a cgroup bounds the job as a whole (a fork bomb of
allocators, tmpfs pages, threads) and measures the CPU time of every process in it, killed
ones included. Each sandbox slot owns one directory per controller, created under the
server's own cgroup (so any limit the host put on the server still applies); a job joins
it before dropping root.

Example::

    from palaestra.sandbox.local.cgroups import SlotCgroup, v1_roots
    roots = v1_roots()                    # None when a controller is missing or read-only
    cg = SlotCgroup.create(roots, "palaestra-b0/s3")
    cg.configure(memory_bytes=2**28, tasks=16, shares=1024)
    cg.join()                             # in the job's process
    cg.cpu_seconds(), cg.oom_kills()
    cg.remove()
    limit_total(roots, "palaestra-b0", 2**33)  # every slot under it together
    weigh_total(roots, "palaestra-b0", 256)    # their CPU weight together
"""

from __future__ import annotations

import os

CONTROLLERS = ("memory", "pids", "cpuacct")
OPTIONAL = ("cpu",)  # CPU weights (cpu.shares) and caps (a held session's), for fairness between jobs, where mounted


def _write(path: str, value: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def _set_memory_limit(memory_dir: str, memory_bytes: int) -> None:
    mem = os.path.join(memory_dir, "memory.limit_in_bytes")
    memsw = os.path.join(memory_dir, "memory.memsw.limit_in_bytes")
    if os.path.exists(memsw):  # memory+swap must stay >= memory: lift it, set both
        _write(memsw, "-1")
        _write(mem, str(memory_bytes))
        _write(memsw, str(memory_bytes))
    else:
        _write(mem, str(memory_bytes))


def limit_total(roots: dict[str, str], name: str, memory_bytes: int) -> str:
    """Bound the memory of every slot under ``name`` together (the kernel enforces it on the
    whole subtree: cgroup v1 memory is hierarchical); the group's memory directory."""
    memory_dir = os.path.join(roots["memory"], name)
    os.makedirs(memory_dir, exist_ok=True)
    _set_memory_limit(memory_dir, memory_bytes)
    return memory_dir


def weigh_total(roots: dict[str, str], name: str, shares: int) -> bool:
    """Give every slot under ``name`` together the CPU weight ``shares`` (cpu.shares) against the
    processes beside the group (the server's, the host's); False without the cpu controller or
    when the kernel refuses (a preference, not a limit: the jobs then keep the default weight)."""
    if "cpu" not in roots:
        return False
    cpu_dir = os.path.join(roots["cpu"], name)
    try:
        os.makedirs(cpu_dir, exist_ok=True)
        _write(os.path.join(cpu_dir, "cpu.shares"), str(shares))
    except OSError:
        return False
    return True


def jobs_group_dir(server_dir: str, controller: str) -> str | None:
    """The directory, in ``controller``, of the cgroup over every slot of the server whose folder is
    ``server_dir`` (its block, ``.../bN``: the group is ``palaestra-bN``); None where that controller
    is not mounted writable. For what watches the jobs from outside (tests, benchmarks)."""
    roots = v1_roots()
    if roots is None or controller not in roots:
        return None
    return os.path.join(roots[controller], f"palaestra-{os.path.basename(server_dir)}")


def v1_roots() -> dict[str, str] | None:
    """The directory of this process's cgroup for each controller, or None if one is missing."""
    mounts: dict[str, str] = {}
    for line in _read("/proc/self/mounts").splitlines():
        _, where, fstype, options, *_ = line.split()
        if fstype == "cgroup":
            for opt in options.split(","):
                if opt in CONTROLLERS + OPTIONAL:
                    mounts[opt] = where
    own: dict[str, str] = {}
    for line in _read("/proc/self/cgroup").splitlines():
        _, names, path = line.split(":", 2)
        for name in names.split(","):
            own[name] = path
    if not all(c in mounts and c in own for c in CONTROLLERS):
        return None
    roots = {c: os.path.join(mounts[c], own[c].lstrip("/")) for c in CONTROLLERS}
    for c in OPTIONAL:
        if c in mounts and c in own and os.access(os.path.join(mounts[c], own[c].lstrip("/")), os.W_OK):
            roots[c] = os.path.join(mounts[c], own[c].lstrip("/"))
    return roots


class SlotCgroup:
    """One slot's directories, one per controller."""

    def __init__(self, dirs: dict[str, str]):
        self.dirs = dirs
        self._configured: tuple[int, int] | None = None
        self._oom_base = 0

    @classmethod
    def create(cls, roots: dict[str, str], name: str) -> SlotCgroup:
        dirs = {c: os.path.join(root, name) for c, root in roots.items()}
        for d in dirs.values():
            os.makedirs(d, exist_ok=True)
        return cls(dirs)

    def configure(self, *, memory_bytes: int, tasks: int, shares: int) -> None:
        """Set the limits and CPU weight for the next job (no CPU cap: the last may have ended held) and zero
        the counters."""
        self.cap_cpu(None)
        self.set_limits(memory_bytes=memory_bytes, tasks=tasks)
        self.set_shares(shares)
        _write(os.path.join(self.dirs["cpuacct"], "cpuacct.usage"), "0")
        self._oom_base = self._oom_count()
        self._reset_peak()

    def set_limits(self, *, memory_bytes: int, tasks: int) -> None:
        """Change the limits (only when they changed), e.g. from a compiler's to its program's.

        Lowering the memory limit below what the group uses raises OSError (EBUSY) once the
        kernel failed to reclaim enough; the limit then stays where it was."""
        if self._configured == (memory_bytes, tasks):
            return
        self._configured = None  # unknown until both writes succeed
        _set_memory_limit(self.dirs["memory"], memory_bytes)
        _write(os.path.join(self.dirs["pids"], "pids.max"), str(tasks))
        self._configured = (memory_bytes, tasks)

    def set_shares(self, shares: int) -> bool:
        """The group's CPU weight against the other slots'; False without the cpu controller."""
        if "cpu" not in self.dirs:
            return False
        _write(os.path.join(self.dirs["cpu"], "cpu.shares"), str(shares))
        return True

    def cap_cpu(self, share: float | None) -> bool:
        """Cap the group at ``share`` of one CPU (None: no cap); False without the cpu controller. (Not the v1
        freezer: a frozen task ignores SIGKILL, so one frozen when its server died stayed for ever.)"""
        if "cpu" not in self.dirs:
            return False
        period = int(_read(os.path.join(self.dirs["cpu"], "cpu.cfs_period_us")))
        quota = -1 if share is None else max(1000, int(period * share))
        _write(os.path.join(self.dirs["cpu"], "cpu.cfs_quota_us"), str(quota))
        return True

    def join(self) -> None:
        """Move the calling process into every controller's directory."""
        for d in self.dirs.values():
            _write(os.path.join(d, "cgroup.procs"), "0")

    def cpu_seconds(self) -> float:
        return int(_read(os.path.join(self.dirs["cpuacct"], "cpuacct.usage"))) / 1e9

    def _oom_count(self) -> int:
        for line in _read(os.path.join(self.dirs["memory"], "memory.oom_control")).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def oom_kills(self) -> int:
        """OOM kills in this slot since the last :meth:`configure`."""
        return self._oom_count() - self._oom_base

    def memory_in_use(self) -> int:
        """Bytes charged to the group now (its processes' pages, its tmpfs, kernel memory)."""
        return int(_read(os.path.join(self.dirs["memory"], "memory.usage_in_bytes")))

    def _memory_files(self, name: str) -> list[str]:
        """``memory.<name>`` and, where swap is accounted, ``memory.memsw.<name>``."""
        paths = [os.path.join(self.dirs["memory"], f"memory.{name}"), os.path.join(self.dirs["memory"], f"memory.memsw.{name}")]
        return [p for p in paths if os.path.exists(p)]

    def _reset_peak(self) -> None:
        for path in self._memory_files("max_usage_in_bytes"):
            _write(path, "0")

    def hit_own_limit(self) -> bool:
        """Whether the group's peak use since the last :meth:`configure` came within a megabyte of
        its own memory limit: an OOM kill without it came from the limit of all slots together
        (see :func:`limit_total`). (Not memory.failcnt: where swap is accounted, a charge fails at
        the memory+swap counter first, and the kernel counts no failures there.)"""
        peak = max(int(_read(p)) for p in self._memory_files("max_usage_in_bytes"))
        limit = min(int(_read(p)) for p in self._memory_files("limit_in_bytes"))
        return peak >= limit - 2**20

    def remove(self) -> None:
        for d in self.dirs.values():
            try:
                os.rmdir(d)
            except OSError:
                pass
