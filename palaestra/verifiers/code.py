"""Code against tests: run a model-written program in the sandbox and judge it in the trusted parent.

Two kinds of tests, both batched into **one sandbox run per candidate**:

- **function tests** (``kind="function"``): the candidate defines a function; each test is a list of
  JSON arguments and the JSON value it must return;
- **stdin/stdout tests** (``kind="stdio"``): the candidate is a whole program; each test is an input
  text and the exact output expected (every line is compared, trailing whitespace per line and
  trailing blank lines, i.e. a final newline, are tolerated).

Example::

    >>> from palaestra.verifiers.code import check_function
    >>> tests = [{"args": [[1, 2, 3]], "expected": 6}, {"args": [[]], "expected": 0}]
    >>> check_function("def total(xs):\\n    return sum(xs)", "total", tests).all_passed
    True

How a run is trusted
--------------------
The model's code is hostile: it can print anything, ``os._exit(0)``, return objects whose
``__eq__`` says yes, monkey-patch any module, kill its parent. So:

- the **expected outputs never enter the sandbox**: the sandbox receives only the candidate
  (``solution.py``), the test inputs (``spec.json``) and our harness (``main.py``);
- the harness (our code, ``HARNESS`` below) never runs candidate code itself: it forks a child
  per test (stdio) or one child for all tests (function; a fresh one after a crash or timeout).
  Before any candidate code runs, the child's stdin, stdout and stderr are replaced (by
  ``/dev/null``, the test's input and a pipe to the harness), so the candidate can never write
  to the run's real stdout; the harness ignores catchable signals and enforces a wall-clock
  timeout per test (SIGKILL of the child's process group);
- the child reports each return value as JSON after checking that it is a plain JSON value
  (``None``, ``bool``, ``int``, finite ``float``, ``str``, ``list``/``tuple``, ``dict`` with
  ``str`` keys, each of exactly that type: a subclass, a set, a NumPy value is *invalid*);
- the harness prints one result line prefixed by a random per-run token that it reads from
  its stdin only after every child has finished (no child ever held it);
- the **trusted parent** (this process) parses that line with :func:`json.loads`, which can only
  build plain values, and compares them with the expected ones using :func:`json_equal`
  (``==`` on parsed JSON, with ``bool`` never equal to a number). A value that did not come
  through that path (no result line, a killed harness) is a failed test, never a pass.

Infrastructure failures (the sandbox is unavailable, ``ExecResult.error`` is set, the harness
itself failed) are reported as errors: ``CodeReport.error`` and a verdict
``Verdict.unparsed("infrastructure error: ...")``, never as a wrong answer.

Problem data layout
-------------------
Code environments keep their tests in ``Problem.data``::

    {"kind": "function", "function": "solve", "tests": [{"args": [...], "expected": ...}, ...],
     "test_seconds": 1.0}
    {"kind": "stdio", "tests": [{"stdin": "...", "stdout": "..."}, ...], "test_seconds": 0.5}

and :func:`verify_answer` judges the text inside ``<answer></answer>`` against them (a fenced
````` ```python ````` block in it, or raw code).
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from palaestra.core.problem import Verdict

MAX_CODE_CHARS = 20_000  # longer answers are refused before anything runs
DEFAULT_TEST_SECONDS = 1.0  # wall-clock limit per test
DEFAULT_TOTAL_SECONDS = 4.0  # wall-clock budget of all tests of one candidate
DEFAULT_MAX_TIMEOUTS = 1  # after this many timed-out tests the rest are not run
VALUE_BYTES = 64 * 1024  # largest serialized return value / program output of one test
MEMORY_BYTES = 256 * 2**20
CACHE_SIZE = 512
_INFRA = "infrastructure error"

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


# --- reading the answer ---------------------------------------------------------------------

def extract_code(answer: str) -> str | None:
    """The program in an answer: the last fenced ``python`` block (or the last fenced block of
    any language when none is labelled python), else the whole text; ``None`` when empty."""
    if not isinstance(answer, str):
        return None
    blocks = [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(answer)]
    if blocks:
        python = [code for lang, code in blocks if lang in ("python", "py", "python3", "")]
        code = (python or [code for _, code in blocks])[-1]
    else:
        code = answer
    code = code.strip("\n")
    return code if code.strip() else None


def precheck(code: str, function: str | None = None) -> str | None:
    """Why ``code`` certainly cannot pass (a syntax error, no definition of ``function``), or None.

    Parsing never runs code. A tree too deep for this process's parser is not judged here
    (the sandbox decides), so only definite failures are reported.
    """
    if len(code) > MAX_CODE_CHARS:
        return f"the program is longer than {MAX_CODE_CHARS} characters"
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return f"syntax error: {exc.msg} (line {exc.lineno})"
    except ValueError as exc:  # null bytes
        return f"syntax error: {exc}"
    except (RecursionError, MemoryError, OverflowError):
        return None
    if function is not None:
        try:
            if not _binds(tree, function):
                return f"no function named {function!r} is defined"
        except RecursionError:
            return None
    return None


def _binds(tree: ast.AST, name: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name:
            return True
    return False


# --- comparing ------------------------------------------------------------------------------

def json_equal(got: Any, expected: Any, float_tolerance: float | None = None) -> bool:
    """``got == expected`` for parsed JSON values, except that ``bool`` never equals a number
    (``True == 1`` in Python) and, with ``float_tolerance``, floats compare within it."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is type(expected) and got == expected
    if isinstance(expected, (int, float)):
        if not isinstance(got, (int, float)):
            return False
        if float_tolerance is not None and (isinstance(got, float) or isinstance(expected, float)):
            return math.isclose(got, expected, rel_tol=float_tolerance, abs_tol=float_tolerance)
        return got == expected
    if isinstance(expected, str) or expected is None:
        return type(got) is type(expected) and got == expected
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(got) == len(expected)
            and all(json_equal(g, e, float_tolerance) for g, e in zip(got, expected))
        )
    if isinstance(expected, dict):
        return (
            isinstance(got, dict)
            and got.keys() == expected.keys()
            and all(json_equal(got[k], expected[k], float_tolerance) for k in expected)
        )
    return False


def output_lines(text: str) -> list[str]:
    """Lines of a program's output, trailing whitespace removed, trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def stdout_matches(got: str, expected: str) -> bool:
    """Every line equal (not ``zip``: a missing or extra line fails), up to trailing whitespace."""
    return output_lines(got) == output_lines(expected)


# --- reports --------------------------------------------------------------------------------

@dataclass(frozen=True)
class TestResult:
    """One test's outcome. ``status``: passed, wrong, error (an exception), invalid (not a JSON
    value), timeout, crashed (the process died), too_large, skipped (not run: budget spent)."""

    index: int
    status: str
    detail: str = ""  # the exception type, why a value is invalid, an exit status
    got: Any = None  # the parsed return value (function) or the output text (stdio)

    @property
    def passed(self) -> bool:
        return self.status == "passed"


@dataclass(frozen=True)
class CodeReport:
    """Everything a verifier needs to score one candidate.

    ``error``: an infrastructure failure (nothing is known about the candidate);
    ``failure``: the candidate could not be run at all (no code, syntax error, missing
    function, its module raised or timed out on import); then no test passed.
    """

    kind: str
    results: tuple[TestResult, ...] = ()
    total: int = 0
    error: str | None = None
    failure: str | None = None
    seconds: float = 0.0
    tests: tuple[Mapping[str, Any], ...] = field(default=(), repr=False, compare=False)
    function: str | None = None

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def all_passed(self) -> bool:
        return self.error is None and self.failure is None and self.total > 0 and self.passed == self.total

    @property
    def fraction(self) -> float:
        return self.passed / self.total if self.total and self.error is None else 0.0

    def failing(self) -> list[TestResult]:
        return [r for r in self.results if not r.passed]

    def verdict(self, partial_credit: bool = False, max_shown: int = 1) -> Verdict:
        """Reward 1 when every test passes; else 0, or the fraction passed with ``partial_credit``."""
        if self.error is not None:
            return Verdict.unparsed(f"{_INFRA}: {self.error}")
        if self.failure is not None:
            return Verdict.wrong(self.failure)
        if self.all_passed:
            return Verdict.right(f"all {self.total} tests passed")
        reward = self.fraction if partial_credit else 0.0
        return Verdict.wrong(self.feedback(max_shown), reward=reward)

    def feedback(self, max_shown: int = 3, value_chars: int = 300) -> str:
        """A short account: tests passed, then up to ``max_shown`` failing tests in detail."""
        if self.error is not None:
            return f"{_INFRA}: {self.error}"
        if self.failure is not None:
            return self.failure
        head = f"{self.passed}/{self.total} tests passed"
        lines = [head]
        for r in self.failing()[:max_shown]:
            lines.append(self.describe(r, value_chars))
        return "\n".join(lines)

    def describe(self, r: TestResult, chars: int = 300) -> str:
        """One failing test: its input, what was expected and what happened."""
        test = self.tests[r.index] if r.index < len(self.tests) else {}
        if self.kind == "function":
            args = ", ".join(_short(_literal(a), chars) for a in test.get("args", []))
            call = f"{self.function}({args})"
            want = _short(_literal(test.get("expected")), chars)
            if r.status == "wrong":
                return f"- {call} returned {_short(_literal(r.got), chars)}, expected {want}"
            return f"- {call}: {_happened(r)}, expected {want}"
        stdin = _short(test.get("stdin", ""), chars)
        want = _short(test.get("stdout", ""), chars)
        if r.status == "wrong":
            return f"- input:\n{stdin}\n  expected output:\n{want}\n  your output:\n{_short(r.got or '', chars)}"
        return f"- input:\n{stdin}\n  {_happened(r)}; expected output:\n{want}"


def _happened(r: TestResult) -> str:
    return {
        "error": f"raised {r.detail}",
        "invalid": f"returned an invalid value ({r.detail})",
        "timeout": "timed out",
        "crashed": f"the process died ({r.detail})" if r.detail else "the process died",
        "too_large": "produced too much output",
        "skipped": "not run (time budget spent)",
    }.get(r.status, r.status + (f" ({r.detail})" if r.detail else ""))


def _literal(value: Any) -> str:
    """A parsed JSON value written as a Python literal (None, True, 'text'), as prompts show them."""
    try:
        return repr(value)
    except (RecursionError, ValueError):  # too deep, or an int too long to print
        return "<value too large to show>"


def _short(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 3] + "..."


# --- running --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """Time limits of one candidate's run."""

    test_seconds: float = DEFAULT_TEST_SECONDS
    total_seconds: float = DEFAULT_TOTAL_SECONDS
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS
    memory_bytes: int = MEMORY_BYTES


_cache: OrderedDict[str, CodeReport] = OrderedDict()
_cache_lock = threading.Lock()


def check_function(
    code: str,
    function: str,
    tests: Sequence[Mapping[str, Any]],
    *,
    budget: Budget | None = None,
    float_tolerance: float | None = None,
    cache: bool = True,
) -> CodeReport:
    """Run ``code``'s ``function`` on every ``{"args": [...], "expected": value}`` test."""
    return _check("function", code, tests, function, budget or Budget(), float_tolerance, cache)


def check_stdio(
    code: str,
    tests: Sequence[Mapping[str, Any]],
    *,
    budget: Budget | None = None,
    cache: bool = True,
) -> CodeReport:
    """Run the program ``code`` on every ``{"stdin": text, "stdout": expected}`` test."""
    return _check("stdio", code, tests, None, budget or Budget(), None, cache)


def _check(
    kind: str,
    code: str,
    tests: Sequence[Mapping[str, Any]],
    function: str | None,
    budget: Budget,
    float_tolerance: float | None,
    use_cache: bool,
) -> CodeReport:
    t0 = time.perf_counter()
    tests = tuple(tests)
    base = {"kind": kind, "total": len(tests), "tests": tests, "function": function}
    problem = precheck(code, function)
    if problem is not None:
        return CodeReport(**base, failure=problem, seconds=time.perf_counter() - t0)
    key = None
    if use_cache:
        blob = json.dumps([kind, code, function, list(tests), float_tolerance, budget.__dict__], sort_keys=True)
        key = hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()
        with _cache_lock:
            hit = _cache.get(key)
            if hit is not None:
                _cache.move_to_end(key)
                return hit
    raw = _run_harness(kind, code, tests, function, budget)
    report = _judge(raw, base, tests, float_tolerance, time.perf_counter() - t0)
    if key is not None and report.error is None:
        with _cache_lock:
            _cache[key] = report
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return report


def clear_cache() -> None:
    """Forget cached reports (a report is cached per candidate text, tests and budget)."""
    with _cache_lock:
        _cache.clear()


def _run_harness(
    kind: str, code: str, tests: Sequence[Mapping[str, Any]], function: str | None, budget: Budget
) -> dict[str, Any]:
    """Run the harness once; a dict with ``error`` (infrastructure), ``failure`` or ``results``."""
    from palaestra.sandbox import Limits
    from palaestra.sandbox import run as sandbox_run

    if kind == "function":
        inputs = [json.dumps(t["args"]) for t in tests]
    else:
        inputs = [str(t["stdin"]) for t in tests]
    spec = {
        "kind": kind,
        "function": function,
        "inputs": inputs,
        "test_seconds": budget.test_seconds,
        "total_seconds": budget.total_seconds,
        "max_timeouts": budget.max_timeouts,
        "value_bytes": VALUE_BYTES,
    }
    token = secrets.token_hex(16)
    wall = budget.total_seconds + budget.test_seconds + 2.0
    limits = Limits(
        wall_seconds=wall,
        cpu_seconds=wall,
        memory_bytes=budget.memory_bytes,
        processes=32,
        output_bytes=len(tests) * (VALUE_BYTES + 512) + (1 << 16),
        files=64,
    )
    try:
        result = sandbox_run(
            HARNESS,
            stdin=token + "\n",
            files={"solution.py": code.encode("utf-8", "surrogatepass"), "spec.json": json.dumps(spec)},
            limits=limits,
        )
    except Exception as exc:  # SandboxUnavailable, SandboxError, OSError ...: not the candidate's fault
        return {"error": f"{type(exc).__name__}: {_short(str(exc), 300)}"}
    if result.error is not None:
        return {"error": _short(result.error, 300)}
    prefix = token + " "
    line = next((ln for ln in reversed(result.stdout.splitlines()) if ln.startswith(prefix)), None)
    if line is None:
        if result.timed_out:
            return {"failure": "time limit exceeded"}
        if result.memory_exceeded:
            return {"failure": "memory limit exceeded"}
        return {"failure": "the test harness was stopped by the program (no results came back)"}
    try:
        report = json.loads(line[len(prefix):])
    except (ValueError, RecursionError) as exc:
        return {"error": f"unreadable harness output ({type(exc).__name__})"}
    if not isinstance(report, dict):
        return {"error": "unreadable harness output"}
    if "internal" in report:
        return {"error": f"harness failure: {_short(str(report['internal']), 300)}"}
    return report


def _judge(
    raw: dict[str, Any],
    base: dict[str, Any],
    tests: Sequence[Mapping[str, Any]],
    float_tolerance: float | None,
    seconds: float,
) -> CodeReport:
    if "error" in raw:
        return CodeReport(**base, error=str(raw["error"]), seconds=seconds)
    if "failure" in raw:
        return CodeReport(**base, failure=str(raw["failure"]), seconds=seconds)
    if raw.get("load"):
        return CodeReport(**base, failure=_load_failure(raw["load"]), seconds=seconds)
    entries = raw.get("results")
    if not isinstance(entries, list) or len(entries) != len(tests):
        return CodeReport(**base, error="malformed harness output", seconds=seconds)
    kind = base["kind"]
    results = []
    for i, (entry, test) in enumerate(zip(entries, tests)):
        results.append(_test_result(kind, i, entry, test, float_tolerance))
    return CodeReport(**base, results=tuple(results), seconds=seconds)


def _load_failure(load: Any) -> str:
    what, detail = (list(load) + ["", ""])[:2] if isinstance(load, list) else ("", "")
    detail = _short(str(detail), 200)
    return {
        "syntax": f"the program does not compile: {detail}",
        "exception": f"loading the program raised {detail}",
        "missing": f"the program does not define {detail}",
        "timeout": "loading the program timed out",
        "crashed": f"the program exited while loading ({detail})",
        "too_large": "the program produced too much output while loading",
    }.get(str(what), f"the program could not be loaded ({_short(str(what), 40)})")


def _test_result(
    kind: str, i: int, entry: Any, test: Mapping[str, Any], float_tolerance: float | None
) -> TestResult:
    if not isinstance(entry, dict):
        return TestResult(i, "crashed", "no result")
    status = entry.get("status")
    detail = _short(str(entry.get("detail", "")), 200)
    if status in ("timeout", "crashed", "too_large", "skipped", "invalid", "error"):
        return TestResult(i, str(status), detail)
    if kind == "function":
        if status != "value" or "value" not in entry:
            return TestResult(i, "crashed", "no result")
        got = entry["value"]
        ok = json_equal(got, test["expected"], float_tolerance)
        return TestResult(i, "passed" if ok else "wrong", "", got)
    if status != "exited" or not isinstance(entry.get("stdout"), str):
        return TestResult(i, "crashed", "no result")
    out = entry["stdout"]
    exc = entry.get("exception")
    if exc:
        return TestResult(i, "error", _short(str(exc), 100), out)
    code = entry.get("exit_code")
    if code not in (0, None):
        return TestResult(i, "crashed", f"exit code {code}", out)
    ok = stdout_matches(out, str(test["stdout"]))
    return TestResult(i, "passed" if ok else "wrong", "", out)


# --- the one-call verifier for code environments -------------------------------------------

def verify_answer(answer: str, data: Mapping[str, Any], *, partial_credit: bool = False) -> Verdict:
    """Judge the text inside the answer tags against the tests in ``Problem.data`` (see module doc)."""
    return report_for_answer(answer, data).verdict(partial_credit)


def report_for_answer(answer: str, data: Mapping[str, Any]) -> CodeReport:
    """The :class:`CodeReport` of an answer (code extraction, precheck, sandbox run)."""
    kind = data["kind"]
    tests = data["tests"]
    function = data.get("function")
    if not isinstance(answer, str) or len(answer) > MAX_CODE_CHARS + 100:
        return CodeReport(kind, total=len(tests), failure=f"the answer is longer than {MAX_CODE_CHARS} characters")
    code = extract_code(answer)
    if code is None:
        return CodeReport(kind, total=len(tests), failure="no code found in the answer")
    budget = Budget(
        test_seconds=float(data.get("test_seconds", DEFAULT_TEST_SECONDS)),
        total_seconds=float(data.get("total_seconds", DEFAULT_TOTAL_SECONDS)),
        max_timeouts=int(data.get("max_timeouts", DEFAULT_MAX_TIMEOUTS)),
    )
    if kind == "function":
        return check_function(code, function, tests, budget=budget, float_tolerance=data.get("float_tolerance"))
    if kind == "stdio":
        return check_stdio(code, tests, budget=budget)
    raise ValueError(f"unknown test kind {kind!r}")


# --- the harness (runs inside the sandbox as main.py) --------------------------------------

HARNESS = r'''
import builtins, gc, io, json, os, select, signal, sys, time

SPEC = None
PLAIN_NODES = 200000


class Invalid(Exception):
    pass


def plain(value, depth=0, count=None):
    """value as plain JSON data; Invalid if any part is not exactly a JSON type."""
    if count is None:
        count = [0]
    count[0] += 1
    if count[0] > PLAIN_NODES or depth > 100:
        raise Invalid("too large or too deeply nested")
    t = type(value)
    if value is None or t is bool or t is str:
        return value
    if t is int:
        if value.bit_length() > 4000:
            raise Invalid("integer too large")
        return value
    if t is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise Invalid("non-finite float")
        return value
    if t is list or t is tuple:
        return [plain(v, depth + 1, count) for v in value]
    if t is dict:
        out = {}
        for k, v in value.items():
            if type(k) is not str:
                raise Invalid("dict key of type " + type(k).__name__)
            out[k] = plain(v, depth + 1, count)
        return out
    raise Invalid("type " + t.__name__)


def shallow(value, limit=104):
    """Whether a parsed value nests at most limit levels (so every later parse of it succeeds)."""
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return False
        if type(v) is list:
            stack.extend((x, d + 1) for x in v)
        elif type(v) is dict:
            stack.extend((x, d + 1) for x in v.values())
    return True


def name_of(exc):
    try:
        return str(type(exc).__name__)[:100]
    except BaseException:
        return "exception"


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def fresh_stdio(stdin_fd, stdout_fd):
    """Child only: fds 0-2 replaced before any candidate code runs; sys.std* rebuilt on them."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(stdin_fd if stdin_fd is not None else null, 0)
    os.dup2(stdout_fd if stdout_fd is not None else null, 1)
    os.dup2(null, 2)
    if null > 2:
        os.close(null)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), "utf-8")
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)), "utf-8")
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)), "utf-8")
    for sig in CAUGHT:
        signal.signal(sig, signal.SIG_DFL)


def fork(child):
    """Fork a child that runs child() and never returns; (pid) or None if fork failed."""
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
            child()
        except BaseException:
            pass
        os._exit(0)
    try:
        os.setpgid(pid, pid)  # also here: no race with a kill of the group
    except OSError:
        pass
    return pid


def kill(pid):
    for f in (os.killpg, os.kill):
        try:
            f(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        return os.waitpid(pid, 0)[1]
    except OSError:
        return None


def reap(pid, deadline):
    """Wait for an exited-or-exiting child until deadline; its wait status, or None."""
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except OSError:
            return None
        if done:
            return status
        if time.monotonic() >= deadline:
            kill(pid)
            return None
        time.sleep(0.001)


def describe_status(status):
    if status is None:
        return ""
    if os.WIFSIGNALED(status):
        return "killed by signal %d" % os.WTERMSIG(status)
    return "exit code %d" % os.WEXITSTATUS(status)


class LineReader:
    def __init__(self, fd, limit):
        self.fd, self.limit, self.buf, self.eof = fd, limit, b"", False

    def line(self, deadline):
        """('line', bytes) | ('eof',) | ('timeout',) | ('too_large',)"""
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line, self.buf = self.buf[:nl], self.buf[nl + 1:]
                return ("line", line)
            if len(self.buf) > self.limit:
                return ("too_large",)
            if self.eof:
                return ("eof",)
            left = deadline - time.monotonic()
            if left <= 0:
                return ("timeout",)
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            data = os.read(self.fd, 1 << 16)
            if not data:
                self.eof = True
            self.buf += data


def function_child(code, start, wfd):
    fresh_stdio(None, None)
    inputs, fname = SPEC["inputs"], SPEC["function"]
    namespace = {"__name__": "solution", "__file__": "solution.py", "__builtins__": builtins}

    def send(obj):
        write_all(wfd, (json.dumps(obj) + "\n").encode())

    try:
        exec(code, namespace)
        fn = namespace.get(fname)
        if not callable(fn):
            send({"load": ["missing", "a function named " + fname]})
            return
    except BaseException as exc:
        send({"load": ["exception", name_of(exc)]})
        return
    send({"ready": True})
    for i in range(start, len(inputs)):
        try:
            args = json.loads(inputs[i])
            value = fn(*args)
            try:
                entry = {"i": i, "status": "value", "value": plain(value)}
                text = json.dumps(entry)
            except Invalid as exc:
                text = json.dumps({"i": i, "status": "invalid", "detail": str(exc)[:200]})
            except (ValueError, TypeError, RecursionError, MemoryError) as exc:
                text = json.dumps({"i": i, "status": "invalid", "detail": name_of(exc)})
        except BaseException as exc:
            text = json.dumps({"i": i, "status": "error", "detail": name_of(exc)})
        if len(text) > SPEC["value_bytes"]:
            text = json.dumps({"i": i, "status": "too_large"})
        write_all(wfd, (text + "\n").encode())


def run_function_tests(code):
    inputs = SPEC["inputs"]
    n = len(inputs)
    per_test, limit = SPEC["test_seconds"], SPEC["value_bytes"] + 256
    results = [None] * n
    t_end = time.monotonic() + SPEC["total_seconds"]
    timeouts, i = 0, 0
    while i < n:
        if timeouts >= SPEC["max_timeouts"] or time.monotonic() >= t_end:
            break
        rfd, wfd = os.pipe()
        pid = fork(lambda: (os.close(rfd), function_child(code, i, wfd)))
        os.close(wfd)
        if pid is None:
            os.close(rfd)
            results[i] = {"status": "crashed", "detail": "could not start a process"}
            i += 1
            continue
        reader = LineReader(rfd, limit)
        got = reader.line(min(time.monotonic() + per_test, t_end))
        load = None
        if got[0] == "line":
            try:
                msg = json.loads(got[1])
            except Exception:
                msg = None
            if isinstance(msg, dict) and msg.get("ready") is True:
                load = None
            elif isinstance(msg, dict) and isinstance(msg.get("load"), list):
                load = [str(x)[:200] for x in msg["load"][:2]]
            else:
                load = ["crashed", "protocol error"]
        elif got[0] == "timeout":
            load = ["timeout", ""]
        elif got[0] == "too_large":
            load = ["too_large", ""]
        else:
            status = reap(pid, time.monotonic() + 0.5)
            load = ["crashed", describe_status(status)]
        if load is not None:
            kill(pid)
            os.close(rfd)
            if i == 0:
                return {"load": load}
            for j in range(i, n):  # a reload failed: deterministic for the rest
                results[j] = {"status": "timeout" if load[0] == "timeout" else "crashed", "detail": load[1]}
            break
        restart = False
        while i < n:
            deadline = min(time.monotonic() + per_test, t_end)
            got = reader.line(deadline)
            if got[0] == "line":
                try:
                    msg = json.loads(got[1])
                except Exception:
                    msg = None
                if not (isinstance(msg, dict) and msg.get("i") == i and isinstance(msg.get("status"), str)
                        and shallow(msg)):
                    results[i] = {"status": "crashed", "detail": "protocol error"}
                    restart = True
                else:
                    msg.pop("i")
                    results[i] = msg
                i += 1
                if restart:
                    break
            elif got[0] == "timeout":
                results[i] = {"status": "timeout"}
                timeouts += 1
                i += 1
                restart = True
                break
            elif got[0] == "too_large":
                results[i] = {"status": "too_large"}
                i += 1
                restart = True
                break
            else:
                status = reap(pid, time.monotonic() + 0.5)
                results[i] = {"status": "crashed", "detail": describe_status(status)}
                i += 1
                restart = True
                break
        kill(pid)
        os.close(rfd)
    for j in range(n):
        if results[j] is None:
            results[j] = {"status": "skipped"}
    return {"results": results}


def stdin_fd(data):
    """A readable fd holding exactly data: a pipe when it fits, else an unlinked scratch file."""
    if len(data) <= 60000:
        r, w = os.pipe()
        write_all(w, data)
        os.close(w)
        return r
    path = "stdin-%d.txt" % os.getpid()
    w = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    write_all(w, data)
    os.close(w)
    r = os.open(path, os.O_RDONLY)
    os.unlink(path)
    return r


def stdio_child(code, start, out_w, status_w, go_r):
    """Run the program once per test from start on, each time as a fresh __main__ with the
    test's input on fd 0 and fd 1 on the output pipe; report each exit on status_w, then wait
    for the parent's go-ahead (one byte on go_r) so each test's output stays apart."""
    inputs = SPEC["inputs"]
    keep = os.open(os.devnull, os.O_RDWR)
    for i in range(start, len(inputs)):
        if i > start and os.read(go_r, 1) != b"g":
            return
        for fd in (0, 1, 2):  # whatever the last run closed: new fds below are then >= 3
            os.dup2(keep, fd)
        r = stdin_fd(inputs[i].encode("utf-8", "surrogatepass"))
        fresh_stdio(r, out_w)
        os.close(r)
        main = type(sys)("__main__")
        main.__dict__.update({"__name__": "__main__", "__file__": "solution.py", "__builtins__": builtins})
        sys.modules["__main__"] = main
        exit_code, exception = 0, None
        try:
            exec(code, main.__dict__)
        except SystemExit as exc:
            c = exc.code
            exit_code = 0 if c is None else (c & 0xFF if type(c) is int else 1)
        except BaseException as exc:
            exit_code, exception = 1, name_of(exc)
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        main.__dict__.clear()  # drop the program's objects (e.g. an open(0) file) before fd 0 is reused
        del main
        gc.collect()
        write_all(status_w, (json.dumps({"i": i, "exit_code": exit_code, "exception": exception}) + "\n").encode())


def drain(fd, buf, limit):
    """Read what is available now from a non-blocking fd into buf; False once it holds over limit."""
    while len(buf) <= limit:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return True
        buf += chunk
    return False


def run_stdio_tests(code):
    inputs = SPEC["inputs"]
    n = len(inputs)
    per_test, limit = SPEC["test_seconds"], SPEC["value_bytes"]
    results = [None] * n
    t_end = time.monotonic() + SPEC["total_seconds"]
    timeouts, i = 0, 0
    while i < n:
        if timeouts >= SPEC["max_timeouts"] or time.monotonic() >= t_end:
            break
        out_r, out_w = os.pipe()
        st_r, st_w = os.pipe()
        go_r, go_w = os.pipe()
        start = i
        pid = fork(lambda: (os.close(out_r), os.close(st_r), os.close(go_w),
                            stdio_child(code, start, out_w, st_w, go_r)))
        os.close(out_w)
        os.close(st_w)
        os.close(go_r)
        if pid is None:
            os.close(out_r)
            os.close(st_r)
            os.close(go_w)
            results[i] = {"status": "crashed", "detail": "could not start a process"}
            i += 1
            continue
        os.set_blocking(out_r, False)
        status = LineReader(st_r, 4096)
        out = bytearray()
        while i < n:
            deadline = min(time.monotonic() + per_test, t_end)
            outcome = None
            while outcome is None:
                nl = status.buf.find(b"\n")
                if nl >= 0 or status.eof:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    outcome = "timeout"
                    break
                ready, _, _ = select.select([out_r, st_r], [], [], left)
                if out_r in ready and not drain(out_r, out, limit):
                    outcome = "too_large"
                if st_r in ready:
                    chunk = os.read(st_r, 4096)
                    if chunk:
                        status.buf += chunk
                    else:
                        status.eof = True
                if len(status.buf) > 4096:
                    outcome = "crashed"
            if outcome is None and not drain(out_r, out, limit):
                outcome = "too_large"
            if outcome is not None:
                results[i] = {"status": outcome}
                timeouts += outcome == "timeout"
                i += 1
                break
            nl = status.buf.find(b"\n")
            if nl >= 0:  # the program ended normally (or by SystemExit / an exception)
                line, status.buf = status.buf[:nl], status.buf[nl + 1:]
                try:
                    msg = json.loads(line)
                    ok = isinstance(msg, dict) and msg.get("i") == i
                    exit_code = int(msg["exit_code"])
                    exception = msg["exception"]
                    exception = None if exception is None else str(exception)[:100]
                except Exception:
                    ok = False
                if not ok:
                    results[i] = {"status": "crashed", "detail": "protocol error"}
                    i += 1
                    break
                results[i] = {"status": "exited", "stdout": bytes(out).decode("utf-8", "replace"),
                              "exit_code": exit_code, "exception": exception}
                out = bytearray()
                i += 1
                try:
                    os.write(go_w, b"g")
                except OSError:
                    pass
                continue
            # EOF on the status pipe: the process died during test i (os._exit, a signal)
            wait_status = reap(pid, min(time.monotonic() + 0.5, deadline))
            drain(out_r, out, limit)
            if wait_status is not None and os.WIFEXITED(wait_status):
                results[i] = {"status": "exited", "stdout": bytes(out).decode("utf-8", "replace"),
                              "exit_code": os.WEXITSTATUS(wait_status), "exception": None}
            else:
                results[i] = {"status": "crashed", "detail": describe_status(wait_status)}
            i += 1
            break
        kill(pid)
        os.close(out_r)
        os.close(st_r)
        os.close(go_w)
    for j in range(n):
        if results[j] is None:
            results[j] = {"status": "skipped"}
    return {"results": results}


CAUGHT = [s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
                      signal.SIGUSR2, signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF, signal.SIGPIPE,
                      signal.SIGXFSZ, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)]


def main():
    global SPEC
    try:
        for sig in CAUGHT:
            signal.signal(sig, signal.SIG_IGN)
        with open("spec.json") as f:
            SPEC = json.load(f)
        with open("solution.py", "rb") as f:
            source = f.read().decode("utf-8", "replace")
        try:
            code = compile(source, "solution.py", "exec", dont_inherit=True)
        except BaseException as exc:
            report = {"load": ["syntax", name_of(exc) + ": " + str(getattr(exc, "msg", "") or exc)[:150]]}
        else:
            if SPEC["kind"] == "function":
                report = run_function_tests(code)
            else:
                report = run_stdio_tests(code)
    except BaseException as exc:
        import traceback
        report = {"internal": traceback.format_exc()[-600:]}
    token = sys.stdin.readline().strip()
    sys.stdout.write(token + " " + json.dumps(report) + "\n")
    sys.stdout.flush()


main()
'''
