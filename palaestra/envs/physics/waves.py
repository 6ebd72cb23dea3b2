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
from fractions import Fraction

from palaestra.core import register
from palaestra.envs.physics.common import KindsTask, Named, Question, Units, decimal_text, fraction_text, kind_presets

SOUND = 340
HERTZ: Units = {"Hz": 1, "hertz": 1, "s^-1": 1, "kHz": 1000}
NEWTONS: Units = {"N": 1, "newtons": 1, "newton": 1, "kN": 1000}
METRES: Units = {"m": 1, "metres": 1, "meters": 1, "cm": Fraction(1, 100), "mm": Fraction(1, 1000)}
ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@register
class Waves(KindsTask):
    id = "physics/waves"
    family = "physics"
    description = "Standing waves: harmonics of strings and of open and closed pipes, tension tuning, exactly."
    tags = ("physics", "waves", "math")
    version = 1
    presets = kind_presets("string", "pipe", "pipe_pair", "tension", "string_pipe")
    single = {"string": ("Hz", HERTZ), "pipe": ("Hz", HERTZ), "tension": ("N", NEWTONS), "string_pipe": ("m", METRES)}
    named = {"pipe_pair": {"f1": Named("Hz", HERTZ, "fundamental frequency"), "L": Named("m", METRES, "length")}}
    examples = {"pipe_pair": "f1 = 250/3 Hz, L = 17/8 m"}
    single_example = "1250/7"

    def draw(self, kind: str, rng: random.Random) -> Question:
        return _KINDS[kind](rng)


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
