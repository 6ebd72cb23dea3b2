"""Red team, round 3 session 35: service/insurance_claims v3, every part of the claim rules in play decides in every problem.

Each scripted policy below files claims by the stated rules except one part (or one side of it), computing its calls
from the records, and is replayed through the env's multi-turn API. v2 drew incidents as they fell: on 40 seeds a
level (0-5), ignoring the coverage period solved 1.00 of every level (an incident outside it was always also past the
filing window), excluding its start or end day 1.00, the other holder's policy 0.82-0.97, the filing window
0.40-0.70, 29 or 31 days 0.93-1.00, no cap 0.55-0.82, the cap against the limit as it stood before the conversation
0.78-1.00, filing claims that pay nothing at $0.00 0.55-0.82, thefts without a police report 0.72-0.93 (levels 2-5),
no thefts or the report left off 0.50-0.70, the deductible ignored 0.03-0.23. v3 puts the rules in play by level
(the cap from level 1, thefts from level 2, the coverage period from level 3; 4, 5, 7, 9 and 10 incidents at levels
0-4) and draws a refused incident for each refusing rule in play and a filed one for the 30th day, the cap, a theft's
report and the ends of the cover, aimed at the parts not yet decided, never an incident a rule out of play would
decide, and a draw some blind policy would serve alike drawn again: 0.00-0.17 a level (40 seeds), the problems all
on the other side of the rules. A part out of play is checked to decide nothing at the levels before its own.
"""

from __future__ import annotations

import copy
from datetime import date, timedelta
from typing import Any

from envs_support import blind_shares, solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call, dollars

CLAIMS = make_source("service/insurance_claims")
TODAY = date(2024, 11, 18)
# blind part -> the first level where it is in play
BLINDS = {"other holder": 0, "no filing window": 0, "29 days": 0, "31 days": 0, "no deductible": 0,
          "file $0.00 claims": 0, "no cap": 1, "cap before deductible": 1, "cap against the whole limit": 1,
          "cap against the limit before the conversation": 1, "theft without report": 2, "no theft claims": 2,
          "report not recorded": 2, "no coverage period": 3, "start day excluded": 3, "end day excluded": 3,
          "both end days excluded": 3, "a day wider cover": 3}


def _payout(records: Any, start: Any, incident: Any, theft_rule: bool, blind: str | None) -> int | None:
    terms = records["policies"][incident["policy"]]
    day = date.fromisoformat(incident["date"])
    if terms["holder"] != records["caller"] and blind != "other holder":
        return None
    first, last = date.fromisoformat(terms["start"]), date.fromisoformat(terms["end"])
    if blind == "a day wider cover":
        first, last = first - timedelta(days=1), last + timedelta(days=1)
    if blind in ("start day excluded", "both end days excluded"):
        first += timedelta(days=1)
    if blind in ("end day excluded", "both end days excluded"):
        last -= timedelta(days=1)
    if blind != "no coverage period" and not first <= day <= last:
        return None
    window = {"29 days": 29, "31 days": 31}.get(blind or "", 30)
    if blind != "no filing window" and (TODAY - day).days > window:
        return None
    if theft_rule and incident["theft"] and (blind == "no theft claims"
                                             or (not incident["report"] and blind != "theft without report")):
        return None
    paid = {"cap against the whole limit": 0,
            "cap against the limit before the conversation": start["policies"][incident["policy"]]["paid_cents"]
            }.get(blind or "", terms["paid_cents"])
    cost, deductible, left = incident["cost_cents"], terms["deductible_cents"], terms["limit_cents"] - paid
    payout = {"no deductible": min(cost, left), "no cap": cost - deductible,
              "cap before deductible": min(cost, left) - deductible}.get(blind or "", min(cost - deductible, left))
    return payout if payout > 0 else 0 if blind == "file $0.00 claims" else None


def _policy(problem: Any, blind: str | None) -> list[str]:
    """The calls, messages and answer of the claim rules applied without the part ``blind`` (None: all of them)."""
    data = problem.data
    records = copy.deepcopy(data["records"])
    replies = [call("find_policyholder", email=records["holders"][records["caller"]]["email"])]
    total, filed = 0, 0
    for incident in data["incidents"]:
        if incident["theft"]:
            replies.append("Do you have a police report number for the theft?")
        replies.append(call("get_policy", policy_id=incident["policy"]))
        payout = _payout(records, data["records"], incident, data["theft_rule"], blind)
        message = "I'm sorry, the rules do not allow this claim."
        if payout is not None:
            report = incident["report"] if data["theft_rule"] and blind != "report not recorded" else ""
            replies.append(call("file_claim", policy_id=incident["policy"], incident_date=incident["date"],
                                cost_cents=incident["cost_cents"], payout_cents=payout, police_report=report))
            records["policies"][incident["policy"]]["paid_cents"] += payout
            message = f"Filed as claim CL{100 + filed}, paying {dollars(payout)}."
            filed, total = filed + 1, total + payout
        replies.append(f"{message} Anything else?")
    return [*replies, dollars(total)]


def test_no_policy_blind_to_one_part_of_the_rules_solves_more_than_the_one_sided_problems() -> None:
    shares = blind_shares(CLAIMS, _policy, BLINDS, range(5), 30)
    assert max(shares.values()) <= 0.2, {key: share for key, share in shares.items() if share > 0.2}


def test_a_part_of_the_rules_out_of_play_decides_nothing() -> None:
    for level in range(3):
        for seed in range(10):
            problem = CLAIMS.sample(level, seed)
            for blind in (blind for blind, first in BLINDS.items() if level < first):
                assert solves(CLAIMS, problem, _policy(problem, blind)), (level, seed, blind)


def test_the_reference_plan_solves_every_level() -> None:
    for level in range(7):
        for seed in range(10):
            problem = CLAIMS.sample(level, seed)
            assert solves(CLAIMS, problem, CLAIMS.plan(problem)), (level, seed)
