"""Hand-checked instances of the round-3c science envs (physics and operations research): known answers, wrong
answers refused with a useful message, other spellings read."""

from __future__ import annotations

from fractions import Fraction

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.physics.thermodynamic_cycles import _segment


def kinded(env_id: str, kind: str, values: dict[str, str], steps: int = 1) -> Problem:
    return Problem(env_id, 0, 0, "", "", {"kind": kind, "values": values, "steps": steps}, 1)


def test_orbits_ellipse_reads_named_values_in_other_units() -> None:
    # r_p = 7000 km at 10000 m/s, r_a = 21000 km: a = 14000 km, e = 14000/28000 = 1/2, v_a = 10000 * 7/21
    task = make_source("physics/orbits")
    problem = kinded("physics/orbits", "ellipse", {"a": "14000", "e": "1/2", "v_a": "10000/3"})
    assert task.verify(problem, "a = 14000 km, e = 1/2, v_a = 10000/3 m/s").correct
    assert task.verify(problem, "v_a = 10/3 km/s, e = 0.5, a = 14000000 m.").correct
    wrong = task.verify(problem, "a = 14000 km, e = 1/2, v_a = 3333.33 m/s")
    assert not wrong.correct and "apoapsis" in wrong.feedback


def test_orbits_references_follow_the_laws() -> None:
    task = make_source("physics/orbits")
    for seed in range(10):
        problem = task.sample(1, seed)  # Kepler: T2/T1 = (a2/a1)^(3/2), so (T2/T1)^2 = (a2/a1)^3
        text = problem.prompt
        a1 = Fraction(text.split("orbits at ")[1].split(" AU")[0])
        t1 = int(text.split("period of ")[1].split(" days")[0])
        a2 = Fraction(text.split("second orbits at ")[1].split(" AU")[0])
        t2 = Fraction(problem.data["values"]["x"])
        assert (t2 / t1) ** 2 == (a2 / a1) ** 3
        assert task.verify(problem, problem.answer).correct


def test_waves_closed_pipe_skips_even_harmonics() -> None:
    # closed pipe 0.5 m: resonances 170, 510, 850 Hz; the second one is 510, not 340
    task = make_source("physics/waves")
    problem = kinded("physics/waves", "pipe", {"x": "510"})
    assert task.verify(problem, "510 Hz").correct and task.verify(problem, "0.51 kHz").correct
    assert not task.verify(problem, "340 Hz").correct
    pair = kinded("physics/waves", "pipe_pair", {"f1": "170", "L": "1/2"})
    assert task.verify(pair, "L = 50 cm, f1 = 170 Hz").correct
    wrong = task.verify(pair, "f1 = 340 Hz, L = 1/2 m")
    assert not wrong.correct and "fundamental" in wrong.feedback


def test_electrostatics_coulomb_force() -> None:
    # 2 uC and -3 uC at 30 cm: 9e9 * 6e-12 / 0.09 = 0.6 N
    task = make_source("physics/electrostatics")
    problem = kinded("physics/electrostatics", "pair", {"x": "3/5"})
    assert task.verify(problem, "0.6 N").correct and task.verify(problem, "600 mN").correct
    assert not task.verify(problem, "-0.6 N or 0.6 N").correct
    field = kinded("physics/electrostatics", "field", {"Ex": "-5000", "Ey": "0"})
    assert task.verify(field, "Ey = 0, Ex = -5 kN/C").correct
    wrong = task.verify(field, "Ex = 5000 N/C, Ey = 0 N/C")
    assert not wrong.correct and "x component" in wrong.feedback


def test_electrostatics_field_points_away_from_positive_charge() -> None:
    task = make_source("physics/electrostatics")
    for seed in range(20):
        problem = task.sample(3, seed)
        assert task.verify(problem, problem.answer).correct
        assert not task.verify(problem, problem.answer.replace("Ex = ", "Ex = 1")).correct


def test_thermodynamic_segments() -> None:
    # monatomic isobaric 200 kPa from 2 L to 5 L: W = 600 J, dU = 3/2 * 600 = 900 J, Q = 1500 J
    assert _segment(Fraction(3, 2), (200, 2), (200, 5)) == (Fraction(600), Fraction(1500))
    # diatomic isochoric cooling 300 -> 100 kPa at 4 L: W = 0, Q = 5/2 * (-800) = -2000 J
    assert _segment(Fraction(5, 2), (300, 4), (100, 4)) == (Fraction(0), Fraction(-2000))
    task = make_source("physics/thermodynamic_cycles")
    efficiency = kinded("physics/thermodynamic_cycles", "efficiency", {"x": "2/13"})
    assert task.verify(efficiency, "2/13").correct and task.verify(efficiency, r"\frac{2}{13}").correct
    assert not task.verify(efficiency, "0.1538").correct
    triangle = kinded("physics/thermodynamic_cycles", "triangle", {"W": "-300", "Q": "450"})
    assert task.verify(triangle, "Q = 0.45 kJ, W = -300 J").correct
    wrong = task.verify(triangle, "W = 300 J, Q = 450 J")
    assert not wrong.correct and "net work" in wrong.feedback
