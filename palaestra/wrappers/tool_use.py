"""Tool use: turn any palaestra env into a multi-turn env where the model may call tools.

The model calls a tool by writing a JSON object inside ``<tool_call>...</tool_call>`` (the
Hermes / Qwen convention that open models' chat templates use)::

    <tool_call>{"name": "python", "arguments": {"code": "print(2**100)"}}</tool_call>

Each step, :class:`ToolUseEnv` looks for tool calls in the model's text:

- **tool calls present**: each is run (malformed JSON, an unknown tool, bad arguments or a call
  beyond ``max_calls`` get an ``error: ...`` response instead) and the responses, each inside
  ``<tool_response>...</tool_response>``, are the next observation; reward 0, not terminated.
  Any final answer in a message that also calls tools is ignored. When a message calls tools
  after the budget of ``max_calls`` calls was already spent, the episode ends (truncated).
- **no tool call**: the text is the model's answer and goes to the wrapped env's ``step``
  unchanged (single-turn envs verify and terminate; multi-turn envs go on).

The prompt is the wrapped env's prompt followed by the tool list (names, descriptions, JSON
schemas, one per line inside ``<tools></tools>``) and the call format; ``info["tools"]`` holds
the same schemas, ready for a chat template's ``tools=`` argument.

**Marking tool output** (so trainers can mask it out of the loss): every ``info`` carries

- ``info["segments"]``: the episode so far as ``[(role, text), ...]`` with role ``"user"``
  (the prompt and the wrapped env's observations), ``"assistant"`` (the model's actions) or
  ``"tool"`` (tool responses, exactly the observation returned after a tool call);
- ``info["transcript"]``: the exact concatenation of the segments' texts, and
  ``info["tool_output_spans"]``: ``[(start, end), ...]`` character spans of the ``"tool"``
  segments in it (``transcript[start:end]`` is one tool observation).

Train on the ``assistant`` segments only; ``tool`` and ``user`` text is context.

Example::

    import palaestra
    from palaestra.tools import Calculator, PythonTool
    from palaestra.wrappers.tool_use import ToolUseEnv

    env = palaestra.make("arithmetic/expression", level=3, tools=["python", "calculator"], max_tool_calls=4)
    # or: ToolUseEnv(palaestra.make("arithmetic/expression", level=3), [PythonTool(), Calculator()], max_calls=4)
    prompt, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(
        '<tool_call>{"name": "calculator", "arguments": {"expression": "12 * 34"}}</tool_call>')
    obs                                    # '<tool_response>\\n408\\n</tool_response>'
    env.step("<answer>408</answer>")       # the wrapped env judges the answer
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
from gymnasium.error import ResetNeeded

from palaestra.core.problem import Verdict
from palaestra.tools.base import Tool
from palaestra.tools.calls import ToolCall
from palaestra.tools.formats import ToolCallFormat, get_format


def tools_prompt(tools: Sequence[Tool], max_calls: int, tool_format: ToolCallFormat | None = None) -> str:
    """The tool section appended to the prompt, in the model family's tool-call format (default Hermes / Qwen)."""
    fmt = tool_format or get_format(None)
    lines = "\n".join(json.dumps(t.schema(), ensure_ascii=False) for t in tools)
    return (
        "You may call tools to help you. The available tools, as JSON schemas:\n"
        f"<tools>\n{lines}\n</tools>\n\n"
        "To call a tool, write a JSON object with the tool's name and arguments like this:\n"
        f"{fmt.example}\n"
        f"{fmt.result_note} "
        f"You may make at most {max_calls} tool call{'s' if max_calls != 1 else ''} in total. "
        "When you are done, reply without a tool call and give your final answer as instructed above."
    )


class ToolUseEnv(gym.Wrapper[str, str, str, str]):
    """Wrap ``env`` (any palaestra text env, single- or multi-turn) with ``tools``.

    ``max_calls`` bounds the tool calls of one episode (malformed ones count; a message calling
    tools after the budget is spent ends the episode, truncated). Tools are reset and bound to
    the episode's problem at every ``reset`` and closed when an episode ends and on ``close``.
    A tool's infrastructure failure (e.g. the sandbox is down) ends the episode with
    ``info["error"]``: not judged, never a wrong answer. Reachable by id through
    ``palaestra.make(env_id, tools=["python", "calculator"])``.
    """

    def __init__(self, env: gym.Env, tools: Iterable[Tool] = (), max_calls: int = 8,
                 tool_format: str | None = None) -> None:
        super().__init__(env)
        self.format = get_format(tool_format)  # how calls are written and read back (palaestra.tools.formats)
        self.tool_list = list(tools)
        names = [t.name for t in self.tool_list]
        if len(set(names)) != len(names):
            raise ValueError(f"tool names must be distinct, got {names}")
        if max_calls < 0:
            raise ValueError("max_calls must be >= 0")
        self.tools = {t.name: t for t in self.tool_list}
        self.max_calls = max_calls
        self.calls_used = 0
        self.segments: list[tuple[str, str]] = []
        self._identity: dict[str, Any] = {}
        self._infra: list[str] = []
        self._active = False

    @property
    def spec(self) -> Any:
        """The wrapped env's spec with the tools in its kwargs: ``gymnasium.make(spec)`` rebuilds this wrapper."""
        inner = self.env.spec
        if inner is None:
            return None
        tools: dict[str, Any] = {"tools": [t.name for t in self.tool_list], "max_tool_calls": self.max_calls}
        if self.format.name != "hermes":
            tools["tool_format"] = self.format.name
        return dataclasses.replace(inner, kwargs={**inner.kwargs, **tools})

    # --- the Gymnasium API -----------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        for tool in self.tool_list:
            tool.reset()
            tool.bind(info.get("problem"))
        prompt = f"{obs}\n\n{tools_prompt(self.tool_list, self.max_calls, self.format)}" if self.tool_list else obs
        self.calls_used = 0
        self.segments = [("user", prompt)]
        self._infra = []
        self._active = True
        self._identity = {k: info[k] for k in ("env_id", "level", "seed") if k in info}
        return prompt, {**info, "tools": [t.schema() for t in self.tool_list], **self._marks()}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if not isinstance(action, str):
            raise TypeError(f"an action must be a str (the model's text), got {type(action).__name__}")
        if not self._active:
            raise ResetNeeded("call reset() before step(), and again after the episode ended")
        self.segments.append(("assistant", action))
        calls = self.format.parse(action, limit=self.max_calls + 1)
        if calls:
            return self._tool_step(calls)
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.segments.append(("user", obs))
        if terminated or truncated:
            self._end()
        return obs, reward, terminated, truncated, {**info, "tool_calls": 0, "calls_used": self.calls_used,
                                                     **self._marks()}

    def render(self) -> str | None:
        if self.env.render_mode == "ansi":
            return "".join(text for _, text in self.segments)
        return None

    def close(self) -> None:
        for tool in self.tool_list:
            tool.close()
        super().close()

    # --- helpers ----------------------------------------------------------------
    def _tool_step(self, calls: list[ToolCall]) -> tuple[str, float, bool, bool, dict[str, Any]]:
        exhausted = self.calls_used >= self.max_calls
        errors_before = len(self._infra)
        responses = [self._run(call) for call in calls]
        obs = "\n".join(self.format.result(r) for r in responses)
        self.segments.append(("tool", obs))
        new_errors = self._infra[errors_before:]
        if new_errors:
            verdict = Verdict.failed("; ".join(new_errors))
        else:
            verdict = Verdict(0.0, False, True, f"{len(calls)} tool call{'s' if len(calls) != 1 else ''}")
        info = {**self._identity, "verdict": verdict, "correct": False, "parsed": True, "tool_calls": len(calls),
                "calls_used": self.calls_used, **self._marks()}
        if verdict.error is not None:
            info["error"] = verdict.error
        truncated = exhausted or verdict.error is not None
        if truncated:
            self._end()
        return obs, 0.0, False, truncated, info

    def _run(self, call: ToolCall) -> str:
        if self.calls_used >= self.max_calls:
            return f"error: tool call limit reached ({self.max_calls} per episode); give your final answer now"
        self.calls_used += 1
        if call.error is not None:
            return f"error: {call.error}"
        tool = self.tools.get(call.name or "")
        if tool is None:
            known = ", ".join(self.tools) or "none"
            return f"error: unknown tool {str(call.name)[:100]!r} (available: {known})"
        output = tool.call(call.arguments)
        if tool.infrastructure_error:
            self._infra.append(tool.infrastructure_error)
        return output if output.strip() else "(no output)"

    def _end(self) -> None:
        self._active = False
        for tool in self.tool_list:
            tool.close()

    def _marks(self) -> dict[str, Any]:
        spans, transcript, position = [], [], 0
        for role, text in self.segments:
            if role == "tool":
                spans.append((position, position + len(text)))
            transcript.append(text)
            position += len(text)
        return {"segments": list(self.segments), "transcript": "".join(transcript), "tool_output_spans": spans}
