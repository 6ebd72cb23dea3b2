"""Red-team round 3, session 21 (puzzles, sequences, arithmetic, probability): regression tests.

Each test failed before its fix and passes after it.
"""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


def _reward(task, problem, reply: str) -> float:
    return task.check(problem, f"<answer>{reply}</answer>").reward


def test_hidden_rule_reads_terms_separated_by_spaces() -> None:
    """The next terms written ``28777 28768 57544`` (spaces, no commas) are the right answer; the list reader was
    called without ``space_separated`` and left them unreadable. Hedges and extra terms still score 0."""
    task = _task("sequences/hidden_rule")
    for level in (0, 2, 4):
        for seed in range(8):
            problem = task.sample(level, seed)
            gold = problem.answer
            assert _reward(task, problem, gold.replace(", ", " ")) == 1.0
            assert _reward(task, problem, gold.replace(", ", " ") + " 7") == 0.0
            assert _reward(task, problem, f"{gold} or {gold.replace(',', '')}") == 0.0


def test_magic_square_reads_labelled_rows_and_a_lead_in() -> None:
    """``Row 1: 2 7 6`` lines and a lead-in sentence above the grid were read as extra cells (any token is a
    cell), so the right square was unreadable. Rows labelled out of order and two grids still score 0."""
    task = _task("sequences/magic_square")
    for level in (0, 2, 4):
        for seed in range(8):
            problem = task.sample(level, seed)
            rows = problem.answer.split("\n")
            labelled = "\n".join(f"Row {k}: {r}" for k, r in enumerate(rows, 1))
            assert _reward(task, problem, labelled) == 1.0
            assert _reward(task, problem, "\n".join(f"{k}: {r}" for k, r in enumerate(rows, 1))) == 1.0
            assert (
                _reward(task, problem, f"Here is the completed {len(rows)}x{len(rows)} square:\n{problem.answer}")
                == 1.0
            )
            shuffled = "\n".join(f"Row {k}: {r}" for k, r in reversed(list(enumerate(rows, 1))))
            assert _reward(task, problem, shuffled) == 0.0
            assert _reward(task, problem, f"{problem.answer}\n{problem.answer}") == 0.0


def test_sudoku_top_level_is_not_finished_by_singles_alone() -> None:
    """v1: naked and hidden singles, repeated until they stall, solved 52% of the level 4 (22-clue) puzzles, so
    half the top level needed no search. v2 redraws those; the declared heuristic solves none there."""
    task = _task("puzzles/sudoku")
    singles = task.heuristics()["naked and hidden singles"]
    top = task.levels() - 1
    problems = [task.sample(top, seed) for seed in range(20)]
    assert sum(_reward(task, p, singles(p)) for p in problems) == 0.0
    assert all(_reward(task, p, p.answer) == 1.0 for p in problems)
    easy = task.sample(0, 0)  # the heuristic is a real solver where singles suffice
    assert _reward(task, easy, singles(easy)) == 1.0


def test_linear_diophantine_general_solution_with_a_domain_note() -> None:
    """``x = 5 - 29t, y = -23 - 10t, t ∈ ℤ`` (or ``... for any integer t``) is the right general solution; the
    closing note on the parameter's domain left it unreadable. A note naming another parameter, a remark or a
    second answer after it still score 0, and a long run of spaces is read fast."""
    from palaestra.envs.arithmetic.linear_diophantine import _without_domain_note

    task = _task("arithmetic/linear_diophantine")
    for seed in range(10):
        problem = task.sample(3, seed)
        assert problem.data["kind"] == "general"
        gold = problem.answer
        for note in (", t ∈ ℤ", " (t \\in \\mathbb{Z})", " for any integer t", ", where t is an integer."):
            assert _reward(task, problem, gold + note) == 1.0
        for bad in (" for any integer k", ", t ∈ ℤ or x = 1, y = 2", " roughly", ", t ∈ ℤ. Actually x = 0"):
            assert _reward(task, problem, gold + bad) == 0.0
    assert _without_domain_note(" " * 599 + "x") == (" " * 599 + "x", None)


def test_regression_line_with_a_hat_on_y() -> None:
    """The fitted line written ``ŷ = -29/89 x + 390/89`` (or ``\\hat{y} = ...``, ``y-hat = ...``), the usual
    notation for predicted values, was unreadable; a wrong slope or a hedge with a hat still scores 0."""
    task = _task("probability/regression")
    problems = [p for p in (task.sample(1, seed) for seed in range(80)) if p.data["form"] == "line"][:6]
    assert problems
    for problem in problems:
        body = problem.answer[1:]  # " = (slope)x + intercept"
        for hat in ("ŷ", "\\hat{y}", "\\hat y", "y-hat"):
            assert _reward(task, problem, hat + body) == 1.0
        assert _reward(task, problem, f"ŷ{body} or y = x") == 0.0
        assert _reward(task, problem, f"ŷ{body}. Actually ŷ = x") == 0.0
        assert _reward(task, problem, "ŷ = 1000x") == 0.0


def test_expected_value_money_answers_with_their_unit() -> None:
    """Where the expected gain is asked in dollars, ``-8.40 dollars`` and the LaTeX ``-\\$8.40`` were unreadable
    (only a bare ``$`` was removed); another unit, a hedge or the wrong sign still score 0."""
    from fractions import Fraction

    task = _task("probability/expected_value")
    checked = 0
    for level in range(5):
        for seed in range(120):
            problem = task.sample(level, seed)
            value = Fraction(problem.data["value"])
            if "in dollars" not in problem.prompt or (value * 100).denominator != 1 or value == 0:
                continue
            text = f"{'-' if value < 0 else ''}{abs(value.numerator) / value.denominator:.2f}"
            assert _reward(task, problem, f"{text} dollars") == 1.0
            assert _reward(task, problem, text.replace(text.lstrip("-"), "\\$" + text.lstrip("-"))) == 1.0
            assert _reward(task, problem, f"{text} euros") == 0.0
            assert _reward(task, problem, f"{text} dollars or {text}1") == 0.0
            checked += 1
    assert checked >= 5


def test_modular_puzzle_reads_the_count_with_its_noun() -> None:
    """``77249 beads`` (the count named with the prompt's own noun) was unreadable; another noun, a hedge or a
    larger number that also fits still score 0."""
    task = _task("sequences/modular_puzzle")
    for level in (0, 2, 4):
        for seed in range(10):
            problem = task.sample(level, seed)
            gold = problem.answer
            noun = next(
                w
                for w in ("eggs", "coins", "soldiers", "marbles", "beads", "stamps", "apples", "books")
                if f"holds some {w}." in problem.prompt
            )
            other = "eggs" if noun != "eggs" else "coins"
            assert _reward(task, problem, f"{gold} {noun}") == 1.0
            assert _reward(task, problem, f"{gold} {other}") == 0.0
            assert _reward(task, problem, f"{gold} {noun} or {int(gold) + 1}") == 0.0
            assert _reward(task, problem, f"{int(gold) + problem.data['lcm']} {noun}") == 0.0
