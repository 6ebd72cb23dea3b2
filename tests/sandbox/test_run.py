"""Ordinary programs: what ``run`` returns, and the environment a program sees."""

from __future__ import annotations

import signal
from concurrent.futures import ThreadPoolExecutor

import pytest

from palaestra import sandbox
from palaestra.sandbox import ExecResult, Limits, LocalBackend, ProbeReport, SandboxUnavailable
from palaestra.sandbox.local.tiers import at_least


def test_stdout_stdin_and_exit_code(backend: LocalBackend) -> None:
    r = backend.run("print(input()[::-1])\nimport sys\nprint('é', file=sys.stderr)", stdin="abc")
    assert (r.stdout, r.stderr, r.exit_code, r.signal, r.error) == ("cba\n", "é\n", 0, None, None)
    assert r.ok and not (r.timed_out or r.memory_exceeded or r.output_truncated)
    assert 0 < r.wall_seconds < 10 and 0 <= r.cpu_seconds < 10


def test_binary_stdin_and_large_io(backend: LocalBackend) -> None:
    data = bytes(range(256)) * 4000  # 1 MB, more than a pipe buffer
    r = backend.run("import sys\nd = sys.stdin.buffer.read()\nprint(len(d), d[:3])", stdin=data)
    assert r.stdout == "1024000 b'\\x00\\x01\\x02'\n"
    r = backend.run("print('x' * 500_000)")
    assert len(r.stdout) == 500_001 and r.ok


@pytest.mark.parametrize(
    ("source", "exit_code", "sig"),
    [
        ("import sys; sys.exit(3)", 3, None),
        ("import sys; sys.exit('bye')", 1, None),
        ("raise SystemExit", 0, None),
        ("import os; os._exit(7)", 7, None),
        ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", None, signal.SIGTERM),
        ("import os; os.abort()", None, signal.SIGABRT),
    ],
)
def test_exit_status(backend: LocalBackend, source: str, exit_code: int | None, sig: int | None) -> None:
    r = backend.run(source)
    assert (r.exit_code, r.signal, r.error) == (exit_code, sig, None)


def test_an_exception_is_the_programs_failure_not_the_sandboxs(backend: LocalBackend) -> None:
    r = backend.run("def f():\n    return 1 / 0\nf()")
    assert r.exit_code == 1 and r.error is None and not r.ok
    assert 'File "main.py", line 2, in f' in r.stderr and "return 1 / 0" in r.stderr
    assert r.stderr.rstrip().endswith("ZeroDivisionError: division by zero")


def test_syntax_error(backend: LocalBackend) -> None:
    r = backend.run("def (:")
    assert r.exit_code == 1 and "SyntaxError" in r.stderr and r.error is None


def test_input_and_output_files(backend: LocalBackend) -> None:
    files = {"data/in.txt": "hello", "solution.py": "def answer():\n    return 42\n", "raw.bin": b"\x00\xff"}
    src = """
import json, solution
text = open("data/in.txt").read()
json.dump({"text": text, "answer": solution.answer(), "raw": list(open("raw.bin", "rb").read())}, open("out.json", "w"))
"""
    r = backend.run(src, files=files, output_files=["out.json", "missing.txt", "data/in.txt"])
    assert r.ok, r
    assert r.files["out.json"] == b'{"text": "hello", "answer": 42, "raw": [0, 255]}'
    assert r.files["data/in.txt"] == b"hello" and "missing.txt" not in r.files


def test_unittest_against_a_solution_file(backend: LocalBackend) -> None:
    tests = """
import unittest
from solution import add

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 2), 4)
    def test_neg(self):
        self.assertEqual(add(-1, 1), 0)
"""
    src = (
        "import unittest, sys\nr = unittest.main(module='test_sol', exit=False).result\nsys.exit(not r.wasSuccessful())"
    )
    good = backend.run(src, files={"solution.py": "def add(a, b): return a + b", "test_sol.py": tests})
    assert good.ok and "Ran 2 tests" in good.stderr
    bad = backend.run(src, files={"solution.py": "def add(a, b): return a - b", "test_sol.py": tests})
    assert bad.exit_code == 1 and "FAILED (failures=2)" in bad.stderr


def test_environment_and_working_directory(backend: LocalBackend) -> None:
    src = """
import os, sys, tempfile
print(sorted(os.environ.items()) == [("HOME", os.getcwd()), ("TMPDIR", os.getcwd())])
print(os.listdir("."), sys.argv, __name__, os.path.basename(__file__))
with tempfile.NamedTemporaryFile() as f:
    print(os.path.dirname(f.name) == os.getcwd())
print(sys.path[0] == os.getcwd())
"""
    r = backend.run(src)
    assert r.stdout.splitlines() == ["True", "['main.py'] ['main.py'] __main__ main.py", "True", "True"], r


def test_standard_library_is_importable(backend: LocalBackend) -> None:
    src = """
import asyncio, csv, decimal, hashlib, sqlite3, zlib, encodings.idna, xml.etree.ElementTree, urllib.parse
print(hashlib.sha256(b"").hexdigest()[:8], sqlite3.connect(":memory:").execute("select 1+1").fetchone())
print(asyncio.run(asyncio.sleep(0, "async")))
"""
    r = backend.run(src)
    assert r.stdout == "e3b0c442 (2,)\nasync\n", r


def test_threads_and_processes_work(backend: LocalBackend) -> None:
    src = """
import multiprocessing as mp
from concurrent.futures import ThreadPoolExecutor

def child(conn):
    conn.send(sum(range(10)))

if __name__ == "__main__":
    with ThreadPoolExecutor(4) as pool:
        print(sum(pool.map(abs, [-1, -2, -3])))
    parent, kid = mp.Pipe()
    p = mp.Process(target=child, args=(kid,))
    p.start()
    print(parent.recv())
    p.join()
"""
    r = backend.run(src)
    assert r.stdout == "6\n45\n", r


def test_each_run_is_fresh(backend: LocalBackend) -> None:
    src = "import random, os\nprint(random.random(), os.urandom(8).hex())\nopen('state.txt', 'a').write('x')\nprint(len(open('state.txt').read()))"
    a, b = backend.run(src), backend.run(src)
    assert a.ok and b.ok
    assert a.stdout.splitlines()[0] != b.stdout.splitlines()[0]  # reseeded after fork
    assert a.stdout.splitlines()[1] == b.stdout.splitlines()[1] == "1"  # a new scratch dir each time


def test_concurrent_callers(backend: LocalBackend) -> None:
    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda i: backend.run(f"print({i} * {i})"), range(64)))
    assert [r.stdout for r in results] == [f"{i * i}\n" for i in range(64)]


def test_cpu_time_is_measured(backend: LocalBackend) -> None:
    r = backend.run("import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass")
    assert r.ok and 0.28 <= r.cpu_seconds < 0.6 and r.wall_seconds >= 0.28


def test_module_level_run_uses_the_default_backend(report: ProbeReport) -> None:
    if not at_least(report.tier, "standard"):  # the default minimum: fail closed
        with pytest.raises(SandboxUnavailable, match="below the minimum 'standard'"):
            sandbox.run("print(6 * 7)")
        return
    r = sandbox.run("print(6 * 7)")
    assert isinstance(r, ExecResult) and r.stdout == "42\n"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"language": "cobol"}, "unknown sandbox language 'cobol'"),
        ({"language": "c", "files": {"main.c": ""}}, "'main.c'"),
        ({"language": "c", "files": {"main": ""}}, "'main'"),
        ({"files": {"../escape.py": ""}}, "inside the scratch dir"),
        ({"files": {"/etc/x": ""}}, "relative path"),
        ({"files": {"main.py": ""}}, "main.py"),
        ({"output_files": ["a/../../b"]}, "inside the scratch dir"),
        ({"limits": Limits(wall_seconds=0)}, "wall_seconds must be positive"),
    ],
)
def test_invalid_requests_are_rejected(backend: LocalBackend, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        backend.run("pass", **kwargs)
