"""Tool calls in model text: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``.

The convention open models' chat templates use (Hermes / Qwen). Parsing is linear-time substring
search plus ``json.loads`` on each bounded block, never a regular expression over model text.

Example::

    >>> [call.name for call in parse_tool_calls(tool_call("calculator", expression="1+1"))]
    ['calculator']
    >>> parse_tool_calls("<tool_call>{oops}</tool_call>")[0].error
    'the tool call is not valid JSON (Expecting property name enclosed in double quotes)'
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

OPEN_CALL, CLOSE_CALL = "<tool_call>", "</tool_call>"
MAX_CALL_CHARS = 30_000


class ToolCall(NamedTuple):
    """One parsed call: a name and arguments, or the reason it could not be read."""

    name: str | None
    arguments: Any
    error: str | None = None


def tool_call(name: str, **arguments: Any) -> str:
    """A reply text calling tool ``name`` with ``arguments`` (what an oracle writes)."""
    return f"{OPEN_CALL}{json.dumps({'name': name, 'arguments': arguments})}{CLOSE_CALL}"


def parse_tool_calls(text: str, limit: int = 64) -> list[ToolCall]:
    """Every ``<tool_call>`` block of ``text`` (at most ``limit``), parsed; never raises.

    A block runs to its closing tag or to the end of the text (generation is often stopped at
    the closing tag). Linear time: plain substring search, no regular expression.
    """
    calls: list[ToolCall] = []
    position = text.find(OPEN_CALL)
    while position >= 0 and len(calls) < limit:
        start = position + len(OPEN_CALL)
        end = text.find(CLOSE_CALL, start)
        body = text[start:] if end < 0 else text[start:end]
        calls.append(_parse_call(body))
        if end < 0:
            break
        position = text.find(OPEN_CALL, end + len(CLOSE_CALL))
    return calls


def _parse_call(body: str) -> ToolCall:
    body = body.strip()
    if len(body) > MAX_CALL_CHARS:
        return ToolCall(None, None, f"tool call longer than {MAX_CALL_CHARS} characters")
    if body.startswith("```") and body.endswith("```") and len(body) >= 6:  # a fenced JSON block
        body = body[3:-3]
        newline = body.find("\n")
        if newline >= 0 and body[:newline].strip().isalpha():
            body = body[newline + 1:]
        body = body.strip()
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        return ToolCall(None, None, f"the tool call is not valid JSON ({reason})")
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return ToolCall(None, None, 'a tool call must be a JSON object {"name": ..., "arguments": {...}}')
    arguments = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(arguments, str):  # OpenAI-style arguments serialized as a string
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError):
            return ToolCall(obj["name"], None, "the arguments are not a valid JSON object")
    if not isinstance(arguments, dict):
        return ToolCall(obj["name"], None, "the arguments must be a JSON object")
    return ToolCall(obj["name"], arguments)
