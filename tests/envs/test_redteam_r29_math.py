"""Red-team regressions, session 29 (math): answers that copy the function instead of differentiating or
integrating it. A difference quotient of f at nearby points matches f' to 25 digits, and a quadrature rule
exact for polynomials is an antiderivative of a polynomial integrand; neither takes a derivative or an
integral."""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


def _at(f: str, argument: str) -> str:
    return "(" + "".join(f"({argument})" if c == "x" else c for c in f) + ")"


def test_derivative_refuses_difference_quotients() -> None:
    task = _task("calculus/derivative")
    for level, seed in ((0, 1), (2, 3), (4, 5)):
        problem = task.sample(level, seed)
        f = problem.data["function"]
        central = f"(-{_at(f, 'x+2/10^8')}+8{_at(f, 'x+1/10^8')}-8{_at(f, 'x-1/10^8')}+{_at(f, 'x-2/10^8')})*10^8/12"
        complex_step = f"({_at(f, 'x+sqrt(-1)/10^20')}-{_at(f, 'x-sqrt(-1)/10^20')})*10^20/(2sqrt(-1))"
        for attack in (central, complex_step):
            assert not task.verify(problem, attack).correct, (level, seed, attack)
        assert task.verify(problem, problem.answer).correct


def test_derivative_refuses_an_exact_difference_formula_for_polynomials() -> None:
    task = _task("calculus/derivative")
    problem = next(p for p in (task.sample(0, s) for s in range(40)) if "sqrt" not in p.data["function"]
                   and "/" not in p.data["function"])
    f = problem.data["function"]
    weights = {1: "4/5", 2: "-1/5", 3: "4/105", 4: "-1/280"}  # exact for degree <= 8
    attack = "+".join(f"({w})*({_at(f, f'x+{k}')}-{_at(f, f'x-{k}')})" for k, w in weights.items())
    assert not task.verify(problem, attack).correct
    assert task.verify(problem, problem.answer).correct


def test_antiderivative_refuses_a_quadrature_of_the_integrand() -> None:
    task = _task("calculus/antiderivative")
    for seed in (0, 1, 2):
        problem = task.sample(0, seed)
        f = problem.data["integrand"]
        boole = f"x*(7{_at(f, '0')}+32{_at(f, 'x/4')}+12{_at(f, 'x/2')}+32{_at(f, '3x/4')}+7{_at(f, 'x')})/90"
        assert not task.verify(problem, boole).correct, (seed, boole)
        assert task.verify(problem, problem.answer).correct
