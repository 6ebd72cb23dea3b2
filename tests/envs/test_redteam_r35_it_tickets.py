"""Red team, round 3 session 35 (lead): service/it_tickets v3, every clause in play decides every mixed problem.

Version 2 drew requests as they fell: on 40 seeds a level, a policy following the whole policy but one clause solved
0.50-0.88 of levels 0-5 without the colleague clause, 0.82-0.97 raising any ticket to priority 1, 0.55-0.88 moving to
any team, 0.78-0.95 reopening at any age, 0.50-0.82 always opening a ticket, 0.55-0.70 blind to the VIP exception,
and one taking day 7 as too late 0.75-0.95. Version 3 gives every clause in play a request it alone decides, both
ways (refusing every priority, move or create fails too), and the VIP exception, which a single employee could test
only one way, is a ticket's "blocks a whole team" now: the misreading policies solve 0.00-0.12 a level (40 seeds),
the one-sided problems (a tenth all allowed, a twenty-fifth all refused) and little more.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from envs_support import blind_shares, solves

import palaestra.envs.service.it_tickets as it
from palaestra.core.registry import make_source
from palaestra.envs.service.common import call

TICKETS = make_source("service/it_tickets")
# blind clause (as it._allowed reads it) -> the first level where it is in play
BLINDS = {"own": 0, "priority": 0, "no_priority": 0, "reopen": 1, "edge": 1, "team": 2, "no_move": 2, "blocking": 3,
          "create": 3, "no_create": 3}


def _policy(problem: Any, blind: str | None) -> list[str]:
    """The help-desk policy's calls and answer without the clause ``blind`` (None: all of it), from the records."""
    data = problem.data
    records = copy.deepcopy(data["records"])
    person = records["employees"][data["employee"]]
    replies, served = [call("find_employee", email=person["email"])], []
    for number, request in enumerate(data["requests"], 1):
        if number - 1 == data["ambiguous"]:
            replies.append("You have more than one such ticket: which one do you mean?")
        if request["kind"] != "create":
            replies.append(call("get_ticket", ticket_id=request["ticket"]))
        allowed, message = it._allowed(records, data["employee"], request, data["blocking_rule"], blind)
        if allowed:
            replies.append(it._action(data["employee"], request))
            it._apply(records, data["employee"], request)
            served.append(str(number))
        replies.append(f"{message or ('Done.' if allowed else 'The policy does not allow that.')} Anything else?")
    return [*replies, ", ".join(served) or "none"]


def test_no_policy_blind_to_one_clause_solves_more_than_the_one_sided_problems() -> None:
    shares = blind_shares(TICKETS, _policy, BLINDS, range(5), seeds=30)
    assert max(shares.values()) <= 0.2, {key: share for key, share in shares.items() if share > 0.2}


@pytest.mark.parametrize("level", range(7))
def test_the_reference_plan_solves_every_level(level: int) -> None:
    for seed in range(10):
        problem = TICKETS.sample(level, seed)
        assert solves(TICKETS, problem, TICKETS.plan(problem)), (level, seed)


def test_a_level_states_only_the_clauses_of_its_kinds_of_request() -> None:
    first, third, fourth = TICKETS.sample(0, 1), TICKETS.sample(2, 1), TICKETS.sample(3, 1)
    assert "2. Priority 1 is only for network tickets." in first.prompt and "3. " not in first.prompt
    assert {r["kind"] for r in first.data["requests"]} == {"priority"}
    assert "Move a ticket only" in third.prompt and "Open a new ticket only" not in third.prompt
    assert "block a whole team" not in third.prompt and "block a whole team" in fourth.prompt
    assert "5. Open a new ticket only" in fourth.prompt
