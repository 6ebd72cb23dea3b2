"""Run untrusted (model-written) code and get back what happened.

::

    from palaestra import sandbox
    from palaestra.sandbox import Limits

    r = sandbox.run("print(input()[::-1])", stdin="abc", limits=Limits(wall_seconds=2))
    r.stdout, r.exit_code, r.timed_out, r.ok          # ('cba\\n', 0, False, True)

    r = sandbox.run("import json, solution; json.dump(solution.f(), open('out.json', 'w'))",
                    files={"solution.py": "def f(): return 42"}, output_files=["out.json"])
    r.files["out.json"]                               # b'42'

    r = sandbox.run('#include <stdio.h>\\nint main(void) { puts("hi"); }', language="c")
    r.stdout, r.compile_failed, r.compile_output      # ('hi\\n', False, '')

    with sandbox.session() as s:                      # a persistent interpreter
        s.run_cell("x = 41")
        s.run_cell("x + 1").stdout                    # '42\\n' (a final expression is displayed)
        s.run_cell("while True: pass", Limits(wall_seconds=1)).state_lost   # True: restarted

    print(sandbox.probe())                            # the tier and the languages this host allows

A program runs as ``main.py`` in a fresh scratch directory (its cwd, ``HOME`` and ``TMPDIR``)
next to the ``files`` given, with the standard library only (no site-packages), an environment
holding nothing but ``HOME`` and ``TMPDIR``, and no file descriptor but stdin, stdout and
stderr. ``ExecResult`` reports only what happened: exit code or signal, output, the limits hit
(``timed_out`` for the wall clock or the CPU limit, ``memory_exceeded``, ``output_truncated``),
wall and CPU time, and the requested ``output_files``; ``error`` is set only when the sandbox
itself failed, never for the program's own failure. A program can print "passed 10/10" and
exit 0: compute verdicts from data it cannot forge (e.g. a harness's line tagged with a token
it never sees), or read them from ``output_files`` rather than stdout.

Languages
---------
``language=`` is one of ``python`` (default), ``c``, ``cpp``, ``javascript``, ``verilog``, ``sql``,
``bash``, ``lua``, ``go``, ``prolog`` and ``coq`` (aliases: ``c++``, ``js``, ``node``, ``sqlite``, ``sh``,
``shell``, ``lua5.4``, ``golang``, ``swipl``, ``swi-prolog``, ``pl``, ``coqc``). ``probe().languages`` says which
toolchains this host has and their versions; asking for a missing one raises
``LanguageUnavailable`` (a ``SandboxUnavailable``) naming the missing tool. Tools are looked
up in ``/usr/local/bin``, ``/usr/bin``, ``/bin`` (``LocalBackend(tool_dirs=...)``), never
``$PATH``.

==========  ===========  ==================================================================
language    source       stages (both inside the jail)
==========  ===========  ==================================================================
python      main.py      the forked, pre-loaded interpreter runs it
sql         main.sql     the job's interpreter runs it in SQLite: ``database.sqlite`` and
                         ``setup.sql`` from ``files`` prepare the database; one JSON line per
                         result (format: :mod:`palaestra.sandbox.local.sql`)
c           main.c       ``gcc -std=gnu17 -O2 main.c *.c -lm -o main``, then ``./main``
cpp         main.cpp     ``g++ -std=gnu++17 -O2 main.cpp *.cpp *.cc *.cxx -o main``, then
                         ``./main``
javascript  main.js      ``node main.js`` (heap capped at ``Limits.memory_bytes``)
verilog     main.v       ``iverilog -g2012 -s TOP main.v *.v *.sv -o main.vvp``, then ``vvp -n
                         main.vvp``; TOP is the first module ``main.v`` declares: put the
                         testbench in ``source`` and the candidate's modules in ``files``,
                         and modules the candidate adds are never simulated unless instantiated
bash        main.sh      ``bash --norc --noprofile main.sh``, ``PATH`` the tool directories: the
                         script may execute bash and the allow-listed text, file and archive
                         tools (``languages.SHELL_TOOLS``: coreutils, grep, sed, awk, find,
                         tar...) and nothing else (Landlock's exec rules; no single-exec
                         filter); ``files`` may hold a whole tree (``dir/name`` paths)
lua         main.lua     ``lua5.4 -E main.lua`` (``io.popen``/``os.execute`` cannot execute
                         anything: the shell is not in the exec allow-list)
go          main.go      ``compile -p main -complete main.go *.go`` then ``link -o main``
                         (the toolchain's own compiler and linker, run by a fixed ``sh``
                         line; Go 1.19's precompiled standard library, no module cache, no
                         cgo), then ``./main``; ``GOMAXPROCS=1`` in both stages; RLIMIT_AS
                         leaves 768 MiB for the ~700 MiB every Go runtime reserves (so
                         without cgroups a Go program may use ~100 MiB over its memory)
prolog      main.pl      ``swipl -f none -F none --no-packs -q --stack-limit=MEMORY -t halt
                         main.pl``: put ``:- initialization(main, main).`` in the program
                         (SWI-Prolog; stacks capped at ``Limits.memory_bytes``)
coq         main.v       ``coqc -q main.v`` (one stage: the check is the run; the standard
                         library is readable, nothing else outside the scratch dir, and only
                         ``coqc`` may be executed, so ``native_compute`` fails)
==========  ===========  ==================================================================

The compile stage has its own limits (``Limits.compile_seconds`` of wall clock and CPU,
``Limits.compile_memory_bytes``; its diagnostics count against ``Limits.output_bytes``); the
program then runs under the other limits, its wall clock starting when it starts.
``ExecResult.compile_output`` holds the diagnostics, ``compile_failed`` says the program never
ran (``exit_code`` and ``signal`` are then None), ``compile_seconds`` the compile's wall time;
``cpu_seconds`` counts both stages. Nothing is cached between jobs: each compiles its own
source in its own scratch dir, so no candidate can leave anything for another's compile.
``memory_exceeded`` comes from the cgroup's OOM count, or from the runtime's own report
(``MemoryError``, V8's heap limit, an uncaught ``std::bad_alloc``); a C program whose
``malloc`` returns NULL decides itself what to do.

A session keeps its interpreter between cells; a cell's exception keeps the state. A cell that
times out (``Limits.wall_seconds`` applies per cell) or kills the interpreter comes back with
``state_lost=True``, and the next cell runs in a fresh interpreter. Sessions are Python only.

Local backend (the default; Linux, no Docker)
---------------------------------------------
A pre-loaded server process (``python -I -S``, empty environment, common modules such as
``unittest``, ``json``, ``re``, ``collections`` pre-imported) has each job forked from its
zygote, a copy of itself made before it read any request (so no job inherits another job's
source, stdin, files or output, in live objects or freed memory), so a run costs a few milliseconds of CPU instead of an interpreter start-up: on 2 cores, about 6 ms
(standard tier) or 9 ms (strict) per trivial run, against 30 ms for ``subprocess.run([python,
"-c", ...])`` (``bench/sandbox.py``). At start-up it probes which isolation layers the host
allows and applies every one of them:

=============  ==========================================================================
layer          what it stops
=============  ==========================================================================
rlimits        runaway CPU (``RLIMIT_CPU``: SIGXCPU, then SIGKILL a second later, even if
               SIGXCPU is ignored), memory per process (``RLIMIT_AS``), big files
               (``RLIMIT_FSIZE``), fd exhaustion, core dumps. Independently, the server kills
               a job at its wall-clock limit (within milliseconds) and as soon as it floods
               its output.
uid            each job runs as its own unprivileged uid (60000 and up, a block of 128 per
               server, claimed with a lock file): it cannot signal, ptrace or read other
               processes, nor write what it does not own; ``RLIMIT_NPROC`` bounds fork and
               thread bombs; when the job ends, every process of its uid is killed, setsid
               daemons included (``kill(-1)`` as the uid, which even a process that keeps
               re-forking cannot dodge).
landlock       a file-system allow-list: read the standard library and system libraries,
               write only the scratch dir, execute nothing (no ``/bin/sh``, no setuid binary,
               no file it wrote). Secrets elsewhere (``/etc/passwd``, ``/proc/1/environ``, the
               caller's files, other jobs' scratch dirs) are unreadable, ``/tmp``,
               ``/dev/shm`` and world-writable directories unwritable; no TCP (ABI >= 4); no
               signal to, or abstract socket of, a process outside the job (ABI >= 6).
seccomp        a BPF filter: no socket at all (UDP, raw and netlink included, and no UNIX
               socket that could reach the host's D-Bus, X11 or syslog), only stream socket
               pairs; no new namespaces, mounts, ptrace, ``process_vm_*``, bpf, perf,
               io_uring, keyrings, userfaultfd, kexec, modules...; no System V IPC; no
               path-based ``setxattr``/``utime`` (Landlock does not govern metadata), no
               ``listmount``/``statmount``, inotify or fanotify; no ``memfd_create`` unless
               cgroups charge its pages to the job; ``no_new_privs``.
namespaces     PID (the job cannot see the host's processes, and when it ends the kernel
               kills every process left in it), IPC, UTS and mount namespaces. (A root
               server gives each job an IPC namespace at every tier where the kernel lets
               it, and removes a slot uid's System V IPC objects when its job ends.)
netns          an empty network namespace: no interface but a downed loopback.
tmpfs          the scratch dir is a private tmpfs capped in bytes and inodes
               (``Limits.files``), gone with the job. Without it, the server measures the
               scratch dir every 50 ms and stops a job past the same caps.
cgroups        (v1) memory of the whole job (all its processes, its tmpfs and memfd pages),
               its number of tasks, its exact CPU time, and its CPU weight (a run that has
               used 0.1 s of CPU drops to the lowest, so short jobs keep their latency).
=============  ==========================================================================

What each layer does for programs in other languages (which exec host tools, so that the
"execute nothing" of Python jobs becomes "execute exactly these files"):

- every layer above holds for any code, native included: a compiled C program, ``node`` and
  ``vvp`` are treated like arbitrary machine code (none of the layers relies on the language).
- rlimits: the job starts with the larger of its two stages' limits; the compiler runs with
  ``compile_memory_bytes`` of address space and ``compile_seconds`` of CPU (and is killed, with
  its whole process group, at ``compile_seconds`` of wall clock or when its diagnostics pass
  ``output_bytes``); right before the program is exec'd its process drops to the program's
  memory, CPU and process limits. ``node`` gets 1 GiB more address space than
  ``memory_bytes`` (V8 reserves ~650 MiB it never touches) and ``--max-old-space-size``.
- uid: compiler and program run as the job's uid; RLIMIT_NPROC allows the compiler's helpers
  (gcc, cc1, as, ld: 8 tasks) and then only ``Limits.processes``.
- landlock: the job's domain adds, for its language only, read access to the toolchain's
  directories (``/usr/include``, gcc's private directory, Icarus Verilog's modules) and the
  right to execute exactly the toolchain's files (the ``gcc`` driver, ``cc1``/``cc1plus``,
  ``collect2``, ``as``, ``ld``; ``iverilog``, ``/bin/sh`` (iverilog runs ``ivlpp | ivl``
  through ``system()``, with a command line of its own making), ``ivlpp``, ``ivl``; ``node``;
  ``vvp``) and the dynamic loader; C/C++ jobs may also execute in their scratch dir. Before the
  program is exec'd, a nested domain narrows this to the system libraries, the runtime's own
  files and the scratch dir, with execute rights on the program file (or ``node``/``vvp``) and
  the loader only: the program can read no header, run no compiler and no shell.
- seccomp: Python and SQL jobs may not ``execve`` at all. Other jobs may (Landlock picks the
  files), and right before the program's exec a second filter lets exactly that one
  ``execve`` through: the program can exec nothing (``system()``, ``child_process``,
  re-exec'ing itself or the loader). Sockets, ptrace, mounts, namespaces... stay denied as above.
- namespaces, netns, cgroups: unchanged; the cgroup is lowered from the compiler's memory and
  task limits to the program's before the program starts (the job waits for the server's go),
  so the limit for the whole job is the program's own; its CPU count includes the compile.
- tmpfs: C/C++ scratch dirs are mounted without ``noexec`` (the compiled program is executed
  from there; Landlock allows that one file), others keep ``noexec``; 16 more inodes for the
  compiler's temporary files.

Weaker per language: at the standard tier (no cgroup) ``node``'s memory is bounded by its
heap limit and an address-space limit of ``memory_bytes`` + 1 GiB, and CPU time of compiler
processes killed at the compile limit is not counted; a ``console.log`` flood in a busy loop
stops at the pipe's 64 KiB (node queues the rest in memory until the memory limit ends it);
``/bin/sh`` can be executed during a Verilog compile (only by iverilog, and not by the
simulation).

Tiers name sets of layers; ``probe()`` reports the strongest one the host allows:

- ``strict``: every layer above. Needs root (or CAP_SYS_ADMIN), Landlock, seccomp and cgroup v1.
- ``standard``: rlimits + uid + landlock + seccomp. No network, no host files, no escape; but
  memory is bounded per process only, and the scratch dir (on ``$TMPDIR``) per file only: the
  number of files and their total size are bounded by the wall clock alone.
- ``minimal``: rlimits + uid. Contained by Unix permissions only: world-readable files can be
  read, the network reached, programs executed.
- ``none``: not root, so no uid of its own: the caller's uid, with rlimits (and Landlock and
  seccomp where the kernel allows them unprivileged). For trusted code.

**Fail closed**: the backend refuses to run (``SandboxUnavailable``, naming each missing layer
and why) below its minimum tier, ``standard`` unless ``PALAESTRA_SANDBOX_MIN_TIER`` or
``set_backend(LocalBackend(min_tier=...))`` says otherwise. ``LocalBackend(tier=...)`` runs
with exactly one tier's layers. Programs cannot start other programs (``subprocess``) at the
Landlock tiers; ``multiprocessing`` processes and pipes work, but not its semaphores (``Pool``,
``Queue``, ``Lock``: no ``/dev/shm``). When the interpreter is not world-readable (e.g. under
``/root``), jobs see it through read-only bind mounts (with namespaces) or through inherited
read-only ``O_PATH`` directory descriptors (without; then the only fds a job holds besides 0-2).
A server that dies is restarted on the next call; ``close()``, interpreter exit or the death of
the calling process stop it and every job it runs.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Mapping, Sequence

from .api import Backend, ExecResult, LanguageUnavailable, Limits, SandboxError, SandboxUnavailable, Session, Toolchain
from .local import LocalBackend, LocalSession, ProbeReport

__all__ = [
    "Backend",
    "ExecResult",
    "LanguageUnavailable",
    "Limits",
    "LocalBackend",
    "LocalSession",
    "ProbeReport",
    "SandboxError",
    "SandboxUnavailable",
    "Session",
    "Toolchain",
    "get_backend",
    "probe",
    "run",
    "session",
    "set_backend",
    "set_ceiling",
]

BACKEND_ENV = "PALAESTRA_SANDBOX_BACKEND"
_lock = threading.Lock()
_backend: Backend | None = None
_ceiling: Limits | None = None


def set_ceiling(ceiling: Limits | None) -> Limits | None:
    """Cap every limit of every run and session of :func:`run` and :func:`session` at
    ``ceiling``'s (None: no cap); return the previous ceiling.

    A server judging requests sets it from its own configuration, so that no request (a
    problem's data, a label) can give a job more time or memory than the server allows.
    """
    global _ceiling
    previous, _ceiling = _ceiling, ceiling
    return previous


def capped(limits: Limits | None) -> Limits | None:
    """``limits`` (the defaults when None) capped at the ceiling, if one is set."""
    ceiling = _ceiling
    if ceiling is None:
        return limits
    asked = limits or Limits()
    values = {f.name: min(getattr(asked, f.name), getattr(ceiling, f.name)) for f in dataclasses.fields(Limits)}
    return Limits(**values)


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()  # another thread may have held it when the process forked


os.register_at_fork(after_in_child=_after_fork_in_child)


def get_backend() -> Backend:
    """The process-wide backend, created on first use ($PALAESTRA_SANDBOX_BACKEND: "local" (default) or "docker")."""
    global _backend
    with _lock:
        if _backend is None:
            name = os.environ.get(BACKEND_ENV, "local")
            if name == "local":
                _backend = LocalBackend()
            elif name == "docker":  # engine from $PALAESTRA_DOCKER_URL / $DOCKER_HOST (docker extra)
                from palaestra.sandbox.docker_backend import DockerBackend

                _backend = DockerBackend()
            else:
                raise ValueError(f"unknown sandbox backend {name!r} in ${BACKEND_ENV}; available: local, docker")
        return _backend


def set_backend(backend: Backend | None) -> Backend | None:
    """Make ``backend`` the process-wide backend; return the previous one (still open).

    ``None`` goes back to the default (created on first use), e.g. to restore a test's stub.
    """
    global _backend
    with _lock:
        previous, _backend = _backend, backend
    return previous


def run(
    source: str,
    *,
    language: str = "python",
    stdin: str | bytes = "",
    files: Mapping[str, str | bytes] | None = None,
    output_files: Sequence[str] = (),
    limits: Limits | None = None,
) -> ExecResult:
    """Run ``source`` once in the sandbox (see the module docstring)."""
    return get_backend().run(
        source, language=language, stdin=stdin, files=files, output_files=output_files, limits=capped(limits)
    )


def session(limits: Limits | None = None) -> Session:
    """A persistent sandboxed interpreter; ``limits.wall_seconds`` bounds each cell."""
    return get_backend().session(capped(limits))


def probe() -> ProbeReport:
    """What the local sandbox can do on this host, and the tier it runs at."""
    backend = get_backend()
    if not isinstance(backend, LocalBackend):
        backend = LocalBackend()
        try:
            return backend.probe()
        finally:
            backend.close()
    return backend.probe()
