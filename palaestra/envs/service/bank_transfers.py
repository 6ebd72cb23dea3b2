"""Carry out a customer's money transfers under a stated bank policy, with account functions.

The episode's records are a bank customer's accounts (a name such as ``checking``, a currency, a balance
in cents; from level 1 card holds on some; from level 4 a frozen one), a few other people's accounts the
customer pays, and the log of transfers (today's and yesterday's). The customer asks for several
transfers in order ("send 250.00 EUR from my euro account to account A-12345"). The functions read an
account, list its transfers and make a transfer of a given amount crediting a given amount; they refuse
only the impossible (an unknown account, a non-positive amount), never what the policy forbids:

1. the amount may not exceed the source's available balance (its balance minus its holds), as it stands
   after the transfers made before in this conversation;
2. from level 2, a destination in another currency is credited ``amount * rate`` at the stated rate,
   rounded down to the whole cent (the agent computes the credited amount);
3. from level 3, at most 2,000.00 (in the account's currency) may leave one account for other people's
   accounts per day, today's earlier transfers included (transfers between the customer's own accounts
   do not count);
4. from level 4, a frozen account (there is always one) can neither send nor receive.

Requests are handled in the order given; a refused one does not stop the next. The answer is the set of
request numbers carried out (``none`` if none). The episode is judged on the answer and on the final
records (balances and the transfer log) against those the policy determines, so a forbidden transfer,
a missing one or a wrongly converted amount fails. Requests are built on both sides of the policy
(a twenty-fifth of problems all allowed where there are at most 8 requests, more rarely fitting the balances;
a twenty-fifth all refused), with near misses: an
amount equal to the available balance (allowed), one between the available balance and the balance, a limit
reached by yesterday's transfers (allowed).

Every clause in play, and every part of one a policy could leave out (the balance as the earlier transfers
left it; holds; rates; the limit, yesterday's transfers and those to one's own accounts not counting toward
it, today's earlier ones in the log counting; a frozen account sending, and receiving), decides at least one
request of a mixed problem on its own: with the earlier requests served by the policy, the policy without
that part would refuse an allowed request, allow a refused one or credit an unconverted amount (in a problem
whose requests are all refused, each refusing part refuses one alone). So a policy blind to one part fails
every mixed problem; draws that miss a part are drawn again. (v2 let "ignore holds" solve 42-53% of levels
1-4, "check the balances as the conversation began" 61-77% of every level.) At level 4 a frozen account is
always there. The difficulty is the requests plus the accounts plus twice the clauses in play plus the
currency conversions plus the refused requests.

Generation speed: about 300 problems/s at level 4 (v2: 2,500/s). The time goes to redraws: a mixed level-4
problem must give each of its nine clause parts a request it decides alone, which about one draw in five
manages (the limit's parts are the scarcest), and to checking each request against the policy without each
part. It is kept because a draw that misses a part pays a policy blind to that part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
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
    served_answer,
)
from palaestra.generators.knowledge import NameForge

TODAY, YESTERDAY = "2024-09-12", "2024-09-11"
DAILY_LIMIT = 200_000  # cents of the account's currency, to other people's accounts per day
RATES = {("USD", "EUR"): "0.9150", ("EUR", "USD"): "1.0920", ("USD", "GBP"): "0.7850",
         ("GBP", "USD"): "1.2710", ("EUR", "GBP"): "0.8560", ("GBP", "EUR"): "1.1660"}
OWN_NAMES = {"USD": ("checking", "savings", "travel"), "EUR": ("euro",), "GBP": ("sterling",)}
EXAMPLE = "<answer>2, 5</answer>"  # fixed placeholder
ALL_ALLOWED = 0.04  # the share of problems whose requests the policy all allows (no refusing clause decides there)
ALL_REFUSED = 0.04  # and all refuses (the rest mix both sides)
ALL_ALLOWED_MOST = 8  # the most requests a problem may have to be all allowed (the top preset's)
REFUSING = frozenset({"holds", "limit", "limit_log", "frozen", "frozen_in"})  # clauses a refusal alone can show
ALLOWING = frozenset({"rates", "order", "limit_day", "limit_own"})  # and an allowed request (see _clauses)
ATTEMPTS = 400  # draws per problem (mixed problems at level 4, the scarcest, keep about one draw in ten)


@register
class BankTransfers(RequestsServed):
    id = "service/bank_transfers"
    family = "service"
    description = "Carry out a customer's money transfers under a stated bank policy (balances, holds, limits, rates)."
    tags = ("service", "multi-turn", "tools", "policy", "finance", "agentic")
    version = 3  # v3: every clause decides a request on its own; more requests a level; a 25th all allowed
    # (v2: a twenty-fifth of the problems refuse every request; v1: a tenth)
    tool_names = ("find_customer", "get_account", "get_transfers", "transfer")

    @dataclass(frozen=True)
    class Config:
        accounts: int  # the customer's own
        requests: tuple[int, int]
        holds: bool
        currencies: bool
        limit: bool
        frozen: bool
        budget: int

    presets = (
        Config(2, (3, 5), False, False, False, False, 14),
        Config(2, (4, 5), True, False, False, False, 14),
        Config(3, (4, 6), True, True, False, False, 18),
        Config(3, (5, 7), True, True, True, False, 22),
        Config(4, (6, 8), True, True, True, True, 26),
    )
    growth = Growth(limits={"accounts": 5, "requests": 16, "budget": 40})

    def functions(self) -> dict[str, Function]:
        return {
            "find_customer": Function("Find a customer by e-mail address: their id, name and account ids.",
                                      {"email": "string"}, _find_customer),
            "get_account": Function("Read an account: owner, name, currency, status; for the customer's own accounts "
                                    "also the balance and the holds (amounts in the account's currency).",
                                    {"account_id": "string"}, _get_account),
            "get_transfers": Function("List the transfers out of an account (date, destination, amount).",
                                      {"account_id": "string"}, _get_transfers),
            "transfer": Function("Move money: debit amount_cents from from_account and credit credited_cents to "
                                 "to_account (each in its account's currency, in cents), logged with today's date.",
                                 {"from_account": "string", "to_account": "string", "amount_cents": "integer",
                                  "credited_cents": "integer"}, _transfer),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # Both sides of the policy in most problems; the kind is drawn once, so redraws do not skew the shares.
        kind = _draw_kind(rng, config.requests[1])
        return retry(lambda: self._draw(rng, config, kind), what="transfers that each clause in play decides",
                     attempts=ATTEMPTS)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        customer = draw_person(forge, rng, "K", "example.org")
        currencies = ["USD"] * config.accounts
        if config.currencies:
            currencies[1:] = [rng.choice(("USD", "EUR", "GBP")) for _ in currencies[1:]]
        accounts: dict[str, dict[str, Any]] = {}
        taken: dict[str, int] = {}
        for currency in currencies:
            pool = OWN_NAMES[currency]
            name = pool[taken.get(currency, 0) % len(pool)] + ("" if taken.get(currency, 0) < len(pool) else "2")
            taken[currency] = taken.get(currency, 0) + 1
            holds = [rng.randint(20, 400) * 100 + rng.randint(0, 99) for _ in range(rng.randint(0, 2))] \
                if config.holds else []
            accounts[f"A-{rng.randint(10_000, 99_999)}"] = {
                "owner": customer["id"], "name": name, "currency": currency, "status": "open",
                "balance_cents": rng.randint(300, 6_000) * 100 + rng.randint(0, 99), "holds": holds}
        own = list(accounts)
        if config.frozen:  # always one, so that the clause can decide a request
            accounts[rng.choice(own)]["status"] = "frozen"
        payees = []
        for _ in range(rng.randint(1, 3)):
            payee_id = f"A-{rng.randint(10_000, 99_999)}"
            accounts[payee_id] = {"owner": f"{forge.word(2)} {forge.word(2)}", "name": "external",
                                  "currency": rng.choice(("USD", "EUR", "GBP")) if config.currencies else "USD",
                                  "status": "open", "balance_cents": rng.randint(0, 9_000) * 100, "holds": []}
            payees.append(payee_id)
        if len(set(accounts)) < len(own) + len(payees):
            return None
        log: list[dict[str, Any]] = []
        for account_id in own:  # earlier transfers to other people: today's count toward the limit, yesterday's not
            for day in (TODAY, YESTERDAY):
                if config.limit and rng.random() < 0.5:
                    log.append({"date": day, "from": account_id, "to": rng.choice(payees),
                                "amount_cents": rng.randint(300, 1_700) * 100, "credited_cents": 0})
        for entry in log:  # what those payees received (at today's rates; the log only has to be consistent)
            entry["credited_cents"] = _credited(entry["amount_cents"], accounts[entry["from"]]["currency"],
                                                accounts[entry["to"]]["currency"])
        records: Records = {"today": TODAY, "customers": {customer["id"]: customer}, "accounts": accounts, "transfers": log}
        rules = {"limit": config.limit, "frozen": config.frozen}
        clauses = _clauses(config.holds, config.currencies, rules)
        sides = _draw_sides(rng, rng.randint(*config.requests), kind, clauses)
        if sides is None:
            return None
        world = copy_data(records)
        requests: list[dict[str, Any]] = []
        decided: set[str] = set()
        for allowed in sides:
            request = _request(rng, world, records, own, payees, rules, allowed, clauses - decided)
            if request is None:
                return None
            decided |= _deciding(world, records, request, rules, clauses)
            if allowed:
                _execute(world, request)
            requests.append(request)
        if not _needed(clauses, kind) <= decided:
            return None
        texts = [f"{n}. Send {_money(r['amount_cents'])} {accounts[r['from']]['currency']} from my "
                 f"{accounts[r['from']]['name']} account to "
                 + (f"my {accounts[r['to']]['name']} account." if r["to"] in own else f"account {r['to']}.")
                 for n, r in enumerate(requests, 1)]
        prompt = (
            f"You are an agent of a bank. Today is {TODAY}. Bank policy:\n{_policy(config)}\n\n"
            "Handle the customer's requests below in the order given, each as far as the policy allows (a refused "
            "request does not stop the next ones), using the tools; do nothing the policy forbids and nothing the "
            "customer did not ask for. Then reply to the customer with the numbers of the requests you carried "
            f"out, e.g. {EXAMPLE} (<answer>none</answer> if none).\n\n"
            f"Customer: Hello, this is {customer['name']} ({customer['email']}). Please:\n" + "\n".join(texts)
            + f"\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requests": requests, "rules": rules, "currencies": config.currencies,
                "holds": config.holds, "budget": config.budget}
        return Problem(prompt=prompt, answer=served_answer(sides), data=data)

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy_data(problem.data["records"])
        for request in problem.data["requests"]:
            if _allowed(records, request, problem.data["rules"]):
                _execute(records, request)
        return records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        accounts = data["records"]["accounts"]
        own = sum(a["name"] != "external" for a in accounts.values())
        clauses = data["holds"] + data["currencies"] + data["rules"]["limit"] + data["rules"]["frozen"]
        conversions = sum(accounts[r["from"]]["currency"] != accounts[r["to"]]["currency"] for r in data["requests"])
        refused = sum(not _allowed(_before(data, index), request, data["rules"])
                      for index, request in enumerate(data["requests"]))
        return len(data["requests"]) + own + 2 * clauses + conversions + refused

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy_data(data["records"])
        customer = next(iter(records["customers"].values()))
        involved = list(dict.fromkeys(a for r in data["requests"] for a in (r["from"], r["to"])))
        replies = [call("find_customer", email=customer["email"])]
        replies += [call("get_account", account_id=a) for a in involved]
        if data["rules"]["limit"]:
            replies += [call("get_transfers", account_id=a) for a in dict.fromkeys(r["from"] for r in data["requests"])]
        for request in data["requests"]:
            if _allowed(records, request, data["rules"]):
                _execute(records, request)
                replies.append(call("transfer", from_account=request["from"], to_account=request["to"],
                                    amount_cents=request["amount_cents"], credited_cents=request["credited_cents"]))
        return [*replies, problem.answer or "none"]



def _before(data: dict[str, Any], index: int) -> Records:
    """The records as the policy leaves them just before request ``index``."""
    records: Records = copy_data(data["records"])
    for request in data["requests"][:index]:
        if _allowed(records, request, data["rules"]):
            _execute(records, request)
    return records


def _policy(config: BankTransfers.Config) -> str:
    rules = ["A transfer may not exceed the available balance of the account it comes from: its balance "
             + ("minus its holds, " if config.holds else "")
             + "as it stands after the transfers made before it. An amount equal to the available balance is fine."]
    if config.currencies:
        rates = "; ".join(f"1 {a} = {rate} {b}" for (a, b), rate in RATES.items())
        rules.append("Amounts are sent in the currency of the account they come from. A destination in another "
                     f"currency is credited the amount times the rate ({rates}), rounded down to the whole cent.")
    if config.limit:
        rules.append(f"At most {_money(DAILY_LIMIT)} (in the account's currency) may be sent from one account to "
                     "other people's accounts per calendar day, today's earlier transfers included; transfers between "
                     "the customer's own accounts do not count.")
    if config.frozen:
        rules.append("A frozen account can neither send nor receive money.")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _money(cents: int) -> str:
    return f"{cents // 100:,}.{cents % 100:02d}"


def _credited(amount: int, source: str, target: str) -> int:
    if source == target:
        return amount
    return int(amount * Fraction(RATES[source, target]))  # floor: both are positive


def _available(records: Records, account_id: str) -> int:
    account = records["accounts"][account_id]
    return int(account["balance_cents"] - sum(account["holds"]))


def _sent_today(records: Records, account_id: str) -> int:
    own = records["accounts"][account_id]["owner"]
    return sum(t["amount_cents"] for t in records["transfers"] if t["from"] == account_id and t["date"] == TODAY
               and records["accounts"][t["to"]]["owner"] != own)


def _allowed(records: Records, request: dict[str, Any], rules: dict[str, bool]) -> bool:
    accounts = records["accounts"]
    source, target = accounts[request["from"]], accounts[request["to"]]
    if rules["frozen"] and "frozen" in (source["status"], target["status"]):
        return False
    if request["amount_cents"] > _available(records, request["from"]):
        return False
    external = target["owner"] != source["owner"]
    return not (rules["limit"] and external
                and _sent_today(records, request["from"]) + request["amount_cents"] > DAILY_LIMIT)


def _execute(records: Records, request: dict[str, Any]) -> None:
    accounts = records["accounts"]
    accounts[request["from"]]["balance_cents"] -= request["amount_cents"]
    accounts[request["to"]]["balance_cents"] += request["credited_cents"]
    records["transfers"].append({"date": TODAY, "from": request["from"], "to": request["to"],
                                 "amount_cents": request["amount_cents"], "credited_cents": request["credited_cents"]})


def _draw_kind(rng: random.Random, requests: int) -> str:
    """``all allowed`` (:data:`ALL_ALLOWED` of the problems), ``all refused`` (:data:`ALL_REFUSED`) or ``mixed``;
    past :data:`ALL_ALLOWED_MOST` requests no problem is all allowed (so many transfers rarely fit the balances)."""
    draw = rng.random()
    if draw < ALL_ALLOWED:
        return "all allowed" if requests <= ALL_ALLOWED_MOST else "mixed"
    return "all refused" if draw < ALL_ALLOWED + ALL_REFUSED else "mixed"


def _draw_sides(rng: random.Random, count: int, kind: str, clauses: frozenset[str]) -> list[bool] | None:
    """Which requests the policy allows: all, none, or a mix with room for a refusal by each refusing clause."""
    if kind != "mixed":
        return [kind == "all allowed"] * count
    refusing = len(clauses & {"holds", "limit", "frozen"})  # limit_log and frozen_in share their refusals
    allowing = max(1, len(clauses & {"rates", "limit_day", "limit_own"}))  # order shares a request
    if count < refusing + 1:
        return None
    refused = set(rng.sample(range(count), rng.randint(max(1, refusing), max(count - allowing, refusing, 1))))
    return [n not in refused for n in range(count)]


def _clauses(holds: bool, currencies: bool, rules: dict[str, bool]) -> frozenset[str]:
    """The clauses in play, each a part of the policy a policy could leave out: the balance as earlier transfers
    leave it (``order``), holds, rates, the day's limit (``limit``) with its parts (yesterday's transfers do not count:
    ``limit_day``; nor do those to one's own accounts: ``limit_own``; today's earlier ones in the log do:
    ``limit_log``), frozen accounts (``frozen``: a frozen one cannot send; ``frozen_in``: nor receive)."""
    active = {"order": True, "holds": holds, "rates": currencies, "limit": rules["limit"],
              "limit_day": rules["limit"], "limit_own": rules["limit"], "limit_log": rules["limit"],
              "frozen": rules["frozen"], "frozen_in": rules["frozen"]}
    return frozenset(name for name, on in active.items() if on)


def _needed(clauses: frozenset[str], kind: str) -> frozenset[str]:
    """The clauses that must each decide a request on their own: all of them in a mixed problem, the refusing ones
    when every request is refused (nothing is carried out there, so no other clause can matter)."""
    return clauses if kind == "mixed" else clauses & REFUSING if kind == "all refused" else frozenset()


def _blind_allows(records: Records, start: Records, request: dict[str, Any], rules: dict[str, bool],
                  blind: str) -> bool:
    """What the policy without clause ``blind`` (see :func:`_clauses`) decides."""
    accounts = records["accounts"]
    source, target = accounts[request["from"]], accounts[request["to"]]
    statuses = (source["status"],) if blind == "frozen_in" else (source["status"], target["status"])
    if rules["frozen"] and blind != "frozen" and "frozen" in statuses:
        return False
    account = start["accounts"][request["from"]] if blind == "order" else source
    available = account["balance_cents"] - (0 if blind == "holds" else sum(account["holds"]))
    if request["amount_cents"] > available:
        return False
    counted = target["owner"] != source["owner"] or blind == "limit_own"
    if not rules["limit"] or blind == "limit" or not counted:
        return True
    log = records["transfers"][len(start["transfers"]):] if blind == "limit_log" else records["transfers"]
    sent = sum(t["amount_cents"] for t in log if t["from"] == request["from"]
               and (t["date"] == TODAY or blind == "limit_day")
               and (accounts[t["to"]]["owner"] != source["owner"] or blind == "limit_own"))
    return sent + request["amount_cents"] <= DAILY_LIMIT


def _deciding(records: Records, start: Records, request: dict[str, Any], rules: dict[str, bool],
              clauses: frozenset[str]) -> set[str]:
    """The clauses that decide ``request`` on their own as ``records`` stand (the earlier requests served by the
    policy): without the clause it would be allowed where it is refused or the reverse, or (rates) credited the
    amount itself."""
    allowed = _allowed(records, request, rules)
    accounts = records["accounts"]
    converted = accounts[request["from"]]["currency"] != accounts[request["to"]]["currency"]
    return {clause for clause in clauses
            if ((allowed and converted) if clause == "rates"
                else _blind_allows(records, start, request, rules, clause) != allowed)}


def _sent(records: Records, account_id: str, days: tuple[str, ...], own_too: bool) -> int:
    """What left ``account_id`` on ``days`` for other people's accounts (``own_too``: for any account)."""
    owner = records["accounts"][account_id]["owner"]
    return sum(t["amount_cents"] for t in records["transfers"] if t["from"] == account_id and t["date"] in days
               and (own_too or records["accounts"][t["to"]]["owner"] != owner))


def _request(rng: random.Random, records: Records, start: Records, own: list[str], payees: list[str],
             rules: dict[str, bool], allowed: bool, undecided: frozenset[str]) -> dict[str, Any] | None:
    """A transfer on the asked side of the policy as ``records`` stand, often right at an edge, and mostly one that
    a clause still ``undecided`` decides on its own (``start``: the records as the conversation began): the roles
    such a clause can play on this side are tried in a random order, then three draws without a role."""
    roles = sorted(undecided & (ALLOWING if allowed else REFUSING | {"order"}))
    rng.shuffle(roles)
    if roles and rng.random() < 0.15:
        roles = roles[:1]  # now and then a request that no clause was asked to decide, tried after one role
    for role in [*roles, None, None, None]:
        request = _role_request(rng, records, start, own, payees, rules, allowed, undecided, role)
        if request is not None:
            return request
    return None


def _role_request(rng: random.Random, records: Records, start: Records, own: list[str], payees: list[str],
                  rules: dict[str, bool], allowed: bool, undecided: frozenset[str],
                  role: str | None) -> dict[str, Any] | None:
    """One try at :func:`_request`'s transfer, built for clause ``role`` to decide (None: at an edge as it falls)."""
    accounts = records["accounts"]

    def open_(account_id: str) -> bool:
        return not rules["frozen"] or accounts[account_id]["status"] != "frozen"

    def moved(account_id: str) -> bool:  # debited before (a refusal the first balance allows), or credited
        now, first = _available(records, account_id), _available(start, account_id)
        return open_(account_id) and now != first and (now < first) != allowed

    pick = {"rates": [a for a in own if open_(a)], "holds": [a for a in own if accounts[a]["holds"] and open_(a)],
            "order": [a for a in own if moved(a)], "frozen_in": [a for a in own if open_(a)],
            "frozen": [a for a in own if not open_(a)] if rng.random() < 0.5 else [a for a in own if open_(a)],
            "limit_day": [a for a in own if open_(a) and _sent(records, a, (YESTERDAY,), False)]}
    sources = pick.get(role or "", own)
    if not sources:
        return None
    source = rng.choice(sources)
    targets = [a for a in own if a != source] + payees * 2
    if role == "rates":
        targets = [a for a in targets if open_(a) and accounts[a]["currency"] != accounts[source]["currency"]]
    elif role in ("frozen", "frozen_in") and open_(source):
        targets = [a for a in own if not open_(a)]
    elif role in ("limit", "limit_log", "limit_day"):
        targets = [a for a in payees if open_(a)]
    elif role == "limit_own":
        targets = [a for a in own if a != source and open_(a)]
    elif role in ("holds", "order"):
        targets = [a for a in targets if open_(a)]
    if not targets:
        return None
    target = rng.choice(targets)
    external = target in payees
    available = _available(records, source)
    limited = rules["limit"] and external
    left = DAILY_LIMIT - _sent_today(records, source)  # what the day's limit still lets go to other people
    room = min(available, left) if limited else available
    blocked = rules["frozen"] and "frozen" in (accounts[source]["status"], accounts[target]["status"])
    balance, first = accounts[source]["balance_cents"], _available(start, source)
    low, top = 0, 0  # an amount in (low, top], for the roles that need one range
    if role == "holds":  # over what the holds leave, within the balance and the day's limit
        low, top = max(available, 0), min(balance, left) if limited else balance
        if "order" in undecided and first > available and rng.random() < 0.7:
            top = min(top, first)  # and within what the first balance left: both decide
    elif role == "order" and not allowed:  # over the balance as it now stands, within the first one
        low, top = max(available, 0), min(first, left) if limited else first
    elif role == "order":  # over the first balance, within the balance an earlier transfer raised
        low, top = max(first, 0), room
    elif role == "limit_day":  # within today's room, over what yesterday's transfers would leave
        low, top = max(left - _sent(records, source, (YESTERDAY,), False), 0), room
    elif role == "limit_own":  # to one's own account, over what the limit would leave if it counted those
        low, top = max(DAILY_LIMIT - _sent(records, source, (TODAY,), True), 0), available
    elif role in ("limit", "limit_log"):  # over the day's limit, within the balance (and for limit_log within
        low = max(left, 0)                # what the limit would leave if it counted this conversation alone)
        top = min(available, low + 50_000)
        if role == "limit_log" or ("limit_log" in undecided and rng.random() < 0.7):
            top = min(top, DAILY_LIMIT - _sent(records, source, (TODAY,), False)
                      + _sent(start, source, (TODAY,), False))
    if role in ("holds", "order", "limit_day", "limit_own", "limit", "limit_log"):
        if top <= low or (blocked and role != "order"):
            return None
        amount = rng.randint(low + 1, top)
    elif allowed:
        if blocked or room < 1_000:
            return None
        amount = room if rng.random() < 0.2 else rng.randint(500, room)
    elif blocked and (role in ("frozen", "frozen_in") or rng.random() < 0.8):
        amount = rng.randint(500, max(500, min(room, 150_000)))
    elif role in ("frozen", "frozen_in"):
        return None
    elif limited and room < available and rng.random() < 0.6:  # over the day's limit, within the balance
        amount = rng.randint(room + 1, min(available, room + 50_000))
    elif available < balance and rng.random() < 0.6:  # within the balance, over what the holds leave
        amount = rng.randint(max(available + 1, 1), balance)
    else:
        amount = max(available, 0) + rng.randint(1, 30_000)
    if amount <= 0:
        return None
    credited = _credited(amount, accounts[source]["currency"], accounts[target]["currency"])
    request = {"from": source, "to": target, "amount_cents": amount, "credited_cents": credited}
    return request if _allowed(records, request, rules) == allowed else None


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_customer(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for customer in records["customers"].values():
        if customer["email"] == email:
            own = [a for a, account in records["accounts"].items() if account["owner"] == customer["id"]]
            return f"customer {customer['id']}: {customer['name']}, accounts: {', '.join(own)}", None
    return f"error: no customer with e-mail {email[:100]!r}", None


def _get_account(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    account = records["accounts"].get(str(args["account_id"]))
    if account is None:
        return f"error: no account {str(args['account_id'])[:40]!r}", None
    if account["name"] == "external":
        return (f"account {args['account_id']}: owner {account['owner']} (another bank customer), currency "
                f"{account['currency']}, status {account['status']}"), None
    holds = ", ".join(_money(h) for h in account["holds"]) or "none"
    return (f"account {args['account_id']}: {account['name']}, owner {account['owner']}, currency "
            f"{account['currency']}, status {account['status']}, balance {_money(account['balance_cents'])}, "
            f"holds: {holds}"), None


def _get_transfers(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    account_id = str(args["account_id"])
    if account_id not in records["accounts"]:
        return f"error: no account {account_id[:40]!r}", None
    lines = [f"- {t['date']}: to {t['to']}, {_money(t['amount_cents'])} {records['accounts'][account_id]['currency']}"
             for t in records["transfers"] if t["from"] == account_id]
    return "\n".join([f"transfers out of {account_id}:", *lines]) if lines else f"no transfers out of {account_id}", None


def _transfer(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    accounts = records["accounts"]
    source, target = str(args["from_account"]), str(args["to_account"])
    for account_id in (source, target):
        if account_id not in accounts:
            return f"error: no account {account_id[:40]!r}", None
    if source == target:
        return "error: the source and destination are the same account", None
    amount, credited = args["amount_cents"], args["credited_cents"]
    if not isinstance(amount, int) or not isinstance(credited, int) or amount <= 0 or credited <= 0:
        return "error: amounts must be positive whole numbers of cents", None
    if amount > 10**12 or credited > 10**12:
        return "error: amount out of range", None
    _execute(records, {"from": source, "to": target, "amount_cents": amount, "credited_cents": credited})
    return (f"transferred {_money(amount)} {accounts[source]['currency']} from {source}; credited "
            f"{_money(credited)} {accounts[target]['currency']} to {target}"), records
