"""Red-team round 3, session 43 (code envs that run model code): regression tests.

- code/c_compile_repair, code/cpp_compile_repair, code/go_compile_repair, code/lua_load_repair v2: the hidden tests
  did not pin the described program down. A program with the filter's bound moved by one (``>=`` for ``>``) printed
  every test's line right in 0.33/0.31/0.17/0.12/0.05 (C), 0.43/0.31/0.19/0.13/0.04 (C++), 0.33/0.27/0.12/0.11/0.05
  (Go) and 0.32/0.21/0.19/0.09/0.07 (Lua) of the problems at levels 0-4 (150 seeds each); a reducer replaced by
  another, ``k`` left out or the map's factor moved by one up to 0.04 at level 0. Now every program one slip away
  (``_repair.near_specs``) fails some test, and the sandbox rejects the gold repair with ``>=`` for ``>``.

Each test fails on the version before its fix.
"""

from __future__ import annotations

import re

import pytest

import palaestra
from palaestra.envs.code._repair import run_spec

REPAIR_ENVS = ("code/c_compile_repair", "code/cpp_compile_repair", "code/go_compile_repair", "code/lua_load_repair")


def _task(env_id: str):  # type: ignore[no-untyped-def]
    return palaestra.make(env_id, level=0).unwrapped.task


def _tests(problem) -> list[tuple[int, list[int]]]:  # type: ignore[no-untyped-def]
    out = []
    for text in problem.data["inputs"]:
        head, items = text.split("\n")[:2]
        out.append((int(head.split()[1]), [int(x) for x in items.split()]))
    return out


def _slips(spec: dict) -> list[dict]:
    """Near programs written out here (not with the module's own list): the bound moved by one, each reducer
    replaced by another, k left out (run with k = 0 is checked apart)."""
    flt = spec["filter"]
    near = []
    if flt["kind"] in ("above", "below"):
        near += [{**spec, "filter": {**flt, "c": flt["c"] + d}} for d in (-1, 1)]
    else:
        near += [{**spec, "filter": {**flt, "r": (flt["r"] + 1) % flt["m"]}}]
    for i in range(2):
        for kind in ("total", "weighted", "best", "evens", "span"):
            if kind not in spec["reducers"]:
                pair = list(spec["reducers"])
                pair[i] = kind
                near.append({**spec, "reducers": pair})
    return near


@pytest.mark.parametrize("env_id", REPAIR_ENVS)
def test_compile_repair_hidden_tests_reject_near_programs(env_id: str) -> None:
    task = _task(env_id)
    for level in range(5):
        for seed in range(20):
            problem = task.sample(level, seed)
            spec, tests, expected = problem.data["spec"], _tests(problem), problem.data["expected"]
            assert [run_spec(spec, k, xs) for k, xs in tests] == expected
            for near in _slips(spec):
                assert [run_spec(near, k, xs) for k, xs in tests] != expected, (level, seed, near)
            assert [run_spec(spec, 0, xs) for _, xs in tests] != expected, (level, seed, "k left out")


def _need(language: str) -> None:
    from palaestra import sandbox

    try:
        chain = sandbox.probe().languages[language]
    except Exception as exc:  # no sandbox at all for this user
        pytest.skip(f"sandbox unavailable: {exc}")
    if not chain.available:
        pytest.skip(f"{chain.reason} (install it with .ci/setup_toolchains.sh)")


def test_c_compile_repair_rejects_the_bound_moved_by_one_in_the_sandbox() -> None:
    """Version 1, level 0: `>=` for `>` (or `<=` for `<`) in the gold repair passed every test of seeds 1, 2, 9, 11, 17 and 19
    (12 of the 22 seeds 0-29 whose filter has a bound)."""
    _need("c")
    task = _task("code/c_compile_repair")
    checked = 0
    for seed in (1, 2, 9, 11, 17, 19):
        problem = task.sample(0, seed)
        if problem.data["spec"]["filter"]["kind"] == "residue":
            continue
        gold = problem.answer
        slipped = re.sub(r"\] ([<>]) (\d+)\)", r"] \1= \2)", gold, count=1)
        assert slipped != gold
        state = task.initial_state(problem)
        assert task.play(problem, state, gold).verdict.reward == 1.0
        assert task.play(problem, state, slipped).verdict.reward == 0.0, seed
        checked += 1
    assert checked >= 3
