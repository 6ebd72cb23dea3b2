"""Serve a library patron's renewals and loans under a stated lending policy, with catalogue functions.

The episode's records are a library's catalogue (books and DVDs, each on the shelf or on loan, some with a
queue of holds), its loans, and one patron (their fines owed and their loans: due dates, renewals so far).
The patron asks, in order, to renew some of their loans and, from level 1, to borrow some items (named by
title). The functions find the patron, read a loan, search the catalogue, renew a loan to a given due
date, charge a fine and check an item out with a given due date; they refuse only the impossible (an item
already on loan, an unknown id), never what the policy forbids:

1. a loan may be renewed at most twice in all; a renewal sets the due date to 21 days after today for a
   book, 7 days for a DVD (the agent computes the date);
2. a loan cannot be renewed while another patron has a hold on its item;
3. from level 1, a borrowed item is due 21 days (book) or 7 days (DVD) after today; an item with holds may
   be borrowed only by the first patron in its queue;
4. from level 2, renewing an overdue loan first charges its late fine: 25 cents a day for a book, 100 cents
   a day for a DVD (days late = today minus the due date), at most $10.00 per loan;
5. from level 3, a patron may have at most 10 items on loan, and may not borrow while owing more than $5.00
   in fines (fines charged in this conversation included); returns are always taken (the patron asks for some
   from level 3, and the functions check an item in).

A refused request does not stop the next. The answer is the set of request numbers carried out (``none``
if none); the episode is judged on the answer and on the final records (due dates, renewal counts, fines,
loans) against those the policy determines, so a forbidden renewal, a wrong date or a missing fine fails.
Requests are built on both sides of the policy (a twenty-fifth of problems all allowed, a twenty-fifth all
refused). Every clause in play (see ``_clauses``: at most two renewals; no renewal under another's hold; the DVD's 7
days, counted from today; only the first in a hold queue borrows, the patron first included; the late fine and its
cap; the loan limit; the fines limit, counting fines charged today) decides every mixed problem on its own: a loan or
an item is built for each, and from level 3 the patron holds 9 loans and asks, in this order with the rest between,
to borrow an item held for another, an item they are first in line for (the tenth loan), another item (refused for
the limit), to renew a loan late enough for the capped fine (now owing over $5.00), to return a loan and to borrow
again (refused for the fines). A draw where the policy without some clause still does the same is drawn again.
(v2 drew requests as they fell.) The difficulty is the requests plus the loans plus twice the clauses in play plus
the overdue renewals.
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
    draw_person,
    served_answer,
)
from palaestra.generators.knowledge import NameForge

TODAY = date(2024, 10, 15)
LOAN_DAYS = {"book": 21, "dvd": 7}
FINE_PER_DAY = {"book": 25, "dvd": 100}
FINE_CAP = 1_000
MAX_RENEWALS, MAX_LOANS, MAX_FINES = 2, 10, 500
NOUNS = ("harbor", "garden", "winter", "mirror", "lantern", "river", "orchard", "signal", "tower", "valley")
ADJECTIVES = ("silent", "hidden", "last", "broken", "golden", "northern", "quiet", "distant", "burning", "paper")
EXAMPLE = "<answer>1, 4</answer>"  # fixed placeholder
ALL_ALLOWED = 0.04  # the share of problems whose requests the policy all allows (the refusing clauses decide nothing)
ALL_REFUSED = 0.04  # and all refuses (the rest mix both sides)
RENEW_ROLES = ["renewals", "holds", "dvd", "fine", "fine_cap"]  # the patron's loans built for a clause to decide
BORROW_ROLES = ["queue", "own_first"]  # the items built to be asked for
ROLE_CLAUSE = {"renewals": "renewals", "holds": "holds", "dvd": "dvd_days", "fine": "fine", "fine_cap": "fine_cap",
               "queue": "queue", "own_first": "own_first"}
REFUSED_ROLES = frozenset({"renewals", "holds", "queue"})
SCRIPT_ROLES = ("queue", "own_first", "limit", "fine_cap", "return", "fines_borrow")


@register
class LibraryLoans(RequestsServed):
    id = "service/library_loans"
    family = "service"
    description = "Serve a library patron's renewals and loans under a stated lending policy (holds, fines, limits)."
    tags = ("service", "multi-turn", "tools", "policy", "dates", "agentic")
    version = 3  # v3: every clause in play decides every mixed problem; returns; more requests (v2: a twenty-fifth
    # of the problems refuse every request; v1: a tenth)
    tool_names = ("find_patron", "get_loan", "search_catalog", "renew_loan", "charge_fine", "checkout", "return_item")

    @dataclass(frozen=True)
    class Config:
        loans: tuple[int, int]  # the patron's loans
        requests: tuple[int, int]
        borrowing: bool
        fines: bool
        limits: bool
        budget: int

    presets = (
        Config((1, 2), (3, 4), False, False, False, 12),
        Config((1, 2), (5, 6), True, False, False, 18),
        Config((1, 2), (7, 8), True, True, False, 24),
        Config((1, 2), (10, 11), True, True, True, 32),
        Config((2, 3), (11, 12), True, True, True, 36),
    )
    growth = Growth(limits={"loans": (2, 6), "requests": (16, 17), "budget": 60})

    def functions(self) -> dict[str, Function]:
        return {
            "find_patron": Function("Find a patron by e-mail address: id, name, fines owed and loan ids.",
                                    {"email": "string"}, _find_patron),
            "get_loan": Function("Read a loan: its item (id, title, type), due date, renewals so far, and the hold "
                                 "queue of the item (patron ids, first in line first).", {"loan_id": "string"},
                                 _get_loan),
            "search_catalog": Function("Search the catalogue by title words: each match's id, title, type, whether it "
                                       "is on the shelf or on loan, and its hold queue.", {"query": "string"},
                                       _search_catalog),
            "renew_loan": Function("Renew a loan: set its due date (YYYY-MM-DD) and count one more renewal.",
                                   {"loan_id": "string", "due_date": "string"}, _renew_loan),
            "charge_fine": Function("Add an amount (in cents) to the fines a patron owes.",
                                    {"patron_id": "string", "amount_cents": "integer"}, _charge_fine),
            "return_item": Function("Check a returned item in: its loan ends.", {"loan_id": "string"}, _return_item),
            "checkout": Function("Lend an item on the shelf to a patron, due on the given date (YYYY-MM-DD).",
                                 {"patron_id": "string", "item_id": "string", "due_date": "string"}, _checkout),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = _draw_kind(rng)  # drawn once, so that redraws do not skew the shares
        return retry(lambda: self._draw(rng, config, kind), what="requests that each clause in play decides",
                     attempts=300)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        rules = {"borrowing": config.borrowing, "fines": config.fines, "limits": config.limits}
        clauses = _clauses(rules)
        script = config.limits and kind == "mixed"  # the loan limit, then the fines limit, each deciding a borrow
        patron: dict[str, Any] = {**draw_person(forge, rng, "P", "example.net", (100, 999)),
                                  "fines_cents": rng.choice((0, 0, 250, 475, 500)) if config.limits else 0}
        others = [f"P{rng.randint(100, 999)}" for _ in range(4)]
        if patron["id"] in others or len(set(others)) < 4:
            return None
        me = patron["id"]
        roles = _roles(clauses, kind)
        renew_roles = [r for r in roles if r in RENEW_ROLES]
        borrow_roles = [r for r in roles if r in BORROW_ROLES]
        extra = MAX_LOANS - 1 - len(renew_roles) if script else rng.randint(*config.loans)
        titles = rng.sample([f"The {a.title()} {n.title()}" for a in ADJECTIVES for n in NOUNS],
                            len(renew_roles) + extra + len(borrow_roles) + 2 + config.requests[1] // 2)
        items: dict[str, dict[str, Any]] = {}
        for title in titles:
            queue = rng.sample(others, rng.choice((0, 0, 1, 2))) if rng.random() < 0.5 else []
            if rng.random() < 0.2:  # the patron's own hold: first in line (no obstacle), or behind another's
                queue.insert(0 if rng.random() < 0.7 else len(queue), me)
            items[f"I{rng.randint(10_000, 99_999)}"] = {"title": title, "type": rng.choice(("book", "book", "dvd")),
                                                         "holds": queue}
        if len(items) < len(titles):
            return None
        item_ids = list(items)
        loans: dict[str, dict[str, Any]] = {}
        built: dict[str, dict[str, str]] = {}
        for role in renew_roles + [None] * extra:
            item_id = item_ids[len(loans)]
            item = items[item_id]
            item["holds"] = [h for h in item["holds"] if h != me]
            late = config.fines and rng.random() < 0.4
            due = TODAY - timedelta(days=rng.randint(1, 50)) if late else TODAY + timedelta(days=rng.randint(0, 15))
            renewals = rng.choice((0, 0, 1, 2))
            if role is not None:
                renewals = 2 if role == "renewals" else rng.choice((0, 0, 1))
                item["holds"] = rng.sample(others, rng.randint(1, 2)) if role == "holds" else []
                item["type"] = "dvd" if role == "dvd" else "book" if role == "fine" else item["type"]
                late_days = {"fine": (1, 40), "fine_cap": (41, 60) if item["type"] == "book" else (11, 40)}.get(role)
                due = TODAY - timedelta(days=rng.randint(*late_days)) if late_days else \
                    TODAY + timedelta(days=rng.randint(1, 15)) if role == "dvd" else due
            loan_id = f"L{len(loans) + 1:03d}"
            loans[loan_id] = {"patron": me, "item": item_id, "due": due.isoformat(), "renewals": renewals}
            if role is not None:
                built[role] = {"kind": "renew", "loan": loan_id}
        free = item_ids[len(loans):]
        for role in borrow_roles + (["limit", "fines_borrow"] if script else []):
            item_id = free.pop()
            items[item_id]["holds"] = [rng.choice(others)] + rng.sample([me], rng.randint(0, 1)) if role == "queue" \
                else [me, *rng.sample(others, rng.randint(1, 2))] if role == "own_first" else []
            built[role] = {"kind": "borrow", "item": item_id}
        for item_id in free:  # some of the rest are out with other patrons
            if rng.random() < 0.25:
                loans[f"L{len(loans) + 1:03d}"] = {"patron": rng.choice(others), "item": item_id,
                                                   "due": (TODAY + timedelta(days=rng.randint(1, 20))).isoformat(),
                                                   "renewals": 0}
        extras = [loan_id for loan_id, loan in loans.items() if loan["patron"] == me and loan_id not in
                  [r["loan"] for r in built.values() if r["kind"] == "renew"]]
        if script:
            built["return"] = {"kind": "return", "loan": extras.pop(rng.randrange(len(extras)))}
        records: Records = {"today": TODAY.isoformat(), "patrons": {me: patron}, "items": items, "loans": loans}
        count = max(rng.randint(*config.requests), len(built))
        world = copy.deepcopy(records)
        fillers: list[dict[str, str]] = []
        for _ in range(count - len(built)):  # the rest as they fall (borrows after the script, where there is one)
            allowed = kind == "all allowed" or (kind == "mixed" and rng.random() < 0.5)
            options = [{"kind": "renew", "loan": loan_id} for loan_id in extras]
            if config.borrowing:
                options += [{"kind": "borrow", "item": i} for i in free if not _on_loan(world, i)]
            options = [o for o in options if o not in fillers and (script or _allowed(world, me, o, rules) == allowed)]
            if not options:
                break
            fillers.append(rng.choice(options))
            if allowed and not script:
                _serve(world, me, fillers[-1], rules)
        requests = _order(rng, records, built, fillers, script, kind)
        outcome = _outcome(records, requests, rules)
        served = outcome[0]
        if (kind == "mixed" and (all(served) or not any(served))) or (kind != "mixed" and set(served) != {
                kind == "all allowed"}):
            return None
        if any(_outcome(records, requests, rules, blind) == outcome for blind in _needed(clauses, kind)):
            return None
        sides = list(served)
        texts = []
        for number, request in enumerate(requests, 1):
            if request["kind"] == "renew":
                title = items[loans[request["loan"]]["item"]]["title"]
                texts.append(f"{number}. Renew my loan of \"{title}\".")
            elif request["kind"] == "return":
                title = items[loans[request["loan"]]["item"]]["title"]
                texts.append(f"{number}. Return \"{title}\" (I am handing it in).")
            else:
                title = items[request["item"]]["title"]
                texts.append(f"{number}. Borrow \"{title}\" ({items[request['item']]['type'].upper()}).")
        prompt = (
            f"You are a librarian's assistant. Today is {TODAY.isoformat()}. Lending policy:\n{_policy(config)}\n\n"
            "Handle the patron's requests below in the order given, each as far as the policy allows (a refused "
            "request does not stop the next ones), using the tools; do nothing the policy forbids and nothing the "
            "patron did not ask for. Then reply to the patron with the numbers of the requests you carried out, "
            f"e.g. {EXAMPLE} (<answer>none</answer> if none).\n\n"
            f"Patron: Hi, this is {patron['name']} ({patron['email']}). Please:\n" + "\n".join(texts)
            + f"\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requests": requests, "rules": rules, "borrowing": config.borrowing,
                "budget": config.budget}
        return Problem(prompt=prompt, answer=served_answer(sides), data=data)

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy.deepcopy(problem.data["records"])
        patron_id = next(iter(records["patrons"]))
        for request in problem.data["requests"]:
            if _allowed(records, patron_id, request, problem.data["rules"]):
                _serve(records, patron_id, request, problem.data["rules"])
        return records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        records = data["records"]
        patron_id = next(iter(records["patrons"]))
        loans = sum(loan["patron"] == patron_id for loan in records["loans"].values())
        clauses = 2 + data["borrowing"] + data["rules"]["fines"] + data["rules"]["limits"]
        overdue = sum(r["kind"] == "renew" and records["loans"][r["loan"]]["due"] < records["today"]
                      for r in data["requests"])
        return len(data["requests"]) + loans + 2 * clauses + overdue

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy.deepcopy(data["records"])
        patron = next(iter(records["patrons"].values()))
        replies = [call("find_patron", email=patron["email"])]
        replies += [call("get_loan", loan_id=r["loan"]) for r in data["requests"] if r["kind"] == "renew"]
        for request in data["requests"]:
            if request["kind"] == "borrow":
                replies.append(call("search_catalog", query=records["items"][request["item"]]["title"]))
        for request in data["requests"]:
            if not _allowed(records, patron["id"], request, data["rules"]):
                continue
            for name, arguments in _serve(records, patron["id"], request, data["rules"]):
                replies.append(call(name, **arguments))
        return [*replies, problem.answer or "none"]



def _policy(config: LibraryLoans.Config) -> str:
    rules = [f"A loan may be renewed at most {MAX_RENEWALS} times in all. A renewal sets the due date to "
             f"{LOAN_DAYS['book']} days after today for a book, {LOAN_DAYS['dvd']} days after today for a DVD.",
             "A loan cannot be renewed while another patron has a hold on its item."]
    if config.borrowing:
        rules.append(f"A borrowed item is due {LOAN_DAYS['book']} days after today (a book) or {LOAN_DAYS['dvd']} "
                     "days after today (a DVD). An item with holds may be borrowed only by the first patron in its "
                     "hold queue.")
    if config.fines:
        rules.append(f"Renewing an overdue loan (due before today) first charges its late fine to the patron: "
                     f"{FINE_PER_DAY['book']} cents per day late for a book, {FINE_PER_DAY['dvd']} cents per day for "
                     f"a DVD (days late = today minus the due date), at most ${FINE_CAP // 100}.00 per loan.")
    if config.limits:
        rules.append(f"A patron may have at most {MAX_LOANS} items on loan at once, and may not borrow while owing "
                     f"more than ${MAX_FINES // 100}.00 in fines (fines charged today included). Returns are always "
                     "taken (a returned item's loan ends at once).")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _on_loan(records: Records, item_id: str) -> bool:
    return any(loan["item"] == item_id for loan in records["loans"].values())


def _allowed(records: Records, patron_id: str, request: dict[str, str], rules: dict[str, bool],
             blind: str | None = None, start: Records | None = None) -> bool:
    """Whether the policy allows ``request`` (``blind``: the policy without that clause, see :func:`_clauses`;
    ``start``: the records before the conversation, read by the ``fines_today`` blind policy)."""
    items, loans = records["items"], records["loans"]
    if request["kind"] == "return":
        return True
    if request["kind"] == "renew":
        loan = loans[request["loan"]]
        held = any(h != patron_id for h in items[loan["item"]]["holds"]) and blind != "holds"
        return (loan["renewals"] < MAX_RENEWALS or blind == "renewals") and not held
    item = items[request["item"]]
    if _on_loan(records, request["item"]):
        return False
    if item["holds"] and (blind == "own_first" or (item["holds"][0] != patron_id and blind != "queue")):
        return False
    if rules.get("limits"):
        count = sum(loan["patron"] == patron_id for loan in loans.values())
        fines = (start or records)["patrons"][patron_id]["fines_cents"] if blind == "fines_today" else \
            records["patrons"][patron_id]["fines_cents"]
        return (count < MAX_LOANS or blind == "max_loans") and (fines <= MAX_FINES or blind == "max_fines")
    return True


def _fine(records: Records, loan: dict[str, Any], blind: str | None = None) -> int:
    late = (date.fromisoformat(records["today"]) - date.fromisoformat(loan["due"])).days
    kind = records["items"][loan["item"]]["type"]
    cap = late * FINE_PER_DAY[kind] if blind == "fine_cap" else FINE_CAP
    return min(cap, late * FINE_PER_DAY[kind]) if late > 0 and blind != "fine" else 0


def _serve(records: Records, patron_id: str, request: dict[str, str], rules: dict[str, bool],
           blind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Carry out an allowed request on ``records``; the function calls that do it (``blind``: as the policy without
    that clause would)."""
    today = date.fromisoformat(records["today"])
    days = {"book": LOAN_DAYS["book"], "dvd": LOAN_DAYS["book" if blind == "dvd_days" else "dvd"]}
    calls: list[tuple[str, dict[str, Any]]] = []
    if request["kind"] == "return":
        del records["loans"][request["loan"]]
        return [("return_item", {"loan_id": request["loan"]})]
    if request["kind"] == "renew":
        loan = records["loans"][request["loan"]]
        fine = _fine(records, loan, blind) if rules["fines"] else 0
        if fine:
            records["patrons"][patron_id]["fines_cents"] += fine
            calls.append(("charge_fine", {"patron_id": patron_id, "amount_cents": fine}))
        base = date.fromisoformat(loan["due"]) if blind == "from_due" else today
        due = (base + timedelta(days=days[records["items"][loan["item"]]["type"]])).isoformat()
        loan["due"], loan["renewals"] = due, loan["renewals"] + 1
        return [*calls, ("renew_loan", {"loan_id": request["loan"], "due_date": due})]
    item = records["items"][request["item"]]
    due = (today + timedelta(days=days[item["type"]])).isoformat()
    _lend(records, patron_id, request["item"], due)
    return [("checkout", {"patron_id": patron_id, "item_id": request["item"], "due_date": due})]


def _lend(records: Records, patron_id: str, item_id: str, due: str) -> None:
    loan_id = f"L{1 + max((int(n[1:]) for n in records['loans']), default=0):03d}"  # (returns free no number)
    records["loans"][loan_id] = {"patron": patron_id, "item": item_id, "due": due, "renewals": 0}
    item = records["items"][item_id]
    item["holds"] = [h for h in item["holds"] if h != patron_id]  # the patron's own hold is filled


def _draw_kind(rng: random.Random) -> str:
    """``all allowed`` (:data:`ALL_ALLOWED` of the problems), ``all refused`` (:data:`ALL_REFUSED`) or ``mixed``."""
    draw = rng.random()
    return "all allowed" if draw < ALL_ALLOWED else "all refused" if draw < ALL_ALLOWED + ALL_REFUSED else "mixed"


def _clauses(rules: dict[str, bool]) -> frozenset[str]:
    """The clauses in play, each one a policy could leave out: at most two renewals (``renewals``); no renewal under
    another's hold (``holds``); 7 days for a DVD (``dvd_days``), counted from today (``from_due``: from the old due
    date); only the first in a hold queue borrows (``queue``), the patron first included (``own_first``: a policy
    that lends nothing with holds); the late fine (``fine``) and its cap (``fine_cap``); the loan limit
    (``max_loans``), the fines limit (``max_fines``), counting fines charged today (``fines_today``)."""
    active = {"renewals": True, "holds": True, "dvd_days": True, "from_due": True, "queue": rules["borrowing"],
              "own_first": rules["borrowing"], "fine": rules["fines"], "fine_cap": rules["fines"],
              "max_loans": rules["limits"], "max_fines": rules["limits"], "fines_today": rules["limits"]}
    return frozenset(name for name, on in active.items() if on)


def _roles(clauses: frozenset[str], kind: str) -> list[str]:
    """The loans and items built for a clause to decide, on the side ``kind`` allows (the limits take a script of
    their own in mixed problems: see :func:`_order`)."""
    roles = [role for role in RENEW_ROLES + BORROW_ROLES if ROLE_CLAUSE[role] in clauses]
    if kind == "all refused":
        return [role for role in roles if role in REFUSED_ROLES]
    return [role for role in roles if role not in REFUSED_ROLES] if kind == "all allowed" else roles


def _needed(clauses: frozenset[str], kind: str) -> frozenset[str]:
    """The clauses that must each decide the problem: all in a mixed problem, else those of its side's roles."""
    if kind == "mixed":
        return clauses
    sided = {ROLE_CLAUSE[role] for role in _roles(clauses, kind)} | ({"from_due"} if kind == "all allowed" else set())
    return clauses & frozenset(sided)


def _order(rng: random.Random, records: Records, built: dict[str, dict[str, str]], fillers: list[dict[str, str]],
           script: bool, kind: str) -> list[dict[str, str]]:
    """The requests in the order asked: the limits' script in its order (a refused borrow under holds, the patron's
    own first hold borrowed to the tenth loan, a borrow refused for the limit, the capped fine that puts the fines
    over the limit, a return, a borrow refused for the fines), the rest anywhere, but a renewal that charges a
    fine only after the loan limit's borrow, other borrows after the fines limit's (and, when all are allowed, every borrow before every renewal)."""
    if not script:
        rest = [built[r] for r in built] + fillers
        rng.shuffle(rest)
        if kind == "all allowed":
            rest.sort(key=lambda r: r["kind"] != "borrow")
        return rest
    sequence = [built[r] for r in ("queue", "own_first", "limit", "fine_cap", "return", "fines_borrow")]
    limit = sequence[2]
    for request in [built[r] for r in built if r not in SCRIPT_ROLES] + fillers:
        if request["kind"] == "borrow":  # after the fines limit's borrow
            low = sequence.index(built["fines_borrow"]) + 1
        else:  # a renewal that charges a fine: after the loan limit's borrow
            late = records["loans"][request["loan"]]["due"] < records["today"]
            low = sequence.index(limit) + 1 if late else 0
        sequence.insert(rng.randint(low, len(sequence)), request)
    return sequence


def _outcome(records: Records, requests: list[dict[str, str]], rules: dict[str, bool],
             blind: str | None = None) -> tuple[tuple[bool, ...], Any]:
    """The requests served and the records they leave, under the policy (without clause ``blind``)."""
    world = copy.deepcopy(records)
    patron_id = next(iter(world["patrons"]))
    served = []
    for request in requests:
        served.append(_allowed(world, patron_id, request, rules, blind, records))
        if served[-1]:
            _serve(world, patron_id, request, rules, blind)
    return tuple(served), (world["loans"], world["patrons"])


def _date(text: Any) -> str | None:
    try:
        return date.fromisoformat(str(text).strip()[:10]).isoformat() if len(str(text).strip()) == 10 else None
    except ValueError:
        return None


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_patron(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for patron in records["patrons"].values():
        if patron["email"] == email:
            loans = [loan_id for loan_id, loan in records["loans"].items() if loan["patron"] == patron["id"]]
            fines = patron["fines_cents"]
            return (f"patron {patron['id']}: {patron['name']}, fines owed ${fines // 100}.{fines % 100:02d}, "
                    f"loans: {', '.join(loans) or 'none'}"), None
    return f"error: no patron with e-mail {email[:100]!r}", None


def _get_loan(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    loan = records["loans"].get(str(args["loan_id"]))
    if loan is None:
        return f"error: no loan {str(args['loan_id'])[:40]!r}", None
    item = records["items"][loan["item"]]
    return (f"loan {args['loan_id']}: patron {loan['patron']}, item {loan['item']} \"{item['title']}\" ({item['type']}), "
            f"due {loan['due']}, renewals so far {loan['renewals']}, hold queue: {', '.join(item['holds']) or 'none'}"), None


def _search_catalog(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    words = [w for w in str(args["query"]).lower().replace('"', " ").split() if w not in ("the", "a")][:8]
    lines = []
    for item_id, item in records["items"].items():
        if words and all(w in item["title"].lower() for w in words):
            where = "on loan" if _on_loan(records, item_id) else "on the shelf"
            lines.append(f"- {item_id}: \"{item['title']}\" ({item['type']}), {where}, hold queue: "
                         f"{', '.join(item['holds']) or 'none'}")
    return ("\n".join(lines) if lines else "no matches"), None


def _renew_loan(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    loan = records["loans"].get(str(args["loan_id"]))
    due = _date(args["due_date"])
    if loan is None:
        return f"error: no loan {str(args['loan_id'])[:40]!r}", None
    if due is None:
        return "error: due_date must be a date YYYY-MM-DD", None
    loan["due"], loan["renewals"] = due, loan["renewals"] + 1
    return f"loan {args['loan_id']} renewed: due {due}, renewals so far {loan['renewals']}", records


def _charge_fine(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    patron = records["patrons"].get(str(args["patron_id"]))
    amount = args["amount_cents"]
    if patron is None:
        return f"error: no patron {str(args['patron_id'])[:40]!r}", None
    if not isinstance(amount, int) or amount <= 0 or amount > 10**7:
        return "error: amount_cents must be a positive whole number", None
    patron["fines_cents"] += amount
    fines = patron["fines_cents"]
    return f"charged; {patron['id']} now owes ${fines // 100}.{fines % 100:02d}", records


def _checkout(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    patron_id, item_id, due = str(args["patron_id"]), str(args["item_id"]), _date(args["due_date"])
    if patron_id not in records["patrons"]:
        return f"error: no patron {patron_id[:40]!r}", None
    if item_id not in records["items"]:
        return f"error: no item {item_id[:40]!r}", None
    if due is None:
        return "error: due_date must be a date YYYY-MM-DD", None
    if _on_loan(records, item_id):
        return f"error: item {item_id} is on loan", None
    _lend(records, patron_id, item_id, due)
    return f"item {item_id} lent to {patron_id}, due {due}", records


def _return_item(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    loan_id = str(args["loan_id"])
    if loan_id not in records["loans"]:
        return f"error: no loan {loan_id[:40]!r}", None
    del records["loans"][loan_id]
    return f"loan {loan_id} ended: item returned", records
