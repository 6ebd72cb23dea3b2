"""The sandbox interface: run untrusted code, get an :class:`ExecResult`.

Every code verifier and the Python tool go through this interface only; the
backend (local, needing no Docker, or Docker) is chosen by configuration.

Example::

    from palaestra.sandbox import run, Limits
    result = run("print(input()[::-1])", stdin="abc", limits=Limits(wall_seconds=2))
    assert result.stdout == "cba\\n" and result.ok
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol


class SandboxUnavailable(RuntimeError):
    """The host cannot provide the configured minimum isolation: refuse to run (fail closed)."""


class LanguageUnavailable(SandboxUnavailable):
    """The requested language's toolchain is not installed (or not usable) on this host."""


class SandboxError(RuntimeError):
    """The sandbox itself failed (infrastructure), as opposed to the program failing."""


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run (or one session cell)."""

    wall_seconds: float = 5.0
    cpu_seconds: float = 5.0  # may be fractional: a program past it times out (the kernel stops it at the next second)
    memory_bytes: int = 256 * 2**20
    processes: int = 16
    output_bytes: int = 1 * 2**20  # stdout and stderr each
    file_bytes: int = 16 * 2**20  # largest file the program may write
    files: int = 64  # files the program may create in its scratch directory
    # Compiled languages (C, C++, Verilog): the compile stage's own wall and CPU seconds and
    # memory. The limits above apply to the program it produces, from the moment it starts.
    compile_seconds: float = 10.0
    compile_memory_bytes: int = 512 * 2**20


@dataclass(frozen=True)
class ExecResult:
    """What happened to one program."""

    stdout: str
    stderr: str
    exit_code: int | None  # None when killed by a signal
    signal: int | None = None
    timed_out: bool = False  # wall or CPU limit hit
    memory_exceeded: bool = False
    output_truncated: bool = False
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    error: str | None = None  # an infrastructure failure (never the program's fault)
    files: Mapping[str, bytes] = field(default_factory=dict)  # requested output files
    state_lost: bool = False  # session cells only: the interpreter died or was restarted, earlier state is gone
    # Compiled languages only. compile_output: the compiler's diagnostics (stdout and stderr,
    # at most Limits.output_bytes); compile_failed: the compiler failed or hit its limits, so the
    # program never ran (exit_code and signal are None); compile_seconds: its wall-clock time.
    # wall_seconds then counts the program alone; cpu_seconds counts both stages.
    compile_output: str = ""
    compile_failed: bool = False
    compile_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """The program ran to completion and exited 0 within its limits."""
        return (
            self.error is None
            and self.exit_code == 0
            and not (self.compile_failed or self.timed_out or self.memory_exceeded or self.output_truncated)
        )


@dataclass(frozen=True)
class Toolchain:
    """A language's toolchain on one host, as ``probe()`` reports it."""

    language: str
    available: bool
    version: str = ""  # e.g. "gcc 12.2.0", "node v20.11.0", "SQLite 3.40.1"
    tools: Mapping[str, str] = field(default_factory=dict)  # tool -> path
    reason: str | None = None  # why it is unavailable (names the missing tool)

    def __str__(self) -> str:
        return f"{self.language:<11}{self.version}" if self.available else f"{self.language:<11}{self.reason}"


class Session(Protocol):
    """A persistent sandboxed interpreter: state survives between cells."""

    def run_cell(self, source: str, limits: Limits | None = None) -> ExecResult: ...

    def restart(self) -> None: ...

    def close(self) -> None: ...


class Backend(Protocol):
    name: str

    def run(
        self,
        source: str,
        *,
        language: str = "python",
        stdin: str = "",
        files: Mapping[str, str | bytes] | None = None,
        output_files: Sequence[str] = (),
        limits: Limits | None = None,
    ) -> ExecResult: ...

    def session(self, limits: Limits | None = None) -> Session: ...

    def close(self) -> None: ...
