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

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem
from palaestra.core.retry import retry
from palaestra.envs.code._polyglot import TemplatedTask, convention
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report

TOP = "tb_main"


@dataclass(frozen=True)
class Port:
    """One port of a module: its name, width in bits, direction."""

    name: str
    width: int = 1
    output: bool = False

    @property
    def size(self) -> str:
        """The declaration's bit range (`` [w-1:0]``; empty for one bit)."""
        return f" [{self.width - 1}:0]" if self.width > 1 else ""

    def declaration(self, kind: str = "") -> str:
        direction = "output" if self.output else "input"
        return f"{direction}{(' ' + kind) if kind else ''}{self.size} {self.name}"


def mask(width: int) -> int:
    """The largest unsigned value of ``width`` bits."""
    return (1 << width) - 1


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


def _bench(module: str, ports: Sequence[Port], steps: list[str], setup: str = "") -> str:
    """The testbench module: a ``reg`` per input and a ``wire`` per output, the instance, then ``steps``."""
    declarations = "\n".join(f"  {'wire' if p.output else 'reg'}{p.size} {p.name};" for p in ports)
    connections = ", ".join(f".{p.name}({p.name})" for p in ports)
    return (f"module {TOP};\n{declarations}\n  {module} dut({connections});\n  initial begin\n{setup}"
            + "\n".join(steps) + "\n    $finish;\n  end\nendmodule\n")


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
    return _bench(module, ports, steps)


def clocked_bench(module: str, ports: Sequence[Port], cycles: Sequence[Mapping[str, int]], reset: str = "rst") -> str:
    """A testbench for a design with ``clk`` and ``reset`` inputs (see the module docstring)."""
    inputs = [p for p in ports if not p.output and p.name != "clk"]
    outputs = [p for p in ports if p.output]
    zero = " ".join(f"{p.name} = {_literal(p, 1 if p.name == reset else 0)};" for p in inputs)
    steps = [f"    {zero} #5 clk = 1; #5 clk = 0;"] * 2
    for cycle in cycles:
        sets = " ".join(f"{p.name} = {_literal(p, cycle.get(p.name, 0))};" for p in inputs)
        steps.append(f"    {sets} #2 {_display(outputs)} #3 clk = 1; #5 clk = 0;")
    return _bench(module, ports, steps, "    clk = 0;\n")


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


class ModuleTemplate:
    """One kind of module: its parameters (``size`` scales them), ports, statement and Verilog reference."""

    name: ClassVar[str]
    tier: ClassVar[int] = 1

    def params(self, rng: random.Random, size: int) -> dict[str, Any] | None:
        raise NotImplementedError

    def ports(self, p: dict[str, Any]) -> list[Port]:
        raise NotImplementedError

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def reference(self, p: dict[str, Any]) -> str:
        raise NotImplementedError


class ClockedTemplate(ModuleTemplate):
    """A clocked module, with its cycle-accurate Python model: the reset state, the outputs displayed in a cycle
    (before the rising edge) and the state after the edge."""

    def reset_state(self, p: dict[str, Any]) -> Any:
        raise NotImplementedError

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        raise NotImplementedError

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        raise NotImplementedError

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        raise NotImplementedError

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """Near-miss designs the hidden cycles must reject, as the parameters of the design with one stated rule
        wrong (the other overlap rule, a modulus off by one...). None by default."""
        return []

    def draw_cycles(self, rng: random.Random, p: dict[str, Any], count: int, calm: int,
                    rate: float) -> list[dict[str, int]]:
        """``count`` hidden cycles: the inputs and ``rst`` (set with probability ``rate`` from cycle ``calm`` on). By
        default each cycle's inputs are drawn independently (:meth:`draw_inputs`); a template may plant inputs that
        take its machine everywhere its near misses differ."""
        cycles = []
        for i in range(count):
            x = self.draw_inputs(rng, p)
            x["rst"] = int(i >= calm and rng.random() < rate)
            cycles.append(x)
        return cycles


def simulate(template: ClockedTemplate, p: dict[str, Any], cycles: list[dict[str, int]]) -> list[str]:
    """The trusted display lines: per cycle, the outputs before the rising edge (an asynchronous reset,
    ``p["async"]``, acts at once), then the edge."""
    state = template.reset_state(p)  # the testbench's two reset cycles
    lines = []
    for x in cycles:
        if x["rst"] and p.get("async"):
            state = template.reset_state(p)
        lines.append(line(template.output(p, state, x)))
        state = template.reset_state(p) if x["rst"] else template.step(p, state, x)
    return lines


def matches(template: ClockedTemplate, p: dict[str, Any], cycles: list[dict[str, int]], expected: list[str]) -> bool:
    """Whether the design ``p`` displays ``expected`` on ``cycles`` (:func:`simulate`, stopping at the first
    difference)."""
    state = template.reset_state(p)
    for x, want in zip(cycles, expected):
        if x["rst"] and p.get("async"):
            state = template.reset_state(p)
        if line(template.output(p, state, x)) != want:
            return False
        state = template.reset_state(p) if x["rst"] else template.step(p, state, x)
    return len(cycles) == len(expected)


class VerilogModuleTask(TemplatedTask):
    """A coding env whose answer is one Verilog module named by the problem (``params["module"]``), its reference
    written by the problem's template; subclasses set ``templates`` and say how the testbench drives it (``judge``)."""

    languages: ClassVar[tuple[str, ...]] = ("verilog",)
    toolchains: ClassVar[tuple[str, ...]] = ("verilog",)

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["params"]["module"]

    def module_problem(self, template: ModuleTemplate, p: dict[str, Any], ports: list[Port], kind: str,
                       checking: str, **data: Any) -> Problem:
        """The problem asking for a ``kind`` module of ``template`` (``checking``: how the hidden testbench
        checks it, with an example); ``data``: the tests, besides the template, parameters and ports."""
        prompt = (f"Write a {kind}Verilog module named {p['module']} with exactly these ports:\n{port_table(ports)}\n\n"
                  f"{template.statement(p)}\n\n{checking}"
                  + convention(self.languages, shape=f"{header(p['module'], ports)}\n  // ...\nendmodule"))
        return self.templated_problem(template, p, prompt, ports=ports_data(ports), **data)


class ClockedModuleTask(VerilogModuleTask):
    """A clocked-module env: hidden input cycles (resets now and then, one placed where the other reset style
    would show) judged by :func:`clocked_bench` against :func:`simulate`. The config has ``templates``,
    ``cycles`` and the ``(low, high)`` range of the templates' size parameter named by ``size_field``."""

    size_field: ClassVar[str] = "widths"
    subject: ClassVar[str] = "module"  # what the prompt says the testbench resets
    checked: ClassVar[str] = " against the specification"  # how the prompt says the outputs are checked
    outputs_label: ClassVar[str] = "outputs"
    calm_cycles: ClassVar[int] = 3  # no reset in the first cycles after the testbench's own
    reset_rate: ClassVar[float] = 0.05
    min_distinct: ClassVar[int] = 3  # distinct display lines a problem needs
    shown_cycles: ClassVar[int] = 4
    attempts: ClassVar[int] = 50
    cycle_draws: ClassVar[int] = 8  # draws of the hidden cycles before the template and parameters are drawn again
    what: ClassVar[str] = "a clocked module with varied outputs"

    def generate(self, rng: random.Random, config: Any) -> Problem:
        def draw() -> Problem | None:
            template = self.templates[rng.choice(config.templates)]
            p = template.params(rng, rng.randint(*getattr(config, self.size_field)))
            if p is None:
                return None
            slips = template.slips(p)
            for _ in range(self.cycle_draws):
                cycles = template.draw_cycles(rng, p, config.cycles, self.calm_cycles, self.reset_rate)
                if not plant_distinguishing_reset(rng, template, p, cycles):
                    continue
                expected = simulate(template, p, cycles)
                # varied outputs, and the hidden cycles pin the design down: one ignoring the resets after the
                # testbench's own, and each of the template's near misses (its slips), fails some cycle
                if len(set(expected)) >= self.min_distinct and simulate(
                        template, p, [{**x, "rst": 0} for x in cycles]) != expected and not any(
                        matches(template, q, cycles, expected) for q in slips):
                    break
            else:
                return None
            ports = template.ports(p)
            example = "; ".join(f"cycle {i + 1}: " + ", ".join(f"{k} = {v}" for k, v in x.items())
                                + " -> " + expected[i] for i, x in enumerate(cycles[: self.shown_cycles]))
            outputs = " ".join(q.name for q in ports if q.output)
            checking = (
                f"A hidden testbench resets the {self.subject} (rst = 1 for two clock cycles), then in each cycle sets "
                "the inputs while clk is low, reads the outputs shortly before the next rising edge of clk, and checks "
                f"them{self.checked}. Example after the reset ({self.outputs_label} {outputs}, in decimal): "
                f"{example}.\n\niverilog -g2012 compiles it (Verilog-2005 or synthesizable SystemVerilog). ")
            return self.module_problem(template, p, ports, "", checking, cycles=cycles, expected=expected)

        return retry(draw, attempts=self.attempts, what=self.what)

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        bench = clocked_bench(data["params"]["module"], ports_from(data["ports"]), data["cycles"])
        return check_module(program, bench, data["expected"])
