"""Red-team regressions (round 3, session 22) for the code family: stated moduli never reached, pattern_search's
off-by-one programs, reachable's depth-capped searches."""

from __future__ import annotations

import json
import re

import pytest

import palaestra
from palaestra.envs.code._polyglot import _reference_program, join_cases, run_reference

NO_MODULUS = 10**40  # larger than any count of our tests: the reference with it is the reference without modulus


def _task(env_id: str):  # type: ignore[no-untyped-def]
    return palaestra.make(env_id, level=0).unwrapped.task


def _unlabelled(line: str) -> str:
    return line.split(": ", 1)[1] if line.startswith("Case #") else line


def _modded_problems(env_id: str, level: int, seeds: int):  # type: ignore[no-untyped-def]
    task = _task(env_id)
    for seed in range(seeds):
        problem = task.sample(level, seed)
        if problem.data["params"].get("mod"):
            yield task, problem


MODDED = [("code/dp_programs", level) for level in range(5)] + [("code/graph_programs", level) for level in (3, 4, 9)]


@pytest.mark.parametrize(("env_id", "level"), MODDED)
def test_stated_modulus_is_reached_by_some_test(env_id: str, level: int) -> None:
    """run_limited, decodings, palindrome_cuts and dag_paths ask for a count modulo M, but no test's count reached M:
    the reference with the modulus left out passed 36/55 run_limited and 39/39 decodings problems at level 0, 16/16
    palindrome_cuts at level 2, every dag_paths problem at levels 3-4. Now it fails every problem."""
    seen = 0
    for task, problem in _modded_problems(env_id, level, 20 if level > 4 else 40):
        data = problem.data
        template = task.templates[data["template"]]
        program = _reference_program(template, json.dumps({**data["params"], "mod": NO_MODULUS}, sort_keys=True))
        true_counts = [run_reference(program, join_cases([text])) for text in data["inputs"]]
        assert true_counts != [_unlabelled(e) for e in data["expected"]], (env_id, level, problem.prompt[:200])
        seen += 1
    assert seen >= 2


def test_reference_without_modulus_rejected_in_sandbox() -> None:
    """The same, run in the sandbox: the Python reference with the modulus left out earns 0, the reference 1."""
    done = set()
    for env_id, level in (("code/dp_programs", 0), ("code/dp_programs", 2), ("code/graph_programs", 4)):
        for task, problem in _modded_problems(env_id, level, 30):
            name = problem.data["template"]
            if name in done:
                continue
            done.add(name)
            source = task.templates[name].sources({**problem.data["params"], "mod": NO_MODULUS})["python"]
            assert task.check(problem, f"<answer>\n```python\n{source}\n```\n</answer>").reward == 0.0
            assert task.check(problem, f"<answer>\n{problem.answer}\n</answer>").reward == 1.0
    assert done == {"run_limited", "decodings", "palindrome_cuts", "dag_paths"}


# --- pattern_search ----------------------------------------------------------------------------------------------


def _windows(text: str, pattern: str, errors: int, lo: int, hi: int) -> list[int]:
    m = len(pattern)
    out = []
    for i in range(lo, hi):
        block = text[i : i + m]
        if sum(1 for k in range(len(block)) if block[k] != pattern[k]) <= errors:
            out.append(i)
    return out


def _measure(hits: list[int], m: int, measure: str, base: int, step: int, none: int) -> int:
    if measure == "count":
        return len(hits)
    if measure == "disjoint":
        taken, end = 0, -1
        for i in hits:
            if i >= end:
                taken, end = taken + 1, i + m + step
        return taken
    if not hits:
        return none
    return (min(hits) if measure == "first" else max(hits)) + base


def _search_slips(text: str, pattern: str, errors: int, measure: str) -> dict[str, int]:
    n, m = len(text), len(pattern)
    right = _windows(text, pattern, errors, 0, n - m + 1)
    out = {
        "first window skipped": _measure(_windows(text, pattern, errors, 1, n - m + 1), m, measure, 1, 0, -1),
        "last window skipped": _measure(_windows(text, pattern, errors, 0, n - m), m, measure, 1, 0, -1),
        "window past the end": _measure(_windows(text, pattern, errors, 0, n - m + 2), m, measure, 1, 0, -1),
        "errors - 1": _measure(_windows(text, pattern, errors - 1, 0, n - m + 1), m, measure, 1, 0, -1),
        "errors + 1": _measure(_windows(text, pattern, errors + 1, 0, n - m + 1), m, measure, 1, 0, -1),
    }
    if measure in ("first", "last"):
        out["positions from 0"] = _measure(right, m, measure, 0, 0, -1)
        out["no match printed as 0"] = _measure(right, m, measure, 1, 0, 0)
    if measure == "disjoint":
        out["blocks share a letter"] = _measure(right, m, measure, 1, -1, -1)
        out["blocks leave a gap"] = _measure(right, m, measure, 1, 1, -1)
        out["overlaps counted"] = len(right)
    if measure == "count":
        out["overlaps left out"] = _measure(right, m, "disjoint", 1, 0, -1)
    return out


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_pattern_search_tests_reject_off_by_one_programs(level: int) -> None:
    """A window bound off by one, the error count off by one (passed 11/26 and 6/26 at level 0 in the sandbox), the
    first position counted from 0, 0 for no match, disjoint blocks sharing a letter (5/13 of disjoint problems)...
    passed pattern_search problems. Now each fails every problem (matches planted at both ends, overlapping, none)."""
    task = _task("code/string_programs")
    seen = 0
    for seed in range(80):
        data = task.sample(level, seed).data
        if data["template"] != "pattern_search":
            continue
        seen += 1
        params = data["params"]
        cases = [line.split() for line in data["inputs"]]
        expected = [_unlabelled(e) for e in data["expected"]]
        slipped: dict[str, list[str]] = {}
        for text, pattern in cases:
            for name, value in _search_slips(text, pattern, params["errors"], params["measure"]).items():
                slipped.setdefault(name, []).append(str(value))
        for name, answers in slipped.items():
            assert answers != expected, (level, seed, name, params)
    assert seen >= 5


def test_pattern_search_off_by_one_programs_rejected_in_sandbox() -> None:
    task = _task("code/string_programs")
    slips = {
        "range(len(text) - m + 1)": ["range(len(text) - m)", "range(1, len(text) - m + 1)", "range(len(text) - m + 2)"],
        ") <= ": [") - 1 <= ", ") + 1 <= "],
    }
    seen = 0
    for seed in range(40):
        problem = task.sample(0, seed)
        if problem.data["template"] != "pattern_search":
            continue
        source = task.templates["pattern_search"].sources(problem.data["params"])["python"]
        for old, news in slips.items():
            assert old in source
            for new in news:
                wrong = source.replace(old, new)
                assert task.check(problem, f"<answer>\n```python\n{wrong}\n```\n</answer>").reward == 0.0, new
        assert task.check(problem, f"<answer>\n{problem.answer}\n</answer>").reward == 1.0
        seen += 1
        if seen == 2:
            break
    assert seen == 2


# --- prolog_queries: reachable ------------------------------------------------------------------------------------


def _graph(data: dict, base: dict) -> dict[str, set[str]]:  # type: ignore[type-arg]
    links: dict[str, set[str]] = {}
    for fact in base["facts"]:
        a, b = re.fullmatch(r"\w+\((\w+), (\w+)\)", fact).groups()  # type: ignore[union-attr]
        if data["order"] == "backward":
            a, b = b, a
        links.setdefault(a, set()).add(b)
    return links


def _within(links: dict[str, set[str]], start: str, cap: int | None) -> set[str]:
    out: set[str] = set()
    layer, depth = {start}, 0
    while layer and (cap is None or depth < cap):
        layer = {b for a in layer for b in links.get(a, ())}
        layer -= out if cap is None else set()
        out |= layer
        depth += 1
    return out


def _answer_lines(data: dict, cap: int | None) -> list[str]:  # type: ignore[type-arg]
    lines = []
    for base in data["databases"]:
        forward = _graph(data, base)
        backward: dict[str, set[str]] = {}
        for a, bs in forward.items():
            for b in bs:
                backward.setdefault(b, set()).add(a)
        for _free, goal in base["queries"]:
            x, y = re.fullmatch(r"reachable\((\w+), (\w+)\)", goal).groups()  # type: ignore[union-attr]
            found = _within(forward, x, cap) if y == "Y" else _within(backward, y, cap)
            lines.append("[" + ",".join(sorted(found)) + "]")
    return lines


@pytest.mark.parametrize("level", [2, 3, 4, 8])
def test_reachable_depth_capped_search_fails(level: int) -> None:
    """A search capped at 6 edges passed 10 of 15 reachable problems at level 2 in the sandbox (at 7 edges, 18/21
    at level 2 and 9/23 at level 3). Now the hidden graphs hold a long path and every cap up to 7 edges fails."""
    task = _task("code/prolog_queries")
    seen = 0
    for seed in range(60):
        data = task.sample(level, seed).data
        if data["relation"] != "reachable":
            continue
        seen += 1
        assert _answer_lines(data, None) == data["expected"]
        for cap in range(1, 8):
            assert _answer_lines(data, cap) != data["expected"], (level, seed, cap)
    assert seen >= 5


def test_reachable_capped_and_naive_programs_rejected_in_sandbox() -> None:
    """In the sandbox: the cap-6 search earns 0; the naive recursion without a visited set (it loops on the
    graph's cycles) ends as a failure within the CPU budget; the reference earns 1."""
    task = _task("code/prolog_queries")
    problem = next(p for p in (task.sample(2, s) for s in range(40)) if p.data["relation"] == "reachable")
    data = problem.data
    link = f"arc(X, Y) :- {data['fact']}(" + ("X, Y)." if data["order"] == "forward" else "Y, X).")
    capped = (
        f"{link}\nreachable(X, Y) :- walk(X, Y, 6).\nwalk(X, Y, _) :- arc(X, Y).\n"
        "walk(X, Y, N) :- N > 1, M is N - 1, arc(X, Z), walk(Z, Y, M).\n"
    )
    naive = f"{link}\nreachable(X, Y) :- arc(X, Y).\nreachable(X, Y) :- arc(X, Z), reachable(Z, Y).\n"
    for program in (capped, naive):
        assert task.check(problem, f"<answer>\n```prolog\n{program}```\n</answer>").reward == 0.0
    assert task.check(problem, f"<answer>\n{problem.answer}\n</answer>").reward == 1.0
