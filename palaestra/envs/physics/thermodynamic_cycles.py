"""Ideal-gas processes and cycles on a P-V diagram: heat, net work, heat absorbed, efficiency, exactly.

A fixed amount of a monatomic (C_v = 3/2 R) or diatomic (C_v = 5/2 R) ideal gas goes through straight
processes between states given as (pressure in kPa, volume in L); 1 kPa x 1 L = 1 J. Along a
straight segment the work done by the gas is the trapezoid under it, W = (P_a + P_b)/2 (V_b - V_a),
the internal energy changes by dU = (C_v/R)(P_b V_b - P_a V_a), and the heat absorbed is Q = dU + W.
Level 0 asks for the heat absorbed in one isobaric or isochoric process; level 1 for the net work
over a rectangular cycle (its sign follows the direction round the diagram); level 2 for the heat
the gas absorbs over a rectangular cycle (the sum over the processes that take heat in, each of
which takes it in along its whole length); level 3 for the rectangular cycle's efficiency, net
work over heat absorbed; level 4 for a triangular cycle with a diagonal process: the net work and
the net heat absorbed along the diagonal. Whole-number states make every answer an exact rational.

The answer is the value in J (kJ accepted), or a bare fraction for the efficiency (a percentage
accepted), in any exact spelling; level 4 names both values (``W = ..., Q = ...``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.physics.common import Units, decimal_text, fraction_text, read_quantities, read_quantity

JOULES: Units = {"J": 1, "joules": 1, "kJ": 1000}
RATIO: Units = {"%": Fraction(1, 100), "percent": Fraction(1, 100)}
UNIT_OF: dict[str, tuple[str, Units]] = {"process": ("J", JOULES), "work": ("J", JOULES), "heat_in": ("J", JOULES),
                                         "efficiency": ("", RATIO)}
PAIR: dict[str, Units] = {"W": JOULES, "Q": JOULES}
GASES = {"monatomic": Fraction(3, 2), "diatomic": Fraction(5, 2)}
State = tuple[int, int]  # (pressure in kPa, volume in L)
Question = tuple[str, dict[str, Fraction], int]  # text, exact answer values, reasoning steps


@register
class ThermodynamicCycles(Task):
    id = "physics/thermodynamic_cycles"
    family = "physics"
    description = "Ideal-gas processes and cycles on a P-V diagram: heat, net work, heat absorbed and efficiency, exactly."
    tags = ("physics", "thermodynamics", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("process"), Config("work"), Config("heat_in"), Config("efficiency"), Config("triangle"))
    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, values, steps = _KINDS[config.kind](rng)
        intro = "An ideal gas; 1 kPa x 1 L = 1 J; the gas goes along straight lines on the P-V diagram. "
        if config.kind == "triangle":
            form = "Give exact values (fractions where needed), e.g. W = -2250 J, Q = 1875/2 J."
            answer = f"W = {fraction_text(values['W'])} J, Q = {fraction_text(values['Q'])} J"
        elif config.kind == "efficiency":
            form = "Give the efficiency as an exact fraction, e.g. 4/27."
            answer = fraction_text(values["x"])
        else:
            form = "Give the exact value in J (a fraction if needed), e.g. -1875/2 J."
            answer = f"{fraction_text(values['x'])} J"
        return Problem(prompt=f"{intro}{question}\n\n{form}", answer=answer, data={
            "kind": config.kind, "values": {k: fraction_text(v) for k, v in values.items()}, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "triangle":
            got = read_quantities(answer, PAIR)
            if got is None:
                return Verdict.unparsed("expected W = <J>, Q = <J>, exact values")
            if got["W"] != expected["W"]:
                return Verdict.wrong("wrong net work")
            return Verdict.judge(got["Q"] == expected["Q"], "wrong heat along the diagonal")
        unit, units = UNIT_OF[problem.data["kind"]]
        value = read_quantity(answer, units)
        if value is None:
            return Verdict.unparsed(f"expected one exact value{' in ' + unit if unit else ''}")
        return Verdict.judge(value == expected["x"], "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Processes to evaluate and quantities to combine (steps), plus a tenth of the answer's digits."""
        digits = sum(c.isdigit() for v in problem.data["values"].values() for c in v)
        return problem.data["steps"] + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "triangle":
            w, q = values["W"], values["Q"]
            return [*super().spellings(problem), f"Q = {fraction_text(q)} J, W = {fraction_text(w)} J",
                    f"W = {fraction_text(w / 1000)} kJ\nQ = {fraction_text(q)}"]
        x = values["x"]
        if problem.data["kind"] == "efficiency":
            return [*super().spellings(problem), f"\\frac{{{x.numerator}}}{{{x.denominator}}}",
                    f"{fraction_text(x * 100)}%", f"e = {fraction_text(x)}."]
        out = [*super().spellings(problem), fraction_text(x), f"{fraction_text(x / 1000)} kJ", f"\\boxed{{{fraction_text(x)}}}"]
        decimal = decimal_text(x)
        if decimal is not None:
            out.append(f"{decimal} J.")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "triangle":
            w, q = values["W"], values["Q"]
            def spelled(a: Fraction, b: Fraction) -> str:
                return f"W = {fraction_text(a)} J, Q = {fraction_text(b)} J"
            return [spelled(-w, q), spelled(w, q + 1), spelled(w, q - w), spelled(w, q) + " or Q = 0 J",
                    f"W = {fraction_text(w)} J"]
        x = values["x"]
        unit = " J" if problem.data["kind"] != "efficiency" else ""
        wrong = [f"{fraction_text(x + 1)}{unit}", f"{fraction_text(x * 2)}{unit}",
                 f"{fraction_text(x)} or {fraction_text(x * 2)}{unit}", f"{fraction_text(-x)}{unit}"]
        if decimal_text(x) is None:
            wrong.append(f"{float(x):.3f}{unit}")
        return wrong


def _segment(cv: Fraction, a: State, b: State) -> tuple[Fraction, Fraction]:
    """(work done by the gas, heat absorbed) along the straight segment from state a to state b."""
    (pa, va), (pb, vb) = a, b
    work = Fraction(pa + pb, 2) * (vb - va)
    return work, cv * (pb * vb - pa * va) + work


def _gas(rng: random.Random) -> tuple[str, Fraction]:
    name = rng.choice(sorted(GASES))
    return name, GASES[name]


def _states(states: dict[str, State]) -> str:
    return ", ".join(f"{name} ({p} kPa, {v} L)" for name, (p, v) in states.items())


def _rectangle(rng: random.Random) -> tuple[dict[str, State], list[str]]:
    """Four states at the corners of a rectangle and their order round the cycle (either direction)."""
    p1, p2 = sorted(rng.sample(range(50, 601, 10), 2))
    v1, v2 = sorted(rng.sample(range(1, 41), 2))
    corners = {"A": (p1, v1), "B": (p2, v1), "C": (p2, v2), "D": (p1, v2)}
    order = ["A", "B", "C", "D"] if rng.random() < 0.6 else ["A", "D", "C", "B"]
    start = rng.randrange(4)
    return corners, order[start:] + order[:start]


def _cycle_text(gas: str, states: dict[str, State], order: list[str]) -> str:
    path = " -> ".join([*order, order[0]])
    return f"A {gas} ideal gas goes round the cycle {path} through the states {_states(states)}."


def _process(rng: random.Random) -> Question:
    gas, cv = _gas(rng)
    p, v = rng.randrange(50, 601, 10), rng.randint(1, 40)
    if rng.random() < 0.5:
        end = (p, rng.choice([w for w in range(1, 41) if w != v]))
        kind = "at constant pressure"
    else:
        end = (rng.choice([q for q in range(50, 601, 10) if q != p]), v)
        kind = "at constant volume"
    _, heat = _segment(cv, (p, v), end)
    text = (f"A {gas} ideal gas goes {kind} from state A ({p} kPa, {v} L) to state B ({end[0]} kPa, {end[1]} L). "
            "How much heat does the gas absorb (negative if it gives heat out)?")
    return text, {"x": heat}, 2


def _work(rng: random.Random) -> Question:
    gas, cv = _gas(rng)
    states, order = _rectangle(rng)
    work = sum((_segment(cv, states[a], states[b])[0] for a, b in zip(order, order[1:] + order[:1])), Fraction(0))
    text = (f"{_cycle_text(gas, states, order)} What is the net work done by the gas over one cycle (negative if "
            "work is done on the gas)?")
    return text, {"x": work}, 3


def _heat_in(rng: random.Random) -> Question:
    gas, cv = _gas(rng)
    states, order = _rectangle(rng)
    heats = [_segment(cv, states[a], states[b])[1] for a, b in zip(order, order[1:] + order[:1])]
    text = (f"{_cycle_text(gas, states, order)} How much heat does the gas absorb over one cycle (the total of the "
            "heat taken in, not counting the heat given out)?")
    return text, {"x": sum((q for q in heats if q > 0), Fraction(0))}, 5


def _efficiency(rng: random.Random) -> Question:
    gas, cv = _gas(rng)
    states, order = _rectangle(rng)
    if order.index("B") != (order.index("A") + 1) % 4:  # an engine: clockwise, so the net work is positive
        order = order[::-1]
    pairs = list(zip(order, order[1:] + order[:1]))
    segments = [_segment(cv, states[a], states[b]) for a, b in pairs]
    work = sum((w for w, _ in segments), Fraction(0))
    absorbed = sum((q for _, q in segments if q > 0), Fraction(0))
    text = (f"{_cycle_text(gas, states, order)} This cycle is a heat engine. What is its efficiency (the net work "
            "done by the gas divided by the heat it absorbs over one cycle)?")
    return text, {"x": work / absorbed}, 7


def _triangle(rng: random.Random) -> Question:
    """A -> B at constant volume, B -> C along a diagonal, C -> A at constant pressure (or the reverse)."""
    gas, cv = _gas(rng)
    p1, p2 = sorted(rng.sample(range(50, 601, 10), 2))
    v1, v2 = sorted(rng.sample(range(1, 41), 2))
    if rng.random() < 0.5:
        states = {"A": (p1, v1), "B": (p2, v1), "C": (p1, v2)}  # the diagonal falls from high P, low V
    else:
        states = {"A": (p2, v2), "B": (p1, v2), "C": (p2, v1)}
    order = ["A", "B", "C"] if rng.random() < 0.5 else ["A", "C", "B"]
    pairs = list(zip(order, order[1:] + order[:1]))
    work = sum((_segment(cv, states[a], states[b])[0] for a, b in pairs), Fraction(0))
    start, end = ("B", "C") if ("B", "C") in pairs else ("C", "B")
    _, heat = _segment(cv, states[start], states[end])
    text = (f"{_cycle_text(gas, states, order)} Find the net work W done by the gas over one cycle (negative if work "
            f"is done on the gas) and the net heat Q absorbed by the gas during the straight process {start} -> {end} "
            "(negative if it gives heat out).")
    return text, {"W": work, "Q": heat}, 8


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "process": _process, "work": _work, "heat_in": _heat_in, "efficiency": _efficiency, "triangle": _triangle,
}
