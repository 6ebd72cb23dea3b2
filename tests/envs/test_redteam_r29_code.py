"""Red-team regressions (round 3, session 29) for the code family: stdio_queries' count query ("how many of
a[l..r] are greater than x") never had a threshold equal to an array value in most problems, so a program
counting ">= x" passed 58-95% of the problems with a count query; the translation envs repeated hidden tests (16-40% of
problems, often the empty input shown as both examples)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import palaestra


def _task(env_id: str):  # type: ignore[no-untyped-def]
    return palaestra.make(env_id, level=0).unwrapped.task


def _run_with_slip(a: list[int], queries: list[tuple[Any, ...]]) -> list[str]:
    """The queries answered as the statement says, except that count counts values >= x (written here,
    independently of the env's reference)."""
    a, out = list(a), []
    for kind, *v in queries:
        if kind in ("sum", "max", "min"):
            out.append(str({"sum": sum, "max": max, "min": min}[kind](a[v[0] - 1:v[1]])))
        elif kind == "count":
            out.append(str(sum(1 for y in a[v[0] - 1:v[1]] if y >= v[2])))
        elif kind == "set":
            a[v[0] - 1] = v[1]
        elif kind == "add":
            a[v[0] - 1:v[1]] = [y + v[2] for y in a[v[0] - 1:v[1]]]
        elif kind == "reverse":
            a[v[0] - 1:v[1]] = a[v[0] - 1:v[1]][::-1]
        else:
            a[v[0] - 1], a[v[1] - 1] = a[v[1] - 1], a[v[0] - 1]
    return out


def _slip_passes(data: dict[str, Any]) -> bool:
    kind_of = {word: kind for kind, word in data["spec"]["words"].items()}
    for test in data["tests"]:
        lines = test["stdin"].split("\n")
        q = int(lines[0].split()[1])
        a = [int(v) for v in lines[1].split()]
        queries = [(kind_of[line.split()[0]], *map(int, line.split()[1:])) for line in lines[2:2 + q]]
        if "\n".join(_run_with_slip(a, queries)) != test["stdout"].rstrip("\n"):
            return False
    return True


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_stdio_queries_count_boundary_is_tested(level: int) -> None:
    task = _task("code/stdio_queries")
    counted = 0
    for seed in range(40):  # before: the ">= x" program passed 7/12, 32/38, 26/41, 52/55, 57/61 (150 seeds)
        data = task.sample(level, seed).data
        if data["spec"]["template"] != "queries" or "count" not in data["spec"]["words"]:
            continue
        counted += 1
        assert not _slip_passes(data), (level, seed)
    assert counted >= 3


def test_stdio_queries_count_slip_rejected_in_sandbox() -> None:
    task = _task("code/stdio_queries")
    problems = [p for p in (task.sample(1, seed) for seed in range(30))
                if p.data["spec"]["template"] == "queries" and "count" in p.data["spec"]["words"]][:2]
    for problem in problems:
        gold = problem.answer or ""
        slip = gold.replace("v > x", "v >= x")
        assert slip != gold
        assert task.verify(problem, f"```python\n{gold}```").correct
        assert not task.verify(problem, f"```python\n{slip}```").correct


@pytest.mark.parametrize("env_id", ["code/python_to_lua", "code/python_to_go", "code/python_to_prolog"])
def test_translation_hidden_tests_are_distinct(env_id: str) -> None:
    task = _task(env_id)
    for level in (0, 2):
        for seed in range(30):  # before: 16-40% of problems repeated a test (and showed it as both examples)
            problem = task.sample(level, seed)
            shown = problem.prompt.split("Examples (Python values):\n", 1)[1].split("\n\n", 1)[0].split("\n")
            assert len(set(shown)) == len(shown), (env_id, level, seed, shown)
            tests = [json.dumps(args) for args in problem.data["tests"]]
            assert len(set(tests)) == len(tests), (env_id, level, seed)
