"""Boolean circuit evaluation: given the inputs, what do the circuit's output wires carry?

A random circuit of two-input gates (AND, OR, XOR, NAND, NOR, XNOR, each as likely) and NOT gates over
named input wires; every gate reads inputs or earlier
gates, and the outputs are the last gates. At the upper levels the gate list is shown in a
shuffled order, so the evaluation order has to be worked out. Every input reaches some output,
each output reads at least two inputs, and gates that no output uses are pruned.

The answer gives every output's value (``o1 = 1, o2 = 0``, ``true``/``false`` also read); the
verifier compares with the simulation (the answer is unique).

The input values are not drawn independently: on fair independent inputs an output's own gate gives its value away
3 times in 4 (AND and NOR lean to 0, OR and NAND to 1), and guessing every output from its gate's name alone scored
0.21, 0.11 and 0.10 at levels 0, 2 and 4 in version 2 (chance: 1/16, 1/16, 1/32). Since version 3 the inputs are
drawn among all assignments so that the number of outputs that agree with their lean (the value each takes under
most assignments) is a fair coin count, Binomial(k, 1/2); the gate-name guess scores 0.09, 0.11 and 0.05 (level 2's
four inputs leave few output vectors to choose from).

Since version 4 the shuffled order of levels 2 and up is one that reading the list top to bottom gets wrong:
evaluating each line where it stands, with the wires used before their own line taken as 0, as 1 or guessed at random
(measured on 256 guesses), does no better than guessing the outputs. In version 3 that lazy reading scored 0.13-0.17
(wires taken as 0 or 1) and 0.19, 0.09, 0.12 (guessed) at levels 2-4, 100 seeds each; now 0 and 0.02, 0.02, 0. Two
top-to-bottom passes still finish some circuits (0.43, 0.30, 0.26 -> 0.24, 0.20, 0.08); passes repeated until no
wire changes are an honest evaluation. Levels 0 and 1 list the gates in evaluation order and are unchanged.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import read_truth_assignment, without_label

# "Outputs: o1 = 0, o2 = 1", "The output values are ...": a name before the values
_LABEL = re.compile(r"(?:the\s+)?(?:outputs?|output\s+values?|values\s+of\s+the\s+outputs)\b\s*(?::|=|are\b|is\b)\s*",
                    re.IGNORECASE)

_GATES = {
    "AND": lambda a, b: a & b, "OR": lambda a, b: a | b, "XOR": lambda a, b: a ^ b,
    "NAND": lambda a, b: 1 - (a & b), "NOR": lambda a, b: 1 - (a | b), "XNOR": lambda a, b: 1 - (a ^ b),
}
_GATE_NAMES = tuple(_GATES)
# the gates on bit masks (one bit per assignment of some wires; ``e`` has every bit set)
_MASK_GATES = {
    "NOT": lambda a, b, e: e ^ a, "AND": lambda a, b, e: a & b, "OR": lambda a, b, e: a | b,
    "XOR": lambda a, b, e: a ^ b, "NAND": lambda a, b, e: e ^ (a & b), "NOR": lambda a, b, e: e ^ (a | b),
    "XNOR": lambda a, b, e: e ^ a ^ b,
}
_INPUTS = "abcdefgh"
_SHUFFLES = 20  # orders tried per circuit before another is drawn (about one shuffle in ten misleads)
_GUESSES = 256  # guesses for the wires a top-to-bottom reading meets before their lines, tried on each order


@register
class CircuitEval(Task):
    id = "deduction/circuit_eval"
    version = 4  # v4: the shuffled order misleads a top-to-bottom reading
    family = "deduction"
    description = "Simulate a boolean circuit of logic gates on given inputs and report its outputs."
    tags = ("logic", "boolean-circuits", "simulation")

    @dataclass(frozen=True)
    class Config:
        inputs: int
        gates: int
        outputs: int
        shuffled: bool  # list the gates out of evaluation order

    presets = (
        Config(inputs=3, gates=5, outputs=4, shuffled=False),
        Config(inputs=4, gates=9, outputs=4, shuffled=False),
        Config(inputs=4, gates=14, outputs=4, shuffled=True),
        Config(inputs=5, gates=20, outputs=5, shuffled=True),
        Config(inputs=6, gates=28, outputs=5, shuffled=True),
    )
    growth = Growth(steps={"gates": 8})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple | None:
            circuit = _circuit(rng, config)
            if circuit is None:
                return None
            gates, outputs = circuit
            inputs = _balanced_inputs(rng, gates, outputs, _INPUTS[: config.inputs])
            values = _simulate(gates, inputs)
            shown = _misleading_order(rng, gates, inputs, values, outputs) if config.shuffled else gates[:]
            return None if shown is None else (gates, outputs, inputs, values, shown)

        gates, outputs, inputs, values, shown = retry(draw, what="a circuit whose outputs read every input, in a misleading order")
        listing = "\n".join(f"{name} = {op}({', '.join(args)})" for name, op, args in shown)
        example = [i % 2 for i in range(len(outputs))]  # the format, whatever the answer
        prompt = (
            "A boolean circuit: each line defines a wire as a logic gate applied to other wires (NOT inverts; "
            "AND, OR, XOR, NAND, NOR and XNOR have their usual meanings).\n\n"
            f"Inputs: {', '.join(f'{k} = {v}' for k, v in inputs.items())}\n\n{listing}\n\n"
            f"What values do the outputs {', '.join(outputs)} carry? Answer with each output's value, 1 or 0, "
            f"for example: {', '.join(f'{o} = {bit}' for o, bit in zip(outputs, example))}"
        )
        answer = ", ".join(f"{o} = {values[o]}" for o in outputs)
        data = {"inputs": inputs, "gates": [[n, op, args] for n, op, args in gates], "outputs": outputs,
                "values": {o: values[o] for o in outputs}}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Gates to evaluate times the circuit's depth."""
        depth: dict[str, int] = {name: 0 for name in problem.data["inputs"]}
        for name, _, args in problem.data["gates"]:
            depth[name] = 1 + max(depth[a] for a in args)
        return float(len(problem.data["gates"]) * max(depth.values()))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        outputs, values = problem.data["outputs"], problem.data["values"]
        said = read_truth_assignment(without_label(answer, _LABEL), outputs)
        if said is None:
            return Verdict.unparsed(f"expected a value for each of {', '.join(outputs)}, such as {outputs[0]} = 1")
        for o in outputs:
            if int(said[o]) != values[o]:
                return Verdict.wrong(f"{o} is not {int(said[o])}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        values = problem.data["values"]
        return [*super().spellings(problem),
                ", ".join(f"{o} = {'true' if v else 'false'}" for o, v in values.items()),
                "\n".join(f"{o}: {v}" for o, v in values.items()),
                " ".join(f"{o}={v}" for o, v in reversed(list(values.items())))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = dict(problem.data["values"])
        flip = rng.choice(list(values))
        values[flip] = 1 - values[flip]
        first = next(iter(values))
        return [", ".join(f"{o} = {v}" for o, v in values.items()),
                ", ".join(f"{o} = {v}" for o, v in values.items() if o != first),
                f"{problem.answer}, {flip} = {values[flip]}"]


def _balanced_inputs(rng: random.Random, gates: list, outputs: list[str], names: str) -> dict[str, int]:
    """Input values under which guessing an output from the circuit alone is no better than a coin. Each output's
    lean is the value it takes under most input assignments (AND and NOR gates lean to 0, OR and NAND to 1); the
    number of leaning outputs that agree with their lean is drawn from Binomial(k, 1/2), then an assignment with
    that count (or the nearest count there is) is drawn at random."""
    table = []
    for bits in range(1 << len(names)):
        inputs = {name: bits >> i & 1 for i, name in enumerate(names)}
        table.append((inputs, _simulate(gates, inputs)))
    lean = {}
    for o in outputs:
        ones = sum(values[o] for _, values in table)
        if 2 * ones != len(table):
            lean[o] = int(2 * ones > len(table))
    by_count: dict[int, list[dict[str, int]]] = {}
    for inputs, values in table:
        by_count.setdefault(sum(values[o] == v for o, v in lean.items()), []).append(inputs)
    wanted = sum(rng.randrange(2) for _ in lean)
    count = min(by_count, key=lambda c: (abs(c - wanted), rng.random()))
    return rng.choice(by_count[count])


def _misleading_order(rng: random.Random, gates: list, inputs: dict[str, int], values: dict[str, int],
                      outputs: list[str]) -> list | None:
    """The gates in a shuffled order that a top-to-bottom reading gets wrong: evaluating each line where it stands,
    with the wires used before their own line all taken as 0, or all as 1, misses some output, and with them guessed
    at random it gets every output right no more often than guessing the outputs themselves (measured on
    ``_GUESSES`` random guesses). None when a few shuffles find no such order (the outputs sit too near the inputs)."""
    shown = gates[:]
    for _ in range(_SHUFFLES):
        rng.shuffle(shown)
        right = _lazy_readings_right(rng, shown, inputs, values, outputs)
        if not right & 3 and right.bit_count() << len(outputs) <= _GUESSES:
            return shown
    return None


def _lazy_readings_right(rng: random.Random, shown: list, inputs: dict[str, int], values: dict[str, int],
                         outputs: list[str]) -> int:
    """Which of ``_GUESSES`` guesses for the wires used before their own line make the lines, evaluated where they
    stand, give every output its true value: a bit mask, bit j for guess j (guess 0 takes those wires all as 0,
    guess 1 all as 1, the others at random). A wire's values under all the guesses are one mask too, so each gate
    is one bitwise operation."""
    every = (1 << _GUESSES) - 1
    masks = {name: every * v for name, v in inputs.items()}
    for name, op, args in shown:
        for a in args:
            if a not in masks:  # used before its line: guessed
                masks[a] = 2 | rng.getrandbits(_GUESSES) & ~3
        masks[name] = _MASK_GATES[op](masks[args[0]], masks[args[-1]], every)
    right = every
    for o in outputs:
        right &= masks[o] if values[o] else every ^ masks[o]
    return right


def _simulate(gates: list, inputs: dict[str, int]) -> dict[str, int]:
    values = dict(inputs)
    for name, op, args in gates:
        values[name] = 1 - values[args[0]] if op == "NOT" else _GATES[op](values[args[0]], values[args[1]])
    return values


def _circuit(rng: random.Random, config: CircuitEval.Config) -> tuple[list, list[str]] | None:
    """Gates in evaluation order (named w1, w2, ...; the outputs renamed o1, o2, ...) and the output names."""
    wires = list(_INPUTS[: config.inputs])
    # the inputs each wire reads through some path, as a bitmask over the inputs (bit i: the i-th input)
    support = {name: 1 << i for i, name in enumerate(wires)}
    gates = []
    for i in range(1, config.gates + 1):
        name = f"w{i}"
        a = _pick(rng, wires)
        if rng.random() < 0.12:
            gates.append((name, "NOT", [a]))
            support[name] = support[a]
        else:
            op = rng.choice(_GATE_NAMES)
            b = _pick(rng, [w for w in wires if w != a])
            gates.append((name, op, [a, b]))
            support[name] = support[a] | support[b]
        wires.append(name)
    outputs = [name for name, _, _ in gates[-config.outputs:]]
    reached = 0
    for o in outputs:
        if support[o].bit_count() < 2:
            return None
        reached |= support[o]
    if reached != (1 << config.inputs) - 1:  # some input reaches no output
        return None
    used = set(outputs)
    for name, _, args in reversed(gates):
        if name in used:
            used.update(args)
    kept = [g for g in gates if g[0] in used]
    rename = {o: f"o{k}" for k, o in enumerate(outputs, 1)}
    inner = [g[0] for g in kept if g[0] not in rename]
    rename.update({old: f"w{k}" for k, old in enumerate(inner, 1)})
    renamed = [(rename[n], op, [rename.get(a, a) for a in args]) for n, op, args in kept]
    return renamed, [rename[o] for o in outputs]


def _pick(rng: random.Random, wires: list[str]) -> str:
    """A wire to read, favouring the latest ones (deeper circuits)."""
    return rng.choice(wires[-4:]) if rng.random() < 0.6 else rng.choice(wires)
