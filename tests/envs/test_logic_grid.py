"""Env-specific behaviour of the logic and grid families, checked against independent solvers."""

from __future__ import annotations

import itertools

import pytest

from palaestra.core.registry import make_source

sudoku = make_source("grid/sudoku")
queens = make_source("grid/n_queens")
knights = make_source("logic/knights_knaves")
propositional = make_source("logic/propositional")


# --- sudoku -------------------------------------------------------------------


def count_sudoku_solutions(grid: list[list[int]], box_rows: int, box_cols: int, limit: int = 2) -> int:
    """Plain backtracking with sets (deliberately unlike the generator's bitmasks), up to ``limit``."""
    n = len(grid)

    def options(r: int, c: int) -> list[int]:
        top, left = r - r % box_rows, c - c % box_cols
        used = set(grid[r]) | {grid[i][c] for i in range(n)}
        used |= {grid[i][j] for i in range(top, top + box_rows) for j in range(left, left + box_cols)}
        return [d for d in range(1, n + 1) if d not in used]

    def count() -> int:
        empty = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == 0]
        if not empty:
            return 1
        r, c = min(empty, key=lambda cell: len(options(*cell)))
        found = 0
        for d in options(r, c):
            grid[r][c] = d
            found += count()
            grid[r][c] = 0
            if found >= limit:
                break
        return found

    return count()


def givens_grid(problem) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in row] for row in problem.data["givens"]]


def test_solution_counter_detects_ambiguity():
    empty_4x4 = [[0] * 4 for _ in range(4)]
    assert count_sudoku_solutions(empty_4x4, 2, 2) == 2


@pytest.mark.parametrize("level", range(5))
def test_sudoku_puzzles_have_exactly_one_solution(level):
    for seed in range(12 if level < 3 else 4):
        p = sudoku.sample(level, seed)
        assert count_sudoku_solutions(givens_grid(p), p.data["box_rows"], p.data["box_cols"]) == 1, (level, seed)


def test_sudoku_gets_harder_with_level():
    def mean_clues(level):
        problems = [sudoku.sample(level, seed) for seed in range(10)]
        return sum(sum(ch != "." for row in p.data["givens"] for ch in row) for p in problems) / len(problems)

    assert mean_clues(2) > mean_clues(3) > mean_clues(4)
    assert [len(sudoku.sample(level, 0).data["givens"]) for level in range(3)] == [4, 6, 9]


def test_sudoku_accepts_decorated_grid():
    p = sudoku.sample(2, 3)
    rows = p.answer.splitlines()
    decorated = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            decorated.append("------+-------+------")
        decorated.append(" | ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6)))
    assert sudoku.verify(p, "\n".join(decorated)).correct
    assert sudoku.verify(p, "\n".join(",".join(row) for row in rows)).correct


def test_sudoku_rejects_valid_grid_that_changes_a_given():
    p = sudoku.sample(2, 5)
    given = next(ch for row in p.data["givens"] for ch in row if ch != ".")
    other = "1" if given != "1" else "2"
    relabelled = p.answer.translate(str.maketrans({given: other, other: given}))
    grid = [[int(ch) for ch in row] for row in relabelled.splitlines()]
    units = grid + [list(col) for col in zip(*grid)]
    units += [[grid[r][c] for r in range(t, t + 3) for c in range(s, s + 3)] for t in (0, 3, 6) for s in (0, 3, 6)]
    assert all(sorted(unit) == list(range(1, 10)) for unit in units)  # still a complete valid grid
    verdict = sudoku.verify(p, relabelled)
    assert not verdict.correct and verdict.parsed and "given" in verdict.feedback


def test_sudoku_rejects_broken_rules_and_shape():
    p = sudoku.sample(1, 2)
    rows = p.answer.splitlines()
    swapped = rows[0][1] + rows[0][0] + rows[0][2:]
    assert not sudoku.verify(p, "\n".join([swapped, *rows[1:]])).correct
    assert not sudoku.verify(p, "\n".join(rows[:-1])).correct
    assert not sudoku.verify(p, p.answer.replace("\n", "")).correct
    assert not sudoku.verify(p, "hello").parsed


# --- n-queens -----------------------------------------------------------------


def all_completions(n: int, fixed: list[str]) -> list[list[str]]:
    fixed_files = {ord(name[0]) - ord("a"): int(name[1:]) - 1 for name in fixed}
    solutions = []
    for ranks in itertools.permutations(range(n)):  # ranks[file]: the queen's rank in that file
        if any(ranks[f] != r for f, r in fixed_files.items()):
            continue
        if len({f + r for f, r in enumerate(ranks)}) == n == len({f - r for f, r in enumerate(ranks)}):
            solutions.append([f"{chr(ord('a') + f)}{r + 1}" for f, r in enumerate(ranks)])
    return solutions


def test_n_queens_accepts_any_valid_completion():
    checked = 0
    for seed in range(20):
        p = queens.sample(0, seed)
        completions = all_completions(p.data["size"], p.data["fixed"])
        assert sorted(p.answer.split()) in [sorted(c) for c in completions]
        for completion in completions:
            assert queens.verify(p, ", ".join(reversed(completion)).upper()).correct
        checked += len(completions) > 1
    assert checked > 0  # some problems did have several answers


def test_n_queens_rejects_attacks_missing_fixed_queens_and_bad_squares():
    p = queens.sample(2, 4)
    n, fixed = p.data["size"], p.data["fixed"]
    squares = p.answer.split()
    others = [s for s in squares if s not in fixed]
    moved = " ".join(s if s != others[0] else others[0][0] + others[1][1:] for s in squares)  # shares a rank
    assert "attack" in queens.verify(p, moved).feedback
    mirrored = " ".join(chr(ord("a") + n - 1 - (ord(s[0]) - ord("a"))) + s[1:] for s in squares)
    if not set(fixed) <= set(mirrored.split()):
        assert "pre-placed" in queens.verify(p, mirrored).feedback
    assert not queens.verify(p, " ".join(squares[:-1])).correct
    assert not queens.verify(p, " ".join(squares + [squares[0]])).correct
    assert "off the" in queens.verify(p, " ".join(squares[:-1] + [f"a{n + 1}"])).feedback
    assert not queens.verify(p, "Qa1 b3").parsed


# --- knights and knaves -------------------------------------------------------


@pytest.mark.parametrize("level", range(5))
def test_knights_knaves_exactly_one_assignment_is_accepted(level):
    for seed in range(10):
        p = knights.sample(level, seed)
        names = p.data["names"]
        accepted = [
            kinds
            for kinds in itertools.product(("knight", "knave"), repeat=len(names))
            if knights.verify(p, ", ".join(f"{n}: {k}" for n, k in zip(names, kinds))).correct
        ]
        assert len(accepted) == 1
        assert ", ".join(f"{n}: {k}" for n, k in zip(names, accepted[0])) == p.answer


def test_knights_knaves_answer_formats():
    p = knights.sample(2, 1)
    entries = p.answer.split(", ")
    assert knights.verify(p, "\n".join(reversed(entries)).lower()).correct
    assert knights.verify(p, ", ".join(e.replace(": ", " is a ") for e in entries)).correct
    assert not knights.verify(p, ", ".join(entries[:-1])).correct
    assert not knights.verify(p, p.answer + ", Zed: knight").correct
    assert not knights.verify(p, "all knights").parsed


def test_knights_knaves_constant_guess_rarely_works():
    for level in (2, 3, 4):
        answers = [knights.sample(level, seed).answer for seed in range(200)]
        assert sum("knave" not in a for a in answers) < 0.1 * len(answers)
        assert sum("knight" not in a for a in answers) < 0.1 * len(answers)


# --- propositional entailment ---------------------------------------------------


def parse_formula(text: str):
    """Reader for the rendered formulas: nested binary connectives are always parenthesised."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").replace("¬", " ¬ ").split()
    position = 0

    def unary():
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "¬":
            inner = unary()
            return lambda env: not inner(env)
        if token == "(":
            inner = binary()
            position += 1  # ")"
            return inner
        return lambda env: env[token]

    def binary():
        nonlocal position
        left = unary()
        if position < len(tokens) and tokens[position] in "∧∨→↔":
            op = tokens[position]
            position += 1
            right = unary()
            return {
                "∧": lambda env: left(env) and right(env),
                "∨": lambda env: left(env) or right(env),
                "→": lambda env: (not left(env)) or right(env),
                "↔": lambda env: left(env) == right(env),
            }[op]
        return left

    formula = binary()
    assert position == len(tokens), text
    return formula


@pytest.mark.parametrize("level", range(5))
def test_propositional_labels_match_independent_truth_tables(level):
    for seed in range(25):
        p = propositional.sample(level, seed)
        premises = [parse_formula(t) for t in p.data["premises"]]
        conclusion = parse_formula(p.data["conclusion"])
        variables = "pqrstu"[: propositional.config(level).variables]
        envs = [dict(zip(variables, values)) for values in itertools.product((False, True), repeat=len(variables))]
        models = [env for env in envs if all(f(env) for f in premises)]
        assert models, "premises must be satisfiable"
        entailed = all(conclusion(env) for env in models)
        assert p.answer == ("yes" if entailed else "no")
        if not entailed:
            assert any(conclusion(env) for env in models)  # not refuted outright by the premises


def test_propositional_answer_reading():
    p = propositional.sample(1, 0)
    other = "no" if p.answer == "yes" else "yes"
    assert propositional.verify(p, p.answer.upper() + ".").correct
    assert not propositional.verify(p, other).correct
    assert not propositional.verify(p, "maybe").parsed
    assert not propositional.verify(p, "y").parsed
