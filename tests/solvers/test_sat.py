"""The CNF builder, the budgeted solver and solution counting, checked against known counts."""

from __future__ import annotations

import itertools
import math

import pytest

from palaestra.solvers.sat import CNF, Budget, BudgetExhausted, SatSolver, count_solutions, solve


def queens_cnf(n: int) -> tuple[CNF, dict[tuple[int, int], int]]:
    cnf = CNF()
    q = {(r, c): cnf.var(("q", r, c)) for r in range(n) for c in range(n)}
    for i in range(n):
        cnf.exactly_one([q[i, c] for c in range(n)])
        cnf.exactly_one([q[r, i] for r in range(n)])
    for d in range(-(n - 1), n):
        cnf.at_most([q[r, c] for (r, c) in q if r - c == d], 1)
        cnf.at_most([q[r, c] for (r, c) in q if r + c == d + n - 1], 1)
    return cnf, q


@pytest.mark.parametrize(("n", "solutions"), [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (8, 92)])
def test_n_queens_counts_are_the_known_ones(n, solutions):
    cnf, _ = queens_cnf(n)
    assert count_solutions(cnf, limit=1_000) == solutions


def test_count_stops_at_the_limit_and_models_are_solutions():
    cnf, q = queens_cnf(8)
    assert count_solutions(cnf) == 2  # default limit: enough to tell unique from not
    model = solve(cnf)
    placed = [key[1:] for key, value in model.items() if value]
    assert len(placed) == 8
    assert len({r for r, _ in placed}) == len({c for _, c in placed}) == 8
    assert len({r - c for r, c in placed}) == len({r + c for r, c in placed}) == 8


def sudoku_cnf() -> tuple[CNF, dict[tuple[int, int, int], int]]:
    cnf = CNF()
    x = {(r, c, d): cnf.var((r, c, d)) for r in range(9) for c in range(9) for d in range(1, 10)}
    for r, c in itertools.product(range(9), repeat=2):
        cnf.exactly_one([x[r, c, d] for d in range(1, 10)])
    for d in range(1, 10):
        for i in range(9):
            cnf.exactly_one([x[i, c, d] for c in range(9)])
            cnf.exactly_one([x[r, i, d] for r in range(9)])
        for top, left in itertools.product((0, 3, 6), repeat=2):
            cnf.exactly_one([x[top + r, left + c, d] for r in range(3) for c in range(3)])
    return cnf, x


def grid_with_rectangle() -> dict[tuple[int, int], int]:
    """A valid 9x9 grid whose cells (0,0) (0,3) (1,0) (1,3) hold 1 2 / 2 1: rows of one band, columns
    of two stacks, so swapping those two digits there gives a second valid grid."""
    cnf, x = sudoku_cnf()
    model = solve(cnf, assume=[x[0, 0, 1], x[0, 3, 2], x[1, 0, 2], x[1, 3, 1]])
    grid = {(r, c): d for (r, c, d), var in x.items() if model[(r, c, d)]}
    rows = [[grid[r, c] for c in range(9)] for r in range(9)]
    units = rows + [list(col) for col in zip(*rows)]
    units += [[rows[t + r][s + c] for r in range(3) for c in range(3)] for t in (0, 3, 6) for s in (0, 3, 6)]
    assert all(sorted(unit) == list(range(1, 10)) for unit in units)  # checked without the solver
    return grid


def test_removing_one_more_given_from_a_unique_sudoku_makes_it_ambiguous():
    cnf, x = sudoku_cnf()
    givens = grid_with_rectangle()
    rectangle = [(0, 0), (0, 3), (1, 0), (1, 3)]
    for cell in rectangle[:3]:
        del givens[cell]
    assume = [x[r, c, d] for (r, c), d in givens.items()]
    assert count_solutions(cnf, assume=assume) == 1  # the fourth corner pins the other three
    del givens[rectangle[3]]
    assume = [x[r, c, d] for (r, c), d in givens.items()]
    assert count_solutions(cnf, assume=assume, limit=10) == 2


def test_projection_counts_distinct_values_of_the_projected_variables_only():
    cnf = CNF()
    a, b, c = cnf.var("a"), cnf.var("b"), cnf.var("c")
    cnf.add([a, b, c])
    assert count_solutions(cnf, limit=100) == 7
    assert count_solutions(cnf, limit=100, project=["a"]) == 2
    assert count_solutions(cnf, limit=100, project=["a", "b"]) == 4
    assert count_solutions(cnf, limit=100, project=[]) == 1


@pytest.mark.parametrize("n", [1, 3, 5, 8])
@pytest.mark.parametrize("k", [-1, 0, 1, 2, 3, 6, 9])
def test_cardinality_constraints_have_binomial_model_counts(n, k):
    def models(constrain) -> int:
        cnf = CNF()
        lits = [cnf.var(i) for i in range(n)]
        constrain(cnf, lits)
        return count_solutions(cnf, limit=1_000, project=list(range(n)))

    in_range = range(max(k, 0), n + 1)
    assert models(lambda cnf, lits: cnf.at_most(lits, k)) == sum(math.comb(n, j) for j in range(0, min(k, n) + 1))
    assert models(lambda cnf, lits: cnf.at_least(lits, k)) == sum(math.comb(n, j) for j in in_range)
    assert models(lambda cnf, lits: cnf.exactly(lits, k)) == (math.comb(n, k) if 0 <= k <= n else 0)


GATES = {
    "and_of": (lambda cnf, xs: cnf.and_of(xs), lambda vs: all(vs)),
    "or_of": (lambda cnf, xs: cnf.or_of(xs), lambda vs: any(vs)),
    "xor_of": (lambda cnf, xs: cnf.xor_of(xs[0], xs[1]), lambda vs: vs[0] != vs[1]),
    "iff_of": (lambda cnf, xs: cnf.iff_of(xs[0], -xs[2]), lambda vs: vs[0] == (not vs[2])),
    "at_least_of 2": (lambda cnf, xs: cnf.at_least_of(xs, 2), lambda vs: sum(vs) >= 2),
    "at_least_of 0": (lambda cnf, xs: cnf.at_least_of(xs, 0), lambda vs: True),
    "at_least_of 5": (lambda cnf, xs: cnf.at_least_of(xs, 5), lambda vs: False),
    "exactly_of 1": (lambda cnf, xs: cnf.exactly_of(xs, 1), lambda vs: sum(vs) == 1),
    "exactly_of 3": (lambda cnf, xs: cnf.exactly_of([-x for x in xs], 3), lambda vs: sum(vs) == 1),
    "exactly_of 4": (lambda cnf, xs: cnf.exactly_of(xs, 4), lambda vs: all(vs)),
}


@pytest.mark.parametrize("gate", sorted(GATES))
def test_reified_gates_are_equivalent_to_their_condition(gate):
    build, truth = GATES[gate]
    cnf = CNF()
    xs = [cnf.var(i) for i in range(4)]
    out = cnf.var("out")
    cnf.equivalent(out, build(cnf, xs))
    with SatSolver(cnf) as solver:
        for values in itertools.product((False, True), repeat=4):
            model = solver.model([x if v else -x for x, v in zip(xs, values)])
            assert model is not None and model["out"] == truth(values), values
    assert count_solutions(cnf, limit=100, project=[0, 1, 2, 3, "out"]) == 16  # out is a function of xs


def test_gates_over_the_same_literals_share_one_counter():
    cnf = CNF()
    xs = [cnf.var(i) for i in range(6)]
    cnf.at_least_of(xs, 2)
    clauses = len(cnf.clauses)
    cnf.at_least_of(xs, 4)
    assert len(cnf.clauses) == clauses


def test_implications_and_unsatisfiable_formulas():
    cnf = CNF()
    rain, wet, cold = cnf.var("rain"), cnf.var("wet"), cnf.var("cold")
    cnf.implies(rain, wet)
    cnf.implies([wet, cold], -rain)
    assert solve(cnf, assume=[rain, cold]) is None
    assert solve(cnf, assume=[rain])["wet"] is True
    empty = CNF()
    empty.var("x")
    empty.add([])
    assert solve(empty) is None and count_solutions(empty) == 0


def test_an_incremental_solver_answers_many_questions_and_stays_clean_after_counting():
    cnf, q = queens_cnf(6)
    with SatSolver(cnf) as solver:
        assert solver.count(limit=100) == 4
        assert solver.count(limit=100) == 4  # the blocking clauses of the first count were retired
        assert solver.satisfiable([q[0, 1]]) and not solver.satisfiable([q[0, 0]])
        assert solver.count(limit=100, assume=[q[0, 1]]) == 1
        model = solver.model([q[0, 1]])
        assert model[("q", 0, 1)] and not model[("q", 0, 0)]
        solver.add([-q[0, 1]])
        assert solver.count(limit=100) == 3
        with pytest.raises(ValueError):
            solver.add([cnf.top + 5])
        assert solver.stats()["decisions"] > 0


def pigeonhole(holes: int) -> CNF:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable, and hard for resolution."""
    cnf = CNF()
    sits = {(p, h): cnf.var((p, h)) for p in range(holes + 1) for h in range(holes)}
    for p in range(holes + 1):
        cnf.add([sits[p, h] for h in range(holes)])
    for h in range(holes):
        cnf.at_most([sits[p, h] for p in range(holes + 1)], 1, encoding=1)  # 1: pairwise
    return cnf


def test_budget_reports_unknown_instead_of_hanging():
    hard = pigeonhole(11)
    with pytest.raises(BudgetExhausted) as caught:
        count_solutions(hard, budget=Budget(conflicts=500, chunk=100))
    assert "conflict budget of 500" in str(caught.value) and caught.value.found == 0
    with pytest.raises(BudgetExhausted) as caught:
        solve(hard, budget=Budget(conflicts=10**9, seconds=0.2, chunk=200))
    assert "time budget" in caught.value.reason
    assert count_solutions(pigeonhole(4), budget=Budget(conflicts=10_000)) == 0  # easy enough to prove


def test_conflict_budget_outcomes_are_deterministic():
    hard = pigeonhole(9)
    spent = []
    for _ in range(2):
        with SatSolver(hard, Budget(conflicts=300, chunk=64)) as solver:
            with pytest.raises(BudgetExhausted):
                solver.satisfiable()
            spent.append(solver.stats())
    assert spent[0] == spent[1]
