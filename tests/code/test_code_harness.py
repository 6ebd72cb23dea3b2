"""The code-test harness module outside the sandbox: its pure helpers, the source text the
verifier ships, and the whole program run as a plain subprocess on our own (benign) candidates,
so the protocol and its security properties are tested even where the sandbox is unavailable."""

from __future__ import annotations

import ast
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from palaestra.verifiers import code, code_harness
from palaestra.verifiers.code_harness import Invalid, LineReader, plain, read_message, shallow

pytestmark = pytest.mark.no_sandbox


def test_the_verifier_ships_this_module_as_a_standalone_program() -> None:
    text = code.harness_source()
    assert text == Path(code_harness.__file__).read_text(encoding="utf-8")
    tree = ast.parse(text)
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert "palaestra" not in imported and imported <= set(sys.stdlib_module_names) | {"__future__"}
    last = tree.body[-1]
    assert isinstance(last, ast.If) and "__main__" in ast.unparse(last.test)  # runs only as main.py


@pytest.mark.parametrize("value", [None, True, 0, -3, 2.5, "x", [], [1, [2, {"a": None}]], {"k": [True, "v"]}])
def test_plain_keeps_json_values(value) -> None:
    assert plain(value) == value and json.loads(json.dumps(plain(value))) == value


def test_plain_turns_tuples_into_lists() -> None:
    assert plain((1, (2, 3))) == [1, [2, 3]]


class Yes:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class MyInt(int):
    pass


@pytest.mark.parametrize(
    "value, why",
    [
        (Yes(), "type Yes"),
        (MyInt(3), "type MyInt"),
        ({1, 2}, "type set"),
        (float("nan"), "non-finite float"),
        (float("inf"), "non-finite float"),
        (10 ** 2000, "integer too large"),
        ({1: "a"}, "dict key of type int"),
        ([Yes()], "type Yes"),
        (b"bytes", "type bytes"),
    ],
)
def test_plain_rejects_everything_else(value, why: str) -> None:
    with pytest.raises(Invalid, match=why):
        plain(value)


def test_plain_bounds_size_and_depth() -> None:
    deep: list = []
    for _ in range(code_harness.PLAIN_DEPTH + 5):
        deep = [deep]
    with pytest.raises(Invalid, match="deeply nested"):
        plain(deep)
    with pytest.raises(Invalid, match="too large"):
        plain([0] * (code_harness.PLAIN_NODES + 1))


def test_messages_from_children_are_parsed_defensively() -> None:
    assert read_message(b'{"i": 0, "status": "value", "value": [1]}') == {"i": 0, "status": "value", "value": [1]}
    assert read_message(b"not json") is None and read_message(b"\xff\xfe") is None
    too_deep = b"[" * 200 + b"]" * 200
    assert read_message(too_deep) is None and not shallow(json.loads(too_deep))
    assert shallow([[1], {"a": [2]}])


def test_line_reader_lines_timeouts_caps_and_eof() -> None:
    r, w = os.pipe()
    try:
        reader = LineReader(r, limit=16)
        os.write(w, b"one\ntw")
        assert reader.line(time.monotonic() + 1) == ("line", b"one")
        t0 = time.monotonic()
        assert reader.line(time.monotonic() + 0.05) == ("timeout", b"")  # "tw" has no newline yet
        assert time.monotonic() - t0 < 20  # returned at the deadline (the line never comes)
        os.write(w, b"o\n" + b"x" * 40)
        assert reader.line(time.monotonic() + 1) == ("line", b"two")
        assert reader.line(time.monotonic() + 1) == ("too_large", b"")
    finally:
        os.close(w)
    reader = LineReader(r, limit=1 << 20)
    reader.buf = b""
    assert reader.line(time.monotonic() + 1) == ("eof", b"")
    os.close(r)


# --- the whole program, as a subprocess (our own candidates only; model text runs only in the sandbox) ---

def run_harness(tmp_path: Path, solution: str, kind: str, inputs: list[str], function: str | None = "f",
                token: str | None = None, **budget: float) -> tuple[str, dict, str]:
    """Run the harness the way the sandbox does (main.py next to solution.py and spec.json, the
    token on stdin); returns (the token, the parsed report, the whole stdout)."""
    spec = {"kind": kind, "function": function, "inputs": inputs, "test_seconds": 2.0, "total_seconds": 10.0,
            "max_timeouts": 1, "value_bytes": 65536, **budget}
    (tmp_path / "main.py").write_text(code.harness_source())
    (tmp_path / "solution.py").write_text(solution)
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    token = token or secrets.token_hex(16)
    done = subprocess.run([sys.executable, "-I", "main.py"], cwd=tmp_path, input=token + "\n", capture_output=True,
                          text=True, timeout=60)
    lines = [line for line in done.stdout.splitlines() if line.startswith(token + " ")]
    assert len(lines) == 1, done.stdout + done.stderr
    return token, json.loads(lines[0][len(token) + 1:]), done.stdout


def test_function_tests_report_values_and_statuses(tmp_path: Path) -> None:
    solution = (
        "def f(x):\n"
        "    if x == 1:\n        raise KeyError(x)\n"
        "    if x == 2:\n        return {1, 2}\n"
        "    return (x, str(x))\n"
    )
    _, report, _ = run_harness(tmp_path, solution, "function", ["[0]", "[1]", "[2]", "[3]"])
    assert report == {"results": [
        {"status": "value", "value": [0, "0"]},
        {"status": "error", "detail": "KeyError"},
        {"status": "invalid", "detail": "type set"},
        {"status": "value", "value": [3, "3"]},
    ]}


def test_candidates_cannot_read_the_token_or_write_the_runs_stdout(tmp_path: Path) -> None:
    solution = (
        "import os, sys\n"
        "print('FORGED at load')\n"
        "def f(x):\n"
        "    os.write(1, b'FORGED by fd\\n')\n"
        "    sys.__stdout__.write('FORGED by sys\\n')\n"
        "    return [sys.stdin.read(), os.read(0, 100).decode()]\n"
    )
    token, report, stdout = run_harness(tmp_path, solution, "function", ["[0]"])
    assert report == {"results": [{"status": "value", "value": ["", ""]}]}  # stdin was /dev/null: no token
    assert "FORGED" not in stdout and stdout.count(token) == 1


def test_stdio_tests_get_their_own_input_and_output(tmp_path: Path) -> None:
    solution = ("import sys\nn = int(input())\nprint(n * n)\nif n == 2:\n    sys.exit(3)\n"
                "if n == 3:\n    raise ValueError\n")
    _, report, _ = run_harness(tmp_path, solution, "stdio", ["1\n", "2\n", "3\n", "4\n"], function=None)
    assert report == {"results": [
        {"status": "exited", "stdout": "1\n", "exit_code": 0, "exception": None},
        {"status": "exited", "stdout": "4\n", "exit_code": 3, "exception": None},
        {"status": "exited", "stdout": "9\n", "exit_code": 1, "exception": "ValueError"},
        {"status": "exited", "stdout": "16\n", "exit_code": 0, "exception": None},
    ]}


def test_timeouts_and_crashes_restart_the_child(tmp_path: Path) -> None:
    solution = ("import os\ndef f(x):\n    if x == 0:\n        os._exit(7)\n    while x == 1:\n        pass\n"
                "    return x\n")
    _, report, _ = run_harness(tmp_path, solution, "function", ["[0]", "[2]", "[1]", "[3]"], test_seconds=0.3)
    assert [entry["status"] for entry in report["results"]] == ["crashed", "value", "timeout", "skipped"]
    assert report["results"][0]["detail"] == "exit code 7"


def test_load_failures_and_internal_errors(tmp_path: Path) -> None:
    _, report, _ = run_harness(tmp_path, "def f(:\n", "function", ["[0]"])
    assert report["load"][0] == "syntax"
    _, report, _ = run_harness(tmp_path, "g = 1\n", "function", ["[0]"])
    assert report == {"load": ["missing", "a function named f"]}
    _, report, _ = run_harness(tmp_path, "1 / 0\ndef f(x):\n    return x\n", "function", ["[0]"])
    assert report == {"load": ["exception", "ZeroDivisionError"]}
    _, report, _ = run_harness(tmp_path, "def f(x):\n    return x\n", "no such kind", ["[0]"], function=None,
                               test_seconds="not a number")  # a broken spec: the harness's own failure
    assert "Traceback" in report["internal"]
