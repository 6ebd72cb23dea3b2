"""A count's unit word must be the measure that was asked: "20 matching lines" is a spelling of 20 lines, and
"20 files" is not an answer to "how many lines" (both envs once read every measure's word as a spelling)."""

from __future__ import annotations

import pytest

import palaestra


def _one_problem_per_measure(env_id: str, level: int) -> dict[str, palaestra.Problem]:
    task = palaestra.make(env_id, level=level).unwrapped.task
    found: dict[str, palaestra.Problem] = {}
    for seed in range(60):
        problem = task.sample(level, seed)
        found.setdefault(problem.data["measure"], problem)
    return found


@pytest.mark.parametrize("env_id, level, words", [
    ("terminal/count_matches", 3, {"lines": "matching lines", "uses": "occurrences", "files": "matching files"}),
    ("terminal/log_window", 2, {"count": "requests", "bytes": "B", "clients": "distinct client addresses"}),
])
def test_a_count_reads_the_asked_measure_unit_only(env_id: str, level: int, words: dict[str, str]) -> None:
    task = palaestra.make(env_id, level=level).unwrapped.task
    problems = _one_problem_per_measure(env_id, level)
    assert set(problems) == set(words)
    for measure, problem in problems.items():
        answer = problem.answer
        assert task.judge(problem, f"{answer} {words[measure]}").correct
        for other in set(problems) - {measure}:
            assert not task.judge(problem, f"{answer} {words[other]}").correct, (measure, other)
