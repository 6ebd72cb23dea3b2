"""Red team, round 3, session 36: code envs whose hidden tests let a program with one slip pass.

- code/subsequence (v3): a rule's bound moved by one, or an order or ratio read with the other strictness, passed
  every hidden test in 0.19-0.32 of the (problem, slip) pairs, and in 0.09-0.22 where a short list tells the slip
  apart from the rule (levels 0-4); the tests now hold a list that rejects each such slip: 0.01-0.04.
"""

from __future__ import annotations

import random
import re

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.code.common import compiled_function


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
