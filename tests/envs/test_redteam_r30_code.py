"""Red-team regressions (round 3, session 30) for the code family: hidden tests that pin the stated rule down."""

from __future__ import annotations

import pytest

import palaestra
from palaestra.envs.code.bug_repair import TEMPLATES as BUG_TEMPLATES
from palaestra.envs.code.bug_repair import _outcome
from palaestra.envs.code.cpp_classes import TEMPLATES as CLASS_TEMPLATES
from palaestra.envs.code.cpp_classes import _line
from palaestra.verifiers.polyglot import fence


def _task(env_id: str):  # type: ignore[no-untyped-def]
    return palaestra.make(env_id, level=0).unwrapped.task


def _bug_slips(problem):  # type: ignore[no-untyped-def]
    """(slot, fault, source) of every single fault of the problem's template that passes all hidden tests."""
    spec = problem.data["spec"]
    template = next(t for t in BUG_TEMPLATES if t.name == spec["template"])
    ok = {slot: "ok" for slot in template.slots}
    return [(slot, bug, template.source(spec["constants"], {**ok, slot: bug}))
            for slot, bug in template.bugs()
            if all(_outcome(template, spec["constants"], {**ok, slot: bug}, t["args"]) == t["expected"]
                   for t in problem.data["tests"])]


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_bug_repair_hidden_tests_reject_every_single_fault(level: int) -> None:
    """The correct function with any one other fault of its template (a bound made strict, a loop ending one
    early: the wrong fix of the hinted kind) passed every hidden test of 10-20% of problems (24/120 at level 0);
    now every such fault fails some hidden test."""
    task = _task("code/bug_repair")
    for seed in range(30):
        assert _bug_slips(task.sample(level, seed)) == [], (level, seed)


def test_bug_repair_wrong_bound_fix_rejected_in_sandbox() -> None:
    """Level 0 seed 0 was count_in_range with hidden tests never at the upper bound: `lo <= x < hi` earned 1."""
    task = _task("code/bug_repair")
    problem = task.sample(0, 0)
    spec = problem.data["spec"]
    template = next(t for t in BUG_TEMPLATES if t.name == spec["template"])
    ok = {slot: "ok" for slot in template.slots}
    assert task.verify(problem, f"```python\n{problem.answer}```").reward == 1.0
    for slot, bug in template.bugs()[:3]:
        wrong = template.source(spec["constants"], {**ok, slot: bug})
        assert task.verify(problem, f"```python\n{wrong}```").reward == 0.0, (slot, bug)


@pytest.mark.parametrize("level", [0, 1, 2])
def test_cpp_classes_hidden_tests_tell_the_stated_rule_apart(level: int) -> None:
    """A class with the other tie rule, eviction policy or full-buffer policy passed every hidden test of 38/60
    problems at level 0 (30/60 at level 1); now each other value of a rule parameter fails some test."""
    task = _task("code/cpp_classes")
    for seed in range(30):
        data = task.sample(level, seed).data
        template = CLASS_TEMPLATES[data["template"]]
        for key, values in template.rules.items():
            for value in values:
                if value != data["params"][key]:
                    other = {**data["params"], key: value}
                    assert [_line(template.run(t, other)) for t in data["tests"]] != data["expected"], (level, seed)


def test_cpp_classes_min_count_is_tested() -> None:
    """With a count query, a count that always answers 1 must fail some test (ties of the extreme are tested)."""
    task = _task("code/cpp_classes")
    template = CLASS_TEMPLATES["extreme_stack"]
    seen = 0
    for seed in range(120):
        data = task.sample(seed % 2, seed).data
        if data["template"] != "extreme_stack" or not data["params"]["count"]:
            continue
        seen += 1
        count_one = template.slips(data["params"])[-1]
        assert [_line(count_one(t)) for t in data["tests"]] != data["expected"], seed
    assert seen >= 2


def test_cpp_classes_other_rule_rejected_in_sandbox() -> None:
    """Level 0 seed 0: a word counter breaking ties the other way (the reference of the other rule) earned 1; now 0,
    while the reference still earns 1 (seeds 2, 4, 5 and 10 were alike: other tie rules, full-buffer policies)."""
    task = _task("code/cpp_classes")
    checked = 0
    for seed in (0,):
        problem = task.sample(0, seed)
        data = problem.data
        template = CLASS_TEMPLATES[data["template"]]
        assert task.verify(problem, problem.answer or "").reward == 1.0
        for key, values in template.rules.items():
            other = next(v for v in values if v != data["params"][key])
            wrong = template.reference({**data["params"], key: other})
            assert task.verify(problem, f"<answer>\n{fence(('cpp', wrong))}\n</answer>").reward == 0.0, (seed, key)
            checked += 1
    assert checked >= 1
