"""Member forces in a plane truss by the method of joints (statically determinate, exact).

Level 0 is a single triangle with a load at its apex (sometimes with a sideways part);
levels 1-4 are Pratt and Howe
trusses (verticals and diagonals) and Warren trusses (diagonals only) of two to four
panels, pinned at the left support and on a roller at the right, with more and
asymmetric loads, and at level 4 a horizontal load as well. Panel widths and heights
come from Pythagorean triples, so every member has a whole-number length and every
force is an exact fraction. The generator writes the two equilibrium equations of every
joint (m + 3 = 2j unknowns: the member forces and three reactions) and solves them
exactly; the member asked about always carries force, and never one whose size is a number in the prompt
(a load or a coordinate). Version 2: at level 1 (two-panel Pratt trusses) the asked member was often the vertical
under a single load, so answering the largest load earned 0.18 and some load, signed, 0.23 (0.10 at level 4);
both now earn 0.

The answer is the force in kN, tension positive and compression negative (``-25/2``,
``-12.5 kN``), or a magnitude with the word (``12.5 kN compression``, ``12.5 (C)``,
``20 kN in tension``, ``-12.5 kN (compression)`` where sign and word agree); a wrong sign, a
rounded value or a label naming another member (``F_{AB} = ...``) is wrong.

Generation speed: about 840 problems/s at level 4. Nearly all the time is the exact solve of the truss's
equilibrium equations (two per joint) by fraction row reduction in solvers.linalg; exact fractions are what make
every member force an exact answer.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.solvers.linalg import solve
from palaestra.verifiers.normalize import squeeze_spaces, strip_wrappers
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction, other_spellings

# heights with two or more Pythagorean legs: height -> horizontal legs giving whole-number members
_LEGS = {4: (3,), 8: (6, 15), 12: (5, 9, 16, 35), 24: (7, 10, 18, 32, 45), 6: (8,), 3: (4,), 5: (12,)}
_KIND = re.compile(r"[\s,.]*(?:\(\s*)?(?:(?:the\s+member\s+is\s+)?in\s+)?(tension|compression|tensile|compressive|T|C)"
                   r"(?:\s*\))?\.?\s*$", re.IGNORECASE)
_LABEL = re.compile(r"\s*\$?\s*([A-Za-z0-9_{}\\ ]{1,24}?)\s*=")
# a naming sentence: "The force in L1L2 is -5 kN", "Force in member L1L2: -5 kN" (another member's name is wrong)
_NAMED = re.compile(r"\s*(?:the\s+)?(?:axial\s+)?force\s+in\s+(?:member\s+)?([A-Za-z0-9]{2,12})\s*(?:is\b|=|:)\s*",
                    re.IGNORECASE)
KN = ("kN", "kilonewton", "kilonewtons", "kN.")

Joint = tuple[Fraction, Fraction]


@dataclass(frozen=True)
class Truss:
    joints: dict[str, Joint]
    members: list[tuple[str, str]]
    loads: dict[str, tuple[Fraction, Fraction]]  # joint -> (Fx, Fy) in kN
    pin: str
    roller: str


def solve_truss(truss: Truss) -> dict[tuple[str, str], Fraction]:
    """Member forces (tension positive) from the joint equilibrium equations, solved exactly."""
    names = list(truss.joints)
    unknowns = len(truss.members) + 3
    rows: list[list[Fraction]] = []
    right: list[Fraction] = []
    for joint in names:
        x0, y0 = truss.joints[joint]
        fx = [Fraction(0)] * unknowns
        fy = [Fraction(0)] * unknowns
        for k, (a, b) in enumerate(truss.members):
            if joint not in (a, b):
                continue
            other = b if joint == a else a
            x1, y1 = truss.joints[other]
            length = _length(x1 - x0, y1 - y0)
            fx[k] += (x1 - x0) / length  # tension pulls the joint towards the other end
            fy[k] += (y1 - y0) / length
        m = len(truss.members)
        if joint == truss.pin:
            fx[m] += 1
            fy[m + 1] += 1
        if joint == truss.roller:
            fy[m + 2] += 1
        load = truss.loads.get(joint, (Fraction(0), Fraction(0)))
        rows += [fx, fy]
        right += [-load[0], -load[1]]
    solution = solve(rows, right)
    if solution is None:
        raise ValueError("the truss is not statically determinate")
    return {member: solution[k] for k, member in enumerate(truss.members)}


def _length(dx: Fraction, dy: Fraction) -> Fraction:
    square = dx * dx + dy * dy
    root = Fraction(math.isqrt(square.numerator), math.isqrt(square.denominator))
    if root * root != square:
        raise ValueError("member length is not rational")
    return root


def _triangle(rng: random.Random) -> Truss:
    height = rng.choice([4, 8, 12, 24])
    scale = rng.randint(1, 3)
    left, right = rng.choice(_LEGS[height]) * scale, rng.choice(_LEGS[height]) * scale
    joints = {"A": (Fraction(0), Fraction(0)), "B": (Fraction(left + right), Fraction(0)),
              "C": (Fraction(left), Fraction(height * scale))}
    load = (Fraction(rng.choice([0, 0, rng.randint(-30, 30)])), -Fraction(rng.randint(2, 120)))
    return Truss(joints, [("A", "B"), ("A", "C"), ("B", "C")], {"C": load}, "A", "B")


def _pratt(rng: random.Random, panels: int, loads: int, howe: bool, sideways: bool) -> Truss:
    height = rng.choice([4, 3, 8, 6, 12, 5])
    width = rng.choice([w for w in (3, 4, 6, 8, 5, 12, 9, 16) if _rational(w, height)])
    joints = {f"L{i}": (Fraction(i * width), Fraction(0)) for i in range(panels + 1)}
    joints.update({f"U{i}": (Fraction(i * width), Fraction(height)) for i in range(1, panels)})
    members = [(f"L{i}", f"L{i + 1}") for i in range(panels)]
    members += [(f"U{i}", f"U{i + 1}") for i in range(1, panels - 1)]
    members += [(f"L{i}", f"U{i}") for i in range(1, panels)]
    members += [("L0", "U1"), (f"U{panels - 1}", f"L{panels}")]
    for i in range(1, panels - 1):  # interior diagonals slope down towards the middle (Pratt) or away (Howe)
        toward_middle = (i < panels / 2) != howe
        members.append((f"U{i}", f"L{i + 1}") if toward_middle else (f"L{i}", f"U{i + 1}"))
    return Truss(joints, members, _loads(rng, list(joints), loads, sideways), "L0", f"L{panels}")


def _warren(rng: random.Random, panels: int, loads: int, sideways: bool) -> Truss:
    half, height = rng.choice([(3, 4), (4, 3), (6, 8), (5, 12), (8, 6), (12, 5), (8, 15), (9, 12)])
    joints = {f"L{i}": (Fraction(2 * i * half), Fraction(0)) for i in range(panels + 1)}
    joints.update({f"U{i}": (Fraction((2 * i + 1) * half), Fraction(height)) for i in range(panels)})
    members = [(f"L{i}", f"L{i + 1}") for i in range(panels)]
    members += [(f"U{i}", f"U{i + 1}") for i in range(panels - 1)]
    members += [(f"L{i}", f"U{i}") for i in range(panels)] + [(f"U{i}", f"L{i + 1}") for i in range(panels)]
    return Truss(joints, members, _loads(rng, list(joints), loads, sideways), "L0", f"L{panels}")


def _rational(width: int, height: int) -> bool:
    square = width * width + height * height
    return math.isqrt(square) ** 2 == square


def _loads(rng: random.Random, joints: list[str], count: int, sideways: bool) -> dict[str, tuple[Fraction, Fraction]]:
    chosen = rng.sample([j for j in joints if j not in ("L0",)], min(count, len(joints) - 1))
    loads = {j: (Fraction(0), -Fraction(rng.randint(2, 40))) for j in chosen}
    if sideways:
        j = rng.choice([j for j in joints if j.startswith("U")])
        fx, fy = loads.get(j, (Fraction(0), Fraction(0)))
        loads[j] = (fx + rng.choice([-1, 1]) * rng.randint(2, 20), fy)
    return loads


@register
class TrussForces(Task):
    id = "physics/truss"
    family = "physics"
    description = "Force in a member of a plane truss by the method of joints (tension +, compression -), exactly."
    tags = ("physics", "statics", "engineering", "math")
    version = 2  # v2: the member asked about never carries a force equal to a number in the prompt
    max_answer_chars = 300  # a force with its label, unit and sense; longer text is not one force

    @dataclass(frozen=True)
    class Config:
        shape: str  # triangle | pratt | howe | warren
        panels: tuple[int, int]
        loads: tuple[int, int]
        sideways: bool

    presets = (
        Config("triangle", (1, 1), (1, 1), False),
        Config("pratt", (2, 2), (1, 2), False),
        Config("howe", (3, 3), (2, 3), False),
        Config("warren", (3, 4), (2, 3), False),
        Config("pratt", (4, 4), (3, 4), True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Truss, dict[tuple[str, str], Fraction]] | None:
            panels, loads = rng.randint(*config.panels), rng.randint(*config.loads)
            if config.shape == "triangle":
                truss = _triangle(rng)
            elif config.shape == "warren":
                truss = _warren(rng, panels, loads, config.sideways)
            else:
                truss = _pratt(rng, panels, loads, config.shape == "howe", config.sideways)
            try:
                return truss, solve_truss(truss)
            except ValueError:
                return None

        def asked(drawn: tuple[Truss, dict[tuple[str, str], Fraction]]) -> list[tuple[str, str]]:
            """Members that carry force, and not a force whose size is a number in the prompt (a load or a
            coordinate): a member reading one load off one joint would be answered by copying that load."""
            truss, forces = drawn
            shown = {abs(v) for load in truss.loads.values() for v in load}
            shown |= {abs(v) for joint in truss.joints.values() for v in joint}
            return [m for m, f in forces.items() if f != 0 and abs(f) not in shown]

        truss, forces = retry(draw, lambda d: bool(asked(d)), what="a loaded truss")
        member = rng.choice(asked((truss, forces)))
        value = forces[member]
        joints = "\n".join(f"  {j} at ({format_fraction(x)}, {format_fraction(y)})" for j, (x, y) in
                           truss.joints.items())
        bars = ", ".join(f"{a}{b}" for a, b in truss.members)
        loads = "\n".join(f"  at {j}: " + ", ".join(part for part in (
            f"{format_fraction(abs(fx))} kN {'to the right' if fx > 0 else 'to the left'}" if fx else "",
            f"{format_fraction(abs(fy))} kN downward" if fy else "") if part) for j, (fx, fy) in truss.loads.items())
        prompt = (
            f"A plane truss has joints (coordinates in metres):\n{joints}\nand members {bars} (pin-jointed, "
            f"weightless). It is supported by a pin at {truss.pin} and a roller (vertical reaction only) at "
            f"{truss.roller}. Loads:\n{loads}\n\nWhat is the force in member {member[0]}{member[1]}? Give it in kN, "
            "positive for tension and negative for compression, exactly (e.g. -25/2 for 12.5 kN of compression)."
        )
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "value": format_fraction(value), "joints": len(truss.joints), "loads": len(truss.loads),
            "member": list(member),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed(f"not a force in kN: longer than {self.max_answer_chars} characters")
        # Runs of spaces first: the label pattern has three space quantifiers in a row (cubic on a long run).
        answer = strip_wrappers(squeeze_spaces(answer))
        named = _NAMED.match(answer)
        if named is not None:
            a, b = problem.data["member"]
            if named.group(1).upper() not in (a + b, b + a):
                return Verdict.wrong(f"{named.group(1)} is not member {a}{b}")
            answer = answer[named.end():]
        label = _LABEL.match(answer) if named is None else None
        if label is not None:
            name = re.sub(r"[\s{}_\\]", "", label.group(1))
            a, b = problem.data["member"]
            if name not in ("F", "N", "T", "P", "", a + b, b + a, f"F{a}{b}", f"F{b}{a}"):
                return Verdict.wrong(f"{label.group(1).strip()} is not the force in member {a}{b}")
            answer = answer[label.end() :]
        value = _read_force(answer)
        if value is None:
            return Verdict.unparsed("not a force in kN (e.g. -12.5 or 12.5 kN compression)")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong force (check the sign: tension +)")

    def difficulty(self, problem: Problem) -> float:
        """Joints (pairs of equilibrium equations) plus the loads applied."""
        return float(problem.data["joints"] + problem.data["loads"])

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        word = "tension" if value > 0 else "compression"
        magnitude = format_fraction(abs(value))
        return [*super().spellings(problem), *other_spellings(value), f"{problem.answer} kN",
                f"{magnitude} kN {word}", f"{magnitude} ({word[0].upper()})", f"F = {problem.answer} kN",
                f"F_{{{''.join(problem.data['member'])}}} = {problem.answer} kN", f"{magnitude} kN in {word}",
                f"{problem.answer} kN. The member is in {word}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        magnitude = format_fraction(abs(value))
        word = "compression" if value > 0 else "tension"  # the wrong sense
        a, b = problem.data["member"]
        return [format_fraction(-value), f"{magnitude} kN {word}", format_fraction(value * 2), f"F_{{{b}}} = {problem.answer}",
                f"{problem.answer} kN. The member is in {word}.", f"{problem.answer} kN {word}",
                format_fraction(value + 1), f"{float(value):.2f}" if (value * 100).denominator != 1 else "0"]


def _read_force(text: str) -> Fraction | None:
    if not isinstance(text, str) or len(text) > 300:
        return None
    s = text.strip().rstrip(".")
    sense = None
    match = _KIND.search(s[-60:])
    if match:
        sense = match.group(1).lower()[0]
        s = s[: len(s) - len(match.group())].strip()
    value = read_exact(s, units=KN, max_digits=60, mixed=True, sentence=True)  # "The tension in it is 5 kN"
    if value is None:
        return None
    if sense is None:
        return value
    if value < 0:  # "-12 kN compression" agrees with the sign convention; "-12 kN tension" contradicts it
        return value if sense == "c" else None
    return value if sense == "t" else -value
