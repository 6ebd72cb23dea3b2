"""Landlock: an unprivileged, inherited allow-list of file-system and network access.

Everything the kernel's Landlock ABI can handle is denied except: read (and list) the
directories given as ``read``, read/write the devices given as ``devices``, and do anything
but execute inside ``write`` (the scratch directory). So the program cannot read the host's
files (``/etc/passwd``, ``/proc/1/environ``, a secret next to the scratch dir), write
anywhere else (``/tmp``, ``/dev/shm``), or ``execve`` anything (``/bin/sh``, setuid
binaries, files it wrote) but the few files a language's toolchain is granted (:data:`RUN`:
read and execute one file, e.g. ``cc1`` or the dynamic loader; see :mod:`.jail`). From ABI 4
TCP bind/connect is denied; from ABI 6 the program can neither signal processes outside its
domain (the server, its own monitor) nor reach abstract UNIX sockets outside it.

Example::

    from palaestra.sandbox.local import landlock
    if landlock.abi_version() >= 1:
        landlock.restrict(read=["/usr/lib/python3.11"], write=["/tmp/scratch"], devices=["/dev/null"])
"""

from __future__ import annotations

import ctypes
import os
import stat
from collections.abc import Iterable

from . import syscalls

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # rights a non-directory rule may carry
_RULE_PATH_BENEATH = 1
_CREATE_RULESET_VERSION = 1

READ = READ_FILE | READ_DIR
SCRATCH = (
    WRITE_FILE | READ_FILE | READ_DIR | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO
    | MAKE_SYM | REFER | TRUNCATE
)  # fmt: skip
DEVICE = READ_FILE | WRITE_FILE
RUN = READ_FILE | EXECUTE  # a file that may be executed (a toolchain's binary, a compiled program)


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is missing or disabled."""
    try:
        return syscalls.syscall("landlock_create_ruleset", None, 0, _CREATE_RULESET_VERSION)
    except OSError:
        return 0


def handled_fs(abi: int) -> int:
    return _FS_BY_ABI[max(v for v in _FS_BY_ABI if v <= abi)]


def create_ruleset(abi: int, *, fs: bool = True) -> int:
    """A ruleset fd handling every right of ``abi`` (only the scopes when ``fs`` is false)."""
    attr = _RulesetAttr(handled_fs(abi) if fs else 0, 0, 0)
    size = 8
    if abi >= 4:
        attr.net = (NET_BIND_TCP | NET_CONNECT_TCP) if fs else 0
        size = 16
    if abi >= 6:
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        size = 24
    return syscalls.syscall("landlock_create_ruleset", ctypes.byref(attr), size, 0)


def allow(ruleset: int, fd: int, access: int, abi: int) -> None:
    """Allow ``access`` beneath the file or directory open at ``fd`` (an O_PATH fd is enough)."""
    access &= handled_fs(abi)
    if not stat.S_ISDIR(os.fstat(fd).st_mode):
        access &= _FILE_ONLY
    rule = _PathBeneath(access, fd)
    syscalls.syscall("landlock_add_rule", ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)


def enforce(ruleset: int) -> None:
    """Apply the ruleset to this process and its future children; close it."""
    try:
        syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1)
        syscalls.syscall("landlock_restrict_self", ruleset, 0)
    finally:
        os.close(ruleset)


def restrict(*, read: Iterable[str] = (), write: Iterable[str] = (), devices: Iterable[str] = ()) -> None:
    """Confine this process to the given paths (missing paths are skipped)."""
    abi = abi_version()
    if abi < 1:
        raise OSError(38, "Landlock is not available")
    ruleset = create_ruleset(abi)
    for paths, access in ((read, READ), (write, SCRATCH), (devices, DEVICE)):
        for path in paths:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            try:
                allow(ruleset, fd, access, abi)
            finally:
                os.close(fd)
    enforce(ruleset)
