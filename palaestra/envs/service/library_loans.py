"""Serve a library patron's renewals and loans under a stated lending policy, with catalogue functions.

The episode's records are a library's catalogue (books and DVDs, each on the shelf or on loan, some with a
queue of holds), its loans, and one patron (their fines owed and their loans: due dates, renewals so far).
The patron asks, in order, to renew some of their loans, from level 1 to borrow some items (named by title)
and, from level 3, to pay some of their fines, in a drawn order. The functions find the patron, read a loan,
search the catalogue, renew a loan to a given due date, charge a fine, take a payment and check an item out
with a given due date; they refuse only the impossible (an item already on loan, an unknown id, a payment
above what is owed), never what the policy forbids:

1. a loan may be renewed at most twice in all; a renewal sets the due date to 21 days after today for a
   book, 7 days for a DVD (the agent computes the date);
2. a loan cannot be renewed while another patron has a hold on its item;
3. from level 1, a borrowed item is due 21 days (book) or 7 days (DVD) after today; an item with holds may
   be borrowed only by the first patron in its queue;
4. from level 2, renewing an overdue loan first charges its late fine: 25 cents a day for a book, 100 cents
   a day for a DVD (days late = today minus the due date), at most $10.00 per loan;
5. from level 3, a patron may have at most 10 items on loan, and may not borrow while owing more than $5.00
   in fines (fines charged and paid in this conversation included).

A refused request does not stop the next. The answer is the set of request numbers carried out (``none``
if none); the episode is judged on the answer and on the final records (due dates, renewal counts, fines,
loans) against those the policy determines, so a forbidden renewal, a wrong date or a missing fine fails.
Requests are built on both sides of the policy (a tenth of problems all allowed, a twenty-fifth all refused), with
near misses: a hold by the patron themself (no obstacle), a loan renewed once (may be renewed again),
fines of exactly $5.00 (may borrow), 9 loans (may borrow one more). From level 3 most problems make both limits
decide: the patron, owing more than $5.00 with 9 loans, asks to borrow (refused by the fines limit alone), pays
down to at most $5.00, borrows a tenth item, and asks to borrow again (refused by the loan limit alone), with
renewals interleaved; so a policy blind to either limit fails them. The difficulty is the requests plus the loans plus twice the clauses
in play plus the overdue renewals.

Version 4 (the lead, round 3 session 34): levels 0-2 were left to chance, so over 60 seeds a policy blind to the
renewal cap solved 0.73, 0.90, 0.80 of them, one allowing a single renewal 0.70, 0.98, 0.92 (0.47-0.65 from level 3),
one never charging late fines 0.90 of level 2, one giving every item a book's 21 days 0.57-0.60 of levels 0-1; from
level 3 a policy charging every late fine at the cap solved 0.90-0.97 and one charging a DVD the book's rate
0.57-0.60. Now every problem with a refused request has a renewal refused by the renewal cap alone and a request
refused by another patron's hold alone, and every problem with an allowed one a second renewal and a book's and a
DVD's loan period, and where fines are charged overdue renewals of a book and a DVD fined in full and one fined at
the cap (:func:`_needed_tests`; the patron's loans are drawn to allow them, :func:`_loan_profiles`), except that
problems all allowed under the fines limit do not test the fines. Over 100 seeds a level each of those policies
solves 0.01-0.07 (levels 0-2, 5) and 0.04-0.15 (levels 3-4: the problems all allowed), the blind ones above
0.04-0.07. Levels 0-2 ask 4, 4-5 and 5-6 requests (2, 2-3, 3-4 before), and from level 3 the both-limits problems
add two more requests a level.
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
    draw_person,
    draw_side,
    draw_sides,
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
REFUSALS = frozenset({"cap", "hold"})  # the refusals every problem with a refused request tests (_needed_tests)
FINE_TESTS = frozenset({"book fine", "dvd fine", "capped fine"})
DUE_TESTS = frozenset({"book due", "dvd due"})
LoanProfile = tuple[str | None, tuple[int, int] | None, int]  # a loan's type, days late, renewals (_loan_profiles)


@register
class LibraryLoans(RequestsServed):
    id = "service/library_loans"
    family = "service"
    description = "Serve a library patron's renewals and loans under a stated lending policy (holds, fines, limits)."
    tags = ("service", "multi-turn", "tools", "policy", "dates", "agentic")
    version = 4  # v4: every clause decides a request in every problem with one on its side (v3: levels 0-2 did not)
    tool_names = ("find_patron", "get_loan", "search_catalog", "renew_loan", "charge_fine", "pay_fine", "checkout")

    @dataclass(frozen=True)
    class Config:
        loans: tuple[int, int]  # the patron's loans
        requests: tuple[int, int]
        borrowing: bool
        fines: bool
        limits: bool
        budget: int

    presets = (
        Config((4, 5), (4, 4), False, False, False, 12),
        Config((4, 5), (4, 5), True, False, False, 14),
        Config((4, 5), (5, 6), True, True, False, 20),
        Config((4, 5), (4, 5), True, True, True, 30),
        Config((4, 6), (5, 7), True, True, True, 34),
    )
    growth = Growth(limits={"loans": 9, "requests": 12, "budget": 64})

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
            "pay_fine": Function("Take a payment (in cents) off the fines a patron owes (never more than owed).",
                                 {"patron_id": "string", "cents": "integer"}, _pay_fine),
            "checkout": Function("Lend an item on the shelf to a patron, due on the given date (YYYY-MM-DD).",
                                 {"patron_id": "string", "item_id": "string", "due_date": "string"}, _checkout),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = draw_side(rng)
        return retry(lambda: self._draw(rng, config, kind), what="requests on the asked sides of the policy",
                     attempts=200)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        patron: dict[str, Any] = {**draw_person(forge, rng, "P", "example.net", (100, 999)),
                                  "fines_cents": rng.choice((0, 0, 250, 475, 500, 525, 650)) if config.limits else 0}
        if kind == "all allowed":
            patron["fines_cents"] = min(patron["fines_cents"], 500)
        both_limits = config.limits and kind == "mixed"  # one borrow refused by each limit (see the docstring)
        if both_limits:
            patron["fines_cents"] = rng.choice((525, 650, 800, 975))
        others = [f"P{rng.randint(100, 999)}" for _ in range(4)]
        if patron["id"] in others:
            return None
        favourable = kind == "all allowed"  # a world where every request can be allowed
        titles = rng.sample([f"The {a.title()} {n.title()}" for a in ADJECTIVES for n in NOUNS],
                            max(config.loans[1], MAX_LOANS) + config.requests[1] + 10)
        items: dict[str, dict[str, Any]] = {}
        for title in titles:
            queue = rng.sample(others, rng.choice((0, 0, 1, 2))) if rng.random() < (0.2 if favourable else 0.6) else []
            if rng.random() < 0.2:  # the patron's own hold: first in line (no obstacle), or behind another's
                queue.insert(0 if favourable or rng.random() < 0.7 else len(queue), patron["id"])
            items[f"I{rng.randint(10_000, 99_999)}"] = {"title": title, "type": rng.choice(("book", "book", "dvd")),
                                                         "holds": queue}
        if len(items) < len(titles):
            return None
        item_ids = list(items)
        loans: dict[str, dict[str, Any]] = {}
        mine = item_ids[: MAX_LOANS - 1 if both_limits else rng.randint(*config.loans)]
        profiles: list[LoanProfile | None] = [*_loan_profiles(rng, kind, _fines_tested(config, kind))]
        if len(profiles) > len(mine):
            return None
        profiles += [None] * (len(mine) - len(profiles))
        rng.shuffle(profiles)
        for index, (item_id, profile) in enumerate(zip(mine, profiles)):
            late = config.fines and rng.random() < 0.4
            due = TODAY - timedelta(days=rng.randint(1, 50)) if late else TODAY + timedelta(days=rng.randint(0, 15))
            items[item_id]["holds"] = [h for h in items[item_id]["holds"] if h != patron["id"]]
            loan = {"patron": patron["id"], "item": item_id, "due": due.isoformat(),
                    "renewals": rng.choice((0, 0, 1) if favourable else (0, 0, 1, 2))}
            if profile is not None:  # a loan that one clause alone decides (no other patron's hold on it)
                kind_drawn, days_late, loan["renewals"] = profile
                items[item_id]["holds"], items[item_id]["type"] = [], kind_drawn or items[item_id]["type"]
                if days_late is not None:
                    loan["due"] = (TODAY - timedelta(days=rng.randint(*days_late))).isoformat()
            loans[f"L{index + 1:03d}"] = loan
        for item_id in item_ids[len(mine):]:  # some of the rest are out with other patrons
            if rng.random() < 0.25:
                loans[f"L{len(loans) + 1:03d}"] = {"patron": rng.choice(others), "item": item_id,
                                                   "due": (TODAY + timedelta(days=rng.randint(1, 20))).isoformat(),
                                                   "renewals": 0}
        records: Records = {"today": TODAY.isoformat(), "patrons": {patron["id"]: patron}, "items": items, "loans": loans}
        rules = {"fines": config.fines, "limits": config.limits}
        count = rng.randint(*config.requests)
        if config.limits and kind == "all allowed":  # renewals, then borrows up to the loan limit: no more than it
            count = min(count, MAX_LOANS)
        if both_limits:
            requests = _both_limits_requests(rng, copy_data(records), patron["id"], loans, item_ids, mine,
                                             count, rules)
        else:
            requests = self._draw_requests(rng, config, records, patron["id"], loans, item_ids, mine, count, kind)
        if requests is None:
            return None
        sides = _sides(records, patron["id"], requests, rules)
        texts = []
        for number, request in enumerate(requests, 1):
            if request["kind"] == "renew":
                title = items[loans[request["loan"]]["item"]]["title"]
                texts.append(f"{number}. Renew my loan of \"{title}\".")
            elif request["kind"] == "pay":
                texts.append(f"{number}. Pay {_dollars(int(request['cents']))} of my fines.")
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

    def _draw_requests(self, rng: random.Random, config: Config, records: Records, patron_id: str,
                       loans: dict[str, Any], item_ids: list[str], mine: list[str], count: int,
                       kind: str) -> list[dict[str, str]] | None:
        """Renewals and borrows drawn one by one on the drawn sides of the policy."""
        rules = {"fines": config.fines, "limits": config.limits}
        sides = draw_sides(rng, count, kind)
        needed = _needed_tests(kind, _fines_tested(config, kind))
        allowed_needed = len(needed & (FINE_TESTS | DUE_TESTS))
        if sides is None or sides.count(False) < len(needed & REFUSALS) or sides.count(True) < allowed_needed:
            return None
        world = copy_data(records)
        requests: list[dict[str, str]] = []
        tested: set[str] = set()
        for allowed in sides:
            options = [{"kind": "renew", "loan": loan_id} for loan_id, loan in world["loans"].items()
                       if loan["patron"] == patron_id and loan_id in loans]
            if config.borrowing:
                options += [{"kind": "borrow", "item": item_id} for item_id in item_ids
                            if item_id not in mine and not _on_loan(world, item_id)]
            options = [o for o in options if o not in requests and _allowed(world, patron_id, o, rules) == allowed]
            if not options:
                return None
            # a request that tests a clause not yet tested first, so that the draw rarely has to start again
            untested = [o for o in options if _tests(world, patron_id, o, rules) - tested & needed]
            request = rng.choice(untested or options)
            tested |= _tests(world, patron_id, request, rules)
            if allowed:
                _serve(world, patron_id, request, rules)
            requests.append(request)
        return requests if needed <= tested else None

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy_data(problem.data["records"])
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
        records = copy_data(data["records"])
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
                     f"more than ${MAX_FINES // 100}.00 in fines (fines charged and paid today included). A patron "
                     "may pay any part of their fines, never more than they owe.")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _both_limits_requests(rng: random.Random, world: Records, patron_id: str, loans: dict[str, Any],
                          item_ids: list[str], mine: list[str], count: int, rules: dict[str, bool]) -> list[dict[str, str]] | None:
    """The patron owes over $5.00 and has 9 loans: a borrow refused by the fines limit alone, a payment down to
    at most $5.00, a borrow (the tenth loan), a borrow refused by the loan limit alone, in this order; between the
    payment and the last borrow, a borrow refused by another patron's hold alone; before the payment, the renewal
    of an overdue loan whose fine is capped and renewals that test the other clauses (:func:`_tests`: a book's and a
    DVD's fine in full, a second renewal); anywhere, the renewal of a loan at the renewal cap (refused by the cap
    alone), and more renewals (before the payment) and borrows of held or lent items, two more a level as the
    level's requests grow. None when the records cannot give these."""
    items = world["items"]
    on_shelf = [i for i in item_ids if i not in mine and not _on_loan(world, i)]
    free = [i for i in on_shelf if not items[i]["holds"] or items[i]["holds"][0] == patron_id]
    held = [i for i in on_shelf if items[i]["holds"] and items[i]["holds"][0] != patron_id]
    mine_loans = [loan_id for loan_id in loans if loans[loan_id]["patron"] == patron_id]
    unheld = [loan_id for loan_id in mine_loans if all(h == patron_id for h in items[loans[loan_id]["item"]]["holds"])]
    capped = [loan_id for loan_id in unheld if loans[loan_id]["renewals"] >= MAX_RENEWALS]
    overdue = [loan_id for loan_id in unheld if loans[loan_id]["renewals"] < MAX_RENEWALS and _fine(world, loans[loan_id])]
    over_cap = [loan_id for loan_id in overdue if _fine(world, loans[loan_id]) == FINE_CAP]
    if len(free) < 3 or not held or not capped or not over_cap:
        return None
    late = rng.choice(over_cap)
    borrows = [{"kind": "borrow", "item": item_id} for item_id in rng.sample(free, 3)]
    order: list[dict[str, str] | None] = [borrows[0], None, borrows[1], borrows[2]]  # None: the payment
    order.insert(2, {"kind": "borrow", "item": rng.choice(held)})
    order.insert(rng.randint(0, 1), {"kind": "renew", "loan": late})
    order.insert(rng.randint(0, len(order)), {"kind": "renew", "loan": rng.choice(capped)})
    for test in ("book fine", "dvd fine", "second renewal"):  # before the payment, which then pays their fines down
        if any(slot is not None and test in _tests(world, patron_id, slot, rules) for slot in order):
            continue
        testing = [{"kind": "renew", "loan": loan_id} for loan_id in unheld]
        testing = [renewal for renewal in testing if renewal not in order and test in _tests(world, patron_id, renewal, rules)]
        if not testing:
            return None
        order.insert(rng.randint(0, order.index(None)), rng.choice(testing))
    spare = [loan_id for loan_id in mine_loans if loan_id != late and {"kind": "renew", "loan": loan_id} not in order]
    wanted = max(0, 2 * count - 8)
    extras = [{"kind": "renew", "loan": loan_id} for loan_id in spare]
    refused_anyway = [i for i in item_ids if i not in mine and {"kind": "borrow", "item": i} not in order
                      and (i in held or _on_loan(world, i))]  # held by another or out: no limit decides these
    extras += [{"kind": "borrow", "item": item_id} for item_id in refused_anyway]
    for request in rng.sample(extras, min(len(extras), wanted)):  # renewals before the payment, which pays their fines
        order.insert(rng.randint(0, order.index(None) if request["kind"] == "renew" else len(order)), request)
    requests, reasons = [], []
    for slot in order:
        if slot is None:  # pay down to a drawn level at most $5.00 (exactly $5.00 a near miss)
            owed = world["patrons"][patron_id]["fines_cents"]
            target = rng.choice((MAX_FINES, MAX_FINES, 400, 250, 0))
            if owed <= target:
                return None
            request = {"kind": "pay", "cents": str(owed - target)}
        else:
            request = slot
        if request in borrows:
            reasons.append(_limits_broken(world, patron_id))
        if _allowed(world, patron_id, request, rules):
            _serve(world, patron_id, request, rules)
        requests.append(request)
    return requests if reasons == [{"fines"}, set(), {"loans"}] else None


def _fines_tested(config: LibraryLoans.Config, kind: str) -> bool:
    """Whether a problem's requests must test the late fines (:func:`_needed_tests`): where they are charged, except
    in problems whose requests are all allowed under the fines limit (the fines of three overdue renewals would
    block every borrow after them)."""
    return config.fines and not (config.limits and kind == "all allowed")


def _loan_profiles(rng: random.Random, kind: str, fines: bool) -> list[LoanProfile]:
    """The patron's loans that :func:`_needed_tests` needs, as (type, days late or None, renewals so far): one at
    the renewal cap unless every request is to be allowed; unless every one is to be refused, a book and a DVD (where
    late fines are charged, both overdue by days whose fine is under the cap, and one more overdue past it), one of
    them renewed once."""
    profiles: list[LoanProfile] = []
    if kind != "all refused":
        profiles = [("book", None, 0), ("dvd", None, 0)]
        if fines:
            book_cap, dvd_cap = FINE_CAP // FINE_PER_DAY["book"], FINE_CAP // FINE_PER_DAY["dvd"]
            past = rng.choice((("book", (book_cap + 1, book_cap + 10)), ("dvd", (dvd_cap + 1, 50))))
            profiles = [("book", (1, book_cap - 1), 0), ("dvd", (1, dvd_cap - 1), 0), (*past, 0)]
        index = rng.randrange(len(profiles))
        profiles[index] = (*profiles[index][:2], MAX_RENEWALS - 1)
    return profiles + ([] if kind == "all allowed" else [(None, None, MAX_RENEWALS)])


def _needed_tests(kind: str, fines: bool) -> set[str]:
    """What the requests of a problem drawn one by one (:meth:`LibraryLoans._draw_requests`) must test, per
    :func:`_tests`: refusals by the renewal cap alone and by a hold alone unless every request is allowed; unless
    every one is refused, a second renewal and, where late fines are charged, overdue renewals of a book and of a DVD
    fined in full and one fined at the cap. Without them, in version 3, a policy blind to the renewal cap solved
    0.73-0.90 of levels 0-2, one allowing a single renewal 0.70-0.98, one never charging fines 0.90 of level 2."""
    refusals = set() if kind == "all allowed" else set(REFUSALS)
    allowed = set() if kind == "all refused" else {"second renewal", *(FINE_TESTS if fines else DUE_TESTS)}
    return refusals | allowed


def _tests(records: Records, patron_id: str, request: dict[str, str], rules: dict[str, bool]) -> set[str]:
    """The clauses a request tests on the records as they stand: ``cap`` (a renewal refused by the renewal cap
    alone), ``hold`` (a renewal or borrow refused by another patron's hold alone); for an allowed borrow or renewal
    ``book due`` or ``dvd due`` (the loan period it sets), and for an allowed renewal also ``second renewal`` (the loan
    was renewed once) and ``book fine``, ``dvd fine`` (overdue, the late fine charged in full) or ``capped fine``
    (overdue, the fine cut to the cap)."""
    if request["kind"] == "borrow":
        item = records["items"][request["item"]]
        held = bool(item["holds"]) and item["holds"][0] != patron_id and not _on_loan(records, request["item"])
        if held:
            return set() if rules["limits"] and _limits_broken(records, patron_id) else {"hold"}
        return {f"{item['type']} due"} if _allowed(records, patron_id, request, rules) else set()
    if request["kind"] != "renew":
        return set()
    loan = records["loans"][request["loan"]]
    held = any(h != patron_id for h in records["items"][loan["item"]]["holds"])
    capped = loan["renewals"] >= MAX_RENEWALS
    if held or capped:
        return set() if held and capped else {"hold" if held else "cap"}
    kind = records["items"][loan["item"]]["type"]
    tests = {f"{kind} due"} | ({"second renewal"} if loan["renewals"] == MAX_RENEWALS - 1 else set())
    late = (date.fromisoformat(records["today"]) - date.fromisoformat(loan["due"])).days
    if rules["fines"] and late > 0:
        tests.add("capped fine" if late * FINE_PER_DAY[kind] > FINE_CAP else f"{kind} fine")
    return tests


def _limits_broken(records: Records, patron_id: str) -> set[str]:
    """The borrowing limits (clause 5) the patron is at: ``loans``, ``fines``."""
    count = sum(loan["patron"] == patron_id for loan in records["loans"].values())
    return ({"loans"} if count >= MAX_LOANS else set()) | (
        {"fines"} if records["patrons"][patron_id]["fines_cents"] > MAX_FINES else set())


def _sides(records: Records, patron_id: str, requests: list[dict[str, str]], rules: dict[str, bool]) -> list[bool]:
    """Whether the policy allows each request, served in order."""
    world, sides = copy_data(records), []
    for request in requests:
        sides.append(_allowed(world, patron_id, request, rules))
        if sides[-1]:
            _serve(world, patron_id, request, rules)
    return sides


def _dollars(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _on_loan(records: Records, item_id: str) -> bool:
    return any(loan["item"] == item_id for loan in records["loans"].values())


def _allowed(records: Records, patron_id: str, request: dict[str, str], rules: dict[str, bool]) -> bool:
    items, loans = records["items"], records["loans"]
    if request["kind"] == "renew":
        loan = loans[request["loan"]]
        held = any(h != patron_id for h in items[loan["item"]]["holds"])
        return loan["renewals"] < MAX_RENEWALS and not held
    if request["kind"] == "pay":
        return 0 < int(request["cents"]) <= records["patrons"][patron_id]["fines_cents"]
    item = items[request["item"]]
    if _on_loan(records, request["item"]) or (item["holds"] and item["holds"][0] != patron_id):
        return False
    return not (rules["limits"] and _limits_broken(records, patron_id))


def _fine(records: Records, loan: dict[str, Any]) -> int:
    late = (date.fromisoformat(records["today"]) - date.fromisoformat(loan["due"])).days
    kind = records["items"][loan["item"]]["type"]
    return min(FINE_CAP, late * FINE_PER_DAY[kind]) if late > 0 else 0


def _serve(records: Records, patron_id: str, request: dict[str, str],
           rules: dict[str, bool]) -> list[tuple[str, dict[str, Any]]]:
    """Carry out an allowed request on ``records``; the function calls that do it."""
    today = date.fromisoformat(records["today"])
    calls: list[tuple[str, dict[str, Any]]] = []
    if request["kind"] == "renew":
        loan = records["loans"][request["loan"]]
        fine = _fine(records, loan) if rules["fines"] else 0
        if fine:
            records["patrons"][patron_id]["fines_cents"] += fine
            calls.append(("charge_fine", {"patron_id": patron_id, "amount_cents": fine}))
        due = (today + timedelta(days=LOAN_DAYS[records["items"][loan["item"]]["type"]])).isoformat()
        loan["due"], loan["renewals"] = due, loan["renewals"] + 1
        return [*calls, ("renew_loan", {"loan_id": request["loan"], "due_date": due})]
    if request["kind"] == "pay":
        records["patrons"][patron_id]["fines_cents"] -= int(request["cents"])
        return [("pay_fine", {"patron_id": patron_id, "cents": int(request["cents"])})]
    item = records["items"][request["item"]]
    due = (today + timedelta(days=LOAN_DAYS[item["type"]])).isoformat()
    _lend(records, patron_id, request["item"], due)
    return [("checkout", {"patron_id": patron_id, "item_id": request["item"], "due_date": due})]


def _lend(records: Records, patron_id: str, item_id: str, due: str) -> None:
    loan_id = f"L{len(records['loans']) + 1:03d}"
    records["loans"][loan_id] = {"patron": patron_id, "item": item_id, "due": due, "renewals": 0}
    item = records["items"][item_id]
    item["holds"] = [h for h in item["holds"] if h != patron_id]  # the patron's own hold is filled


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


def _pay_fine(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    patron = records["patrons"].get(str(args["patron_id"]))
    cents = args["cents"]
    if patron is None:
        return f"error: no patron {str(args['patron_id'])[:40]!r}", None
    if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
        return "error: cents must be a positive whole number", None
    if cents > patron["fines_cents"]:
        return f"error: {patron['id']} owes only {_dollars(patron['fines_cents'])}", None
    patron["fines_cents"] -= cents
    return f"paid; {patron['id']} now owes {_dollars(patron['fines_cents'])}", records


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
