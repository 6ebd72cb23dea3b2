"""Wrappers around palaestra envs. Each lives in its own module and is imported on first use:

- :class:`~palaestra.wrappers.tool_use.ToolUseEnv`: tool calls (``<tool_call>`` JSON) around any env.
"""

from __future__ import annotations

from typing import Any

_LAZY = {"ToolUseEnv": "palaestra.wrappers.tool_use"}

__all__ = ["ToolUseEnv"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'palaestra.wrappers' has no attribute {name!r}")
