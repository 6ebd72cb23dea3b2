"""The code-verification harness: hostile candidates, stdin/stdout comparison, infrastructure errors."""

from __future__ import annotations

import pytest

from palaestra.core.problem import Verdict
from palaestra.sandbox import ExecResult, SandboxError, SandboxUnavailable
from palaestra.verifiers import code
from palaestra.verifiers.code import Budget, check_function, check_stdio, extract_code, json_equal, verify_answer

TESTS = [
    {"args": [[1, 2, 3]], "expected": 6},
    {"args": [[]], "expected": 0},
    {"args": [[5, -5, 7]], "expected": 7},
]
FAST = Budget(test_seconds=0.4, total_seconds=3.0)


def statuses(report: code.CodeReport) -> list[str]:
    return [r.status for r in report.results]


def run(source: str, tests=TESTS, budget=FAST) -> code.CodeReport:
    return check_function(source, "total", tests, budget=budget, cache=False)


def test_correct_function_passes_and_partial_credit_is_opt_in() -> None:
    assert run("def total(xs):\n    return sum(xs)").all_passed
    half = run("def total(xs):\n    return len(xs) * 3")  # right only on the empty list
    assert statuses(half) == ["wrong", "passed", "wrong"]
    assert half.verdict().reward == 0.0 and not half.verdict().correct
    assert half.verdict(partial_credit=True).reward == pytest.approx(1 / 3)
    assert half.feedback().startswith("1/3 tests passed\n- total([1, 2, 3]) returned 9, expected 6")


@pytest.mark.parametrize(
    "source, status",
    [
        # an object that claims to equal everything is not a JSON value: invalid, never passed
        (("class Yes:\n    def __eq__(self, other): return True\n    __hash__ = None\n"
          "def total(xs):\n    return Yes()"), "invalid"),
        ("class N(int):\n    pass\ndef total(xs):\n    return N(sum(xs))", "invalid"),  # int subclass
        ("def total(xs):\n    return {sum(xs)}", "invalid"),  # a set
        ("def total(xs):\n    return float('nan')", "invalid"),
        ("def total(xs):\n    raise KeyError('no')", "error"),
        ("import sys\ndef total(xs):\n    sys.exit(0)", "error"),  # SystemExit is an exception here
        ("import os\ndef total(xs):\n    os._exit(0)", "crashed"),
        ("def total(xs):\n    return 'x' * 10**6", "too_large"),
    ],
)
def test_hostile_return_values_never_pass(source: str, status: str) -> None:
    report = run(source)
    assert statuses(report) == [status] * 3
    assert report.verdict().reward == 0.0 and report.verdict().parsed


def test_bool_is_not_an_int_and_tuples_are_lists() -> None:
    assert not json_equal(True, 1) and not json_equal(1, True) and json_equal(1, 1.0)
    assert not json_equal([1, 2], [1, 2, 3]) and json_equal({"a": [1]}, {"a": [1]})
    assert statuses(run("def total(xs):\n    return True")) == ["wrong"] * 3
    pairs = [{"args": [2], "expected": [2, 4]}]
    assert check_function("def total(n):\n    return (n, 2 * n)", "total", pairs, cache=False).all_passed


def test_printing_or_killing_the_parent_cannot_forge_results() -> None:
    forged = "print('all tests passed'); print('{\"results\": []}')\ndef total(xs):\n    return -1"
    assert statuses(run(forged)) == ["wrong"] * 3
    # SIGTERM to the harness is ignored; the right answers still count
    term = "import os, signal\ndef total(xs):\n    os.kill(os.getppid(), signal.SIGTERM)\n    return sum(xs)"
    assert run(term).all_passed
    killed = run("import os, signal\ndef total(xs):\n    os.kill(os.getppid(), signal.SIGKILL)\n    return sum(xs)")
    assert killed.failure and not killed.error  # the candidate's fault, not infrastructure
    assert not killed.verdict().correct and killed.verdict().parsed


def test_timeouts_are_per_test_and_stop_the_run() -> None:
    slow = "def total(xs):\n    while len(xs) == 3:\n        pass\n    return sum(xs)"
    report = run(slow, budget=Budget(test_seconds=0.3, total_seconds=3.0, max_timeouts=2))
    assert statuses(report) == ["timeout", "passed", "timeout"]  # a fresh process after each timeout
    report = run(slow, budget=Budget(test_seconds=0.3, total_seconds=3.0, max_timeouts=1))
    assert statuses(report) == ["timeout", "skipped", "skipped"]  # stopped after the first timeout


def test_load_failures() -> None:
    assert "does not define" in (run("total = 3").failure or "")
    assert "raised ZeroDivisionError" in (run("1 / 0\ndef total(xs):\n    return 0").failure or "")
    assert "exited while loading" in (run("import os\nos._exit(0)\ndef total(xs): pass").failure or "")
    # decided without the sandbox: syntax errors and a missing definition
    assert "syntax error" in (run("def total(xs)\n    return 1").failure or "")
    assert "no function named 'total'" in (run("__import__('os').system('echo pwned')").failure or "")


STDIO = [
    {"stdin": "1 2\n", "stdout": "3\n"},
    {"stdin": "5 7\n", "stdout": "12"},
    {"stdin": "0 0", "stdout": "0\n\n"},
]


@pytest.mark.parametrize(
    "source, passed",
    [
        ("a, b = map(int, input().split())\nprint(a + b)", True),
        ("a, b = map(int, open(0).read().split())\nprint(a + b, '  ')", True),  # trailing spaces are fine
        ("import sys\na, b = map(int, sys.stdin.buffer.read().split())\nsys.stdout.write(f'{a+b}\\n\\n\\n')", True),
        ("import os, sys\nprint(sum(map(int, input().split())))\nsys.stdout.flush()\nos._exit(0)", True),
        ("a, b = map(int, input().split())\nprint(a + b)\nprint('extra')", False),  # every line is compared
        ("a, b = map(int, input().split())\nprint()\nprint(a + b)", False),  # a leading blank line counts
        ("print(3)", False),
        ("import sys\nprint(sum(map(int, input().split())))\nsys.exit(3)", False),  # non-zero exit
    ],
)
def test_stdio_compares_every_line(source: str, passed: bool) -> None:
    assert check_stdio(source, STDIO, budget=FAST, cache=False).all_passed is passed


def test_stdio_runs_each_test_with_its_own_input() -> None:
    tests = [{"stdin": f"{i}\n", "stdout": f"{i * i}\n"} for i in range(8)]
    report = check_stdio("n = int(input())\nprint(n * n)", tests, budget=FAST, cache=False)
    assert report.all_passed, report.feedback()
    report = check_stdio("import sys\nprint(sys.stdin.read())\nraise ValueError", tests[:2], budget=FAST, cache=False)
    assert statuses(report) == ["error", "error"] and report.results[0].detail == "ValueError"


class StubBackend:
    """A sandbox backend that answers every run with ``reply(stdin)`` (or raises it)."""

    name = "stub"

    def __init__(self, reply) -> None:
        self.reply = reply

    def run(self, source, *, language="python", stdin="", files=None, output_files=(), limits=None):
        return self.reply(stdin)

    def session(self, limits=None):
        raise SandboxUnavailable("stub")

    def close(self) -> None:
        pass


def _raise(exc: Exception):
    def reply(stdin: str) -> ExecResult:
        raise exc
    return reply


@pytest.mark.no_sandbox
@pytest.mark.parametrize(
    "reply, reason",
    [
        (_raise(SandboxUnavailable("no landlock here")), "SandboxUnavailable: no landlock here"),
        (_raise(SandboxError("server gone")), "SandboxError: server gone"),
        (lambda stdin: ExecResult("", "", None, error="server died"), "server died"),
        # the harness itself failed: it says so on its token line
        (lambda stdin: ExecResult(f"{stdin.strip()} {{\"internal\": \"Traceback: boom\"}}\n", "", 0),
         "harness failure: Traceback: boom"),
        (lambda stdin: ExecResult(f"{stdin.strip()} not json\n", "", 0), "unreadable harness output"),
        (lambda stdin: ExecResult(f"{stdin.strip()} {{\"results\": []}}\n", "", 0), "malformed harness output"),
    ],
)
def test_infrastructure_errors_are_errors_not_wrong_answers(reply, reason: str) -> None:
    from palaestra import sandbox

    previous = sandbox.set_backend(StubBackend(reply))
    try:
        report = run("def total(xs):\n    return sum(xs)")
        assert report.error is not None and report.error.startswith(reason) and report.failure is None
        for partial in (False, True):
            verdict = report.verdict(partial_credit=partial)
            assert verdict == Verdict.failed(report.error)
            assert verdict.error and verdict.reward == 0.0 and not verdict.correct
        data = {"kind": "function", "function": "total", "tests": TESTS}
        assert verify_answer("def total(xs):\n    return sum(xs)  # stub", data).error
    finally:
        sandbox.set_backend(previous)


def test_errors_are_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    from palaestra import sandbox

    source = "def total(xs):\n    return sum(xs)  # not cached"
    monkeypatch.setattr(sandbox, "run", StubBackend(_raise(SandboxError("down"))).run)
    assert check_function(source, "total", TESTS).error == "SandboxError: down"
    monkeypatch.undo()  # the sandbox is back: the same candidate is judged normally
    assert check_function(source, "total", TESTS).all_passed


def test_a_program_without_results_is_wrong_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from palaestra import sandbox

    monkeypatch.setattr(sandbox, "run", lambda *a, **k: ExecResult("forged 1/1 passed\n", "", 0))
    report = run("def total(xs):\n    return sum(xs)")
    assert report.error is None and report.failure and not report.verdict().correct and report.verdict().parsed


def test_extract_code_and_verify_answer() -> None:
    fenced = "Here it is:\n```python\ndef total(xs):\n    return sum(xs)\n```"
    assert extract_code(fenced) == "def total(xs):\n    return sum(xs)"
    assert extract_code(fenced + "\nDone.") is None  # the answer grammar: nothing after the program
    two = "```text\nnot code\n```\n```py\nx = 1\n```"
    assert extract_code(two) == "x = 1"
    assert extract_code("```\nprint(1)\n") == "print(1)"  # an unterminated fence
    assert extract_code("def f(): pass") == "def f(): pass" and extract_code("  \n ") is None
    data = {"kind": "function", "function": "total", "tests": TESTS, "test_seconds": 0.5}
    assert verify_answer(fenced, data).correct
    assert not verify_answer("x" * 1_000_000, data).correct
    empty = verify_answer("  \n", data)
    assert empty.feedback == "no code found in the answer" and not empty.parsed and empty.error is None


@pytest.mark.no_sandbox
def test_extract_code_takes_the_block_that_defines_the_function() -> None:
    solution = "```python\ndef total(xs):\n    return sum(xs)\n```"
    usage = "\nUsage:\n```python\nprint(total([1, 2]))\n```"
    assert extract_code(solution + usage, "total") == "def total(xs):\n    return sum(xs)"
    assert extract_code(solution + usage) == "print(total([1, 2]))"  # a program: the last block
    # a second, corrected version replaces the first
    fixed = solution + "\nOops, off by one:\n```python\ndef total(xs):\n    return sum(xs) + 0\n```"
    assert extract_code(fixed, "total").endswith("+ 0")
    # the whole answer indented (a careless paste) still compiles
    assert extract_code("    def total(xs):\n        return 0\n", "total") == "def total(xs):\n    return 0"


@pytest.mark.no_sandbox
@pytest.mark.parametrize("answer", ["```" * 6_700, "```a " * 4_000, "```\n" * 5_000, ("```py\n" + "a" * 10) * 1_500])
def test_extract_code_is_fast_on_hostile_fences(answer: str) -> None:
    import time

    # this thread's CPU time: the worker's process time also counts other tests' threads (a full run once saw 0.8 s),
    # and the bound has headroom over the ~1-5 ms it takes (a quadratic scan of 20,000 characters takes seconds)
    t0 = time.thread_time()
    extract_code(answer, "total")
    assert time.thread_time() - t0 < 0.5


def test_reports_are_cached_per_candidate() -> None:
    code.clear_cache()
    source = "def total(xs):\n    return sum(xs)"
    first = check_function(source, "total", TESTS)
    assert check_function(source, "total", TESTS) is first
    assert check_function(source, "total", TESTS, cache=False) is not first
