"""Write a finite-state machine in Verilog from a generated specification.

The answer is Verilog (``iverilog -g2012``) defining the module with exactly the ports given
(``clk`` and the active-high synchronous reset ``rst`` among them). A generated testbench runs
hidden input sequences and displays the outputs every cycle before the rising edge (timing in
:mod:`palaestra.envs.code._hdl`); the trusted parent compares them with a Python model.

Templates (parameters vary the pattern, the table, the timing and the module's name):

- **sequence_detector**: detect a generated bit pattern on a serial input, overlapping or not,
  with a Moore (registered, one cycle later) or Mealy (same cycle) output;
- **state_table**: a generated Moore or Mealy machine given as a transition table;
- **round_robin**: a round-robin arbiter granting one of N requesters, the priority rotating
  past each grant;
- **timed_phases**: a cyclic controller holding each generated phase for a generated number of
  cycles, with a hold input that freezes it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.code import _hdl as hdl
from palaestra.envs.code._hdl import Port
from palaestra.envs.code.templates import ProgramTexts

NAMES = ("ctrl", "fsm", "machine", "unit", "seq", "core", "engine", "logic", "block", "cell", "node", "tile")
RESET_TEXT = ("rst is a synchronous, active-high reset: at a rising edge of clk with rst = 1 the machine returns to "
              "its reset state, whatever the other inputs.")

CODE = ProgramTexts("verilog_fsm")


class FsmTemplate(hdl.ClockedTemplate):
    """One kind of state machine (``size`` scales its number of states)."""

    def flips(self, p: dict[str, Any], key: str, values: tuple[Any, ...]) -> list[dict[str, Any]]:
        """``p`` with each other value of ``key``."""
        return [{**p, key: value} for value in values if value != p[key]]

    def size(self, p: dict[str, Any]) -> int:
        """The number of states (part of the difficulty measure)."""
        raise NotImplementedError


# --- sequence detector ------------------------------------------------------------------------

class SequenceDetector(FsmTemplate):
    name = "sequence_detector"
    tier = 1

    def params(self, rng: random.Random, size: int) -> dict[str, Any] | None:
        length = max(3, min(8, size))
        pattern = "".join(rng.choice("01") for _ in range(length))
        return {"pattern": pattern, "overlap": rng.random() < 0.5, "moore": rng.random() < 0.5,
                "module": f"detect_{rng.choice(NAMES)}"}

    def ports(self, p: dict[str, Any]) -> list[Port]:
        return [Port("clk"), Port("rst"), Port("din"), Port("hit", 1, True)]

    def statement(self, p: dict[str, Any]) -> str:
        pattern = p["pattern"]
        overlap = ("Occurrences may overlap: the bits of one occurrence can also belong to the next." if p["overlap"]
                   else "Occurrences may not overlap: after an occurrence, the search starts afresh with the next bit.")
        timing = ("hit is a registered (Moore) output: it is 1 during the cycle after the cycle in which the last bit "
                  "of an occurrence was on din, and 0 otherwise." if p["moore"] else
                  "hit is a combinational (Mealy) output: it is 1 during the cycle in which the last bit of an "
                  "occurrence is on din, and 0 otherwise.")
        return (f"The machine watches the serial input din, one bit per clock cycle (sampled at each rising edge of "
                f"clk), for the pattern {pattern} (its first bit arrives first). {overlap} {timing} {RESET_TEXT} Bits "
                "seen before a reset never count.")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return [0, 0]  # bits of the pattern matched so far, registered hit

    def _advance(self, p: dict[str, Any], matched: int, bit: int) -> tuple[int, bool]:
        """(matched after the bit, whether an occurrence just ended): a prefix automaton."""
        pattern = p["pattern"]
        text = pattern[:matched] + str(bit)

        def longest_kept(longest: int) -> int:  # the longest suffix of text that is a prefix of the pattern
            return next(k for k in range(longest, -1, -1) if pattern.startswith(text[len(text) - k:] if k else ""))

        if text == pattern:
            return (longest_kept(len(pattern) - 1) if p["overlap"] else 0), True
        keep = longest_kept(len(text))
        return keep, False

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        if p["moore"]:
            return [state[1]]
        return [int(self._advance(p, state[0], x["din"])[1])]

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        matched, ended = self._advance(p, state[0], x["din"])
        return [matched, int(ended)]

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        return {"din": rng.getrandbits(1)}

    def size(self, p: dict[str, Any]) -> int:
        return len(p["pattern"]) + 1

    def border(self, p: dict[str, Any]) -> int:
        """The length of the pattern's longest proper prefix that is also a suffix (0: the overlap rule is moot)."""
        pattern = p["pattern"]
        return next(k for k in range(len(pattern) - 1, -1, -1) if pattern[:k] == pattern[len(pattern) - k:])

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """The other overlap rule (when the pattern can overlap itself at all); the other output timing."""
        overlap = self.flips(p, "overlap", (True, False)) if self.border(p) else []
        return [*overlap, *self.flips(p, "moore", (True, False))]

    def draw_cycles(self, rng: random.Random, p: dict[str, Any], count: int, calm: int,
                    rate: float) -> list[dict[str, int]]:
        """Random bits, with the pattern planted once (twice, overlapping, when it can overlap itself), no reset
        inside: random bits rarely hold an occurrence of a long pattern, let alone two overlapping ones."""
        cycles = super().draw_cycles(rng, p, count, calm, rate)
        pattern = p["pattern"]
        planted = pattern + pattern[self.border(p):] if self.border(p) else pattern
        if len(planted) <= count:
            start = rng.randint(0, count - len(planted))
            for i, bit in enumerate(planted):
                cycles[start + i] = {"din": int(bit), "rst": 0}
        return cycles

    def reference(self, p: dict[str, Any]) -> str:
        n = len(p["pattern"])
        bits = max(1, n.bit_length())
        cases = []
        for matched in range(n):
            nxt = [self._advance(p, matched, b) for b in (0, 1)]
            cases.append(CODE("SequenceDetector.reference.2", bits=bits, matched=matched, nxt_1_0=nxt[1][0],
                              nxt_0_0=nxt[0][0], int_nxt_1_1=int(nxt[1][1]), int_nxt_0_1=int(nxt[0][1])))
        out = "  always @(posedge clk)\n    if (rst) hit <= 0;\n    else hit <= found;" if p["moore"] \
            else "  assign hit = found;"
        registered = ("hit",) if p["moore"] else ()
        return (f"{hdl.header(p['module'], self.ports(p), registered)}\n  reg [{bits - 1}:0] matched, next_matched;\n"
                f"  reg found;\n  always @* begin\n    next_matched = 0;\n    found = 0;\n    case (matched)\n"
                + "\n".join(cases) + CODE("SequenceDetector.reference", out=out))


# --- state tables -----------------------------------------------------------------------------

class StateTable(FsmTemplate):
    name = "state_table"
    tier = 2

    def params(self, rng: random.Random, size: int) -> dict[str, Any] | None:
        states = max(3, min(10, size))
        in_bits = 1 if states <= 4 or rng.random() < 0.5 else 2
        out_bits = rng.choice([1, 2])
        moore = rng.random() < 0.5
        table = [[rng.randrange(states) for _ in range(1 << in_bits)] for _ in range(states)]
        outputs = ([rng.getrandbits(out_bits) for _ in range(states)] if moore
                   else [[rng.getrandbits(out_bits) for _ in range(1 << in_bits)] for _ in range(states)])
        reach, frontier = {0}, [0]
        for s in frontier:
            for t in table[s]:
                if t not in reach:
                    reach.add(t)
                    frontier.append(t)
        if len(reach) < states:
            return None
        return {"states": states, "in_bits": in_bits, "out_bits": out_bits, "moore": moore, "table": table,
                "outputs": outputs, "module": f"table_{rng.choice(NAMES)}"}

    def ports(self, p: dict[str, Any]) -> list[Port]:
        return [Port("clk"), Port("rst"), Port("x", p["in_bits"]), Port("y", p["out_bits"], True)]

    def statement(self, p: dict[str, Any]) -> str:
        rows = []
        for s, nexts in enumerate(p["table"]):
            moves = ", ".join(f"x = {v} -> S{t}" for v, t in enumerate(nexts))
            if p["moore"]:
                rows.append(f"- S{s} (y = {p['outputs'][s]}): {moves}")
            else:
                outs = ", ".join(f"x = {v}: y = {o}" for v, o in enumerate(p["outputs"][s]))
                rows.append(f"- S{s}: next {moves}; output {outs}")
        kind = ("a Moore machine: y depends only on the current state" if p["moore"] else
                "a Mealy machine: y depends on the current state and the current input x (combinationally)")
        return (f"The machine has {p['states']} states S0 ... S{p['states'] - 1}; S0 is the reset state. It is {kind}. "
                "At each rising edge of clk it moves from the current state along the row of the table for the current "
                f"x:\n" + "\n".join(rows) + f"\n{RESET_TEXT}")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return 0

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        return [p["outputs"][state] if p["moore"] else p["outputs"][state][x["x"]]]

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        return p["table"][state][x["x"]]

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        return {"x": rng.getrandbits(p["in_bits"])}

    def size(self, p: dict[str, Any]) -> int:
        return p["states"]

    def classes(self, p: dict[str, Any]) -> list[int]:
        """Each state's class of equivalent states (no input sequence tells two states of a class apart): Moore's
        refinement of the partition by outputs, at most ``states`` rounds."""
        table, states = p["table"], p["states"]
        signature = [repr(p["outputs"][s]) for s in range(states)]
        labels = [sorted(set(signature)).index(sig) for sig in signature]
        for _ in range(states):
            keys = [(labels[s], *(labels[t] for t in table[s])) for s in range(states)]
            refined = [sorted(set(keys)).index(key) for key in keys]
            if len(set(refined)) == len(set(labels)):
                break
            labels = refined
        return labels

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """One transition led to another state (one not equivalent to the stated one); one output wrong."""
        table, outputs, labels = p["table"], p["outputs"], self.classes(p)
        out = []
        for s, row in enumerate(table):
            for v, t in enumerate(row):
                for other in range(p["states"]):
                    if labels[other] != labels[t]:
                        out.append({**p, "table": [[other if (r, c) == (s, v) else u for c, u in enumerate(nexts)]
                                                   for r, nexts in enumerate(table)]})
                if not p["moore"]:
                    out.append({**p, "outputs": [[o ^ 1 if (r, c) == (s, v) else o for c, o in enumerate(outs)]
                                                 for r, outs in enumerate(outputs)]})
            if p["moore"]:
                out.append({**p, "outputs": [o ^ 1 if r == s else o for r, o in enumerate(outputs)]})
        return out

    def telling(self, p: dict[str, Any]) -> dict[tuple[int, int], tuple[int, int]]:
        """For each pair of states (a, b) some input sequence tells apart: the length of a shortest one and its first
        input (-1 for a Moore pair whose outputs already differ). At most ``states ** 2`` rounds."""
        table, outputs, states, inputs = p["table"], p["outputs"], p["states"], 1 << p["in_bits"]
        first: dict[tuple[int, int], int] = {}
        for a in range(states):
            for b in range(states):
                if p["moore"] and outputs[a] != outputs[b]:
                    first[a, b] = -1
                elif not p["moore"]:
                    told = [v for v in range(inputs) if outputs[a][v] != outputs[b][v]]
                    first.update({(a, b): told[0]} if told else {})
        distance = dict.fromkeys(first, 0 if p["moore"] else 1)
        for rounds in range(states * states):
            found = {(a, b): v for a in range(states) for b in range(states) if (a, b) not in first
                     for v in range(inputs)[::-1] if (table[a][v], table[b][v]) in first}
            if not found:
                break
            first.update(found)
            distance.update(dict.fromkeys(found, rounds + 1 + distance[next(iter(distance))]))
        return {pair: (distance[pair], v) for pair, v in first.items()}

    def draw_cycles(self, rng: random.Random, p: dict[str, Any], count: int, calm: int,
                    rate: float) -> list[dict[str, int]]:
        """Inputs steered to reject every slip (random inputs take only some transitions in a few dozen cycles).
        Each slip (a transition ``(s, v)`` led elsewhere, an output flipped) is followed alongside the machine;
        each cycle (1) tells apart a slip whose state has parted from the machine's (the first input of a shortest
        telling sequence), else (2) takes a transition some live slip changes, else heads for the nearest state that
        has one (breadth-first), else (3) draws a random input. Resets are drawn first, as usual, and one is added
        where no such transition is reachable any more."""
        table, outputs, states, inputs, moore = p["table"], p["outputs"], p["states"], 1 << p["in_bits"], p["moore"]
        labels, telling = self.classes(p), self.telling(p)
        live = [("to", s, v, other) for s in range(states) for v in range(inputs) for other in range(states)
                if labels[other] != labels[table[s][v]]]
        live += [("out", s, -1 if moore else v, 0) for s in range(states) for v in range(1 if moore else inputs)]

        def out(slip: tuple[str, int, int, int], st: int, x: int) -> int:
            o = outputs[st] if moore else outputs[st][x]
            return o ^ 1 if slip[0] == "out" and st == slip[1] and slip[2] in (-1, x) else o

        def nxt(slip: tuple[str, int, int, int], st: int, x: int) -> int:
            return slip[3] if slip[0] == "to" and (st, x) == slip[1:3] else table[st][x]

        resets = [int(i >= calm and rng.random() < rate) for i in range(count)]
        state, at = 0, {slip: 0 for slip in live}  # the machine's state, each live slip's
        chased: dict[tuple[str, int, int, int], int] = {}  # cycles spent telling apart each parted slip
        cycles = []
        for i, rst in enumerate(resets):
            v = rng.randrange(inputs)
            # the parted slips nearest to being told apart (one led astray by its own transition is given up)
            parted = sorted((telling[state, at[slip]], slip) for slip in at if at[slip] != state
                            and (state, at[slip]) in telling and chased.get(slip, 0) < states)
            pending = {slip[1:3] for slip in at if at[slip] == state}
            if parted and parted[0][0][1] >= 0:
                chased[parted[0][1]] = chased.get(parted[0][1], 0) + 1
                v = parted[0][0][1]
            elif any(key in pending for key in ((state, u) for u in range(inputs))):
                v = rng.choice([u for u in range(inputs) if (state, u) in pending])
            elif pending and not rst:
                first: dict[int, int] = {state: -1}  # the first input on a shortest path to each state seen
                queue = [state]  # each state enters once: at most ``states`` rounds
                for s in queue:
                    if s != state and any((s, u) in pending for u in (-1, *range(inputs))):
                        v = first[s]
                        break
                    for u in rng.sample(range(inputs), inputs):
                        if table[s][u] not in first:
                            first[table[s][u]] = u if s == state else first[s]
                            queue.append(table[s][u])
                else:
                    rst = int(i >= calm)  # no slip's transition is reachable any more: back to S0
            cycles.append({"x": v, "rst": rst})
            shown = out(("", -1, -1, -1), state, v)
            at = {slip: 0 if rst else nxt(slip, st, v) for slip, st in at.items() if out(slip, st, v) == shown}
            state = 0 if rst else table[state][v]
        return cycles

    def reference(self, p: dict[str, Any]) -> str:
        bits = max(1, (p["states"] - 1).bit_length())
        nexts, outs = [], []
        for s, row in enumerate(p["table"]):
            branches = " ".join(f"if (x == {v}) state <= {bits}'d{t};" if v == 0 else
                                f"else if (x == {v}) state <= {bits}'d{t};" for v, t in enumerate(row))
            nexts.append(f"        {bits}'d{s}: begin {branches} end")
            if p["moore"]:
                outs.append(f"      {bits}'d{s}: y = {p['out_bits']}'d{p['outputs'][s]};")
            else:
                cases = " ".join(f"if (x == {v}) y = {p['out_bits']}'d{o};" if v == 0 else
                                 f"else if (x == {v}) y = {p['out_bits']}'d{o};" for v, o in enumerate(p["outputs"][s]))
                outs.append(f"      {bits}'d{s}: begin {cases} end")
        return (f"{hdl.header(p['module'], self.ports(p), ('y',))}\n  reg [{bits - 1}:0] state;\n"
                "  always @(posedge clk)\n    if (rst) state <= 0;\n    else\n      case (state)\n"
                + "\n".join(nexts) + "\n        default: state <= 0;\n      endcase\n"
                "  always @* begin\n    y = 0;\n    case (state)\n" + "\n".join(outs)
                + "\n      default: y = 0;\n    endcase\n  end\nendmodule\n")


# --- round-robin arbiter ----------------------------------------------------------------------

class RoundRobin(FsmTemplate):
    name = "round_robin"
    tier = 3

    def params(self, rng: random.Random, size: int) -> dict[str, Any] | None:
        return {"n": max(2, min(8, size)), "start": rng.choice(["zero", "last"]),
                "module": f"arbiter_{rng.choice(NAMES)}"}

    def ports(self, p: dict[str, Any]) -> list[Port]:
        n = p["n"]
        return [Port("clk"), Port("rst"), Port("req", n), Port("grant", n, True)]

    def statement(self, p: dict[str, Any]) -> str:
        n = p["n"]
        first = "requester 0" if p["start"] == "zero" else f"requester {n - 1}"
        return (f"A round-robin arbiter for {n} requesters. req[i] = 1 means requester i asks for access. grant is "
                "combinational: it has exactly one bit set, for the first requester with req[i] = 1 found by scanning "
                f"from the current priority position p upwards (p, p + 1, ..., {n - 1}, then 0, 1, ... wrapping "
                "around), or it is 0 when no bit of req is set. At each rising edge of clk where some requester is "
                f"granted, p becomes the position just after the granted requester (wrapping from {n - 1} to 0); "
                f"otherwise p stays. {RESET_TEXT} The reset state is p = {self.reset_state(p)} (so {first} has the "
                "highest priority first).")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return 0 if p["start"] == "zero" else p["n"] - 1

    def _winner(self, p: dict[str, Any], pointer: int, req: int) -> int | None:
        n = p["n"]
        for k in range(n):
            i = (pointer + k) % n
            if req >> i & 1:
                return i
        return None

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        winner = self._winner(p, state, x["req"])
        return [0 if winner is None else 1 << winner]

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        winner = self._winner(p, state, x["req"])
        return state if winner is None else (winner + 1) % p["n"]

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        return {"req": rng.getrandbits(p["n"]) if rng.random() < 0.9 else 0}

    def size(self, p: dict[str, Any]) -> int:
        return p["n"]

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """The other reset priority position."""
        return self.flips(p, "start", ("zero", "last"))

    def reference(self, p: dict[str, Any]) -> str:
        n = p["n"]
        bits = max(1, (n - 1).bit_length())
        return CODE("RoundRobin.reference", header=hdl.header(p['module'], self.ports(p), ('grant',)), bits_1=bits - 1,
                    n=n, reset_state=self.reset_state(p))


# --- timed phases -----------------------------------------------------------------------------

class TimedPhases(FsmTemplate):
    name = "timed_phases"
    tier = 3

    def params(self, rng: random.Random, size: int) -> dict[str, Any] | None:
        phases = max(2, min(6, size // 2 + 1))
        return {"durations": [rng.randint(1, 4) for _ in range(phases)], "codes": rng.sample(range(8), phases),
                "hold": rng.random() < 0.6, "module": f"phases_{rng.choice(NAMES)}"}

    def ports(self, p: dict[str, Any]) -> list[Port]:
        hold = [Port("hold")] if p["hold"] else []
        return [Port("clk"), Port("rst"), *hold, Port("phase", 3, True)]

    def statement(self, p: dict[str, Any]) -> str:
        steps = ", then ".join(f"code {c} for {d} cycle{'s' if d > 1 else ''}"
                               for c, d in zip(p["codes"], p["durations"]))
        hold = (" While hold = 1, the machine is frozen: at a rising edge of clk with hold = 1 nothing changes (the "
                "cycles held do not count)." if p["hold"] else "")
        return (f"A cyclic controller whose 3-bit output phase shows {steps}, and then starts over with the first "
                f"phase, forever. Counting starts at the reset: the first cycle after the reset shows the first phase, "
                f"for its full duration.{hold} {RESET_TEXT}")

    def reset_state(self, p: dict[str, Any]) -> Any:
        return [0, 0]  # phase index, cycles already spent in it

    def output(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> list[int]:
        return [p["codes"][state[0]]]

    def step(self, p: dict[str, Any], state: Any, x: dict[str, int]) -> Any:
        if p["hold"] and x["hold"]:
            return state
        index, spent = state
        if spent + 1 < p["durations"][index]:
            return [index, spent + 1]
        return [(index + 1) % len(p["durations"]), 0]

    def draw_inputs(self, rng: random.Random, p: dict[str, Any]) -> dict[str, int]:
        return {"hold": int(rng.random() < 0.2)} if p["hold"] else {}

    def size(self, p: dict[str, Any]) -> int:
        return sum(p["durations"])

    def slips(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """A phase held one cycle too few or too many; the hold input ignored."""
        out = [{**p, "durations": [d + (delta if j == i else 0) for j, d in enumerate(p["durations"])]}
               for i, d in enumerate(p["durations"]) for delta in (-1, 1) if d + delta >= 1]
        return out + (self.flips(p, "hold", (False,)) if p["hold"] else [])

    def reference(self, p: dict[str, Any]) -> str:
        count = len(p["durations"])
        cases = "\n".join(f"      3'd{i}: begin phase = 3'd{c}; last = spent == {d - 1}; end"
                          for i, (c, d) in enumerate(zip(p["codes"], p["durations"])))
        frozen = " || hold" if p["hold"] else ""
        return CODE("TimedPhases.reference", header=hdl.header(p['module'], self.ports(p), ('phase',)), cases=cases,
                    frozen=frozen, count_1=count - 1)


TEMPLATES: dict[str, FsmTemplate] = {t.name: t for t in (SequenceDetector(), StateTable(), RoundRobin(), TimedPhases())}


@register
class VerilogFsm(hdl.ClockedModuleTask):
    id = "code/verilog_fsm"
    description = "Write a Verilog state machine from a generated specification (detectors, tables, arbiters, timers)."
    tags = ("code", "hardware", "verilog", "fsm")
    version = 4  # v2: every problem resets mid-run where an asynchronous reset would show (v1 often did not); v3: a
    # machine ignoring mid-run resets, or with one stated rule wrong (overlap, timing, a duration), fails a cycle; v4:
    # state tables: the cycles are steered so one transition or output changed fails a cycle; detectors: the pattern
    # planted (overlapping itself when it can), the overlap rule a slip only when the pattern can overlap
    templates = TEMPLATES
    size_field = "size"
    subject = "machine"
    checked = ""
    outputs_label = "output"
    calm_cycles = 4
    reset_rate = 0.04
    min_distinct = 2
    shown_cycles = 5
    attempts = 100
    what = "a state machine with varied outputs"

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        size: tuple[int, int]
        cycles: int

    presets = (
        Config(("sequence_detector", "state_table"), size=(3, 3), cycles=20),
        Config(("sequence_detector", "state_table", "timed_phases"), size=(3, 4), cycles=28),
        Config(("sequence_detector", "state_table", "round_robin", "timed_phases"), size=(4, 5), cycles=36),
        Config(("sequence_detector", "state_table", "round_robin", "timed_phases"), size=(5, 7), cycles=48),
        Config(("sequence_detector", "state_table", "round_robin"), size=(7, 9), cycles=64),
    )
    growth = Growth()

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus log2 of its number of states plus the checked cycles / 32."""
        template = self.template(problem)
        return template.tier + math.log2(template.size(problem.data["params"])) + len(problem.data["cycles"]) / 32
