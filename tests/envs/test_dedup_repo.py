"""The repo family's shared helpers (palaestra/envs/repo/common.py): what each env now takes from one place."""

from __future__ import annotations

import random

from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo.common import (
    BUNDLE,
    MEMORY_IMPORTER,
    Function,
    call,
    changes_between,
    edit_calls,
    intro,
    name_for,
    new_repository,
)
from palaestra.envs.repo.write_tests import MUTATION_RUNNER


def test_changes_between_lists_differing_and_new_paths_in_order() -> None:
    files = {"b.py": "y = 1\n", "a.py": "x = 1\n", "c.py": "same\n"}
    target = {"c.py": "same\n", "b.py": "y = 2\n", "a.py": "x = 2\n", "d.py": "new\n"}
    assert changes_between(files, target) == [
        ["a.py", "x = 1\n", "x = 2\n"], ["b.py", "y = 1\n", "y = 2\n"], ["d.py", "", "new\n"]]
    assert changes_between(target, target) == []


def test_edit_calls_reads_each_existing_file_before_editing_it_then_runs_the_tests() -> None:
    changes = [["pkg/a.py", "x = 1", "x = 2"], ["pkg/new.py", "", "z = 3"]]
    assert edit_calls(changes) == [
        call("read_file", path="pkg/a.py"), call("edit", path="pkg/a.py", old="x = 1", new="x = 2"),
        call("edit", path="pkg/new.py", old="", new="z = 3"),  # a new file: nothing to read first
        call("run_tests")]
    assert edit_calls([]) == [call("run_tests")]


def test_intro_is_the_prompts_first_sentence() -> None:
    assert intro("pkg") == ("You are working on a small Python repository: the package pkg/ and its visible tests "
                            "in tests/.")


def test_cases_for_calls_the_function_from_its_module() -> None:
    repository, _ = new_repository(random.Random(1), 2)
    leaf = tpl.LEAVES[0]
    function = repository.add(Function("f", repository.modules[1], "leaf", leaf.key, leaf.params))
    assert repository.cases_for(function, [([1, 2], 3), (["a"], {"raised": "ValueError"})]) == [
        [f"{repository.package}.{repository.modules[1]}", "f", [1, 2], 3],
        [f"{repository.package}.{repository.modules[1]}", "f", ["a"], {"raised": "ValueError"}]]
    assert repository.cases_for(function, []) == []


def test_add_leaf_draws_the_name_then_the_module_as_the_envs_did() -> None:
    leaf = tpl.LEAVES[2]
    repository, _ = new_repository(random.Random(7), 3)
    before = len(repository.functions)
    rng, twin = random.Random(5), random.Random(5)
    taken: set[str] = set()
    added = repository.add_leaf(rng, taken, leaf)
    name = name_for(twin, set(), leaf.names)  # the old inline code, on a twin rng: the same draws in the same order
    module = twin.choice(repository.modules)
    assert (added.name, added.module, added.kind, added.key, added.params) == (name, module, "leaf", leaf.key,
                                                                               leaf.params)
    assert taken == {name} and repository.functions[before:] == [added] and rng.random() == twin.random()
    placed = repository.add_leaf(rng, taken, leaf, repository.modules[0])  # a given module draws no module
    twin_name = name_for(twin, {name}, leaf.names)
    assert (placed.name, placed.module) == (twin_name, repository.modules[0]) and rng.random() == twin.random()


def test_the_memory_importer_is_shared_by_the_bundle_and_the_mutation_runner() -> None:
    assert MEMORY_IMPORTER in BUNDLE and MEMORY_IMPORTER in MUTATION_RUNNER
    assert BUNDLE.count("class _Finder") == 1 and MUTATION_RUNNER.count("class _Finder") == 1


def test_the_memory_importer_imports_packages_and_modules_from_files() -> None:
    files = {"pkg/__init__.py": "", "pkg/mod.py": "from pkg.base import one\n\ndef two():\n    return one() + 1\n",
             "pkg/base.py": "def one():\n    return 1\n"}
    namespace: dict = {}
    exec("import importlib.abc, importlib.util\n" + MEMORY_IMPORTER, namespace)
    namespace["FILES"] = files
    finder = namespace["_Finder"]()
    assert finder.find_spec("pkg").submodule_search_locations is not None  # a package
    assert finder.find_spec("pkg.mod") is not None and finder.find_spec("pkg.missing") is None
    assert finder.find_spec("json") is None  # anything else: the normal import system
