"""The shared English wording of prompts."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.generators.wording import ordinal


def test_ordinals_take_their_suffixes_and_the_teens_take_th() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]


def test_expected_value_asks_for_the_2nd_success_not_the_2th() -> None:
    source = make_source("probability/expected_value")
    prompts = [source.sample(level, seed).prompt for level in range(5) for seed in range(60)]
    assert any("nd success" in p or "rd success" in p for p in prompts)
    assert not any(f"{k}th success" in p for p in prompts for k in (1, 2, 3))
