"""Red-team regressions (round 3, session 30, helper code3): code/verilog_fsm's hidden cycles reject a state table
with one transition or output changed, and keep sequence detectors at every level."""

from __future__ import annotations

import palaestra
from palaestra.envs.code import _hdl as hdl
from palaestra.verifiers.polyglot import fence


def _task():  # type: ignore[no-untyped-def]
    return palaestra.make("code/verilog_fsm", level=0).unwrapped.task


def _changed_tables(p: dict) -> list[dict]:  # type: ignore[type-arg]
    """Every table with one transition led to a state not equivalent to the stated one."""
    labels = _task().templates["state_table"].classes(p)
    return [{**p, "table": [[u if (r, c) == (s, v) else w for c, w in enumerate(row)] for r, row in enumerate(p["table"])]}
            for s, row in enumerate(p["table"]) for v, t in enumerate(row)
            for u in range(p["states"]) if labels[u] != labels[t]]


def test_verilog_fsm_state_table_one_transition_changed_fails() -> None:
    """A table with one transition changed passed every hidden cycle of 26/36 state-table problems at level 0 and
    16/17 at level 4 (seeds 0-59); now each such change fails some cycle."""
    task = _task()
    template = task.templates["state_table"]
    seen = 0
    for level in (0, 1, 3):
        for seed in range(30):
            data = task.sample(level, seed).data
            if data["template"] != "state_table":
                continue
            seen += 1
            for q in _changed_tables(data["params"]):
                assert not hdl.matches(template, q, data["cycles"], data["expected"]), (level, seed)
    assert seen >= 10


def test_verilog_fsm_sequence_detector_at_every_level() -> None:
    """With the overlap slip declared, borderless patterns (where the rule is moot) could never be drawn and random
    bits rarely held an occurrence: sequence detectors fell to 1/60 at level 2 and 0/60 at levels 3-4."""
    task = _task()
    for level in (2, 3, 4):
        assert sum(task.sample(level, seed).data["template"] == "sequence_detector" for seed in range(40)) >= 4


def test_verilog_fsm_changed_transition_rejected_in_sandbox() -> None:
    """The reference of a table with one transition changed earns 0; the gold earns 1 (level 0, seed 1 style)."""
    task = _task()
    template = task.templates["state_table"]
    problem = next(pr for pr in (task.sample(0, seed) for seed in range(40)) if pr.data["template"] == "state_table")
    p = problem.data["params"]
    assert task.verify(problem, fence(("verilog", template.reference(p)))).reward == 1.0
    wrong = _changed_tables(p)[0]
    assert task.verify(problem, fence(("verilog", template.reference(wrong)))).reward == 0.0
