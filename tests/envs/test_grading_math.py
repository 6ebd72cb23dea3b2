"""Regression tests for the grading defects of issue #9 in the math, physics, countdown and causal envs,
and for what red-teaming them found. Each test names the defect it pins down."""

from __future__ import annotations

import re
import time
from fractions import Fraction

import networkx as nx
import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.kit import best_threshold_rule, surface_features
from palaestra.verifiers.expressions import evaluate_surd, parse_expression


def _right(env_id: str, problem: Problem, answers: list[str]) -> None:
    task = make_source(env_id)
    for answer in answers:
        verdict = task.check(problem, task.format_answer(answer))  # as a model writes it, extraction included
        assert verdict.correct, (answer, verdict)


def _not_right(env_id: str, problem: Problem, answers: list[str]) -> None:
    task = make_source(env_id)
    for answer in answers:
        verdict = task.check(problem, task.format_answer(answer))
        assert not verdict.correct and verdict.reward == 0.0 and verdict.error is None, (answer, verdict)


# --- algebra/linear_system -------------------------------------------------------------------

LINEAR = Problem(prompt="", answer="x = -6, y = 5", data={"equations": ["x + y = -1", "x - y = -11"],
                                                         "solution": {"x": "-6", "y": "5"}})


def test_linear_system_reads_a_tuple_assignment():
    """Issue #9: ``(x, y) = (-6, 5)`` was rejected."""
    _right("algebra/linear_system", LINEAR, ["(x, y) = (-6, 5)", "(x,y)=(-6,5)", "x = -6 and y = 5", "y = 5; x = -6",
                                             r"\begin{cases} x = -6 \\ y = 5 \end{cases}", "x=-6 y=5", "(-6, 5)",
                                             "x = -6, y = 5."])
    _not_right("algebra/linear_system", LINEAR, ["x = -6, y = 5. Both equations hold."])  # a remark (issue #21)


def test_linear_system_rejects_near_misses_and_hedges():
    _not_right("algebra/linear_system", LINEAR, ["(x, y) = (5, -6)", "(x, y) = (-6, 5, 1)", "x = -6", "-6, 5",
                                                 "x = -6, y = 5 or 6", "x = -6, y = 5, x = 6", "x = -6, y = 5, z = 0",
                                                 "x = -6.000001, y = 5"])


def test_linear_system_prompt_shows_a_form_that_is_not_the_answer():
    task = make_source("algebra/linear_system")
    for seed in range(20):
        problem = task.sample(0, seed)
        example = re.search(r"written like (.*)", problem.prompt).group(1)
        assert not task.verify(problem, example).correct


# --- algebra/solve_equation ------------------------------------------------------------------

SURDS = Problem(prompt="", answer="", data={"form": "quadratic", "equation": "x^2 - x - 1 = 0",
                                            "roots": ["(1 - sqrt(5))/2", "(1 + sqrt(5))/2"]})
TWO_THREE = Problem(prompt="", answer="2, 3", data={"form": "quadratic", "equation": "x^2 - 5x + 6 = 0",
                                                    "roots": ["2", "3"]})


def test_solve_equation_reads_set_notations():
    """Issue #9: ``x_{1,2} = …``, ``x ∈ {…}`` and ``2 \\text{ or } 3`` were rejected."""
    _right("algebra/solve_equation", SURDS, [r"x_{1,2} = \frac{1 \pm \sqrt{5}}{2}", "x_{1,2} = (1 ± √5)/2",
                                             r"x \in \left\{\frac{1 - \sqrt{5}}{2}, \frac{1 + \sqrt{5}}{2}\right\}",
                                             "x ∈ {(1 + √5)/2, (1 - √5)/2}", "(1 ∓ sqrt5)/2"])
    _right("algebra/solve_equation", TWO_THREE, [r"2 \text{ or } 3", "x ∈ {2, 3}", "x_{1,2} = 2, 3", "x = 3 or x = 2",
                                                 r"\boxed{2, 3}", "x_1 = 2, x_2 = 3"])


def test_solve_equation_demands_exact_values():
    """Issue #9: ``2.000000001`` and 10-digit decimals for exact surds were accepted."""
    golden = (1 + 5**0.5) / 2
    _not_right("algebra/solve_equation", TWO_THREE, ["2.000000001, 3", "2, 2.9999999999", "1.9999999999999, 3"])
    _not_right("algebra/solve_equation", SURDS, [f"{1 - golden:.10f}, {golden:.10f}", f"{1 - golden!r}, {golden!r}",
                                                 "(1 ± 2.2360679775)/2", "0.5 ± sqrt(1.2500000001)"])
    assert make_source("algebra/solve_equation").verify(SURDS, f"{1 - golden:.10f}, {golden:.10f}").feedback == (
        "a value is a rounded approximation; exact values are asked")


def test_solve_equation_rejects_hedges_and_extra_values():
    _not_right("algebra/solve_equation", TWO_THREE, ["2, 3, 4", "2, 3, none", "2", "2, 2", "2, 3 (or maybe 4)",
                                                     "x = 2, 3, 5", "none"])


def test_exact_surds_compare_exactly():
    def value(text: str):
        return evaluate_surd(parse_expression(text))

    assert value("sqrt(8)") == value("2*sqrt(2)") == value("4/sqrt(2)") == value("2^(3/2)/sqrt(2)*sqrt(2)")
    assert value("1/(sqrt(2) + sqrt(3))") == value("sqrt(3) - sqrt(2)")
    assert value("sqrt(3 + 2*sqrt(2))") == value("1 + sqrt(2)")  # a denested radical
    assert value("1.4142135624") != value("sqrt(2)") and value("2.000000001") != value("2")
    for hostile in ("sqrt(-1)", "pi", "sqrt(2)^(1/3)", "9**9**9**9", "sqrt(" * 300 + "2" + ")" * 300):
        t0 = time.process_time()
        assert value(hostile) is None
        assert time.process_time() - t0 < 0.5


# --- arithmetic/expression and arithmetic/number_theory -------------------------------------

TEN = Problem(prompt="", answer="10", data={"expression": "4 + 6", "value": "10"})


def test_expression_reads_wrapped_numerals():
    """Issue #9: ``(10)``, ``\\boxed{10}`` and ``10e0`` were rejected."""
    _right("arithmetic/expression", TEN, ["(10)", r"\boxed{10}", "10e0", "1.0e1", "10.0", "$10$", "10.",
                                          "4 + 6 = 10"])
    _not_right("arithmetic/expression", TEN, ["10. That is it."])  # a remark after the answer (issue #21)


def test_expression_rejects_near_misses():
    _not_right("arithmetic/expression", TEN, ["10.000001", "10 or 11", "4 + 6", "4 + 6 = 11", "4 + 5 = 10", "11",
                                              "10, or maybe 11", "≈ 10"])


def test_number_theory_rejects_another_member_of_the_residue_class():
    task = make_source("arithmetic/number_theory")
    for seed in range(60):
        problem = task.sample(2, seed)
        if problem.data["modulus"]:
            other = int(problem.answer) + problem.data["modulus"]
            assert not task.verify(problem, str(other)).correct
            assert task.verify(problem, rf"\boxed{{{problem.answer}}}").correct


# --- causal/graph_query ----------------------------------------------------------------------

def _backdoor_problem() -> Problem:
    """A3 and H3 both confound X1 -> Y1: {A3, H3} is the only minimal adjustment set."""
    edges = [["A3", "X1"], ["A3", "Y1"], ["H3", "X1"], ["H3", "Y1"], ["X1", "Y1"], ["X1", "M2"]]
    return Problem(prompt="", answer="A3, H3", data={"nodes": ["A3", "H3", "M2", "X1", "Y1"], "edges": edges,
                                                    "kind": "backdoor", "x": "X1", "y": "Y1"})


def test_backdoor_reads_set_notations():
    """Issue #9: ``S = {A3, H3}`` and ``A3 and H3`` were scored wrong ("unknown variable '='")."""
    _right("causal/graph_query", _backdoor_problem(), ["S = {A3, H3}", "A3 and H3", "{H3, A3}", "['A3', 'H3']",
                                                       r"\{a3, h3\}", "A3, H3."])
    _not_right("causal/graph_query", _backdoor_problem(), ["A3, H3. They block both backdoor paths."])  # #21


def test_backdoor_rejects_invalid_sets():
    task = make_source("causal/graph_query")
    problem = _backdoor_problem()
    _not_right("causal/graph_query", problem, ["A3", "none", "{}", "A3, H3, M2", "A3, H3, X1", "A3 or H3", "Q0"])
    assert "descendant" in task.verify(problem, "A3, H3, M2").feedback
    assert "unknown" in task.verify(problem, "A3, Q0").feedback


def test_dsep_reads_yes_and_no_with_remarks():
    task = make_source("causal/graph_query")
    problem = next(p for p in (task.sample(1, s) for s in range(40)) if p.data["kind"] == "dsep")
    truth = problem.data["separated"]
    path = (problem.answer or "")[4:]  # a no comes with its open path (issue #21)
    said = ["Yes.", "d-separated", "TRUE"] if truth else [f"No: {path}", f"Not d-separated: {path}.", f"FALSE: {path}"]
    _right("causal/graph_query", problem, said)
    # A justification after the verdict is unparsed (issue #21): it cannot be told from a retraction.
    _not_right("causal/graph_query", problem, ["Yes, they are d-separated." if truth else "No, they are d-connected."])
    if not truth:
        _not_right("causal/graph_query", problem, ["No.", "no"])
    _not_right("causal/graph_query", problem, ["yes or no", "Yes, no wait", "No." if truth else "Yes."])


def _dsep_problems(level: int, count: int) -> list[Problem]:
    task = make_source("causal/graph_query")
    problems = []
    for seed in range(50_000, 50_000 + 4 * count):
        problem = task.sample(level, seed)
        if problem.data["kind"] == "dsep":
            problems.append(problem)
            if len(problems) == count:
                break
    return problems


@pytest.mark.parametrize("level", [0, 2, 4])
def test_dsep_cheap_features_do_not_predict_the_answer(level):
    """Issue #9: "yes iff Z holds a parent of X or Y" scored 58-65% on d-separation (chance 50%).

    The kit's balance check skips this env (backdoor answers make it not classification-style),
    so the d-separation questions are checked here: no one-feature rule over the prompt's
    surface or the env's declared ``surface_features`` beats chance by more than 10 points.
    """
    task = make_source("causal/graph_query")
    problems = _dsep_problems(level, 300)
    answers = [p.answer for p in problems]
    share = max(answers.count("yes"), answers.count("no")) / len(answers)
    assert share <= 0.6
    rows = [{**surface_features(p.prompt), **task.surface_features(p)} for p in problems]
    assert "Z holds a parent of X or Y" in rows[0]
    name, accuracy = best_threshold_rule(rows, answers)
    assert accuracy <= max(share, 0.5) + 0.10, (name, accuracy)


def test_dsep_answers_agree_with_networkx_and_z_is_never_empty():
    for level in range(5):
        for problem in _dsep_problems(level, 15):
            graph = nx.DiGraph(problem.data["edges"])
            graph.add_nodes_from(problem.data["nodes"])
            x, y, z = problem.data["x"], problem.data["y"], set(problem.data["z"])
            assert z and not graph.has_edge(x, y) and not graph.has_edge(y, x)
            assert nx.is_d_separator(graph, {x}, {y}, z) == problem.data["separated"]


# --- physics/kinematics ----------------------------------------------------------------------

SPEED = Problem(prompt="", answer="7", data={"kind": "direct", "value": "7", "unit": "m/s", "steps": 1})


def test_kinematics_accepts_approximations_within_the_stated_tolerance():
    """Issue #9: ``≈ 7`` was rejected although the prompt allows 7 significant digits."""
    task = make_source("physics/kinematics")
    assert all("within 0.0001% of the exact value" in task.sample(level, 0).prompt for level in range(5))
    _right("physics/kinematics", SPEED, ["≈ 7", "v ≈ 7.000000 m/s", "about 7 m/s", "7 metres per second", "7.0000001"])
    _not_right("physics/kinematics", SPEED, ["≈ 7.0001", "7.00001"])


def test_kinematics_units_must_be_the_asked_quantity():
    """Issue #9: ``7 seconds`` was accepted for 7 m/s (and any listed unit for any quantity)."""
    _not_right("physics/kinematics", SPEED, ["7 seconds", "7 s", "7 m", "7 m/s^2", "7 km/h", "7 metres"])
    time_problem = Problem(prompt="", answer="7", data={"kind": "direct", "value": "7", "unit": "s", "steps": 1})
    _right("physics/kinematics", time_problem, ["7 s", "7 seconds", "t = 7 sec"])
    _not_right("physics/kinematics", time_problem, ["7 m/s", "7 m"])


# --- physics/beam_statics --------------------------------------------------------------------

BEAM = Problem(prompt="", answer="R_A = 26, R_B = 22/3", data={"reactions": {"R_A": "26", "R_B": "22/3"}, "terms": 2})


def test_beam_statics_applies_exactly_the_stated_rounding():
    """Issue #9: ``R_A = 26.02`` was accepted for 26 (a 0.01 kN or 0.1% tolerance the prompt never stated)."""
    task = make_source("physics/beam_statics")
    assert all("correctly rounded to two or more decimal places" in task.sample(level, 0).prompt for level in range(5))
    _not_right("physics/beam_statics", BEAM, ["R_A = 26.02, R_B = 22/3", "R_A = 26.004, R_B = 22/3",
                                              "R_A = 26, R_B = 7.3", "R_A = 26, R_B = 7.34", "R_A = 26, R_B = 7.334",
                                              "R_A = 26, R_B = 7", "R_A = 26.1, R_B = 22/3"])
    _right("physics/beam_statics", BEAM, ["R_A = 26, R_B = 7.33", "R_A = 26.00, R_B = 7.3333", "R_A = 26, R_B = 7.333",
                                          "R_A = 26.000 kN, R_B = 7.33 kN", "R_A ≈ 26.00, R_B ≈ 7.33",
                                          "(R_A, R_B) = (26, 22/3)"])


# --- arithmetic/countdown -----------------------------------------------------------------

COUNTDOWN = Problem(prompt="", answer="(8 + 4) * 7", data={"numbers": [1, 4, 7, 8], "target": 84,
                                                           "exactly_once": False})


def test_countdown_checks_a_stated_result():
    """Issue #9: everything after ``=`` was ignored, so ``(8 + 4) * 7 = 85`` scored for target 84."""
    _not_right("arithmetic/countdown", COUNTDOWN, ["(8 + 4) * 7 = 85", "85 = (8 + 4) * 7", "(8 + 4) * 7 = 84 = 85",
                                                      "(8 + 4) * 7 + 1 = 84", "84"])
    _right("arithmetic/countdown", COUNTDOWN, ["(8 + 4) * 7 = 84", "84 = (8 + 4) * 7", "(8+4)×7", "7(8 + 4)",
                                                  r"(8 + 4) \times 7 = 84", "(8 + 4) x 7"])


def test_countdown_problems_are_valid_whatever_the_draws():
    """Red-teaming: after 200 failed draws the old generator kept an out-of-range target."""
    task = make_source("arithmetic/countdown")
    for level in range(5):
        for seed in range(40):
            problem = task.sample(level, seed)
            target = problem.data["target"]
            assert 10 <= target <= task.config(level).max_target and target not in problem.data["numbers"]
            assert Fraction(target) == evaluate_surd(parse_expression(problem.answer)).rational_part()
