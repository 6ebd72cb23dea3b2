"""Detect which isolation layers this host allows, by trying each in a throwaway child.

Runs inside the sandbox server at start-up (a lean, single-threaded process that is safe to
fork). Each check returns ``None`` when the layer works, else the reason it does not, so
a refused tier can name exactly what is missing.

Example::

    from palaestra.sandbox.local import probe
    probe.detect(test_uid=60000, scratch="/tmp/x")
    # {'rlimits': None, 'uid': None, 'landlock': None, ..., 'cgroups': 'no writable cgroup v1 ...'}
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable

from . import cgroups, landlock, seccomp, syscalls


def _in_child(check: Callable[[], None]) -> str | None:
    """Run ``check`` in a forked child; ``None`` if it exited cleanly, else its error."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            check()
            os._exit(0)
        except BaseException as exc:  # noqa: BLE001 - any failure means "unavailable"
            os.write(w, f"{type(exc).__name__}: {exc}".encode()[:500])
            os._exit(1)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        message = f.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return message or f"probe child died (wait status {status})"


def _uid(test_uid: int) -> None:
    os.setgroups([])
    os.setresgid(test_uid, test_uid, test_uid)
    os.setresuid(test_uid, test_uid, test_uid)
    if os.geteuid() != test_uid:
        raise OSError("uid change had no effect")


def _landlock(scratch: str) -> None:
    if landlock.abi_version() < 1:
        raise OSError("Landlock is not enabled in this kernel")
    outside = os.path.join(scratch, "outside")
    open(outside, "w").close()
    landlock.restrict(read=["/usr"])
    try:
        open(outside).close()
    except PermissionError:
        return
    raise OSError("Landlock ruleset had no effect")


def _seccomp() -> None:
    seccomp.install(seccomp.build())
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    except PermissionError:
        return
    raise OSError("seccomp filter had no effect")


def _namespaces() -> None:
    syscalls.unshare(syscalls.CLONE_NEWNS | syscalls.CLONE_NEWIPC | syscalls.CLONE_NEWUTS | syscalls.CLONE_NEWPID)
    pid = os.fork()
    if pid == 0:
        os._exit(0 if os.getpid() == 1 else 1)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise OSError("new PID namespace not entered")


def _tmpfs(scratch: str) -> None:
    syscalls.unshare(syscalls.CLONE_NEWNS)
    syscalls.mount("none", "/", None, syscalls.MS_REC | syscalls.MS_PRIVATE)
    syscalls.mount("tmpfs", scratch, "tmpfs", syscalls.MS_NOSUID | syscalls.MS_NODEV, "size=1m,nr_inodes=8")


def _cgroups(name: str) -> str | None:
    roots = cgroups.v1_roots()
    if roots is None:
        return "no cgroup v1 memory, pids and cpuacct controllers mounted (cgroup v2 is not supported yet)"
    try:
        cg = cgroups.SlotCgroup.create(roots, name)
        try:
            cg.configure(memory_bytes=64 << 20, tasks=8, shares=1024)
        finally:
            cg.remove()
    except OSError as exc:
        return f"cgroup v1 not writable: {exc}"
    return None


def detect(*, test_uid: int, scratch: str, netns_error: str | None, cgroup_name: str) -> dict[str, str | None]:
    """Check every layer (``netns`` was already attempted by the server, which owns it)."""
    root = os.geteuid() == 0
    supported = syscalls.ARCH is not None
    report: dict[str, str | None] = {"rlimits": None}
    report["uid"] = _in_child(lambda: _uid(test_uid)) if root else "the server does not run as root"
    if supported:
        report["landlock"] = _in_child(lambda: _landlock(scratch))
        report["seccomp"] = _in_child(_seccomp)
    else:
        report["landlock"] = report["seccomp"] = f"unsupported architecture {os.uname().machine}"
    report["namespaces"] = _in_child(_namespaces) if root else "needs root"
    report["netns"] = netns_error
    if report["namespaces"] is not None:
        report["tmpfs"] = "needs namespaces"
    else:
        report["tmpfs"] = _in_child(lambda: _tmpfs(scratch))
    report["cgroups"] = _cgroups(cgroup_name) if root else "needs root"
    return report
