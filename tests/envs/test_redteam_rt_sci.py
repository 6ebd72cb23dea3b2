"""Red-team regressions for the physics, chemistry, biology, economics and proofs families (#21): shortcuts that
earned reward without solving, and answers a careful grader reads differently, each pinned by a test that fails
on the old code."""

from __future__ import annotations

import re

import palaestra
from palaestra.kit.base import sample


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- economics/voting_rules: a rule other than the stated one must rarely elect the winner --------------------

def _ballots(problem) -> list[tuple[int, list[int]]]:
    names = problem.data["names"]
    ballots = []
    for line in problem.prompt.splitlines():
        match = re.fullmatch(r"(\d+) voters?: (.*)", line)
        if match:
            ballots.append((int(match.group(1)), [names.index(n) for n in match.group(2).split(" > ")]))
    return ballots


def test_voting_rules_other_rules_rarely_elect_the_winner():
    from palaestra.envs.economics.voting_rules import RULE_WEIGHT, winner

    hits = dict.fromkeys(RULE_WEIGHT, 0)
    asked = dict.fromkeys(RULE_WEIGHT, 0)
    for seed in range(80):
        problem = sample("economics/voting_rules", 2, seed)
        ballots, names = _ballots(problem), problem.data["names"]
        assert winner(problem.data["rule"], ballots, len(names)) == names.index(problem.answer)
        for rule in RULE_WEIGHT:
            if rule != problem.data["rule"]:
                asked[rule] += 1
                hits[rule] += winner(rule, ballots, len(names)) == names.index(problem.answer)
    # before the fix Borda's winner won 79% of Schulze elections and Schulze's 67% of instant-runoff ones
    for rule in RULE_WEIGHT:
        assert hits[rule] <= 0.35 * asked[rule], (rule, hits[rule], asked[rule])
