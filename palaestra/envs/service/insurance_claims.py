"""File a policyholder's insurance claims, told over several turns, with payouts set by the coverage rules.

The episode's records are an insurer's policyholder and policies (auto, home, travel; each with a coverage
period, a deductible, a yearly limit and what it has paid out this year), and the claims filed so far. A
scripted policyholder (:class:`~palaestra.envs.service.common.ScriptedUser`) reports one incident per message
(what happened, on which date, what it cost, on which policy); from level 2 a theft is reported without its
police report number, which the policyholder's next message gives (or says there is none). The functions do
what they are asked (``file_claim`` records whatever payout the agent enters); the rules are the agent's:

1. a claim is filed only on a policy of the policyholder (a relative's policy never);
2. the incident date must fall within the policy's coverage period (both ends included);
3. a claim must be filed within 30 days of the incident (day 30 included);
4. the payout is the cost minus the deductible, capped at what is left of the yearly limit (counting claims
   filed earlier in this conversation); a claim that would pay nothing is not filed;
5. from level 2, a theft claim needs a police report number, recorded on the claim.

The answer is the total payout of the claims filed in the conversation; the final records (claims and amounts
paid per policy) must be those the rules determine, and the policyholder must have been told every new claim's
number. Incidents fall on both sides of the rules in most draws. The difficulty is twice the incidents plus
the refused ones plus the policies plus the clauses in play.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import (
    Function,
    Records,
    ScriptedUser,
    call,
    cents_of,
    dollars,
    draw_person,
    draw_side,
    judge_dollars,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 11, 18)
FILING_DAYS = 30
INCIDENTS = {"auto": ("a dent from a parking collision", "a cracked windscreen", "a scraped door"),
             "home": ("water damage from a burst pipe", "a broken window after a storm", "a kitchen fire"),
             "travel": ("a cancelled flight", "lost luggage", "a doctor's visit abroad")}
THEFTS = {"auto": "my car radio was stolen", "home": "my bike was stolen from the shed",
          "travel": "my camera was stolen on the trip"}
CLOSINGS = ("That's all for now, thanks.", "Nothing else, thank you.", "That was everything.")


@register
class InsuranceClaims(ScriptedUser):
    id = "service/insurance_claims"
    family = "service"
    description = "File a policyholder's claims, reported over several turns, with payouts by coverage, deductible and limit."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 2  # v2: a twenty-fifth of the problems refuse every request (v1: a tenth)
    tool_names = ("find_policyholder", "get_policy", "file_claim")

    @dataclass(frozen=True)
    class Config:
        incidents: tuple[int, int]
        policies: tuple[int, int]
        theft_rule: bool
        slack: int

    presets = (
        Config((2, 2), (1, 2), False, 3),
        Config((2, 3), (2, 3), False, 3),
        Config((3, 3), (2, 3), True, 4),
        Config((3, 4), (3, 4), True, 4),
        Config((4, 5), (3, 5), True, 5),
    )
    growth = Growth(limits={"incidents": (8, 12), "policies": (8, 10), "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_policyholder": Function("Find a policyholder by e-mail: id, name and policy ids.",
                                          {"email": "string"}, _find_holder),
            "get_policy": Function("Read a policy: holder, kind, coverage period, deductible, yearly limit, paid "
                                   "this year.", {"policy_id": "string"}, _get_policy),
            "file_claim": Function("File a claim on a policy and pay the payout given (in cents; police_report may "
                                   "be empty); returns the claim number.",
                                   {"policy_id": "string", "incident_date": "string", "cost_cents": "integer",
                                    "payout_cents": "integer", "police_report": "string"}, _file_claim),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="policies for the incidents", attempts=60)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        forge = NameForge(rng)
        holder = draw_person(forge, rng, "P")
        relative = draw_person(forge, rng, "P")
        records: Records = {"today": TODAY.isoformat(), "caller": holder["id"],
                            "holders": {holder["id"]: holder, relative["id"]: relative},
                            "policies": {}, "claims": {}, "next": 0}
        numbers = iter(rng.sample(range(100_000, 999_999), 20))

        def policy(owner: str, kind: str) -> str:
            pid = f"{kind[0].upper()}{next(numbers)}"
            start = TODAY - timedelta(days=rng.randint(40, 300))
            end = TODAY + timedelta(days=rng.randint(-30, 200))
            limit = rng.randint(20, 80) * 10_000
            records["policies"][pid] = {
                "holder": owner, "kind": kind, "start": start.isoformat(), "end": end.isoformat(),
                "deductible_cents": rng.choice((25_000, 50_000, 100_000)), "limit_cents": limit,
                "paid_cents": rng.randint(0, limit // 100_000) * 50_000}
            return pid

        own = [policy(holder["id"], kind) for kind in rng.sample(sorted(INCIDENTS), 3)]
        for _ in range(rng.randint(*config.policies) - 1):
            policy(holder["id"], rng.choice(sorted(INCIDENTS)))
        relatives = policy(relative["id"], rng.choice(sorted(INCIDENTS)))
        side = draw_side(rng)
        count = rng.randint(*config.incidents)
        incidents = []
        for _ in range(count):
            pid = relatives if rng.random() < 0.12 else rng.choice(own)
            terms = records["policies"][pid]
            start, end = date.fromisoformat(terms["start"]), date.fromisoformat(terms["end"])
            latest = min(end, TODAY)
            inside = rng.random() < 0.8 and latest >= start
            if inside:
                day = latest - timedelta(days=rng.randint(0, min(45, (latest - start).days)))
            else:
                day = start - timedelta(days=rng.randint(1, 20))
            cost = terms["deductible_cents"] + rng.choice((-1, 1, 1, 1)) * rng.randint(1, 400) * 1_000
            theft = config.theft_rule and rng.random() < 0.35
            report = (f"PR-{rng.randint(10_000, 99_999)}" if rng.random() < 0.6 else "") if theft else ""
            incidents.append({"policy": pid, "date": day.isoformat(), "cost_cents": max(cost, 1_000), "theft": theft,
                              "report": report})
        _, payouts = _serve(records, incidents, config.theft_rule)
        filed = [payout is not None for payout in payouts]
        if (side == "mixed") != (len(set(filed)) == 2) or (side != "mixed" and filed[0] != (side == "all allowed")):
            return None
        user = []
        for incident in incidents:
            kind = records["policies"][incident["policy"]]["kind"]
            what = THEFTS[kind] if incident["theft"] else rng.choice(INCIDENTS[kind])
            whose = "my partner's" if incident["policy"] == relatives else "my"
            user.append(f"I'd like to file a claim: {what}, on {incident['date']}; it cost {dollars(incident['cost_cents'])}. "
                        f"It's on {whose} policy {incident['policy']}.")
            if incident["theft"]:
                user.append(f"The police report number is {incident['report']}." if incident["report"]
                            else "No, I did not report it to the police.")
        user.append(rng.choice(CLOSINGS))
        user[0] = f"Hi, I'm {holder['name']} ({holder['email']}). {user[0]}"
        budget = 2 + 2 * count + len(records["policies"]) // 2 + config.slack
        rules = [
            "1. File a claim only on a policy held by the caller, never on anyone else's policy.",
            "2. The incident date must fall within the policy's coverage period (start and end dates included).",
            f"3. A claim must be filed within {FILING_DAYS} days of the incident (day {FILING_DAYS} included).",
            "4. The payout is the cost minus the policy's deductible, capped at what is left of its yearly limit "
            "(the limit minus what it paid this year, including claims filed in this conversation). Do not file a "
            "claim that would pay nothing.",
        ]
        if config.theft_rule:
            rules.append("5. A theft claim needs a police report number (ask for it), recorded on the claim; file "
                         "no theft claim without one.")
        rules.append(f"{len(rules) + 1}. Tell the caller the number of every claim you file.")
        prompt = (
            f"You are an insurance claims agent. Today is {TODAY.isoformat()}. Claim rules:\n" + "\n".join(rules)
            + "\n\nThe caller will report incidents over several messages: a reply to them without a tool call is a "
            "message they answer, until they have nothing more to report. File the claims the rules allow with the "
            "right payout (police_report empty unless the claim is a theft), refuse the rest, and do nothing else. "
            "When they have nothing more to report, give your final answer: the total payout of the claims filed in "
            "this conversation, in dollars, e.g. <answer>$12.34</answer> (<answer>$0.00</answer> if none).\n\n"
            f"Caller: {user[0]}\n\n" + self.tools_prompt(budget)
        )
        data = {"records": records, "incidents": incidents, "theft_rule": config.theft_rule, "user": user,
                "budget": budget}
        return Problem(prompt=prompt, answer=dollars(sum(p or 0 for p in payouts)), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return _serve(problem.data["records"], problem.data["incidents"], problem.data["theft_rule"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        claims = self.expected_records(problem)["claims"]
        return {f"the claim number {number}": number for number in claims}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        _, payouts = _serve(data["records"], data["incidents"], data["theft_rule"])
        return (2 * len(payouts) + sum(p is None for p in payouts) + len(data["records"]["policies"]) / 2
                + 2 * data["theft_rule"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_dollars(problem, answer)

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "$0.00"
        return [answer[1:], f"{answer[1:]} dollars", f"The payout total is {answer}.", f"{answer[1:]} USD"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cents = cents_of(problem.answer or "$0.00")
        return [dollars(cents + 100), dollars(cents + 1), f"{problem.answer} or $0.00"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = data["records"]
        holder = records["holders"][records["caller"]]
        replies = [call("find_policyholder", email=holder["email"])]
        _, payouts = _serve(records, data["incidents"], data["theft_rule"])
        for number, (incident, payout) in enumerate(zip(data["incidents"], payouts)):
            if incident["theft"]:
                replies.append("Do you have a police report number for the theft?")
            replies.append(call("get_policy", policy_id=incident["policy"]))
            message = "I'm sorry, the rules do not allow this claim."
            if payout is not None:
                replies.append(call("file_claim", policy_id=incident["policy"], incident_date=incident["date"],
                                    cost_cents=incident["cost_cents"], payout_cents=payout,
                                    police_report=incident["report"] if data["theft_rule"] else ""))
                claim = f"CL{100 + sum(p is not None for p in payouts[:number])}"
                message = f"Filed as claim {claim}, paying {dollars(payout)}."
            replies.append(f"{message} Anything else?")
        return [*replies, problem.answer or "$0.00"]


def _payout(records: Records, incident: dict[str, Any], theft_rule: bool) -> int | None:
    """The payout the rules give ``incident`` now, or None when it is not filed."""
    terms = records["policies"][incident["policy"]]
    day = date.fromisoformat(incident["date"])
    if terms["holder"] != records["caller"]:
        return None
    if not date.fromisoformat(terms["start"]) <= day <= date.fromisoformat(terms["end"]):
        return None
    if (TODAY - day).days > FILING_DAYS or (theft_rule and incident["theft"] and not incident["report"]):
        return None
    payout = min(incident["cost_cents"] - terms["deductible_cents"], terms["limit_cents"] - terms["paid_cents"])
    return payout if payout > 0 else None


def _serve(initial: Records, incidents: list[dict[str, Any]], theft_rule: bool) -> tuple[Records, list[int | None]]:
    records = copy.deepcopy(initial)
    payouts = []
    for incident in incidents:
        payout = _payout(records, incident, theft_rule)
        payouts.append(payout)
        if payout is not None:
            _file_claim(records, {"policy_id": incident["policy"], "incident_date": incident["date"],
                                  "cost_cents": incident["cost_cents"], "payout_cents": payout,
                                  "police_report": incident["report"] if theft_rule else ""})
    return records, payouts


# --- the functions (they do what they are asked; the rules are the agent's) ------------------------------------


def _find_holder(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for holder_id, holder in records["holders"].items():
        if holder["email"] == email:
            own = [pid for pid, p in records["policies"].items() if p["holder"] == holder_id]
            return f"policyholder {holder_id}: {holder['name']}, policies: {', '.join(own)}", None
    return f"error: no policyholder with e-mail {email[:100]!r}", None


def _get_policy(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    terms = records["policies"].get(str(args["policy_id"]))
    if terms is None:
        return f"error: no policy {str(args['policy_id'])[:40]!r}", None
    return (f"policy {args['policy_id']}: holder {terms['holder']}, {terms['kind']}, covers {terms['start']} to "
            f"{terms['end']}, deductible {dollars(terms['deductible_cents'])}, yearly limit "
            f"{dollars(terms['limit_cents'])}, paid this year {dollars(terms['paid_cents'])}"), None


def _file_claim(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    terms = records["policies"].get(str(args["policy_id"]))
    if terms is None:
        return f"error: no policy {str(args['policy_id'])[:40]!r}", None
    amounts = [args["cost_cents"], args["payout_cents"]]
    if not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a <= 10**9 for a in amounts):
        return "error: cost_cents and payout_cents must be whole numbers of cents, 0 or more", None
    try:
        day = date.fromisoformat(str(args["incident_date"]).strip()).isoformat()
    except ValueError:
        return "error: incident_date must be written YYYY-MM-DD", None
    number = f"CL{100 + records['next']}"
    records["next"] += 1
    records["claims"][number] = {"policy": str(args["policy_id"]), "incident_date": day, "cost_cents": amounts[0],
                                 "payout_cents": amounts[1], "police_report": str(args["police_report"]).strip()[:40]}
    terms["paid_cents"] += amounts[1]
    return f"claim {number} filed on policy {args['policy_id']}; {dollars(amounts[1])} paid", records
