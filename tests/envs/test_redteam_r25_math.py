"""Red team, session 25 (math families): a constant that paid above the limit, and right answers a careful grader
accepts that were refused, with the wrong answers next to them that stay refused."""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- arithmetic/number_theory: "1" for every gcd question ----------------------------------------------------------
# v4 drew the common factor log-uniformly from 1 up: at level 0 it was 1 for 26% of gcd questions, and the constant
# "1" answered 12% of the level (the limit for one recurring answer is 10%). v5 draws it from 2 up (1 for 5%).


def test_number_theory_gcd_is_rarely_one() -> None:
    task = _task("arithmetic/number_theory")
    problems = [task.sample(0, seed) for seed in range(600)]
    gcds = [p for p in problems if p.data["kind"] == "gcd"]
    assert len(gcds) > 100
    assert sum(_reward(p, "1") for p in gcds) / len(gcds) < 0.12  # v4: 0.26
    assert sum(_reward(p, "1") for p in problems) / len(problems) < 0.09  # v4: 0.12
    assert all(_reward(p, p.answer) == 1.0 for p in gcds[:20])


# --- algebra/rational_simplification: the excluded values stated ---------------------------------------------------
# The prompt asks for a form "valid wherever the original is defined"; naming the values the original excludes
# ("x - 14, x ≠ 9/2") was unreadable. Now each value named must be one where the original is undefined.


def test_rational_simplification_accepts_a_true_restriction() -> None:
    task = _task("algebra/rational_simplification")
    cancel = task.sample(0, 3)
    assert cancel.data["shown"] == "(2x^2 - 37x + 126)/(2x - 9)" and cancel.answer == "x - 14"
    for reply in (
        "x - 14, x ≠ 9/2",
        "x - 14 (x ≠ 4.5)",
        "x - 14 for x ≠ 9/2",
        r"x - 14, \text{ where } x \neq \frac{9}{2}",
        r"\boxed{x - 14,\ x \neq 9/2}",
    ):
        assert _reward(cancel, reply) == 1.0, reply
    for reply in (
        "x - 14, x ≠ 5",
        "x - 14, x ≠ 9/2, 5",
        "x - 14, x ≠ 9/2 or x + 1",
        "x + 1, x ≠ 9/2",
        "(2x^2 - 37x + 126)/(2x - 9), x ≠ 9/2",
        "x ≠ 9/2",
        "x - 14 (x ≠ 9/2",
    ):
        assert _reward(cancel, reply) == 0.0, reply
    quotient = task.sample(4, 3)
    assert quotient.answer == "(x^2 - 16x + 64)/(x - 4)"
    for reply in (
        "(x - 8)^2/(x - 4), x ≠ 5, -1, 8",
        "(x-8)^2/(x-4), x ≠ 5 and x ≠ -1",
        r"\frac{(x-8)^2}{x-4} \quad (x \neq 5, 8)",
    ):
        assert _reward(quotient, reply) == 1.0, reply
    assert _reward(quotient, "(x - 8)^2/(x - 4), x ≠ 6") == 0.0  # the original is defined at 6


# --- calculus/antiderivative: "+ C, where C is a constant" ---------------------------------------------------------


def test_antiderivative_accepts_a_clause_about_the_constant() -> None:
    problem = _task("calculus/antiderivative").sample(0, 3)
    f = problem.data["antiderivative"]
    assert f == "(5/3)x^3 - 2x^4 - x^6"
    for clause in (
        ", where C is a constant",
        ", where C is an arbitrary constant.",
        ", C ∈ ℝ",
        " (C constant)",
        r", \quad C \in \mathbb{R}",
        " for any constant C",
        " where C is the constant of integration",
    ):
        assert _reward(problem, f"{f} + C{clause}") == 1.0, clause
    integrand = problem.data["integrand"]
    for reply in (f"{f} + C, where C = x", f"{f} + C, or x^2", f"{integrand} + C, where C is a constant"):
        assert _reward(problem, reply) == 0.0, reply


# --- geometry/circles: a point named in a sentence, in \left( \right), or as x = .., y = .. --------------------------


def test_circles_reads_points_as_graders_do() -> None:
    task = _task("geometry/circles")
    centre = task.sample(0, 3)
    assert centre.answer == "(7, -10)"
    for reply in (
        "The centre is (7, -10).",
        "Center: (7, -10)",
        r"\left(7, -10\right)",
        "x = 7, y = -10",
        "h = 7, k = -10",
        "y = -10, x = 7",
    ):
        assert _reward(centre, reply) == 1.0, reply
    for reply in ("x = -10, y = 7", "(-10, 7)", "The centre is (7, -10) or (7, 10)", "x = 7, y = -10, z = 1"):
        assert _reward(centre, reply) == 0.0, reply
    both = task.sample(3, 3)
    first, second = both.answer.split("), (")
    assert _reward(both, f"The points are {both.answer}.") == 1.0
    assert _reward(both, rf"\left({first[1:]}\right), \left({second[:-1]}\right)") == 1.0
    assert _reward(both, f"The points are {first})") == 0.0  # one point of two


# --- algebra/solve_equation: a bare "none" ----------------------------------------------------------------------------
# v3 paid "none" 0.10 at level 3 (one quadratic in ten has no real root) with no proof asked. v4 asks for the
# discriminant of the equation as ax^2 + bx + c = 0 with integer coefficients (any whole multiple of the equation).


def test_solve_equation_none_needs_its_discriminant() -> None:
    task = _task("algebra/solve_equation")
    problems = [task.sample(3, seed) for seed in range(150)]
    empty = [p for p in problems if not p.data["roots"]]
    assert len(empty) >= 8
    assert sum(_reward(p, "none") for p in problems) == 0  # v3: 0.10 of the level
    assert sum(_reward(p, "No real solutions") for p in empty) == 0
    for problem in empty[:4]:
        d = int(problem.data["discriminant"])
        assert d < 0 and _reward(problem, problem.answer) == 1.0
        assert _reward(problem, f"No real solutions: the discriminant is {d} < 0.") == 1.0
        assert _reward(problem, f"none, D = {9 * d}") == 1.0  # the equation multiplied by 3
        for wrong in (-d, 2 * d, d - 1):
            assert _reward(problem, f"none (discriminant {wrong})") == 0.0, wrong
        assert _reward(problem, f"none (discriminant {d}) or x = 1") == 0.0
    rooted = next(p for p in problems if p.data["roots"])
    assert _reward(rooted, "none (discriminant -7)") == 0.0


# --- calculus/limits, level 1: "0" for every limit at infinity ----------------------------------------------------
# v2 drew a lower top degree a quarter of the time: the constant "0" scored 0.24 at level 1, "∞" and "-∞" 0.12 each.


def test_limits_at_infinity_constants_stay_rare() -> None:
    task = _task("calculus/limits")
    problems = [task.sample(1, seed) for seed in range(800)]
    for constant in ("0", "∞", "-∞"):
        assert sum(_reward(p, constant) for p in problems) / len(problems) < 0.11, (
            constant
        )  # v2: 0.24, 0.12, 0.12 (v3: 0.07 each)
    assert all(_reward(p, p.answer) == 1.0 for p in problems[:20])
