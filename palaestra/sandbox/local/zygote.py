"""The zygote: the clean process every job is forked from.

A job forked from the server itself would inherit the server's heap, and in it the source,
stdin, files and output of every job the server ever handled (freed memory keeps its bytes),
plus live frames that reach the ``Server`` object. So the server forks the zygote once, at
start-up, before it has read a single request, and from then on asks the zygote for every
job. The zygote only ever holds a slot's identity (index, uid, scratch path, cgroup dirs) and
the job's fds: the job's spec travels in a sealed memfd that only the forked child reads,
after the fork. Nothing a job can find in its address space came from another job.

The zygote also reaps the jobs (they are its children) and reports each exit, and kills a
uid's processes for the server (a helper forked from the server would carry its heap).

Example (inside the server)::

    zygote = Zygote.start(host, new_pidns=True, own_pidns=fd)
    pid, pidfd = zygote.spawn(slot, spec, pipes)        # the child runs jail.start
    for pid, wait_status, cpu in zygote.exits():        # when zygote.events is readable
        ...
    zygote.kill_uid(60003)
"""

from __future__ import annotations

import fcntl
import marshal
import os
import selectors
import signal
import socket
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, NoReturn

from . import jail, syscalls
from .cgroups import SlotCgroup

MAX_MESSAGE = 1 << 16
MAX_FDS = 8
F_ADD_SEALS = 1033
SEALS = 0x1 | 0x2 | 0x4 | 0x8  # F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE


def _send(sock: socket.socket, message: Any, fds: list[int] | None = None) -> None:
    data = marshal.dumps(message)
    if fds:
        socket.send_fds(sock, [data], fds)
    else:
        sock.sendall(data)


def _receive(sock: socket.socket) -> tuple[Any, list[int]]:
    data, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, MAX_FDS)
    if not data:
        raise EOFError("the other end of the zygote channel is gone")
    return marshal.loads(data), list(fds)


def spec_memfd(spec: dict[str, Any]) -> int:
    """A sealed, read-only memfd holding the job's spec."""
    fd = os.memfd_create("job", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    view = memoryview(marshal.dumps(spec))
    while view:
        view = view[os.write(fd, view) :]
    fcntl.fcntl(fd, F_ADD_SEALS, SEALS)
    return fd


def _read_spec(fd: int) -> dict[str, Any]:
    size = os.fstat(fd).st_size
    chunks, got = [], 0
    while got < size:
        chunk = os.pread(fd, size - got, got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    spec: dict[str, Any] = marshal.loads(b"".join(chunks))
    return spec


class Zygote:
    """The server's handle on its zygote: a request channel (spawn, kill) and an event channel
    (job exits), both SOCK_SEQPACKET so that messages keep their boundaries."""

    def __init__(self, pid: int, requests: socket.socket, events: socket.socket):
        self.pid = pid
        self.requests = requests
        self.events = events

    @classmethod
    def start(cls, host: jail.Host, *, new_pidns: bool, own_pidns: int | None, keep: Callable[[], None]) -> Zygote:
        """Fork the zygote. ``keep`` runs in the zygote first: it closes what the server holds
        that the zygote must not (the protocol pipes, the uid block's lock)."""
        req_server, req_zygote = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ev_server, ev_zygote = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        server_pid = os.getpid()
        pid = os.fork()
        if pid == 0:
            try:
                req_server.close()
                ev_server.close()
                keep()
                _serve(host, req_zygote, ev_zygote, server_pid, new_pidns, own_pidns)
            finally:
                os._exit(1)
        req_zygote.close()
        ev_zygote.close()
        ev_server.setblocking(False)
        return cls(pid, req_server, ev_server)

    def spawn(self, slot: jail.Slot, spec: dict[str, Any], pipes: jail.Pipes) -> tuple[int, int | None]:
        """Start one job; (its pid, a pidfd for it if the kernel gives one). Raises OSError if the
        fork failed."""
        spec_fd = spec_memfd(spec)
        fds = [pipes.stdout, pipes.stderr, pipes.status, spec_fd]
        optional = [fd for fd in (pipes.cells, pipes.results, pipes.control) if fd is not None]
        message = {
            "op": "spawn",
            "slot": (slot.index, slot.uid, slot.scratch, slot.cgroup.dirs if slot.cgroup is not None else None),
            "cells": pipes.cells is not None,  # a session: its cells and results pipes
            "control": pipes.control is not None,
        }
        try:
            _send(self.requests, message, fds + optional)
        finally:
            os.close(spec_fd)
        reply, got = _receive(self.requests)
        if reply.get("error"):
            for fd in got:
                os.close(fd)
            raise OSError(reply["errno"], reply["error"])
        return int(reply["pid"]), got[0] if got else None

    def kill_uid(self, uid: int, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` (SIGKILL: kill) to every process of ``uid`` (from a child of the zygote that becomes ``uid``)."""
        _send(self.requests, {"op": "kill", "uid": uid, "signal": int(sig)})
        _receive(self.requests)

    def exits(self) -> Iterator[tuple[int, int, float]]:
        """(pid, wait status, CPU seconds) of each job the zygote reaped since the last call."""
        while True:
            try:
                data = self.events.recv(MAX_MESSAGE)
            except BlockingIOError:
                return
            if not data:
                raise EOFError("the sandbox zygote died")
            pid, wait_status, cpu = marshal.loads(data)
            yield pid, wait_status, cpu

    def close(self) -> None:
        """Closing the request channel makes the zygote exit (its jobs die with it)."""
        self.requests.close()
        self.events.close()


# -- in the zygote ---------------------------------------------------------------------------


def kill_as(uid: int, sig: int = signal.SIGKILL) -> None:
    """Send ``sig`` to every process of ``uid`` (SIGKILL: kill them), from a child that has become ``uid``.

    kill(-1) signals all of them under the kernel's task-list lock, so a process forking at
    that moment cannot slip a child through (a /proc scan could: the parent can fork and exit
    between the listing and the read of its status); SIGSTOP so stops a fork-hopping process."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            if os.getuid() == uid != 0:  # never kill(-1) as root
                os.kill(-1, sig)
        finally:
            os._exit(0)
    while True:
        try:
            _, status = os.waitpid(pid, os.WUNTRACED)
        except InterruptedError:
            continue
        if not os.WIFSTOPPED(status):
            return
        # Once it is the uid, the uid's own processes can signal it: one stopped by a job's kill(-1, SIGSTOP)
        # would never exit, and this wait (and the server behind it) would hang.
        os.kill(pid, signal.SIGKILL)


def _serve(
    host: jail.Host,
    requests: socket.socket,
    events: socket.socket,
    server_pid: int,
    new_pidns: bool,
    own_pidns: int | None,
) -> NoReturn:
    syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != server_pid:
        os._exit(1)  # the server died before PDEATHSIG was armed
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    host = replace(host, server_pid=os.getpid())  # a job checks that its parent is still there
    children: set[int] = set()
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    sel = selectors.DefaultSelector()
    sel.register(wake_r, selectors.EVENT_READ)
    sel.register(requests, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            if key.fd == wake_r:
                try:
                    while os.read(wake_r, 4096):
                        pass
                except BlockingIOError:
                    pass
            else:
                try:
                    message, fds = _receive(requests)
                except (EOFError, OSError):
                    os._exit(0)  # the server is gone; the jobs die by their PDEATHSIG
                if message["op"] == "spawn":
                    _spawn(host, requests, message, fds, children, new_pidns, own_pidns)
                else:
                    kill_as(int(message["uid"]), int(message.get("signal", signal.SIGKILL)))
                    _send(requests, {})
        _reap(events, children)


def _reap(events: socket.socket, children: set[int]) -> None:
    while children:
        try:
            pid, wait_status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in children:
            children.discard(pid)
            _send(events, (pid, wait_status, usage.ru_utime + usage.ru_stime))


def _spawn(
    host: jail.Host,
    requests: socket.socket,
    message: dict[str, Any],
    fds: list[int],
    children: set[int],
    new_pidns: bool,
    own_pidns: int | None,
) -> None:
    stdout, stderr, status, spec_fd, *rest = fds
    cells, results = (rest.pop(0), rest.pop(0)) if message["cells"] else (None, None)
    control = rest.pop(0) if message["control"] else None
    index, uid, scratch, cgroup_dirs = message["slot"]
    slot = jail.Slot(index, uid, scratch, SlotCgroup(cgroup_dirs) if cgroup_dirs is not None else None)
    pipes = jail.Pipes(stdout, stderr, status, cells, results, control)
    try:
        if new_pidns:
            syscalls.unshare(syscalls.CLONE_NEWPID)  # only the next child enters it
        try:
            pid = os.fork()
            if pid == 0:
                try:
                    spec = _read_spec(spec_fd)  # the job's data: only ever in this child
                    os.close(spec_fd)
                except BaseException:  # noqa: BLE001 - nowhere to report it but the exit status
                    os._exit(jail.STATUS_ERROR)
                jail.start(host, slot, spec, pipes)
        finally:
            if new_pidns and own_pidns is not None:
                syscalls.setns(own_pidns, syscalls.CLONE_NEWPID)
    except OSError as exc:
        _send(requests, {"error": str(exc), "errno": exc.errno or 0})
        return
    finally:
        for fd in fds:
            os.close(fd)
    children.add(pid)
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:  # an old kernel, or a container engine's seccomp profile: signal by pid then
        _send(requests, {"pid": pid})
        return
    try:
        _send(requests, {"pid": pid}, [pidfd])
    finally:
        os.close(pidfd)
