"""Round 3, twenty-fifth session: a reply of "nothing served" with no look at the records paid the service envs'
all-refused share (a tenth of the problems in version 1: 0.07-0.13 for "none" or "$0.00"); that side is now a
twenty-fifth of the problems (serving every request still takes every action, so its side keeps a tenth)."""

from __future__ import annotations

import random

import pytest

from palaestra.envs.service.common import ALL_ALLOWED, ALL_REFUSED, draw_side
from palaestra.kit.base import make_source
from palaestra.kit.policies import judge


def test_draw_side_shares() -> None:
    rng = random.Random(25)
    sides = [draw_side(rng) for _ in range(20_000)]
    assert sides.count("all refused") / len(sides) == pytest.approx(ALL_REFUSED, abs=0.006)
    assert sides.count("all allowed") / len(sides) == pytest.approx(ALL_ALLOWED, abs=0.008)
    assert ALL_REFUSED <= 0.05


@pytest.mark.parametrize(("env_id", "constant"), [("service/access_requests", "none"),
                                                  ("service/airline_changes", "$0.00")])
def test_nothing_served_without_a_look_earns_little(env_id: str, constant: str) -> None:
    source = make_source(env_id)
    scores = [judge(source, source.sample(level, 50_000 + seed), constant) for level in range(5) for seed in range(60)]
    assert sum(scores) / len(scores) < 0.08  # version 1: 0.096 and 0.102 over 500 problems; now 0.038 and 0.046


def test_a_quantity_named_by_one_word_before_equals_is_read() -> None:
    """temporal/clock_angle refused "angle = 91.5" while it took "θ = 91.5°"; a one-word name is now read like x."""
    from palaestra.verifiers.numeric import read_number

    assert read_number("angle = 91.5") == read_number("Angle = 91.5") == read_number("91.5")
    assert read_number("angle = 91.5 or 92") is None and read_number("the angle = 91.5 = 92") is None
