"""Red-team round 3, session 31 (code2): plausible wrong programs ("slips") that passed every hidden test.

code/go_channels v1: a bound filter's ">=" for ">" (or "<=" for "<") passed 0.57-1.00 of the problems with such a
filter, dropping every repeat instead of consecutive ones 0.47-0.72 of those with a dedup, ``last := 0`` with no
flag for the first value 1.00-0.52 of those whose dedup reads the source, Go's ``x%2 == 1`` for odd 0.72-0.89: the
hidden streams rarely held the bound, a repeat apart, a leading 0 or a negative odd value. Version 2 redraws the
hidden streams until they tell each slip from the stage.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _need(language: str) -> None:
    from palaestra import sandbox

    chain = sandbox.probe().languages[language]
    if not chain.available:
        pytest.skip(f"{chain.reason} (install it with .ci/setup_toolchains.sh)")


# -- go_channels -----------------------------------------------------------------------------------

def _go_stage_slip(slip: str) -> Callable[[dict[str, Any], list[int]], list[int] | None]:
    """A slip's Python model for one stage (None: the stage is not one the slip touches)."""
    def run(stage: dict[str, Any], values: list[int]) -> list[int] | None:
        kind, p = stage["kind"], stage["params"]
        if slip == "bound included" and kind == "filter" and p["test"] in ("above", "below"):
            return [x for x in values if (x >= p["t"] if p["test"] == "above" else x <= p["t"])]
        if slip == "window one long" and kind == "window":
            k = p["k"] + 1
            return [sum(values[max(0, i - k + 1): i + 1]) for i in range(len(values))]
        if slip == "dedup of every repeat" and kind == "dedup":
            return list(dict.fromkeys(values))
        if slip == "dedup from 0" and kind == "dedup":
            return [x for x, before in zip(values, [0, *values]) if x != before]
        return None
    return run


def _go_slip_passes(env: Any, problem: Problem, slip: str) -> bool | None:
    """Whether the slip's pipeline prints every expected line (None: no stage where the slip can show)."""
    from palaestra.envs.code.go_channels import run_stage

    stages, run = problem.data["stages"], _go_stage_slip(slip)
    merged = stages[0]["kind"] == "merge"
    shows = {"dedup of every repeat": not merged,  # merged streams are sorted: every repeat is consecutive
             "dedup from 0": stages[0]["kind"] == "dedup"}.get(slip, True)  # a leading 0 comes from the source
    if not shows or all(run(s, [1]) is None for s in stages):
        return None
    for test, expected in zip(problem.data["tests"], problem.data["expected"]):
        values = sorted(test[0] + test[1]) if merged else test[0]
        for stage in stages[merged:]:
            slipped = run(stage, values)
            values = run_stage(stage, values) if slipped is None else slipped
        if env._line(values) != expected:
            return False
    return True


@pytest.mark.parametrize("slip", ["bound included", "window one long", "dedup of every repeat", "dedup from 0"])
def test_go_channels_hidden_streams_tell_each_slip_from_the_stage(slip: str) -> None:
    env = make_source("code/go_channels")
    verdicts = [v for level in range(5) for seed in range(40)
                if (v := _go_slip_passes(env, env.sample(level=level, seed=seed), slip)) is not None]
    assert len(verdicts) >= 20
    assert sum(verdicts) / len(verdicts) <= 0.1, (slip, sum(verdicts), len(verdicts))


def _dedup_block(program: str, state: str, test: str, update: str) -> str:
    """The program with the dedup stage's state, test and update lines replaced (the diff stage shares them)."""
    blocks = program.split("\n\nfunc ")
    return "\n\nfunc ".join(
        b.replace("first, last := true, 0", state).replace("if first || x != last {", test)
        .replace("first, last = false, x", update) if "if first || x != last {" in b else b for b in blocks)


GO_SLIPS = {  # slip: (level, seed, the slipped program from the reference)
    "bound included": (0, 0, lambda g: g.replace("if x > ", "if x >= ").replace("if x < ", "if x <= ")),
    "odd as remainder 1": (4, 153, lambda g: g.replace("x%2 != 0", "x%2 == 1")),
    "window one long": (0, 12, lambda g: g.replace("if len(recent) > ", "if len(recent) > 1+")),
    "dedup of every repeat": (0, 1, lambda g: _dedup_block(g, "seen := map[int]bool{}", "if !seen[x] {",
                                                           "seen[x] = true")),
    "dedup from 0": (0, 1, lambda g: _dedup_block(g, "last := 0", "if x != last {", "last = x")),
}


@pytest.mark.parametrize("slip", list(GO_SLIPS))
def test_go_channels_slipped_program_rejected_and_reference_accepted(slip: str) -> None:
    _need("go")
    level, seed, make_slip = GO_SLIPS[slip]
    env = make_source("code/go_channels")
    problem = env.sample(level=level, seed=seed)
    gold = env.reference(problem.data)
    slipped = make_slip(gold)
    assert slipped != gold, "the problem has no stage the slip touches"
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, f"```go\n{slipped}\n```").correct


# -- go_error_handling ---------------------------------------------------------------------------

GO_ERROR_SLIPS = {  # slip: the slipped program from the reference (its trimmed or strict variant alike)
    "exclusive high": lambda g: g.replace("n > limit.hi", "n >= limit.hi"),
    "exclusive low": lambda g: g.replace("n < limit.lo", "n <= limit.lo"),
    "no plus sign": lambda g: g.replace("if err != nil {", 'if err != nil || strings.HasPrefix(value, "+") {'),
    "no = check": lambda g: g.replace("!found || ", "").replace("key, value, found :=", "key, value, _ :="),
    "empty key ok": lambda g: g.replace(' || key == ""', ""),
    "second = ok": lambda g: g.replace(' || strings.Contains(value, "=")', ""),
    "keys ignore case": lambda g: g.replace("limits[key]", "limits[strings.ToLower(key)]"),
}


def _go_error_slip_outcome(slip: str, line: str, p: dict[str, Any]) -> str:
    """The line the driver prints for a program with ``slip`` (the specification's parse, one check off)."""
    import re

    if not p["trim"] and " " in line:
        return f"error {p['names']['syntax']}"
    key, found, value = line.partition("=")
    if p["trim"]:
        key, value = key.strip(" "), value.strip(" ")
    if (not found and slip != "no = check") or (not key and slip != "empty key ok") or (
            "=" in value and slip != "second = ok"):
        return f"error {p['names']['syntax']}"
    if slip == "keys ignore case" and key.lower() in p["limits"]:
        key = key.lower()
    integer = re.compile(r"-?[0-9]+" if slip == "no plus sign" else r"[+-]?[0-9]+")
    for check in ("unknown", "number") if p["unknown_first"] else ("number", "unknown"):
        if check == "unknown" and key not in p["limits"]:
            return f"error {p['names']['unknown']} +key"
        if check == "number" and not integer.fullmatch(value):
            return f"error {p['names']['number']}"
    lo, hi = p["limits"][key]
    n = int(value)
    inside = (lo < n if slip == "exclusive low" else lo <= n) and (n < hi if slip == "exclusive high" else n <= hi)
    return f"ok {n}" if inside else f"error {p['names']['outside']} +key"


@pytest.mark.parametrize("slip", list(GO_ERROR_SLIPS))
def test_go_error_handling_hidden_lines_tell_each_slip_from_the_rules(slip: str) -> None:
    env = make_source("code/go_error_handling")
    passed = 0
    for level in range(5):
        for seed in range(30):
            data = env.sample(level=level, seed=seed).data
            passed += [_go_error_slip_outcome(slip, line, data["params"]) for line in data["tests"]] == data["expected"]
    assert passed <= 15, (slip, passed)  # of 150; version 1: 0.33-0.98 of the problems, by slip and level


def test_go_error_handling_slipped_programs_rejected_and_reference_accepted() -> None:
    _need("go")
    env = make_source("code/go_error_handling")
    problem = env.sample(level=0, seed=1)
    gold = env.reference(problem.data)
    assert env.verify(problem, problem.answer).correct
    for slip, make_slip in GO_ERROR_SLIPS.items():
        slipped = make_slip(gold)
        assert slipped != gold, slip
        assert not env.verify(problem, f"```go\n{slipped}\n```").correct, slip


# -- lua_string_patterns -------------------------------------------------------------------------

LUA_PATTERN_SLIPS = {  # slip: (level, seed, the slipped program from the reference)
    "tags: repeats kept": (0, 9, lambda g: g.replace(" and not seen[tag]", "")),
    "tags: not lowercased": (0, 9, lambda g: g.replace("tag = tag:lower()", "")),
    "tags: no underscore": (0, 9, lambda g: g.replace("([%w_]+)", "(%w+)")),
    "tags: longer than the least": (0, 9, lambda g: g.replace("#tag >= ", "#tag > ")),
    "mask: runs longer than the least": (0, 2, lambda g: g.replace("if #run < ", "if #run <= ")),
    "fields: the other occurrence": (1, 13, lambda g: g.replace("if true or", "if false or")),
    "names: space optional": (0, 32, lambda g: g.replace("(%u%l+), (", "(%u%l+), ?(")),
}


@pytest.mark.parametrize("slip", list(LUA_PATTERN_SLIPS))
def test_lua_string_patterns_slipped_program_rejected_and_reference_accepted(slip: str) -> None:
    _need("lua")
    level, seed, make_slip = LUA_PATTERN_SLIPS[slip]
    env = make_source("code/lua_string_patterns")
    problem = env.sample(level=level, seed=seed)
    gold = env.reference(problem.data)
    slipped = make_slip(gold)
    assert slipped != gold, "the problem's rule is not the slip's"
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, f"```lua\n{slipped}\n```").correct


def test_lua_string_patterns_hidden_strings_tell_every_slip_apart() -> None:
    from palaestra.envs.code.lua_string_patterns import RULES

    for level in range(5):
        for seed in range(30):
            data = make_source("code/lua_string_patterns").sample(level=level, seed=seed).data
            expected = [json.loads(e) for e in data["expected"]]
            for name, slip in RULES[data["rule"]].slips(data["params"]).items():
                assert [slip(s) for s in data["tests"]] != expected, (level, seed, name)


def test_lua_string_patterns_repeated_tags_decide_often() -> None:
    """Keeping repeated tags passed 0.72-0.97 of the tags problems in version 1 (the texts seldom repeated one)."""
    import re

    env = make_source("code/lua_string_patterns")
    kept = total = 0
    for level in range(4):
        for seed in range(60):
            data = env.sample(level=level, seed=seed).data
            if data["rule"] != "tags":
                continue
            pattern = re.escape(data["params"]["sigil"]) + "([A-Za-z0-9_]+)"
            names = [[t.lower() for t in re.findall(pattern, s) if len(t) >= data["params"]["min_len"]]
                     for s in data["tests"]]
            kept += [json.dumps(data["params"]["join"].join(n)) for n in names] == data["expected"]
            total += 1
    assert total >= 30 and kept / total <= 0.1, (kept, total)


# -- lua_functions -------------------------------------------------------------------------------

LUA_FUNCTION_SLIPS = {  # slip: (level, seed, the slipped program from the reference)
    "decode: counts of one digit": (0, 21, lambda g: g.replace("(%d+)(%a)", "(%d)(%a)").replace("(%a)(%d+)",
                                                                                              "(%a)(%d)")),
    "merge: an interval inside another ends it": (1, 65, lambda g: g.replace(
        "if v[2] > last[2] then last[2] = v[2] end", "last[2] = v[2]")),
    "rpn: the other rounding": (2, 9, lambda g: g.replace(
        "stack[#stack + 1] = a // b",
        "local q = a // b; if q < 0 and q * b ~= a then q = q + 1 end; stack[#stack + 1] = q").replace(
        "else stack[#stack + 1] = a % b end", "else stack[#stack + 1] = math.fmod(a, b) end")),
}


@pytest.mark.parametrize("slip", list(LUA_FUNCTION_SLIPS))
def test_lua_functions_slipped_program_rejected_and_reference_accepted(slip: str) -> None:
    _need("lua")
    level, seed, make_slip = LUA_FUNCTION_SLIPS[slip]
    env = make_source("code/lua_functions")
    problem = env.sample(level=level, seed=seed)
    gold = env.sources(problem)["lua"]
    slipped = make_slip(gold)
    assert slipped != gold, "the problem's template is not the slip's"
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, f"```lua\n{slipped}\n```").correct


def test_lua_functions_hidden_tests_fail_every_slip() -> None:
    from palaestra.envs.code.lua_functions import TEMPLATES, tells_slips

    env = make_source("code/lua_functions")
    for level in range(5):
        for seed in range(30):
            data = env.sample(level=level, seed=seed).data
            assert tells_slips(TEMPLATES[data["template"]], data["params"], data["tests"], data["expected"]), (
                level, seed)


def test_lua_functions_contained_interval_decides_often() -> None:
    """Taking the next interval's end as the merged end passed 0.13-0.50 of the merge problems in version 2."""
    env = make_source("code/lua_functions")
    passed = total = 0
    for level in range(1, 5):
        for seed in range(40):
            data = env.sample(level=level, seed=seed).data
            if data["template"] != "merge_intervals":
                continue
            results = []
            for (intervals,) in data["tests"]:
                merged: list[list[int]] = []
                for lo, hi in sorted(intervals):
                    if merged and lo <= merged[-1][1] + data["params"]["gap"]:
                        merged[-1][1] = hi
                    else:
                        merged.append([lo, hi])
                results.append("[" + ",".join(f"[{lo},{hi}]" for lo, hi in merged) + "]")
            passed += results == data["expected"]
            total += 1
    assert total >= 30 and passed / total <= 0.05, (passed, total)


# -- go_structs_interfaces -----------------------------------------------------------------------

def _ceil_plus_d(program: str) -> str:
    """(v1 + d) / d for (v1 + d - 1) / d: one too many when d divides v1."""
    import re

    return re.sub(r"\+ \d+\) / (\d+) \*", lambda m: f"+ {m.group(1)}) / {m.group(1)} *", program)


def _ceil_floor(program: str) -> str:
    """v1 / d for the rounded-up division."""
    import re

    return re.sub(r"\((\w+\.\w+) \+ \d+\) / (\d+) \*", r"\1 / \2 *", program)


GO_STRUCT_SLIPS = {"ceiling as (v1 + d) / d": (0, 8, _ceil_plus_d), "ceiling as plain division": (0, 14, _ceil_floor)}


@pytest.mark.parametrize("slip", list(GO_STRUCT_SLIPS))
def test_go_structs_slipped_ceiling_rejected_and_reference_accepted(slip: str) -> None:
    _need("go")
    level, seed, make_slip = GO_STRUCT_SLIPS[slip]
    env = make_source("code/go_structs_interfaces")
    problem = env.sample(level=level, seed=seed)
    gold = env.reference(problem.data)
    slipped = make_slip(gold)
    assert slipped != gold, "no ceiling type"
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, f"```go\n{slipped}\n```").correct


def test_go_structs_hidden_items_tell_the_ceiling_from_its_slips() -> None:
    """(v1 + d) / d passed 0.08-0.36 of the problems with a ceiling type in version 1, plain division up to 0.14."""
    env = make_source("code/go_structs_interfaces")
    missed = total = 0
    for level in range(5):
        for seed in range(40):
            data = env.sample(level=level, seed=seed).data
            for t in data["types"].values():
                if t["formula"] != "ceil":
                    continue
                total += 1
                pairs = [(v1, v2) for test in data["tests"] for n, v1, v2 in test["items"] if n == t["type"]]
                rounded_up = [(v1 + t["d"] - 1) // t["d"] * v2 for v1, v2 in pairs]
                missed += ([(v1 + t["d"]) // t["d"] * v2 for v1, v2 in pairs] == rounded_up
                           or [v1 // t["d"] * v2 for v1, v2 in pairs] == rounded_up)
    assert total >= 40 and missed / total <= 0.05, (missed, total)


# -- lua_metatables ------------------------------------------------------------------------------

LUA_METATABLE_SLIPS = {  # slip: (level, seed, the slipped program from the reference)
    "a ^ 0 is a": (0, 1, lambda g: g.replace("local result, base = 1, a.n\n    for _ = 1, k do",
                                             "local result, base = a.n, a.n\n    for _ = 2, k do")),
    "<= as <": (1, 2, lambda g: g.replace("return a.p * b.q <= b.p * a.q end", "return a.p * b.q < b.p * a.q end")),
}


@pytest.mark.parametrize("slip", list(LUA_METATABLE_SLIPS))
def test_lua_metatables_slipped_program_rejected_and_reference_accepted(slip: str) -> None:
    _need("lua")
    level, seed, make_slip = LUA_METATABLE_SLIPS[slip]
    env = make_source("code/lua_metatables")
    problem = env.sample(level=level, seed=seed)
    gold = env.reference(problem.data)
    slipped = make_slip(gold)
    assert slipped != gold, "the problem's kind is not the slip's"
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, f"```lua\n{slipped}\n```").correct


def test_lua_metatables_hidden_checks_fail_each_slip() -> None:
    """a ^ 0 computed as a passed 0.74-0.95 of the residue problems in version 1 (the exponent was seldom 0), <= as
    < 0.18-0.40 of the fraction ones. (Version 1 ignores params["slip"], so every slip "passed" there.)"""
    from palaestra.envs.code.lua_metatables import KINDS, show

    env = make_source("code/lua_metatables")
    passed = total = 0
    for level in range(5):
        for seed in range(30):
            data = env.sample(level=level, seed=seed).data
            kind = KINDS[data["kind"]]
            for slip in {"mod": ("a ^ 0 is a",), "frac": ("<= as <", "< as <=")}.get(data["kind"], ()):
                total += 1
                slipped = {**data["params"], "slip": slip}
                passed += [show(tree, kind, slipped, data["variables"]) for tree in data["checks"]] == data["expected"]
    assert total >= 60 and passed == 0, (passed, total)


# -- string_pipeline -----------------------------------------------------------------------------

def test_string_pipeline_shift_without_wrap_rejected_and_reference_accepted() -> None:
    """A shift that forgets to wrap from z to a passed 0.50-0.86 of the pipelines with a shift in version 3: the
    hidden strings held only the letters a to j."""
    import re

    env = make_source("code/string_pipeline")
    problem = env.sample(level=0, seed=10)  # repeat each letter 3 times, then shift by 2
    assert [step["op"] for step in problem.data["spec"]] == ["repeat", "caesar"]
    slipped = re.sub(r"chr\(\(ord\(c\) - 97 \+ (\d+)\) % 26 \+ 97\)", r"chr(ord(c) + \1)", problem.answer)
    assert slipped != problem.answer
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, slipped).correct


def test_string_pipeline_hidden_strings_need_the_wrap() -> None:
    from palaestra.envs.code import _pipelines as pl

    env = make_source("code/string_pipeline")
    passed = total = 0
    for level in range(5):
        for seed in range(40):
            data = env.sample(level=level, seed=seed).data
            for shift, step in enumerate(data["spec"]):
                if step["op"] != "caesar":
                    continue
                total += 1
                results = []
                for test in data["tests"]:
                    s = test["args"][0]
                    for i, other in enumerate(data["spec"]):
                        s = ("".join(chr(ord(c) + step["k"]) if "a" <= c <= "z" else c for c in s) if i == shift
                             else pl.apply_pipeline([other], s, pl.STRINGS))
                    results.append(s)
                passed += results == [t["expected"] for t in data["tests"]]
    assert total >= 30 and passed / total <= 0.05, (passed, total)


# -- array_pipeline ------------------------------------------------------------------------------

def _array_slip_passes(data: dict[str, Any], position: int) -> bool:
    """Whether the pipeline with its step at ``position`` slipped (truncating //, fmod %, consecutive dedupe)
    gives every expected result."""
    import math

    from palaestra.envs.code import _pipelines as pl

    step = data["spec"][position]
    slip = {"floordiv": lambda xs: [int(x / step["d"]) for x in xs],
            "mod": lambda xs: [int(math.fmod(x, step["m"])) for x in xs],
            "dedupe": lambda xs: [x for i, x in enumerate(xs) if i == 0 or xs[i - 1] != x]}[step["op"]]
    for test in data["tests"]:
        xs = test["args"][0]
        for i, other in enumerate(data["spec"]):
            xs = slip(xs) if i == position else pl.apply_pipeline([other], xs, pl.ARRAYS)
        if xs != test["expected"]:
            return False
    return True


def test_array_pipeline_hidden_tests_fail_truncation_and_consecutive_dedupe() -> None:
    """int(x / d), math.fmod and a consecutive-only dedupe passed 0.11-0.44, 0.13-0.27 and 0.07-0.30 of the
    pipelines with such a step in version 3."""
    env = make_source("code/array_pipeline")
    passed = total = 0
    for level in range(5):
        for seed in range(30):
            data = env.sample(level=level, seed=seed).data
            for position, step in enumerate(data["spec"]):
                if step["op"] in ("floordiv", "mod", "dedupe"):
                    total += 1
                    passed += _array_slip_passes(data, position)
    assert total >= 40 and passed / total <= 0.05, (passed, total)


def test_array_pipeline_truncating_division_rejected_in_sandbox() -> None:
    import re

    env = make_source("code/array_pipeline")
    problems = (env.sample(level=1, seed=seed) for seed in range(100))
    problem = next(p for p in problems if any(step["op"] == "floordiv" for step in p.data["spec"]))
    slipped = re.sub(r"x // (\d+)", r"int(x / \1)", problem.answer)  # the statement asks for Python's //
    assert slipped != problem.answer
    assert env.verify(problem, problem.answer).correct
    assert not env.verify(problem, slipped).correct
