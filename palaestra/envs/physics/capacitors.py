"""Capacitor networks: equivalent capacitance, and the charge on or energy in one capacitor across a battery.

Initially uncharged capacitors form a series-parallel network between terminals A and B (built by
replacing a capacitor with two in series or two in parallel). Level 0 asks for the equivalent
capacitance; from level 1 on a battery is connected across A and B and the question asks for the
charge on one named capacitor, and from level 3 also the energy stored in it. The reference comes
from the potentials of the inner nodes (each isolated node keeps zero net charge: the sum of C·ΔV
over its capacitors is 0), solved with exact fractions, never from the construction.

The answer is the exact value in μF, μC or μJ (``nF``/``pF``, ``mC``/``nC`` and ``mJ`` accepted), in
any exact spelling; a rounded value of a non-terminating answer is wrong. It may be named by the asked capacitor's
label (``Q4 = 240/7 μC`` for the charge on C4; ``U4``, ``E4`` or ``W4`` for its energy) or in a sentence (``The charge
on C4 is 240/7 μC.``, ``The energy stored in C4 is ...``); a label or sentence naming another capacitor or quantity is
not read.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.physics.common import Units, decimal_text, fraction_text, read_quantity
from palaestra.verifiers.normalize import strip_wrappers

# the micro prefix is read as "u" (the shared number reader's unit scan does not take the Greek letter)
UNITS: dict[str, Units] = {
    "μF": {"uF": 1, "µF": 1, "microfarads": 1, "nF": Fraction(1, 1000), "pF": Fraction(1, 10**6), "mF": 1000, "F": 10**6,
           "farads": 10**6},
    "μC": {"uC": 1, "µC": 1, "microcoulombs": 1, "nC": Fraction(1, 1000), "mC": 1000, "C": 10**6, "coulombs": 10**6},
    "μJ": {"uJ": 1, "µJ": 1, "microjoules": 1, "mJ": 1000, "nJ": Fraction(1, 1000), "J": 10**6, "joules": 10**6},
}
CAPACITANCES = tuple(range(1, 101))
# A per-capacitor label before the value: Q4 =, Q_4 =, Q_{4} = (a charge), U4/E4/W4 = (an energy); or a sentence
# naming the capacitor (the shared reader leaves a named object to the env): "The charge on C4 is", "The energy stored
# in capacitor C4:"
_LABEL = re.compile(r"(?:([QqUEW])\s*_?\s*\{?\s*(\d{1,2})\s*\}?\s*=|(?:the\s+)?(charge\s+on|energy\s+(?:stored\s+)?in)"
                    r"\s+(?:capacitor\s+)?C\s*_?\s*\{?(\d{1,2})\}?\s*(?:is\b|=|:))\s*", re.IGNORECASE)
_LABELS = {"charge": ("Q", "q", "charge"), "energy": ("U", "E", "W", "energy")}
# the capacitor asked about, as the prompt names it (the problem's data predates the label)
_ASKED = re.compile(r"(?:charge on|energy is stored in) C(\d+),")

Link = tuple[str, str, int]  # node, node, capacitance in μF


@register
class Capacitors(Task):
    id = "physics/capacitors"
    family = "physics"
    description = "Equivalent capacitance of a capacitor network, or the charge on or energy in one capacitor, exactly."
    tags = ("physics", "circuits", "electrostatics", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        capacitors: tuple[int, int]
        kinds: tuple[str, ...]

    presets = (
        Config(capacitors=(2, 3), kinds=("capacitance",)),
        Config(capacitors=(3, 4), kinds=("charge",)),
        Config(capacitors=(4, 5), kinds=("charge",)),
        Config(capacitors=(5, 6), kinds=("charge", "energy")),
        Config(capacitors=(6, 8), kinds=("charge", "energy")),
    )
    growth = Growth(limits={"capacitors": (12, 20)})  # capped where generation stops scaling (kit check far_levels)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        links = _network(rng, rng.randint(*config.capacitors))
        potentials = _potentials(links)
        listing = "\n".join(f"  C{i + 1} = {c} μF between {a} and {b}" for i, (a, b, c) in enumerate(links))
        kind = rng.choice(config.kinds)
        if kind == "capacitance":
            value = sum((c * (1 - potentials[b if a == "A" else a]) for a, b, c in links if "A" in (a, b)), Fraction(0))
            question, unit = "What is the equivalent capacitance between A and B, in μF?", "μF"
        else:
            volts = rng.choice((6, 9, 10, 12, 15, 18, 20, 24, 30, 48, 100))
            charged = [i for i, (a, b, _) in enumerate(links) if potentials[a] != potentials[b]]
            index = rng.choice(charged)
            a, b, c = links[index]
            drop = abs(potentials[a] - potentials[b]) * volts
            if kind == "charge":
                value, unit = c * drop, "μC"
                question = (f"The capacitors start uncharged; then an ideal {volts} V battery is connected across A and "
                            f"B. Once charging stops, what is the charge on C{index + 1}, in μC?")
            else:
                value, unit = c * drop * drop / 2, "μJ"
                question = (f"The capacitors start uncharged; then an ideal {volts} V battery is connected across A and "
                            f"B. Once charging stops, how much energy is stored in C{index + 1}, in μJ?")
        example = {"μF": "36/7 μF", "μC": "240/7 μC", "μJ": "1800/49 μJ"}[unit]  # fixed per unit
        prompt = (f"Capacitors are connected between terminals A and B (and inner nodes):\n{listing}\n\n{question} "
                  f"Give the exact value (a fraction if needed), e.g. {example}.")
        return Problem(prompt=prompt, answer=f"{fraction_text(value)} {unit}", data={
            "links": [list(x) for x in links], "kind": kind, "value": fraction_text(value), "unit": unit})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        unit = problem.data["unit"]
        asked = _ASKED.search(problem.prompt)
        value = _read(answer, unit, (problem.data["kind"], asked.group(1)) if asked else None)
        if value is None:
            return Verdict.unparsed(f"expected an exact number in {unit}")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Capacitors, plus 2 for a charge (the voltage division) and 3 for an energy, plus a tenth of the
        answer's digits."""
        extra = {"capacitance": 0, "charge": 2, "energy": 3}[problem.data["kind"]]
        return len(problem.data["links"]) + extra + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value, unit = problem.data["value"], problem.data["unit"]
        out = [*super().spellings(problem), value, f"{value} {unit.replace('μ', 'u')}", f"{value} {unit.replace('μ', 'µ')}",
               f"{fraction_text(Fraction(value) * 1000)} {'nF' if unit == 'μF' else 'nC' if unit == 'μC' else 'nJ'}"]
        decimal = decimal_text(Fraction(value))
        if decimal is not None:
            out.append(f"{decimal} {unit}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value, unit = Fraction(problem.data["value"]), problem.data["unit"]
        wrong = [f"{fraction_text(value + 1)} {unit}", f"{fraction_text(value * 2)} {unit}",
                 f"{fraction_text(1 / value)} {unit}" if value != 1 else f"2 {unit}",
                 f"{fraction_text(value)} or {fraction_text(value + 1)}"]
        if decimal_text(value) is None:
            wrong.append(f"{float(value):.3f} {unit}")
        return [w for w in wrong if _read(w, unit) != value]


def _read(text: str, unit: str, asked: tuple[str, str] | None = None) -> Fraction | None:
    """The exact value in ``unit``, with μ (Greek mu or the micro sign) read as the prefix u; after a capacitor's label
    only where it names ``asked`` (the kind and the capacitor's number)."""
    if not isinstance(text, str) or len(text) > 2_000:
        return None
    text = text.replace("μ", "u").replace("µ", "u")
    label = _LABEL.match(strip_wrappers(text))
    if label is not None:
        letter, index = label.group(1) or label.group(3).split()[0].lower(), label.group(2) or label.group(4)
        if asked is None or letter not in _LABELS.get(asked[0], ()) or index != asked[1]:
            return None
        text = strip_wrappers(text)[label.end():]
    return read_quantity(text, UNITS[unit])


def _network(rng: random.Random, count: int) -> list[Link]:
    """Start with one capacitor between A and B; replace a random one by two in series or two in parallel."""
    links: list[list[str]] = [["A", "B"]]
    names = iter("CDEFGHIJKLMNOPQRSTUVWXYZ")
    while len(links) < count:  # bounded: one more capacitor each pass
        i = rng.randrange(len(links))
        a, b = links[i]
        if rng.random() < 0.5:
            middle = next(names)
            links[i:i + 1] = [[a, middle], [middle, b]]
        else:
            links.insert(i + 1, [a, b])
    rng.shuffle(links)
    return [(min(a, b), max(a, b), rng.choice(CAPACITANCES)) for a, b in links]


def _potentials(links: list[Link]) -> dict[str, Fraction]:
    """Node potentials with A at 1 and B at 0: zero net charge on every inner node, solved exactly."""
    inner = sorted({n for a, b, _ in links for n in (a, b)} - {"A", "B"})
    index = {n: i for i, n in enumerate(inner)}
    size = len(inner)
    matrix = [[Fraction(0)] * (size + 1) for _ in range(size)]
    fixed = {"A": Fraction(1), "B": Fraction(0)}
    for a, b, c in links:
        for x, y in ((a, b), (b, a)):
            if x in index:
                matrix[index[x]][index[x]] += c
                if y in index:
                    matrix[index[x]][index[y]] -= c
                else:
                    matrix[index[x]][size] += c * fixed[y]
    for col in range(size):  # Gauss-Jordan: a connected network's matrix is non-singular
        pivot = next(r for r in range(col, size) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col][col]
        matrix[col] = [v / lead for v in matrix[col]]
        for r in range(size):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [v - factor * w for v, w in zip(matrix[r], matrix[col])]
    return {**fixed, **{n: matrix[index[n]][size] for n in inner}}
