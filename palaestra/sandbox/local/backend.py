"""The client of the local sandbox: a thread-safe handle on one sandbox server process.

The server starts on first use, probes the host and reports the layers it can apply; the
backend refuses to run (``SandboxUnavailable``) when they fall short of its minimum tier. A
server that dies is restarted transparently (requests in flight are retried once); a
forked child of this process starts its own server; ``close()`` and interpreter exit stop
it and everything it ran.

Example::

    from palaestra.sandbox.local import LocalBackend
    backend = LocalBackend(min_tier="standard")
    print(backend.probe())                        # the tier detected here, layer by layer
    result = backend.run("print(sum(range(10)))")
    with backend.session() as s:
        s.run_cell("x = 41")
        s.run_cell("x + 1").stdout                # '42\\n'
    backend.close()
"""

from __future__ import annotations

import atexit
import dataclasses
import itertools
import json
import os
import posixpath
import struct
import subprocess
import sys
import tempfile
import threading
import uuid
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..api import ExecResult, LanguageUnavailable, Limits, SandboxError, SandboxUnavailable, Toolchain
from .languages import LANGUAGES, canonical
from .protocol import Decoder, encode
from .server import BOOT, CPU_POLICIES, JOBS_SHARES
from .tiers import LAYERS, TIERS, at_least, check_tier

DEFAULT_MIN_TIER = "standard"
MIN_TIER_ENV = "PALAESTRA_SANDBOX_MIN_TIER"
UID_BASE = 60000
START_TIMEOUT = 60.0
REPLY_SLACK = 30.0  # beyond a job's own wall limit before the server is presumed hung
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


@dataclass(frozen=True)
class ProbeReport:
    """What the host allows: each layer's status, the tier in use, and details."""

    tier: str  # the tier the backend runs at (its layers, as configured)
    layers: tuple[str, ...]  # the layers applied to every job
    available: Mapping[str, str | None]  # layer -> None if usable, else why not
    landlock_abi: int
    uids: tuple[int, int] | None  # the sandbox uid range of this server
    stdlib_via_fds: bool  # the interpreter is not world-readable: jobs reach it through O_PATH fds
    server_dir: str  # the server's own directory (scratch dirs, mount points), removed when it stops
    languages: Mapping[str, Toolchain] = dataclasses.field(default_factory=dict)  # by language name

    def __str__(self) -> str:
        lines = [f"sandbox tier: {self.tier}"]
        for layer in LAYERS:
            reason = self.available.get(layer)
            state = "in use" if layer in self.layers else ("available" if reason is None else "unavailable")
            lines.append(f"  {layer:<11} {state}{'' if reason is None else ': ' + reason}")
        if self.languages:
            lines.append("languages:")
            lines += [f"  {chain}" for chain in self.languages.values()]
        return "\n".join(lines)


class _Died(Exception):
    pass


class _Waiter:
    def __init__(self) -> None:
        self.event = threading.Event()
        self.message: dict[str, Any] | None = None


_connections: weakref.WeakSet[_Connection] = weakref.WeakSet()
_backends: weakref.WeakSet[LocalBackend] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for backend in list(_backends):
        backend.close()


def _forget_in_child() -> None:
    # A forked child must neither use nor keep open its parent's server pipes, nor inherit a
    # lock some other thread of the parent held at the time of the fork.
    for conn in list(_connections):
        conn.forget()
    for backend in list(_backends):
        backend._lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


class _Channel:
    """Request/reply multiplexing with a sandbox server over a byte stream.

    Requests carry ids; a reader thread hands each reply to the thread waiting for
    it. Subclasses connect the stream: ``_send`` writes bytes, ``_chunks`` yields
    the server's reply bytes until it is gone (a local process's stdout here, a
    container's attach stream in the Docker backend).
    """

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.lock = threading.Lock()
        self.waiters: dict[int, _Waiter] = {}
        self.ids = itertools.count(1)
        self.dead = False
        self._hello = self.waiters[0] = _Waiter()  # the server greets first, with id 0
        self.hello: dict[str, Any] = {}

    def _send(self, data: bytes) -> None:
        raise NotImplementedError

    def _chunks(self) -> Iterator[bytes]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _start(self, thread_name: str, describe_failure: Callable[[], str]) -> None:
        """Start the reader and wait for the server's greeting."""
        self.reader = threading.Thread(target=self._read, name=thread_name, daemon=True)
        self.reader.start()
        hello = self._hello
        if not hello.event.wait(START_TIMEOUT) or hello.message is None:
            detail = describe_failure()
            self.close()
            raise SandboxError(detail)
        if hello.message["error"]:
            self.close()
            raise SandboxError(hello.message["error"])
        self.hello = hello.message["result"]

    def _read(self) -> None:
        decoder = Decoder()
        try:
            for data in self._chunks():
                for message in decoder.feed(data):
                    with self.lock:
                        waiter = self.waiters.pop(message["id"], None)
                    if waiter is not None:
                        waiter.message = message
                        waiter.event.set()
        except (OSError, ValueError, EOFError, struct.error):
            pass  # the server is gone, or spoke gibberish: either way it is dead to us
        finally:
            with self.lock:
                self.dead = True
                waiters, self.waiters = list(self.waiters.values()), {}
            for waiter in waiters:
                waiter.event.set()

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request and wait for its reply; raise _Died if the server dies or hangs."""
        waiter = _Waiter()
        with self.lock:
            if self.dead:
                raise _Died
            rid = next(self.ids)
            self.waiters[rid] = waiter
            try:
                self._send(encode({**message, "id": rid}))
            except (OSError, ValueError):
                self.dead = True
                raise _Died from None
        if not waiter.event.wait(timeout):
            self.close()  # hung: start afresh
            raise _Died
        if waiter.message is None:
            raise _Died
        return waiter.message


class _Connection(_Channel):
    """One server process on this host, spoken to over its stdin and stdout."""

    def __init__(self, python: str, config: dict[str, Any]):
        super().__init__()
        self.proc = subprocess.Popen(
            [python, "-I", "-S", "-c", BOOT, _PACKAGE_ROOT, json.dumps(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={},
            close_fds=True,
            start_new_session=True,  # no terminal signals: it stops when its stdin closes
        )
        _connections.add(self)
        self._start("palaestra-sandbox-reader", lambda: "the sandbox server did not start (see its stderr above)")

    def _send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _chunks(self) -> Iterator[bytes]:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while data := os.read(fd, 1 << 16):
            yield data

    def forget(self) -> None:
        """In a forked child: let go of the parent's server without touching it."""
        self.dead = True
        null = os.open(os.devnull, os.O_RDWR)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:  # the file objects still own these fd numbers: keep them valid
                try:
                    os.dup2(null, stream.fileno())
                except (OSError, ValueError):
                    pass
        os.close(null)

    def close(self) -> None:
        """Stop the server: closing its stdin makes it kill every job and clean up."""
        self.dead = True
        if self.owner != os.getpid():
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if threading.current_thread() is not self.reader:
            self.reader.join(timeout=5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not name or "\0" in name or name.startswith("/"):
        raise ValueError(f"sandbox file name must be a relative path: {name!r}")
    if posixpath.normpath(name) != name or name.split("/")[0] == "..":
        raise ValueError(f"sandbox file name must be a normalized path inside the scratch dir: {name!r}")
    return name


def _limits(limits: Limits | None) -> dict[str, Any]:
    limits = limits or Limits()
    values = dataclasses.asdict(limits)
    for key, value in values.items():
        if not value > 0:
            raise ValueError(f"Limits.{key} must be positive, got {value!r}")
    return values


def _result(reply: dict[str, Any]) -> ExecResult:
    if reply.get("unavailable"):
        raise LanguageUnavailable(reply["error"])
    if reply["error"] is not None:
        return ExecResult(stdout="", stderr="", exit_code=None, error=reply["error"])
    fields = dict(reply["result"])
    for key in ("stdout", "stderr", "compile_output"):
        if key in fields:
            fields[key] = fields[key].decode("utf-8", "replace")
    return ExecResult(**fields)


def _toolchain(chain: Mapping[str, Any]) -> Toolchain:
    return Toolchain(
        language=chain["language"],
        available=chain["available"],
        version=chain["version"],
        tools=dict(chain["tools"]),
        reason=chain["reason"],
    )


class LocalBackend:
    """Runs untrusted code in a local, Docker-free jail (see :mod:`palaestra.sandbox`).

    tier: run with exactly this tier's layers (default: every layer the host allows).
    min_tier: refuse to run below it (default: $PALAESTRA_SANDBOX_MIN_TIER or "standard").
    max_jobs: concurrent runs (default 4 per CPU); more wait in a queue.
    slots: runs plus open sessions at once (default and at most 128); when all are taken, the
    least recently used idle session is closed to make room (its next cell is told so).
    tool_dirs: where to look for the languages' tools (gcc, g++, node, iverilog, vvp), in order;
    default /usr/local/bin, /usr/bin, /bin (never $PATH).
    memory_budget: bytes that all jobs together may hold (default half the host's memory);
    beyond max_jobs, runs wait until theirs fits, and with cgroups the kernel bounds the total.
    memory_admission: "usage" (default) counts a long-running (demoted) run by the memory its
    cgroup is charged, so CPU hogs do not hold short jobs back; "limits" counts every run by its
    whole limit (what it was before; kept for comparison). Without cgroups it is always "limits".
    rerun_budget_kills: a run that the budget of all jobs together OOM-killed within its own
    limit (admission by usage let it in on a charge that grew later) is run again once, held by
    its whole limit (default), instead of coming back with that as its error.
    cpu_policy: how a run's CPU weight falls with the CPU it has used: "levels" (default: five
    levels, least attained service first) or "demote-once" (full weight until 0.1 s, then the
    lowest: what it was before; kept for comparison). See CPU_POLICIES in the server.
    jobs_cpu_weight: the CPU weight (cgroup cpu.shares, 2 to 262144) of all jobs together against
    each process or session beside them at nice 0 (1024): the server, its callers, the host's own
    work (default JOBS_SHARES, 256: those are served first when they want a CPU; the jobs get
    whatever they leave). Only with the cgroup cpu controller.
    precompiled_headers: let the server precompile common C++ headers (<bits/stdc++.h>,
    <iostream>, <string>) once per compiler under base_dir and compile with them (default; only
    a root server, whose jobs cannot write them, does).
    """

    name = "local"

    def __init__(
        self,
        *,
        tier: str | None = None,
        min_tier: str | None = None,
        max_jobs: int | None = None,
        slots: int | None = None,
        base_dir: str | None = None,
        uid_base: int = UID_BASE,
        python: str = sys.executable,
        tool_dirs: Sequence[str] | None = None,
        memory_budget: int | None = None,
        memory_admission: str = "usage",
        rerun_budget_kills: bool = True,
        cpu_policy: str = "levels",
        jobs_cpu_weight: int = JOBS_SHARES,
        precompiled_headers: bool = True,
    ):
        self.tier = check_tier(tier) if tier else None
        self.min_tier = check_tier(min_tier or os.environ.get(MIN_TIER_ENV) or DEFAULT_MIN_TIER)
        if self.tier and not at_least(self.tier, self.min_tier):
            raise SandboxUnavailable(f"tier {self.tier!r} was requested, below the minimum {self.min_tier!r}")
        self.python = python
        self.config = {
            "tier": self.tier,
            "max_jobs": max_jobs or 4 * (os.cpu_count() or 1),
            "slots": slots,
            "base_dir": base_dir or os.path.join(tempfile.gettempdir(), f"palaestra-sandbox-{os.geteuid()}"),
            "uid_base": uid_base,
            "tool_dirs": list(tool_dirs) if tool_dirs is not None else None,
            "memory_budget": memory_budget,
            "memory_admission": memory_admission,
            "rerun_budget_kills": rerun_budget_kills,
            "cpu_policy": cpu_policy,
            "jobs_shares": jobs_cpu_weight,
            "precompiled_headers": precompiled_headers,
        }
        if memory_admission not in ("usage", "limits"):
            raise ValueError(f"memory_admission must be 'usage' or 'limits', not {memory_admission!r}")
        if cpu_policy not in CPU_POLICIES:
            raise ValueError(f"cpu_policy must be one of {sorted(CPU_POLICIES)}, not {cpu_policy!r}")
        weight_ok = isinstance(jobs_cpu_weight, int) and not isinstance(jobs_cpu_weight, bool)
        if not (weight_ok and 2 <= jobs_cpu_weight <= 262144):
            raise ValueError(f"jobs_cpu_weight must be an int from 2 to 262144, not {jobs_cpu_weight!r}")
        self._lock = threading.Lock()
        self._conn: _Connection | None = None
        self.generation = 0  # counts server (re)starts; sessions use it to notice lost state
        _backends.add(self)

    def _connection(self, *, check: bool = True) -> _Connection:
        with self._lock:
            conn = self._conn
            if conn is None or conn.dead or conn.owner != os.getpid():
                if conn is not None:
                    conn.close()
                if sys.platform != "linux":
                    raise SandboxUnavailable(f"the local sandbox needs Linux, not {sys.platform}")
                conn = self._conn = _Connection(self.python, self.config)
                self.generation += 1
        if check:
            self._check(conn.hello)
        return conn

    def _check(self, hello: dict[str, Any]) -> None:
        if hello["missing"]:
            reasons = "; ".join(f"{layer}: {hello['report'][layer]}" for layer in hello["missing"])
            raise SandboxUnavailable(f"sandbox tier {self.tier!r} is not available here ({reasons})")
        if not at_least(hello["tier"], self.min_tier):
            missing = sorted(TIERS[self.min_tier] - set(hello["layers"]))
            reasons = "; ".join(f"{layer}: {hello['report'][layer]}" for layer in missing)
            raise SandboxUnavailable(
                f"the host allows only sandbox tier {hello['tier']!r}, below the minimum {self.min_tier!r}: "
                f"missing {reasons}. Lower it with {MIN_TIER_ENV}=... only if the code is trusted."
            )

    def call(self, message: dict[str, Any], timeout: float) -> tuple[dict[str, Any], int]:
        """Send one request, restarting a dead server and retrying once; (reply, generation)."""
        for attempt in range(2):
            conn = self._connection()
            generation = self.generation
            try:
                return conn.request(message, timeout), generation
            except _Died:
                if attempt:
                    break
        return {"error": "the sandbox server died twice while running this request", "result": None}, generation

    @property
    def server_pid(self) -> int | None:
        """The pid of the running server, if one is running."""
        conn = self._conn
        return None if conn is None or conn.dead else conn.proc.pid

    def languages(self) -> dict[str, Toolchain]:
        """Each language's toolchain as the server finds it (discovered once per server)."""
        reply, _ = self.call({"op": "languages"}, REPLY_SLACK + 60)
        if reply["error"] is not None:
            raise SandboxError(reply["error"])
        return {name: _toolchain(chain) for name, chain in reply["result"].items()}

    def probe(self) -> ProbeReport:
        """The host's isolation layers, the tier in use and the languages' toolchains (starts the
        server if needed)."""
        hello = self._connection(check=False).hello
        try:
            toolchains = self.languages()
        except SandboxUnavailable:  # below the minimum tier: report the layers all the same
            toolchains = {}
        return ProbeReport(
            tier=hello["tier"],
            layers=tuple(hello["layers"]),
            available=dict(hello["report"]),
            landlock_abi=hello["landlock_abi"],
            uids=tuple(hello["uids"]) if hello["uids"] else None,  # type: ignore[arg-type]
            stdlib_via_fds=hello["stdlib_via_fds"],
            server_dir=hello["block_dir"],
            languages=toolchains,
        )

    def run(
        self,
        source: str,
        *,
        language: str = "python",
        stdin: str | bytes = "",
        files: Mapping[str, str | bytes] | None = None,
        output_files: Sequence[str] = (),
        limits: Limits | None = None,
    ) -> ExecResult:
        """Run ``source`` (as ``main.py``, ``main.c``... per language) in a fresh jail; ``files``
        are written next to it first, and ``output_files`` (paths in the scratch dir) come back
        in ``ExecResult.files``. Raises LanguageUnavailable when the language's toolchain is
        not installed here."""
        lang = LANGUAGES[canonical(language)]
        inputs = {_check_name(k): v.encode() if isinstance(v, str) else bytes(v) for k, v in (files or {}).items()}
        for name in lang.reserved():
            if name in inputs:
                raise ValueError(f"files may not contain {name!r}: the sandbox writes it for language {lang.name!r}")
        values = _limits(limits)
        message = {
            "op": "run",
            "language": lang.name,
            "source": source,
            "stdin": stdin.encode() if isinstance(stdin, str) else bytes(stdin),
            "files": inputs,
            "output_files": [_check_name(n) for n in output_files],
            "limits": values,
        }
        wait = values["wall_seconds"] + (values["compile_seconds"] if lang.compiled else 0.0) + REPLY_SLACK
        reply, _ = self.call(message, wait)
        return _result(reply)

    def session(self, limits: Limits | None = None) -> LocalSession:
        """A persistent interpreter; ``limits.wall_seconds`` bounds each cell."""
        return LocalSession(self, limits or Limits())

    def close(self) -> None:
        """Stop the server and every job and session it runs. The backend restarts on next use."""
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


class LocalSession:
    """A sandboxed interpreter keeping its state between cells.

    A cell that times out, crashes the interpreter or exceeds its memory comes back with
    ``state_lost=True``; the next cell starts a fresh interpreter.
    """

    def __init__(self, backend: LocalBackend, limits: Limits):
        self.backend = backend
        self.limits = limits
        _limits(limits)
        self.id = uuid.uuid4().hex
        self._generation: int | None = None  # the server generation holding this session's state

    def run_cell(self, source: str, limits: Limits | None = None) -> ExecResult:
        """Run one cell; ``limits`` overrides the wall-clock and output limits for this cell only."""
        cell = _limits(limits or self.limits)
        message = {
            "op": "cell",
            "session": self.id,
            "source": source,
            "limits": cell,
            "session_limits": _limits(self.limits),
        }
        reply, generation = self.backend.call(message, cell["wall_seconds"] + REPLY_SLACK)
        result = _result(reply)
        if self._generation not in (None, generation):
            result = dataclasses.replace(result, state_lost=True)  # the server was restarted meanwhile
        self._generation = generation if result.error is None else None
        return result

    def restart(self) -> None:
        """Drop the interpreter and its state; the next cell starts a fresh one."""
        self.close()
        self.id = uuid.uuid4().hex

    def close(self) -> None:
        """Kill the interpreter (a no-op if the server is gone: it took the session with it)."""
        conn = self.backend._conn
        if self._generation is not None and conn is not None and not conn.dead:
            try:
                conn.request({"op": "close", "session": self.id}, REPLY_SLACK)
            except _Died:
                pass
        self._generation = None

    def __enter__(self) -> LocalSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
