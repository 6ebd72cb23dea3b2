"""ctypes wrappers for the Linux calls the sandbox needs and the standard library lacks.

``os.unshare``/``os.setns`` only exist from Python 3.12 and there is no ``mount``, ``prctl``,
seccomp or Landlock at all, so the jail calls libc directly. Syscall numbers differ per
architecture; only x86_64 and aarch64 are supported (:data:`ARCH` is ``None`` elsewhere and the
seccomp and Landlock layers then report themselves unavailable).

Example::

    from palaestra.sandbox.local import syscalls
    syscalls.prctl(syscalls.PR_SET_CHILD_SUBREAPER, 1)
"""

from __future__ import annotations

import ctypes
import os
import platform

_libc = ctypes.CDLL(None, use_errno=True)

# Syscall numbers of the calls the seccomp filter handles, per architecture (from the kernel's
# unistd headers: arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h).
_X86_64 = {
    "execve": 59, "execveat": 322, "socket": 41, "socketpair": 53, "clone": 56, "ptrace": 101,
    "syslog": 103, "uselib": 134, "personality": 135,
    "vhangup": 153, "modify_ldt": 154, "pivot_root": 155, "_sysctl": 156, "adjtimex": 159,
    "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166, "swapon": 167,
    "swapoff": 168, "reboot": 169, "sethostname": 170, "setdomainname": 171, "iopl": 172,
    "ioperm": 173, "init_module": 175, "delete_module": 176, "quotactl": 179, "nfsservctl": 180,
    "lookup_dcookie": 212, "clock_settime": 227, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "migrate_pages": 256, "unshare": 272, "move_pages": 279,
    "perf_event_open": 298, "fanotify_init": 300, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "clock_adjtime": 305, "setns": 308, "process_vm_readv": 310,
    "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
    "bpf": 321, "userfaultfd": 323,
    "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "shmdt": 67,
    "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "semtimedop": 220, "memfd_create": 319,
    "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
    "fremovexattr": 199, "utime": 132, "utimes": 235, "futimesat": 261, "utimensat": 280,
    "inotify_init": 253, "inotify_add_watch": 254, "inotify_init1": 294, "fanotify_mark": 301,
}  # fmt: skip
_AARCH64 = {
    "execve": 221, "execveat": 281, "lookup_dcookie": 18, "umount2": 39, "mount": 40, "pivot_root": 41,
    "nfsservctl": 42,
    "chroot": 51, "vhangup": 58, "quotactl": 60, "acct": 89, "personality": 92, "unshare": 97,
    "kexec_load": 104, "init_module": 105, "delete_module": 106, "clock_settime": 112,
    "syslog": 116, "ptrace": 117, "reboot": 142, "sethostname": 161, "setdomainname": 162,
    "settimeofday": 170, "adjtimex": 171, "socket": 198, "socketpair": 199, "add_key": 217, "request_key": 218,
    "keyctl": 219, "clone": 220, "swapon": 224, "swapoff": 225, "migrate_pages": 238,
    "move_pages": 239, "perf_event_open": 241, "fanotify_init": 262, "name_to_handle_at": 264,
    "open_by_handle_at": 265, "clock_adjtime": 266, "setns": 268, "process_vm_readv": 270,
    "process_vm_writev": 271, "kcmp": 272, "finit_module": 273, "bpf": 280, "userfaultfd": 282,
    "kexec_file_load": 294,
    "msgget": 186, "msgctl": 187, "msgrcv": 188, "msgsnd": 189, "semget": 190, "semctl": 191,
    "semtimedop": 192, "semop": 193, "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197,
    "memfd_create": 279, "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14,
    "lremovexattr": 15, "fremovexattr": 16, "utimensat": 88, "inotify_init1": 26,
    "inotify_add_watch": 27, "fanotify_mark": 263,
}  # fmt: skip
# Numbers from 403 up are shared by every architecture.
_COMMON = {
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "clone3": 435, "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442,
    "quotactl_fd": 443, "landlock_create_ruleset": 444, "landlock_add_rule": 445,
    "landlock_restrict_self": 446, "memfd_secret": 447, "statmount": 457, "listmount": 458,
    "setxattrat": 463, "removexattrat": 466,
}  # fmt: skip
# AUDIT_ARCH_* values seccomp reports in seccomp_data.arch.
_ARCHES = {"x86_64": (0xC000003E, _X86_64), "aarch64": (0xC00000B7, _AARCH64)}

ARCH: str | None = platform.machine() if platform.machine() in _ARCHES else None
AUDIT_ARCH: int = _ARCHES[ARCH][0] if ARCH else 0
NR: dict[str, int] = {**_ARCHES[ARCH][1], **_COMMON} if ARCH else {}

PR_SET_PDEATHSIG = 1
PR_SET_SECCOMP = 22
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2

CLONE_NEWTIME = 0x00000080
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACE_FLAGS = (
    CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID
    | CLONE_NEWNET
)  # fmt: skip

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18


def _check(result: int, what: str) -> int:
    if result == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


_libc.syscall.restype = ctypes.c_long


def _word(arg: object) -> object:
    # Untyped ctypes calls pass Python ints as 32-bit C ints: widen them to a machine word.
    return ctypes.c_ulong(arg) if isinstance(arg, int) else arg


def syscall(name: str, *args: object) -> int:
    """Call a raw syscall by name; raise OSError on failure."""
    if name not in NR:
        raise OSError(38, f"{name}: no syscall number for {platform.machine()}")
    return _check(_libc.syscall(ctypes.c_long(NR[name]), *map(_word, args)), name)


def prctl(option: int, arg2: int = 0, arg3: int = 0) -> int:
    return _check(_libc.prctl(option, *map(_word, (arg2, arg3, 0, 0))), f"prctl({option})")


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def setns(fd: int, nstype: int) -> None:
    _check(_libc.setns(fd, nstype), "setns")


def mount(source: str, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(
        _libc.mount(
            source.encode(),
            target.encode(),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


MOUNT_ATTR_RDONLY = 0x1
AT_FDCWD = -100
AT_RECURSIVE = 0x8000


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]  # fmt: skip


def read_only_tree(path: str) -> None:
    """Make the mount at ``path`` and every mount below it read-only (``mount_setattr``, Linux 5.12;
    in the caller's mount namespace only, which must be private)."""
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    syscall("mount_setattr", AT_FDCWD, path.encode(), AT_RECURSIVE, ctypes.byref(attr), ctypes.sizeof(attr))


def umount(target: str) -> None:
    _check(_libc.umount2(target.encode(), 2), f"umount {target}")  # MNT_DETACH


def malloc_single_arena() -> None:
    """Keep glibc from reserving a 64 MiB arena per thread, which would eat RLIMIT_AS."""
    mallopt = getattr(_libc, "mallopt", None)
    if mallopt is not None:
        mallopt(-8, 1)  # M_ARENA_MAX = 1


IPC_RMID = 0
_SYSV_IPC = (("shm", "shmctl", 7, 9), ("msg", "msgctl", 7, 9), ("sem", "semctl", 4, 6))  # (kind, call, uid, cuid columns)


def remove_ipc_of(uid: int) -> int:
    """Remove every System V shared memory segment, message queue and semaphore set of the
    current IPC namespace that ``uid`` owns or created; how many were removed."""
    removed = 0
    for kind, call, uid_col, cuid_col in _SYSV_IPC:
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) > cuid_col and uid in (int(cols[uid_col]), int(cols[cuid_col])):
                if getattr(_libc, call)(int(cols[1]), IPC_RMID, None) == 0:
                    removed += 1
    return removed
