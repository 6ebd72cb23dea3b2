"""Write tests for functions of a generated Python repository that catch every hidden faulty version of them.

The repository's code is correct and read-only; the prompt names one or more of its functions (leaves, or
from level 1 functions that call others across modules). The agent reads the code and writes tests in new
files ``tests/test_*.py`` (plain ``def test_...():`` functions with ``assert``), runs them, and answers
``submit``.

Judged by mutation testing, one sandbox job per version of the package: the new test files run in a forked
process with the modules imported from memory (no source files to read): the code as it is and an equivalent
rewrite of the named functions (written differently), on which every test must pass, so a test that pins the
source text or bytecode instead of the behaviour fails; and hidden mutants, one per listed fault of each
function's computation (an off-by-one, a wrong operator, a wrong field), each checked at generation to change
the result on some input, and as many faults of the rewrite (so a test that accepts the text as it is or any
rewrite larger than a one-point fault fails too), on which some test must fail. A job holds one version only and
starts from a fresh folder, so a test cannot compare versions (version 2 ran them all in one job, and a test that
noted each version in a file told the rewrite from its faults); the runner reports pass or fail through a pipe,
on a result line that carries a token it reads from its stdin only after the tests finished (the tests get
``/dev/null`` as stdin), and the version's file is deleted before any test runs. The episode is
solved when all mutants are killed and both correct versions pass. Levels grow the functions to test, the
calls between a tested function and the computation, and the modules; the difficulty is four per function
plus two per call plus the modules plus a tenth of the package's lines.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo.common import (
    MEMORY_IMPORTER,
    SUBMIT,
    Function,
    RepoTask,
    call,
    draw_cases,
    name_for,
    new_repository,
    package_lines,
    read_submit,
)

VERSION_SECONDS = 2

# The mutation runner (our code): one version of the package, in a forked child that runs the new test files. Each
# version runs in its own sandbox job (see run_mutants), so no test sees another version or what it left behind.
MUTATION_RUNNER = r"""
import importlib.abc, importlib.util, json, os, signal, sys, types
with open("version.json") as handle:
    FILES = json.load(handle)
with open("tests.json") as handle:
    TESTS = json.load(handle)
for name in ("version.json", "tests.json"):
    try:
        os.remove(name)
    except OSError:
        pass

""" + MEMORY_IMPORTER + r"""

def run():
    sys.meta_path.insert(0, _Finder())
    for path in sorted(TESTS):
        module = types.ModuleType("tests." + path.rsplit("/", 1)[-1][:-3])
        exec(compile(TESTS[path], path, "exec"), module.__dict__)
        for name, test in list(vars(module).items()):
            if name.startswith("test_") and callable(test):
                test()


read_end, write_end = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(read_end)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    signal.alarm(SECONDS)
    try:
        run()
        verdict = b"pass"
    except BaseException:
        verdict = b"fail"
    os.write(write_end, verdict)
    os._exit(0)
os.close(write_end)
chunks = []
while True:
    chunk = os.read(read_end, 64)
    if not chunk:
        break
    chunks.append(chunk)
token = sys.stdin.readline().strip()
print(token + " " + json.dumps(b"".join(chunks) == b"pass"))
""".replace("SECONDS", str(VERSION_SECONDS))


@register
class WriteTests(RepoTask):
    id = "repo/write_tests"
    family = "repo"
    description = "Write tests for named functions of a generated Python repository that catch hidden faulty versions."
    tags = ("repo", "multi-turn", "tools", "code", "testing", "agentic")
    tests_writable = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        modules: int
        functions: int  # functions to test
        depth: int  # calls between a tested function and its computation
        others: int  # other functions of the package
        budget: int

    presets = (
        Config(1, 1, 0, 1, 6),
        Config(2, 1, 1, 1, 8),
        Config(2, 2, 1, 2, 10),
        Config(3, 3, 1, 2, 12),
        Config(3, 4, 2, 3, 14),
    )
    growth = Growth(steps={"modules": 1, "functions": 1, "depth": 1, "others": 1, "budget": 2},
                    limits={"modules": 12, "functions": 8, "depth": 5, "others": 10, "budget": 30})

    def read_only(self, problem: Problem, path: str) -> str | None:
        if not path.startswith("tests/"):
            return "the package's code is read-only in this task (write tests in new files tests/test_*.py)"
        if not path.rsplit("/", 1)[-1].startswith("test_") or path.count("/") != 1:
            return "new test files are tests/test_<name>.py"
        return super().read_only(problem, path)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a repository with killable mutants", attempts=30)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        repository, _ = new_repository(rng, config.modules)
        taken: set[str] = set()
        leaves = rng.sample(tpl.LEAVES, config.functions)
        targets: list[Function] = []
        for leaf in leaves:
            position = rng.randrange(config.modules)
            function = repository.add_leaf(rng, taken, leaf, repository.modules[position])
            for _ in range(config.depth):
                wrapper = rng.choice(tpl.WRAPPERS)
                position = rng.randint(position, config.modules - 1)
                function = repository.add(Function(
                    name_for(rng, taken, tuple(f"{prefix}_{function.leaf().name}" for prefix in wrapper.names)),
                    repository.modules[position], "wrapper", wrapper.key, leaf.params, inner=function))
            targets.append(function)
        others = [leaf for leaf in tpl.LEAVES if leaf not in leaves]
        for leaf in (rng.choice(others) for _ in range(config.others)):
            repository.add_leaf(rng, taken, leaf)
        files = repository.files([])
        package = dict(files)
        # The equivalent rewrite: every tested computation in another form.
        rewrite = dict(files)
        for target in targets:
            computation = target.leaf()
            path = repository.path(computation.module)
            rewrite[path] = rewrite[path].replace(
                computation.text(), tpl.ALTERNATIVES[computation.key].replace("NAME", computation.name))
        mutants: list[dict[str, str]] = []
        killers: list[tuple[Function, list[Any], Any]] = []  # a killing case per mutant (for the oracle)
        for target in targets:
            computation = target.leaf()
            for bug in range(len(tpl.LEAF_BY_KEY[computation.key].bugs)):
                computation.bug = bug
                cases = draw_cases(rng, target, 1, differing=True)
                mutant = {**package, repository.path(computation.module): repository.module_text(computation.module)}
                computation.bug = None
                if cases is None:
                    return None
                mutants.append(mutant)
                killers.append((target, *cases[0]))
            # Faulty versions of the rewrite: a test that accepts the text as it is or any larger rewrite (a
            # one-point fault changes a line or two) told the mutants apart without testing behaviour.
            path = repository.path(computation.module)
            alternative = tpl.ALTERNATIVES[computation.key].replace("NAME", computation.name)
            for old, new in tpl.ALTERNATIVE_BUGS[computation.key]:
                faulty = alternative.replace(old, new, 1)
                case = _killing_case(rng, target, faulty.replace(f"def {computation.name}(", "def fn(", 1))
                if case is None:
                    return None
                mutants.append({**rewrite, path: rewrite[path].replace(alternative, faulty, 1)})
                killers.append((target, *case))
        names = "\n".join(f"- `{t.name}` in {repository.path(t.module)}" for t in targets)
        prompt = (
            f"You are working on a small Python repository: the package {repository.package}/. Its code is correct "
            f"and read-only. Write tests for these functions:\n{names}\n"
            "Put them in one or more new files tests/test_<name>.py as plain `def test_...():` functions using "
            "`assert`. They are judged by mutation testing: they must pass on the code as it is and on any "
            "equivalent implementation of these functions, and for each hidden faulty version of them (a "
            "function changed to compute something else), some test must fail.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        test_text = _oracle_tests(repository, killers)
        data = {"files": files, "hidden": [], "budget": config.budget, "versions": [package, rewrite, *mutants],
                "oracle_tests": test_text, "functions": len(targets), "modules": config.modules,
                "calls": sum(len(t.chain()) - 1 for t in targets)}
        return Problem(prompt=prompt, answer=SUBMIT, data=data)

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        if not read_submit(answer):
            return Verdict.unparsed(f"the final answer of this task is the word {SUBMIT!r}, once the tests are "
                                    "written")
        files = state.get("repo", problem.data["files"])
        initial = problem.data["files"]
        changed = sorted(path for path in initial if files.get(path) != initial[path])
        if changed:
            return Verdict.wrong(f"the package's code was changed ({', '.join(changed[:3])})")
        tests = {path: text for path, text in files.items() if path not in initial and path.startswith("tests/")}
        if not tests:
            return Verdict.wrong("no new test file tests/test_*.py was written")
        return run_mutants(tests, problem.data["versions"])

    def plan_calls(self, problem: Problem) -> list[str]:
        return [call("list_files"), call("edit", path="tests/test_behaviour.py", old="",
                                         new=problem.data["oracle_tests"]), call("run_tests")]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 4 * data["functions"] + 2 * data["calls"] + data["modules"] + package_lines(data["files"]) / 10


def _killing_case(rng: random.Random, target: Function, faulty_leaf: str,
                  attempts: int = 60) -> tuple[list[Any], Any] | None:
    """Arguments on which ``target``, its leaf replaced by ``faulty_leaf`` (our own text, a function ``fn``), gives
    another result than the correct one (or raises), with the correct result; None when the draws find none."""
    fixed = target.behaviour(True)
    function = tpl.compiled(faulty_leaf, "fn")
    for wrapper in target.chain()[1:]:
        template = tpl.compiled(tpl.wrapper_text(tpl.WRAPPER_BY_KEY[wrapper.key], "fn", "inner", target.params), "fn")
        function = tpl.bind(template, "inner", function)
    draw = tpl.LEAF_BY_KEY[target.leaf().key].draw
    for _ in range(attempts):
        args = draw(rng)
        expected = fixed(*tpl.copied(args))
        try:
            if function(*tpl.copied(args)) == expected:
                continue
        except Exception:  # a fault that raises differs too
            pass
        return args, expected
    return None


def _oracle_tests(repository: Any, killers: list[tuple[Function, list[Any], Any]]) -> str:
    imports = sorted({(repository.dotted(f.module), f.name) for f, _, _ in killers})
    lines = [f"from {module} import {name}" for module, name in imports] + [""]
    for number, (function, args, expected) in enumerate(killers, start=1):
        lines += ["", f"def test_case_{number}():",
                  f"    assert {function.name}({', '.join(repr(a) for a in args)}) == {expected!r}", ""]
    return "\n".join(lines)


def run_mutants(tests: Mapping[str, str], versions: list[dict[str, str]]) -> Verdict:
    """The new ``tests`` run on every version (the code, an equivalent rewrite, then the mutants), one sandbox job
    per version, stopping at the first version that decides a failure.

    One job per version, so that the tests of one version cannot pass anything to the next: in version 2 every
    version ran in one job, one after the other, and a test could note each version it saw in a file of the
    job's folder; the correct rewrite is the one version that differs by one fault from each faulty rewrite, so a
    "test" that passed the code as it is, failed everything one fault away from it, and passed a rewritten
    version one fault away from every rewritten version noted before it earned the reward whenever the rewrite
    was not the first rewritten version to run (a third of level 0), without testing anything."""
    for index, files in enumerate(versions):
        passed = _run_version(tests, files)
        if isinstance(passed, Verdict):
            return passed
        if index == 0 and not passed:
            return Verdict.wrong("the tests fail on the code as it is")
        if index == 1 and not passed:
            return Verdict.wrong("the tests fail on an equivalent implementation of the functions")
        if index >= 2 and passed:
            return Verdict.wrong(f"at least one of the {len(versions) - 2} faulty versions passes every test "
                                 "(faulty versions pass)")
    return Verdict.right()


def _run_version(tests: Mapping[str, str], files: Mapping[str, str]) -> bool | Verdict:
    """Whether the ``tests`` pass on one version of the package (one sandbox job), or the verdict of a run that
    could not tell (an infrastructure failure, or tests that stopped the runner)."""
    from palaestra import sandbox
    from palaestra.sandbox import Limits

    token = secrets.token_hex(16)
    seconds = VERSION_SECONDS + 2.0
    limits = Limits(wall_seconds=seconds, cpu_seconds=seconds, memory_bytes=256 * 2**20, processes=16,
                    output_bytes=1 << 14)
    try:
        result = sandbox.run(MUTATION_RUNNER, stdin=token + "\n",
                             files={"version.json": json.dumps(dict(files)), "tests.json": json.dumps(dict(tests))},
                             limits=limits)
    except Exception as exc:  # the sandbox is unavailable: not the model's fault
        return Verdict.failed(f"the mutation run could not start: {type(exc).__name__}: {str(exc)[:200]}")
    if result.error is not None:
        return Verdict.failed(f"the mutation run failed: {result.error[:200]}")
    prefix = token + " "
    line = next((ln for ln in reversed(result.stdout.splitlines()) if ln.startswith(prefix)), None)
    if line is None:
        return Verdict.wrong("the tests stopped the mutation run (no results came back)")
    try:
        passed = json.loads(line[len(prefix):])
    except ValueError:
        return Verdict.failed("unreadable mutation-run output")
    if not isinstance(passed, bool):
        return Verdict.failed("malformed mutation-run output")
    return passed
