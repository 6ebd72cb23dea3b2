"""Env-specific behaviour of the logic and grid families, checked against independent solvers."""

from __future__ import annotations

import itertools

import pytest

from palaestra.core.registry import make_source

sudoku = make_source("puzzles/sudoku")
queens = make_source("puzzles/n_queens")
knights = make_source("deduction/knights_knaves")
propositional = make_source("deduction/propositional")


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


def all_completions(n: int, fixed: list[str], limit: int = 10) -> list[list[str]]:
    """Completions by plain backtracking over files with sets (unlike the generator's SAT encoding)."""
    fixed_rank = {ord(name[0]) - ord("a"): int(name[1:]) - 1 for name in fixed}
    solutions: list[list[str]] = []

    def place(file: int, ranks: list[int]) -> None:
        if len(solutions) >= limit:
            return
        if file == n:
            solutions.append([f"{chr(ord('a') + f)}{r + 1}" for f, r in enumerate(ranks)])
            return
        for rank in [fixed_rank[file]] if file in fixed_rank else range(n):
            if all(rank != r and abs(rank - r) != file - f for f, r in enumerate(ranks)):
                place(file + 1, ranks + [rank])

    place(0, [])
    return solutions


@pytest.mark.parametrize("level", range(5))
def test_n_queens_completion_is_unique(level):
    config = queens.config(level)
    for seed in range(8 if level < 3 else 3):
        p = queens.sample(level, seed)
        n, fixed = p.data["size"], p.data["fixed"]
        assert config.min_size <= n <= config.max_size
        assert 0 < n - len(fixed) <= config.missing
        assert [sorted(c) for c in all_completions(n, fixed)] == [sorted(p.answer.split())], (level, seed)
        assert "exactly one way" in p.prompt


def test_n_queens_accepts_the_completion_in_any_order_and_case():
    p = queens.sample(0, 3)
    squares = p.answer.split()
    assert queens.verify(p, ", ".join(reversed(squares)).upper()).correct
    assert queens.verify(p, "\n".join(squares)).correct


def test_n_queens_rejects_a_valid_placement_that_moves_a_fixed_queen():
    p = queens.sample(1, 2)
    n, fixed = p.data["size"], p.data["fixed"]
    others = all_completions(n, [], limit=400)
    elsewhere = next(c for c in others if not set(fixed) <= set(c))
    verdict = queens.verify(p, " ".join(elsewhere))
    assert not verdict.correct and "pre-placed" in verdict.feedback


def test_n_queens_level_zero_has_no_repeated_problems_to_memorise():
    answers = {queens.sample(0, seed).prompt for seed in range(300)}
    assert len(answers) >= 0.95 * 300


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
        assert p.data["entailed"] == entailed and (p.answer == "yes") == entailed
        if not entailed:
            assert any(conclusion(env) for env in models)  # not refuted outright by the premises
            counter_model = dict(pair.split(" = ") for pair in p.answer.removeprefix("no: ").split(", "))
            env = {name: counter_model[name] == "true" for name in variables}
            assert all(f(env) for f in premises) and not conclusion(env)  # the reference is a counter-model


def test_propositional_answer_reading():
    p = propositional.sample(1, 0)
    other = "no" if p.answer == "yes" else "yes"
    assert propositional.verify(p, p.answer.upper() + ".").correct
    assert not propositional.verify(p, other).correct
    assert not propositional.verify(p, "maybe").parsed
    assert not propositional.verify(p, "y").parsed


# --- difficulty measures ----------------------------------------------------------


@pytest.mark.parametrize("task", [sudoku, queens, knights], ids=lambda t: t.id)
def test_difficulty_measure_grows_with_level(task):
    seeds = 12 if task is sudoku else 30
    means = [sum(task.difficulty(task.sample(level, seed)) for seed in range(seeds)) / seeds for level in range(5)]
    assert means == sorted(means) and len(set(means)) == 5, means


def test_knights_knaves_uniqueness_proof_matches_brute_force():
    from palaestra.envs.deduction.knights_knaves import _solutions

    for level in range(5):
        p = knights.sample(level, 7)
        names, claims = p.data["names"], p.data["claims"]
        consistent = sum(
            knights.verify(p, ", ".join(f"{n}: {k}" for n, k in zip(names, kinds))).correct
            for kinds in itertools.product(("knight", "knave"), repeat=len(names))
        )
        assert consistent == _solutions(claims, len(names), limit=100) == 1
        # dropping a statement usually opens other assignments; the counter must see them
        loose = [["knight", 0] if i == 0 else c for i, c in enumerate(claims)]
        brute = 0
        for kinds in itertools.product((0, 1), repeat=len(names)):
            speaker_ok = [bool(kinds[s]) == bool(_evaluate(c, kinds)) for s, c in enumerate(loose)]
            brute += all(speaker_ok)
        assert _solutions(loose, len(names), limit=200) == brute


def _evaluate(claim: list, kinds: tuple[int, ...]) -> bool:
    """Independent reading of a claim (plain Python, no truth tables) under one assignment."""
    kind, args = claim[0], claim[1:]
    if kind == "exactly_knights":
        return sum(kinds) == args[0]
    if kind == "at_least_knaves":
        return len(kinds) - sum(kinds) >= args[0]
    x = bool(kinds[args[0]])
    if kind in ("knight", "knave"):
        return x if kind == "knight" else not x
    y = bool(kinds[args[1]])
    if kind == "if":
        return (x != args[2]) or (y == args[3])
    return {"same": x == y, "different": x != y, "both_knights": x and y, "both_knaves": not x and not y,
            "some_knight": x or y, "some_knave": not x or not y}[kind]
