"""The code-test harness: the program that runs a candidate's tests **inside the sandbox**.

:mod:`palaestra.verifiers.code` reads this file's source text (``harness_source()``) and sends it to the
sandbox as ``main.py``, next to ``solution.py`` (the candidate) and ``spec.json`` (the test
inputs, never the expected outputs). It is a real module so that linters, type checkers and
unit tests see it, but the trusted process only ever imports it for its pure helpers: the
functions that run candidate code (:func:`function_child`, :func:`stdio_child`) are called only
in forked children inside the sandbox. It imports nothing but the standard library (the
sandbox has no site-packages and no ``palaestra``).

Protocol::

    spec.json   {"kind": "function" | "stdio", "function": name or null, "inputs": [text, ...],
                 "test_seconds": s, "total_seconds": s, "max_timeouts": n, "value_bytes": n}
                function inputs are JSON texts of argument lists; stdio inputs are stdin texts
    stdin       one line: a random token, read only after every child has finished
    stdout      one line: the token, a space, then a JSON report:
                {"results": [entry, ...]}   one entry per input, see below
                {"load": [what, detail]}    the program could not be loaded
                {"internal": traceback}     the harness itself failed (an infrastructure error)

An entry is ``{"status": "value", "value": v}`` (function), ``{"status": "exited", "stdout": text,
"exit_code": n, "exception": name or null}`` (stdio), or ``{"status": s, "detail": text}`` with ``s``
one of ``error``, ``invalid``, ``timeout``, ``crashed``, ``too_large``, ``skipped``.

Why a candidate cannot forge results (the trusted parent also re-checks everything):

- candidate code runs only in forked children whose fds 0, 1 and 2 are replaced (by ``/dev/null``,
  the test's input and a pipe to the harness) before it runs, so it never writes the run's stdout;
- the harness ignores catchable signals, and kills a child's whole process group after the
  per-test wall-clock timeout;
- a function child sends each return value as JSON only after :func:`plain` checked that it is
  exactly a JSON type (no subclass, set, NaN or object with a lying ``__eq__``);
- the token that tags the one result line is read from stdin only after every child finished,
  so no child ever held it.

Example (the pure helpers)::

    >>> plain([1, (2, "x"), {"k": None}])
    [1, [2, 'x'], {'k': None}]
    >>> plain({1, 2})
    Traceback (most recent call last):
    ...
    palaestra.verifiers.code_harness.Invalid: type set
"""

from __future__ import annotations

import builtins
import gc
import io
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from types import CodeType
from typing import Any

PLAIN_NODES = 200_000  # most values in one returned object
PLAIN_DEPTH = 100  # deepest nesting of a returned object
PARSE_DEPTH = 104  # deepest nesting accepted from a child (so every later parse of it succeeds)
STATUS_BYTES = 4096  # longest status line of a stdio child
STDIN_PIPE_BYTES = 60_000  # larger test inputs go through an unlinked scratch file (a pipe would block)
REAP_SECONDS = 0.5  # how long a child that closed its pipe gets to exit before it is killed
POLL_SECONDS = 0.001

# Signals the harness ignores (so a candidate cannot stop it with kill(getppid(), ...)); children
# get the default actions back before candidate code runs.
CAUGHT = (
    signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM,
    signal.SIGVTALRM, signal.SIGPROF, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTSTP, signal.SIGTTIN,
    signal.SIGTTOU,
)

Entry = dict[str, Any]


# --- pure helpers (also used and tested in the trusted process) -------------------------------

class Invalid(Exception):
    """A returned value is not plain JSON data."""


def plain(value: Any, depth: int = 0, count: list[int] | None = None) -> Any:
    """``value`` as plain JSON data (tuples become lists); :class:`Invalid` if any part is not
    exactly a JSON type, an integer is huge, a float is not finite or the value is too big."""
    if count is None:
        count = [0]
    count[0] += 1
    if count[0] > PLAIN_NODES or depth > PLAIN_DEPTH:
        raise Invalid("too large or too deeply nested")
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        if value.bit_length() > 4000:
            raise Invalid("integer too large")
        return value
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise Invalid("non-finite float")
        return value
    if kind is list or kind is tuple:
        return [plain(item, depth + 1, count) for item in value]
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise Invalid("dict key of type " + type(key).__name__)
            out[key] = plain(item, depth + 1, count)
        return out
    raise Invalid("type " + kind.__name__)


def shallow(value: Any, limit: int = PARSE_DEPTH) -> bool:
    """Whether a parsed JSON value nests at most ``limit`` levels (checked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if type(item) is list:
            stack.extend((x, depth + 1) for x in item)
        elif type(item) is dict:
            stack.extend((x, depth + 1) for x in item.values())
    return True


def name_of(exc: BaseException) -> str:
    """The exception's class name (a hostile exception class cannot make this raise)."""
    try:
        return str(type(exc).__name__)[:100]
    except BaseException:
        return "exception"


def read_message(line: bytes) -> Any:
    """A child's JSON line parsed, or None when it is not valid JSON or nests too deeply."""
    try:
        message = json.loads(line)
    except Exception:
        return None
    return message if shallow(message) else None


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class LineReader:
    """Lines from a pipe, with a deadline per line and a cap on the bytes buffered."""

    def __init__(self, fd: int, limit: int) -> None:
        self.fd, self.limit, self.buf, self.eof = fd, limit, b"", False

    def feed(self, timeout: float) -> None:
        """Read what arrives within ``timeout`` seconds (at most one chunk)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            data = os.read(self.fd, 1 << 16)
            self.eof = not data
            self.buf += data

    def line(self, deadline: float) -> tuple[str, bytes]:
        """``("line", bytes)``, or ``("eof", b"")``, ``("timeout", b"")``, ``("too_large", b"")``."""
        newline = self.buf.find(b"\n")
        while newline < 0:
            if len(self.buf) > self.limit:
                return ("too_large", b"")
            if self.eof:
                return ("eof", b"")
            left = deadline - time.monotonic()
            if left <= 0:
                return ("timeout", b"")
            self.feed(left)
            newline = self.buf.find(b"\n")
        line, self.buf = self.buf[:newline], self.buf[newline + 1:]
        return ("line", line)


def report_line(token: str, report: dict[str, Any]) -> str:
    """The one line the trusted parent reads: the token, a space, the JSON report."""
    return token + " " + json.dumps(report) + "\n"


# --- processes ------------------------------------------------------------------------------

def fork(child: Callable[..., Any], *args: Any, close: tuple[int, ...] = ()) -> int | None:
    """Fork a child that closes the fds ``close`` (the parent's ends of its pipes), runs
    ``child(*args)`` in its own process group and never returns; its pid, or None if fork failed."""
    sys.stdout.flush()
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
        try:
            for fd in close:
                os.close(fd)
            child(*args)
        except BaseException:
            pass
        os._exit(0)
    try:
        os.setpgid(pid, pid)  # also here: no race with a kill of the group
    except OSError:
        pass
    return pid


def kill(pid: int) -> int | None:
    """SIGKILL the child's process group (and the child); its wait status, or None."""
    for send in (os.killpg, os.kill):
        try:
            send(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        return os.waitpid(pid, 0)[1]
    except OSError:
        return None


def poll(pid: int) -> tuple[bool, int | None]:
    """``(finished, wait status)``; a child that cannot be waited for counts as finished (status None)."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except OSError:
        return True, None
    return (True, status) if done else (False, None)


def reap(pid: int, deadline: float) -> int | None:
    """Wait for an exited-or-exiting child until ``deadline`` (killing it then); its wait status or None."""
    finished, status = poll(pid)
    while not finished and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        finished, status = poll(pid)
    if not finished:
        kill(pid)
    return status


def describe_status(status: int | None) -> str:
    if status is None:
        return ""
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit code {os.WEXITSTATUS(status)}"


def fresh_stdio(stdin_fd: int | None, stdout_fd: int | None) -> None:
    """Child only, before any candidate code: fds 0-2 replaced (``/dev/null`` where None; stderr
    always), ``sys.std*`` rebuilt on them, default signal actions restored."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(stdin_fd if stdin_fd is not None else null, 0)
    os.dup2(stdout_fd if stdout_fd is not None else null, 1)
    os.dup2(null, 2)
    if null > 2:
        os.close(null)
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        stream = io.TextIOWrapper(io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw), "utf-8")
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)  # the originals too: a program restoring them stays redirected
    for sig in CAUGHT:
        signal.signal(sig, signal.SIG_DFL)


# --- function tests -------------------------------------------------------------------------

def function_child(code: CodeType, spec: dict[str, Any], start: int, wfd: int) -> None:
    """Child: load the program, say ``{"ready": true}`` (or ``{"load": [what, detail]}``), then
    call the function on inputs ``start``, ``start + 1``, ... writing one JSON line per call."""
    fresh_stdio(None, None)
    inputs, name = spec["inputs"], spec["function"]
    namespace = {"__name__": "solution", "__file__": "solution.py", "__builtins__": builtins}

    def send(message: Any) -> None:
        write_all(wfd, (json.dumps(message) + "\n").encode())

    try:
        exec(code, namespace)  # candidate code: only ever here, in a forked child inside the sandbox
        function = namespace.get(name)
        if not callable(function):
            send({"load": ["missing", "a function named " + name]})
            return
    except BaseException as exc:
        send({"load": ["exception", name_of(exc)]})
        return
    send({"ready": True})
    for i in range(start, len(inputs)):
        try:
            args = json.loads(inputs[i])
            value = function(*args)
            try:
                text = json.dumps({"i": i, "status": "value", "value": plain(value)})
            except Invalid as exc:
                text = json.dumps({"i": i, "status": "invalid", "detail": str(exc)[:200]})
            except (ValueError, TypeError, RecursionError, MemoryError) as exc:
                text = json.dumps({"i": i, "status": "invalid", "detail": name_of(exc)})
        except BaseException as exc:
            text = json.dumps({"i": i, "status": "error", "detail": name_of(exc)})
        if len(text) > spec["value_bytes"]:
            text = json.dumps({"i": i, "status": "too_large"})
        write_all(wfd, (text + "\n").encode())


def load_outcome(reader: LineReader, pid: int, deadline: float) -> list[str] | None:
    """None when the child said it is ready, else ``[what, detail]`` of why it could not load."""
    kind, line = reader.line(deadline)
    if kind == "line":
        message = read_message(line)
        if isinstance(message, dict) and message.get("ready") is True:
            return None
        if isinstance(message, dict) and isinstance(message.get("load"), list):
            return [str(x)[:200] for x in message["load"][:2]]
        return ["crashed", "protocol error"]
    if kind in ("timeout", "too_large"):
        return [kind, ""]
    return ["crashed", describe_status(reap(pid, time.monotonic() + REAP_SECONDS))]


def run_function_tests(code: CodeType, spec: dict[str, Any]) -> dict[str, Any]:
    """Every input through one child; a fresh child (from the next input) after a crash or timeout."""
    n = len(spec["inputs"])
    per_test, limit = spec["test_seconds"], spec["value_bytes"] + 256
    results: list[Entry | None] = [None] * n
    t_end = time.monotonic() + spec["total_seconds"]
    timeouts, i = 0, 0
    while i < n and timeouts < spec["max_timeouts"] and time.monotonic() < t_end:
        rfd, wfd = os.pipe()
        pid = fork(function_child, code, spec, i, wfd, close=(rfd,))
        os.close(wfd)
        if pid is None:
            os.close(rfd)
            results[i] = {"status": "crashed", "detail": "could not start a process"}
            i += 1
            continue
        reader = LineReader(rfd, limit)
        load = load_outcome(reader, pid, min(time.monotonic() + per_test, t_end))
        if load is not None:
            kill(pid)
            os.close(rfd)
            if i == 0:
                return {"load": load}
            for j in range(i, n):  # it loaded before: failing now is deterministic for the rest
                results[j] = {"status": "timeout" if load[0] == "timeout" else "crashed", "detail": load[1]}
            break
        restart = False
        while i < n and not restart:
            kind, line = reader.line(min(time.monotonic() + per_test, t_end))
            restart = kind != "line"
            if kind == "line":
                message = read_message(line)
                if isinstance(message, dict) and message.get("i") == i and isinstance(message.get("status"), str):
                    message.pop("i")
                    results[i] = message
                else:
                    results[i] = {"status": "crashed", "detail": "protocol error"}
                    restart = True
            elif kind == "timeout":
                results[i] = {"status": "timeout"}
                timeouts += 1
            elif kind == "too_large":
                results[i] = {"status": "too_large"}
            else:
                status = reap(pid, time.monotonic() + REAP_SECONDS)
                results[i] = {"status": "crashed", "detail": describe_status(status)}
            i += 1
        kill(pid)
        os.close(rfd)
    return {"results": [entry if entry is not None else {"status": "skipped"} for entry in results]}


# --- stdin/stdout tests ---------------------------------------------------------------------

def stdin_fd(data: bytes) -> int:
    """A readable fd holding exactly ``data``: a pipe when it fits, else an unlinked scratch file."""
    if len(data) <= STDIN_PIPE_BYTES:
        r, w = os.pipe()
        write_all(w, data)
        os.close(w)
        return r
    path = f"stdin-{os.getpid()}.txt"
    w = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    write_all(w, data)
    os.close(w)
    r = os.open(path, os.O_RDONLY)
    os.unlink(path)
    return r


def stdio_child(code: CodeType, spec: dict[str, Any], start: int, out_w: int, status_w: int, go_r: int) -> None:
    """Child: run the program once per test from ``start`` on, each time as a fresh ``__main__``
    with the test's input on fd 0 and fd 1 on the output pipe; report each exit on ``status_w``,
    then wait for the parent's go-ahead (one byte on ``go_r``) so each test's output stays apart."""
    inputs = spec["inputs"]
    keep = os.open(os.devnull, os.O_RDWR)
    for i in range(start, len(inputs)):
        if i > start and os.read(go_r, 1) != b"g":
            return
        for fd in (0, 1, 2):  # whatever the last run closed: new fds below are then >= 3
            os.dup2(keep, fd)
        r = stdin_fd(inputs[i].encode("utf-8", "surrogatepass"))
        fresh_stdio(r, out_w)
        os.close(r)
        main_module = type(sys)("__main__")
        main_module.__dict__.update({"__name__": "__main__", "__file__": "solution.py", "__builtins__": builtins})
        sys.modules["__main__"] = main_module
        exit_code, exception = 0, None
        try:
            exec(code, main_module.__dict__)  # candidate code: only ever here, in a forked child inside the sandbox
        except SystemExit as exc:
            status = exc.code
            exit_code = 0 if status is None else (status & 0xFF if type(status) is int else 1)
        except BaseException as exc:
            exit_code, exception = 1, name_of(exc)
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        main_module.__dict__.clear()  # drop the program's objects (e.g. an open(0) file) before fd 0 is reused
        del main_module
        gc.collect()
        write_all(status_w, (json.dumps({"i": i, "exit_code": exit_code, "exception": exception}) + "\n").encode())


def drain(fd: int, buf: bytearray, limit: int) -> bool:
    """Read what is available now from a non-blocking fd into ``buf``; False once it holds over ``limit``."""
    while len(buf) <= limit:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return True
        buf += chunk
    return False


def wait_for_exit(out_r: int, status: LineReader, out: bytearray, limit: int, deadline: float) -> str | None:
    """Collect the program's output until its status line (or EOF on the status pipe) arrives;
    None then, else ``timeout``, ``too_large`` or ``crashed`` (an overlong status line)."""
    while status.buf.find(b"\n") < 0 and not status.eof:
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout"
        ready, _, _ = select.select([out_r, status.fd], [], [], left)
        if out_r in ready and not drain(out_r, out, limit):
            return "too_large"
        if status.fd in ready:
            status.feed(0)
        if len(status.buf) > STATUS_BYTES:
            return "crashed"
    return None if drain(out_r, out, limit) else "too_large"


def exited_entry(line: bytes, i: int, out: bytearray) -> Entry | None:
    """The result of test ``i`` from the child's status line, or None for a protocol error."""
    message = read_message(line)
    if not (isinstance(message, dict) and message.get("i") == i):
        return None
    try:
        exit_code = int(message["exit_code"])
        exception = message["exception"]
    except Exception:
        return None
    return {"status": "exited", "stdout": bytes(out).decode("utf-8", "replace"), "exit_code": exit_code,
            "exception": None if exception is None else str(exception)[:100]}


def run_stdio_tests(code: CodeType, spec: dict[str, Any]) -> dict[str, Any]:
    """Each input in turn through one child; a fresh child (from the next input) after a crash or timeout."""
    n = len(spec["inputs"])
    per_test, limit = spec["test_seconds"], spec["value_bytes"]
    results: list[Entry | None] = [None] * n
    t_end = time.monotonic() + spec["total_seconds"]
    timeouts, i = 0, 0
    while i < n and timeouts < spec["max_timeouts"] and time.monotonic() < t_end:
        out_r, out_w = os.pipe()
        st_r, st_w = os.pipe()
        go_r, go_w = os.pipe()
        pid = fork(stdio_child, code, spec, i, out_w, st_w, go_r, close=(out_r, st_r, go_w))
        for fd in (out_w, st_w, go_r):
            os.close(fd)
        if pid is None:
            for fd in (out_r, st_r, go_w):
                os.close(fd)
            results[i] = {"status": "crashed", "detail": "could not start a process"}
            i += 1
            continue
        os.set_blocking(out_r, False)
        status = LineReader(st_r, STATUS_BYTES)
        out = bytearray()
        running = True
        while i < n and running:
            deadline = min(time.monotonic() + per_test, t_end)
            outcome = wait_for_exit(out_r, status, out, limit, deadline)
            if outcome is not None:
                results[i] = {"status": outcome}
                timeouts += outcome == "timeout"
                running = False
            elif status.buf.find(b"\n") >= 0:  # the program ended normally (or by SystemExit / an exception)
                line = status.line(deadline)[1]
                entry = exited_entry(line, i, out)
                results[i] = entry if entry is not None else {"status": "crashed", "detail": "protocol error"}
                running = entry is not None
                out = bytearray()
                if running:
                    try:
                        os.write(go_w, b"g")
                    except OSError:
                        pass
            else:  # EOF on the status pipe: the process died during test i (os._exit, a signal)
                wait_status = reap(pid, min(time.monotonic() + REAP_SECONDS, deadline))
                drain(out_r, out, limit)
                if wait_status is not None and os.WIFEXITED(wait_status):
                    results[i] = {"status": "exited", "stdout": bytes(out).decode("utf-8", "replace"),
                                  "exit_code": os.WEXITSTATUS(wait_status), "exception": None}
                else:
                    results[i] = {"status": "crashed", "detail": describe_status(wait_status)}
                running = False
            i += 1
        kill(pid)
        for fd in (out_r, st_r, go_w):
            os.close(fd)
    return {"results": [entry if entry is not None else {"status": "skipped"} for entry in results]}


# --- the program ----------------------------------------------------------------------------

def run(spec_path: str = "spec.json", solution_path: str = "solution.py") -> dict[str, Any]:
    """Load the spec and the candidate, run every test; the report (never raises)."""
    try:
        for sig in CAUGHT:
            signal.signal(sig, signal.SIG_IGN)
        with open(spec_path) as f:
            spec = json.load(f)
        with open(solution_path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        try:
            code = compile(text, "solution.py", "exec", dont_inherit=True)
        except BaseException as exc:
            return {"load": ["syntax", name_of(exc) + ": " + str(getattr(exc, "msg", "") or exc)[:150]]}
        if spec["kind"] == "function":
            return run_function_tests(code, spec)
        return run_stdio_tests(code, spec)
    except BaseException:
        import traceback

        return {"internal": traceback.format_exc()[-600:]}


def main() -> None:
    report = run()
    token = sys.stdin.readline().strip()  # only now: every child has finished
    sys.stdout.write(report_line(token, report))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
