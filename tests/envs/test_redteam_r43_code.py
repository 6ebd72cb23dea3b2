"""Red-team round 3, session 43 (code envs that run model code): regression tests.

- code/c_compile_repair, code/cpp_compile_repair, code/go_compile_repair, code/lua_load_repair v2: the hidden tests
  did not pin the described program down. A program with the filter's bound moved by one (``>=`` for ``>``) printed
  every test's line right in 0.33/0.31/0.17/0.12/0.05 (C), 0.43/0.31/0.19/0.13/0.04 (C++), 0.33/0.27/0.12/0.11/0.05
  (Go) and 0.32/0.21/0.19/0.09/0.07 (Lua) of the problems at levels 0-4 (150 seeds each); a reducer replaced by
  another, ``k`` left out or the map's factor moved by one up to 0.04 at level 0. Now every program one slip away
  (``_repair.near_specs``) fails some test, and the sandbox rejects the gold repair with ``>=`` for ``>``.

- code/efficient_arrays v2: the hidden large tests' k kept every counted block short, so walking from every start
  (longest_window, subarray_sums at_most) or listing every close pair (pair_count close) passed every problem tried:
  0.62 of level 0 and 0.51 of level 1 (100 seeds). Now those blocks span n/6 or more values and the close pairs are
  a tenth of all pairs: the walks run out of time (0/62, 0/51).

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


def _arrays_problems(level: int, measures: set[tuple[str, str]], per_measure: int) -> list:  # type: ignore[type-arg]
    task = _task("code/efficient_arrays")
    seen: dict[tuple[str, str], int] = {}
    found = []
    for seed in range(200):
        problem = task.sample(level, seed)
        key = (problem.data["template"], problem.data["params"]["measure"])
        if key in measures and seen.get(key, 0) < per_measure:
            seen[key] = seen.get(key, 0) + 1
            found.append(problem)
    assert set(seen) == measures
    return found


def test_efficient_arrays_large_tests_make_naive_walks_quadratic() -> None:
    """What a walk from every start costs on a large test: at least its answer's count of blocks or pairs (1e9 or
    more now; v1: under 1e7), or for the longest window about n times its length (a sixth of n or more now; v1: a
    few hundred values at most)."""
    task = _task("code/efficient_arrays")
    counted = {("subarray_sums", "at_most"), ("pair_count", "close")}
    longest = {("longest_window", "sum"), ("longest_window", "distinct")}
    for problem in _arrays_problems(0, counted | longest, 2):
        key = (problem.data["template"], problem.data["params"]["measure"])
        case, line = problem.data["cases"][-1], task.expected(problem)[-1]
        answer = int(line.rsplit(" ", 1)[-1])
        assert case["n"] >= 200_000
        if key in counted:
            assert answer >= 10**9, (key, answer)
        else:
            assert answer >= 20_000, (key, answer)


NAIVE_WINDOW = r"""
#include <stdio.h>
static long long x[300005];
int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int c = 1; c <= t; c++) {
        int n; long long s, k;
        if (scanf("%d %lld %lld", &n, &s, &k) != 3) return 1;
        long long a = s;
        for (int i = 0; i < n; i++) { x[i] = a % V + LOW; a = (a * MUL + ADD) % MOD; }
        long long best = 0;
        for (int i = 0; i < n; i++) {
            long long sum = 0; int j = i;
            for (; j < n; j++) { sum += x[j]; if (sum > k) break; }
            if (j - i > best) best = j - i;
        }
        if (LABELLED) printf("Case #%d: %lld\n", c, best); else printf("%lld\n", best);
    }
    return 0;
}
"""


def test_efficient_arrays_naive_longest_window_runs_out_of_time() -> None:
    """A walk from every start until the sum passes k: right on every test, and in v1 inside the budget (level 0
    seeds 3 and 4 among them); now over it."""
    _need("c")
    task = _task("code/efficient_arrays")
    for problem in _arrays_problems(0, {("longest_window", "sum")}, 2):
        params = problem.data["params"]
        g = params["generator"]
        code = NAIVE_WINDOW
        for name, value in (("V", g["v"]), ("LOW", g["low"]), ("MUL", g["a"]), ("ADD", g["b"]), ("MOD", g["m"]),
                            ("LABELLED", int(bool(params["labelled"])))):
            code = re.sub(rf"\b{name}\b", str(value), code)
        verdict = task.verify(problem, f"```c\n{code}\n```")
        assert verdict.reward == 0.0 and "time limit" in verdict.feedback, verdict.feedback
