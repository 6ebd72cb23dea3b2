"""The code family's shared level schedules and per-input judge (written once, used by several envs)."""

from __future__ import annotations

from typing import Any

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.code import _driven
from palaestra.envs.code._repair import COMPILER_PRESETS, RepairConfig, growth_up_to
from palaestra.envs.code._translation import TranslationConfig, TranslationTask
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers.polyglot import Program


@pytest.mark.parametrize("env_id, cap", [("code/c_compile_repair", 7), ("code/cpp_compile_repair", 5),
                                         ("code/go_compile_repair", 6), ("code/lua_load_repair", 5)])
def test_repair_envs_share_one_config_and_grow_to_their_cap(env_id: str, cap: int) -> None:
    source = make_source(env_id)
    assert source.levels() == 5 and source.unbounded
    assert all(isinstance(source.level_config(level), RepairConfig) for level in range(8))
    if env_id != "code/lua_load_repair":  # Lua reports one error a turn: it gets more turns
        assert [source.level_config(level) for level in range(5)] == list(COMPILER_PRESETS)
    # one more error, 8 more tests and lists 6 longer per level past the presets, up to the env's cap
    last = source.level_config(4)
    assert source.level_config(5) == RepairConfig(min(6, cap), last.attempts, 24, 20)
    assert source.level_config(30).errors == cap
    assert (source.level_config(30).tests, source.level_config(30).max_len) == (80, 60)


def test_growth_up_to_caps_only_the_errors() -> None:
    grown = growth_up_to(errors=6).beyond(list(COMPILER_PRESETS), 3)
    assert grown == RepairConfig(errors=6, attempts=3, tests=40, max_len=32)


@pytest.mark.parametrize("env_id", ["code/python_to_go", "code/python_to_lua", "code/python_to_prolog"])
def test_translation_envs_share_the_schedule_of_translation_task(env_id: str) -> None:
    source = make_source(env_id)
    assert source.levels() == 5 and source.unbounded
    assert [source.level_config(level) for level in range(5)] == list(TranslationTask.presets)
    assert source.level_config(0) == TranslationConfig(tier=1, tests=8, max_len=5)
    assert source.level_config(5) == TranslationConfig(tier=2, tests=18, max_len=30)


def test_judge_each_input_runs_one_driver_block_per_input(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def check_program(program: Program, stdin: str, expected: list[str], **kwargs: Any) -> str:
        seen.update(program=program, stdin=stdin, expected=expected, **kwargs)
        return "report"

    monkeypatch.setattr(_driven.polyglot, "check_program", check_program)
    code = ProgramTexts("sed_transforms")  # its driver.test section: the input on stdin, then the marker
    program = Program("bash", "p")
    report = _driven.judge_each_input(program, code, ["a\n", "b\nc\n"], [["A "], []], "@@end", cpu_seconds=2.0)
    assert report == "report"
    assert seen["driver"] == code("driver.test", text="a\n", marker="@@end") + code("driver.test", text="b\nc\n",
                                                                                      marker="@@end")
    # trailing spaces dropped; no output is one empty line; every block closed by the marker
    assert seen["expected"] == ["A", "@@end", "", "@@end"]
    assert seen["names"] == ["test 1, line 1", "test 1, end of output", "test 2, line 1", "test 2, end of output"]
    assert (seen["program"], seen["stdin"], seen["budget"].cpu_seconds) == (program, "", 2.0)
