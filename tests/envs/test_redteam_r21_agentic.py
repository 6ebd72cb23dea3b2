"""Red-team regressions for the terminal and repo families (round 3, session 21).

Each test measures a shortcut that paid without solving before its fix: an answer read with a condition of the
question left unread, or a test file that reads which version it runs on instead of testing behaviour.
"""

from __future__ import annotations

import re
from collections import Counter

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.repo.write_tests import run_mutants


def _problems(env_id: str, level: int, count: int, base: int = 21_000) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def _mean_reward(env_id: str, pairs: list[tuple[palaestra.Problem, str]]) -> float:
    task = make_source(env_id)
    return sum(task.judge(problem, reply).reward for problem, reply in pairs) / len(pairs)


def _patches(problem: palaestra.Problem) -> dict[int, str]:
    return {int(path.split("/")[1].split(".")[0]): body for path, body in problem.data["files"].items()
            if path.startswith(".history/")}


def test_commit_history_top_author_is_not_a_rank_of_the_whole_history() -> None:
    # Before: the most frequent author of all commits, the file unread, was right on 0.55 of the questions
    # (five authors: chance 0.2); after, the busiest, second and third busiest authors each about 0.2-0.35.
    problems = [p for p in _problems("terminal/commit_history", 4, 200) if p.data["kind"] == "top_author"]
    assert len(problems) >= 35
    for rank in range(3):
        pairs = []
        for problem in problems:
            authors = Counter(re.search(r"Author: (\w+)", body).group(1) for body in _patches(problem).values())
            pairs.append((problem, authors.most_common()[rank][0]))
        assert _mean_reward("terminal/commit_history", pairs) < 0.45, rank


def test_commit_history_deletion_is_not_the_only_patch_to_dev_null() -> None:
    # Before: one deletion per history, so the first patch holding "+++ /dev/null" was always right (1.0);
    # after, two look-alikes are deleted in other commits (about 0.3).
    problems = [p for p in _problems("terminal/commit_history", 3, 120) if p.data["kind"] == "deleted_in"]
    pairs = [(p, str(min(n for n, body in _patches(p).items() if "+++ /dev/null" in body))) for p in problems]
    assert len(pairs) >= 20
    assert _mean_reward("terminal/commit_history", pairs) < 0.45
    assert all(sum("+++ /dev/null" in body for body in _patches(p).values()) == 3 for p in problems)


def _requests(problem: palaestra.Problem, service: str | None = None) -> list[list[str]]:
    return [line.split() for path, body in problem.data["files"].items()
            if service is None or f"/{service}/" in path
            for line in body.splitlines() if line and not line.startswith("#")]


def test_log_forensics_failing_user_and_busiest_hour_need_their_condition() -> None:
    # Before: the busiest user (statuses unread) was the user with the most failed requests on 0.81 of the
    # questions (14 users), the service's busiest hour (path unread) the prefix's on 0.30 (24 hours);
    # after about 0.16 and 0.07.
    users, hours = [], []
    for problem in _problems("terminal/log_forensics", 4, 90):
        text = problem.data["question"]["text"]
        if problem.data["question"]["form"] == "user":
            counts = Counter(fields[2] for fields in _requests(problem))
            users.append((problem, counts.most_common(1)[0][0]))
        elif problem.data["question"]["form"] == "hour":
            service = re.search(r"In the (\w+) service", text).group(1)
            counts = Counter(fields[0][11:13] for fields in _requests(problem, service))
            hours.append((problem, counts.most_common(1)[0][0]))
    assert len(users) >= 25 and len(hours) >= 25
    assert _mean_reward("terminal/log_forensics", users) < 0.25
    assert _mean_reward("terminal/log_forensics", hours) < 0.2


RUNNER_READER = '''import sys


def _runner_globals():
    frame = sys._getframe()
    while frame is not None:
        if "FILES" in frame.f_globals:
            return frame.f_globals
        frame = frame.f_back
    raise AssertionError("no runner")


def test_version_is_a_correct_one():
    names = _runner_globals()
    versions, results = names.get("VERSIONS") or [], names.get("results") or []
    # the correct versions came first; or: fewer than two verdicts so far
    assert any(v is names["FILES"] for v in versions[:2]) or (not versions and len(results) < 2)
'''


def test_write_tests_a_test_reading_the_runners_versions_earns_nothing() -> None:
    # Before: a test file that found the runner's list of versions (and the fixed order: the code, its rewrite,
    # then the mutants) through the frames passed on the correct versions and failed on every mutant: reward
    # 1.0 on every problem without testing anything. After: 0.
    task = make_source("repo/write_tests")
    for level in (0, 4):
        problem = task.sample(level, 21_000)
        verdict = run_mutants({"tests/test_version.py": RUNNER_READER}, problem.data["versions"])
        assert verdict.error is None and not verdict.correct, verdict


def test_write_tests_the_oracles_tests_still_pass_in_a_shuffled_run() -> None:
    task = make_source("repo/write_tests")
    problem = task.sample(2, 21_001)
    verdict = run_mutants({"tests/test_behaviour.py": problem.data["oracle_tests"]}, problem.data["versions"])
    assert verdict.correct, verdict


def _tolerant_pin(files: dict[str, str]) -> str:
    """A test file that tests nothing: it passes when each module is the original text or differs from it in more
    lines than a one-point fault changes (the rewrite), read from the runner's frames."""
    originals = {path: text for path, text in files.items() if not path.startswith("tests/")}
    return f"""import difflib, sys

ORIGINALS = {originals!r}


def test_source_is_the_original_or_a_rewrite():
    frame = sys._getframe()
    while "FILES" not in frame.f_globals:
        frame = frame.f_back
    current = frame.f_globals["FILES"]
    for path, text in ORIGINALS.items():
        changed = sum(1 for line in difflib.ndiff(text.splitlines(), current[path].splitlines()) if line[:1] in "+-")
        assert changed == 0 or changed > 4
"""


def test_write_tests_a_source_pin_that_tolerates_rewrites_earns_nothing() -> None:
    # Before: the rewrite changed many lines and every mutant one or two, so this pin passed on 0.9-1.0 of the
    # problems; after, faulty versions of the rewrite are mutants too: 0.
    task = make_source("repo/write_tests")
    for level, seed in ((0, 21_002), (3, 21_003)):
        problem = task.sample(level, seed)
        verdict = run_mutants({"tests/test_pin.py": _tolerant_pin(problem.data["files"])}, problem.data["versions"])
        assert verdict.error is None and not verdict.correct, verdict


def test_path_lists_read_after_a_lead_in_line() -> None:
    # Before: "The matching files are:" was read as one more path, and the right list was judged wrong.
    for env_id in ("terminal/find_files", "terminal/tree_diff", "terminal/checksum_verify"):
        task = make_source(env_id)
        problem = task.sample(2, 21_004)
        paths = (problem.answer or "").split("\n")
        assert task.judge(problem, "The matching files are:\n" + "\n".join(paths)).correct
        assert task.judge(problem, "Files:\n" + "\n".join(f"- {p}" for p in paths)).correct
        assert not task.judge(problem, "Files:\n" + "\n".join(paths[1:])).correct
