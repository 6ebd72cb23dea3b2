"""A seccomp-BPF filter, assembled here, that takes away the kernel's attack surface.

Denied with ``EPERM`` (so the program sees an ordinary ``PermissionError``):

- ``socket()`` of every family, and ``socketpair()`` but of ``SOCK_STREAM``: no TCP, UDP, raw
  or netlink socket (Landlock only governs TCP), and no path to the host's UNIX sockets (D-Bus,
  X11, ``/dev/log``: a datagram socket can ``sendto()`` any path, and Landlock cannot restrict
  that before its ABI 9). Stream socket pairs, which ``multiprocessing`` and ``asyncio`` use,
  stay;
- ``clone()`` with namespace flags, ``unshare``, ``setns``, ``mount``/``umount`` and the new mount
  API, ``pivot_root``, ``chroot``: no new namespaces, no remounting;
- ``ptrace``, ``process_vm_readv/writev``, ``pidfd_getfd``, ``kcmp``, ``process_madvise``: no
  reading or steering other processes;
- ``bpf``, ``perf_event_open``, ``userfaultfd``, ``io_uring_*``, ``keyctl``/``add_key``/
  ``request_key``, module loading, ``kexec``, ``reboot``, ``swapon``, clocks, ``personality``,
  ``acct``, ``quotactl``, handle-based opens and the like: rarely needed, often exploited.
- System V shared memory, message queues and semaphores: objects that outlive the job (a job
  with an IPC namespace of its own loses them with it; this closes the class at every tier);
- metadata writes by path (``setxattr``, ``lsetxattr``, ``removexattr`` and their ``*at`` forms,
  ``utime``, ``utimes``, ``futimesat``, and ``utimensat`` with a path): Landlock does not govern
  them, so a job could mark any file it can name. The fd forms stay: a job can only get a
  writable fd for its own files;
- ``listmount``/``statmount``, ``inotify_*`` and ``fanotify_mark``: the host's mount table and
  the names of files appearing in host directories;
- ``memfd_create`` where no cgroup charges its pages to the job (:func:`build` with
  ``memfd_allowed=False``): its memory would count against no limit.

- ``execve``/``execveat``, in jobs that never need them (Python and SQL): :func:`build` with
  ``exec_allowed=False``. Jobs of other languages must exec their toolchain; Landlock decides
  which files (see :mod:`.jail`), and right before the job execs its program it stacks
  :func:`single_exec`, which lets exactly that one ``execve`` through: the program, once
  started, can exec nothing (``child_process``, ``system("/bin/sh")``, the dynamic loader).

``clone3()`` gets ``ENOSYS`` because its flags live in memory the filter cannot inspect; glibc
then falls back to ``clone()``, whose flags it can. Any other architecture (x32, i386 through
``int 0x80``) kills the process. The filter is assembled once per process and installed with
``PR_SET_NO_NEW_PRIVS``, which also stops setuid binaries from gaining privileges.

Example::

    from palaestra.sandbox.local import seccomp
    program = seccomp.build()     # bytes of struct sock_filter[]
    seccomp.install(program)      # irreversible for this process and its children
    seccomp.install(seccomp.single_exec(ctypes.addressof(path_buffer)))   # then execve(path_buffer, ...)
"""

from __future__ import annotations

import ctypes
import errno
import socket
import struct

from . import syscalls

DENIED = (
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp", "process_madvise",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "keyctl", "add_key", "request_key", "init_module", "finit_module", "delete_module",
    "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "personality", "acct",
    "quotactl", "quotactl_fd", "syslog", "vhangup", "lookup_dcookie", "name_to_handle_at",
    "open_by_handle_at", "fanotify_init", "settimeofday", "clock_settime", "clock_adjtime",
    "adjtimex", "sethostname", "setdomainname", "migrate_pages", "move_pages", "memfd_secret",
    "uselib", "_sysctl", "nfsservctl", "modify_ldt", "iopl", "ioperm",
    "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl",
    "semget", "semop", "semtimedop", "semctl",
    "setxattr", "lsetxattr", "removexattr", "lremovexattr", "setxattrat", "removexattrat",
    "utime", "utimes", "futimesat",
    "listmount", "statmount", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_mark",
)  # fmt: skip

# Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ, _JGE, _JSET = 0x15, 0x35, 0x45
_RET = 0x06
_AND = 0x54  # BPF_ALU | BPF_AND | BPF_K
_SOCK_TYPE_MASK = 0xF
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000
_ALLOW = 0x7FFF0000
_X32_SYSCALL_BIT = 0x40000000
# Offsets in struct seccomp_data: nr, arch, then 64-bit args (the low half first: little endian).
_NR, _ARCH_OFF = 0, 4


def _arg_low(i: int) -> int:
    return 16 + 8 * i


class _sock_fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class _Assembler:
    """Classic BPF with forward jumps to named labels."""

    def __init__(self) -> None:
        # (code, true label or None, false label or None, k); labels resolve to forward offsets.
        self.prog: list[tuple[int, str | None, str | None, int]] = []
        self.labels: dict[str, int] = {}

    def op(self, code: int, k: int = 0, jt: str | None = None, jf: str | None = None) -> None:
        self.prog.append((code, jt, jf, k))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.prog)

    def returns(self) -> None:
        for name, k in (
            ("allow", _ALLOW),
            ("eperm", _ERRNO | errno.EPERM),
            ("enosys", _ERRNO | errno.ENOSYS),
            ("kill", _KILL_PROCESS),
        ):
            self.label(name)
            self.op(_RET, k)

    def assemble(self) -> bytes:
        out = bytearray()
        for pc, (code, jt, jf, k) in enumerate(self.prog):
            t = self.labels[jt] - pc - 1 if jt else 0
            f = self.labels[jf] - pc - 1 if jf else 0
            assert 0 <= t < 256 and 0 <= f < 256, "BPF jump out of range"
            out += struct.pack("=HBBI", code, t, f, k)
        return bytes(out)


def build(*, exec_allowed: bool = True, memfd_allowed: bool = True) -> bytes:
    """The filter as packed ``struct sock_filter`` entries, for the running architecture;
    ``exec_allowed=False`` also denies ``execve`` and ``execveat``, ``memfd_allowed=False``
    ``memfd_create``."""
    if syscalls.ARCH is None:
        raise OSError(errno.ENOSYS, "seccomp filter: unsupported architecture")
    asm = _Assembler()
    op = asm.op

    op(_LD_W_ABS, _ARCH_OFF)
    op(_JEQ, syscalls.AUDIT_ARCH, None, "kill")
    op(_LD_W_ABS, _NR)
    if syscalls.ARCH == "x86_64":
        op(_JGE, _X32_SYSCALL_BIT, "kill", None)
    op(_JEQ, syscalls.NR["clone3"], "enosys", None)
    op(_JEQ, syscalls.NR["socket"], "eperm", None)
    op(_JEQ, syscalls.NR["socketpair"], "socketpair", None)
    op(_JEQ, syscalls.NR["clone"], "clone", None)
    op(_JEQ, syscalls.NR["utimensat"], "utimensat", None)
    extra = (() if exec_allowed else ("execve", "execveat")) + (() if memfd_allowed else ("memfd_create",))
    for name in (*DENIED, *extra):
        if name in syscalls.NR:  # some exist on one architecture only (iopl, modify_ldt, ...)
            op(_JEQ, syscalls.NR[name], "eperm", None)
    op(_RET, _ALLOW)
    asm.label("socketpair")
    op(_LD_W_ABS, _arg_low(1))
    op(_AND, _SOCK_TYPE_MASK)  # the type without SOCK_NONBLOCK / SOCK_CLOEXEC
    op(_JEQ, socket.SOCK_STREAM, "allow", "eperm")
    asm.label("clone")
    op(_LD_W_ABS, _arg_low(0))
    op(_JSET, syscalls.NAMESPACE_FLAGS, "eperm", "allow")
    asm.label("utimensat")  # futimens() is utimensat(fd, NULL, ...): only that form
    op(_LD_W_ABS, _arg_low(1))
    op(_JEQ, 0, None, "eperm")
    op(_LD_W_ABS, _arg_low(1) + 4)
    op(_JEQ, 0, "allow", "eperm")
    asm.returns()
    return asm.assemble()


def single_exec(path_address: int) -> bytes:
    """A filter (stacked on :func:`build`'s) allowing ``execve`` only with ``path_address`` as
    its path pointer, and no ``execveat``.

    The caller execs through a buffer at that address; the new program's address space no longer
    holds it, so it cannot exec again (a native program could rebuild the string at that address,
    but gains nothing: it is native code already, under the same Landlock, seccomp and uid)."""
    if syscalls.ARCH is None:
        raise OSError(errno.ENOSYS, "seccomp filter: unsupported architecture")
    asm = _Assembler()
    op = asm.op
    op(_LD_W_ABS, _ARCH_OFF)
    op(_JEQ, syscalls.AUDIT_ARCH, None, "kill")
    op(_LD_W_ABS, _NR)
    op(_JEQ, syscalls.NR["execveat"], "eperm", None)
    op(_JEQ, syscalls.NR["execve"], None, "allow")
    op(_LD_W_ABS, _arg_low(0))
    op(_JEQ, path_address & 0xFFFFFFFF, None, "eperm")
    op(_LD_W_ABS, _arg_low(0) + 4)
    op(_JEQ, path_address >> 32, "allow", "eperm")
    asm.returns()
    return asm.assemble()


def install(program: bytes) -> None:
    """Set no_new_privs and load ``program`` (from :func:`build`) into this process."""
    buf = ctypes.create_string_buffer(program, len(program))
    fprog = _sock_fprog(len(program) // 8, ctypes.addressof(buf))
    syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1)
    syscalls.prctl(syscalls.PR_SET_SECCOMP, syscalls.SECCOMP_MODE_FILTER, ctypes.addressof(fprog))
