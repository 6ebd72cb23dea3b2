"""Circuit debugging: find the one faulty gate of a generated logic circuit by testing and probing it.

The prompt gives a combinational circuit as a netlist: inputs ``I1..In``, gates ``G1..Gm``
(AND, OR, XOR, NAND, NOR with two inputs, NOT with one), each reading inputs or earlier gates,
and the outputs (the gates no other gate reads). Exactly one gate is faulty: its output is
stuck at 0, stuck at 1, or (from level 2) inverted. Each turn the model writes one command:

- ``test 1011``: set the inputs (``I1`` first) and read every output;
- ``probe G3 1011``: set the inputs and read gate ``G3``'s output wire;
- ``answer G3``: name the faulty gate, which ends the episode.

Values are what the faulty circuit produces. Reward 1 for naming the faulty gate within the
turn budget, 0 otherwise; an unreadable command (or a wrong number of input bits) costs a
turn. Every fault is active: some input makes the faulty gate's output differ from what its
(correct) inputs should give, and some input makes an output differ, so a careful prober can
always pin it down. The oracle knows the fault and names it. The fault sits at an output as often as at
any one of the (at least two) inner gates whose fault would show: blaming the output that reads wrong
without probing its inputs won 0.34-0.50 of the problems in version 1, now 0.10-0.28 (a blind guess: 0.07-0.25).

Levels add inputs and gates and the inverted fault. The difficulty measure is the number of
candidate faults (gates times fault kinds) per turn of the budget.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.verifiers.moves import read_command

KINDS = ("AND", "OR", "XOR", "NAND", "NOR", "NOT")
_BITS = re.compile(r"^[01]+$")
_GATE = re.compile(r"^g(\d{1,2})$")


@register
class CircuitDebug(MultiTurnTask):
    id = "interactive/circuit_debug"
    family = "interactive"
    description = "Find the one faulty gate of a logic circuit by testing outputs and probing wires."
    tags = ("interactive", "multi-turn", "debugging", "logic")
    hidden_information = True
    version = 2  # v2: the outputs together hold the fault as often as one inner gate (blaming the wrong output won 0.34-0.50)
    public_keys = ("inputs", "gates", "outputs", "faults")  # the prompt gives the netlist and the fault kinds

    @dataclass(frozen=True)
    class Config:
        inputs: int
        gates: int
        faults: tuple[str, ...]  # fault kinds in play: stuck0, stuck1, inverted
        turns: int

    def config(self, level: int) -> Config:
        c = self.Config
        stuck = ("stuck0", "stuck1")
        return [c(2, 4, stuck, 5), c(3, 6, stuck, 6), c(3, 8, (*stuck, "inverted"), 6),
                c(4, 11, (*stuck, "inverted"), 6), c(4, 15, (*stuck, "inverted"), 6)][level]
    bounded = "its levels after the honest-player redesign grow the budget and the circuit together: the difficulty measure stops growing past the presets"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            gates = _random_gates(rng, config.inputs, config.gates)
            read = {src for _, sources in gates for src in sources}
            if any(f"I{i + 1}" not in read for i in range(config.inputs)):
                return None
            outputs = [f"G{k + 1}" for k in range(config.gates) if f"G{k + 1}" not in read]
            circuit = {"inputs": config.inputs, "gates": [[kind, sources] for kind, sources in gates],
                       "outputs": outputs}
            rest = {"fault": rng.choice(config.faults), "faults": list(config.faults), "turns": config.turns}
            showing = _showing({**circuit, **rest})
            inner = [k for k in showing if f"G{k + 1}" not in outputs]
            last = [k for k in showing if f"G{k + 1}" in outputs]
            if len(inner) < 2:
                return None
            # The outputs together are as likely to hold the fault as one inner gate (of at least two): blaming
            # the output that reads wrong, without probing whether its inputs are right, is then about a guess.
            pool = last if last and rng.random() < 1 / (len(inner) + 1) else inner
            return {**circuit, "faulty": rng.choice(pool), **rest}

        data = retry(draw, what="a circuit whose fault shows at its gate and at an output")
        netlist = "\n".join(f"G{k + 1} = {kind}({', '.join(sources)})" for k, (kind, sources) in enumerate(data["gates"]))
        kinds = {"stuck0": "stuck at 0", "stuck1": "stuck at 1", "inverted": "inverted (it outputs the opposite of "
                 "what it should)"}
        example_bits = "0" * config.inputs
        prompt = (
            f"This logic circuit has inputs {', '.join(f'I{i + 1}' for i in range(config.inputs))}, gates "
            f"G1 to G{config.gates} and outputs {', '.join(data['outputs'])}:\n\n{netlist}\n\n"
            f"Exactly one gate is faulty: its output is {' or '.join(kinds[f] for f in config.faults)}. Find it. "
            "Each turn, write one command:\n"
            f"- test BITS: set the inputs (I1 first, e.g. test {example_bits}) and read every output;\n"
            f"- probe GATE BITS: set the inputs and read one gate's output (e.g. probe G1 {example_bits});\n"
            "- answer GATE: name the faulty gate (e.g. answer G1); this ends the task.\n"
            f"You have {config.turns} turns. An unreadable command costs a turn."
        )
        return Problem(prompt=prompt, answer=f"G{data['faulty'] + 1}", data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Gates times fault kinds per turn, plus half the depth of the faulty gate (gates its effect passes
        through from the inputs)."""
        data = problem.data
        depth: dict[str, int] = {}
        for i, (_, inputs) in enumerate(data["gates"], start=1):
            depth[f"G{i}"] = 1 + max(depth.get(name, 0) for name in inputs)
        return len(data["gates"]) * len(data["faults"]) / data["turns"] + depth[f"G{data['faulty'] + 1}"] / 2

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        command = read_command(move, lambda words: _parse(words, data["inputs"], len(data["gates"])))
        if command is None:
            why = f"write test BITS, probe GATE BITS or answer GATE, with {data['inputs']} bits (I1 first)"
            return Outcome.invalid(state, why, "command")
        verb, gate, bits = command
        if verb == "answer":
            if gate == data["faulty"]:
                return Outcome(state, Verdict.right(), f"Yes, G{gate + 1} is the faulty gate.", True)
            return Outcome(state, Verdict.wrong("wrong gate"), f"No, G{gate + 1} is not the faulty gate.", True)
        values = _evaluate(data, bits, faulty=True)
        shown = "".join(map(str, bits))
        if verb == "probe":
            return Outcome(state, Verdict.wrong("probed"), f"With inputs {shown}: G{gate + 1} = {values[gate]}.")
        outputs = ", ".join(f"{name}={values[int(name[1:]) - 1]}" for name in data["outputs"])
        return Outcome(state, Verdict.wrong("tested"), f"With inputs {shown}: {outputs}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return f"answer G{problem.data['faulty'] + 1}"

    def honest_move(self, view: View) -> str:
        """Keep the (gate, fault) hypotheses every reading so far allows; name the gate once one is left, else
        take the test or probe whose worst reading leaves the fewest gates in play (then hypotheses)."""
        data = {key: view.public[key] for key in ("inputs", "gates", "outputs", "faults")}
        outputs = [int(name[1:]) - 1 for name in data["outputs"]]
        hypotheses = [(g, f) for g in range(len(data["gates"])) for f in data["faults"]]
        table = {h: {bits: _evaluate({**data, "faulty": h[0], "fault": h[1]}, bits, True)
                     for bits in itertools.product((0, 1), repeat=data["inputs"])} for h in hypotheses}
        for _, observation in view.history:
            match = _READING.match(observation)
            if not match:
                continue
            bits = tuple(int(b) for b in match.group(1))
            readings = dict((int(name) - 1, int(value)) for name, value in _WIRE.findall(match.group(2)))
            hypotheses = [h for h in hypotheses if all(table[h][bits][k] == v for k, v in readings.items())]
        if len({g for g, _ in hypotheses}) <= 1:
            return f"answer G{hypotheses[0][0] + 1}" if hypotheses else "answer G1"
        queries: list[tuple[int | None, tuple[int, ...]]] = [(None, bits) for bits in itertools.product((0, 1), repeat=data["inputs"])]
        queries += [(g, bits) for g in range(len(data["gates"])) for bits in itertools.product((0, 1), repeat=data["inputs"])]

        def worst(query: tuple[int | None, tuple[int, ...]]) -> tuple[int, int]:
            gate, bits = query
            groups: dict[tuple[int, ...], list[tuple[int, str]]] = {}
            for h in hypotheses:
                values = table[h][bits]
                key = (values[gate],) if gate is not None else tuple(values[k] for k in outputs)
                groups.setdefault(key, []).append(h)
            return (max(len({g for g, _ in group}) for group in groups.values()),
                    max(len(group) for group in groups.values()))

        gate, bits = min(queries, key=worst)
        shown = "".join(map(str, bits))
        return f"test {shown}" if gate is None else f"probe G{gate + 1} {shown}"


_READING = re.compile(r"With inputs ([01]+): (.*)\.$")
_WIRE = re.compile(r"G(\d+)=? ?=? ?([01])")


def _random_gates(rng: random.Random, inputs: int, count: int) -> list[tuple[str, list[str]]]:
    """Gates reading inputs or earlier gates, recent ones more often (so the circuit has depth)."""
    gates: list[tuple[str, list[str]]] = []
    for k in range(count):
        pool = [f"I{i + 1}" for i in range(inputs)] + [f"G{j + 1}" for j in range(k)]
        weights = [1.0] * inputs + [2.0 + j for j in range(k)]
        kind = rng.choice(KINDS if k >= 1 else KINDS[:-1])
        arity = 1 if kind == "NOT" else 2
        sources: list[str] = []
        for _ in range(arity):
            choice = rng.choices(pool, weights)[0]
            if choice in sources:
                choice = rng.choice([p for p in pool if p not in sources])
            sources.append(choice)
        gates.append((kind, sources))
    return gates


def _gate_value(kind: str, values: list[int]) -> int:
    if kind == "NOT":
        return 1 - values[0]
    a, b = values
    return {"AND": a & b, "OR": a | b, "XOR": a ^ b, "NAND": 1 - (a & b), "NOR": 1 - (a | b)}[kind]


def _evaluate(data: dict[str, Any], bits: tuple[int, ...], faulty: bool) -> list[int]:
    """Every gate's output for the input ``bits``, with or without the fault."""
    values: list[int] = []
    for k, (kind, sources) in enumerate(data["gates"]):
        ins = [bits[int(s[1:]) - 1] if s[0] == "I" else values[int(s[1:]) - 1] for s in sources]
        out = _gate_value(kind, ins)
        if faulty and k == data["faulty"]:
            out = {"stuck0": 0, "stuck1": 1, "inverted": 1 - out}[data["fault"]]
        values.append(out)
    return values


def _showing(data: dict[str, Any]) -> list[int]:
    """The gates whose fault (``data["fault"]``) makes an output wrong for some input, and so also makes the gate
    itself misbehave. The circuit runs with the fault only where the gate's correct value is one the fault
    changes."""
    outputs = [int(name[1:]) - 1 for name in data["outputs"]]
    runs = [(bits, _evaluate(data, bits, False)) for bits in itertools.product((0, 1), repeat=data["inputs"])]
    def shows(k: int, bits: tuple[int, ...], good: list[int]) -> bool:
        if good[k] == {"stuck0": 0, "stuck1": 1}.get(data["fault"], 1 - good[k]):
            return False  # the fault leaves this gate's value as it should be
        bad = _evaluate({**data, "faulty": k}, bits, True)
        return any(good[o] != bad[o] for o in outputs)

    return [k for k in range(len(data["gates"])) if any(shows(k, bits, good) for bits, good in runs)]


def _parse(words: list[str], inputs: int, gates: int) -> tuple[str, int, tuple[int, ...]] | None:
    if len(words) == 1 and _GATE.match(words[0]):
        words = ["answer", *words]  # "answer G3" reaches here as "G3": the shared readers drop an "Answer" lead-in
    if not words:
        return None
    verb = {"test": "test", "probe": "probe", "measure": "probe", "answer": "answer", "faulty": "answer"}.get(words[0])
    rest = [w for w in words[1:] if w not in ("gate", "inputs", "input", "with", "at", "is")]
    if verb is None:
        return None
    gate = -1
    if verb in ("probe", "answer"):
        match = _GATE.match(rest[0]) if rest else None
        if not match or not 1 <= int(match.group(1)) <= gates:
            return None
        gate, rest = int(match.group(1)) - 1, rest[1:]
    if verb == "answer":
        return (verb, gate, ()) if not rest else None
    bits = "".join(rest)
    if not _BITS.match(bits) or len(bits) != inputs:
        return None
    return verb, gate, tuple(int(b) for b in bits)
