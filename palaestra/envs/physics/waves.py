"""Standing waves: harmonics of stretched strings and of open and closed pipes, exactly.

A string fixed at both ends carries waves at v = sqrt(T/mu) and resonates at f_n = n v / (2L), every
whole n; a pipe open at both ends resonates at n v / (2L), a pipe closed at one end only at the odd
multiples (2k - 1) v / (4L) (the k-th resonance, counted from the lowest). Sound travels at 340 m/s.
Level 0 asks for a harmonic of a string from its tension and linear density; level 1 for the k-th
resonance of a pipe (closed pipes skip the even multiples, the usual trap); level 2 gives two
consecutive resonances of a pipe of unknown kind and asks for its fundamental and its length (the
ratio of the two tells closed from open); level 3 asks for the tension that tunes a harmonic of a
string to a given frequency; level 4 chains a string and a closed pipe (the pipe length at which its
k-th resonance matches the string's n-th harmonic). Tensions are drawn so sqrt(T/mu) is a whole or
exact number, so every answer is an exact rational, computed with fractions.

The answer is the value in the asked unit (Hz, kHz; N; m, cm) in any exact spelling; level 2 names
both values (``f1 = ... Hz, L = ... m``). A rounded value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.physics.common import Units, decimal_text, fraction_text, read_quantities, read_quantity

SOUND = 340
HERTZ: Units = {"Hz": 1, "hertz": 1, "s^-1": 1, "kHz": 1000}
NEWTONS: Units = {"N": 1, "newtons": 1, "newton": 1, "kN": 1000}
METRES: Units = {"m": 1, "metres": 1, "meters": 1, "cm": Fraction(1, 100), "mm": Fraction(1, 1000)}
UNIT_OF: dict[str, tuple[str, Units]] = {"string": ("Hz", HERTZ), "pipe": ("Hz", HERTZ), "tension": ("N", NEWTONS),
                                         "string_pipe": ("m", METRES)}
PIPE_PAIR: dict[str, Units] = {"f1": HERTZ, "L": METRES}
Question = tuple[str, dict[str, Fraction], int]  # text, exact answer values, reasoning steps
ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@register
class Waves(Task):
    id = "physics/waves"
    family = "physics"
    description = "Standing waves: harmonics of strings and of open and closed pipes, tension tuning, exactly."
    tags = ("physics", "waves", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("string"), Config("pipe"), Config("pipe_pair"), Config("tension"), Config("string_pipe"))
    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, values, steps = _KINDS[config.kind](rng)
        if config.kind == "pipe_pair":
            form = "Give exact values (fractions where needed), e.g. f1 = 250/3 Hz, L = 17/8 m."
            answer = f"f1 = {fraction_text(values['f1'])} Hz, L = {fraction_text(values['L'])} m"
        else:
            unit = UNIT_OF[config.kind][0]
            form = f"Give the exact value in {unit} (a fraction if needed), e.g. 1250/7 {unit}."
            answer = f"{fraction_text(values['x'])} {unit}"
        return Problem(prompt=f"{question}\n\n{form}", answer=answer, data={
            "kind": config.kind, "values": {k: fraction_text(v) for k, v in values.items()}, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "pipe_pair":
            got = read_quantities(answer, PIPE_PAIR)
            if got is None:
                return Verdict.unparsed("expected f1 = <Hz>, L = <m>, exact values")
            if got["f1"] != expected["f1"]:
                return Verdict.wrong("wrong fundamental frequency")
            return Verdict.judge(got["L"] == expected["L"], "wrong length")
        unit, units = UNIT_OF[problem.data["kind"]]
        value = read_quantity(answer, units)
        if value is None:
            return Verdict.unparsed(f"expected one exact value in {unit}")
        return Verdict.judge(value == expected["x"], "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Reasoning steps of the kind, plus a tenth of the answer's digits."""
        digits = sum(c.isdigit() for v in problem.data["values"].values() for c in v)
        return problem.data["steps"] + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "pipe_pair":
            f1, length = values["f1"], values["L"]
            return [*super().spellings(problem), f"L = {fraction_text(length)} m, f1 = {fraction_text(f1)} Hz",
                    f"f1 = {fraction_text(f1)}\nL = {fraction_text(length * 100)} cm"]
        unit, units = UNIT_OF[problem.data["kind"]]
        x = values["x"]
        out = [*super().spellings(problem), fraction_text(x), f"\\boxed{{{fraction_text(x)}\\text{{ {unit}}}}}"]
        other = next((u for u, f in units.items() if Fraction(f) != 1), None)
        if other is not None:
            out.append(f"{fraction_text(x / Fraction(units[other]))} {other}")
        decimal = decimal_text(x)
        if decimal is not None:
            out.append(f"{decimal} {unit}.")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "pipe_pair":
            f1, length = values["f1"], values["L"]
            def spelled(f: Fraction, ell: Fraction) -> str:
                return f"f1 = {fraction_text(f)} Hz, L = {fraction_text(ell)} m"
            return [spelled(f1 * 2, length), spelled(f1, length * 2), spelled(f1 / 2, length),
                    spelled(f1, length) + f" or f1 = {fraction_text(f1 * 2)} Hz", f"f1 = {fraction_text(f1)} Hz"]
        unit = UNIT_OF[problem.data["kind"]][0]
        x = values["x"]
        wrong = [f"{fraction_text(x + 1)} {unit}", f"{fraction_text(x * 2)} {unit}",
                 f"{fraction_text(x)} or {fraction_text(x * 2)} {unit}"]
        if decimal_text(x) is None:
            wrong.append(f"{float(x):.2f} {unit}")
        return wrong


def _string_speed(rng: random.Random) -> tuple[Fraction, int]:
    """(linear density in kg/m, wave speed in m/s): the speed is drawn first, so the tension density * speed^2
    has an exact square root over the density."""
    return Fraction(rng.randint(1, 40), 1000), rng.randint(40, 400)


def _string(rng: random.Random) -> Question:
    density, speed = _string_speed(rng)
    tension = density * speed * speed
    length = Fraction(rng.randint(20, 200), 100)
    n = rng.randint(1, 6)
    text = (f"A string of length {decimal_text(length)} m is fixed at both ends. Its tension is {fraction_text(tension)} N "
            f"and its linear mass density is {decimal_text(density)} kg/m. What is the frequency of its "
            f"{ORDINALS[n]} harmonic (n = {n}, where n = 1 is the fundamental)?")
    return text, {"x": n * speed / (2 * length)}, 2


def _pipe(rng: random.Random) -> Question:
    length = Fraction(rng.randint(100, 4000), 1000)
    k = rng.randint(1, 5)
    closed = rng.random() < 0.6
    if closed:
        kind, value = "closed at one end and open at the other", (2 * k - 1) * Fraction(SOUND) / (4 * length)
    else:
        kind, value = "open at both ends", k * Fraction(SOUND) / (2 * length)
    text = (f"Sound travels at {SOUND} m/s. A pipe of length {decimal_text(length)} m is {kind}. Counting its resonant "
            f"frequencies upwards from the lowest, what is the {ORDINALS[k]} one?")
    return text, {"x": value}, 2 + closed


def _pipe_pair(rng: random.Random) -> Question:
    length = Fraction(rng.randint(100, 4000), 1000)
    closed = rng.random() < 0.5
    k = rng.randint(1, 6)
    step = Fraction(SOUND) / (2 * length)  # consecutive resonances are v / (2L) apart either way
    fundamental = step / 2 if closed else step
    low = (2 * k - 1) * fundamental if closed else k * fundamental
    text = (f"Sound travels at {SOUND} m/s. A pipe is either open at both ends or closed at one end; you do not know "
            f"which. Two of its consecutive resonant frequencies are {fraction_text(low)} Hz and "
            f"{fraction_text(low + step)} Hz. Find its fundamental (lowest resonant) frequency f1 and its length L.")
    return text, {"f1": fundamental, "L": length}, 4


def _tension(rng: random.Random) -> Question:
    length = Fraction(rng.randint(20, 200), 100)
    density = Fraction(rng.randint(1, 40), 1000)
    n = rng.randint(1, 5)
    frequency = rng.randint(50, 900)
    speed = 2 * length * frequency / n
    text = (f"A string of length {decimal_text(length)} m, fixed at both ends, has linear mass density "
            f"{decimal_text(density)} kg/m. What tension makes its {ORDINALS[n]} harmonic (n = {n}, where n = 1 is the "
            f"fundamental) sound at {frequency} Hz?")
    return text, {"x": density * speed * speed}, 5


def _string_pipe(rng: random.Random) -> Question:
    density, speed = _string_speed(rng)
    tension = density * speed * speed
    length = Fraction(rng.randint(20, 200), 100)
    n, k = rng.randint(1, 4), rng.randint(1, 4)
    frequency = n * speed / (2 * length)
    text = (f"Sound travels at {SOUND} m/s. A string of length {decimal_text(length)} m, fixed at both ends, has tension "
            f"{fraction_text(tension)} N and linear mass density {decimal_text(density)} kg/m; it vibrates in its "
            f"{ORDINALS[n]} harmonic (n = {n}). How long must a pipe closed at one end be for its {ORDINALS[k]} "
            "resonant frequency (counted upwards from the lowest) to equal the string's frequency?")
    return text, {"x": (2 * k - 1) * Fraction(SOUND) / (4 * frequency)}, 6


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "string": _string, "pipe": _pipe, "pipe_pair": _pipe_pair, "tension": _tension, "string_pipe": _string_pipe,
}
