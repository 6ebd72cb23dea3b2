"""Hand-checked instances of the round-3 physics envs: known answers, wrong answers refused, other spellings read."""

from __future__ import annotations

from fractions import Fraction

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.physics.thin_lens import _trace


def lens_problem(lenses: list[tuple[int, int]]) -> Problem:
    traced = _trace(lenses)
    assert traced is not None
    d, m, virtual = traced
    return Problem("physics/thin_lens", 0, 0, "", f"d = {d} cm, m = {m}",
                   {"lenses": [list(x) for x in lenses], "d": str(d), "m": str(m), "virtual_objects": virtual}, 1)


def test_single_converging_lens_images_at_twice_the_focal_length() -> None:
    # u = 30, f = 20: 1/v = 1/20 - 1/30 = 1/60, v = 60, m = -60/30 = -2
    assert _trace([(30, 20)]) == (Fraction(60), Fraction(-2), 0)
    task, problem = make_source("physics/thin_lens"), lens_problem([(30, 20)])
    assert task.verify(problem, "d = 60 cm, m = -2").correct
    assert task.verify(problem, "m = -2 and d = 0.6 m.").correct
    flipped = task.verify(problem, "d = 60 cm, m = 2")
    assert not flipped.correct and "magnification" in flipped.feedback
    assert not task.verify(problem, "d = 60 cm, m = -2 or 2").correct


def test_second_lens_sees_a_virtual_object() -> None:
    # lens 1 images at 60 cm, i.e. 20 cm past lens 2 (40 cm on): u = -20, f = 10, v = 20/3, m2 = 1/3
    assert _trace([(30, 20), (40, 10)]) == (Fraction(20, 3), Fraction(-2, 3), 1)
    task, problem = make_source("physics/thin_lens"), lens_problem([(30, 20), (40, 10)])
    assert task.verify(problem, r"\boxed{d = \frac{20}{3} cm, m = -\frac{2}{3}}").correct
    assert not task.verify(problem, "d = 6.67 cm, m = -2/3").correct
    position = task.verify(problem, "d = -20/3 cm, m = -2/3")
    assert not position.correct and "position" in position.feedback


def test_image_at_infinity_is_never_drawn() -> None:
    assert _trace([(20, 20)]) is None
    task = make_source("physics/thin_lens")
    for seed in range(20):
        assert task.verify(task.sample(3, seed), task.sample(3, seed).answer).correct
