"""Electrostatics of point charges: Coulomb forces, net force on a line, potential, field vector, potential energy.

Point charges in vacuum with k = 1/(4 pi eps0) taken as exactly 9 x 10^9 N m^2/C^2 (the prompt says
so). Level 0 asks for the size of the Coulomb force between two charges; level 1 for the net
(signed) force on a charge from two others on a line; level 2 for the potential at a point from
several charges in a plane (superposition of scalars); level 3 for the electric field vector at a
point (superposition of vectors, components Ex, Ey); level 4 for the electric potential energy of
a configuration of charges at the corners of a rectangle (a sum over all pairs). Charges are whole
microcoulombs and positions whole centimetres chosen on Pythagorean triples (3-4-5, 5-12-13, ...),
so every distance is whole and every answer an exact rational, computed with fractions.

The answer is the value in the asked unit (N, V, N/C, J and their k/M/m prefixes) in any exact
spelling; level 3 names both components (``Ex = ..., Ey = ...``). A rounded value of a
non-terminating answer is wrong.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

from palaestra.core import register
from palaestra.envs.physics.common import KindsTask, Named, Question, Units, kind_presets

K = 9 * 10**9
MICRO = Fraction(1, 10**6)
CENTI = Fraction(1, 100)
NEWTONS: Units = {"N": 1, "newtons": 1, "mN": Fraction(1, 1000), "kN": 1000}
VOLTS: Units = {"V": 1, "volts": 1, "J/C": 1, "kV": 1000, "MV": 10**6}
FIELD: Units = {"N/C": 1, "V/m": 1, "kN/C": 1000, "kV/m": 1000, "MN/C": 10**6, "MV/m": 10**6}
JOULES: Units = {"J": 1, "joules": 1, "mJ": Fraction(1, 1000), "kJ": 1000}
DIRECTIONS = ((3, 4), (5, 12), (8, 15), (7, 24), (20, 21), (1, 0))  # (a, b) with a^2 + b^2 a perfect square
Charge = tuple[int, int, int]  # (charge in microcoulombs, x in cm, y in cm)


@register
class Electrostatics(KindsTask):
    id = "physics/electrostatics"
    family = "physics"
    description = "Point charges: Coulomb force, net force on a line, potential, field vector and potential energy, exactly."
    tags = ("physics", "electromagnetism", "math")
    version = 1
    presets = kind_presets("pair", "line", "potential", "field", "energy")
    intro = "Point charges sit in vacuum; take k = 1/(4 pi eps0) = 9 x 10^9 N m^2/C^2 exactly. "
    single = {"pair": ("N", NEWTONS), "line": ("N", NEWTONS), "potential": ("V", VOLTS), "energy": ("J", JOULES)}
    named = {"field": {"Ex": Named("N/C", FIELD, "x component"), "Ey": Named("N/C", FIELD, "y component")}}
    examples = {"field": "Ex = -2500/3 N/C, Ey = 18000 N/C"}
    single_example = "-1250/7"

    def draw(self, kind: str, rng: random.Random) -> Question:
        return _KINDS[kind](rng)


def _charge(rng: random.Random) -> int:
    return rng.choice((-1, 1)) * rng.randint(1, 20)


def _describe(charges: list[Charge]) -> str:
    return "\n".join(f"  q{i} = {q} uC at ({x} cm, {y} cm)" for i, (q, x, y) in enumerate(charges, 1))


def _pair(rng: random.Random) -> Question:
    q1, q2, r = _charge(rng), _charge(rng), rng.randint(1, 100)
    force = K * abs(q1 * q2) * MICRO * MICRO / (r * CENTI) ** 2
    text = (f"Two point charges, {q1} uC and {q2} uC (1 uC = 10^-6 C), are {r} cm apart. What is the magnitude of the "
            "electric force each exerts on the other?")
    return text, {"x": force}, 2


def _line(rng: random.Random) -> Question:
    """A charge at 0 on the x axis and two others on either side or the same side: the signed net x force."""
    positions = rng.sample([p for p in range(-60, 61) if p != 0], 2)
    q0, q1, q2 = _charge(rng), _charge(rng), _charge(rng)
    net = Fraction(0)
    for q, p in ((q1, positions[0]), (q2, positions[1])):
        size = K * q0 * q * MICRO * MICRO / (abs(p) * CENTI) ** 2  # positive: repulsion, away from the other charge
        net += size if p < 0 else -size
    text = (f"Three point charges lie on the x axis: q0 = {q0} uC at x = 0, q1 = {q1} uC at x = {positions[0]} cm and "
            f"q2 = {q2} uC at x = {positions[1]} cm (1 uC = 10^-6 C). What is the net electric force on q0, as a signed "
            "x component (positive means towards +x)?")
    return text, {"x": net}, 3


def _placed(rng: random.Random, count: int) -> list[Charge]:
    """Charges at distinct points whose distance from the origin is a whole number of centimetres."""
    charges: list[Charge] = []
    for _ in range(50 * count):  # a repeated point is redrawn; 50 tries per charge never run out in practice
        if len(charges) == count:
            break
        a, b = rng.choice(DIRECTIONS)
        scale = rng.randint(1, 6 if a > 1 else 40)
        x, y = (a * scale, b * scale) if rng.random() < 0.5 else (b * scale, a * scale)
        x, y = x * rng.choice((-1, 1)), y * rng.choice((-1, 1))
        if all((x, y) != (cx, cy) for _, cx, cy in charges):
            charges.append((_charge(rng), x, y))
    assert len(charges) == count
    return charges


def _distance(x: int, y: int) -> int:
    root = math.isqrt(x * x + y * y)
    assert root * root == x * x + y * y
    return root


def _potential(rng: random.Random) -> Question:
    charges = _placed(rng, rng.randint(2, 4))
    value = sum((K * q * MICRO / (_distance(x, y) * CENTI) for q, x, y in charges), Fraction(0))
    text = (f"Point charges in the xy plane (1 uC = 10^-6 C):\n{_describe(charges)}\n"
            "Taking the potential to be zero infinitely far away, what is the electric potential at the origin?")
    return text, {"x": value}, 2 + len(charges)


def _field(rng: random.Random) -> Question:
    charges = _placed(rng, rng.randint(2, 3))
    ex = ey = Fraction(0)
    for q, x, y in charges:
        r = _distance(x, y) * CENTI
        size = K * q * MICRO / r**2  # along the unit vector from the charge to the origin, (-x, -y) / r
        ex += size * (-x * CENTI) / r
        ey += size * (-y * CENTI) / r
    text = (f"Point charges in the xy plane (1 uC = 10^-6 C):\n{_describe(charges)}\n"
            "What is the electric field at the origin? Give its components Ex and Ey.")
    return text, {"Ex": ex, "Ey": ey}, 4 + 2 * len(charges)


def _energy(rng: random.Random) -> Question:
    a, b = rng.choice(DIRECTIONS[:5])
    scale = rng.randint(1, 5)
    width, height = a * scale, b * scale
    corners = [(0, 0), (width, 0), (width, height), (0, height)]
    count = rng.choice((3, 4))
    charges = [(_charge(rng), x, y) for x, y in rng.sample(corners, count)]
    energy = Fraction(0)
    for i in range(count):
        for j in range(i + 1, count):
            (qi, xi, yi), (qj, xj, yj) = charges[i], charges[j]
            energy += K * qi * qj * MICRO * MICRO / (_distance(xi - xj, yi - yj) * CENTI)
    text = (f"Point charges sit at corners of a {width} cm by {height} cm rectangle (1 uC = 10^-6 C):\n"
            f"{_describe(charges)}\nWhat is the electric potential energy of this configuration (the work needed "
            "to bring the charges together from infinitely far apart)?")
    return text, {"x": energy}, 5 + count * (count - 1)


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "pair": _pair, "line": _line, "potential": _potential, "field": _field, "energy": _energy,
}
