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
on both sides of the policy (a twenty-fifth of problems all allowed, a twenty-fifth all refused). Every clause in
play (see ``_clauses``: only active people; the manager's approval, which no other approver's replaces; the
privileged 90-day expiry; no privileged roles for contractors; their 30-day expiry; the forbidden pair, counting roles
granted earlier) decides every mixed problem on its own: a person is built for each (one asked for
payments-approve, then payments-create, for the pair's "earlier"), the rest of the requests fall as they may, and a
draw where the policy without some clause still serves the same requests to the same roles is drawn again. (v2
drew requests as they fell: on 60 seeds a level, ignoring the forbidden pair solved 0.98-1.00 of levels 3-4, taking
any approver's approval 0.85-0.95 of levels 1-4, granting contractors privileged roles 0.90-0.95 of levels 2-4,
ignoring the status 0.48-0.77 of levels 1-4.) The difficulty is twice the requests
plus twice the clauses in play plus the privileged requests plus the refused ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.problem import copy_data
from palaestra.core.task import Growth
from palaestra.envs.service.common import (
    Function,
    Records,
    RequestsServed,
    call,
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
ALL_ALLOWED = 0.04  # the share of problems whose requests the policy all allows (the refusing clauses decide nothing)
ALL_REFUSED = 0.04  # and all refuses (the rest mix both sides)
REFUSING = frozenset({"status", "approver", "contractor_priv", "duties"})  # the roles whose request is refused


@register
class AccessRequests(RequestsServed):
    id = "service/access_requests"
    family = "service"
    description = "Grant colleagues access roles under a stated access policy (approvals, contractors, duties)."
    tags = ("service", "multi-turn", "tools", "policy", "security", "agentic")
    version = 3  # v3: every clause in play decides every mixed problem; more requests (v2: a twenty-fifth of the
    # problems refuse every request; v1: a tenth)
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
        Config((2, 3), (2, 3), False, False, False, 10),
        Config((2, 3), (3, 4), True, False, False, 18),
        Config((2, 3), (5, 6), True, True, False, 26),
        Config((2, 3), (7, 8), True, True, True, 34),
        Config((3, 4), (8, 9), True, True, True, 38),
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
        kind = _draw_kind(rng)  # drawn once, so that redraws do not skew the shares
        return retry(lambda: self._draw(rng, config, kind), what="requests that each clause in play decides",
                     attempts=200)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        rules = {"approvals": config.approvals, "contractors": config.contractors, "duties": config.duties}
        people: dict[str, dict[str, Any]] = {}
        managers = [f"E{rng.randint(100, 999)}" for _ in range(3)]
        for manager in managers:
            people[manager] = {"name": f"{forge.word(2)} {forge.word(2)}", "type": "employee", "status": "active",
                               "manager": None, "roles": {}}
        if len(people) < 3:
            return None
        approvals: list[dict[str, str]] = []
        records: Records = {"today": TODAY.isoformat(), "people": people, "approvals": approvals}
        roles = _roles(_clauses(rules), kind)
        built: list[list[dict[str, str]]] = []  # the requests built for each role (a pair for ``pair``)
        for role in roles:
            person_id = _new_person(rng, forge, records, managers, config)
            if person_id is None:
                return None
            built.append(_role_requests(rng, records, person_id, role))
        others = []
        for _ in range(rng.randint(*config.people)):  # the rest of the directory, asked about as it falls
            person_id = _new_person(rng, forge, records, managers, config)
            if person_id is None:
                return None
            others.append(person_id)
        if config.approvals:
            for person_id in others:
                for role in rng.sample(PRIVILEGED, rng.randint(0, 2)):  # by the manager, or by someone else
                    manager = people[person_id]["manager"]
                    approver = manager if rng.random() < 0.65 else rng.choice([m for m in managers if m != manager])
                    approvals.append({"person": person_id, "role": role, "approver": approver})
        count = max(rng.randint(*config.requests), sum(len(b) for b in built))
        sides = [kind == "all allowed"] * count if kind != "mixed" else [rng.random() < 0.5 for _ in range(count)]
        fill = sides[:count - sum(len(b) for b in built)]
        askable = ORDINARY + (PRIVILEGED if config.approvals else ())
        world = copy_data(records)
        for allowed in fill:  # on the people not built for a role: the roles' requests cannot change them
            options = [{"person": p, "role": r} for p in others for r in askable if r not in world["people"][p]["roles"]]
            options = [o for o in options if _allowed(world, o, rules) == allowed and [o] not in built]
            sensitive = [o for o in options if o["role"] in PRIVILEGED + EXCLUSIVE]
            if sensitive and rng.random() < 0.5:  # the clauses in play get asked about
                options = sensitive
            if not options:
                return None
            request = rng.choice(options)
            if allowed:
                _grant(world, request, rules)
            built.append([request])
        rng.shuffle(built)
        requests = [request for group in built for request in group]
        outcome = _outcome(records, requests, rules)
        served = outcome[0]
        if (kind == "mixed" and (all(served) or not any(served))) or (kind != "mixed" and set(served) != {
                kind == "all allowed"}):
            return None
        if any(_outcome(records, requests, rules, blind) == outcome for blind in _needed(_clauses(rules), kind)):
            return None
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
        return Problem(prompt=prompt, answer=served_answer(list(served)), data=data)

    def expected_records(self, problem: Problem) -> Records:
        return served_records(problem.data, _allowed, _grant)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        privileged = sum(r["role"] in PRIVILEGED for r in data["requests"])
        refused = len(data["requests"]) - (0 if problem.answer in (None, "none") else len(problem.answer.split(", ")))
        return 2 * len(data["requests"]) + 2 * (2 + sum(data["rules"].values())) + privileged + refused

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy_data(data["records"])
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


def _allowed(records: Records, request: dict[str, str], rules: dict[str, bool], blind: str | None = None,
             start: Records | None = None) -> bool:
    """Whether the policy allows ``request`` (``blind``: the policy without that clause, see :func:`_clauses`;
    ``start``: the records before the conversation, read by the ``earlier`` blind policy)."""
    person = records["people"][request["person"]]
    role = request["role"]
    if person["status"] != "active" and blind != "status":
        return False
    if role in PRIVILEGED and rules["approvals"]:
        if rules["contractors"] and person["type"] == "contractor" and blind != "contractor_priv":
            return False
        if blind != "approver" and not any(
                a["person"] == request["person"] and a["role"] == role and a["approver"] == person["manager"]
                for a in records["approvals"]):
            return False
    if rules["duties"] and role in EXCLUSIVE and blind != "duties":
        other = EXCLUSIVE[1 - EXCLUSIVE.index(role)]
        held = (start or records)["people"][request["person"]]["roles"] if blind == "earlier" else person["roles"]
        return other not in held
    return True


def _grant(records: Records, request: dict[str, str], rules: dict[str, bool], blind: str | None = None) -> str:
    """Grant an allowed request on ``records``; the expiry it gets (``blind``: as the policy without that clause)."""
    person = records["people"][request["person"]]
    today = date.fromisoformat(records["today"])
    if request["role"] in PRIVILEGED and rules["approvals"] and blind != "priv_expiry":
        expires = (today + timedelta(days=PRIVILEGED_DAYS)).isoformat()
    elif rules["contractors"] and person["type"] == "contractor" and blind != "contractor_expiry":
        expires = (today + timedelta(days=CONTRACTOR_DAYS)).isoformat()
    else:
        expires = "never"
    person["roles"][request["role"]] = None if expires == "never" else expires
    return expires


def _draw_kind(rng: random.Random) -> str:
    """``all allowed`` (:data:`ALL_ALLOWED` of the problems), ``all refused`` (:data:`ALL_REFUSED`) or ``mixed``."""
    draw = rng.random()
    return "all allowed" if draw < ALL_ALLOWED else "all refused" if draw < ALL_ALLOWED + ALL_REFUSED else "mixed"


def _clauses(rules: dict[str, bool]) -> frozenset[str]:
    """The clauses in play, each one a policy could leave out: only active people (``status``); an approval by the
    person's own manager for privileged roles (``approver``: a policy that takes any approver's, or none); their
    90-day expiry (``priv_expiry``); no privileged roles for contractors (``contractor_priv``); contractors' 30-day
    expiry (``contractor_expiry``); the forbidden pair (``duties``), counting roles granted earlier (``earlier``)."""
    active = {"status": True, "approver": rules["approvals"], "priv_expiry": rules["approvals"],
              "contractor_priv": rules["contractors"], "contractor_expiry": rules["contractors"],
              "duties": rules["duties"], "earlier": rules["duties"]}
    return frozenset(name for name, on in active.items() if on)


def _roles(clauses: frozenset[str], kind: str) -> list[str]:
    """The people built for a clause to decide, on the side ``kind`` allows (``pair``: payments-approve granted, then
    payments-create refused, for ``earlier`` and ``priv_expiry``)."""
    roles = sorted(clauses - {"earlier", "priv_expiry"} | ({"pair"} if "earlier" in clauses else
                                                            {"priv_expiry"} & clauses))
    if kind == "all refused":
        return [role for role in roles if role in REFUSING]
    return [role for role in roles if role in ("priv_expiry", "contractor_expiry")] if kind == "all allowed" \
        else roles


def _needed(clauses: frozenset[str], kind: str) -> frozenset[str]:
    """The clauses that must each decide the problem: all in a mixed problem, the refusing ones when all are refused,
    the others when all are allowed."""
    return clauses if kind == "mixed" else clauses & REFUSING if kind == "all refused" else clauses - REFUSING - {
        "earlier"}


def _outcome(records: Records, requests: list[dict[str, str]], rules: dict[str, bool],
             blind: str | None = None) -> tuple[tuple[bool, ...], Any]:
    """The requests served and the roles everyone ends with, under the policy (without clause ``blind``)."""
    world = copy_data(records)
    served = []
    for request in requests:
        served.append(_allowed(world, request, rules, blind, records))
        if served[-1]:
            _grant(world, request, rules, blind)
    return tuple(served), {p: person["roles"] for p, person in world["people"].items()}


def _new_person(rng: random.Random, forge: NameForge, records: Records, managers: list[str],
                config: AccessRequests.Config) -> str | None:
    """A new person in the directory, as they fall (None when the id or name is taken)."""
    people = records["people"]
    person_id = f"E{rng.randint(100, 999)}"
    name = f"{forge.word(2)} {forge.word(2)}"
    if person_id in people or any(p["name"] == name for p in people.values()):
        return None
    people[person_id] = {
        "name": name, "type": "contractor" if config.contractors and rng.random() < 0.35 else "employee",
        "status": rng.choice(("active",) * 5 + ("on leave", "terminated")), "manager": rng.choice(managers),
        "roles": {r: None for r in rng.sample(ORDINARY, rng.randint(0, 2))}}
    return person_id


def _role_requests(rng: random.Random, records: Records, person_id: str, role: str) -> list[dict[str, str]]:
    """Make the new person ``person_id`` one that clause ``role`` decides (see :func:`_roles`); the requests about
    them."""
    person = records["people"][person_id]
    manager = person["manager"]
    others = [p for p, q in records["people"].items() if q["manager"] is None and p != manager]
    person["status"] = "active"
    if role != "status":  # (whose type is drawn as it falls)
        person["type"] = "contractor" if role in ("contractor_priv", "contractor_expiry") else "employee"
    privileged = PRIVILEGED if role != "duties" and role != "pair" else ("payments-approve",)
    for exclusive in EXCLUSIVE:
        person["roles"].pop(exclusive, None)
    if role == "status":
        person["status"] = rng.choice(("on leave", "terminated"))
        asked = rng.choice(ORDINARY)
    elif role == "contractor_expiry":
        asked = rng.choice(ORDINARY)
    else:
        asked = rng.choice(privileged)
    if role == "duties":
        person["roles"]["payments-create"] = None
    person["roles"].pop(asked, None)
    if role != "status" and asked in PRIVILEGED:
        approver = rng.choice(others) if role == "approver" else manager
        records["approvals"].append({"person": person_id, "role": asked, "approver": approver})
    requests = [{"person": person_id, "role": asked}]
    if role == "pair":
        requests.append({"person": person_id, "role": "payments-create"})
    return requests


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
