r"""Programs in any sandbox language against hidden tests: read the answer, run it once, judge in the parent.

The answer convention
---------------------
A program answer is a fenced code block whose info string names its language::

    ```cpp
    #include <cstdio>
    int main() { ... }
    ```

Labels (case-insensitive): ``python``/``py``/``python3``, ``c``, ``cpp``/``c++``/``cxx``/``cc``,
``javascript``/``js``/``node``/``nodejs``, ``verilog``/``v``/``systemverilog``/``sv``,
``sql``/``sqlite``, ``bash``/``sh``/``shell``, ``lua``, ``go``/``golang``, ``prolog``/``swipl``.
:func:`read_program` takes the **last** block labelled with a language the
problem allows (text around the blocks, a sentence before or after, is ignored). Where a
problem allows exactly one language, an unlabelled block, or bare code without any fence, is
read as that language (Bash and Prolog need the fence: :data:`FENCE_REQUIRED`); where it allows several, the label is required (an unlabelled program
is refused, unparsed, naming the labels). A block labelled with a language the problem does
not allow is refused too.

How a run is judged
-------------------
One sandbox job per candidate, with all its tests in it:

- **stdin/stdout** (:func:`check_program`): the candidate is the whole program; the input holds
  every test (a count ``T`` and ``T`` cases, as the problem states), and the program prints one
  line per test;
- **with a driver** (:func:`check_program` with ``driver=``): our trusted driver is the program's
  main file (``main.c``, ``main.cpp``, ``main.js``, or a Verilog testbench) and the candidate is a
  file next to it (``solution.c``, ``solution.hpp``, ``solution.js``, ``solution.v``); the driver
  reads the test inputs from stdin and prints one line per test;
- **SQL** (:func:`check_query`): the candidate is one ``SELECT`` statement run on several hidden
  databases in the same job, each rebuilt before the query and made read-only while it runs.

Expected outputs never enter the sandbox: the job gets only the candidate, our driver and the
test *inputs*; the trusted parent compares what came back with expected values computed by
in-process Python references. A candidate can print anything, but printing the expected lines
means computing them. Lines are compared exactly up to trailing whitespace per line and
trailing blank lines (``\r\n`` is ``\n``).

Verdicts: every test passed is right; a compile error, a crash, a time or memory limit, a
wrong or missing line is wrong (reward the fraction of tests passed with ``partial_credit``);
a sandbox failure (unavailable toolchain, the sandbox's own error) is ``Verdict.failed`` and
never a wrong answer.

Example::

    >>> from palaestra.verifiers.polyglot import read_program, check_program, Budget
    >>> program = read_program("```c\n#include <stdio.h>\nint main(void){int t,x;scanf(\"%d\",&t);"
    ...                        "while(t--){scanf(\"%d\",&x);printf(\"%d\\n\",2*x);}}\n```", ("c", "python"))
    >>> program.language
    'c'
    >>> check_program(program, "2\n3\n5\n", ["6", "10"]).all_passed     # doctest: +SKIP
    True
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.core.problem import Verdict
from palaestra.verifiers.fences import after_last_block, fenced_blocks
from palaestra.verifiers.normalize import is_closing
from palaestra.verifiers.verdict_cache import ReportCache, key_of, program_key

MAX_CODE_CHARS = 20_000  # longer programs are refused before anything runs
CACHE_SIZE = 4096
DIAGNOSTIC_CHARS = 600  # of compiler output shown in feedback
SHOWN_CHARS = 160  # of a wrong line shown in feedback

LANGUAGE_NAMES = {"python": "Python", "c": "C", "cpp": "C++", "javascript": "JavaScript",
                  "verilog": "Verilog", "sql": "SQL", "bash": "Bash", "lua": "Lua", "go": "Go",
                  "prolog": "Prolog"}  # fmt: skip
FENCE_LABELS = {
    "python": "python", "py": "python", "python3": "python",
    "c": "c",
    "cpp": "cpp", "c++": "cpp", "cxx": "cpp", "cc": "cpp",
    "javascript": "javascript", "js": "javascript", "node": "javascript", "nodejs": "javascript",
    "verilog": "verilog", "v": "verilog", "systemverilog": "verilog", "sv": "verilog",
    "sql": "sql", "sqlite": "sql",
    "bash": "bash", "sh": "bash", "shell": "bash",
    "lua": "lua",
    "go": "go", "golang": "go",
    "prolog": "prolog", "swipl": "prolog",
}  # fmt: skip
# Languages whose interpreter runs a program past a line it cannot parse (a shell runs the next command; Prolog
# skips the clause): a retraction written after bare code ("Just kidding...") would not fail the program, so
# their code must be in a fenced block, and text after the block is then refused like any other.
FENCE_REQUIRED = frozenset({"bash", "prolog"})
CANDIDATE_FILES = {"c": "solution.c", "cpp": "solution.hpp", "javascript": "solution.js", "verilog": "solution.v",
                   "bash": "solution.sh", "lua": "solution.lua", "go": "solution.go", "prolog": "solution.pl"}


# --- reading the answer -----------------------------------------------------------------------

@dataclass(frozen=True)
class Program:
    """A candidate program: its canonical language (a key of :data:`LANGUAGE_NAMES`) and code."""

    language: str
    code: str


def labels_text(allowed: Sequence[str]) -> str:
    """How the prompt names the accepted labels: ```` ```python ````, ```` ```c ```` or ..."""
    marks = [f"```{lang}" for lang in allowed]
    return marks[0] if len(marks) == 1 else ", ".join(marks[:-1]) + " or " + marks[-1]


def read_program(answer: str, allowed: Sequence[str]) -> Program | str:
    """The program in ``answer`` (see the module docstring), or why none can be read."""
    if not isinstance(answer, str) or not answer.strip():
        return "no code found in the answer"
    if len(answer) > MAX_CODE_CHARS + 200:
        return f"the answer is longer than {MAX_CODE_CHARS} characters"
    answer = answer.replace("\r\n", "\n")  # Windows line endings: a sed, awk or shell line must not end in "\r"
    blocks = fenced_blocks(answer)
    if blocks and not is_closing(after_last_block(answer)):
        return "text after the last code block: the answer must hold only the program (remarks go outside it)"
    labelled = [(FENCE_LABELS.get(label), code) for label, code in blocks]
    chosen = [(lang, code) for lang, code in labelled if lang in allowed]
    if chosen:
        language, code = chosen[-1]
    elif any(lang is not None for lang, _ in labelled):
        other = next(lang for lang, _ in reversed(labelled) if lang is not None)
        return f"{LANGUAGE_NAMES[other]} is not accepted here; use {labels_text(allowed)}"
    elif len(allowed) > 1:
        return f"label the code block with its language: {labels_text(allowed)}"
    elif blocks:
        language, code = allowed[0], blocks[-1][1]
    elif allowed[0] in FENCE_REQUIRED:
        return f"put the program in a fenced code block ({labels_text(allowed)})"
    else:
        language, code = allowed[0], answer
    code = code.strip("\n")
    if not code.strip():
        return "the code block is empty"
    if code.rstrip().rsplit("\n", 1)[-1].lstrip().startswith(("```", "~~~")):  # a closing fence with text after it
        return "text after the last code block: the answer must hold only the program (remarks go outside it)"
    if len(code) > MAX_CODE_CHARS:
        return f"the program is longer than {MAX_CODE_CHARS} characters"
    return Program(language, code)


def mentions(code: str, name: str) -> bool:
    """Whether ``name`` occurs in ``code`` as a whole identifier: a cheap, certain precondition of
    defining it (a program that never spells the function, class or module it must define cannot
    define it, short of pasting tokens in macros), checked before paying for a compile."""
    start = code.find(name)
    while start >= 0:
        end = start + len(name)
        before = code[start - 1] if start > 0 else " "
        after = code[end] if end < len(code) else " "
        if not (before.isalnum() or before in "_$") and not (after.isalnum() or after in "_$"):
            return True
        start = code.find(name, start + 1)
    return False


def fence(program: Program | tuple[str, str], label: str | None = None) -> str:
    """The answer text of a program: one fenced block labelled with its language (or ``label``)."""
    language, code = (program.language, program.code) if isinstance(program, Program) else program
    return f"```{label or language}\n{code.rstrip()}\n```"


# --- limits -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """Limits of one candidate's run (all its tests). ``cpu_seconds`` bounds the program (not its
    compile); the wall clock defaults to twice that plus one second (a loaded host)."""

    cpu_seconds: float = 2.0
    wall_seconds: float | None = None
    memory_bytes: int = 256 * 2**20
    output_bytes: int = 1 * 2**20
    compile_seconds: float = 10.0

    def limits(self) -> Any:
        from palaestra.sandbox import Limits

        wall = self.wall_seconds if self.wall_seconds is not None else 2 * self.cpu_seconds + 1.0
        return Limits(wall_seconds=wall, cpu_seconds=self.cpu_seconds, memory_bytes=self.memory_bytes,
                      processes=16, output_bytes=self.output_bytes, compile_seconds=self.compile_seconds)


# --- reports ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Report:
    """One candidate's outcome.

    ``error``: the sandbox failed (nothing is known about the candidate); ``failure``: why the
    candidate did not complete (compile error, crash, limit), tests passed before it still count;
    ``wrong``: the first failing test's description.
    """

    total: int
    passed: int = 0
    error: str | None = None
    failure: str | None = None
    wrong: str | None = None
    seconds: float = 0.0  # the program's wall-clock time in the sandbox
    cpu_seconds: float = 0.0  # compile included

    @property
    def all_passed(self) -> bool:
        return self.error is None and self.failure is None and self.total > 0 and self.passed == self.total

    @property
    def fraction(self) -> float:
        return self.passed / self.total if self.total and self.error is None else 0.0

    def feedback(self) -> str:
        if self.error is not None:
            return f"not judged: {self.error}"
        parts = [f"{self.passed}/{self.total} tests passed"]
        parts += [text for text in (self.failure, self.wrong) if text]
        return "; ".join(parts)

    def verdict(self, partial_credit: bool = False) -> Verdict:
        """Right when every test passed; wrong (the fraction passed with ``partial_credit``)
        otherwise; ``Verdict.failed`` for a sandbox failure."""
        if self.error is not None:
            return Verdict.failed(self.error)
        if self.all_passed:
            return Verdict.right(f"all {self.total} tests passed")
        return Verdict.wrong(self.feedback(), reward=self.fraction if partial_credit else 0.0)


# --- running ----------------------------------------------------------------------------------

_cache: ReportCache[Report] = ReportCache(CACHE_SIZE)  # see palaestra.verifiers.verdict_cache


def clear_cache() -> None:
    """Forget cached reports (one per problem, candidate, tests and limits)."""
    _cache.clear()


def _cache_key(cache: bool, language: str, code: str, *parts: Any) -> tuple[str | None, str]:
    """The cache key of a candidate in ``language`` judged with ``parts`` (None when not cached: no key is worked
    out), and its own text's digest (see ``program_key``)."""
    if not cache:
        return None, ""
    candidate, text = program_key(language, code)
    return key_of(language, candidate, *parts), text


def _judged(key: str | None, judge: Callable[[], Report], text: str) -> Report:
    """``judge()``'s report, cached under ``key`` (None: not cached) unless the sandbox failed; ``text``:
    the candidate's own text's digest when ``key`` folds its comments (``program_key``)."""
    if key is None:
        return judge()
    return _cache.judged(key, judge, keep=lambda report: report.error is None, text=text,
                         transferable=lambda report: report.all_passed)


def _execute(source: str, language: str, stdin: str, files: Mapping[str, str | bytes], budget: Budget) -> Any:
    """The sandbox's ExecResult, or an infrastructure error message (str)."""
    from palaestra import sandbox

    try:
        result = sandbox.run(source, language=language, stdin=stdin, files=dict(files), limits=budget.limits())
    except Exception as exc:  # unavailable sandbox or language, SandboxError, OSError: not the candidate's fault
        return f"{type(exc).__name__}: {_short(str(exc), 300)}"
    if result.error is not None:
        return _short(result.error, 300)
    return result


def output_lines(text: str) -> list[str]:
    """Lines of a program's output: ``\\r\\n`` as ``\\n``, trailing whitespace and trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _short(text: str, chars: int) -> str:
    text = str(text)
    return text if len(text) <= chars else text[: chars - 3] + "..."


def _failure(result: Any, budget: Budget) -> str | None:
    """Why a run did not complete normally, or None."""
    if result.compile_failed:
        if result.timed_out:
            return "compilation timed out"
        diagnostics = _short(_from_first_error(result.compile_output.strip()), DIAGNOSTIC_CHARS)
        return f"compilation failed:\n{diagnostics}" if diagnostics else "compilation failed"
    if result.timed_out:
        return f"time limit exceeded ({budget.cpu_seconds:g} s of CPU)"
    if result.memory_exceeded:
        return "memory limit exceeded"
    if result.output_truncated:
        return "too much output"
    if result.signal is not None:
        return f"runtime error (killed by signal {result.signal})"
    if result.exit_code not in (0, None):
        tail = _short(result.stderr.strip().splitlines()[-1], 200) if result.stderr.strip() else ""
        return f"runtime error (exit code {result.exit_code})" + (f": {tail}" if tail else "")
    return None


def _from_first_error(diagnostics: str) -> str:
    """Compiler output from its first error on (warnings before it would hide it when cut short)."""
    lines = diagnostics.splitlines()
    markers = ("error", "undefined reference", "multiple definition")
    first = next((i for i, line in enumerate(lines) if any(m in line.lower() for m in markers)), 0)
    return "\n".join(lines[first:])


def judge_lines(
    got: Sequence[str], expected: Sequence[str], names: Sequence[str] | None = None
) -> tuple[int, str | None]:
    """``(tests passed, description of the first failure)``: line ``i`` answers test ``i``; trailing white space
    is no difference (a reference that prints ``Case #3: `` for an empty answer and a program that prints
    ``Case #3:`` agree)."""
    got, expected = [line.rstrip() for line in got], [line.rstrip() for line in expected]
    passed = sum(1 for g, e in zip(got, expected) if g == e)
    if len(got) > len(expected):
        return passed, f"printed {len(got)} lines, expected {len(expected)}"
    for i, want in enumerate(expected):
        name = names[i] if names is not None else f"test {i + 1}"
        if i >= len(got):
            return passed, f"{name}: no output line (printed {len(got)} of {len(expected)})"
        if got[i] != want:
            return passed, f"{name}: printed {_short(got[i], SHOWN_CHARS)!r}, expected {_short(want, SHOWN_CHARS)!r}"
    return passed, None


def json_same(got: Any, expected: Any) -> bool:
    """Equality of parsed JSON values: numbers by value (``3 == 3.0``), ``bool`` never a number,
    object keys in any order, arrays in order."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is type(expected) and got == expected
    if isinstance(expected, (int, float)):
        return isinstance(got, (int, float)) and got == expected
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(json_same, got, expected))
    if isinstance(expected, dict):
        return (isinstance(got, dict) and got.keys() == expected.keys()
                and all(json_same(got[k], expected[k]) for k in expected))
    return type(got) is type(expected) and got == expected


def judge_json(got: Sequence[str], expected: Sequence[Any]) -> tuple[int, str | None]:
    """Like :func:`judge_lines`, each line read as JSON and compared with :func:`json_same`."""
    passed, wrong = 0, None
    if len(got) > len(expected):
        wrong = f"printed {len(got)} lines, expected {len(expected)}"
    for i, want in enumerate(expected):
        if i >= len(got):
            wrong = wrong or f"test {i + 1}: no output line (printed {len(got)} of {len(expected)})"
            break
        try:
            value = json.loads(got[i])
        except (ValueError, RecursionError):
            wrong = wrong or f"test {i + 1}: printed {_short(got[i], SHOWN_CHARS)!r}, not a JSON value"
            continue
        if json_same(value, want):
            passed += 1
        else:
            wrong = wrong or (f"test {i + 1}: returned {_short(got[i], SHOWN_CHARS)}, expected "
                              f"{_short(json.dumps(want), SHOWN_CHARS)}")
    return passed, wrong


def check_program(
    program: Program,
    stdin: str,
    expected: Sequence[Any],
    *,
    budget: Budget | None = None,
    driver: str | None = None,
    names: Sequence[str] | None = None,
    compare: str = "lines",
    cache: bool = True,
) -> Report:
    """Run ``program`` once on ``stdin`` and compare its output lines with ``expected`` (one per test):
    as text (``compare="lines"``), or each line as a JSON value against ``expected``'s parsed
    values (``compare="json"``).

    With ``driver`` (our trusted main file in the program's language), the candidate goes next to
    it as :data:`CANDIDATE_FILES`\\ [language] and the driver is what runs.
    """
    budget = budget or Budget()
    expected = list(expected)
    if driver is not None and program.language not in CANDIDATE_FILES:
        raise ValueError(f"no driver layout for {program.language}")
    files = {CANDIDATE_FILES[program.language]: program.code} if driver is not None else {}
    source = driver if driver is not None else program.code
    key, text = _cache_key(cache, program.language, program.code, "program", driver,
                           stdin.encode("utf-8", "surrogatepass"), expected, compare, names, budget.__dict__)

    def judge() -> Report:
        result = _execute(source, program.language, stdin, files, budget)
        if isinstance(result, str):
            return Report(len(expected), error=result)
        got = output_lines(result.stdout)
        passed, wrong = judge_json(got, expected) if compare == "json" else judge_lines(got, expected, names)
        failure = _failure(result, budget)
        return Report(len(expected), passed=passed if not result.compile_failed else 0, failure=failure,
                      wrong=None if failure and not got else wrong, seconds=result.wall_seconds,
                      cpu_seconds=result.cpu_seconds)

    return _judged(key, judge, text)


# --- SQL --------------------------------------------------------------------------------------

def single_select(code: str) -> str | None:
    """The one ``SELECT`` (or ``WITH ... SELECT``) statement of ``code`` without its final ``;``,
    or None when ``code`` is not exactly one complete such statement. SQLite's own tokenizer
    (``sqlite3.complete_statement``) finds where statements end, so an unterminated comment or
    string, or a second statement, is refused."""
    import sqlite3

    from palaestra.sandbox.local.sql import statements

    body = code.strip().rstrip(";").rstrip()
    closed = body + "\n;"
    if not body or "\x00" in body:  # SQLite's tokenizer takes no NUL (and no statement holds one)
        return None
    try:
        if not sqlite3.complete_statement(closed):
            return None
        parts = list(statements(closed))
    except (ValueError, sqlite3.Error, UnicodeError):
        return None
    if len(parts) != 1:
        return None
    head = _strip_sql_comments(body).lstrip("( \t\r\n").lower()
    if not (head.startswith("select") or head.startswith("with")):
        return None
    return body


def _strip_sql_comments(sql: str) -> str:
    """``sql`` without its leading comments (``--`` to the end of the line, ``/* ... */``)."""
    text = sql.lstrip()
    for _ in range(1000):
        if text.startswith("--"):
            end = text.find("\n")
            text = "" if end < 0 else text[end + 1:].lstrip()
        elif text.startswith("/*"):
            end = text.find("*/")
            text = "" if end < 0 else text[end + 2:].lstrip()
        else:
            break
    return text


def sql_value(value: Any) -> Any:
    """A value from the SQL job's JSON lines in comparable form: integral reals as integers
    (``SUM`` over REAL columns), other reals rounded to 9 significant digits."""
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 2**53:
            return int(value)
        return float(f"{value:.9g}") if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return value


def _row_key(row: Sequence[Any]) -> str:
    return json.dumps([sql_value(v) for v in row], sort_keys=True)


def check_query(
    query: str,
    databases: Sequence[str],
    expected: Sequence[Sequence[Sequence[Any]]],
    *,
    ordered: bool = False,
    columns: int | None = None,
    budget: Budget | None = None,
    cache: bool = True,
) -> Report:
    """Run one candidate ``SELECT`` on each database (a SQL script that builds it from nothing) in
    one job and compare each result with ``expected[i]`` (rows of values): as a multiset of rows,
    or as a list with ``ordered``; ``columns`` (if given) is the required number of columns."""
    budget = budget or Budget()
    statement = single_select(query)
    total = len(databases)
    if statement is None:
        return Report(total, failure="the answer must be exactly one SELECT statement (WITH ... SELECT allowed)")
    parts = []
    for script in databases:
        parts += ["PRAGMA query_only = 0;", script.rstrip().rstrip(";") + ";", "PRAGMA query_only = 1;",
                  statement + "\n;"]
    source = "\n".join(parts)
    key, text = _cache_key(cache, "sql", statement, list(databases), expected, ordered, columns, budget.__dict__)
    return _judged(key, lambda: _judge_query(source, total, expected, ordered, columns, budget), text)


def _judge_query(
    source: str,
    total: int,
    expected: Sequence[Sequence[Sequence[Any]]],
    ordered: bool,
    columns: int | None,
    budget: Budget,
) -> Report:
    result = _execute(source, "sql", "", {}, budget)
    if isinstance(result, str):
        return Report(total, error=result)
    results: list[Any] = []
    failure = _failure(result, budget) if result.exit_code != 1 else None
    for line in result.stdout.splitlines():
        try:
            results.append(json.loads(line))
        except ValueError:
            failure = failure or "unreadable query output"
            break
    passed, wrong = 0, None
    for i, want in enumerate(expected):
        name = f"hidden database {i + 1}"
        got = results[i] if i < len(results) else None
        if isinstance(got, dict) and "error" in got:
            failure = f"SQL error on {name}: {_short(got.get('error'), 300)}"
            break
        if not (isinstance(got, dict) and isinstance(got.get("rows"), list) and isinstance(got.get("columns"), list)):
            failure = failure or f"no result on {name}"
            break
        reason = _compare_rows(got["columns"], got["rows"], want, ordered, columns)
        if reason is None:
            passed += 1
        elif wrong is None:
            wrong = f"{name}: {reason}"
    return Report(total, passed=passed, failure=failure, wrong=wrong, seconds=result.wall_seconds,
                  cpu_seconds=result.cpu_seconds)


def _compare_rows(names: list[Any], rows: list[Any], want: Sequence[Sequence[Any]], ordered: bool,
                  columns: int | None) -> str | None:
    if columns is not None and len(names) != columns:
        return f"{len(names)} columns, expected {columns}"
    if not all(isinstance(row, list) for row in rows):
        return "unreadable rows"
    got_keys = [_row_key(row) for row in rows]
    want_keys = [_row_key(row) for row in want]
    if len(got_keys) != len(want_keys):
        return f"{len(got_keys)} rows, expected {len(want_keys)}"
    if ordered:
        for i, (g, w) in enumerate(zip(got_keys, want_keys)):
            if g != w:
                return f"row {i + 1} is {_short(g, SHOWN_CHARS)}, expected {_short(w, SHOWN_CHARS)}"
        return None
    missing = Counter(want_keys) - Counter(got_keys)
    if missing:
        return f"missing row {_short(next(iter(missing)), SHOWN_CHARS)}"
    return None
