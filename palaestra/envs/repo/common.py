"""What the repo envs share: a generated multi-file Python repository, the tools to work on it, and hidden tests.

A :class:`RepoTask` is a :class:`~palaestra.envs.tools.common.ToolTask` whose world is a small generated Python
repository (a package of modules and a ``tests/`` folder of visible tests), kept in the episode's state as a
JSON dict ``path -> text`` (``state["repo"]``; the problem's ``data["files"]`` is the initial one). The tools:

- ``list_files()``: every path; ``read_file(path)``: a file with line numbers;
- ``search(text)``: the lines holding ``text`` as a literal substring (never a pattern);
- ``edit(path, old, new)``: replace the exact text ``old`` (which must occur exactly once) by ``new``; an empty
  ``old`` on a path that does not exist creates the file. Visible test files (``tests/``) are read-only, unless
  a task asks for tests (:attr:`RepoTask.tests_writable`: new test files only), and so are a task's other
  read-only paths (:meth:`RepoTask.read_only`);
- ``run_tests()``: one sandbox job running the visible tests; a bounded summary with the failing assertions.

The final answer is the word ``submit``. The judge runs the task's **hidden tests** on the final repository in
one sandbox job through the trusted function harness of :mod:`palaestra.verifiers.code`: the repository's
modules travel inside the candidate program (imported from memory), each hidden test is a call
``module.function(*args)`` whose JSON value is compared with the expected one in this process, and the
expected values never enter the sandbox. A task may add a check of the final files (:meth:`RepoTask.check_files`:
a refactor's old name gone). The visible tests must be unchanged (the edit tool refuses them anyway).

Example::

    >>> numbered("a\\nb\\n")
    '1: a\\n2: b'
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import random
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from palaestra.core import Problem, Verdict
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.tools.common import CLOSE_CALL, OPEN_CALL, TOOL_OUTPUT_CHARS, ToolResult, ToolTask, tool_call
from palaestra.generators.knowledge import NameForge
from palaestra.tools.base import validate_arguments
from palaestra.verifiers.normalize import read_answer

if TYPE_CHECKING:
    from palaestra.sandbox import Limits

SUBMIT = "submit"
RUN_CACHE_SIZE = 512
_RUNS: OrderedDict[str, str] = OrderedDict()  # visible-test reports by task and files (see RepoTask._cached_run)
_RUNS_LOCK = threading.Lock()
MAX_FILE_CHARS = 12_000
MAX_FILES = 40
SEARCH_HITS = 40
SHOWN_FAILURES = 8
TEST_SECONDS = 5.0

TOOLS: dict[str, tuple[str, dict[str, str]]] = {
    "list_files": ("List every file of the repository.", {}),
    "read_file": ("Read a file of the repository, with line numbers.", {"path": "string"}),
    "search": ("Find the lines of every file that contain `text` (a literal substring, case-sensitive).",
               {"text": "string"}),
    "edit": ("Replace the exact text `old` in file `path` by `new` (`old` must occur exactly once; whitespace "
             "counts). With an empty `old` and a path that does not exist, create the file with `new`.",
             {"path": "string", "old": "string", "new": "string"}),
    "run_tests": ("Run the repository's visible tests (the files in tests/) and get a pass/fail summary.", {}),
}

# The visible tests' runner (our code, run in the sandbox as main.py next to the repository's files): every
# test_* function of every tests/test_*.py, in order; a bounded summary on stdout.
RUNNER = r'''
import importlib.util, os, sys, traceback
sys.path.insert(0, os.getcwd())
sys.setrecursionlimit(2000)
passed, failures = 0, []
names = sorted(n for n in os.listdir("tests") if n.startswith("test_") and n.endswith(".py")) if os.path.isdir("tests") else []
for file_name in names:
    path = "tests/" + file_name
    try:
        spec = importlib.util.spec_from_file_location("tests." + file_name[:-3], path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException as exc:
        failures.append(f"{path}: could not be imported: {type(exc).__name__}: {exc}"[:400])
        continue
    for name in [n for n in vars(module) if n.startswith("test_") and callable(vars(module)[n])]:
        try:
            vars(module)[name]()
            passed += 1
        except BaseException as exc:
            frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".py")]
            where = f" (line {frames[-1].lineno} of {os.path.relpath(frames[-1].filename)}: {frames[-1].line})" if frames else ""
            failures.append(f"{path}::{name}: {type(exc).__name__}: {exc}{where}"[:400])
print(f"{passed} passed, {len(failures)} failed")
for line in failures[:SHOWN]:
    print("FAILED " + line)
if len(failures) > SHOWN:
    print(f"... and {len(failures) - SHOWN} more failures")
'''.replace("SHOWN", str(SHOWN_FAILURES))

# Imports the repository's modules from memory inside a sandbox program (our code): ``sys.meta_path.insert(0,
# _Finder())`` makes ``import pkg.mod`` read the global ``FILES`` (path -> source), which the program sets first.
# Used by BUNDLE and by the mutation runner of repo/write_tests.
MEMORY_IMPORTER = r'''
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        base = name.replace(".", "/")
        if base + "/__init__.py" in FILES:
            return importlib.util.spec_from_loader(name, self, is_package=True)
        if base + ".py" in FILES:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        base = module.__name__.replace(".", "/")
        path = base + "/__init__.py" if base + "/__init__.py" in FILES else base + ".py"
        if path.endswith("__init__.py"):
            module.__path__ = []
        exec(compile(FILES[path], path, "exec"), module.__dict__)
'''

# The hidden tests' candidate program: the repository's modules (and the calls, compressed) imported from memory,
# and probe(i) calling the i-th case (a function's call, or a scenario of method calls on a new object). The harness of verifiers.code runs it; the expected values stay in the trusted parent.
BUNDLE = r'''
import base64, importlib, importlib.abc, importlib.util, json, sys, zlib
FILES, CASES = json.loads(zlib.decompress(base64.b64decode("__DATA__")))

''' + MEMORY_IMPORTER + r'''

sys.meta_path.insert(0, _Finder())


def expand(value):
    if isinstance(value, dict) and "__ints__" in value:
        count, step, offset, modulus, ordered = value["__ints__"]
        numbers = [(i * step + offset) % modulus for i in range(count)]
        return sorted(numbers) if ordered else numbers
    return value


def probe(index):
    module, function, args, digest = CASES[index]
    target = getattr(importlib.import_module(module), function)
    if len(args) == 1 and isinstance(args[0], dict) and "__ops__" in args[0]:  # a scenario of method calls
        subject = target(*args[0]["init"])
        return [getattr(subject, method)(*arguments) for method, arguments in args[0]["__ops__"]]
    try:
        value = target(*[expand(a) for a in args])
    except Exception as exc:  # what a function raises is a result too (a ValueError on invalid input)
        return {"raised": "ValueError" if isinstance(exc, ValueError) else type(exc).__name__}
    if digest:
        import hashlib
        return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()
    return value
'''


def intro(package: str) -> str:
    """The prompt's first sentence for a Python repository whose package is ``package``."""
    return f"You are working on a small Python repository: the package {package}/ and its visible tests in tests/."


def numbered(text: str) -> str:
    """``text`` with 1-based line numbers."""
    return "\n".join(f"{number}: {line}" for number, line in enumerate(text.splitlines(), start=1))


def tool_schema(name: str) -> dict[str, Any]:
    description, arguments = TOOLS[name]
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": {key: {"type": kind} for key, kind in arguments.items()},
        "required": list(arguments), "additionalProperties": False}}}


def call(name: str, **arguments: Any) -> str:
    """An oracle's reply calling tool ``name``."""
    return tool_call(name, **arguments)


def _clean_path(path: str) -> str | None:
    path = path.strip().removeprefix("./")
    parts = path.split("/")
    if not path or path.startswith("/") or any(part in ("", ".", "..") for part in parts) or len(path) > 200:
        return None
    if not all(ch.isalnum() or ch in "_-./" for ch in path):
        return None
    return path


class RepoTask(ToolTask):
    """A coding task on a generated repository (see the module docstring).

    Subclasses generate ``data`` with ``files`` (the repository), ``hidden`` (cases: ``[module, function, args,
    expected]``) and ``budget``, and define :meth:`plan`; optional: :meth:`read_only`, :meth:`check_files`.
    """

    tool_names: ClassVar[tuple[str, ...]] = ("list_files", "read_file", "search", "edit", "run_tests")
    tests_writable: ClassVar[bool] = False
    source_suffix: ClassVar[str] = ".py"  # the files an edit may create
    toolchains: ClassVar[tuple[str, ...]] = ("python",)  # the sandbox language the tests run in
    test_seconds: ClassVar[float] = TEST_SECONDS  # the run_tests tool's time limit
    final_note: ClassVar[str] = (f"When you are done, reply without a tool call: <answer>{SUBMIT}</answer>. The "
                                 "repository as you leave it is then judged by hidden tests.")

    # --- what a task may define ----------------------------------------------------------------
    def read_only(self, problem: Problem, path: str) -> str | None:
        """Why ``path`` may not be edited, or None."""
        if path.startswith("tests/") and (not self.tests_writable or path in problem.data["files"]):
            return "the visible tests are read-only"
        return None

    def check_files(self, problem: Problem, files: Mapping[str, str]) -> str | None:
        """Why the final files fail a static requirement of the task, or None."""
        return None

    def hidden_cases(self, problem: Problem, files: Mapping[str, str]) -> list[list[Any]]:
        return list(problem.data["hidden"])

    # --- prompt ------------------------------------------------------------------------------------
    def tool_schemas(self) -> list[dict[str, Any]]:
        return [tool_schema(name) for name in self.tool_names]

    def tools_prompt(self, budget: int, note: str = "") -> str:
        lines = "\n".join(json.dumps(schema) for schema in self.tool_schemas())
        return (
            f"You have these tools (JSON schemas):\n<tools>\n{lines}\n</tools>\n{note}"
            f"To call a tool, write {OPEN_CALL}{{\"name\": \"<tool name>\", \"arguments\": {{...}}}}{CLOSE_CALL} "
            "(several calls per reply are allowed); each result comes back inside <tool_response></tool_response>. "
            f"You may make at most {budget} tool calls in all. {self.final_note}"
        )

    # --- the episode -------------------------------------------------------------------------------
    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {**super().initial_state(problem), "repo": dict(problem.data["files"])}

    def run_tool(self, problem: Problem, name: str, arguments: Any, cells: list[str],
                 world: Mapping[str, Any] | None = None) -> ToolResult:
        files: dict[str, str] = dict((world or {}).get("repo", problem.data["files"]))
        problem_text = validate_arguments(arguments, tool_schema(name)["function"]["parameters"])
        if problem_text is not None:
            return ToolResult(f"error: {problem_text}", None, cells)
        if name == "list_files":
            return ToolResult("\n".join(sorted(files)), None, cells)
        if name == "read_file":
            path = _clean_path(arguments["path"])
            if path is None or path not in files:
                return ToolResult(f"error: no file {str(arguments['path'])[:100]!r} (list_files shows them)", None,
                                  cells)
            return ToolResult(bounded(numbered(files[path]) or "(empty file)"), None, cells)
        if name == "search":
            return ToolResult(_search(files, arguments["text"]), None, cells)
        if name == "edit":
            reply, changed = self._edit(problem, files, arguments)
            return ToolResult(reply, None, cells, None if changed is None else {**(world or {}), "repo": changed})
        return self._cached_run(files, cells)

    def _cached_run(self, files: Mapping[str, str], cells: list[str]) -> ToolResult:
        """:meth:`run_visible`, remembered per task and files: a replay (``palaestra.score``) or another episode
        reaching the same repository reads the same report without a sandbox job. Failures are not kept."""
        key = hashlib.sha256(json.dumps([self.id, sorted(files.items())]).encode()).hexdigest()
        with _RUNS_LOCK:
            text = _RUNS.get(key)
            if text is not None:
                _RUNS.move_to_end(key)
                return ToolResult(text, None, cells)
        result = self.run_visible(files, cells)
        if result.error is None:
            with _RUNS_LOCK:
                _RUNS[key] = result.text
                while len(_RUNS) > RUN_CACHE_SIZE:
                    _RUNS.popitem(last=False)
        return result

    def _edit(self, problem: Problem, files: dict[str, str], arguments: dict[str, Any]) -> tuple[str, dict | None]:
        path = _clean_path(arguments["path"])
        old, new = arguments["old"], arguments["new"]
        if path is None:
            return f"error: {str(arguments['path'])[:100]!r} is not a relative path of the repository", None
        refusal = self.read_only(problem, path)
        if refusal is not None:
            return f"error: {path} may not be edited: {refusal}", None
        if path not in files:
            if old != "":
                return f"error: no file {path!r} (to create it, give an empty `old`)", None
            if not path.endswith(self.source_suffix) or path.startswith("main.") or len(files) >= MAX_FILES:
                return (f"error: only new {self.source_suffix} files (not main{self.source_suffix}) may be created, "
                        "and only a few"), None
            text = new
        else:
            if old == "":
                return f"error: {path} exists; `old` must be text of it that occurs exactly once", None
            count = files[path].count(old)
            if count != 1:
                return (f"error: the text `old` occurs {count} times in {path}; it must occur exactly once "
                        "(copy it exactly, whitespace included, with enough context to be unique)"), None
            text = files[path].replace(old, new, 1)
        if len(text) > MAX_FILE_CHARS:
            return f"error: {path} would be longer than {MAX_FILE_CHARS} characters", None
        return f"ok: {path} edited ({len(text.splitlines())} lines now)", {**files, path: text}

    def run_visible(self, files: Mapping[str, str], cells: list[str]) -> ToolResult:
        """The ``run_tests`` tool: the visible tests on ``files``, one sandbox job."""
        from palaestra.sandbox import Limits

        limits = Limits(wall_seconds=self.test_seconds, cpu_seconds=self.test_seconds, memory_bytes=256 * 2**20,
                        output_bytes=1 << 15)
        return run_tests_job(RUNNER, files, cells, limits)

    # --- judging ---------------------------------------------------------------------------------
    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        if not read_submit(answer):
            return Verdict.unparsed(f"the final answer of this task is the word {SUBMIT!r}, once the repository "
                                    "is ready")
        files = state.get("repo", problem.data["files"])
        for path, text in problem.data["files"].items():
            if path.startswith("tests/") and files.get(path) != text:
                return Verdict.wrong(f"the visible test file {path} was changed")
        if files == problem.data["files"]:  # every problem's initial repository fails a hidden test, by construction
            return Verdict.wrong("the repository is unchanged, and it does not pass the task's checks")
        static = self.check_files(problem, files)
        if static is not None:
            return Verdict.wrong(static)
        return self.run_hidden(files, self.hidden_cases(problem, files))

    def run_hidden(self, files: Mapping[str, str], cases: list[list[Any]]) -> Verdict:
        """The hidden cases on the final files (one sandbox job)."""
        return run_hidden(files, cases)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        """The final answer on the initial repository (what a reply without any edit gets)."""
        return self.judge_episode(problem, self.initial_state(problem), answer)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Submit", "SUBMIT.", "**submit**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["submitted, but not fixed", "not yet", "done"]

    def plan_calls(self, problem: Problem) -> list[str]:
        """The oracle's tool calls (the plan is these, then ``submit``)."""
        raise NotImplementedError

    def plan(self, problem: Problem) -> list[str]:
        return [*self.plan_calls(problem), SUBMIT]


def generated(count: int, step: int, offset: int, modulus: int, ordered: bool = False) -> dict[str, Any]:
    """An argument the hidden tests' program builds itself (a long list of integers, not sent as JSON): the list
    ``[(i * step + offset) % modulus for i in range(count)]``, sorted when ``ordered``. A case with such an
    argument compares a digest of its value (:func:`digest`), not the value."""
    return {"__ints__": [count, step, offset, modulus, ordered]}


def expand(value: Any) -> Any:
    """The value a :func:`generated` argument stands for (other arguments unchanged)."""
    if isinstance(value, dict) and "__ints__" in value:
        count, step, offset, modulus, ordered = value["__ints__"]
        numbers = [(i * step + offset) % modulus for i in range(count)]
        return sorted(numbers) if ordered else numbers
    return value


def is_generated(args: list[Any]) -> bool:
    return any(isinstance(a, dict) and "__ints__" in a for a in args)


def digest(value: Any) -> str:
    """The hash the hidden tests' program reports for a value computed from generated arguments."""
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def read_submit(answer: str) -> bool:
    """Whether the final answer is the word ``submit`` (in a spelling a grader accepts)."""
    return bool(read_answer(answer, lambda s: True if s.strip().lower() == SUBMIT else None))


def run_tests_job(runner: str, files: Mapping[str, str], cells: list[str], limits: Limits,
                  language: str = "python") -> ToolResult:
    """The ``run_tests`` tool's reply: ``runner`` (our program running the visible tests and printing a summary)
    run on ``files`` in one sandbox job; a sandbox failure is an infrastructure error, not the model's fault."""
    from palaestra import sandbox

    try:
        result = sandbox.run(runner, language=language, files=dict(files), limits=limits)
    except Exception as exc:  # the sandbox is unavailable: not the model's fault
        return ToolResult("", f"run_tests: {type(exc).__name__}: {str(exc)[:200]}", cells)
    if result.error is not None:
        return ToolResult("", f"run_tests: {result.error[:200]}", cells)
    if result.timed_out:
        return ToolResult(f"error: the tests ran longer than {limits.wall_seconds:g} s and were stopped", None, cells)
    text = result.stdout.strip() or f"error: the test run crashed\n{result.stderr[-1000:]}"
    return ToolResult(bounded(text), None, cells)


def run_hidden(files: Mapping[str, str], cases: list[list[Any]]) -> Verdict:
    """The hidden cases ``[module, function, args, expected]`` run on ``files`` (one sandbox job)."""
    from palaestra.verifiers.code import Budget, check_function

    sources = {path: text for path, text in files.items() if path.endswith(".py") and not path.startswith("tests/")}
    # The repository and the calls travel compressed: the harness bounds a candidate program's length.
    payload = json.dumps([sources, [[module, function, args, is_generated(args)]
                                    for module, function, args, _ in cases]])
    program = BUNDLE.replace("__DATA__", base64.b64encode(zlib.compress(payload.encode(), 9)).decode())
    tests = [{"args": [index], "expected": digest(expected) if is_generated(args) else expected}
             for index, (_, _, args, expected) in enumerate(cases)]
    report = check_function(program, "probe", tests, budget=Budget(test_seconds=1.0, total_seconds=6.0))
    if report.error is not None:
        return Verdict.failed(f"the hidden tests could not run: {report.error}")
    if report.failure is not None:
        return Verdict.wrong(f"the hidden tests could not run on the repository: {report.failure}")
    failing = len(report.failing())
    if failing or not report.all_passed:
        return Verdict.wrong(f"{failing} of {len(cases)} hidden tests fail")
    return Verdict.right()


def bounded(text: str) -> str:
    if len(text) <= TOOL_OUTPUT_CHARS:
        return text
    return text[:TOOL_OUTPUT_CHARS] + f"\n[output truncated to {TOOL_OUTPUT_CHARS} characters]"


def _search(files: Mapping[str, str], text: str) -> str:
    if not text:
        return "error: `text` is empty"
    hits = [f"{path}:{number}: {line}" for path in sorted(files)
            for number, line in enumerate(files[path].splitlines(), start=1) if text in line]
    if not hits:
        return f"no line contains {text[:100]!r}"
    shown = "\n".join(hits[:SEARCH_HITS])
    return bounded(shown + (f"\n... and {len(hits) - SEARCH_HITS} more lines" if len(hits) > SEARCH_HITS else ""))


# --- generating repositories ------------------------------------------------------------------------------


@dataclass
class Function:
    """A function of a generated repository: a leaf template or a wrapper around ``inner``."""

    name: str
    module: str  # the module's short name (``pkg/<module>.py``)
    kind: str  # "leaf" or "wrapper"
    key: str
    params: str
    inner: Function | None = None
    bug: int | None = None  # leaves: the index of the injected bug
    signature: str | None = None  # leaves: the parameter list of the def when it is not ``params``
    call_args: str | None = None  # wrappers: the arguments of the call of ``inner`` when they are not ``params``
    local_import: str | None = None  # wrappers: import ``inner`` from this module inside the function, not on top
    prelude: str | None = None  # lines inserted at the top of the body

    def chain(self) -> list[Function]:
        """This function and the ones it calls, leaf first."""
        return ([] if self.inner is None else self.inner.chain()) + [self]

    def behaviour(self, fixed: bool = True) -> Callable[..., Any]:
        return tpl.behaviour([(f.kind, f.key, None if fixed else f.bug) for f in self.chain()], self.params)

    def leaf(self) -> Function:
        return self.chain()[0]

    def text(self, bugged: bool = True) -> str:
        if self.kind == "leaf":
            text = tpl.leaf_text(tpl.LEAF_BY_KEY[self.key], self.name, self.bug if bugged else None)
        else:
            assert self.inner is not None
            text = tpl.wrapper_text(tpl.WRAPPER_BY_KEY[self.key], self.name, self.inner.name, self.params,
                                    self.call_args)
        if self.signature is not None:
            text = text.replace(f"def {self.name}({self.params}):", f"def {self.name}({self.signature}):", 1)
        head, body = text.split("\n", 1)
        if self.local_import is not None:
            assert self.inner is not None
            body = f"    from {self.local_import} import {self.inner.name}\n{body}"
        if self.prelude is not None:
            body = self.prelude + body
        return f"{head}\n{body}"

    def compiled(self) -> Callable[..., Any]:
        """What this function computes as its (fixed) text says, its callees bound: our own generated text,
        compiled once per text (see :mod:`palaestra.envs.repo._templates`)."""
        assert self.local_import is None
        function = tpl.compiled(self.text(False), self.name)
        if self.inner is None:
            return function
        return tpl.bind(function, self.inner.name, self.inner.compiled())


@dataclass
class Repository:
    """A generated package of modules, its functions in order, and the visible tests (rendered to files)."""

    package: str
    modules: list[str]
    functions: list[Function] = field(default_factory=list)
    tests: dict[str, list[tuple[str, list[Any], Any]]] = field(default_factory=dict)  # test module -> cases
    docstrings: dict[str, str] = field(default_factory=dict)

    def add(self, function: Function) -> Function:
        self.functions.append(function)
        return function

    def add_leaf(self, rng: random.Random, taken: set[str], leaf: tpl.Leaf, module: str | None = None) -> Function:
        """A new function of the template ``leaf`` under a fresh name of its pool (:func:`name_for`), in ``module``,
        or else in a module drawn after the name."""
        name = name_for(rng, taken, leaf.names)
        return self.add(Function(name, rng.choice(self.modules) if module is None else module, "leaf", leaf.key,
                                 leaf.params))

    def path(self, module: str) -> str:
        return f"{self.package}/{module}.py"

    def dotted(self, module: str) -> str:
        return f"{self.package}.{module}"

    def module_text(self, module: str, bugged: bool = True, extra: str = "", omit: frozenset[str] = frozenset()) -> str:
        members = [f for f in self.functions if f.module == module and f.name not in omit]
        imports = sorted({(f.inner.module, f.inner.name) for f in members
                          if f.inner is not None and f.inner.module != module and f.local_import is None})
        lines = [f'"""{self.docstrings.get(module, module.capitalize() + " helpers.")}"""', ""]
        lines += [f"from {self.dotted(source)} import {name}" for source, name in imports]
        body = "\n\n".join(f.text(bugged) for f in members) + extra
        if not body:
            return "\n".join(lines[:1]) + "\n"
        return "\n".join(lines) + ("\n\n\n" if imports else "\n\n") + body

    def cases_for(self, function: Function, cases: list[tuple[list[Any], Any]]) -> list[list[Any]]:
        """The hidden cases ``[module, function, args, expected]`` calling ``function`` from its module, one per
        ``(args, expected)`` of ``cases``."""
        return [[self.dotted(function.module), function.name, args, expected] for args, expected in cases]

    def test_text(self, function: Function, cases: list[tuple[list[Any], Any]]) -> str:
        lines = [f"from {self.dotted(function.module)} import {function.name}", ""]
        for number, (args, expected) in enumerate(cases, start=1):
            lines += ["", f"def test_{function.name}_{number}():",
                      f"    result = {function.name}({', '.join(repr(a) for a in args)})",
                      f"    assert result == {expected!r}, f\"got {{result!r}}\"", ""]
        return "\n".join(lines)

    def files(self, tested: list[tuple[Function, list[tuple[list[Any], Any]]]], bugged: bool = True,
              extras: Mapping[str, str] | None = None, omit: frozenset[str] = frozenset()) -> dict[str, str]:
        """The repository's files: the package's modules (without the functions named in ``omit``) and one test
        file per tested function."""
        files = {f"{self.package}/__init__.py": f'"""The {self.package} package."""\n'}
        for module in self.modules:
            files[self.path(module)] = self.module_text(module, bugged, (extras or {}).get(module, ""), omit)
        for function, cases in tested:
            files[f"tests/test_{function.name}.py"] = self.test_text(function, cases)
        return files


def new_repository(rng: random.Random, modules: int) -> tuple[Repository, NameForge]:
    forge = NameForge(rng)
    package = forge.word(2).lower()
    names = [forge.word(2).lower() for _ in range(modules)]
    return Repository(package, names), forge


def name_for(rng: random.Random, taken: set[str], pool: tuple[str, ...]) -> str:
    """A fresh function name from ``pool`` (a numbered variant when all are taken)."""
    free = [name for name in pool if name not in taken]
    name = rng.choice(free) if free else f"{rng.choice(pool)}_{len(taken) + 2}"
    taken.add(name)
    return name


def misleading_pool(rng: random.Random, leaf_key: str) -> tuple[str, ...]:
    """Names of another leaf: a function so named does something else than its name says."""
    others = [leaf for leaf in tpl.LEAVES if leaf.key != leaf_key]
    return rng.choice(others).names


def draw_cases(rng: random.Random, function: Function, count: int, differing: bool,
               attempts: int = 60) -> list[tuple[list[Any], Any]] | None:
    """``count`` argument lists for ``function`` with their correct results; with ``differing``, only arguments on
    which the injected bug(s) of its chain change the result (None when too few are found)."""
    fixed = function.behaviour(True)
    bugged = function.behaviour(False)
    draw = tpl.LEAF_BY_KEY[function.leaf().key].draw
    cases: list[tuple[list[Any], Any]] = []
    seen: set[str] = set()
    for _ in range(attempts):
        if len(cases) == count:
            break
        args = draw(rng)
        key = repr(args)
        if key in seen:
            continue
        expected = fixed(*tpl.copied(args))
        if differing:
            try:
                if bugged(*tpl.copied(args)) == expected:
                    continue
            except Exception:  # a bug that raises differs too
                pass
        seen.add(key)
        cases.append((args, expected))
    return cases if len(cases) == count else None


# --- repositories with injected bugs ---------------------------------------------------------------------


@dataclass
class BugRepository:
    """A generated repository with bugs, its files, its hidden cases and the oracle's fixes."""

    repository: Repository
    files: dict[str, str]
    hidden: list[list[Any]]
    bugged: list[Function]  # the leaves holding a bug
    tested: list[tuple[Function, list[tuple[list[Any], Any]]]]  # the visible tests' functions and cases
    depth: int
    misleading: int  # functions named after something they do not do


def bug_repository(rng: random.Random, *, modules: int, bugs: int, depth: int, distractors: int,
                   misleading: float, pool: tuple[tpl.Leaf, ...] = tpl.LEAVES,
                   full_depth: float = 0.0, spread: bool = False) -> BugRepository | None:
    """A repository of ``bugs + distractors`` leaf functions (the bugged ones of distinct templates), each called by a chain of
    wrappers (``depth`` of them above each bugged leaf, up to ``depth`` above the others) spread over
    ``modules`` modules, imports always from an earlier module to a later one (no cycles); the bugged chains'
    visible tests include a failing one; a name is misleading with probability ``misleading``; a distractor's
    chain has the full ``depth`` with probability ``full_depth`` (then no random draw of its depth is made; with
    0, the default, every distractor's depth is drawn from 0 to ``depth``); with ``spread``, the distractors'
    templates repeat only once every other template is used (else each is drawn independently, and the bugged
    leaf was often the only leaf whose code appears once). None when the draw found too few distinguishing
    inputs."""
    repository, _ = new_repository(rng, modules)
    taken: set[str] = set()
    tested: list[tuple[Function, list[tuple[list[Any], Any]]]] = []
    hidden: list[list[Any]] = []
    bugged: list[Function] = []
    fooled = 0
    # Bugged leaves are distinct templates; distractors may repeat the other templates (under other names).
    leaves = rng.sample(pool, bugs)
    others = [leaf for leaf in pool if leaf not in leaves]
    if spread:
        cycle: list[tpl.Leaf] = []
        for _ in range(distractors):
            cycle = cycle or rng.sample(others, len(others))
            leaves.append(cycle.pop())
    else:
        leaves += [rng.choice(others) for _ in range(distractors)]
    for index, leaf in enumerate(leaves):
        buggy = index < bugs
        fool = rng.random() < misleading
        fooled += fool
        position = rng.randrange(modules)
        function = repository.add(Function(
            name_for(rng, taken, misleading_pool(rng, leaf.key) if fool else leaf.names),
            repository.modules[position], "leaf", leaf.key, leaf.params,
            bug=rng.randrange(len(leaf.bugs)) if buggy else None))
        base = function
        full = buggy or (full_depth > 0 and rng.random() < full_depth)
        for _ in range(depth if full else rng.randint(0, depth)):
            wrapper = rng.choice(tpl.WRAPPERS)
            fool_wrapper = rng.random() < misleading
            fooled += fool_wrapper
            names = (misleading_pool(rng, leaf.key) if fool_wrapper
                     else tuple(f"{prefix}_{base.name}" for prefix in wrapper.names))
            position = rng.randint(min(position + 1, modules - 1), modules - 1)
            function = repository.add(Function(name_for(rng, taken, names), repository.modules[position], "wrapper",
                                               wrapper.key, leaf.params, inner=function))
        visible = draw_cases(rng, function, 2, differing=False)
        if buggy:
            # One visible test fails; hidden ones fail too on the bug, at the top of the chain and at the leaf
            # itself (a patch of a wrapper does not fix the leaf).
            failing = draw_cases(rng, function, 4, differing=True)
            direct = draw_cases(rng, base, 2, differing=True)
            if failing is None or direct is None or visible is None:
                return None
            visible = [failing[0], visible[0]]
            hidden += repository.cases_for(base, direct)
            hidden += repository.cases_for(function, failing[1:])
            bugged.append(base)
        if visible is None:
            return None
        tested.append((function, visible))
        hidden += repository.cases_for(function, visible)
    rng.shuffle(tested)
    files = repository.files(tested)
    return BugRepository(repository, files, hidden, bugged, tested, depth, fooled)


def edit_calls(changes: list[list[str]]) -> list[str]:
    """The oracle's calls for ``changes`` (``[path, before, after]``, as :func:`changes_between` or
    :func:`bug_data` list them): read each file and replace ``before`` by ``after`` (a new file, ``before``
    empty, is only created); then run the tests: ``[["pkg/a.py", "x = 1", "x = 2"]]`` gives the calls
    ``read_file("pkg/a.py")``, ``edit("pkg/a.py", "x = 1", "x = 2")``, ``run_tests()``.
    """
    calls = []
    for path, before, after in changes:
        if before:
            calls.append(call("read_file", path=path))
        calls.append(call("edit", path=path, old=before, new=after))
    return [*calls, call("run_tests")]


def changes_between(files: Mapping[str, str], target: Mapping[str, str]) -> list[list[str]]:
    """The edits turning the repository ``files`` into ``target``: ``[path, before, after]`` for each path of
    ``target`` whose text differs, in path order (``before`` is empty for a file ``files`` lacks).

    >>> changes_between({"a.py": "x = 1", "b.py": "y"}, {"a.py": "x = 2", "b.py": "y", "c.py": "z"})
    [['a.py', 'x = 1', 'x = 2'], ['c.py', '', 'z']]
    """
    return [[path, files.get(path, ""), target[path]] for path in sorted(target) if files.get(path) != target[path]]


def bug_data(found: BugRepository) -> list[list[str]]:
    return [[found.repository.path(f.module), f.text(True), f.text(False)] for f in found.bugged]


def package_lines(files: Mapping[str, str]) -> int:
    """Lines of the package's code (not the tests): a measure of how much there is to read."""
    return sum(text.count("\n") for path, text in files.items() if not path.startswith("tests/"))


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` holds ``name`` as a whole identifier (not as a part of a longer one)."""
    start = text.find(name)
    while start != -1:
        before = text[start - 1] if start else " "
        end = start + len(name)
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(name, start + 1)
    return False


# What code built from text at run time needs (see :func:`hidden_code`): the generated packages use none of it.
DYNAMIC_NAMES = frozenset({  # builtins, read as names
    "exec", "eval", "compile", "__import__", "globals", "locals", "vars", "getattr", "setattr", "delattr",
    "__builtins__", "breakpoint"})
DYNAMIC_ATTRIBUTES = frozenset({  # read as an attribute, or defined (a module's __getattr__)
    "__dict__", "__builtins__", "__getattr__", "__code__", "__globals__", "__loader__", "__spec__", "FunctionType",
    "CodeType", "import_module", "exec_module"})
DYNAMIC_MODULES = frozenset({  # imported
    "builtins", "importlib", "marshal", "pickle", "codecs", "base64", "binascii", "zlib", "gzip", "bz2", "lzma",
    "types", "sys", "os", "ctypes", "runpy", "inspect", "pkgutil", "code", "codeop", "subprocess", "shelve", "io"})


def hidden_code(files: Mapping[str, str]) -> str | None:
    """Why the package's code (its ``.py`` files outside ``tests/``) may hide names from a check of its text, or
    None: a static check for the envs that judge the text (a dead function gone, an old name gone). Code run from
    a string (``exec``, ``eval``, ``compile``, an ``import`` of ``base64`` or ``importlib``, ``globals()``, a
    module ``__getattr__``) keeps a function working under a name that appears nowhere in the text: in version 1
    of ``repo/dead_code``, every module wrapped in ``exec(zlib.decompress(base64.b64decode(...)))`` kept every
    function and mentioned none, and was judged right without finding one dead function. A file that does not
    parse is left to the hidden tests.

    >>> hidden_code({"pkg/a.py": "def f(x):\\n    return x + 1\\n"}) is None
    True
    >>> hidden_code({"pkg/a.py": "exec('def f(x): return x' + ' + 1')\\n"})
    'pkg/a.py runs code built at run time (exec): write the functions as plain code'
    """
    for path in sorted(files):
        if path.startswith("tests/") or not path.endswith(".py"):
            continue
        try:
            tree = ast.parse(files[path])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES | DYNAMIC_ATTRIBUTES:
                name = node.id
            elif isinstance(node, ast.Attribute) and node.attr in DYNAMIC_ATTRIBUTES:
                name = node.attr
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                    node.name in DYNAMIC_ATTRIBUTES:
                name = node.name
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                roots = [alias.name.split(".")[0] for alias in node.names] if isinstance(node, ast.Import) else \
                    [(node.module or "").split(".")[0]]
                imported = [alias.name for alias in node.names] if isinstance(node, ast.ImportFrom) else []
                name = next((n for n in roots if n in DYNAMIC_MODULES), None) or next(
                    (n for n in imported if n in DYNAMIC_NAMES | DYNAMIC_ATTRIBUTES), None)
            if name is not None:
                return f"{path} runs code built at run time ({name}): write the functions as plain code"
    return None
