"""Grant access roles requested for colleagues under a stated access policy, with directory functions.

The episode's records are a company directory (people: employee or contractor, active, on leave or gone,
their manager and the roles they hold with an expiry date or none) and the approvals on file (who approved
which role for whom). A team lead asks, in order, for roles to be granted to people (named). The functions
look a person up by name, read a person, list the approvals for a person and grant a role with an expiry
(a date or ``never``); they refuse only the impossible (an unknown person or role), never what the policy
forbids:

1. only active people may be granted roles;
2. roles are granted with no expiry, except: from level 2, contractors' roles expire 30 days after today;
3. from level 1, privileged roles need an approval on file by the person's own manager (an approval by
   anyone else does not count); privileged roles granted expire 90 days after today;
4. from level 2, contractors are never granted privileged roles;
5. from level 3, nobody may hold both ``payments-create`` and ``payments-approve`` (counting roles granted
   earlier in this conversation).

The answer is the set of request numbers carried out (``none`` if none). The episode is judged on the answer
and on the final records (roles and expiry dates) against those the policy determines. Requests are built
on both sides of the policy (a tenth of problems all allowed, a twenty-fifth all refused), with near misses: an
approval by someone other than the manager, a person on leave, the second half of a forbidden pair asked
for after the first. The difficulty is twice the requests plus twice the clauses in play plus the privileged
requests plus the refused ones.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import (
    Function,
    Records,
    RequestsServed,
    call,
    draw_side,
    draw_sides,
    served_answer,
    served_records,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 8, 5)
PRIVILEGED = ("prod-admin", "db-admin", "payments-approve")
ORDINARY = ("wiki-edit", "ci-deploy", "crm-read", "payments-create", "support-console", "analytics")
EXCLUSIVE = ("payments-create", "payments-approve")
CONTRACTOR_DAYS, PRIVILEGED_DAYS = 30, 90
EXAMPLE = "<answer>1, 3</answer>"  # fixed placeholder


@register
class AccessRequests(RequestsServed):
    id = "service/access_requests"
    family = "service"
    description = "Grant colleagues access roles under a stated access policy (approvals, contractors, duties)."
    tags = ("service", "multi-turn", "tools", "policy", "security", "agentic")
    version = 2  # v2: a twenty-fifth of the problems refuse every request (v1: a tenth)
    tool_names = ("find_person", "get_person", "list_approvals", "grant_role")

    @dataclass(frozen=True)
    class Config:
        people: tuple[int, int]
        requests: tuple[int, int]
        approvals: bool
        contractors: bool
        duties: bool
        budget: int

    presets = (
        Config((3, 4), (2, 3), False, False, False, 10),
        Config((4, 5), (2, 3), True, False, False, 14),
        Config((5, 6), (3, 4), True, True, False, 18),
        Config((6, 8), (3, 5), True, True, True, 22),
        Config((7, 9), (4, 6), True, True, True, 28),
    )
    growth = Growth(limits={"people": 40, "requests": 16, "budget": 60})

    def functions(self) -> dict[str, Function]:
        return {
            "find_person": Function("Find people by name (any part of it): their ids and names.", {"query": "string"},
                                    _find_person),
            "get_person": Function("Read a person: employee or contractor, status, manager, roles held (with expiry).",
                                   {"person_id": "string"}, _get_person),
            "list_approvals": Function("List the approvals on file for a person: role and approver.",
                                       {"person_id": "string"}, _list_approvals),
            "grant_role": Function("Grant a role to a person, expiring on a date (YYYY-MM-DD) or 'never'.",
                                   {"person_id": "string", "role": "string", "expires": "string"}, _grant_role),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = draw_side(rng)
        return retry(lambda: self._draw(rng, config, kind), what="requests on the asked sides of the policy",
                     attempts=200)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        rules = {"approvals": config.approvals, "contractors": config.contractors, "duties": config.duties}
        people: dict[str, dict[str, Any]] = {}
        managers = [f"E{rng.randint(100, 999)}" for _ in range(3)]
        for manager in managers:
            people[manager] = {"name": f"{forge.word(2)} {forge.word(2)}", "type": "employee", "status": "active",
                               "manager": None, "roles": {}}
        for _ in range(rng.randint(*config.people)):
            person_id = f"E{rng.randint(100, 999)}"
            roles = {r: None for r in rng.sample(ORDINARY, rng.randint(0, 2))}
            people[person_id] = {
                "name": f"{forge.word(2)} {forge.word(2)}",
                "type": "contractor" if config.contractors and rng.random() < 0.35 else "employee",
                "status": rng.choice(("active",) * 5 + ("on leave", "terminated")),
                "manager": rng.choice(managers), "roles": roles}
        if len(people) < 3 + config.people[0] or len({p["name"] for p in people.values()}) < len(people):
            return None
        approvals = []
        if config.approvals:
            for person_id, person in people.items():
                if person["manager"] is None:
                    continue
                for role in rng.sample(PRIVILEGED, rng.randint(0, 2)):  # by the manager, or by someone else
                    approver = person["manager"] if rng.random() < 0.65 else rng.choice(
                        [m for m in managers if m != person["manager"]])
                    approvals.append({"person": person_id, "role": role, "approver": approver})
        records: Records = {"today": TODAY.isoformat(), "people": people, "approvals": approvals}
        sides = draw_sides(rng, rng.randint(*config.requests), kind)
        if sides is None:
            return None
        askable = ORDINARY + (PRIVILEGED if config.approvals else ("payments-approve",) if config.duties else ())
        world = copy.deepcopy(records)
        requests: list[dict[str, str]] = []
        for allowed in sides:
            options = [{"person": p, "role": r} for p, person in world["people"].items() if person["manager"]
                       for r in askable if r not in person["roles"]]
            options = [o for o in options if o not in requests and _allowed(world, o, rules) == allowed]
            sensitive = [o for o in options if o["role"] in PRIVILEGED + EXCLUSIVE]
            if sensitive and rng.random() < 0.5:  # the clauses in play get asked about
                options = sensitive
            if not options:
                return None
            request = rng.choice(options)
            if allowed:
                _grant(world, request, rules)
            requests.append(request)
        lead = people[managers[0]]["name"]
        texts = [f"{n}. Give {people[r['person']]['name']} the {r['role']} role." for n, r in enumerate(requests, 1)]
        prompt = (
            f"You are an IT access administrator. Today is {TODAY.isoformat()}. Access policy:\n{_policy(config)}\n\n"
            "Handle the requests below in the order given, each as far as the policy allows (a refused request does "
            "not stop the next ones), using the tools; grant nothing the policy forbids and nothing not asked for. "
            f"Then reply with the numbers of the requests you carried out, e.g. {EXAMPLE} (<answer>none</answer> "
            f"if none).\n\nRequest from {lead}:\n" + "\n".join(texts) + f"\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requests": requests, "rules": rules, "budget": config.budget}
        return Problem(prompt=prompt, answer=served_answer(sides), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return served_records(problem.data, _allowed, _grant)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        privileged = sum(r["role"] in PRIVILEGED for r in data["requests"])
        refused = len(data["requests"]) - (0 if problem.answer in (None, "none") else len(problem.answer.split(", ")))
        return 2 * len(data["requests"]) + 2 * (2 + sum(data["rules"].values())) + privileged + refused

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy.deepcopy(data["records"])
        people = list(dict.fromkeys(r["person"] for r in data["requests"]))
        replies = [call("find_person", query=records["people"][p]["name"]) for p in people]
        replies += [call("get_person", person_id=p) for p in people]
        if data["rules"]["approvals"]:
            replies += [call("list_approvals", person_id=p) for p in
                        dict.fromkeys(r["person"] for r in data["requests"] if r["role"] in PRIVILEGED)]
        for request in data["requests"]:
            if _allowed(records, request, data["rules"]):
                expires = _grant(records, request, data["rules"])
                replies.append(call("grant_role", person_id=request["person"], role=request["role"], expires=expires))
        return [*replies, problem.answer or "none"]



def _policy(config: AccessRequests.Config) -> str:
    rules = ["Only active people (not on leave, not terminated) may be granted roles.",
             "Roles are granted with no expiry ('never'), except as stated below."]
    if config.approvals:
        rules.append(f"The privileged roles ({', '.join(PRIVILEGED)}) need an approval on file by the person's own "
                     f"manager (an approval by anyone else does not count); they are granted to expire "
                     f"{PRIVILEGED_DAYS} days after today.")
    if config.contractors:
        rules.append(f"Contractors are never granted privileged roles; their other roles expire {CONTRACTOR_DAYS} "
                     "days after today.")
    if config.duties:
        rules.append(f"Nobody may hold both {EXCLUSIVE[0]} and {EXCLUSIVE[1]} (roles granted earlier today "
                     "included).")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _allowed(records: Records, request: dict[str, str], rules: dict[str, bool]) -> bool:
    person = records["people"][request["person"]]
    role = request["role"]
    if person["status"] != "active":
        return False
    if role in PRIVILEGED and rules["approvals"]:
        if rules["contractors"] and person["type"] == "contractor":
            return False
        if not any(a["person"] == request["person"] and a["role"] == role and a["approver"] == person["manager"]
                   for a in records["approvals"]):
            return False
    if rules["duties"] and role in EXCLUSIVE:
        other = EXCLUSIVE[1 - EXCLUSIVE.index(role)]
        return other not in person["roles"]
    return True


def _grant(records: Records, request: dict[str, str], rules: dict[str, bool]) -> str:
    """Grant an allowed request on ``records``; the expiry it gets."""
    person = records["people"][request["person"]]
    today = date.fromisoformat(records["today"])
    if request["role"] in PRIVILEGED and rules["approvals"]:
        expires = (today + timedelta(days=PRIVILEGED_DAYS)).isoformat()
    elif rules["contractors"] and person["type"] == "contractor":
        expires = (today + timedelta(days=CONTRACTOR_DAYS)).isoformat()
    else:
        expires = "never"
    person["roles"][request["role"]] = None if expires == "never" else expires
    return expires


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_person(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    query = str(args["query"]).strip().lower()[:100]
    found = [f"- {pid}: {p['name']}" for pid, p in records["people"].items() if query and query in p["name"].lower()]
    return ("\n".join(found[:20]) if found else f"no one named {query!r}"), None


def _get_person(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    person_id = str(args["person_id"]).strip().upper()
    person = records["people"].get(person_id)
    if person is None:
        return f"error: no person {str(args['person_id'])[:40]!r}", None
    roles = ", ".join(f"{r} (expires {e or 'never'})" for r, e in sorted(person["roles"].items())) or "none"
    manager = person["manager"] or "none"
    return (f"{person_id}: {person['name']}, {person['type']}, {person['status']}, manager {manager}, "
            f"roles: {roles}"), None


def _list_approvals(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    person_id = str(args["person_id"]).strip().upper()
    if person_id not in records["people"]:
        return f"error: no person {str(args['person_id'])[:40]!r}", None
    lines = [f"- {a['role']}: approved by {a['approver']}" for a in records["approvals"] if a["person"] == person_id]
    return ("\n".join([f"approvals for {person_id}:", *lines]) if lines else f"no approvals for {person_id}"), None


def _grant_role(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    person_id = str(args["person_id"]).strip().upper()
    person = records["people"].get(person_id)
    role = str(args["role"]).strip()
    expires = str(args["expires"]).strip().lower()
    if person is None:
        return f"error: no person {str(args['person_id'])[:40]!r}", None
    if role not in PRIVILEGED + ORDINARY:
        return f"error: no role {role[:40]!r}", None
    if expires != "never":
        try:
            expires = date.fromisoformat(expires).isoformat() if len(expires) == 10 else ""
        except ValueError:
            expires = ""
        if not expires:
            return "error: expires must be a date YYYY-MM-DD or 'never'", None
    person["roles"][role] = None if expires == "never" else expires
    return f"granted {role} to {person_id} (expires {expires})", records
