"""The shared domain rules (one module per game, used by its single-turn and multi-turn twins)."""

from __future__ import annotations

import doctest
import itertools
import random

import pytest

from palaestra.generators import battleship, hanoi, mastermind, minesweeper, nonogram, sokoban

MODULES = (battleship, hanoi, mastermind, minesweeper, nonogram, sokoban)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_doctests_pass(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted >= 1 and result.failed == 0


def test_mastermind_score_counts_each_symbol_once() -> None:
    rng = random.Random(1)
    for _ in range(300):
        guess = [rng.randint(1, 4) for _ in range(4)]
        secret = [rng.randint(1, 4) for _ in range(4)]
        exact, misplaced = mastermind.score(guess, secret)
        # misplaced by elimination: strike exact pairs, then match the rest one by one
        rest_secret = [s for g, s in zip(guess, secret) if g != s]
        matched = 0
        for g, s in zip(guess, secret):
            if g != s and g in rest_secret:
                rest_secret.remove(g)
                matched += 1
        assert (exact, misplaced) == (sum(g == s for g, s in zip(guess, secret)), matched)
        assert mastermind.score(guess, secret) == mastermind.score(secret, guess)


def test_hanoi_rules_refuse_what_each_variant_forbids() -> None:
    rules = hanoi.HanoiRules("AA", "CC", "ABC", (("A", "B"), ("B", "C"), ("C", "A")))
    assert rules.check("AA", ("A", "C")) == "this variant does not allow a move from A to C"
    assert rules.check("AA", ("A", "A")) == "a disk must move to a different peg"
    assert rules.check("AA", ("B", "C")) == "peg B is empty"
    assert rules.run([("A", "B"), ("B", "C"), ("A", "B"), ("C", "A"), ("B", "C"), ("A", "B"), ("B", "C")]).solved


def test_sokoban_push_reasons() -> None:
    walls = {(0, c) for c in range(6)} | {(2, c) for c in range(6)} | {(1, 0), (1, 5)}
    is_open = lambda square: square not in walls  # noqa: E731
    assert sokoban.push(is_open, (1, 1), [(1, 2), (1, 3)], "R") == "pushes a box into another box"
    assert sokoban.push(is_open, (1, 1), [], "U") == "walks into a wall"
    assert sokoban.push(is_open, (1, 2), [(1, 1)], "R") == ((1, 3), ((1, 1),))  # boxes are never pulled
    assert sokoban.solved([(1, 3)], {(1, 3)}) and not sokoban.solved([(1, 2)], {(1, 3)})


def test_minesweeper_flood_stops_at_numbers_and_shut_cells() -> None:
    rows, cols, mines = 4, 4, {15}
    counts, around = minesweeper.counts(mines, rows, cols), minesweeper.neighbours(rows, cols)
    assert minesweeper.flood(0, counts, around) == set(range(16)) - mines
    assert minesweeper.flood(10, counts, around) == {10}  # a numbered cell opens alone
    shut = minesweeper.flood(0, counts, around, lambda cell: cell != 1)
    assert 1 not in shut and 2 in shut  # the flood goes round a flagged cell


def test_minesweeper_deductions_are_one_set_of_rules_for_any_neighbourhood() -> None:
    # A 1 x 3 strip: a | b | c, mine at c. Opening a (count 0) floods to b (count 1); b's one hidden neighbour is c.
    around = [(1,), (0, 2), (1,)]
    counts = minesweeper.counts({2}, 1, 3, around)
    assert counts == [0, 1, 0]
    mask = minesweeper.open_cell(minesweeper.HIDDEN * 3, 0, counts, around)
    assert mask == minesweeper.OPEN * 2 + minesweeper.HIDDEN
    assert minesweeper.deduce(mask, counts, set(), around) == (set(), {2})
    assert minesweeper.solvable({2}, 0, counts, around) and minesweeper.three_bv({2}, counts, around) == 1
    # Two hidden cells seen by the same two numbers, one mine between them: no local rule decides.
    square = minesweeper.neighbours(2, 2)
    coin = minesweeper.counts({1}, 2, 2)
    flip = minesweeper.OPEN + minesweeper.HIDDEN + minesweeper.OPEN + minesweeper.HIDDEN
    assert minesweeper.deduce(flip, coin, set(), square) == (set(), set())
    assert minesweeper.proven_safe(flip, coin, square) == set()


@pytest.mark.parametrize("n", [1, 4, 6])
def test_nonogram_placements_and_feasible_agree_with_brute_force(n: int) -> None:
    lines = list(itertools.product((False, True), repeat=n))
    for clue in {tuple(nonogram.runs(line)) for line in lines}:
        assert set(nonogram.placements(n, clue)) == {line for line in lines if tuple(nonogram.runs(line)) == clue}
    rng = random.Random(n)
    for _ in range(60):
        known = tuple(rng.choice((True, False, None)) for _ in range(n))
        clue = tuple(nonogram.runs(rng.choice(lines)))
        brute = any(all(k is None or k == v for k, v in zip(known, line)) for line in nonogram.placements(n, clue))
        assert nonogram.feasible(clue, known) == brute
        assert nonogram.feasible(clue or (0,), known) == brute  # the game stores an empty clue as (0,)


def _fitting_pictures(rows: int, cols: int, row_clues: list, col_clues: list) -> list[tuple[tuple[bool, ...], ...]]:
    options = [nonogram.placements(cols, tuple(clue)) for clue in row_clues]
    return [grid for grid in itertools.product(*options)
            if all(nonogram.runs(column) == list(clue) for column, clue in zip(zip(*grid), col_clues))]


def test_nonogram_line_solve_forces_only_what_every_fitting_picture_shares() -> None:
    rng = random.Random(7)
    opened = solved = 0
    for _ in range(120):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        picture = [[rng.random() < 0.5 for _ in range(cols)] for _ in range(rows)]
        row_clues = [nonogram.runs(row) for row in picture]
        col_clues = [nonogram.runs(column) for column in zip(*picture)]
        fitting = _fitting_pictures(rows, cols, row_clues, col_clues)
        forced = nonogram.line_solve([tuple(c) for c in row_clues], [tuple(c) for c in col_clues])
        for r in range(rows):
            for c in range(cols):
                if forced[r][c] is not None:  # sound: every fitting picture has that value there
                    assert {grid[r][c] for grid in fitting} == {forced[r][c]}
        complete = all(value is not None for row in forced for value in row)
        solved += complete
        opened += not complete
        assert not complete or len(fitting) == 1
    assert solved and opened  # both outcomes were seen


def test_battleship_placements_count() -> None:
    for n, length in [(6, 2), (8, 5), (5, 1)]:
        expected = n * n if length == 1 else 2 * n * (n - length + 1)
        found = battleship.placements(n, length)
        assert len(found) == expected == len({tuple(cells) for cells in found})
        assert all(0 <= r < n and 0 <= c < n for cells in found for r, c in cells)


@pytest.mark.parametrize("box_rows, box_cols", [(2, 2), (2, 3), (3, 3), (3, 2)])
def test_sudoku_grid_is_valid(box_rows: int, box_cols: int) -> None:
    from palaestra.generators.latin import sudoku_grid

    n, digits = box_rows * box_cols, list(range(1, box_rows * box_cols + 1))
    for seed in range(10):
        grid = sudoku_grid(random.Random(seed), box_rows, box_cols)
        assert all(sorted(row) == digits for row in grid) and all(sorted(col) == digits for col in zip(*grid))
        for top in range(0, n, box_rows):
            for left in range(0, n, box_cols):
                box = [grid[r][c] for r in range(top, top + box_rows) for c in range(left, left + box_cols)]
                assert sorted(box) == digits


def test_random_latin_squares_vary_and_are_latin() -> None:
    from palaestra.generators.latin import random_latin_square

    squares = {tuple(map(tuple, random_latin_square(random.Random(seed), 5))) for seed in range(20)}
    assert len(squares) > 15
    for square in squares:
        assert all(sorted(row) == [1, 2, 3, 4, 5] for row in square)
        assert all(sorted(col) == [1, 2, 3, 4, 5] for col in zip(*square))


def test_union_find_matches_components() -> None:
    from palaestra.generators.graphs import UnionFind, components, random_forest

    for seed in range(10):
        forest = random_forest(random.Random(seed), 12, 7)
        sets = UnionFind(12)
        assert all(sets.union(u, v) for u, v, _ in forest.edges)  # a forest never closes a cycle
        by_root: dict[int, list[int]] = {}
        for v in range(12):
            by_root.setdefault(sets.find(v), []).append(v)
        assert sorted(by_root.values()) == components(forest)
