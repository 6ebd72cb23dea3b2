"""Jobs that run host tools: compile the source (C, C++, Verilog), then exec the program.

Runs in the job's program process, already confined by the jail (uid, rlimits, namespaces,
cgroup, the Landlock domain of the language's toolchain, seccomp), before any of the
candidate's code runs:

1. **compile** (C, C++, Verilog): fork the compiler with ``/dev/null`` as stdin, stdout and
   stderr into one pipe, its own process group, ``Limits.compile_memory_bytes`` of address
   space and ``Limits.compile_seconds`` of CPU, and kill its whole group at
   ``compile_seconds`` of wall clock or when its diagnostics exceed ``Limits.output_bytes``.
   Report the outcome on the status pipe and wait for the server's go: the server first
   lowers the job's cgroup to the *program's* memory and task limits and starts its wall clock.
2. **run**: narrow this process to what the program needs: rlimits of the program (memory,
   CPU, tasks), a nested Landlock domain that may read the system libraries, the runtime's own
   files and the scratch dir and may execute only the program (or its runtime: ``node``,
   ``vvp``) and the dynamic loader, and a seccomp filter that lets exactly one ``execve``
   through. Then exec it; stdin, stdout and stderr are the job's.

Nothing is cached between jobs: every job compiles its own source in its own scratch dir.

Example (what the jail does in the job's last process)::

    stages.run(job)                           # never returns
"""

from __future__ import annotations

import ctypes
import math
import os
import re
import resource
import select
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from . import landlock, seccomp
from .languages import LANGUAGES, LIBRARY_DIRS, SYSTEM_FILES
from .protocol import encode_status

COMPILE_TASKS = 8  # a compiler driver and its helpers at once (gcc, cc1, as; iverilog, sh, ivlpp, ivl)
COMPILE_INODES = 16  # room in the scratch tmpfs for the product and the compiler's temporary files
SYSTEM_READ = (*LIBRARY_DIRS, *SYSTEM_FILES)
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
STATUS_ERROR = 70
_MEMORY_WORDS = (b"out of memory", b"virtual memory exhausted", b"Cannot allocate memory", b"std::bad_alloc")
_COMMENTS = re.compile(rb"//[^\n]*|/\*.*?\*/", re.S)
_MODULE = re.compile(rb"\b(?:macro)?module\s+([A-Za-z_][A-Za-z0-9_$]*)")


@dataclass
class Job:
    """What a staged job needs from the jail."""

    language: str
    chain: Mapping[str, Any]  # the language's toolchain (see languages.discover)
    spec: Mapping[str, Any]
    scratch: str
    status_fd: int
    control_fd: int | None  # the server's go, after a compile
    layers: frozenset[str]
    landlock_abi: int
    run_tasks: int | None  # RLIMIT_NPROC of the program (None: no uid of its own)


def sources(language: str, files: Mapping[str, Any]) -> list[str]:
    """The files the compiler gets: the source, then every given file with the language's endings."""
    lang = LANGUAGES[language]
    extra = sorted(n for n in files if lang.extensions and n.endswith(lang.extensions) and n != lang.source)
    return [lang.source, *extra]


def top_module(source: bytes) -> str | None:
    """The first module the Verilog source declares (the simulation's top level), if any."""
    match = _MODULE.search(_COMMENTS.sub(b" ", source))
    return match.group(1).decode() if match else None


def expand(argv: list[str], values: Mapping[str, Any]) -> list[str]:
    """Fill a toolchain's argv template: list-valued placeholders splice, others format."""
    out: list[str] = []
    for arg in argv:
        key = arg[1:-1] if arg.startswith("{") and arg.endswith("}") else None
        if key is not None and isinstance(values.get(key), list):
            out.extend(values[key])
        else:
            out.append(arg.format(**values))
    return out


def _write(fd: int, message: Any) -> None:
    view = memoryview(encode_status(message))
    while view:
        view = view[os.write(fd, view) :]


def _limit(resource_id: int, value: int) -> None:
    hard = resource.getrlimit(resource_id)[1]
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(resource_id, (value, value))


def _compile(job: Job, argv: list[str]) -> dict[str, Any]:
    limits = job.spec["limits"]
    seconds, out_limit = float(limits["compile_seconds"]), int(limits["output_bytes"])
    env = {"HOME": job.scratch, "TMPDIR": job.scratch, **job.chain["compile"].get("env", {})}
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe2(os.O_CLOEXEC)  # says why exec failed; closes unread when it succeeds
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            os.dup2(err_w, 3)
            os.set_inheritable(3, False)
            os.closerange(4, 1 << 16)
            cpu = max(1, math.ceil(seconds))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            _limit(resource.RLIMIT_AS, int(limits["compile_memory_bytes"]) + LANGUAGES[job.language].address_space)
            os.execve(argv[0], argv, env)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which decides
            os.write(3, f"{type(exc).__name__}: {exc}".encode()[:500])
        os._exit(127)
    os.close(out_w)
    os.close(err_w)
    output = bytearray()
    timed_out = truncated = False
    deadline = start + seconds
    while (left := deadline - time.monotonic()) > 0:
        if not select.select([out_r], [], [], left)[0]:
            continue
        data = os.read(out_r, 1 << 16)
        if not data:
            break
        if len(output) + len(data) > out_limit:
            output += data[: out_limit - len(output)]
            truncated = True
            break
        output += data
    else:
        timed_out = True
    os.close(out_r)
    status = usage = None
    while status is None:
        if timed_out or truncated:
            for kill in (os.killpg, os.kill):
                try:
                    kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        waited, wait_status, usage = os.wait4(pid, os.WNOHANG)
        if waited:
            status = wait_status
            break
        if time.monotonic() >= deadline:  # it closed its output but keeps running
            timed_out = True
        time.sleep(0.001)
    with os.fdopen(err_r, "rb") as f:
        exec_error = f.read().decode(errors="replace")
    exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    failed = bool(timed_out or truncated or exit_code != 0 or exec_error)
    return {
        "failed": failed,
        "exit_code": exit_code,
        "signal": sig,
        "output": bytes(output),
        "seconds": time.monotonic() - start,
        "cpu": usage.ru_utime + usage.ru_stime,
        "timed_out": timed_out or sig == signal.SIGXCPU,
        "truncated": truncated,
        "memory": failed and any(word in output for word in _MEMORY_WORDS),
        "error": f"sandbox could not start the compiler {argv[0]}: {exec_error}" if exec_error else None,
    }


def _open(paths: list[str] | tuple[str, ...]) -> list[int]:
    fds = []
    for path in paths:
        try:
            fds.append(os.open(path, os.O_PATH | os.O_CLOEXEC))
        except OSError:
            pass  # absent on this host (e.g. /lib64 on aarch64)
    return fds


def _narrow(job: Job, runnable: list[str]) -> None:
    """The run stage's Landlock domain, nested in the toolchain's: read the system libraries (or only those
    the toolchain names, see languages.SHELL_DATA) and the runtime's files, use the scratch dir, execute only
    ``runnable``."""
    abi = job.landlock_abi
    ruleset = landlock.create_ruleset(abi)
    run = job.chain["run"]
    rules = (
        (_open([*run.get("system_read", SYSTEM_READ), *run["read"]]), landlock.READ),
        (_open(DEVICES), landlock.DEVICE),
        (_open([job.scratch]), landlock.SCRATCH),
        (_open(runnable), landlock.RUN),
    )
    try:
        for fds, access in rules:
            for fd in fds:
                landlock.allow(ruleset, fd, access, abi)
    finally:
        for fds, _ in rules:
            for fd in fds:
                os.close(fd)
    landlock.enforce(ruleset)


def _exec(job: Job, argv: list[str], runnable: list[str]) -> NoReturn:
    limits, lang = job.spec["limits"], LANGUAGES[job.language]
    path = ctypes.create_string_buffer(argv[0].encode())
    c_argv = (ctypes.c_char_p * (len(argv) + 1))(*[a.encode() for a in argv], None)
    env = [f"{k}={job.scratch}".encode() for k in ("HOME", "TMPDIR")]
    env += [f"{k}={v}".encode() for k, v in job.chain["run"].get("env", {}).items()]
    c_env = (ctypes.c_char_p * (len(env) + 1))(*env, None)
    libc = ctypes.CDLL(None, use_errno=True)
    single_exec = seccomp.single_exec(ctypes.addressof(path)) if "seccomp" in job.layers and not lang.multi_exec else b""
    os.set_inheritable(job.status_fd, False)
    if job.control_fd is not None:
        os.close(job.control_fd)
    if "landlock" in job.layers:
        _narrow(job, runnable)
    if single_exec:
        seccomp.install(single_exec)
    cpu = max(1, math.ceil(limits["cpu_seconds"]))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if job.run_tasks is not None:
        _limit(resource.RLIMIT_NPROC, job.run_tasks)
    _limit(resource.RLIMIT_AS, int(limits["memory_bytes"]) + lang.address_space)  # last: allocate nothing after
    libc.execve(path, c_argv, c_env)
    err = ctypes.get_errno()
    if lang.native:  # the compiled program would not start: the candidate's (e.g. too big for its memory)
        os.write(2, f"cannot execute the compiled program: {os.strerror(err)}\n".encode())
        os._exit(126)
    _write(job.status_fd, {"error": f"sandbox could not start {argv[0]}: {os.strerror(err)}"})
    os._exit(STATUS_ERROR)


def run(job: Job) -> NoReturn:
    """Compile (if the language compiles), then exec the program. Never returns."""
    lang = LANGUAGES[job.language]
    limits = job.spec["limits"]
    os.chdir(job.scratch)
    product = os.path.join(job.scratch, lang.product) if lang.product else ""
    top = top_module(job.spec["source"].encode("utf-8", "surrogatepass")) if job.language == "verilog" else None
    values = {
        "sources": sources(job.language, job.spec["files"]),
        "top": ["-s", top] if top else [],
        "product": product,
        "memory_mib": max(16, int(limits["memory_bytes"]) >> 20),
    }
    if job.chain.get("compile"):
        report = _compile(job, expand(job.chain["compile"]["argv"], values))
        _write(job.status_fd, {"compile": report})
        if report["failed"] or job.control_fd is None:
            os._exit(0)
        if os.read(job.control_fd, 1) != b"g":  # the server could not set the program's limits
            os._exit(0)
    runnable = list(job.chain["run"]["exec"]) + ([product] if lang.native else [])
    _exec(job, expand(job.chain["run"]["argv"], values), runnable)
