"""Red-team regressions, session 29 (algebra, calculus and linalg readers): calculus/limits paid the limit's own
expression evaluated at a point near the limit (x = 10^30 as x → ∞, x = 10^-30 as x → 0), which matches the limit
to the 25 digits compared without any limit being taken."""

from __future__ import annotations

import palaestra


def _limits():
    return palaestra.make("calculus/limits", level=0).unwrapped.task


def test_limit_at_infinity_plugged_far_out_is_refused() -> None:
    task = _limits()
    problem = task.sample(1, 2)
    assert problem.data["limit"] == "(-4x - 2)/(5x - 7) as x → ∞" and problem.answer == "-4/5"
    for big in ("10^30", "10^100", "10^(10^2)"):
        assert not task.verify(problem, f"(-4*{big} - 2)/(5*{big} - 7)").correct
    assert not task.verify(problem, "(-4 - 2/10^30)/(5 - 7/10^30)").correct
    assert task.verify(problem, "-4/5").correct
    assert task.verify(problem, "lim = -0.8").correct


def test_limit_at_zero_plugged_near_zero_is_refused() -> None:
    task = _limits()
    problem = task.sample(2, 1)
    assert problem.data["limit"] == "tan(7x)/sin(-10x) as x → 0" and problem.answer == "-7/10"
    for tiny in ("10^(-30)", "1/10^40", "(1/10^15)^2"):
        assert not task.verify(problem, f"tan(7*{tiny})/sin(-10*{tiny})").correct
    assert task.verify(problem, "-7/10").correct
    assert task.verify(problem, "\\frac{-7}{10}").correct


def test_limit_zero_answer_plugged_far_out_is_refused_exact_forms_pay() -> None:
    task = _limits()
    problem = task.sample(1, 7)
    assert problem.answer == "0"
    assert not task.verify(problem, "(-7*(-10^30) - 7)/((-10^30)^2 + 2*(-10^30) - 9)").correct
    assert task.verify(problem, "0").correct and task.verify(problem, "0/7").correct
    # exact forms of large and small values, and every right spelling, still pay
    problem = task.sample(3, 10)
    assert problem.answer == "e^(15/2)"
    for right in ("e^(15/2)", "1/e^(-15/2)", "e^7.5", "sqrt(e^15)", "e^(15/2)."):
        assert task.verify(problem, right).correct, right
    for level in range(5):
        for seed in range(6):
            problem = task.sample(level, seed)
            for spelling in task.spellings(problem):
                assert task.verify(problem, spelling).correct, (level, seed, spelling)
