"""The compile-error repair envs: code/go_compile_repair, code/c_compile_repair, code/cpp_compile_repair.

The trusted reference on a hand-checked test, the injected errors against the real compiler (every error the
prompt lists is among the compiler's), the gold repair winning in one turn, the broken program answered with
the compiler's real output, and a fix that compiles but drops a step (the obvious fix of a Go unused variable)
failing the hidden tests without showing them. Each test that compiles skips, naming the tool, where the
toolchain is missing."""

from __future__ import annotations

import re

import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.code._repair import describe, inject, run_spec
from palaestra.envs.code.c_compile_repair import CCompileRepair
from palaestra.envs.code.cpp_compile_repair import CppCompileRepair
from palaestra.envs.code.go_compile_repair import GoCompileRepair

ENVS = {"go": "code/go_compile_repair", "c": "code/c_compile_repair", "cpp": "code/cpp_compile_repair"}


def _need(language: str) -> None:
    from palaestra import sandbox

    try:
        chain = sandbox.probe().languages[language]
    except Exception as exc:  # no sandbox at all for this user
        pytest.skip(f"sandbox unavailable: {exc}")
    if not chain.available:
        pytest.skip(f"{chain.reason} (install it with .ci/setup_toolchains.sh)")


def _broken(problem: Problem, language: str) -> tuple[str, list[str]]:
    code = problem.prompt.split(f"```{language}\n", 1)[1].split("\n```", 1)[0]
    messages = problem.prompt.split("reports:\n```\n", 1)[1].split("\n```", 1)[0].splitlines()
    return code, messages


def test_the_reference_semantics_on_a_hand_checked_test() -> None:
    spec = {"filter": {"kind": "above", "c": 10}, "map": {"kind": "affine", "a": 2}, "reducers": ["total", "best"]}
    # kept 12, 20 -> 2*12+1 = 25, 2*20+1 = 41
    assert run_spec(spec, 1, [5, 12, 20]) == "66 41"
    spec = {"filter": {"kind": "residue", "m": 3, "r": 1}, "map": {"kind": "indexed", "a": 2},
            "reducers": ["weighted", "span"]}
    # kept 1, 4, 7 -> 1 + 0, 4 + 2*3*1, 7 + 2*3*2 = 1, 10, 19; weighted 1 + 20 + 57
    assert run_spec(spec, 3, [1, 2, 4, 6, 7]) == "78 18"
    assert run_spec(spec, 3, [2, 6]) == "0 0"
    assert "x mod 3 = 1" in describe(spec) and "2*k*i" in describe(spec)


def test_injection_renumbers_lines_and_places_messages() -> None:
    from palaestra.envs.code._repair import HERE, Site

    lines = ["a", "  b", "c", "d"]
    deleted = Site("missing return", "b", (), ((HERE, "missing return"),))
    widened = Site("unused import", "d", ("d", "e"), (("e", "e unused"),))
    broken, messages = inject(lines, [deleted, widened], "f.go")
    assert broken == ["a", "c", "d", "e"]
    assert messages == ["f.go:2: missing return", "f.go:4: e unused"]


@pytest.mark.parametrize("language", ["go", "c", "cpp"])
def test_every_listed_error_is_among_the_real_compilers(language: str) -> None:
    _need(language)
    from palaestra import sandbox

    source = make_source(ENVS[language])
    for level, seed in ((0, 1), (2, 3), (4, 5)):
        problem = source.sample(level, seed)
        code, messages = _broken(problem, language)
        assert len(messages) >= len(problem.data["errors"])
        result = sandbox.run(code, language=language)
        assert result.compile_failed
        real = [re.sub(r"^(\S+?:\d+):\d+:", r"\1:", line) for line in result.compile_output.splitlines()]
        for message in messages:
            assert any(line.startswith(message) for line in real), (message, result.compile_output)


@pytest.mark.parametrize("language", ["go", "c", "cpp"])
def test_the_reference_repairs_in_one_turn_and_the_broken_program_gets_the_compilers_output(language: str) -> None:
    _need(language)
    source = make_source(ENVS[language])
    problem = source.sample(1, 7)
    won = source.play(problem, source.initial_state(problem), problem.answer or "")
    assert won.done and won.verdict.correct and won.verdict.reward == 1.0
    code, messages = _broken(problem, language)
    lost = source.play(problem, source.initial_state(problem), f"```{language}\n{code}\n```")
    assert not lost.done and lost.verdict.reward == 0.0 and lost.state == {"submitted": 1}
    assert "compilation failed" in lost.observation
    first_line = messages[0].split(":")[1]
    assert f":{first_line}:" in lost.observation  # the real diagnostics, with their line numbers


def _weighted_problem(source: GoCompileRepair) -> Problem:
    for seed in range(200):
        problem = source.sample(0, seed)
        if "weighted" in problem.data["spec"]["reducers"] and problem.data["spec"]["map"]["kind"] == "affine":
            return problem
    raise AssertionError("no problem with a weighted sum in 200 seeds")


def test_go_dropping_an_unused_variable_compiles_but_fails_the_hidden_tests_without_showing_them() -> None:
    _need("go")
    source = GoCompileRepair()
    problem = _weighted_problem(source)
    gold = problem.answer or ""
    # the obvious repair of "weight declared but not used": delete the variable (the weighting is lost)
    dropped = re.sub(r"acc \+= weight \* (\w)", r"acc += \1", gold.replace("weight := i + 1", "_ = i"))
    assert dropped != gold
    outcome = source.play(problem, source.initial_state(problem), dropped)
    assert not outcome.verdict.correct and not outcome.done
    assert "tests passed" in outcome.observation and "compilation" not in outcome.observation
    hidden = problem.data["expected"][2:]
    if "hidden test" in outcome.observation or "examples pass" in outcome.observation:
        for said in (outcome.observation, outcome.verdict.feedback):
            assert "expected" not in said
            assert not any(f"'{line}'" in said for line in hidden)


def test_the_three_envs_inject_different_error_classes() -> None:
    kinds = {}
    for language, cls in (("go", GoCompileRepair), ("c", CCompileRepair), ("cpp", CppCompileRepair)):
        source = cls()
        kinds[language] = {kind for seed in range(40) for kind in source.sample(4, seed).data["errors"]}
    assert {"unused variable", "shadowing :=", "unused import"} <= kinds["go"]
    assert {". on a pointer", "missing struct keyword", "write through const"} <= kinds["c"]
    assert {"lambda capture", "const member function", "reference to a temporary"} <= kinds["cpp"]
    assert not (kinds["cpp"] - {"undeclared name", "too few arguments", "missing declaration"}) & kinds["go"]


def test_an_unreadable_submission_costs_a_turn_without_running() -> None:
    source = GoCompileRepair()
    problem = source.sample(0, 0)
    outcome = source.advance(problem, source.initial_state(problem), "<answer>```python\nprint(1)\n```</answer>")
    assert not outcome.verdict.parsed and "Python is not accepted" in outcome.observation


# -- translations: python_to_lua, python_to_go, python_to_prolog ---------------------------------------------

def test_translation_references_on_hand_checked_inputs() -> None:
    from palaestra.envs.code import python_to_go, python_to_lua, python_to_prolog
    from palaestra.envs.code._translation import ERROR, call

    wrap = python_to_lua.WrapPairs()
    p = {"name": "f", "k": 1, "op": "times", "start": 0}
    assert call(wrap.python(p), "f", [[1, 2, 3]]) == 1 * 3 + 2 * 1 + 3 * 2  # xs[-1] is the last element
    assert call(wrap.naive_python(p), "f", [[1, 2, 3]]) == ERROR  # the naive Lua reads xs[0] = nil
    find = python_to_lua.FindPositions()
    p = {"name": "f", "needle": "ab", "step": 1}
    assert call(find.python(p), "f", ["abab.ab"]) == [0, 2, 5]
    counts = python_to_go.OrderedCounts()
    p = {"name": "f", "m": 3}
    assert call(counts.python(p), "f", [[-1, 2, -4, 3]]) == [2, 3, 0, 1]  # Python's -1 % 3 is 2
    assert call(counts.naive_python(p), "f", [[-1, 2, -4, 3]]) == [-1, 2, 2, 1, 0, 1]  # Go's is -1
    runs = python_to_prolog.LongRuns()
    assert call(runs.python({"name": "f", "least": 2}), "f", [[1, 1, 2, 3, 3, 3]]) == [[1, 2], [3, 3]]


@pytest.mark.parametrize(("env_id", "language"), [("code/python_to_lua", "lua"), ("code/python_to_go", "go"),
                                                  ("code/python_to_prolog", "prolog")])
def test_translation_gold_passes_and_the_naive_translation_fails(env_id: str, language: str) -> None:
    _need(language)
    source = make_source(env_id)
    seen_naive = False
    for seed in range(6):
        problem = source.sample(3, seed)
        assert source.verify(problem, problem.answer or "").correct
        template = source.templates[problem.data["template"]]
        naive = template.naive_target(problem.data["params"])
        if naive is not None:
            seen_naive = True
            verdict = source.verify(problem, f"```{language}\n{source.file(naive)}\n```")
            assert verdict.parsed and not verdict.correct and "tests passed" in verdict.feedback
    assert seen_naive


def test_go_translation_of_floor_division_needs_the_floor() -> None:
    _need("go")
    from palaestra.envs.code.python_to_go import PythonToGo

    source = PythonToGo()
    problem = next(p for p in (source.sample(0, s) for s in range(100)) if p.data["template"] == "floor_mix")
    name, d = problem.data["params"]["name"], problem.data["params"]["d"]
    m, w = problem.data["params"]["m"], problem.data["params"]["w"]
    truncating = (f"package main\n\nfunc {name}(xs []int) int {{\n\tt := 0\n\tfor _, x := range xs {{\n"
                  f"\t\tt += x/{d} - (x%{m})*{w}\n\t}}\n\treturn t\n}}\n")
    assert not source.verify(problem, f"```go\n{truncating}```").correct


def test_prolog_translation_needs_a_fence_and_accepts_the_swipl_label() -> None:
    _need("prolog")
    from palaestra.envs.code.python_to_prolog import PythonToProlog

    source = PythonToProlog()
    problem = source.sample(1, 2)
    code = source.sources(problem)["prolog"]
    assert source.verify(problem, f"```swipl\n{code}```").correct
    assert not source.verify(problem, code).parsed


# -- lua_load_repair ------------------------------------------------------------------------------------------

def test_lua_shows_the_first_error_as_lua_reports_it() -> None:
    _need("lua")
    from palaestra import sandbox

    source = make_source("code/lua_load_repair")
    for level, seed in ((0, 1), (2, 3), (4, 5)):
        problem = source.sample(level, seed)
        code, messages = _broken(problem, "lua")
        assert len(messages) == 1 and len(problem.data["errors"]) == level + 1
        result = sandbox.run(code, language="lua", stdin="0\n")
        assert result.exit_code != 0 and messages[0] in result.stderr


def test_lua_deleting_continue_loads_but_keeps_what_the_filter_drops() -> None:
    _need("lua")
    from palaestra.envs.code.lua_load_repair import LuaLoadRepair

    source = LuaLoadRepair()
    problem = source.sample(1, 0)
    gold = problem.answer or ""
    # the obvious repair of "syntax error near 'end'" after `continue`: delete the skipping line (the filter is lost)
    dropped = re.sub(r"if [^\n]* then goto continue end", "", gold)
    assert dropped != gold
    outcome = source.play(problem, source.initial_state(problem), dropped)
    assert not outcome.verdict.correct and "tests passed" in outcome.observation
    won = source.play(problem, source.initial_state(problem), gold)
    assert won.done and won.verdict.reward == 1.0
