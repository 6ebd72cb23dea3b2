"""Targeted checks of the mathematics, physics and causal envs of issue #10 (the kit covers the rest).

Each test pins the trickiest grading behaviour of one env: spellings a careful grader
accepts, near misses it rejects, and answers checked against an independent computation.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from fractions import Fraction

import pytest
import sympy

from palaestra.core.registry import make_source


def _verdict(env_id: str, level: int, seed: int, answer: str):
    task = make_source(env_id)
    return task.verify(task.sample(level, seed), answer)


# --- arithmetic ----------------------------------------------------------------


def test_fractions_require_lowest_terms_but_accept_other_exact_spellings():
    task = make_source("arithmetic/fractions")
    problem = next(p for p in (task.sample(2, s) for s in range(50)) if Fraction(p.answer).denominator > 2)
    value = Fraction(problem.answer)
    assert task.verify(problem, f"\\frac{{{value.numerator}}}{{{value.denominator}}}").correct
    assert task.verify(problem, f"{value.numerator * 3}/{value.denominator * 3}").parsed
    assert not task.verify(problem, f"{value.numerator * 3}/{value.denominator * 3}").correct
    assert not task.verify(problem, f"{float(value):.4f}").correct
    if abs(value) > 1:
        whole, rest = divmod(abs(value.numerator), value.denominator)
        sign = "-" if value < 0 else ""
        assert task.verify(problem, f"{sign}{whole} {rest}/{value.denominator}").correct


def test_fraction_expressions_evaluate_to_the_stated_value():
    task = make_source("arithmetic/fractions")
    for seed in range(20):
        problem = task.sample(4, seed)
        expression = problem.prompt.split("\n")[0].removeprefix("Compute ").rstrip(".")
        expression = expression.replace("×", "*").replace("÷", "/").replace("−", "-")
        assert sympy.Rational(sympy.sympify(expression)) == sympy.Rational(problem.answer)


def test_prime_factorization_rejects_composite_bases_and_accepts_lists():
    task = make_source("arithmetic/prime_factorization")
    problem = task.sample(0, 0)
    n = problem.data["n"]
    flat = [p for p, k in sympy.factorint(n).items() for _ in range(k)]
    assert task.verify(problem, ", ".join(map(str, flat))).correct
    assert task.verify(problem, " * ".join(map(str, reversed(flat)))).correct
    if len(flat) >= 2:
        merged = [flat[0] * flat[1], *flat[2:]]
        assert not task.verify(problem, " × ".join(map(str, merged))).correct
    assert not task.verify(problem, f"1 × {problem.answer}").correct


def test_linear_diophantine_general_solution_must_cover_every_solution():
    task = make_source("arithmetic/linear_diophantine")
    problem = task.sample(3, 4)
    a, b = problem.data["a"], problem.data["b"]
    x0, y0 = problem.data["solution"]
    g = math.gcd(a, b)
    p, q = b // g, -a // g
    assert task.verify(problem, f"x = {x0 - 3 * p} + {p}*n, y = {y0 - 3 * q} + {q}*n").correct
    assert not task.verify(problem, f"x = {x0} + {2 * p}t, y = {y0} + {2 * q}t").correct  # every other solution
    assert not task.verify(problem, f"x = {x0}, y = {y0}").correct


def test_linear_diophantine_accepts_any_valid_pair():
    task = make_source("arithmetic/linear_diophantine")
    problem = task.sample(1, 2)
    a, b, c = problem.data["a"], problem.data["b"], problem.data["c"]
    x0, y0 = problem.data["solution"]
    g = math.gcd(a, b)
    assert task.verify(problem, f"({x0 + 5 * b // g}, {y0 - 5 * a // g})").correct
    assert not task.verify(problem, f"x = {x0 + 1}, y = {y0}").correct
    assert a * x0 + b * y0 == c


def test_percentages_accept_units_and_reject_rounding():
    task = make_source("arithmetic/percentages")
    problems = [task.sample(level, seed) for level in range(5) for seed in range(30)]
    dollars = next(p for p in problems if p.data["unit"] == "dollars")
    assert task.verify(dollars, f"${dollars.answer}").correct
    assert task.verify(dollars, f"{dollars.answer} dollars").correct
    repeating = next(p for p in problems if (Fraction(p.data["value"]) * 1000).denominator != 1)
    assert not task.verify(repeating, f"{float(Fraction(repeating.data['value'])):.3f}").correct


# --- algebra -------------------------------------------------------------------


def test_polynomial_expansion_needs_expanded_form():
    task = make_source("algebra/polynomial_expansion")
    problem = task.sample(1, 0)
    assert task.verify(problem, problem.data["factors"]).parsed
    assert not task.verify(problem, problem.data["factors"]).correct
    from sympy.parsing.sympy_parser import parse_expr

    expanded = sympy.expand(parse_expr(problem.data["factors"].replace("^", "**"), transformations="all"))
    assert task.verify(problem, str(expanded).replace("**", "^")).correct


def test_polynomial_factorization_is_judged_by_unique_factorisation():
    task = make_source("algebra/polynomial_factorization")
    problem = task.sample(1, 1)
    x = sympy.Symbol("x")
    polynomial = sum(sympy.Rational(c) * x ** m[0] for m, c in problem.data["terms"])
    content, factors = sympy.factor_list(polynomial)
    assert sum(k for _, k in factors) == problem.data["irreducible"]
    written = str(content) + "".join(f"({f})^{k}" for f, k in factors).replace("**", "^")
    assert task.verify(problem, written).correct
    partly = sympy.expand(factors[0][0] * factors[1][0])
    rest = "".join(f"({f})" for f, k in factors[2:] for _ in range(k))
    extra = "".join(f"({f})" for f, k in factors[:2] for _ in range(k - 1))
    incomplete = f"{content}({partly}){extra}{rest}".replace("**", "^")
    assert not task.verify(problem, incomplete).correct


# --- calculus --------------------------------------------------------------------


def test_antiderivative_any_constant_and_absolute_value_spellings():
    task = make_source("calculus/antiderivative")
    problem = task.sample(1, 0)
    f = problem.data["antiderivative"]
    for answer in (f, f"{f} + 12", f"{f} - C", f"F(x) = {f} + K"):
        assert task.verify(problem, answer).correct, answer
    assert not task.verify(problem, problem.data["integrand"]).correct
    assert not task.verify(problem, f"2*({f})").correct


def test_antiderivative_is_checked_by_differentiation_against_sympy():
    task = make_source("calculus/antiderivative")
    x = sympy.Symbol("x", positive=True)
    for level in range(5):
        problem = task.sample(level, 3)
        text = problem.data["antiderivative"]
        integrand = problem.data["integrand"]
        assert task.verify(problem, text).correct
        low = Fraction(problem.data["low"])
        point = float(low) + 0.37
        convert = {"ln": sympy.log, "atan": sympy.atan, "e": sympy.E, "x": x}

        def parse(s: str) -> sympy.Expr:
            s = s.replace("^", "**").replace("|", "")
            s = s.replace("ln", "log")
            return sympy.parse_expr(s, local_dict=convert, transformations="all")

        derivative = sympy.diff(parse(text), x)
        assert abs(float(derivative.subs(x, point)) - float(parse(integrand).subs(x, point))) < 1e-9


def test_derivative_accepts_unsimplified_forms_and_rejects_rounding():
    task = make_source("calculus/derivative")
    problem = task.sample(2, 1)
    spellings = task.spellings(problem)
    assert all(task.verify(problem, s.strip()).correct for s in spellings)
    assert not task.verify(problem, f"({problem.answer})*1.000001").correct
    assert not task.verify(problem, problem.data["function"]).correct


# --- linear algebra ------------------------------------------------------------------


def test_determinant_matches_sympy():
    task = make_source("linalg/determinant")
    for level in range(5):
        problem = task.sample(level, 7)
        assert sympy.Matrix(problem.data["matrix"]).det() == int(problem.answer)


def test_matrix_inverse_accepts_scalar_times_adjugate_and_latex():
    task = make_source("linalg/matrix_inverse")
    problem = task.sample(0, 3)
    matrix = sympy.Matrix(problem.data["matrix"])
    det = matrix.det()
    adjugate = matrix.adjugate().tolist()
    rows = " \\\\ ".join(" & ".join(str(v) for v in row) for row in adjugate)
    assert task.verify(problem, f"\\frac{{1}}{{{det}}}\\begin{{pmatrix}} {rows} \\end{{pmatrix}}").correct
    assert task.verify(problem, "\n".join(" ".join(str(v) for v in row) for row in matrix.inv().tolist())).correct
    assert not task.verify(problem, str(adjugate)).correct or det == 1


# --- probability, combinatorics, statistics -----------------------------------------


def test_exact_probability_of_dice_sums_by_independent_enumeration():
    task = make_source("probability/exact_probability")
    checked = 0
    for seed in range(600):
        problem = task.sample(1, seed)
        text = problem.prompt.split("\n")[0]
        if problem.data["setting"] != "dice" or "sum is exactly" not in text or "faces numbered 1 to" not in text:
            continue
        k = {"two": 2, "three": 3}[text.split()[2]]
        sides = int(text.split("faces numbered 1 to ")[1].split(")")[0])
        target = int(text.split("sum is exactly ")[1].rstrip("?"))
        outcomes = list(itertools.product(range(1, sides + 1), repeat=k))
        expected = Fraction(sum(1 for o in outcomes if sum(o) == target), len(outcomes))
        assert Fraction(problem.answer) == expected
        assert task.verify(problem, f"{expected.numerator * 2}/{expected.denominator * 2}").correct
        checked += 1
    assert checked >= 3


def test_constrained_counting_answers_are_integers_and_near_misses_fail():
    task = make_source("probability/constrained_counting")
    problem = task.sample(2, 5)
    n = problem.data["count"]
    assert task.verify(problem, f"{n} ways").correct
    assert not task.verify(problem, f"{n + 1}").correct
    assert not task.verify(problem, f"{n} or {n + 1}").correct


def test_descriptive_statistics_match_the_statistics_module():
    task = make_source("probability/descriptive_statistics")
    seen = set()
    for seed in range(200):
        problem = task.sample(2, seed)
        kind = problem.data["kind"]
        if kind not in ("population_variance", "sample_variance", "median"):
            continue
        line = problem.prompt.split("\n")[0]
        data = [Fraction(v) for v in line.split(": ", 1)[1].rstrip(".").split(", ")]
        expected = {"population_variance": statistics.pvariance, "sample_variance": statistics.variance,
                    "median": statistics.median}[kind](data)
        assert Fraction(problem.answer) == Fraction(expected)
        seen.add(kind)
    assert len(seen) == 3


def test_standard_deviation_needs_an_exact_root():
    task = make_source("probability/descriptive_statistics")
    problem = next(p for p in (task.sample(3, s) for s in range(100)) if p.data["kind"] == "population_sd"
                   and "sqrt" in p.answer)
    value = sympy.sympify(problem.answer)
    assert task.verify(problem, sympy.latex(value)).correct
    assert not task.verify(problem, f"{float(value):.6f}").correct


# --- geometry ---------------------------------------------------------------------


def test_polygon_area_matches_sympy_polygon():
    task = make_source("geometry/polygon_area")
    for level in range(5):
        problem = task.sample(level, 11)
        points = [(sympy.Rational(x), sympy.Rational(y)) for x, y in problem.data["points"]]
        assert abs(sympy.Polygon(*points).area) == sympy.Rational(problem.answer)


def test_triangle_answers_match_sympy_and_accept_radical_spellings():
    task = make_source("geometry/triangle_solving")
    problem = next(p for p in (task.sample(1, s) for s in range(60)) if p.data["kind"] == "cosine_rule_side")
    text = problem.prompt.split("\n")[0]
    b = int(text.split("AC = ")[1].split(",")[0])
    c = int(text.split("AB = ")[1].split(" ")[0])
    angle = int(text.split("angle A = ")[1].split("°")[0])
    expected = sympy.sqrt(b**2 + c**2 - 2 * b * c * sympy.cos(sympy.rad(angle)))
    assert sympy.simplify(sympy.sympify(problem.answer) - expected) == 0
    assert task.verify(problem, sympy.latex(expected)).correct
    assert not task.verify(problem, f"{float(expected):.5f}").correct


# --- physics and causal ---------------------------------------------------------------


def test_resistor_network_matches_a_floating_point_nodal_solution():
    import numpy as np

    task = make_source("physics/resistor_network")
    for level in (1, 3):
        problem = task.sample(level, 2)
        edges = problem.data["edges"]
        nodes = sorted({n for a, b, _ in edges for n in (a, b)})
        index = {n: i for i, n in enumerate(nodes)}
        laplacian = np.zeros((len(nodes), len(nodes)))
        for a, b, r in edges:
            i, j = index[a], index[b]
            laplacian[i, i] += 1 / r
            laplacian[j, j] += 1 / r
            laplacian[i, j] -= 1 / r
            laplacian[j, i] -= 1 / r
        pseudo = np.linalg.pinv(laplacian)
        e = np.zeros(len(nodes))
        e[index["A"]], e[index["B"]] = 1, -1
        assert abs(e @ pseudo @ e - float(Fraction(problem.answer))) < 1e-9
        assert task.verify(problem, f"{problem.answer} Ω").correct
        assert not task.verify(problem, f"{problem.answer} A").correct


def test_intervention_differs_from_conditioning_and_matches_adjustment():
    import random

    from palaestra.envs.causal._scm_common import probability, random_model

    model = random_model(random.Random(5), ["Z", "X", "Y"], max_parents=2, ternary=0.0,
                         edges={("Z", "X"), ("Z", "Y"), ("X", "Y")})
    adjusted = sum(probability(model, {"Y": 1}, given={"X": 1, "Z": z}) * probability(model, {"Z": z})
                   for z in (0, 1))
    assert probability(model, {"Y": 1}, do={"X": 1}) == adjusted
    task = make_source("causal/intervention")
    problem = next(p for p in (task.sample(1, s) for s in range(20)) if p.data["kind"] == "intervention")
    assert not task.verify(problem, problem.data["observational"]).correct


@pytest.mark.parametrize("env_id", [
    "arithmetic/fractions", "arithmetic/prime_factorization", "arithmetic/percentages",
    "arithmetic/linear_diophantine", "algebra/polynomial_expansion", "algebra/polynomial_factorization",
    "calculus/antiderivative", "calculus/derivative", "linalg/determinant", "linalg/matrix_inverse",
    "probability/exact_probability", "probability/constrained_counting", "probability/descriptive_statistics",
    "geometry/polygon_area", "geometry/triangle_solving", "physics/resistor_network", "causal/intervention",
])
def test_hostile_formula_answers_are_refused_quickly(env_id):
    import time

    task = make_source(env_id)
    problem = task.sample(4, 0)
    for answer in ("x" * 5000 + "(", "sqrt(" * 300 + "2" + ")" * 300, "9^9^9^9", "e^(e^(e^(e^x)))", "1/0",
                   "[[1, 2], [3]]", "\\frac{" * 200, "|x" * 100):
        start = time.process_time()
        verdict = task.verify(problem, answer)
        assert time.process_time() - start < 1.0
        assert not verdict.correct


def test_counterfactual_abduction_on_a_hand_solved_model():
    from palaestra.envs.causal.counterfactual import Node, counterfactual

    half = Fraction(1, 2)
    model = [Node("X", (), "{u}", half), Node("Y", ("X",), "{p0} OR {u}", Fraction(1, 3))]
    # Seen X = 1, Y = 1: U_Y is 1 with its prior 1/3 (Y = 1 whatever U_Y was); had X been 0, Y = U_Y.
    assert counterfactual(model, {"X": 1, "Y": 1}, {"X": 0}, {"Y": 1}) == Fraction(1, 3)
    # Seen X = 0, Y = 1: then U_Y = 1 for sure, so Y stays 1 had X been 1.
    assert counterfactual(model, {"X": 0, "Y": 1}, {"X": 1}, {"Y": 1}) == 1
    task = make_source("causal/counterfactual")
    problem = task.sample(0, 3)
    assert task.verify(problem, f"\\frac{{{Fraction(problem.answer).numerator}}}{{{Fraction(problem.answer).denominator}}}").correct


def test_totient_counts_match_direct_counting():
    task = make_source("arithmetic/totient")
    checked = 0
    for level in (0, 3, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            text = problem.prompt.split("\n")[0]
            n = problem.data["n"]
            if problem.data["size"] > 200_000:
                continue
            checked += 1
            if problem.data["kind"] == "phi":
                expected = sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)
            elif problem.data["kind"] == "coprime_sum":
                expected = sum(k for k in range(1, n + 1) if math.gcd(k, n) == 1)
            else:
                low, high = (int(v) for v in text.split("with ")[1].split(" that")[0].replace("k", "").split("<=")
                             if v.strip())
                expected = sum(k for k in range(low, high + 1) if math.gcd(k, n) == 1)
            assert problem.data["value"] == expected
    assert checked >= 30


def test_base_conversion_reads_markers_and_refuses_foreign_digits():
    from palaestra.envs.arithmetic.base_conversion import read_in_base

    assert read_in_base("0b1011", 2) == read_in_base("1011_2", 2) == read_in_base("(1011)_{2}", 2) == 11
    assert read_in_base("1011₂", 2) == read_in_base("1011 ", 2) == 11
    assert read_in_base("1012", 2) is None and read_in_base("0x1011", 2) is None and read_in_base("1011_10", 2) is None
    assert read_in_base("ff", 16) == read_in_base("0xFF", 16) == 255


def test_inequality_solutions_match_sympy_and_accept_other_notations():
    from palaestra.verifiers.intervals import read_intervals

    task = make_source("algebra/inequalities")
    x = sympy.Symbol("x", real=True)
    for level in range(5):
        for seed in range(4):
            problem = task.sample(level, seed)
            shown = problem.prompt.split("Solve the inequality ")[1].split(" for real x")[0]
            text = shown.replace("≤", "<=").replace("≥", ">=").replace("^", "**")
            if text.startswith("|"):
                inner, rest = text[1:].split("|", 1)
                text = f"Abs({inner}){rest}"
            relation = sympy.parse_expr(text, local_dict={"x": x}, transformations="all")
            expected = sympy.solve_univariate_inequality(relation, x, relational=False)
            written = str(expected).replace("Interval.open", "Interval").replace("oo", "∞")
            got = read_intervals(problem.answer, allow_empty=True)
            assert got is not None, written
            for point in (-7.3, -2.5, -0.7, 0.0, 0.4, 1.1, 2.6, 4.9, 8.3):
                inside = any(piece.contains_point(point) for piece in got)
                assert inside == bool(expected.contains(sympy.Float(point))), (shown, problem.answer, point)
    problem = task.sample(1, 0)
    solution = read_intervals(problem.answer)
    from palaestra.verifiers.intervals import format_inequalities

    assert task.verify(problem, format_inequalities(solution)).correct
    assert task.verify(problem, problem.answer.replace("∞", "\\infty").replace("∪", "\\cup")).correct


def test_definite_integral_values_match_sympy_quadrature():
    from sympy.parsing.sympy_parser import parse_expr

    task = make_source("calculus/definite_integral")
    x = sympy.Symbol("x", real=True)
    names = {"x": x, "e": sympy.E, "pi": sympy.pi, "ln": sympy.log, "atan": sympy.atan, "sqrt": sympy.sqrt}

    def parse(text: str) -> sympy.Expr:
        text = text.replace("^", "**").replace("π", "pi")
        if "|" in text:
            head, inner, tail = text.split("|")
            text = f"{head}Abs({inner}){tail}"
        return parse_expr(text, local_dict=names, transformations="all")

    for level in range(5):
        for seed in range(5):
            problem = task.sample(level, seed)
            low, high = (parse(b) for b in problem.data["bounds"])
            numeric = sympy.Integral(parse(problem.data["integrand"]), (x, low, high)).evalf(30)
            assert abs(numeric - parse(problem.answer).evalf(30)) < 1e-20, problem.prompt
            if not parse(problem.answer).is_rational:
                assert not task.verify(problem, f"{float(numeric):.10f}").correct


def test_expected_waiting_times_match_truncated_sums():
    import random

    from palaestra.envs.probability import expected_value as ev

    rng = random.Random(3)
    for _ in range(5):
        text, value, _ = ev._two_in_a_row(rng)
        p = Fraction(text.split("probability ")[1].split(".")[0])
        price = int(text.split("costs $")[1].split(",")[0].split(".")[0])
        fee = int(text.split("fee of $")[1].split(".")[0]) if "fee of $" in text else 0
        # E[tosses] = sum of P(T > n): the chance of no two heads in a row within n tosses, by forward DP
        q, tail, none, one = float(p), 0.0, 1.0, 0.0  # probability mass: last toss not heads / one head
        for _ in range(20_000):
            tail += none + one
            none, one = (none + one) * (1 - q), none * q
        assert abs(float(value) - (price * tail + fee)) < 1e-6 * max(1.0, float(value))
    # the expected maximum of three dice against direct enumeration
    text, value, _ = ev._max_three(random.Random(9))
    a, b, c = (int(s) for s in text.split("with ")[1].split(" faces")[0].replace(" and", ",").split(", "))
    outcomes = list(itertools.product(range(1, a + 1), range(1, b + 1), range(1, c + 1)))
    assert value == Fraction(sum(max(o) for o in outcomes), len(outcomes))
    # expected number of distinct faces in k rolls against enumeration
    sides, k = 6, 3
    rolls = list(itertools.product(range(sides), repeat=k))
    assert Fraction(sum(len(set(r)) for r in rolls), len(rolls)) == sides * (1 - Fraction(sides - 1, sides) ** k)


def test_limits_match_sympy():
    from sympy.parsing.sympy_parser import parse_expr

    task = make_source("calculus/limits")
    x = sympy.Symbol("x", real=True)
    names = {"x": x, "e": sympy.E, "ln": sympy.log, "sqrt": sympy.sqrt}
    for level in range(5):
        for seed in range(3):
            problem = task.sample(level, seed)
            body, point = problem.data["limit"].split(" as x → ")
            direction = "+-"
            if point.endswith(" from above"):
                point, direction = point.removesuffix(" from above"), "+"
            elif point.endswith(" from below"):
                point, direction = point.removesuffix(" from below"), "-"
            if "|" in body:
                head, inner, tail = body.split("|")
                body = f"{head}{'*' if head else ''}Abs({inner}){tail}"  # x|...| or (x - e)|...|
            expression = parse_expr(body.replace("^", "**"), local_dict=names, transformations="all")
            target = {"∞": sympy.oo, "-∞": -sympy.oo}.get(point, sympy.Integer(point) if point.lstrip("-").isdigit()
                                                         else None)
            if direction == "+-":
                expected = sympy.limit(expression, x, target)
                if target not in (sympy.oo, -sympy.oo) and expected != sympy.limit(expression, x, target, "-"):
                    assert problem.answer == "does not exist"
                    continue
            else:
                expected = sympy.limit(expression, x, target, direction)
            if expected in (sympy.oo, -sympy.oo):
                assert problem.answer == ("∞" if expected == sympy.oo else "-∞")
            else:
                assert abs(complex(sympy.N(expected, 30)) - complex(sympy.N(parse_expr(problem.answer.replace(
                    "^", "**"), local_dict=names), 30))) < 1e-20, problem.prompt


def test_ode_solutions_satisfy_the_equation_by_sympy():
    from sympy.parsing.sympy_parser import parse_expr

    task = make_source("calculus/ode")
    x, y = sympy.symbols("x y")
    names = {"x": x, "y": y, "e": sympy.E, "pi": sympy.pi, "tan": sympy.tan, "sqrt": sympy.sqrt}
    for level in range(5):
        for seed in range(4):
            problem = task.sample(level, seed)
            solution = parse_expr(problem.data["solution"].replace("^", "**"), local_dict=names, transformations="all")
            rhs = parse_expr(problem.data["rhs"].replace("^", "**"), local_dict=names, transformations="all")
            residual = sympy.diff(solution, x) - rhs.subs(y, solution)
            middle = (Fraction(problem.data["low"]) + Fraction(problem.data["high"])) / 2 + Fraction(1, 97)
            point = sympy.Rational(middle.numerator, middle.denominator)
            assert abs(complex(residual.subs(x, point).evalf(40))) < 1e-25
            assert sympy.simplify(solution.subs(x, sympy.Rational(problem.data["x0"])) -
                                  sympy.Rational(problem.data["y0"])) == 0
            assert not task.verify(problem, f"{problem.data['solution']} + 1").correct


def test_markov_absorption_matches_iterating_the_chain():
    import random

    from palaestra.envs.probability.markov_absorption import _random_chain, absorption, expected_steps, expected_visits

    rng = random.Random(4)
    checked = 0
    for _ in range(500):
        drawn = _random_chain(rng, 4, 2)
        if drawn is None:
            continue
        if checked == 5:
            break
        chain, ends = drawn
        mass = {s: 1.0 if s == "S1" else 0.0 for s in chain}
        absorbed = {e: 0.0 for e in ends}
        steps = visits = 0.0
        for _ in range(3_000):  # iterate the distribution; what is still transient shrinks geometrically
            steps += sum(mass.values())
            visits += mass["S2"]
            moved = {s: 0.0 for s in chain}
            for s, weight in mass.items():
                for t, p in chain[s]:
                    if t in chain:
                        moved[t] += weight * float(p)
                    else:
                        absorbed[t] += weight * float(p)
            mass = moved
        assert abs(absorbed[ends[0]] - float(absorption(chain, ends[0])["S1"])) < 1e-9
        assert abs(steps - float(expected_steps(chain)["S1"])) < 1e-9
        assert abs(visits - float(expected_visits(chain, "S1", "S2"))) < 1e-9
        checked += 1
    assert checked == 5


def test_truss_triangle_matches_the_closed_form():
    from palaestra.envs.physics.truss import Truss, solve_truss

    a, b, h, load = Fraction(5), Fraction(14), Fraction(12), Fraction(39)
    truss = Truss({"A": (Fraction(0), Fraction(0)), "B": (b, Fraction(0)), "C": (a, h)},
                  [("A", "B"), ("A", "C"), ("B", "C")], {"C": (Fraction(0), -load)}, "A", "B")
    forces = solve_truss(truss)
    length_ac = Fraction(13)  # 5-12-13
    assert forces[("A", "C")] == -load * length_ac * (b - a) / (h * b)
    assert forces[("A", "B")] > 0  # the tie is in tension
    task = make_source("physics/truss")
    problem = task.sample(2, 0)
    value = Fraction(problem.answer)
    word = "tension" if value > 0 else "compression"
    assert task.verify(problem, f"{abs(value)} kN {word}").correct
    assert not task.verify(problem, f"{abs(value)} kN {'compression' if value > 0 else 'tension'}").correct


def test_taylor_coefficients_match_sympy_series():
    from sympy.parsing.sympy_parser import parse_expr

    task = make_source("calculus/taylor_coefficients")
    x = sympy.Symbol("x")
    names = {"x": x, "e": sympy.E, "ln": sympy.log}
    for level in range(5):
        for seed in range(3):
            problem = task.sample(level, seed)
            f = parse_expr(problem.data["function"].replace("^", "**"), local_dict=names, transformations="all")
            power = problem.data["power"]
            series = sympy.series(f, x, 0, power + 1).removeO()
            if "value" in problem.data:
                assert sympy.Rational(problem.answer) == series.coeff(x, power), problem.prompt
            else:
                assert sympy.expand(series - parse_expr(problem.answer.replace("^", "**"), local_dict=names,
                                                        transformations="all")) == 0


def test_continued_fractions_and_pell():
    from palaestra.envs.arithmetic.continued_fractions import expand, pell, read_terms, sqrt_expansion

    assert expand(Fraction(415, 93)) == [4, 2, 6, 7]
    assert expand(Fraction(-7, 3)) == [-3, 1, 2]
    assert sqrt_expansion(23) == (4, [1, 3, 1, 8])
    assert pell(61) == (1766319049, 226153980)
    assert read_terms(r"[4; \overline{1, 3, 1, 8}]") == read_terms("[4; (1, 3, 1, 8)]") == ([4], [1, 3, 1, 8])
    assert read_terms("[4; 1, 3, 1, 8, ...]") is None
    task = make_source("arithmetic/continued_fractions")
    problem = task.sample(4, 3)
    x, y, n = problem.data["x"], problem.data["y"], problem.data["n"]
    assert x * x - n * y * y == 1
    assert not task.verify(problem, f"x = {x * x + n * y * y}, y = {2 * x * y}").correct  # valid, not smallest


def test_eigenvalues_match_sympy():
    task = make_source("linalg/eigenvalues")
    for level in range(5):
        problem = task.sample(level, 5)
        eigen = sympy.Matrix(problem.data["matrix"]).eigenvals()
        listed = sorted(int(v) for v, k in eigen.items() for _ in range(k))
        assert listed == problem.data["values"]


def test_null_space_accepts_sympy_basis_and_rejects_dependent_vectors():
    task = make_source("linalg/null_space")
    problem = task.sample(3, 2)
    basis = sympy.Matrix(problem.data["matrix"]).nullspace()
    written = ", ".join("(" + ", ".join(str(v) for v in vector) + ")" for vector in basis)
    assert task.verify(problem, written).correct
    doubled = ", ".join("(" + ", ".join(str(2 * v) for v in basis[0]) + ")" for _ in basis)
    assert not task.verify(problem, doubled).correct


def test_significant_figures_require_the_written_precision():
    from palaestra.envs.arithmetic.significant_figures import read_written, round_figures

    assert round_figures(Fraction("2.4996"), 3) == Fraction("2.50")
    assert read_written("2.50").figures() == (3, 3) and read_written("2.5").figures() == (2, 2)
    assert read_written("3500").figures() == (2, 4)
    assert read_written("4.57 × 10^-3").value == Fraction("0.00457")
    assert read_written("4.57e-3").exponent == -3


def test_bayes_urns_match_enumeration():
    task = make_source("probability/bayes")
    for seed in range(10):
        problem = task.sample(1, seed)
        text = problem.prompt.split("\n")[0]
        weights = [Fraction(w) for w in re.findall(r"probability (\d+/\d+|\d+) and holds", text)]
        contents = [(int(r), int(b)) for r, b in re.findall(r"holds (\d+) red and (\d+) blue", text)]
        colour = text.split("picked urn is ")[1].split(".")[0]
        which = int(text.split("probability that urn ")[1].split(" ")[0]) - 1
        # every (urn, ball) outcome weighted by P(urn) / (balls in urn)
        joint = [(i, c) for i, (r, b) in enumerate(contents) for c in ["red"] * r + ["blue"] * b]
        weight = {i: weights[i] / sum(contents[i]) for i in range(len(contents))}
        seen = sum(weight[i] for i, c in joint if c == colour)
        assert Fraction(problem.answer) == sum(weight[i] for i, c in joint if c == colour and i == which) / seen


def test_rational_simplification_matches_sympy_cancel():
    from sympy.parsing.sympy_parser import parse_expr

    task = make_source("algebra/rational_simplification")
    x = sympy.Symbol("x")
    for level in range(5):
        problem = task.sample(level, 4)
        shown = problem.data["shown"].replace("^", "**").replace("[", "(").replace("]", ")").replace("÷", "/")
        original = parse_expr(shown, local_dict={"x": x}, transformations="all")
        answer = parse_expr(problem.answer.replace("^", "**"), local_dict={"x": x}, transformations="all")
        assert sympy.cancel(original - answer) == 0
        numerator, denominator = sympy.fraction(sympy.cancel(original))
        assert sympy.degree(denominator, x) == len(problem.data["bottom"]) - 1


def test_function_inverse_composes_to_identity_in_sympy():
    from sympy.parsing.sympy_parser import parse_expr

    task = make_source("algebra/function_inverse")
    x = sympy.Symbol("x", positive=True)
    names = {"x": x, "e": sympy.E, "ln": sympy.log, "sqrt": sympy.sqrt}
    for level in (2, 3):
        for seed in range(4):
            problem = task.sample(level, seed)
            f = parse_expr(problem.data["f"].replace("^", "**"), local_dict=names, transformations="all")
            g = parse_expr(problem.answer.replace("^", "**"), local_dict=names, transformations="all")
            assert sympy.simplify(f.subs(x, g) - x) == 0


def test_underdetermined_general_solution_from_sympy():
    task = make_source("linalg/underdetermined_system")
    problem = next(p for p in (task.sample(3, s) for s in range(20)) if p.data["consistent"])
    matrix, rhs = sympy.Matrix(problem.data["matrix"]), sympy.Matrix(problem.data["rhs"])
    solution, parameters = matrix.gauss_jordan_solve(rhs)
    names = ["s", "t", "u"]
    written = solution.subs({p: sympy.Symbol(n) for p, n in zip(parameters, names)})
    assert task.verify(problem, "(" + ", ".join(str(v) for v in written) + ")").correct


def test_regression_slope_matches_numpy():
    import numpy as np

    task = make_source("probability/regression")
    problem = task.sample(0, 6)
    points = [tuple(int(v) for v in line.strip().strip("()").split(", ")) for line in problem.prompt.split("\n")[1:]
              if line.strip().startswith("(")]
    xs, ys = zip(*points)
    slope = np.polyfit(xs, ys, 1)[0]
    assert abs(float(Fraction(problem.answer)) - slope) < 1e-9


def test_regression_generates_at_far_levels() -> None:
    # r needs n*Sxx * n*Syy within the surd arithmetic's 10**9: at level 40 (80 points up to 390) no draw
    # qualified and 1,000 attempts failed at 3 seeds in 8; the data's size is capped at level 14
    task = make_source("probability/regression")
    for level in (20, 40):
        for seed in range(300_000, 300_030):
            problem = task.sample(level, seed)
            assert task.verify(problem, problem.answer).correct, (level, seed)


@pytest.mark.parametrize("module", [
    "palaestra.verifiers.formulas", "palaestra.verifiers.polynomials", "palaestra.verifiers.rationals",
    "palaestra.verifiers.radicals", "palaestra.verifiers.intervals", "palaestra.verifiers.matrices",
    "palaestra.envs.calculus.common", "palaestra.envs.linalg.common", "palaestra.envs.probability.common",
    "palaestra.envs.causal._scm_common",
])
def test_shared_module_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_solids_formulas_match_sympy_integrals():
    r, h, x = sympy.symbols("r h x", positive=True)
    cone = sympy.integrate(sympy.pi * (r * (1 - x / h)) ** 2, (x, 0, h))
    assert sympy.simplify(cone - sympy.pi * r**2 * h / 3) == 0
    cap = sympy.integrate(sympy.pi * (r**2 - x**2), (x, r - h, r))
    assert sympy.simplify(cap - sympy.pi * h**2 * (3 * r - h) / 3) == 0
    task = make_source("geometry/solids")
    problem = next(p for p in (task.sample(4, s) for s in range(60)) if "cap of height" in p.prompt)
    radius = int(problem.prompt.split("radius ")[1].split(" ")[0])
    height = int(problem.prompt.split("height ")[1].split(" ")[0])
    expected = sympy.pi * height**2 * (3 * radius - height) / 3
    assert task.verify(problem, sympy.latex(expected)).correct
    assert not task.verify(problem, f"{float(expected):.6f}").correct


# --- red-team regressions (issue #10 envs) ---------------------------------------


def _first(env_id: str, level: int, accept, seeds: int = 200):
    task = make_source(env_id)
    return task, next(p for p in (task.sample(level, s) for s in range(seeds)) if accept(p))


def test_function_inverse_rejects_a_complex_branch_of_the_logarithm():
    # f(g(x)) = x also holds for ln(...) + 2*pi*i/b: the check must insist on a real inverse
    task, problem = _first("algebra/function_inverse", 4, lambda p: "e^(" in p.data["f"] and "ln(" in p.answer)
    assert task.verify(problem, problem.answer).correct
    assert not task.verify(problem, f"{problem.answer} + 2*pi*sqrt(-1)").correct


def test_function_inverse_judges_the_name_left_of_the_equals_sign():
    task, composition = _first("algebra/function_inverse", 1, lambda p: True)
    answer = composition.answer
    for name in ("f(g(x))", r"(f \circ g)(x)", "(f∘g)(x)", "h(x)", "y"):
        assert task.verify(composition, f"{name} = {answer}").correct, name
    for name in ("g(f(x))", "f(x)", "g(x)", "x"):
        assert not task.verify(composition, f"{name} = {answer}").correct, name
    task, inverse = _first("algebra/function_inverse", 2, lambda p: True)
    for name in ("f^{-1}(x)", "f^(-1)(x)", "f⁻¹(x)", "y", "g(x)"):
        assert task.verify(inverse, f"{name} = {inverse.answer}").correct, name
    for name in ("f(x)", "f'(x)", "x"):
        assert not task.verify(inverse, f"{name} = {inverse.answer}").correct, name
    task, value = _first("algebra/function_inverse", 0, lambda p: True)
    at = int(value.data["at"])
    assert task.verify(value, f"f(g({at})) = {value.answer}").correct
    assert not task.verify(value, f"f(g({at + 1})) = {value.answer}").correct
    assert not task.verify(value, f"g(f({at})) = {value.answer}").correct


def test_function_inverse_composition_is_checked_on_both_sides_of_the_poles():
    task, problem = _first("algebra/function_inverse", 1, lambda p: True)
    assert not task.verify(problem, f"{problem.answer} + abs(x - 7) - (x - 7)").correct
    assert not task.verify(problem, f"{problem.answer} + abs(x + 7) - (x + 7)").correct


def test_significant_figures_accept_an_approximately_sign_but_not_extra_digits():
    task = make_source("arithmetic/significant_figures")
    problem = task.sample(0, 0)
    assert task.verify(problem, f"≈ {problem.answer}").correct
    assert task.verify(problem, f"about {problem.answer}").correct
    assert not task.verify(problem, f"≈ {problem.answer}0").correct
    assert not task.verify(problem, f"{problem.answer} or {problem.answer}0").correct
    whole = next(p for p in (task.sample(0, s) for s in range(40)) if p.answer.endswith("0") and "." not in p.answer)
    assert task.verify(whole, f"The answer is {whole.answer}.").correct  # a full stop, not a decimal point


def test_taylor_polynomial_accepts_a_true_order_term_only():
    task, problem = _first("calculus/taylor_coefficients", 4, lambda p: True)
    n, beyond = problem.data["power"], [Fraction(c) for c in problem.data["beyond"]]
    assert task.verify(problem, f"f(x) ≈ {problem.answer} + O(x^{n + 1})").correct
    assert task.verify(problem, f"{problem.answer} + O(x^{{{n + 1}}})").correct
    # O(x^(n+2)) is right exactly when the x^(n+1) coefficient vanishes
    assert task.verify(problem, f"{problem.answer} + O(x^{n + 2})").correct == (beyond[0] == 0)
    assert not task.verify(problem, f"{problem.answer} + O(x^{n})").correct
    assert not task.verify(problem, f"{problem.answer} + O(x^99)").correct


def test_taylor_coefficient_reads_exact_decimals_only():
    task, problem = _first("calculus/taylor_coefficients", 0, lambda p: Fraction(p.answer).denominator in (2, 4, 8))
    value = Fraction(problem.answer)
    assert "terminating decimal" in problem.prompt
    assert task.verify(problem, str(float(value))).correct
    assert not task.verify(problem, f"{float(value) + 1e-9:.10f}").correct


def test_solids_unit_must_fit_the_quantity():
    task = make_source("geometry/solids")
    volume = next(p for p in (task.sample(1, s) for s in range(80)) if "volume?" in p.prompt)
    length = next(p for p in (task.sample(0, s) for s in range(80)) if "diagonal" in p.prompt)
    assert task.verify(volume, f"{volume.answer} cm^3").correct
    assert task.verify(volume, f"{volume.answer} cubic centimetres").correct
    assert not task.verify(volume, f"{volume.answer} cm^2").correct
    assert not task.verify(volume, f"{volume.answer} m^3").correct
    assert task.verify(length, f"{length.answer} cm").correct
    assert not task.verify(length, f"{length.answer} cm^3").correct
    assert task.verify(volume, volume.answer.replace("*pi", "\\pi") + r" \text{ cm}^3").correct
    assert not task.verify(volume, volume.answer.replace("*pi", "\\pi") + r" \text{ cm}^2").correct


def test_underdetermined_accepts_the_vector_form_of_the_general_solution():
    task, problem = _first("linalg/underdetermined_system", 2, lambda p: p.data["consistent"])
    names = "xyzw"
    matrix = problem.data["matrix"]
    form = task.spellings(problem)
    vector_sum = next(s for s in form if ") + " in s and s.startswith("("))
    assert task.verify(problem, vector_sum).correct
    assert task.verify(problem, f"({', '.join(names)}) = {vector_sum.replace(' + s(', ' + s*(')}").correct
    assert task.verify(problem, rf"\left({problem.answer[1:-1]}\right)").correct
    # dropping a direction leaves part of the solution set out; a direction off the null space adds non-solutions
    first_direction_end = vector_sum.index(")", vector_sum.index(" + ") + 3) + 1
    assert not task.verify(problem, vector_sum[:first_direction_end]).correct
    assert all(len({tuple(r) for r in task.sample(2, s).data["matrix"]}) == len(matrix) for s in range(30))


def test_truss_force_labels_and_sense_words():
    task, problem = _first("physics/truss", 1, lambda p: Fraction(p.answer) < 0)
    a, b = problem.data["member"]
    magnitude = format(-Fraction(problem.answer))
    assert task.verify(problem, f"F_{{{a}{b}}} = {problem.answer} kN").correct
    assert task.verify(problem, f"F_{{{b}{a}}} = {problem.answer} kN").correct
    assert not task.verify(problem, f"F_{{XY}} = {problem.answer} kN").correct  # another member's force
    assert task.verify(problem, f"{magnitude} kN in compression").correct
    assert task.verify(problem, f"{problem.answer} kN (compression)").correct  # sign and word agree
    assert not task.verify(problem, f"{problem.answer} kN (tension)").correct
    assert task.verify(problem, f"{problem.answer} kN. The member is in compression.").correct
    assert not task.verify(problem, f"{problem.answer} kN. The member is in tension.").correct


def test_bayes_accepts_an_exact_percentage_only():
    task, problem = _first("probability/bayes", 1, lambda p: (Fraction(p.answer) * 1000).denominator == 1)
    value = Fraction(problem.answer) * 100
    assert task.verify(problem, f"{float(value):g}%").correct
    assert not task.verify(problem, f"{float(value) + 0.1:g}%").correct
    _, repeating = _first("probability/bayes", 1, lambda p: Fraction(p.answer).denominator % 3 == 0)
    assert not task.verify(repeating, f"{float(Fraction(repeating.answer) * 100):.2f}%").correct


def test_markov_absorption_never_asks_for_a_guessable_zero_or_one():
    task = make_source("probability/markov_absorption")
    for level in range(1, 5):
        values = {Fraction(task.sample(level, seed).answer) for seed in range(60)}
        assert not values & {Fraction(0), Fraction(1)}, level
    problem = task.sample(2, 0)
    assert task.verify(problem, problem.answer).correct
    assert not task.verify(problem, f"{float(Fraction(problem.answer)):.6f}").correct or \
        (Fraction(problem.answer) * 10**6).denominator == 1


def test_function_inverse_of_a_fractional_linear_map_is_checked_on_both_sides_of_its_pole():
    task, problem = _first("algebra/function_inverse", 3, lambda p: True)
    edge = problem.data["low"]
    assert task.verify(problem, problem.answer).correct
    assert not task.verify(problem, f"{problem.answer} + abs(x - {edge}) - (x - {edge})").correct


def test_underdetermined_accepts_a_remark_on_the_parameters_but_keeps_the_last_entry():
    task, problem = _first("linalg/underdetermined_system", 2,
                           lambda p: p.data["consistent"] and p.answer.endswith("t)"))
    for remark in (", s, t ∈ ℝ", r", s, t \in \mathbb{R}", " where s and t are real numbers", " for all real s, t",
                   " (s, t free)"):
        assert task.verify(problem, problem.answer + remark).correct, remark
    # the last entry ", t)" is not a remark: cutting it would leave a vector one entry short
    assert task.verify(problem, problem.answer).correct
    assert not task.verify(problem, problem.answer + ", s, t ∈ ℕ").correct


def test_fractions_generates_at_seeds_whose_first_thousand_draws_failed() -> None:
    # At the capped sizes 1,000 draws failed at ~0.3% of seeds (level 13 seed 233, level 15 seed 1020).
    task = make_source("arithmetic/fractions")
    for level, seed in ((15, 1020), (13, 233)):
        problem = task.sample(level, seed)
        assert task.verify(problem, problem.answer or "").correct


def test_number_theory_and_polynomial_factorization_generate_at_far_levels() -> None:
    # number_theory drew more gcd/lcm operands than its cofactor range held past level 25 (rng.sample raised), and
    # v3's lcm of 40 operands ran past the reader's 200 digits (its reference refused at 12 seeds in 200 at 40);
    # polynomial_factorization v2 needed ~200 draws for distinct factors at its cap and failed 2 seeds in 60 at 20.
    for env_id in ("arithmetic/number_theory", "algebra/polynomial_factorization"):
        task = make_source(env_id)
        for level in (20, 30, 40):
            for seed in range(40):
                problem = task.sample(level, seed)
                assert task.verify(problem, problem.answer or "").correct
