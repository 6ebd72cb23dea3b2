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
from fractions import Fraction

from palaestra.core import register
from palaestra.envs.physics.common import KindsTask, Named, Question, Units, kind_presets

JOULES: Units = {"J": 1, "joules": 1, "kJ": 1000}
RATIO: Units = {"%": Fraction(1, 100), "percent": Fraction(1, 100)}
GASES = {"monatomic": Fraction(3, 2), "diatomic": Fraction(5, 2)}
State = tuple[int, int]  # (pressure in kPa, volume in L)


@register
class ThermodynamicCycles(KindsTask):
    id = "physics/thermodynamic_cycles"
    family = "physics"
    description = "Ideal-gas processes and cycles on a P-V diagram: heat, net work, heat absorbed and efficiency, exactly."
    tags = ("physics", "thermodynamics", "math")
    version = 2  # v2: a rectangular cycle runs either way round with even odds (0.6 clockwise let a constant sign earn 0.6)
    presets = kind_presets("process", "work", "heat_in", "efficiency", "triangle")
    intro = "An ideal gas; 1 kPa x 1 L = 1 J; the gas goes along straight lines on the P-V diagram. "
    single = {"process": ("J", JOULES), "work": ("J", JOULES), "heat_in": ("J", JOULES), "efficiency": ("", RATIO)}
    named = {"triangle": {"W": Named("J", JOULES, "net work"), "Q": Named("J", JOULES, "heat along the diagonal")}}
    examples = {"triangle": "W = -2250 J, Q = 1875/2 J"}
    single_example = "-1875/2"
    forms = {"efficiency": "Give the efficiency as an exact fraction, e.g. 4/27."}

    def draw(self, kind: str, rng: random.Random) -> Question:
        return _KINDS[kind](rng)


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
    order = ["A", "B", "C", "D"] if rng.random() < 0.5 else ["A", "D", "C", "B"]  # either way round: no sign prior
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
