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
- the harness (our code, the module :mod:`palaestra.verifiers.code_harness`, whose source text
  :func:`harness_source` sends to the sandbox as ``main.py``) never runs candidate code itself:
  it forks a child that runs the tests one after another (a fresh one after a crash or timeout).
  Before any candidate code runs, the child's fds 0, 1 and 2 are replaced (function tests:
  all ``/dev/null``, results go back through a separate pipe; stdin/stdout tests: the test's
  input, a pipe to the harness, ``/dev/null``), so the candidate can never write to the run's
  real stdout nor read the token on its stdin; the harness ignores catchable signals and
  enforces a wall-clock timeout per test (SIGKILL of the child's process group);
- the child reports each return value as JSON after checking that it is a plain JSON value
  (``None``, ``bool``, ``int``, finite ``float``, ``str``, ``list``/``tuple``, ``dict`` with
  ``str`` keys, each of exactly that type: a subclass, a set, a NumPy value is *invalid*);
- the harness prints one result line prefixed by a random per-run token that it reads from
  its stdin only after every child has finished (no child ever held it);
- the **trusted parent** (this process) parses that line with :func:`json.loads`, which can only
  build plain values, and compares them with the expected ones using :func:`json_equal`
  (``==`` on parsed JSON, with ``bool`` never equal to a number). A value that did not come
  through that path (no result line, a killed harness) is a failed test, never a pass.

Infrastructure failures (the sandbox is unavailable or refuses, ``ExecResult.error`` is set, the
harness itself failed or its output is unreadable) are reported as errors: ``CodeReport.error``
and a verdict ``Verdict.failed(reason)`` (``Verdict.error`` set: not judged), never as a wrong
answer, and never cached.

Problem data layout
-------------------
Code environments keep their tests in ``Problem.data``::

    {"kind": "function", "function": "solve", "tests": [{"args": [...], "expected": ...}, ...],
     "test_seconds": 1.0}
    {"kind": "stdio", "tests": [{"stdin": "...", "stdout": "..."}, ...], "test_seconds": 0.5}

and :func:`verify_answer` judges the extracted answer against them (see :func:`extract_code`:
the last fenced ````` ```python ````` block that defines the function, or raw code).
"""

from __future__ import annotations

import ast
import functools
import json
import math
import secrets
import textwrap
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from palaestra.core.problem import Verdict
from palaestra.verifiers.fences import after_last_block, fenced_blocks
from palaestra.verifiers.normalize import is_closing
from palaestra.verifiers.verdict_cache import ReportCache, key_of, program_key

MAX_CODE_CHARS = 20_000  # longer answers are refused before anything runs
DEFAULT_TEST_SECONDS = 1.0  # wall-clock limit per test
DEFAULT_TOTAL_SECONDS = 4.0  # wall-clock budget of all tests of one candidate
DEFAULT_MAX_TIMEOUTS = 1  # after this many timed-out tests the rest are not run
VALUE_BYTES = 64 * 1024  # largest serialized return value / program output of one test
MEMORY_BYTES = 256 * 2**20
CACHE_SIZE = 4096
_INFRA = "infrastructure error"


# --- reading the answer ---------------------------------------------------------------------

def extract_code(answer: str, function: str | None = None) -> str | None:
    """The program in an answer; ``None`` when empty.

    The last fenced ``python`` block (or unlabelled one; the last fenced block of any language
    when none is; fences as :mod:`palaestra.verifiers.fences` reads them, backticks or tildes), else the whole text. With ``function``, the last such block that defines it
    (so a usage example after the solution does not replace it). Common indentation is removed.
    Reading is linear in the answer's length (no regular expression over it). Text after the last
    fence other than closing punctuation (a remark, a retraction) leaves the answer unread, by the
    answer grammar of :mod:`palaestra.verifiers.normalize`; prose before the first fence is a lead-in.
    """
    if not isinstance(answer, str):
        return None
    blocks = fenced_blocks(answer)
    if blocks and not is_closing(after_last_block(answer)):
        return None
    if blocks:
        python = [code for lang, code in blocks if lang in ("python", "py", "python3", "")]
        candidates = python or [code for _, code in blocks]
        if function is not None:
            defining = [code for code in candidates if _defines(code, function)]
            candidates = defining or candidates
        code = candidates[-1]
    else:
        code = answer
    code = textwrap.dedent(code.strip("\n"))
    return code if code.strip() else None


def _defines(code: str, function: str) -> bool:
    """Whether ``code`` parses and binds ``function`` (parsing never runs code)."""
    if len(code) > MAX_CODE_CHARS:
        return False
    try:
        return _binds(ast.parse(textwrap.dedent(code)), function)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False


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
    function, its module raised or timed out on import); then no test passed. ``parsed`` is
    False when the answer held no program at all.
    """

    kind: str
    results: tuple[TestResult, ...] = ()
    total: int = 0
    error: str | None = None
    failure: str | None = None
    seconds: float = 0.0
    tests: tuple[Mapping[str, Any], ...] = field(default=(), repr=False, compare=False)
    function: str | None = None
    parsed: bool = True

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
            return Verdict.failed(self.error)
        if self.failure is not None:
            return Verdict.wrong(self.failure) if self.parsed else Verdict.unparsed(self.failure)
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


_cache: ReportCache[CodeReport] = ReportCache(CACHE_SIZE)  # see palaestra.verifiers.verdict_cache


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
    base: dict[str, Any] = {"kind": kind, "total": len(tests), "tests": tests, "function": function}
    problem = precheck(code, function)
    if problem is not None:
        return CodeReport(**base, failure=problem, seconds=time.perf_counter() - t0)

    def judge() -> CodeReport:
        raw = _run_harness(kind, code, tests, function, budget)
        return _judge(raw, base, tests, float_tolerance, time.perf_counter() - t0)

    if not use_cache:
        return judge()
    program, text = program_key("python", code)
    key = key_of(kind, program, function, list(tests), float_tolerance, budget.__dict__)
    return _cache.judged(key, judge, keep=lambda report: report.error is None, text=text,
                         transferable=lambda report: report.all_passed)


def clear_cache() -> None:
    """Forget cached reports (a report is cached per problem, candidate text, tests and budget)."""
    _cache.clear()


@functools.lru_cache(maxsize=1)
def harness_source() -> str:
    """The source text of :mod:`palaestra.verifiers.code_harness`: what the sandbox runs as ``main.py``."""
    return resources.files("palaestra.verifiers").joinpath("code_harness.py").read_text(encoding="utf-8")


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
            harness_source(),
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
    code = extract_code(answer, function if kind == "function" else None)
    if code is None:
        failure = "no code found in the answer"
        if fenced_blocks(answer) and not is_closing(after_last_block(answer)):
            failure = "text after the code block: the answer must hold only the program (remarks go outside it)"
        return CodeReport(kind, total=len(tests), failure=failure, parsed=False)
    budget = Budget(
        test_seconds=float(data.get("test_seconds", DEFAULT_TEST_SECONDS)),
        total_seconds=float(data.get("total_seconds", DEFAULT_TOTAL_SECONDS)),
        max_timeouts=int(data.get("max_timeouts", DEFAULT_MAX_TIMEOUTS)),
    )
    if kind == "function":
        return check_function(code, str(function), tests, budget=budget, float_tolerance=data.get("float_tolerance"))
    if kind == "stdio":
        return check_stdio(code, tests, budget=budget)
    raise ValueError(f"unknown test kind {kind!r}")
