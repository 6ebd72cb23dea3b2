"""Red team, round 29, the repo family: what earned reward without doing the task, and the fixes."""

from __future__ import annotations

import base64
import zlib

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.repo.common import call, mentions
from palaestra.envs.repo.write_tests import run_mutants


@pytest.fixture(scope="module", autouse=True)
def _needs_python_sandbox() -> None:
    from palaestra.sandbox import probe

    if "python" not in probe().languages:
        pytest.skip("the sandbox cannot run Python here: the repo envs run their tests in it")


def _play(env_id: str, problem, replies: list[str]):
    task = make_source(env_id)
    state = task.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = task.advance(problem, state, task.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


def _in_exec(text: str) -> str:
    """A module that runs ``text`` from a compressed string: no name of it appears in the file."""
    blob = base64.b64encode(zlib.compress(text.encode())).decode()
    return f'import base64, zlib\nexec(zlib.decompress(base64.b64decode("{blob}")).decode())\n'


NOTING = '''import os


def test_no_other_version_ran_here():
    seen = os.path.exists(".versions_seen")
    with open(".versions_seen", "a") as handle:
        handle.write("x")
    assert not seen
'''


def _star(files: dict[str, str]) -> str:
    """Tests that test nothing: pass the code as it is, fail a one-point change of it, and pass a rewritten version
    only when it is one change away from every rewritten version noted (in a file) before it."""
    originals = {path: text for path, text in files.items() if not path.startswith("tests/")}
    return f'''import difflib, json, sys

ORIGINALS = {originals!r}


def regions(a, b):
    return sum(op[0] != "equal" for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes())


def test_pin():
    frame = sys._getframe()
    while "FILES" not in frame.f_globals:
        frame = frame.f_back
    current = frame.f_globals["FILES"]
    if all(current.get(p) == t for p, t in ORIGINALS.items()):
        return
    assert not all(regions(ORIGINALS[p], current[p]) <= 1 for p in ORIGINALS)
    mine = "\\n".join(current[p] for p in sorted(ORIGINALS))
    try:
        with open(".seen.json") as handle:
            seen = json.load(handle)
    except OSError:
        seen = []
    with open(".seen.json", "w") as handle:
        json.dump(seen + [mine], handle)
    assert seen and all(regions(mine, other) == 1 for other in seen)
'''


def test_write_tests_versions_cannot_pass_notes_to_one_another() -> None:
    # Before: every version ran in one sandbox job, one after the other, and a test could leave a file for the
    # tests of the next version. Tests that noted each rewritten version and passed the one a single change away
    # from every one noted before (the rewrite; its faulty copies are each one change from it) earned the reward
    # whenever the rewrite was not the first rewritten version to run: 0.33 of level 0, 0.27 of level 2 (seeds
    # 0-14), without testing anything. After: one job per version, a fresh folder each: a note is never seen (the
    # oracle's tests with a note-checking test pass), and the tests that test nothing earn 0.
    task = make_source("repo/write_tests")
    problem = task.sample(0, 29_000)
    tests = {"tests/test_behaviour.py": problem.data["oracle_tests"], "tests/test_notes.py": NOTING}
    verdict = run_mutants(tests, problem.data["versions"])
    assert verdict.correct, verdict
    for seed in (29_001, 29_002):
        problem = task.sample(0, seed)
        verdict = run_mutants({"tests/test_pin.py": _star(problem.data["files"])}, problem.data["versions"])
        assert verdict.error is None and not verdict.correct, verdict


def _modules(problem) -> list[tuple[str, str]]:
    return [(path, text) for path, text in problem.data["files"].items()
            if not path.startswith("tests/") and not path.endswith("__init__.py")]


def test_dead_code_every_module_run_from_a_string_fails() -> None:
    # Before: every module wrapped in exec(zlib.decompress(base64.b64decode(...))) kept every function working and
    # mentioned no dead name: right on 1.0 of levels 0, 2 and 4 (seeds 0-9) without finding one dead function (a
    # hand-written variant, exec("<module with a marker in each name>".replace("@", "")), 0.8-1.0). After: 0.
    task = make_source("repo/dead_code")
    problem = task.sample(2, 29_010)
    replies = [call("edit", path=path, old=text, new=_in_exec(text)) for path, text in _modules(problem)]
    verdict = _play("repo/dead_code", problem, [*replies, "submit"]).verdict
    assert not verdict.correct and "built at run time" in verdict.feedback, verdict
    everything = [call("edit", path=path, old=before, new=after) for path, before, after in problem.data["changes"]]
    assert _play("repo/dead_code", problem, [*everything, "submit"]).verdict.correct


def test_refactor_an_alias_hidden_in_a_string_fails() -> None:
    # Before: a new module `from pkg.old_module import old as new` and every module that names the old function
    # run from a compressed string: the prompt's "no alias either" unchecked, right on 1.0 of levels 0, 2 and 4
    # (seeds 0-9). After: 0.
    task = make_source("repo/refactor_preserving")
    problem = task.sample(1, 29_020)
    old = problem.data["old"]
    new_path, _, new_text = next(change for change in problem.data["changes"] if not change[1])
    new_name = new_text.split("def ", 1)[1].split("(")[0]
    old_path = next(path for path, text in problem.data["files"].items() if f"def {old}(" in text)
    alias = f"from {old_path.removesuffix('.py').replace('/', '.')} import {old} as {new_name}\n"
    replies = [call("edit", path=new_path, old="", new=_in_exec(alias))]
    replies += [call("edit", path=path, old=text, new=_in_exec(text)) for path, text in _modules(problem)
                if mentions(text, old)]
    verdict = _play("repo/refactor_preserving", problem, [*replies, "submit"]).verdict
    assert not verdict.correct and "built at run time" in verdict.feedback, verdict


def test_hidden_code_passes_the_generated_code_and_flags_each_way_to_run_text() -> None:
    from palaestra.envs.repo.common import hidden_code

    for env_id in ("repo/dead_code", "repo/refactor_preserving", "repo/api_migration", "repo/merge_conflict"):
        task = make_source(env_id)
        for level, seed in ((0, 29_030), (4, 29_031)):
            problem = task.sample(level, seed)
            target = {**problem.data["files"], **{path: after for path, _, after in problem.data["changes"]}}
            assert hidden_code(target) is None, (env_id, level)
    for text in ("exec('def f(): return 1')\n", "f = eval('lambda: 1')\n", "import base64\n",
                 "from importlib import import_module\n", "m = __import__('zlib')\n", "globals()['f'] = len\n",
                 "def __getattr__(name):\n    return len\n", "import builtins as b\n", "g = f.__globals__\n",
                 "code = compile('1', 'x', 'eval')\n", "setattr(object, 'x', 1)\n"):
        assert hidden_code({"pkg/a.py": text}) is not None, text
    assert hidden_code({"pkg/a.py": "def f(code, types):\n    return [c for c in code if c in types]\n"}) is None
    assert hidden_code({"tests/test_a.py": "import os\n", "pkg/a.py": "def f(:\n"}) is None


def test_bug_localization_declares_the_wrapper_name_rule() -> None:
    # Run the tests, strip the failing test function's wrapper prefix (checked_, safe_, ...), answer the rest: the
    # truthful wrapper names are built from the bugged computation's name, so this reads no body and was right in
    # 0.90, 0.73, 0.51, 0.34, 0.16 of levels 0-4 (seeds 0-149). Declared, so the kit prints it (below half at the
    # top level).
    task = make_source("repo/bug_localization")
    rule = task.heuristics()["the failing test's function, its wrapper prefixes stripped"]
    zero = [task.sample(0, seed) for seed in range(20)]
    assert sum(task.judge(problem, rule(problem, None, (), None)).correct for problem in zero) >= 15
    top = [task.sample(4, seed) for seed in range(40)]
    assert sum(task.judge(problem, rule(problem, None, (), None)).correct for problem in top) < 20
