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
        assert "expected" not in outcome.observation
        assert not any(f"'{line}'" in outcome.observation for line in hidden)


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
