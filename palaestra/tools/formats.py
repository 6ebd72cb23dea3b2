"""Tool-call formats of the common model families: how a call is written, read back, and answered.

Open models are trained on different spellings of a tool call. One :class:`ToolCallFormat` per family
says how the prompt asks for calls, how calls are found in a reply, and how results are written back:

========== ================================================================== =============================
name       a call in the model's text                                         a result in the next turn
========== ================================================================== =============================
``hermes`` ``<tool_call>{"name": "f", "arguments": {...}}</tool_call>``       ``<tool_response>...</tool_response>``
           (Hermes, Qwen 2/2.5/3; the default)
``llama3`` the whole reply is ``{"name": "f", "parameters": {...}}``          ``{"output": ...}`` (JSON)
           (Llama 3.1+ JSON tool calling; ``<|python_tag|>`` may lead it;
           several calls are separated by ``;``)
``mistral``  ``[TOOL_CALLS][{"name": "f", "arguments": {...}}, ...]``         ``[TOOL_RESULTS]{"content": ...}[/TOOL_RESULTS]``
``openai`` an assistant message's ``tool_calls`` (a chat API's structured      as ``hermes`` in text envs
           field), rendered into text by :func:`from_openai_message`
========== ================================================================== =============================

:func:`detect` picks the format from a chat template's text. Parsing is linear: substring search and
``json.JSONDecoder.raw_decode`` over bounded text, never a regular expression over model text; every
parser returns :class:`~palaestra.tools.calls.ToolCall` records and never raises.

Example::

    >>> fmt = FORMATS["mistral"]
    >>> calls = fmt.parse('[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "1+1"}}]')
    >>> [(c.name, c.arguments) for c in calls]
    [('calculator', {'expression': '1+1'})]
    >>> FORMATS["llama3"].parse('<|python_tag|>{"name": "calculator", "parameters": {"expression": "2"}}')[0].name
    'calculator'
    >>> detect("{% for m in messages %}...<tool_call>...{% endfor %}")
    'hermes'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from palaestra.tools.calls import CLOSE_CALL, MAX_CALL_CHARS, OPEN_CALL, ToolCall, parse_tool_calls

MISTRAL_CALLS, MISTRAL_RESULTS, MISTRAL_RESULTS_END = "[TOOL_CALLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"
LLAMA_PYTHON_TAG = "<|python_tag|>"
_DECODER = json.JSONDecoder()


def _call_from_object(obj: Any, arguments_key: str = "arguments") -> ToolCall:
    """A ToolCall from one decoded JSON object (arguments may be an object or a JSON string, OpenAI-style)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return ToolCall(None, None, 'a tool call must be a JSON object {"name": ..., "' + arguments_key + '": {...}}')
    arguments = obj.get(arguments_key, obj.get("arguments", obj.get("parameters", {})))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError):
            return ToolCall(obj["name"], None, "the arguments are not a valid JSON object")
    if not isinstance(arguments, dict):
        return ToolCall(obj["name"], None, "the arguments must be a JSON object")
    return ToolCall(obj["name"], arguments)


def _decode(text: str, start: int) -> tuple[Any, int] | None:
    """One JSON value decoded at ``text[start:]`` (after blanks), with where it ended; None if there is none."""
    while start < len(text) and text[start] in " \t\r\n":
        start += 1
    try:
        return _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return None


def _parse_hermes(text: str, limit: int) -> list[ToolCall]:
    return parse_tool_calls(text, limit) if OPEN_CALL in text else []


def _parse_llama3(text: str, limit: int) -> list[ToolCall]:
    body = text.strip()
    if body.startswith(LLAMA_PYTHON_TAG):
        body = body[len(LLAMA_PYTHON_TAG):]
    if not body.lstrip().startswith("{"):
        return []  # a reply that is not a JSON object is a final answer, not a call
    if len(body) > MAX_CALL_CHARS:
        return [ToolCall(None, None, f"tool call longer than {MAX_CALL_CHARS} characters")]
    calls: list[ToolCall] = []
    position = 0
    while position < len(body) and len(calls) < limit:
        decoded = _decode(body, position)
        if decoded is None:
            calls.append(ToolCall(None, None, "the tool call is not valid JSON"))
            break
        obj, position = decoded
        calls.append(_call_from_object(obj, "parameters"))
        while position < len(body) and body[position] in " \t\r\n;":
            position += 1
    return calls


def _parse_mistral(text: str, limit: int) -> list[ToolCall]:
    marker = text.find(MISTRAL_CALLS)
    if marker < 0:
        return []
    start = marker + len(MISTRAL_CALLS)
    if len(text) - start > MAX_CALL_CHARS:
        return [ToolCall(None, None, f"tool call longer than {MAX_CALL_CHARS} characters")]
    decoded = _decode(text, start)
    if decoded is None:
        return [ToolCall(None, None, "the tool calls are not valid JSON")]
    obj = decoded[0]
    objects = obj if isinstance(obj, list) else [obj]
    return [_call_from_object(o) for o in objects[:limit]] or [ToolCall(None, None, "an empty list of tool calls")]


def _hermes_result(output: str) -> str:
    return f"<tool_response>\n{output}\n</tool_response>"


def _json_result(output: str) -> str:
    return json.dumps({"output": output}, ensure_ascii=False)


def _mistral_result(output: str) -> str:
    return f"{MISTRAL_RESULTS}{json.dumps({'content': output}, ensure_ascii=False)}{MISTRAL_RESULTS_END}"


@dataclass(frozen=True)
class ToolCallFormat:
    """One family's spelling of tool calls: the prompt's instruction, a parser, a call writer, a result writer."""

    name: str
    example: str  # how one call looks, shown in the prompt
    parser: Callable[[str, int], list[ToolCall]]
    writer: Callable[[str, Mapping[str, Any]], str]
    result_writer: Callable[[str], str]
    result_note: str  # how results come back, said in the prompt

    def parse(self, text: str, limit: int = 64) -> list[ToolCall]:
        """Every call in ``text`` (at most ``limit``); an empty list when the reply calls no tool. Never raises."""
        try:
            return self.parser(text, limit)
        except Exception as exc:  # a parser bug must not crash an episode
            return [ToolCall(None, None, f"unreadable tool call ({type(exc).__name__})")]

    def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> str:
        """A reply calling ``name`` with ``arguments`` in this format (what an oracle writes)."""
        return self.writer(name, dict(arguments or {}))

    def result(self, output: str) -> str:
        """A tool's output as the next observation."""
        return self.result_writer(output)


FORMATS: dict[str, ToolCallFormat] = {
    "hermes": ToolCallFormat(
        "hermes", f'{OPEN_CALL}{{"name": "<tool name>", "arguments": {{...}}}}{CLOSE_CALL}', _parse_hermes,
        lambda name, arguments: f"{OPEN_CALL}{json.dumps({'name': name, 'arguments': arguments})}{CLOSE_CALL}",
        _hermes_result,
        "Each result comes back inside <tool_response></tool_response>."),
    "llama3": ToolCallFormat(
        "llama3", '{"name": "<tool name>", "parameters": {...}} (the whole reply; separate several calls with ;)',
        _parse_llama3, lambda name, arguments: json.dumps({"name": name, "parameters": dict(arguments)}),
        _json_result, 'Each result comes back as a JSON object {"output": ...}.'),
    "mistral": ToolCallFormat(
        "mistral", f'{MISTRAL_CALLS}[{{"name": "<tool name>", "arguments": {{...}}}}]', _parse_mistral,
        lambda name, arguments: f"{MISTRAL_CALLS}{json.dumps([{'name': name, 'arguments': dict(arguments)}])}",
        _mistral_result, f"Each result comes back inside {MISTRAL_RESULTS}...{MISTRAL_RESULTS_END}."),
}
FORMATS["openai"] = FORMATS["hermes"]  # structured tool_calls reach a text env rendered by from_openai_message
DEFAULT_FORMAT = "hermes"


def get_format(name: str | None) -> ToolCallFormat:
    """The format called ``name`` (None: the default, Hermes/Qwen); a ValueError lists the choices."""
    key = DEFAULT_FORMAT if name is None else name
    if key not in FORMATS:
        raise ValueError(f"unknown tool-call format {name!r}; choose one of {sorted(FORMATS)}")
    return FORMATS[key]


def detect(chat_template: str | None) -> str:
    """The tool-call format a chat template speaks (by the markers it renders), else the default."""
    template = chat_template or ""
    if MISTRAL_CALLS in template:
        return "mistral"
    if OPEN_CALL in template:
        return "hermes"
    if LLAMA_PYTHON_TAG in template or "ipython" in template:
        return "llama3"
    return DEFAULT_FORMAT


def from_openai_message(message: Mapping[str, Any], format_name: str | None = None) -> str:
    """An OpenAI-style assistant message (``content`` and ``tool_calls``) as the text a palaestra env reads.

    Each ``tool_calls[i].function`` (``name`` and ``arguments`` as a JSON string) is written in the
    given format after the message's text content.
    """
    fmt = get_format(format_name)
    content = message.get("content") or ""
    text = content if isinstance(content, str) else ""
    calls: Sequence[Any] = message.get("tool_calls") or ()
    written = []
    for entry in calls:
        function = entry.get("function", {}) if isinstance(entry, Mapping) else {}
        parsed = _call_from_object({"name": function.get("name"), "arguments": function.get("arguments", "{}")})
        if parsed.name is not None and parsed.arguments is not None:
            written.append(fmt.call(parsed.name, parsed.arguments))
    if fmt.name == "llama3" and written:
        return "; ".join(written)  # a Llama call is the whole reply
    return "\n".join(part for part in (text, *written) if part)
