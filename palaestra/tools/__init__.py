"""Tools a model can call in a tool-use episode (see :mod:`palaestra.wrappers.tool_use`).

- :class:`PythonTool` (``python``): code in a persistent sandboxed interpreter, one per episode;
- :class:`Calculator` (``calculator``): exact arithmetic through the allow-list expression reader;
- ``search`` and ``open`` (:mod:`palaestra.tools.search`): BM25 (bm25s) retrieval over the episode's
  generated corpus, and reading one of its documents;
- ``sql`` (:mod:`palaestra.tools.sql`): read-only SQL over the episode's generated SQLite database.
- ``shell`` (:mod:`palaestra.tools.shell`): bash and an allow-list of tools in the episode's private file tree.

Write a new tool by subclassing :class:`Tool` (``name``, ``description``, ``parameters`` JSON
schema, ``run(arguments) -> str``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from palaestra.tools.base import Tool, validate_arguments
from palaestra.tools.calculator import Calculator
from palaestra.tools.python import PythonTool

# Tools by name, for ``palaestra.make(id, tools=[...])`` (module:class, imported on use).
TOOLS: dict[str, str] = {
    "python": "palaestra.tools.python:PythonTool",
    "calculator": "palaestra.tools.calculator:Calculator",
    "search": "palaestra.tools.search:SearchTool",
    "open": "palaestra.tools.search:OpenTool",
    "sql": "palaestra.tools.sql:SqlTool",
    "shell": "palaestra.tools.shell:ShellTool",
}


def make_tools(names: Iterable[str]) -> list[Tool]:
    """Fresh tool instances for the given names (see ``TOOLS``); unknown names raise ValueError."""
    tools = []
    for name in names:
        if name not in TOOLS:
            raise ValueError(f"unknown tool {name!r}; choose from {sorted(TOOLS)}")
        module, cls = TOOLS[name].split(":")
        tools.append(getattr(importlib.import_module(module), cls)())
    return tools


__all__ = ["TOOLS", "Calculator", "PythonTool", "Tool", "make_tools", "validate_arguments"]
