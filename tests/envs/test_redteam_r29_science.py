"""Red-team regressions for the science families (physics, chemistry, biology, economics, causal, temporal, strings;
round 3, session 29).

Each test judges an answer through the env's own verifier: a verifier must return a Verdict for any text (a raise
means "not judged", which training leaves out instead of scoring 0).
"""

from __future__ import annotations

from palaestra.core.registry import make_source


def test_ac_impedance_zero_denominator_is_unread_not_raised() -> None:
    # physics/common._complex_core built Fraction("1/0") from a matched number: '1/0', '0/0', '\frac{1}{0}' and
    # '5/0 + 3j' raised ZeroDivisionError out of verify instead of being judged unread.
    task = make_source("physics/ac_impedance")
    problem = task.sample(0, 0)
    for answer in ("1/0", "0/0", "\\frac{1}{0}", "5/0 + 3j", "3 + 4/0j", "Z = 1/0.0 - 2j Ω"):
        verdict = task.verify(problem, answer)
        assert not verdict.correct and not verdict.parsed, answer
    assert task.verify(problem, problem.answer).correct
    r, x = problem.data["R"], problem.data["X"]
    assert task.verify(problem, f"{r} {'-' if x.startswith('-') else '+'} {x.lstrip('-')}j").correct  # its complex form
