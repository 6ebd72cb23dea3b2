"""Thin-lens optics: where a row of thin lenses forms the final image, and how magnified it is.

An object stands on the axis of one or more thin lenses (converging ones with a positive focal
length, diverging ones with a negative one, from level 1 on), light going left to right. Each lens
images the previous image (a *virtual object* when that image lies past the lens), by the thin-lens
equation 1/u + 1/v = 1/f with real-is-positive distances; the lateral magnifications multiply.
Distances are whole centimetres, so the final image position (measured from the last lens,
positive to its right) and the total magnification are exact rationals, computed with fractions.
Draws where an image falls at infinity or exactly on a lens are redrawn.

The answer names both values, ``d = -60/7 cm, m = 3/7``, in any exact spelling (decimals that
terminate, other length units, either order); a rounded value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.physics.common import Units, decimal_text, fraction_text, read_quantities

LENGTH_UNITS: Units = {"cm": 1, "centimetres": 1, "centimeters": 1, "mm": Fraction(1, 10), "m": 100}
UNITS: dict[str, Units] = {"d": LENGTH_UNITS, "m": {}}

Lens = tuple[int, int]  # (gap from the previous lens or the object, in cm; focal length in cm)


@register
class ThinLens(Task):
    id = "physics/thin_lens"
    family = "physics"
    description = "Final image position and total magnification of a row of thin lenses, exactly."
    tags = ("physics", "optics", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        lenses: int
        diverging: bool  # diverging lenses may appear

    presets = (
        Config(lenses=1, diverging=False),
        Config(lenses=1, diverging=True),
        Config(lenses=2, diverging=True),
        Config(lenses=3, diverging=True),
        Config(lenses=4, diverging=True),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"lenses": 1}, limits={"lenses": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> list[Lens]:
            lenses = []
            for i in range(config.lenses):
                gap = rng.randint(5, 150) if i == 0 else rng.randint(5, 60)
                focal = rng.randint(3, 99) * (-1 if config.diverging and rng.random() < 0.4 else 1)
                lenses.append((gap, focal))
            return lenses

        lenses = retry(draw, lambda ls: _trace(ls) is not None, what="a lens row with a finite final image")
        trace = _trace(lenses)
        assert trace is not None
        position, magnification, virtual_objects = trace
        rows = []
        for i, (gap, focal) in enumerate(lenses):
            where = f"{gap} cm to the right of the object" if i == 0 else f"{gap} cm to the right of lens {i}"
            kind = "converging" if focal > 0 else "diverging"
            rows.append(f"  lens {i + 1}: {where}, focal length {focal} cm ({kind})")
        last = f"lens {len(lenses)}"
        prompt = (
            "Thin lenses stand on a common axis; light travels from left to right. A small upright object stands "
            "on the axis, to the left of lens 1.\n" + "\n".join(rows) + "\n\n"
            "Each lens forms an image of the previous image (a virtual object when that image lies to the right "
            "of the lens). Using the thin-lens equation 1/u + 1/v = 1/f with real-is-positive distances, find the "
            f"final image: its position d measured from {last} (positive to the right of {last}, negative to its "
            "left) and the total lateral magnification m (negative when the image is inverted). Give exact values "
            "(fractions where needed), e.g. d = 45/2 cm, m = -3/4."
        )
        answer = f"d = {fraction_text(position)} cm, m = {fraction_text(magnification)}"
        return Problem(prompt=prompt, answer=answer, data={
            "lenses": [list(lens) for lens in lenses], "d": fraction_text(position), "m": fraction_text(magnification),
            "virtual_objects": virtual_objects,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = read_quantities(answer, UNITS)
        if values is None:
            return Verdict.unparsed("expected d = <position in cm>, m = <magnification>, exact values")
        if values["d"] != Fraction(problem.data["d"]):
            return Verdict.wrong("wrong image position")
        return Verdict.judge(values["m"] == Fraction(problem.data["m"]), "wrong magnification")

    def difficulty(self, problem: Problem) -> float:
        """Lenses to trace, plus the diverging ones and the virtual objects (sign traps), plus a tenth of the
        answer's digits."""
        lenses = problem.data["lenses"]
        digits = sum(c.isdigit() for c in problem.data["d"] + problem.data["m"])
        return len(lenses) * 2 + sum(f < 0 for _, f in lenses) + problem.data["virtual_objects"] + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        d, m = problem.data["d"], problem.data["m"]
        out = [*super().spellings(problem), f"m = {m}, d = {d} cm", f"d = {d}, m = {m}", f"d = {d} cm\nm = {m}",
               f"\\boxed{{d = {d}\\text{{ cm}},\\ m = {m}}}", f"d = {fraction_text(Fraction(d) / 100)} m, m = {m}"]
        dec_d, dec_m = decimal_text(Fraction(d)), decimal_text(Fraction(m))
        if dec_d is not None and dec_m is not None:
            out.append(f"d = {dec_d} cm, m = {dec_m}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        d, m = Fraction(problem.data["d"]), Fraction(problem.data["m"])
        wrong = [(-d, m), (d, -m), (d + 1, m), (d, m * 2), (m, d)]
        out = [f"d = {fraction_text(a)} cm, m = {fraction_text(b)}" for a, b in wrong if (a, b) != (d, m)]
        out += [f"d = {fraction_text(d)} cm", f"d = {fraction_text(d)} cm, m = {fraction_text(m)} or "
                f"{fraction_text(-m)}", f"d = {fraction_text(d)} mm, m = {fraction_text(m)}"]
        if decimal_text(d) is None:
            out.append(f"d = {float(d):.2f} cm, m = {fraction_text(m)}")
        return out


def _trace(lenses: list[Lens]) -> tuple[Fraction, Fraction, int] | None:
    """(final image position from the last lens, total magnification, virtual objects met), or None when an
    image falls at infinity, on a lens, or the numbers grow past hand size."""
    image = Fraction(0)  # the object's position; lens positions accumulate from it
    position = Fraction(0)
    magnification = Fraction(1)
    virtual_objects = 0
    for gap, focal in lenses:
        position += gap
        u = position - image  # positive: a real object to the left of the lens
        if u == 0 or u == focal:
            return None
        virtual_objects += u < 0
        v = u * focal / (u - focal)
        magnification *= -v / u
        image = position + v
    final = image - position
    bound = 10 ** (len(lenses) + 2)  # each lens may multiply the denominators; past this the answer is unwieldy
    if final == 0 or max(final.denominator, magnification.denominator, abs(final)) > bound:
        return None
    return final, magnification, virtual_objects
