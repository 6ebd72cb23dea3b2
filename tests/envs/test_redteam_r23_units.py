"""A count's unit word must be the measure that was asked: "20 matching lines" is a spelling of 20 lines, and
"20 files" is not an answer to "how many lines" (both envs once read every measure's word as a spelling)."""

from __future__ import annotations

import palaestra


def _one_problem_per_measure(env_id: str, level: int) -> dict[str, palaestra.Problem]:
    task = palaestra.make(env_id, level=level).unwrapped.task
    found: dict[str, palaestra.Problem] = {}
    for seed in range(60):
        problem = task.sample(level, seed)
        found.setdefault(problem.data["measure"], problem)
    return found


def test_count_matches_reads_the_asked_measure_unit_only() -> None:
    task = palaestra.make("terminal/count_matches", level=3).unwrapped.task
    problems = _one_problem_per_measure("terminal/count_matches", 3)
    assert set(problems) == {"lines", "uses", "files"}
    accepted = {"lines": "matching lines", "uses": "occurrences", "files": "matching files"}
    for measure, problem in problems.items():
        answer = problem.answer
        assert task.judge(problem, f"{answer} {accepted[measure]}").correct
        for other in set(problems) - {measure}:
            assert not task.judge(problem, f"{answer} {other}").correct, (measure, other)


def test_log_window_reads_the_asked_measure_unit_only() -> None:
    task = palaestra.make("terminal/log_window", level=2).unwrapped.task
    problems = _one_problem_per_measure("terminal/log_window", 2)
    assert set(problems) == {"count", "bytes", "clients"}
    words = {"count": "requests", "bytes": "B", "clients": "distinct client addresses"}
    for measure, problem in problems.items():
        answer = problem.answer
        assert task.judge(problem, f"{answer} {words[measure]}").correct
        for other in set(problems) - {measure}:
            assert not task.judge(problem, f"{answer} {words[other]}").correct, (measure, other)
