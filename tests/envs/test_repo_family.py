"""The repo family: generated repositories, the file tools, and judging by hidden tests in the sandbox."""

from __future__ import annotations

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo.common import call, mentions, numbered


@pytest.fixture(scope="module", autouse=True)
def _needs_python_sandbox() -> None:
    from palaestra.sandbox import probe

    if "python" not in probe().languages:
        pytest.skip("the sandbox cannot run Python here: the repo envs run their tests in it")

ENVS = ("repo/bug_fix", "repo/call_chain_bug", "repo/feature_request", "repo/refactor_preserving",
        "repo/api_migration", "repo/js_bug_fix", "repo/dead_code", "repo/circular_import", "repo/thread_parameter",
        "repo/performance_fix", "repo/merge_conflict", "repo/data_structure_bug", "repo/input_validation",
        "repo/cli_subcommand", "repo/bug_localization")


def play(env_id: str, problem, replies: list[str]):
    task = make_source(env_id)
    state = task.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = task.advance(problem, state, task.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


def _bugged_leaf(problem) -> tuple[str, str, str, str]:
    """The first bug's path, bugged text, fixed text and template key."""
    path, bugged, fixed = problem.data["bugs"][0]
    name = fixed.split("(")[0].removeprefix("def ")
    key = next(leaf.key for leaf in tpl.LEAVES if tpl.leaf_text(leaf, name) == fixed)
    return path, bugged, fixed, key


@pytest.mark.parametrize("env_id", (*ENVS, "repo/write_tests"))
def test_the_oracle_solves_levels_0_2_4_and_the_replay_scores_the_same(env_id: str) -> None:
    task = make_source(env_id)
    for level in (0, 2, 4):
        problem = task.sample(level, 11)
        outcome = play(env_id, problem, task.plan(problem))
        assert outcome.verdict.correct, (level, outcome.observation)
        assert palaestra.score(problem, [task.format_answer(r) for r in task.plan(problem)]).correct


@pytest.mark.parametrize("env_id", ENVS)
def test_the_initial_repository_fails_the_task(env_id: str) -> None:
    """What lets the judge reject an unchanged repository without running it: its static check or its hidden tests
    fail on it."""
    task = make_source(env_id)
    for seed in range(3):
        problem = task.sample(1, seed)
        files = problem.data["files"]
        assert (task.check_files(problem, files) is not None
                or not task.run_hidden(files, task.hidden_cases(problem, files)).correct)


def test_a_hand_checked_repository() -> None:
    problem = make_source("repo/bug_fix").sample(0, 0)
    files = problem.data["files"]
    path, bugged, fixed, key = _bugged_leaf(problem)
    assert bugged in files[path] and fixed not in files[path]
    old, new = tpl.LEAF_BY_KEY[key].bugs[[tpl.leaf_text(tpl.LEAF_BY_KEY[key], "x", i).replace("def x", "")
                                          for i in range(2)].index(bugged[bugged.index("("):])]
    assert old in fixed and new in bugged  # the injected bug is one of its template's listed bugs
    outcome = play("repo/bug_fix", problem, [call("run_tests")])
    assert "failed" in outcome.observation and "FAILED tests/" in outcome.observation
    outcome = play("repo/bug_fix", problem, [call("read_file", path=path)])
    assert numbered(files[path]).splitlines()[0] in outcome.observation


@pytest.mark.parametrize("env_id", ("repo/bug_fix", "repo/call_chain_bug"))
def test_a_general_correct_fix_is_accepted(env_id: str) -> None:
    task = make_source(env_id)
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = task.sample(level, seed)
        replies = []
        for path, bugged, fixed in problem.data["bugs"]:
            name = fixed.split("(")[0].removeprefix("def ")
            key = next(leaf.key for leaf in tpl.LEAVES if tpl.leaf_text(leaf, name) == fixed)
            replies.append(call("edit", path=path, old=bugged, new=tpl.ALTERNATIVES[key].replace("NAME", name)))
        outcome = play(env_id, problem, [*replies, "submit"])
        assert outcome.verdict.correct, (level, outcome.verdict)


def test_a_wrong_fix_and_a_special_cased_fix_are_rejected() -> None:
    task = make_source("repo/bug_fix")
    problem = task.sample(0, 4)
    path, bugged, fixed, key = _bugged_leaf(problem)
    leaf = tpl.LEAF_BY_KEY[key]
    name = fixed.split("(")[0].removeprefix("def ")
    other = next(tpl.leaf_text(leaf, name, i) for i in range(len(leaf.bugs)) if tpl.leaf_text(leaf, name, i) != bugged)
    outcome = play("repo/bug_fix", problem, [call("edit", path=path, old=bugged, new=other), "submit"])
    assert not outcome.verdict.correct and "hidden tests fail" in outcome.verdict.feedback
    # Answer the visible failing inputs by rote, keeping the bug: the visible tests pass, the hidden ones do not.
    test_file = f"tests/test_{name}.py"
    assert test_file in problem.data["files"]
    lines = problem.data["files"][test_file].splitlines()
    shortcut = ""
    for line in lines:
        if line.strip().startswith("result = "):
            arguments = line.split(f"{name}(", 1)[1].rsplit(")", 1)[0]
            shortcut += f"    if ({leaf.params},) == ({arguments},):\n"
        elif line.strip().startswith("assert result == "):
            shortcut += f"        return {line.split('assert result == ')[1].rsplit(', f', 1)[0]}\n"
    header = f"def {name}({leaf.params}):\n"
    rote = bugged.replace(header, header + shortcut)
    outcome = play("repo/bug_fix", problem, [call("edit", path=path, old=bugged, new=rote), call("run_tests")])
    assert "0 failed" in outcome.observation, outcome.observation
    outcome = play("repo/bug_fix", problem, [call("edit", path=path, old=bugged, new=rote), "submit"])
    assert not outcome.verdict.correct


def test_test_files_are_read_only_and_judged_unchanged() -> None:
    task = make_source("repo/bug_fix")
    problem = task.sample(1, 5)
    test_path = next(path for path in problem.data["files"] if path.startswith("tests/"))
    text = problem.data["files"][test_path]
    outcome = play("repo/bug_fix", problem, [call("edit", path=test_path, old=text, new="")])
    assert "may not be edited" in outcome.observation
    outcome = play("repo/bug_fix", problem, [call("edit", path="tests/test_new.py", old="", new="x = 1\n")])
    assert "may not be edited" in outcome.observation
    state = {**task.initial_state(problem), "repo": {**problem.data["files"], test_path: ""}}
    verdict = task.judge_episode(problem, state, "submit")
    assert not verdict.correct and "test file" in verdict.feedback


def test_the_edit_tool_needs_exactly_one_match_and_search_is_literal() -> None:
    task = make_source("repo/bug_fix")
    problem = task.sample(4, 6)
    path = next(p for p in sorted(problem.data["files"]) if problem.data["files"][p].count("def ") >= 2
                and not p.startswith("tests/"))
    outcome = play("repo/bug_fix", problem, [call("edit", path=path, old="def ", new="def")])
    assert "must occur exactly once" in outcome.observation
    outcome = play("repo/bug_fix", problem, [call("edit", path=path, old="no such text", new="x")])
    assert "occurs 0 times" in outcome.observation
    outcome = play("repo/bug_fix", problem, [call("edit", path="../etc/passwd", old="", new="x")])
    assert "not a relative path" in outcome.observation
    outcome = play("repo/bug_fix", problem, [call("search", text="(.*")])
    assert "no line contains" in outcome.observation
    outcome = play("repo/bug_fix", problem, [call("search", text="def ")])
    assert f"{path}:" in outcome.observation


def test_a_refactor_that_keeps_the_old_name_or_replaces_blindly_fails() -> None:
    task = make_source("repo/refactor_preserving")
    problem = task.sample(2, 7)
    old = problem.data["old"]
    target = {path: after for path, _, after in problem.data["changes"]}
    alias = dict(target)
    new_module = next(path for path, before, _ in problem.data["changes"] if not before)
    new_name = target[new_module].split("def ", 1)[1].split("(")[0]
    alias[new_module] += f"\n{old} = {new_name}\n"
    replies = [call("edit", path=path, old=before or "", new=alias[path]) for path, before, _ in problem.data["changes"]]
    verdict = play("repo/refactor_preserving", problem, [*replies, "submit"]).verdict
    assert not verdict.correct and "old name" in verdict.feedback
    # A blind replace of the old name everywhere also renames the callers (checked_<old>): their tests break.
    blind = {path: text.replace(f"_{old}", f"_{new_name}") for path, text in target.items()}
    assert blind != target
    replies = [call("edit", path=path, old=before or "", new=blind[path]) for path, before, _ in problem.data["changes"]]
    verdict = play("repo/refactor_preserving", problem, [*replies, "submit"]).verdict
    assert not verdict.correct and "hidden tests fail" in verdict.feedback, verdict


def test_an_api_migration_that_only_renames_fails_when_parameters_moved() -> None:
    task = make_source("repo/api_migration")
    for seed in range(40):
        problem = task.sample(1, seed)
        if problem.data["parameter_changes"]:
            break
    files = problem.data["files"]
    new_names = [line.split("`")[3].split("(")[0] for line in problem.prompt.splitlines() if line.startswith("- `")]
    renamed = []
    for path, text in files.items():
        if path.startswith("tests/") or path == problem.data["library"]:
            continue
        changed = text
        for old, new in zip(problem.data["old"], new_names):
            changed = changed.replace(f" {old}(", f" {new}(").replace(f"import {old}\n", f"import {new}\n")
        if changed != text:
            renamed.append(call("edit", path=path, old=text, new=changed))
    verdict = play("repo/api_migration", problem, [*renamed, "submit"]).verdict
    assert not verdict.correct and "hidden tests fail" in verdict.feedback


def test_mentions_finds_whole_identifiers_only() -> None:
    assert mentions("x = window_sums(v)", "window_sums")
    assert not mentions("x = checked_window_sums(v)", "window_sums")
    assert not mentions("window_sums_2 = 1", "window_sums")
    assert mentions("from a import b as window_sums", "window_sums")


def test_written_tests_must_kill_every_mutant_and_test_behaviour_not_text() -> None:
    task = make_source("repo/write_tests")
    problem = task.sample(2, 8)
    oracle = problem.data["oracle_tests"]
    imports = "\n".join(line for line in oracle.splitlines() if line.startswith("from "))
    names = [line.split(" import ")[1] for line in imports.splitlines()]

    def submit(text: str):
        return play("repo/write_tests", problem, [call("edit", path="tests/test_mine.py", old="", new=text),
                                                  "submit"]).verdict

    assert submit(oracle).correct
    # Tests that only call the functions kill no mutant.
    weak = imports + "\n\n\ndef test_runs():\n" + "".join(f"    assert {n} is not None\n" for n in names)
    verdict = submit(weak)
    assert not verdict.correct and "faulty versions pass" in verdict.feedback
    # Pinning the functions' constants (every function of the package) also catches every mutant, but fails on
    # an equivalent rewrite.
    pinned = oracle + "\n"
    for path, text in problem.data["files"].items():
        module = path.removesuffix(".py").replace("/", ".")
        for line in text.splitlines():
            if line.startswith("def "):
                name = line.split("(")[0].removeprefix("def ")
                pinned += (f"\n\ndef test_pinned_{name}():\n    from {module} import {name}\n"
                           f"    assert {name}.__code__.co_consts == {_consts(problem, name)!r}\n")
    verdict = submit(pinned)
    assert not verdict.correct and "equivalent implementation" in verdict.feedback, verdict
    # The package's code is read-only; a test that fails on the code as it is fails the task.
    path = next(p for p in problem.data["files"] if p.count("/") == 1 and not p.endswith("__init__.py"))
    outcome = play("repo/write_tests", problem, [call("edit", path=path, old="def ", new="def  ")])
    assert "read-only" in outcome.observation
    verdict = submit(imports + "\n\n\ndef test_wrong():\n    assert False\n")
    assert not verdict.correct and "as it is" in verdict.feedback


def _consts(problem, name: str) -> tuple:
    """The constants of the function ``name`` as the package defines it (compiled here from our own text)."""
    for path, text in problem.data["files"].items():
        if f"def {name}(" in text:
            namespace: dict = {}
            source = text[text.index(f"def {name}("):].split("\n\n\n")[0]
            exec(compile(source, path, "exec"), {"__builtins__": __builtins__}, namespace)
            return namespace[name].__code__.co_consts
    raise AssertionError(name)


def test_each_javascript_function_computes_what_its_python_twin_computes_bug_for_bug() -> None:
    """The JavaScript repositories' expected values come from the Python templates: both agree, bugs included."""
    import json
    import random

    from palaestra import sandbox
    from palaestra.envs.repo._javascript import JS_LEAVES, js_function_text

    if "javascript" not in sandbox.probe().languages:
        pytest.skip("the sandbox cannot run JavaScript here")
    rng = random.Random(5)
    sources, cases = [], []
    for key in JS_LEAVES:
        leaf = tpl.LEAF_BY_KEY[key]
        for bug in (None, *range(len(leaf.bugs))):
            name = f"f_{key}_{bug}"
            sources.append(js_function_text("leaf", key, name, leaf.params, None, bug))
            python = tpl.behaviour([("leaf", key, bug)], leaf.params)
            for _ in range(40):
                args = leaf.draw(rng)
                cases.append([name, args, python(*json.loads(json.dumps(args)))])
    table = "{" + ", ".join(f"{name.split('(')[0].split()[-1]}: {name.split('(')[0].split()[-1]}"
                            for name in sources) + "}"
    program = "\n".join(sources) + f"\nconst table = {table};\nconst cases = {json.dumps([c[:2] for c in cases])};\n" \
        "console.log(JSON.stringify(cases.map(([n, a]) => table[n](...a))));\n"
    result = sandbox.run(program, language="javascript")
    assert result.error is None and result.stdout, result.stderr
    got = json.loads(result.stdout)
    assert [case[2] for case in cases] == got


def test_dead_code_must_all_go_and_live_code_must_stay() -> None:
    task = make_source("repo/dead_code")
    problem = task.sample(3, 9)
    changes = problem.data["changes"]
    everything = [call("edit", path=path, old=before, new=after) for path, before, after in changes]
    assert play("repo/dead_code", problem, [*everything, "submit"]).verdict.correct
    # Leaving one file's dead code in place fails.
    verdict = play("repo/dead_code", problem, [*everything[1:], "submit"]).verdict
    assert not verdict.correct and "dead function" in verdict.feedback
    # Deleting a live function as well fails the hidden tests.
    path, _, after = changes[0]
    live = next(line.split("(")[0].removeprefix("def ") for text in problem.data["files"].values()
                for line in text.splitlines() if line.startswith("def ") and
                line.split("(")[0].removeprefix("def ") not in problem.data["dead"])
    module = next(p for p, t in problem.data["files"].items() if f"def {live}(" in t)
    current = next((a for p, _, a in changes if p == module), problem.data["files"][module])
    start = current.index(f"def {live}(")
    end = current.find("\n\n\n", start)
    trimmed = current[:start] + (current[end + 3:] if end != -1 else "")
    replies = [r for r, (p, _, _) in zip(everything, changes) if p != module]
    replies.append(call("edit", path=module, old=problem.data["files"][module], new=trimmed))
    verdict = play("repo/dead_code", problem, [*replies, "submit"]).verdict
    assert not verdict.correct, live


def test_circular_imports_may_be_broken_another_way_but_not_by_deleting_the_call() -> None:
    task = make_source("repo/circular_import")
    problem = task.sample(2, 10)
    files = problem.data["files"]
    # Another fix: each module's imports at its end, after its definitions.
    moved = []
    for path, text in files.items():
        if path.startswith("tests/") or "\nfrom " not in text:
            continue
        lines = text.splitlines()
        imports = [line for line in lines if line.startswith("from ")]
        rest = [line for line in lines if not line.startswith("from ")]
        moved.append(call("edit", path=path, old=text, new="\n".join(rest) + "\n\n" + "\n".join(imports) + "\n"))
    assert play("repo/circular_import", problem, [*moved, "submit"]).verdict.correct
    # Deleting the function that closes a cycle makes the modules importable, but it is gone.
    path, before, after = problem.data["changes"][0]
    closing = after[after.index("    from ") - 200:].split("def ")[1].split("(")[0]
    start = before.index(f"def {closing}(")
    end = before.find("\n\n\n", start)
    trimmed = before[:start] + (before[end + 3:] if end != -1 else "")
    trimmed = "\n".join(line for line in trimmed.splitlines() if not line.startswith("from ")) + "\n"
    verdict = play("repo/circular_import", problem, [call("edit", path=path, old=before, new=trimmed), "submit"]).verdict
    assert not verdict.correct


def test_a_parameter_added_to_the_function_alone_does_not_reach_its_callers() -> None:
    task = make_source("repo/thread_parameter")
    problem = task.sample(1, 12)
    changes = problem.data["changes"]
    path, before, after = next(change for change in changes if "is not None:" in change[2])

    def function_of(text: str, marker: str) -> str:
        start = text.rindex("def ", 0, text.index(marker) + 4)
        end = text.find("\n\n\n", start)
        return text[start:] if end == -1 else text[start:end + 1]

    new_leaf = function_of(after, "is not None:")
    name = new_leaf.split("(")[0].removeprefix("def ")
    only_leaf = [call("edit", path=path, old=function_of(before, f"def {name}("), new=new_leaf)]
    verdict = play("repo/thread_parameter", problem, [*only_leaf, "submit"]).verdict
    assert not verdict.correct and "hidden tests fail" in verdict.feedback


def test_a_fast_rewrite_of_the_slow_functions_passes_and_the_slow_code_times_out() -> None:
    task = make_source("repo/performance_fix")
    for seed in range(20):
        problem = task.sample(0, seed)
        if "window_sums" not in str(problem.data["large"]):
            break
    (module, name, _, key), = problem.data["large"]
    path = module.replace(".", "/") + ".py"
    text = problem.data["files"][path]
    start = text.index(f"def {name}(")
    end = text.find("\n\n\n", start)
    slow = text[start:] if end == -1 else text[start:end + 1]
    fast = tpl.ALTERNATIVES[key].replace("NAME", name)
    outcome = play("repo/performance_fix", problem, [call("edit", path=path, old=slow, new=fast), "submit"])
    assert outcome.verdict.correct, outcome.verdict
    verdict = task.run_hidden(problem.data["files"], task.hidden_cases(problem, problem.data["files"]))
    assert not verdict.correct


@pytest.mark.parametrize("side", ("ours", "theirs"))
def test_a_merge_resolved_by_taking_one_side_whole_fails(side: str) -> None:
    task = make_source("repo/merge_conflict")
    problem = task.sample(3, 13)
    replies = []
    for path, text in problem.data["files"].items():
        if "<<<<<<< HEAD" not in text:
            continue
        kept, state = [], "outside"
        for line in text.splitlines():
            if line.startswith("<<<<<<< "):
                state = "ours"
            elif line.startswith("=======") and state == "ours":
                state = "theirs"
            elif line.startswith(">>>>>>> "):
                state = "outside"
            elif state in ("outside", side):
                kept.append(line)
        replies.append(call("edit", path=path, old=text, new="\n".join(kept) + "\n"))
    verdict = play("repo/merge_conflict", problem, [*replies, "submit"]).verdict
    assert not verdict.correct


def test_a_class_fixed_the_wrong_way_fails() -> None:
    from palaestra.envs.repo._classes import CLASSES, class_text

    task = make_source("repo/data_structure_bug")
    problem = task.sample(1, 14)
    (path, bugged, fixed), = problem.data["bugs"]
    name = fixed.split(":")[0].removeprefix("class ")
    template = next(t for t in CLASSES if class_text(t, name) == fixed)
    other = next(class_text(template, name, i) for i in range(2) if class_text(template, name, i) != bugged)
    verdict = play("repo/data_structure_bug", problem, [call("edit", path=path, old=bugged, new=other), "submit"]).verdict
    assert not verdict.correct and "hidden tests fail" in verdict.feedback
    assert play("repo/data_structure_bug", problem, [call("edit", path=path, old=bugged, new=fixed), "submit"]).verdict.correct


def test_validation_must_raise_value_error_and_keep_valid_input_working() -> None:
    task = make_source("repo/input_validation")
    problem = task.sample(2, 15)
    changes = problem.data["changes"]

    def submit(transform) -> object:
        replies = [call("edit", path=path, old=before, new=transform(after)) for path, before, after in changes]
        return play("repo/input_validation", problem, [*replies, "submit"]).verdict

    assert submit(lambda text: text).correct
    assert not submit(lambda text: text.replace("raise ValueError", "raise TypeError")).correct
    # Rejecting everything is not validation.
    assert not submit(lambda text: text.replace("    if ", "    if True or ", 1)).correct


def test_a_subcommand_must_parse_its_arguments_as_the_others_do() -> None:
    task = make_source("repo/cli_subcommand")
    problem = task.sample(0, 16)
    (path, before, after), = problem.data["changes"]
    assert play("repo/cli_subcommand", problem, [call("edit", path=path, old=before, new=after), "submit"]).verdict.correct
    # Lists of integers read as lists of words fail.
    new_lines = [line for line in after.splitlines() if line not in before.splitlines() and "lambda" in line]
    wrong = after
    for line in new_lines:
        wrong = wrong.replace(line, line.replace("_ints(", "_words(").replace("int(args", "str(args"))
    assert wrong != after
    verdict = play("repo/cli_subcommand", problem, [call("edit", path=path, old=before, new=wrong), "submit"]).verdict
    assert not verdict.correct


@pytest.mark.parametrize("hostile", [
    "while True:\n    pass\n",
    "import os\nos._exit(0)\n",
    "import sys\nprint('0' * 32 + ' {\"results\": []}')\nsys.exit(0)\n",
    "import builtins\nbuiltins.isinstance = lambda *a: True\n",
])
def test_hostile_code_in_the_repository_fails_without_breaking_the_judge(hostile: str) -> None:
    """Code that loops, exits, forges output or patches builtins at import is judged wrong, never an error."""
    task = make_source("repo/bug_fix")
    problem = task.sample(0, 17)
    path, bugged, fixed = problem.data["bugs"][0]
    replies = [call("edit", path=path, old=bugged, new=fixed + "\n\n" + hostile), call("run_tests"), "submit"]
    state = task.initial_state(problem)
    observations = []
    for reply in replies:
        outcome = task.advance(problem, state, task.format_answer(reply))
        state = outcome.state
        observations.append(outcome.observation)
    assert outcome.done and outcome.verdict.error is None and not outcome.verdict.correct, outcome.verdict
    assert "passed" in observations[1] or "error" in observations[1]


def test_the_bugged_function_is_named_in_any_usual_spelling_and_a_caller_is_not_it() -> None:
    from collections import Counter

    task = make_source("repo/bug_localization")
    problem = task.sample(2, 18)
    for spelling in task.spellings(problem):
        assert task.judge(problem, spelling).correct, spelling
    for wrong in task.corruptions(problem, __import__("random").Random(0)):
        assert not task.judge(problem, wrong).correct, wrong
    caller = problem.data["chain"][0]
    assert "calls the bugged function" in task.judge(problem, caller).feedback
    # No name is the answer often enough for a constant to pay.
    answers = Counter(task.sample(3, seed).answer for seed in range(150))
    assert answers.most_common(1)[0][1] <= 15, answers.most_common(3)


def test_written_tests_cannot_read_which_versions_are_mutants() -> None:
    task = make_source("repo/write_tests")
    problem = task.sample(0, 19)
    peek = ("import os\n\n\ndef test_peek():\n"
            "    assert not os.path.exists('versions.json') and not os.path.exists('tests.json')\n")
    text = problem.data["oracle_tests"] + "\n\n" + peek
    outcome = play("repo/write_tests", problem, [call("edit", path="tests/test_mine.py", old="", new=text), "submit"])
    assert outcome.verdict.correct, outcome.verdict
