"""Tools: the calculator (no eval), the sandboxed Python tool (one session per episode), schemas."""

from __future__ import annotations

from palaestra.tools import Calculator, PythonTool, Tool, validate_arguments


def test_schemas_are_openai_style() -> None:
    for tool in (Calculator(), PythonTool()):
        schema = tool.schema()
        assert schema["type"] == "function"
        function = schema["function"]
        assert function["name"] == tool.name and function["description"]
        assert function["parameters"]["type"] == "object" and function["parameters"]["required"]


def test_calculator_is_exact_and_refuses_code() -> None:
    calc = Calculator()
    assert calc.call({"expression": "(3 + 5) * 2 - 1/4"}) == "63/4 (= 15.75)"
    assert calc.call({"expression": "2^10"}) == "1024"
    assert calc.call({"expression": "sqrt(16)"}) == "4"
    assert calc.call({"expression": "9**9**9**9"}).startswith("error")
    assert calc.call({"expression": "__import__('os').system('echo pwned')"}).startswith("error")
    assert calc.call({"expression": "1/0"}).startswith("error")
    assert calc.call({"expr": "1"}) == "error: missing required argument 'expression'"
    assert calc.call({"expression": 12}) == "error: argument 'expression' must be of type string"
    assert calc.call(["1 + 1"]) == "error: arguments must be a JSON object"
    assert calc.call({"expression": "1", "extra": True}).startswith("error: unknown argument")


def test_validate_arguments() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}, "x": {"type": "number"}}, "required": ["n"]}
    assert validate_arguments({"n": 3, "x": 1.5}, schema) is None
    assert validate_arguments({"n": True}, schema) is not None  # a bool is not an integer
    assert validate_arguments({"x": 1}, schema) == "missing required argument 'n'"


def test_python_tool_keeps_state_restarts_on_timeout_and_resets() -> None:
    tool = PythonTool(timeout=1.0)
    try:
        assert tool.call({"code": "x = 6 * 7"}) == ""
        assert tool.call({"code": "print(x)\nx + 1"}) == "42\n43"
        assert "ZeroDivisionError" in tool.call({"code": "1 / 0"})
        assert tool.call({"code": "x"}) == "42"  # an exception does not lose state
        out = tool.call({"code": "while True:\n    pass"})
        assert "timed out" in out and "state is lost" in out
        assert "NameError" in tool.call({"code": "x"})  # restarted empty
        tool.call({"code": "y = 1"})
        tool.reset()  # a new episode: a fresh interpreter
        assert "NameError" in tool.call({"code": "y"})
        assert tool.call({"code": "open('/etc/passwd').read()"}).count("Error") >= 1  # sandboxed
        assert tool.infrastructure_error is None
        assert tool.call({"code": 3}).startswith("error")
    finally:
        tool.close()
    tool.close()  # closing twice is fine


def test_tool_errors_are_text() -> None:
    class Broken(Tool):
        name = "broken"
        description = "always fails"

        def run(self, arguments):
            raise RuntimeError("bug")

    tool = Broken()
    assert tool.call({}) == "error: the tool failed (RuntimeError)"
    assert tool.infrastructure_error and "RuntimeError" in tool.infrastructure_error
