"""The tool-use wrapper: scripted models call tools, then answer; malformed calls; budgets; marking."""

from __future__ import annotations

import json
import re
import warnings

import pytest
from gymnasium.utils.env_checker import check_env

import palaestra
from palaestra.tools import Calculator, PythonTool
from palaestra.tools.calls import parse_tool_calls
from palaestra.wrappers.tool_use import ToolUseEnv


def call(name: str, **arguments) -> str:
    return f"<tool_call>{json.dumps({'name': name, 'arguments': arguments})}</tool_call>"


def response(obs: str) -> str:
    match = re.search(r"<tool_response>\n(.*?)\n</tool_response>", obs, re.DOTALL)
    assert match, obs
    return match.group(1)


@pytest.fixture
def env():
    env = ToolUseEnv(palaestra.make("arithmetic/expression", level=3), tools=[PythonTool(), Calculator()],
                     max_calls=3)
    yield env
    env.close()


def test_scripted_model_uses_python_then_answers(env: ToolUseEnv) -> None:
    prompt, info = env.reset(seed=11)
    assert "<tools>" in prompt and '"name": "python"' in prompt and "<tool_call>" in prompt
    assert [t["function"]["name"] for t in info["tools"]] == ["python", "calculator"]
    expression = info["problem"].prompt.split("\n\n")[1]
    obs, reward, terminated, truncated, info = env.step(
        "I will compute it.\n" + call("python", code=f"value = {expression}\nprint(value)"))
    assert (reward, terminated, truncated) == (0.0, False, False)
    value = response(obs)
    obs, reward, terminated, truncated, info = env.step(call("python", code="value == " + value))
    assert response(obs) == "True"  # the interpreter kept `value` between calls
    python = env.tools["python"]
    assert python._session is not None
    obs, reward, terminated, truncated, info = env.step(f"The result is <answer>{value}</answer>")
    assert (reward, terminated) == (1.0, True) and info["correct"]
    assert info["calls_used"] == 2
    assert python._session is None  # the episode's interpreter is closed when the episode ends


def test_tool_output_is_marked(env: ToolUseEnv) -> None:
    prompt, _ = env.reset(seed=3)
    env.step(call("calculator", expression="6 * 7"))
    _, _, _, _, info = env.step("<answer>0</answer>")
    roles = [role for role, _ in info["segments"]]
    assert roles == ["user", "assistant", "tool", "assistant", "user"]
    transcript = info["transcript"]
    assert transcript == "".join(text for _, text in info["segments"]) and transcript.startswith(prompt)
    [(start, end)] = info["tool_output_spans"]
    assert transcript[start:end] == "<tool_response>\n42\n</tool_response>"


def test_malformed_and_unknown_calls_get_error_responses(env: ToolUseEnv) -> None:
    env.reset(seed=0)
    cases = {
        "<tool_call>{not json}</tool_call>": "not valid JSON",
        '<tool_call>["python"]</tool_call>': "must be a JSON object",
        call("shell", cmd="rm -rf /"): "unknown tool 'shell'",
        call("python", source="print(1)"): "missing required argument 'code'",
    }
    env.max_calls = len(cases) + 1
    for text, error in cases.items():
        obs, reward, terminated, truncated, _ = env.step(text)
        assert error in response(obs) and response(obs).startswith("error:")
        assert (reward, terminated, truncated) == (0.0, False, False)


def test_call_parsing_is_lenient_where_models_are() -> None:
    [c] = parse_tool_calls('<tool_call>\n{"name": "calculator", "arguments": "{\\"expression\\": \\"1+1\\"}"}')
    assert c.name == "calculator" and c.arguments == {"expression": "1+1"} and c.error is None  # unclosed tag
    [c] = parse_tool_calls('<tool_call>```json\n{"name": "python", "parameters": {"code": "1"}}\n```</tool_call>')
    assert c.arguments == {"code": "1"}
    assert len(parse_tool_calls(call("a") * 100, limit=5)) == 5
    assert parse_tool_calls("<tool_call>" + "[" * 100_000 + "</tool_call>")[0].error


def test_max_calls_is_enforced(env: ToolUseEnv) -> None:
    env.reset(seed=1)
    obs, *_ = env.step(call("calculator", expression="1+1") * 2)
    assert obs.count("<tool_response>") == 2
    obs, _, _, truncated, info = env.step(call("calculator", expression="2+2") * 2)  # one left of 3
    assert response(obs) == "4" and "tool call limit reached" in obs and not truncated
    assert info["calls_used"] == 3
    obs, reward, terminated, truncated, info = env.step(call("calculator", expression="3+3"))
    # Spending calls past the budget is the model's doing: truncated, judged (no error).
    assert truncated and not terminated and reward == 0.0 and "error" not in info


def test_answers_pass_through_to_multi_turn_envs() -> None:
    env = ToolUseEnv(palaestra.make("games/mastermind"), tools=[Calculator()], max_calls=2)
    env.reset(seed=5)
    obs, *_ = env.step(call("calculator", expression="6^4"))
    assert response(obs) == "1296"
    for _ in range(20):
        obs, reward, terminated, truncated, _ = env.step(env.env.oracle_action())
        if terminated or truncated:
            break
    assert terminated and reward == 1.0
    env.close()


def test_code_env_with_python_tool() -> None:
    env = ToolUseEnv(palaestra.make("code/array_pipeline", level=1), tools=[PythonTool()], max_calls=2)
    _, info = env.reset(seed=4)
    reference = info["problem"].answer
    test = info["problem"].data["tests"][-1]
    obs, *_ = env.step(call("python", code=f"{reference}\nprint(solve(*{test['args']!r}))"))
    assert response(obs) == str(test["expected"])
    _, reward, terminated, _, _ = env.step(f"<answer>\n```python\n{reference}```\n</answer>")
    assert (reward, terminated) == (1.0, True)
    env.close()


def test_check_env_passes(env: ToolUseEnv) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env)
    multi = ToolUseEnv(palaestra.make("code/test_feedback"), tools=[Calculator()], max_calls=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(multi)
