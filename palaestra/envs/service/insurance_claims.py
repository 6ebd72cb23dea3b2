"""File a policyholder's insurance claims, told over several turns, with payouts set by the coverage rules.

The episode's records are an insurer's policyholder and policies (auto, home, travel; each with a coverage
period, a deductible, a yearly limit and what it has paid out this year), and the claims filed so far. A
scripted policyholder (:class:`~palaestra.envs.service.common.ScriptedUser`) reports one incident per message
(what happened, on which date, what it cost, on which policy); from level 2 a theft is reported without its
police report number, which the policyholder's next message gives (or says there is none). The functions do
what they are asked (``file_claim`` records whatever payout the agent enters); the rules are the agent's, each
level stating those in play:

1. a claim is filed only on a policy of the policyholder (a relative's policy never);
2. from level 3, the incident date must fall within the policy's coverage period (both ends included);
3. a claim must be filed within 30 days of the incident (day 30 included);
4. the payout is the cost minus the deductible, from level 1 capped at what is left of the yearly limit (counting
   claims filed earlier in this conversation); a claim that would pay nothing is not filed;
5. from level 2, a theft claim needs a police report number, recorded on the claim.

The answer is the total payout of the claims filed in the conversation; the final records (claims and amounts
paid per policy) must be those the rules determine, and the policyholder must have been told every new claim's
number. Incidents fall on both sides of the rules (a tenth of problems all filed, a twenty-fifth all refused), with
near misses: 30 or 31 days ago, costing less than the deductible, more than the limit has left, on the first or
last day of cover or a day outside it (one policy began and one lapsed in the last thirty days). In every mixed
problem each part of the rules in play decides an incident on its own (see ``_blinds``: the other holder's policy,
the filing window and its 30th day, the deductible, the claim that pays nothing, the cap and the limit net of what
was paid this year and in the conversation, the police report, the coverage period and each of its ends), and no
incident is one that a rule not in play would decide: a refused incident is drawn for each refusing rule and a filed
one for the 30th day, the cap, a theft's report and the ends of the cover (4, 5, 7 and 9 incidents at levels 0-3),
each aimed at a part not yet decided, and a draw the rules without some part would serve alike is drawn again; a
one-sided problem has an incident for each part its side can decide. (v2 drew incidents as they fell: on 40 seeds a
level, a policy ignoring the coverage period or excluding one of its end days solved 1.00 of levels 0-5, the other
holder's policy 0.82-0.97, the filing window 0.40-0.70 or its 30th day 0.93-1.00, the cap 0.55-0.82, the limit net
of this conversation's claims 0.78-1.00, filing $0.00 claims 0.55-0.82, the police report 0.72-0.93; now
0.00-0.17, the share of problems on the other side of the rules, with 4, 5, 7, 9 and 10 incidents at levels 0-4,
where every rule in play at every level took 8-11.) Generation: about 3-13 ms CPU a problem at levels 0-7. The
difficulty is twice the incidents plus the refused ones plus half the policies plus two for each of the cap, the
theft rule and the coverage period in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.problem import copy_data
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
    draw_sides,
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
ONE_DAY = timedelta(days=1)
# the rules that refuse a claim on their own, each given a refused incident in a mixed problem (see ``_blinds``)
REFUSING = ("holder", "coverage", "window", "file_zero", "theft")
# the parts of the rules (see ``_blinds``) in the order a mixed problem's incidents are drawn for them: the refusing
# rules, then those few incidents decide
ORDER = REFUSING + ("start_open", "end_open", "theft_never", "window_29", "coverage_wide", "window_31",
                    "report_unrecorded", "cap_limit", "cap_first", "no_cap", "cap_initial", "no_deductible")
EDGES = (None, "coverage", "start_open", "end_open", "coverage_wide")  # the aims drawn at a coverage period's ends
REFUSED = REFUSING + ("coverage_wide", "window_31")  # the parts of the rules that only a refused incident decides
OPTIONS = 24  # incidents drawn for each of a problem's messages, of which one that decides an undecided rule is kept


@register
class InsuranceClaims(ScriptedUser):
    id = "service/insurance_claims"
    family = "service"
    description = "File a policyholder's claims, reported over several turns, with payouts by coverage, deductible and limit."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 3  # v3: every part of the rules in play decides an incident in every mixed problem, the cap from level
    # 1, thefts from level 2, the coverage period from level 3 (v2: a twenty-fifth of the problems refuse every
    # request; v1: a tenth)
    tool_names = ("find_policyholder", "get_policy", "file_claim")

    @dataclass(frozen=True)
    class Config:
        incidents: tuple[int, int]
        policies: tuple[int, int]  # the policyholder's own
        cap_rule: bool  # the payout capped at what is left of the yearly limit
        theft_rule: bool  # a theft claim needs a police report number
        coverage_rule: bool  # the incident within the policy's coverage period
        slack: int

    # a mixed problem has a refused incident for each refusing rule in play and a filed one for the filing window's
    # 30th day, the cap, a theft's report and the coverage period's ends (see ``_draw``): 4, 5, 7 and 9 incidents
    presets = (
        Config((3, 4), (1, 2), False, False, False, 3),
        Config((5, 5), (2, 3), True, False, False, 3),
        Config((7, 7), (2, 3), True, True, False, 4),
        Config((9, 9), (3, 4), True, True, True, 4),
        Config((10, 10), (3, 5), True, True, True, 5),
    )
    growth = Growth(limits={"incidents": (14, 18), "policies": (8, 10), "slack": 10})

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
        side = draw_side(rng)
        return retry(lambda: self._draw(rng, config, side), what="incidents on the asked sides of the rules",
                     attempts=200)

    def _draw(self, rng: random.Random, config: Config, side: str) -> Problem | None:
        forge = NameForge(rng)
        holder = draw_person(forge, rng, "P")
        relative = draw_person(forge, rng, "P")
        records: Records = {"today": TODAY.isoformat(), "caller": holder["id"],
                            "holders": {holder["id"]: holder, relative["id"]: relative},
                            "policies": {}, "claims": {}, "next": 0}
        numbers = iter(rng.sample(range(100_000, 999_999), 20))

        def policy(owner: str, kind: str, edge: str = "") -> str:
            pid = f"{kind[0].upper()}{next(numbers)}"
            # without the coverage rule in play, the cover is wider than the incidents' days (the last 45) at both ends
            start = TODAY - timedelta(days=rng.randint(40 if config.coverage_rule else 46, 300))
            end = TODAY + timedelta(days=rng.randint(-30 if config.coverage_rule else 1, 200))
            if edge == "began":  # within the filing window: a year's cover from then
                start = TODAY - timedelta(days=rng.randint(1, FILING_DAYS - 1))
                end = start + timedelta(days=364)
            elif edge == "lapsed":  # within the filing window
                end = TODAY - timedelta(days=rng.randint(1, FILING_DAYS - 1))
            limit = rng.randint(20, 80) * 10_000
            records["policies"][pid] = {
                "holder": owner, "kind": kind, "start": start.isoformat(), "end": end.isoformat(),
                "deductible_cents": rng.choice((25_000, 50_000, 100_000)), "limit_cents": limit,
                "paid_cents": rng.randint(0, limit // 100_000) * 50_000}
            return pid

        # with the coverage rule, one policy began and one lapsed in the last thirty days, for each end of the
        # coverage period to decide a claim
        ends = [policy(holder["id"], kind, edge) for kind, edge in zip(rng.sample(sorted(INCIDENTS), 2),
                                                                       ("began", "lapsed")) if config.coverage_rule]
        for _ in range(rng.randint(*config.policies)):
            policy(holder["id"], rng.choice(sorted(INCIDENTS)))
        relatives = policy(relative["id"], rng.choice(sorted(INCIDENTS)))
        in_play = _blinds(config.cap_rule, config.theft_rule, config.coverage_rule)
        # the parts of the rules that an incident on the problem's side can decide: in a one-sided problem, the
        # near misses on that side (all filed: the limit net of this conversation's claims too, a claim over it on
        # a policy claimed before)
        blinds = [b for b in in_play if side == "mixed" or (b in REFUSED) == (side == "all refused")]
        refusing = [b for b in REFUSING if b in blinds]
        # filed incidents for the filing window's 30th day, the cap, a theft's report and the ends of the cover (one
        # of the two decided beside another part)
        filing = 1 + config.cap_rule + config.theft_rule + config.coverage_rule
        count = max(rng.randint(*config.incidents), len(refusing) + filing if side == "mixed" else 0)
        sides = draw_sides(rng, count, side)
        if sides is None:
            return None
        if side == "mixed":  # a refused incident for each refusing rule, and the filed ones
            sides = [False] * len(refusing) + [True] * filing + sides[len(refusing) + filing:]
            rng.shuffle(sides)
        world = copy_data(records)
        incidents: list[dict[str, Any]] = []
        undecided = set(blinds)
        for filed in sides:
            # each incident is aimed at the first part of the rules in ORDER not yet decided that an incident on its
            # side can decide (or the next, should none of the incidents drawn decide it); of those that decide it
            # and no part out of play, one that decides the most parts is kept. The policies that began or lapsed are
            # kept for the coverage rule (a claim over their limit would leave nothing to refuse); a policy claimed on
            # earlier is where the limit net of this conversation's claims, or one used up, decides
            others = [pid for pid in records["policies"] if pid not in ends]
            claimed = [i["policy"] for i in incidents if i["policy"] in others and i["policy"] != relatives]
            pools = {"holder": [relatives], "coverage": ends, "start_open": ends[:1], "end_open": ends[1:],
                     "coverage_wide": ends, "cap_initial": claimed, "file_zero": claimed}
            aims = [b for b in ORDER if b in undecided and ((b in REFUSED) != filed or b == "cap_initial")]
            for aim in [*aims, None]:
                pool = pools.get(aim or "") or (others if aim else list(records["policies"]))
                options = [o for o in (_incident(world, rng, pool, aim, config.theft_rule) for _ in range(OPTIONS))
                           if (_payout(world, o, config.theft_rule, start=records) is not None) == filed]
                parts = [(o, _decides(world, records, o, config.theft_rule)) for o in options]
                decided = [(o, d & undecided) for o, d in parts if d <= set(in_play)]
                if any(aim in d for _, d in decided):
                    decided = [(o, d) for o, d in decided if aim in d]
                    break
            if not decided:
                return None
            most = max(len(d) for _, d in decided)
            incident, deciding = rng.choice([(o, d) for o, d in decided if len(d) == most])
            undecided -= deciding
            _serve_one(world, records, incident, config.theft_rule)
            incidents.append(incident)
        final, payouts = _serve(records, incidents, config.theft_rule)
        if any(_serve(records, incidents, config.theft_rule, blind)[0] == final for blind in blinds):
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
        rules = ["File a claim only on a policy held by the caller, never on anyone else's policy."]
        if config.coverage_rule:
            rules.append("The incident date must fall within the policy's coverage period (start and end dates "
                         "included).")
        rules.append(f"A claim must be filed within {FILING_DAYS} days of the incident (day {FILING_DAYS} included).")
        rules.append("The payout is the cost minus the policy's deductible" + (
            ", capped at what is left of its yearly limit (the limit minus what it paid this year, including claims "
            "filed in this conversation)" if config.cap_rule else "") + ". Do not file a claim that would pay nothing.")
        if config.theft_rule:
            rules.append("A theft claim needs a police report number (ask for it), recorded on the claim; file no "
                         "theft claim without one.")
        rules.append("Tell the caller the number of every claim you file.")
        prompt = (
            f"You are an insurance claims agent. Today is {TODAY.isoformat()}. Claim rules:\n"
            + "\n".join(f"{number}. {rule}" for number, rule in enumerate(rules, 1))
            + "\n\nThe caller will report incidents over several messages: a reply to them without a tool call is a "
            "message they answer, until they have nothing more to report. File the claims the rules allow with the "
            f"right payout (police_report empty{' unless the claim is a theft' if config.theft_rule else ''}), refuse "
            "the rest, and do nothing else. "
            "When they have nothing more to report, give your final answer: the total payout of the claims filed in "
            "this conversation, in dollars, e.g. <answer>$12.34</answer> (<answer>$0.00</answer> if none).\n\n"
            f"Caller: {user[0]}\n\n" + self.tools_prompt(budget)
        )
        data = {"records": records, "incidents": incidents, "cap_rule": config.cap_rule,
                "theft_rule": config.theft_rule, "coverage_rule": config.coverage_rule, "user": user, "budget": budget}
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
                + 2 * (data["cap_rule"] + data["theft_rule"] + data["coverage_rule"]))

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


def _blinds(cap_rule: bool, theft_rule: bool, coverage_rule: bool) -> tuple[str, ...]:
    """The parts of the rules in play a policy might leave out or misread, each named as :func:`_payout` reads
    ``blind``: another holder's policy (``holder``); the filing window ignored, 29 days or 31 days; the payout
    without the deductible; a claim that pays nothing filed at $0.00 (``file_zero``); from level 1 the payout
    without the cap, with the cap taken before the deductible (``cap_first``), against the whole limit
    (``cap_limit``) or against what was paid before the conversation (``cap_initial``); from level 2 a theft filed
    without a police report (``theft``), no theft filed (``theft_never``), or the report number not recorded
    (``report_unrecorded``); from level 3 the coverage period ignored, its start or its end day excluded
    (``start_open``, ``end_open``) or a day wider at each end (``coverage_wide``)."""
    return (("holder", "window", "window_29", "window_31", "no_deductible", "file_zero")
            + (("no_cap", "cap_first", "cap_limit", "cap_initial") if cap_rule else ())
            + (("theft", "theft_never", "report_unrecorded") if theft_rule else ())
            + (("coverage", "start_open", "end_open", "coverage_wide") if coverage_rule else ()))


def _incident(records: Records, rng: random.Random, pool: list[str], aim: str | None,
              theft_rule: bool) -> dict[str, Any]:
    """An incident on a policy of ``pool`` near the edges of the rules (a day at either end of the coverage period
    or of the filing window, a cost under the deductible or over what is left of the yearly limit), aimed at the
    part ``aim`` of the rules (see :func:`_blinds`; None: at none)."""
    pid = rng.choice(pool)
    terms = records["policies"][pid]
    first, last = date.fromisoformat(terms["start"]), date.fromisoformat(terms["end"])
    days = [TODAY - timedelta(days=rng.randint(0, 45))]
    if aim in EDGES:
        days += [first - ONE_DAY, first, last, last + ONE_DAY]
    if aim is None or aim.startswith("window"):
        days += [TODAY - FILING_DAYS * ONE_DAY, TODAY - (FILING_DAYS + 1) * ONE_DAY]
    day = rng.choice([d for d in days if d <= TODAY])
    deductible, left = terms["deductible_cents"], max(terms["limit_cents"] - terms["paid_cents"], 0)
    over = deductible + left + rng.randint(1, 300) * 1_000  # over what is left of the yearly limit
    under = deductible - rng.randint(1, deductible // 1_000 - 1) * 1_000
    # a payout under half what is left, keeping the rest for the policy's other incidents: only the incidents aimed
    # at the cap use a policy up
    within = deductible + rng.randint(1, max(1, min(400, left // 2_000))) * 1_000
    if aim in EDGES[1:]:
        cost = within
    elif aim in ("no_cap", "cap_first", "cap_limit", "cap_initial"):
        cost = over
    else:
        cost = rng.choice((within, under))
    thefts = ("theft", "theft_never", "report_unrecorded")  # a theft without a report, or with one
    theft = theft_rule and (aim in thefts or rng.random() < 0.35)
    reported = aim != "theft" and (aim in thefts or rng.random() < 0.6)
    report = f"PR-{rng.randint(10_000, 99_999)}" if theft and reported else ""
    return {"policy": pid, "date": day.isoformat(), "cost_cents": cost, "theft": theft, "report": report}


def _payout(records: Records, incident: dict[str, Any], theft_rule: bool, blind: str | None = None,
            start: Records | None = None) -> int | None:
    """The payout the rules give ``incident`` now, or None when it is not filed (``blind``: the rules without that
    part, see :func:`_blinds`; ``start``: the records before the conversation, which ``cap_initial`` reads)."""
    terms = records["policies"][incident["policy"]]
    day = date.fromisoformat(incident["date"])
    if terms["holder"] != records["caller"] and blind != "holder":
        return None
    wider = ONE_DAY if blind == "coverage_wide" else timedelta(0)
    first = date.fromisoformat(terms["start"]) - wider + (ONE_DAY if blind == "start_open" else timedelta(0))
    last = date.fromisoformat(terms["end"]) + wider - (ONE_DAY if blind == "end_open" else timedelta(0))
    if blind != "coverage" and not first <= day <= last:
        return None
    window = FILING_DAYS + {"window_29": -1, "window_31": 1}.get(blind or "", 0)
    if blind != "window" and (TODAY - day).days > window:
        return None
    if theft_rule and incident["theft"] and (blind == "theft_never" or (not incident["report"] and blind != "theft")):
        return None
    paid = {"cap_limit": 0, "cap_initial": (start or records)["policies"][incident["policy"]]["paid_cents"]}.get(
        blind or "", terms["paid_cents"])
    cost, deductible, left = incident["cost_cents"], terms["deductible_cents"], terms["limit_cents"] - paid
    if blind == "no_cap":
        payout = cost - deductible
    elif blind == "no_deductible":
        payout = min(cost, left)
    elif blind == "cap_first":
        payout = min(cost, left) - deductible
    else:
        payout = min(cost - deductible, left)
    return payout if payout > 0 else 0 if blind == "file_zero" else None


def _claim(records: Records, start: Records, incident: dict[str, Any], theft_rule: bool,
           blind: str | None = None) -> dict[str, Any] | None:
    """The claim filed for ``incident`` (None: none), as :func:`_payout` reads ``blind``; ``report_unrecorded``
    leaves the police report off."""
    payout = _payout(records, incident, theft_rule, blind, start)
    if payout is None:
        return None
    return {"policy_id": incident["policy"], "incident_date": incident["date"], "cost_cents": incident["cost_cents"],
            "payout_cents": payout,
            "police_report": incident["report"] if theft_rule and blind != "report_unrecorded" else ""}


def _decides(records: Records, start: Records, incident: dict[str, Any], theft_rule: bool) -> set[str]:
    """The parts of the rules, in play or not, whose absence would change the claim filed for ``incident`` on
    ``records`` (a part not in play must decide none)."""
    claim = _claim(records, start, incident, theft_rule)
    return {blind for blind in _blinds(True, theft_rule, True)
            if _claim(records, start, incident, theft_rule, blind) != claim}


def _serve_one(records: Records, start: Records, incident: dict[str, Any], theft_rule: bool,
               blind: str | None = None) -> int | None:
    """File the claim for ``incident`` on ``records`` if the rules (without ``blind``) allow one; its payout."""
    claim = _claim(records, start, incident, theft_rule, blind)
    if claim is not None:
        _file_claim(records, claim)
    return None if claim is None else claim["payout_cents"]


def _serve(initial: Records, incidents: list[dict[str, Any]], theft_rule: bool,
           blind: str | None = None) -> tuple[Records, list[int | None]]:
    """The records after the claims the rules (without ``blind``) file for ``incidents``, and their payouts."""
    records = copy_data(initial)
    return records, [_serve_one(records, initial, incident, theft_rule, blind) for incident in incidents]


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
