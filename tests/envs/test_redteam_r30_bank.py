"""Red team, round 3 session 30: service/bank_transfers, policies blind to one clause of the bank's policy.

Each scripted policy below applies the stated policy except one clause (or one part of a clause), computing its
decisions from the records as it goes, and is replayed through the env's multi-turn API. In v2 each clause decided
only some problems, so "ignore holds" solved 0.42-0.53 of levels 1-4, "ignore the daily limit" about 0.6 of
levels 3-4, "ignore frozen accounts" 0.80 of level 4, "credit the amount unconverted" 0.14-0.27 of levels 2-4 and
"check against the balances as the conversation began" 0.61-0.78 of every level (100 seeds a level). v3 draws every
mixed problem so that each part decides a request on its own: the blind policies now solve only the problems whose
requests are all allowed or all refused (0.01-0.08 a level on 100 seeds), and the full policy still solves all.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from envs_support import solves

from palaestra.core.registry import make_source
from palaestra.envs.service.common import call

BANK = make_source("service/bank_transfers")
TODAY = "2024-09-12"
LIMIT = 200_000
RATES = {("USD", "EUR"): "0.9150", ("EUR", "USD"): "1.0920", ("USD", "GBP"): "0.7850",
         ("GBP", "USD"): "1.2710", ("EUR", "GBP"): "0.8560", ("GBP", "EUR"): "1.1660"}
# blind part -> the first level where it is in play
BLIND = {"holds": 1, "rates": 2, "limit": 3, "limit counts yesterday": 3, "limit counts own accounts": 3,
         "limit ignores the log": 3, "frozen": 4, "frozen may receive": 4, "first balances": 0}


def _policy(problem: Any, blind: str | None) -> list[str]:
    """The tool calls and the answer of the bank's policy applied without the part ``blind`` (None: all of it)."""
    data = problem.data
    records = copy.deepcopy(data["records"])
    first = copy.deepcopy(records)
    accounts = records["accounts"]
    replies, served = [], []
    for number, request in enumerate(data["requests"], 1):
        source, target, amount = accounts[request["from"]], accounts[request["to"]], request["amount_cents"]
        ok = True
        statuses = (source["status"],) if blind == "frozen may receive" else (source["status"], target["status"])
        if data["rules"]["frozen"] and blind != "frozen" and "frozen" in statuses:
            ok = False
        base = first["accounts"][request["from"]] if blind == "first balances" else source
        if amount > base["balance_cents"] - (0 if blind == "holds" else sum(base["holds"])):
            ok = False
        counted = target["owner"] != source["owner"] or blind == "limit counts own accounts"
        if data["rules"]["limit"] and blind != "limit" and counted:
            log = records["transfers"][len(first["transfers"]):] if blind == "limit ignores the log" \
                else records["transfers"]
            sent = sum(t["amount_cents"] for t in log if t["from"] == request["from"]
                       and (t["date"] == TODAY or blind == "limit counts yesterday")
                       and (accounts[t["to"]]["owner"] != source["owner"] or blind == "limit counts own accounts"))
            ok = ok and sent + amount <= LIMIT
        if not ok:
            continue
        pair = (source["currency"], target["currency"])
        credited = amount if pair[0] == pair[1] or blind == "rates" else int(amount * Fraction(RATES[pair]))
        source["balance_cents"] -= amount
        target["balance_cents"] += credited
        records["transfers"].append({"date": TODAY, "from": request["from"], "to": request["to"],
                                     "amount_cents": amount, "credited_cents": credited})
        replies.append(call("transfer", from_account=request["from"], to_account=request["to"],
                            amount_cents=amount, credited_cents=credited))
        served.append(str(number))
    return [*replies, ", ".join(served) or "none"]


def _one_sided(problem: Any) -> bool:
    return problem.answer in ("none", ", ".join(str(n) for n in range(1, len(problem.data["requests"]) + 1)))


def test_bank_r30_a_policy_blind_to_one_clause_fails_every_mixed_problem() -> None:
    seeds = 24
    for level in range(5):
        wins = dict.fromkeys(BLIND, 0)
        for seed in range(seeds):
            problem = BANK.sample(level, seed)
            assert solves(BANK, problem, _policy(problem, None)), (level, seed)
            for blind, first_level in BLIND.items():
                if level >= first_level and solves(BANK, problem, _policy(problem, blind)):
                    assert _one_sided(problem), (level, seed, blind)
                    wins[blind] += 1
        for blind, first_level in BLIND.items():
            if level >= first_level:
                assert wins[blind] / seeds <= 0.15, (level, blind, wins[blind])


def test_bank_r30_serving_requests_by_position_rarely_pays() -> None:
    """More requests a level: in v2 level 0 had two, and "serve the first only" solved 0.47 of it."""
    rules = {"first only": lambda n, count: n == 1, "second only": lambda n, count: n == 2,
             "all but the last": lambda n, count: n < count, "odd ones": lambda n, count: n % 2 == 1}
    for level in (0, 1):
        for name, keep in rules.items():
            wins = 0
            for seed in range(40):
                problem = BANK.sample(level, seed)
                requests = problem.data["requests"]
                chosen = [n for n in range(1, len(requests) + 1) if keep(n, len(requests))]
                replies = [call("transfer", from_account=requests[n - 1]["from"], to_account=requests[n - 1]["to"],
                                amount_cents=requests[n - 1]["amount_cents"],
                                credited_cents=requests[n - 1]["credited_cents"]) for n in chosen]
                wins += solves(BANK, problem, [*replies, ", ".join(map(str, chosen)) or "none"])
            assert wins <= 8, (level, name, wins)
