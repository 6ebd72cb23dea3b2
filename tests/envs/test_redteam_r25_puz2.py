"""Red-team round 3, session 25 (puzzles, tools): regression tests.

Each test failed before its fix and passes after it.
"""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


def test_comparison_qa_yes_no_needs_the_birth_countries() -> None:
    """v4 asked ``Were A and B born in the same country?`` for a quarter of the problems and took a bare yes or no:
    the constant ``no`` scored 0.13-0.15 at levels 2-4 (over 0.10 at the top, where no chance is allowed). v5 asks
    for the country each was born in with the verdict; a bare verdict, the wrong verdict, the countries swapped or
    a hedge score 0, and the countries spelled with an alias or another separator score 1."""
    task = _task("tools/comparison_qa")
    checked = 0
    for level in (0, 4):
        for seed in range(24):
            problem = task.sample(level, seed)
            if problem.data["question"]["answer_type"] != "yes_no":
                continue
            checked += 1
            word = problem.data["question"]["answer"]
            (a, *a_aliases), (b, *b_aliases) = problem.data["countries"]
            assert task.judge(problem, problem.answer).reward == 1.0
            assert task.judge(problem, f"{word.capitalize()}: {(a_aliases or [a])[0]}; {b}.").reward == 1.0
            assert task.judge(problem, f"{word} - {a} and {b}").reward == 1.0
            for bad in ("yes", "no", f"{'no' if word == 'yes' else 'yes'}, {a}, {b}", f"{word}, {a}, {b} or {b}, {a}"):
                assert task.judge(problem, bad).reward == 0.0
            if a != b:
                assert task.judge(problem, f"no, {b}, {a}").reward == 0.0
            else:
                assert task.judge(problem, f"Yes, both were born in {a}.").reward == 1.0
    assert checked >= 6
