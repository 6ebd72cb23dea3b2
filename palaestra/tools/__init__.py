"""Tools a model can call in a tool-use episode (see :mod:`palaestra.wrappers.tool_use`).

- :class:`PythonTool` (``python``): code in a persistent sandboxed interpreter, one per episode;
- :class:`Calculator` (``calculator``): exact arithmetic through the allow-list expression reader.

Write a new tool by subclassing :class:`Tool` (``name``, ``description``, ``parameters`` JSON
schema, ``run(arguments) -> str``).
"""

from palaestra.tools.base import Tool, validate_arguments
from palaestra.tools.calculator import Calculator
from palaestra.tools.python import PythonTool

__all__ = ["Calculator", "PythonTool", "Tool", "validate_arguments"]
