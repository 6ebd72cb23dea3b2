"""Round 3, twenty-fifth session (the lead's fixes after the red team's reports)."""

from __future__ import annotations

from fractions import Fraction

from palaestra.core.registry import make_source
from palaestra.envs.economics.npv_irr import _rough_irr


def _irr_problems(count: int) -> list:
    task = make_source("economics/npv_irr")
    problems = [task.sample(level, seed) for level in (2, 3) for seed in range(count)]
    return [p for p in problems if p.data["mode"] == "irr"]


def test_irr_snapped_to_a_few_rates_earns_nothing() -> None:
    """v2 planted one of nine whole-percent rates: the one-line estimate snapped to them was right every time."""
    task = make_source("economics/npv_irr")
    nine = (4, 5, 6, 8, 10, 12, 15, 20, 25)
    problems = _irr_problems(40)
    assert len(problems) >= 20
    for problem in problems:
        estimate = _rough_irr(problem.data["flows"]) * 100
        snapped = min(nine, key=lambda rate: abs(rate - estimate))
        assert not task.check(problem, task.format_answer(f"{snapped}%")).correct
        assert task.check(problem, task.format_answer(problem.answer or "")).correct


def test_irr_is_judged_by_the_sign_change_not_by_the_reference() -> None:
    task = make_source("economics/npv_irr")
    for problem in _irr_problems(12):
        rate = Fraction(problem.data["rate"]) * 100  # the reference, in percent, to two decimals
        assert task.verify(problem, f"{float(rate):.3f}%").correct  # more decimals, still within the half-hundredth
        for off in (Fraction(1, 100), Fraction(-1, 100)):
            assert not task.verify(problem, f"{float(rate + off):.2f}%").correct


def test_merge_intervals_generates_far_past_its_presets() -> None:
    """Found by the full kit: v2's redraw (touching and one-apart intervals must both matter) ran out at level 40,
    where intervals as long as the linear growth made them merged the whole list; their length now stays at 18."""
    source = make_source("algorithms/merge_intervals")
    for seed in range(8):
        problem = source.sample(40, seed)
        assert source.check(problem, source.format_answer(problem.answer or "")).correct
