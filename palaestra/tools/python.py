"""The Python tool: run code in a persistent sandboxed interpreter, one session per episode.

Every call is one cell of a :func:`palaestra.sandbox.session` (the model's code never runs in
this process): variables, functions and imports persist between calls of one episode, the
value of a final expression is shown as in a REPL, and the reply holds stdout, then stderr
(a traceback), truncated to ``max_output`` characters. A cell that runs past ``timeout``
seconds, crashes the interpreter or exceeds its memory is stopped and the interpreter restarts
empty (the reply says so). :meth:`reset` (a new episode) and :meth:`close` end the session.

Example::

    tool = PythonTool(timeout=5)
    tool.call({"code": "x = 6 * 7"})       # ''  -> shown to the model as "(no output)"
    tool.call({"code": "print(x)"})        # '42'
    tool.reset()                            # next episode: a fresh interpreter
"""

from __future__ import annotations

import threading
from typing import Any

from palaestra.tools.base import Tool

MAX_CODE_CHARS = 20_000


class PythonTool(Tool):
    name = "python"
    description = (
        "Run Python 3 code in a sandboxed interpreter (standard library only, no network, no files "
        "outside a scratch directory). State persists between calls in this conversation. Returns "
        "what the code prints and the value of a final expression."
    )
    parameters = {
        "type": "object",
        "properties": {"code": {"type": "string", "description": "Python source code to execute"}},
        "required": ["code"],
        "additionalProperties": False,
    }

    def __init__(self, timeout: float = 5.0, memory_bytes: int = 256 * 2**20, max_output: int = 4_000) -> None:
        self.timeout = timeout
        self.memory_bytes = memory_bytes
        self.max_output = max_output
        self._session: Any = None
        self._lock = threading.Lock()

    def _limits(self) -> Any:
        from palaestra.sandbox import Limits

        return Limits(
            wall_seconds=self.timeout,
            cpu_seconds=self.timeout,
            memory_bytes=self.memory_bytes,
            output_bytes=max(4 * self.max_output, 1 << 16),
        )

    def run(self, arguments: dict[str, Any]) -> str:
        code = arguments["code"]
        if len(code) > MAX_CODE_CHARS:
            return f"error: code longer than {MAX_CODE_CHARS} characters"
        with self._lock:
            try:
                if self._session is None:
                    from palaestra.sandbox import session

                    self._session = session(self._limits())
                result = self._session.run_cell(code)
            except Exception as exc:  # the sandbox is unavailable: an infrastructure error
                self._session = None
                self.infrastructure_error = f"{type(exc).__name__}: {str(exc)[:200]}"
                return f"error: the Python sandbox is unavailable ({type(exc).__name__}: {str(exc)[:200]})"
        if result.error is not None:
            self.infrastructure_error = result.error[:200]
            return f"error: the Python sandbox failed ({result.error[:200]})"
        parts = []
        text = result.stdout
        if result.stderr:
            text = f"{text}{'' if not text or text.endswith(chr(10)) else chr(10)}{result.stderr}"
        if len(text) > self.max_output:
            text = text[: self.max_output] + f"\n[output truncated to {self.max_output} characters]"
        parts.append(text.rstrip("\n"))
        if result.output_truncated:
            parts.append("[output limit reached]")
        if result.timed_out:
            parts.append(f"[timed out after {self.timeout:g} s: the interpreter was restarted, its state is lost]")
        elif result.memory_exceeded:
            parts.append("[memory limit exceeded: the interpreter was restarted, its state is lost]")
        elif result.state_lost:
            parts.append("[the interpreter restarted: variables defined before this call are gone]")
        return "\n".join(p for p in parts if p)

    def reset(self) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            session, self._session = self._session, None
        if session is not None:
            try:
                session.close()
            except Exception:
                pass
