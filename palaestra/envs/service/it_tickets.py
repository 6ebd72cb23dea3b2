"""Serve an employee's IT-ticket requests, stated over several turns, under a stated help-desk policy.

The episode's records are a help desk's employees and tickets (reporter, what it is about, category, priority
1-4, the team handling it, open or closed on a date, from level 3 whether it blocks a whole team). A scripted
employee (:class:`~palaestra.envs.service.common.ScriptedUser`) states one request per message: raise a ticket to
priority 1, from level 1 reopen a closed ticket, from level 2 move a ticket to another team, from level 3 open a
new ticket for a problem they describe; from level 2 one request names a ticket ambiguously ("my printer ticket"
when they have two) and the employee's next message says which one they mean. The functions do what they are asked; the
policy is the agent's to follow (each level states the clauses of its kinds of request):

1. only tickets the employee reported may be changed (a colleague's ticket never);
2. each category is handled by one team (network: netops, hardware: desk, accounts: identity, software:
   apps); a ticket may be moved only to its category's team;
3. priority 1 is for network tickets only (from level 3: also for a ticket that blocks a whole team);
4. a closed ticket may be reopened up to 7 days after it was closed (day 7 included);
5. a new ticket is opened only when the employee has no open ticket of that category (counting tickets
   reopened earlier in the conversation); otherwise the employee is told that open ticket's id.

The answer is the set of request numbers carried out; the final records must be those the policy determines,
and the employee must have been told the id of a ticket opened for them (or of the open ticket that stood in
the way). A tenth of the problems allow every request and a twenty-fifth refuse every one; in the rest, every
clause in play decides a request of its own both ways (:func:`_blinds`): a colleague's ticket that would fit
otherwise, priority 1 for a non-network ticket and for a network one (or, from level 3, one that blocks a team),
moves to the wrong team and to the right one, reopens on day 8 and on day 7, a create with an open ticket of the
category and one with only a closed one; a draw that a misreading would serve alike is drawn again. (v2 drew
requests as they fell: on 40 seeds a level, a policy blind to one clause solved 0.50-0.97 of levels 0-5, one taking
day 7 as too late 0.75-0.95; now 0.00-0.12: the one-sided problems.) The difficulty is twice the requests plus
the refused ones plus half the tickets plus twice the kinds of request, the blocking exception and the
ambiguous request.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.problem import copy_data
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
# the misreadings (see _blinds) whose deciding request is an allowed one
ALLOWING = frozenset({"blocking", "no_priority", "no_move", "edge", "no_create"})
EXAMPLE = "<answer>1, 3</answer>"  # fixed placeholder


@register
class ItTickets(ScriptedUser, RequestsServed):
    id = "service/it_tickets"
    family = "service"
    description = "Serve an employee's ticket requests, told over several turns, under a help-desk policy (teams, priorities, reopening)."
    tags = ("service", "multi-turn", "tools", "policy", "dialogue", "agentic")
    version = 3  # v3: every clause in play decides every mixed problem (v2: most problems left some clause to chance)
    tool_names = ("find_employee", "get_ticket", "set_priority", "assign_team", "reopen_ticket", "create_ticket")

    @dataclass(frozen=True)
    class Config:
        requests: tuple[int, int]
        tickets: tuple[int, int]  # the employee's own tickets besides the requested ones
        kinds: tuple[str, ...]  # the kinds of request in play (each brings its clause of the policy)
        blocking_rule: bool  # priority 1 also for a ticket that blocks a whole team
        ambiguous: bool  # one request names a ticket ambiguously; the next message says which
        slack: int

    presets = (
        Config((3, 3), (0, 1), ("priority",), False, False, 3),
        Config((5, 5), (1, 2), ("priority", "reopen"), False, False, 3),
        Config((7, 7), (1, 3), ("priority", "move", "reopen"), False, True, 4),
        Config((9, 9), (2, 4), KINDS, True, True, 4),
        Config((10, 10), (3, 5), KINDS, True, True, 5),
    )
    growth = Growth(limits={"requests": (14, 16), "tickets": (10, 14), "slack": 10})

    def functions(self) -> dict[str, Function]:
        return {
            "find_employee": Function("Find an employee by e-mail: their id, name and their tickets.",
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
        employees = {person["id"]: person, colleague["id"]: colleague}
        records: Records = {"today": TODAY.isoformat(), "employees": employees, "tickets": {}, "next": 0}
        numbers = iter(rng.sample(range(1000, 9999), 40))

        def ticket(reporter: str, category: str, status: str, subject: str | None = None, blocking: bool = False
                   ) -> str:
            ticket_id = f"T{next(numbers)}"
            keyword = subject or rng.choice(TROUBLES[category])[0]
            opened = TODAY - timedelta(days=rng.randint(10, 40))
            closed = (TODAY - timedelta(days=rng.randint(1, 12))).isoformat() if status == "closed" else None
            records["tickets"][ticket_id] = {
                "reporter": reporter, "subject": keyword, "category": category, "priority": rng.randint(2, 4),
                "team": TEAMS[category], "status": status, "opened": opened.isoformat(), "closed": closed,
                "blocking": blocking or (config.blocking_rule and rng.random() < 0.25)}
            return ticket_id

        side = draw_side(rng)
        blinds = _blinds(config.kinds, config.blocking_rule) if side == "mixed" else ()
        # each misreading in play decides a request of its own (an allowed one where it refuses too much), but the
        # request that tests the blocking exception also shows that priority 1 is granted at all
        deciding = [blind for blind in blinds if not (blind == "no_priority" and "blocking" in blinds)]
        count = max(rng.randint(*config.requests), len(deciding))
        fillers = [side == "all allowed" or (side == "mixed" and rng.random() < 0.5)
                   for _ in range(count - len(deciding))]
        plans: list[tuple[str, bool, str | None]] = [(_kind_for(rng, blind, config.kinds), blind in ALLOWING, blind)
                                                     for blind in deciding]
        for allowed in fillers:  # at most two creates: the other requests need categories of their own
            creates = sum(kind == "create" for kind, _, _ in plans)
            plans.append((rng.choice([kind for kind in config.kinds if kind != "create" or creates < 2]), allowed,
                          None))
        # creates first: the categories they take are kept free of the other requests' open tickets (_request)
        plans.sort(key=lambda plan: plan[0] != "create")
        requests: list[dict[str, Any]] = []
        created_categories: set[str] = set()
        for kind, allowed, reason in plans:
            request = self._request(rng, records, ticket, person["id"], colleague["id"], kind, allowed, reason,
                                    created_categories, config.blocking_rule)
            if request is None:
                return None
            requests.append(request)
        rng.shuffle(requests)
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
        outcome, served, facts = _serve(records, person["id"], requests, config.blocking_rule)
        if side == "mixed" and not 0 < len(served) < count:
            return None
        if any(_serve(records, person["id"], requests, config.blocking_rule, blind)[:2] == (outcome, served)
               for blind in blinds):
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
        clauses = {
            "own": "Change only tickets the employee reported themselves; never a colleague's ticket.",
            "move": "Each category is handled by one team: network by netops, hardware by desk, accounts by identity, "
                    "software by apps. Move a ticket only to its category's team.",
            "priority": "Priority 1 is only for network tickets" + (" and for tickets that block a whole team"
                                                                    if config.blocking_rule else "") + ".",
            "reopen": f"A closed ticket may be reopened up to {REOPEN_DAYS} days after it was closed (day "
                      f"{REOPEN_DAYS} included).",
            "create": "Open a new ticket only when the employee has no open ticket of that category; otherwise open "
                      "nothing and tell them the id of that open ticket. When you open a ticket, tell them its id.",
        }
        stated = [text for clause, text in clauses.items() if clause == "own" or clause in config.kinds]
        rules = [f"{number}. {text}" for number, text in enumerate(stated, 1)] + [
            "Categories: network (VPN, Wi-Fi, network drive), hardware (printer, laptop, monitor), accounts "
            "(password, login, mailbox), software (spreadsheet, licence, update)."]
        prompt = (
            f"You are an IT help-desk agent. Today is {TODAY.isoformat()}. Help-desk policy:\n" + "\n".join(rules)
            + "\n\nThe employee will tell you what they need over several messages: a reply to them without a tool "
            "call is a message they answer, until they have nothing more to ask. Number their requests 1, 2, ... in "
            "the order they make them; carry out what the policy allows, refuse the rest, and do nothing they did "
            "not ask for. When they have nothing more to ask, give your final answer: the numbers of the requests "
            f"you carried out, e.g. {EXAMPLE} (<answer>none</answer> if none).\n\nEmployee: {user[0]}\n\n"
            + self.tools_prompt(budget)
        )
        data = {"records": records, "employee": person["id"], "requests": requests, "blocking_rule": config.blocking_rule,
                "kinds": list(config.kinds), "ambiguous": ambiguous, "user": user, "facts": facts, "budget": budget}
        return Problem(prompt=prompt, answer=", ".join(str(n) for n in served) or "none", data=data)

    def _request(self, rng: random.Random, records: Records, ticket: Any, own: str, other: str, kind: str,
                 allowed: bool, reason: str | None, created: set[str], blocking_rule: bool) -> dict[str, Any] | None:
        """A request of ``kind`` the policy allows or not; with a ``reason`` (a clause, see :func:`_blinds`), one
        that this clause alone decides: a colleague's ticket the request would fit otherwise, a non-network
        ticket raised to priority 1 (one blocking a team: allowed), a move to the wrong team, a late reopen, a second open
        ticket of a category."""
        if kind == "create":
            free = sorted(set(TEAMS) - created)
            if not free:
                return None
            category = rng.choice(free)
            created.add(category)
            trouble = rng.choice(TROUBLES[category])
            if not allowed:
                ticket(own, category, "open", trouble[0])
            elif reason == "no_create":  # and a closed one of the category, which does not stand in the way
                ticket(own, category, "closed", trouble[0])
            return {"kind": "create", "category": category, "trouble": trouble[1], "own": True}
        if reason is None:
            mine = allowed or rng.random() < 0.6
            fits = allowed or not mine and rng.random() < 0.5  # whether the request fits its own clause
        else:
            mine, fits = reason != "own", reason in ("own", *ALLOWING)
        reporter = own if mine else other
        # the categories of creates stay free of the employee's open tickets, which would block them
        category = rng.choice(sorted(set(TEAMS) - created))
        if kind == "priority":
            # a ticket that fits is a network one or, where the exception is in play, may block a team instead
            blocking = fits and (reason == "blocking" or reason is None and blocking_rule and rng.random() < 0.5)
            options = [c for c in TEAMS if (c == "network") == (fits and not blocking) and c not in created]
            if not options:
                return None
            tid = ticket(reporter, rng.choice(options), "open", blocking=blocking)
            records["tickets"][tid]["blocking"] = blocking  # never by chance: it decides this request
            return {"kind": "priority", "ticket": tid, "own": mine}
        if kind == "move":
            tid = ticket(reporter, category, "open")
            good = TEAMS[category]
            records["tickets"][tid]["team"] = rng.choice([t for t in TEAMS.values() if t != good])
            team = good if fits else rng.choice([t for t in TEAMS.values() if t not in (good, records["tickets"][tid][
                "team"])])
            return {"kind": "move", "ticket": tid, "team": team, "own": mine}
        tid = ticket(reporter, category, "closed")
        # half of them on the boundary's either side: day 7 is the last day a ticket may be reopened
        edge = reason in ("edge", "reopen") or rng.random() < 0.5
        days = (REOPEN_DAYS if edge else rng.randint(REOPEN_DAYS - 3, REOPEN_DAYS - 1)) if fits else (
            REOPEN_DAYS + 1 if edge else rng.randint(REOPEN_DAYS + 2, REOPEN_DAYS + 4))
        records["tickets"][tid]["closed"] = (TODAY - timedelta(days=days)).isoformat()
        return {"kind": "reopen", "ticket": tid, "own": mine}

    def expected_records(self, problem: Problem) -> Records:
        data = problem.data
        return _serve(data["records"], data["employee"], data["requests"], data["blocking_rule"])[0]

    def required_facts(self, problem: Problem) -> dict[str, str]:
        return dict(problem.data["facts"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        served = 0 if problem.answer == "none" else len((problem.answer or "").split(", "))
        refused = len(data["requests"]) - served
        return (2 * len(data["requests"]) + refused + len(data["records"]["tickets"]) / 2 + 2 * len(data["kinds"])
                + 2 * data["blocking_rule"] + 2 * (data["ambiguous"] is not None))

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy_data(data["records"])
        person = records["employees"][data["employee"]]
        replies = [call("find_employee", email=person["email"])]
        for index, request in enumerate(data["requests"]):
            if index == data["ambiguous"]:
                replies.append("You have more than one such ticket: which one do you mean?")
            if request["kind"] != "create":
                replies.append(call("get_ticket", ticket_id=request["ticket"]))
            allowed, message = _allowed(records, data["employee"], request, data["blocking_rule"])
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


def _blinds(kinds: tuple[str, ...], blocking_rule: bool) -> tuple[str, ...]:
    """The misreadings of the clauses in play, named as :func:`_allowed` reads ``blind``: a clause left out,
    ``own`` (a colleague's ticket), ``priority`` (priority 1 for network tickets only), ``blocking`` (its exception
    for a ticket that blocks a team), ``team``, ``reopen`` (the 7 days) and ``create`` (an open ticket of the
    category); or read as refusing too much: ``no_priority``, ``no_move`` and ``no_create`` (every such request),
    ``edge`` (the 7th day excluded)."""
    clauses = {"priority": ("priority", "no_priority", *(("blocking",) if blocking_rule else ())),
               "move": ("team", "no_move"), "reopen": ("reopen", "edge"), "create": ("create", "no_create")}
    return ("own", *(clause for kind in kinds for clause in clauses[kind]))


def _kind_for(rng: random.Random, blind: str, kinds: tuple[str, ...]) -> str:
    """The kind of a request that ``blind``'s clause decides (any kind but a create for a colleague's ticket)."""
    if blind == "own":
        return rng.choice([kind for kind in kinds if kind != "create"])
    return {"priority": "priority", "no_priority": "priority", "blocking": "priority", "team": "move",
            "no_move": "move", "reopen": "reopen", "edge": "reopen", "create": "create", "no_create": "create"}[blind]


def _allowed(records: Records, employee: str, request: dict[str, Any], blocking_rule: bool,
             blind: str | None = None) -> tuple[bool, str]:
    """Whether the policy allows ``request`` now, and what the employee must be told (an id) if anything
    (``blind``: the policy without that clause, see :func:`_blinds`)."""
    if request["kind"] == "create":
        open_ones = [tid for tid, t in records["tickets"].items() if t["reporter"] == employee
                     and t["category"] == request["category"] and t["status"] == "open"]
        if open_ones and blind != "create":
            return False, f"You already have an open ticket for that: {open_ones[0]}."
        if blind == "no_create":
            return False, ""
        return True, f"I opened ticket T{100 + records['next']} for you."
    ticket = records["tickets"][request["ticket"]]
    if ticket["reporter"] != employee and blind != "own":
        return False, ""
    if blind == f"no_{request['kind']}":  # a misreading that refuses every such request
        return False, ""
    if request["kind"] == "priority":
        blocking = bool(blocking_rule and ticket["blocking"]) and blind != "blocking"
        return ticket["status"] == "open" and (ticket["category"] == "network" or blocking or blind == "priority"), ""
    if request["kind"] == "move":
        return request["team"] == TEAMS[ticket["category"]] or blind == "team", ""
    age = (date.fromisoformat(records["today"]) - date.fromisoformat(ticket["closed"])).days
    last_day = REOPEN_DAYS - (blind == "edge")
    return ticket["status"] == "closed" and (age <= last_day or blind == "reopen"), ""


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


def _serve(initial: Records, employee: str, requests: list[dict[str, Any]], blocking_rule: bool, blind: str | None = None
           ) -> tuple[Records, list[int], dict[str, str]]:
    """The records after serving ``requests`` in order by the policy (``blind``: without that clause), the numbers
    served, the facts to tell."""
    records = copy_data(initial)
    served, facts = [], {}
    for number, request in enumerate(requests, 1):
        allowed, message = _allowed(records, employee, request, blocking_rule, blind)
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
            return (f"employee {employee_id}: {person['name']}; tickets: "
                    f"{', '.join(tickets) or 'none'}"), None
    return f"error: no employee with e-mail {email[:100]!r}", None


def _get_ticket(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    ticket = records["tickets"].get(str(args["ticket_id"]))
    if ticket is None:
        return f"error: no ticket {str(args['ticket_id'])[:40]!r}", None
    closed = f", closed {ticket['closed']}" if ticket["status"] == "closed" else ""
    blocking = ", blocks a whole team" if ticket["blocking"] else ""
    return (f"ticket {args['ticket_id']}: reporter {ticket['reporter']}, subject {ticket['subject']}, category "
            f"{ticket['category']}, priority {ticket['priority']}, team {ticket['team']}, status {ticket['status']}, "
            f"opened {ticket['opened']}{closed}{blocking}"), None


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
                                     "opened": records["today"], "closed": None, "blocking": False}
    return f"ticket {ticket_id} opened", records
