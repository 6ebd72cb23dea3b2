"""Serve an employee's IT-ticket requests, stated over several turns, under a stated help-desk policy.

The episode's records are a help desk's employees (one a VIP from level 2) and tickets (reporter, what it
is about, category, priority 1-4, the team handling it, open or closed on a date). A scripted employee
(:class:`~palaestra.envs.service.common.ScriptedUser`) states one request per message: raise a ticket to
priority 1, move a ticket to another team, reopen a closed ticket, open a new ticket for a problem they
describe; from level 2 one request names a ticket ambiguously ("my printer ticket" when they have two) and
the employee's next message says which one they mean. The functions do what they are asked; the policy is
the agent's to follow:

1. only tickets the employee reported may be changed (a colleague's ticket never);
2. each category is handled by one team (network: netops, hardware: desk, accounts: identity, software:
   apps); a ticket may be moved only to its category's team;
3. priority 1 is for network tickets only (from level 2: also for any ticket of a VIP employee);
4. a closed ticket may be reopened up to 7 days after it was closed (day 7 included);
5. a new ticket is opened only when the employee has no open ticket of that category (counting tickets
   reopened earlier in the conversation); otherwise the employee is told that open ticket's id.

The answer is the set of request numbers carried out; the final records must be those the policy determines,
and the employee must have been told the id of a ticket opened for them (or of the open ticket that stood in
the way). Requests fall on both sides of the policy in most draws (a tenth all allowed, a twenty-fifth all
refused). The difficulty is twice the requests plus the refused ones plus the tickets plus the clauses in play.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.service.common import Function, Records, RequestsServed, ScriptedUser, call, draw_person, draw_side
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 9, 16)
REOPEN_DAYS = 7
TEAMS = {"network": "netops", "hardware": "desk", "accounts": "identity", "software": "apps"}
# What an employee's problem of each category is about: a keyword (the ticket's subject) and a description.
TROUBLES = {
    "network": (("VPN", "the VPN drops every few minutes"), ("Wi-Fi", "the office Wi-Fi keeps disconnecting"),
                ("network drive", "the shared network drive is unreachable")),
    "hardware": (("printer", "the printer on my floor jams on every page"),
                 ("laptop", "my laptop will not charge"), ("monitor", "my second monitor stays black")),
    "accounts": (("password", "my password expired and the reset link fails"),
                 ("login", "I cannot log in to the HR portal"), ("mailbox", "I lost access to the team mailbox")),
    "software": (("spreadsheet", "the spreadsheet app crashes on start"),
                 ("licence", "my design-tool licence has run out"), ("update", "a system update fails to install")),
}
CLOSINGS = ("That's all, thanks.", "Nothing else, thank you.", "That was everything, thanks!")
KINDS = ("priority", "move", "reopen", "create")
EXAMPLE = "<answer>1, 3</answer>"  # fixed placeholder


@register
class ItTickets(ScriptedUser, RequestsServed):
    id = "service/it_tickets"
    family = "service"
    description = "Serve an employee's ticket requests, told over several turns, under a help-desk policy (teams, priorities, reopening)."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 2  # v2: a twenty-fifth of the problems refuse every request (v1: a tenth)
    tool_names = ("find_employee", "get_ticket", "set_priority", "assign_team", "reopen_ticket", "create_ticket")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]
        tickets: tuple[int, int]  # the employee's own tickets besides the requested ones
        vip_rule: bool
        ambiguous: bool  # one request names a ticket ambiguously; the next message says which
        slack: int

    presets = (
        Config((2, 2), (0, 1), False, False, 3),
        Config((2, 3), (1, 2), False, False, 3),
        Config((3, 3), (1, 3), True, True, 4),
        Config((3, 4), (2, 4), True, True, 4),
        Config((4, 5), (3, 5), True, True, 5),
    )
    growth = Growth(limits={"requests": (8, 12), "tickets": (10, 14), "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_employee": Function("Find an employee by e-mail: their id, name, VIP status and their tickets.",
                                      {"email": "string"}, _find_employee),
            "get_ticket": Function("Read a ticket: reporter, subject, category, priority, team, status and dates.",
                                   {"ticket_id": "string"}, _get_ticket),
            "set_priority": Function("Set a ticket's priority (1 most urgent to 4).",
                                     {"ticket_id": "string", "priority": "integer"}, _set_priority),
            "assign_team": Function("Move a ticket to a team (netops, desk, identity, apps).",
                                    {"ticket_id": "string", "team": "string"}, _assign_team),
            "reopen_ticket": Function("Reopen a closed ticket.", {"ticket_id": "string"}, _reopen),
            "create_ticket": Function("Open a new ticket for an employee in a category (network, hardware, "
                                      "accounts, software); returns its id.",
                                      {"employee_id": "string", "category": "string"}, _create),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="tickets for the requests", attempts=50)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        forge = NameForge(rng)
        person = draw_person(forge, rng, "E", "corp.example")
        colleague = draw_person(forge, rng, "E", "corp.example")
        vip = config.vip_rule and rng.random() < 0.5
        employees = {person["id"]: {**person, "vip": vip}, colleague["id"]: {**colleague, "vip": False}}
        records: Records = {"today": TODAY.isoformat(), "employees": employees, "tickets": {}, "next": 0}
        numbers = iter(rng.sample(range(1000, 9999), 40))

        def ticket(reporter: str, category: str, status: str, subject: str | None = None) -> str:
            ticket_id = f"T{next(numbers)}"
            keyword = subject or rng.choice(TROUBLES[category])[0]
            opened = TODAY - timedelta(days=rng.randint(10, 40))
            closed = (TODAY - timedelta(days=rng.randint(1, 12))).isoformat() if status == "closed" else None
            records["tickets"][ticket_id] = {
                "reporter": reporter, "subject": keyword, "category": category, "priority": rng.randint(2, 4),
                "team": TEAMS[category], "status": status, "opened": opened.isoformat(), "closed": closed}
            return ticket_id

        side = draw_side(rng)
        count = rng.randint(*config.requests)
        wanted = [side == "all allowed" or (side == "mixed" and rng.random() < 0.5) for _ in range(count)]
        if side == "mixed" and len(set(wanted)) == 1:
            wanted[rng.randrange(count)] = not wanted[0]
        kinds = [rng.choice(KINDS[:3]) for _ in range(count)]
        if rng.random() < 0.7:
            kinds[rng.randrange(count)] = "create"
        requests: list[dict[str, Any]] = []
        created_categories: set[str] = set()
        for kind, allowed in zip(kinds, wanted):
            request = self._request(rng, config, records, ticket, person["id"], colleague["id"], kind, allowed,
                                    created_categories)
            if request is None:
                return None
            requests.append(request)
        for _ in range(rng.randint(*config.tickets)):
            category = rng.choice(sorted(TEAMS))
            ticket(person["id"], category, "closed" if category in created_categories else rng.choice(("open",
                                                                                                     "closed")))
        ambiguous = None
        if config.ambiguous:
            targets = [i for i, r in enumerate(requests) if r["kind"] != "create" and r["own"]]
            if not targets:
                return None
            ambiguous = rng.choice(targets)
            target = records["tickets"][requests[ambiguous]["ticket"]]
            twin = ticket(person["id"], target["category"], "closed", target["subject"])
            records["tickets"][twin]["closed"] = (TODAY - timedelta(days=rng.randint(20, 30))).isoformat()
            if twin in {r.get("ticket") for r in requests} or target["opened"] == records["tickets"][twin]["opened"]:
                return None
        order = list(records["tickets"])
        rng.shuffle(order)
        records["tickets"] = {tid: records["tickets"][tid] for tid in order}
        _, served, facts = _serve(records, person["id"], requests, config.vip_rule)
        if side == "mixed" and not 0 < len(served) < count:
            return None
        user = []
        for index, request in enumerate(requests):
            user.append(_ask(records, request, index == ambiguous))
            if index == ambiguous:
                opened = records["tickets"][request["ticket"]]["opened"]
                user.append(f"Sorry, I meant the one I opened on {opened}.")
        user.append(rng.choice(CLOSINGS))
        user[0] = f"Hi, this is {person['name']} ({person['email']}). {user[0]}"
        budget = 2 + 2 * count + len(records["tickets"]) // 2 + config.slack
        rules = [
            "1. Change only tickets the employee reported themselves; never a colleague's ticket.",
            "2. Each category is handled by one team: network by netops, hardware by desk, accounts by identity, "
            "software by apps. Move a ticket only to its category's team.",
            "3. Priority 1 is only for network tickets" + (" and for tickets of VIP employees" if config.vip_rule
                                                            else "") + ".",
            f"4. A closed ticket may be reopened up to {REOPEN_DAYS} days after it was closed (day {REOPEN_DAYS} "
            "included).",
            "5. Open a new ticket only when the employee has no open ticket of that category; otherwise open "
            "nothing and tell them the id of that open ticket. When you open a ticket, tell them its id.",
            "Categories: network (VPN, Wi-Fi, network drive), hardware (printer, laptop, monitor), accounts "
            "(password, login, mailbox), software (spreadsheet, licence, update).",
        ]
        prompt = (
            f"You are an IT help-desk agent. Today is {TODAY.isoformat()}. Help-desk policy:\n" + "\n".join(rules)
            + "\n\nThe employee will tell you what they need over several messages: a reply to them without a tool "
            "call is a message they answer, until they have nothing more to ask. Number their requests 1, 2, ... in "
            "the order they make them; carry out what the policy allows, refuse the rest, and do nothing they did "
            "not ask for. When they have nothing more to ask, give your final answer: the numbers of the requests "
            f"you carried out, e.g. {EXAMPLE} (<answer>none</answer> if none).\n\nEmployee: {user[0]}\n\n"
            + self.tools_prompt(budget)
        )
        data = {"records": records, "employee": person["id"], "requests": requests, "vip_rule": config.vip_rule,
                "ambiguous": ambiguous, "user": user, "facts": facts, "budget": budget}
        return Problem(prompt=prompt, answer=", ".join(str(n) for n in served) or "none", data=data)

    def _request(self, rng: random.Random, config: Config, records: Records, ticket: Any, own: str, other: str,
                 kind: str, allowed: bool, created: set[str]) -> dict[str, Any] | None:
        if kind == "create":
            free = sorted(set(TEAMS) - created)
            if not free:
                return None
            category = rng.choice(free)
            created.add(category)
            trouble = rng.choice(TROUBLES[category])
            if not allowed:
                ticket(own, category, "open", trouble[0])
            return {"kind": "create", "category": category, "trouble": trouble[1], "own": True}
        mine = allowed or rng.random() < 0.6
        reporter = own if mine else other
        if kind == "priority":
            vip = records["employees"][own]["vip"]
            network = allowed and not vip or (not allowed and not mine and rng.random() < 0.5)
            category = "network" if network else rng.choice(("hardware", "accounts", "software"))
            if category in created:
                return None
            tid = ticket(reporter, category, "open")
            return {"kind": "priority", "ticket": tid, "own": mine}
        if kind == "move":
            category = rng.choice(sorted(set(TEAMS) - created))
            tid = ticket(reporter, category, "open")
            good = TEAMS[category]
            records["tickets"][tid]["team"] = rng.choice([t for t in TEAMS.values() if t != good])
            team = good if allowed or (not mine and rng.random() < 0.5) else \
                rng.choice([t for t in TEAMS.values() if t not in (good, records["tickets"][tid]["team"])])
            return {"kind": "move", "ticket": tid, "team": team, "own": mine}
        category = rng.choice(sorted(set(TEAMS) - created))
        tid = ticket(reporter, category, "closed")
        late = not allowed and mine and rng.random() < 0.8
        days = rng.randint(REOPEN_DAYS + 1, REOPEN_DAYS + 4) if late else rng.randint(REOPEN_DAYS - 3, REOPEN_DAYS)
        records["tickets"][tid]["closed"] = (TODAY - timedelta(days=days)).isoformat()
        return {"kind": "reopen", "ticket": tid, "own": mine}

    def expected_records(self, problem: Problem) -> Records:
        data = problem.data
        return _serve(data["records"], data["employee"], data["requests"], data["vip_rule"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        return dict(problem.data["facts"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        served = 0 if problem.answer == "none" else len((problem.answer or "").split(", "))
        refused = len(data["requests"]) - served
        return (2 * len(data["requests"]) + refused + len(data["records"]["tickets"]) / 2 + 2 * data["vip_rule"]
                + 2 * (data["ambiguous"] is not None))

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy.deepcopy(data["records"])
        person = records["employees"][data["employee"]]
        replies = [call("find_employee", email=person["email"])]
        for index, request in enumerate(data["requests"]):
            if index == data["ambiguous"]:
                replies.append("You have more than one such ticket: which one do you mean?")
            if request["kind"] != "create":
                replies.append(call("get_ticket", ticket_id=request["ticket"]))
            allowed, message = _allowed(records, data["employee"], request, data["vip_rule"])
            if allowed:
                replies.append(_action(data["employee"], request))
                _apply(records, data["employee"], request)
            replies.append(f"{message or ('Done.' if allowed else 'The policy does not allow that.')} Anything else?")
        return [*replies, problem.answer or "none"]


def _ask(records: Records, request: dict[str, Any], ambiguous: bool) -> str:
    if request["kind"] == "create":
        return f"Could you open a new ticket for me? {request['trouble'][0].upper()}{request['trouble'][1:]}."
    ticket = records["tickets"][request["ticket"]]
    name = f"my {ticket['subject']} ticket" if ambiguous else f"ticket {request['ticket']}"
    if not request["own"]:
        name = f"my colleague's ticket {request['ticket']}"
    if request["kind"] == "priority":
        return f"Please raise {name} to priority 1, it is urgent."
    if request["kind"] == "move":
        return f"Please move {name} to the {request['team']} team."
    return f"Please reopen {name}, the problem is back."


def _allowed(records: Records, employee: str, request: dict[str, Any], vip_rule: bool) -> tuple[bool, str]:
    """Whether the policy allows ``request`` now, and what the employee must be told (an id) if anything."""
    if request["kind"] == "create":
        blocking = [tid for tid, t in records["tickets"].items() if t["reporter"] == employee
                    and t["category"] == request["category"] and t["status"] == "open"]
        if blocking:
            return False, f"You already have an open ticket for that: {blocking[0]}."
        return True, f"I opened ticket T{100 + records['next']} for you."
    ticket = records["tickets"][request["ticket"]]
    if ticket["reporter"] != employee:
        return False, ""
    if request["kind"] == "priority":
        vip = vip_rule and records["employees"][employee]["vip"]
        return ticket["status"] == "open" and (ticket["category"] == "network" or vip), ""
    if request["kind"] == "move":
        return request["team"] == TEAMS[ticket["category"]], ""
    age = (date.fromisoformat(records["today"]) - date.fromisoformat(ticket["closed"])).days
    return ticket["status"] == "closed" and age <= REOPEN_DAYS, ""


def _action(employee: str, request: dict[str, Any]) -> str:
    kind = request["kind"]
    if kind == "create":
        return call("create_ticket", employee_id=employee, category=request["category"])
    if kind == "priority":
        return call("set_priority", ticket_id=request["ticket"], priority=1)
    if kind == "move":
        return call("assign_team", ticket_id=request["ticket"], team=request["team"])
    return call("reopen_ticket", ticket_id=request["ticket"])


def _apply(records: Records, employee: str, request: dict[str, Any]) -> None:
    kind = request["kind"]
    if kind == "create":
        _create(records, {"employee_id": employee, "category": request["category"]})
    elif kind == "priority":
        records["tickets"][request["ticket"]]["priority"] = 1
    elif kind == "move":
        records["tickets"][request["ticket"]]["team"] = request["team"]
    else:
        _reopen(records, {"ticket_id": request["ticket"]})


def _serve(initial: Records, employee: str, requests: list[dict[str, Any]], vip_rule: bool
           ) -> tuple[Records, list[int], dict[str, str]]:
    """The records after serving ``requests`` in order by the policy, the numbers served, the facts to tell."""
    records = copy.deepcopy(initial)
    served, facts = [], {}
    for number, request in enumerate(requests, 1):
        allowed, message = _allowed(records, employee, request, vip_rule)
        if message:
            facts[f"the ticket id of request {number}"] = message.rstrip(".").split()[-1]
        if allowed:
            _apply(records, employee, request)
            served.append(number)
    return records, served, facts


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_employee(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for employee_id, person in records["employees"].items():
        if person["email"] == email:
            tickets = [f"{tid} ({t['status']})" for tid, t in records["tickets"].items() if t["reporter"] == employee_id]
            return (f"employee {employee_id}: {person['name']}{', VIP' if person['vip'] else ''}; tickets: "
                    f"{', '.join(tickets) or 'none'}"), None
    return f"error: no employee with e-mail {email[:100]!r}", None


def _get_ticket(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    ticket = records["tickets"].get(str(args["ticket_id"]))
    if ticket is None:
        return f"error: no ticket {str(args['ticket_id'])[:40]!r}", None
    closed = f", closed {ticket['closed']}" if ticket["status"] == "closed" else ""
    return (f"ticket {args['ticket_id']}: reporter {ticket['reporter']}, subject {ticket['subject']}, category "
            f"{ticket['category']}, priority {ticket['priority']}, team {ticket['team']}, status {ticket['status']}, "
            f"opened {ticket['opened']}{closed}"), None


def _set_priority(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    ticket = records["tickets"].get(str(args["ticket_id"]))
    if ticket is None:
        return f"error: no ticket {str(args['ticket_id'])[:40]!r}", None
    if args["priority"] not in (1, 2, 3, 4) or isinstance(args["priority"], bool):
        return "error: priority must be 1, 2, 3 or 4", None
    ticket["priority"] = args["priority"]
    return f"ticket {args['ticket_id']} now has priority {args['priority']}", records


def _assign_team(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    ticket = records["tickets"].get(str(args["ticket_id"]))
    team = str(args["team"]).strip().lower()
    if ticket is None:
        return f"error: no ticket {str(args['ticket_id'])[:40]!r}", None
    if team not in TEAMS.values():
        return f"error: no team {team[:40]!r}", None
    ticket["team"] = team
    return f"ticket {args['ticket_id']} moved to {team}", records


def _reopen(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    ticket = records["tickets"].get(str(args["ticket_id"]))
    if ticket is None:
        return f"error: no ticket {str(args['ticket_id'])[:40]!r}", None
    if ticket["status"] != "closed":
        return f"error: ticket {args['ticket_id']} is not closed", None
    ticket["status"], ticket["closed"] = "open", None
    return f"ticket {args['ticket_id']} reopened", records


def _create(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    employee, category = str(args["employee_id"]), str(args["category"]).strip().lower()
    if employee not in records["employees"]:
        return f"error: no employee {employee[:40]!r}", None
    if category not in TEAMS:
        return f"error: no category {category[:40]!r}", None
    ticket_id = f"T{100 + records['next']}"
    records["next"] += 1
    records["tickets"][ticket_id] = {"reporter": employee, "subject": f"new {category} issue", "category": category,
                                     "priority": 3, "team": TEAMS[category], "status": "open",
                                     "opened": records["today"], "closed": None}
    return f"ticket {ticket_id} opened", records
