"""Red-team regressions (round 3, session 30, helper code2): hidden tests that pin the stated rule down in
code/js_functions, code/verilog_fsm and code/verilog_sequential."""

from __future__ import annotations

import json

import pytest

import palaestra
from palaestra.envs.code import _hdl as hdl
from palaestra.envs.code.js_functions import TEMPLATES as JS_TEMPLATES
from palaestra.verifiers.polyglot import fence


def _task(env_id: str):  # type: ignore[no-untyped-def]
    return palaestra.make(env_id, level=0).unwrapped.task


def _canon(value: object) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_js_functions_hidden_tests_reject_every_slip(level: int) -> None:
    """A function with the other merge policy or array rule, flatten's other array rule, objects inside arrays left
    unconverted, the mean truncated... passed every hidden test of 12-27 of 60 problems per level; now each slip
    (each other value of a rule parameter and each near miss) fails some hidden test."""
    task = _task("code/js_functions")
    for seed in range(25):
        data = task.sample(level, seed).data
        template = JS_TEMPLATES[data["template"]]
        expected = [_canon(r) for r in data["results"]]
        assert template.slips(data["params"])
        for slip in template.slips(data["params"]):
            assert [_canon(slip(args)) for args in data["tests"]] != expected, (level, seed)


def test_js_functions_other_merge_rule_rejected_in_sandbox() -> None:
    """deep_merge with the other policy or array rule (the reference for those rules) earns 0; the gold earns 1."""
    task = _task("code/js_functions")
    template = JS_TEMPLATES["deep_merge"]
    problem = next(pr for pr in (task.sample(3, seed) for seed in range(40)) if pr.data["template"] == "deep_merge")
    p = problem.data["params"]
    assert task.verify(problem, fence(("javascript", template.reference(p)))).reward == 1.0
    for key, values in template.rules.items():
        for value in values:
            if value != p[key]:
                wrong = template.reference({**p, key: value})
                assert task.verify(problem, fence(("javascript", wrong))).reward == 0.0, (key, value)


@pytest.mark.parametrize("env_id", ["code/verilog_fsm", "code/verilog_sequential"])
def test_verilog_hidden_cycles_reject_ignored_reset_and_slips(env_id: str) -> None:
    """A design ignoring mid-run resets (registers initialised instead) passed 40/60 verilog_fsm problems at level 0;
    the other overlap rule, a modulus off by one, wrapping instead of saturating passed 5-16/60 per level. Now each
    fails some hidden cycle."""
    task = _task(env_id)
    for level in range(5):
        for seed in range(12):
            data = task.sample(level, seed).data
            template = task.templates[data["template"]]
            cycles, expected = data["cycles"], data["expected"]
            assert hdl.simulate(template, data["params"], [{**x, "rst": 0} for x in cycles]) != expected
            for q in template.slips(data["params"]):
                assert hdl.simulate(template, q, cycles) != expected, (level, seed, q)


def test_verilog_fsm_overlap_slip_rejected_in_sandbox() -> None:
    """A sequence detector with the other overlap rule (the reference for it) earns 0; the gold earns 1."""
    task = _task("code/verilog_fsm")
    problem = next(pr for pr in (task.sample(0, seed) for seed in range(40))
                   if pr.data["template"] == "sequence_detector"
                   and task.templates["sequence_detector"].border(pr.data["params"]))  # overlap can matter
    template = task.templates["sequence_detector"]
    p = problem.data["params"]
    assert task.verify(problem, fence(("verilog", template.reference(p)))).reward == 1.0
    wrong = template.reference({**p, "overlap": not p["overlap"]})
    assert task.verify(problem, fence(("verilog", wrong))).reward == 0.0
