"""Env-specific behaviour of arithmetic/number_theory, algebra/* and physics/* beyond the contract kit.

Regression tests for the grading defects of issue #9 live in tests/envs/test_grading_math.py.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import pytest
import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

from palaestra.core import Problem
from palaestra.core.registry import make_source

HOSTILE = ["", "   ", "__import__('os').system('ls')", "9**9**9**9", "x" * 1_000_000, "1," * 100_000, "ünïcödé ∞"]


# --- arithmetic/number_theory ------------------------------------------------

def test_number_theory_answers_match_an_independent_computation():
    task = make_source("arithmetic/number_theory")
    kinds = Counter()
    for seed in range(300):
        problem = task.sample(3, seed)
        kinds[problem.data["kind"]] += 1
        numbers = [int(n) for n in _integers(problem.prompt.split("\n\n")[0])]
        value = int(problem.answer)
        if problem.data["kind"] == "power_mod":
            base, exponent, modulus = numbers[:3]
            assert value == pow(base, exponent, modulus)
        elif problem.data["kind"] == "inverse":
            base, modulus = numbers[:2]
            assert 0 <= value < modulus and base * value % modulus == 1
        elif problem.data["kind"] == "divisors":
            assert value == len(sympy.divisors(numbers[0]))
        elif problem.data["kind"] == "divisor_sum":
            assert value == sum(sympy.divisors(numbers[0]))
    assert len(kinds) == 7


def test_number_theory_gcd_is_rarely_one():
    task = make_source("arithmetic/number_theory")
    problems = (task.sample(2, seed) for seed in range(400))
    gcds = [p.answer for p in problems if p.data["kind"] == "gcd"]
    assert gcds and gcds.count("1") / len(gcds) < 0.25


def test_number_theory_accepts_equal_numerals_only():
    task = make_source("arithmetic/number_theory")
    problem = Problem(prompt="", answer="12", data={"kind": "gcd", "value": "12", "numbers": [36, 48], "modulus": 0})
    for answer in ("12", "12.0", "24/2", " 12 "):
        assert task.verify(problem, answer).correct
    assert not task.verify(problem, "13").correct
    assert not task.verify(problem, "gcd(36, 48)").parsed


# --- algebra/solve_equation --------------------------------------------------

def _roots_by_sympy(equation: str) -> list[float]:
    transformations = standard_transformations + (implicit_multiplication_application, convert_xor)
    left, right = (parse_expr(side, transformations=transformations) for side in equation.split(" = "))
    solutions = sympy.solveset(left - right, sympy.Symbol("x"), domain=sympy.S.Reals)
    return sorted(float(s) for s in solutions)


def _sympy_value(root: str) -> float:
    return float(parse_expr(root))


@pytest.mark.parametrize("level", range(5))
def test_solve_equation_roots_agree_with_sympy(level):
    task = make_source("algebra/solve_equation")
    for seed in range(15):
        problem = task.sample(level, seed)
        expected = sorted(_sympy_value(root) for root in problem.data["roots"])
        assert _roots_by_sympy(problem.data["equation"]) == pytest.approx(expected, abs=1e-9)


def test_solve_equation_accepts_equivalent_forms_in_any_order():
    task = make_source("algebra/solve_equation")
    halves = Problem(prompt="", answer="-1/2, 3",
                     data={"form": "quadratic", "equation": "2x^2 - 5x - 3 = 0", "roots": ["-1/2", "3"]})
    for answer in ("-1/2, 3", "x = 3, x = -0.5", "3, -2/4", "x_1 = 6/2; x_2 = -1/2", "{3, -1/2}", "x = 3 or x = -1/2"):
        assert task.verify(halves, answer).correct, answer
    golden = Problem(prompt="", answer="", data={"form": "quadratic", "equation": "x^2 - x - 1 = 0",
                                                 "roots": ["(1 - sqrt(5))/2", "(1 + sqrt(5))/2"]})
    for answer in ("(1 + sqrt(5))/2, (1 - sqrt(5))/2", "x = (1 ± √5)/2", r"\frac{1 \pm \sqrt{5}}{2}",
                   "1/2 - sqrt(5)/2, 0.5 + sqrt(1.25)", "2/(sqrt(5) - 1), -2/(1 + sqrt(5))", "(1 ± sqrt(20)/2)/2"):
        assert task.verify(golden, answer).correct, answer


def test_solve_equation_rejects_missing_extra_and_repeated_solutions():
    task = make_source("algebra/solve_equation")
    problem = Problem(prompt="", answer="-1/2, 3", data={"form": "quadratic", "equation": "", "roots": ["-1/2", "3"]})
    assert task.verify(problem, "3").feedback == "a solution is missing"
    assert task.verify(problem, "3, -1/2, 2").feedback == "a value is not a solution"
    assert task.verify(problem, "3, 3, -1/2").feedback == "a solution is listed twice"
    assert not task.verify(problem, "none").correct
    assert not task.verify(problem, "3, -0.5000001").correct  # exact values only
    empty = Problem(prompt="", answer="none", data={"form": "quadratic", "equation": "x^2 + 1 = 0", "roots": []})
    assert task.verify(empty, "No real solutions").correct
    assert not task.verify(empty, "0").correct


def test_solve_equation_reads_only_numbers():
    task = make_source("algebra/solve_equation")
    problem = task.sample(3, 0)
    for answer in HOSTILE + ["x", "sqrt(-4)", "(1 ± 2 ± 3)", "lambda: 1"]:
        verdict = task.verify(problem, answer)
        assert not verdict.correct and not verdict.parsed, answer


def test_solve_equation_levels_grow_from_linear_to_rational():
    task = make_source("algebra/solve_equation")
    assert all(len(task.sample(0, s).data["roots"]) == 1 for s in range(20))
    assert any("/(x" in task.sample(4, s).data["equation"] for s in range(5))
    assert any("sqrt" in task.sample(3, s).answer for s in range(20))


# --- algebra/linear_system ---------------------------------------------------

def _system(task, level: int, seed: int) -> tuple[Problem, dict[str, Fraction]]:
    problem = task.sample(level, seed)
    return problem, {name: Fraction(v) for name, v in problem.data["solution"].items()}


@pytest.mark.parametrize("level", range(5))
def test_linear_system_solution_satisfies_every_equation_and_is_unique(level):
    task = make_source("algebra/linear_system")
    problem, solution = _system(task, level, 3)
    names = sorted(solution)
    assert len(names) == [2, 3, 3, 4, 5][level]
    symbols = sympy.symbols(names)
    transformations = standard_transformations + (implicit_multiplication_application,)
    equations = [
        sympy.Eq(*(parse_expr(side, transformations=transformations) for side in text.split(" = ")))
        for text in problem.data["equations"]
    ]
    exact = sympy.solve(equations, symbols, dict=True)
    assert len(exact) == 1
    assert {str(k): Fraction(str(v)) for k, v in exact[0].items()} == solution


def test_linear_system_accepts_any_order_and_equivalent_values():
    task = make_source("algebra/linear_system")
    problem = _halves_and_thirds()
    for answer in ("x = 1/2, y = -2/3", "y = -2/3; x = 0.5", "X: 2/4, Y: -4/6", r"x = \frac{1}{2}, y = -\frac{2}{3}",
                   "x = 1/2\ny = -2/3", "x=0.5 y=-2/3"):
        assert task.verify(problem, answer).correct, answer


def test_linear_system_rejects_missing_repeated_and_unknown_variables():
    task = make_source("algebra/linear_system")
    problem = _halves_and_thirds()
    assert task.verify(problem, "x = 1/2").feedback == "no value given for y"
    assert task.verify(problem, "x = 1/2, y = -2/3, x = 1/2").correct  # the same value twice is no hedge
    assert task.verify(problem, "x = 1/2, y = -0.6667").feedback == "wrong value for y"
    for answer in HOSTILE + ["1/2, -2/3", "x = y + 1, y = -2/3", "x = pi, y = 1", "x = 1/2, y = -2/3, x = 1",
                             "x = 1/2, y = -2/3, z = 0"]:  # a second value for x is a hedge; z is no unknown
        verdict = task.verify(problem, answer)
        assert not verdict.parsed and not verdict.correct, answer


def _halves_and_thirds() -> Problem:
    return Problem(prompt="", answer="x = 1/2, y = -2/3", data={"equations": [], "solution": {"x": "1/2", "y": "-2/3"}})


# --- physics/beam_statics ----------------------------------------------------

def _beam(reactions: dict[str, str]) -> Problem:
    return Problem(prompt="", answer="", data={"reactions": reactions})


def test_beam_statics_simple_span_by_hand():
    # 10 m span, supports at the ends, 30 kN at x = 4 m: R_B = 30*4/10 = 12, R_A = 18.
    task = make_source("physics/beam_statics")
    problem = _beam({"R_A": "18", "R_B": "12"})
    for answer in ("R_A = 18, R_B = 12", "R_B = 12 kN; R_A = 18 kN", "RA = 18.00, RB = 12.000", "A: 36/2, B: 12",
                   "R_A = 18, R_B = 12, R_A = 18"):
        assert task.verify(problem, answer).correct, answer
    assert task.verify(problem, "R_A = 12, R_B = 18").feedback.startswith("wrong value for R_A and R_B")
    assert task.verify(problem, "R_A = 18.05, R_B = 12").feedback.startswith("wrong value for R_A ")
    assert task.verify(problem, "R_A = 18").feedback == "no value given for R_B"
    for answer in HOSTILE + ["R_A = 1e999, R_B = 2", "R_A = 18 + 0, R_B = 12", "R_A = 18, R_B = 12, R_A = 19"]:
        assert not task.verify(problem, answer).parsed, answer


@pytest.mark.parametrize("level", range(5))
def test_beam_statics_reactions_balance_the_loads(level):
    task = make_source("physics/beam_statics")
    for seed in range(10):
        problem = task.sample(level, seed)
        r_a, r_b = (Fraction(problem.data["reactions"][n]) for n in ("R_A", "R_B"))
        loads = sum(Fraction(f) for f in _between(problem.prompt, "point load of ", " kN"))
        for intensity, start, end in _distributed(problem.prompt):
            loads += intensity * (end - start)
        assert r_a + r_b == loads
    assert task.verify(problem, problem.answer).correct


def test_beam_statics_overhangs_and_moments_appear_at_high_levels():
    task = make_source("physics/beam_statics")
    prompts = [task.sample(4, s).prompt for s in range(20)]
    assert all("point moment" in p and "distributed" in p for p in prompts)
    assert any("support A at x = 0 m" not in p for p in prompts)
    assert all("support A at x = 0 m" in task.sample(0, s).prompt for s in range(10))


# --- physics/kinematics ------------------------------------------------------

def test_kinematics_tolerance_and_forms():
    task = make_source("physics/kinematics")
    problem = Problem(prompt="", answer="25/3", data={"kind": "direct", "value": "25/3", "unit": "s", "steps": 1})
    for answer in ("25/3", "8.333333333", "8.3333334 s", "t = 50/6", "8.333333 seconds", "t ≈ 8.333333 s"):
        assert task.verify(problem, answer).correct, answer
    for answer in ("8.33", "8.3334", "-25/3", "≈ 8.33"):
        assert not task.verify(problem, answer).correct, answer
    for answer in HOSTILE + ["8 + 1/3", "25/3" + " s" * 100]:
        assert not task.verify(problem, answer).parsed, answer


def test_kinematics_first_time_is_the_earliest_root():
    task = make_source("physics/kinematics")
    seen = 0
    for seed in range(200):
        problem = task.sample(3, seed)
        if problem.data["kind"] != "first_time":
            continue
        match = re.search(r"velocity (-?[\d./]+) m/s .* acceleration of (-?[\d./]+) m/s\^2 .* equal to (-?[\d./]+) m\?",
                          problem.prompt)
        u, a, s = (sympy.Rational(g) for g in match.groups())
        t = sympy.Symbol("t", positive=True)
        roots = sympy.solve(u * t + a * t**2 / 2 - s, t)
        assert Fraction(problem.answer) == Fraction(str(min(roots)))
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("level", range(5))
def test_kinematics_reference_accepted_and_levels_differ(level):
    task = make_source("physics/kinematics")
    kinds = {task.sample(level, s).data["kind"] for s in range(60)}
    assert ("two_phase" in kinds) == (level == 4)
    problem = task.sample(level, 1)
    assert task.verify(problem, problem.answer).correct


# --- helpers -------------------------------------------------------------------

def _integers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


def _between(text: str, before: str, after: str) -> list[str]:
    return re.findall(re.escape(before) + r"(-?[\d./]+)" + re.escape(after), text)


def _distributed(prompt: str) -> list[tuple[Fraction, ...]]:
    pattern = r"distributed downward load of ([\d.]+) kN/m from x = ([\d.]+) m to x = ([\d.]+) m"
    return [tuple(Fraction(g) for g in m) for m in re.findall(pattern, prompt)]
