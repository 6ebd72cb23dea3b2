"""Tool-call formats per model family: what each parses, what it refuses, and a tool episode in each."""

from __future__ import annotations

import json

import pytest

import palaestra
from palaestra.tools.formats import FORMATS, detect, from_openai_message, get_format

CALC = {"expression": "12 * 34"}

# (format, reply text, expected [(name, arguments or None, error substring or None)])
CASES = [
    ("hermes", '<tool_call>{"name": "calculator", "arguments": {"expression": "12 * 34"}}</tool_call>',
     [("calculator", CALC, None)]),
    ("hermes", 'first <tool_call>{"name": "a", "arguments": {}}</tool_call> then '
               '<tool_call>{"name": "b", "arguments": "{\\"x\\": 1}"}</tool_call>', [("a", {}, None), ("b", {"x": 1}, None)]),
    ("hermes", "<tool_call>{oops}</tool_call>", [(None, None, "not valid JSON")]),
    ("hermes", "no call here: <answer>408</answer>", []),
    ("llama3", '{"name": "calculator", "parameters": {"expression": "12 * 34"}}', [("calculator", CALC, None)]),
    ("llama3", '<|python_tag|>{"name": "calculator", "parameters": {"expression": "12 * 34"}}',
     [("calculator", CALC, None)]),
    ("llama3", '{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"k": 2}}', [("a", {}, None),
                                                                                         ("b", {"k": 2}, None)]),
    ("llama3", '{"name": "a", "parameters": [1]}', [("a", None, "must be a JSON object")]),
    ("llama3", "{not json", [(None, None, "not valid JSON")]),
    ("llama3", "The answer is <answer>408</answer>", []),
    ("mistral", '[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "12 * 34"}}]',
     [("calculator", CALC, None)]),
    ("mistral", '[TOOL_CALLS] [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": "y"}}]',
     [("a", {}, None), ("b", {"x": "y"}, None)]),
    ("mistral", "[TOOL_CALLS][{broken", [(None, None, "not valid JSON")]),
    ("mistral", "[TOOL_CALLS][]", [(None, None, "empty list")]),
    ("mistral", "<answer>408</answer>", []),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES)
def test_each_format_parses_its_own_spelling(name: str, text: str, expected: list) -> None:
    calls = FORMATS[name].parse(text)
    assert [(c.name, c.arguments) for c in calls] == [(n, a) for n, a, _ in expected]
    for call, (_, _, error) in zip(calls, expected):
        assert (call.error is None) if error is None else (error in (call.error or ""))


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_written_call_reads_back(name: str) -> None:
    fmt = FORMATS[name]
    arguments = {"name": "shadowing the parameter", "code": "print('<tool_call>')"}
    [call] = fmt.parse(fmt.call("python", arguments))
    assert (call.name, call.arguments, call.error) == ("python", arguments, None)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_hostile_replies_are_bounded_and_never_raise(name: str) -> None:
    fmt = FORMATS[name]
    for text in ["[TOOL_CALLS]" + "[" * 100_000, "{" * 100_000, "<tool_call>" * 10_000, "x" * 1_000_000,
                 '[TOOL_CALLS]"' + "a" * 40_000 + '"']:
        calls = fmt.parse(text, limit=5)
        assert len(calls) <= 5 and all(c.name is None or isinstance(c.name, str) for c in calls)


@pytest.mark.parametrize(("template", "expected"), [
    ("{{- '<tool_call>\\n' -}}", "hermes"), ("{{ '[TOOL_CALLS]' }}", "mistral"),
    ("<|start_header_id|>ipython<|end_header_id|>", "llama3"), ("{{ '<|python_tag|>' }}", "llama3"),
    ("plain template", "hermes"), (None, "hermes"),
])
def test_detect_reads_the_chat_template(template: str | None, expected: str) -> None:
    assert detect(template) == expected


def test_openai_tool_calls_become_text_in_the_chosen_format() -> None:
    message = {"content": "Let me compute.", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "calculator", "arguments": json.dumps(CALC)}}]}
    for name in ("hermes", "mistral", "llama3"):
        [call] = FORMATS[name].parse(from_openai_message(message, name))
        assert (call.name, call.arguments) == ("calculator", CALC)
    with pytest.raises(ValueError, match="unknown tool-call format"):
        get_format("gorilla")


@pytest.mark.parametrize("name", ["hermes", "llama3", "mistral"])
def test_a_tool_episode_in_each_format(name: str) -> None:
    fmt = FORMATS[name]
    env = palaestra.make("arithmetic/expression", tools=["calculator"], tool_format=name)
    prompt, info = env.reset(seed=3)
    assert fmt.example in prompt
    obs, reward, terminated, truncated, info = env.step(fmt.call("calculator", CALC))
    assert obs == fmt.result("408") and reward == 0.0 and not terminated and info["tool_calls"] == 1
    answer = env.unwrapped.problem.answer
    obs, reward, terminated, truncated, info = env.step(f"<answer>{answer}</answer>")
    assert reward == 1.0 and terminated
    assert env.spec.kwargs.get("tool_format", "hermes") == name


def test_the_openai_client_turns_structured_tool_calls_into_text() -> None:
    from palaestra.integrations.openai_client import _parse

    body = {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "calculator", "arguments": json.dumps(CALC)}}]}}]}
    text, finish = _parse(json.dumps(body).encode())
    [call] = FORMATS["hermes"].parse(text)
    assert (call.name, call.arguments, finish) == ("calculator", CALC, "tool_calls")
