"""Red team, round 36, the repo family: fixes that slip still passed the hidden tests.

- repo/input_validation v2: each invalid input was drawn one way at random (a size of 0 or below, one list too
  short, one side unsorted, the empty key always last after one space, the empty word always second), and the
  functions had few valid inputs on the boundary: checks with a slip (``size < 0``, one direction of the
  lengths, one side of a merge, ``"; =" in text``, ``words[1:2] == [""]``, ``len(values) < 2``) passed 0.27-0.40
  of the functions at levels 0-4 (seeds 36000-36011), several of them every one. Now every way of being invalid
  is in the hidden tests, with more valid boundary inputs: 0.
- repo/thread_parameter v2: every limit in the hidden tests was at least 1, so ``if limit:`` (0 read as None)
  passed 1.0 of levels 0-4. Now each changed function has a call with a limit of 0: 0.
- repo/data_structure_bug v2: a "fix" trading the injected bug for the template's other one passed 0.12-0.25 of
  levels 0, 2 and 3 (a cache whose get stops refreshing: 0.67). Now the hidden scenarios show each known fault
  of a class: 0.
- repo/feature_request v2: no hidden test had an empty input or fewer values than a window's size, so
  implementations failing the edge the request states (``max(values) - min(values)`` for "0 for an empty
  list", a sliding sum giving one sum for fewer values, a running maximum seeded with ``values[0]``, chunks
  giving ``[[]]`` for no values) passed 1.0 of levels 0-4. Now each new function is tested on its edges: 0.
- repo/performance_fix v2: a sliding-sum rewrite of window sums giving one sum for fewer values than the size
  (guarded for empty input) passed 1.0 of its problems at levels 0-4. Now such inputs are tested: 0.
- repo/cli_subcommand v2: merges, weighted totals and word lists were never given an empty list, so a parser
  keeping the empty part of "" (``text.split(",")``) passed 1.0 of the problems with a new word list and
  0.08-0.11 of those with integer lists. Now every list-first subcommand gets an empty list: 0.
"""

from __future__ import annotations

import re

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo._classes import CLASSES
from palaestra.envs.repo.input_validation import RULES


@pytest.fixture(scope="module", autouse=True)
def _needs_python_sandbox() -> None:
    from palaestra.sandbox import probe

    if "python" not in probe().languages:
        pytest.skip("the sandbox cannot run Python here: the repo envs run their tests in it")


def _target(problem) -> dict[str, str]:
    files = dict(problem.data["files"])
    for path, before, after in problem.data.get("changes") or problem.data["bugs"]:
        files[path] = files[path].replace(before, after) if before else after
    return files


def _reward(env_id: str, problem, files: dict[str, str]) -> float:
    return make_source(env_id).judge_episode(problem, {"repo": files}, "submit").reward


# The slips of each check (the leaf's key -> conditions that pass the old hidden tests often or always).
VALIDATION_SLIPS = {
    "window_sums": ("size < 0",),
    "weighted_total": ("len(prices) > len(counts)", "len(prices) < len(counts)"),
    "merge": ("any(a > b for a, b in zip(left, left[1:]))", "any(a > b for a, b in zip(right, right[1:]))",
              "any(a >= b for a, b in zip(left, left[1:])) or any(a >= b for a, b in zip(right, right[1:]))",
              "not left or any(a > b for a, b in zip(left, left[1:])) or any(a > b for a, b in zip(right, right[1:]))"),
    "parse_pairs": ("'; =' in text",),
    "initials": ("words[1:2] == ['']", "any(len(word) < 2 for word in words)"),
    "count_above": ("len(values) < 2",),
}


def _validated(files: dict[str, str], key: str) -> tuple[str, str] | None:
    """The path and the text of the function of template ``key`` (with its check) in the target files."""
    leaf = tpl.LEAF_BY_KEY[key]
    line = f"    if {RULES[key].check}:\n        raise ValueError(\"invalid input\")\n"
    for path, text in files.items():
        for name in re.findall(r"^def (\w+)\(", text, re.MULTILINE):
            head, body = tpl.leaf_text(leaf, name).split("\n", 1)
            if f"{head}\n{line}{body}" in text:
                return path, f"{head}\n{line}{body}"
    return None


def test_input_validation_checks_with_a_slip_fail_and_the_oracle_passes() -> None:
    found: dict[str, list] = {key: [] for key in VALIDATION_SLIPS}
    task = make_source("repo/input_validation")
    for seed in range(36_000, 36_060):
        problem = task.sample(4, seed)
        target = _target(problem)
        for key, problems in found.items():
            place = _validated(target, key)
            if place is not None and len(problems) < 2:
                problems.append((seed, problem, target, place))
        if all(len(problems) == 2 for problems in found.values()):
            break
    assert all(found.values())
    _, problem, target, _ = found["merge"][0]
    assert _reward("repo/input_validation", problem, target) == 1.0
    for key, problems in found.items():
        for seed, problem, target, (path, function) in problems:
            for slip in VALIDATION_SLIPS[key]:
                slipped = function.replace(RULES[key].check, slip, 1)
                files = {**target, path: target[path].replace(function, slipped)}
                assert files != target
                assert _reward("repo/input_validation", problem, files) == 0.0, (key, slip, seed)


def test_thread_parameter_if_limit_fails_and_the_oracle_passes() -> None:
    task = make_source("repo/thread_parameter")
    for level in (0, 2, 4):
        for seed in (36_000, 36_001):
            problem = task.sample(level, seed)
            target = _target(problem)
            assert _reward("repo/thread_parameter", problem, target) == 1.0
            slipped = {path: re.sub(r"    if (\w+) is not None:\n", r"    if \1:\n", text)
                       for path, text in target.items()}
            assert slipped != target
            assert _reward("repo/thread_parameter", problem, slipped) == 0.0, (level, seed)


def test_data_structure_fix_trading_the_bug_for_another_fails() -> None:
    task = make_source("repo/data_structure_bug")
    tried = 0
    for seed in range(36_000, 36_040):
        problem = task.sample(0, seed)
        path, bugged, fixed = problem.data["bugs"][0]
        template = next(c for c in CLASSES if any(old in fixed and fixed.replace(old, new, 1) == bugged
                                                  for old, new in c.bugs))
        if template.key not in ("cache", "stack", "counter"):
            continue
        target = _target(problem)
        if tried == 0:
            assert _reward("repo/data_structure_bug", problem, target) == 1.0
        for old, new in template.bugs:
            traded = fixed.replace(old, new, 1)
            if traded != bugged:
                files = {**target, path: target[path].replace(fixed, traded)}
                assert _reward("repo/data_structure_bug", problem, files) == 0.0, (template.key, seed)
        tried += 1
        if tried == 8:
            break
    assert tried == 8


# Rewrites that are right except at an edge (the leaf's key -> source, ``NAME`` for the function's name).
EDGE_SLIPS = {
    "spread": "def NAME(values):\n    return max(values) - min(values)\n",
    "window_sums": ("def NAME(values, size):\n    if not values:\n        return []\n    total = sum(values[:size])\n"
                    "    sums = [total]\n    for i in range(size, len(values)):\n"
                    "        total += values[i] - values[i - size]\n        sums.append(total)\n    return sums\n"),
    "running_max": ("def NAME(values):\n    peaks = [values[0]]\n    for value in values[1:]:\n"
                    "        peaks.append(max(peaks[-1], value))\n    return peaks\n"),
    "chunks": "def NAME(values, size):\n    return [values[i:i + size] for i in range(0, len(values), size)] or [[]]\n",
}


def test_feature_request_implementations_wrong_at_an_edge_fail() -> None:
    task = make_source("repo/feature_request")
    judged = 0
    for level in (1, 3):
        for seed in range(36_000, 36_005):
            problem = task.sample(level, seed)
            target = _target(problem)
            if judged == 0:
                assert _reward("repo/feature_request", problem, target) == 1.0
            for path, name in re.findall(r"^- in (\S+): `(\w+)\(", problem.prompt, re.MULTILINE):
                for key, slip in EDGE_SLIPS.items():
                    original = tpl.leaf_text(tpl.LEAF_BY_KEY[key], name)
                    if original in target[path]:
                        files = {**target, path: target[path].replace(original, slip.replace("NAME", name))}
                        assert _reward("repo/feature_request", problem, files) == 0.0, (key, level, seed)
                        judged += 1
    assert judged >= 4


def test_performance_fix_window_sums_rewrite_wrong_on_few_values_fails() -> None:
    task = make_source("repo/performance_fix")
    window = [seed for seed in range(36_000, 36_040)
              if any(key == "window_sums" for *_, key in task.sample(0, seed).data["large"])][:3]
    assert len(window) == 3
    for seed in window:
        problem = task.sample(0, seed)
        path, _, fast = next(change for change in problem.data["changes"] if not change[0].startswith("tests/"))
        name = problem.data["large"][0][1]
        start = fast.index(f"def {name}(")
        end = fast.find("\n\n\ndef ", start)
        function = fast[start:] if end == -1 else fast[start:end + 1]
        target = _target(problem)
        assert _reward("repo/performance_fix", problem, target) == 1.0
        files = {**target, path: target[path].replace(function, EDGE_SLIPS["window_sums"].replace("NAME", name))}
        assert files != target
        assert _reward("repo/performance_fix", problem, files) == 0.0, seed


def test_cli_subcommand_parsers_keeping_the_empty_part_fail() -> None:
    task = make_source("repo/cli_subcommand")
    judged = 0
    for seed in range(36_000, 36_060):
        problem = task.sample(2, seed)
        path, before, after = problem.data["changes"][0]
        added = [line for line in after.splitlines() if "lambda args" in line and line not in before.splitlines()]
        lists = [line for line in added if "_words(args[0])" in line or line.count("_ints(") == 2]
        if not lists:
            continue
        target = _target(problem)
        if judged == 0:
            assert _reward("repo/cli_subcommand", problem, target) == 1.0
        text = after.replace("def _ints(text):", "def _split(text):\n    return text.split(\",\")\n\n\ndef _ints(text):")
        for line in lists:
            keeping = line.replace("_words(", "_split(").replace("_ints(args[0])", "[int(x) for x in _split(args[0])]")
            text = text.replace(line, keeping)
        assert _reward("repo/cli_subcommand", problem, {**target, path: text}) == 0.0, seed
        judged += 1
        if judged == 4:
            break
    assert judged == 4
