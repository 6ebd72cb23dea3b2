"""Red team, round 3, session 36: code envs whose hidden tests let a program with one slip pass.

- code/subsequence (v3): a rule's bound moved by one, or an order or ratio read with the other strictness, passed
  every hidden test in 0.19-0.32 of the (problem, slip) pairs, and in 0.09-0.22 where a short list tells the slip
  apart from the rule (levels 0-4); the tests now hold a list that rejects each such slip: 0.01-0.04.
- code/translate_program (v2): a C or JavaScript translation with C's rounding at one ``//`` or ``%`` (where that
  changes the function) passed every hidden test in 0.08-0.16 of the cases at levels 1-4; a probe input that tells
  it apart is now added to the tests: 0.03-0.06.
"""

from __future__ import annotations

import random
import re

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.code.common import compiled_function

OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "max": max, "min": min}
COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _slips(code: str) -> list[str]:
    """Every comparison of ``code`` with the other strictness, and every constant in it moved by one."""
    out = []
    for match in re.finditer(r"<=|>=|<|>", code):
        other = {"<=": "<", "<": "<=", ">=": ">", ">": ">="}[match.group()]
        out.append(code[: match.start()] + other + code[match.end():])
    for match in re.finditer(r"(?<![\w\[])\d+(?![\w\]])", code):
        for step in (-1, 1):
            out.append(code[: match.start()] + str(int(match.group()) + step) + code[match.end():])
    return out


def _solver(conditions: list[str], objective: str):  # an independent dynamic programme over our rule code
    step = "best[j] + xs[i]" if objective == "sum" else "best[j] + 1"
    return compiled_function(
        "def solve(xs):\n    best = []\n    for i in range(len(xs)):\n"
        f"        best.append({'xs[i]' if objective == 'sum' else '1'})\n        for j in range(i):\n"
        f"            if {' and '.join(f'({c})' for c in conditions)}:\n"
        f"                best[i] = max(best[i], {step})\n    return max(best) if best else 0\n")


def test_subsequence_boundary_slips_that_change_the_answer_fail_the_hidden_tests() -> None:
    source = make_source("code/subsequence")
    rng = random.Random(36)
    escaped = slips = 0
    for level in (0, 2, 4):
        for seed in range(12):
            problem = source.sample(level, seed)
            spec, tests = problem.data["spec"], problem.data["tests"]
            gold = _solver(spec["conditions"], spec["objective"])
            assert all(gold(*t["args"]) == t["expected"] for t in tests)
            for r, code in enumerate(spec["conditions"]):
                if "%" in code:
                    continue  # multiples: a slip of the modulus is not a boundary slip
                for slip in _slips(code):
                    slipped = _solver([*spec["conditions"][:r], slip, *spec["conditions"][r + 1:]], spec["objective"])
                    slips += 1
                    if not all(slipped(*t["args"]) == t["expected"] for t in tests):
                        continue
                    for _ in range(300):  # does the slip change the answer on some short list at all?
                        xs = [rng.randint(-15, 45)]
                        while len(xs) < rng.randint(2, 10):
                            xs.append(xs[-1] + rng.randint(-16, 16))
                        if slipped(xs) != gold(xs):
                            escaped += 1
                            break
    assert slips > 150 and escaped / slips <= 0.05, (escaped, slips)


@pytest.mark.parametrize("level", [0, 4])
def test_subsequence_reference_passes_in_the_sandbox(level: int) -> None:
    source = make_source("code/subsequence")
    problem = source.sample(level, 3)
    verdict = source.verify(problem, f"```python\n{problem.answer}```")
    if verdict.error is not None:
        pytest.skip(f"sandbox unavailable: {verdict.error}")
    assert verdict.correct


def _floor(a: int, b: int, truncated: bool) -> int:
    q = a // b
    return q + 1 if truncated and q < 0 and q * b != a else q


def _translated(program: dict, n: int, xs: list[int], slip: int | None) -> int:
    """An independent reading of a translate_program program; ``slip``: the ordinal of the ``//`` or ``%`` (in
    evaluation order of the tree, counted from 0) computed with C's rounding."""
    env = dict.fromkeys(("acc", "other", "x", "i", "j", "t", "d"), 0) | {"n": n}

    def value(e: list) -> int:
        if e[0] == "num":
            return e[1]
        if e[0] == "var":
            return env[e[1]]
        if e[0] == "index":
            return xs[(env[e[1]] - e[2]) % len(xs)]
        if e[0] == "abs":
            return abs(value(e[1]))
        a, b = value(e[2]), value(e[3])
        if e[1] in ("//", "%"):
            truncated = id(e) == slip
            q = _floor(a, b, truncated)
            return q if e[1] == "//" else a - b * q
        return OPS[e[1]](a, b)

    def holds(c: list) -> bool:
        if c[0] in ("and", "or"):
            return holds(c[1]) and holds(c[2]) if c[0] == "and" else holds(c[1]) or holds(c[2])
        return COMPARE[c[1]](value(c[2]), value(c[3]))

    def execute(body: list) -> None:
        for s in body:
            if s[0] == "set":
                env[s[1]] = value(s[2])
            elif s[0] == "if":
                execute(s[2] if holds(s[1]) else s[3])
            elif s[0] == "for_list":
                for i, x in enumerate(xs):
                    env["i"], env["x"] = i, x
                    execute(s[1])
            elif s[0] == "for_range":
                for j in range(value(s[1])):
                    env["j"] = j
                    execute(s[2])
            else:
                t = abs(value(s[1]))
                while t > 0:
                    env["d"] = t % s[2]
                    execute(s[3])
                    t //= s[2]

    execute(program["body"])
    return value(program["result"])


def _floor_nodes(node: object) -> list[list]:
    if not isinstance(node, list):
        return []
    here = [node] if node[:1] == ["bin"] and node[1] in ("//", "%") else []
    return here + [found for child in node for found in _floor_nodes(child)]


def test_translate_program_one_forgotten_floor_fails_the_hidden_tests() -> None:
    source = make_source("code/translate_program")
    rng = random.Random(36)
    escaped = slips = 0
    for level in (1, 3, 4):
        for seed in range(12):
            problem = source.sample(level, seed)
            program, tests = problem.data["program"], problem.data["tests"]
            expected = [int(e) for e in problem.data["expected"]]
            assert [_translated(program, n, xs, None) for n, xs in tests] == expected
            wide = [(rng.randint(-5, 12), [rng.randint(-20, 20) for _ in range(rng.randint(1, 10))]) for _ in range(150)]
            for node in _floor_nodes(program["body"]) + _floor_nodes(program["result"]):
                if all(_translated(program, n, xs, id(node)) == _translated(program, n, xs, None) for n, xs in wide):
                    continue  # the operand is never negative: C's rounding is Python's here
                slips += 1
                escaped += [_translated(program, n, xs, id(node)) for n, xs in tests] == expected
    assert slips > 80 and escaped / slips <= 0.08, (escaped, slips)


@pytest.mark.parametrize("level", [1, 4])
def test_translate_program_reference_passes_in_the_sandbox(level: int) -> None:
    source = make_source("code/translate_program")
    problem = source.sample(level, 5)
    verdict = source.verify(problem, problem.answer or "")
    if verdict.error is not None:
        pytest.skip(f"sandbox unavailable: {verdict.error}")
    assert verdict.correct
