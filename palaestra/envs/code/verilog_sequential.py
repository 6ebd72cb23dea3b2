"""Write a clocked Verilog module: counters, shift registers, LFSRs, accumulators, edge detectors.

The answer is Verilog (``iverilog -g2012``) defining the module with exactly the ports given
(``clk`` and the active-high reset ``rst`` among them). A generated testbench runs hidden input
sequences cycle by cycle and displays the outputs every cycle before the rising edge (timing
in :mod:`palaestra.envs.code._hdl`); the trusted parent compares them with a cycle-accurate
Python model. The reset is synchronous (taken at a rising edge) or asynchronous (immediate),
as the problem states; the hidden sequences assert it again now and then.

Templates (parameters vary the widths, the rules, the reset and the module's name):

- **counter**: modulo-M up counter, up/down wrapping counter, up/down saturating counter,
  loadable counter, each with an enable;
- **shift_register**: serial-in parallel-out shifting left or right, or parallel-load with
  serial out;
- **accumulator**: adds its input when enabled, wrapping or saturating, with a sticky overflow
  flag and a clear input;
- **edge_detector**: a pulse on rising, falling or any edges, registered (one cycle later) or
  combinational;
- **lfsr**: a Fibonacci linear-feedback shift register with generated taps and seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.code import _hdl as hdl
from palaestra.envs.code._hdl import Port
from palaestra.envs.code.templates import ProgramTexts

NAMES = ("unit", "block", "core", "stage", "engine", "tile", "cell", "node", "slice", "part", "box", "kit")

CODE = ProgramTexts("verilog_sequential")


class SeqTemplate(hdl.ClockedTemplate):
    """One kind of clocked module with ``clk``, ``rst``, then its inputs and outputs; ``size`` is its width. By
    default its state is a ``w``-bit register ``q``, reset to 0 and shown as the one output."""

    def inputs(self, p: dict[str, Any]) -> list[Port]:
        raise NotImplementedError

    def outputs(self, p: dict[str, Any]) -> list[Port]:
        return [Port("q", p["w"], True)]

    def reset_state(self, p: dict[str, Any]) -> Any:
        return 0

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        return [state]

    def ports(self, p: dict[str, Any]) -> list[Port]:
        return [Port("clk"), Port("rst"), *self.inputs(p), *self.outputs(p)]

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        return {q.name: rng.getrandbits(q.width) for q in self.inputs(p)}

    def trigger(self, p: dict[str, Any]) -> str:
        return "posedge clk or posedge rst" if p["async"] else "posedge clk"


def _reset_text(p: dict[str, Any]) -> str:
    if p["async"]:
        return ("rst is an asynchronous, active-high reset: while rst is 1 the module is held in its reset state "
                "immediately, without waiting for a clock edge.")
    return ("rst is a synchronous, active-high reset: at a rising edge of clk with rst = 1 the module enters its reset "
            "state (rst has priority over every other input).")


# --- counters ---------------------------------------------------------------------------------

class Counter(SeqTemplate):
    name = "counter"
    tier = 1

    def params(self, rng: random.Random, width: int) -> dict[str, Any]:
        kind = rng.choice(["modulo", "updown", "saturating", "loadable"])
        return {"kind": kind, "w": width, "modulus": rng.randint(2, (1 << width) - 1), "async": rng.random() < 0.5,
                "module": f"counter_{rng.choice(NAMES)}"}

    def inputs(self, p: dict[str, Any]) -> list[Port]:
        extra = {"modulo": [], "updown": [Port("up")], "saturating": [Port("up")],
                 "loadable": [Port("load"), Port("d", p["w"])]}[p["kind"]]
        return [Port("en"), *extra]

    def statement(self, p: dict[str, Any]) -> str:
        w, top = p["w"], hdl.mask(p["w"])
        rule = {
            "modulo": f"when en = 1, q counts up by one, going from {p['modulus'] - 1} back to 0 (it counts modulo "
                      f"{p['modulus']})",
            "updown": f"when en = 1, q goes up by one if up = 1 and down by one if up = 0, wrapping around (from {top} "
                      f"up to 0 and from 0 down to {top})",
            "saturating": f"when en = 1, q goes up by one if up = 1 and down by one if up = 0, but never above {top} "
                          "nor below 0 (it stays there)",
            "loadable": "when load = 1, q takes the value d; otherwise, when en = 1, q counts up by one, wrapping "
                        "from "
                        f"{top} to 0",
        }[p["kind"]]
        return (f"A {w}-bit counter q, updated at each rising edge of clk: {rule}; otherwise q keeps its value. "
                f"{_reset_text(p)} The reset state is q = 0.")

    def step(self, p: dict[str, Any], q: Any, x: dict[str, int]) -> Any:
        top, kind = hdl.mask(p["w"]), p["kind"]
        if kind == "loadable" and x["load"]:
            return x["d"]
        if not x["en"]:
            return q
        if kind == "modulo":
            return (q + 1) % p["modulus"]
        if kind == "loadable":
            return (q + 1) & top
        delta = 1 if x["up"] else -1
        if kind == "updown":
            return (q + delta) & top
        return min(top, max(0, q + delta))

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """A modulus off by one; wrapping instead of saturating and back."""
        if p["kind"] == "modulo":
            return [{**p, "modulus": p["modulus"] + delta} for delta in (-1, 1)]
        flipped = {"updown": "saturating", "saturating": "updown"}.get(p["kind"])
        return [{**p, "kind": flipped}] if flipped else []

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        x = super().draw_inputs(rng, p)
        x["en"] = int(rng.random() < 0.8)
        if p["kind"] == "loadable":
            x["load"] = int(rng.random() < 0.15)
        if p["kind"] == "saturating":
            x["up"] = int(rng.random() < 0.6)
        return x

    def reference(self, p: dict[str, Any]) -> str:
        w, top = p["w"], hdl.mask(p["w"])
        update = {
            "modulo": f"else if (en) q <= (q == {p['modulus'] - 1}) ? 0 : q + 1;",
            "updown": "else if (en) q <= up ? q + 1 : q - 1;",
            "saturating": f"else if (en) begin\n      if (up && q != {w}'d{top}) q <= q + 1;\n"
                          "      else if (!up && q != 0) q <= q - 1;\n    end",
            "loadable": "else if (load) q <= d;\n    else if (en) q <= q + 1;",
        }[p["kind"]]
        return (f"{hdl.header(p['module'], self.ports(p), ('q',))}\n  always @({self.trigger(p)})\n"
                f"    if (rst) q <= 0;\n    {update}\nendmodule\n")


# --- shift registers --------------------------------------------------------------------------

class ShiftRegister(SeqTemplate):
    name = "shift_register"
    tier = 1

    def params(self, rng: random.Random, width: int) -> dict[str, Any]:
        return {"kind": rng.choice(["left", "right", "load_serial"]), "w": max(2, width), "async": rng.random() < 0.5,
                "module": f"shifter_{rng.choice(NAMES)}"}

    def inputs(self, p: dict[str, Any]) -> list[Port]:
        if p["kind"] == "load_serial":
            return [Port("load"), Port("d", p["w"]), Port("en")]
        return [Port("en"), Port("din")]

    def outputs(self, p: dict[str, Any]) -> list[Port]:
        extra = [Port("sout", 1, True)] if p["kind"] == "load_serial" else []
        return [Port("q", p["w"], True), *extra]

    def statement(self, p: dict[str, Any]) -> str:
        w = p["w"]
        rule = {
            "left": f"when en = 1, q shifts left by one bit and din enters at bit 0 (q becomes {{q[{w - 2}:0], din}})",
            "right": f"when en = 1, q shifts right by one bit and din enters at bit {w - 1} (q becomes "
                     f"{{din, q[{w - 1}:1]}})",
            "load_serial": f"when load = 1, q takes the value d; otherwise, when en = 1, q shifts left by one bit with "
                           f"0 entering at bit 0. The output sout is always bit {w - 1} of q",
        }[p["kind"]]
        return (f"A {w}-bit shift register q, updated at each rising edge of clk: {rule}; otherwise q keeps its value. "
                f"{_reset_text(p)} The reset state is q = 0.")

    def output(self, p: dict[str, Any], q: Any, x: dict[str, int]) -> list[int]:
        return [q, q >> (p["w"] - 1)] if p["kind"] == "load_serial" else [q]

    def step(self, p: dict[str, Any], q: Any, x: dict[str, int]) -> Any:
        w, kind = p["w"], p["kind"]
        if kind == "load_serial":
            if x["load"]:
                return x["d"]
            return ((q << 1) & hdl.mask(w)) if x["en"] else q
        if not x["en"]:
            return q
        if kind == "left":
            return ((q << 1) | x["din"]) & hdl.mask(w)
        return (q >> 1) | (x["din"] << (w - 1))

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        x = super().draw_inputs(rng, p)
        x["en"] = int(rng.random() < 0.8)
        if p["kind"] == "load_serial":
            x["load"] = int(rng.random() < 0.2)
        return x

    def reference(self, p: dict[str, Any]) -> str:
        w = p["w"]
        update = {
            "left": f"else if (en) q <= {{q[{w - 2}:0], din}};",
            "right": f"else if (en) q <= {{din, q[{w - 1}:1]}};",
            "load_serial": "else if (load) q <= d;\n    else if (en) q <= q << 1;",
        }[p["kind"]]
        tail = f"\n  assign sout = q[{w - 1}];" if p["kind"] == "load_serial" else ""
        return (f"{hdl.header(p['module'], self.ports(p), ('q',))}\n  always @({self.trigger(p)})\n"
                f"    if (rst) q <= 0;\n    {update}{tail}\nendmodule\n")


# --- accumulator ------------------------------------------------------------------------------

class Accumulator(SeqTemplate):
    name = "accumulator"
    tier = 2

    def params(self, rng: random.Random, width: int) -> dict[str, Any]:
        return {"saturate": rng.random() < 0.5, "w": width, "in_w": max(2, width - 2), "async": rng.random() < 0.5,
                "module": f"accumulator_{rng.choice(NAMES)}"}

    def inputs(self, p: dict[str, Any]) -> list[Port]:
        return [Port("en"), Port("clear"), Port("x", p["in_w"])]

    def outputs(self, p: dict[str, Any]) -> list[Port]:
        return [Port("acc", p["w"], True), Port("ovf", 1, True)]

    def statement(self, p: dict[str, Any]) -> str:
        top = hdl.mask(p["w"])
        overflow = (f"if the sum would exceed {top}, acc becomes {top} instead" if p["saturate"]
                    else f"the sum wraps around modulo {top + 1}")
        return (f"A {p['w']}-bit accumulator acc with a 1-bit overflow flag ovf, both updated at each rising edge of "
                f"clk: when clear = 1, acc and ovf become 0; otherwise, when en = 1, acc becomes acc + x (x is a "
                f"{p['in_w']}-bit unsigned input) where {overflow}, and ovf becomes 1 if the sum exceeded {top} (ovf "
                f"then stays 1 until a clear or a reset). Otherwise both keep their values. {_reset_text(p)} The reset "
                "state is acc = 0, ovf = 0.")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return [0, 0]

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """Wrapping instead of saturating, and back."""
        return [{**p, "saturate": not p["saturate"]}]

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        return list(state)

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        acc, ovf = state
        if x["clear"]:
            return [0, 0]
        if not x["en"]:
            return [acc, ovf]
        total, top = acc + x["x"], hdl.mask(p["w"])
        if total > top:
            return [top if p["saturate"] else total & top, 1]
        return [total, ovf]

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        x = super().draw_inputs(rng, p)
        x["en"] = int(rng.random() < 0.8)
        x["clear"] = int(rng.random() < 0.08)
        return x

    def reference(self, p: dict[str, Any]) -> str:
        w = p["w"]
        store = f"acc <= sum[{w}] ? {w}'d{hdl.mask(w)} : sum[{w - 1}:0];" if p["saturate"] else f"acc <= sum[{w - 1}:0];"
        return CODE("Accumulator.reference", header=hdl.header(p['module'], self.ports(p), ('acc', 'ovf')), w=w,
                    trigger=self.trigger(p), store=store)


# --- edge detectors ---------------------------------------------------------------------------

class EdgeDetector(SeqTemplate):
    name = "edge_detector"
    tier = 2
    EDGES = {"rising": ("a rising edge (it was 0 in the previous cycle and is 1 now)", lambda a, b: not a and b),
             "falling": ("a falling edge (it was 1 in the previous cycle and is 0 now)", lambda a, b: a and not b),
             "any": ("any change (its value differs from the previous cycle's)", lambda a, b: a != b)}

    def params(self, rng: random.Random, width: int) -> dict[str, Any]:
        return {"edge": rng.choice(list(self.EDGES)), "registered": rng.random() < 0.5, "async": rng.random() < 0.5,
                "count_bits": rng.choice([0, 0, max(2, width)]), "module": f"edge_{rng.choice(NAMES)}"}

    def inputs(self, p: dict[str, Any]) -> list[Port]:
        return [Port("sig")]

    def outputs(self, p: dict[str, Any]) -> list[Port]:
        extra = [Port("count", p["count_bits"], True)] if p["count_bits"] else []
        return [Port("pulse", 1, True), *extra]

    def statement(self, p: dict[str, Any]) -> str:
        what = self.EDGES[p["edge"]][0]
        if p["registered"]:
            timing = ("pulse is a register: at each rising edge of clk it becomes 1 if sig shows, in the cycle just "
                      f"ending, {what}, else 0 (so the pulse appears in the cycle after the edge).")
        else:
            timing = f"pulse is combinational: it is 1 in a cycle exactly when sig shows {what}."
        count = ""
        if p["count_bits"]:
            count = (f" count is a {p['count_bits']}-bit register counting the edges detected so far (it goes up by "
                     f"one at each rising edge of clk that ends a cycle showing {what}, wrapping around).")
        reset = "value is 0" + (", pulse is 0" if p["registered"] else "") + (" and count is 0" if count else "")
        return (f"An edge detector on the 1-bit input sig. The module remembers sig's value at each rising edge of clk "
                f"(the previous cycle's value); {timing}{count} {_reset_text(p)} In the reset state the remembered "
                f"{reset}.")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return [0, 0, 0]  # previous sig, registered pulse, count

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        previous, pulse, count = state
        now = pulse if p["registered"] else int(self.EDGES[p["edge"]][1](previous, x["sig"]))
        return [now, count] if p["count_bits"] else [now]

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        previous, _, count = state
        edge = int(self.EDGES[p["edge"]][1](previous, x["sig"]))
        return [x["sig"], edge, (count + edge) & hdl.mask(p["count_bits"] or 1)]

    def reference(self, p: dict[str, Any]) -> str:
        test = {"rising": "!previous && sig", "falling": "previous && !sig", "any": "previous != sig"}[p["edge"]]
        registered = ("pulse",) if p["registered"] else ()
        counted = ("count",) if p["count_bits"] else ()
        lines = [hdl.header(p["module"], self.ports(p), registered + counted), "  reg previous;",
                 f"  wire edge_now = {test};"]
        resets, updates = ["previous <= 0;"], ["previous <= sig;"]
        if p["registered"]:
            resets.append("pulse <= 0;")
            updates.append("pulse <= edge_now;")
        else:
            lines.append("  assign pulse = edge_now;")
        if p["count_bits"]:
            resets.append("count <= 0;")
            updates.append("count <= count + edge_now;")
        lines += [f"  always @({self.trigger(p)})", "    if (rst) begin",
                  *(f"      {r}" for r in resets), "    end else begin", *(f"      {u}" for u in updates), "    end",
                  "endmodule", ""]
        return "\n".join(lines)


# --- LFSR -------------------------------------------------------------------------------------

class Lfsr(SeqTemplate):
    name = "lfsr"
    tier = 3

    def params(self, rng: random.Random, width: int) -> dict[str, Any]:
        w = max(3, width)
        taps = sorted({w - 1, *rng.sample(range(w - 1), rng.randint(1, min(3, w - 1)))}, reverse=True)
        return {"w": w, "taps": taps, "seed": rng.randint(1, hdl.mask(w)), "async": rng.random() < 0.5,
                "module": f"lfsr_{rng.choice(NAMES)}"}

    def inputs(self, p: dict[str, Any]) -> list[Port]:
        return [Port("en")]

    def statement(self, p: dict[str, Any]) -> str:
        w = p["w"]
        taps = " ^ ".join(f"q[{t}]" for t in p["taps"])
        return (f"A {w}-bit Fibonacci linear-feedback shift register q. At each rising edge of clk with en = 1, q "
                f"shifts left by one bit and the feedback bit f = {taps} (computed from q before the shift) enters at "
                f"bit 0, so q becomes {{q[{w - 2}:0], f}}; with en = 0, q keeps its value. {_reset_text(p)} The reset "
                f"state is q = {p['seed']} (decimal).")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return p["seed"]

    def step(self, p: dict[str, Any], q: Any, x: dict[str, int]) -> Any:
        if not x["en"]:
            return q
        feedback = 0
        for t in p["taps"]:
            feedback ^= (q >> t) & 1
        return ((q << 1) | feedback) & hdl.mask(p["w"])

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        return {"en": int(rng.random() < 0.85)}

    def reference(self, p: dict[str, Any]) -> str:
        w = p["w"]
        taps = " ^ ".join(f"q[{t}]" for t in p["taps"])
        return CODE("Lfsr.reference", header=hdl.header(p['module'], self.ports(p), ('q',)), taps=taps,
                    trigger=self.trigger(p), w=w, p=p, w_2=w - 2)


TEMPLATES: dict[str, SeqTemplate] = {t.name: t for t in (Counter(), ShiftRegister(), Accumulator(), EdgeDetector(),
                                                         Lfsr())}


@register
class VerilogSequential(hdl.ClockedModuleTask):
    id = "code/verilog_sequential"
    description = "Write a clocked Verilog module (counters, shift registers, accumulators, edge detectors, LFSRs)."
    tags = ("code", "hardware", "verilog", "sequential")
    version = 3  # v2: every problem resets mid-run where the other reset style would show (v1 often did not); v3: a
    # module ignoring mid-run resets, a modulus off by one, the other overflow rule fail some cycle
    templates = TEMPLATES

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        widths: tuple[int, int]
        cycles: int

    presets = (
        Config(("counter", "shift_register", "edge_detector"), widths=(3, 4), cycles=16),
        Config(("counter", "shift_register", "edge_detector", "accumulator"), widths=(4, 5), cycles=24),
        Config(("counter", "shift_register", "edge_detector", "accumulator", "lfsr"), widths=(4, 6),
                        cycles=32),
        Config(("counter", "accumulator", "edge_detector", "lfsr"), widths=(6, 10), cycles=48),
        Config(("counter", "accumulator", "lfsr"), widths=(8, 16), cycles=64),
    )
    growth = Growth()

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus the register width / 4 plus the number of checked cycles / 32."""
        p = problem.data["params"]
        return self.template(problem).tier + p.get("w", 4) / 4 + len(problem.data["cycles"]) / 32
