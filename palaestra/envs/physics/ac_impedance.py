"""AC circuits: the complex impedance of a network of resistors, inductors and capacitors, exactly.

A sinusoidal source of angular frequency ω drives a series-parallel network of resistors, inductors
(impedance jωL) and capacitors (impedance 1/(jωC) = -j/(ωC)) between terminals A and B. The question
asks for the equivalent impedance Z = R + jX: its resistance R and reactance X in ohms. The network is
built by replacing a component with two in series or two in parallel, and the reference comes from
reducing it back (series impedances add, parallel admittances add) with exact complex fractions; a
draw in which a parallel pair resonates (infinite impedance) is redrawn. Components are whole ohms,
millihenries and microfarads, so R and X are exact rationals.

The answer is ``R = 12/5 Ω, X = -7/3 Ω`` (either order, units optional) or the complex number itself,
``Z = 12/5 - 7/3j`` (``i`` for ``j`` too); a rounded value of a non-terminating answer is wrong.

Version 3: the wiring decides the answer. Half the splits were series and half parallel, drawn apart, so many
networks were all in series or all in parallel: adding every impedance, ignoring the nodes, answered 0.25 of
level 1, 0.18 of level 2 and 0.10 of level 3 (all in parallel 0.07, 0.07, 0.03; 60 seeds a level), and each rule
about half of level 0, whose two components were in series or in parallel. Every network now has three
components or more (level 0 three, level 1 three or four) with at least one series and one parallel split:
neither rule answers any of levels 0-4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.physics.common import decimal_text, fraction_text, read_complex, read_quantities

OHMS = {"Ω": 1, "ohm": 1, "ohms": 1, "\\Omega": 1, "kΩ": 1000}
CAPACITANCES = (1, 2, 4, 5, 10, 20, 25, 40, 50, 100, 200, 250, 500)  # μF
FREQUENCIES = (100, 200, 250, 400, 500, 1000, 2000)  # rad/s
MAX_DENOMINATOR = 10**6

Complex = tuple[Fraction, Fraction]
Component = tuple[str, str, str, int]  # node, node, kind (R, L or C), value in Ω, mH or μF


@register
class AcImpedance(Task):
    id = "physics/ac_impedance"
    family = "physics"
    description = "Equivalent complex impedance R + jX of a series-parallel RLC network at a given frequency, exactly."
    tags = ("physics", "circuits", "math")
    version = 3  # v3: from three components both a series and a parallel split (all-series sums fail)

    @dataclass(frozen=True)
    class Config:
        components: tuple[int, int]

    presets = (
        Config(components=(3, 3)),  # v3: not 2 (a lone series or parallel pair: either rule answered half)
        Config(components=(3, 4)),
        Config(components=(4, 5)),
        Config(components=(5, 6)),
        Config(components=(6, 8)),
    )
    growth = Growth(limits={"components": (12, 20)})  # capped where generation stops scaling (kit check far_levels)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # The frequency is drawn again with each network (version 2): drawn once, a frequency at which the large
        # networks' fractions outgrow MAX_DENOMINATOR left 1,000 networks without a fit (2% of seeds at the cap).
        def draw() -> tuple[int, list[Component]]:
            return rng.choice(FREQUENCIES), _network(rng, rng.randint(*config.components))

        def finite(drawn: tuple[int, list[Component]]) -> bool:
            omega, parts = drawn
            z = equivalent(parts, omega)
            return z is not None and max(z[0].denominator, z[1].denominator) <= MAX_DENOMINATOR \
                and len({kind for _, _, kind, _ in parts}) >= min(2, len(parts))

        omega, parts = retry(draw, finite, what="an RLC network without a resonant parallel pair")
        z = equivalent(parts, omega)
        assert z is not None
        counters = {"R": 0, "L": 0, "C": 0}
        rows = []
        for a, b, kind, value in parts:
            counters[kind] += 1
            unit = {"R": "Ω", "L": "mH", "C": "μF"}[kind]
            what = {"R": "resistor", "L": "inductor", "C": "capacitor"}[kind]
            rows.append(f"  {what} {kind}{counters[kind]} = {value} {unit} between {a} and {b}")
        prompt = (
            f"A sinusoidal source of angular frequency ω = {omega} rad/s drives this network of ideal components, "
            "connected between terminals A and B (and possibly inner nodes):\n" + "\n".join(rows) + "\n\n"
            "What is the equivalent complex impedance Z = R + jX between A and B (j² = -1; an inductor has impedance "
            "jωL, a capacitor 1/(jωC))? Give the resistance R and the reactance X in ohms, exact (fractions if "
            "needed), e.g. R = 15/2 Ω, X = -4 Ω."
        )
        answer = f"R = {fraction_text(z[0])} Ω, X = {fraction_text(z[1])} Ω"
        return Problem(prompt=prompt, answer=answer, data={
            "omega": omega, "parts": [list(p) for p in parts], "R": fraction_text(z[0]), "X": fraction_text(z[1]),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = read_quantities(answer, {"R": OHMS, "X": OHMS})
        pair = (values["R"], values["X"]) if values is not None else read_complex(answer)
        if pair is None:
            return Verdict.unparsed("expected R = <resistance>, X = <reactance> in ohms, or Z = a + bj, exact")
        if pair[0] != Fraction(problem.data["R"]):
            return Verdict.wrong("wrong resistance (real part)")
        return Verdict.judge(pair[1] == Fraction(problem.data["X"]), "wrong reactance (imaginary part)")

    def difficulty(self, problem: Problem) -> float:
        """Components, plus the parallel groups (complex division) and the nodes, plus a tenth of the answer's
        digits."""
        parts = problem.data["parts"]
        nodes = {n for a, b, _, _ in parts for n in (a, b)}
        digits = sum(c.isdigit() for c in problem.data["R"] + problem.data["X"])
        return len(parts) * 1.5 + len(nodes) - 2 + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        r, x = problem.data["R"], problem.data["X"]
        imaginary = f"+ {x}j" if not x.startswith("-") else f"- {x[1:]}j"
        out = [*super().spellings(problem), f"X = {x} Ω, R = {r} Ω", f"R = {r}, X = {x}", f"Z = {r} {imaginary}",
               f"{r} {imaginary.replace('j', 'i')} ohms", f"R = {r} ohms\nX = {x} ohms"]
        dr, dx = decimal_text(Fraction(r)), decimal_text(Fraction(x))
        if dr is not None and dx is not None:
            out.append(f"R = {dr} Ω, X = {dx} Ω")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        r, x = Fraction(problem.data["R"]), Fraction(problem.data["X"])
        wrong = [(r, -x), (x, r), (r + 1, x), (r, x + 1)] if x != 0 else [(r + 1, x), (r, Fraction(1))]
        out = [f"R = {fraction_text(a)} Ω, X = {fraction_text(b)} Ω" for a, b in wrong if (a, b) != (r, x)]
        out += [f"R = {fraction_text(r)} Ω", f"R = {fraction_text(r)} Ω, X = {fraction_text(x)} Ω or "
                f"{fraction_text(x + 1)} Ω", f"R = {fraction_text(r)} kΩ, X = {fraction_text(x)} Ω" if r else "R = 1"]
        return out


def _add(p: Complex, q: Complex) -> Complex:
    return p[0] + q[0], p[1] + q[1]


def _parallel(p: Complex, q: Complex) -> Complex | None:
    """p q / (p + q), or None when the pair resonates (p + q = 0: infinite impedance)."""
    s = _add(p, q)
    norm = s[0] * s[0] + s[1] * s[1]
    if norm == 0:
        return None
    product = (p[0] * q[0] - p[1] * q[1], p[0] * q[1] + p[1] * q[0])
    return ((product[0] * s[0] + product[1] * s[1]) / norm, (product[1] * s[0] - product[0] * s[1]) / norm)


def impedance(kind: str, value: int, omega: int) -> Complex:
    """A component's impedance in ohms: R; jωL (L in mH); -j/(ωC) (C in μF)."""
    if kind == "R":
        return Fraction(value), Fraction(0)
    if kind == "L":
        return Fraction(0), Fraction(omega * value, 1000)
    return Fraction(0), -Fraction(10**6, omega * value)


def equivalent(parts: list[Component], omega: int) -> Complex | None:
    """The impedance between A and B of a series-parallel network, by series and parallel reductions; None when a
    parallel pair resonates (or the network does not reduce, which the construction rules out)."""
    edges: list[tuple[str, str, Complex]] = [(a, b, impedance(kind, value, omega)) for a, b, kind, value in parts]
    for _ in range(2 * len(edges) + 2):  # every pass removes an edge or ends
        if len(edges) == 1:
            return edges[0][2] if {edges[0][0], edges[0][1]} == {"A", "B"} else None
        merged = False
        for i in range(len(edges)):
            for k in range(i + 1, len(edges)):
                if {edges[i][0], edges[i][1]} == {edges[k][0], edges[k][1]}:
                    joined = _parallel(edges[i][2], edges[k][2])
                    if joined is None:
                        return None
                    edges = [*edges[:i], (edges[i][0], edges[i][1], joined), *edges[i + 1:k], *edges[k + 1:]]
                    merged = True
                    break
            if merged:
                break
        if merged:
            continue
        degree: dict[str, list[int]] = {}
        for i, (a, b, _) in enumerate(edges):
            degree.setdefault(a, []).append(i)
            degree.setdefault(b, []).append(i)
        node = next((n for n, at in degree.items() if n not in ("A", "B") and len(at) == 2), None)
        if node is None:
            return None
        i, k = degree[node]
        ends = [x for j in (i, k) for x in edges[j][:2] if x != node]
        edges = [e for j, e in enumerate(edges) if j not in (i, k)] + [(ends[0], ends[1], _add(edges[i][2], edges[k][2]))]
    return None


def _network(rng: random.Random, count: int) -> list[Component]:
    """Start with one component between A and B; replace a random one by two in series or two in parallel. With
    two splits or more, both kinds occur (all in series or all in parallel, the nodes would not matter)."""
    series = [rng.random() < 0.5 for _ in range(count - 1)]
    if len(series) >= 2 and len(set(series)) == 1:
        series[rng.randrange(len(series))] ^= True
    links: list[list[str]] = [["A", "B"]]
    names = iter("CDEFGHIJKLMNOPQRSTUVWXYZ")
    for split_in_series in series:
        i = rng.randrange(len(links))
        a, b = links[i]
        if split_in_series:
            middle = next(names)
            links[i:i + 1] = [[a, middle], [middle, b]]
        else:
            links.insert(i + 1, [a, b])
    rng.shuffle(links)
    parts: list[Component] = []
    for a, b in links:
        kind = rng.choice("RLC")
        value = rng.randint(1, 60) if kind == "R" else rng.randint(1, 100) if kind == "L" else rng.choice(CAPACITANCES)
        parts.append((min(a, b), max(a, b), kind, value))
    return parts
