"""Exact Gauss-Jordan elimination (palaestra.solvers.linalg): checked against identities and sympy."""

from __future__ import annotations

import doctest
import random
from fractions import Fraction

import pytest

from palaestra.solvers import linalg
from palaestra.solvers.linalg import determinant, inverse, nullspace, rank, rref, solve


def _random_matrix(rng: random.Random, rows: int, columns: int, zeros: float = 0.3) -> list[list[int]]:
    return [[0 if rng.random() < zeros else rng.randint(-6, 6) for _ in range(columns)] for _ in range(rows)]


def _times(matrix: list[list[Fraction]] | list[list[int]], vector: list[Fraction]) -> list[Fraction]:
    return [sum((Fraction(a) * x for a, x in zip(row, vector)), Fraction(0)) for row in matrix]


def test_doctests_pass() -> None:
    result = doctest.testmod(linalg)
    assert result.attempted >= 10 and result.failed == 0


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_sympy(seed: int) -> None:
    sympy = pytest.importorskip("sympy")
    rng = random.Random(seed)
    rows, columns = rng.randint(1, 5), rng.randint(1, 5)
    matrix = _random_matrix(rng, rows, columns)
    reference = sympy.Matrix(matrix)
    reduced, pivots = rref(matrix)
    expected, expected_pivots = reference.rref()
    assert pivots == list(expected_pivots)
    assert reduced == [[Fraction(int(expected[i, j].p), int(expected[i, j].q)) for j in range(columns)]
                       for i in range(rows)]
    assert rank(matrix) == reference.rank()
    square = [row[:rows] + [0] * max(0, rows - columns) for row in matrix]
    assert determinant(square) == Fraction(str(sympy.Matrix(square).det()))


@pytest.mark.parametrize("seed", range(40))
def test_nullspace_is_a_basis_of_the_kernel(seed: int) -> None:
    rng = random.Random(seed)
    matrix = _random_matrix(rng, rng.randint(1, 4), rng.randint(1, 6))
    basis = nullspace(matrix)
    assert len(basis) == len(matrix[0]) - rank(matrix)
    for v in basis:
        assert all(x == 0 for x in _times(matrix, v))
    if basis:  # independent: stacked, the basis has full rank
        assert rank(basis) == len(basis)


def test_nullspace_of_no_equations_is_everything() -> None:
    assert nullspace([], columns=2) == [[1, 0], [0, 1]]


@pytest.mark.parametrize("seed", range(40))
def test_solve_and_inverse_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 5)
    matrix = _random_matrix(rng, n, n, zeros=0.5)
    x = [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(n)]
    right = _times(matrix, x)
    inv = inverse(matrix)
    if determinant(matrix) == 0:
        assert inv is None and solve(matrix, right) is None
        return
    assert solve(matrix, right) == x
    assert inv is not None
    for j in range(n):  # matrix @ inverse = identity, column by column
        assert _times(matrix, [row[j] for row in inv]) == [Fraction(int(i == j)) for i in range(n)]


def test_solve_overdetermined_consistent_and_inconsistent() -> None:
    matrix = [[1, 0], [0, 1], [1, 1]]
    assert solve(matrix, [2, 3, 5]) == [2, 3]
    assert solve(matrix, [2, 3, 6]) is None
    assert solve([[1, 1]], [1]) is None  # underdetermined


def test_inputs_are_not_modified() -> None:
    matrix = [[Fraction(2), Fraction(4)], [Fraction(1), Fraction(3)]]
    copy = [row[:] for row in matrix]
    rref(matrix), determinant(matrix), inverse(matrix), solve(matrix, [1, 1]), nullspace(matrix)
    assert matrix == copy


def test_sparse_system_is_fast_and_exact() -> None:
    """A long tridiagonal system (the shape of a chain or truss): the sparse elimination stays exact."""
    n = 120
    matrix = [[Fraction(2) if i == j else Fraction(-1) if abs(i - j) == 1 else Fraction(0) for j in range(n)]
              for i in range(n)]
    x = [Fraction(i % 7 - 3, 1 + i % 3) for i in range(n)]
    assert solve(matrix, _times(matrix, x)) == x
