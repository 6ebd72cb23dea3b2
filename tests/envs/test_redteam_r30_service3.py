"""Red team, round 3 session 30 (service3): policies blind to one part of an env's stated rules.

Each scripted policy below applies an env's rules except one part, computing its calls from the records, and is
replayed through the env's multi-turn API. Before, each request was drawn as it fell, so most parts decided few
problems; now each mixed problem has a request built for every part in play, and a blind policy solves only the
one-sided problems.

service/access_requests (v2 -> v3, 60 seeds a level): "ignore separation of duties" solved 0.98 (L3), 1.00 (L4);
"contractors' rules ignored" 0.43-0.55 (L2-4); "approvals ignored" 0.15-0.35 (L1-4).
"""

from __future__ import annotations

import copy
from datetime import date, timedelta
from typing import Any

from envs_support import blind_shares

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call

ACCESS = make_source("service/access_requests")
PRIVILEGED = ("prod-admin", "db-admin", "payments-approve")
EXCLUSIVE = ("payments-create", "payments-approve")
# blind part -> the first level where it is in play
ACCESS_BLIND = {"any status": 0, "no approval needed": 1, "any approver": 1, "privileged never expire": 1,
                "contractors get privileged": 2, "contractors never expire": 2, "no duties": 3,
                "duties count only roles held before": 3}


def _access_policy(problem: Any, blind: str | None) -> list[str]:
    """The grants and the answer of the access policy applied without the part ``blind`` (None: all of it)."""
    data, rules = problem.data, problem.data["rules"]
    records = copy.deepcopy(data["records"])
    today = date.fromisoformat(records["today"])
    replies, served = [], []
    for number, request in enumerate(data["requests"], 1):
        person_id, role = request["person"], request["role"]
        person = records["people"][person_id]
        before = data["records"]["people"][person_id]["roles"]
        if person["status"] != "active" and blind != "any status":
            continue
        if role in PRIVILEGED and rules["approvals"]:
            if rules["contractors"] and person["type"] == "contractor" and blind != "contractors get privileged":
                continue
            approvers = {a["approver"] for a in records["approvals"] if a["person"] == person_id and a["role"] == role}
            if blind != "no approval needed" and not (approvers if blind == "any approver"
                                                      else approvers & {person["manager"]}):
                continue
        if rules["duties"] and role in EXCLUSIVE and blind != "no duties":
            other = EXCLUSIVE[1 - EXCLUSIVE.index(role)]
            if other in (before if blind == "duties count only roles held before" else person["roles"]):
                continue
        if role in PRIVILEGED and rules["approvals"] and blind != "privileged never expire":
            expires = (today + timedelta(days=90)).isoformat()
        elif rules["contractors"] and person["type"] == "contractor" and blind != "contractors never expire":
            expires = (today + timedelta(days=30)).isoformat()
        else:
            expires = "never"
        person["roles"][role] = None if expires == "never" else expires
        replies.append(call("grant_role", person_id=person_id, role=role, expires=expires))
        served.append(str(number))
    return [*replies, ", ".join(served) or "none"]


def test_access_r30_a_policy_blind_to_one_clause_fails_every_mixed_problem() -> None:
    shares = blind_shares(ACCESS, _access_policy, ACCESS_BLIND, range(5), 15)
    assert all(share <= 0.2 for share in shares.values()), {k: v for k, v in shares.items() if v > 0.2}
