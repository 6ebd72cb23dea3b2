"""The tool-use family's shared machinery: a task whose turns are tool calls, and the tools it carries.

A :class:`ToolTask` is a :class:`~palaestra.core.multiturn.MultiTurnTask` that carries its own tools.
Each turn the model either

- calls tools, writing a JSON object inside ``<tool_call></tool_call>`` (the Hermes / Qwen convention
  of :mod:`palaestra.wrappers.tool_use`; several calls in one reply are allowed), and gets every
  result inside ``<tool_response></tool_response>`` (reward 0, the episode goes on); or
- replies without a tool call: the reply carries its final answer in the problem's answer format
  (``<answer>...</answer>`` by default), which the env judges; the episode ends.

A reply with neither costs a turn and says what was missing. The episode allows ``budget`` tool
calls (``problem.data["budget"]``; calls past it get an error response) and ``budget + 2`` turns.
Tools are pure functions of the problem's data and the call (the search index, the database and
the data files are rebuilt from specs in ``problem.data`` and cached), except Python: the state keeps
the code of every earlier Python call, and each call re-runs them silently in a fresh sandboxed
interpreter before the new code, so variables persist between calls and a replay
(``palaestra.score(problem, [replies...])``) gives the same episode; and the shell: the state keeps
the episode's file tree (a compressed tar, base64) and working directory, which each call restores
into a fresh sandboxed bash and reads back. The state is JSON-native: ``{"turn", "calls", "cells"}``,
plus ``"tree"`` and ``"cwd"`` for a task carrying the shell. A tool's infrastructure failure (the sandbox is down, the search
index cannot be built) ends the episode with ``Verdict.failed`` (not judged), never a wrong answer.

The tool-call parser below mirrors :func:`palaestra.wrappers.tool_use.parse_tool_calls`, which an env
may not import (layering); it belongs in ``palaestra/tools`` (see the family report).

Example::

    >>> call = tool_call("calculator", expression="12 * 34")
    >>> call
    '<tool_call>{"name": "calculator", "arguments": {"expression": "12 * 34"}}</tool_call>'
    >>> parse_tool_calls(call)[0].arguments
    {'expression': '12 * 34'}
"""

from __future__ import annotations

import base64
import functools
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict
from palaestra.core import extract as extraction
from palaestra.tools.base import Tool
from palaestra.tools.calls import CLOSE_CALL, OPEN_CALL, ToolCall, parse_tool_calls, tool_call  # noqa: F401
from palaestra.tools.shell import ShellTool, unpack

MAX_REPLY_CHARS = 40_000
TOOL_OUTPUT_CHARS = 4_000


def counted_units(text: str) -> tuple[str, ...]:
    """Unit words a count may carry, from the first "How many ..." question in ``text``: the counted noun
    ("How many cells have" -> ``cells``; "How many of the people who" -> ``people``; "How many decimal
    digits" -> ``digits``, ``decimal digits``), so "36 cells" reads as 36. Empty when there is none.

    >>> counted_units("Question: How many of the people who work for X were born in Y?")
    ('people',)
    """
    at = text.lower().find("how many ")
    if at < 0:
        return ()
    qualifiers: list[str] = []
    for word in text[at + len("how many "): at + 100].split():
        word = word.strip("?,.()").lower()
        if word in ("of", "the"):
            continue
        if word in ("distinct", "decimal"):
            qualifiers.append(word)
            continue
        return (word, *(f"{q} {word}" for q in qualifiers)) if word.isalpha() else ()
    return ()


# --- Python, replayed ---------------------------------------------------------------------------

# The program run in the sandbox for every Python call: it re-runs the earlier cells with their
# output discarded, then the new cell, displaying a final expression's value as a REPL does.
# It runs model code with exec inside the sandbox only; this process never executes it.
PYTHON_HARNESS = r'''
import ast, io, json, sys, traceback
from contextlib import redirect_stderr, redirect_stdout
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
with open("_cells.json") as handle:
    CELLS = json.load(handle)
NAMESPACE = {"__name__": "__main__", "__builtins__": __builtins__}

def report():
    kind, value, tb = sys.exc_info()
    frames = [f for f in traceback.extract_tb(tb) if f.filename == "<cell>"]
    if frames:
        print("Traceback (most recent call last):", file=sys.stderr)
        print("".join(traceback.format_list(frames)), end="", file=sys.stderr)
    print("".join(traceback.format_exception_only(kind, value)), end="", file=sys.stderr)

def run(source):
    try:
        tree = ast.parse(source, "<cell>", "exec")
    except SyntaxError:
        report()
        return
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    try:
        exec(compile(tree, "<cell>", "exec"), NAMESPACE)
        if last is not None:
            value = eval(compile(last, "<cell>", "eval"), NAMESPACE)
            if value is not None:
                print(repr(value))
    except SystemExit:
        pass
    except BaseException:
        report()

for earlier in CELLS[:-1]:
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        run(earlier)
sys.stdout.flush()
run(CELLS[-1])
'''

MAX_CODE_CHARS = 20_000


class ReplayedPython(Tool):
    """``python(code)``: a REPL-like sandboxed interpreter whose state is the list of earlier cells.

    Each call runs one sandbox job: the harness re-runs ``cells`` silently, then ``code``. A call
    that times out or exceeds memory drops the state (as an interpreter restart would).
    """

    name = "python"
    description = (
        "Run Python 3 code in a sandboxed interpreter (standard library only, no network). Variables persist "
        "between calls. Returns what the code prints and the value of a final expression."
    )
    parameters = {
        "type": "object",
        "properties": {"code": {"type": "string", "description": "Python source code to execute"}},
        "required": ["code"],
        "additionalProperties": False,
    }

    def __init__(self, cells: list[str] | None = None, files: dict[str, str] | None = None,
                 seconds: float = 5.0) -> None:
        self.cells = list(cells or [])
        self.files = dict(files or {})
        self.seconds = seconds
        self.cells_after = self.cells

    def run(self, arguments: dict[str, Any]) -> str:
        code = arguments["code"]
        if len(code) > MAX_CODE_CHARS:
            return f"error: code longer than {MAX_CODE_CHARS} characters"
        from palaestra import sandbox
        from palaestra.sandbox import Limits

        cells = [*self.cells, code]
        files = {**self.files, "_cells.json": json.dumps(cells)}
        limits = Limits(wall_seconds=self.seconds, cpu_seconds=self.seconds, memory_bytes=256 * 2**20,
                        output_bytes=1 << 16)
        try:
            result = sandbox.run(PYTHON_HARNESS, files=files, limits=limits)
        except Exception as exc:  # the sandbox is unavailable: not the model's fault
            self.infrastructure_error = f"python: {type(exc).__name__}: {str(exc)[:200]}"
            return "error: the Python sandbox is unavailable"
        if result.error is not None:
            self.infrastructure_error = f"python: {result.error[:200]}"
            return "error: the Python sandbox failed"
        text = result.stdout
        if result.stderr:
            text = f"{text}{'' if not text or text.endswith(chr(10)) else chr(10)}{result.stderr}"
        text = text.rstrip("\n")
        if len(text) > TOOL_OUTPUT_CHARS:
            text = text[:TOOL_OUTPUT_CHARS] + f"\n[output truncated to {TOOL_OUTPUT_CHARS} characters]"
        if result.timed_out or result.memory_exceeded or (result.exit_code != 0 and not result.output_truncated):
            limit = (f"timed out after {self.seconds:g} s" if result.timed_out
                     else "memory limit exceeded" if result.memory_exceeded else "the interpreter crashed")
            self.cells_after = []
            return f"{text}\n[{limit}: the interpreter was restarted, its state is lost]".lstrip("\n")
        if result.output_truncated:
            text += "\n[output limit reached]"
        self.cells_after = cells
        return text


# --- the tools a task can carry -----------------------------------------------------------------


def _schema(name: str) -> dict[str, Any]:
    if name == "python":
        return ReplayedPython().schema()
    if name in ("search", "open"):
        from palaestra.tools.search import OpenTool, SearchTool

        return (SearchTool() if name == "search" else OpenTool()).schema()
    if name == "sql":
        from palaestra.tools.sql import SqlTool

        return SqlTool().schema()
    if name == "shell":
        return ShellTool().schema()
    from palaestra.tools.calculator import Calculator

    return Calculator().schema()


def tools_section(names: tuple[str, ...], budget: int, note: str = "") -> str:
    """The prompt's tool list (JSON schemas, one per line) and the calling convention."""
    lines = "\n".join(json.dumps(_schema(n), ensure_ascii=False) for n in names)
    return (
        f"You have these tools (JSON schemas):\n<tools>\n{lines}\n</tools>\n{note}"
        f"To call a tool, write {OPEN_CALL}{{\"name\": \"<tool name>\", \"arguments\": {{...}}}}{CLOSE_CALL} "
        "(several calls per reply are allowed); each result comes back inside <tool_response></tool_response>. "
        f"You may make at most {budget} tool calls in all. When you are done, reply without a tool call and "
        "give your final answer."
    )


@dataclass(frozen=True)
class ToolResult:
    text: str
    error: str | None  # an infrastructure failure: the episode ends unjudged
    cells: list[str]
    world: Mapping[str, Any] | None = None  # the state the tools change, after the call (the shell's tree)


def pack_tree(archive: bytes | None) -> str | None:
    """The shell's tree archive as state text (compressed: a tar is mostly padding), or None for the initial tree."""
    return None if archive is None else base64.b64encode(zlib.compress(archive, 6)).decode()


def unpack_tree(text: str | None) -> bytes | None:
    return None if text is None else zlib.decompress(base64.b64decode(text))


class ToolTask(MultiTurnTask):
    """A task that carries its tools; see the module docstring.

    Subclasses set ``tool_names`` and implement ``generate`` (putting ``budget`` in ``problem.data``
    and :meth:`tools_prompt` in the prompt), :meth:`judge` (the final answer) and :meth:`plan` (the
    oracle's replies: tool calls, then the bare final answer). Optional: :meth:`python_files`
    (data files the Python tool sees), ``sql_rows`` (rows the sql tool shows).
    """

    multiline = True
    tool_names: ClassVar[tuple[str, ...]] = ()
    python_seconds: ClassVar[float] = 5.0
    shell_seconds: ClassVar[float] = 5.0
    sql_rows: ClassVar[int] = 30
    sql_chars: ClassVar[int] = 4_000
    max_move_chars: ClassVar[int] = MAX_REPLY_CHARS

    # --- what a task defines ---------------------------------------------------------------
    def judge(self, problem: Problem, answer: str) -> Verdict:
        """Judge the extracted final answer. Never raises; bounded time."""
        raise NotImplementedError

    def plan(self, problem: Problem) -> list[str]:
        """The oracle's replies in order: tool-call texts, then the bare final answer."""
        raise NotImplementedError

    def python_files(self, problem: Problem) -> dict[str, str]:
        """Files in the Python tool's working directory."""
        return {}

    def shell_files(self, problem: Problem) -> dict[str, str]:
        """The shell's initial file tree (path -> text): ``problem.data["files"]`` unless a task says otherwise."""
        return dict(problem.data.get("files", {}))

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        """Judge the final answer at the end of the episode; a task that judges what the episode did (the shell's
        final tree: :meth:`final_files`) overrides this. Never raises; bounded time."""
        return self.judge(problem, answer)

    def final_files(self, problem: Problem, state: Mapping[str, Any]) -> dict[str, bytes]:
        """The shell's file tree as ``state`` left it (regular files only)."""
        archive = unpack_tree(state.get("tree"))
        if archive is None:
            return {path: body.encode() for path, body in self.shell_files(problem).items()}
        return unpack(archive)

    def tools_prompt(self, budget: int, note: str = "") -> str:
        return tools_section(self.tool_names, budget, note)

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [_schema(name) for name in self.tool_names]

    # --- the game --------------------------------------------------------------------------
    def max_turns(self, problem: Problem) -> int:
        return int(problem.data["budget"]) + 2

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        state: dict[str, Any] = {"turn": 0, "calls": 0, "cells": []}
        if "shell" in self.tool_names:
            state.update(tree=None, cwd="")
        return state

    def format_instruction(self) -> str:
        return (f"{extraction.INSTRUCTIONS[self.answer_format]} A reply that calls a tool is not an answer: "
                "give the final answer in a reply without tool calls.")

    def format_answer(self, answer: str) -> str:
        """A full reply: tool calls as they are, a final answer in this task's answer format."""
        return answer if answer.lstrip().startswith(OPEN_CALL) else super().format_answer(answer)

    def advance(self, problem: Problem, state: Any, response: str) -> Outcome:
        """One turn from a full reply: tool calls are read from the whole reply, never raises."""
        if len(response) > self.max_move_chars:
            return Outcome(state, Verdict.unparsed("reply too long"),
                           f"Invalid reply: longer than {self.max_move_chars} characters.")
        try:
            return self.play(problem, state, response)
        except Exception as exc:  # a rules bug must not crash a training run, nor count as a wrong answer
            error = f"play raised {type(exc).__name__}: {str(exc)[:200]}"
            return Outcome(state, Verdict.failed(error), f"The reply could not be judged ({error}).", True)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        turn = {**state, "turn": state["turn"] + 1}
        if OPEN_CALL in move:
            return self._tool_turn(problem, turn, move)
        answer = extraction.extract(move, problem.answer_format)
        if answer is None:
            missing = extraction.MISSING[problem.answer_format]
            return Outcome(turn, Verdict.unparsed(missing),
                           f"No tool call and no final answer ({missing}). Call a tool or give your final answer.")
        verdict = self.judge_episode(problem, turn, answer)
        if verdict.error is not None:
            return Outcome(turn, verdict, f"The answer could not be judged ({verdict.error}).", True)
        message = "Correct." if verdict.correct else f"Final answer judged: {verdict.feedback}."
        return Outcome(turn, verdict, message, True)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        moves = _plan(self, _ByContent(problem))
        return moves[min(state["turn"], len(moves) - 1)]

    # --- tools -----------------------------------------------------------------------------
    def _tool_turn(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        budget = int(problem.data["budget"])
        used = state["calls"]
        cells = list(state["cells"])
        world = {key: value for key, value in state.items() if key not in ("turn", "calls", "cells")}
        responses = []
        for call in parse_tool_calls(move, limit=max(budget - used, 0) + 1):
            if used >= budget:
                responses.append(f"error: tool call limit reached ({budget} per episode); give your final answer now")
                continue
            used += 1
            if call.error is not None:
                responses.append(f"error: {call.error}")
                continue
            if call.name not in self.tool_names:
                responses.append(f"error: unknown tool {str(call.name)[:100]!r} "
                                 f"(available: {', '.join(self.tool_names)})")
                continue
            result = self.run_tool(problem, call.name, call.arguments, cells, world)
            if result.error is not None:
                after = {**state, "calls": used, "cells": cells, **world}
                return Outcome(after, Verdict.failed(result.error),
                               f"The {call.name} tool failed (infrastructure error: {result.error}).", True)
            cells = result.cells
            world = dict(result.world) if result.world is not None else world
            responses.append(result.text if result.text.strip() else "(no output)")
        observation = "\n".join(f"<tool_response>\n{r}\n</tool_response>" for r in responses)
        after = {**state, "calls": used, "cells": cells, **world}
        count = len(responses)
        return Outcome(after, Verdict(0.0, False, True, f"{count} tool call{'s' if count != 1 else ''}"),
                       observation)

    def run_tool(self, problem: Problem, name: str, arguments: Any, cells: list[str],
                 world: Mapping[str, Any] | None = None) -> ToolResult:
        """Run one call of a tool this task carries on the problem's data and ``world``: the state the tools
        change (the shell's tree and working directory; a task's own records), which the result gives back."""
        try:
            tool = self._tool(problem, name, cells)
            if isinstance(tool, ShellTool):
                tool.restore(unpack_tree((world or {}).get("tree")), (world or {}).get("cwd", ""))
        except Exception as exc:  # the corpus, index or database could not be built
            return ToolResult("", f"{name}: {type(exc).__name__}: {str(exc)[:200]}", cells)
        try:
            text = tool.call(arguments)
        finally:
            tool.close()
        after = tool.cells_after if isinstance(tool, ReplayedPython) else cells
        if isinstance(tool, ShellTool):
            archive, cwd = tool.snapshot()
            return ToolResult(text, tool.infrastructure_error, after, {**(world or {}), "tree": pack_tree(archive),
                                                                       "cwd": cwd})
        return ToolResult(text, tool.infrastructure_error, after)

    def _tool(self, problem: Problem, name: str, cells: list[str]) -> Tool:
        if name == "python":
            return ReplayedPython(cells, self.python_files(problem), self.python_seconds)
        if name in ("search", "open"):
            from palaestra.generators.knowledge import corpus_from_spec
            from palaestra.tools.search import OpenTool, SearchTool

            corpus = corpus_from_spec(problem.data["corpus"])
            return SearchTool(corpus) if name == "search" else OpenTool(corpus)
        if name == "sql":
            from palaestra.generators.database import database_from_spec
            from palaestra.tools.sql import SqlTool

            return SqlTool(database_from_spec(problem.data["database"]), max_rows=self.sql_rows,
                           max_chars=self.sql_chars)
        if name == "calculator":
            from palaestra.tools.calculator import Calculator

            return Calculator()
        if name == "shell":
            return ShellTool(timeout=self.shell_seconds, files=self.shell_files(problem))
        raise ValueError(f"unknown tool {name!r}")


class _ByContent:
    """A problem compared and hashed by its JSON text: a cache key that holds however the problem was rebuilt."""

    def __init__(self, problem: Problem) -> None:
        self.problem, self.text = problem, problem.to_json()

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByContent) and other.text == self.text


@functools.lru_cache(maxsize=16)
def _plan(task: ToolTask, problem: _ByContent) -> tuple[str, ...]:
    """The oracle's moves for a problem, worked out once: the oracle is asked every turn, and a plan may rebuild a
    corpus and run its searches (over 100 ms at the far levels)."""
    return tuple(task.plan(problem.problem))
