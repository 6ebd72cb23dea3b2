"""Red team r32: service/library_loans' borrowing limits both decide one conversation (v3, 60 seeds a level).

In v2 the requests were renewals then borrows and fines only grew, so whichever limit bound first bound for the
rest: at levels 3-5 a policy blind to the 10-loan limit solved 1.00 of the problems, blind to the $5.00 fines limit
0.72-0.87, blind to the fine cap 0.90-0.93, never charging fines 0.70-0.85, blind to the renewal cap 0.62-0.78,
blind to holds 0.30-0.38. v3 adds fine payments and, in mixed level-3+ problems, a borrow refused by each limit
alone, a borrow refused by a hold alone, a renewal refused by the cap alone and an overdue renewal with a capped
fine: every one of those blind policies now solves 0.07-0.20 (the floor is the shared tenth of all-allowed problems).
"""

from __future__ import annotations

from typing import Any

import pytest
from envs_support import blind_shares

import palaestra.envs.service.library_loans as loans_env
from palaestra.core.registry import make_source

LOANS = make_source("service/library_loans")
BLINDS = {"loans": 3, "fines": 3, "holds": 3, "renewal cap": 3, "fine cap": 3, "fine never charged": 3}


def _blind_allowed(blind: str | None) -> Any:
    def allowed(records: Any, patron_id: str, request: dict[str, str], rules: dict[str, bool]) -> bool:
        items = records["items"]
        if request["kind"] == "renew":
            loan = records["loans"][request["loan"]]
            held = any(h != patron_id for h in items[loan["item"]]["holds"])
            return (blind == "renewal cap" or loan["renewals"] < loans_env.MAX_RENEWALS) and (blind == "holds" or not held)
        if request["kind"] == "borrow":
            queue = items[request["item"]]["holds"]
            if loans_env._on_loan(records, request["item"]) or (blind != "holds" and queue and queue[0] != patron_id):
                return False
            count = sum(loan["patron"] == patron_id for loan in records["loans"].values())
            at_loans = blind != "loans" and count >= loans_env.MAX_LOANS
            at_fines = blind != "fines" and records["patrons"][patron_id]["fines_cents"] > loans_env.MAX_FINES
            return not (rules["limits"] and (at_loans or at_fines))
        return 0 < int(request["cents"]) <= records["patrons"][patron_id]["fines_cents"]
    return allowed


def _policy(problem: Any, blind: str | None) -> list[str]:
    """The env's own plan, played with one clause of the policy left out."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loans_env, "_allowed", _blind_allowed(blind))
        if blind == "fine cap":
            patch.setattr(loans_env, "FINE_CAP", 10**9)
        if blind == "fine never charged":
            patch.setattr(loans_env, "_fine", lambda records, loan: 0)
        return LOANS.plan(problem)


def test_no_single_clause_blind_policy_solves_level_3_up() -> None:
    shares = blind_shares(LOANS, _policy, BLINDS, range(3, 6), 40)
    assert max(shares.values()) <= 0.3, shares
