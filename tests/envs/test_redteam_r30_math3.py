"""Red team r30 (math3): answers that type the question's numbers back into the textbook formula, arithmetic undone."""

import palaestra


def _task(env_id: str, level: int):
    return palaestra.make(env_id, level=level).unwrapped.task


def test_solve_equation_refuses_the_linear_formula_typed_back():
    task = _task("algebra/solve_equation", 0)
    problem = task.sample(0, 1)  # 8x - 67 = -19
    assert problem.data["equation"] == "8x - 67 = -19"
    assert not task.verify(problem, "(-19 + 67)/8").correct
    assert not task.verify(problem, "x = (67 - 19)/8").correct
    assert task.verify(problem, "6").correct
    assert task.verify(problem, "48/8").correct  # a fraction not reduced is still a value


def test_solve_equation_refuses_the_quadratic_formula_typed_back():
    task = _task("algebra/solve_equation", 4)
    problem = task.sample(4, 1)  # roots 2 ± sqrt(10)
    assert not task.verify(problem, "(4 - sqrt(4^2 - 4*1*(-6)))/(2*1), (4 + sqrt(4^2 - 4*1*(-6)))/(2*1)").correct
    assert not task.verify(problem, "(4 ± sqrt(16 + 24))/2").correct
    for right in ("2 - sqrt(10), 2 + sqrt(10)", "(4 ± sqrt(40))/2", "2 ± √10", "2 - 10^(1/2), 2 + 10^(1/2)",
                  "x = 2 - sqrt(10) or x = 2 + sqrt(10)", "\\frac{4 \\pm \\sqrt{40}}{2}"):
        assert task.verify(problem, right).correct, right


def test_inequalities_refuse_an_endpoint_typed_back():
    task = _task("algebra/inequalities", 0)
    problem = task.sample(0, 1)  # 2x - 15 > -2x + 5
    assert problem.answer == "(5, ∞)"
    assert not task.verify(problem, "((5 + 15)/(2 + 2), ∞)").correct
    assert not task.verify(problem, "x > (5 + 15)/4").correct
    for right in ("(5, ∞)", "x > 5", "(20/4, inf)", "\\left(5, \\infty\\right)"):
        assert task.verify(problem, right).correct, right


def test_inequalities_refuse_a_root_of_a_sum_typed_back():
    task = _task("algebra/inequalities", 4)
    problem = task.sample(4, 1)  # x^2 + x - 16 > 0
    assert not task.verify(problem, "(-∞, (-1 - sqrt(1 + 64))/2) ∪ ((-1 + sqrt(1 + 64))/2, ∞)").correct
    for right in (problem.answer, "(-∞, (-1 - sqrt(65))/2) ∪ ((-1 + sqrt(65))/2, ∞)",
                  "x < -1/2 - 65^(1/2)/2 or x > (-1 + √65)/2"):
        assert task.verify(problem, right).correct, right
