"""Red team, round 3 session 34 (lead): service/library_loans v4, every clause decides in every problem.

Version 3 made both borrowing limits decide from level 3 but left levels 0-2 to chance: over 60 seeds a policy blind
to the renewal cap solved 0.73, 0.90, 0.80 of levels 0-2, one allowing a single renewal 0.70, 0.98, 0.92, one
never charging late fines 0.90 of level 2 (and 0.97 with every fine at the $10.00 cap or at the book rate), one
giving every item the book's 21 days 0.57-0.60 of levels 0-1; from level 3, every fine at the cap still solved
0.90-0.97 and the book rate for DVDs 0.57-0.60. Version 4 gives every problem with a refused request a refusal by
the cap alone and one by a hold alone, and every problem with an allowed one a second renewal, a book and a DVD,
and (where fines are charged) overdue renewals of a book and a DVD fined in full and one fined at the cap: each of
those policies now solves at most the share of problems whose requests are all on the other side of the policy.
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest
from envs_support import solves

import palaestra.envs.service.library_loans as loans_env
from palaestra.core.registry import make_source

LOANS = make_source("service/library_loans")


def _days_late(records: Any, loan: Any) -> int:
    return (date.fromisoformat(records["today"]) - date.fromisoformat(loan["due"])).days


MISREADINGS = {  # name: (first level where it can err, the module attributes it replaces)
    "a single renewal": (0, {"MAX_RENEWALS": 1}),
    "21 days for every item": (0, {"LOAN_DAYS": {"book": 21, "dvd": 21}}),
    "7 days for every item": (0, {"LOAN_DAYS": {"book": 7, "dvd": 7}}),
    "no late fines": (2, {"_fine": lambda records, loan: 0}),
    "every late fine at the cap": (2, {"_fine": lambda records, loan: loans_env.FINE_CAP
                                       if _days_late(records, loan) > 0 else 0}),
    "the book's rate for every item": (2, {"_fine": lambda records, loan: min(loans_env.FINE_CAP,
                                                                               25 * _days_late(records, loan))
                                           if _days_late(records, loan) > 0 else 0}),
    "no fine cap": (2, {"FINE_CAP": 10**9}),
}


def _misread_plan(problem: Any, replaced: dict[str, Any]) -> list[str]:
    """The env's own plan with one rule of its policy misread."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in replaced.items():
            patch.setattr(loans_env, name, value)
        return LOANS.plan(problem)


@pytest.mark.parametrize("misreading", sorted(MISREADINGS))
def test_no_single_misreading_solves_more_than_the_one_sided_problems(misreading: str) -> None:
    first, replaced = MISREADINGS[misreading]
    for level in range(max(first, 0), 5):
        solved = sum(solves(LOANS, problem, _misread_plan(problem, replaced))
                     for problem in (LOANS.sample(level, seed) for seed in range(30)))
        assert solved / 30 <= 0.2, (misreading, level, solved)


def test_levels_0_to_2_test_the_renewal_cap_and_the_holds_in_every_problem_with_a_refusal() -> None:
    for level in range(3):
        for seed in range(40):
            problem = LOANS.sample(level, seed)
            records, patron_id = problem.data["records"], next(iter(problem.data["records"]["patrons"]))
            world, tested, refused = copy.deepcopy(records), set(), False
            for request in problem.data["requests"]:
                tested |= loans_env._tests(world, patron_id, request, problem.data["rules"])
                if loans_env._allowed(world, patron_id, request, problem.data["rules"]):
                    loans_env._serve(world, patron_id, request, problem.data["rules"])
                else:
                    refused = True
            if refused:
                assert {"cap", "hold"} <= tested, (level, seed, tested)


def test_the_reference_plan_solves_every_level() -> None:
    for level in range(7):
        for seed in range(10):
            problem = LOANS.sample(level, seed)
            assert solves(LOANS, problem, LOANS.plan(problem)), (level, seed)
