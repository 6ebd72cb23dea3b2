"""The tool interface: a name, a description, an OpenAI-style JSON schema and ``call``.

A tool is called with the ``arguments`` object a model wrote inside
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` and returns text, which goes back
to the model inside ``<tool_response>...</tool_response>`` (see
:mod:`palaestra.wrappers.tool_use`). ``call`` never raises on bad arguments: it returns an
error message the model can read.

Example::

    >>> from palaestra.tools import Calculator
    >>> calc = Calculator()
    >>> calc.schema()["function"]["name"]
    'calculator'
    >>> calc.call({"expression": "2**10 - 24"})
    '1000'
    >>> calc.call({"expr": "1"})
    "error: missing required argument 'expression'"
"""

from __future__ import annotations

from typing import Any, ClassVar

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


class Tool:
    """Base class of tools. Subclasses set ``name``, ``description`` and ``parameters`` (a JSON
    schema of the arguments object) and implement :meth:`run`."""

    name: ClassVar[str]
    description: ClassVar[str]
    parameters: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}, "required": []}
    # Set by the last call when the tool's own machinery failed (e.g. the sandbox is down), so
    # wrappers can tell an infrastructure failure from a model error; None otherwise.
    infrastructure_error: str | None = None

    def schema(self) -> dict[str, Any]:
        """The OpenAI-style function schema (what ``tools=[...]`` of a chat template expects)."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

    def call(self, arguments: Any) -> str:
        """Validate ``arguments`` against the schema, then run; errors come back as text."""
        self.infrastructure_error = None
        problem = validate_arguments(arguments, self.parameters)
        if problem is not None:
            return f"error: {problem}"
        try:
            return self.run(arguments)
        except Exception as exc:  # a tool bug must not crash an episode
            self.infrastructure_error = f"{self.name}: {type(exc).__name__}: {str(exc)[:200]}"
            return f"error: the tool failed ({type(exc).__name__})"

    def run(self, arguments: dict[str, Any]) -> str:
        raise NotImplementedError

    def reset(self) -> None:
        """Start a new episode: drop per-episode state (e.g. an interpreter session)."""

    def bind(self, problem: Any) -> None:
        """Attach the episode's problem (a search tool loads the problem's corpus, SQL its database)."""

    def close(self) -> None:
        """Release resources (sandbox sessions). The tool stays usable: it reopens on demand."""


def validate_arguments(arguments: Any, schema: dict[str, Any]) -> str | None:
    """Why ``arguments`` do not fit a flat object schema (required keys, property types,
    ``additionalProperties: false``), or None. Enough for tool arguments; not full JSON Schema."""
    if not isinstance(arguments, dict):
        return "arguments must be a JSON object"
    properties = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in arguments:
            return f"missing required argument {key!r}"
    for key, value in arguments.items():
        if key not in properties:
            if schema.get("additionalProperties", True) is False:
                return f"unknown argument {key!r} (expected: {', '.join(properties) or 'none'})"
            continue
        expected = properties[key].get("type")
        if expected is None:
            continue
        kinds = expected if isinstance(expected, list) else [expected]
        allowed = tuple(t for k in kinds for t in _JSON_TYPES.get(k, (object,)))
        if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
            return f"argument {key!r} must be of type {' or '.join(kinds)}"
    return None
