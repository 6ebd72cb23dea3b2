"""Shared machinery of the Verilog envs: ports, module headers, generated testbenches, judging.

A candidate module is judged by a **generated testbench** (the sandbox's Verilog ``source``,
module ``tb_main``) that instantiates it by port name, drives the hidden input vectors and
``$display``\\ s every output as an unsigned decimal, one line per vector or clock cycle; the
trusted parent compares the lines with a Python model of the specification. The candidate's
file (``solution.v``) only defines modules: nothing it declares runs unless the testbench
instantiates it (the sandbox simulates ``tb_main`` alone), and an ``x`` or ``z`` on an output
prints as a letter, never as the expected number.

Clocked designs: every cycle the testbench sets the inputs while ``clk`` is low, displays the
outputs 2 time units later, then raises ``clk`` (a rising edge) 3 units after that and lowers
it 5 units later. Two reset cycles (``rst = 1``, not displayed) come first. So line ``i`` shows
the outputs in cycle ``i``: for the state reached after the previous rising edges and, for
combinational (Mealy) outputs, the inputs of cycle ``i``.

Example::

    >>> ports = [Port("a", 4), Port("b", 4), Port("y", 5, output=True)]
    >>> header("adder", ports)
    'module adder(input [3:0] a, input [3:0] b, output [4:0] y);'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem
from palaestra.envs.code._polyglot import PolyglotTask
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report

TOP = "tb_main"


@dataclass(frozen=True)
class Port:
    """One port of a module: its name, width in bits, direction."""

    name: str
    width: int = 1
    output: bool = False

    def declaration(self, kind: str = "") -> str:
        size = f" [{self.width - 1}:0]" if self.width > 1 else ""
        direction = "output" if self.output else "input"
        return f"{direction}{(' ' + kind) if kind else ''}{size} {self.name}"


def ports_from(data: Sequence[Sequence[object]]) -> list[Port]:
    """Ports from their JSON form ``[name, width, is_output]``."""
    return [Port(str(name), int(width), bool(output)) for name, width, output in data]  # type: ignore[call-overload]


def ports_data(ports: Sequence[Port]) -> list[list[object]]:
    return [[p.name, p.width, p.output] for p in ports]


def header(module: str, ports: Sequence[Port], registered: Sequence[str] = ()) -> str:
    """``module name(input [w-1:0] a, ..., output [v-1:0] y);`` (outputs in ``registered`` as ``output reg``)."""
    parts = [p.declaration("reg" if p.name in registered else "") for p in ports]
    return f"module {module}({', '.join(parts)});"


def port_table(ports: Sequence[Port]) -> str:
    """A prompt's list of the ports."""
    lines = []
    for p in ports:
        width = f"{p.width} bits" if p.width > 1 else "1 bit"
        lines.append(f"- {'output' if p.output else 'input'} {p.name} ({width})")
    return "\n".join(lines)


def _literal(port: Port, value: int) -> str:
    return f"{port.width}'d{value & ((1 << port.width) - 1)}"


def _declarations(ports: Sequence[Port]) -> str:
    out = []
    for p in ports:
        size = f" [{p.width - 1}:0]" if p.width > 1 else ""
        out.append(f"  {'wire' if p.output else 'reg'}{size} {p.name};")
    return "\n".join(out)


def _display(outputs: Sequence[Port]) -> str:
    return f'$display("{" ".join(["%0d"] * len(outputs))}", {", ".join(p.name for p in outputs)});'


def combinational_bench(module: str, ports: Sequence[Port], vectors: Sequence[Mapping[str, int]]) -> str:
    """A testbench applying each input vector, then displaying the outputs 1 time unit later."""
    inputs = [p for p in ports if not p.output]
    outputs = [p for p in ports if p.output]
    steps = []
    for vector in vectors:
        sets = " ".join(f"{p.name} = {_literal(p, vector[p.name])};" for p in inputs)
        steps.append(f"    {sets} #1 {_display(outputs)}")
    connections = ", ".join(f".{p.name}({p.name})" for p in ports)
    return (f"module {TOP};\n{_declarations(ports)}\n  {module} dut({connections});\n  initial begin\n"
            + "\n".join(steps) + "\n    $finish;\n  end\nendmodule\n")


def clocked_bench(module: str, ports: Sequence[Port], cycles: Sequence[Mapping[str, int]], reset: str = "rst") -> str:
    """A testbench for a design with ``clk`` and ``reset`` inputs (see the module docstring)."""
    inputs = [p for p in ports if not p.output and p.name != "clk"]
    outputs = [p for p in ports if p.output]
    zero = " ".join(f"{p.name} = {_literal(p, 1 if p.name == reset else 0)};" for p in inputs)
    steps = [f"    {zero} #5 clk = 1; #5 clk = 0;"] * 2
    for cycle in cycles:
        sets = " ".join(f"{p.name} = {_literal(p, cycle.get(p.name, 0))};" for p in inputs)
        steps.append(f"    {sets} #2 {_display(outputs)} #3 clk = 1; #5 clk = 0;")
    connections = ", ".join(f".{p.name}({p.name})" for p in ports)
    return (f"module {TOP};\n{_declarations(ports)}\n  {module} dut({connections});\n  initial begin\n"
            "    clk = 0;\n" + "\n".join(steps) + "\n    $finish;\n  end\nendmodule\n")


def plant_distinguishing_reset(rng: Any, model: Any, p: dict[str, Any], cycles: list[dict[str, int]],
                               first: int = 4) -> bool:
    """Make the hidden cycles tell a synchronous reset from an asynchronous one (``cycles`` is edited in place).

    The two styles differ only in a cycle with ``rst = 1`` whose displayed outputs (read before the edge) differ
    between the state reached and the reset state: an asynchronous reset shows the reset state at once, a
    synchronous one only after the edge. If no reset cycle does, ``rst`` is set in a random cycle from ``first`` on
    that does. ``model`` has ``reset_state``, ``output`` and ``step`` (a template). False when no cycle can.
    """
    reset = model.reset_state(p)
    state, candidates = reset, []
    for i, x in enumerate(cycles):
        differs = model.output(p, state, x) != model.output(p, reset, x)
        if differs and x["rst"]:
            return True
        if differs and i >= first:
            candidates.append(i)
        state = reset if x["rst"] else model.step(p, state, x)
    if not candidates:
        return False
    cycles[rng.choice(candidates)]["rst"] = 1
    return True


def check_module(program: Program, bench: str, expected: Sequence[str]) -> Report:
    """Simulate the candidate's module under ``bench`` and compare the displayed lines."""
    return polyglot.check_program(program, "", expected, driver=bench, budget=Budget(cpu_seconds=2.0))


def line(values: Sequence[int]) -> str:
    """The expected display line of some output values."""
    return " ".join(str(v) for v in values)


class VerilogModuleTask(PolyglotTask):
    """A coding env whose answer is one Verilog module named by the problem (``params["module"]``), its reference
    written by the problem's template; subclasses set ``templates`` and say how the testbench drives it (``judge``)."""

    languages: ClassVar[tuple[str, ...]] = ("verilog",)
    toolchains: ClassVar[tuple[str, ...]] = ("verilog",)
    templates: ClassVar[Mapping[str, Any]] = {}

    def sources(self, problem: Problem) -> dict[str, str]:
        return {"verilog": self.templates[problem.data["template"]].reference(problem.data["params"])}

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["params"]["module"]
