"""The Doppler effect for sound: heard frequencies with moving sources, observers and reflectors, and beats.

Sound travels at 340 m/s in still air. Level 0 moves the listener (towards or away from a source at
rest); level 1 moves the source; level 2 moves both (towards or away from each other, or one
chasing the other); level 3 asks for the echo a driver hears from a wall ahead (two shifts: the wall
hears a moving source, then reflects as a source at rest to a moving listener); level 4 asks for the
beat frequency a listener at rest hears between a source moving away and that source's echo from a
wall the source moves towards. With f' = f (v ± v_listener) / (v ∓ v_source) and whole-number
speeds and frequencies, every answer is an exact rational, computed with fractions.

The answer is the frequency in Hz (``kHz`` accepted), in any exact spelling; a rounded value of a
non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.physics.common import decimal_text, fraction_text, read_quantity

SOUND = 340
HERTZ = {"Hz": 1, "hertz": 1, "s^-1": 1, "kHz": 1000}
Question = tuple[str, Fraction, int]  # text, exact answer, steps


@register
class Doppler(Task):
    id = "physics/doppler"
    family = "physics"
    description = "Doppler-shifted sound frequencies with moving sources, listeners and reflectors, and beats, exactly."
    tags = ("physics", "waves", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]

    presets = (
        Config(("moving_listener",)),
        Config(("moving_source",)),
        Config(("both_moving",)),
        Config(("echo",)),
        Config(("beats",)),
    )
    bounded = "its levels are kinds of problem (the `kinds` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        question, value, steps = _KINDS[kind](rng)
        prompt = (f"Sound travels at {SOUND} m/s in still air; all motion is along one straight line. {question}\n\n"
                  "Give the exact value in Hz (a fraction if needed), e.g. 6800/9 Hz.")
        return Problem(prompt=prompt, answer=f"{fraction_text(value)} Hz",
                       data={"kind": kind, "value": fraction_text(value), "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_quantity(answer, HERTZ)
        if value is None:
            return Verdict.unparsed("expected an exact frequency in Hz")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong frequency")

    def difficulty(self, problem: Problem) -> float:
        """Doppler shifts to chain (and a subtraction for beats), plus a tenth of the answer's digits."""
        return problem.data["steps"] + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        value = problem.data["value"]
        out = [*super().spellings(problem), value, f"f = {value} Hz", f"{fraction_text(Fraction(value) / 1000)} kHz"]
        decimal = decimal_text(Fraction(value))
        if decimal is not None:
            out.append(f"{decimal} hertz")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        wrong = [f"{fraction_text(value + 1)} Hz", f"{fraction_text(value * 2)} Hz",
                 f"{fraction_text(value)} kHz", f"{fraction_text(value)} or {fraction_text(value + 1)} Hz"]
        if decimal_text(value) is None:
            wrong.append(f"{float(value):.2f} Hz")
        return wrong


def _frequency(rng: random.Random) -> int:
    return rng.randint(100, 2000)


def _speed(rng: random.Random) -> int:
    return rng.randint(2, 60)


def _moving_source(rng: random.Random) -> Question:
    f, u = _frequency(rng), _speed(rng)
    towards = rng.random() < 0.5
    value = Fraction(f * SOUND, SOUND - u if towards else SOUND + u)
    return (f"An ambulance siren sounds at {f} Hz. The ambulance drives at {u} m/s {'towards' if towards else 'away from'}"
            " a pedestrian standing still. What frequency does the pedestrian hear?"), value, 2


def _moving_listener(rng: random.Random) -> Question:
    f, w = _frequency(rng), _speed(rng)
    towards = rng.random() < 0.5
    value = Fraction(f * (SOUND + w if towards else SOUND - w), SOUND)
    return (f"A factory horn at rest sounds at {f} Hz. A cyclist rides at {w} m/s {'towards' if towards else 'away from'}"
            " it. What frequency does the cyclist hear?"), value, 1


def _both_moving(rng: random.Random) -> Question:
    f, u, w = _frequency(rng), _speed(rng), _speed(rng)
    case = rng.choice(("approach", "separate", "chase"))
    if case == "approach":
        value = Fraction(f * (SOUND + w), SOUND - u)
        text = f"a train moving at {u} m/s and a car moving at {w} m/s drive towards each other"
    elif case == "separate":
        value = Fraction(f * (SOUND - w), SOUND + u)
        text = f"a train moving at {u} m/s and a car moving at {w} m/s drive away from each other"
    else:  # the train behind the car, both moving forwards; the car moves away from the sound it hears
        value = Fraction(f * (SOUND - w), SOUND - u)
        text = f"a train moving forwards at {u} m/s follows a car moving forwards at {w} m/s, ahead of it"
    return (f"The whistle of a train sounds at {f} Hz. Relative to the still air, {text}. What frequency does the "
            "car's driver hear?"), value, 3


def _echo(rng: random.Random) -> Question:
    f, u = _frequency(rng), _speed(rng)
    # the wall hears f (v)/(v - u); it reflects as a source at rest towards a listener approaching at u
    value = Fraction(f * (SOUND + u), SOUND - u)
    return (f"A car drives at {u} m/s straight towards a large wall and sounds its {f} Hz horn. What frequency does the "
            "driver hear in the echo from the wall?"), value, 4


def _beats(rng: random.Random) -> Question:
    f, u = _frequency(rng), _speed(rng)
    direct = Fraction(f * SOUND, SOUND + u)  # the source moves away from the listener
    echo = Fraction(f * SOUND, SOUND - u)  # the wall hears an approaching source and reflects at rest
    return (f"A listener stands still between a tuning fork and a large wall. The fork, sounding at {f} Hz, is "
            f"carried at {u} m/s away from the listener, straight towards the wall. The listener hears the fork "
            "directly and its echo from the wall. What beat frequency does the listener hear?"), echo - direct, 5


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "moving_source": _moving_source, "moving_listener": _moving_listener, "both_moving": _both_moving,
    "echo": _echo, "beats": _beats,
}
