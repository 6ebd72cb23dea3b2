"""Red team r31: every clause of service/subscription_changes' policy decides its problems (v2, levels 2-5: serving
the requests with the trial clause left out met the policy in 0.43-0.65 of the problems, the annual clause 0.46-0.63,
the past-due clause 0.45-0.54, the cancellation rule read as always "now" 0.65-0.76, always "at renewal" 0.52-0.75)."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.service import subscription_changes as sc
from palaestra.envs.service.common import served_records

SUBSCRIPTIONS = make_source("service/subscription_changes")


@functools.cache
def _data(level: int, seed: int) -> Any:
    return SUBSCRIPTIONS.sample(level, seed).data


def _allowed_without(clause: str) -> Any:
    """The policy's allow rule with ``clause`` left out (the others still apply)."""
    def allowed(records: dict[str, Any], request: dict[str, Any], rules: dict[str, bool]) -> bool:
        sub = records["subscriptions"][request["sub"]]
        if request["kind"] == "cancel":
            return True
        if clause != "trial" and sub["status"] == "trial":
            return False
        if clause != "past due" and rules["past_due"] and sub["status"] == "past_due":
            return False
        shrinking = (request["kind"] == "plan" and sc.PLANS[request["plan"]] < sc.PLANS[sub["plan"]]) or (
            request["kind"] == "seats" and request["seats"] < 0)
        return not (clause != "annual" and rules["annual"] and sub["billing"] == "annual" and shrinking)
    return allowed


def _share(clause: str, levels: range, seeds: int, monkeypatch: pytest.MonkeyPatch) -> float:
    """The share of the problems (whose level has the clause) that the policy without ``clause`` serves rightly."""
    right = counted = 0
    for level in levels:
        for seed in range(seeds):
            data = _data(level, seed)
            truth = served_records(data, sc._allowed, sc._serve)
            with monkeypatch.context() as patch:
                if clause in ("always now", "always at renewal"):  # the cancellation rule read one way only
                    patch.setattr(sc, "COOLING_OFF_DAYS", 10_000 if clause == "always now" else -1)
                blind = served_records(data, _allowed_without(clause), sc._serve)
            right += blind == truth
            counted += 1
    return right / counted


@pytest.mark.parametrize("clause, levels, bound", [
    ("trial", range(2, 5), 0.35), ("annual", range(2, 5), 0.35), ("past due", range(4, 6), 0.4),
    ("always now", range(3, 6), 0.35), ("always at renewal", range(3, 6), 0.35)])
def test_subscriptions_r31_each_clause_decides(clause: str, levels: range, bound: float,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert _share(clause, levels, 40, monkeypatch) < bound
