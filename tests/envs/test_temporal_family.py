"""Temporal envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from palaestra.core.registry import make_source
from palaestra.envs.temporal.clock_angle import hands_angle
from palaestra.envs.temporal.common import clock_time


def _with_data(env_id: str, **data: object) -> tuple[object, object]:
    task = make_source(env_id)
    problem = task.sample(1, 0)
    return task, dataclasses.replace(problem, data={**problem.data, **data})


def test_clock_angle_hand_checked() -> None:
    at = lambda h, m, s=0: (h % 12) * 3600 + m * 60 + s  # noqa: E731
    assert hands_angle("hour", "minute", at(3, 0)) == 90
    assert hands_angle("hour", "minute", at(9, 23)) == Fraction(287, 2)  # 281.5 - 138
    assert hands_angle("hour", "minute", at(12, 0)) == 0 and hands_angle("hour", "minute", at(6, 0)) == 180
    assert hands_angle("minute", "second", at(1, 0, 30)) == 177  # 3 degrees against 180
    assert hands_angle("hour", "second", at(2, 0, 1)) == Fraction(7201 - 720, 120)  # 7201/120 against 6 degrees
    assert clock_time(at(12, 5, 7), True) == "12:05:07" and clock_time(at(7, 30), False) == "7:30"
    assert clock_time(at(11, 59, 59) + 2, True) == "12:00:01"  # the dial wraps every 12 hours


def test_clock_angle_grades_spellings_and_names_the_mistake() -> None:
    task, problem = _with_data("temporal/clock_angle", start=9 * 3600 + 23 * 60, elapsed=0,
                               hands=["hour", "minute"], angle="287/2")
    for right in ("287/2", "143.5", "143 1/2", "143.5°", "143.5 degrees", "\\boxed{143.5}", "Answer: 287/2."):
        assert task.verify(problem, right).correct, right
    assert "reflex" in task.verify(problem, "216.5").feedback
    assert "not the angle" in task.verify(problem, "143").feedback
    assert not task.verify(problem, "143.5 or 216.5").correct
    assert not task.verify(problem, "143.49").correct
