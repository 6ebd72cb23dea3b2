"""Collisions and explosions: conservation of momentum, and of energy where it holds.

One-dimensional collisions on a frictionless track (velocities signed, to the right
positive): level 0 asks for the common velocity after two carts stick together or the
recoil of an explosion from rest; level 1 for the kinetic energy lost when they stick;
level 2 for a final velocity in an elastic collision; level 3 for a final velocity with a
given coefficient of restitution, or the speed of a bullet from a ballistic pendulum's
rise (g = 49/5 m/s²); level 4 for the speed after two objects moving at right angles
stick together (a square root), or the final velocity after a cart collides with two
others in turn. Masses, velocities and the coefficient of restitution are small
rationals, so every answer is exact.

The answer is a number in the unit the question names, in any exact spelling, with or
without the unit (``-3/2``, ``-1.5 m/s``, ``12.25 J``, ``5*sqrt(2)``); a rounded value of an
answer that does not terminate is wrong, and so is the wrong sign.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import format_decimal, normalize_unit, strip_sentence, unit_spellings
from palaestra.verifiers.radicals import format_radical, radical_spellings, read_radical

G = Fraction(49, 5)
_OBJECTS = ("cart", "trolley", "puck", "block", "glider")

Question = tuple[str, Surd, str, int]  # text, exact answer, unit, steps


@register
class Collisions(Task):
    id = "physics/collisions"
    version = 2
    family = "physics"
    description = "Velocities and energies in collisions and explosions (momentum and energy conservation), exactly."
    tags = ("physics", "mechanics", "math")
    version = 2  # v2: level 4's right-angle speed is exact (v1 divided in floats)

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("stick", "explosion")),
        Config(("energy_lost", "stick_moving")),
        Config(("elastic",)),
        Config(("restitution", "pendulum")),
        Config(("right_angle", "two_collisions")),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value, unit, steps = _KINDS[kind](rng)
        answer = format_radical(value)
        sign_note = " (negative if to the left)" if unit == "m/s" and kind not in ("right_angle", "pendulum") else ""
        example = "-7/4"  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the exact value in {unit}{sign_note}, e.g. {example}."
        return Problem(prompt=prompt, answer=answer, data={"kind": kind, "value": answer, "unit": unit,
                                                           "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        answer = strip_sentence(answer)  # "The final velocity is 12/5 m/s.": the one value asked, named
        text, sense = _direction(answer) if problem.data["unit"] == "m/s" else (answer, 0)
        value = read_radical(_strip_unit(text, problem.data["unit"]), max_numbers=4)
        # with the sense in words the size is unsigned: "-9/4 m/s to the left" and "-9/4 m/s to the right" are unread
        if value is None or (sense != 0 and text.lstrip().startswith(("-", "−"))):
            return Verdict.unparsed(f"not an exact number in {problem.data['unit']}")
        value = -value if sense < 0 else value
        return Verdict.judge(value == read_radical(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Equations to set up and solve: 1 for one momentum balance ... 5 for chained collisions; plus a
        tenth of the exact answer's digits (the arithmetic)."""
        return float(problem.data["steps"]) + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value = read_radical(problem.data["value"])
        assert value is not None
        unit = problem.data["unit"]
        word = {"m/s": "metres per second", "J": "joules"}[unit]
        out = [*super().spellings(problem), *radical_spellings(value), f"{problem.answer} {unit}",
               f"{problem.answer} {word}", f"v = {problem.answer} {unit}"]
        if unit == "m/s" and value != Surd.rational(0):  # the sense in words, as the prompt's convention reads
            size, sense = (format_radical(-value), "left") if (problem.answer or "").startswith("-") else (problem.answer, "right")
            out.append(f"{size} m/s to the {sense}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = read_radical(problem.data["value"])
        assert value is not None
        wrong = [format_radical(-value) if value != Surd.rational(0) else "1", format_radical(value * 2),
                 format_radical(value + Surd.rational(Fraction(1, 2))), f"{float(value):.3f}",
                 f"{problem.answer} or {format_radical(value * 2)}", f"{problem.answer} km/h"]
        if problem.data["unit"] == "m/s" and value != Surd.rational(0):
            wrong.append(f"{format_radical(value)} m/s to the left")  # the sense in words contradicts the sign
            if (problem.answer or "").startswith("-"):
                wrong.append(f"{problem.answer} m/s to the right")  # a sign the words contradict
        return [w for w in wrong if read_radical(_strip_unit(w, problem.data["unit"])) != value]


_SENSE = r"(?:to(?:wards)?\s+the\s+(?P<{0}>right|left)|(?P<{0}w>right|left)wards?)"
_DIRECTION = re.compile(rf"^(.*?)\s*,?\s*(?:\(\s*{_SENSE.format('p')}\s*\)|{_SENSE.format('b')})\s*\.?\s*$",
                        re.IGNORECASE | re.DOTALL)


def _direction(text: str) -> tuple[str, int]:
    """A velocity with its sense in words: ``10/29 m/s to the right`` is +10/29, ``... to the left`` -10/29
    (the prompt's convention: negative to the left), also ``(to the left)`` and ``leftwards``. Returns the text without
    the words and the sense they give (0 without words)."""
    if len(text) > 200:
        return text, 0
    match = _DIRECTION.match(strip_wrappers(text))
    if match is None:
        return text, 0
    word = next(w for w in match.group("p", "pw", "b", "bw") if w)
    return match.group(1), 1 if word.lower() == "right" else -1


_UNIT_NORMALS = {unit: frozenset(normalize_unit(spelling) for spelling in unit_spellings(unit) + extra)
                 for unit, extra in {"m/s": ("m s^-1", "m·s⁻¹"), "J": ("joule", "joules")}.items()}


def _strip_unit(text: str, unit: str) -> str:
    """The answer without a trailing unit of the asked kind, in any spelling :func:`normalize_unit` unifies (``m/s``,
    ``m s⁻¹``, ``\\text{ m/s}``, ``\\mathrm{m\\,s^{-1}}``); another unit stays, and makes it unreadable. Bounded: the
    text is at most 200 characters and each split is one cached normalisation."""
    s = text.strip().rstrip(".").strip()
    if len(s) > 200:
        return s
    normals = _UNIT_NORMALS[unit]
    for i in range(1, len(s)):  # the longest trailing unit: a split at a space, or right after the number
        if s[i] == " " or (s[i - 1] in "0123456789)}" and (s[i].isalpha() or s[i] == "\\")):
            if normalize_unit(s[i:].strip()) in normals and s[:i].strip():
                return s[:i].strip()
    return s


def _mass(rng: random.Random) -> Fraction:
    return Fraction(rng.randint(1, 24), rng.choice([1, 2, 4]))


def _speed(rng: random.Random) -> Fraction:
    return Fraction(rng.randint(1, 30), rng.choice([1, 2]))


def _v(value: Fraction) -> str:
    text = str(value.numerator) if value.denominator == 1 else f"{float(value):g}" if (value * 4).denominator == 1 \
        else f"{value.numerator}/{value.denominator}"
    return text


def _motion(velocity: Fraction) -> str:
    if velocity == 0:
        return "at rest"
    return f"moving at {_v(abs(velocity))} m/s to the {'right' if velocity > 0 else 'left'}"


def _stick(rng: random.Random) -> Question:
    m1, m2, u1 = _mass(rng), _mass(rng), _speed(rng)
    obj = rng.choice(_OBJECTS)
    value = m1 * u1 / (m1 + m2)
    return (f"A {_v(m1)} kg {obj} {_motion(u1)} hits a {_v(m2)} kg {obj} at rest; they stick together. "
            "What is their velocity just after the collision?"), Surd.rational(value), "m/s", 1


def _explosion(rng: random.Random) -> Question:
    m1, m2, u1 = _mass(rng), _mass(rng), _speed(rng)
    return (f"A {_v(m1 + m2)} kg object at rest on a frictionless track explodes into two pieces. The {_v(m1)} kg "
            f"piece moves off at {_v(u1)} m/s to the right. What is the velocity of the other piece?"), \
        Surd.rational(-m1 * u1 / m2), "m/s", 1


def _stick_moving(rng: random.Random) -> Question:
    m1, m2, u1, u2 = _mass(rng), _mass(rng), _speed(rng), -_speed(rng)
    obj = rng.choice(_OBJECTS)
    value = (m1 * u1 + m2 * u2) / (m1 + m2)
    return (f"A {_v(m1)} kg {obj} {_motion(u1)} collides head-on with a {_v(m2)} kg {obj} {_motion(u2)}; they "
            "stick together. What is their velocity just after the collision?"), Surd.rational(value), "m/s", 2


def _energy_lost(rng: random.Random) -> Question:
    m1, m2, u1 = _mass(rng), _mass(rng), _speed(rng)
    u2 = -_speed(rng) if rng.random() < 0.5 else Fraction(0)
    v = (m1 * u1 + m2 * u2) / (m1 + m2)
    lost = (m1 * u1 * u1 + m2 * u2 * u2 - (m1 + m2) * v * v) / 2
    obj = rng.choice(_OBJECTS)
    return (f"A {_v(m1)} kg {obj} {_motion(u1)} collides with a {_v(m2)} kg {obj} {_motion(u2)}; they stick "
            "together. How much kinetic energy is lost in the collision?"), Surd.rational(lost), "J", 3


def _elastic(rng: random.Random) -> Question:
    m1, m2, u1 = _mass(rng), _mass(rng), _speed(rng)
    u2 = -_speed(rng) if rng.random() < 0.5 else Fraction(0)
    which = rng.choice((1, 2))
    v1 = ((m1 - m2) * u1 + 2 * m2 * u2) / (m1 + m2)
    v2 = ((m2 - m1) * u2 + 2 * m1 * u1) / (m1 + m2)
    obj = rng.choice(_OBJECTS)
    name = "first" if which == 1 else "second"
    return (f"A {_v(m1)} kg {obj} {_motion(u1)} collides elastically (kinetic energy is conserved) with a "
            f"{_v(m2)} kg {obj} {_motion(u2)}. What is the velocity of the {name} {obj} after the collision?"), \
        Surd.rational(v1 if which == 1 else v2), "m/s", 4


def _restitution(rng: random.Random) -> Question:
    m1, m2, u1 = _mass(rng), _mass(rng), _speed(rng)
    u2 = -_speed(rng) if rng.random() < 0.5 else Fraction(0)
    e = Fraction(rng.randint(1, 9), 10)
    # momentum: m1 v1 + m2 v2 = m1 u1 + m2 u2; restitution: v2 - v1 = -e (u2 - u1)
    v1 = (m1 * u1 + m2 * u2 - m2 * e * (u1 - u2)) / (m1 + m2)
    v2 = v1 + e * (u1 - u2)
    which = rng.choice((1, 2))
    obj = rng.choice(_OBJECTS)
    name = "first" if which == 1 else "second"
    return (f"A {_v(m1)} kg {obj} {_motion(u1)} collides head-on with a {_v(m2)} kg {obj} {_motion(u2)}. The "
            f"coefficient of restitution is {format_decimal(e)}. What is the velocity of the {name} {obj} after the "
            "collision?"), Surd.rational(v1 if which == 1 else v2), "m/s", 5


def _pendulum(rng: random.Random) -> Question:
    bullet = Fraction(rng.randint(5, 50), 1000)
    block = Fraction(rng.randint(1, 20), 2)
    rise = Fraction(rng.randint(1, 40), 100)
    # block and bullet rise h: v_after = sqrt(2 g h); bullet speed = (m + M)/m * v_after
    after = Surd.sqrt(2 * G * rise)
    value = after * ((bullet + block) / bullet)
    return (f"A {_v(bullet * 1000)} g bullet is fired horizontally into a {_v(block)} kg block hanging at rest on "
            f"light strings and stays inside it. The block and bullet swing up so that they rise {_v(rise * 100)} cm. "
            "Taking g = 9.8 m/s², what was the bullet's speed just before it hit the block?"), value, "m/s", 5


def _right_angle(rng: random.Random) -> Question:
    m1, m2, u1, u2 = rng.randint(1, 24), rng.randint(1, 24), _speed(rng), _speed(rng)  # whole kilograms keep the
    px, py = m1 * u1, m2 * u2  # root's argument small
    value = Surd.sqrt(px * px + py * py) * Fraction(1, m1 + m2)  # exact: a float here rounds the answer
    return (f"A {_v(m1)} kg puck sliding east at {_v(u1)} m/s collides on frictionless ice with a {_v(m2)} kg puck "
            f"sliding north at {_v(u2)} m/s, and they stick together. What is the speed of the combined puck just "
            "after the collision?"), value, "m/s", 6


def _two_collisions(rng: random.Random) -> Question:
    m1, m2, m3, u1 = _mass(rng), _mass(rng), _mass(rng), _speed(rng)
    v12 = m1 * u1 / (m1 + m2)
    value = (m1 + m2) * v12 / (m1 + m2 + m3)
    obj = rng.choice(_OBJECTS)
    return (f"A {_v(m1)} kg {obj} {_motion(u1)} hits a {_v(m2)} kg {obj} at rest and they stick together. The pair "
            f"then hits a {_v(m3)} kg {obj} at rest and all three stick together. What is their final velocity?"), \
        Surd.rational(value), "m/s", 5


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "stick": _stick, "explosion": _explosion, "stick_moving": _stick_moving, "energy_lost": _energy_lost,
    "elastic": _elastic, "restitution": _restitution, "pendulum": _pendulum, "right_angle": _right_angle,
    "two_collisions": _two_collisions,
}
