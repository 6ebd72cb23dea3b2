"""Resistor networks: the equivalent resistance between two terminals, or a branch current.

The network is given as a list of resistors and the nodes they join. Levels 0-2 build
series-parallel networks (start from one resistor between A and B, then repeatedly
replace a resistor by two in series or two in parallel), so they reduce step by step;
level 3 networks are bridges and other graphs that do not reduce that way (Kirchhoff's
laws or a delta-star transform are needed); level 4 connects a battery across A and B
and asks for the current through one resistor. Every answer comes from the network's
node equations solved with exact fractions (the potentials of the inner nodes), never
from the construction, so series-parallel and general networks are checked the same way.

The answer is the exact value in ohms or amperes, in any exact spelling, with or
without the unit (``36/7``, ``36/7 Ω``, ``5.25 ohms``, ``1.5 A``, ``1500 mA``); a rounded
value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.physics.common import read_quantity
from palaestra.solvers.linalg import solve
from palaestra.verifiers.rationals import format_fraction, other_spellings

OHMS: dict[str, Fraction | int] = {"Ω": 1, "ohm": 1, "ohms": 1, "\\Omega": 1, "kΩ": 1000, "kohm": 1000}
AMPERES: dict[str, Fraction | int] = {"A": 1, "amp": 1, "amps": 1, "ampere": 1, "amperes": 1, "mA": Fraction(1, 1000)}
_EXAMPLE = Fraction(36, 7)

Edge = tuple[str, str, int]  # node, node, resistance in ohms


@register
class ResistorNetwork(Task):
    id = "physics/resistor_network"
    version = 2
    family = "physics"
    description = "Equivalent resistance of a resistor network, or the current through one resistor, exactly."
    tags = ("physics", "circuits", "math")

    @dataclass(frozen=True)
    class Config:
        resistors: tuple[int, int]
        series_parallel: bool  # built by series/parallel replacements (else a general graph)
        current: bool  # ask for a branch current with a battery across A and B

    presets = (
        Config(resistors=(2, 3), series_parallel=True, current=False),
        Config(resistors=(4, 5), series_parallel=True, current=False),
        Config(resistors=(6, 8), series_parallel=True, current=False),
        Config(resistors=(5, 7), series_parallel=False, current=False),
        Config(resistors=(6, 9), series_parallel=False, current=True),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        count = rng.randint(*config.resistors)
        edges = (_series_parallel(rng, count) if config.series_parallel
                 else retry(lambda: _general(rng, count), _usable, what="a connected non-series-parallel network"))
        listing = "\n".join(f"  R{i + 1} = {r} Ω between {a} and {b}" for i, (a, b, r) in enumerate(edges))
        potentials = _potentials(edges, Fraction(1))
        total_current = sum(((potentials[a] - potentials[b]) / r for a, b, r in edges if a == "A"), Fraction(0)) + \
            sum(((potentials[b] - potentials[a]) / r for a, b, r in edges if b == "A"), Fraction(0))
        if config.current:
            volts = rng.choice([6, 9, 10, 12, 15, 18, 20, 24, 30])
            carrying = [i for i, (a, b, _) in enumerate(edges) if potentials[a] != potentials[b]]
            index = rng.choice(carrying)  # never a resistor of a balanced bridge (no current)
            a, b, r = edges[index]
            value = abs(potentials[a] - potentials[b]) * volts / r
            question = (f"An ideal {volts} V battery is connected across A and B. What is the magnitude of the current "
                        f"through R{index + 1}, in amperes?")
            unit, kind = "A", "current"
        else:
            value = 1 / total_current
            question = "What is the equivalent resistance between A and B, in ohms?"
            unit, kind = "Ω", "resistance"
        example = format_fraction(_EXAMPLE)  # a fixed placeholder: independent of the answer
        prompt = (f"A network of resistors joins nodes A, B and possibly others:\n{listing}\n\n{question} "
                  f"Give the exact value (a fraction if needed), e.g. {example} {unit}.")
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "edges": [list(e) for e in edges], "kind": kind, "value": format_fraction(value),
            "series_parallel": config.series_parallel,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        units = AMPERES if problem.data["kind"] == "current" else OHMS
        value = read_quantity(answer, units)  # exact, optionally followed by "≈ its decimal"
        if value is None:
            return Verdict.unparsed("not an exact number (in " + ("amperes)" if units is AMPERES else "ohms)"))
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Resistors, plus 3 when the network is not series-parallel, plus 2 for a branch current."""
        return float(len(problem.data["edges"]) + 3 * (not problem.data["series_parallel"])
                     + 2 * (problem.data["kind"] == "current"))

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        unit = "A" if problem.data["kind"] == "current" else "Ω"
        words = "amperes" if unit == "A" else "ohms"
        extra = [f"{problem.answer} {unit}", f"{problem.answer} {words}", f"R = {problem.answer}" if unit == "Ω"
                 else f"I = {problem.answer} A"]
        if unit == "A":
            extra.append(f"{format_fraction(value * 1000)} mA")
        return [*super().spellings(problem), *other_spellings(value), *extra]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        wrong = [*super().corruptions(problem, rng), format_fraction(value + 1), format_fraction(1 / value),
                 format_fraction(value * 2), f"{format_fraction(value)} or {format_fraction(value + 1)}"]
        if (value * 1000).denominator != 1:
            wrong.append(f"{float(value):.3f}")
        if problem.data["kind"] == "current":
            wrong.append(f"{format_fraction(value)} mA")
        return [w for w in wrong if w.strip() != problem.answer]


def _value(rng: random.Random) -> int:
    return rng.randint(1, 40)


def _series_parallel(rng: random.Random, count: int) -> list[Edge]:
    """Start with one resistor between A and B; replace a random one by two in series or in parallel."""
    edges: list[list] = [["A", "B"]]
    names = iter("CDEFGHIJKLMN")
    while len(edges) < count:  # bounded: one more resistor each pass
        i = rng.randrange(len(edges))
        a, b = edges[i]
        if rng.random() < 0.5:
            middle = next(names)
            edges[i:i + 1] = [[a, middle], [middle, b]]
        else:
            edges.insert(i + 1, [a, b])
    rng.shuffle(edges)
    return [(min(a, b), max(a, b), _value(rng)) for a, b in edges]


def _general(rng: random.Random, count: int) -> list[Edge]:
    """A random connected graph on A, B and 2-4 inner nodes where every node has degree at least 2."""
    inner = [chr(ord("C") + i) for i in range(rng.randint(2, min(4, count - 2)))]
    nodes = ["A", "B", *inner]
    pairs = [(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:] if (a, b) != ("A", "B")]
    if len(pairs) < count:
        return []
    chosen = rng.sample(pairs, count)
    return [(a, b, _value(rng)) for a, b in chosen]


def _usable(edges: list[Edge]) -> bool:
    if not edges:
        return False
    degree: dict[str, int] = {}
    for a, b, _ in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    if min(degree.values()) < 2 or "A" not in degree or "B" not in degree:
        return False
    return _connected(edges) and not _reducible(edges)


def _connected(edges: list[Edge]) -> bool:
    seen, frontier = {"A"}, ["A"]
    while frontier:  # bounded: each node enters once
        node = frontier.pop()
        for a, b, _ in edges:
            for x, y in ((a, b), (b, a)):
                if x == node and y not in seen:
                    seen.add(y)
                    frontier.append(y)
    return len(seen) == len({n for a, b, _ in edges for n in (a, b)})


def _reducible(edges: list[Edge]) -> bool:
    """Whether series and parallel reductions alone bring the network down to one resistor between A and B."""
    links = [tuple(sorted((a, b))) for a, b, _ in edges]
    for _ in range(len(links) * 2):
        merged = False
        unique = sorted(set(links))
        if len(unique) < len(links):  # parallel: equal node pairs merge
            links, merged = unique, True
        degree: dict[str, int] = {}
        for a, b in links:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        for node, d in degree.items():
            if node not in ("A", "B") and d == 2:  # series: a two-way inner node disappears
                ends = [x for link in links if node in link for x in link if x != node]
                links = [link for link in links if node not in link] + [tuple(sorted(ends))]
                merged = True
                break
        if not merged:
            break
    return links == [("A", "B")]


def _potentials(edges: list[Edge], volts: Fraction) -> dict[str, Fraction]:
    """Node potentials with A at ``volts`` and B at 0: Kirchhoff's current law at each inner node, solved exactly."""
    inner = sorted({n for a, b, _ in edges for n in (a, b)} - {"A", "B"})
    index = {n: i for i, n in enumerate(inner)}
    size = len(inner)
    matrix = [[Fraction(0)] * size for _ in range(size)]
    right = [Fraction(0)] * size
    fixed = {"A": volts, "B": Fraction(0)}
    for a, b, r in edges:
        g = Fraction(1, r)
        for x, y in ((a, b), (b, a)):
            if x in index:
                matrix[index[x]][index[x]] += g
                if y in index:
                    matrix[index[x]][index[y]] -= g
                else:
                    right[index[x]] += g * fixed[y]
    solution = solve(matrix, right)
    if solution is None:  # the conductance matrix of a connected network is non-singular
        raise ValueError("the network is not connected")
    return {**fixed, **dict(zip(inner, solution))}
